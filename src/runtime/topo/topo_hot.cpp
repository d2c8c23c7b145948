// ℙ behind the hot-planner contract (planner.h): a TopoPlanner built on the set's indexes,
// its TopoScratch as the per-thread scratch; ℙ's native entry already answers a PlanOutcome.
#include <memory>
#include <string>

#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/topo.h"

namespace topoplan {

namespace {

struct TopoHotScratch final : PlanScratch {
  TopoScratch topo;
};

class TopoHotPlanner final : public HotPlanner {
 public:
  explicit TopoHotPlanner(TopoPlanner planner) : planner_(std::move(planner)) {}

  [[nodiscard]] std::string_view name() const override { return "topo"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    auto scratch = std::make_unique<TopoHotScratch>();
    scratch->topo = planner_.make_scratch();
    return scratch;
  }
  PlanOutcome plan_within(const SearchLimits& /*limits*/, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    return planner_.plan(static_cast<TopoHotScratch&>(scratch).topo, s0, goal, out, len);
  }
  [[nodiscard]] int32_t max_plan_length() const override { return planner_.max_plan_length(); }
  [[nodiscard]] std::string explain(const PlanScratch& /*scratch*/,
                                    const PlanOutcome& outcome) const override {
    if (outcome.solved()) return std::string(to_string(outcome.status));
    return std::string(to_string(outcome.status)) + ": " + planner_.explain(outcome);
  }

 private:
  TopoPlanner planner_;
};

}  // namespace

// The hot factory registered for "topo" (src/runtime/planner/registry.cpp).
Result<std::unique_ptr<HotPlanner>> create_topo_hot(const CompiledActionSet& set,
                                                    const HotPlannerDef& /*def*/) {
  Result<TopoPlanner> planner = TopoPlanner::create(set);
  if (!planner.ok()) return planner.error();
  return std::unique_ptr<HotPlanner>(std::make_unique<TopoHotPlanner>(std::move(planner).value()));
}

}  // namespace topoplan
