// topoplan::sim — scenario files (TOML; build-time tooling, library topoplan::sim_io). The
// format is described in docs/sim.md; domains/sim/*.toml are the thesis's three experiments.
// Bad input is "file:line: message" (never an exception); unknown keys are errors.
#pragma once

#include <string>
#include <string_view>

#include "topoplan/runtime/result.h"
#include "topoplan/sim/arena.h"
#include "topoplan/sim/hospital.h"
#include "topoplan/sim/house.h"

namespace topoplan::sim {

enum class ScenarioKind : uint8_t { kArena, kHouse, kHospital };

struct SimScenario {
  ScenarioKind kind = ScenarioKind::kArena;
  std::string name;
  ArenaConfig arena;
  HouseConfig house;
  HospitalConfig hospital;
};

[[nodiscard]] Result<SimScenario> load_sim_scenario(const std::string& path);
// `dir` resolves relative paths in the file (the UDGOAP template).
[[nodiscard]] Result<SimScenario> parse_sim_scenario(std::string_view text,
                                                     const std::string& filename,
                                                     const std::string& dir);

}  // namespace topoplan::sim
