// The village of examples/agents/village.toml as an engine would run it, engine-agnostic: the
// Unity component and the console program beside it call Frame() once per frame.
//
// The engine's side of a frame: actions the runtime started run for ActionFrames frames, then the
// engine reports them finished (their effects join the agent's belief) or, one in FailEvery,
// failed (the agent replans), all in one call (AgentWorld.Report); the village's day plays its
// scripted senses (the baker closes the door, bread is stolen and restocked, the guard looks away;
// at night everyone is hungry and tired again) and a share Sense of the agents senses a random
// fact, all in one call (AgentWorld.SetFacts). Then AgentWorld.Update, and the events: starts go
// on the engine's wheel. The same loop in C (Tests~/village.c) gives the same
// event hash for the same arguments.
using System;
using Topoplan;

namespace Topoplan.Samples
{
    /// <summary>Runs the village's agents, one frame per call.</summary>
    public sealed class VillageDirector : IDisposable
    {
        /// <summary>Frames an action takes before the engine reports on it.</summary>
        public const int ActionFrames = 4;
        /// <summary>One reported outcome in this many is a failure.</summary>
        public const int FailEvery = 16;
        /// <summary>Frames of a village day: the scripted senses repeat.</summary>
        public const int DayFrames = 200;

        struct Sensed
        {
            public int Frame, NpcClass, Var, Value;  // NpcClass -1: every class
            public double Share;
        }

        readonly PlanningTask task;
        readonly CrowdPlanner planner;
        readonly AgentWorld world;
        readonly int agents;
        readonly double sense;
        readonly ulong seed;
        readonly Sensed[] script;
        readonly int[] domainSize;
        readonly int[] agentClass;
        readonly AgentEvent[] events;
        // The engine's wheel: slot f % (ActionFrames + 1) holds the (agent, action) pairs due at f.
        readonly int[][] wheel = new int[ActionFrames + 1][];
        readonly int[] wheelCount = new int[ActionFrames + 1];
        ulong rng;
        AgentReport[] reports;
        AgentFact[] facts;

        /// <summary>The frames run so far.</summary>
        public int FrameNumber { get; private set; }
        /// <summary>FNV-1a over every event's fields (agent, kind, detail, step, action, goal), as <c>topoplan agents</c> hashes.</summary>
        public ulong EventHash { get; private set; }
        /// <summary>Events so far.</summary>
        public long Events { get; private set; }
        /// <summary>Actions started so far.</summary>
        public long Started { get; private set; }
        /// <summary>Reports "finished" the engine sent.</summary>
        public long Finished { get; private set; }
        /// <summary>Reports "failed" the engine sent.</summary>
        public long Failed { get; private set; }
        /// <summary>Reports the runtime applied (the others were stale).</summary>
        public long Applied { get; private set; }
        /// <summary>Goals reached.</summary>
        public long Reached { get; private set; }
        /// <summary>No-plan answers.</summary>
        public long NoPlan { get; private set; }
        /// <summary>A clock in seconds read around each Update (null: none), e.g. the thread's CPU time.</summary>
        public Func<double> Clock;
        /// <summary>Seconds spent in Update by <see cref="Clock"/>.</summary>
        public double UpdateSeconds { get; private set; }
        /// <summary>The world, for reading agents.</summary>
        public AgentWorld World { get { return world; } }
        /// <summary>The task.</summary>
        public PlanningTask Task { get { return task; } }

