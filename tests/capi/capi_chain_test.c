/* The crowd's planner chain from C99 (topoplan_crowd_create_with_chain) on a GOAP town, and the
 * plan table's size the caller gives (topoplan_plan_cache_create_with_table).
 * Usage: test_capi_chain SOURCE_DIR. Exit 0 when every check passes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "town_fixture.h"

/* The planner chain from C (topoplan_crowd_create_with_chain): on a GOAP town the default
 * chain leaves no NPC without a plan; ℙ only, a guard class on ℙ only, or limits of one expansion
 * leave exactly the NPCs the fallback answered without one; an explicit "astar" chain (and a NULL
 * chain) answers as topoplan_crowd_create; bad names and ranges are refused with a message; the
 * plan table's size is the caller's (topoplan_plan_cache_create_with_table). */
static town_run reference, chained;

/* Plans the batch with a crowd of `chain` (NULL: the default one); stats in *stats. */
static topoplan_status run_chain(const topoplan_crowd_planner* planner,
                                 const topoplan_crowd_chain* chain, const topoplan_crowd_batch* b,
                                 town_run* r, topoplan_crowd_stats* stats, char* error,
                                 size_t error_size) {
  topoplan_crowd_def def;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_output out = run_output(r);
  topoplan_status s;
  topoplan_crowd_def_init(&def);
  s = topoplan_crowd_create_with_chain(planner, &def, chain, &crowd, error, error_size);
  if (s != TOPOPLAN_OK) {
    CHECK(crowd == NULL);
    return s;
  }
  CHECK_STATUS(topoplan_crowd_plan(crowd, b, &out, stats), TOPOPLAN_OK);
  CHECK(stats->served == b->count && stats->complete == 1 && stats->pending == 0);
  topoplan_crowd_free(crowd);
  return s;
}

/* `r` against the reference, NPC by NPC: an NPC of class `only` (-1: any, -2: none) the reference's
 * fallback answered is NO_PLAN (without FALLBACK) in `r`; every other NPC has the same status
 * and plan. Returns how many NPCs lost their fallback answer. */
static int64_t lost_fallback(const topoplan_crowd_batch* b, const town_run* r, int32_t only) {
  int64_t i, lost = 0;
  for (i = 0; i < b->count; ++i) {
    const int ref_fb = (reference.status[i] & TOPOPLAN_CROWD_FALLBACK) != 0;
    if (ref_fb && (only == -1 || b->npc_class[i] == only)) {
      ++lost;
      CHECK(r->status[i] == TOPOPLAN_CROWD_NO_PLAN && r->length[i] == 0);
      continue;
    }
    CHECK(r->status[i] == reference.status[i] && r->length[i] == reference.length[i]);
    if ((reference.status[i] & TOPOPLAN_CROWD_SOLVED) && r->length[i] == reference.length[i] &&
        r->length[i] > 0)
      CHECK(memcmp(&r->actions[r->offset[i]], &reference.actions[reference.offset[i]],
                   sizeof(int32_t) * (size_t)r->length[i]) == 0);
  }
  return lost;
}

