/* topoplan — the C API, crowd part (C99): crowds, plan handles and the benchmark towns
 * (docs/crowds.md, docs/c-api.md). Part of the C API of topoplan/c/topoplan_c.h, which includes it:
 * include either; the conventions (handles, statuses, error buffers, thread safety) are those
 * stated at the top of topoplan.h. */
#ifndef TOPOPLAN_TOPOPLAN_CROWD_H_
#define TOPOPLAN_TOPOPLAN_CROWD_H_

#include "topoplan/c/topoplan_c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Crowds: plans for many NPCs per call (docs/crowds.md). */
typedef struct topoplan_crowd_planner topoplan_crowd_planner;
typedef struct topoplan_plan_cache topoplan_plan_cache;
typedef struct topoplan_crowd topoplan_crowd;

/* Per-NPC status bits (0 = not served: the frame budget ran out). */
#define TOPOPLAN_CROWD_SOLVED 0x01u           /* actions[offset, offset + length) is a plan */
#define TOPOPLAN_CROWD_UNSOLVABLE 0x02u       /* proved: no plan exists (ℙ, or the fallback) */
#define TOPOPLAN_CROWD_NO_PLAN 0x04u          /* no plan, no proof */
#define TOPOPLAN_CROWD_BUFFER_TOO_SMALL 0x08u /* length = actions needed */
/* Class id out of range, or a value out of range on a variable the crowd reads for this NPC
 * (one its class's actions change, or one its goal asks to change); the other fields are not
 * read, so not checked: states packed by topoplan_crowd_pack_state are in range. */
#define TOPOPLAN_CROWD_BAD_INPUT 0x10u
#define TOPOPLAN_CROWD_CACHE_HIT 0x20u /* answered from the plan cache */
/* Fallback over its per-NPC budget: answered by the next frame call (length 0 until then). */
#define TOPOPLAN_CROWD_PENDING 0x40u
/* With SOLVED or UNSOLVABLE: answered by a fallback planner after ℙ gave up (docs/crowds.md). */
#define TOPOPLAN_CROWD_FALLBACK 0x80u

/* The immutable crowd planner of a task's domain: ℙ per NPC class over the class's variables.
 * NPC class ids of a batch are the domain's classes, or the single class 0 for a domain without
 * classes. Any domain: a class that is not unary and post-unique gets ℙ on part of its actions,
 * and the crowd's planner chain answers the NPCs ℙ leaves open (topoplan_crowd_create_with_chain).
 * TOPOPLAN_UNSUPPORTED when the domain cannot be compiled for a crowd (e.g. a class of more than
 * 65535 actions). Any thread; the task must outlive it; share it between threads. */
TOPOPLAN_API topoplan_status topoplan_crowd_planner_create(const topoplan_task* task,
                                                           topoplan_crowd_planner** out,
                                                           char* error, size_t error_size);
TOPOPLAN_API void topoplan_crowd_planner_free(topoplan_crowd_planner* planner);
/* 64-bit words per packed state (and per packed goal). Any thread. */
TOPOPLAN_API int32_t topoplan_crowd_planner_words(const topoplan_crowd_planner* planner);
TOPOPLAN_API int32_t topoplan_crowd_planner_num_classes(const topoplan_crowd_planner* planner);
/* Longest plan any class can return. Any thread. */
TOPOPLAN_API int32_t topoplan_crowd_planner_max_plan_length(const topoplan_crowd_planner* planner);

/* Packing into the fixed bit layout of a batch: `state` has num_variables values (total for a
 * state; TOPOPLAN_UNDEFINED allowed in a goal), `packed` words() words. Any thread. */
TOPOPLAN_API topoplan_status topoplan_crowd_pack_state(const topoplan_crowd_planner* planner,
                                                       const int32_t* state, int32_t num_variables,
                                                       uint64_t* packed);
TOPOPLAN_API topoplan_status topoplan_crowd_pack_goal(const topoplan_crowd_planner* planner,
                                                      const int32_t* goal, int32_t num_variables,
                                                      uint64_t* packed);
TOPOPLAN_API topoplan_status topoplan_crowd_unpack_state(const topoplan_crowd_planner* planner,
                                                         const uint64_t* packed, int32_t* state,
                                                         int32_t num_variables);
