// Pieces the hot adapters of the search-style planners share (exact, regressive A*, Bäckström's
// 𝒫; include/topoplan/runtime/planner.h): input checks, copying a plan into the caller's span, the
// detail bits of a search stop, and a plan-length bound.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>

#include "runtime/search/best_first.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"

namespace topoplan::detail {

// Checks that `s0` is a total state and `goal` a partial state of `domain`; on failure fills
// `outcome` (kGaveUp + kDetailBadInput, the variable at fault) and returns false.
inline bool check_hot_input(const Domain& domain, std::span<const ValueId> s0,
                            std::span<const ValueId> goal, PlanOutcome& outcome) {
  const auto m = static_cast<size_t>(domain.num_variables());
  outcome = PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput, -1, -1, -1};
  if (s0.size() != m || goal.size() != m) return false;
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const auto i = static_cast<size_t>(v);
    const int32_t n = domain.domain_size(v);
    if (s0[i] < 0 || s0[i] >= n || (goal[i] != kUndefined && (goal[i] < 0 || goal[i] >= n))) {
      outcome.var = v;
      outcome.value = s0[i] < 0 || s0[i] >= n ? s0[i] : goal[i];
      return false;
    }
  }
  outcome = PlanOutcome{};
  return true;
}

// The outcome of a call whose per-call limits are out of range (planner.h, limits_in_range).
inline PlanOutcome bad_limits() {
  return PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput, -1, -1, -1};
}

// True when `set` holds exactly the actions of its class (not an explicit mask that differs).
inline bool set_is_class(const CompiledActionSet& set) {
  const std::span<const uint8_t> mine = set.action_mask();
  const std::span<const uint8_t> cls = set.domain().action_mask(set.npc_class());
  return std::equal(mine.begin(), mine.end(), cls.begin(), cls.end(),
                    [](uint8_t a, uint8_t b) { return (a != 0) == (b != 0); });
}

// Writes `plan` to `out` (kSolved) or the length needed (kBufferTooSmall).
inline PlanOutcome emit_plan(std::span<const ActionId> plan, std::span<ActionId> out,
                             int32_t* len) {
  *len = static_cast<int32_t>(plan.size());
  if (plan.size() > out.size()) return PlanOutcome{PlanStatus::kBufferTooSmall};
  std::copy(plan.begin(), plan.end(), out.begin());
  return PlanOutcome{PlanStatus::kSolved};
}

// The outcome of a search stop that is not kGoal.
inline PlanOutcome search_outcome(SearchStop stop) {
  PlanOutcome o{search_status(stop)};
  switch (stop) {
    case SearchStop::kGoal:
      break;
    case SearchStop::kExhausted:
      o.detail = kDetailExhausted;
      break;
    case SearchStop::kDeadRoot:
      o.detail = kDetailGoalUnreachable;
      break;
    case SearchStop::kExpansionLimit:
      o.detail = kDetailExpansionLimit;
      break;
    case SearchStop::kTimeLimit:
      o.detail = kDetailTimeLimit;
      break;
    case SearchStop::kMemoryLimit:
      o.detail = kDetailMemoryLimit;
      break;
  }
  return o;
}

// An optimal search plan visits no state twice: at most (number of states - 1) actions.
inline int32_t search_plan_bound(const Domain& domain) {
  int64_t states = 1;
  constexpr int64_t kCap = std::numeric_limits<int32_t>::max();
  for (VarId v = 0; v < domain.num_variables() && states <= kCap; ++v)
    states *= domain.domain_size(v);
  return static_cast<int32_t>(std::min(states - 1, kCap));
}

}  // namespace topoplan::detail
