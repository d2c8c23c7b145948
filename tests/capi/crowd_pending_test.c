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

int main(int argc, char** argv) {
  char error[512];
  town_fixture f;
  topoplan_task* task;
  topoplan_crowd_planner* planner;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_def cdef;
  topoplan_crowd_chain chain;
  topoplan_crowd_batch b;
  topoplan_crowd_output out;
  topoplan_crowd_stats stats;
  int64_t pending[NPCS], count = -1, k, i, cursor = 0, unsolvable = 0, proved = 0;
  int32_t max_len, words, vars, frames = 0;
  int32_t *state, *goal, plan[256];
  uint64_t* init;
  topoplan_problem p;
  topoplan_plan_stats ps;

  if (argc < 2) {
    fprintf(stderr, "usage: test_capi_crowd_pending REPO_DIR\n");
    return 2;
  }
  if (!town_open(&f, argv[1], "domains/goap/castle-guard.toml", NPCS, 7)) return 1;
  task = f.task;
  planner = f.planner;
  b = f.batch;
  max_len = topoplan_crowd_planner_max_plan_length(planner);
  CHECK(max_len <= 64);
  words = topoplan_crowd_planner_words(planner);
  vars = topoplan_task_num_variables(task);
  state = malloc(sizeof(int32_t) * (size_t)vars);
  goal = malloc(sizeof(int32_t) * (size_t)vars);
  /* The town's NPCs are solvable: one in three gets a changed fact (some become unsolvable). */
  init = malloc(sizeof(uint64_t) * (size_t)(NPCS * words));
  memcpy(init, b.init, sizeof(uint64_t) * (size_t)(NPCS * words));
  for (i = 0; i < NPCS; i += 3) {
    const int32_t v = (int32_t)(i / 3 % vars);
    CHECK_STATUS(topoplan_crowd_unpack_state(planner, init + i * words, state, vars), TOPOPLAN_OK);
    state[v] = (int32_t)(i / 7 % topoplan_task_domain_size(task, v));
    CHECK_STATUS(topoplan_crowd_pack_state(planner, state, vars, init + i * words), TOPOPLAN_OK);
  }
  b.init = init;

  /* The reference: one plan call; its unsolvable counter is its UNSOLVABLE words. */
  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create(planner, &cdef, &crowd, error, sizeof error), TOPOPLAN_OK);
  out = output_of(&reference, max_len);
  CHECK_STATUS(topoplan_crowd_plan(crowd, &b, &out, &stats), TOPOPLAN_OK);
  CHECK(stats.unsolvable == count_bits(&reference, TOPOPLAN_CROWD_UNSOLVABLE));
  CHECK(stats.solved + stats.unsolvable + stats.no_plan + stats.buffer_too_small == NPCS);
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 0, &count), TOPOPLAN_OK);
  CHECK(count == 0);
  topoplan_crowd_free(crowd);
  crowd = NULL;
  unsolvable = stats.unsolvable;
  CHECK(unsolvable > 0);

  /* Every unsolvable answer is proved: A* (complete) finds no plan either. */
  for (i = 0; i < NPCS && proved < 25; ++i) {
    if (!(reference.status[i] & TOPOPLAN_CROWD_UNSOLVABLE)) continue;
    CHECK_STATUS(topoplan_crowd_unpack_state(planner, b.init + i * words, state, vars),
                 TOPOPLAN_OK);
    CHECK_STATUS(topoplan_crowd_unpack_goal(planner, b.goal + i * words, goal, vars), TOPOPLAN_OK);
    p.init = state;
    p.goal = goal;
    p.num_variables = vars;
    p.npc_class = b.npc_class[i];
    CHECK_STATUS(topoplan_plan(task, "astar", &p, NULL, plan, 256, &ps, error, sizeof error),
                 TOPOPLAN_UNSOLVABLE);
    ++proved;
  }
  CHECK(proved > 0);

  /* Frames with a fallback budget of one expansion: the fallback's NPCs go pending. */
  topoplan_crowd_chain_init(&chain);
  chain.fallback_budget = 1;
  CHECK_STATUS(
      topoplan_crowd_create_with_chain(planner, &cdef, &chain, &crowd, error, sizeof error),
      TOPOPLAN_OK);
  if (crowd == NULL) return 1;
  out = output_of(&framed, max_len);
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
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
  /* The next frames answer them, as the one plan call did. */
  while (!stats.complete && ++frames < 1000) {
    CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
    unsolvable += stats.unsolvable;
  }
  CHECK(stats.complete && stats.pending == 0);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, NPCS, &count), TOPOPLAN_OK);
  CHECK(count == 0);
  CHECK(memcmp(framed.status, reference.status, sizeof framed.status) == 0);
  CHECK(memcmp(framed.length, reference.length, sizeof framed.length) == 0);
  CHECK(unsolvable == count_bits(&framed, TOPOPLAN_CROWD_UNSOLVABLE));

  /* Discarded: the NPCs keep PENDING in their output; a cursor at 0 starts a new pass at once. */
  cursor = 0;
  memset(&framed, 0, sizeof framed);
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
  CHECK(stats.pending > 0);
  count = stats.pending;
  CHECK_STATUS(topoplan_crowd_discard_pending(crowd), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 0, &count), TOPOPLAN_OK);
  CHECK(count == 0);
  CHECK(count_bits(&framed, TOPOPLAN_CROWD_PENDING) == stats.pending);
  cursor = 0;
  CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &b, &out, &cursor, 60.0, &stats), TOPOPLAN_OK);
  CHECK(cursor == NPCS && stats.resumed == 0);

  /* Pending NPCs are indices into their pass's batch: a batch of another count is refused (it
   * would be read at their indices) until they are discarded. */
  CHECK(stats.pending > 0);
  {
    topoplan_crowd_batch one = b;
    int64_t first = 0;
    one.count = 1;
    CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &one, &out, &first, 60.0, &stats),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK(first == 0);
    CHECK_STATUS(topoplan_crowd_discard_pending(crowd), TOPOPLAN_OK);
    CHECK_STATUS(topoplan_crowd_plan_frame(crowd, &one, &out, &first, 60.0, &stats), TOPOPLAN_OK);
    CHECK(first == 1);
  }

  /* Bad arguments. */
  CHECK_STATUS(topoplan_crowd_pending(NULL, pending, NPCS, &count), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, NPCS, NULL), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_pending(crowd, NULL, 4, &count), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_pending(crowd, pending, -1, &count), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_discard_pending(NULL), TOPOPLAN_INVALID_ARGUMENT);

  free(state);
  free(goal);
  free(init);
  topoplan_crowd_free(crowd);
  town_close(&f);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
