// Crowds (docs/crowds.md): plans for many NPCs per call, a shared plan cache, plan handles.
// The batch calls take spans or pointers over the caller's arrays: nothing is copied and nothing
// is allocated per call.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace Topoplan
{
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
