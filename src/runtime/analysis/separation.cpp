#include "separation.h"

#include <algorithm>
#include <cassert>

namespace topoplan::analysis_detail {

SeparationIndex::SeparationIndex(int32_t num_vertices,
                                 std::span<const std::pair<int32_t, int32_t>> edges)
    : edges_(edges.begin(), edges.end()),
      disc_(static_cast<size_t>(num_vertices), -1),
      low_(static_cast<size_t>(num_vertices), 0),
      child_at_(edges.size(), -1) {
  const auto nv = static_cast<size_t>(num_vertices);
  // Incidence lists (CSR of edge ids).
  std::vector<int32_t> off(nv + 1, 0);
  for (const auto& [u, w] : edges_) {
    ++off[static_cast<size_t>(u) + 1];
    ++off[static_cast<size_t>(w) + 1];
  }
  for (size_t i = 0; i < nv; ++i) off[i + 1] += off[i];
  std::vector<int32_t> inc(static_cast<size_t>(off[nv]));
  {
    std::vector<int32_t> pos(off.begin(), off.end() - 1);
    for (size_t e = 0; e < edges_.size(); ++e) {
      inc[static_cast<size_t>(pos[static_cast<size_t>(edges_[e].first)]++)] =
          static_cast<int32_t>(e);
      inc[static_cast<size_t>(pos[static_cast<size_t>(edges_[e].second)]++)] =
          static_cast<int32_t>(e);
    }
  }
  auto other = [&](int32_t e, int32_t u) {
    const auto& [a, b] = edges_[static_cast<size_t>(e)];
    return a == u ? b : a;
  };

  std::vector<int32_t> depth(nv, 0), parent_edge(nv, -1), it(nv, 0);
  std::vector<int32_t> path;  // the current tree path, root first
  int32_t timer = 0;
  auto discover = [&](int32_t u, int32_t via) {
    const auto su = static_cast<size_t>(u);
    disc_[su] = low_[su] = timer++;
    depth[su] = static_cast<int32_t>(path.size());
    parent_edge[su] = via;
    it[su] = off[su];
    path.push_back(u);
    // Every already-discovered neighbour is an ancestor (undirected DFS has no cross edges).
    for (int32_t k = off[su]; k < off[su + 1]; ++k) {
      const int32_t e = inc[static_cast<size_t>(k)];
      const int32_t w = other(e, u);
      if (disc_[static_cast<size_t>(w)] >= 0 && w != u)
        child_at_[static_cast<size_t>(e)] = path[static_cast<size_t>(depth[w] + 1)];
    }
  };
  for (int32_t root = 0; root < num_vertices; ++root) {
    if (disc_[static_cast<size_t>(root)] >= 0) continue;
    discover(root, -1);
    while (!path.empty()) {
      const int32_t u = path.back();
      const auto su = static_cast<size_t>(u);
      if (it[su] < off[su + 1]) {
        const int32_t e = inc[static_cast<size_t>(it[su]++)];
        if (e == parent_edge[su]) continue;
        const int32_t w = other(e, u);
        if (disc_[static_cast<size_t>(w)] < 0) {
          discover(w, e);
        } else {
          low_[su] = std::min(low_[su], disc_[static_cast<size_t>(w)]);
        }
      } else {
        path.pop_back();
        if (!path.empty()) {
          const auto sp = static_cast<size_t>(path.back());
          low_[sp] = std::min(low_[sp], low_[su]);
        }
      }
    }
  }
}

int32_t SeparationIndex::side(int32_t p, int32_t e) const {
  const auto& [a, b] = edges_[static_cast<size_t>(e)];
  assert(a == p || b == p);
  const int32_t far = a == p ? b : a;
  const int32_t dp = disc_[static_cast<size_t>(p)];
  if (disc_[static_cast<size_t>(far)] < dp) return -1;  // an ancestor of p: the "above" side
  const int32_t c = child_at_[static_cast<size_t>(e)];
  assert(c >= 0);
  // The child subtree is cut off from above p exactly when its low-link does not climb above p.
  return low_[static_cast<size_t>(c)] >= dp ? c : -1;
}

}  // namespace topoplan::analysis_detail
