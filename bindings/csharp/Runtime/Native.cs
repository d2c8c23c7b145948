// The C API's declarations (include/topoplan/c/topoplan_c.h, topoplan_c_crowd.h), one extern per
// C function. Structs that cross the boundary are blittable: sequential layout, the C field order
// and widths, pointers as pointers, so the marshaller pins and passes them without copying.
// Handles are passed as SafeHandle subclasses: the marshaller holds a reference on each for the
// duration of the call, so a Dispose on another thread cannot free a handle in use.
using System;
using System.Runtime.InteropServices;
using System.Security;

namespace Topoplan
{
    /// <summary>The C declarations. Internal: the public types of this package wrap them.</summary>
    [SuppressUnmanagedCodeSecurity]
    internal static unsafe class Native
    {
        /// <summary>
        /// The library's name as <c>DllImport</c> sees it: <c>libtopoplan_c.so</c> on Linux,
        /// <c>topoplan_c.dll</c> on Windows, <c>libtopoplan_c.dylib</c> on macOS. Mono searches
        /// <c>LD_LIBRARY_PATH</c>, the directory of the assembly and the system's paths; Unity
        /// searches <c>Assets/Plugins</c>.
        /// </summary>
        internal const string Lib = "topoplan_c";

        /// <summary>TOPOPLAN_C_ABI_VERSION of the header these declarations mirror.</summary>
        internal const uint AbiVersion = 3;

        // Common
        [DllImport(Lib)] internal static extern IntPtr topoplan_status_string(int status);
        [DllImport(Lib)] internal static extern uint topoplan_c_abi_version();
        [DllImport(Lib)] internal static extern IntPtr topoplan_version();

        // Tasks
        [DllImport(Lib)]
        internal static extern int topoplan_task_load(byte* path, int format, out IntPtr task,
                                                      byte* error, UIntPtr errorSize);
        [DllImport(Lib)]
        internal static extern int topoplan_task_parse(byte* text, UIntPtr size, int format,
                                                       byte* filename, out IntPtr task,
                                                       byte* error, UIntPtr errorSize);
        [DllImport(Lib)] internal static extern void topoplan_task_free(IntPtr task);
        [DllImport(Lib)]
        internal static extern int topoplan_task_write(TaskHandle task, int format, byte* buffer,
                                                       UIntPtr capacity, out UIntPtr size);
        [DllImport(Lib)] internal static extern IntPtr topoplan_task_name(TaskHandle task);
        [DllImport(Lib)] internal static extern int topoplan_task_num_variables(TaskHandle task);
        [DllImport(Lib)]
        internal static extern IntPtr topoplan_task_variable_name(TaskHandle task, int var);
        [DllImport(Lib)] internal static extern int topoplan_task_domain_size(TaskHandle task, int var);
        [DllImport(Lib)]
        internal static extern IntPtr topoplan_task_value_name(TaskHandle task, int var, int value);
        [DllImport(Lib)] internal static extern int topoplan_task_num_actions(TaskHandle task);
        [DllImport(Lib)]
        internal static extern IntPtr topoplan_task_action_name(TaskHandle task, int action);
        [DllImport(Lib)]
        internal static extern long topoplan_task_action_cost(TaskHandle task, int action);
        [DllImport(Lib)] internal static extern int topoplan_task_num_classes(TaskHandle task);
        [DllImport(Lib)]
        internal static extern IntPtr topoplan_task_class_name(TaskHandle task, int npcClass);
        [DllImport(Lib)] internal static extern int topoplan_task_num_instances(TaskHandle task);
        [DllImport(Lib)]
        internal static extern IntPtr topoplan_task_instance_name(TaskHandle task, int index);
        [DllImport(Lib)]
        internal static extern int topoplan_task_find_variable(TaskHandle task, byte* name,
                                                               out int id);
        [DllImport(Lib)]
        internal static extern int topoplan_task_find_value(TaskHandle task, int var, byte* name,
                                                            out int id);
        [DllImport(Lib)]
        internal static extern int topoplan_task_find_action(TaskHandle task, byte* name, out int id);
        [DllImport(Lib)]
        internal static extern int topoplan_task_find_class(TaskHandle task, byte* name, out int id);
        [DllImport(Lib)]
        internal static extern int topoplan_task_find_instance(TaskHandle task, byte* name,
                                                               out int index);
        [DllImport(Lib)]
        internal static extern int topoplan_task_instance(TaskHandle task, int index,
                                                          out ProblemView problem);
        [DllImport(Lib)]
        internal static extern int topoplan_task_parse_state(TaskHandle task, byte* text, int* state,
                                                             int numVariables, byte* error,
                                                             UIntPtr errorSize);
        [DllImport(Lib)]
        internal static extern int topoplan_task_format_state(TaskHandle task, int* state,
                                                              int numVariables, byte* buffer,
                                                              UIntPtr capacity, out UIntPtr size);