TOPOPLAN_API topoplan_status topoplan_crowd_unpack_goal(const topoplan_crowd_planner* planner,
                                                        const uint64_t* packed, int32_t* goal,
                                                        int32_t num_variables);

/* A bounded, thread-safe memo of answers, shareable by several crowds. capacity: entries
 * (rounded up to a power of two); max_plan_length: longer plans are not cached (≤ 255). Any
 * thread. */
TOPOPLAN_API topoplan_status topoplan_plan_cache_create(const topoplan_crowd_planner* planner,
                                                        int32_t capacity, int32_t max_plan_length,
                                                        topoplan_plan_cache** out, char* error,
                                                        size_t error_size);
/* As topoplan_plan_cache_create, with the size of the plan table of plan handles:
 * `table_actions` action ids (plus one per plan) per epoch, in [0, 2^30] (0: no table, so no
 * handles; topoplan_plan_cache_create's is 2^19). New in the chain additions (ABI version 2). */
TOPOPLAN_API topoplan_status topoplan_plan_cache_create_with_table(
    const topoplan_crowd_planner* planner, int32_t capacity, int32_t max_plan_length,
    int32_t table_actions, topoplan_plan_cache** out, char* error, size_t error_size);
TOPOPLAN_API void topoplan_plan_cache_free(topoplan_plan_cache* cache);
/* Drops every entry. Not concurrent with batches that use the cache. */
TOPOPLAN_API void topoplan_plan_cache_invalidate(topoplan_plan_cache* cache);

typedef struct topoplan_plan_cache_stats {
  int64_t hits, misses, inserts, evictions, invalidations, capacity, bytes;
} topoplan_plan_cache_stats;
/* Any thread (the counters are added once per batch). */
TOPOPLAN_API topoplan_status topoplan_plan_cache_stats_get(const topoplan_plan_cache* cache,
                                                           topoplan_plan_cache_stats* stats);

/* The host's task system (Box2D style). The library calls enqueue_task(task, item_count,
 * min_range, task_context, user_task_context); the host runs task(begin, end, worker,
 * task_context) on ranges covering [0, item_count), each range on a worker 0 <= worker <
 * worker_count, no two concurrent calls with the same worker; it returns a handle passed to
 * finish_task (or NULL if it already ran everything), and finish_task waits for the task. */
typedef void topoplan_task_fn(int32_t begin, int32_t end, int32_t worker, void* task_context);
typedef void* topoplan_enqueue_task_fn(topoplan_task_fn* task, int32_t item_count,
                                       int32_t min_range, void* task_context,
                                       void* user_task_context);
typedef void topoplan_finish_task_fn(void* user_task, void* user_task_context);

typedef struct topoplan_crowd_def {
  int32_t worker_count; /* distinct worker indices the host may use (>= 1) */
  /* Threads of a built-in pool owned by the crowd when enqueue_task is NULL (1: the calling
   * thread only). */
  int32_t threads;
  topoplan_enqueue_task_fn* enqueue_task; /* NULL: built-in (see threads) */
  topoplan_finish_task_fn* finish_task;
  void* user_task_context;
  topoplan_plan_cache* cache;  /* optional, shared, owned by the caller; outlives the crowd */
  int32_t npcs_per_block;      /* unit of work and of output slicing (default 64) */
  int32_t worker_memo_entries; /* per-worker memo in front of the cache (default 2048; 0 none) */
} topoplan_crowd_def;
/* Defaults: 1 worker, 1 thread, no callbacks, no cache, 64 NPCs per block, 2048 memo entries. */
TOPOPLAN_API void topoplan_crowd_def_init(topoplan_crowd_def* def);

/* Creates the per-worker scratch (allocates; do it once). Any thread; the planner (and the cache)
 * must outlive the crowd. */
TOPOPLAN_API topoplan_status topoplan_crowd_create(const topoplan_crowd_planner* planner,
                                                   const topoplan_crowd_def* def,
                                                   topoplan_crowd** out, char* error,
                                                   size_t error_size);
TOPOPLAN_API void topoplan_crowd_free(topoplan_crowd* crowd);

