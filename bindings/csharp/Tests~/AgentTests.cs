// Tests of the agent worlds and the engine calls (Runtime/Agents.cs). Every plan an agent adopts
// is checked by the library's validator from the agent's believed state to its goal.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace Topoplan.Tests
{
    public static class AgentTests
    {
        // A villager walks to the door, opens it, walks into the shop and takes the bread.
        const string Village =
            "[domain]\nname = \"village\"\n" +
            "[[variable]]\nname = \"pos\"\nvalues = [\"home\", \"door\", \"shop\"]\n" +
            "[[variable]]\nname = \"door\"\nvalues = [\"closed\", \"open\"]\n" +
            "[[variable]]\nname = \"bread\"\nvalues = [\"shelf\", \"held\"]\n" +
            "[[action]]\nname = \"WalkToDoor\"\npre = { pos = \"home\" }\npost = { pos = \"door\" }\n" +
            "[[action]]\nname = \"OpenDoor\"\npre = { door = \"closed\" }\npost = { door = \"open\" }\nprevail = { pos = \"door\" }\n" +
            "[[action]]\nname = \"WalkToShop\"\npre = { pos = \"door\" }\npost = { pos = \"shop\" }\nprevail = { door = \"open\" }\n" +
            "[[action]]\nname = \"TakeBread\"\npre = { bread = \"shelf\" }\npost = { bread = \"held\" }\nprevail = { pos = \"shop\" }\n";

        static readonly int[] BreadGoal = { PlanningTask.Undefined, PlanningTask.Undefined, 1 };

        sealed class Rig : IDisposable
        {
            public readonly PlanningTask Task = PlanningTask.Parse(Village, "village.toml", TaskFormat.Native);
            public readonly CrowdPlanner Planner;
            public readonly AgentWorld World;
            public readonly int Goal, List, Agent;
            public readonly AgentEvent[] Events = new AgentEvent[64];

            public Rig(int capacity = 4)
            {
                Planner = new CrowdPlanner(Task);
                AgentWorldDef def = AgentWorldDef.Defaults();
                def.Capacity = capacity;
                World = new AgentWorld(Planner, def);
                Goal = World.AddGoal("bread", BreadGoal);
                List = World.AddGoalList(new[] { Goal });
                World.SetClassGoals(0, List);
                Agent = World.AddAgent(0, new[] { 0, 0, 0 });
            }

            // One update; every adopted plan validated from the believed state to the goal.
            public List<AgentEvent> Update()
            {
                AgentUpdateStats s = World.Update(1.0 / 60, Events);
                Assert.Equal(0L, s.EventsDropped, "events dropped");
                var list = Events.Take((int)s.Events).ToList();
                foreach (AgentEvent e in list.Where(x => x.Kind == AgentEventKind.Planned))
                {
                    var plan = new int[16];
                    int length = World.Plan(e.Agent, plan);
                    Assert.Equal(e.Action, length, "a planned event's action is the plan's length");
                    var state = new int[3];
                    World.State(e.Agent, state);
                    Validation v = Task.Validate(new Problem(state, BreadGoal), plan.Take(length).ToArray());
                    Assert.True(v.Valid, "adopted plan valid: " + v.Message);
                }
                return list;
            }

            public void Dispose()
            {
                World.Dispose();
                Planner.Dispose();
                Task.Dispose();
            }
        }

        static int Count(List<AgentEvent> events, AgentEventKind kind)
        {
            return events.Count(e => e.Kind == kind);
        }

        [Test]
        public static void EngineCallsNameTheFailedCondition()
        {
            using (PlanningTask task = PlanningTask.Parse(Village, "village.toml", TaskFormat.Native))
            {
                var state = new[] { 0, 0, 0 };
                Condition failed;
                Assert.True(!task.ActionApplies(task.FindAction("OpenDoor"), state, out failed), "OpenDoor needs pos=door");
                Assert.Equal(ConditionKind.Prevail, failed.Kind, "kind");
                Assert.Equal("prevail-condition 'pos=door' does not hold (it is 'pos=home')", task.Describe(failed), "describe");
                Assert.True(task.ActionApplies(0, state, out failed), "WalkToDoor applies at home");
                Assert.Equal(ConditionKind.None, failed.Kind, "no failed condition");
                Assert.Equal("", task.Describe(failed), "nothing to describe");
                task.ApplyAction(0, state);
                Assert.SequenceEqual(new[] { 1, 0, 0 }, state, "WalkToDoor's effect");
                Assert.True(!task.GoalHolds(state, BreadGoal), "no bread yet");
                Assert.True(task.GoalHolds(new[] { 2, 1, 1 }, BreadGoal), "bread held");
            }
        }

        [Test]
        public static void UpdateLoopWithEngineReportedOutcomes()
        {
            using (var rig = new Rig())
            {
                AgentWorld w = rig.World;
                int walk = rig.Task.FindAction("WalkToDoor"), open = rig.Task.FindAction("OpenDoor"),
                    shop = rig.Task.FindAction("WalkToShop"), take = rig.Task.FindAction("TakeBread");
                List<AgentEvent> e = rig.Update();
                Assert.Equal(1, Count(e, AgentEventKind.Planned), "planned");
                Assert.Equal(walk, e.Single(x => x.Kind == AgentEventKind.StartAction).Action, "start WalkToDoor");
                Assert.Equal("agent 0: start 'WalkToDoor'", w.Describe(e.Last()), "describe");
                Assert.Equal(rig.Goal, w.Goal(rig.Agent), "goal");
                Assert.Equal("bread", w.GoalName(rig.Goal), "goal name");

                // The engine reports the walk finished: its effect joins the belief, the next step starts.
                w.ActionFinished(rig.Agent);
                e = rig.Update();
                Assert.Equal(open, e.Single(x => x.Kind == AgentEventKind.StartAction).Action, "start OpenDoor");
                Assert.Equal(1, w.Fact(rig.Agent, 0), "believes pos=door");
                Assert.Equal(1, w.Step(rig.Agent), "step 1");

                // The door is stuck: the engine reports a failure, the agent replans and tries again.
                w.ActionFailed(rig.Agent);
                AgentUpdateStats s = w.Update(1.0 / 60, rig.Events);
                Assert.Equal(1L, s.Replans(ReplanReason.ActionFailed), "replanned after the failure");
                Assert.Equal(ReplanReason.ActionFailed, w.LastReplan(rig.Agent), "last replan");
                Assert.Equal(open, w.RunningAction(rig.Agent), "OpenDoor again");

                w.ActionFinished(rig.Agent);
                e = rig.Update();
                Assert.Equal(shop, w.RunningAction(rig.Agent), "walking into the shop");

                // The door closes on the way in: the running action's condition broke.
                w.SetFact(rig.Agent, 1, 0);
                s = w.Update(1.0 / 60, rig.Events);
                e = rig.Events.Take((int)s.Events).ToList();
                Assert.Equal(1L, s.Replans(ReplanReason.ConditionBroken), "condition broken");
                Assert.Equal(shop, e.Single(x => x.Kind == AgentEventKind.AbortAction).Action, "WalkToShop aborted");
                Assert.Equal(open, w.RunningAction(rig.Agent), "opens the door again");
                Assert.Equal("condition-broken", AgentWorld.Name(ReplanReason.ConditionBroken), "reason name");

                // Finish everything; the goal is reached and holds in the belief.
                bool reached = false;
                for (int frame = 0; frame < 10 && !reached; ++frame)
                {
                    if (w.RunningAction(rig.Agent) >= 0) w.ActionFinished(rig.Agent);
                    reached = Count(rig.Update(), AgentEventKind.GoalReached) == 1;
                }
                Assert.True(reached, "goal reached");
                var state = new int[3];
                w.State(rig.Agent, state);
                Assert.True(rig.Task.GoalHolds(state, BreadGoal), "the belief satisfies the goal");
                Assert.Equal(take, rig.Task.FindAction("TakeBread"), "ids");
            }
        }

        [Test]
        public static void UnsolvableGoalIsProved()
        {
            using (var rig = new Rig())
            {
                // Bread held is the only way to the goal; with no shop it cannot be reached.
                int none = rig.World.AddGoal("home-and-bread", new[] { 0, PlanningTask.Undefined, 1 });
                int agent = rig.World.AddAgent(0, new[] { 0, 0, 0 });
                rig.World.SetGoalList(agent, rig.World.AddGoalList(new[] { none }));
                List<AgentEvent> e = rig.Update();
                AgentEvent noPlan = e.Single(x => x.Agent == agent && x.Kind == AgentEventKind.NoPlan);
                Assert.Equal(Status.Unsolvable, noPlan.NoPlan, "proved unsolvable (ℙ is complete on this class)");
                string why = rig.World.Explain(noPlan);
                Assert.True(why.Contains("'TakeBread'") && why.Contains("pos=shop"), "the explanation names the action and the fact at fault: " + why);
            }
        }

        [Test]
        public static void AgentErrorPaths()
        {
            using (var rig = new Rig(2))
            {
                AgentWorld w = rig.World;
                Assert.Throws(Status.InvalidArgument, () => w.AddAgent(5, new[] { 0, 0, 0 }), "class");
                Assert.Throws(Status.InvalidArgument, () => w.AddAgent(0, new[] { 0, 9, 0 }), "value 9 of 'door'");
                Assert.Throws(Status.InvalidArgument, () => w.AddGoal("short", new[] { 0 }), "1 values for a domain of 3 variables");
                Assert.Throws(Status.InvalidArgument, () => w.AddGoalList(new[] { 42 }), "42");
                Assert.Throws(Status.InvalidArgument, () => w.SetClassGoals(0, 42), "goal list 42");
                Assert.Throws(Status.InvalidArgument, () => w.SetGoalList(7, rig.List), "agent 7");
                Assert.Throws(Status.InvalidArgument, () => w.SetDecisionPeriod(rig.Agent, 0), "period 0");
                Assert.Throws(Status.InvalidArgument, () => w.SetFact(rig.Agent, 1, 7), "value 7");
                Assert.Throws(Status.InvalidArgument, () => w.SetFact(9, 1, 0), "agent 9");
                Assert.Throws(Status.InvalidArgument, () => w.SetState(rig.Agent, new[] { 0, 0 }), "2 values for 3 variables");
                Assert.Throws(Status.InvalidArgument, () => w.ActionFinished(-1), "agent -1");
                Assert.Throws(Status.InvalidArgument, () => w.ActionFailed(3), "agent 3");
                Assert.Throws(Status.InvalidArgument, () => w.Update(-1, rig.Events), "dt -1");
                Assert.Throws(Status.InvalidArgument, () => w.Fact(rig.Agent, 3), "variable 3");
                Assert.Throws(Status.InvalidArgument, () => w.State(rig.Agent, new int[4]), "4 values");
                Assert.Throws(Status.InvalidArgument, () => w.Goal(5), "agent 5");
                Assert.Throws(Status.InvalidArgument, () => w.LastReplan(5), "agent 5");
                w.Update(1.0 / 60, rig.Events);
                Assert.Throws(Status.BufferTooSmall, () => w.Plan(rig.Agent, new int[1]), "the plan has 4 actions");
                Assert.Throws(Status.InvalidArgument, () => w.Describe(new AgentEvent { Agent = 9 }), "agent 9");
                w.AddAgent(0, new[] { 0, 0, 0 });
                Assert.Throws(Status.InvalidArgument, () => w.AddAgent(0, new[] { 0, 0, 0 }), "capacity");
                Assert.Equal(2, w.Count, "agents");
                Condition failed;
                Assert.Throws(Status.InvalidArgument, () => rig.Task.ActionApplies(99, new[] { 0, 0, 0 }, out failed), "action 99");
                Assert.Throws(Status.InvalidArgument, () => rig.Task.ActionApplies(0, new[] { 0, 0 }, out failed), "2 values");
                Assert.Throws(Status.InvalidArgument, () => rig.Task.ApplyAction(0, new[] { 0, 5, 0 }), "out of its variable's range");
                Assert.Throws(Status.InvalidArgument, () => rig.Task.GoalHolds(new[] { 0, 0, 0 }, new[] { 0, 0, 7 }), "range");
                AgentWorldDef bad = AgentWorldDef.Defaults();
                bad.Threads = 0;
                Assert.Throws(Status.InvalidArgument, () => new AgentWorld(rig.Planner, bad), "'threads'", "[1, 256]", "found 0");
                bad = AgentWorldDef.Defaults();
                bad.MaxPlanLength = 300;
                Assert.Throws(Status.InvalidArgument, () => new AgentWorld(rig.Planner, bad), "'max_plan_length'", "found 300");
            }
        }

        [Test]
        public static void FactsAndReportsInOneCall()
        {
            using (var rig = new Rig())
            {
                AgentWorld w = rig.World;
                int second = w.AddAgent(0, new[] { 0, 0, 0 });
                rig.Update();
                int walk = rig.Task.FindAction("WalkToDoor"), open = rig.Task.FindAction("OpenDoor");
                Assert.Equal(walk, w.RunningAction(second), "both walk");
                // A stale report (about an action the agent does not run) is skipped.
                int applied = w.Report(new[] { new AgentReport(rig.Agent, open, AgentOutcome.Finished),
                                               new AgentReport(second, walk, AgentOutcome.Finished) });
                Assert.Equal(1, applied, "one report applied");
                rig.Update();
                Assert.Equal(walk, w.RunningAction(rig.Agent), "still walking");
                Assert.Equal(open, w.RunningAction(second), "at the door");
                w.SetFacts(new[] { new AgentFact(rig.Agent, 1, 1), new AgentFact(second, 2, 1) });
                Assert.Equal(1, w.Fact(rig.Agent, 1), "door open");
                Assert.Equal(1, w.Fact(second, 2), "bread held");
                // Refused whole, naming the bad entry.
                Assert.Throws(Status.InvalidArgument,
                              () => w.SetFacts(new[] { new AgentFact(rig.Agent, 1, 0), new AgentFact(second, 1, 9) }),
                              "entry 1", "value 9", "nothing applied");
                Assert.Equal(1, w.Fact(rig.Agent, 1), "the first entry was not applied");
                Assert.Throws(Status.InvalidArgument,
                              () => w.Report(new[] { new AgentReport(7, walk, AgentOutcome.Failed) }), "entry 0", "agent 7");
                Assert.Throws(Status.InvalidArgument,
                              () => w.Report(new[] { new AgentReport(0, walk, (AgentOutcome)5) }), "outcome 5");
                Assert.Equal(0, w.Report(new AgentReport[0]), "nothing to report");
                w.SetFacts(new AgentFact[0]);
            }
        }

        // The C test's scenario (tests/capi/agents_runs_to_end_test.c): "closed" (the door shut)
        // comes before "bread" in the villager's list; the door opens during the walk to it.
        // Returns whether the walk was aborted for the better goal.
        static bool RunsToEndScenario(bool runsToEnd)
        {
            using (PlanningTask task = PlanningTask.Parse(Village, "village.toml", TaskFormat.Native))
            using (var planner = new CrowdPlanner(task))
            {
                AgentWorldDef def = AgentWorldDef.Defaults();
                def.Capacity = 2;
                def.DecisionPeriod = 1000;
                using (var w = new AgentWorld(planner, def))
                {
                    int[] closedGoal = { PlanningTask.Undefined, 0, PlanningTask.Undefined };
                    int closed = w.AddGoal("closed", closedGoal), bread = w.AddGoal("bread", BreadGoal);
                    w.SetClassGoals(0, w.AddGoalList(new[] { closed, bread }));
                    int walk = task.FindAction("WalkToDoor");
                    Assert.True(!w.ActionRunsToEnd(walk), "an action does not run to its end by default");
                    w.SetActionRunsToEnd(walk, runsToEnd);
                    Assert.Equal(runsToEnd, w.ActionRunsToEnd(walk), "the flag reads back");
                    Assert.True(!w.ActionRunsToEnd(task.FindAction("OpenDoor")), "other actions keep theirs");
                    Assert.Throws(Status.InvalidArgument, () => w.SetActionRunsToEnd(4, true), "action 4");
                    Assert.Throws(Status.InvalidArgument, () => w.ActionRunsToEnd(-1), "action -1");

                    int villager = w.AddAgent(0, new[] { 0, 0, 0 });
                    var events = new AgentEvent[16];
                    // Every adopted plan is checked by the validator from the belief to its goal.
                    Func<List<AgentEvent>> update = () =>
                    {
                        AgentUpdateStats s = w.Update(0.0, events);
                        var list = events.Take((int)s.Events).ToList();
                        foreach (AgentEvent e in list.Where(x => x.Kind == AgentEventKind.Planned))
                        {
                            var plan = new int[16];
                            int length = w.Plan(e.Agent, plan);
                            var state = new int[3];
                            w.State(e.Agent, state);
                            Validation v = task.Validate(new Problem(state, e.Goal == closed ? closedGoal : BreadGoal),
                                                         plan.Take(length).ToArray());
                            Assert.True(v.Valid, "adopted plan valid: " + v.Message);
                        }
                        return list;
                    };
                    update();
                    Assert.Equal(bread, w.Goal(villager), "bread first: the door is closed");
                    Assert.Equal(walk, w.RunningAction(villager), "walking to the door");
                    w.SetFact(villager, 1, 1);
                    bool aborted = update().Any(e => e.Kind == AgentEventKind.AbortAction &&
                                                     e.Replan == ReplanReason.BetterGoal);
                    if (runsToEnd)
                    {
                        Assert.Equal(bread, w.Goal(villager), "the better goal waits for the walk's end");
                        Assert.Equal(walk, w.RunningAction(villager), "still walking");
                        w.ActionFinished(villager);
                        update();
                    }
                    Assert.Equal(closed, w.Goal(villager), "the better goal is taken");
                    return aborted;
                }
            }
        }

        [Test]
        public static void BetterGoalWaitsForAnActionThatRunsToItsEnd()
        {
            Assert.True(RunsToEndScenario(false), "a better goal aborts the walk at once");
            Assert.True(!RunsToEndScenario(true), "a better goal does not abort a walk that runs to its end");
        }

        [Test]
        public static void UseAfterDisposeThrows()
        {
            var rig = new Rig();
            rig.World.Dispose();
            try
            {
                rig.World.SetFact(0, 1, 0);
                throw new AssertionException("SetFact after Dispose did not throw");
            }
            catch (ObjectDisposedException) { }
            try
            {
                rig.World.AddAgent(0, new[] { 0, 0, 0 });
                throw new AssertionException("AddAgent after Dispose did not throw");
            }
            catch (ObjectDisposedException) { }
            rig.Planner.Dispose();
            rig.Task.Dispose();
        }

        [Test]
        public static void AgentHotCallsDoNotAllocate()
        {
            using (var rig = new Rig(1000))
            {
                AgentWorld w = rig.World;
                for (int i = 1; i < 1000; ++i) w.AddAgent(0, new[] { 0, 0, 0 });
                var events = new AgentEvent[4096];
                var facts = new AgentFact[200];
                var reports = new AgentReport[200];
                Action frame = () =>
                {
                    int nf = 0, nr = 0;
                    for (int i = 1; i < 1000; i += 5)
                    {
                        facts[nf++] = new AgentFact(i, 1, (i / 5) & 1);
                        if (w.RunningAction(i) >= 0) reports[nr++] = new AgentReport(i, w.RunningAction(i), AgentOutcome.Finished);
                    }
                    w.SetFacts(new ReadOnlySpan<AgentFact>(facts, 0, nf));
                    w.Report(new ReadOnlySpan<AgentReport>(reports, 0, nr));
                    for (int i = 0; i < 1000; i += 7)
                    {
                        if (w.RunningAction(i) >= 0)
                        {
                            if (i % 3 == 0) w.ActionFailed(i);
                            else w.ActionFinished(i);
                        }
                        w.SetFact(i, 1, (i / 7) & 1);
                    }
                    w.Update(1.0 / 60, events);
                };
                frame();
                frame();
                long before = GC.GetAllocatedBytesForCurrentThread();
                for (int r = 0; r < 10; ++r) frame();
                Assert.Equal(0L, GC.GetAllocatedBytesForCurrentThread() - before, "bytes allocated by 10 frames");
            }
        }

        [Test]
        public static void AgentDisposalInAnyOrder()
        {
            Fixture.Collect();
            long baseline = NativeHandle.LiveCount;
            int[][] orders = { new[] { 0, 1, 2 }, new[] { 0, 2, 1 }, new[] { 1, 0, 2 }, new[] { 1, 2, 0 }, new[] { 2, 0, 1 }, new[] { 2, 1, 0 } };
            foreach (int[] order in orders)
            {
                var rig = new Rig();
                var all = new IDisposable[] { rig.Task, rig.Planner, rig.World };
                for (int k = 0; k < order.Length; ++k)
                {
                    all[order[k]].Dispose();
                    if (Array.IndexOf(order, 2) > k)  // the world still works without its parents' owners
                    {
                        rig.World.SetFact(rig.Agent, 1, k & 1);
                        rig.Update();
                    }
                }
            }
            Fixture.Collect();
            Assert.Equal(baseline, NativeHandle.LiveCount, "every handle freed");
        }

        [Test]
        public static void AgentGcStressNoLeak()
        {
            Action rounds = () =>
            {
                var t = new System.Threading.Thread(() =>
                {
                    for (int i = 0; i < 60; ++i)
                    {
                        // Nothing disposed: the finalizers free the world, its planner and its task.
                        var task = PlanningTask.Parse(Village, "village.toml", TaskFormat.Native);
                        var world = new AgentWorld(new CrowdPlanner(task), AgentWorldDef.Defaults());
                        int g = world.AddGoal("bread", BreadGoal);
                        world.SetClassGoals(0, world.AddGoalList(new[] { g }));
                        world.AddAgent(0, new[] { 0, 0, 0 });
                        world.Update(0.1, new AgentEvent[8]);
                        if (i % 30 == 29) GC.Collect();
                    }
                });
                t.Start();
                t.Join();
                Fixture.Collect();
            };
            // Each world holds a plan cache of 65,536 entries (megabytes): a leak of the 180 worlds
            // measured would be hundreds of MB; the allocator's high-water mark moves by tens.
            rounds();
            rounds();
            Assert.Equal(0L, NativeHandle.LiveCount, "no handle alive after the first rounds");
            long rssBefore = Fixture.RssKb();
            rounds();
            rounds();
            rounds();
            long rssAfter = Fixture.RssKb();
            Assert.Equal(0L, NativeHandle.LiveCount, "handle count back to zero");
            Assert.True(rssAfter - rssBefore < 48 * 1024, "RSS grew by " + (rssAfter - rssBefore) + " KB over 180 rounds");
        }

        [Test]
        public static void VillageEventsEqualTheCLoop()
        {
            // test.sh runs Tests~/village.c first: "AGENTS FRAMES SENSE SEED HASH EVENTS".
            string c = Environment.GetEnvironmentVariable("TOPOPLAN_VILLAGE_C");
            Assert.True(!string.IsNullOrEmpty(c), "TOPOPLAN_VILLAGE_C is set (run through bindings/csharp/test.sh)");
            string[] f = c.Split(' ');
            int agents = int.Parse(f[0]), frames = int.Parse(f[1]);
            double sense = double.Parse(f[2], System.Globalization.CultureInfo.InvariantCulture);
            ulong seed = ulong.Parse(f[3]);
            string text = File.ReadAllText(Path.Combine(Fixture.RepoDir, "examples", "agents", "village.toml"));
            // Two threads here, one in C: the events depend on the inputs only.
            using (var village = new Topoplan.Samples.VillageDirector(text, "village.toml", agents, sense, seed, 2))
            {
                for (int k = 0; k < frames; ++k) village.Frame();
                Assert.Equal(f[4], village.EventHash.ToString("x16"), "event hash of C# and C");
                Assert.Equal(long.Parse(f[5]), village.Events, "events of C# and C");
                Assert.True(village.Started > 0 && village.Finished > 0 && village.Failed > 0 && village.Reached > 0,
                            "the village starts, finishes and fails actions and reaches goals");
            }
        }
    }
}