        // Planning by name, validation
        [DllImport(Lib)] internal static extern int topoplan_num_planners();
        [DllImport(Lib)] internal static extern IntPtr topoplan_planner_name(int index);
        [DllImport(Lib)] internal static extern IntPtr topoplan_planner_description(int index);
        [DllImport(Lib)] internal static extern void topoplan_plan_options_init(out PlanOptions options);
        [DllImport(Lib)]
        internal static extern int topoplan_plan(TaskHandle task, byte* planner, ref ProblemView problem,
                                                 PlanOptions* options, int* actions, int capacity,
                                                 out PlanStats stats, byte* error,
                                                 UIntPtr errorSize);
        [DllImport(Lib)]
        internal static extern int topoplan_validate(TaskHandle task, ref ProblemView problem,
                                                     int* actions, int length, out int failedStep,
                                                     out long cost, byte* error, UIntPtr errorSize);

        // Class analysis
        [DllImport(Lib)]
        internal static extern int topoplan_check(TaskHandle task, int npcClass, out ClassReport report,
                                                  byte* whyNot, UIntPtr whyNotSize);
        [DllImport(Lib)]
        internal static extern int topoplan_analysis_create(TaskHandle task, int npcClass,
                                                            out IntPtr analysis);
        [DllImport(Lib)] internal static extern void topoplan_analysis_free(IntPtr analysis);
        [DllImport(Lib)]
        internal static extern int topoplan_analysis_report(AnalysisHandle analysis,
                                                            out ClassReport report);
        [DllImport(Lib)] internal static extern IntPtr topoplan_analysis_why_not(AnalysisHandle analysis);
        [DllImport(Lib)] internal static extern int topoplan_analysis_num_lines(AnalysisHandle analysis);
        [DllImport(Lib)]
        internal static extern IntPtr topoplan_analysis_line(AnalysisHandle analysis, int index);
        [DllImport(Lib)]
        internal static extern int topoplan_analysis_action_flags(AnalysisHandle analysis, int action);
        [DllImport(Lib)]
        internal static extern int topoplan_analysis_edges(AnalysisHandle analysis, int kind,
                                                           out int* pairs);

        // ℙ on the hot path
        [DllImport(Lib)]
        internal static extern int topoplan_topo_create(TaskHandle task, int npcClass, out IntPtr topo,
                                                        byte* error, UIntPtr errorSize);
        [DllImport(Lib)] internal static extern void topoplan_topo_free(IntPtr topo);
        [DllImport(Lib)] internal static extern int topoplan_topo_max_plan_length(TopoHandle topo);
        [DllImport(Lib)]
        internal static extern int topoplan_scratch_create(TopoHandle topo, out IntPtr scratch);
        [DllImport(Lib)] internal static extern void topoplan_scratch_free(IntPtr scratch);
        // Hot: raw pointers; the caller holds a reference on the scratch, which holds its planner.
        [DllImport(Lib)]
        internal static extern int topoplan_topo_plan(IntPtr topo, IntPtr scratch, int* init, int* goal,
                                                      int numVariables, int* actions, int capacity,
                                                      int* length);
        [DllImport(Lib)]
        internal static extern int topoplan_topo_explain(TopoHandle topo, ScratchHandle scratch,
                                                         byte* text, UIntPtr textSize);

