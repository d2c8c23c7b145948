// The agent loop and the worlds allocate nothing per tick at steady state (counting operator
// new, tests/support/alloc_counter.h). GOAP's A* reuses its arrays; UDGOAP's planner is a cold
// path that allocates, so for it only the ticks without a planner call are counted.
#include <gtest/gtest.h>

#include <string>

#include "alloc_counter.h"
#include "scenarios.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {
namespace {

const HouseConfig& house() {
  return testing::shipped_scenario("sims-house.toml").house;
}

TEST(SimAlloc, GoapHouseTicksAllocateNothingAtSteadyState) {
  HouseConfig cfg = house();
  cfg.max_seconds = 1e6;
  cfg.target = 99.99;  // keep running
  HouseSim sim(cfg, SelectorKind::kGoap);
  // Warm-up: A* grows its arrays to the largest search it meets (the last growth here is near
  // tick 5,000), then reuses them.
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(sim.step());
  const int64_t plans = sim.counters().plans;
  const int64_t before = testing::allocation_count();
  for (int i = 0; i < 10000; ++i) ASSERT_TRUE(sim.step());
  EXPECT_EQ(testing::allocation_count() - before, 0);
  EXPECT_GT(sim.counters().plans, plans) << "the window must include planner calls";
}

TEST(SimAlloc, UdgoapHouseTicksWithoutPlanningAllocateNothing) {
  HouseConfig cfg = house();
  cfg.max_seconds = 1e6;
  cfg.target = 99.99;
  HouseSim sim(cfg, SelectorKind::kUdgoap);
  for (int i = 0; i < 2000; ++i) ASSERT_TRUE(sim.step());
  int64_t quiet_ticks = 0;
  int64_t quiet_allocs = 0;
  for (int i = 0; i < 4000; ++i) {
    const int64_t plans = sim.counters().plans;
    const int64_t before = testing::allocation_count();
    ASSERT_TRUE(sim.step());
    if (sim.counters().plans == plans) {
      ++quiet_ticks;
      quiet_allocs += testing::allocation_count() - before;
    }
  }
  EXPECT_GT(quiet_ticks, 3000);
  EXPECT_EQ(quiet_allocs, 0);
}

}  // namespace
}  // namespace topoplan::sim
