// Regressive GOAP A* (astar-back): golden plans, hand-built regression cases, limits, and a
// differential test against the exact search on random SAS+ tasks.
#include "topoplan/runtime/astar_back.h"

#include <gtest/gtest.h>

#include <iostream>

#include "../support/horse_breeder.h"
#include "astar_checks.h"
#include "cold_contract.h"
#include "compile.h"
#include "random_tasks.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::make_instance;
using testing::random_task;
using testing::RandomTaskSpec;

using testing::compile_or_die;
using testing::expect_both_outcomes;
using testing::names;

TEST(AStarBack, KeepsTheColdContract) {
  testing::expect_cold_contract("astar-back", plan_astar_back);
}

TEST(AStarBack, HorseBreederGolden) {
  // Prévost et al., SAS as Topological Sorting Table 1: the bucket must be dropped (haystack
  // stored) before the haystack is taken (bucket on the floor), so the only 6-action plan waters
  // the horses first.
  const Domain d = compile_or_die(testing::horse_breeder_003_def());
  const PlanResult r = testing::expect_horse_breeder_optimal(d, plan_astar_back);
  EXPECT_EQ(names(d, r.actions),
            (std::vector<std::string>{"PickUpBucket", "FillBucketWithWater", "FillHorseTrough",
                                      "DropBucket", "TakeHaystack", "FillHorseFeeder"}));
  EXPECT_EQ(r.cost, 6);
  EXPECT_EQ(r.stats.engine, "astar-back");
}

TEST(AStarBack, HorseBreeder000AgreesWithExact) {
  testing::expect_horse_breeder_optimal(compile_or_die(testing::horse_breeder_000_def()),
                                        plan_astar_back);
}

// Two binary variables a, b; init a=0, b=0; goal a=1, b=0.
//   Both:   a 0->1 and b 0->1 (cost 1)  — achieves a but destroys the open fact b=0
//   ResetB: b 1->0 (cost 1)
//   Slow:   a 0->1, prevail b=0 (cost 5)
// Regressing the goal through Both must be refused (its second effect contradicts b=0);
// the optimum is Both then ResetB (cost 2), found by regressing through ResetB first.
DomainDef multi_effect_def() {
  DomainDef def;
  def.name = "multi-effect";
  def.variables = {{"a", {"off", "on"}}, {"b", {"off", "on"}}};
  def.actions = {{"Both", 1, {{0, 0, 1}, {1, 0, 1}}, {}},
                 {"ResetB", 1, {{1, 1, 0}}, {}},
                 {"Slow", 5, {{0, 0, 1}}, {{1, 0}}}};
  return def;
}

TEST(AStarBack, MultiEffectRelevanceAndConsistency) {
  const Domain d = compile_or_die(multi_effect_def());
  const Instance inst = make_instance({0, 0}, {1, 0});
  const PlanResult r = plan_astar_back(d, inst);
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(names(d, r.actions), (std::vector<std::string>{"Both", "ResetB"}));
  EXPECT_EQ(r.cost, 2);
  EXPECT_TRUE(validate_plan(d, inst, r.actions).valid);
  // By length, Slow alone (1 action) wins.
  PlannerOptions options;
  options.objective = Objective::kLength;
  const PlanResult l = plan_astar_back(d, inst, options);
  ASSERT_EQ(l.status, PlanStatus::kSolved);
  EXPECT_EQ(names(d, l.actions), (std::vector<std::string>{"Slow"}));
}

TEST(AStarBack, UndefinedPreRegressesToAFreeVariable) {
  // Teleport: pos u -> 2 (cost 3); Walk: pos 0 -> 1, 1 -> 2 (cost 1 each). From 0 to 2 the
  // walk wins (2); from an unreachable-by-walk value 3, only Teleport works.
  DomainDef def;
  def.name = "teleport";
  def.variables = {{"pos", {"p0", "p1", "p2", "p3"}}};
  def.actions = {{"Teleport", 3, {{0, kUndefined, 2}}, {}},
                 {"Walk01", 1, {{0, 0, 1}}, {}},
                 {"Walk12", 1, {{0, 1, 2}}, {}}};
  const Domain d = compile_or_die(def);
  const PlanResult a = plan_astar_back(d, make_instance({0}, {2}));
  ASSERT_EQ(a.status, PlanStatus::kSolved);
  EXPECT_EQ(a.cost, 2);
  const PlanResult b = plan_astar_back(d, make_instance({3}, {2}));
  ASSERT_EQ(b.status, PlanStatus::kSolved);
  EXPECT_EQ(names(d, b.actions), (std::vector<std::string>{"Teleport"}));
}

