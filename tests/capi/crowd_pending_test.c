/* The crowd's pending list and unsolvable counter from C99: on the castle-guard town (ℙ gives up
 * on guards; the fallback answers them) a fallback budget of one expansion leaves NPCs pending
 * after a frame call; topoplan_crowd_pending lists exactly the NPCs marked PENDING, the next
 * frame calls answer them as topoplan_crowd_plan does, topoplan_crowd_discard_pending forgets
 * them; the unsolvable counter equals the UNSOLVABLE status words, each proved by A* (a complete
 * search: no plan found means none exists). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "town_fixture.h"

#define NPCS 3000

typedef struct run {
  int32_t actions[NPCS * 64];
  uint32_t offset[NPCS];
  uint16_t length[NPCS];
  uint16_t status[NPCS];
} run;

static run reference, framed;

static topoplan_crowd_output output_of(run* r, int32_t max_len) {
  return crowd_output_over(r->actions, (int64_t)NPCS * max_len, r->offset, r->length, r->status);
}

static int64_t count_bits(const run* r, uint16_t bits) {
  int64_t i, n = 0;
  for (i = 0; i < NPCS; ++i) n += (r->status[i] & bits) != 0;
  return n;
}

/* The town and the sizes the steps share. */
typedef struct pending_town {
  town_fixture f;
  topoplan_crowd_batch b; /* the town's batch over `init`, its changed facts */
  uint64_t* init;
  int32_t max_len, words, vars;
} pending_town;

/* The town's NPCs are solvable: one in three gets a changed fact (some become unsolvable). */
static void change_some_facts(pending_town* t) {
  const topoplan_crowd_planner* planner = t->f.planner;
  int32_t* state = malloc(sizeof(int32_t) * (size_t)t->vars);
  int64_t i;
  t->init = malloc(sizeof(uint64_t) * (size_t)(NPCS * t->words));
  memcpy(t->init, t->b.init, sizeof(uint64_t) * (size_t)(NPCS * t->words));
  for (i = 0; i < NPCS; i += 3) {
    const int32_t v = (int32_t)(i / 3 % t->vars);
    uint64_t* packed = t->init + i * t->words;
    CHECK_STATUS(topoplan_crowd_unpack_state(planner, packed, state, t->vars), TOPOPLAN_OK);
    state[v] = (int32_t)(i / 7 % topoplan_task_domain_size(t->f.task, v));
    CHECK_STATUS(topoplan_crowd_pack_state(planner, state, t->vars, packed), TOPOPLAN_OK);
  }
  t->b.init = t->init;
  free(state);
}

/* The reference: one plan call; its unsolvable counter is its UNSOLVABLE words. */
static void plan_reference(const pending_town* t) {
  char error[512];
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_def cdef;
  topoplan_crowd_output out = output_of(&reference, t->max_len);
  topoplan_crowd_stats stats;
  int64_t count = -1;
  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create(t->f.planner, &cdef, &crowd, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_crowd_plan(crowd, &t->b, &out, &stats), TOPOPLAN_OK);
  CHECK(stats.unsolvable == count_bits(&reference, TOPOPLAN_CROWD_UNSOLVABLE));
  CHECK(stats.solved + stats.unsolvable + stats.no_plan + stats.buffer_too_small == NPCS);
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 0, &count), TOPOPLAN_OK);
  CHECK(count == 0);
  topoplan_crowd_free(crowd);
  CHECK(stats.unsolvable > 0);
}

/* Every unsolvable answer is proved: A* (complete) finds no plan either. */
static void prove_unsolvable(const pending_town* t) {
  char error[512];
  int32_t* state = malloc(sizeof(int32_t) * (size_t)t->vars);
  int32_t* goal = malloc(sizeof(int32_t) * (size_t)t->vars);
  int32_t plan[256];
  topoplan_problem p;
  topoplan_plan_stats ps;
  int64_t i, proved = 0;
  for (i = 0; i < NPCS && proved < 25; ++i) {
    if (!(reference.status[i] & TOPOPLAN_CROWD_UNSOLVABLE)) continue;
    CHECK_STATUS(
        topoplan_crowd_unpack_state(t->f.planner, t->b.init + i * t->words, state, t->vars),
        TOPOPLAN_OK);
    CHECK_STATUS(topoplan_crowd_unpack_goal(t->f.planner, t->b.goal + i * t->words, goal, t->vars),
                 TOPOPLAN_OK);
    p.init = state;
    p.goal = goal;
    p.num_variables = t->vars;
    p.npc_class = t->b.npc_class[i];
    CHECK_STATUS(topoplan_plan(t->f.task, "astar", &p, NULL, plan, 256, &ps, error, sizeof error),
                 TOPOPLAN_UNSOLVABLE);
    ++proved;
  }
  CHECK(proved > 0);
  free(state);
  free(goal);
}

/* Frames with a fallback budget of one expansion: the fallback's NPCs go pending, listed in
 * order; the next frames answer them as the one plan call did. */
