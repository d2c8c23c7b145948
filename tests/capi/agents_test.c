/* The agent part of the C API from C99: a villager plans, the door closes on its way, it replans;
 * the engine's small calls name the failed condition. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "village.h"

static int count_kind(const topoplan_agent_event* e, int64_t n, int kind) {
  int c = 0;
  int64_t k;
  for (k = 0; k < n; ++k)
    if (e[k].kind == kind) ++c;
  return c;
}

/* 200 villagers on `threads` threads with the examination cut into parts of `part` agents (0: the
 * default): every running action finishes the frame after it starts, and in frame 3 the door
 * closes on every third villager. Writes a hash of the events; returns the number of events. */
static int64_t village_run(const topoplan_crowd_planner* planner, int32_t threads, int32_t part,
                           uint64_t* hash) {
  static topoplan_agent_event ev[1024];
  char error[256];
  topoplan_agents_def def;
  topoplan_agents* agents = NULL;
  topoplan_agents_stats stats;
  int32_t state[3] = {0, 0, 0};
  int32_t goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  int32_t fed = -1, list = -1, id = -1, i, frame;
  int64_t total = 0, k;
  topoplan_agents_def_default(&def);
  def.capacity = 200;
  def.threads = threads;
  def.min_agents_per_part = part;
  *hash = 1469598103934665603ull;
  agents = village_world(planner, &def);
  if (agents == NULL) return -1;
  CHECK_STATUS(topoplan_agents_add_goal(agents, "bread", goal, 3, &fed, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_goal_list(agents, &fed, 1, &list, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_class_goals(agents, 0, list), TOPOPLAN_OK);
  for (i = 0; i < 200; ++i)
    CHECK_STATUS(topoplan_agents_add(agents, 0, state, 3, &id, error, sizeof error), TOPOPLAN_OK);
  for (frame = 0; frame < 8; ++frame) {
    for (i = 0; i < 200; ++i) {
      if (topoplan_agents_running_action(agents, i) >= 0)
        CHECK_STATUS(topoplan_agents_action_finished(agents, i), TOPOPLAN_OK);
      if (frame == 3 && i % 3 == 0)
        CHECK_STATUS(topoplan_agents_set_fact(agents, i, 1, 0), TOPOPLAN_OK);
    }
    CHECK_STATUS(topoplan_agents_update(agents, 0.016, ev, 1024, &stats), TOPOPLAN_OK);
    CHECK(stats.events_dropped == 0);
    for (k = 0; k < stats.events; ++k) {
      const uint64_t x[6] = {(uint64_t)(uint32_t)ev[k].agent,
                             ev[k].kind,
                             ev[k].detail,
                             ev[k].step,
                             (uint64_t)(uint32_t)ev[k].action,
                             (uint64_t)(uint32_t)ev[k].goal};
      int j;
      for (j = 0; j < 6; ++j) *hash = (*hash ^ x[j]) * 1099511628211ull;
    }
    total += stats.events;
  }
  topoplan_agents_free(agents);
  return total;
}

/* A goal no plan reaches (nothing puts bread back on the shelf): the NO_PLAN event carries the
 * planner's proof as a topoplan_status, and explain names the variable at fault. */
static void no_plan_is_explained(topoplan_agents* agents) {
  char error[256];
  char text[256];
  size_t size = 0;
  topoplan_agent_event events[16];
  topoplan_agents_stats stats;
  const int32_t held[3] = {0, 0, 1};
  const int32_t shelf[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 0};
  int32_t back = -1, back_list = -1, keeper = -1;
  int64_t k = 0;
  CHECK_STATUS(topoplan_agents_add_goal(agents, "shelf", shelf, 3, &back, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_goal_list(agents, &back, 1, &back_list, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add(agents, 0, held, 3, &keeper, error, sizeof error), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_goal_list(agents, keeper, back_list), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.016, events, 16, &stats), TOPOPLAN_OK);
  while (k < stats.events &&
         !(events[k].agent == keeper && events[k].kind == TOPOPLAN_AGENT_NO_PLAN))
    ++k;
  CHECK(k < stats.events);
  if (k < stats.events) {
    CHECK(events[k].detail == TOPOPLAN_UNSOLVABLE);
    CHECK_STATUS(topoplan_agents_explain(agents, &events[k], text, sizeof text, &size),
                 TOPOPLAN_OK);
    CHECK(strstr(text, "bread") != NULL);
    CHECK_STATUS(topoplan_agents_describe(agents, &events[k], text, sizeof text, &size),
                 TOPOPLAN_OK);
    CHECK(strstr(text, "no plan for 'shelf' (unsolvable") != NULL);
  }
  CHECK_STATUS(topoplan_agents_explain(agents, NULL, text, sizeof text, &size),
               TOPOPLAN_INVALID_ARGUMENT);
}

/* The engines' small calls: whether an action applies (and the condition that does not hold, in
 * words), applying it, whether a goal holds. */
static void small_calls(const topoplan_task* task) {
  char text[256];
  size_t size = 0;
  topoplan_condition failed;
  int32_t state[3] = {0, 0, 0};
  int32_t goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  CHECK_STATUS(topoplan_action_applies(task, 1, state, 3, &failed), TOPOPLAN_INVALID_PLAN);
  CHECK(failed.kind == TOPOPLAN_CONDITION_PREVAIL && failed.var == 0 && failed.required == 1);
  CHECK_STATUS(topoplan_condition_describe(task, &failed, text, sizeof text, &size), TOPOPLAN_OK);
  CHECK(strcmp(text, "prevail-condition 'pos=door' does not hold (it is 'pos=home')") == 0);
  CHECK_STATUS(topoplan_action_applies(task, 0, state, 3, &failed), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_action_apply(task, 0, state, 3), TOPOPLAN_OK);
  CHECK(state[0] == 1);
  CHECK(topoplan_goal_holds(task, state, goal, 3) == 0);
  CHECK_STATUS(topoplan_action_applies(task, 9, state, 3, &failed), TOPOPLAN_INVALID_ARGUMENT);
}

/* A world of one villager who wants the bread: it plans and starts the walk; the engine walks it
 * to the door and opens it; it starts to walk in; the door closes: a broken condition, a replan. */
static void one_villager(topoplan_agents* agents) {
  int32_t state[3] = {0, 0, 0};
  int32_t goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  int32_t fed = -1, list = -1, villager = -1, length = 0;
  int32_t plan[8];
  topoplan_agent_event events[16];
  topoplan_agents_stats stats;
  char error[256], text[256];
  size_t size = 0;

  CHECK_STATUS(topoplan_agents_add_goal(agents, "bread", goal, 3, &fed, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_goal_list(agents, &fed, 1, &list, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_class_goals(agents, 0, list), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add(agents, 0, state, 3, &villager, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add(agents, 5, state, 3, &villager, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "class") != NULL);

  CHECK_STATUS(topoplan_agents_update(agents, 0.016, events, 16, &stats), TOPOPLAN_OK);
  CHECK(stats.planned == 1 && stats.replans[TOPOPLAN_REPLAN_NO_PLAN] == 1);
  CHECK(count_kind(events, stats.events, TOPOPLAN_AGENT_START) == 1);
  CHECK(topoplan_agents_running_action(agents, villager) == 0);
  CHECK_STATUS(topoplan_agents_plan(agents, villager, plan, 8, &length), TOPOPLAN_OK);
  CHECK(length == 4 && plan[0] == 0 && plan[3] == 3);
  CHECK_STATUS(
      topoplan_agents_describe(agents, &events[stats.events - 1], text, sizeof text, &size),
      TOPOPLAN_OK);
  CHECK(strcmp(text, "agent 0: start 'WalkToDoor'") == 0);

  CHECK_STATUS(topoplan_agents_set_fact(agents, villager, 0, 1), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.016, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_running_action(agents, villager) == 1);
  CHECK_STATUS(topoplan_agents_action_finished(agents, villager), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.016, events, 16, &stats), TOPOPLAN_OK);
  CHECK(topoplan_agents_running_action(agents, villager) == 2);
  CHECK_STATUS(topoplan_agents_set_fact(agents, villager, 1, 0), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.016, events, 16, &stats), TOPOPLAN_OK);
  CHECK(stats.replans[TOPOPLAN_REPLAN_CONDITION_BROKEN] == 1);
  CHECK(count_kind(events, stats.events, TOPOPLAN_AGENT_ABORT) == 1);
  CHECK(topoplan_agents_running_action(agents, villager) == 1);
  CHECK(topoplan_agents_last_replan(agents, villager) == TOPOPLAN_REPLAN_CONDITION_BROKEN);
  CHECK(strcmp(topoplan_agents_replan_string(TOPOPLAN_REPLAN_CONDITION_BROKEN),
               "condition-broken") == 0);
  CHECK(strcmp(topoplan_agents_goal_name(agents, fed), "bread") == 0);
  CHECK_STATUS(topoplan_agents_set_fact(agents, villager, 1, 7), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_fact(agents, 9, 1, 0), TOPOPLAN_INVALID_ARGUMENT);
}

/* The part size: parts of 64 agents on 2 threads give the events of one part on one thread;
 * parts smaller than a 64-agent word are refused, naming the field. */
static void part_size(const topoplan_crowd_planner* planner) {
  char error[256];
  topoplan_agents* agents = NULL;
  topoplan_agents_def def;
  uint64_t one = 0, parts = 0;
  int64_t n;
  topoplan_agents_def_default(&def);
  CHECK(def.min_agents_per_part == 16384);
  n = village_run(planner, 1, 0, &one);
  CHECK(n > 600);
  CHECK(village_run(planner, 2, 64, &parts) == n);
  CHECK(parts == one);
  CHECK(village_run(planner, 3, 128, &parts) == n);
  CHECK(parts == one);
  def.threads = 2;
  def.min_agents_per_part = 63;
  CHECK_STATUS(topoplan_agents_create(planner, &def, &agents, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "min_agents_per_part") != NULL);
  CHECK(agents == NULL);
}

int main(void) {
  village v;
  topoplan_agents* agents = NULL;
  topoplan_agents_def def;

  if (!village_open(&v)) return 1;
  small_calls(v.task);
  topoplan_agents_def_default(&def);
  def.capacity = 4;
  def.threads = 2;
  agents = village_world(v.planner, &def);
  if (agents == NULL) return 1;
  one_villager(agents);
  no_plan_is_explained(agents);
  topoplan_agents_free(agents);
  part_size(v.planner);
  village_close(&v);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
