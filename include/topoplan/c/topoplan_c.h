/* topoplan — the C API (C99): a stable door for engines and languages that speak C
 * (Unity through P/Invoke, Godot GDExtension, Rust, Lua, a C++ engine with its own build).
 *
 * Library: libtopoplan_c.so (CMake target topoplan::c). Only the functions below are exported;
 * the C++ runtime is linked inside. docs/c-api.md is the quick start, docs/engines.md shows
 * Unity and Godot bindings. The crowd part (crowds, plan handles, towns) is declared in
 * topoplan/c/topoplan_c_crowd.h, which this header includes.
 *
 * Conventions
 * -----------
 *  - Every handle is opaque and created by a *_create / *_load call into a caller pointer, and
 *    released by the matching *_free (NULL is accepted and ignored). A handle made from another
 *    (a ℙ planner from a task, a crowd from a crowd planner) borrows it: the parent must outlive
 *    the child.
 *  - Every call that can fail returns a topoplan_status. Calls that can fail for a reason worth a
 *    sentence take `char* error, size_t error_size`: the message ("file:line: message" for bad
 *    input) is copied there, truncated and NUL-terminated; pass NULL, 0 to ignore it. No
 *    exception, no allocation and no C++ type ever crosses this boundary: memory allocated by the
 *    library is freed by the library (*_free), output goes into caller-owned buffers.
 *  - No global state. Thread safety is stated per function: "any thread" = may be called
 *    concurrently with anything except the *_free of the handles it uses; "one thread per handle"
 *    = concurrent calls must use distinct handles of that type.
 *  - Ids are int32_t: variables, values, actions, NPC classes are 0-based indices in file order.
 *    A value of -1 (TOPOPLAN_UNDEFINED) in a goal means "don't care"; npc_class -1
 *    (TOPOPLAN_ALL_ACTIONS) means every action of the domain.
 *  - Strings are UTF-8. Returned `const char*` names point into the handle and stay valid until
 *    it is freed.
 */
#ifndef TOPOPLAN_TOPOPLAN_H_
#define TOPOPLAN_TOPOPLAN_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#if defined(TOPOPLAN_C_BUILDING)
#define TOPOPLAN_API __declspec(dllexport)
#else
#define TOPOPLAN_API __declspec(dllimport)
#endif
#else
#define TOPOPLAN_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped whenever a struct layout or a signature below changes, or a function is removed (2:
 * topoplan_crowd_stats has the planner chain's counters; 3: an agent's NO_PLAN event carries the
 * planner's topoplan_status and detail bits). Compare it with topoplan_c_abi_version() at start-up
 * to detect a header/library mismatch. */
#define TOPOPLAN_C_ABI_VERSION 3

#define TOPOPLAN_UNDEFINED (-1)
#define TOPOPLAN_ALL_ACTIONS (-1)

/* ------------------------------------------------------------------------------------------ */
/* Status codes. */
typedef int32_t topoplan_status;
enum {
  TOPOPLAN_OK = 0,            /* success (a plan was found / the plan is valid) */
  TOPOPLAN_UNSOLVABLE = 1,    /* proven: no plan exists */
  TOPOPLAN_LIMIT_REACHED = 2, /* a node, memory or time limit stopped the search: no proof */
  TOPOPLAN_GAVE_UP = 3,       /* the planner cannot decide this instance (no plan, no proof) */
  TOPOPLAN_UNSUPPORTED = 4,   /* the planner refuses the domain (e.g. ℙ on non-unary actions) */
  TOPOPLAN_BUFFER_TOO_SMALL = 5, /* an output buffer is too small; the size needed is reported */
  TOPOPLAN_INVALID_PLAN = 6,     /* topoplan_validate: the plan is not valid */
  TOPOPLAN_NOT_FOUND = 7,        /* no planner / instance / name of that name */
  TOPOPLAN_INVALID_ARGUMENT = 8, /* NULL pointer, size or id out of range, mismatched handles */
  TOPOPLAN_INPUT_ERROR = 9,      /* bad file or text: error holds "file:line: message" */
  TOPOPLAN_OUT_OF_MEMORY = 10,
  TOPOPLAN_INTERNAL_ERROR = 11 /* a bug: please report it with the error text */
};

/* Static English name of a status ("ok", "unsolvable", ...). Any thread. */
TOPOPLAN_API const char* topoplan_status_string(topoplan_status status);

