// ArenaConfig and LoopConfig: every numeric field has a range (the scenario file's), checked by
// check() with a one-line error naming the field; the arena file's config passes.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "topoplan/sim/arena.h"
#include "topoplan/sim/hospital.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ArenaConfig arena_config() {
  Result<SimScenario> r =
      load_sim_scenario(std::string(TOPOPLAN_SOURCE_DIR) + "/domains/sim/arena.toml");
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().to_string());
  return r ? r->arena : ArenaConfig{};
}

void expect_field(const std::optional<Error>& e, const std::string& field) {
  ASSERT_TRUE(e.has_value()) << field;
  EXPECT_NE(e->message.find("'" + field + "' must be in ["), std::string::npos) << e->message;
}

TEST(ArenaConfigCheck, FileConfigPassesAndEachFamilyIsChecked) {
  const ArenaConfig ok = arena_config();
  EXPECT_FALSE(check(ok).has_value()) << check(ok)->message;
  ArenaConfig c = ok;
  c.dt = 0.0;  // time step
  expect_field(check(c), "dt");
  c = ok;
  c.spawn_max = c.spawn_min / 2;  // interval: max below min
  expect_field(check(c), "spawn_max");
  c = ok;
  c.melee_hit = 1.5;  // probability
  expect_field(check(c), "melee_hit");
  c = ok;
  c.blast_radius = kNaN;  // distance
  expect_field(check(c), "blast_radius");
  c = ok;
  c.cost_heal = -1;  // GOAP cost
  expect_field(check(c), "cost_heal");
  c = ok;
  c.max_antlions = 0;  // count
  expect_field(check(c), "max_antlions");
  c = ok;
  c.udgoap_max_expansions = -1;
  expect_field(check(c), "udgoap_max_expansions");
  c = ok;
  c.spawn_points.front().pos.x = c.width;  // outside the arena
  ASSERT_TRUE(check(c).has_value());
  EXPECT_NE(check(c)->message.find("spawn point"), std::string::npos);
  c = ok;
  c.loop.decision_ticks = 0;  // the loop
  expect_field(check(c), "decision_ticks");
  c = ok;
  c.loop.better_margin = kNaN;
  expect_field(check(c), "better_margin");
}

TEST(HouseConfigCheck, FileConfigPassesAndEachFamilyIsChecked) {
  Result<SimScenario> r =
      load_sim_scenario(std::string(TOPOPLAN_SOURCE_DIR) + "/domains/sim/sims-house.toml");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const HouseConfig ok = r->house;
  EXPECT_FALSE(check(ok).has_value()) << check(ok)->message;
  HouseConfig c = ok;
  c.speed = 0.0;
  expect_field(check(c), "speed");
  c = ok;
  c.target = kNaN;
  expect_field(check(c), "target");
  c = ok;
  c.goto_cost = -1;
  expect_field(check(c), "goto_cost");
  c = ok;
  c.decay.front() = -1;  // per drive
  expect_field(check(c), "decay");
  c = ok;
  c.start_spot = static_cast<int32_t>(c.spots.size());  // an index
  expect_field(check(c), "start_spot");
  c = ok;
  ASSERT_FALSE(c.activities.empty());
  c.activities.front().duration = 0.0;  // per activity
  expect_field(check(c), "duration");
  c = ok;
  c.activities.front().gain.front() = 1e9;
  expect_field(check(c), "gain");
  c = ok;
  c.decay.pop_back();  // sizes
  ASSERT_TRUE(check(c).has_value());
  EXPECT_NE(check(c)->message.find("one value per drive"), std::string::npos);
}

TEST(HospitalConfigCheck, FileConfigPassesAndEachFamilyIsChecked) {
  Result<SimScenario> r =
      load_sim_scenario(std::string(TOPOPLAN_SOURCE_DIR) + "/domains/sim/hospital.toml");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const HospitalConfig ok = r->hospital;
  EXPECT_FALSE(check(ok).has_value()) << check(ok)->message;
  HospitalConfig c = ok;
  c.med_decay = kNaN;  // need dynamics
  expect_field(check(c), "med_decay");
  c = ok;
  c.t_break = -1;  // durations
  expect_field(check(c), "t_break");
  c = ok;
  c.w_chat = 1e4;  // weights
  expect_field(check(c), "w_chat");
  c = ok;
  c.threads = 0;  // counts
  expect_field(check(c), "threads");
  c = ok;
  c.crowd_npcs = {0};
  expect_field(check(c), "crowd_npcs");
  c = ok;
  c.nurses = c.doctors = c.visitors = 0;
  ASSERT_TRUE(check(c).has_value());
  EXPECT_NE(check(c)->message.find("at least one NPC"), std::string::npos);
}

}  // namespace
}  // namespace topoplan::sim
