// The exact search's operators and policy (src/runtime/search/best_first.h), shared by the cold
// PlanFn (exact.cpp) and the hot planner (hot.cpp).
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "runtime/search/best_first.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/state.h"

namespace topoplan::detail {

// Flat conditions and effects of the available actions, in action-id order.
struct Operators {
  std::vector<ActionId> ids;
  std::vector<int32_t> cond_offset{0};
  std::vector<Fact> conds;  // pre-conditions (defined ones) and prevail-conditions
  std::vector<int32_t> eff_offset{0};
  std::vector<Fact> effs;  // (var, post)
  std::vector<int64_t> step_cost;

  // `costs`: one per domain action (a cost overlay), or empty for the Domain's own costs.
  Operators(const Domain& d, std::span<const uint8_t> mask, std::span<const int64_t> costs,
            Objective objective) {
    for (ActionId a = 0; a < d.num_actions(); ++a) {
      if (!mask[static_cast<size_t>(a)]) continue;
      ids.push_back(a);
      for (const Effect& e : d.effects(a)) {
        if (e.pre != kUndefined) conds.push_back({e.var, e.pre});
        effs.push_back({e.var, e.post});
      }
      for (const Fact& f : d.prevail(a)) conds.push_back(f);
      cond_offset.push_back(static_cast<int32_t>(conds.size()));
      eff_offset.push_back(static_cast<int32_t>(effs.size()));
      const int64_t cost = costs.empty() ? d.cost(a) : costs[static_cast<size_t>(a)];
      step_cost.push_back(objective == Objective::kLength ? 1 : cost);
    }
  }
};

// The oracle's states: packed world states, successors by a scan over every available action.
struct ExactPolicy {
  static constexpr TieBreak kTieBreak = TieBreak::kFirstInFirstOut;
  static constexpr bool kRootIsInitialState = true;

  const StatePacker& packer;
  const Operators& ops;
  std::span<const ValueId> goal;

  bool is_goal(const uint64_t* state) const {
    for (VarId v = 0; v < packer.num_variables(); ++v)
      if (goal[static_cast<size_t>(v)] != kUndefined &&
          packer.get(state, v) != goal[static_cast<size_t>(v)])
        return false;
    return true;
  }
  static int64_t heuristic(const uint64_t* /*state*/) { return 0; }  // uniform-cost search

  template <typename Emit>
  bool expand(const uint64_t* state, uint64_t* child, Emit& emit) const {
    const auto words = static_cast<size_t>(packer.num_words());
    for (size_t o = 0; o < ops.ids.size(); ++o) {
      bool ok = true;
      for (int32_t c = ops.cond_offset[o]; c < ops.cond_offset[o + 1]; ++c) {
        const Fact& f = ops.conds[static_cast<size_t>(c)];
        if (packer.get(state, f.var) != f.value) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      std::copy(state, state + words, child);
      for (int32_t e = ops.eff_offset[o]; e < ops.eff_offset[o + 1]; ++e) {
        const Fact& f = ops.effs[static_cast<size_t>(e)];
        packer.set(child, f.var, f.value);
      }
      if (!emit(ops.ids[o], ops.step_cost[o])) return false;
    }
    return true;
  }
};

}  // namespace topoplan::detail
