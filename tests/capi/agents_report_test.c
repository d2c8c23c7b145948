/* Facts and reports many at a time from C99 (topoplan_agents_set_facts, topoplan_agents_report):
 * the same world under the one-at-a-time calls and under the batch calls gives the same events;
 * a stale report (about an action the runtime has since replaced) is skipped; a bad entry is
 * refused with nothing applied. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "village.h"

#define AGENTS 64
#define FRAMES 40

static village v;

static topoplan_agents* make_world(void) {
  char error[256];
  topoplan_agents* world = NULL;
  topoplan_agents_def def;
  int32_t state[3] = {0, 0, 0};
  int32_t goal[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 1};
  int32_t g = -1, list = -1, id = -1, i;
  topoplan_agents_def_default(&def);
  def.capacity = AGENTS;
  world = village_world(v.planner, &def);
  CHECK(world != NULL);
  CHECK_STATUS(topoplan_agents_add_goal(world, "bread", goal, 3, &g, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add_goal_list(world, &g, 1, &list, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_set_class_goals(world, 0, list), TOPOPLAN_OK);
  for (i = 0; i < AGENTS; ++i)
    CHECK_STATUS(topoplan_agents_add(world, 0, state, 3, &id, error, sizeof error), TOPOPLAN_OK);
  return world;
}

/* Runs FRAMES frames: each started action is reported two frames later (every third agent's
 * fails), and agent f % AGENTS senses the door closed. batch: through the batch calls; else one
 * call per fact and report, after the running-action check the batch call makes itself. Returns
 * an FNV-1a hash of the events. */
static uint64_t run(int batch) {
  topoplan_agents* world = make_world();
  topoplan_agent_event events[4 * AGENTS];
  topoplan_agents_stats st;
  topoplan_agent_report due[3][AGENTS];
  int32_t n_due[3] = {0, 0, 0};
  uint64_t hash = 1469598103934665603ull;
  int32_t f, k, applied = -1, total_applied = 0;
  for (f = 0; f < FRAMES; ++f) {
    const int32_t slot = f % 3;
    topoplan_agent_fact fact;
    fact.agent = f % AGENTS;
    fact.var = 1;
    fact.value = 0;
    if (batch) {
      CHECK_STATUS(topoplan_agents_report(world, due[slot], n_due[slot], &applied), TOPOPLAN_OK);
      total_applied += applied;
      CHECK_STATUS(topoplan_agents_set_facts(world, &fact, 1), TOPOPLAN_OK);
    } else {
      for (k = 0; k < n_due[slot]; ++k) {
        const topoplan_agent_report* r = &due[slot][k];
        if (topoplan_agents_running_action(world, r->agent) != r->action) continue;
        ++total_applied;
        if (r->outcome == TOPOPLAN_AGENT_FINISHED)
          CHECK_STATUS(topoplan_agents_action_finished(world, r->agent), TOPOPLAN_OK);
        else
          CHECK_STATUS(topoplan_agents_action_failed(world, r->agent), TOPOPLAN_OK);
      }
      CHECK_STATUS(topoplan_agents_set_fact(world, fact.agent, fact.var, fact.value), TOPOPLAN_OK);
    }
    n_due[slot] = 0;
    CHECK_STATUS(topoplan_agents_update(world, 0.016, events, 4 * AGENTS, &st), TOPOPLAN_OK);
    CHECK(st.events_dropped == 0);
    for (k = 0; k < (int32_t)st.events; ++k) {
      const topoplan_agent_event* e = &events[k];
      hash = (hash ^ (uint32_t)e->agent) * 1099511628211ull;
      hash = (hash ^ e->kind) * 1099511628211ull;
      hash = (hash ^ (uint32_t)e->action) * 1099511628211ull;
      hash = (hash ^ (uint32_t)e->goal) * 1099511628211ull;
      if (e->kind == TOPOPLAN_AGENT_START) {
        topoplan_agent_report* r = &due[(f + 2) % 3][n_due[(f + 2) % 3]++];
        r->agent = e->agent;
        r->action = e->action;
        r->outcome = e->agent % 3 == 0 ? TOPOPLAN_AGENT_FAILED : TOPOPLAN_AGENT_FINISHED;
      }
    }
  }
  CHECK(total_applied > AGENTS);
  topoplan_agents_free(world);
  return hash;
}

int main(void) {
  topoplan_agents* world;
  topoplan_agent_event events[16];
  topoplan_agents_stats st;
  topoplan_agent_fact facts[2];
  topoplan_agent_report reports[2];
  int32_t applied = -1;
  if (!village_open(&v)) return 1;
  CHECK(run(1) == run(0));

  /* Stale: agent 0 starts WalkToDoor (action 0); a report about OpenDoor (1) is skipped. */
  world = make_world();
  CHECK_STATUS(topoplan_agents_update(world, 0.016, events, 16, &st), TOPOPLAN_OK);
  CHECK(topoplan_agents_running_action(world, 0) == 0);
  reports[0].agent = 0;
  reports[0].action = 1;
  reports[0].outcome = TOPOPLAN_AGENT_FINISHED;
  reports[1].agent = 1;
  reports[1].action = 0;
  reports[1].outcome = TOPOPLAN_AGENT_FINISHED;
  CHECK_STATUS(topoplan_agents_report(world, reports, 2, &applied), TOPOPLAN_OK);
  CHECK(applied == 1);
  CHECK_STATUS(topoplan_agents_update(world, 0.016, events, 16, &st), TOPOPLAN_OK);
  CHECK(topoplan_agents_running_action(world, 0) == 0 &&
        topoplan_agents_running_action(world, 1) == 1);

  /* Refused whole: a bad second entry leaves the first unapplied. */
  facts[0].agent = 2;
  facts[0].var = 1;
  facts[0].value = 1;
  facts[1].agent = 2;
  facts[1].var = 1;
  facts[1].value = 5;
  CHECK_STATUS(topoplan_agents_set_facts(world, facts, 2), TOPOPLAN_INVALID_ARGUMENT);
  CHECK(topoplan_agents_fact(world, 2, 1) == 0);
  facts[1].value = 1;
  facts[1].agent = AGENTS;
  CHECK_STATUS(topoplan_agents_set_facts(world, facts, 2), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_facts(world, facts, 1), TOPOPLAN_OK);
  CHECK(topoplan_agents_fact(world, 2, 1) == 1);
  reports[1].outcome = 7;
  CHECK_STATUS(topoplan_agents_report(world, reports, 2, NULL), TOPOPLAN_INVALID_ARGUMENT);
  reports[1].outcome = TOPOPLAN_AGENT_FAILED;
  reports[1].agent = -1;
  CHECK_STATUS(topoplan_agents_report(world, reports, 2, NULL), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_facts(NULL, facts, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_facts(world, NULL, 1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_facts(world, facts, -1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_set_facts(world, NULL, 0), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_report(NULL, reports, 1, NULL), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_report(world, NULL, 1, NULL), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_agents_report(world, NULL, 0, &applied), TOPOPLAN_OK);
  CHECK(applied == 0);

  topoplan_agents_free(world);
  village_close(&v);
  printf("%d checks, %d failures\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
