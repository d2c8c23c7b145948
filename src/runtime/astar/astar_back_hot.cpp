// Regressive A* behind the hot-planner contract (include/topoplan/runtime/planner.h).
// BackAStarPlanner keeps its search arrays and heuristic tables inside the planner object, so each
// scratch owns one, with the set's cost overlay applied once; the arrays only grow, so a warm
// scratch plans without allocating once it has reached a search's size.
#include <chrono>
#include <memory>
#include <vector>

#include "runtime/search/hot_common.h"
#include "topoplan/runtime/astar_back.h"
#include "topoplan/runtime/planner.h"

namespace topoplan {
namespace {

struct BackScratch final : PlanScratch {
  explicit BackScratch(const CompiledActionSet& set) : planner(set.domain()) {
    planner.set_costs(set.costs());  // valid: the set checked them
  }
  BackAStarPlanner planner;
  std::vector<ActionId> plan;
};

class BackHotPlanner final : public HotPlanner {
 public:
  BackHotPlanner(const CompiledActionSet& set, const HotPlannerDef& def)
      : HotPlanner(def.limits), set_(set), bound_(detail::search_plan_bound(set.domain())) {
    options_.limits = def.limits;
    options_.objective = def.objective;
  }

  [[nodiscard]] std::string_view name() const override { return "astar-back"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    return std::make_unique<BackScratch>(set_);
  }
  PlanOutcome plan_within(const SearchLimits& limits, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    using Clock = std::chrono::steady_clock;
    *len = 0;
    auto& s = static_cast<BackScratch&>(scratch);
    s.expanded = s.generated = 0;
    PlanOutcome outcome;
    if (!detail::check_hot_input(set_.domain(), s0, goal, outcome)) return outcome;
    if (!limits_in_range(limits)) return detail::bad_limits();
    PlannerOptions options = options_;
    options.limits = limits;
    const bool timed = limits.max_seconds > 0;
    const Clock::time_point start = timed ? Clock::now() : Clock::time_point{};
    const PlanStatus status = s.planner.plan(s0, goal, set_.npc_class(), options, s.plan);
    s.expanded = s.planner.expanded();
    s.generated = s.planner.generated();
    switch (status) {
      case PlanStatus::kSolved:
        return detail::emit_plan(s.plan, out, len);
      case PlanStatus::kUnsolvable:
        outcome.detail = kDetailExhausted;
        break;
      case PlanStatus::kLimitReached:
        // The planner reports one status for the three limits; tell them apart here.
        if (s.expanded >= limits.max_expansions)
          outcome.detail = kDetailExpansionLimit;
        else if (timed &&
                 std::chrono::duration<double>(Clock::now() - start).count() >= limits.max_seconds)
          outcome.detail = kDetailTimeLimit;
        else
          outcome.detail = kDetailMemoryLimit;
        break;
      default:
        break;
    }
    outcome.status = status;
    return outcome;
  }
  [[nodiscard]] int32_t max_plan_length() const override { return bound_; }

 private:
  CompiledActionSet set_;
  PlannerOptions options_;
  int32_t bound_;
};

}  // namespace

Result<std::unique_ptr<HotPlanner>> create_astar_back_hot(const CompiledActionSet& set,
                                                          const HotPlannerDef& def) {
  if (!detail::set_is_class(set))
    return Error{
        "astar-back: takes the actions of an NPC class, not an explicit action mask", {}, 0};
  return std::unique_ptr<HotPlanner>(std::make_unique<BackHotPlanner>(set, def));
}

}  // namespace topoplan
