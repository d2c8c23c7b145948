/* Drives from C99: a villager's goal is the one its drives score highest; a drive written by the
 * engine past the margin replans for the better goal; bad ids and values are refused. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "village.h"

/* The village world of this test and the ids its steps share. */
typedef struct drives_world {
  village v;
  topoplan_agents* agents;
  int32_t bread, door, hunger, curiosity, villager;
} drives_world;

/* Two goals (bread, door), two drives (hunger decays at 1 per second, curiosity stays) and the
 * drive list that scores them; bad drives, lists and action drives are refused, with the words
 * that name what is wrong. Adds the villager last. */
static void add_goals_and_drives(drives_world* w) {
  char error[256];
  int32_t state[3] = {0, 0, 0};
  int32_t bread_goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  int32_t door_goal[3] = {1, TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED};
  int32_t list = -1, id = -1;
  topoplan_drive_goal entries[2];
  topoplan_agents* agents = w->agents;

  CHECK_STATUS(
      topoplan_agents_add_goal(agents, "bread", bread_goal, 3, &w->bread, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_agents_add_goal(agents, "door", door_goal, 3, &w->door, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_agents_add_drive(agents, "hunger", 0, 100, -1, 50, &w->hunger, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_drive(agents, "curiosity", 0, 100, 0, 50, &w->curiosity, error,
                                         sizeof error),
               TOPOPLAN_OK);
  CHECK(topoplan_agents_num_drives(agents) == 2);
  CHECK_STATUS(topoplan_agents_add_drive(agents, "bad", 5, 5, 0, 0, &id, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "min < max") != NULL);

  memset(entries, 0, sizeof entries);
  entries[0].goal = w->bread;
  entries[0].drive = w->hunger;
  entries[0].curve = TOPOPLAN_CURVE_LINEAR;
  entries[0].slope = 1;
  entries[0].exponent = 1;
  entries[0].weight = 1;
  entries[1] = entries[0];
  entries[1].goal = w->door;
  entries[1].drive = w->curiosity;
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
  CHECK_STATUS(topoplan_agents_set_action_drive(agents, 3, w->hunger, 50), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_action_drive(agents, 4, w->hunger, 50),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_action_drive(agents, 3, 2, 50), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_add(agents, 0, state, 3, &w->villager, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_drive(agents, "late", 0, 1, 0, 0, &id, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "before the first agent") != NULL);
}

/* The goal follows the drives: the best score wins, a better score within the margin does not
 * replan, one beyond it does. */
static void goal_follows_drives(const drives_world* w) {
  topoplan_agent_event events[16];
  topoplan_agents_stats stats;
  topoplan_agent_drive set[2];
  topoplan_agents* agents = w->agents;
  const int32_t villager = w->villager;

  /* Hungry (gain 0.9) more than curious (0.4): the bread. */
  set[0].agent = villager;
  set[0].drive = w->hunger;
  set[0].value = 10;
  set[1].agent = villager;
  set[1].drive = w->curiosity;
  set[1].value = 60;
  CHECK_STATUS(topoplan_agents_set_drives(agents, set, 2), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_goal(agents, villager) == w->bread);
  CHECK(fabs(topoplan_agents_goal_score(agents, villager) - 0.9) < 1e-12);
  CHECK(topoplan_agents_drive(agents, villager, w->hunger) == 10);
  /* Hunger decays at 1 per second. */
  CHECK_STATUS(topoplan_agents_update(agents, 2.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_drive(agents, villager, w->hunger) == 8);
  /* Curiosity 0.92: within the margin of 0.9 + 0.05; 1.0: beyond it, a better goal. */
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, w->curiosity, 8), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(stats.examined == 1 && stats.planned == 0);
  CHECK(topoplan_agents_goal(agents, villager) == w->bread);
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, w->curiosity, 0), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, &stats), TOPOPLAN_OK);
  CHECK(stats.replans[TOPOPLAN_REPLAN_BETTER_GOAL] == 1);
  CHECK(topoplan_agents_goal(agents, villager) == w->door);
  CHECK(
      village_has_event(events, stats.events, TOPOPLAN_AGENT_PLANNED, TOPOPLAN_REPLAN_BETTER_GOAL));
  CHECK(topoplan_agents_last_replan(agents, villager) == TOPOPLAN_REPLAN_BETTER_GOAL);
}

/* Bad ids and values: refused, nothing applied (hunger stays at 8). */
static void bad_ids_are_refused(const drives_world* w) {
  topoplan_agent_drive set[2];
  topoplan_agents* agents = w->agents;
  const int32_t villager = w->villager;

  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, 2, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_drive(agents, 7, w->hunger, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_drive(agents, villager, w->hunger, NAN),
               TOPOPLAN_INVALID_ARGUMENT);
  set[0].agent = villager;
  set[0].drive = w->hunger;
  set[0].value = 99;
  set[1].agent = 7;
  set[1].drive = w->curiosity;
  set[1].value = 60;
  CHECK_STATUS(topoplan_agents_set_drives(agents, set, 2), TOPOPLAN_INVALID_ARGUMENT);
  CHECK(topoplan_agents_drive(agents, villager, w->hunger) == 8);
  CHECK(isnan(topoplan_agents_drive(agents, villager, 2)));
  CHECK(isnan(topoplan_agents_goal_score(agents, 7)));
}

int main(void) {
  drives_world w = {{NULL, NULL}, NULL, -1, -1, -1, -1, -1};
  topoplan_agents_def def;

  if (!village_open(&w.v)) return 1;
  topoplan_agents_def_default(&def);
  def.capacity = 4;
  def.decision_period = 1000;
  w.agents = village_world(w.v.planner, &def);
  if (w.agents == NULL) return 1;
  add_goals_and_drives(&w);
  goal_follows_drives(&w);
  bad_ids_are_refused(&w);
  topoplan_agents_free(w.agents);
  village_close(&w.v);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
