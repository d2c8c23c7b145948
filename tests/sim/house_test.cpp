// The Sims house: both selectors reach the goal; replanning when an item is stolen or a door is
// blocked; determinism.
#include <gtest/gtest.h>

#include <string>

#include "scenarios.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {
namespace {

const HouseConfig& house() {
  return testing::shipped_scenario("sims-house.toml").house;
}

int32_t spot_of(const HouseConfig& c, const std::string& name) {
  for (size_t i = 0; i < c.spots.size(); ++i) {
    if (c.spots[i].name == name) return static_cast<int32_t>(i);
  }
  return -1;
}

TEST(House, BothSelectorsReachEveryDriveAbove90) {
  for (SelectorKind k : {SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    const HouseRun r = run_house(house(), k);
    EXPECT_TRUE(r.reached) << to_string(k);
    for (double d : r.final_drives) EXPECT_GT(d, 90.0) << to_string(k);
    EXPECT_GT(r.steps.size(), 7u);
  }
}

TEST(House, SameRunTwice) {
  for (SelectorKind k : {SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    std::string a, b;
    ReplayWriter wa(&a), wb(&b);
    const HouseRun ra = run_house(house(), k, &wa);
    const HouseRun rb = run_house(house(), k, &wb);
    EXPECT_EQ(ra.time, rb.time);
    EXPECT_EQ(fnv1a(a), fnv1a(b));
  }
}

// Runs until the NPC holds an item, steals it, and checks that the agent notices at its next
// decision and plans to get another. Both run on the agent runtime: with UDGOAP the sensed item
// breaks the rest of the plan (the NPC is walking to the place that uses it); with GOAP the next
// step may start first and the house reports it failed (it does not apply).
TEST(House, StolenItemMakesTheAgentReplan) {
  for (SelectorKind k : {SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    HouseSim sim(house(), k);
    int guard = 0;
    while (sim.item() < 0 && sim.step() && ++guard < 200000) {
    }
    ASSERT_GE(sim.item(), 0) << to_string(k) << ": never held an item";
    const int32_t held = sim.item();
    const Step* next = sim.current();
    ASSERT_NE(next, nullptr);
    auto noticed = [&sim] {
      return sim.counters().replans[static_cast<size_t>(Replan::kBroken)] +
             sim.counters().replans[static_cast<size_t>(Replan::kFailed)];
    };
    const int64_t before = noticed();
    sim.steal_item();
    EXPECT_EQ(sim.item(), -1);
    for (int i = 0; i < 10; ++i) sim.step();
    EXPECT_EQ(noticed(), before + 1) << to_string(k);
    if (k == SelectorKind::kUdgoap) {
      EXPECT_EQ(sim.last_reason(), Replan::kBroken);
    } else {
      EXPECT_TRUE(sim.last_reason() == Replan::kBroken || sim.last_reason() == Replan::kFailed);
    }
    // The new plan gets the item again before using it.
    const Plan& p = sim.plan();
    bool gets_again = false;
    for (int32_t i = 0; i < p.length; ++i) {
      const Step& s = p.steps[static_cast<size_t>(i)];
      if (s.action >= 0 && s.action < static_cast<int32_t>(house().activities.size()) &&
          house().activities[static_cast<size_t>(s.action)].gives == held) {
        gets_again = true;
      }
    }
    EXPECT_TRUE(gets_again || sim.item() == held) << to_string(k);
  }
}

// Blocks the place the NPC is walking to: the move fails, the agent replans, and the new plan
// avoids that place.
TEST(House, BlockedDoorMakesTheAgentReplanAround) {
  for (SelectorKind k : {SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    HouseSim sim(house(), k);
    // Walk until the NPC is on its way somewhere.
    int guard = 0;
    while (sim.step() && ++guard < 200000) {
      const Step* s = sim.current();
      if (s != nullptr && sim.running() && s->action >= 1000 && sim.spot() < 0) break;
    }
    const Step* s = sim.current();
    ASSERT_NE(s, nullptr);
    const int32_t target = s->target;
    const int64_t failed = sim.counters().replans[static_cast<size_t>(Replan::kFailed)];
    sim.block_spot(target, true);
    for (int i = 0; i < 10; ++i) sim.step();
    EXPECT_EQ(sim.counters().replans[static_cast<size_t>(Replan::kFailed)], failed + 1)
        << to_string(k);
    const Plan& p = sim.plan();
    ASSERT_GT(p.length, 0) << to_string(k);
    for (int32_t i = 0; i < p.length; ++i) {
      const Step& st = p.steps[static_cast<size_t>(i)];
      if (st.action >= 1000) {
        EXPECT_NE(st.target, target) << to_string(k) << ": plans to walk into the blocked place";
      } else {
        EXPECT_NE(house().activities[static_cast<size_t>(st.action)].spot, target) << to_string(k);
      }
    }
    // With the place open again, the run still completes.
    sim.block_spot(target, false);
    sim.run();
    EXPECT_TRUE(sim.result().reached) << to_string(k);
  }
  EXPECT_GE(spot_of(house(), "bath"), 0);
}

}  // namespace
}  // namespace topoplan::sim