/* The planner chain after ℙ (docs/crowds.md, "Planner chain"): the planners (registry names, as
 * topoplan_plan's) tried in order on an NPC ℙ gives up on. A planner list is a comma-separated
 * string, "astar,astar-back"; "none": ℙ only (such NPCs are TOPOPLAN_CROWD_NO_PLAN); an empty name
 * ("", ",,") is TOPOPLAN_INVALID_ARGUMENT. */
typedef struct topoplan_crowd_class_chain {
  const char* npc_class; /* a class name of the domain */
  const char* planners;  /* that class's own chain instead of `fallback` */
} topoplan_crowd_class_chain;
typedef struct topoplan_crowd_chain {
  const char* fallback; /* every class's chain; NULL: the default ("astar") */
  const topoplan_crowd_class_chain* class_fallback; /* num_class_fallback entries, or NULL */
  int32_t num_class_fallback;
  int32_t reserved; /* unused (0 after topoplan_crowd_chain_init) */
  /* Expansions per NPC per fallback planner in the first attempt, in [1, 2^40] (default 2000);
   * over it the NPC is TOPOPLAN_CROWD_PENDING and retried with budgets ×4 up to the limits. */
  int64_t fallback_budget;
  int64_t max_expansions;   /* limits of the retries: [1, 2^40] (default 500,000) */
  int64_t max_memory_bytes; /* [1, 2^50] (default 256 MiB) */
  double max_seconds;       /* finite, >= 0; 0: no time limit (the default) */
} topoplan_crowd_chain;
/* Defaults equal to topoplan_crowd_create's chain: fallback NULL ("astar"), no class chains,
 * budget 2000, limits 500,000 expansions, 256 MiB, no time limit. */
TOPOPLAN_API void topoplan_crowd_chain_init(topoplan_crowd_chain* chain);
/* topoplan_crowd_create with a planner chain (NULL: the default one, as topoplan_crowd_create).
 * TOPOPLAN_INVALID_ARGUMENT, with a one-line message, for an unknown planner or class name, a
 * value out of range, or num_class_fallback < 0 (or > 0 with class_fallback NULL, or a NULL
 * name). The strings are read during the call only. New in the chain additions (ABI version 2:
 * no struct changed). */
TOPOPLAN_API topoplan_status topoplan_crowd_create_with_chain(const topoplan_crowd_planner* planner,
                                                              const topoplan_crowd_def* def,
                                                              const topoplan_crowd_chain* chain,
                                                              topoplan_crowd** out, char* error,
                                                              size_t error_size);

/* Structure-of-arrays input for `count` NPCs, in priority order. */
typedef struct topoplan_crowd_batch {
  int64_t count;             /* at most INT32_MAX */
  const uint16_t* npc_class; /* count class ids */
  const uint64_t* init;      /* count * words(): packed total initial states */
  const uint64_t* goal;      /* count * words(): packed goals */
} topoplan_crowd_batch;

/* Caller-owned output. NPC i's plan is actions[offset[i], offset[i] + length[i]) when
 * status[i] has TOPOPLAN_CROWD_SOLVED. The action buffer is sliced per block of NPCs in
 * proportion (capacity / count actions per NPC on average). */
typedef struct topoplan_crowd_output {
  int32_t* actions;
  int64_t capacity; /* entries of actions (< 2^32) */
  uint32_t* offset; /* count */
  uint16_t* length; /* count */
  uint16_t* status; /* count */
} topoplan_crowd_output;

typedef struct topoplan_crowd_stats {
  int64_t served;  /* NPCs answered by this call */
  int64_t planned; /* ... by running ℙ (the rest came from the cache) */
  int64_t cache_hits;
  int64_t solved;
  int64_t buffer_too_small;
  int32_t complete;   /* 1 when every NPC of the batch has been served and none is pending */
  int32_t unsolvable; /* NPCs answered TOPOPLAN_CROWD_UNSOLVABLE by this call (below 2^31, as count;
                       * 0 from a library without topoplan_crowd_pending) */
  /* The planner chain (docs/crowds.md): ℙ, then the fallback (GOAP A*) for the NPCs ℙ gives up
   * on. Added in ABI version 2. */
  int64_t solved_fallback; /* of `solved`: plans of the fallback (cache hits included) */
  int64_t resumed;         /* pending NPCs retried by this call */
  int64_t no_plan;         /* NPCs answered TOPOPLAN_CROWD_NO_PLAN by this call */
  int64_t pending;         /* NPCs left pending at the end of the call (plan_frame only) */
} topoplan_crowd_stats;

