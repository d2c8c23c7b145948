/* A prepared planner by name from C99 (topoplan_planner_*): "auto" on a domain ℙ takes (the
 * Horse Breeder) and on real GOAP domains ℙ refuses (A* answers), every plan checked by
 * topoplan_validate and its cost compared with the exact search's; a short buffer, per-call
 * limits, bad arguments and unknown names give their statuses.
 * Usage: test_capi_planner SOURCE_DIR. Exit 0 when every check passes. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "topoplan/c/topoplan_c.h"

#include "check.h"

/* Every instance of the file through a prepared "auto": valid, optimal (= exact's cost).
 * Returns how many instances A* answered. */
static int check_file(const char* dir, const char* rel) {
  topoplan_task* task = NULL;
  topoplan_planner* planner = NULL;
  char error[512];
  int32_t actions[256], exact_actions[256];
  int32_t i, len = -1, failed = 0;
  int64_t cost = -1, exact_cost = -2;
  int by_astar = 0;
  topoplan_status status, exact;
  topoplan_problem problem;
  topoplan_plan_stats stats;
  CHECK_STATUS(
      topoplan_task_load(source_path(dir, rel), TOPOPLAN_FORMAT_AUTO, &task, error, sizeof error),
      TOPOPLAN_OK);
  if (task == NULL) return 0;
  for (i = 0; i < topoplan_task_num_instances(task); ++i) {
    CHECK_STATUS(topoplan_task_instance(task, i, &problem), TOPOPLAN_OK);
    CHECK_STATUS(
        topoplan_planner_create(task, "auto", problem.npc_class, &planner, error, sizeof error),
        TOPOPLAN_OK);
    if (planner == NULL) continue;
    status = topoplan_planner_plan(planner, problem.init, problem.goal, problem.num_variables,
                                   actions, 256, &len);
    exact = topoplan_plan(task, "exact", &problem, NULL, exact_actions, 256, &stats, error,
                          sizeof error);
    CHECK(status == exact); /* the same answer: a plan, or a proof that none exists */
    CHECK(exact == TOPOPLAN_OK || exact == TOPOPLAN_UNSOLVABLE);
    CHECK(strcmp(topoplan_planner_answered_by(planner), "topo") == 0 ||
          strcmp(topoplan_planner_answered_by(planner), "astar") == 0);
    if (status == TOPOPLAN_OK && exact == TOPOPLAN_OK) {
      by_astar += strcmp(topoplan_planner_answered_by(planner), "astar") == 0;
      CHECK_STATUS(
          topoplan_validate(task, &problem, actions, len, &failed, &cost, error, sizeof error),
          TOPOPLAN_OK);
      CHECK_STATUS(topoplan_validate(task, &problem, exact_actions, stats.length, &failed,
                                     &exact_cost, error, sizeof error),
                   TOPOPLAN_OK);
      CHECK(cost == exact_cost);
      if (cost != exact_cost) fprintf(stderr, "%s instance %d\n", rel, (int)i);
    }
    topoplan_planner_free(planner);
    planner = NULL;
  }
  topoplan_task_free(task);
  return by_astar;
}

static void test_errors(const char* dir) {
  topoplan_task* task = NULL;
  topoplan_planner* planner = NULL;
  char error[512], text[512];
  int32_t actions[64], len = -1;
  topoplan_problem problem;
  CHECK_STATUS(topoplan_task_load(source_path(dir, "domains/real/gpgoap-soldier.toml"),
                                  TOPOPLAN_FORMAT_AUTO, &task, error, sizeof error),
               TOPOPLAN_OK);
  if (task == NULL) return;
  CHECK_STATUS(topoplan_task_instance(task, 0, &problem), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_planner_create(task, "no-such-planner", -1, &planner, error, sizeof error),
               TOPOPLAN_NOT_FOUND);
  CHECK(planner == NULL && strstr(error, "no-such-planner") != NULL);
  CHECK_STATUS(
      topoplan_planner_create(task, "topo", problem.npc_class, &planner, error, sizeof error),
      TOPOPLAN_UNSUPPORTED);
  CHECK(planner == NULL && strlen(error) > 0);
  CHECK_STATUS(topoplan_planner_create(NULL, "auto", -1, &planner, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_planner_create(task, NULL, -1, &planner, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_planner_create(task, "auto", 99, &planner, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(
      topoplan_planner_create(task, "auto", problem.npc_class, &planner, error, sizeof error),
      TOPOPLAN_OK);
  if (planner == NULL) return;
  CHECK(topoplan_planner_max_plan_length(planner) > 0);
  CHECK(topoplan_planner_max_plan_length(NULL) == -1);
  CHECK_STATUS(topoplan_planner_plan(planner, problem.init, problem.goal, problem.num_variables,
                                     actions, 0, &len),
               TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK(len > 0);
  CHECK_STATUS(topoplan_planner_plan(planner, problem.init, problem.goal, problem.num_variables + 1,
                                     actions, 64, &len),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(
      topoplan_planner_plan(planner, NULL, problem.goal, problem.num_variables, actions, 64, &len),
      TOPOPLAN_INVALID_ARGUMENT);
  /* Per-call limits: no expansion allowed, then the default budget. */
  CHECK_STATUS(
      topoplan_planner_plan_within(planner, problem.init, problem.goal, problem.num_variables, 0,
                                   1 << 30, 0.0, actions, 64, &len),
      TOPOPLAN_LIMIT_REACHED);
  CHECK_STATUS(topoplan_planner_explain(planner, text, sizeof text), TOPOPLAN_OK);
  CHECK(strstr(text, "expansion limit") != NULL);
  if (strstr(text, "expansion limit") == NULL) fprintf(stderr, "explain: %s\n", text);
  CHECK_STATUS(
      topoplan_planner_plan_within(planner, problem.init, problem.goal, problem.num_variables, -1,
                                   1 << 30, 0.0, actions, 64, &len),
      TOPOPLAN_INVALID_ARGUMENT);
  /* A time limit outside the limits table's [0, 1e9]: refused, not an unbounded search. */
  CHECK_STATUS(
      topoplan_planner_plan_within(planner, problem.init, problem.goal, problem.num_variables,
                                   1 << 20, 1 << 30, (double)INFINITY, actions, 64, &len),
      TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(
      topoplan_planner_plan_within(planner, problem.init, problem.goal, problem.num_variables,
                                   1 << 20, 1 << 30, 2e9, actions, 64, &len),
      TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(
      topoplan_planner_plan_within(planner, problem.init, problem.goal, problem.num_variables,
                                   1 << 20, 1 << 30, (double)NAN, actions, 64, &len),
      TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_planner_plan(planner, problem.init, problem.goal, problem.num_variables,
                                     actions, 64, &len),
               TOPOPLAN_OK);
  CHECK(strcmp(topoplan_planner_answered_by(planner), "astar") == 0);
  topoplan_planner_free(planner);
  topoplan_planner_free(NULL);
  topoplan_task_free(task);
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  int by_astar = 0;
  check_file(dir, "domains/horse-breeder.toml");
  by_astar += check_file(dir, "domains/real/gpgoap-soldier.toml");
  by_astar += check_file(dir, "domains/real/regoap-swordsmith.toml");
  by_astar += check_file(dir, "domains/real/dogoap-miner.toml");
  CHECK(by_astar > 0);
  test_errors(dir);
  return checks_done();
}
