// Parts the forward and the regressive GOAP A* share around the best-first core.
#pragma once

#include <algorithm>
#include <span>
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

// The cost overlay (AStarPlanner::set_costs, BackAStarPlanner::set_costs): copies valid `costs`
// into `current` and, when they differ, marks the Objective::kCost distance tables (even
// indices: (class + 1) * 2 + is_length) for rebuilding. False for invalid costs.
template <typename DistTable>
bool overlay_costs(std::span<const int64_t> costs, std::vector<int64_t>& current,
                   std::vector<DistTable>& tables) {
  if (costs.size() != current.size()) return false;
  for (const int64_t c : costs)
    if (c < 0 || c > kMaxCost) return false;
  if (std::equal(costs.begin(), costs.end(), current.begin())) return true;
  std::copy(costs.begin(), costs.end(), current.begin());
  for (size_t i = 0; i < tables.size(); i += 2) tables[i].built = false;
  return true;
}

// The Domain's own costs, through the overlay (clear_costs).
template <typename DistTable>
void domain_costs(const Domain& domain, std::vector<int64_t>& current,
                  std::vector<DistTable>& tables) {
  bool changed = current.size() != static_cast<size_t>(domain.num_actions());
  current.resize(static_cast<size_t>(domain.num_actions()));
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    changed |= current[static_cast<size_t>(a)] != domain.cost(a);
    current[static_cast<size_t>(a)] = domain.cost(a);
  }
  if (changed)
    for (size_t i = 0; i < tables.size(); i += 2) tables[i].built = false;
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
