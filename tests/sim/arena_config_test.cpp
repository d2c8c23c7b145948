// ArenaConfig and LoopConfig: every numeric field has a range (the scenario file's), checked by
// check() with a one-line error naming the field; the arena file's config passes.
#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "source_path.h"
#include "topoplan/runtime/limits.h"

#include "topoplan/sim/arena.h"
#include "topoplan/sim/hospital.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ArenaConfig arena_config() {
  Result<SimScenario> r = load_sim_scenario(testing::source_path("domains/sim/arena.toml"));
  EXPECT_TRUE(r.ok()) << (r ? "" : r.error().to_string());
  return r ? r->arena : ArenaConfig{};
}

void expect_field(const std::optional<Error>& e, const std::string& field) {
  ASSERT_TRUE(e.has_value()) << field;
  // Table fields: "'dt' (simulated seconds per tick) must be a number in [...]"; relations and
  // indices: "'spawn_max' must be in [...]".
  const bool table = e->message.find("'" + field + "' (") != std::string::npos;
  const bool relation = e->message.find("'" + field + "' must be in [") != std::string::npos;
  EXPECT_TRUE(table || relation) << e->message;
}

// check() refuses a copy of `ok` changed by `edit`, naming `field`.
template <class Config, class Edit>
void expect_refused(const Config& ok, const std::string& field, Edit edit) {
  Config c = ok;
  edit(c);
  expect_field(check(c), field);
}

// check() refuses a copy of `ok` changed by `edit`, with `words` in its message.
template <class Config, class Edit>
void expect_refused_saying(const Config& ok, const std::string& words, Edit edit) {
  Config c = ok;
  edit(c);
  const std::optional<Error> e = check(c);
  ASSERT_TRUE(e.has_value()) << words;
  EXPECT_NE(e->message.find(words), std::string::npos) << e->message;
}

TEST(ArenaConfigCheck, FileConfigPassesAndEachFamilyIsChecked) {
  const ArenaConfig ok = arena_config();
  EXPECT_FALSE(check(ok).has_value()) << check(ok)->message;
  expect_refused(ok, "dt", [](ArenaConfig& c) { c.dt = 0.0; });  // time step
  // An interval: max below min.
  expect_refused(ok, "spawn_max", [](ArenaConfig& c) { c.spawn_max = c.spawn_min / 2; });
  expect_refused(ok, "melee_hit", [](ArenaConfig& c) { c.melee_hit = 1.5; });         // probability
  expect_refused(ok, "blast_radius", [](ArenaConfig& c) { c.blast_radius = kNaN; });  // distance
  expect_refused(ok, "cost_heal", [](ArenaConfig& c) { c.cost_heal = -1; });          // GOAP cost
  expect_refused(ok, "max_antlions", [](ArenaConfig& c) { c.max_antlions = 0; });     // count
  expect_refused(ok, "udgoap_max_expansions", [](ArenaConfig& c) { c.udgoap_max_expansions = -1; });
  // Outside the arena.
  expect_refused_saying(ok, "spawn point",
                        [](ArenaConfig& c) { c.spawn_points.front().pos.x = c.width; });
  // The loop.
  expect_refused(ok, "decision_ticks", [](ArenaConfig& c) { c.loop.decision_ticks = 0; });
  expect_refused(ok, "better_margin", [](ArenaConfig& c) { c.loop.better_margin = kNaN; });
}

