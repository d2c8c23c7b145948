/* A town of NPCs on a domain file for the crowd tests (C99): the task, its crowd planner, the
 * town and its batch, made with every step checked; and the output view over a caller's arrays. */
#ifndef TOPOPLAN_TESTS_CAPI_TOWN_FIXTURE_H_
#define TOPOPLAN_TESTS_CAPI_TOWN_FIXTURE_H_

#include <stdio.h>
#include <string.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"

typedef struct town_fixture {
  topoplan_task* task;
  topoplan_crowd_planner* planner;
  topoplan_town* town;
  topoplan_crowd_batch batch;
} town_fixture;

/* Loads DIR/FILE and makes a town of NPCS NPCs drawn with SEED. 1 on success; 0 when a step
 * failed (counted by CHECK_STATUS), with what was made freed. */
static inline void town_close(town_fixture* f);

static inline int town_open(town_fixture* f, const char* dir, const char* file, int64_t npcs,
                            uint64_t seed) {
  char path[1024], error[512];
  topoplan_town_def def;
  memset(f, 0, sizeof *f);
  snprintf(path, sizeof path, "%s/%s", dir, file);
  CHECK_STATUS(topoplan_task_load(path, TOPOPLAN_FORMAT_AUTO, &f->task, error, sizeof error),
               TOPOPLAN_OK);
  if (f->task == NULL) return 0;
  CHECK_STATUS(topoplan_crowd_planner_create(f->task, &f->planner, error, sizeof error),
               TOPOPLAN_OK);
  if (f->planner == NULL) {
    town_close(f);
    return 0;
  }
  topoplan_town_def_init(&def);
  def.npcs = npcs;
  def.seed = seed;
  CHECK_STATUS(topoplan_town_create(f->planner, &def, &f->town, error, sizeof error), TOPOPLAN_OK);
  if (f->town == NULL) {
    town_close(f);
    return 0;
  }
  CHECK_STATUS(topoplan_town_batch(f->town, &f->batch), TOPOPLAN_OK);
  return 1;
}

static inline void town_close(town_fixture* f) {
  topoplan_town_free(f->town);
  topoplan_crowd_planner_free(f->planner);
  topoplan_task_free(f->task);
  memset(f, 0, sizeof *f);
}

/* The crowd's output over caller arrays: CAPACITY plan entries, one offset, length and status
 * per NPC. */
static inline topoplan_crowd_output crowd_output_over(int32_t* actions, int64_t capacity,
                                                      uint32_t* offset, uint16_t* length,
                                                      uint16_t* status) {
  const topoplan_crowd_output out = {actions, capacity, offset, length, status};
  return out;
}

/* One run of a 3000-NPC town: the output arrays and, for handle batches, the handles. */
typedef struct town_run {
  int32_t actions[3000 * 16];
  uint32_t offset[3000];
  uint16_t length[3000], status[3000];
  topoplan_plan_handle handles[3000];
} town_run;

/* Clears `r` and returns the output over its arrays. */
static inline topoplan_crowd_output run_output(town_run* r) {
  memset(r, 0, sizeof *r);
  return crowd_output_over(r->actions, 3000 * 16, r->offset, r->length, r->status);
}

#endif
