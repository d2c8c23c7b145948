// ℙ behind the hot-planner contract (planner.h): a TopoPlanner built on the set's indexes,
// its TopoScratch as the per-thread scratch, TopoFailure mapped to detail bits.
#include <memory>
#include <string>

#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/topo.h"

namespace topoplan {

namespace {

struct TopoHotScratch final : PlanScratch {
  TopoScratch topo;
};

PlanDetail detail_of(TopoFailure failure) {
  switch (failure) {
    case TopoFailure::kNone:
    case TopoFailure::kBufferTooSmall:
      return kDetailNone;
    case TopoFailure::kBadInput:
      return kDetailBadInput;
    case TopoFailure::kGoalUnreachable:
    case TopoFailure::kRelaxedUnreachable:
      return kDetailGoalUnreachable;
    case TopoFailure::kPrevailUnreachable:
      return kDetailPreconditionUnmet;
    case TopoFailure::kOrderingCycle:
      return kDetailOrderingCycle;
    case TopoFailure::kSelfCheck:
      return kDetailSelfCheck;
    // The task needs what ℙ's class excludes: a free goal a prevail reads elsewhere, an action
    // twice, an unproven return to s0, two needed actions leaving one value.
    case TopoFailure::kPartialGoal:
    case TopoFailure::kNeedsRepeat:
    case TopoFailure::kUnprovenMinimal:
    case TopoFailure::kBranching:
      return kDetailOutsideClass;
  }
  return kDetailNone;
}

class TopoHotPlanner final : public HotPlanner {
 public:
  explicit TopoHotPlanner(TopoPlanner planner) : planner_(std::move(planner)) {}

  [[nodiscard]] std::string_view name() const override { return "topo"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    auto scratch = std::make_unique<TopoHotScratch>();
    scratch->topo = planner_.make_scratch();
    return scratch;
  }
  PlanOutcome plan(PlanScratch& scratch, std::span<const ValueId> s0, std::span<const ValueId> goal,
                   std::span<ActionId> out, int32_t* len) const override {
    TopoScratch& topo = static_cast<TopoHotScratch&>(scratch).topo;
    PlanOutcome outcome;
    outcome.status = planner_.plan(topo, s0, goal, out, len);
    if (outcome.status == PlanStatus::kSolved) return outcome;
    const TopoFailure failure = topo.failure();
    // ℙ's native API reports a short buffer as kLimitReached + TopoFailure::kBufferTooSmall; the
    // hot contract has its own status for it (planner.h).
    if (failure == TopoFailure::kBufferTooSmall) outcome.status = PlanStatus::kBufferTooSmall;
    outcome.detail = detail_of(failure);
    outcome.var = topo.failure_var();
    outcome.value = topo.failure_value();
    outcome.action = topo.failure_action();
    return outcome;
  }
  [[nodiscard]] int32_t max_plan_length() const override { return planner_.max_plan_length(); }
  [[nodiscard]] std::string explain(const PlanScratch& scratch,
                                    const PlanOutcome& outcome) const override {
    if (outcome.solved()) return std::string(to_string(outcome.status));
    return std::string(to_string(outcome.status)) + ": " +
           planner_.explain(static_cast<const TopoHotScratch&>(scratch).topo);
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