        /// <summary>
        /// A village of <paramref name="agentCount"/> agents (villagers and thieves in turn) over
        /// the domain text of village.toml; <paramref name="senseShare"/> of them sense a random
        /// fact each frame.
        /// </summary>
        public VillageDirector(string domainText, string domainName, int agentCount, double senseShare, ulong rngSeed,
                               int threads = 1)
        {
            Library.CheckAbi();
            agents = agentCount;
            sense = senseShare;
            seed = rngSeed;
            rng = rngSeed;
            task = PlanningTask.Parse(DomainPart(domainText), domainName, TaskFormat.Native);
            planner = new CrowdPlanner(task);
            AgentWorldDef def = AgentWorldDef.Defaults();
            def.Capacity = agentCount;
            def.DecisionPeriod = 20;
            def.MaxPlanAge = 600;
            def.MaxPlansPerFrame = agentCount;
            def.Threads = threads;
            world = new AgentWorld(planner, def);

            int n = task.NumVariables;
            domainSize = new int[n];
            for (int v = 0; v < n; ++v) domainSize[v] = task.DomainSize(v);
            int villager = task.FindClass("Villager"), thief = task.FindClass("Thief");
            int eat = world.AddGoal("eat", Facts("hunger", "fed"));
            int rest = world.AddGoal("rest", Facts("energy", "rested"));
            int steal = world.AddGoal("steal", Facts("loot", "sold"));
            world.SetClassGoals(villager, world.AddGoalList(new[] { eat, rest }));
            world.SetClassGoals(thief, world.AddGoalList(new[] { rest, steal }));
            script = new[]
            {
                Sense(6, villager, 0.5, "bakeryDoor", "closed"),
                Sense(8, thief, 1.0, "guard", "away"),
                Sense(10, villager, 0.25, "bread", "stolen"),
                Sense(14, thief, 0.33, "guard", "near"),
                Sense(40, thief, 1.0, "guard", "away"),
                Sense(60, villager, 1.0, "bread", "onShelf"),
                Sense(120, -1, 1.0, "hunger", "hungry"),
                Sense(120, -1, 1.0, "energy", "tired"),
            };
            // Everyone wakes at home, hungry and tired, the door closed: the morning instance.
            Problem morning = task.Instance(task.FindInstance("morning"));
            agentClass = new int[agentCount];
            for (int i = 0; i < agentCount; ++i)
            {
                agentClass[i] = i % 2 == 0 ? villager : thief;
                world.AddAgent(agentClass[i], morning.Init);
            }
            events = new AgentEvent[4 * agentCount + 64];
            reports = new AgentReport[Math.Max(16, agentCount)];
            facts = new AgentFact[2 * agentCount + 16];
            for (int k = 0; k <= ActionFrames; ++k) wheel[k] = new int[2 * Math.Max(16, agentCount / 2)];
            EventHash = 1469598103934665603UL;
        }

        /// <summary>
        /// The file's domain: every table but <c>[agents]</c>, <c>[[goal]]</c> and <c>[[event]]</c>
        /// (those of <c>topoplan agents</c>, which the native parser does not take); the lines are
        /// kept empty so that errors keep their line numbers.
        /// </summary>
        public static string DomainPart(string text)
        {
            var lines = text.Split('\n');
            bool skip = false;
            for (int i = 0; i < lines.Length; ++i)
            {
                if (lines[i].StartsWith("[", StringComparison.Ordinal))
                    skip = lines[i].StartsWith("[agents]", StringComparison.Ordinal) ||
                           lines[i].StartsWith("[[goal]]", StringComparison.Ordinal) ||
                           lines[i].StartsWith("[[event]]", StringComparison.Ordinal);
                if (skip) lines[i] = "";
            }
            return string.Join("\n", lines);
        }

        int[] Facts(string var, string value)
        {
            var goal = new int[task.NumVariables];
            for (int v = 0; v < goal.Length; ++v) goal[v] = PlanningTask.Undefined;
            int id = task.FindVariable(var);
            goal[id] = task.FindValue(id, value);
            return goal;
        }

        Sensed Sense(int frame, int npcClass, double share, string var, string value)
        {
            int id = task.FindVariable(var);
            return new Sensed { Frame = frame, NpcClass = npcClass, Share = share, Var = id, Value = task.FindValue(id, value) };
        }

