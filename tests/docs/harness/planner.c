/* Harness of the prepared-planner fragment of docs/c-api.md: the Horse Breeder task and its
 * first instance's init, goal and class (`task`, `init`, `goal`, `n`, `npc_class`) before the fragment
 * (tests/docs/check_snippets.py puts it in place of the marker line below); the fragment must
 * find a plan, which the validator then replays. */
#include <stdio.h>
#include <topoplan/c/topoplan_c.h>

int main(void) {
  char error[256];
  topoplan_task* task = NULL;
  topoplan_problem problem;
  if (topoplan_task_load("domains/horse-breeder.toml", TOPOPLAN_FORMAT_AUTO, &task, error,
                         sizeof error) != TOPOPLAN_OK ||
      topoplan_task_instance(task, 0, &problem) != TOPOPLAN_OK) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  const int32_t* init = problem.init;
  const int32_t* goal = problem.goal;
  const int32_t n = problem.num_variables;
  const int32_t npc_class = problem.npc_class;
  topoplan_status planned = TOPOPLAN_INTERNAL_ERROR;
  int32_t plan[64];
  int32_t plan_length = 0;
  {
    SNIPPET
    planned = s;
    for (int32_t i = 0; i < length && i < 64; ++i) plan[i] = actions[i];
    plan_length = length;
  }
  int32_t failed_step = 0;
  int64_t cost = 0;
  const int ok = planned == TOPOPLAN_OK &&
                 topoplan_validate(task, &problem, plan, plan_length, &failed_step, &cost, error,
                                   sizeof error) == TOPOPLAN_OK;
  topoplan_task_free(task);
  return ok ? 0 : 1;
}
