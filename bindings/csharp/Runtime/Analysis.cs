// The class analysis (docs/classes.md): which structural class a domain's actions fall in, and why
// not the smaller one.
using System;
using System.Runtime.InteropServices;

namespace Topoplan
{
    /// <summary>The structural classes of docs/classes.md.</summary>
    public enum StructuralClass
    {
        /// <summary>C0.</summary>
        C0 = 0,
        /// <summary>C2S.</summary>
        C2S = 1,
        /// <summary>C2*.</summary>
        C2Star = 2,
        /// <summary>None of them.</summary>
        None = 3,
    }

    /// <summary>The flags and class of the actions of one NPC class (topoplan_class_report).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct ClassReport
    {
        /// <summary>Actions analysed.</summary>
        public int NumAnalysed;
        int unary, postUnique, singleValued, preDefined, structuralClass;
        /// <summary>Req: actions whose post satisfies another's prevail.</summary>
        public int NumRequestable;
        int reserved;

        /// <summary>(U): every action has one effect.</summary>
        public bool Unary { get { return unary != 0; } }
        /// <summary>(P): every value is produced by at most one action.</summary>
        public bool PostUnique { get { return postUnique != 0; } }
        /// <summary>(S): single-valued prevail conditions.</summary>
        public bool SingleValued { get { return singleValued != 0; } }
        /// <summary>Every effect has a defined pre-condition.</summary>
        public bool PreDefined { get { return preDefined != 0; } }
        /// <summary>The structural class.</summary>
        public StructuralClass Class { get { return (StructuralClass)structuralClass; } }
        /// <summary>True when ℙ (the "topo" planner) accepts these actions: unary and post-unique.</summary>
        public bool TopoApplies { get { return Unary && PostUnique; } }
    }

    /// <summary>Bits of <see cref="Analysis.ActionFlags"/>.</summary>
    [Flags]
    public enum ActionFlags
    {
        /// <summary>None.</summary>
        None = 0,
        /// <summary>In the class analysed.</summary>
        Analysed = 0x1,
        /// <summary>In Req: its post satisfies another's prevail.</summary>
        Requestable = 0x2,
        /// <summary>On a cycle of some G(v).</summary>
        OnCycle = 0x4,
    }

    /// <summary>
    /// The whole analysis of one NPC class kept in a handle: the report, the reasons in words
    /// (the lines of <c>topoplan check</c>), per-action flags and the action graph's edges.
    /// Immutable; keeps its task alive.
    /// </summary>
    public sealed unsafe class Analysis : IDisposable
    {
        readonly AnalysisHandle handle;
        readonly PlanningTask task;

        /// <summary>Analyses the actions of <paramref name="npcClass"/> (<see cref="PlanningTask.AllActions"/>: every action).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: class out of range.</exception>
        public Analysis(PlanningTask task, int npcClass = PlanningTask.AllActions)
        {
            if (task == null) throw new ArgumentNullException("task");
            IntPtr h;
            int s = Native.topoplan_analysis_create(task.Handle, npcClass, out h);
            if (s != (int)Status.Ok)
                throw Utf8.Fail((Status)s, "topoplan_analysis_create: NPC class " + npcClass +
                                " out of range (the task has " + task.NumClasses + ")");
            handle = Handles.Wrap<AnalysisHandle>(h, task.Handle);
            this.task = task;
        }

        /// <summary>The task analysed.</summary>
        public PlanningTask Task { get { return task; } }

        /// <summary>Frees the analysis.</summary>
        public void Dispose() { handle.Dispose(); }

        /// <summary>The flags and the structural class.</summary>
        public ClassReport Report
        {
            get
            {
                ClassReport r;
                Utf8.Check(Native.topoplan_analysis_report(handle, out r), null, "topoplan_analysis_report");
                return r;
            }
        }

        /// <summary>Why the next smaller class does not hold ("" for C0).</summary>
        public string WhyNot { get { return Utf8.Get(Native.topoplan_analysis_why_not(handle)); } }

        /// <summary>The analysis in words, one line per reason, with names.</summary>
        public string[] Lines
        {
            get
            {
                int n = Native.topoplan_analysis_num_lines(handle);
                var lines = new string[Math.Max(n, 0)];
                for (int i = 0; i < lines.Length; ++i) lines[i] = Utf8.Get(Native.topoplan_analysis_line(handle, i));
                return lines;
            }
        }

        /// <summary>The flags of action <paramref name="action"/> of the domain.</summary>
        public ActionFlags ActionFlags(int action)
        {
            int f = Native.topoplan_analysis_action_flags(handle, action);
            if (f < 0) throw Utf8.Fail(Status.InvalidArgument, "topoplan_analysis_action_flags: action " + action + " out of range");
            return (ActionFlags)f;
        }

        /// <summary>
        /// The action graph's edges: E_pre (post(a) = pre(b)) when <paramref name="prevail"/> is
        /// false, E_prv (post(a) = prv(b)) when true, as (from, to) pairs, sorted.
        /// </summary>
        public int[] Edges(bool prevail)
        {
            int* pairs;
            int n = Native.topoplan_analysis_edges(handle, prevail ? 1 : 0, out pairs);
            var result = new int[2 * Math.Max(n, 0)];
            if (n > 0) Marshal.Copy((IntPtr)pairs, result, 0, result.Length);
            return result;
        }

        /// <summary>The report and the reason, without keeping a handle (topoplan_check).</summary>
        public static ClassReport Check(PlanningTask task, int npcClass, out string whyNot)
        {
            if (task == null) throw new ArgumentNullException("task");
            byte* why = stackalloc byte[Utf8.ErrorSize];
            why[0] = 0;
            ClassReport r;
            int s = Native.topoplan_check(task.Handle, npcClass, out r, why, (UIntPtr)Utf8.ErrorSize);
            if (s != (int)Status.Ok)
                throw Utf8.Fail((Status)s, "topoplan_check: NPC class " + npcClass +
                                " out of range (the task has " + task.NumClasses + ")");
            whyNot = Utf8.Get(why);
            return r;
        }
    }
}