/* TOPOPLAN_C_ABI_VERSION of the library actually loaded. Any thread. */
TOPOPLAN_API uint32_t topoplan_c_abi_version(void);
/* The library's version, e.g. "0.1.0" (static string). Any thread. */
TOPOPLAN_API const char* topoplan_version(void);

/* ------------------------------------------------------------------------------------------ */
/* Tasks: a compiled domain (variables, actions, NPC classes) and the instances a file carried. */
typedef struct topoplan_task topoplan_task;

#define TOPOPLAN_FORMAT_AUTO 0   /* by extension (.sas, .toml), else by content */
#define TOPOPLAN_FORMAT_NATIVE 1 /* topoplan's TOML format (docs/formats.md) */
#define TOPOPLAN_FORMAT_SAS 2    /* Fast Downward SAS, version 3 */

/* Reads a task file. Any thread. */
TOPOPLAN_API topoplan_status topoplan_task_load(const char* path, int32_t format,
                                                topoplan_task** out, char* error,
                                                size_t error_size);
/* Parses a task from text in memory (`size` bytes, need not be NUL-terminated); `filename`
 * (may be NULL) only names it in messages. This is also how a C program builds a domain: write
 * the native TOML text. Any thread. */
TOPOPLAN_API topoplan_status topoplan_task_parse(const char* text, size_t size, int32_t format,
                                                 const char* filename, topoplan_task** out,
                                                 char* error, size_t error_size);
TOPOPLAN_API void topoplan_task_free(topoplan_task* task);

/* Writes the task (every instance) in `format` (native or SAS; SAS writes instance 0 only) to
 * `buffer`; *size receives the bytes needed including the final NUL. TOPOPLAN_BUFFER_TOO_SMALL
 * when `capacity` is smaller (nothing written). Any thread. */
TOPOPLAN_API topoplan_status topoplan_task_write(const topoplan_task* task, int32_t format,
                                                 char* buffer, size_t capacity, size_t* size);

/* Sizes and names (any thread). Out-of-range ids give -1 / NULL. */
TOPOPLAN_API const char* topoplan_task_name(const topoplan_task* task);
TOPOPLAN_API int32_t topoplan_task_num_variables(const topoplan_task* task);
TOPOPLAN_API const char* topoplan_task_variable_name(const topoplan_task* task, int32_t var);
TOPOPLAN_API int32_t topoplan_task_domain_size(const topoplan_task* task, int32_t var);
TOPOPLAN_API const char* topoplan_task_value_name(const topoplan_task* task, int32_t var,
                                                  int32_t value);
TOPOPLAN_API int32_t topoplan_task_num_actions(const topoplan_task* task);
TOPOPLAN_API const char* topoplan_task_action_name(const topoplan_task* task, int32_t action);
TOPOPLAN_API int64_t topoplan_task_action_cost(const topoplan_task* task, int32_t action);
TOPOPLAN_API int32_t topoplan_task_num_classes(const topoplan_task* task);
TOPOPLAN_API const char* topoplan_task_class_name(const topoplan_task* task, int32_t npc_class);
TOPOPLAN_API int32_t topoplan_task_num_instances(const topoplan_task* task);
TOPOPLAN_API const char* topoplan_task_instance_name(const topoplan_task* task, int32_t index);

/* Lookups by exact name: *id receives the id; TOPOPLAN_NOT_FOUND when absent. Any thread. */
TOPOPLAN_API topoplan_status topoplan_task_find_variable(const topoplan_task* task,
                                                         const char* name, int32_t* id);
TOPOPLAN_API topoplan_status topoplan_task_find_value(const topoplan_task* task, int32_t var,
                                                      const char* name, int32_t* id);
TOPOPLAN_API topoplan_status topoplan_task_find_action(const topoplan_task* task, const char* name,
                                                       int32_t* id);
TOPOPLAN_API topoplan_status topoplan_task_find_class(const topoplan_task* task, const char* name,
                                                      int32_t* id);
TOPOPLAN_API topoplan_status topoplan_task_find_instance(const topoplan_task* task,
                                                         const char* name, int32_t* index);

/* A planning problem for one NPC: total initial state, partial goal (TOPOPLAN_UNDEFINED = free),
 * both of num_variables entries, and the NPC class whose actions may be used. */
