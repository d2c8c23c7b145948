#include "topoplan/runtime/astar.h"

#include <gtest/gtest.h>

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
using testing::RandomTaskSpec;

using testing::compile_or_die;

TEST(AStar, KeepsTheColdContract) {
  testing::expect_cold_contract("astar", plan_astar);
}

TEST(AStar, HorseBreederFeedsTheHorses) {
  const Domain d = compile_or_die(testing::horse_breeder_003_def());
  EXPECT_EQ(testing::expect_horse_breeder_optimal(d, plan_astar).stats.engine, "astar");
}

// Differential test against the exact search: same status, same optimal objective value, and
// a valid plan, for both objectives, over general SAS+ tasks and SAS+-PUS tasks.
void differential(const RandomTaskSpec& spec, uint64_t first_seed, int count) {
  testing::expect_both_outcomes(testing::astar_differential<AStarPlanner>(spec, first_seed, count),
                                count);
}

TEST(AStarDifferential, GeneralTasksWithCosts) {
  differential(RandomTaskSpec{}, 1, 400);
}

TEST(AStarDifferential, UnitCostTasks) {
  RandomTaskSpec spec;
  spec.unit_cost = true;
  differential(spec, 1000, 300);
}

TEST(AStarDifferential, TotalGoalsNoClasses) {
  RandomTaskSpec spec{.classes = 0, .partial_goal = 0};
  differential(spec, 2000, 300);
}

TEST(AStarDifferential, PusTasks) {
  RandomTaskSpec spec{.max_vars = 7, .pus = true};
  differential(spec, 3000, 300);
}

TEST(AStarDifferential, LargerTasks) {
  differential(testing::kLargerTasks, 4000, 100);
}

}  // namespace
}  // namespace topoplan