/* Plans every NPC of the batch. TOPOPLAN_INVALID_ARGUMENT for NULL arrays or sizes out of range
 * (per-NPC problems are per-NPC status bits, not a call failure). `stats` may be NULL. No
 * allocation. One thread per crowd (the crowd runs its own workers); several crowds may share a
 * planner and a cache. */
TOPOPLAN_API topoplan_status topoplan_crowd_plan(topoplan_crowd* crowd,
                                                 const topoplan_crowd_batch* batch,
                                                 const topoplan_crowd_output* output,
                                                 topoplan_crowd_stats* stats);
/* Plans from *cursor (first NPC not yet served; start at 0, then pass back what a call wrote:
 * any other value than 0, a block's first NPC or the batch's count is TOPOPLAN_INVALID_ARGUMENT) in
 * order until budget_seconds have passed (checked once per block) or the batch is done; advances
 * *cursor. Results equal topoplan_crowd_plan's for the NPCs served. While NPCs of a pass are
 * pending, the batch is that pass's: one of another count is TOPOPLAN_INVALID_ARGUMENT (answer them
 * first, or topoplan_crowd_discard_pending). One thread per crowd. */
TOPOPLAN_API topoplan_status topoplan_crowd_plan_frame(topoplan_crowd* crowd,
                                                       const topoplan_crowd_batch* batch,
                                                       const topoplan_crowd_output* output,
                                                       int64_t* cursor, double budget_seconds,
                                                       topoplan_crowd_stats* stats);

/* The NPCs topoplan_crowd_plan_frame left pending (TOPOPLAN_CROWD_PENDING in the output they
 * were served to), ascending: *count = how many; the first min(count, capacity) NPC indices
 * into npcs (NULL when capacity is 0). TOPOPLAN_BUFFER_TOO_SMALL when capacity < *count. The next
 * frame call retries them first; a cursor at 0 waits for them. One thread per crowd. */
TOPOPLAN_API topoplan_status topoplan_crowd_pending(const topoplan_crowd* crowd, int64_t* npcs,
                                                    int64_t capacity, int64_t* count);
/* Forgets the pending NPCs: they keep TOPOPLAN_CROWD_PENDING (length 0) in their output, and a
 * frame call at cursor 0 starts a new pass at once. topoplan_crowd_plan does the same first.
 * One thread per crowd. */
TOPOPLAN_API topoplan_status topoplan_crowd_discard_pending(topoplan_crowd* crowd);

/* Plan handles (docs/crowds.md, "Plan handles"): with a cache, a solved NPC can be answered by a
 * handle into the cache's plan table instead of a copy of its plan — a warm NPC then costs a
 * lookup and an 8-byte store. The table is append-only and immutable within an epoch: a handle
 * stays valid until the cache is invalidated (topoplan_plan_cache_invalidate, or a batch with a
 * crowd planner of another domain); afterwards it is stale and resolves to TOPOPLAN_NOT_FOUND,
 * never to another plan. The table holds 2^19 action ids (plus one per plan); when it is full a
 * new plan gets no handle and is copied to `actions` as without handles, so a long-running host
 * invalidates now and then (topoplan_plan_cache_table). */
typedef struct topoplan_plan_handle {
  uint32_t id;    /* position of the plan in the cache's plan table */
  uint32_t epoch; /* the cache epoch the plan belongs to; 0: no handle */
} topoplan_plan_handle;

/* topoplan_crowd_plan / topoplan_crowd_plan_frame answering by handle: `handles` has
 * batch->count entries. A solved NPC with a handle (epoch != 0) has its plan in the plan table
 * (topoplan_crowd_resolve), not in `actions`: it uses no action space and its offset is unused;
 * length and status are as without handles. An NPC without a handle has its plan, if any, in
 * `actions` as usual. TOPOPLAN_INVALID_ARGUMENT also when the crowd has no cache or `handles` is
 * NULL. The rest as topoplan_crowd_plan / topoplan_crowd_plan_frame. */
