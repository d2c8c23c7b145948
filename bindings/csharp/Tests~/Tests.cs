// Tests of the C# package against the freshly built libtopoplan_c (bindings/csharp/test.sh).
// Every plan is checked by the library's validator; planners are compared with each other
// (A* forward and regressive are optimal: equal costs); crowds: CrowdTests.cs.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Topoplan.Tests
{
    static class Fixture
    {
        public static string RepoDir;
        public static string Domain(string name) { return Path.Combine(RepoDir, "domains", name); }
        public static PlanningTask Western() { return PlanningTask.Load(Domain("western.toml")); }

        // A seeded population: each NPC takes an instance of its class and a few random
        // changes to its state (so some plans differ, some NPCs are unsolvable).
        public static void Population(PlanningTask task, CrowdPlanner planner, CrowdBuffers b, int seed,
                                      List<Problem> problems)
        {
            var rng = new Random(seed);
            int instances = task.NumInstances;
            for (int i = 0; i < b.Count; ++i)
            {
                Problem p = task.Instance(rng.Next(instances));
                int[] init = (int[])p.Init.Clone();
                int changes = rng.Next(3);
                for (int k = 0; k < changes; ++k)
                {
                    int v = rng.Next(init.Length);
                    init[v] = rng.Next(task.DomainSize(v));
                }
                b.Set(i, p.NpcClass, init, p.Goal);
                if (problems != null) problems.Add(new Problem(init, p.Goal, p.NpcClass));
            }
        }

        public static void Collect()
        {
            for (int i = 0; i < 4; ++i)
            {
                GC.Collect();
                GC.WaitForPendingFinalizers();
            }
        }

        public static long RssKb()
        {
            foreach (string line in File.ReadAllLines("/proc/self/status"))
                if (line.StartsWith("VmRSS:"))
                    return long.Parse(line.Substring(6).Trim().Split(' ')[0]);
            return 0;
        }
    }

    public static class TaskTests
    {
        [Test]
        public static void AbiAndVersion()
        {
            Library.CheckAbi();
            Assert.Equal(Library.BindingsAbiVersion, Library.AbiVersion, "ABI version");
            Assert.True(!string.IsNullOrEmpty(Library.Version), "version string");
            Assert.Equal("unsolvable", Library.StatusName(Status.Unsolvable), "status name");
            Assert.True(Library.PlannerNames().Contains("topo"), "topo is registered");
            Assert.True(Library.PlannerDescription("astar") != null, "astar has a description");
        }

        [Test]
        public static void LoadAndParse()
        {
            string path = Fixture.Domain("western.toml");
            using (PlanningTask loaded = PlanningTask.Load(path))
            using (PlanningTask parsed = PlanningTask.Parse(File.ReadAllText(path), "western.toml"))
            {
                Assert.Equal("western", loaded.Name, "name");
                Assert.Equal(loaded.NumVariables, parsed.NumVariables, "variables");
                Assert.Equal(loaded.NumActions, parsed.NumActions, "actions");
                Assert.Equal(7, loaded.NumClasses, "classes");
                Assert.Equal(loaded.NumInstances, parsed.NumInstances, "instances");
                int horse = loaded.FindClass("HorseBreeder");
                Assert.Equal("HorseBreeder", loaded.ClassName(horse), "class name round trip");
                int water = loaded.FindVariable("water");
                Assert.Equal("inTrough", loaded.ValueName(water, loaded.FindValue(water, "inTrough")), "value round trip");
                Problem p = loaded.Instance("feed-the-horses");
                Assert.Equal(horse, p.NpcClass, "instance class");
                Assert.Equal(loaded.NumVariables, p.Init.Length, "init size");
                int[] goal = loaded.ParseState("water=inTrough, haystack=inFeeder");
                Assert.Equal(loaded.FindValue(water, "inTrough"), goal[water], "parsed goal");
                Assert.Equal(PlanningTask.Undefined, goal[loaded.FindVariable("coal")], "unnamed = undefined");
                string text = loaded.FormatState(goal);
                Assert.True(text.Contains("water=inTrough") && text.Contains("haystack=inFeeder"), "formatted: " + text);
                // The native text written back parses to the same task.
                using (PlanningTask again = PlanningTask.Parse(loaded.Write(), "written.toml", TaskFormat.Native))
                {
                    Assert.Equal(loaded.NumActions, again.NumActions, "written actions");
                    for (int a = 0; a < loaded.NumActions; ++a)
                    {
                        Assert.Equal(loaded.ActionName(a), again.ActionName(a), "action name");
                        Assert.Equal(loaded.ActionCost(a), again.ActionCost(a), "action cost");
                    }
                }
            }
            using (PlanningTask sas = PlanningTask.Load(Fixture.Domain("horse-breeder.sas")))
                Assert.True(sas.NumActions > 0 && sas.NumInstances == 1, "SAS task");
        }

        [Test]
        public static void PlanWithEveryPlanner()
        {
            using (PlanningTask task = Fixture.Western())
            {
                string[] planners = Library.PlannerNames();
                for (int i = 0; i < task.NumInstances; ++i)
                {
                    Problem p = task.Instance(i);
                    var optimal = new Dictionary<string, long>();
                    bool anySolved = false;
                    foreach (string name in planners)
                    {
                        PlanResult r = task.Plan(name, p);
                        if (r.Status == Status.Unsupported || r.Status == Status.GaveUp) continue;
                        Assert.Equal(Status.Ok, r.Status, name + " on " + task.InstanceName(i) + ": " + r.Message);
                        anySolved = true;
                        Validation v = task.Validate(p, r.Actions);
                        Assert.True(v.Valid, name + "'s plan is valid: " + v.Message);
                        Assert.Equal(r.Stats.Cost, v.Cost, name + "'s cost");
                        Assert.Equal(r.Actions.Length, r.Stats.Length, name + "'s length");
                        Assert.True(!string.IsNullOrEmpty(r.Stats.Engine), name + " names its engine");
                        if (name == "astar" || name == "astar-back") optimal[name] = r.Stats.Cost;
                    }
                    Assert.True(anySolved, "some planner solves " + task.InstanceName(i));
                    Assert.Equal(optimal["astar"], optimal["astar-back"], "both optimal searches agree on " + task.InstanceName(i));
                }
            }
        }

        [Test]
        public static void PlanIntoCallerBuffer()
        {
            using (PlanningTask task = Fixture.Western())
            {
                Problem p = task.Instance("feed-the-horses");
                PlanStats stats;
                string message;
                Status s = task.Plan("topo", p, null, new int[1], out stats, out message);
                Assert.Equal(Status.BufferTooSmall, s, "one slot is too small");
                Assert.True(stats.Length > 1, "the length needed is reported");
                var actions = new int[stats.Length];
                Assert.Equal(Status.Ok, task.Plan("topo", p, null, actions, out stats, out message), "exact fit");
                Assert.True(task.Validate(p, actions).Valid, "valid");
                PlanOptions tight = PlanOptions.Defaults();
                tight.MaxExpansions = 1;
                PlanResult limited = task.Plan("astar", p, tight);
                Assert.Equal(Status.LimitReached, limited.Status, "one expansion is not enough for A*");
            }
        }

        [Test]
        public static void Validate()
        {
            using (PlanningTask task = Fixture.Western())
            {
                Problem p = task.Instance("feed-the-horses");
                int[] plan = task.Plan("astar", p).Actions;
                Assert.True(plan.Length >= 2, "a plan of several steps");
                Validation ok = task.Validate(p, plan);
                Assert.True(ok.Valid && ok.FailedStep == -1 && ok.Message == "", "valid plan");
                Validation cut = task.Validate(p, plan.Take(plan.Length - 1).ToArray());
                Assert.True(!cut.Valid && cut.FailedStep == -1 && cut.Message.Length > 0, "goal not reached: " + cut.Message);
                Validation skip = task.Validate(p, plan.Skip(1).ToArray());
                Assert.True(!skip.Valid && skip.FailedStep >= 0 && skip.Message.Length > 0, "a step does not apply: " + skip.Message);
            }
        }

        [Test]
        public static void ClassAnalysis()
        {
            using (PlanningTask task = Fixture.Western())
            {
                for (int c = 0; c < task.NumClasses; ++c)
                {
                    string why;
                    ClassReport r = Analysis.Check(task, c, out why);
                    Assert.True(r.TopoApplies, "Western's classes are unary and post-unique");
                    using (var a = new Analysis(task, c))
                    {
                        Assert.Equal(r.Class, a.Report.Class, "same class from both calls");
                        Assert.Equal(why, a.WhyNot, "same reason");
                        int analysed = Enumerable.Range(0, task.NumActions)
                                           .Count(x => (a.ActionFlags(x) & ActionFlags.Analysed) != 0);
                        Assert.Equal(r.NumAnalysed, analysed, "analysed flags");
                        Assert.True(a.Edges(false).Length % 2 == 0, "edge pairs");
                    }
                }
            }
            using (PlanningTask soldier = PlanningTask.Load(Fixture.Domain("real/gpgoap-soldier.toml")))
            using (var a = new Analysis(soldier))
            {
                Assert.True(!a.Report.TopoApplies, "the soldier has multi-effect actions");
                Assert.True(a.Lines.Length > 0 && a.Lines.All(l => l.Length > 0), "reasons in words");
            }
        }

        [Test]
        public static void TopoHotPathEqualsNamedPlanner()
        {
            using (PlanningTask task = Fixture.Western())
            {
                for (int i = 0; i < task.NumInstances; ++i)
                {
                    Problem p = task.Instance(i);
                    using (var topo = new TopoPlanner(task, p.NpcClass))
                    using (TopoScratch scratch = topo.CreateScratch())
                    {
                        var actions = new int[topo.MaxPlanLength];
                        int length;
                        Status s = topo.Plan(scratch, p.Init, p.Goal, actions, out length);
                        PlanResult named = task.Plan("topo", p);
                        Assert.Equal(named.Status, s, "status of " + task.InstanceName(i));
                        if (s == Status.Ok)
                            Assert.SequenceEqual(named.Actions, actions.Take(length).ToArray(), "plan of " + task.InstanceName(i));
                        else
                            Assert.True(topo.Explain(scratch).Length > 0, "explained");
                        if (s == Status.Ok && length > 0)
                        {
                            int needed;
                            Assert.Equal(Status.BufferTooSmall, topo.Plan(scratch, p.Init, p.Goal, Span<int>.Empty, out needed), "no room");
                            Assert.Equal(length, needed, "length needed");
                        }
                    }
                }
            }
        }
    }

    public static class ErrorTests
    {
        [Test]
        public static void BadFilesAndText()
        {
            string missing = Path.Combine(Fixture.RepoDir, "domains", "no-such-domain.toml");
            Assert.Throws(Status.InputError, () => PlanningTask.Load(missing), "no-such-domain.toml");
            Assert.Throws(Status.InputError, () => PlanningTask.Parse("[domain]\nname = 3\n", "bad.toml", TaskFormat.Native), "bad.toml:");
            Assert.Throws(Status.InputError, () => PlanningTask.Parse("[[variable]]\nname = \"x\"\nvalues = [\"a\"]\n[[action]]\nname = \"A\"\neffects = [\"y: a -> a\"]\n", "undeclared.toml", TaskFormat.Native), "undeclared.toml:");
        }

        [Test]
        public static void BadNamesAndArguments()
        {
            using (PlanningTask task = Fixture.Western())
            {
                Problem p = task.Instance(0);
                Assert.Throws(Status.NotFound, () => task.Plan("no-such-planner", p), "no-such-planner");
                Assert.Throws(Status.NotFound, () => task.FindInstance("nope"), "nope");
                Assert.Throws(Status.NotFound, () => task.FindVariable("nope"), "nope");
                Assert.Throws(Status.NotFound, () => task.FindAction("nope"), "nope");
                Assert.Throws(Status.NotFound, () => task.FindValue(0, "nope"), "nope");
                Assert.Throws(Status.InvalidArgument, () => task.Instance(999), "999");
                Assert.Throws(Status.InvalidArgument, () => task.Plan("topo", new Problem(new int[3], new int[3])), "");
                Assert.Throws(Status.InvalidArgument, () => task.Plan("topo", new Problem(p.Init, new int[2])), "Init has");
                Assert.Throws(Status.InvalidArgument, () => task.Plan("astar", new Problem(p.Init, p.Goal, 99)), "");
                Assert.Throws(Status.InvalidArgument, () => task.Validate(p, new[] { 9999 }), "");
                Assert.Throws(Status.InputError, () => task.ParseState("water=lava"), "lava");
                Assert.Throws(Status.InvalidArgument, () => new Analysis(task, 99), "99");
                using (var topo = new TopoPlanner(task, 0))
                using (TopoScratch scratch = topo.CreateScratch())
                {
                    int length;
                    Assert.Throws(Status.InvalidArgument, () => topo.Plan(scratch, new int[2], new int[2], new int[8], out length), "values");
                    using (var other = new TopoPlanner(task, 1))
                        Assert.Throws(Status.InvalidArgument, () => other.Plan(scratch, p.Init, p.Goal, new int[8], out length), "another planner");
                }
            }
        }

        [Test]
        public static void PlannerRefusals()
        {
            using (PlanningTask soldier = PlanningTask.Load(Fixture.Domain("real/gpgoap-soldier.toml")))
            {
                Assert.Throws(Status.Unsupported, () => new TopoPlanner(soldier), "");
                // A crowd takes any domain: ℙ on the part it can take, the planner chain for the rest.
                using (var crowd = new CrowdPlanner(soldier)) Assert.True(crowd != null, "crowd planner created");
                PlanResult r = soldier.Plan("topo", soldier.Instance(0));
                Assert.Equal(Status.Unsupported, r.Status, "ℙ refuses by status from the named call");
                Assert.True(r.Message.Length > 0, "with why");
            }
        }

        [Test]
        public static void BadCrowdArguments()
        {
            using (PlanningTask task = Fixture.Western())
            using (PlanningTask other = Fixture.Western())
            using (var planner = new CrowdPlanner(task))
            using (var otherPlanner = new CrowdPlanner(other))
            using (var otherCache = new PlanCache(otherPlanner))
            {
                Assert.Throws(Status.InvalidArgument, () => new PlanCache(planner, 0), "capacity");
                Assert.Throws(Status.InvalidArgument, () => new PlanCache(planner, 16, 300), "max_plan_length");
                Assert.Throws(Status.InvalidArgument, () => new Crowd(planner, new CrowdOptions { Fallback = "no-such-planner" }), "no-such-planner");
                Assert.Throws(Status.InvalidArgument, () => new Crowd(planner, new CrowdOptions { FallbackBudget = 0 }), "fallback_budget");
                Assert.Throws(Status.InvalidArgument, () => new Crowd(planner, new CrowdOptions { Threads = 0 }), "threads");
                Assert.Throws(Status.InvalidArgument, () => new Crowd(planner, new CrowdOptions { Cache = otherCache }), "another crowd planner");
                var bad = new CrowdOptions();
                bad.ClassFallback["NoSuchClass"] = "astar";
                Assert.Throws(Status.InvalidArgument, () => new Crowd(planner, bad), "NoSuchClass");
                using (var crowd = new Crowd(planner))
                {
                    var b = new CrowdBuffers(planner, 10);
                    Assert.Throws(Status.InvalidArgument, () => crowd.PlanHandles(b), "cache");
                    Assert.Throws(Status.InvalidArgument,
                                  () => crowd.Plan(b.NpcClass, b.Init, new ulong[1], b.Actions, b.Offset, b.Length, b.Status),
                                  "goal has 1 words");
                    long cursor = 11;
                    Assert.Throws(Status.InvalidArgument, () => crowd.PlanFrame(b, ref cursor, 1.0), "cursor");
                    Assert.Throws(Status.InvalidArgument, () => planner.PackState(new int[planner.NumVariables + 1], new ulong[planner.Words]), "values for");
                    var state = task.Instance(0).Init;
                    state[0] = 99;
                    Assert.Throws(Status.InvalidArgument, () => planner.PackState(state, new ulong[planner.Words]), "out of");
                    // A class id out of range is a per-NPC status, not a failure of the call.
                    Fixture.Population(task, planner, b, 1, null);
                    b.NpcClass[3] = 999;
                    crowd.Plan(b);
                    Assert.Equal(CrowdStatus.BadInput, b.StatusOf(3), "bad class id");
                }
            }
        }

        [Test]
        public static void UseAfterDispose()
        {
            PlanningTask task = Fixture.Western();
            task.Dispose();
            bool threw = false;
            try { int n = task.NumVariables; }
            catch (ObjectDisposedException) { threw = true; }
            Assert.True(threw, "a disposed task throws ObjectDisposedException");
            task.Dispose();  // twice is fine
        }
    }

    public static class LifetimeTests
    {
        static IEnumerable<int[]> Permutations(int n)
        {
            if (n == 1) { yield return new[] { 0 }; yield break; }
            foreach (int[] p in Permutations(n - 1))
                for (int k = 0; k < n; ++k)
                {
                    var q = new List<int>(p);
                    q.Insert(k, n - 1);
                    yield return q.ToArray();
                }
        }

        [Test]
        public static void DisposalInAnyOrder()
        {
            Fixture.Collect();
            long baseline = NativeHandle.LiveCount;
            foreach (int[] order in Permutations(5))
            {
                PlanningTask task = Fixture.Western();
                var planner = new CrowdPlanner(task);
                var cache = new PlanCache(planner, 256);
                var crowd = new Crowd(planner, new CrowdOptions { Cache = cache });
                var topo = new TopoPlanner(task, 0);
                var b = new CrowdBuffers(planner, 64);
                Fixture.Population(task, planner, b, 1, null);
                Problem p = task.Instance(0);
                var all = new IDisposable[] { task, planner, cache, crowd, topo };
                // Dispose all but the crowd's and ℙ's users first, then plan with what is left.
                for (int k = 0; k < order.Length; ++k)
                {
                    all[order[k]].Dispose();
                    if (order[k] != 3 && Array.IndexOf(order, 3) > k) crowd.PlanHandles(b);
                    if (order[k] != 4 && Array.IndexOf(order, 4) > k)
                        using (TopoScratch s = topo.CreateScratch())
                        {
                            int length;
                            topo.Plan(s, p.Init, p.Goal, new int[64], out length);
                        }
                }
            }
            Fixture.Collect();
            Assert.Equal(baseline, NativeHandle.LiveCount, "every handle freed");
        }

        [Test]
        public static void GcStressNoLeak()
        {
            string text = File.ReadAllText(Fixture.Domain("western.toml"));
            Action round = () =>
            {
                // Nothing disposed: the finalizers free everything, children before parents.
                PlanningTask task = PlanningTask.Parse(text, "western.toml");
                var planner = new CrowdPlanner(task);
                var cache = new PlanCache(planner, 64, 32, 1 << 10);
                var crowd = new Crowd(planner, new CrowdOptions { Cache = cache });
                var topo = new TopoPlanner(task, 1);
                topo.CreateScratch();
                new Analysis(task, 2);
                var b = new CrowdBuffers(planner, 32);
                Fixture.Population(task, planner, b, 2, null);
                crowd.PlanHandles(b);
            };
            // Finalizers run when the managed GC does, which does not see native memory: collect
            // every 50 rounds, let the process reach its plateau, then check that it stays there.
            // The rounds run on a thread of their own: Mono scans stacks conservatively, and a
            // finished thread leaves no stale reference behind.
            Action rounds = () =>
            {
                var t = new System.Threading.Thread(() =>
                {
                    for (int i = 0; i < 150; ++i)
                    {
                        round();
                        if (i % 50 == 49) GC.Collect();
                    }
                });
                t.Start();
                t.Join();
                Fixture.Collect();
            };
            rounds();
            long baseline = NativeHandle.LiveCount;
            long rssBefore = Fixture.RssKb();
            rounds();
            rounds();
            rounds();
            long rssAfter = Fixture.RssKb();
            Assert.Equal(baseline, NativeHandle.LiveCount, "handle count back to where it was");
            Assert.Equal(0L, baseline, "no handle alive");
            // A leak of the objects of one round (a task, a crowd planner, a cache with its plan
            // table, a crowd, ℙ, a scratch, an analysis: hundreds of KB) would be hundreds of MB.
            Assert.True(rssAfter - rssBefore < 16 * 1024,
                        "RSS grew by " + (rssAfter - rssBefore) + " KB over 450 rounds");
        }
    }
}

namespace Topoplan.Tests
{
    public static class SampleTests
    {
        [Test]
        public static void CrowdDirectorServesEveryNpc()
        {
            string text = File.ReadAllText(Fixture.Domain("western.toml"));
            int plans = 0;
            using (var director = new Topoplan.Samples.CrowdDirector(text, "western.toml", 5000, 1))
            {
                int frames = 0;
                while (!director.Done)
                {
                    director.Frame(0.0002, (npc, plan) => { ++plans; Assert.True(plan.Length > 0, "plan names"); });
                    Assert.True(++frames < 100000, "frames end");
                }
                Assert.Equal(director.Solved, plans, "one callback per solved NPC");
                Assert.Equal(director.Count, director.Solved + director.Unsolvable, "Western's instances are solved or proved unsolvable");
            }
        }
    }
}
