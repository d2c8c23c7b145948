// Uniform-cost search over bit-packed states: the oracle.
//
// Kept deliberately simple so that it is obviously right: Dijkstra (the shared best-first loop,
// src/search/best_first.h, with h = 0 and first-in-first-out ties), a goal test at expansion (so
// the first goal expanded is optimal), successors by a scan over the available actions and a
// per-variable read of the packed state. A limit stops the search with kLimitReached — never
// with a wrong "unsolvable".
#include <algorithm>
#include <chrono>
#include <cstring>

#include "search/best_first.h"
#include "topoplan/search.h"
#include "topoplan/state.h"
#include "topoplan/validate.h"

namespace topoplan {
namespace {

// Flat conditions and effects of the available actions, in action-id order.
struct Operators {
  std::vector<ActionId> ids;
  std::vector<int32_t> cond_offset{0};
  std::vector<Fact> conds;  // pre-conditions (defined ones) and prevail-conditions
  std::vector<int32_t> eff_offset{0};
  std::vector<Fact> effs;  // (var, post)
  std::vector<int64_t> step_cost;

  Operators(const Domain& d, std::span<const uint8_t> mask, Objective objective) {
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
      step_cost.push_back(objective == Objective::kLength ? 1 : d.cost(a));
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

}  // namespace

PlanResult plan_exact(const Domain& domain, const Instance& instance,
                      const PlannerOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PlanResult result;
  result.stats.engine = "exact";
  auto finish = [&](PlanStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    result.stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };
  if (auto err = domain.check_instance(instance))
    return finish(PlanStatus::kGaveUp, "invalid instance: " + err->message);

  const StatePacker packer(domain);
  const Operators ops(domain, domain.action_mask(instance.npc_class), options.objective);
  std::vector<uint64_t> root(static_cast<size_t>(packer.num_words()));
  packer.pack(instance.init, root.data());
  BestFirstSearch search(packer.num_words());
  const SearchLimits& limits = options.limits;
  const SearchStop stop =
      search.run(ExactPolicy{packer, ops, instance.goal}, root.data(), limits, result.actions);
  result.stats.expanded = search.expanded();
  result.stats.generated = search.generated();
  switch (stop) {
    case SearchStop::kGoal:
      result.cost = plan_cost(domain, result.actions);
      return finish(PlanStatus::kSolved, {});
    case SearchStop::kExpansionLimit:
      return finish(PlanStatus::kLimitReached, "node limit reached (" +
                                                   std::to_string(limits.max_expansions) +
                                                   " expansions); raise --max-expansions");
    case SearchStop::kTimeLimit:
      return finish(PlanStatus::kLimitReached, "time limit reached");
    case SearchStop::kMemoryLimit:
      return finish(PlanStatus::kLimitReached,
                    "memory limit reached (" + std::to_string(limits.max_memory_bytes) +
                        " bytes) after " + std::to_string(search.states()) + " states");
    case SearchStop::kExhausted:
    case SearchStop::kDeadRoot:
      break;
  }
  return finish(PlanStatus::kUnsolvable,
                "no plan: all " + std::to_string(search.states()) + " reachable states explored");
}

}  // namespace topoplan
