// The C declarations of topoplan_c_agents.h and the agent world's handle.
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
        [DllImport(Lib)]
        internal static extern int topoplan_agents_set_action_runs_to_end(AgentsHandle agents, int action,
                                                                          int runsToEnd);
        [DllImport(Lib)]
        internal static extern int topoplan_agents_action_runs_to_end(AgentsHandle agents, int action);
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

    internal sealed class AgentsHandle : NativeHandle { internal override void Free(IntPtr h) { NativeAgents.topoplan_agents_free(h); } }
}
