// The value types of agent worlds (docs/agents.md): the world's settings, facts and reports the
// engine gives, events and update counters the world returns.
using System;
using System.Runtime.InteropServices;
using System.Security;

namespace Topoplan
{
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
}
