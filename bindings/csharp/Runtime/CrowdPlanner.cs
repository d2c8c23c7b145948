// A crowd's prepared planner (per NPC class, ℙ on its projection) and the plan cache crowds
// share (docs/crowds.md).
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Topoplan
{
    /// <summary>
    /// The immutable crowd planner of a task's domain: ℙ per NPC class over the class's
    /// variables, and the packed state layout of its batches. Share it between threads and
    /// crowds. Keeps its task alive.
    /// </summary>
    public sealed unsafe class CrowdPlanner : IDisposable
    {
        internal readonly CrowdPlannerHandle Handle;
        readonly int words, numVariables, maxPlanLength;

        /// <summary>Builds ℙ for every NPC class of <paramref name="task"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.Unsupported"/> with why, when a class is not unary and post-unique.</exception>
        public CrowdPlanner(PlanningTask task)
        {
            if (task == null) throw new ArgumentNullException("task");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr h;
            Utf8.Check(Native.topoplan_crowd_planner_create(task.Handle, out h, error, (UIntPtr)Utf8.ErrorSize),
                       error, "topoplan_crowd_planner_create");
            Handle = Handles.Wrap<CrowdPlannerHandle>(h, task.Handle);
            words = Native.topoplan_crowd_planner_words(Handle);
            maxPlanLength = Native.topoplan_crowd_planner_max_plan_length(Handle);
            numVariables = task.NumVariables;
            domainSizes = new int[numVariables];
            for (int v = 0; v < numVariables; ++v) domainSizes[v] = task.DomainSize(v);
        }

        readonly int[] domainSizes;

        /// <summary>Values of variable <paramref name="var"/> (0 when out of range).</summary>
        internal int DomainSize(int var) { return var >= 0 && var < numVariables ? domainSizes[var] : 0; }

        /// <summary>Frees the planner once its caches and crowds are gone.</summary>
        public void Dispose() { Handle.Dispose(); }

        /// <summary>64-bit words per packed state and per packed goal.</summary>
        public int Words { get { return words; } }
        /// <summary>The task's number of variables (the length of an unpacked state).</summary>
        public int NumVariables { get { return numVariables; } }
        /// <summary>NPC classes of a batch (1 for a domain without classes).</summary>
        public int NumClasses { get { return Native.topoplan_crowd_planner_num_classes(Handle); } }
        /// <summary>The longest plan any class can return: <c>count × MaxPlanLength</c> actions never answer BufferTooSmall.</summary>
        public int MaxPlanLength { get { return maxPlanLength; } }

        void CheckState(ReadOnlySpan<int> state, Span<ulong> packed, string what)
        {
            if (state.Length != numVariables)
                throw Utf8.Fail(Status.InvalidArgument, what + ": " + state.Length + " values for " + numVariables + " variables");
            if (packed.Length < words)
                throw Utf8.Fail(Status.InvalidArgument, what + ": " + packed.Length + " words, the layout needs " + words);
        }

        /// <summary>Packs a total state into <c>packed[0, Words)</c>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a size or a value out of range.</exception>
        public void PackState(ReadOnlySpan<int> state, Span<ulong> packed) { Pack(state, packed, false); }

        /// <summary>Packs a goal (<see cref="PlanningTask.Undefined"/> allowed) into <c>packed[0, Words)</c>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a size or a value out of range.</exception>
        public void PackGoal(ReadOnlySpan<int> goal, Span<ulong> packed) { Pack(goal, packed, true); }

        /// <summary>Unpacks <c>packed[0, Words)</c> into a total state.</summary>
        public void UnpackState(ReadOnlySpan<ulong> packed, Span<int> state) { Unpack(packed, state, false); }

        /// <summary>Unpacks <c>packed[0, Words)</c> into a goal.</summary>
        public void UnpackGoal(ReadOnlySpan<ulong> packed, Span<int> goal) { Unpack(packed, goal, true); }

        // The four packing calls: the sizes checked, then the C call of a state or a goal.
        void Pack(ReadOnlySpan<int> values, Span<ulong> packed, bool goal)
        {
            string what = goal ? "topoplan_crowd_pack_goal" : "topoplan_crowd_pack_state";
            CheckState(values, packed, what);
            int r;
            fixed (int* s = values)
            fixed (ulong* p = packed)
                r = goal ? Native.topoplan_crowd_pack_goal(Handle, s, values.Length, p)
                         : Native.topoplan_crowd_pack_state(Handle, s, values.Length, p);
            if (r != 0)
                throw Utf8.Fail(Status.InvalidArgument, what + ": a value is out of its variable's range" +
                                                            (goal ? "" : " (or undefined)"));
        }

        void Unpack(ReadOnlySpan<ulong> packed, Span<int> values, bool goal)
        {
            string what = goal ? "topoplan_crowd_unpack_goal" : "topoplan_crowd_unpack_state";
            if (values.Length != numVariables || packed.Length < words)
                throw Utf8.Fail(Status.InvalidArgument, what + ": sizes do not match the layout");
            fixed (int* s = values)
            fixed (ulong* p = packed)
                Utf8.Check(goal ? Native.topoplan_crowd_unpack_goal(Handle, p, s, values.Length)
                                : Native.topoplan_crowd_unpack_state(Handle, p, s, values.Length),
                           null, what);
        }
    }

    /// <summary>
    /// A bounded, thread-safe memo of answers shared by crowds of one crowd planner, with the
    /// plan table behind plan handles. Keeps its crowd planner alive.
    /// </summary>
    public sealed unsafe class PlanCache : IDisposable
    {
        internal readonly PlanCacheHandle Handle;
        internal readonly CrowdPlanner Planner;

        /// <summary>A cache of <paramref name="capacity"/> entries (rounded up to a power of two).</summary>
        /// <param name="planner">The crowd planner whose crowds use it.</param>
        /// <param name="capacity">Entries, in [1, 2^28].</param>
        /// <param name="maxPlanLength">Longer plans are not cached; in [0, 255].</param>
        /// <param name="tableActions">Action ids (plus one per plan) of the plan table per epoch, in [0, 2^30]; 0: no handles. Default 2^19.</param>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> with the range.</exception>
        public PlanCache(CrowdPlanner planner, int capacity = 1 << 16, int maxPlanLength = 64,
                         int tableActions = 1 << 19)
        {
            if (planner == null) throw new ArgumentNullException("planner");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr h;
            Utf8.Check(Native.topoplan_plan_cache_create_with_table(planner.Handle, capacity, maxPlanLength,
                                                                    tableActions, out h, error, (UIntPtr)Utf8.ErrorSize),
                       error, "topoplan_plan_cache_create");
            Handle = Handles.Wrap<PlanCacheHandle>(h, planner.Handle);
            Planner = planner;
        }

        /// <summary>Frees the cache once its crowds are gone.</summary>
        public void Dispose() { Handle.Dispose(); }

        /// <summary>Drops every entry and starts a new epoch (older handles become stale). Not concurrent with batches that use it.</summary>
        public void Invalidate() { Native.topoplan_plan_cache_invalidate(Handle); }

        /// <summary>The counters.</summary>
        public PlanCacheStats Stats
        {
            get
            {
                PlanCacheStats s;
                Utf8.Check(Native.topoplan_plan_cache_stats_get(Handle, out s), null, "topoplan_plan_cache_stats_get");
                return s;
            }
        }

        /// <summary>The plan table: the current epoch, slots used, capacity (a host invalidates when it fills).</summary>
        public void Table(out uint epoch, out long used, out long capacity)
        {
            Utf8.Check(Native.topoplan_plan_cache_table(Handle, out epoch, out used, out capacity), null,
                       "topoplan_plan_cache_table");
        }

        /// <summary>
        /// The plan behind <paramref name="handle"/>, in place in the plan table (no copy; valid
        /// until the cache is invalidated). False for an empty or stale handle.
        /// </summary>
        public bool TryResolve(PlanHandle handle, out ReadOnlySpan<int> plan)
        {
            int* actions;
            int length;
            int s = Native.topoplan_plan_cache_resolve(Handle, handle, out actions, out length);
            plan = s == 0 ? new ReadOnlySpan<int>(actions, length) : ReadOnlySpan<int>.Empty;
            return s == 0;
        }
    }
}