        /// <summary>SplitMix64 (Steele, Lea, Flood 2014): the village's dice, the same in C.</summary>
        static ulong Mix(ref ulong x)
        {
            ulong z = (x += 0x9E3779B97F4A7C15UL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
            return z ^ (z >> 31);
        }

        void AddFact(ref int n, AgentFact f)
        {
            if (n == facts.Length) Array.Resize(ref facts, 2 * facts.Length);
            facts[n++] = f;
        }

        static int Below(ref ulong x, int n) { return (int)(((Mix(ref x) >> 32) * (ulong)n) >> 32); }

        /// <summary>Whether <paramref name="agent"/> is among the share of a scripted sense (or an outcome fails).</summary>
        static bool Chosen(ulong seed, int frame, int agent, int salt, double share)
        {
            if (share >= 1.0) return true;
            ulong x = seed ^ ((ulong)frame * 0x9E3779B97F4A7C15UL) ^ ((ulong)agent << 20) ^ ((ulong)salt << 52);
            return (Mix(ref x) >> 11) * (1.0 / 9007199254740992.0) < share;
        }

        /// <summary>
        /// One frame: the engine's reports and senses, the update, the events (each passed to
        /// <paramref name="onEvent"/> when given). No allocation.
        /// </summary>
        public AgentUpdateStats Frame(Action<AgentEvent> onEvent = null)
        {
            int frame = FrameNumber;
            // Actions due now: one report each, in one call (the runtime skips the stale ones:
            // actions it aborted or replaced since it started them).
            int slot = frame % (ActionFrames + 1);
            int[] due = wheel[slot];
            int nReports = 0;
            if (reports.Length < wheelCount[slot] / 2) Array.Resize(ref reports, wheelCount[slot] / 2);
            for (int k = 0; k < wheelCount[slot]; k += 2)
            {
                bool fails = Chosen(seed, frame, due[k], 15, 1.0 / FailEvery);
                reports[nReports++] = new AgentReport(due[k], due[k + 1], fails ? AgentOutcome.Failed : AgentOutcome.Finished);
                if (fails) ++Failed;
                else ++Finished;
            }
            wheelCount[slot] = 0;
            Applied += world.Report(new ReadOnlySpan<AgentReport>(reports, 0, nReports));
            // The day's script, then random senses: one call.
            int nFacts = 0;
            int time = frame % DayFrames;
            for (int e = 0; e < script.Length; ++e)
            {
                if (script[e].Frame != time) continue;
                for (int i = 0; i < agents; ++i)
                    if ((script[e].NpcClass < 0 || agentClass[i] == script[e].NpcClass) &&
                        Chosen(seed, frame, i, e, script[e].Share))
                        AddFact(ref nFacts, new AgentFact(i, script[e].Var, script[e].Value));
            }
            long sensing = (long)(sense * agents);
            for (long k = 0; k < sensing; ++k)
            {
                int i = Below(ref rng, agents);
                int v = Below(ref rng, domainSize.Length);
                AddFact(ref nFacts, new AgentFact(i, v, Below(ref rng, domainSize[v])));
            }
            world.SetFacts(new ReadOnlySpan<AgentFact>(facts, 0, nFacts));

            double t0 = Clock != null ? Clock() : 0;
            AgentUpdateStats s = world.Update(1.0 / 60, events);
            if (Clock != null) UpdateSeconds += Clock() - t0;
            ulong hash = EventHash;
            for (int k = 0; k < (int)s.Events; ++k)
            {
                AgentEvent e = events[k];
                hash = (hash ^ (uint)e.Agent) * 1099511628211UL;
                hash = (hash ^ (byte)e.Kind) * 1099511628211UL;
                hash = (hash ^ e.Detail) * 1099511628211UL;
                hash = (hash ^ e.Step) * 1099511628211UL;
                hash = (hash ^ (uint)e.Action) * 1099511628211UL;
                hash = (hash ^ (uint)e.Goal) * 1099511628211UL;
                switch (e.Kind)
                {
                    case AgentEventKind.StartAction:
                        int next = (frame + ActionFrames) % (ActionFrames + 1);
                        if (wheelCount[next] + 2 > wheel[next].Length) Array.Resize(ref wheel[next], 2 * wheel[next].Length);
                        wheel[next][wheelCount[next]++] = e.Agent;
                        wheel[next][wheelCount[next]++] = e.Action;
                        ++Started;
                        break;
                    case AgentEventKind.GoalReached: ++Reached; break;
                    case AgentEventKind.NoPlan: ++NoPlan; break;
                }
                if (onEvent != null) onEvent(e);
            }
            EventHash = hash;
            Events += s.Events;
            FrameNumber = frame + 1;
            return s;
        }

        /// <summary>Frees the world, the planner and the task.</summary>
        public void Dispose()
        {
            world.Dispose();
            planner.Dispose();
            task.Dispose();
        }
    }
}
