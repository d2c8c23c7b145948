// The shipped simulation scenarios (domains/sim/), read once per test binary.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "source_path.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::testing {

// domains/sim/`file`, e.g. "arena.toml". A file that does not read fails the test, then stops
// the binary (the shipped scenarios are part of the tree).
inline const sim::SimScenario& shipped_scenario(const std::string& file) {
  static std::map<std::string, sim::SimScenario> loaded;
  auto it = loaded.find(file);
  if (it == loaded.end()) {
    Result<sim::SimScenario> r =
        sim::load_sim_scenario(testing::source_path("domains/sim/") + file);
    EXPECT_TRUE(r.ok()) << (r ? "" : r.error().to_string());
    it = loaded.emplace(file, std::move(r.value())).first;
  }
  return it->second;
}

}  // namespace topoplan::testing
