/* A crowd batch from C99 (compiled with -std=c99 -pedantic-errors): Horse Breeders in every
 * state with every goal, on built-in threads and on a host task system, with and without a
 * cache, a frame at a time, checked NPC by NPC against ℙ one at a time.
 * Usage: test_capi_crowd SOURCE_DIR. Exit 0 when every check passes. */
#include <stdio.h>
#include <string.h>

#include "topoplan/c/topoplan_c.h"

#include "check.h"
#include "town_fixture.h"

/* A minimal host task system: runs each item on its own worker index, sequentially, in reverse
 * order (so that nothing depends on the order of ranges). */
typedef struct host_pool {
  int calls;
  int finishes;
} host_pool;

static void* host_enqueue(topoplan_task_fn* task, int32_t item_count, int32_t min_range,
                          void* task_context, void* user_context) {
  host_pool* pool = (host_pool*)user_context;
  int32_t i;
  (void)min_range;
  ++pool->calls;
  for (i = item_count - 1; i >= 0; --i) task(i, i + 1, i % 3, task_context);
  return pool; /* a non-NULL handle: finish must be called */
}

static void host_finish(void* user_task, void* user_context) {
  host_pool* pool = (host_pool*)user_context;
  CHECK(user_task == user_context);
  ++pool->finishes;
}

#define NPCS 3000

typedef struct crowd_output {
  int32_t actions[NPCS * 8];
  uint32_t offset[NPCS];
  uint16_t length[NPCS];
  uint16_t status[NPCS];
} crowd_output;

static crowd_output out_a, out_b;

static topoplan_crowd_output view(crowd_output* o, int64_t capacity) {
  return crowd_output_over(o->actions, capacity, o->offset, o->length, o->status);
}

/* NPC i's plan in `o` is valid from init to goal (the validator's judgement). */
static void expect_valid(const topoplan_task* task, int32_t* init, int32_t* goal,
                         const crowd_output* o, int64_t i) {
  topoplan_problem problem;
  problem.init = init;
  problem.goal = goal;
  problem.num_variables = 3;
  problem.npc_class = 0;
  CHECK_STATUS(topoplan_validate(task, &problem, &o->actions[o->offset[i]], o->length[i], NULL,
                                 NULL, NULL, 0),
               TOPOPLAN_OK);
}

