// The value types of crowds (docs/crowds.md): per-NPC status bits, a batch's counters, plan
// handles, cache counters, and the batch and output as the C API sees them.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Topoplan
{
    /// <summary>Per-NPC status bits of a crowd batch (TOPOPLAN_CROWD_*).</summary>
    [Flags]
    public enum CrowdStatus : ushort
    {
        /// <summary>Not answered by the calls so far (a frame that did not reach it).</summary>
        None = 0,
        /// <summary>The NPC's plan is in the output (or behind its plan handle).</summary>
        Solved = 0x01,
        /// <summary>Proved: no plan exists.</summary>
        Unsolvable = 0x02,
        /// <summary>No plan, no proof.</summary>
        NoPlan = 0x04,
        /// <summary>The action buffer's share for the NPC's block was too small; length = actions needed.</summary>
        BufferTooSmall = 0x08,
        /// <summary>Class id or value out of range.</summary>
        BadInput = 0x10,
        /// <summary>Answered from the plan cache.</summary>
        CacheHit = 0x20,
        /// <summary>Over the fallback's per-NPC budget: answered by a later frame call.</summary>
        Pending = 0x40,
        /// <summary>With Solved or Unsolvable: answered by a fallback planner after ℙ gave up.</summary>
        Fallback = 0x80,
    }

    /// <summary>What a batch call did (topoplan_crowd_stats).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct CrowdStats
    {
        /// <summary>NPCs answered by this call.</summary>
        public long Served;
        /// <summary>... by running ℙ (the rest came from the cache).</summary>
        public long Planned;
        /// <summary>Answers from the cache.</summary>
        public long CacheHits;
        /// <summary>NPCs solved by this call.</summary>
        public long Solved;
        /// <summary>NPCs whose block's share of the action buffer was too small.</summary>
        public long BufferTooSmall;
        int complete;
        /// <summary>NPCs answered Unsolvable by this call (ℙ's proof, or a fallback's).</summary>
        public int Unsolvable;
        /// <summary>Of <see cref="Solved"/>: plans of the fallback planner.</summary>
        public long SolvedFallback;
        /// <summary>Pending NPCs retried by this call.</summary>
        public long Resumed;
        /// <summary>NPCs answered NoPlan by this call.</summary>
        public long NoPlan;
        /// <summary>NPCs left pending at the end of the call (frame calls only).</summary>
        public long Pending;

        /// <summary>True when every NPC of the batch has been served and none is pending.</summary>
        public bool Complete { get { return complete != 0; } }
    }

    /// <summary>A plan in the cache's plan table (topoplan_plan_handle); epoch 0: no handle.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PlanHandle
    {
        /// <summary>Position of the plan in the table.</summary>
        public uint Id;
        /// <summary>The cache epoch the plan belongs to; 0: no handle.</summary>
        public uint Epoch;

        /// <summary>True when the NPC was answered by handle (its plan is not in the action buffer).</summary>
        public bool HasPlan { get { return Epoch != 0; } }
    }

    /// <summary>The counters of a plan cache (topoplan_plan_cache_stats).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PlanCacheStats
    {
        /// <summary>Lookups answered.</summary>
        public long Hits;
        /// <summary>Lookups not answered.</summary>
        public long Misses;
        /// <summary>Answers stored.</summary>
        public long Inserts;
        /// <summary>Answers dropped for room.</summary>
        public long Evictions;
        /// <summary>Invalidations (epochs started).</summary>
        public long Invalidations;
        /// <summary>Entries.</summary>
        public long Capacity;
        /// <summary>Memory held.</summary>
        public long Bytes;
    }

    /// <summary>A crowd batch as the C API sees it (topoplan_crowd_batch): pointers into pinned or native memory.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct CrowdBatchView
    {
        /// <summary>NPCs, at most int.MaxValue.</summary>
        public long Count;
        /// <summary>Count class ids.</summary>
        public ushort* NpcClass;
        /// <summary>Count × words packed initial states.</summary>
        public ulong* Init;
        /// <summary>Count × words packed goals.</summary>
        public ulong* Goal;
    }

    /// <summary>A crowd's output as the C API sees it (topoplan_crowd_output).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct CrowdOutputView
    {
        /// <summary>The action buffer, sliced per block of NPCs.</summary>
        public int* Actions;
        /// <summary>Entries of <see cref="Actions"/> (below 2^32).</summary>
        public long Capacity;
        /// <summary>Count offsets into <see cref="Actions"/>.</summary>
        public uint* Offset;
        /// <summary>Count plan lengths.</summary>
        public ushort* Length;
        /// <summary>Count <see cref="CrowdStatus"/> words.</summary>
        public ushort* Status;
    }
}
