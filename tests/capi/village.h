/* The C agent tests' village (C99): a villager walks to the door, opens it, walks to the shop and
 * takes the bread; the door can close on its way. */
#ifndef TOPOPLAN_TESTS_CAPI_VILLAGE_H_
#define TOPOPLAN_TESTS_CAPI_VILLAGE_H_

#include <stdio.h>

#include "topoplan/c/topoplan_c.h"

static const char kVillage[] =
    "[domain]\nname = \"village\"\n"
    "[[variable]]\nname = \"pos\"\nvalues = [\"home\", \"door\", \"shop\"]\n"
    "[[variable]]\nname = \"door\"\nvalues = [\"closed\", \"open\"]\n"
    "[[variable]]\nname = \"bread\"\nvalues = [\"shelf\", \"held\"]\n"
    "[[action]]\nname = \"WalkToDoor\"\npre = { pos = \"home\" }\npost = { pos = \"door\" }\n"
    "[[action]]\nname = \"OpenDoor\"\npre = { door = \"closed\" }\npost = { door = \"open\" }\n"
    "prevail = { pos = \"door\" }\n"
    "[[action]]\nname = \"WalkToShop\"\npre = { pos = \"door\" }\npost = { pos = \"shop\" }\n"
    "prevail = { door = \"open\" }\n"
    "[[action]]\nname = \"TakeBread\"\npre = { bread = \"shelf\" }\npost = { bread = \"held\" }\n"
    "prevail = { pos = \"shop\" }\n";

/* The village's task and its crowd planner. */
typedef struct village {
  topoplan_task* task;
  topoplan_crowd_planner* planner;
} village;

/* Parses kVillage and prepares its crowd planner; 0, with the reader's or the planner's words
 * printed, when either is refused (what was made is freed). */
static int village_open(village* v) {
  char error[256];
  v->task = NULL;
  v->planner = NULL;
  if (topoplan_task_parse(kVillage, sizeof kVillage - 1, TOPOPLAN_FORMAT_NATIVE, "village.toml",
                          &v->task, error, sizeof error) != TOPOPLAN_OK ||
      topoplan_crowd_planner_create(v->task, &v->planner, error, sizeof error) != TOPOPLAN_OK) {
    fprintf(stderr, "village: %s\n", error);
    topoplan_task_free(v->task);
    return 0;
  }
  return 1;
}

static void village_close(village* v) {
  topoplan_crowd_planner_free(v->planner);
  topoplan_task_free(v->task);
}

/* An agent world of `def` on the village's planner; NULL, with the words printed, if refused. */
static topoplan_agents* village_world(const topoplan_crowd_planner* planner,
                                      const topoplan_agents_def* def) {
  char error[256];
  topoplan_agents* world = NULL;
  if (topoplan_agents_create(planner, def, &world, error, sizeof error) != TOPOPLAN_OK)
    fprintf(stderr, "village world: %s\n", error);
  return world;
}

/* 1 when one of the n events is of `kind` with `detail` (any detail when detail < 0). */
static inline int village_has_event(const topoplan_agent_event* e, int64_t n, int kind,
                                    int detail) {
  int64_t k;
  for (k = 0; k < n; ++k)
    if (e[k].kind == kind && (detail < 0 || e[k].detail == detail)) return 1;
  return 0;
}

#endif