typedef struct topoplan_problem {
  const int32_t* init;
  const int32_t* goal;
  int32_t num_variables;
  int32_t npc_class; /* TOPOPLAN_ALL_ACTIONS or a class id */
} topoplan_problem;

/* Instance `index` of the task as a problem; the arrays point into the task. Any thread. */
TOPOPLAN_API topoplan_status topoplan_task_instance(const topoplan_task* task, int32_t index,
                                                    topoplan_problem* out);

/* States by name, as the CLI's --init / --goal: "var=value, var=value" (value names may hold
 * commas). parse: the variables named get their value, the others TOPOPLAN_UNDEFINED; an unknown
 * variable or value, or a variable named twice, is TOPOPLAN_INPUT_ERROR with why in `error`.
 * format: "⟨var=value, ...⟩" without the undefined entries, into `buffer` (*size: bytes needed
 * including the NUL; TOPOPLAN_BUFFER_TOO_SMALL when `capacity` is smaller). Any thread. */
TOPOPLAN_API topoplan_status topoplan_task_parse_state(const topoplan_task* task, const char* text,
                                                       int32_t* state, int32_t num_variables,
                                                       char* error, size_t error_size);
TOPOPLAN_API topoplan_status topoplan_task_format_state(const topoplan_task* task,
                                                        const int32_t* state, int32_t num_variables,
                                                        char* buffer, size_t capacity,
                                                        size_t* size);

/* The structure of actions and classes (for drawing a domain, e.g. docs/web.md). Any thread.
 * Out-of-range ids give -1 / TOPOPLAN_INVALID_ARGUMENT. */
typedef struct topoplan_effect {
  int32_t var;
  int32_t pre; /* TOPOPLAN_UNDEFINED: any value */
  int32_t post;
} topoplan_effect;
typedef struct topoplan_fact {
  int32_t var;
  int32_t value;
} topoplan_fact;
TOPOPLAN_API int32_t topoplan_task_action_num_effects(const topoplan_task* task, int32_t action);
TOPOPLAN_API topoplan_status topoplan_task_action_effect(const topoplan_task* task, int32_t action,
                                                         int32_t index, topoplan_effect* out);
TOPOPLAN_API int32_t topoplan_task_action_num_prevail(const topoplan_task* task, int32_t action);
TOPOPLAN_API topoplan_status topoplan_task_action_prevail(const topoplan_task* task, int32_t action,
                                                          int32_t index, topoplan_fact* out);
/* The actions of an NPC class, ascending. */
TOPOPLAN_API int32_t topoplan_task_class_num_actions(const topoplan_task* task, int32_t npc_class);
TOPOPLAN_API int32_t topoplan_task_class_action(const topoplan_task* task, int32_t npc_class,
                                                int32_t index);

/* Built-in tasks: the towns of `topoplan crowd --domain` ("western", "western-pus",
 * "goap-level": a GOAP level of 12 places with NPC classes and partial goals; docs/crowds.md).
 * Static names; NULL when out of range. Any thread. */
TOPOPLAN_API int32_t topoplan_num_builtin_tasks(void);
TOPOPLAN_API const char* topoplan_builtin_task_name(int32_t index);
/* Builds the built-in task `name`; TOPOPLAN_NOT_FOUND (the known names in `error`) otherwise. */
TOPOPLAN_API topoplan_status topoplan_task_builtin(const char* name, topoplan_task** out,
                                                   char* error, size_t error_size);

/* ------------------------------------------------------------------------------------------ */
/* Planning by planner name (cold path: the planner allocates its own working memory). Names:
 * "auto" (default), "topo" (ℙ), "exact", "astar", "astar-back", "backstrom" — see
 * topoplan_planner_name() and docs/planners.md. */
TOPOPLAN_API int32_t topoplan_num_planners(void);
/* Static strings; NULL when out of range. Any thread. */
TOPOPLAN_API const char* topoplan_planner_name(int32_t index);
TOPOPLAN_API const char* topoplan_planner_description(int32_t index);

#define TOPOPLAN_OBJECTIVE_COST 0   /* minimise the sum of action costs */
#define TOPOPLAN_OBJECTIVE_LENGTH 1 /* minimise the number of actions */

