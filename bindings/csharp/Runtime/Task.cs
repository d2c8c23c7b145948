// Tasks (a compiled domain and the instances its file carried), problems, planning by planner
// name, the validator.
using System;
using System.Runtime.InteropServices;

namespace Topoplan
{
    /// <summary>The file formats <see cref="PlanningTask.Load"/> and <see cref="PlanningTask.Parse"/> read.</summary>
    public enum TaskFormat
    {
        /// <summary>By extension (.sas, .toml), else by content.</summary>
        Auto = 0,
        /// <summary>topoplan's TOML format (docs/formats.md).</summary>
        Native = 1,
        /// <summary>Fast Downward SAS, version 3.</summary>
        Sas = 2,
    }

    /// <summary>
    /// One NPC's planning problem: a total initial state, a partial goal
    /// (<see cref="PlanningTask.Undefined"/> = don't care), both indexed by variable, and the NPC
    /// class whose actions may be used (<see cref="PlanningTask.AllActions"/>: every action).
    /// </summary>
    public sealed class Problem
    {
        /// <summary>The initial state, one value per variable.</summary>
        public int[] Init;
        /// <summary>The goal, one value per variable or <see cref="PlanningTask.Undefined"/>.</summary>
        public int[] Goal;
        /// <summary>An NPC class id, or <see cref="PlanningTask.AllActions"/>.</summary>
        public int NpcClass = PlanningTask.AllActions;

        /// <summary>A problem over copies of nothing: the arrays are used as given.</summary>
        public Problem(int[] init, int[] goal, int npcClass = PlanningTask.AllActions)
        {
            Init = init;
            Goal = goal;
            NpcClass = npcClass;
        }
    }

    /// <summary>Limits and objective of a plan call (topoplan_plan_options).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct PlanOptions
    {
        /// <summary>Search nodes expanded.</summary>
        public long MaxExpansions;
        /// <summary>States and bookkeeping, bytes.</summary>
        public long MaxMemoryBytes;
        /// <summary>Wall-clock seconds; 0: no time limit.</summary>
        public double MaxSeconds;
        /// <summary>0: minimise the sum of action costs; 1: the number of actions.</summary>
        public int Objective;
        int reserved;

        /// <summary>The library's defaults (those of the C++ PlannerOptions).</summary>
        public static PlanOptions Defaults()
        {
            PlanOptions o;
            Native.topoplan_plan_options_init(out o);
            return o;
        }
    }

    /// <summary>Statistics of a plan call (topoplan_plan_stats).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct PlanStats
    {
        /// <summary>The plan's cost (when solved).</summary>
        public long Cost;
        /// <summary>The plan's length; for <see cref="Status.BufferTooSmall"/> the capacity needed.</summary>
        public int Length;
        int reserved;
        /// <summary>Search nodes expanded (0 for ℙ).</summary>
        public long Expanded;
        /// <summary>Search nodes generated.</summary>
        public long Generated;
        /// <summary>Wall-clock time of the call.</summary>
        public double Seconds;
        fixed byte engine[32];

        /// <summary>Which engine answered ("topo", "astar", "exact", ...).</summary>
        public string Engine
        {
            get
            {
                fixed (byte* e = engine) return Utf8.Get(e);
            }
        }
    }

    /// <summary>The answer of a planner: a plan, or why there is none.</summary>
    public sealed class PlanResult
    {
        /// <summary><see cref="Status.Ok"/>, <see cref="Status.Unsolvable"/> (proved),
        /// <see cref="Status.LimitReached"/>, <see cref="Status.GaveUp"/> or
        /// <see cref="Status.Unsupported"/>.</summary>
        public Status Status;
        /// <summary>The plan's action ids (empty unless <see cref="Status"/> is Ok).</summary>
        public int[] Actions;
        /// <summary>The call's statistics.</summary>
        public PlanStats Stats;
        /// <summary>The library's explanation when there is no plan ("" otherwise).</summary>
        public string Message;

        /// <summary>True when <see cref="Actions"/> is a plan.</summary>
        public bool Solved { get { return Status == Status.Ok; } }
    }

    /// <summary>The verdict of <see cref="PlanningTask.Validate"/>.</summary>
    public struct Validation
    {
        /// <summary>True when the plan applies from the initial state and reaches the goal.</summary>
        public bool Valid;
        /// <summary>The first step that does not apply; -1 when every step applied (then the goal fails).</summary>
        public int FailedStep;
        /// <summary>The cost of the steps applied.</summary>
        public long Cost;
        /// <summary>Why the plan is invalid, with names ("" when valid).</summary>
        public string Message;
    }

