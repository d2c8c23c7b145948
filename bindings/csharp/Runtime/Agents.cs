// Agent worlds (docs/agents.md): NPCs that live by their plans, and the validator's small calls for
// engines that run plans themselves. The hot calls (SetFact, ActionFinished, ActionFailed, Update)
// allocate nothing: events go into a span the caller owns and sizes once.
using System;
using System.Runtime.InteropServices;
using System.Security;

namespace Topoplan
{
    /// <summary>The C declarations of topoplan_c_agents.h. Internal: AgentWorld and EngineCalls wrap them.</summary>
    [SuppressUnmanagedCodeSecurity]
    internal static unsafe class NativeAgents
    {
        const string Lib = Native.Lib;

        [DllImport(Lib)]
        internal static extern int topoplan_action_applies(TaskHandle task, int action, int* state,
                                                           int numVariables, Condition* failed);
        [DllImport(Lib)]
        internal static extern int topoplan_action_apply(TaskHandle task, int action, int* state,
                                                         int numVariables);
        [DllImport(Lib)]
        internal static extern int topoplan_goal_holds(TaskHandle task, int* state, int* goal,
                                                       int numVariables);
        [DllImport(Lib)]
        internal static extern int topoplan_condition_describe(TaskHandle task, Condition* failed,
                                                               byte* buffer, UIntPtr capacity,
                                                               out UIntPtr size);

        [DllImport(Lib)] internal static extern void topoplan_agents_def_default(out AgentWorldDef def);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_create(CrowdPlannerHandle planner, ref AgentWorldDef def,
                                                          out IntPtr agents, byte* error, UIntPtr errorSize);
        [DllImport(Lib)] internal static extern void topoplan_agents_free(IntPtr agents);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_add_goal(AgentsHandle agents, byte* name, int* goal,
                                                            int numVariables, out int id, byte* error,
                                                            UIntPtr errorSize);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_add_goal_list(AgentsHandle agents, int* goals, int count,
                                                                 out int id, byte* error, UIntPtr errorSize);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_class_goals(AgentsHandle agents, int npcClass,
                                                                   int goalList);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_add(AgentsHandle agents, int npcClass, int* state,
                                                       int numVariables, out int id, byte* error,
                                                       UIntPtr errorSize);
        [DllImport(Lib)] internal static extern int topoplan_agents_count(AgentsHandle agents);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_goal_list(AgentsHandle agents, int agent, int goalList);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_decision_period(AgentsHandle agents, int agent,
                                                                       int period);
        // Hot: raw pointers; the caller holds a reference on the world for the call.
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_fact(IntPtr agents, int agent, int var, int value);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_state(AgentsHandle agents, int agent, int* state,
                                                             int numVariables);
        [DllImport(Lib)] internal static extern int topoplan_agents_action_finished(IntPtr agents, int agent);
        [DllImport(Lib)] internal static extern int topoplan_agents_action_failed(IntPtr agents, int agent);
        [DllImport(Lib)] internal static extern void topoplan_agents_bump_world_version(AgentsHandle agents);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_facts(IntPtr agents, AgentFact* facts, int count);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_report(IntPtr agents, AgentReport* reports, int count,
                                                          out int applied);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_update(IntPtr agents, double dt, AgentEvent* events,
                                                          int capacity, AgentUpdateStats* stats);
        [DllImport(Lib)] internal static extern int topoplan_agents_fact(IntPtr agents, int agent, int var);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_state(AgentsHandle agents, int agent, int* state,
                                                         int numVariables);
        [DllImport(Lib)] internal static extern int topoplan_agents_goal(AgentsHandle agents, int agent);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_plan(AgentsHandle agents, int agent, int* actions,
                                                        int capacity, out int length);
        [DllImport(Lib)] internal static extern int topoplan_agents_step(AgentsHandle agents, int agent);
        [DllImport(Lib)] internal static extern int topoplan_agents_running_action(IntPtr agents, int agent);
        [DllImport(Lib)] internal static extern double topoplan_agents_progress(AgentsHandle agents, int agent);
        [DllImport(Lib)] internal static extern int topoplan_agents_last_replan(AgentsHandle agents, int agent);
        [DllImport(Lib)] internal static extern IntPtr topoplan_agents_goal_name(AgentsHandle agents, int goal);
        [DllImport(Lib)] internal static extern IntPtr topoplan_agents_replan_string(int reason);
        [DllImport(Lib)] internal static extern IntPtr topoplan_agents_event_string(int kind);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_describe(AgentsHandle agents, AgentEvent* e, byte* buffer,
                                                            UIntPtr capacity, out UIntPtr size);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_explain(AgentsHandle agents, AgentEvent* e, byte* buffer,
                                                           UIntPtr capacity, out UIntPtr size);
    }