typedef struct topoplan_plan_options {
  int64_t max_expansions;   /* search nodes expanded */
  int64_t max_memory_bytes; /* states + bookkeeping */
  double max_seconds;       /* 0: no time limit */
  int32_t objective;        /* TOPOPLAN_OBJECTIVE_* */
  int32_t reserved;         /* 0 */
} topoplan_plan_options;
/* The library's defaults (those of the C++ PlannerOptions). Any thread. For the planner "auto",
 * the limits given bound its A* stage; pass NULL options to keep auto's own bounded defaults
 * (500,000 expansions, 256 MiB, 1 s: docs/planners.md). */
TOPOPLAN_API void topoplan_plan_options_init(topoplan_plan_options* options);

#define TOPOPLAN_ENGINE_NAME_SIZE 32
typedef struct topoplan_plan_stats {
  int64_t cost;      /* plan cost (TOPOPLAN_OK) */
  int32_t length;    /* plan length; for TOPOPLAN_BUFFER_TOO_SMALL the capacity needed */
  int32_t reserved;  /* 0 */
  int64_t expanded;  /* search nodes expanded (0 for ℙ) */
  int64_t generated; /* search nodes generated */
  double seconds;    /* wall-clock time of the call */
  /* Which engine answered ("topo", "exact", "astar", ...: PlanStats::engine, truncated). */
  char engine[TOPOPLAN_ENGINE_NAME_SIZE];
} topoplan_plan_stats;

/* Plans `problem` with the planner called `planner` (NULL = "auto") into actions[0, capacity).
 * Returns TOPOPLAN_OK (plan in actions, stats->length actions), TOPOPLAN_UNSOLVABLE,
 * TOPOPLAN_LIMIT_REACHED, TOPOPLAN_GAVE_UP, TOPOPLAN_UNSUPPORTED (with why in `error`),
 * TOPOPLAN_BUFFER_TOO_SMALL (a plan was found; stats->length says how long), TOPOPLAN_NOT_FOUND
 * (no planner of that name), TOPOPLAN_INVALID_ARGUMENT (sizes, values or class out of range).
 * `options` and `stats` may be NULL. Any thread. */
TOPOPLAN_API topoplan_status topoplan_plan(const topoplan_task* task, const char* planner,
                                           const topoplan_problem* problem,
                                           const topoplan_plan_options* options, int32_t* actions,
                                           int32_t capacity, topoplan_plan_stats* stats,
                                           char* error, size_t error_size);

/* Checks a plan from problem->init: TOPOPLAN_OK when valid, TOPOPLAN_INVALID_PLAN with the first
 * failing step in *failed_step (0-based; -1: every step applied but the goal does not hold) and
 * why in `error` (whose "step N" counts from 1: *failed_step + 1). *cost receives the cost of the
 * steps applied. failed_step and cost may be NULL. Any thread. */
TOPOPLAN_API topoplan_status topoplan_validate(const topoplan_task* task,
                                               const topoplan_problem* problem,
                                               const int32_t* actions, int32_t length,
                                               int32_t* failed_step, int64_t* cost, char* error,
                                               size_t error_size);

/* ------------------------------------------------------------------------------------------ */
/* Class analysis (docs/classes.md) of the actions of one NPC class. */
#define TOPOPLAN_CLASS_C0 0
#define TOPOPLAN_CLASS_C2S 1
#define TOPOPLAN_CLASS_C2STAR 2
#define TOPOPLAN_CLASS_NONE 3

typedef struct topoplan_class_report {
  int32_t num_analysed;     /* actions analysed */
  int32_t unary;            /* 1/0: (U) */
  int32_t post_unique;      /* (P) */
  int32_t single_valued;    /* (S) */
  int32_t pre_defined;      /* every effect has a defined pre-condition */
  int32_t structural_class; /* TOPOPLAN_CLASS_* */
  int32_t num_requestable;  /* Req: actions whose post satisfies another's prevail */
  int32_t reserved;
} topoplan_class_report;

/* Fills *report; why the next smaller class fails goes to `why_not` ("" for C0). Any thread. */
TOPOPLAN_API topoplan_status topoplan_check(const topoplan_task* task, int32_t npc_class,
                                            topoplan_class_report* report, char* why_not,
                                            size_t why_not_size);

/* The whole analysis kept in a handle: the report, the reasons in words, the action graph
 * G = (A, E_pre ∪ E_prv) and every domain-action graph G(v) with its cycles (Prévost et al. 2023,
 * Defs. 1-7; docs/classes.md). Arrays and strings returned point into the handle and stay valid
 * until it is freed. Any thread (the handle is immutable). */
