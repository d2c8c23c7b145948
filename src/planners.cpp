// The registry of planners. Each planner lives in its own folder of src/ and exposes a
// PlanFn; add it here to make it reachable by name (CLI --planner, tests, benchmarks).
#include <array>
#include <chrono>
#include <string>

#include "topoplan/astar.h"
#include "topoplan/astar_back.h"
#include "topoplan/backstrom.h"
#include "topoplan/plan.h"
#include "topoplan/search.h"
#include "topoplan/topo.h"

namespace topoplan {

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
  }
  return "?";
}

int64_t plan_cost(const Domain& domain, std::span<const ActionId> actions) {
  int64_t cost = 0;
  for (ActionId a : actions) cost += domain.cost(a);
  return cost;
}

namespace {

PlanResult plan_auto(const Domain& domain, const Instance& instance, const PlannerOptions& options);

const std::array kPlanners = {
    PlannerInfo{"auto",
                "default: ℙ, then the exact search when ℙ gives up or refuses (always optimal)",
                &plan_auto},
    PlannerInfo{"exact", "optimal uniform-cost search over packed states (the test oracle)",
                &plan_exact},
    PlannerInfo{"astar", "GOAP forward A* (packed states, admissible DTG heuristic; optimal)",
                &plan_astar},
    PlannerInfo{"astar-back", "GOAP regressive A* over subgoals, as F.E.A.R. (optimal)",
                &plan_astar_back},
    PlannerInfo{"topo",
                "ℙ / TopoPlan: linear-time minimal plans for unary post-unique action sets (each "
                "action once)",
                &plan_topo},
    PlannerInfo{"backstrom",
                "Backstrom's O(m^2 n) SAS+-PUS planner (unary, post-unique, single-valued)",
                &plan_backstrom},
};
// ℙ answers in linear time when the domain is in its class. Every action it chooses is one that
// every plan must contain (post-uniqueness), so its plans are minimal in length and, with
// non-negative costs, in cost (tests/topo/cost_test.cpp checks this against the exact search).
// Everything ℙ cannot decide goes to the exact search, so the default planner is always right;
// stats.engine says who answered.
PlanResult plan_auto(const Domain& domain, const Instance& instance,
                     const PlannerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  std::string note;
  {
    PlanResult r = plan_topo(domain, instance, options);
    if (r.status == PlanStatus::kSolved || r.status == PlanStatus::kUnsolvable) return r;
    note = "topo " + std::string(to_string(r.status)) + ": " + r.message;
  }
  PlanResult r = plan_exact(domain, instance, options);
  r.stats.engine = note.empty() ? "exact" : "exact (" + note + ")";
  r.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

std::span<const PlannerInfo> planners() {
  return kPlanners;
}

const PlannerInfo* find_planner(std::string_view name) {
  for (const PlannerInfo& p : kPlanners)
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace topoplan
