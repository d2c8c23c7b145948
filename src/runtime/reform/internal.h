// Shared by src/runtime/reform/: the working form of an action and the relaxed closures.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan::reform_detail {

// An action while it is being rewritten: its original id, cost, effects and prevail-conditions.
struct Work {
  ActionId origin;
  int64_t cost;
  std::vector<Effect> eff;
  std::vector<Fact> prv;
};

// Ignoring deletes: which actions can apply from s0 (reach_act), which of those can matter to the
// goal (relevant_act: an effect reaches a goal value or a condition of a relevant action), and
// which value slots are reached (slot = Σ_{u<v} |D_u| + x).
void relaxed_closure(const Domain& d, std::span<const Work> acts, std::span<const ValueId> s0,
                     std::span<const ValueId> goal, std::vector<uint8_t>& reach_act,
                     std::vector<uint8_t>& relevant_act, std::vector<uint8_t>& reached);

}  // namespace topoplan::reform_detail