typedef struct topoplan_analysis topoplan_analysis;
TOPOPLAN_API topoplan_status topoplan_analysis_create(const topoplan_task* task, int32_t npc_class,
                                                      topoplan_analysis** out);
TOPOPLAN_API void topoplan_analysis_free(topoplan_analysis* analysis);
TOPOPLAN_API topoplan_status topoplan_analysis_report(const topoplan_analysis* analysis,
                                                      topoplan_class_report* report);
/* Why the next smaller class does not hold ("" for C0). */
TOPOPLAN_API const char* topoplan_analysis_why_not(const topoplan_analysis* analysis);
/* The analysis in words, one line per reason, with names (those of `topoplan check`): every
 * offender of (U), (P), (S), undefined pre-conditions, why the smaller class fails, then every
 * other violation. -1 / NULL when out of range. */
TOPOPLAN_API int32_t topoplan_analysis_num_lines(const topoplan_analysis* analysis);
TOPOPLAN_API const char* topoplan_analysis_line(const topoplan_analysis* analysis, int32_t index);

#define TOPOPLAN_ACTION_ANALYSED 0x1    /* in the class analysed */
#define TOPOPLAN_ACTION_REQUESTABLE 0x2 /* in Req: its post satisfies another's prevail */
#define TOPOPLAN_ACTION_ON_CYCLE 0x4    /* on a cycle of some G(v) */
/* TOPOPLAN_ACTION_* bits of an action of the domain; -1 when out of range. */
TOPOPLAN_API int32_t topoplan_analysis_action_flags(const topoplan_analysis* analysis,
                                                    int32_t action);

#define TOPOPLAN_EDGES_PRE 0 /* E_pre: post(a) = pre(b) */
#define TOPOPLAN_EDGES_PRV 1 /* E_prv: post(a) = prv(b)[v] */
/* The edges of the action graph of that kind: *pairs receives 2 * count action ids (from, to,
 * from, to, ...), sorted. Returns count; -1 for a bad handle or kind. */
TOPOPLAN_API int32_t topoplan_analysis_edges(const topoplan_analysis* analysis, int32_t kind,
                                             const int32_t** pairs);

/* G(v): the analysed actions with an effect on v, its E_pre edges (pairs as above), Req(v), the
 * values of v no analysed action produces, its weakly connected components and its cycles. */
typedef struct topoplan_variable_graph {
  int32_t var;
  int32_t components;
  int32_t num_actions;
  int32_t num_edges;
  int32_t num_requestable;
  int32_t num_ghost_values;
  int32_t num_cycles;
  int32_t reserved;
  const int32_t* actions;
  const int32_t* edges; /* 2 * num_edges */
  const int32_t* requestable;
  const int32_t* ghost_values;
} topoplan_variable_graph;
TOPOPLAN_API topoplan_status topoplan_analysis_variable(const topoplan_analysis* analysis,
                                                        int32_t var, topoplan_variable_graph* out);
typedef struct topoplan_cycle {
  int32_t simple; /* 1: a simple cycle in order; 0: a strongly connected tangle */
  int32_t num_actions;
  int32_t num_requestable;
  int32_t reserved;
  const int32_t* actions;
  const int32_t* requestable;
} topoplan_cycle;
TOPOPLAN_API topoplan_status topoplan_analysis_cycle(const topoplan_analysis* analysis, int32_t var,
                                                     int32_t index, topoplan_cycle* out);

/* ------------------------------------------------------------------------------------------ */
/* ℙ (TopoPlan) on the hot path: a planner per NPC class, a scratch per thread; no allocation
 * per plan. */
typedef struct topoplan_topo topoplan_topo;
typedef struct topoplan_scratch topoplan_scratch;

/* Builds ℙ's tables for `npc_class`. TOPOPLAN_UNSUPPORTED (why in `error`) when the class's
 * actions are not unary and post-unique. Any thread. The task must outlive the planner. */
TOPOPLAN_API topoplan_status topoplan_topo_create(const topoplan_task* task, int32_t npc_class,
                                                  topoplan_topo** out, char* error,
                                                  size_t error_size);
TOPOPLAN_API void topoplan_topo_free(topoplan_topo* topo);
/* Upper bound on plan length (the number of available actions). Any thread. */
TOPOPLAN_API int32_t topoplan_topo_max_plan_length(const topoplan_topo* topo);

