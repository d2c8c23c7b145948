/* The C API from C99 (compiled with -std=c99 -pedantic-errors): Horse Breeder through every
 * planner, the hot-path ℙ, the validator, the class analysis, UDGOAP, and every status code the
 * API can return from bad input (the crowd batch: capi_crowd_test.c).
 * Usage: test_capi SOURCE_DIR. Exit 0 when every check passes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topoplan/c/topoplan_c.h"

#include "check.h"

/* The Horse Breeder's morning, by name. */
static void test_horse_breeder(const char* dir) {
  topoplan_task* task = NULL;
  char error[512];
  int32_t index = -1, var = -1, value = -1, action = -1, cls = -1;
  int32_t actions[16];
  topoplan_problem problem;
  topoplan_plan_stats stats;
  topoplan_plan_options options;
  int32_t i, p;
  size_t size = 0;
  char* text;
  topoplan_task* again = NULL;

  CHECK_STATUS(topoplan_task_load(source_path(dir, "domains/horse-breeder.toml"),
                                  TOPOPLAN_FORMAT_AUTO, &task, error, sizeof error),
               TOPOPLAN_OK);
  CHECK(task != NULL);
  if (task == NULL) return;
  CHECK(strcmp(error, "") == 0);
  CHECK(strcmp(topoplan_task_name(task), "horse-breeder") == 0);
  CHECK(topoplan_task_num_variables(task) == 3);
  CHECK(topoplan_task_num_actions(task) == 7);
  CHECK(topoplan_task_num_classes(task) == 1);
  CHECK(topoplan_task_num_instances(task) == 4);
  CHECK(topoplan_task_domain_size(task, 0) == 3);
  CHECK(strcmp(topoplan_task_variable_name(task, 2), "water") == 0);
  CHECK(strcmp(topoplan_task_value_name(task, 2, 2), "inTrough") == 0);
  CHECK(strcmp(topoplan_task_class_name(task, 0), "horse-breeder") == 0);
  CHECK(topoplan_task_action_cost(task, 0) == 1);
  CHECK(topoplan_task_variable_name(task, 3) == NULL);
  CHECK(topoplan_task_value_name(task, 0, 3) == NULL);
  CHECK(topoplan_task_action_name(task, -1) == NULL);
  CHECK(topoplan_task_domain_size(task, 7) == -1);

  /* Lookups by name, instances by name. */
  CHECK_STATUS(topoplan_task_find_instance(task, "feed-horses", &index), TOPOPLAN_OK);
  CHECK(index == 0);
  CHECK_STATUS(topoplan_task_find_instance(task, "fill-feeder", &index), TOPOPLAN_OK);
  CHECK(index == 3);
  CHECK(strcmp(topoplan_task_instance_name(task, 3), "fill-feeder") == 0);
  CHECK_STATUS(topoplan_task_find_instance(task, "nobody", &index), TOPOPLAN_NOT_FOUND);
  CHECK_STATUS(topoplan_task_find_variable(task, "bucket", &var), TOPOPLAN_OK);
  CHECK(var == 1);
  CHECK_STATUS(topoplan_task_find_value(task, var, "inHands", &value), TOPOPLAN_OK);
  CHECK(value == 1);
  CHECK_STATUS(topoplan_task_find_value(task, 9, "inHands", &value), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_task_find_action(task, "FillHorseTrough", &action), TOPOPLAN_OK);
  CHECK(action == 6);
  CHECK_STATUS(topoplan_task_find_class(task, "horse-breeder", &cls), TOPOPLAN_OK);
  CHECK(cls == 0);
  CHECK_STATUS(topoplan_task_find_class(task, "blacksmith", &cls), TOPOPLAN_NOT_FOUND);
  CHECK_STATUS(topoplan_task_find_action(task, NULL, &action), TOPOPLAN_INVALID_ARGUMENT);

  /* Every planner on the morning: 6 actions, valid. Bäckström's 𝒫 refuses (not single-valued). */
  CHECK_STATUS(topoplan_task_find_instance(task, "feed-horses", &index), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_task_instance(task, index, &problem), TOPOPLAN_OK);
  CHECK(topoplan_num_planners() >= 6);
  for (p = 0; p < topoplan_num_planners(); ++p) {
    const char* name = topoplan_planner_name(p);
    topoplan_status s =
        topoplan_plan(task, name, &problem, NULL, actions, 16, &stats, error, sizeof error);
    CHECK(topoplan_planner_description(p) != NULL);
    if (strcmp(name, "backstrom") == 0) {
      CHECK_STATUS(s, TOPOPLAN_UNSUPPORTED);
      CHECK(strlen(error) > 0);
      continue;
    }
    CHECK_STATUS(s, TOPOPLAN_OK);
    CHECK(stats.length == 6);
    CHECK(stats.cost == 6);
    CHECK(strlen(stats.engine) > 0);
    CHECK_STATUS(
        topoplan_validate(task, &problem, actions, stats.length, NULL, NULL, error, sizeof error),
        TOPOPLAN_OK);
  }
  CHECK(topoplan_planner_name(-1) == NULL);
  CHECK(topoplan_planner_name(topoplan_num_planners()) == NULL);

  /* The default planner by NULL; the plan of the paper. */
  CHECK_STATUS(topoplan_plan(task, NULL, &problem, NULL, actions, 16, &stats, error, sizeof error),
               TOPOPLAN_OK);
  CHECK(stats.length == 6);
  if (stats.length == 6) {
    static const char* const expected[6] = {"PickUpBucket",    "FillBucketWithWater",
                                            "FillHorseTrough", "DropBucket",
                                            "TakeHaystack",    "FillHorseFeeder"};
    for (i = 0; i < 6; ++i)
      CHECK(strcmp(topoplan_task_action_name(task, actions[i]), expected[i]) == 0);
  }

  /* Invalid plans: a step dropped, a goal not reached. */
  {
    int32_t failed = -2;
    int64_t cost = -1;
    int32_t broken[6];
    memcpy(broken, actions, sizeof broken);
    broken[1] = broken[2]; /* FillHorseTrough before the bucket is filled */
    CHECK_STATUS(topoplan_validate(task, &problem, broken, 6, &failed, &cost, error, sizeof error),
                 TOPOPLAN_INVALID_PLAN);
    CHECK(failed == 1);
    CHECK(cost == 1);
    CHECK(strlen(error) > 0);
    CHECK_STATUS(topoplan_validate(task, &problem, actions, 5, &failed, NULL, error, sizeof error),
                 TOPOPLAN_INVALID_PLAN);
    CHECK(failed == -1);
    broken[0] = 99;
    CHECK_STATUS(topoplan_validate(task, &problem, broken, 6, NULL, NULL, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
  }

  /* Buffer too small: the length needed is reported. */
  CHECK_STATUS(topoplan_plan(task, "topo", &problem, NULL, actions, 3, &stats, error, sizeof error),
               TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK(stats.length == 6);

  /* Proven unsolvable (every planner that can prove it). */
  CHECK_STATUS(topoplan_task_find_instance(task, "feeder-already-full", &index), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_task_instance(task, index, &problem), TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_plan(task, "auto", &problem, NULL, actions, 16, &stats, error, sizeof error),
      TOPOPLAN_UNSOLVABLE);
  CHECK_STATUS(topoplan_plan(task, "exact", &problem, NULL, actions, 16, NULL, NULL, 0),
               TOPOPLAN_UNSOLVABLE);

  /* A node limit: no plan, no proof. */
  CHECK_STATUS(topoplan_task_instance(task, 0, &problem), TOPOPLAN_OK);
  topoplan_plan_options_init(&options);
  CHECK(options.max_expansions > 0);
  options.max_expansions = 1;
  CHECK_STATUS(
      topoplan_plan(task, "exact", &problem, &options, actions, 16, &stats, error, sizeof error),
      TOPOPLAN_LIMIT_REACHED);
  CHECK(strlen(error) > 0);
  options.max_expansions = -1;
  CHECK_STATUS(
      topoplan_plan(task, "exact", &problem, &options, actions, 16, &stats, error, sizeof error),
      TOPOPLAN_INVALID_ARGUMENT);

  /* Unknown planner; bad problems. */
  CHECK_STATUS(
      topoplan_plan(task, "dijkstra", &problem, NULL, actions, 16, &stats, error, sizeof error),
      TOPOPLAN_NOT_FOUND);
  CHECK(strstr(error, "dijkstra") != NULL);
  {
    topoplan_problem bad = problem;
    int32_t init[3] = {0, 0, 7};
    bad.num_variables = 2;
    CHECK_STATUS(topoplan_plan(task, NULL, &bad, NULL, actions, 16, &stats, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    bad = problem;
    bad.init = init;
    CHECK_STATUS(topoplan_plan(task, NULL, &bad, NULL, actions, 16, &stats, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK(strstr(error, "water") != NULL);
    bad = problem;
    bad.npc_class = 5;
    CHECK_STATUS(topoplan_plan(task, NULL, &bad, NULL, actions, 16, &stats, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(topoplan_plan(task, NULL, NULL, NULL, actions, 16, &stats, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(
        topoplan_plan(NULL, NULL, &problem, NULL, actions, 16, &stats, error, sizeof error),
        TOPOPLAN_INVALID_ARGUMENT);
    CHECK_STATUS(topoplan_plan(task, NULL, &problem, NULL, NULL, 16, &stats, error, sizeof error),
                 TOPOPLAN_INVALID_ARGUMENT);
  }

  /* Errors are truncated to the buffer and always NUL-terminated. */
  {
    char tiny[5];
    memset(tiny, 'x', sizeof tiny);
    CHECK_STATUS(
        topoplan_plan(task, "dijkstra", &problem, NULL, actions, 16, NULL, tiny, sizeof tiny),
        TOPOPLAN_NOT_FOUND);
    CHECK(tiny[4] == '\0' && strlen(tiny) == 4);
  }

  /* Class analysis. */
  {
    topoplan_class_report report;
    char why[256];
    CHECK_STATUS(topoplan_check(task, 0, &report, why, sizeof why), TOPOPLAN_OK);
    CHECK(report.num_analysed == 7);
    CHECK(report.unary == 1 && report.post_unique == 1 && report.single_valued == 0);
    CHECK(report.structural_class != TOPOPLAN_CLASS_NONE);
    CHECK_STATUS(topoplan_check(task, 3, &report, why, sizeof why), TOPOPLAN_INVALID_ARGUMENT);
  }

  /* Round trip through the native writer. */
  CHECK_STATUS(topoplan_task_write(task, TOPOPLAN_FORMAT_NATIVE, NULL, 0, &size),
               TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK(size > 100);
  text = (char*)malloc(size);
  if (text != NULL) {
    CHECK_STATUS(topoplan_task_write(task, TOPOPLAN_FORMAT_NATIVE, text, size, &size), TOPOPLAN_OK);
    CHECK(strlen(text) + 1 == size);
    CHECK_STATUS(topoplan_task_parse(text, size - 1, TOPOPLAN_FORMAT_AUTO, "copy.toml", &again,
                                     error, sizeof error),
                 TOPOPLAN_OK);
    CHECK(topoplan_task_num_instances(again) == 4);
    topoplan_task_free(again);
    free(text);
  }
  CHECK_STATUS(topoplan_task_write(task, TOPOPLAN_FORMAT_SAS, NULL, 0, &size),
               TOPOPLAN_BUFFER_TOO_SMALL);
  text = (char*)malloc(size);
  if (text != NULL) {
    CHECK_STATUS(topoplan_task_write(task, TOPOPLAN_FORMAT_SAS, text, size, &size), TOPOPLAN_OK);
    CHECK_STATUS(topoplan_task_parse(text, size - 1, TOPOPLAN_FORMAT_AUTO, NULL, &again, error,
                                     sizeof error),
                 TOPOPLAN_OK);
    CHECK(topoplan_task_num_actions(again) == 7);
    topoplan_task_free(again);
    free(text);
  }

  topoplan_task_free(task);
}

/* Bad input: file:line: message; missing files; bad arguments. */
static void test_input_errors(const char* dir) {
  topoplan_task* task = (topoplan_task*)&task; /* must be reset to NULL on failure */
  char error[512];
  static const char bad[] = "[domain]\nname = \"x\"\n[[variable]]\nname = \"v\"\nvalues = 3\n";
  CHECK_STATUS(topoplan_task_parse(bad, sizeof bad - 1, TOPOPLAN_FORMAT_NATIVE, "bad.toml", &task,
                                   error, sizeof error),
               TOPOPLAN_INPUT_ERROR);
  CHECK(task == NULL);
  CHECK(strncmp(error, "bad.toml:", 9) == 0);
  CHECK_STATUS(topoplan_task_load(source_path(dir, "domains/no-such-file.toml"), 0, &task, error,
                                  sizeof error),
               TOPOPLAN_INPUT_ERROR);
  CHECK(strstr(error, "no-such-file.toml") != NULL);
  CHECK_STATUS(topoplan_task_load(NULL, 0, &task, error, sizeof error), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_task_load("x.toml", 0, NULL, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_task_load("x.toml", 42, &task, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_task_parse(NULL, 3, 0, NULL, &task, NULL, 0), TOPOPLAN_INVALID_ARGUMENT);
  /* Every handle's free accepts NULL. */
  topoplan_task_free(NULL);
  topoplan_topo_free(NULL);
  topoplan_scratch_free(NULL);
  topoplan_crowd_planner_free(NULL);
  topoplan_plan_cache_free(NULL);
  topoplan_crowd_free(NULL);
  topoplan_udgoap_world_free(NULL);
  topoplan_udgoap_agent_free(NULL);
  CHECK(topoplan_task_num_variables(NULL) == -1);
}

/* ℙ on the hot path: planner + scratch, no allocation per plan. */
static void test_topo(const char* dir) {
  topoplan_task* task = NULL;
  topoplan_task* other = NULL;
  topoplan_topo* topo = NULL;
  topoplan_topo* topo2 = NULL;
  topoplan_scratch* scratch = NULL;
  topoplan_problem problem;
  int32_t actions[16];
  int32_t length = -1;
  char text[256];
  int32_t init[3] = {0, 0, 0};
  int32_t partial[3] = {TOPOPLAN_UNDEFINED, TOPOPLAN_UNDEFINED, 2};

  CHECK_STATUS(
      topoplan_task_load(source_path(dir, "domains/horse-breeder.toml"), 0, &task, NULL, 0),
      TOPOPLAN_OK);
  if (task == NULL) return;
  CHECK_STATUS(topoplan_topo_create(task, 0, &topo, text, sizeof text), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_topo_create(task, 4, &topo2, text, sizeof text), TOPOPLAN_INVALID_ARGUMENT);
  CHECK(topo2 == NULL);
  CHECK(topoplan_topo_max_plan_length(topo) == 7);
  CHECK_STATUS(topoplan_scratch_create(topo, &scratch), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_task_instance(task, 0, &problem), TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_topo_plan(topo, scratch, problem.init, problem.goal, 3, actions, 16, &length),
      TOPOPLAN_OK);
  CHECK(length == 6);
  CHECK_STATUS(topoplan_validate(task, &problem, actions, length, NULL, NULL, NULL, 0),
               TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_topo_plan(topo, scratch, problem.init, problem.goal, 3, actions, 2, &length),
      TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK(length == 6);
  CHECK_STATUS(
      topoplan_topo_plan(topo, scratch, problem.init, problem.goal, 2, actions, 16, &length),
      TOPOPLAN_INVALID_ARGUMENT);
  init[1] = 5;
  CHECK_STATUS(topoplan_topo_plan(topo, scratch, init, problem.goal, 3, actions, 16, &length),
               TOPOPLAN_INVALID_ARGUMENT);
  init[1] = 0;
  /* A partial goal: water in the trough, the rest free (3 actions, validated). */
  CHECK_STATUS(topoplan_topo_plan(topo, scratch, init, partial, 3, actions, 16, &length),
               TOPOPLAN_OK);
  CHECK(length == 3);
  {
    topoplan_problem p;
    p.init = init;
    p.goal = partial;
    p.num_variables = 3;
    p.npc_class = 0;
    CHECK_STATUS(topoplan_validate(task, &p, actions, length, NULL, NULL, NULL, 0), TOPOPLAN_OK);
  }
  /* No plan uses each action once (v must go to b, back to a, and to b again), and the action
   * set is in none of ℙ's classes, so ℙ gives up without a proof and says why; the default
   * planner falls back to the search, which finds the plan with 'ab' twice. */
  {
    static const char twice[] =
        "[domain]\nname = \"repeat\"\n"
        "[[variable]]\nname = \"v\"\nvalues = [\"a\", \"b\"]\n"
        "[[variable]]\nname = \"x\"\nvalues = [\"no\", \"yes\"]\n"
        "[[variable]]\nname = \"y\"\nvalues = [\"no\", \"yes\"]\n"
        "[[variable]]\nname = \"z\"\nvalues = [\"no\", \"yes\"]\n"
        "[[action]]\nname = \"ab\"\npre = { v = \"a\" }\npost = { v = \"b\" }\n"
        "[[action]]\nname = \"ba\"\npre = { v = \"b\" }\npost = { v = \"a\" }\n"
        "[[action]]\nname = \"X\"\npre = { x = \"no\" }\npost = { x = \"yes\" }\n"
        "prevail = { v = \"b\" }\n"
        "[[action]]\nname = \"Y\"\npre = { y = \"no\" }\npost = { y = \"yes\" }\n"
        "prevail = { v = \"a\", x = \"yes\" }\n"
        "[[action]]\nname = \"Z\"\npre = { z = \"no\" }\npost = { z = \"yes\" }\n"
        "prevail = { v = \"b\", y = \"yes\" }\n"
        "[[instance]]\nname = \"twice\"\n"
        "init = { v = \"a\", x = \"no\", y = \"no\", z = \"no\" }\n"
        "goal = { v = \"b\", x = \"yes\", y = \"yes\", z = \"yes\" }\n";
    topoplan_task* rep = NULL;
    topoplan_topo* rtopo = NULL;
    topoplan_scratch* rscratch = NULL;
    topoplan_problem p;
    topoplan_plan_stats stats;
    topoplan_class_report report;
    CHECK_STATUS(
        topoplan_task_parse(twice, sizeof twice - 1, 0, "twice.toml", &rep, text, sizeof text),
        TOPOPLAN_OK);
    if (rep != NULL) {
      CHECK_STATUS(topoplan_check(rep, TOPOPLAN_ALL_ACTIONS, &report, NULL, 0), TOPOPLAN_OK);
      CHECK(report.structural_class == TOPOPLAN_CLASS_NONE);
      CHECK_STATUS(topoplan_task_instance(rep, 0, &p), TOPOPLAN_OK);
      CHECK_STATUS(topoplan_topo_create(rep, TOPOPLAN_ALL_ACTIONS, &rtopo, text, sizeof text),
                   TOPOPLAN_OK);
      CHECK_STATUS(topoplan_scratch_create(rtopo, &rscratch), TOPOPLAN_OK);
      CHECK_STATUS(topoplan_topo_plan(rtopo, rscratch, p.init, p.goal, 4, actions, 16, &length),
                   TOPOPLAN_GAVE_UP);
      CHECK_STATUS(topoplan_topo_explain(rtopo, rscratch, text, sizeof text), TOPOPLAN_OK);
      CHECK(strstr(text, "ab") != NULL);
      CHECK_STATUS(topoplan_plan(rep, "topo", &p, NULL, actions, 16, &stats, text, sizeof text),
                   TOPOPLAN_GAVE_UP);
      CHECK(strlen(text) > 0);
      CHECK_STATUS(topoplan_plan(rep, "auto", &p, NULL, actions, 16, &stats, text, sizeof text),
                   TOPOPLAN_OK);
      CHECK(stats.length == 6);
      CHECK_STATUS(topoplan_validate(rep, &p, actions, stats.length, NULL, NULL, NULL, 0),
                   TOPOPLAN_OK);
    }
    topoplan_scratch_free(rscratch);
    topoplan_topo_free(rtopo);
    topoplan_task_free(rep);
  }
  CHECK_STATUS(topoplan_task_instance(task, 2, &problem), TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_topo_plan(topo, scratch, problem.init, problem.goal, 3, actions, 16, &length),
      TOPOPLAN_UNSOLVABLE);
  CHECK_STATUS(topoplan_topo_explain(topo, scratch, text, sizeof text), TOPOPLAN_OK);
  CHECK(strlen(text) > 0);

  /* A scratch of another planner is refused. */
  CHECK_STATUS(topoplan_topo_create(task, TOPOPLAN_ALL_ACTIONS, &topo2, NULL, 0), TOPOPLAN_OK);
  CHECK_STATUS(
      topoplan_topo_plan(topo2, scratch, problem.init, problem.goal, 3, actions, 16, &length),
      TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_topo_explain(topo2, scratch, text, sizeof text), TOPOPLAN_INVALID_ARGUMENT);

  /* Outside ℙ's class: two actions set v to the same value (not post-unique). */
  {
    static const char two[] =
        "[domain]\nname = \"two\"\n"
        "[[variable]]\nname = \"v\"\nvalues = [\"a\", \"b\", \"c\"]\n"
        "[[action]]\nname = \"x\"\npre = { v = \"a\" }\npost = { v = \"c\" }\n"
        "[[action]]\nname = \"y\"\npre = { v = \"b\" }\npost = { v = \"c\" }\n"
        "[[instance]]\nname = \"i\"\ninit = { v = \"a\" }\ngoal = { v = \"c\" }\n";
    topoplan_topo* refused = NULL;
    int32_t act[4];
    topoplan_plan_stats stats;
    CHECK_STATUS(topoplan_task_parse(two, sizeof two - 1, 0, "two.toml", &other, text, sizeof text),
                 TOPOPLAN_OK);
    if (other != NULL) {
      CHECK_STATUS(topoplan_topo_create(other, TOPOPLAN_ALL_ACTIONS, &refused, text, sizeof text),
                   TOPOPLAN_UNSUPPORTED);
      CHECK(refused == NULL);
      CHECK(strlen(text) > 0);
      CHECK_STATUS(topoplan_task_instance(other, 0, &problem), TOPOPLAN_OK);
      CHECK_STATUS(topoplan_plan(other, "topo", &problem, NULL, act, 4, &stats, text, sizeof text),
                   TOPOPLAN_UNSUPPORTED);
      /* The default planner falls back to the search and still answers. */
      CHECK_STATUS(topoplan_plan(other, "auto", &problem, NULL, act, 4, &stats, text, sizeof text),
                   TOPOPLAN_OK);
      CHECK(stats.length == 1);
    }
    topoplan_task_free(other);
  }

  topoplan_scratch_free(scratch);
  topoplan_topo_free(topo2);
  topoplan_topo_free(topo);
  topoplan_task_free(task);
}

/* UDGOAP: the thesis's wizard. */
static void test_udgoap(const char* dir) {
  topoplan_udgoap_world* world = NULL;
  topoplan_udgoap_agent* agent = NULL;
  topoplan_udgoap_agent* fresh = NULL;
  topoplan_udgoap_step steps[32];
  topoplan_udgoap_limits limits;
  int32_t length = -1, i, id = -1;
  double utility = -1.0, value = 0.0;
  char error[256];

  CHECK_STATUS(topoplan_udgoap_load(source_path(dir, "domains/udgoap/wizard.toml"), &world, &agent,
                                    error, sizeof error),
               TOPOPLAN_OK);
  if (world == NULL) return;
  CHECK(topoplan_udgoap_num_entities(world) > 1);
  CHECK(topoplan_udgoap_num_actions(world) > 1);
  CHECK(topoplan_udgoap_agent_num_goals(agent) > 0);
  CHECK_STATUS(
      topoplan_udgoap_plan(world, agent, NULL, steps, 32, &length, &utility, error, sizeof error),
      TOPOPLAN_OK);
  CHECK(length > 0);
  CHECK(utility > 0.0 && utility <= 1.0);
  for (i = 0; i < length; ++i) {
    CHECK(topoplan_udgoap_action_name(world, steps[i].action) != NULL);
    CHECK(steps[i].supplier == -1 || topoplan_udgoap_entity_name(world, steps[i].supplier) != NULL);
  }
  CHECK_STATUS(
      topoplan_udgoap_plan(world, agent, NULL, steps, 0, &length, NULL, error, sizeof error),
      TOPOPLAN_BUFFER_TOO_SMALL);
  topoplan_udgoap_limits_init(&limits);
  CHECK(limits.max_plan_length == 16);
  limits.max_expansions = 0; /* outside the table of limits: refused with its words */
  CHECK_STATUS(
      topoplan_udgoap_plan(world, agent, &limits, steps, 32, &length, NULL, error, sizeof error),
      TOPOPLAN_INVALID_ARGUMENT);
  CHECK(strstr(error, "'max_expansions' (UDGOAP nodes expanded) must be an integer in [1, ") !=
        NULL);
  limits.max_expansions = 1;
  limits.max_generated = 1;
  {
    topoplan_status s =
        topoplan_udgoap_plan(world, agent, &limits, steps, 32, &length, NULL, error, sizeof error);
    CHECK(s == TOPOPLAN_LIMIT_REACHED || s == TOPOPLAN_GAVE_UP);
    CHECK(strlen(error) > 0);
  }
  /* Facts by name. */
  CHECK_STATUS(topoplan_udgoap_find_entity(world, "nobody", &id), TOPOPLAN_NOT_FOUND);
  CHECK_STATUS(topoplan_udgoap_get_fact(world, "nobody", "health", &value), TOPOPLAN_NOT_FOUND);
  CHECK_STATUS(topoplan_udgoap_agent_create(world, &fresh), TOPOPLAN_OK);
  CHECK(topoplan_udgoap_agent_num_goals(fresh) == topoplan_udgoap_agent_num_goals(agent));
  CHECK_STATUS(topoplan_udgoap_agent_update(world, fresh), TOPOPLAN_OK);
  {
    /* The first entity's implicit `exists` fact. */
    const char* name = topoplan_udgoap_entity_name(world, 0);
    CHECK_STATUS(topoplan_udgoap_find_entity(world, name, &id), TOPOPLAN_OK);
    CHECK(id == 0);
    CHECK_STATUS(topoplan_udgoap_get_fact(world, name, "exists", &value), TOPOPLAN_OK);
    CHECK(value == 1.0);
    CHECK_STATUS(topoplan_udgoap_set_fact(world, name, "exists", 7.0), TOPOPLAN_OK);
    CHECK_STATUS(topoplan_udgoap_get_fact(world, name, "exists", &value), TOPOPLAN_OK);
    CHECK(value <= 1.0); /* clamped to the fact's bounds */
    CHECK_STATUS(topoplan_udgoap_set_fact(world, name, "exists", 1.0), TOPOPLAN_OK);
  }
  {
    topoplan_udgoap_world* missing = (topoplan_udgoap_world*)&missing;
    CHECK_STATUS(topoplan_udgoap_load(source_path(dir, "domains/udgoap/none.toml"), &missing, NULL,
                                      error, sizeof error),
                 TOPOPLAN_INPUT_ERROR);
    CHECK(missing == NULL && strstr(error, "none.toml") != NULL);
    CHECK_STATUS(topoplan_udgoap_agent_update(world, NULL), TOPOPLAN_INVALID_ARGUMENT);
  }
  topoplan_udgoap_agent_free(fresh);
  topoplan_udgoap_agent_free(agent);
  topoplan_udgoap_world_free(world);
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  int32_t s;
  CHECK(topoplan_c_abi_version() == TOPOPLAN_C_ABI_VERSION);
  CHECK(strlen(topoplan_version()) > 0);
  for (s = TOPOPLAN_OK; s <= TOPOPLAN_INTERNAL_ERROR; ++s)
    CHECK(strcmp(topoplan_status_string(s), "unknown status") != 0);
  CHECK(strcmp(topoplan_status_string(99), "unknown status") == 0);
  test_horse_breeder(dir);
  test_input_errors(dir);
  test_topo(dir);
  test_udgoap(dir);
  return checks_done();
}
