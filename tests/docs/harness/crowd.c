/* Harness of the crowd fragments of docs/c-api.md: a Western crowd with a plan cache, its batch
 * and its output, set up before the fragment (tests/docs/check_snippets.py puts it in place of
 * the marker line below); afterwards the crowd must serve every NPC. */
#include <stdio.h>
#include <stdlib.h>
#include <topoplan/c/topoplan_c.h>

int main(void) {
  char error[256];
  topoplan_task* task = NULL;
  topoplan_crowd_planner* planner = NULL;
  topoplan_plan_cache* cache = NULL;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_def def;
  topoplan_crowd_def_init(&def);
  if (topoplan_task_load("domains/western.toml", TOPOPLAN_FORMAT_AUTO, &task, error,
                         sizeof error) != TOPOPLAN_OK ||
      topoplan_crowd_planner_create(task, &planner, error, sizeof error) != TOPOPLAN_OK ||
      topoplan_plan_cache_create(planner, 4096, 64, &cache, error, sizeof error) != TOPOPLAN_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  def.cache = cache;
  enum { N = 1000 };
  const int32_t words = topoplan_crowd_planner_words(planner);
  uint16_t npc_class[N];
  uint64_t* init = malloc((size_t)(N * words) * sizeof *init);
  uint64_t* goal = malloc((size_t)(N * words) * sizeof *goal);
  for (int64_t i = 0; i < N; ++i) {
    topoplan_problem p;
    topoplan_task_instance(task, (int32_t)(i % topoplan_task_num_instances(task)), &p);
    npc_class[i] = (uint16_t)p.npc_class;
    topoplan_crowd_pack_state(planner, p.init, p.num_variables, init + i * words);
    topoplan_crowd_pack_goal(planner, p.goal, p.num_variables, goal + i * words);
  }
  topoplan_crowd_batch batch = {N, npc_class, init, goal};
  const int64_t capacity = N * topoplan_crowd_planner_max_plan_length(planner);
  int32_t* actions = malloc((size_t)capacity * sizeof *actions);
  uint32_t offset[N];
  uint16_t length[N], status[N];
  topoplan_crowd_output out = {actions, capacity, offset, length, status};
  topoplan_crowd_stats stats = {0};
#ifndef SNIPPET_CREATES_CROWD
  if (topoplan_crowd_create(planner, &def, &crowd, error, sizeof error) != TOPOPLAN_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
#endif
  {
    SNIPPET
  }
  if (crowd == NULL) {
    fprintf(stderr, "no crowd: %s\n", error);
    return 1;
  }
  if (topoplan_crowd_plan(crowd, &batch, &out, &stats) != TOPOPLAN_OK || stats.served != N ||
      !stats.complete) {
    fprintf(stderr, "the crowd did not serve every NPC\n");
    return 1;
  }
  topoplan_crowd_free(crowd);
  topoplan_plan_cache_free(cache);
  topoplan_crowd_planner_free(planner);
  topoplan_task_free(task);
  free(init);
  free(goal);
  free(actions);
  return 0;
}