    /// <summary>
    /// A compiled domain (variables, actions, NPC classes) and the instances its file carried
    /// (topoplan_task). Immutable: share it between threads. Dispose it when done; planners made
    /// from it keep it alive until they are disposed too.
    /// </summary>
    public sealed unsafe class PlanningTask : IDisposable
    {
        /// <summary>A goal entry that does not matter (TOPOPLAN_UNDEFINED).</summary>
        public const int Undefined = -1;
        /// <summary>The NPC class of every action (TOPOPLAN_ALL_ACTIONS).</summary>
        public const int AllActions = -1;

        internal readonly TaskHandle Handle;

        PlanningTask(TaskHandle handle) { Handle = handle; }

        /// <summary>Reads a task file (native TOML or Fast Downward SAS).</summary>
        /// <exception cref="TopoplanException">The file is missing or malformed: "file:line: message".</exception>
        public static PlanningTask Load(string path, TaskFormat format = TaskFormat.Auto)
        {
            if (path == null) throw new ArgumentNullException("path");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr task;
            int s;
            fixed (byte* p = Utf8.Z(path))
                s = Native.topoplan_task_load(p, (int)format, out task, error, (UIntPtr)Utf8.ErrorSize);
            Utf8.Check(s, error, "topoplan_task_load");
            return new PlanningTask(Handles.Wrap<TaskHandle>(task));
        }

        /// <summary>Parses a task from text (a TextAsset's text, a string built by the game).</summary>
        /// <param name="text">The file's contents.</param>
        /// <param name="filename">Names the text in messages (may be null).</param>
        /// <param name="format">Native TOML, SAS, or Auto (by content).</param>
        /// <exception cref="TopoplanException">Malformed text: "filename:line: message".</exception>
        public static PlanningTask Parse(string text, string filename = null,
                                         TaskFormat format = TaskFormat.Auto)
        {
            if (text == null) throw new ArgumentNullException("text");
            byte[] bytes = Utf8.Z(text);
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            IntPtr task;
            int s;
            fixed (byte* t = bytes)
            fixed (byte* f = Utf8.Z(filename))
                s = Native.topoplan_task_parse(t, (UIntPtr)(bytes.Length - 1), (int)format, f,
                                               out task, error, (UIntPtr)Utf8.ErrorSize);
            Utf8.Check(s, error, "topoplan_task_parse");
            return new PlanningTask(Handles.Wrap<TaskHandle>(task));
        }

        /// <summary>Frees the task once nothing made from it is alive.</summary>
        public void Dispose() { Handle.Dispose(); }

        /// <summary>The task's name.</summary>
        public string Name { get { return Utf8.Get(Native.topoplan_task_name(Handle)); } }
        /// <summary>Number of state variables.</summary>
        public int NumVariables { get { return Native.topoplan_task_num_variables(Handle); } }
        /// <summary>Number of actions.</summary>
        public int NumActions { get { return Native.topoplan_task_num_actions(Handle); } }
        /// <summary>Number of NPC classes (0: the domain has none).</summary>
        public int NumClasses { get { return Native.topoplan_task_num_classes(Handle); } }
        /// <summary>Number of instances the file carried.</summary>
        public int NumInstances { get { return Native.topoplan_task_num_instances(Handle); } }

        /// <summary>The name of variable <paramref name="var"/> (null when out of range).</summary>
        public string VariableName(int var) { return Utf8.Get(Native.topoplan_task_variable_name(Handle, var)); }
        /// <summary>The number of values of variable <paramref name="var"/> (-1 when out of range).</summary>
        public int DomainSize(int var) { return Native.topoplan_task_domain_size(Handle, var); }
        /// <summary>The name of a value (null when out of range).</summary>
        public string ValueName(int var, int value) { return Utf8.Get(Native.topoplan_task_value_name(Handle, var, value)); }
        /// <summary>The name of an action (null when out of range).</summary>
        public string ActionName(int action) { return Utf8.Get(Native.topoplan_task_action_name(Handle, action)); }
        /// <summary>The cost of an action (-1 when out of range).</summary>
        public long ActionCost(int action) { return Native.topoplan_task_action_cost(Handle, action); }
        /// <summary>The name of an NPC class (null when out of range).</summary>
        public string ClassName(int npcClass) { return Utf8.Get(Native.topoplan_task_class_name(Handle, npcClass)); }
        /// <summary>The name of an instance (null when out of range).</summary>
        public string InstanceName(int index) { return Utf8.Get(Native.topoplan_task_instance_name(Handle, index)); }

        delegate int FindFn(TaskHandle t, byte* name, out int id);

        int Find(FindFn fn, string kind, string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            int id, s;
            fixed (byte* n = Utf8.Z(name)) s = fn(Handle, n, out id);
            if (s != (int)Status.Ok)
                throw Utf8.Fail((Status)s, "topoplan: no " + kind + " named '" + name + "' in " + Name);
            return id;
        }