/* Working memory for one thread, sized for `topo` (allocates once). Any thread. */
TOPOPLAN_API topoplan_status topoplan_scratch_create(const topoplan_topo* topo,
                                                     topoplan_scratch** out);
TOPOPLAN_API void topoplan_scratch_free(topoplan_scratch* scratch);

/* Plans from `init` (total) to `goal` (TOPOPLAN_UNDEFINED = free), each of num_variables
 * entries. TOPOPLAN_OK (*length actions written), TOPOPLAN_UNSOLVABLE (proof),
 * TOPOPLAN_GAVE_UP (no plan, no proof: topoplan_topo_explain says why),
 * TOPOPLAN_BUFFER_TOO_SMALL (*length = capacity needed), TOPOPLAN_INVALID_ARGUMENT (sizes or
 * values out of range, scratch of another planner). No allocation. One thread per scratch; the
 * planner may be shared. */
TOPOPLAN_API topoplan_status topoplan_topo_plan(const topoplan_topo* topo,
                                                topoplan_scratch* scratch, const int32_t* init,
                                                const int32_t* goal, int32_t num_variables,
                                                int32_t* actions, int32_t capacity,
                                                int32_t* length);
/* One line, with names, on why the last topoplan_topo_plan with this scratch failed. One thread
 * per scratch. */
TOPOPLAN_API topoplan_status topoplan_topo_explain(const topoplan_topo* topo,
                                                   const topoplan_scratch* scratch, char* text,
                                                   size_t text_size);

/* ------------------------------------------------------------------------------------------ */
/* A prepared planner by name ("auto": ℙ, then GOAP A*; "topo", "astar", "astar-back"; "exact" in
 * libtopoplan_c_research): the NPC class's actions compiled once, the planner
 * created once, its working memory inside the handle. Then any number of plans into
 * caller-owned arrays, with no allocation per plan once warm. */
typedef struct topoplan_planner topoplan_planner;

/* Creates the planner `name` for `npc_class` (TOPOPLAN_ALL_ACTIONS: every action).
 * TOPOPLAN_NOT_FOUND for an unknown name, TOPOPLAN_UNSUPPORTED (why in `error`) when the planner
 * refuses the class's actions ("auto" accepts every class: ℙ is skipped where it refuses).
 * Any thread. The task must outlive the planner. */
TOPOPLAN_API topoplan_status topoplan_planner_create(const topoplan_task* task, const char* name,
                                                     int32_t npc_class, topoplan_planner** out,
                                                     char* error, size_t error_size);
TOPOPLAN_API void topoplan_planner_free(topoplan_planner* planner);
/* Upper bound on plan length (size `actions` to it to never see TOPOPLAN_BUFFER_TOO_SMALL; for
 * searches it can be large: any capacity works, the status says when it is short). -1 for NULL. */
TOPOPLAN_API int32_t topoplan_planner_max_plan_length(const topoplan_planner* planner);
/* Plans from `init` (total) to `goal` (TOPOPLAN_UNDEFINED = free), each of num_variables
 * entries. TOPOPLAN_OK (*length actions written), TOPOPLAN_UNSOLVABLE (proof),
 * TOPOPLAN_LIMIT_REACHED / TOPOPLAN_GAVE_UP (no plan, no proof: topoplan_planner_explain says
 * why), TOPOPLAN_BUFFER_TOO_SMALL (*length = capacity needed), TOPOPLAN_INVALID_ARGUMENT (NULL,
 * sizes or values out of range). One thread per planner handle. */
TOPOPLAN_API topoplan_status topoplan_planner_plan(topoplan_planner* planner, const int32_t* init,
                                                   const int32_t* goal, int32_t num_variables,
                                                   int32_t* actions, int32_t capacity,
                                                   int32_t* length);
/* The same within a search budget for this call: max_expansions >= 0, max_memory_bytes >= 0,
 * max_seconds in [0, 1e9] (0: no time limit; infinity and NaN are refused); ℙ ignores them.
 * One thread per planner handle. */
TOPOPLAN_API topoplan_status topoplan_planner_plan_within(
    topoplan_planner* planner, const int32_t* init, const int32_t* goal, int32_t num_variables,
    int64_t max_expansions, int64_t max_memory_bytes, double max_seconds, int32_t* actions,
    int32_t capacity, int32_t* length);
/* The registry name of the planner that answered the last plan ("topo" or "astar" for "auto";
 * the planner's own name otherwise; "" before the first plan). Valid until the next plan or
 * the free. One thread per planner handle. */