TOPOPLAN_API topoplan_status topoplan_crowd_plan_handles(topoplan_crowd* crowd,
                                                         const topoplan_crowd_batch* batch,
                                                         const topoplan_crowd_output* output,
                                                         topoplan_plan_handle* handles,
                                                         topoplan_crowd_stats* stats);
TOPOPLAN_API topoplan_status topoplan_crowd_plan_frame_handles(
    topoplan_crowd* crowd, const topoplan_crowd_batch* batch, const topoplan_crowd_output* output,
    topoplan_plan_handle* handles, int64_t* cursor, double budget_seconds,
    topoplan_crowd_stats* stats);
/* The plan of a handle: *actions points into the plan table (*length action ids, no copy) and
 * stays valid until the cache is invalidated. TOPOPLAN_NOT_FOUND for an empty or stale handle
 * (*actions = NULL, *length = 0); TOPOPLAN_INVALID_ARGUMENT for NULL pointers or a crowd
 * without a cache. Any thread, also while batches run; not during an invalidation. */
TOPOPLAN_API topoplan_status topoplan_crowd_resolve(const topoplan_crowd* crowd,
                                                    topoplan_plan_handle handle,
                                                    const int32_t** actions, int32_t* length);
TOPOPLAN_API topoplan_status topoplan_plan_cache_resolve(const topoplan_plan_cache* cache,
                                                         topoplan_plan_handle handle,
                                                         const int32_t** actions, int32_t* length);
/* The plan table: the current epoch (handles of another are stale), the slots used in it and
 * its capacity (action ids plus one per plan). Each pointer may be NULL. Any thread. */
TOPOPLAN_API topoplan_status topoplan_plan_cache_table(const topoplan_plan_cache* cache,
                                                       uint32_t* epoch, int64_t* used,
                                                       int64_t* capacity);

/* Towns: seeded populations of NPCs for a crowd (docs/crowds.md, "The benchmark town"), built
 * from a task's NPC classes and instances (its routines) — the towns of `topoplan crowd`. */
typedef struct topoplan_town topoplan_town;
typedef struct topoplan_town_def {
  int64_t npcs;
  int32_t situations_per_class; /* distinct (s0, goal) drawn per class (default 64) */
  int32_t backgrounds;          /* states of the rest of the town (default 256) */
  double errand_fraction;       /* goals a few random steps from s0 (default 0.15) */
  uint64_t seed;                /* default 1 */
} topoplan_town_def;
/* Defaults: 100,000 NPCs, 64 situations per class, 256 backgrounds, 15 % errands, seed 1. */
TOPOPLAN_API void topoplan_town_def_init(topoplan_town_def* def);
/* Builds the town for `planner`'s task (classes weighted as in `topoplan crowd`). Any thread;
 * the planner (and its task) must outlive the town. */
TOPOPLAN_API topoplan_status topoplan_town_create(const topoplan_crowd_planner* planner,
                                                  const topoplan_town_def* def, topoplan_town** out,
                                                  char* error, size_t error_size);
TOPOPLAN_API void topoplan_town_free(topoplan_town* town);
TOPOPLAN_API int64_t topoplan_town_npcs(const topoplan_town* town);
/* Distinct (class, situation) pairs drawn. */
TOPOPLAN_API int64_t topoplan_town_distinct_situations(const topoplan_town* town);
/* The town as a crowd batch: the arrays point into the town and stay valid until it is freed
 * (topoplan_town_churn rewrites them in place). */
TOPOPLAN_API topoplan_status topoplan_town_batch(const topoplan_town* town,
                                                 topoplan_crowd_batch* out);
/* Gives `count` NPCs drawn at random (the town's own seeded generator) a new class, situation
 * and background: the churn between frames. Not concurrent with a batch reading the town. */
TOPOPLAN_API topoplan_status topoplan_town_churn(topoplan_town* town, int64_t count);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TOPOPLAN_TOPOPLAN_CROWD_H_ */