        /// <summary>The id of the variable called <paramref name="name"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.NotFound"/>.</exception>
        public int FindVariable(string name) { return Find(Native.topoplan_task_find_variable, "variable", name); }
        /// <summary>The id of the action called <paramref name="name"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.NotFound"/>.</exception>
        public int FindAction(string name) { return Find(Native.topoplan_task_find_action, "action", name); }
        /// <summary>The id of the NPC class called <paramref name="name"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.NotFound"/>.</exception>
        public int FindClass(string name) { return Find(Native.topoplan_task_find_class, "NPC class", name); }
        /// <summary>The index of the instance called <paramref name="name"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.NotFound"/>.</exception>
        public int FindInstance(string name) { return Find(Native.topoplan_task_find_instance, "instance", name); }

        /// <summary>The id of value <paramref name="name"/> of variable <paramref name="var"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.NotFound"/> or <see cref="Status.InvalidArgument"/>.</exception>
        public int FindValue(int var, string name)
        {
            if (name == null) throw new ArgumentNullException("name");
            int id, s;
            fixed (byte* n = Utf8.Z(name)) s = Native.topoplan_task_find_value(Handle, var, n, out id);
            if (s != (int)Status.Ok)
                throw Utf8.Fail((Status)s, "topoplan: variable " + var + " has no value named '" + name + "'");
            return id;
        }

        /// <summary>Instance <paramref name="index"/> as a problem (copies of its arrays).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/> when out of range.</exception>
        public Problem Instance(int index)
        {
            ProblemView v;
            int s = Native.topoplan_task_instance(Handle, index, out v);
            if (s != (int)Status.Ok)
                throw Utf8.Fail((Status)s, "topoplan_task_instance: index " + index +
                                " out of range [0, " + NumInstances + ")");
            var init = new int[v.NumVariables];
            var goal = new int[v.NumVariables];
            Marshal.Copy((IntPtr)v.Init, init, 0, init.Length);
            Marshal.Copy((IntPtr)v.Goal, goal, 0, goal.Length);
            return new Problem(init, goal, v.NpcClass);
        }

        /// <summary>The instance called <paramref name="name"/> as a problem.</summary>
        public Problem Instance(string name) { return Instance(FindInstance(name)); }

        /// <summary>
        /// A state from "var=value, var=value" (the CLI's --init / --goal syntax); the variables
        /// not named are <see cref="Undefined"/>.
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InputError"/>: an unknown variable or value, or one named twice.</exception>
        public int[] ParseState(string text)
        {
            if (text == null) throw new ArgumentNullException("text");
            var state = new int[NumVariables];
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            int s;
            fixed (byte* t = Utf8.Z(text))
            fixed (int* st = state)
                s = Native.topoplan_task_parse_state(Handle, t, st, state.Length, error, (UIntPtr)Utf8.ErrorSize);
            Utf8.Check(s, error, "topoplan_task_parse_state");
            return state;
        }

        /// <summary>A state as "⟨var=value, ...⟩" (undefined entries left out).</summary>
        public string FormatState(int[] state)
        {
            if (state == null) throw new ArgumentNullException("state");
            UIntPtr size;
            fixed (int* st = state)
            {
                int s = Native.topoplan_task_format_state(Handle, st, state.Length, null, UIntPtr.Zero, out size);
                if (s != (int)Status.BufferTooSmall && s != (int)Status.Ok)
                    throw Utf8.Fail((Status)s, "topoplan_task_format_state: the state does not fit the task (" +
                                    state.Length + " values for " + NumVariables + " variables, or a value out of range)");
                var buffer = new byte[(int)size];
                UIntPtr written;
                fixed (byte* b = buffer)
                    Utf8.Check(Native.topoplan_task_format_state(Handle, st, state.Length, b, size, out written),
                               null, "topoplan_task_format_state");
                return ToString(buffer);
            }
        }

        static string ToString(byte[] zeroTerminated)
        {
            int n = Array.IndexOf(zeroTerminated, (byte)0);
            return System.Text.Encoding.UTF8.GetString(zeroTerminated, 0, n < 0 ? zeroTerminated.Length : n);
        }

        /// <summary>The task as text in <paramref name="format"/> (native: every instance; SAS: instance 0).</summary>
        public string Write(TaskFormat format = TaskFormat.Native)
        {
            UIntPtr size;
            int s = Native.topoplan_task_write(Handle, (int)format, null, UIntPtr.Zero, out size);
            if (s != (int)Status.BufferTooSmall && s != (int)Status.Ok)
                throw Utf8.Fail((Status)s, "topoplan_task_write: " + Library.StatusName((Status)s));
            var buffer = new byte[(int)size];
            UIntPtr written;
            fixed (byte* b = buffer)
                Utf8.Check(Native.topoplan_task_write(Handle, (int)format, b, size, out written), null,
                           "topoplan_task_write");
            return ToString(buffer);
        }