TEST(HouseConfigCheck, FileConfigPassesAndEachFamilyIsChecked) {
  Result<SimScenario> r = load_sim_scenario(testing::source_path("domains/sim/sims-house.toml"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const HouseConfig ok = r->house;
  EXPECT_FALSE(check(ok).has_value()) << check(ok)->message;
  expect_refused(ok, "speed", [](HouseConfig& c) { c.speed = 0.0; });
  expect_refused(ok, "target", [](HouseConfig& c) { c.target = kNaN; });
  expect_refused(ok, "goto_cost", [](HouseConfig& c) { c.goto_cost = -1; });
  expect_refused(ok, "decay", [](HouseConfig& c) { c.decay.front() = -1; });  // per drive
  // An index.
  expect_refused(ok, "start_spot",
                 [](HouseConfig& c) { c.start_spot = static_cast<int32_t>(c.spots.size()); });
  ASSERT_FALSE(ok.activities.empty());
  // Per activity.
  expect_refused(ok, "duration", [](HouseConfig& c) { c.activities.front().duration = 0.0; });
  expect_refused(ok, "gain", [](HouseConfig& c) { c.activities.front().gain.front() = 1e9; });
  // Sizes.
  expect_refused_saying(ok, "one value per drive", [](HouseConfig& c) { c.decay.pop_back(); });
}

TEST(HospitalConfigCheck, FileConfigPassesAndEachFamilyIsChecked) {
  Result<SimScenario> r = load_sim_scenario(testing::source_path("domains/sim/hospital.toml"));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  const HospitalConfig ok = r->hospital;
  EXPECT_FALSE(check(ok).has_value()) << check(ok)->message;
  expect_refused(ok, "med_decay", [](HospitalConfig& c) { c.med_decay = kNaN; });  // need dynamics
  expect_refused(ok, "t_break", [](HospitalConfig& c) { c.t_break = -1; });        // durations
  expect_refused(ok, "w_chat", [](HospitalConfig& c) { c.w_chat = 1e4; });         // weights
  expect_refused(ok, "threads", [](HospitalConfig& c) { c.threads = 0; });         // counts
  expect_refused(ok, "crowd_npcs", [](HospitalConfig& c) { c.crowd_npcs = {0}; });
  expect_refused_saying(ok, "at least one NPC",
                        [](HospitalConfig& c) { c.nurses = c.doctors = c.visitors = 0; });
}

// The limits table's simulation entries (limits::kSimAll), every one that a scenario file sets:
// a value below, above and (for integers) between its range's integers is refused at its line
// with the table's own words, the words check() of the config uses for the same field.
std::string number_text(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

// A minimal valid scenario of `kind` with `key` (the entry's "table.key") set to `value`. Keys of
// the root tables are dotted keys on top; keys of [[drive]] and [[action]] go into the first one.
std::string scenario_with(std::string_view kind, const LimitSpec& spec, const std::string& value) {
  const std::string file(spec.file);
  const std::string table = file.substr(0, file.find('.'));
  const std::string rest = file.substr(file.find('.') + 1);
  std::string top = "scenario.kind = \"" + std::string(kind) + "\"\n";
  std::string drive, action;
  if (table == "drive") {
    drive = rest + " = " + value + "\n";
  } else if (table == "action") {
    action = (rest == "gain" ? "gain.d" : rest) + " = " + value + "\n";
  } else if (spec.name == "spawn_min" || spec.name == "potion_min" ||
             spec.name == "potion_amount_min") {
    top += file + " = [" + value + ", 1e6]\n";
  } else if (spec.name == "spawn_max" || spec.name == "potion_max" ||
             spec.name == "potion_amount_max") {
    top += file + " = [" + number_text(spec.lo) + ", " + value + "]\n";
  } else if (spec.name == "crowd_npcs") {
    top += file + " = [" + value + "]\n";
  } else {
    top += file + " = " + value + "\n";
    if (table == "udgoap" && kind == "arena") top += "udgoap.template = \"none.toml\"\n";
  }
  if (kind == "house") {
    return top + "house.start = \"a\"\n[[drive]]\nname = \"d\"\n" + drive +
           "[[spot]]\nname = \"a\"\nx = 0\ny = 0\n[[action]]\nname = \"act\"\n" +
           (rest == "duration" ? "" : "duration = 1\n") + action;
  }
  if (kind == "hospital") return top;
  return top + "[[spot]]\nname = \"a\"\nx = 0\ny = 0\n";
}

std::string_view kind_of(const LimitSpec& spec) {
  const std::string_view f = spec.file;
  for (std::string_view p : {"house.", "drive.", "action.", "goap.switch_margin"})
    if (f.starts_with(p)) return "house";
  for (std::string_view p : {"hospital.", "crowd."})
    if (f.starts_with(p)) return "hospital";
  return "arena";
}

TEST(SimLimitsTable, EveryFileKeyIsRefusedInTheTablesWords) {
  int checked = 0;
  for (const LimitSpec& spec : limits::kSimAll) {
    if (spec.file.empty()) continue;
    std::vector<double> bad = {spec.lo - 1, spec.hi * 2 + 1};
    if (spec.integer && spec.name != "crowd_npcs") bad.push_back(spec.lo + 0.5);
    std::vector<std::string_view> kinds = {kind_of(spec)};
    if (spec.file.starts_with("scenario.")) kinds = {"arena", "house", "hospital"};
    for (std::string_view kind : kinds) {
      for (double v : bad) {
        if (spec.name == "crowd_npcs" && v < 0) v = 0;  // an integer array
        const std::string text = scenario_with(kind, spec, number_text(v));
        Result<SimScenario> r = parse_sim_scenario(text, "t.toml", ".");
        ASSERT_FALSE(r.ok()) << spec.file << " = " << v << " accepted in\n" << text;
        const std::string got = r.error().to_string();
        EXPECT_TRUE(got.starts_with("t.toml:")) << got;
        EXPECT_NE(got.find(": " + limit_message(spec, v)), std::string::npos)
            << spec.file << " = " << v << " (" << kind << "): " << got;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 200);
}

// check() of each config speaks the same words as the file for the same field.
TEST(SimLimitsTable, CheckUsesTheTablesWords) {
  ArenaConfig a = arena_config();
  a.melee_range = 2001;
  ASSERT_TRUE(check(a).has_value());
  EXPECT_EQ(check(a)->message, "ArenaConfig: " + limit_message(limits::kArenaMeleeRange, 2001));
  Result<SimScenario> r =
      parse_sim_scenario(scenario_with("arena", limits::kArenaMeleeRange, "2001"), "t.toml", ".");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().to_string(),
            "t.toml:2: 'range' of wizard.melee: " + limit_message(limits::kArenaMeleeRange, 2001));
  HospitalConfig h;
  h.threads = 0;
  ASSERT_TRUE(check(h).has_value());
  EXPECT_EQ(check(h)->message, "HospitalConfig: " + limit_message(limits::kHospitalThreads, 0));
}

}  // namespace
}  // namespace topoplan::sim