TOPOPLAN_API const char* topoplan_planner_answered_by(const topoplan_planner* planner);
/* One line, with names, on the last plan's outcome (why it failed). One thread per handle. */
TOPOPLAN_API topoplan_status topoplan_planner_explain(const topoplan_planner* planner, char* text,
                                                      size_t text_size);

/* ------------------------------------------------------------------------------------------ */
/* UDGOAP (docs/udgoap.md): a drive-based agent chooses its goals and plans by utility. */
typedef struct topoplan_udgoap_world topoplan_udgoap_world;
typedef struct topoplan_udgoap_agent topoplan_udgoap_agent;

/* Reads a scenario file (e.g. domains/udgoap/wizard.toml): the world and its agent, already
 * updated once against the file's facts. `agent` may be NULL. Any thread. */
TOPOPLAN_API topoplan_status topoplan_udgoap_load(const char* path, topoplan_udgoap_world** world,
                                                  topoplan_udgoap_agent** agent, char* error,
                                                  size_t error_size);
TOPOPLAN_API void topoplan_udgoap_world_free(topoplan_udgoap_world* world);
TOPOPLAN_API void topoplan_udgoap_agent_free(topoplan_udgoap_agent* agent);
/* A fresh agent of the world (every drive active) updated once against the world's facts. */
TOPOPLAN_API topoplan_status topoplan_udgoap_agent_create(const topoplan_udgoap_world* world,
                                                          topoplan_udgoap_agent** out);

/* Names and lookups (any thread); NULL / TOPOPLAN_NOT_FOUND when absent. */
TOPOPLAN_API int32_t topoplan_udgoap_num_entities(const topoplan_udgoap_world* world);
TOPOPLAN_API const char* topoplan_udgoap_entity_name(const topoplan_udgoap_world* world,
                                                     int32_t entity);
TOPOPLAN_API int32_t topoplan_udgoap_num_actions(const topoplan_udgoap_world* world);
TOPOPLAN_API const char* topoplan_udgoap_action_name(const topoplan_udgoap_world* world,
                                                     int32_t action);
TOPOPLAN_API topoplan_status topoplan_udgoap_find_entity(const topoplan_udgoap_world* world,
                                                         const char* name, int32_t* id);

/* A numeric fact (entity, attribute), e.g. ("wizard", "mana"). Set: the value is clamped to the
 * fact's bounds; TOPOPLAN_NOT_FOUND when the world has no such fact. One thread per world
 * (get: any thread when nobody sets). */
TOPOPLAN_API topoplan_status topoplan_udgoap_get_fact(const topoplan_udgoap_world* world,
                                                      const char* entity, const char* attribute,
                                                      double* value);
TOPOPLAN_API topoplan_status topoplan_udgoap_set_fact(topoplan_udgoap_world* world,
                                                      const char* entity, const char* attribute,
                                                      double value);

/* Updates the agent's drives and goals against the world's current facts. One thread per
 * agent. */
TOPOPLAN_API topoplan_status topoplan_udgoap_agent_update(const topoplan_udgoap_world* world,
                                                          topoplan_udgoap_agent* agent);
TOPOPLAN_API int32_t topoplan_udgoap_agent_num_goals(const topoplan_udgoap_agent* agent);

typedef struct topoplan_udgoap_step {
  int32_t action;   /* topoplan_udgoap_action_name */
  int32_t supplier; /* the entity the action is applied to (-1: none) */
} topoplan_udgoap_step;

typedef struct topoplan_udgoap_limits {
  int64_t max_expansions;  /* default 100000 */
  int64_t max_generated;   /* default 1000000 */
  int32_t max_plan_length; /* default 16 */
  int32_t reserved;
} topoplan_udgoap_limits;
TOPOPLAN_API void topoplan_udgoap_limits_init(topoplan_udgoap_limits* limits);

/* Plans for the agent from the world's facts into steps[0, capacity). TOPOPLAN_OK,
 * TOPOPLAN_LIMIT_REACHED, TOPOPLAN_GAVE_UP (search exhausted), TOPOPLAN_BUFFER_TOO_SMALL
 * (*length = steps needed). `limits` (NULL: the scenario's [planner] limits, else defaults) and
 * `utility` may be NULL. Any thread as long as nobody modifies the world or the agent. */