        // Crowds (the batch calls take the crowd as a raw pointer: the caller holds a reference
        // on it for the call, and the crowd holds its planner and cache)
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_planner_create(TaskHandle task, out IntPtr planner,
                                                                 byte* error, UIntPtr errorSize);
        [DllImport(Lib)] internal static extern void topoplan_crowd_planner_free(IntPtr planner);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_planner_words(CrowdPlannerHandle planner);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_planner_num_classes(CrowdPlannerHandle planner);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_planner_max_plan_length(CrowdPlannerHandle planner);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_pack_state(CrowdPlannerHandle planner, int* state,
                                                             int numVariables, ulong* packed);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_pack_goal(CrowdPlannerHandle planner, int* goal,
                                                            int numVariables, ulong* packed);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_unpack_state(CrowdPlannerHandle planner,
                                                               ulong* packed, int* state,
                                                               int numVariables);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_unpack_goal(CrowdPlannerHandle planner,
                                                              ulong* packed, int* goal,
                                                              int numVariables);
        [DllImport(Lib)]
        internal static extern int topoplan_plan_cache_create_with_table(
            CrowdPlannerHandle planner, int capacity, int maxPlanLength, int tableActions,
            out IntPtr cache, byte* error, UIntPtr errorSize);
        [DllImport(Lib)] internal static extern void topoplan_plan_cache_free(IntPtr cache);
        [DllImport(Lib)] internal static extern void topoplan_plan_cache_invalidate(PlanCacheHandle cache);
        [DllImport(Lib)]
        internal static extern int topoplan_plan_cache_stats_get(PlanCacheHandle cache,
                                                                 out PlanCacheStats stats);
        [DllImport(Lib)]
        internal static extern int topoplan_plan_cache_resolve(PlanCacheHandle cache, PlanHandle handle,
                                                               out int* actions, out int length);
        [DllImport(Lib)]
        internal static extern int topoplan_plan_cache_table(PlanCacheHandle cache, out uint epoch,
                                                             out long used, out long capacity);
        [DllImport(Lib)] internal static extern void topoplan_crowd_def_init(out CrowdDefC def);
        [DllImport(Lib)] internal static extern void topoplan_crowd_chain_init(out CrowdChainC chain);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_create_with_chain(CrowdPlannerHandle planner,
                                                                    ref CrowdDefC def,
                                                                    ref CrowdChainC chain,
                                                                    out IntPtr crowd, byte* error,
                                                                    UIntPtr errorSize);
        [DllImport(Lib)] internal static extern void topoplan_crowd_free(IntPtr crowd);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_plan(IntPtr crowd, CrowdBatchView* batch,
                                                       CrowdOutputView* output, CrowdStats* stats);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_plan_frame(IntPtr crowd, CrowdBatchView* batch,
                                                             CrowdOutputView* output, long* cursor,
                                                             double budgetSeconds, CrowdStats* stats);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_plan_handles(IntPtr crowd,
                                                               CrowdBatchView* batch,
                                                               CrowdOutputView* output,
                                                               PlanHandle* handles,
                                                               CrowdStats* stats);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_plan_frame_handles(IntPtr crowd,
                                                                     CrowdBatchView* batch,
                                                                     CrowdOutputView* output,
                                                                     PlanHandle* handles,
                                                                     long* cursor,
                                                                     double budgetSeconds,
                                                                     CrowdStats* stats);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_pending(CrowdHandle crowd, long* npcs, long capacity,
                                                          out long count);
        [DllImport(Lib)] internal static extern int topoplan_crowd_discard_pending(CrowdHandle crowd);
        [DllImport(Lib)]
        internal static extern int topoplan_crowd_resolve(CrowdHandle crowd, PlanHandle handle,
                                                          out int* actions, out int length);
    }

    /// <summary>topoplan_problem: pointers into the task (an instance) or into pinned arrays.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct ProblemView
    {
        internal int* Init;
        internal int* Goal;
        internal int NumVariables;
        internal int NpcClass;
    }

    /// <summary>topoplan_crowd_def.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal struct CrowdDefC
    {
        internal int WorkerCount;
        internal int Threads;
        internal IntPtr EnqueueTask;
        internal IntPtr FinishTask;
        internal IntPtr UserTaskContext;
        internal IntPtr Cache;
        internal int NpcsPerBlock;
        internal int WorkerMemoEntries;
    }

    /// <summary>topoplan_crowd_class_chain.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct CrowdClassChainC
    {
        internal byte* NpcClass;
        internal byte* Planners;
    }

    /// <summary>topoplan_crowd_chain.</summary>
    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct CrowdChainC
    {
        internal byte* Fallback;
        internal CrowdClassChainC* ClassFallback;
        internal int NumClassFallback;
        internal int Reserved;
        internal long FallbackBudget;
        internal long MaxExpansions;
        internal long MaxMemoryBytes;
        internal double MaxSeconds;
    }
}
