// Uniform-cost search over bit-packed states: the oracle.
//
// Kept deliberately simple so that it is obviously right: Dijkstra (the shared best-first loop,
// src/runtime/search/best_first.h, with h = 0 and first-in-first-out ties), a goal test at
// expansion (so the first goal expanded is optimal), successors by a scan over the available
// actions and a per-variable read of the packed state. A limit stops the search with kLimitReached
// — never with a wrong "unsolvable".
#include <algorithm>
#include <chrono>
#include <cstring>

#include "runtime/search/best_first.h"
#include "tools/exact/exact_policy.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/state.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {

namespace {
// The limit each stop of the search asks to raise.
constexpr const LimitSpec* kExpansionSpec[] = {&limits::kMaxExpansions};
constexpr const LimitSpec* kSecondsSpec[] = {&limits::kMaxSeconds};
constexpr const LimitSpec* kMemorySpec[] = {&limits::kMaxMemoryBytes};
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
  const detail::Operators ops(domain, domain.action_mask(instance.npc_class), {},
                              options.objective);
  std::vector<uint64_t> root(static_cast<size_t>(packer.num_words()));
  packer.pack(instance.init, root.data());
  BestFirstSearch search(packer.num_words());
  const SearchLimits& limits = options.limits;
  const SearchStop stop = search.run(detail::ExactPolicy{packer, ops, instance.goal}, root.data(),
                                     limits, result.actions);
  result.stats.expanded = search.expanded();
  result.stats.generated = search.generated();
  switch (stop) {
    case SearchStop::kGoal:
      result.cost = plan_cost(domain, result.actions);
      return finish(PlanStatus::kSolved, {});
    case SearchStop::kExpansionLimit:
      return finish(PlanStatus::kLimitReached, "node limit reached (" +
                                                   std::to_string(limits.max_expansions) +
                                                   " expansions); " + raise_limits(kExpansionSpec));
    case SearchStop::kTimeLimit:
      return finish(PlanStatus::kLimitReached, "time limit reached; " + raise_limits(kSecondsSpec));
    case SearchStop::kMemoryLimit:
      return finish(PlanStatus::kLimitReached,
                    "memory limit reached (" + std::to_string(limits.max_memory_bytes) +
                        " bytes) after " + std::to_string(search.states()) + " states; " +
                        raise_limits(kMemorySpec));
    case SearchStop::kExhausted:
    case SearchStop::kDeadRoot:
      break;
  }
  return finish(PlanStatus::kUnsolvable,
                "no plan: all " + std::to_string(search.states()) + " reachable states explored");
}

}  // namespace topoplan