        static void CheckProblem(Problem problem)
        {
            if (problem == null) throw new ArgumentNullException("problem");
            if (problem.Init == null || problem.Goal == null)
                throw new ArgumentNullException("problem", "problem.Init and problem.Goal must be set");
            if (problem.Init.Length != problem.Goal.Length)
                throw new TopoplanException(Status.InvalidArgument,
                    "problem: Init has " + problem.Init.Length + " values, Goal " + problem.Goal.Length);
        }

        /// <summary>
        /// Plans <paramref name="problem"/> with the planner called <paramref name="planner"/>
        /// ("auto", "topo", "astar", "astar-back"; <see cref="Library.PlannerNames"/>). The answer
        /// says whether a plan was found; a bad name or argument throws.
        /// </summary>
        /// <param name="planner">A registered planner's name; null: "auto".</param>
        /// <param name="problem">Init, goal and NPC class.</param>
        /// <param name="options">Limits and objective; null: the planner's defaults.</param>
        /// <exception cref="TopoplanException"><see cref="Status.NotFound"/> (no such planner),
        /// <see cref="Status.InvalidArgument"/> (sizes, values or class out of range).</exception>
        public PlanResult Plan(string planner, Problem problem, PlanOptions? options = null)
        {
            CheckProblem(problem);
            int capacity = 64;
            while (true)
            {
                var actions = new int[capacity];
                PlanStats stats;
                string message;
                Status s = Plan(planner, problem, options, actions, out stats, out message);
                if (s == Status.BufferTooSmall)
                {
                    capacity = Math.Max(stats.Length, capacity * 2);
                    continue;
                }
                var result = new PlanResult { Status = s, Stats = stats, Message = message };
                int n = s == Status.Ok ? stats.Length : 0;
                result.Actions = new int[n];
                Array.Copy(actions, result.Actions, n);
                return result;
            }
        }

        /// <summary>
        /// As <see cref="Plan(string, Problem, PlanOptions?)"/>, into the caller's
        /// <paramref name="actions"/> (the plan is <c>actions[0, stats.Length)</c>):
        /// <see cref="Status.BufferTooSmall"/> with <c>stats.Length</c> the capacity needed.
        /// </summary>
        public Status Plan(string planner, Problem problem, PlanOptions? options, int[] actions,
                           out PlanStats stats, out string message)
        {
            CheckProblem(problem);
            if (actions == null) throw new ArgumentNullException("actions");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            int s;
            fixed (int* init = problem.Init)
            fixed (int* goal = problem.Goal)
            fixed (int* a = actions)
            fixed (byte* name = Utf8.Z(planner))
            {
                var view = new ProblemView { Init = init, Goal = goal, NumVariables = problem.Init.Length, NpcClass = problem.NpcClass };
                PlanOptions o = options.GetValueOrDefault();
                s = Native.topoplan_plan(Handle, name, ref view, options.HasValue ? &o : null, a,
                                         actions.Length, out stats, error, (UIntPtr)Utf8.ErrorSize);
            }
            switch ((Status)s)
            {
                case Status.Ok:
                case Status.Unsolvable:
                case Status.LimitReached:
                case Status.GaveUp:
                case Status.Unsupported:
                case Status.BufferTooSmall:
                    message = Utf8.Get(error);
                    return (Status)s;
                default:
                    throw Utf8.Fail(s, error, "topoplan_plan(\"" + (planner ?? "auto") + "\")");
            }
        }

        /// <summary>Checks <paramref name="plan"/> from problem.Init against problem.Goal.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: sizes or ids out of range.</exception>
        public Validation Validate(Problem problem, int[] plan)
        {
            CheckProblem(problem);
            if (plan == null) throw new ArgumentNullException("plan");
            byte* error = stackalloc byte[Utf8.ErrorSize];
            error[0] = 0;
            int s, failed;
            long cost;
            fixed (int* init = problem.Init)
            fixed (int* goal = problem.Goal)
            fixed (int* a = plan)
            {
                var view = new ProblemView { Init = init, Goal = goal, NumVariables = problem.Init.Length, NpcClass = problem.NpcClass };
                s = Native.topoplan_validate(Handle, ref view, a, plan.Length, out failed, out cost,
                                             error, (UIntPtr)Utf8.ErrorSize);
            }
            if (s != (int)Status.Ok && s != (int)Status.InvalidPlan)
                throw Utf8.Fail(s, error, "topoplan_validate");
            return new Validation { Valid = s == (int)Status.Ok, FailedStep = s == (int)Status.Ok ? -1 : failed, Cost = cost, Message = Utf8.Get(error) };
        }
    }
}
