/* Actions that run to their end, from C99: a better goal aborts the running walk at once unless
 * the walk runs to its end (then the goal waits for it); bad ids and flags are refused. */
#include <stdio.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "village.h"

/* A villager goes for the bread (walk to the door first) while the door is closed; "closed" is a
 * goal of higher priority. Someone opens the door during the walk: the returned count says
 * whether the walk was aborted for the better goal. */
static int run(int runs_to_end) {
  char error[256];
  village v;
  topoplan_agents* agents = NULL;
  topoplan_agents_def def;
  topoplan_agent_event events[16];
  topoplan_agents_stats stats;
  int32_t state[3] = {0, 0, 0};
  int32_t closed_goal[3] = {TOPOPLAN_UNDEFINED, 0, TOPOPLAN_UNDEFINED};
  int32_t bread_goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  int32_t goals[2];
  int32_t closed = -1, bread = -1, list = -1, villager = -1;
  int aborted = 0;

  if (!village_open(&v)) return -1;
  topoplan_agents_def_default(&def);
  def.capacity = 2;
  def.decision_period = 1000;
  agents = village_world(v.planner, &def);
  if (agents == NULL) {
    village_close(&v);
    return -1;
  }
  CHECK_STATUS(
      topoplan_agents_add_goal(agents, "closed", closed_goal, 3, &closed, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_agents_add_goal(agents, "bread", bread_goal, 3, &bread, error, sizeof error),
      TOPOPLAN_OK);
  goals[0] = closed;
  goals[1] = bread;
  CHECK_STATUS(topoplan_agents_add_goal_list(agents, goals, 2, &list, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_class_goals(agents, 0, list), TOPOPLAN_OK);

  CHECK(topoplan_agents_action_runs_to_end(agents, 0) == 0);
  CHECK(topoplan_agents_action_runs_to_end(agents, 4) == -1);
  CHECK(topoplan_agents_action_runs_to_end(agents, -1) == -1);
  CHECK(topoplan_agents_action_runs_to_end(NULL, 0) == -1);
  CHECK_STATUS(topoplan_agents_set_action_runs_to_end(agents, 4, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_action_runs_to_end(agents, 0, 2), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_action_runs_to_end(NULL, 0, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_action_runs_to_end(agents, 0, runs_to_end), TOPOPLAN_OK);
  CHECK(topoplan_agents_action_runs_to_end(agents, 0) == runs_to_end);

  CHECK_STATUS(topoplan_agents_add(agents, 0, state, 3, &villager, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_goal(agents, villager) == bread);
  CHECK(topoplan_agents_running_action(agents, villager) == 0); /* WalkToDoor */
  /* The door opens during the walk: "closed" no longer holds. */
  CHECK_STATUS(topoplan_agents_set_fact(agents, villager, 1, 1), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  aborted =
      village_has_event(events, stats.events, TOPOPLAN_AGENT_ABORT, TOPOPLAN_REPLAN_BETTER_GOAL);
  if (runs_to_end) {
    /* The walk goes on and the goal waits for its end; then the better goal is taken. */
    CHECK(topoplan_agents_goal(agents, villager) == bread);
    CHECK(topoplan_agents_running_action(agents, villager) == 0);
    CHECK_STATUS(topoplan_agents_action_finished(agents, villager), TOPOPLAN_OK);
    CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
    CHECK(topoplan_agents_goal(agents, villager) == closed);
  } else {
    CHECK(topoplan_agents_goal(agents, villager) == closed);
  }
  topoplan_agents_free(agents);
  village_close(&v);
  return aborted;
}

int main(void) {
  CHECK(run(0) == 1);
  CHECK(run(1) == 0);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
