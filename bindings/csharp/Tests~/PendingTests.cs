// The crowd's pending list and unsolvable counter through the package (Crowd.PendingCount,
// CopyPending, DiscardPending, CrowdStats.Unsolvable).
using System;
using System.Linq;

namespace Topoplan.Tests
{
    public static class PendingTests
    {
        [Test]
        public static void PendingListAndUnsolvableCounter()
        {
            using (PlanningTask task = PlanningTask.Load(Fixture.Domain("goap/castle-guard.toml")))
            using (var planner = new CrowdPlanner(task))
            using (var reference = new Crowd(planner))
            using (var crowd = new Crowd(planner, new CrowdOptions { FallbackBudget = 1 }))
            {
                var a = new CrowdBuffers(planner, 3000);
                Fixture.Population(task, planner, a, 11, null);
                var b = new CrowdBuffers(planner, 3000);
                Array.Copy(a.NpcClass, b.NpcClass, a.Count);
                Array.Copy(a.Init, b.Init, a.Init.Length);
                Array.Copy(a.Goal, b.Goal, a.Goal.Length);
                CrowdStats s = reference.Plan(a);
                int unsolvable = a.Status.Count(x => (x & (ushort)CrowdStatus.Unsolvable) != 0);
                Assert.Equal(unsolvable, s.Unsolvable, "the counter is the Unsolvable statuses");
                Assert.True(unsolvable > 0, "the population has unsolvable NPCs");
                Assert.Equal(0L, reference.PendingCount, "plan leaves nothing pending");

                // A fallback budget of one expansion: NPCs ℙ gives up on go pending in a frame call.
                long cursor = 0;
                s = crowd.PlanFrame(b, ref cursor, 60.0);
                long pending = crowd.PendingCount;
                Assert.True(pending > 0 && pending == s.Pending, "pending after the first frame: " + pending);
                var list = new long[pending];
                Assert.Throws(Status.BufferTooSmall, () => crowd.CopyPending(new long[pending - 1]), pending + " pending NPCs");
                Assert.Equal((int)pending, crowd.CopyPending(list), "copied");
                for (int k = 0; k < list.Length; ++k)
                {
                    Assert.Equal(CrowdStatus.Pending, b.StatusOf((int)list[k]), "listed NPCs are pending");
                    Assert.True(k == 0 || list[k - 1] < list[k], "ascending");
                }
                Assert.Equal((int)pending, b.Status.Count(x => x == (ushort)CrowdStatus.Pending), "every pending NPC listed");
                long counted = s.Unsolvable;
                for (int f = 0; f < 1000 && !s.Complete; ++f)
                {
                    s = crowd.PlanFrame(b, ref cursor, 60.0);
                    counted += s.Unsolvable;
                }
                Assert.True(s.Complete, "complete");
                Assert.Equal(0L, crowd.PendingCount, "none pending");
                Assert.True(a.Status.SequenceEqual(b.Status), "frames answer as one plan call");
                Assert.Equal((long)unsolvable, counted, "unsolvable counted once over the frames");

                // Discarded: they stay Pending in the output; the next pass starts at once.
                cursor = 0;
                crowd.PlanFrame(b, ref cursor, 60.0);
                Assert.True(crowd.PendingCount > 0, "pending again");
                crowd.DiscardPending();
                Assert.Equal(0L, crowd.PendingCount, "discarded");
                cursor = 0;
                s = crowd.PlanFrame(b, ref cursor, 60.0);
                Assert.Equal(0L, s.Resumed, "nothing resumed after a discard");
                Assert.Equal((long)b.Count, cursor, "a new pass at once");
            }
        }
    }
}
