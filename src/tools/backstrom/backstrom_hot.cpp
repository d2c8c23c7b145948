// Bäckström's 𝒫 behind the hot-planner contract (include/topoplan/runtime/planner.h). 𝒫 keeps its
// working arrays inside the planner object, so each scratch owns a copy of the planner created
// once by create_backstrom_hot(); a warm scratch plans without allocating (a failure builds
// 𝒫's message string, a cold path).
#include <memory>
#include <vector>

#include "runtime/search/hot_common.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/tools/backstrom.h"

namespace topoplan {
namespace {

struct BackstromScratch final : PlanScratch {
  BackstromScratch(const BackstromPlanner& prototype, size_t max_len) : planner(prototype) {
    plan.reserve(max_len);
  }
  BackstromPlanner planner;
  std::vector<ActionId> plan;
};

class BackstromHotPlanner final : public HotPlanner {
 public:
  BackstromHotPlanner(const CompiledActionSet& set, BackstromPlanner prototype)
      : set_(set), prototype_(std::move(prototype)) {}

  [[nodiscard]] std::string_view name() const override { return "backstrom"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    return std::make_unique<BackstromScratch>(prototype_, static_cast<size_t>(max_plan_length()));
  }
  PlanOutcome plan_within(const SearchLimits& /*limits*/, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    *len = 0;
    auto& s = static_cast<BackstromScratch&>(scratch);
    PlanOutcome outcome;
    if (!detail::check_hot_input(set_.domain(), s0, goal, outcome)) return outcome;
    const PlanStatus status = s.planner.plan(s0, goal, s.plan);
    if (status == PlanStatus::kSolved) return detail::emit_plan(s.plan, out, len);
    outcome.status = status;
    outcome.detail = s.planner.failure();
    outcome.var = s.planner.failed_variable();
    return outcome;
  }
  // Each action type occurs at most twice in 𝒫's plans (Bäckström 1992, Theorem 4.4).
  [[nodiscard]] int32_t max_plan_length() const override { return 2 * set_.num_available(); }
  [[nodiscard]] std::string explain(const PlanScratch& scratch,
                                    const PlanOutcome& outcome) const override {
    std::string out = HotPlanner::explain(scratch, outcome);
    const auto& s = static_cast<const BackstromScratch&>(scratch);
    if (!outcome.solved() && !s.planner.message().empty()) out += " (" + s.planner.message() + ")";
    return out;
  }

 private:
  CompiledActionSet set_;
  BackstromPlanner prototype_;
};

}  // namespace

Result<std::unique_ptr<HotPlanner>> create_backstrom_hot(const CompiledActionSet& set,
                                                         const HotPlannerDef& /*def*/) {
  if (!detail::set_is_class(set))
    return Error{
        "backstrom: takes the actions of an NPC class, not an explicit action mask", {}, 0};
  auto planner = BackstromPlanner::create(set);
  if (!planner.ok()) return planner.error();
  return std::unique_ptr<HotPlanner>(
      std::make_unique<BackstromHotPlanner>(set, std::move(planner).value()));
}

}  // namespace topoplan
