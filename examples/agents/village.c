/* The village (village.toml) on the agent runtime, from C99 through the C API: four villagers
 * who want bread and sleep, two thieves who want to sell a purse. The program plays the engine:
 * an action the runtime starts takes three frames, then the engine reports it finished; what
 * happens in the world reaches the agents as sensed facts:
 *   frame 5   the baker closes the bakery door on every villager (walking there: their plan
 *             breaks, they replan with OpenBakeryDoor first);
 *   frame 9   villager 3 sees the bread taken from the shelf (its plan breaks; no plan can buy
 *             bread that is not there: "no plan (unsolvable)");
 *   frame 30  the shelf is restocked (villager 3 plans again);
 *   frame 2   the guard comes near thief 5 (it cannot pick a pocket now: no plan),
 *   frame 24  and goes away again.
 * It prints every event, checks each adopted plan with the engines' small calls
 * (topoplan_action_applies / _apply, topoplan_goal_holds) from the agent's believed state, and
 * exits 1 when a plan fails that check or the story did not happen (a door-closed replan, a
 * stolen-bread "no plan", every villager fed).
 *
 *   village PATH/TO/village.toml
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "domain_part.h"
#include "topoplan/c/topoplan_c.h"

enum { kAgents = 6, kVillagers = 4, kFrames = 80, kActionFrames = 3, kMaxVars = 16 };

static void found(topoplan_status s, const char* what) {
  if (s != TOPOPLAN_OK) {
    fprintf(stderr, "village: %s not found\n", what);
    exit(2);
  }
}

static int32_t var(const topoplan_task* t, const char* name) {
  int32_t v = -1;
  found(topoplan_task_find_variable(t, name, &v), name);
  return v;
}
static int32_t val(const topoplan_task* t, const char* v, const char* name) {
  int32_t x = -1;
  found(topoplan_task_find_value(t, var(t, v), name, &x), name);
  return x;
}
static int32_t class_id(const topoplan_task* t, const char* name) {
  int32_t c = -1;
  found(topoplan_task_find_class(t, name, &c), name);
  return c;
}

/* The agent's plan from its believed state: each step applies, then the goal holds. */
static int plan_holds(const topoplan_task* t, const topoplan_agents* w, int32_t agent,
                      const int32_t* goal, int32_t m) {
  int32_t s[kMaxVars], plan[64], length = 0, k;
  topoplan_condition failed;
  char why[256];
  size_t size;
  topoplan_agents_state(w, agent, s, m);
  if (topoplan_agents_plan(w, agent, plan, 64, &length) != TOPOPLAN_OK) return 0;
  for (k = 0; k < length; ++k) {
    if (topoplan_action_applies(t, plan[k], s, m, &failed) != TOPOPLAN_OK) {
      topoplan_condition_describe(t, &failed, why, sizeof why, &size);
      fprintf(stderr, "agent %d, step %d (%s): %s\n", (int)agent, (int)k,
              topoplan_task_action_name(t, plan[k]), why);
      return 0;
    }
    topoplan_action_apply(t, plan[k], s, m);
  }
  return topoplan_goal_holds(t, s, goal, m) == 1;
}

/* The task of the file at `path` (its domain part); exits 2, with the reader's words, if refused.
 */
static topoplan_task* load_task(const char* path) {
  char error[512];
  size_t size = 0;
  topoplan_task* task = NULL;
  char* text = agents_domain_part(path, &size);
  if (text == NULL) {
    fprintf(stderr, "village: cannot read '%s'\n", path);
    exit(2);
  }
  if (topoplan_task_parse(text, size, TOPOPLAN_FORMAT_NATIVE, path, &task, error, sizeof error) !=
      TOPOPLAN_OK) {
    fprintf(stderr, "%s\n", error);
    free(text);
    exit(2);
  }
  free(text);
  return task;
}

/* The goals and who wants them: eat, rest (villagers); steal, rest (thieves). goals[g] is goal
 * goal_id[g]'s partial state over m variables. */
static void add_goals(const topoplan_task* task, topoplan_agents* world, int32_t m,
                      int32_t goals[3][kMaxVars], int32_t goal_id[3]) {
  char error[512];
  int32_t g, k, list[2], villager[2], thief[2];
  for (g = 0; g < 3; ++g)
    for (k = 0; k < m; ++k) goals[g][k] = TOPOPLAN_UNDEFINED;
  goals[0][var(task, "hunger")] = val(task, "hunger", "fed");
  goals[1][var(task, "energy")] = val(task, "energy", "rested");
  goals[2][var(task, "loot")] = val(task, "loot", "sold");
  topoplan_agents_add_goal(world, "eat", goals[0], m, &goal_id[0], error, sizeof error);
  topoplan_agents_add_goal(world, "rest", goals[1], m, &goal_id[1], error, sizeof error);
  topoplan_agents_add_goal(world, "steal", goals[2], m, &goal_id[2], error, sizeof error);
  villager[0] = goal_id[0];
  villager[1] = goal_id[1];
  thief[0] = goal_id[2];
  thief[1] = goal_id[1];
  topoplan_agents_add_goal_list(world, villager, 2, &list[0], error, sizeof error);
  topoplan_agents_add_goal_list(world, thief, 2, &list[1], error, sizeof error);
  topoplan_agents_set_class_goals(world, class_id(task, "Villager"), list[0]);
  topoplan_agents_set_class_goals(world, class_id(task, "Thief"), list[1]);
}

/* Everyone starts at home, hungry and tired; the door is open, the guard away. Agents 0 to
 * kVillagers - 1 are villagers, the others thieves. Exits 2 if one is refused. */
