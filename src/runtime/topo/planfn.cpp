// The analysis-backed constructors of TopoPlanner and the cold-path PlanFn "topo". Kept apart
// from topo.cpp so that the hot path links without the class analysis.
#include <chrono>
#include <string>
#include <vector>

#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/topo.h"

namespace topoplan {

Result<TopoPlanner> TopoPlanner::create(const Domain& domain, ClassId npc_class) {
  const ClassReport report = analyze(domain, npc_class);
  return create(domain, domain.action_mask(npc_class), report.structural_class);
}

Result<TopoPlanner> TopoPlanner::create(const Domain& domain,
                                        std::span<const uint8_t> action_mask) {
  const ClassReport report = analyze(domain, action_mask);
  return create(domain, action_mask, report.structural_class);
}

Result<TopoPlanner> TopoPlanner::create(const CompiledActionSet& set) {
  const ClassReport report = analyze(set.domain(), set.action_mask());
  return create(set, report.structural_class);
}

std::string TopoPlanner::explain(const PlanOutcome& outcome) const {
  if (outcome.solved()) return "";
  return "topo: " + topoplan::explain(*domain_, outcome);
}

// ---------------------------------------------------------------------------------------------
// Cold-path PlanFn.

PlanResult plan_topo(const Domain& domain, const Instance& instance, const PlannerOptions&) {
  const auto start = std::chrono::steady_clock::now();
  PlanResult result;
  result.stats.engine = "topo";
  auto finish = [&]() {
    result.stats.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  if (auto err = domain.check_instance(instance)) {
    result.status = PlanStatus::kGaveUp;
    result.message = err->to_string();
    return finish();
  }
  Result<TopoPlanner> planner = TopoPlanner::create(domain, instance.npc_class);
  if (!planner) {
    result.status = PlanStatus::kUnsupported;
    result.message = planner.error().to_string();
    return finish();
  }
  TopoScratch scratch = planner->make_scratch();
  std::vector<ActionId> out(static_cast<size_t>(planner->max_plan_length()));
  int32_t len = 0;
  const PlanOutcome outcome = planner->plan(scratch, instance.init, instance.goal, out, &len);
  result.status = outcome.status;
  if (result.status == PlanStatus::kSolved) {
    out.resize(static_cast<size_t>(len));
    result.actions = std::move(out);
    result.cost = plan_cost(domain, result.actions);
  } else {
    result.message = planner->explain(outcome);
    if (result.status == PlanStatus::kUnsolvable &&
        (outcome.detail & (kDetailNeedsRepeat | kDetailOrderingCycle)) != 0)
      result.message += " — unsolvable by Prévost et al. (2023)'s theorem for class " +
                        std::string(to_string(planner->structural_class()));
  }
  return finish();
}

}  // namespace topoplan