/* A batch of Horse Breeders in every state, with every goal; checked against ℙ one at a time. */
static void test_crowd(const char* dir) {
  topoplan_task* task = NULL;
  topoplan_crowd_planner* cp = NULL;
  topoplan_plan_cache* cache = NULL;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd* hosted = NULL;
  topoplan_crowd* threaded = NULL;
  topoplan_topo* topo = NULL;
  topoplan_scratch* scratch = NULL;
  topoplan_crowd_def def;
  topoplan_crowd_batch batch;
  topoplan_crowd_output out;
  topoplan_crowd_stats stats;
  topoplan_plan_cache_stats cstats;
  host_pool pool = {0, 0};
  static uint16_t classes[NPCS];
  static uint64_t init[NPCS];
  static uint64_t goal[NPCS];
  static int32_t inits[NPCS][3];
  static int32_t goals[NPCS][3];
  int32_t i, k, words, solved = 0, unsolvable = 0;
  char error[256];

  CHECK_STATUS(
      topoplan_task_load(source_path(dir, "domains/horse-breeder.toml"), 0, &task, NULL, 0),
      TOPOPLAN_OK);
  if (task == NULL) return;
  CHECK_STATUS(topoplan_crowd_planner_create(task, &cp, error, sizeof error), TOPOPLAN_OK);
  words = topoplan_crowd_planner_words(cp);
  CHECK(words == 1);
  CHECK(topoplan_crowd_planner_num_classes(cp) == 1);
  CHECK(topoplan_crowd_planner_max_plan_length(cp) == 7);
  CHECK_STATUS(topoplan_topo_create(task, 0, &topo, NULL, 0), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_scratch_create(topo, &scratch), TOPOPLAN_OK);

  for (i = 0; i < NPCS; ++i) {
    int32_t back[3];
    uint32_t r = (uint32_t)i * 2654435761u;
    inits[i][0] = (int32_t)(r % 3u);
    inits[i][1] = (int32_t)((r >> 4) % 2u);
    inits[i][2] = (int32_t)((r >> 8) % 3u);
    for (k = 0; k < 3; ++k) /* about one goal entry in four is free */
      goals[i][k] = ((r >> (12 + 3 * k)) & 3u) == 0
                        ? TOPOPLAN_UNDEFINED
                        : (int32_t)((r >> (20 + 2 * k)) % (k == 1 ? 2u : 3u));
    classes[i] = 0;
    CHECK_STATUS(topoplan_crowd_pack_state(cp, inits[i], 3, &init[i]), TOPOPLAN_OK);
    CHECK_STATUS(topoplan_crowd_pack_goal(cp, goals[i], 3, &goal[i]), TOPOPLAN_OK);
    CHECK_STATUS(topoplan_crowd_unpack_goal(cp, &goal[i], back, 3), TOPOPLAN_OK);
    CHECK(memcmp(back, goals[i], sizeof back) == 0);
    CHECK_STATUS(topoplan_crowd_unpack_state(cp, &init[i], back, 3), TOPOPLAN_OK);
    CHECK(memcmp(back, inits[i], sizeof back) == 0);
  }
  classes[7] = 3; /* a bad class id: a per-NPC status, not a failed call */
  batch.count = NPCS;
  batch.npc_class = classes;
  batch.init = init;
  batch.goal = goal;

  topoplan_crowd_def_init(&def);
  CHECK(def.worker_count == 1 && def.threads == 1 && def.cache == NULL);
  CHECK_STATUS(topoplan_crowd_create(cp, &def, &crowd, error, sizeof error), TOPOPLAN_OK);
  out = view(&out_a, NPCS * 8);
  CHECK_STATUS(topoplan_crowd_plan(crowd, &batch, &out, &stats), TOPOPLAN_OK);
  CHECK(stats.served == NPCS && stats.complete == 1 && stats.cache_hits == 0);
  for (i = 0; i < NPCS; ++i) {
    int32_t ref[16];
    int32_t len = -1;
    topoplan_status s;
    if (i == 7) {
      CHECK(out_a.status[i] == TOPOPLAN_CROWD_BAD_INPUT);
      continue;
    }
    s = topoplan_topo_plan(topo, scratch, inits[i], goals[i], 3, ref, 16, &len);
    if (s == TOPOPLAN_OK) {
      ++solved;
      CHECK(out_a.status[i] == TOPOPLAN_CROWD_SOLVED);
      CHECK(out_a.length[i] == len);
      CHECK(memcmp(&out_a.actions[out_a.offset[i]], ref, sizeof(int32_t) * (size_t)len) == 0);
      expect_valid(task, inits[i], goals[i], &out_a, i);
    } else if (s == TOPOPLAN_UNSOLVABLE) {
      ++unsolvable;
      CHECK(out_a.status[i] == TOPOPLAN_CROWD_UNSOLVABLE);
    } else if (out_a.status[i] == (TOPOPLAN_CROWD_SOLVED | TOPOPLAN_CROWD_FALLBACK)) {
      /* ℙ gave up: the crowd's fallback planner (A*) answered (docs/crowds.md). */
      ++solved;
      expect_valid(task, inits[i], goals[i], &out_a, i);
    } else {
      CHECK(out_a.status[i] == (TOPOPLAN_CROWD_UNSOLVABLE | TOPOPLAN_CROWD_FALLBACK) ||
            out_a.status[i] == TOPOPLAN_CROWD_NO_PLAN);
    }
  }
  CHECK(solved > NPCS / 10);
  CHECK(unsolvable > NPCS / 10);
  CHECK(stats.solved == solved);

  /* A host task system and a shared cache: the same output, offsets included, twice (the second
   * batch answered from the cache). */
  CHECK_STATUS(topoplan_plan_cache_create(cp, 1024, 16, &cache, error, sizeof error), TOPOPLAN_OK);
  def.worker_count = 3;
  def.enqueue_task = host_enqueue;
  def.finish_task = host_finish;
  def.user_task_context = &pool;
  def.cache = cache;
  CHECK_STATUS(topoplan_crowd_create(cp, &def, &hosted, error, sizeof error), TOPOPLAN_OK);
  for (k = 0; k < 2; ++k) {
    memset(&out_b, 0, sizeof out_b);
    out = view(&out_b, NPCS * 8);
    CHECK_STATUS(topoplan_crowd_plan(hosted, &batch, &out, &stats), TOPOPLAN_OK);
    CHECK(stats.served == NPCS);
    for (i = 0; i < NPCS; ++i) {
      CHECK((out_b.status[i] & ~TOPOPLAN_CROWD_CACHE_HIT) == out_a.status[i]);
      CHECK(out_b.offset[i] == out_a.offset[i] && out_b.length[i] == out_a.length[i]);
      if (out_a.status[i] == TOPOPLAN_CROWD_SOLVED)
        CHECK(memcmp(&out_b.actions[out_b.offset[i]], &out_a.actions[out_a.offset[i]],
                     sizeof(int32_t) * out_a.length[i]) == 0);
    }
  }
  CHECK(stats.cache_hits > NPCS / 2);
  CHECK(pool.calls == 2 && pool.finishes == 2);
  CHECK_STATUS(topoplan_plan_cache_stats_get(cache, &cstats), TOPOPLAN_OK);
  CHECK(cstats.hits > 0 && cstats.inserts > 0 && cstats.capacity >= 1024);
  {
    int64_t before = cstats.invalidations;
    topoplan_plan_cache_invalidate(cache);
    CHECK_STATUS(topoplan_plan_cache_stats_get(cache, &cstats), TOPOPLAN_OK);
    CHECK(cstats.invalidations == before + 1);
  }

  /* The built-in pool with two threads; a frame at a time with a zero budget (one block per
   * worker per call); a small action buffer. */
  topoplan_crowd_def_init(&def);
  def.threads = 2;
  def.worker_count = 2;
  CHECK_STATUS(topoplan_crowd_create(cp, &def, &threaded, error, sizeof error), TOPOPLAN_OK);
  {
    int64_t cursor = 0;
    int frames = 0;
    memset(&out_b, 0, sizeof out_b);
    out = view(&out_b, NPCS * 8);
    do {
      CHECK_STATUS(topoplan_crowd_plan_frame(threaded, &batch, &out, &cursor, 0.0, &stats),
                   TOPOPLAN_OK);
      ++frames;
    } while (!stats.complete && frames < NPCS);
    CHECK(cursor == NPCS);
    CHECK(frames > 1);
    for (i = 0; i < NPCS; ++i) CHECK(out_b.status[i] == out_a.status[i]);
    cursor = NPCS + 1;
    CHECK_STATUS(topoplan_crowd_plan_frame(threaded, &batch, &out, &cursor, 0.0, &stats),
                 TOPOPLAN_INVALID_ARGUMENT);
    cursor = 1; /* inside a block: no call writes it */
    CHECK_STATUS(topoplan_crowd_plan_frame(threaded, &batch, &out, &cursor, 0.0, &stats),
                 TOPOPLAN_INVALID_ARGUMENT);
  }
  out = view(&out_b, NPCS / 4); /* 1/4 action per NPC on average: some plans do not fit */
  CHECK_STATUS(topoplan_crowd_plan(threaded, &batch, &out, &stats), TOPOPLAN_OK);
  CHECK(stats.buffer_too_small > 0);
  for (i = 0; i < NPCS; ++i)
    if (out_b.status[i] & TOPOPLAN_CROWD_BUFFER_TOO_SMALL)
      CHECK(out_b.length[i] == out_a.length[i]);

  /* Bad calls. */
  {
    topoplan_crowd* none = NULL;
    topoplan_crowd_batch bad = batch;
    topoplan_plan_cache* none_cache = NULL;
    uint64_t packed;
    int32_t wrong[3] = {0, 2, 0};
    out = view(&out_a, NPCS * 8);
    bad.init = NULL;
    CHECK_STATUS(topoplan_crowd_plan(crowd, &bad, &out, &stats), TOPOPLAN_INVALID_ARGUMENT);
    bad = batch;
    bad.count = -1;
    CHECK_STATUS(topoplan_crowd_plan(crowd, &bad, &out, &stats), TOPOPLAN_INVALID_ARGUMENT);
    out.capacity = (int64_t)1 << 33;
    CHECK_STATUS(topoplan_crowd_plan(crowd, &batch, &out, &stats), TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(topoplan_crowd_plan(NULL, &batch, &out, &stats), TOPOPLAN_INVALID_ARGUMENT);
    bad.count = 0;
    out = view(&out_a, 0);
    CHECK_STATUS(topoplan_crowd_plan(crowd, &bad, &out, &stats), TOPOPLAN_OK);
    CHECK(stats.served == 0);
    topoplan_crowd_def_init(&def);
    def.threads = 0;
    CHECK_STATUS(topoplan_crowd_create(cp, &def, &none, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK(none == NULL && strlen(error) > 0);
    topoplan_crowd_def_init(&def);
    def.enqueue_task = host_enqueue; /* without finish_task */
    CHECK_STATUS(topoplan_crowd_create(cp, &def, &none, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(topoplan_plan_cache_create(cp, 0, 16, &none_cache, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK(none_cache == NULL);
    CHECK_STATUS(topoplan_crowd_pack_state(cp, wrong, 3, &packed), TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(topoplan_crowd_pack_state(cp, wrong, 2, &packed), TOPOPLAN_INVALID_ARGUMENT);
    wrong[1] = TOPOPLAN_UNDEFINED;
    CHECK_STATUS(topoplan_crowd_pack_state(cp, wrong, 3, &packed), TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(topoplan_crowd_pack_goal(cp, wrong, 3, &packed), TOPOPLAN_OK);
  }

  /* A domain ℙ cannot take: the crowd planner refuses it. */
  {
    static const char two[] =
        "[domain]\nname = \"two\"\n"
        "[[variable]]\nname = \"v\"\nvalues = [\"a\", \"b\", \"c\"]\n"
        "[[action]]\nname = \"x\"\npre = { v = \"a\" }\npost = { v = \"c\" }\n"
        "[[action]]\nname = \"y\"\npre = { v = \"b\" }\npost = { v = \"c\" }\n";
    topoplan_task* other = NULL;
    topoplan_crowd_planner* taken = NULL;
    CHECK_STATUS(topoplan_task_parse(two, sizeof two - 1, 0, "two.toml", &other, NULL, 0),
                 TOPOPLAN_OK);
    /* Not post-unique (x and y both produce v=c): the crowd still takes it (ℙ on its part, the
     * planner chain for the rest; tests/capi/capi_more_test.c plans such a crowd). */
    CHECK_STATUS(topoplan_crowd_planner_create(other, &taken, error, sizeof error), TOPOPLAN_OK);
    CHECK(taken != NULL);
    topoplan_crowd_planner_free(taken);
    topoplan_task_free(other);
  }

  topoplan_crowd_free(threaded);
  topoplan_crowd_free(hosted);
  topoplan_crowd_free(crowd);
  topoplan_plan_cache_free(cache);
  topoplan_scratch_free(scratch);
  topoplan_topo_free(topo);
  topoplan_crowd_planner_free(cp);
  topoplan_task_free(task);
}

CHECK_MAIN(test_crowd)