    internal sealed class AgentsHandle : NativeHandle
    {
        internal override void Free(IntPtr h) { NativeAgents.topoplan_agents_free(h); }
    }

    /// <summary>Which condition of an action failed (TOPOPLAN_CONDITION_*).</summary>
    public enum ConditionKind
    {
        /// <summary>Every condition holds.</summary>
        None = 0,
        /// <summary>An effect's pre-condition.</summary>
        Pre = 1,
        /// <summary>A prevail-condition.</summary>
        Prevail = 2,
    }

    /// <summary>The first condition of an action that does not hold in a state (topoplan_condition).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Condition
    {
        int kind;
        /// <summary>The variable of the condition.</summary>
        public int Var;
        /// <summary>The value the condition requires.</summary>
        public int Required;
        /// <summary>The value the state has.</summary>
        public int Actual;

        /// <summary>Pre-condition, prevail-condition, or none (the action applies).</summary>
        public ConditionKind Kind { get { return (ConditionKind)kind; } }
    }

    /// <summary>
    /// The validator's small calls for engines that run plans themselves: does an action apply,
    /// apply it, does a goal hold. Any thread; no allocation except <see cref="Describe"/>.
    /// </summary>
    public static unsafe class EngineCalls
    {
        static void CheckState(PlanningTask task, ReadOnlySpan<int> state, string function, string what)
        {
            if (task == null) throw new ArgumentNullException("task");
            if (state.Length != task.NumVariables)
                throw Utf8.Fail(Status.InvalidArgument, function + ": " + what + " has " + state.Length +
                                " values, the task has " + task.NumVariables + " variables");
        }

        /// <summary>
        /// True when <paramref name="action"/> applies in the total <paramref name="state"/>; otherwise
        /// <paramref name="failed"/> is its first failing condition (pre-conditions, then prevails).
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an action id, a size or a value out of range.</exception>
        public static bool ActionApplies(this PlanningTask task, int action, ReadOnlySpan<int> state,
                                         out Condition failed)
        {
            CheckState(task, state, "topoplan_action_applies", "state");
            Condition c;
            int s;
            fixed (int* p = state)
                s = NativeAgents.topoplan_action_applies(task.Handle, action, p, state.Length, &c);
            if (s == (int)Status.InvalidArgument)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_action_applies: action " + action + " of " +
                                task.NumActions + ", or a value of the state out of its variable's range");
            if (s != (int)Status.Ok && s != (int)Status.InvalidPlan)
                throw Utf8.Fail(s, null, "topoplan_action_applies");
            failed = c;
            return s == (int)Status.Ok;
        }

        /// <summary>Writes the effects of <paramref name="action"/> into <paramref name="state"/> (conditions unchecked).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an action id, a size or a value out of range.</exception>
        public static void ApplyAction(this PlanningTask task, int action, Span<int> state)
        {
            CheckState(task, state, "topoplan_action_apply", "state");
            int s;
            fixed (int* p = state)
                s = NativeAgents.topoplan_action_apply(task.Handle, action, p, state.Length);
            if (s != 0)
                throw Utf8.Fail((Status)s, "topoplan_action_apply: action " + action + " of " + task.NumActions +
                                ", or a value of the state out of its variable's range");
        }