static void frames_answer_pending(topoplan_crowd* crowd, const pending_town* t) {
  topoplan_crowd_output out = output_of(&framed, t->max_len);
  topoplan_crowd_stats stats;
  int64_t pending[NPCS], count = -1, k, cursor = 0, unsolvable;
  int32_t frames = 0;
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &t->b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
  CHECK(cursor == NPCS && stats.pending > 0 && !stats.complete);
  unsolvable = stats.unsolvable;
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 0, &count), TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK(count == stats.pending && count == count_bits(&framed, TOPOPLAN_CROWD_PENDING));
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, 1, &count), TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, NPCS, &count), TOPOPLAN_OK);
  for (k = 0; k < count; ++k) {
    CHECK(framed.status[pending[k]] == TOPOPLAN_CROWD_PENDING && framed.length[pending[k]] == 0);
    if (k > 0) CHECK(pending[k - 1] < pending[k]);
  }
  while (!stats.complete && ++frames < 1000) {
    CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &t->b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
    unsolvable += stats.unsolvable;
  }
  CHECK(stats.complete && stats.pending == 0);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, NPCS, &count), TOPOPLAN_OK);
  CHECK(count == 0);
  CHECK(memcmp(framed.status, reference.status, sizeof framed.status) == 0);
  CHECK(memcmp(framed.length, reference.length, sizeof framed.length) == 0);
  CHECK(unsolvable == count_bits(&framed, TOPOPLAN_CROWD_UNSOLVABLE));
}

/* Discarded: the NPCs keep PENDING in their output; a cursor at 0 starts a new pass at once,
 * which leaves NPCs pending again. */
static void discard_pending(topoplan_crowd* crowd, const pending_town* t) {
  topoplan_crowd_output out = output_of(&framed, t->max_len);
  topoplan_crowd_stats stats;
  int64_t cursor = 0, count;
  memset(&framed, 0, sizeof framed);
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &t->b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
  CHECK(stats.pending > 0);
  count = stats.pending;
  CHECK_STATUS(topoplan_crowd_discard_pending(crowd), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 0, &count), TOPOPLAN_OK);
  CHECK(count == 0);
  CHECK(count_bits(&framed, TOPOPLAN_CROWD_PENDING) == stats.pending);
  cursor = 0;
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &t->b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
  CHECK(cursor == NPCS && stats.resumed == 0);
  CHECK(stats.pending > 0);
}

/* Pending NPCs are indices into their pass's batch: a batch of another count is refused (it
 * would be read at their indices) until they are discarded. */
static void other_count_waits_for_discard(topoplan_crowd* crowd, const pending_town* t) {
  topoplan_crowd_output out = output_of(&framed, t->max_len);
  topoplan_crowd_stats stats;
  topoplan_crowd_batch one = t->b;
  int64_t first = 0;
  one.count = 1;
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &one, &out, &first, 60.0, &stats),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(first == 0);
  CHECK_STATUS(topoplan_crowd_discard_pending(crowd), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &one, &out, &first, 60.0, &stats), TOPOPLAN_OK);
  CHECK(first == 1);
}

static void bad_arguments(topoplan_crowd* crowd) {
  int64_t pending[NPCS], count = -1;
  CHECK_STATUS(topoplan_crowd_pending(NULL, pending, NPCS, &count), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, NPCS, NULL), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 4, &count), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, -1, &count), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_discard_pending(NULL), TOPOPLAN_INVALID_ARGUMENT);
}

int main(int argc, char** argv) {
  char error[512];
  pending_town t;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_def cdef;
  topoplan_crowd_chain chain;

  if (argc < 2) {
    fprintf(stderr, "usage: test_capi_crowd_pending REPO_DIR\n");
    return 2;
  }
  if (!town_open(&t.f, argv[1], "domains/goap/castle-guard.toml", NPCS, 7)) return 1;
  t.b = t.f.batch;
  t.max_len = topoplan_crowd_planner_max_plan_length(t.f.planner);
  CHECK(t.max_len <= 64);
  t.words = topoplan_crowd_planner_words(t.f.planner);
  t.vars = topoplan_task_num_variables(t.f.task);
  change_some_facts(&t);
  plan_reference(&t);
  prove_unsolvable(&t);

  topoplan_crowd_def_init(&cdef);
  topoplan_crowd_chain_init(&chain);
  chain.fallback_budget = 1;
  CHECK_STATUS(
      topoplan_crowd_create_with_chain(t.f.planner, &cdef, &chain, &crowd, error, sizeof error),
      TOPOPLAN_OK);
  if (crowd == NULL) return 1;
  frames_answer_pending(crowd, &t);
  discard_pending(crowd, &t);
  other_count_waits_for_discard(crowd, &t);
  bad_arguments(crowd);

  free(t.init);
  topoplan_crowd_free(crowd);
  town_close(&t.f);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
