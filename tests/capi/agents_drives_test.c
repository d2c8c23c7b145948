/* Drives from C99: a villager's goal is the one its drives score highest; a drive written by the
 * engine past the margin replans for the better goal; bad ids and values are refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "village.h"

static int has_event(const topoplan_agent_event* e, int64_t n, int kind, int detail) {
  int64_t k;
  for (k = 0; k < n; ++k)
    if (e[k].kind == kind && (detail < 0 || e[k].detail == detail)) return 1;
  return 0;
}

int main(void) {
  char error[256];
  village v;
  topoplan_agents* agents = NULL;
  topoplan_agents_def def;
  topoplan_agent_event events[16];
  topoplan_agents_stats stats;
  int32_t state[3] = {0, 0, 0};
  int32_t bread_goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  int32_t door_goal[3] = {1, TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED};
  int32_t bread = -1, door = -1, hunger = -1, curiosity = -1, list = -1, villager = -1, id = -1;
  topoplan_drive_goal entries[2];
  topoplan_agent_drive set[2];

  if (!village_open(&v)) return 1;
  topoplan_agents_def_default(&def);
  def.capacity = 4;
  def.decision_period = 1000;
  agents = village_world(v.planner, &def);
  if (agents == NULL) return 1;
  CHECK_STATUS(
      topoplan_agents_add_goal(agents, "bread", bread_goal, 3, &bread, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_goal(agents, "door", door_goal, 3, &door, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_agents_add_drive(agents, "hunger", 0, 100, -1, 50, &hunger, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_drive(agents, "curiosity", 0, 100, 0, 50, &curiosity, error,
                                         sizeof error),
               TOPOPLAN_OK);
  CHECK(topoplan_agents_num_drives(agents) == 2);
  CHECK_STATUS(topoplan_agents_add_drive(agents, "bad", 5, 5, 0, 0, &id, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "min < max") != NULL);

  memset(entries, 0, sizeof entries);
  entries[0].goal = bread;
  entries[0].drive = hunger;
  entries[0].curve = TOPOPLAN_CURVE_LINEAR;
  entries[0].slope = 1;
  entries[0].exponent = 1;
  entries[0].weight = 1;
  entries[1] = entries[0];
  entries[1].goal = door;
  entries[1].drive = curiosity;
  entries[1].curve = 9;
  CHECK_STATUS(topoplan_agents_add_drive_list(agents, entries, 2, 0.05, &list, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "entries[1].curve") != NULL);
  entries[1].curve = TOPOPLAN_CURVE_LINEAR;
  CHECK_STATUS(topoplan_agents_add_drive_list(agents, entries, 2, -1, &list, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "margin") != NULL);
  CHECK_STATUS(topoplan_agents_add_drive_list(agents, entries, 2, 0.05, &list, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_class_goals(agents, 0, list), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_action_drive(agents, 3, hunger, 50), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_action_drive(agents, 4, hunger, 50), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_action_drive(agents, 3, 2, 50), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_add(agents, 0, state, 3, &villager, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_drive(agents, "late", 0, 1, 0, 0, &id, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "before the first agent") != NULL);

  /* Hungry (gain 0.9) more than curious (0.4): the bread. */
  set[0].agent = villager;
  set[0].drive = hunger;
  set[0].value = 10;
  set[1].agent = villager;
  set[1].drive = curiosity;
  set[1].value = 60;
  CHECK_STATUS(topoplan_agents_set_drives(agents, set, 2), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_goal(agents, villager) == bread);
  CHECK(fabs(topoplan_agents_goal_score(agents, villager) - 0.9) < 1e-12);
  CHECK(topoplan_agents_drive(agents, villager, hunger) == 10);
  /* Hunger decays at 1 per second. */
  CHECK_STATUS(topoplan_agents_update(agents, 2.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_drive(agents, villager, hunger) == 8);
  /* Curiosity 0.92: within the margin of 0.9 + 0.05; 1.0: beyond it, a better goal. */
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, curiosity, 8), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(stats.examined == 1 && stats.planned == 0);
  CHECK(topoplan_agents_goal(agents, villager) == bread);
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, curiosity, 0), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(stats.replans[TOPOPLAN_REPLAN_BETTER_GOAL] == 1);
  CHECK(topoplan_agents_goal(agents, villager) == door);
  CHECK(has_event(events, stats.events, TOPOPLAN_AGENT_PLANNED, TOPOPLAN_REPLAN_BETTER_GOAL));
  CHECK(topoplan_agents_last_replan(agents, villager) == TOPOPLAN_REPLAN_BETTER_GOAL);

  /* Bad ids and values: refused, nothing applied. */
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, 2, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_drive(agents, 7, hunger, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, hunger, NAN), TOPOPLAN_INVALID_ARGUMENT);
  set[0].value = 99;
  set[1].agent = 7;
  CHECK_STATUS(topoplan_agents_set_drives(agents, set, 2), TOPOPLAN_INVALID_ARGUMENT);
  CHECK(topoplan_agents_drive(agents, villager, hunger) == 8);
  CHECK(isnan(topoplan_agents_drive(agents, villager, 2)));
  CHECK(isnan(topoplan_agents_goal_score(agents, 7)));

  topoplan_agents_free(agents);
  village_close(&v);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
