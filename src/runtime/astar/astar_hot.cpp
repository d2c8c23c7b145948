// GOAP A* behind the hot-planner contract (planner.h). Two searches, the same plans:
//   * when the domain's state fits one 64-bit word (PackedAStar::fits), the one-word search of
//     packed_astar.h, compiled once here and immutable; each scratch owns its arrays. Small GOAP
//     tasks are answered in a few hundred instructions, most of them the search itself.
//   * otherwise AStarPlanner, which keeps its search arrays and its cost overlay inside itself,
//     so each scratch owns one (created for the set's domain, with the set's costs when they
//     differ from the domain's); the HotPlanner holds the set's class and the def's limits.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "runtime/astar/packed_astar.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/planner.h"

namespace topoplan {

namespace {

struct PackedHotScratch final : PlanScratch {
  explicit PackedHotScratch(size_t num_variables) : search(num_variables) {}
  detail::PackedAStarScratch search;
};

struct AStarHotScratch final : PlanScratch {
  explicit AStarHotScratch(const Domain& domain) : astar(domain) {}
  AStarPlanner astar;
  PlannerOptions options;      // the planner's objective, the call's limits
  std::vector<ActionId> plan;  // grows to the longest plan found, then reused
};

class AStarHotPlanner final : public HotPlanner {
 public:
  AStarHotPlanner(const CompiledActionSet& set, const HotPlannerDef& def)
      : HotPlanner(def.limits),
        domain_(&set.domain()),
        npc_class_(set.npc_class()),
        objective_(def.objective) {
    if (detail::PackedAStar::fits(*domain_))
      packed_ = std::make_unique<detail::PackedAStar>(set, def.objective);
    const std::span<const int64_t> costs = set.costs();
    for (ActionId a = 0; a < domain_->num_actions(); ++a)
      if (costs[static_cast<size_t>(a)] != domain_->cost(a)) {
        costs_.assign(costs.begin(), costs.end());
        break;
      }
    // A plan of A* never visits a state twice: at most (number of states - 1) actions.
    int64_t states = 1;
    for (VarId v = 0; v < domain_->num_variables() && states < INT32_MAX; ++v)
      states *= std::max<int64_t>(domain_->domain_size(v), 1);
    max_len_ = static_cast<int32_t>(std::min<int64_t>(states - 1, INT32_MAX));
  }

  [[nodiscard]] std::string_view name() const override { return "astar"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    if (packed_)
      return std::make_unique<PackedHotScratch>(static_cast<size_t>(domain_->num_variables()));
    auto scratch = std::make_unique<AStarHotScratch>(*domain_);
    if (!costs_.empty()) (void)scratch->astar.set_costs(costs_);
    scratch->options.objective = objective_;
    return scratch;
  }
  PlanOutcome plan_within(const SearchLimits& limits, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    if (!packed_ || !limits_in_range(limits)) [[unlikely]]
      return plan_general(limits, scratch, s0, goal, out, len);
    return plan_packed(limits, scratch, s0, goal, out, len);
  }
  [[nodiscard]] int32_t max_plan_length() const override { return max_len_; }
  [[nodiscard]] const detail::PackedAStar* packed() const { return packed_.get(); }