        /// <summary>True when the total <paramref name="state"/> satisfies the partial <paramref name="goal"/> (<see cref="PlanningTask.Undefined"/>: free).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a size or a value out of range.</exception>
        public static bool GoalHolds(this PlanningTask task, ReadOnlySpan<int> state, ReadOnlySpan<int> goal)
        {
            CheckState(task, state, "topoplan_goal_holds", "state");
            CheckState(task, goal, "topoplan_goal_holds", "goal");
            int r;
            fixed (int* s = state)
            fixed (int* g = goal)
                r = NativeAgents.topoplan_goal_holds(task.Handle, s, g, state.Length);
            if (r < 0)
                throw Utf8.Fail(Status.InvalidArgument,
                                "topoplan_goal_holds: a value of the state or the goal out of its variable's range");
            return r == 1;
        }

        /// <summary>"prevail-condition 'pos=door' does not hold (it is 'pos=home')"; empty for <see cref="ConditionKind.None"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a condition not of this task.</exception>
        public static string Describe(this PlanningTask task, Condition failed)
        {
            if (task == null) throw new ArgumentNullException("task");
            UIntPtr size;
            int s = NativeAgents.topoplan_condition_describe(task.Handle, &failed, null, UIntPtr.Zero, out size);
            if (s != (int)Status.Ok && s != (int)Status.BufferTooSmall)
                throw Utf8.Fail((Status)s, "topoplan_condition_describe: the condition (kind " + (int)failed.Kind +
                                ", var " + failed.Var + ") is not one of this task");
            var buffer = new byte[(int)size];
            fixed (byte* b = buffer)
            {
                Utf8.Check(NativeAgents.topoplan_condition_describe(task.Handle, &failed, b, size, out size), null,
                           "topoplan_condition_describe");
                return Utf8.Get(b);
            }
        }
    }

    /// <summary>The settings of an agent world (topoplan_agents_def); <see cref="Defaults"/> first.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentWorldDef
    {
        /// <summary>Agents <see cref="AgentWorld.AddAgent"/> may create.</summary>
        public int Capacity;
        /// <summary>Frames between due examinations (each agent's default).</summary>
        public int DecisionPeriod;
        /// <summary>Frames after which a plan is made again; 0: plans never grow old.</summary>
        public long MaxPlanAge;
        /// <summary>Agents planned per update; the rest waits for the next (deterministic).</summary>
        public int MaxPlansPerFrame;
        /// <summary>Actions stored per agent, at most 255.</summary>
        public int MaxPlanLength;
        /// <summary>Threads of the world's built-in pool for the batch; 1: the calling thread only.</summary>
        public int Threads;
        /// <summary>Plan cache entries; 0: no cache.</summary>
        public int CacheEntries;
        /// <summary>With Threads &gt; 1, the agents' examination is cut into parts of at least this
        /// many agents (&gt;= 64, whole 64-agent words); 0: the default (16384).</summary>
        public int MinAgentsPerPart;

        /// <summary>The library's defaults (agents.h's AgentWorldDef).</summary>
        public static AgentWorldDef Defaults()
        {
            AgentWorldDef d;
            NativeAgents.topoplan_agents_def_default(out d);
            return d;
        }
    }

    /// <summary>A sensed fact for <see cref="AgentWorld.SetFacts"/> (topoplan_agent_fact).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentFact
    {
        /// <summary>The agent that sensed it.</summary>
        public int Agent;
        /// <summary>The variable.</summary>
        public int Var;
        /// <summary>Its value.</summary>
        public int Value;

        /// <summary>Agent <paramref name="agent"/> sensed <paramref name="var"/> = <paramref name="value"/>.</summary>
        public AgentFact(int agent, int var, int value)
        {
            Agent = agent;
            Var = var;
            Value = value;
        }
    }

    /// <summary>How an action the engine ran ended (TOPOPLAN_AGENT_FINISHED, _FAILED).</summary>
    public enum AgentOutcome
    {
        /// <summary>It finished: its effects join the agent's belief.</summary>
        Finished = 0,
        /// <summary>It could not be run: the agent replans.</summary>
        Failed = 1,
    }

    /// <summary>The engine's report on an action for <see cref="AgentWorld.Report"/> (topoplan_agent_report).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentReport
    {
        /// <summary>The agent.</summary>
        public int Agent;
        /// <summary>The action the engine ran (the start event's).</summary>
        public int Action;
        /// <summary>How it ended.</summary>
        public AgentOutcome Outcome;

        /// <summary>Agent <paramref name="agent"/>'s <paramref name="action"/> ended with <paramref name="outcome"/>.</summary>
        public AgentReport(int agent, int action, AgentOutcome outcome)
        {
            Agent = agent;
            Action = action;
            Outcome = outcome;
        }
    }

    /// <summary>What an event asks of the engine (TOPOPLAN_AGENT_*).</summary>
    public enum AgentEventKind : byte
    {
        /// <summary>Start <see cref="AgentEvent.Action"/>; <see cref="AgentEvent.Step"/> is its index in the plan.</summary>
        StartAction = 0,
        /// <summary>Stop the running <see cref="AgentEvent.Action"/>; the detail is a <see cref="ReplanReason"/>.</summary>
        AbortAction = 1,
        /// <summary>The agent pursues <see cref="AgentEvent.Goal"/> (-1: every goal holds).</summary>
        GoalChanged = 2,
        /// <summary>A plan was adopted; the detail is a <see cref="ReplanReason"/>, <see cref="AgentEvent.Action"/> its length.</summary>
        Planned = 3,
        /// <summary>The goal holds.</summary>
        GoalReached = 4,
        /// <summary>The goal has no plan; the detail is the planner's <see cref="Status"/>, the step its detail bits.</summary>
        NoPlan = 5,
    }

    /// <summary>Why an agent planned again (TOPOPLAN_REPLAN_*).</summary>
    public enum ReplanReason : byte
    {
        /// <summary>No replan.</summary>
        None = 0,
        /// <summary>The agent had no plan for its goal.</summary>
        NoPlan = 1,
        /// <summary>The plan ran to its end.</summary>
        PlanFinished = 2,
        /// <summary>The engine reported the running action failed.</summary>
        ActionFailed = 3,
        /// <summary>A sensed fact broke a condition of the rest of the plan, or its goal.</summary>
        ConditionBroken = 4,
        /// <summary>A goal earlier in the list stopped holding.</summary>
        BetterGoal = 5,
        /// <summary><see cref="AgentWorld.BumpWorldVersion"/> since the plan was made.</summary>
        WorldChanged = 6,
        /// <summary>The plan is older than <see cref="AgentWorldDef.MaxPlanAge"/> frames.</summary>
        PlanTooOld = 7,
    }

    /// <summary>One event of an update (topoplan_agent_event, 16 bytes).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct AgentEvent
    {
        /// <summary>The agent.</summary>
        public int Agent;
        /// <summary>What happened.</summary>
        public AgentEventKind Kind;
        /// <summary>A <see cref="ReplanReason"/> (abort, planned) or the planner's <see cref="Status"/> (no plan), by <see cref="Kind"/>.</summary>
        public byte Detail;
        /// <summary>The action's index in the plan (<see cref="AgentEventKind.StartAction"/>), or the planner's detail bits (no plan).</summary>
        public ushort Step;
        /// <summary>The action (start, abort), or the plan's length (planned).</summary>
        public int Action;
        /// <summary>The goal (-1: none).</summary>
        public int Goal;

        /// <summary>The detail of an abort or a planned event.</summary>
        public ReplanReason Replan { get { return (ReplanReason)Detail; } }
        /// <summary>The planner's answer of a no-plan event: <see cref="Status.Unsolvable"/> (proved),
        /// <see cref="Status.GaveUp"/> or <see cref="Status.LimitReached"/> (no plan, no proof),
        /// <see cref="Status.BufferTooSmall"/> (longer than <see cref="AgentWorldDef.MaxPlanLength"/>),
        /// <see cref="Status.InvalidArgument"/> (the agent's state or class out of range).</summary>
        public Status NoPlan { get { return (Status)Detail; } }
    }

    /// <summary>What an update did (topoplan_agents_stats).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct AgentUpdateStats
    {
        /// <summary>The frame number of this update.</summary>
        public long Frame;
        /// <summary>Events written (the rest counted in <see cref="EventsDropped"/>).</summary>
        public long Events;
        /// <summary>Events the span had no room for.</summary>
        public long EventsDropped;
        /// <summary>Agents examined.</summary>
        public long Examined;
        /// <summary>Agents planned.</summary>
        public long Planned;
        /// <summary>Agents left waiting for a plan (over the per-frame budget).</summary>
        public long Waiting;
        /// <summary>Nanoseconds spent in the batch.</summary>
        public long PlanNs;
        fixed long replans[8];

        /// <summary>Replans of this update for <paramref name="reason"/>.</summary>
        public long Replans(ReplanReason reason)
        {
            int r = (int)reason;
            if (r < 0 || r >= 8) return 0;
            fixed (long* p = replans) return p[r];
        }
    }

    /// <summary>
    /// A world of agents (topoplan_agents): what each NPC believes, its goal lists, its plan and
    /// running action. One thread at a time. Keeps its crowd planner (and task) alive.
    /// </summary>
    public sealed unsafe class AgentWorld : IDisposable
    {
        readonly AgentsHandle handle;
        // The native pointer for the hot calls, which skip SafeHandle's reference count (a
        // P/Invoke with a SafeHandle argument costs Mono an interlocked add and release, more
        // than the call itself): a world is used by one thread at a time, so a Dispose cannot
        // run during a call, and GC.KeepAlive(handle) after each call keeps the finalizer away.
        IntPtr raw;
        readonly CrowdPlanner planner;
        readonly int numVariables;

        /// <summary>Creates a world for <paramref name="def"/>.Capacity agents, its arrays allocated once.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> with the library's reason (a setting out of range).</exception>
        public AgentWorld(CrowdPlanner planner, AgentWorldDef def)
        {
            if (planner == null) throw new ArgumentNullException("planner");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr h;
            Utf8.Check(NativeAgents.topoplan_agents_create(planner.Handle, ref def, out h, error, (UIntPtr)Utf8.ErrorSize),
                       error, "topoplan_agents_create");
            handle = Handles.Wrap<AgentsHandle>(h, planner.Handle);
            raw = h;
            this.planner = planner;
            numVariables = planner.NumVariables;
        }

        /// <summary>Frees the world (its planner stays alive while others hold it).</summary>
        public void Dispose()
        {
            raw = IntPtr.Zero;
            handle.Dispose();
        }

        IntPtr Raw
        {
            get
            {
                if (raw == IntPtr.Zero) throw new ObjectDisposedException("AgentWorld");
                return raw;
            }
        }

        /// <summary>The crowd planner.</summary>
        public CrowdPlanner Planner { get { return planner; } }
        /// <summary>Agents added so far.</summary>
        public int Count { get { return NativeAgents.topoplan_agents_count(handle); } }

        void Fail(int status, string function, string what)
        {
            if (status != 0)
                throw Utf8.Fail((Status)status, function + ": " + Library.StatusName((Status)status) + " (" + what + ")");
        }

        /// <summary>A named partial state (<see cref="PlanningTask.Undefined"/>: free); returns its id.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> with the library's reason.</exception>
        public int AddGoal(string name, ReadOnlySpan<int> goal)
        {
            if (name == null) throw new ArgumentNullException("name");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            int id;
            fixed (byte* n = Utf8.Z(name))
            fixed (int* g = goal)
            {
                int dummy = 0;
                Utf8.Check(NativeAgents.topoplan_agents_add_goal(handle, n, g != null ? g : &dummy, goal.Length, out id,
                                                                 error, (UIntPtr)Utf8.ErrorSize),
                           error, "topoplan_agents_add_goal");
            }
            return id;
        }

        /// <summary>A priority list of goal ids (first = most important); returns its id.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> with the library's reason.</exception>
        public int AddGoalList(ReadOnlySpan<int> goals)
        {
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            int id;
            fixed (int* g = goals)
                Utf8.Check(NativeAgents.topoplan_agents_add_goal_list(handle, g, goals.Length, out id, error,
                                                                      (UIntPtr)Utf8.ErrorSize),
                           error, "topoplan_agents_add_goal_list");
            return id;
        }

        /// <summary>The goal list agents of <paramref name="npcClass"/> get when added.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an unknown class or list.</exception>
        public void SetClassGoals(int npcClass, int goalList)
        {
            Fail(NativeAgents.topoplan_agents_set_class_goals(handle, npcClass, goalList),
                 "topoplan_agents_set_class_goals", "class " + npcClass + " or goal list " + goalList + " unknown");
        }

        /// <summary>A new agent of <paramref name="npcClass"/> believing the total <paramref name="state"/>; returns its id.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> with the library's reason (a class, a value, capacity).</exception>
        public int AddAgent(int npcClass, ReadOnlySpan<int> state)
        {
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            int id, dummy = 0;
            fixed (int* s = state)
                Utf8.Check(NativeAgents.topoplan_agents_add(handle, npcClass, s != null ? s : &dummy, state.Length,
                                                            out id, error, (UIntPtr)Utf8.ErrorSize),
                           error, "topoplan_agents_add");
            return id;
        }

        /// <summary>Gives <paramref name="agent"/> its own goal list.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an unknown agent or list.</exception>
        public void SetGoalList(int agent, int goalList)
        {
            Fail(NativeAgents.topoplan_agents_set_goal_list(handle, agent, goalList), "topoplan_agents_set_goal_list",
                 "agent " + agent + " or goal list " + goalList + " unknown");
        }

        /// <summary>Frames between two due examinations of <paramref name="agent"/> (a level-of-detail rate).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an unknown agent, a period out of [1, 2^20].</exception>
        public void SetDecisionPeriod(int agent, int period)
        {
            Fail(NativeAgents.topoplan_agents_set_decision_period(handle, agent, period),
                 "topoplan_agents_set_decision_period",
                 "agent " + agent + " of " + Count + ", period " + period + " must be in [1, 2^20]");
        }

        /// <summary>What <paramref name="agent"/> sensed: <paramref name="var"/> = <paramref name="value"/>. Hot: no allocation.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an agent, variable or value out of range.</exception>
        public void SetFact(int agent, int var, int value)
        {
            int s;
            s = NativeAgents.topoplan_agents_set_fact(Raw, agent, var, value);
            GC.KeepAlive(handle);
            if (s != 0) FactFailed(s, agent, var, value);
        }

        void FactFailed(int s, int agent, int var, int value)
        {
            Fail(s, "topoplan_agents_set_fact", "agent " + agent + " of " + Count + ", variable " + var + " of " +
                 numVariables + ", value " + value + ": one is out of range");
        }

        /// <summary>Everything <paramref name="agent"/> sensed: a total state.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an agent, a size or a value out of range.</exception>
        public void SetState(int agent, ReadOnlySpan<int> state)
        {
            int dummy = 0;
            fixed (int* s = state)
                Fail(NativeAgents.topoplan_agents_set_state(handle, agent, s != null ? s : &dummy, state.Length),
                     "topoplan_agents_set_state", "agent " + agent + " of " + Count + ", " + state.Length +
                     " values for " + numVariables + " variables, or a value out of range");
        }

        /// <summary>The engine finished <paramref name="agent"/>'s running action: its effects join the belief. Hot.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an unknown agent.</exception>
        public void ActionFinished(int agent)
        {
            int s;
            s = NativeAgents.topoplan_agents_action_finished(Raw, agent);
            GC.KeepAlive(handle);
            if (s != 0) Fail(s, "topoplan_agents_action_finished", "agent " + agent + " of " + Count);
        }

        /// <summary>The engine could not run <paramref name="agent"/>'s running action: it replans. Hot.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an unknown agent.</exception>
        public void ActionFailed(int agent)
        {
            int s;
            s = NativeAgents.topoplan_agents_action_failed(Raw, agent);
            GC.KeepAlive(handle);
            if (s != 0) Fail(s, "topoplan_agents_action_failed", "agent " + agent + " of " + Count);
        }

        /// <summary>
        /// <see cref="SetFact"/> for each entry, in order, in one call across the boundary (the
        /// hot way: a P/Invoke costs more than setting a fact). No allocation.
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> naming the first bad entry; nothing is applied then.</exception>
        public void SetFacts(ReadOnlySpan<AgentFact> facts)
        {
            int s;
            fixed (AgentFact* f = facts)
                s = NativeAgents.topoplan_agents_set_facts(Raw, f, facts.Length);
            GC.KeepAlive(handle);
            if (s == 0) return;
            int count = Count, k = 0;
            while (k < facts.Length - 1 && facts[k].Agent >= 0 && facts[k].Agent < count && facts[k].Var >= 0 &&
                   facts[k].Var < numVariables && facts[k].Value >= 0 &&
                   facts[k].Value < planner.DomainSize(facts[k].Var))
                ++k;
            Fail(s, "topoplan_agents_set_facts", "entry " + k + ": agent " + facts[k].Agent + " of " + count +
                 ", variable " + facts[k].Var + " of " + numVariables + ", value " + facts[k].Value +
                 ": one is out of range; nothing applied");
        }

        /// <summary>
        /// The engine's reports, in order, in one call. A report applies only while its action is
        /// still the agent's running action (one about an action since aborted or replaced is
        /// stale and skipped). Returns the reports applied. No allocation.
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> naming the first bad entry; nothing is applied then.</exception>
        public int Report(ReadOnlySpan<AgentReport> reports)
        {
            int s, applied;
            fixed (AgentReport* r = reports)
                s = NativeAgents.topoplan_agents_report(Raw, r, reports.Length, out applied);
            GC.KeepAlive(handle);
            if (s == 0) return applied;
            int count = Count, k = 0;
            while (k < reports.Length - 1 && reports[k].Agent >= 0 && reports[k].Agent < count &&
                   (reports[k].Outcome == AgentOutcome.Finished || reports[k].Outcome == AgentOutcome.Failed))
                ++k;
            Fail(s, "topoplan_agents_report", "entry " + k + ": agent " + reports[k].Agent + " of " + count +
                 ", outcome " + (int)reports[k].Outcome + ": one is out of range; nothing applied");
            return 0;
        }

        /// <summary>The level changed: every plan is made again on its agent's next due frame.</summary>
        public void BumpWorldVersion() { NativeAgents.topoplan_agents_bump_world_version(handle); }

        /// <summary>
        /// One frame: <paramref name="dt"/> seconds since the last. Writes events into
        /// <paramref name="events"/> (those past its length are counted in
        /// <see cref="AgentUpdateStats.EventsDropped"/>); the first <see cref="AgentUpdateStats.Events"/>
        /// are this frame's. No allocation.
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a negative or NaN dt.</exception>
        public AgentUpdateStats Update(double dt, Span<AgentEvent> events)
        {
            AgentUpdateStats stats;
            int s;
            fixed (AgentEvent* e = events)
                s = NativeAgents.topoplan_agents_update(Raw, dt, e, events.Length, &stats);
            GC.KeepAlive(handle);
            if (s != 0)
                Fail(s, "topoplan_agents_update", "dt " + dt + " must be >= 0");
            return stats;
        }

        int CheckAgent(int r, int agent, string function)
        {
            if (r < 0)
                throw Utf8.Fail(Status.InvalidArgument, function + ": agent " + agent + " of " + Count);
            return r;
        }

        /// <summary>What <paramref name="agent"/> believes of <paramref name="var"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an agent or variable out of range.</exception>
        public int Fact(int agent, int var)
        {
            int r;
            r = NativeAgents.topoplan_agents_fact(Raw, agent, var);
            GC.KeepAlive(handle);
            if (r < 0)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_agents_fact: agent " + agent + " of " + Count +
                                ", variable " + var + " of " + numVariables);
            return r;
        }

        /// <summary>What <paramref name="agent"/> believes, into <paramref name="state"/> (one value per variable).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an agent or a size out of range.</exception>
        public void State(int agent, Span<int> state)
        {
            int dummy = 0;
            fixed (int* s = state)
                Fail(NativeAgents.topoplan_agents_state(handle, agent, s != null ? s : &dummy, state.Length),
                     "topoplan_agents_state",
                     "agent " + agent + " of " + Count + ", " + state.Length + " values for " + numVariables + " variables");
        }

        /// <summary>The goal <paramref name="agent"/> pursues (-1: none).</summary>
        public int Goal(int agent)
        {
            int r = NativeAgents.topoplan_agents_goal(handle, agent);
            if (r < 0 && (agent < 0 || agent >= Count))
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_agents_goal: agent " + agent + " of " + Count);
            return r;
        }

        /// <summary>Copies <paramref name="agent"/>'s plan into <paramref name="actions"/>; returns its length.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.BufferTooSmall"/> (the length needed in the message) or <see cref="Status.InvalidArgument"/>.</exception>
        public int Plan(int agent, Span<int> actions)
        {
            int length, s, dummy = 0;
            fixed (int* a = actions)
                s = NativeAgents.topoplan_agents_plan(handle, agent, a != null ? a : &dummy, actions.Length, out length);
            if (s == (int)Status.BufferTooSmall)
                throw Utf8.Fail(Status.BufferTooSmall, "topoplan_agents_plan: the plan has " + length +
                                " actions, the span " + actions.Length);
            Fail(s, "topoplan_agents_plan", "agent " + agent + " of " + Count);
            return length;
        }

        /// <summary>The index of the running action in the plan (-1: none).</summary>
        public int Step(int agent) { return NativeAgents.topoplan_agents_step(handle, agent); }

        /// <summary>The action <paramref name="agent"/> runs (-1: none, or a bad agent id).</summary>
        public int RunningAction(int agent)
        {
            int r = NativeAgents.topoplan_agents_running_action(Raw, agent);
            GC.KeepAlive(handle);
            return r;
        }

        /// <summary>The share of the plan done, in [0, 1] (-1: a bad agent id).</summary>
        public double Progress(int agent) { return NativeAgents.topoplan_agents_progress(handle, agent); }

        /// <summary>Why <paramref name="agent"/> planned last.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an unknown agent.</exception>
        public ReplanReason LastReplan(int agent)
        {
            return (ReplanReason)CheckAgent(NativeAgents.topoplan_agents_last_replan(handle, agent), agent,
                                            "topoplan_agents_last_replan");
        }

        /// <summary>A goal's name, or null for an unknown id.</summary>
        public string GoalName(int goal) { return Utf8.Get(NativeAgents.topoplan_agents_goal_name(handle, goal)); }

        /// <summary>One line for an event in the domain's names ("agent 3: start 'PickLock'"). Allocates: for logs.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an event not of this world.</exception>
        public string Describe(AgentEvent e)
        {
            UIntPtr size;
            int s = NativeAgents.topoplan_agents_describe(handle, &e, null, UIntPtr.Zero, out size);
            if (s != (int)Status.Ok && s != (int)Status.BufferTooSmall)
                throw Utf8.Fail((Status)s, "topoplan_agents_describe: the event (agent " + e.Agent + ", kind " +
                                (int)e.Kind + ") is not one of this world");
            var buffer = new byte[(int)size];
            fixed (byte* b = buffer)
            {
                Utf8.Check(NativeAgents.topoplan_agents_describe(handle, &e, b, size, out size), null,
                           "topoplan_agents_describe");
                return Utf8.Get(b);
            }
        }

        /// <summary>Why a no-plan event's goal has no plan, in the designer's words, with the names of the
        /// variable, value and action at fault (the planner asked again on the agent's current belief). Allocates.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: not a no-plan event of this world.</exception>
        public string Explain(AgentEvent e)
        {
            UIntPtr size;
            int s = NativeAgents.topoplan_agents_explain(handle, &e, null, UIntPtr.Zero, out size);
            if (s != (int)Status.Ok && s != (int)Status.BufferTooSmall)
                throw Utf8.Fail((Status)s, "topoplan_agents_explain: the event (agent " + e.Agent + ", kind " +
                                (int)e.Kind + ") is not one of this world");
            var buffer = new byte[(int)size];
            fixed (byte* b = buffer)
            {
                Utf8.Check(NativeAgents.topoplan_agents_explain(handle, &e, b, size, out size), null,
                           "topoplan_agents_explain");
                return Utf8.Get(b);
            }
        }

        /// <summary>"condition-broken", "plan-finished", ...</summary>
        public static string Name(ReplanReason reason) { return Utf8.Get(NativeAgents.topoplan_agents_replan_string((int)reason)); }
        /// <summary>"start", "abort", ...</summary>
        public static string Name(AgentEventKind kind) { return Utf8.Get(NativeAgents.topoplan_agents_event_string((int)kind)); }
    }
}
