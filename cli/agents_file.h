// The agent sections of a domain file, for `topoplan agents`: the domain (and its instances) is
// read by the native reader; these sections, which that reader does not know, are cut out first
// (their lines left blank, so that every line number stays the file's) and read here:
//   [agents]   decision_period, max_plan_age, action_frames (frames an action takes)
//   [[goal]]   name, class (a name or a list; omitted: every class), facts = { var = "value" }
//              — in priority order, the first most important
//   [[event]]  frame, class (omitted: every class), share (of those agents, default 1),
//              set = { var = "value" } — what the agents sense at that frame
// Without [[goal]] tables, each instance with a class is a goal of its class, restricted to the
// variables the class's actions change (a routine says what the class is for).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"

namespace topoplan::cli {

struct AgentsFile {
  Task task;
  struct Goal {
    std::string name;
    std::vector<ValueId> values;   // one per variable, kUndefined: free
    std::vector<ClassId> classes;  // empty: every class
  };
  struct SensedEvent {
    int64_t frame = 0;
    ClassId npc_class = kAllActions;  // kAllActions: every class
    double share = 1.0;
    std::vector<Fact> set;
    int line = 0;
  };
  std::vector<Goal> goals;
  std::vector<SensedEvent> events;  // by frame, then file order
  int32_t decision_period = 30;
  int64_t max_plan_age = 0;
  int32_t action_frames = 3;
  bool has_settings = false;
};

// Errors read "file:line: message".
[[nodiscard]] Result<AgentsFile> read_agents_file(const std::string& path);

}  // namespace topoplan::cli
