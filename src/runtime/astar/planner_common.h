// Parts the forward and the regressive GOAP A* share around the best-first core.
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "runtime/search/best_first.h"
#include "topoplan/runtime/astar_common.h"
#include "topoplan/runtime/domain.h"

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

// Dijkstra over the n values of one variable (domains are small: O(n^2 + edges)): dist[x] is
// set to kInfiniteCost except dist[source] = 0; each value y, settled in order of distance,
// is handed to relax(y), which lowers dist through the edges leaving y.
template <typename Relax>
void value_dijkstra(int32_t n, ValueId source, std::vector<uint8_t>& done, int64_t* dist,
                    Relax&& relax) {
  done.assign(static_cast<size_t>(n), 0);
  for (int32_t x = 0; x < n; ++x) dist[x] = kInfiniteCost;
  dist[source] = 0;
  for (;;) {
    int32_t y = -1;
    for (int32_t x = 0; x < n; ++x)
      if (!done[static_cast<size_t>(x)] && dist[x] < kInfiniteCost && (y < 0 || dist[x] < dist[y]))
        y = x;
    if (y < 0) return;
    done[static_cast<size_t>(y)] = 1;
    relax(y);
  }
}

// Runs the search and records its figures the way AStarPlanner and BackAStarPlanner do.
template <typename Policy>
PlanStatus run_search(BestFirstSearch& search, const Policy& policy, const uint64_t* root,
                      const SearchLimits& limits, std::vector<ActionId>& out,
                      SearchFigures& figures) {
  const SearchStop stop = search.run(policy, root, limits, out);
  figures.expanded = search.expanded();
  figures.generated = search.generated();
  figures.cost = search.goal_cost();
  return search_status(stop);
}

}  // namespace topoplan::detail
