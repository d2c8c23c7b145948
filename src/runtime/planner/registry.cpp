// The registry of planners. Each planner lives in its own folder of src/ and exposes a
// PlanFn; add it here to make it reachable by name (CLI --planner, tests, benchmarks).
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "runtime/limits/def_check.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/astar_back.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/topo.h"

namespace topoplan {
struct PlannerInfo;
}
// Defined by topoplan::tools (src/tools/register.cpp), which keeps it in every program that links
// the tools; null in a runtime-only program.
extern "C" __attribute__((weak)) void topoplan_tools_planners(const topoplan::PlannerInfo** list,
                                                              int32_t* count);

namespace topoplan {

// Hot factories (planner.h) of the runtime's planners: src/runtime/topo/topo_hot.cpp,
// src/runtime/astar/astar_hot.cpp, src/runtime/planner/auto_hot.cpp.
Result<std::unique_ptr<HotPlanner>> create_topo_hot(const CompiledActionSet& set,
                                                    const HotPlannerDef& def);
Result<std::unique_ptr<HotPlanner>> create_astar_hot(const CompiledActionSet& set,
                                                     const HotPlannerDef& def);
Result<std::unique_ptr<HotPlanner>> create_topo_reach_hot(const CompiledActionSet& set,
                                                          const HotPlannerDef& def);
Result<std::unique_ptr<HotPlanner>> create_auto_hot(const CompiledActionSet& set,
                                                    const HotPlannerDef& def);

std::string_view to_string(PlanStatus status) {
  switch (status) {
    case PlanStatus::kSolved:
      return "solved";
    case PlanStatus::kUnsolvable:
      return "unsolvable";
    case PlanStatus::kLimitReached:
      return "limit reached";
    case PlanStatus::kGaveUp:
      return "gave up";
    case PlanStatus::kUnsupported:
      return "unsupported";
    case PlanStatus::kBufferTooSmall:
      return "buffer too small";
  }
  return "?";
}

int64_t plan_cost(const Domain& domain, std::span<const ActionId> actions) {
  int64_t cost = 0;
  for (ActionId a : actions) cost += domain.cost(a);
  return cost;
}

std::optional<Error> check(const PlannerOptions& options) {
  constexpr std::string_view kWhere = "PlannerOptions";
  for (const auto& [where, l] :
       {std::pair<const char*, const SearchLimits*>{"PlannerOptions.limits", &options.limits},
        {"PlannerOptions.auto_limits", &options.auto_limits}}) {
    if (auto e = check_limit(limits::kMaxExpansions, l->max_expansions, where)) return e;
    if (auto e = check_limit(limits::kMaxMemoryBytes, l->max_memory_bytes, where)) return e;
    if (auto e = check_limit(limits::kMaxSeconds, l->max_seconds, where)) return e;
  }
  if (options.objective != Objective::kCost && options.objective != Objective::kLength) {
    return Error{std::string(kWhere) + ": 'objective' must be kCost or kLength, found " +
                     std::to_string(static_cast<int>(options.objective)),
                 "", 0};
  }
  return std::nullopt;
}

PlanResult RegisteredPlanFn::operator()(const Domain& domain, const Instance& instance,
                                        const PlannerOptions& options) const {
  if (auto bad = check(options)) {
    PlanResult r;
    r.status = PlanStatus::kUnsupported;
    r.message = std::move(bad->message);
    return r;
  }
  return fn_(domain, instance, options);
}

namespace {

PlanResult plan_auto(const Domain& domain, const Instance& instance, const PlannerOptions& options);

const std::array kPlanners = {
    PlannerInfo{"auto",
                "default: ℙ, then GOAP A* within bounded limits (optimal when it answers; on "
                "large unary sets with 2-3 producers per value ℙ over producer choices between)",
                &plan_auto, &create_auto_hot},
    PlannerInfo{"astar", "GOAP forward A* (packed states, admissible DTG heuristic; optimal)",
                &plan_astar, &create_astar_hot},
    PlannerInfo{"astar-back", "GOAP regressive A* over subgoals, as F.E.A.R. (optimal)",
                &plan_astar_back, &create_astar_back_hot},
    PlannerInfo{"topo",
                "ℙ / TopoPlan: linear-time minimal plans for unary post-unique action sets (each "
                "action once)",
                &plan_topo, &create_topo_hot},
    PlannerInfo{"topo-reach",
                "ℙ after exact reformulation (merged variables, pruned actions), over producer "
                "choices when a value has several producers",
                &plan_topo_reach, &create_topo_reach_hot},
};
// The default planner's cold path: its hot planner (src/runtime/planner/auto_hot.cpp, the chain
// ℙ then GOAP A*) through the generic helper, within options.auto_limits.
PlanResult plan_auto(const Domain& domain, const Instance& instance,
                     const PlannerOptions& options) {
  return plan_prepared("auto", domain, instance, options);
}

// The built-in planners, then those of topoplan::tools when it is linked, then those registered
// (register_planner) in registration order.
std::vector<PlannerInfo>& registry() {
  static std::vector<PlannerInfo> all = [] {
    std::vector<PlannerInfo> list(kPlanners.begin(), kPlanners.end());
    if (topoplan_tools_planners != nullptr) {
      const PlannerInfo* tools = nullptr;
      int32_t count = 0;
      topoplan_tools_planners(&tools, &count);
      list.insert(list.end(), tools, tools + count);
    }
    return list;
  }();
  return all;
}

}  // namespace

std::span<const PlannerInfo> planners() {
  return registry();
}

const PlannerInfo* find_planner(std::string_view name) {
  for (const PlannerInfo& p : registry())
    if (p.name == name) return &p;
  return nullptr;
}

void register_planner(const PlannerInfo& info) {
  for (PlannerInfo& p : registry())
    if (p.name == info.name) {
      p = info;
      return;
    }
  registry().push_back(info);
}

}  // namespace topoplan
