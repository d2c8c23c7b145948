// Connectivity of an undirected multigraph after deleting one vertex (internal to the analysis).
//
// The C2* test asks, for a vertex p (the part of G(v) holding a 2-cycle) and two edges incident to
// p, whether their far endpoints stay connected once p is deleted. One depth-first search computes
// discovery times, low-links and, for every edge, the child of its earlier-discovered endpoint on
// the tree path to the other one; after that each question costs O(1), so the whole test stays
// linear in the number of vertices and edges.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace topoplan::analysis_detail {

class SeparationIndex {
 public:
  // Vertices 0 .. num_vertices-1; edges[i] = {u, w} with u != w (parallel edges allowed).
  SeparationIndex(int32_t num_vertices, std::span<const std::pair<int32_t, int32_t>> edges);

  // Label of the connected component of (graph - p) that holds the endpoint of edge `e` other
  // than p; `e` must be incident to p. Two such endpoints are connected in graph - p iff their
  // labels are equal. Labels lie in [-1, num_vertices).
  [[nodiscard]] int32_t side(int32_t p, int32_t e) const;

 private:
  std::vector<std::pair<int32_t, int32_t>> edges_;
  std::vector<int32_t> disc_;      // discovery time, per vertex
  std::vector<int32_t> low_;       // low-link, per vertex
  std::vector<int32_t> child_at_;  // per edge: child of the earlier endpoint towards the later one
};

}  // namespace topoplan::analysis_detail
