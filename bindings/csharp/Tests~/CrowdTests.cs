// Crowd tests of the C# package (bindings/csharp/test.sh): every NPC of a batch gets ℙ's answer
// for its class, as one plan at a time would; frames, small buffers, plan handles and the cache,
// the hot calls without allocation, the planner chain.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Topoplan.Tests
{
    public static class CrowdTests
    {
        // Every NPC of a crowd batch gets ℙ's answer for its class, as one plan at a time would.
        static void CheckAgainstOneByOne(PlanningTask task, CrowdBuffers b, List<Problem> problems, Func<int, int[]> planOf)
        {
            var planners = new Dictionary<int, TopoPlanner>();
            var scratches = new Dictionary<int, TopoScratch>();
            try
            {
                var actions = new int[256];
                for (int i = 0; i < b.Count; ++i)
                {
                    Problem p = problems[i];
                    if (!planners.ContainsKey(p.NpcClass))
                    {
                        planners[p.NpcClass] = new TopoPlanner(task, p.NpcClass);
                        scratches[p.NpcClass] = planners[p.NpcClass].CreateScratch();
                    }
                    int length;
                    Status s = planners[p.NpcClass].Plan(scratches[p.NpcClass], p.Init, p.Goal, actions, out length);
                    CrowdStatus c = b.StatusOf(i);
                    if (s == Status.Ok)
                    {
                        Assert.True((c & CrowdStatus.Solved) != 0, "NPC " + i + " solved in the crowd too (" + c + ")");
                        int[] crowdPlan = planOf(i);
                        if ((c & CrowdStatus.Fallback) == 0)
                            Assert.SequenceEqual(actions.Take(length).ToArray(), crowdPlan, "NPC " + i + "'s plan");
                        Assert.True(task.Validate(p, crowdPlan).Valid, "NPC " + i + "'s plan is valid");
                    }
                    else if (s == Status.Unsolvable)
                        Assert.True((c & CrowdStatus.Unsolvable) != 0, "NPC " + i + " unsolvable in the crowd too (" + c + ")");
                    else
                        Assert.True((c & (CrowdStatus.Solved | CrowdStatus.Unsolvable | CrowdStatus.NoPlan)) != 0,
                                    "NPC " + i + " answered by the chain (" + c + ")");
                }
            }
            finally
            {
                foreach (var s in scratches.Values) s.Dispose();
                foreach (var p in planners.Values) p.Dispose();
            }
        }

        [Test]
        public static void BatchEqualsOneByOne()
        {
            using (PlanningTask task = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            using (var crowd = new Crowd(planner, new CrowdOptions { Threads = 2, NpcsPerBlock = 16 }))
            {
                var b = new CrowdBuffers(planner, 3000);
                var problems = new List<Problem>();
                Fixture.Population(task, planner, b, 7, problems);
                CrowdStats stats = crowd.Plan(b);
                Assert.True(stats.Complete, "complete");
                Assert.Equal(3000L, stats.Served, "served");
                Assert.Equal(0L, stats.BufferTooSmall, "count × MaxPlanLength never runs short");
                int solved = Enumerable.Range(0, b.Count).Count(i => (b.StatusOf(i) & CrowdStatus.Solved) != 0);
                Assert.Equal((long)solved, stats.Solved, "solved count");
                Assert.True(solved > 0 && solved < b.Count, "some solved, some not: " + solved);
                CheckAgainstOneByOne(task, b, problems, i => b.CopiedPlan(i).ToArray());
                // Pack and unpack round-trip.
                var state = new int[planner.NumVariables];
                planner.UnpackState(new ReadOnlySpan<ulong>(b.Init, 5 * planner.Words, planner.Words), state);
                Assert.SequenceEqual(problems[5].Init, state, "unpacked state");
            }
        }

        [Test]
        public static void FramesEqualWholeBatch()
        {
            using (PlanningTask task = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            using (var crowd = new Crowd(planner, new CrowdOptions { NpcsPerBlock = 8 }))
            {
                var whole = new CrowdBuffers(planner, 2000);
                var framed = new CrowdBuffers(planner, 2000);
                Fixture.Population(task, planner, whole, 11, null);
                Fixture.Population(task, planner, framed, 11, null);
                crowd.Plan(whole);
                // The contract of docs/c-api.md: a frame writes nothing for the NPCs it does not
                // reach (their entries keep what the caller left there), and the NPCs it answered
                // are those its cursor passed.
                for (int i = 0; i < framed.Count; ++i)
                {
                    framed.Status[i] = 0xBEEF;
                    framed.Length[i] = 0xBEEF;
                    framed.Offset[i] = 0xBEEF;
                }
                long cursor = 0;
                int frames = 0;
                while (true)
                {
                    long first = cursor;
                    CrowdStats s = crowd.PlanFrame(framed, ref cursor, 0.0);
                    Assert.Equal(cursor - first, s.Served, "served = the NPCs the cursor passed (no chain here)");
                    for (long i = cursor; i < framed.Count; ++i)
                        Assert.True(framed.Status[i] == 0xBEEF && framed.Length[i] == 0xBEEF && framed.Offset[i] == 0xBEEF,
                                    "NPC " + i + " past the cursor untouched");
                    for (long i = first; i < cursor; ++i)
                        Assert.True(framed.Status[i] != 0xBEEF && framed.Status[i] != 0, "NPC " + i + " answered");
                    ++frames;
                    if (s.Complete) break;
                    Assert.True(frames < 10000, "frames end");
                }
                Assert.True(frames > 1, "a zero budget serves one block per frame: " + frames + " frames");
                for (int i = 0; i < whole.Count; ++i)
                {
                    Assert.Equal(whole.Status[i] & ~(int)CrowdStatus.CacheHit, framed.Status[i] & ~(int)CrowdStatus.CacheHit, "status of " + i);
                    Assert.SequenceEqual(whole.CopiedPlan(i).ToArray(), framed.CopiedPlan(i).ToArray(), "plan of " + i);
                }
            }
        }

        [Test]
        public static void SmallActionBufferAnswersBufferTooSmall()
        {
            using (PlanningTask task = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            using (var crowd = new Crowd(planner, new CrowdOptions { WorkerMemoEntries = 0 }))
            {
                var b = new CrowdBuffers(planner, 1000, 200);  // 0.2 actions per NPC
                Fixture.Population(task, planner, b, 3, null);
                CrowdStats s = crowd.Plan(b);
                Assert.True(s.BufferTooSmall > 0, "buffer too small reported: " + s.BufferTooSmall);
                for (int i = 0; i < b.Count; ++i)
                    if (b.StatusOf(i) == CrowdStatus.BufferTooSmall)
                        Assert.True(b.Length[i] > 0, "length = actions needed");
            }
        }

        [Test]
        public static void PlanHandlesAndCache()
        {
            using (PlanningTask task = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            using (var cache = new PlanCache(planner, 1 << 12))
            using (var crowd = new Crowd(planner, new CrowdOptions { Cache = cache }))
            using (var plain = new Crowd(planner))
            {
                var b = new CrowdBuffers(planner, 2000);
                var problems = new List<Problem>();
                Fixture.Population(task, planner, b, 5, problems);
                var copy = new CrowdBuffers(planner, 2000);
                Fixture.Population(task, planner, copy, 5, null);
                plain.Plan(copy);

                CrowdStats first = crowd.PlanHandles(b);
                CrowdStats second = crowd.PlanHandles(b);
                Assert.True(second.CacheHits > first.CacheHits, "warm: " + second.CacheHits + " hits vs " + first.CacheHits);
                Assert.True(cache.Stats.Hits > 0 && cache.Stats.Inserts > 0, "cache counters");
                uint epoch;
                long used, capacity;
                cache.Table(out epoch, out used, out capacity);
                Assert.True(epoch != 0 && used > 0 && capacity > used, "table in use");
                int byHandle = 0;
                Func<int, int[]> planOf = i =>
                {
                    ReadOnlySpan<int> plan;
                    if (b.Handles[i].HasPlan)
                    {
                        Assert.True(crowd.TryResolve(b.Handles[i], out plan), "handle resolves");
                        ReadOnlySpan<int> same;
                        Assert.True(cache.TryResolve(b.Handles[i], out same) && same.SequenceEqual(plan), "cache resolves the same");
                        ++byHandle;
                        return plan.ToArray();
                    }
                    return b.CopiedPlan(i).ToArray();
                };
                for (int i = 0; i < b.Count; ++i)
                {
                    Assert.Equal(copy.Status[i] & (int)CrowdStatus.Solved, b.Status[i] & (int)CrowdStatus.Solved, "solved " + i);
                    if ((copy.Status[i] & (int)CrowdStatus.Solved) != 0)
                        Assert.SequenceEqual(copy.CopiedPlan(i).ToArray(), planOf(i), "plan by handle = plan by copy, NPC " + i);
                }
                Assert.True(byHandle > 0, "some NPCs answered by handle");
                CheckAgainstOneByOne(task, b, problems, planOf);

                PlanHandle old = b.Handles.First(h => h.HasPlan);
                cache.Invalidate();
                ReadOnlySpan<int> stale;
                Assert.True(!crowd.TryResolve(old, out stale) && stale.IsEmpty, "stale after invalidation");
                Assert.True(!cache.TryResolve(default(PlanHandle), out stale), "empty handle");
            }
        }

        [Test]
        public static void HotCallsDoNotAllocate()
        {
            using (PlanningTask task = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            using (var cache = new PlanCache(planner, 1 << 12))
            using (var crowd = new Crowd(planner, new CrowdOptions { Cache = cache }))
            using (var topo = new TopoPlanner(task, 0))
            using (TopoScratch scratch = topo.CreateScratch())
            {
                var b = new CrowdBuffers(planner, 500);
                Fixture.Population(task, planner, b, 4, null);
                Problem p = task.Instance(0);
                var actions = new int[topo.MaxPlanLength];
                int length;
                long cursor = 0;
                ReadOnlySpan<int> plan;
                // Warm: the first calls compile the methods (the JIT allocates).
                crowd.Plan(b);
                crowd.PlanHandles(b);
                crowd.PlanFrame(b, ref cursor, 1.0);
                topo.Plan(scratch, p.Init, p.Goal, actions, out length);
                crowd.TryResolve(b.Handles.First(h => h.HasPlan), out plan);
                PlanHandle handle = b.Handles.First(h => h.HasPlan);
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int r = 0; r < 10; ++r)
                {
                    crowd.Plan(b);
                    crowd.PlanHandles(b);
                    cursor = 0;
                    crowd.PlanFrame(b, ref cursor, 1.0);
                    topo.Plan(scratch, p.Init, p.Goal, actions, out length);
                    crowd.TryResolve(handle, out plan);
                }
                long allocated = GC.GetAllocatedBytesForCurrentThread() - before;
                Assert.Equal(0L, allocated, "bytes allocated by 10 rounds of hot calls");
            }
        }

        [Test]
        public static void PlannerChain()
        {
            using (PlanningTask task = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            {
                var options = new CrowdOptions { Fallback = "astar,astar-back", FallbackBudget = 500 };
                options.ClassFallback["Sheriff"] = "none";
                using (var crowd = new Crowd(planner, options))
                {
                    var b = new CrowdBuffers(planner, 500);
                    Fixture.Population(task, planner, b, 9, null);
                    Assert.True(crowd.Plan(b).Complete, "complete");
                }
            }
        }
    }
}
