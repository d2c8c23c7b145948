// The cold-path PlanFn shared by the search planners (forward and regressive A*): build the
// planner for one call, run it, and turn its status into a PlanResult with a message.
#pragma once

#include <chrono>
#include <string>

#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/plan.h"

namespace topoplan::detail {

// The limits a search planner's LIMIT_REACHED message asks to raise.
inline constexpr const LimitSpec* kSearchLimitSpecs[] = {
    &limits::kMaxExpansions, &limits::kMaxMemoryBytes, &limits::kMaxSeconds};

template <typename Planner>
PlanResult plan_once(const Domain& domain, const Instance& instance, const PlannerOptions& options,
                     const char* engine, const char* what, const char* exhausted) {
  const auto start = std::chrono::steady_clock::now();
  PlanResult result;
  result.stats.engine = engine;
  if (auto err = domain.check_instance(instance)) {
    result.status = PlanStatus::kGaveUp;
    result.message = err->to_string();
    return result;
  }
  Planner planner(domain);
  result.status = planner.plan(instance, options, result.actions);
  result.stats.expanded = planner.expanded();
  result.stats.generated = planner.generated();
  switch (result.status) {
    case PlanStatus::kSolved:
      result.cost = plan_cost(domain, result.actions);
      break;
    case PlanStatus::kUnsolvable:
      result.message = exhausted;
      break;
    case PlanStatus::kLimitReached:
      result.message = std::string(what) + " stopped at a limit (" +
                       std::to_string(planner.expanded()) +
                       " expansions): " + raise_limits(kSearchLimitSpecs);
      break;
    default:
      break;
  }
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace topoplan::detail
