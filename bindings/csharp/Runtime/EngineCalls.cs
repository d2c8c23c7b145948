// The validator's small calls for engines that run plans themselves (docs/agents.md): does an
// action apply, apply it, does a goal hold, and which condition failed.
using System;
using System.Runtime.InteropServices;
using System.Security;

namespace Topoplan
{
    /// <summary>Which condition of an action failed (TOPOPLAN_CONDITION_*).</summary>
    public enum ConditionKind
    {
        /// <summary>Every condition holds.</summary>
        None = 0,
        /// <summary>An effect's pre-condition.</summary>
        Pre = 1,
        /// <summary>A prevail-condition.</summary>
        Prevail = 2,
    }

    /// <summary>The first condition of an action that does not hold in a state (topoplan_condition).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Condition
    {
        int kind;
        /// <summary>The variable of the condition.</summary>
        public int Var;
        /// <summary>The value the condition requires.</summary>
        public int Required;
        /// <summary>The value the state has.</summary>
        public int Actual;

        /// <summary>Pre-condition, prevail-condition, or none (the action applies).</summary>
        public ConditionKind Kind { get { return (ConditionKind)kind; } }
    }

    /// <summary>
    /// The validator's small calls for engines that run plans themselves: does an action apply,
    /// apply it, does a goal hold. Any thread; no allocation except <see cref="Describe"/>.
    /// </summary>
    public static unsafe class EngineCalls
    {
        static void CheckState(PlanningTask task, ReadOnlySpan<int> state, string function, string what)
        {
            if (task == null) throw new ArgumentNullException("task");
            if (state.Length != task.NumVariables)
                throw Utf8.Fail(Status.InvalidArgument, function + ": " + what + " has " + state.Length +
                                " values, the task has " + task.NumVariables + " variables");
        }

        /// <summary>
        /// True when <paramref name="action"/> applies in the total <paramref name="state"/>; otherwise
        /// <paramref name="failed"/> is its first failing condition (pre-conditions, then prevails).
        /// </summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an action id, a size or a value out of range.</exception>
        public static bool ActionApplies(this PlanningTask task, int action, ReadOnlySpan<int> state,
                                         out Condition failed)
        {
            CheckState(task, state, "topoplan_action_applies", "state");
            Condition c;
            int s;
            fixed (int* p = state)
                s = NativeAgents.topoplan_action_applies(task.Handle, action, p, state.Length, &c);
            if (s == (int)Status.InvalidArgument)
                throw Utf8.Fail(Status.InvalidArgument, "topoplan_action_applies: action " + action + " of " +
                                task.NumActions + ", or a value of the state out of its variable's range");
            if (s != (int)Status.Ok && s != (int)Status.InvalidPlan)
                throw Utf8.Fail(s, null, "topoplan_action_applies");
            failed = c;
            return s == (int)Status.Ok;
        }

        /// <summary>Writes the effects of <paramref name="action"/> into <paramref name="state"/> (conditions unchecked).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: an action id, a size or a value out of range.</exception>
        public static void ApplyAction(this PlanningTask task, int action, Span<int> state)
        {
            CheckState(task, state, "topoplan_action_apply", "state");
            int s;
            fixed (int* p = state)
                s = NativeAgents.topoplan_action_apply(task.Handle, action, p, state.Length);
            if (s != 0)
                throw Utf8.Fail((Status)s, "topoplan_action_apply: action " + action + " of " + task.NumActions +
                                ", or a value of the state out of its variable's range");
        }

        /// <summary>True when the total <paramref name="state"/> satisfies the partial <paramref name="goal"/> (<see cref="PlanningTask.Undefined"/>: free).</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a size or a value out of range.</exception>
        public static bool GoalHolds(this PlanningTask task, ReadOnlySpan<int> state, ReadOnlySpan<int> goal)
        {
            CheckState(task, state, "topoplan_goal_holds", "state");
            CheckState(task, goal, "topoplan_goal_holds", "goal");
            int r;
            fixed (int* s = state)
            fixed (int* g = goal)
                r = NativeAgents.topoplan_goal_holds(task.Handle, s, g, state.Length);
            if (r < 0)
                throw Utf8.Fail(Status.InvalidArgument,
                                "topoplan_goal_holds: a value of the state or the goal out of its variable's range");
            return r == 1;
        }

        /// <summary>"prevail-condition 'pos=door' does not hold (it is 'pos=home')"; empty for <see cref="ConditionKind.None"/>.</summary>
        /// <exception cref="TopoplanException"><see cref="Status.InvalidArgument"/>: a condition not of this task.</exception>
        public static string Describe(this PlanningTask task, Condition failed)
        {
            if (task == null) throw new ArgumentNullException("task");
            UIntPtr size;
            int s = NativeAgents.topoplan_condition_describe(task.Handle, &failed, null, UIntPtr.Zero, out size);
            if (s != (int)Status.Ok && s != (int)Status.BufferTooSmall)
                throw Utf8.Fail((Status)s, "topoplan_condition_describe: the condition (kind " + (int)failed.Kind +
                                ", var " + failed.Var + ") is not one of this task");
            var buffer = new byte[(int)size];
            fixed (byte* b = buffer)
            {
                Utf8.Check(NativeAgents.topoplan_condition_describe(task.Handle, &failed, b, size, out size), null,
                           "topoplan_condition_describe");
                return Utf8.Get(b);
            }
        }
    }
}