static void test_chain(const char* dir) {
  town_fixture f;
  topoplan_crowd_planner* planner;
  topoplan_plan_cache* cache = NULL;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_def cdef;
  topoplan_crowd_chain chain;
  topoplan_crowd_class_chain per_class[2];
  topoplan_crowd_batch b;
  topoplan_crowd_stats stats, ref_stats;
  topoplan_crowd_output out;
  static topoplan_plan_handle handles[3000];
  int32_t guard = -1;
  int64_t i, fallback = 0, guard_fallback = 0, used = -1, capacity = -1;
  char error[512];
  /* The castle-guard town: ℙ gives up on guards only (not the goap-level town: ℙ's relaxed
   * reachability proofs answer all its NPCs, docs/algorithm.md). */
  if (!town_open(&f, dir, "domains/goap/castle-guard.toml", 3000, 7)) return;
  planner = f.planner;
  b = f.batch;
  CHECK_STATUS(topoplan_task_find_class(f.task, "guard", &guard), TOPOPLAN_OK);

  /* The defaults are CrowdDef's. */
  memset(&chain, 0x5a, sizeof chain);
  topoplan_crowd_chain_init(&chain);
  CHECK(chain.fallback == NULL && chain.class_fallback == NULL && chain.num_class_fallback == 0);
  CHECK(chain.fallback_budget == 2000 && chain.max_expansions == 500000);
  CHECK(chain.max_memory_bytes == (int64_t)256 << 20 && chain.max_seconds == 0.0);
  topoplan_crowd_chain_init(NULL);

  /* The reference: topoplan_crowd_create (the default chain) — no NPC without a plan. */
  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create(planner, &cdef, &crowd, error, sizeof error), TOPOPLAN_OK);
  out = run_output(&reference);
  CHECK_STATUS(topoplan_crowd_plan(crowd, &b, &out, &ref_stats), TOPOPLAN_OK);
  topoplan_crowd_free(crowd);
  for (i = 0; i < b.count; ++i)
    if (reference.status[i] & TOPOPLAN_CROWD_FALLBACK) {
      ++fallback;
      guard_fallback += b.npc_class[i] == guard;
    }
  /* On this town ℙ gives up on guards only (the fallback answers them). */
  CHECK(ref_stats.no_plan == 0 && fallback > 0 && guard_fallback == fallback);

  /* A NULL chain, the initialised chain and an explicit "astar": the same answers, byte for byte
   * (offsets included). */
  CHECK_STATUS(run_chain(planner, NULL, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(memcmp(&chained, &reference, sizeof chained) == 0);
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(memcmp(&chained, &reference, sizeof chained) == 0);
  chain.fallback = "astar";
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(memcmp(&chained, &reference, sizeof chained) == 0);
  CHECK(stats.solved == ref_stats.solved && stats.solved_fallback == ref_stats.solved_fallback);

  /* ℙ only ("none"): every NPC the fallback answered has no plan; the rest unchanged. */
  chain.fallback = "none";
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(lost_fallback(&b, &chained, -1) == fallback && stats.no_plan == fallback);
  CHECK(stats.solved_fallback == 0);
  /* "" and ",," are typos, not the empty chain: refused with the reason. */
  chain.fallback = "";
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "an empty planner name") != NULL);
  chain.fallback = ",,";
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);

  /* Per-class chains. Guards on ℙ only, the others on the default: the guards lose their
   * fallback answers. Recruits on ℙ only: nothing changes (no recruit needs the fallback). ℙ
   * only for every class but guards, which get "astar": the reference again. */
  per_class[0].npc_class = "guard";
  per_class[0].planners = "none";
  per_class[1].npc_class = "recruit";
  per_class[1].planners = "none";
  chain.fallback = NULL;
  chain.class_fallback = per_class;
  chain.num_class_fallback = 1;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(lost_fallback(&b, &chained, guard) == guard_fallback && stats.no_plan == guard_fallback);
  chain.class_fallback = per_class + 1;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(memcmp(&chained, &reference, sizeof chained) == 0);
  chain.fallback = "none";
  per_class[0].planners = "astar,astar-back"; /* A* first: the reference's plans */
  chain.class_fallback = per_class;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(stats.no_plan == 0 && lost_fallback(&b, &chained, -2) == 0);

  /* Limits of one expansion: the fallback answers nothing, whatever the retries. */
  topoplan_crowd_chain_init(&chain);
  chain.fallback_budget = 1;
  chain.max_expansions = 1;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error), TOPOPLAN_OK);
  CHECK(stats.no_plan > 0 && stats.no_plan <= fallback && stats.solved <= ref_stats.solved);

  /* Refused, with Crowd::create's one-line message. */
  topoplan_crowd_chain_init(&chain);
  chain.fallback = "astar,nope";
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "nope") != NULL && strchr(error, '\n') == NULL);
  chain.fallback = NULL;
  per_class[0].npc_class = "nobody";
  per_class[0].planners = "astar";
  chain.class_fallback = per_class;
  chain.num_class_fallback = 1;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "no NPC class 'nobody'") != NULL);
  per_class[0].npc_class = "guard";
  per_class[0].planners = "astar,nope";
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "nope") != NULL);
  per_class[0].planners = NULL;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  chain.class_fallback = NULL;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "class_fallback") != NULL);
  chain.num_class_fallback = -1;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  topoplan_crowd_chain_init(&chain);
  chain.fallback_budget = 0;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error,
               "'fallback_budget' (first-attempt expansions per NPC) must be an integer in [1, ") !=
        NULL);
  chain.fallback_budget = (int64_t)1 << 41;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "fallback_budget") != NULL);
  topoplan_crowd_chain_init(&chain);
  chain.max_expansions = 0;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "max_expansions") != NULL);
  topoplan_crowd_chain_init(&chain);
  chain.max_seconds = -1.0;
  CHECK_STATUS(run_chain(planner, &chain, &b, &chained, &stats, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "max_seconds") != NULL);
  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create_with_chain(planner, NULL, &chain, &crowd, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_create_with_chain(planner, &cdef, &chain, NULL, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);

  /* The plan table's size: 1000 slots; none (0: plans are copied, no handle); out of range. */
  CHECK_STATUS(
      topoplan_plan_cache_create_with_table(planner, 4096, 16, 1000, &cache, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(topoplan_plan_cache_table(cache, NULL, &used, &capacity), TOPOPLAN_OK);
  CHECK(capacity == 1000);
  topoplan_plan_cache_free(cache);
  cache = NULL;
  CHECK_STATUS(
      topoplan_plan_cache_create_with_table(planner, 4096, 16, 0, &cache, error, sizeof error),
      TOPOPLAN_OK);
  if (cache != NULL) {
    CHECK_STATUS(topoplan_plan_cache_table(cache, NULL, &used, &capacity), TOPOPLAN_OK);
    CHECK(capacity == 0);
    cdef.cache = cache;
    CHECK_STATUS(topoplan_crowd_create(planner, &cdef, &crowd, error, sizeof error), TOPOPLAN_OK);
    out = run_output(&chained);
    CHECK_STATUS(topoplan_crowd_plan_handles(crowd, &b, &out, handles, &stats), TOPOPLAN_OK);
    for (i = 0; i < b.count; ++i) {
      CHECK(handles[i].epoch == 0);
      CHECK((chained.status[i] & ~TOPOPLAN_CROWD_CACHE_HIT) == reference.status[i]);
    }
    topoplan_crowd_free(crowd);
    topoplan_plan_cache_free(cache);
  }
  cache = NULL;
  CHECK_STATUS(
      topoplan_plan_cache_create_with_table(planner, 4096, 16, -1, &cache, error, sizeof error),
      TOPOPLAN_INVALID_ARGUMENT);
  CHECK(cache == NULL && strstr(error, "table_actions") != NULL);
  CHECK_STATUS(topoplan_plan_cache_create_with_table(planner, 4096, 16, (1 << 30) + 1, &cache,
                                                     error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);

  town_close(&f);
}

CHECK_MAIN(test_chain)
