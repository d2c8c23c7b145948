// Parts the forward and the regressive GOAP A* share around the best-first core.
#pragma once

#include <vector>

#include "search/best_first.h"
#include "topoplan/domain.h"

namespace topoplan::detail {

// The actions `npc_class` may use (kAllActions: every action), in action-id order.
inline void available_actions(const Domain& domain, ClassId npc_class, std::vector<ActionId>& out) {
  out.clear();
  if (npc_class == kAllActions) {
    for (ActionId a = 0; a < domain.num_actions(); ++a) out.push_back(a);
  } else {
    for (ActionId a : domain.class_actions(npc_class)) out.push_back(a);
  }
}

// Runs the search and reports it the way AStarPlanner and BackAStarPlanner do.
struct SearchReport {
  int64_t& cost;
  int64_t& expanded;
  int64_t& generated;
};
template <typename Policy>
PlanStatus run_search(BestFirstSearch& search, const Policy& policy, const uint64_t* root,
                      const SearchLimits& limits, std::vector<ActionId>& out,
                      const SearchReport& report) {
  const SearchStop stop = search.run(policy, root, limits, out);
  report.expanded = search.expanded();
  report.generated = search.generated();
  report.cost = search.goal_cost();
  return search_status(stop);
}

}  // namespace topoplan::detail