static void add_agents(const topoplan_task* task, topoplan_agents* world, int32_t m) {
  char error[512];
  int32_t start[kMaxVars], i;
  start[var(task, "pos")] = val(task, "pos", "home");
  start[var(task, "bakeryDoor")] = val(task, "bakeryDoor", "open");
  start[var(task, "bread")] = val(task, "bread", "onShelf");
  start[var(task, "hunger")] = val(task, "hunger", "hungry");
  start[var(task, "energy")] = val(task, "energy", "tired");
  start[var(task, "guard")] = val(task, "guard", "away");
  start[var(task, "loot")] = val(task, "loot", "none");
  for (i = 0; i < kAgents; ++i) {
    int32_t agent = -1;
    const int32_t c = class_id(task, i < kVillagers ? "Villager" : "Thief");
    if (topoplan_agents_add(world, c, start, m, &agent, error, sizeof error) != TOPOPLAN_OK) {
      fprintf(stderr, "village: %s\n", error);
      exit(2);
    }
  }
}

/* The world's events of this frame, as the agents sense them (the story of the file's head). */
static void sense(const topoplan_task* task, topoplan_agents* world, int32_t frame) {
  int32_t i;
  if (frame == 5)
    for (i = 0; i < kVillagers; ++i)
      topoplan_agents_set_fact(world, i, var(task, "bakeryDoor"),
                               val(task, "bakeryDoor", "closed"));
  if (frame == 9)
    topoplan_agents_set_fact(world, 3, var(task, "bread"), val(task, "bread", "stolen"));
  if (frame == 30)
    topoplan_agents_set_fact(world, 3, var(task, "bread"), val(task, "bread", "onShelf"));
  if (frame == 2)
    topoplan_agents_set_fact(world, 5, var(task, "guard"), val(task, "guard", "near"));
  if (frame == 24)
    topoplan_agents_set_fact(world, 5, var(task, "guard"), val(task, "guard", "away"));
}

/* What the story must show: replans by reason, "no plan" events, villagers fed, plans failing
 * the engines' check. */
typedef struct story {
  int replans[8], no_plan, fed, bad;
} story;

int main(int argc, char** argv) {
  char error[512], line[256];
  size_t size = 0;
  topoplan_task* task = NULL;
  topoplan_crowd_planner* planner = NULL;
  topoplan_agents* world = NULL;
  topoplan_agents_def def;
  topoplan_agent_event events[64];
  topoplan_agents_stats stats;
  int32_t goals[3][kMaxVars], goal_id[3];
  int32_t finish_at[kAgents];
  int32_t m, i, g, k, frame;
  story told = {{0}, 0, 0, 0};
  int ok;
  if (argc < 2) {
    fprintf(stderr, "usage: village PATH/TO/village.toml\n");
    return 2;
  }
  task = load_task(argv[1]);
  m = topoplan_task_num_variables(task);
  if (m > kMaxVars) return 2;
  topoplan_crowd_planner_create(task, &planner, error, sizeof error);
  topoplan_agents_def_default(&def);
  def.capacity = kAgents;
  def.decision_period = 20;
  if (planner == NULL ||
      topoplan_agents_create(planner, &def, &world, error, sizeof error) != TOPOPLAN_OK) {
    fprintf(stderr, "village: %s\n", error);
    return 2;
  }
  add_goals(task, world, m, goals, goal_id);
  add_agents(task, world, m);
  for (i = 0; i < kAgents; ++i) finish_at[i] = -1;

  for (frame = 0; frame < kFrames; ++frame) {
    /* The engine: actions that ran their frames are finished. */
    for (i = 0; i < kAgents; ++i)
      if (finish_at[i] == frame) {
        topoplan_agents_action_finished(world, i);
        finish_at[i] = -1;
      }
    sense(task, world, frame);
    topoplan_agents_update(world, 1.0 / 60, events, 64, &stats);
    if (stats.events_dropped > 0) return 2;
    for (k = 0; k < 8; ++k) told.replans[k] += (int)stats.replans[k];
    for (k = 0; k < stats.events; ++k) {
      const topoplan_agent_event* e = &events[k];
      topoplan_agents_describe(world, e, line, sizeof line, &size);
      printf("frame %2d: %s\n", (int)frame, line);
      if (e->kind == TOPOPLAN_AGENT_START) finish_at[e->agent] = frame + kActionFrames;
      if (e->kind == TOPOPLAN_AGENT_ABORT) finish_at[e->agent] = -1;
      if (e->kind == TOPOPLAN_AGENT_NO_PLAN) ++told.no_plan;
      if (e->kind == TOPOPLAN_AGENT_REACHED && e->goal == goal_id[0]) ++told.fed;
      if (e->kind == TOPOPLAN_AGENT_PLANNED) {
        for (g = 0; g < 3 && goal_id[g] != e->goal; ++g) {
        }
        if (g == 3 || !plan_holds(task, world, e->agent, goals[g], m)) ++told.bad;
      }
    }
  }
  printf("replans by reason:");
  for (k = 1; k < 8; ++k) printf(" %s %d", topoplan_agents_replan_string(k), told.replans[k]);
  printf("\nno plan %d, villagers fed %d, plans failing the check %d\n", told.no_plan, told.fed,
         told.bad);
  ok = told.bad == 0 && told.replans[TOPOPLAN_REPLAN_CONDITION_BROKEN] > 0 && told.no_plan > 0 &&
       told.fed == kVillagers;
  topoplan_agents_free(world);
  topoplan_crowd_planner_free(planner);
  topoplan_task_free(task);
  if (!ok) fprintf(stderr, "village: the story did not happen as told\n");
  return ok ? 0 : 1;
}
