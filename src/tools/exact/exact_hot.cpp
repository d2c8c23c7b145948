// The exact search behind the hot-planner contract (include/topoplan/runtime/planner.h): created
// once for a CompiledActionSet (its actions, explicit masks included, and its cost overlay); the
// scratch owns the search's arrays, which only grow, so a warm scratch plans without
// allocating once it has reached a search's size.
#include <memory>
#include <vector>

#include "runtime/search/best_first.h"
#include "runtime/search/hot_common.h"
#include "tools/exact/exact_policy.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/state.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

struct ExactScratch final : PlanScratch {
  explicit ExactScratch(int32_t words) : search(words), root(static_cast<size_t>(words)) {}
  BestFirstSearch search;
  std::vector<uint64_t> root;
  std::vector<ActionId> plan;
};

class ExactHotPlanner final : public HotPlanner {
 public:
  ExactHotPlanner(const CompiledActionSet& set, const HotPlannerDef& def)
      : HotPlanner(def.limits),
        set_(set),
        packer_(set.domain()),
        ops_(set.domain(), set.action_mask(), set.costs(), def.objective),
        bound_(detail::search_plan_bound(set.domain())) {}

  [[nodiscard]] std::string_view name() const override { return "exact"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    return std::make_unique<ExactScratch>(packer_.num_words());
  }
  PlanOutcome plan_within(const SearchLimits& limits, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    *len = 0;
    auto& s = static_cast<ExactScratch&>(scratch);
    s.expanded = s.generated = 0;
    PlanOutcome outcome;
    if (!detail::check_hot_input(set_.domain(), s0, goal, outcome)) return outcome;
    if (!limits_in_range(limits)) return detail::bad_limits();
    packer_.pack(s0, s.root.data());
    const SearchStop stop =
        s.search.run(detail::ExactPolicy{packer_, ops_, goal}, s.root.data(), limits, s.plan);
    s.expanded = s.search.expanded();
    s.generated = s.search.generated();
    if (stop != SearchStop::kGoal) return detail::search_outcome(stop);
    return detail::emit_plan(s.plan, out, len);
  }
  [[nodiscard]] int32_t max_plan_length() const override { return bound_; }

 private:
  CompiledActionSet set_;  // shares the set's indexes and costs
  StatePacker packer_;
  detail::Operators ops_;
  int32_t bound_;
};

}  // namespace

Result<std::unique_ptr<HotPlanner>> create_exact_hot(const CompiledActionSet& set,
                                                     const HotPlannerDef& def) {
  return std::unique_ptr<HotPlanner>(std::make_unique<ExactHotPlanner>(set, def));
}

}  // namespace topoplan