 private:
  // One return of one named outcome: it is built in the caller's slot, never copied (a copy
  // right after its fields are written stalls on store forwarding).
  [[gnu::always_inline]] PlanOutcome plan_packed(const SearchLimits& limits, PlanScratch& scratch,
                                                 std::span<const ValueId> s0,
                                                 std::span<const ValueId> goal,
                                                 std::span<ActionId> out, int32_t* len) const {
    auto& p = static_cast<PackedHotScratch&>(scratch);
    PlanOutcome outcome = packed_->plan(p.search, s0, goal, limits, out, len);
    p.expanded = p.search.expanded;
    p.generated = p.search.generated;
    return outcome;
  }
  // Out of line: the one-word path above stays a short function (its fixed cost per call is
  // most of a small GOAP task's; docs/benchmarks.md, "Small GOAP tasks").
  [[gnu::noinline]] PlanOutcome plan_general(const SearchLimits& limits, PlanScratch& scratch,
                                             std::span<const ValueId> s0,
                                             std::span<const ValueId> goal, std::span<ActionId> out,
                                             int32_t* len) const {
    PlanOutcome outcome;
    *len = 0;
    if (packed_) {  // limits out of range
      outcome.detail = kDetailBadInput;
      return outcome;
    }
    auto& s = static_cast<AStarHotScratch&>(scratch);
    if (!limits_in_range(limits) || !valid(s0, false) || !valid(goal, true)) {
      outcome.detail = kDetailBadInput;
      return outcome;
    }
    s.options.limits = limits;
    outcome.status = s.astar.plan(s0, goal, npc_class_, s.options, s.plan);
    s.expanded = s.astar.expanded();
    s.generated = s.astar.generated();
    switch (outcome.status) {
      case PlanStatus::kSolved: {
        const auto n = static_cast<int32_t>(s.plan.size());
        *len = n;
        if (static_cast<size_t>(n) > out.size()) {
          outcome.status = PlanStatus::kBufferTooSmall;
          return outcome;
        }
        std::copy(s.plan.begin(), s.plan.end(), out.begin());
        return outcome;
      }
      case PlanStatus::kUnsolvable:
        outcome.detail = kDetailExhausted;
        return outcome;
      case PlanStatus::kLimitReached:
        if (s.expanded >= limits.max_expansions)
          outcome.detail = kDetailExpansionLimit;
        else if (limits.max_seconds > 0)
          outcome.detail = kDetailTimeLimit | kDetailMemoryLimit;  // one of the two
        else
          outcome.detail = kDetailMemoryLimit;
        return outcome;
      default:
        return outcome;
    }
  }
  [[nodiscard]] bool valid(std::span<const ValueId> state, bool partial) const {
    if (state.size() != static_cast<size_t>(domain_->num_variables())) return false;
    for (VarId v = 0; v < domain_->num_variables(); ++v) {
      const ValueId x = state[static_cast<size_t>(v)];
      if (partial && x == kUndefined) continue;
      if (x < 0 || x >= domain_->domain_size(v)) return false;
    }
    return true;
  }

  const Domain* domain_;
  ClassId npc_class_;
  Objective objective_;
  std::vector<int64_t> costs_;  // the set's costs when they differ from the domain's
  int32_t max_len_ = 0;
  std::unique_ptr<detail::PackedAStar> packed_;  // set when the state fits one word
};

}  // namespace

namespace detail {

const PackedAStar* one_word_search(const HotPlanner& planner) {
  const auto* astar = dynamic_cast<const AStarHotPlanner*>(&planner);
  return astar == nullptr ? nullptr : astar->packed();
}

PackedAStarScratch& one_word_scratch(PlanScratch& astar_scratch) {
  return static_cast<PackedHotScratch&>(astar_scratch).search;
}

}  // namespace detail

bool astar_hot_uses_one_word(const Domain& domain) {
  return detail::PackedAStar::fits(domain);
}

// The hot factory registered for "astar" (src/runtime/planner/registry.cpp).
Result<std::unique_ptr<HotPlanner>> create_astar_hot(const CompiledActionSet& set,
                                                     const HotPlannerDef& def) {
  // AStarPlanner restricts actions by class only: a set made from another mask is refused.
  const std::span<const uint8_t> mask = set.action_mask();
  const std::span<const uint8_t> of_class = set.domain().action_mask(set.npc_class());
  for (size_t a = 0; a < mask.size(); ++a)
    if ((mask[a] != 0) != (of_class[a] != 0))
      return Error{
          "astar: the action set is not an NPC class's (explicit masks are not supported)", {}, 0};
  if (def.limits.max_expansions < 1 || def.limits.max_memory_bytes < 1 ||
      def.limits.max_seconds < 0)
    return Error{"astar: limits must be positive", {}, 0};
  return std::unique_ptr<HotPlanner>(std::make_unique<AStarHotPlanner>(set, def));
}

}  // namespace topoplan
