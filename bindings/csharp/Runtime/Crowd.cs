// Crowds (docs/crowds.md): plans for many NPCs per call, a shared plan cache, plan handles.
// The batch calls take spans or pointers over the caller's arrays: nothing is copied and nothing
// is allocated per call.
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
        public void PackState(ReadOnlySpan<int> state, Span<ulong> packed)
        {
            CheckState(state, packed, "topoplan_crowd_pack_state");
            fixed (int* s = state)
            fixed (ulong* p = packed)
                if (Native.topoplan_crowd_pack_state(Handle, s, state.Length, p) != 0)
                    throw Utf8.Fail(Status.InvalidArgument, "topoplan_crowd_pack_state: a value is out of its variable's range (or undefined)");
        }

        /// <summary>Packs a goal (<see cref="PlanningTask.Undefined"/> allowed) into <c>packed[0, Words)</c>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a size or a value out of range.</exception>
        public void PackGoal(ReadOnlySpan<int> goal, Span<ulong> packed)
        {
            CheckState(goal, packed, "topoplan_crowd_pack_goal");
            fixed (int* s = goal)
            fixed (ulong* p = packed)
                if (Native.topoplan_crowd_pack_goal(Handle, s, goal.Length, p) != 0)
                    throw Utf8.Fail(Status.InvalidArgument, "topoplan_crowd_pack_goal: a value is out of its variable's range");
        }

        /// <summary>Unpacks <c>packed[0, Words)</c> into a total state.</summary>
        public void UnpackState(ReadOnlySpan<ulong> packed, Span<int> state)
        {
            if (state.Length != numVariables || packed.Length < words)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_crowd_unpack_state: sizes do not match the layout");
            fixed (int* s = state)
            fixed (ulong* p = packed)
                Utf8.Check(Native.topoplan_crowd_unpack_state(Handle, p, s, state.Length), null, "topoplan_crowd_unpack_state");
        }

        /// <summary>Unpacks <c>packed[0, Words)</c> into a goal.</summary>
        public void UnpackGoal(ReadOnlySpan<ulong> packed, Span<int> goal)
        {
            if (goal.Length != numVariables || packed.Length < words)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_crowd_unpack_goal: sizes do not match the layout");
            fixed (int* s = goal)
            fixed (ulong* p = packed)
                Utf8.Check(Native.topoplan_crowd_unpack_goal(Handle, p, s, goal.Length), null, "topoplan_crowd_unpack_goal");
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

    /// <summary>How a <see cref="Crowd"/> runs: threads, blocks, cache, the planner chain after ℙ.</summary>
    public sealed class CrowdOptions
    {
        /// <summary>Threads of the crowd's own pool (1: the calling thread only).</summary>
        public int Threads = 1;
        /// <summary>NPCs per block: the unit of work and of the action buffer's slicing.</summary>
        public int NpcsPerBlock = 64;
        /// <summary>Per-worker memo entries in front of the cache (0: none).</summary>
        public int WorkerMemoEntries = 2048;
        /// <summary>A shared plan cache of the same crowd planner (null: none; plan handles need one).</summary>
        public PlanCache Cache;
        /// <summary>Planners tried in order on an NPC ℙ gives up on ("astar,astar-back"; "none": ℙ only; null: "astar").</summary>
        public string Fallback;
        /// <summary>A class's own chain instead of <see cref="Fallback"/>: class name → planner list.</summary>
        public Dictionary<string, string> ClassFallback = new Dictionary<string, string>();
        /// <summary>Expansions per NPC per fallback planner in the first attempt (over it: Pending, retried ×4).</summary>
        public long FallbackBudget = 2000;
        /// <summary>Limits of the retries: expansions.</summary>
        public long MaxExpansions = 500000;
        /// <summary>Limits of the retries: bytes.</summary>
        public long MaxMemoryBytes = 256L << 20;
        /// <summary>Limits of the retries: seconds (0: none).</summary>
        public double MaxSeconds;
    }

    /// <summary>
    /// A crowd: per-worker scratch, optional threads and cache, and the planner chain. Plans whole
    /// batches or a frame's budget of one. One thread per crowd; several crowds may share a
    /// crowd planner and a cache. Keeps its crowd planner and its cache alive.
    /// </summary>
    public sealed unsafe class Crowd : IDisposable
    {
        readonly CrowdHandle handle;
        readonly CrowdPlanner planner;
        readonly PlanCache cache;

        /// <summary>Creates the crowd's scratch (allocates once).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> with a one-line reason (a range, an unknown planner or class, a cache of another planner).</exception>
        public Crowd(CrowdPlanner planner, CrowdOptions options = null)
        {
            if (planner == null) throw new ArgumentNullException("planner");
            if (options == null) options = new CrowdOptions();
            if (options.Cache != null && options.Cache.Planner != planner)
                throw Utf8.Fail(Status.InvalidArgument, "crowd: the cache was made for another crowd planner");
            CrowdDefC def;
            Native.topoplan_crowd_def_init(out def);
            def.Threads = options.Threads;
            def.WorkerCount = Math.Max(1, options.Threads);
            def.NpcsPerBlock = options.NpcsPerBlock;
            def.WorkerMemoEntries = options.WorkerMemoEntries;
            CrowdChainC chain;
            Native.topoplan_crowd_chain_init(out chain);
            chain.FallbackBudget = options.FallbackBudget;
            chain.MaxExpansions = options.MaxExpansions;
            chain.MaxMemoryBytes = options.MaxMemoryBytes;
            chain.MaxSeconds = options.MaxSeconds;

            // The strings are read during the call only: pin them for its duration.
            var pins = new List<GCHandle>();
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr h = IntPtr.Zero;
            bool cacheRef = false;
            try
            {
                chain.Fallback = Pin(Utf8.Z(options.Fallback), pins);
                var classes = new CrowdClassChainC[options.ClassFallback.Count];
                int k = 0;
                foreach (var e in options.ClassFallback)
                {
                    classes[k].NpcClass = Pin(Utf8.Z(e.Key), pins);
                    classes[k].Planners = Pin(Utf8.Z(e.Value ?? ""), pins);
                    ++k;
                }
                if (options.Cache != null)
                {
                    options.Cache.Handle.DangerousAddRef(ref cacheRef);
                    def.Cache = options.Cache.Handle.DangerousGetHandle();
                }
                fixed (CrowdClassChainC* c = classes)
                {
                    chain.ClassFallback = classes.Length > 0 ? c : null;
                    chain.NumClassFallback = classes.Length;
                    Utf8.Check(Native.topoplan_crowd_create_with_chain(planner.Handle, ref def, ref chain, out h,
                                                                       error, (UIntPtr)Utf8.ErrorSize),
                               error, "topoplan_crowd_create");
                }
            }
            finally
            {
                foreach (var p in pins) p.Free();
                if (cacheRef) options.Cache.Handle.DangerousRelease();
            }
            handle = Handles.Wrap<CrowdHandle>(h, planner.Handle, options.Cache != null ? options.Cache.Handle : null);
            this.planner = planner;
            cache = options.Cache;
        }

        static byte* Pin(byte[] bytes, List<GCHandle> pins)
        {
            if (bytes == null) return null;
            GCHandle g = GCHandle.Alloc(bytes, GCHandleType.Pinned);
            pins.Add(g);
            return (byte*)g.AddrOfPinnedObject();
        }

        /// <summary>Frees the crowd (its planner and cache stay alive while others hold them).</summary>
        public void Dispose() { handle.Dispose(); }

        /// <summary>The crowd planner.</summary>
        public CrowdPlanner Planner { get { return planner; } }
        /// <summary>The plan cache, or null.</summary>
        public PlanCache Cache { get { return cache; } }

        CrowdStats Call(CrowdBatchView* batch, CrowdOutputView* output, PlanHandle* handles, bool withHandles,
                        long* cursor, double budget)
        {
            CrowdStats stats;
            int s;
            bool held = false;
            try
            {
                handle.DangerousAddRef(ref held);
                IntPtr c = handle.DangerousGetHandle();
                if (cursor == null)
                    s = withHandles ? Native.topoplan_crowd_plan_handles(c, batch, output, handles, &stats)
                                    : Native.topoplan_crowd_plan(c, batch, output, &stats);
                else
                    s = withHandles
                            ? Native.topoplan_crowd_plan_frame_handles(c, batch, output, handles, cursor, budget, &stats)
                            : Native.topoplan_crowd_plan_frame(c, batch, output, cursor, budget, &stats);
            }
            finally
            {
                if (held) handle.DangerousRelease();
            }
            if (s != 0)
                throw Utf8.Fail((Status)s, "topoplan_crowd_plan: " + Library.StatusName((Status)s) +
                                " (a NULL array, a count out of [0, 2^31), capacity out of [0, 2^32), a cursor out of" +
                                " [0, count], a negative budget, or handles without a cache)");
            return stats;
        }

        /// <summary>NPCs the frame calls left pending (their status is <see cref="CrowdStatus.Pending"/>); the next frame call retries them first.</summary>
        public long PendingCount
        {
            get
            {
                long count;
                int s = Native.topoplan_crowd_pending(handle, null, 0, out count);
                if (s != (int)Status.BufferTooSmall) Utf8.Check(s, null, "topoplan_crowd_pending");
                return count;
            }
        }

        /// <summary>Copies the pending NPCs, ascending, into <paramref name="npcs"/>; returns how many.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.BufferTooSmall"/> when the span is shorter than <see cref="PendingCount"/> (the count in the message).</exception>
        public int CopyPending(Span<long> npcs)
        {
            long count;
            int s;
            fixed (long* p = npcs)
                s = Native.topoplan_crowd_pending(handle, p, npcs.Length, out count);
            if (s == (int)Status.BufferTooSmall)
                throw Utf8.Fail(Status.BufferTooSmall, "topoplan_crowd_pending: " + count + " pending NPCs, the span holds " + npcs.Length);
            Utf8.Check(s, null, "topoplan_crowd_pending");
            return (int)count;
        }

        /// <summary>
        /// Forgets the pending NPCs: they keep <see cref="CrowdStatus.Pending"/> (length 0) in
        /// their output, and a frame call at cursor 0 starts a new pass at once.
        /// </summary>
        public void DiscardPending()
        {
            Utf8.Check(Native.topoplan_crowd_discard_pending(handle), null, "topoplan_crowd_discard_pending");
        }

        /// <summary>
        /// Plans every NPC of a batch given as pointers (native memory, or arrays the caller pinned).
        /// No allocation, no copy. Per-NPC problems are status bits, not exceptions.
        /// </summary>
        /// <param name="batch">The NPCs.</param>
        /// <param name="output">The caller's output arrays.</param>
        /// <param name="handles">Count plan handles, or null for plans copied into the action buffer.</param>
        public CrowdStats Plan(ref CrowdBatchView batch, ref CrowdOutputView output, PlanHandle* handles = null)
        {
            fixed (CrowdBatchView* b = &batch)
            fixed (CrowdOutputView* o = &output)
                return Call(b, o, handles, handles != null, null, 0);
        }

        /// <summary>
        /// Plans from <paramref name="cursor"/> (the first NPC not yet served; start at 0) until
        /// <paramref name="budgetSeconds"/> have passed (checked once per block); advances the cursor.
        /// </summary>
        public CrowdStats PlanFrame(ref CrowdBatchView batch, ref CrowdOutputView output, ref long cursor,
                                    double budgetSeconds, PlanHandle* handles = null)
        {
            fixed (CrowdBatchView* b = &batch)
            fixed (CrowdOutputView* o = &output)
            fixed (long* c = &cursor)
                return Call(b, o, handles, handles != null, c, budgetSeconds);
        }

        /// <summary>Checks spans against the layout; the message names the array and both sizes.</summary>
        void CheckSpans(int count, int npcClass, int init, int goal, int offset, int length, int status, int handles)
        {
            long words = (long)count * planner.Words;
            string bad = null;
            if (npcClass != count) bad = "npcClass has " + npcClass + " entries";
            else if (init != words) bad = "init has " + init + " words (count × Words = " + words + ")";
            else if (goal != words) bad = "goal has " + goal + " words (count × Words = " + words + ")";
            else if (offset != count) bad = "offset has " + offset + " entries";
            else if (length != count) bad = "length has " + length + " entries";
            else if (status != count) bad = "status has " + status + " entries";
            else if (handles >= 0 && handles != count) bad = "handles has " + handles + " entries";
            else if (handles >= 0 && cache == null) bad = "plan handles need a crowd with a cache";
            if (bad != null)
                throw Utf8.Fail(Status.InvalidArgument, "crowd batch of " + count + " NPCs: " + bad);
        }

        CrowdStats Spans(ReadOnlySpan<ushort> npcClass, ReadOnlySpan<ulong> init, ReadOnlySpan<ulong> goal,
                         Span<int> actions, Span<uint> offset, Span<ushort> length, Span<ushort> status,
                         Span<PlanHandle> handles, bool withHandles, long* cursor, double budget)
        {
            int count = npcClass.Length;
            CheckSpans(count, npcClass.Length, init.Length, goal.Length, offset.Length, length.Length, status.Length,
                       withHandles ? handles.Length : -1);
            fixed (ushort* c = npcClass)
            fixed (ulong* i = init)
            fixed (ulong* g = goal)
            fixed (int* a = actions)
            fixed (uint* o = offset)
            fixed (ushort* l = length)
            fixed (ushort* s = status)
            fixed (PlanHandle* h = handles)
            {
                var batch = new CrowdBatchView { Count = count, NpcClass = c, Init = i, Goal = g };
                var output = new CrowdOutputView { Actions = a, Capacity = actions.Length, Offset = o, Length = l, Status = s };
                return Call(&batch, &output, h, withHandles, cursor, budget);
            }
        }

        /// <summary>Plans every NPC; NPC i's plan is <c>actions[offset[i], offset[i] + length[i])</c> when status[i] has Solved.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: array sizes that do not match (named in the message).</exception>
        public CrowdStats Plan(ReadOnlySpan<ushort> npcClass, ReadOnlySpan<ulong> init, ReadOnlySpan<ulong> goal,
                               Span<int> actions, Span<uint> offset, Span<ushort> length, Span<ushort> status)
        {
            return Spans(npcClass, init, goal, actions, offset, length, status, Span<PlanHandle>.Empty, false, null, 0);
        }

        /// <summary>The whole batch of <paramref name="buffers"/>.</summary>
        public CrowdStats Plan(CrowdBuffers buffers)
        {
            return Spans(buffers.NpcClass, buffers.Init, buffers.Goal, buffers.Actions, buffers.Offset, buffers.Length,
                         buffers.Status, Span<PlanHandle>.Empty, false, null, 0);
        }

        /// <summary>A frame of the batch of <paramref name="buffers"/> from <paramref name="cursor"/>, within <paramref name="budgetSeconds"/>.</summary>
        public CrowdStats PlanFrame(CrowdBuffers buffers, ref long cursor, double budgetSeconds)
        {
            fixed (long* c = &cursor)
                return Spans(buffers.NpcClass, buffers.Init, buffers.Goal, buffers.Actions, buffers.Offset, buffers.Length,
                             buffers.Status, Span<PlanHandle>.Empty, false, c, budgetSeconds);
        }

        /// <summary>
        /// The whole batch answering by plan handles (the crowd needs a cache): a solved NPC with
        /// a handle has its plan in the cache's table (<see cref="TryResolve"/>), not in the action buffer.
        /// </summary>
        public CrowdStats PlanHandles(CrowdBuffers buffers)
        {
            return Spans(buffers.NpcClass, buffers.Init, buffers.Goal, buffers.Actions, buffers.Offset, buffers.Length,
                         buffers.Status, buffers.Handles, true, null, 0);
        }

        /// <summary>A frame answering by plan handles.</summary>
        public CrowdStats PlanFrameHandles(CrowdBuffers buffers, ref long cursor, double budgetSeconds)
        {
            fixed (long* c = &cursor)
                return Spans(buffers.NpcClass, buffers.Init, buffers.Goal, buffers.Actions, buffers.Offset, buffers.Length,
                             buffers.Status, buffers.Handles, true, c, budgetSeconds);
        }

        /// <summary>The plan behind a handle, in place (no copy; valid until the cache is invalidated). False when empty or stale.</summary>
        public bool TryResolve(PlanHandle handle, out ReadOnlySpan<int> plan)
        {
            if (cache == null) throw Utf8.Fail(Status.InvalidArgument, "topoplan_crowd_resolve: the crowd has no cache");
            int* actions;
            int length;
            int s = Native.topoplan_crowd_resolve(this.handle, handle, out actions, out length);
            plan = s == 0 ? new ReadOnlySpan<int>(actions, length) : ReadOnlySpan<int>.Empty;
            return s == 0;
        }
    }

    /// <summary>
    /// Caller-owned arrays of a batch and its output, sized once: the input (class, packed init
    /// and goal per NPC) and the output (action buffer, offset, length, status, plan handles).
    /// Reuse them frame after frame; the batch calls pin them for the call only.
    /// </summary>
    public sealed class CrowdBuffers
    {
        /// <summary>NPC class per NPC.</summary>
        public readonly ushort[] NpcClass;
        /// <summary>Packed initial states, <see cref="Words"/> per NPC.</summary>
        public readonly ulong[] Init;
        /// <summary>Packed goals, <see cref="Words"/> per NPC.</summary>
        public readonly ulong[] Goal;
        /// <summary>The action buffer the crowd slices per block.</summary>
        public readonly int[] Actions;
        /// <summary>Offset of each NPC's plan in <see cref="Actions"/>.</summary>
        public readonly uint[] Offset;
        /// <summary>Length of each NPC's plan.</summary>
        public readonly ushort[] Length;
        /// <summary><see cref="CrowdStatus"/> bits per NPC.</summary>
        public readonly ushort[] Status;
        /// <summary>Plan handles per NPC (used by the handle calls).</summary>
        public readonly PlanHandle[] Handles;
        readonly CrowdPlanner planner;

        /// <summary>
        /// Buffers for <paramref name="count"/> NPCs of <paramref name="planner"/>'s layout.
        /// <paramref name="actionCapacity"/>: entries of the action buffer; 0 (the default) sizes
        /// it <c>count × MaxPlanLength</c>, which never answers BufferTooSmall. A smaller buffer is
        /// split among blocks in proportion to their NPCs (docs/c-api.md, "Sizing the action buffer").
        /// </summary>
        public CrowdBuffers(CrowdPlanner planner, int count, long actionCapacity = 0)
        {
            if (planner == null) throw new ArgumentNullException("planner");
            if (count < 0) throw new ArgumentOutOfRangeException("count");
            if (actionCapacity <= 0) actionCapacity = (long)count * Math.Max(1, planner.MaxPlanLength);
            if (actionCapacity > int.MaxValue)
                throw new TopoplanException(Topoplan.Status.InvalidArgument,
                    "CrowdBuffers: " + actionCapacity + " actions exceed one array; pass a smaller actionCapacity");
            this.planner = planner;
            NpcClass = new ushort[count];
            Init = new ulong[(long)count * planner.Words];
            Goal = new ulong[(long)count * planner.Words];
            Actions = new int[actionCapacity];
            Offset = new uint[count];
            Length = new ushort[count];
            Status = new ushort[count];
            Handles = new PlanHandle[count];
        }

        /// <summary>NPCs in the batch.</summary>
        public int Count { get { return NpcClass.Length; } }
        /// <summary>Words per packed state.</summary>
        public int Words { get { return planner.Words; } }

        /// <summary>Sets NPC <paramref name="npc"/>: its class, its state and its goal (packed here).</summary>
        public void Set(int npc, int npcClass, ReadOnlySpan<int> init, ReadOnlySpan<int> goal)
        {
            if ((uint)npc >= (uint)Count) throw new ArgumentOutOfRangeException("npc");
            if (npcClass < 0 || npcClass > ushort.MaxValue) throw new ArgumentOutOfRangeException("npcClass");
            NpcClass[npc] = (ushort)npcClass;
            int w = planner.Words;
            planner.PackState(init, new Span<ulong>(Init, npc * w, w));
            planner.PackGoal(goal, new Span<ulong>(Goal, npc * w, w));
        }

        /// <summary>The status bits of NPC <paramref name="npc"/>.</summary>
        public CrowdStatus StatusOf(int npc) { return (CrowdStatus)Status[npc]; }

        /// <summary>
        /// NPC <paramref name="npc"/>'s plan when it was copied to the action buffer (status
        /// Solved and no plan handle); empty otherwise.
        /// </summary>
        public ReadOnlySpan<int> CopiedPlan(int npc)
        {
            if ((Status[npc] & (ushort)CrowdStatus.Solved) == 0) return ReadOnlySpan<int>.Empty;
            return new ReadOnlySpan<int>(Actions, (int)Offset[npc], Length[npc]);
        }
    }
}