std::pair<int, int> differential(const RandomTaskSpec& spec, uint64_t first_seed, int count) {
  return testing::astar_differential<BackAStarPlanner>(spec, first_seed, count);
}

TEST(AStarBackDifferential, GeneralTasksWithCosts) {
  expect_both_outcomes(differential(RandomTaskSpec{}, 1, 400), 400);
}

TEST(AStarBackDifferential, UnitCostTasks) {
  RandomTaskSpec spec;
  spec.unit_cost = true;
  expect_both_outcomes(differential(spec, 1000, 300), 300);
}

TEST(AStarBackDifferential, TotalGoalsNoClasses) {
  RandomTaskSpec spec{.classes = 0, .partial_goal = 0};
  expect_both_outcomes(differential(spec, 2000, 300), 300);
}

TEST(AStarBackDifferential, MostlyPartialGoals) {
  RandomTaskSpec spec;
  spec.partial_goal = 0.7;
  expect_both_outcomes(differential(spec, 2500, 300), 300);
}

TEST(AStarBackDifferential, MultiEffectAndUndefinedPre) {
  RandomTaskSpec spec{.multi_effect = 0.6, .undefined_pre = 0.3};
  expect_both_outcomes(differential(spec, 2800, 300), 300);
}

TEST(AStarBackDifferential, PusTasks) {
  RandomTaskSpec spec{.max_vars = 7, .pus = true};
  expect_both_outcomes(differential(spec, 3000, 300), 300);
}

TEST(AStarBackDifferential, LargerTasks) {
  expect_both_outcomes(differential(testing::kLargerTasks, 4000, 100), 100);
}

// Under tight expansion and memory limits the answer is a correct plan, a limit, or a proof
// the exact search confirms — never a wrong kUnsolvable.
TEST(AStarBackDifferential, LimitIsNeverReportedAsUnsolvable) {
  RandomTaskSpec spec{.min_vars = 4, .max_vars = 8, .max_actions = 30};
  int limited = 0, solvable = 0;
  for (uint64_t seed = 5000; seed < 5200; ++seed) {
    const auto task = random_task(seed, spec);
    auto compiled = Domain::compile(task.def);
    ASSERT_TRUE(compiled.ok());
    const Domain& d = *compiled;
    BackAStarPlanner planner(d);
    std::vector<ActionId> plan;
    for (const Instance& inst : task.instances) {
      const PlanResult e = plan_exact(d, inst);
      for (int64_t limit : {int64_t{0}, int64_t{1}, int64_t{3}, int64_t{10}}) {
        for (bool memory : {false, true}) {
          PlannerOptions options;
          if (memory)
            options.limits.max_memory_bytes = 64 * (limit + 1);
          else
            options.limits.max_expansions = limit;
          const PlanStatus s = planner.plan(inst, options, plan);
          if (e.status == PlanStatus::kSolved) {
            ++solvable;
            ASSERT_NE(s, PlanStatus::kUnsolvable) << "seed " << seed << " limit " << limit;
          }
          if (s == PlanStatus::kLimitReached) ++limited;
          if (s == PlanStatus::kSolved) {
            ASSERT_TRUE(validate_plan(d, inst, plan).valid) << "seed " << seed;
            ASSERT_EQ(plan_cost(d, plan), e.cost) << "seed " << seed;
          }
        }
      }
    }
  }
  EXPECT_GT(limited, 100);
  EXPECT_GT(solvable, 100);
}

}  // namespace
}  // namespace topoplan
