// topoplan — the hot-planner contract's shared pieces (include/topoplan/runtime/planner.h).
#include "topoplan/runtime/planner.h"

#include <string>

namespace topoplan {

std::string HotPlanner::explain(const PlanScratch& /*scratch*/, const PlanOutcome& outcome) const {
  std::string out(to_string(outcome.status));
  const std::string details = describe(outcome.detail);
  if (!details.empty()) out += ": " + details;
  return out;
}

Result<std::unique_ptr<HotPlanner>> create_hot_planner(std::string_view name,
                                                       const CompiledActionSet& set,
                                                       const HotPlannerDef& def) {
  const PlannerInfo* info = find_planner(name);
  if (info == nullptr) return Error{"unknown planner '" + std::string(name) + "'", {}, 0};
  if (info->create_hot == nullptr) {
    return Error{"planner '" + std::string(name) + "' has no hot-path factory", {}, 0};
  }
  return info->create_hot(set, def);
}

}  // namespace topoplan
