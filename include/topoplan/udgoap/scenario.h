// topoplan::udgoap — scenario files: a World and the agent that plans in it, in TOML.
// Build-time tooling (library topoplan::udgoap_io). The format is described in docs/udgoap.md;
// domains/udgoap/wizard.toml is the thesis's Appendix A.
//
// Bad input is reported as "file:line: message" (never an exception or a crash); unknown keys
// are errors so that a typo cannot silently drop a condition.
#pragma once

#include <string>
#include <string_view>

#include "topoplan/result.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::udgoap {

struct Scenario {
  World world;
  AgentState agent;     // after one update_agent() against the file's facts
  UdgoapLimits limits;  // [planner] table; defaults otherwise
};

[[nodiscard]] Result<Scenario> load_scenario(const std::string& path);
[[nodiscard]] Result<Scenario> parse_scenario(std::string_view text, const std::string& filename);

}  // namespace topoplan::udgoap
