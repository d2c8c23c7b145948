// Agent worlds (docs/agents.md): NPCs that live by their plans. The hot calls (SetFact,
// ActionFinished, ActionFailed, Update) allocate nothing: events go into a span the caller owns
// and sizes once.
using System;
using System.Runtime.InteropServices;
using System.Security;

namespace Topoplan
{
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

        /// <summary>
        /// Whether <paramref name="action"/> runs to its end once started (default false): a better
        /// goal then waits for its end instead of aborting it (a meal is not dropped for a higher
        /// need); a failure report, a broken condition, a new world version or an old plan still
        /// stop it.
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an action out of range.</exception>
        public void SetActionRunsToEnd(int action, bool runsToEnd)
        {
            Fail(NativeAgents.topoplan_agents_set_action_runs_to_end(handle, action, runsToEnd ? 1 : 0),
                 "topoplan_agents_set_action_runs_to_end", "action " + action + " out of range");
        }

        /// <summary>Whether <paramref name="action"/> runs to its end once started (<see cref="SetActionRunsToEnd"/>).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an action out of range.</exception>
        public bool ActionRunsToEnd(int action)
        {
            int r = NativeAgents.topoplan_agents_action_runs_to_end(handle, action);
            if (r < 0)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_agents_action_runs_to_end: action " + action +
                                " out of range");
            return r == 1;
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
            return EventText(NativeAgents.topoplan_agents_describe, "topoplan_agents_describe", e);
        }

        /// <summary>Why a no-plan event's goal has no plan, in the designer's words, with the names of the
        /// variable, value and action at fault (the planner asked again on the agent's current belief). Allocates.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: not a no-plan event of this world.</exception>
        public string Explain(AgentEvent e)
        {
            return EventText(NativeAgents.topoplan_agents_explain, "topoplan_agents_explain", e);
        }

        delegate int EventTextFn(AgentsHandle agents, AgentEvent* e, byte* buffer, UIntPtr capacity,
                                 out UIntPtr size);

        // The text `fn` writes for `e`: its size asked first, then written into a buffer that fits.
        string EventText(EventTextFn fn, string function, AgentEvent e)
        {
            UIntPtr size;
            int s = fn(handle, &e, null, UIntPtr.Zero, out size);
            if (s != (int)Status.Ok && s != (int)Status.BufferTooSmall)
                throw Utf8.Fail((Status)s, function + ": the event (agent " + e.Agent + ", kind " +
                                (int)e.Kind + ") is not one of this world");
            var buffer = new byte[(int)size];
            fixed (byte* b = buffer)
            {
                Utf8.Check(fn(handle, &e, b, size, out size), null, function);
                return Utf8.Get(b);
            }
        }

        /// <summary>"condition-broken", "plan-finished", ...</summary>
        public static string Name(ReplanReason reason) { return Utf8.Get(NativeAgents.topoplan_agents_replan_string((int)reason)); }
        /// <summary>"start", "abort", ...</summary>
        public static string Name(AgentEventKind kind) { return Utf8.Get(NativeAgents.topoplan_agents_event_string((int)kind)); }
    }
}