TOPOPLAN_API topoplan_status topoplan_udgoap_plan(const topoplan_udgoap_world* world,
                                                  const topoplan_udgoap_agent* agent,
                                                  const topoplan_udgoap_limits* limits,
                                                  topoplan_udgoap_step* steps, int32_t capacity,
                                                  int32_t* length, double* utility, char* error,
                                                  size_t error_size);

/* ------------------------------------------------------------------------------------------ */
/* Simulation (docs/sim.md): the scenarios of `topoplan sim` (the wizard arena, the Sims house),
 * run episode by episode, with the replay file of `topoplan sim --replay`. */
typedef struct topoplan_sim topoplan_sim;

/* Parses a scenario from text (`size` bytes); `filename` (may be NULL) names it in messages and
 * `dir` (may be NULL: ".") resolves the relative paths it holds (the UDGOAP template). Bad input
 * is TOPOPLAN_INPUT_ERROR with "file:line: message". Any thread. */
TOPOPLAN_API topoplan_status topoplan_sim_parse(const char* text, size_t size, const char* filename,
                                                const char* dir, topoplan_sim** out, char* error,
                                                size_t error_size);
TOPOPLAN_API topoplan_status topoplan_sim_load(const char* path, topoplan_sim** out, char* error,
                                               size_t error_size);
TOPOPLAN_API void topoplan_sim_free(topoplan_sim* sim);
/* "arena", "house" or "hospital"; the scenario's name. */
TOPOPLAN_API const char* topoplan_sim_kind(const topoplan_sim* sim);
TOPOPLAN_API const char* topoplan_sim_name(const topoplan_sim* sim);
/* The behaviour selectors this scenario can run ("fsm", "goap", "udgoap"; the first is the
 * default). A hospital has none here (it is a crowd experiment without a replay). */
TOPOPLAN_API int32_t topoplan_sim_num_selectors(const topoplan_sim* sim);
TOPOPLAN_API const char* topoplan_sim_selector_name(const topoplan_sim* sim, int32_t index);

typedef struct topoplan_sim_options {
  const char* selector; /* NULL: the scenario's first selector */
  uint64_t seed;        /* as `topoplan sim --seed` (default 1) */
  int32_t replay_every; /* keep one tick in K in the replay (default 1; 0: no replay) */
  int32_t reserved;     /* 0 */
  double max_seconds;   /* > 0: cut the episode there (simulated seconds) if the file's is later */
} topoplan_sim_options;
TOPOPLAN_API void topoplan_sim_options_init(topoplan_sim_options* options);

typedef struct topoplan_sim_result {
  int64_t ticks;
  double seconds;   /* simulated: the wizard's lifespan, the house's time */
  int32_t censored; /* 1: cut at max_seconds (arena), or the goal not reached (house) */
  int32_t reserved;
  int64_t kills;     /* arena */
  int64_t decisions; /* the agent loop's counters (the wizard, the Sim) */
  int64_t plans;
  int64_t plan_failures;
  int64_t steps_done;
} topoplan_sim_result;

/* Runs one episode — episode 0 of `seed`, the one `topoplan sim --replay` writes — to its end,
 * keeping its replay in the handle. `options` and `result` may be NULL. TOPOPLAN_NOT_FOUND for
 * a selector the scenario cannot run, TOPOPLAN_UNSUPPORTED for a hospital. One thread per
 * handle. */
TOPOPLAN_API topoplan_status topoplan_sim_run(topoplan_sim* sim,
                                              const topoplan_sim_options* options,
                                              topoplan_sim_result* result, char* error,
                                              size_t error_size);
/* The last run's replay (JSON Lines, docs/sim.md; the bytes `topoplan sim --replay` writes for
 * the same scenario, selector, seed and --replay-every) into `buffer`; *size receives the bytes
 * needed including the final NUL; TOPOPLAN_BUFFER_TOO_SMALL when `capacity` is smaller. */
TOPOPLAN_API topoplan_status topoplan_sim_replay(const topoplan_sim* sim, char* buffer,
                                                 size_t capacity, size_t* size);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* Crowds, plan handles and towns: a part of this API in its own file (included here). */
#include "topoplan/c/topoplan_c_crowd.h"
/* Agents that live by their plans, and the small calls for engines: in its own file. */
#include "topoplan/c/topoplan_c_agents.h"

#endif /* TOPOPLAN_TOPOPLAN_H_ */
