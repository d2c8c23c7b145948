/* The class analysis in full from C99: the structure of actions, the words, the action graph,
 * the domain-action graphs and their cycles, on Horse Breeder.
 * Usage: test_capi_analysis SOURCE_DIR. Exit 0 when every check passes. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

/* Horse Breeder (Prévost et al. 2023's running example): C2*, the cycle {DropBucket,
 * PickUpBucket} on `bucket` with both actions requestable. */
static void test_analysis(const char* dir) {
  topoplan_task* task = NULL;
  topoplan_analysis* a = NULL;
  topoplan_class_report report;
  topoplan_variable_graph g;
  topoplan_cycle cycle;
  topoplan_effect effect;
  topoplan_fact fact;
  const int32_t* pairs = NULL;
  int32_t i, n, pre_edges, var_edges = 0, bucket = -1, drop, pick, found = 0;
  CHECK_STATUS(
      topoplan_task_load(source_path(dir, "domains/horse-breeder.toml"), 0, &task, NULL, 0),
      TOPOPLAN_OK);
  if (task == NULL) return;
  drop = action_id(task, "DropBucket");
  pick = action_id(task, "PickUpBucket");
  CHECK_STATUS(topoplan_task_find_variable(task, "bucket", &bucket), TOPOPLAN_OK);

  /* Structure: every action unary, its effect and prevail-conditions in range. */
  for (i = 0; i < topoplan_task_num_actions(task); ++i) {
    CHECK(topoplan_task_action_num_effects(task, i) == 1);
    CHECK_STATUS(topoplan_task_action_effect(task, i, 0, &effect), TOPOPLAN_OK);
    CHECK(effect.var >= 0 && effect.var < 3 && effect.post >= 0 &&
          effect.post < topoplan_task_domain_size(task, effect.var));
    for (n = 0; n < topoplan_task_action_num_prevail(task, i); ++n) {
      CHECK_STATUS(topoplan_task_action_prevail(task, i, n, &fact), TOPOPLAN_OK);
      CHECK(fact.var != effect.var && fact.value >= 0);
    }
  }
  CHECK_STATUS(topoplan_task_action_effect(task, drop, 0, &effect), TOPOPLAN_OK);
  CHECK(effect.var == bucket && effect.post == 0); /* bucket: inHands -> none */
  CHECK_STATUS(topoplan_task_action_effect(task, drop, 1, &effect), TOPOPLAN_INVALID_ARGUMENT);
  CHECK(topoplan_task_action_num_effects(task, 99) == -1);
  CHECK(topoplan_task_class_num_actions(task, 0) == 7);
  CHECK(topoplan_task_class_action(task, 0, 6) == 6);
  CHECK(topoplan_task_class_action(task, 0, 7) == -1);
  CHECK(topoplan_task_class_num_actions(task, 1) == -1);

  /* States by name: the CLI's --goal syntax, and back. */
  {
    int32_t state[3];
    char text[128], error[256];
    size_t size = 0;
    CHECK_STATUS(topoplan_task_parse_state(task, "water=inTrough, bucket=none", state, 3, error,
                                           sizeof error),
                 TOPOPLAN_OK);
    CHECK(state[0] == TOPOPLAN_UNDEFINED && state[1] == 0 && state[2] == 2);
    CHECK_STATUS(topoplan_task_format_state(task, state, 3, text, sizeof text, &size), TOPOPLAN_OK);
    CHECK(strcmp(text,
                 "\xe2\x9f\xa8"
                 "bucket=none, water=inTrough"
                 "\xe2\x9f\xa9") == 0);
    CHECK(size == strlen(text) + 1);
    CHECK_STATUS(topoplan_task_format_state(task, state, 3, text, 4, &size),
                 TOPOPLAN_BUFFER_TOO_SMALL);
    CHECK_STATUS(topoplan_task_parse_state(task, "water=nowhere", state, 3, error, sizeof error),
                 TOPOPLAN_INPUT_ERROR);
    CHECK(strstr(error, "nowhere") != NULL);
    CHECK_STATUS(topoplan_task_parse_state(task, "water=inTrough", state, 2, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
  }

  CHECK_STATUS(topoplan_analysis_create(task, 5, &a), TOPOPLAN_INVALID_ARGUMENT);
  CHECK(a == NULL);
  CHECK_STATUS(topoplan_analysis_create(task, TOPOPLAN_ALL_ACTIONS, &a), TOPOPLAN_OK);
  if (a == NULL) {
    topoplan_task_free(task);
    return;
  }
  CHECK_STATUS(topoplan_analysis_report(a, &report), TOPOPLAN_OK);
  CHECK(report.structural_class == TOPOPLAN_CLASS_C2STAR);
  CHECK(report.num_analysed == 7 && report.unary && report.post_unique);
  CHECK(strlen(topoplan_analysis_why_not(a)) > 0);
  n = topoplan_analysis_num_lines(a);
  CHECK(n >= 1);
  for (i = 0; i < n; ++i)
    if (strstr(topoplan_analysis_line(a, i), "{DropBucket, PickUpBucket}") != NULL &&
        strstr(topoplan_analysis_line(a, i), "requestable") != NULL)
      found = 1;
  CHECK(found);
  CHECK(topoplan_analysis_line(a, n) == NULL);
  CHECK((topoplan_analysis_action_flags(a, drop) & TOPOPLAN_ACTION_ON_CYCLE) != 0);
  CHECK((topoplan_analysis_action_flags(a, pick) & TOPOPLAN_ACTION_REQUESTABLE) != 0);
  CHECK((topoplan_analysis_action_flags(a, drop) & TOPOPLAN_ACTION_ANALYSED) != 0);
  CHECK(topoplan_analysis_action_flags(a, 7) == -1);

  /* The action graph's E_pre is the union of the G(v)'s edges. */
  pre_edges = topoplan_analysis_edges(a, TOPOPLAN_EDGES_PRE, &pairs);
  CHECK(pre_edges > 0 && pairs != NULL);
  for (i = 0; i < 2 * pre_edges; ++i) CHECK(pairs[i] >= 0 && pairs[i] < 7);
  n = topoplan_analysis_edges(a, TOPOPLAN_EDGES_PRV, &pairs);
  CHECK(n > 0);
  for (i = 0; i < 2 * n; ++i) CHECK(pairs[i] >= 0 && pairs[i] < 7);
  CHECK(topoplan_analysis_edges(a, 2, &pairs) == -1);
  for (i = 0; i < 3; ++i) {
    CHECK_STATUS(topoplan_analysis_variable(a, i, &g), TOPOPLAN_OK);
    CHECK(g.var == i && g.num_actions >= 1 && g.components >= 1);
    var_edges += g.num_edges;
    if (i == bucket) {
      CHECK(g.num_cycles == 1 && g.num_actions == 2);
      CHECK_STATUS(topoplan_analysis_cycle(a, i, 0, &cycle), TOPOPLAN_OK);
      CHECK(cycle.simple == 1 && cycle.num_actions == 2 && cycle.num_requestable == 2);
      CHECK((cycle.actions[0] == drop && cycle.actions[1] == pick) ||
            (cycle.actions[0] == pick && cycle.actions[1] == drop));
      CHECK_STATUS(topoplan_analysis_cycle(a, i, 1, &cycle), TOPOPLAN_INVALID_ARGUMENT);
    }
  }
  CHECK(var_edges == pre_edges);
  CHECK_STATUS(topoplan_analysis_variable(a, 3, &g), TOPOPLAN_INVALID_ARGUMENT);
  topoplan_analysis_free(a);
  topoplan_analysis_free(NULL);
  topoplan_task_free(task);
}

CHECK_MAIN(test_analysis)
