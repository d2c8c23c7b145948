// topoplan::udgoap — scenario files: a World and the agent that plans in it, in TOML.
// Build-time tooling (library topoplan::udgoap_io). The format is described in docs/udgoap.md;
// domains/udgoap/wizard.toml is the thesis's Appendix A.
//
// Bad input is reported as "file:line: message" (never an exception or a crash); unknown keys
// are errors so that a typo cannot silently drop a condition.
#pragma once

#include <string>
#include <string_view>

#include "topoplan/runtime/result.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::udgoap {

struct Scenario {
  World world;
  AgentState agent;     // after one update_agent() against the file's facts
  UdgoapLimits limits;  // [planner] table; defaults otherwise
};

// Files over max_bytes are refused (default 64 MiB, as topoplan::kDefaultMaxInputBytes).
[[nodiscard]] Result<Scenario> load_scenario(const std::string& path,
                                             int64_t max_bytes = int64_t{64} << 20);
[[nodiscard]] Result<Scenario> parse_scenario(std::string_view text, const std::string& filename);

}  // namespace topoplan::udgoap
