// ℙ on the hot path: one planner per NPC class, one scratch per thread, no allocation per plan.
using System;

namespace Topoplan
{
    /// <summary>
    /// ℙ (TopoPlan) for the actions of one NPC class: builds its tables once, then plans in linear
    /// time without allocating. Immutable: share it between threads, each with its own
    /// <see cref="TopoScratch"/>. Keeps its task alive.
    /// </summary>
    public sealed unsafe class TopoPlanner : IDisposable
    {
        internal readonly TopoHandle Handle;
        readonly int numVariables;

        /// <summary>Builds ℙ for <paramref name="npcClass"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.Unsupported"/> with why, when the
        /// class's actions are not unary and post-unique.</exception>
        public TopoPlanner(PlanningTask task, int npcClass = PlanningTask.AllActions)
        {
            if (task == null) throw new ArgumentNullException("task");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr h;
            Utf8.Check(Native.topoplan_topo_create(task.Handle, npcClass, out h, error, (UIntPtr)Utf8.ErrorSize),
                       error, "topoplan_topo_create");
            Handle = Handles.Wrap<TopoHandle>(h, task.Handle);
            numVariables = task.NumVariables;
        }

        /// <summary>Frees the planner once its scratches are gone.</summary>
        public void Dispose() { Handle.Dispose(); }

        /// <summary>The longest plan it can return (the number of available actions): a buffer of this size always fits.</summary>
        public int MaxPlanLength { get { return Native.topoplan_topo_max_plan_length(Handle); } }

        /// <summary>Working memory for one thread.</summary>
        public TopoScratch CreateScratch() { return new TopoScratch(this); }

        /// <summary>
        /// Plans from <paramref name="init"/> to <paramref name="goal"/> into
        /// <paramref name="actions"/>; <paramref name="length"/> receives the plan's length (or,
        /// for <see cref="Status.BufferTooSmall"/>, the capacity needed). Returns
        /// <see cref="Status.Ok"/>, <see cref="Status.Unsolvable"/> (a proof),
        /// <see cref="Status.GaveUp"/> (<see cref="Explain"/> says why) or
        /// <see cref="Status.BufferTooSmall"/>. No allocation. One thread per scratch.
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: sizes or values out of range, a scratch of another planner.</exception>
        public Status Plan(TopoScratch scratch, ReadOnlySpan<int> init, ReadOnlySpan<int> goal,
                           Span<int> actions, out int length)
        {
            if (scratch == null) throw new ArgumentNullException("scratch");
            if (scratch.Owner != this)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_topo_plan: the scratch belongs to another planner");
            if (init.Length != goal.Length)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_topo_plan: init has " + init.Length +
                                " values, goal " + goal.Length);
            int s, len = 0;
            bool held = false;
            try
            {
                // One reference, on the scratch: it holds its planner, so both stay alive.
                scratch.Handle.DangerousAddRef(ref held);
                fixed (int* i = init)
                fixed (int* g = goal)
                fixed (int* a = actions)
                    s = Native.topoplan_topo_plan(Handle.DangerousGetHandle(), scratch.Handle.DangerousGetHandle(),
                                                  i, g, init.Length, a, actions.Length, &len);
            }
            finally
            {
                if (held) scratch.Handle.DangerousRelease();
            }
            length = len;
            if (s > (int)Status.BufferTooSmall)
                throw Utf8.Fail(s, null, "topoplan_topo_plan (init and goal need " + numVariables +
                                " values in range)");
            return (Status)s;
        }

        /// <summary>One line, with names, on why the last <see cref="Plan"/> with this scratch failed.</summary>
        public string Explain(TopoScratch scratch)
        {
            if (scratch == null) throw new ArgumentNullException("scratch");
            byte* text = stackalloc byte[Utf8.ErrorSize];
            text[0] = 0;
            Utf8.Check(Native.topoplan_topo_explain(Handle, scratch.Handle, text, (UIntPtr)Utf8.ErrorSize), text,
                       "topoplan_topo_explain");
            return Utf8.Get(text);
        }
    }

    /// <summary>ℙ's working memory for one thread (allocated once). Keeps its planner alive.</summary>
    public sealed unsafe class TopoScratch : IDisposable
    {
        internal readonly ScratchHandle Handle;
        internal readonly TopoPlanner Owner;

        internal TopoScratch(TopoPlanner planner)
        {
            Owner = planner;
            IntPtr h;
            Utf8.Check(Native.topoplan_scratch_create(planner.Handle, out h), null, "topoplan_scratch_create");
            Handle = Handles.Wrap<ScratchHandle>(h, planner.Handle);
        }

        /// <summary>Frees the scratch.</summary>
        public void Dispose() { Handle.Dispose(); }
    }
}
