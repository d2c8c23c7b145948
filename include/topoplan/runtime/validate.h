// topoplan — the plan validator: the judge every planner's output goes through.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan {

struct Validation {
  bool valid = false;
  // 0-based index of the first failing step; -1 if none failed. `reason` counts steps from 1, as
  // a designer reads a plan: failed_step 2 is "step 3 (Action): ...".
  int32_t failed_step = -1;
  std::string reason;                // why the plan is invalid (names the condition and the values)
  std::vector<ValueId> final_state;  // the state reached (up to the failing step)
  int64_t cost = 0;                  // cost of the steps applied
};

// Applies `plan` from instance.init. A step fails when its action is not available to the
// instance's NPC class, a pre-condition or prevail-condition does not hold; otherwise the plan
// is valid iff the final state satisfies the goal.
[[nodiscard]] Validation validate_plan(const Domain& domain, const Instance& instance,
                                       std::span<const ActionId> plan);

// True when `state` satisfies the partial state `goal` (kUndefined entries are free).
[[nodiscard]] bool satisfies(std::span<const ValueId> state, std::span<const ValueId> goal);

// True when action `a` is applicable in `state` (pre-conditions and prevail-conditions hold).
[[nodiscard]] bool applicable(const Domain& domain, ActionId a, std::span<const ValueId> state);

// The first condition of action `a` that does not hold in `state` (effects' pre-conditions in
// the domain's order, then prevail-conditions); kind kNone when `a` applies. The one check
// validate_plan, applicable and engines that execute plans themselves share.
enum class ConditionKind : uint8_t { kNone, kPre, kPrevail };
struct FailedCondition {
  ConditionKind kind = ConditionKind::kNone;
  VarId var = -1;
  ValueId required = kUndefined;
  ValueId actual = kUndefined;
  [[nodiscard]] bool holds() const { return kind == ConditionKind::kNone; }
};
[[nodiscard]] FailedCondition failed_condition(const Domain& domain, ActionId a,
                                               std::span<const ValueId> state);
// "pre-condition 'door=open' does not hold (it is 'door=closed')"; "" when it holds.
[[nodiscard]] std::string describe(const Domain& domain, const FailedCondition& failed);
// Writes the effects of `a` into `state` (conditions are not checked: failed_condition first).
void apply_action(const Domain& domain, ActionId a, std::span<ValueId> state);

}  // namespace topoplan
