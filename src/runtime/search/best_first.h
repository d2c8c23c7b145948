// The best-first search loop shared by the search planners: the exact search (uniform cost),
// forward GOAP A* and regressive GOAP A*. Written once: the node store, the duplicate lookup
// over packed states (StateTable), the binary heap with lazy deletion, the limit checks and the
// path extraction. A planner supplies a policy that knows its states:
//
//   struct Policy {
//     static constexpr TieBreak kTieBreak = ...;   // order among equal f
//     static constexpr bool kRootIsInitialState = ...;  // true: the plan is the chain reversed
//     bool is_goal(const uint64_t* state) const;
//     int64_t heuristic(const uint64_t* state) const;  // kInfiniteCost: dead end
//     // Writes each successor of `state` into `child` and calls emit(action, step_cost);
//     // stops (returns false) as soon as emit returns false.
//     template <typename Emit> bool expand(const uint64_t* state, uint64_t* child,
//                                          Emit& emit) const;
//   };
//
// The heuristic must be consistent for the first goal popped to be optimal (h = 0 makes the
// search Dijkstra's). A node found again by a cheaper path gets the new g and parent and is
// pushed again; its older heap entries become stale (f no longer equals g + h) and are skipped.
// A dead end (h = kInfiniteCost) is stored, so that it is recognised when met again, and never
// pushed. Memory is bounded by a node budget derived from SearchLimits::max_memory_bytes and
// the bytes a node costs (packed state, node, hash slots, heap entry). The arrays only grow and
// are reused by every run: no allocation per node once they have reached a search's size.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "runtime/search/state_table.h"
#include "topoplan/runtime/plan.h"

namespace topoplan {

inline constexpr int64_t kInfiniteCost = std::numeric_limits<int64_t>::max() / 4;

// How a run ended.
enum class SearchStop : uint8_t {
  kGoal,            // a goal node was popped; the plan is written
  kExhausted,       // every reachable non-dead-end node was expanded: no plan exists
  kDeadRoot,        // the root's heuristic is infinite: no plan exists
  kExpansionLimit,  // SearchLimits::max_expansions
  kTimeLimit,       // SearchLimits::max_seconds
  kMemoryLimit,     // SearchLimits::max_memory_bytes
};

// The planners' status for a stop: a limit is never "unsolvable".
inline PlanStatus search_status(SearchStop stop) {
  switch (stop) {
    case SearchStop::kGoal:
      return PlanStatus::kSolved;
    case SearchStop::kExhausted:
    case SearchStop::kDeadRoot:
      return PlanStatus::kUnsolvable;
    case SearchStop::kExpansionLimit:
    case SearchStop::kTimeLimit:
    case SearchStop::kMemoryLimit:
      break;
  }
  return PlanStatus::kLimitReached;
}

// Order among heap entries of equal f.
enum class TieBreak : uint8_t {
  kDeeperFirst,      // larger g first (A*: goes for the goal among equal f)
  kFirstInFirstOut,  // pushed first, popped first (Dijkstra: deterministic level order)
};

class BestFirstSearch {
 public:
  explicit BestFirstSearch(int32_t words_per_state)
      : words_(static_cast<size_t>(words_per_state)),
        seen_(words_per_state),
        current_(words_),
        child_(words_) {}

  // Searches from `root` (words_per_state words). On kGoal writes the actions from the root's
  // side to the goal's side of the chain into `out` (cleared first), in execution order.
  template <typename Policy>
  SearchStop run(const Policy& policy, const uint64_t* root, const SearchLimits& limits,
                 std::vector<ActionId>& out);

  // About the last run.
  [[nodiscard]] int64_t expanded() const { return expanded_; }
  [[nodiscard]] int64_t generated() const { return generated_; }
  [[nodiscard]] int64_t goal_cost() const { return goal_cost_; }  // g of the goal node
  [[nodiscard]] int64_t states() const { return static_cast<int64_t>(seen_.size()); }

 private:
  struct Node {
    int64_t g;
    int64_t h;
    int32_t parent;  // -1 for the root
    ActionId action;
  };
  struct HeapEntry {
    int64_t f;
    int64_t tie;  // larger first among equal f: g (deeper first) or -push order (FIFO)
    int32_t node;
  };
  struct HeapAfter {  // the std heap's "less": its max is the entry to pop first
    bool operator()(const HeapEntry& a, const HeapEntry& b) const {
      return a.f != b.f ? a.f > b.f : a.tie < b.tie;
    }
  };

  // Inserts the state in child_ (or finds it); returns its node id (= state id).
  int32_t intern(bool& inserted) {
    const auto [id, is_new] = seen_.insert(child_.data());
    inserted = is_new;
    const auto needed = static_cast<size_t>(id) + 1;
    if (nodes_.size() < needed) nodes_.resize(std::max(needed, nodes_.size() * 2));
    return id;
  }
  template <typename Policy>
  void push(int64_t f, int64_t g, int32_t node) {
    const int64_t tie = Policy::kTieBreak == TieBreak::kDeeperFirst ? g : -(pushes_);
    ++pushes_;
    heap_.push_back(HeapEntry{f, tie, node});
    std::push_heap(heap_.begin(), heap_.end(), HeapAfter{});
  }
  void write_path(int32_t goal, bool reverse, std::vector<ActionId>& out) const {
    for (int32_t i = goal; nodes_[static_cast<size_t>(i)].parent >= 0;
         i = nodes_[static_cast<size_t>(i)].parent)
      out.push_back(nodes_[static_cast<size_t>(i)].action);
    if (reverse) std::reverse(out.begin(), out.end());
  }

  size_t words_;
  StateTable seen_;  // packed states; node id = state id
  std::vector<Node> nodes_;
  std::vector<HeapEntry> heap_;
  std::vector<uint64_t> current_;  // the node being expanded (the pool may move under it)
  std::vector<uint64_t> child_;
  int64_t pushes_ = 0;
  int64_t expanded_ = 0;
  int64_t generated_ = 0;
  int64_t goal_cost_ = 0;
};

template <typename Policy>
SearchStop BestFirstSearch::run(const Policy& policy, const uint64_t* root,
                                const SearchLimits& limits, std::vector<ActionId>& out) {
  using Clock = std::chrono::steady_clock;
  out.clear();
  expanded_ = 0;
  generated_ = 0;
  goal_cost_ = 0;
  pushes_ = 0;
  seen_.clear();
  heap_.clear();
  // The clock is first read after 1024 expansions (and every 1024 after), so the many searches
  // that end sooner never read it; the time limit counts from that first read, later than the
  // call by the time of 1024 expansions (well under a millisecond).
  const double max_seconds = limits.max_seconds;
  Clock::time_point start{};
  const size_t per_node =
      words_ * sizeof(uint64_t) + sizeof(Node) + 2 * sizeof(int32_t) + sizeof(HeapEntry);
  const int64_t max_nodes =
      std::max<int64_t>(1, limits.max_memory_bytes / static_cast<int64_t>(per_node));

  if (words_ > 0) std::memcpy(child_.data(), root, words_ * sizeof(uint64_t));
  bool inserted = false;
  const int32_t root_id = intern(inserted);
  const int64_t h0 = policy.heuristic(child_.data());
  if (h0 >= kInfiniteCost) return SearchStop::kDeadRoot;
  nodes_[static_cast<size_t>(root_id)] = Node{0, h0, -1, -1};
  push<Policy>(h0, 0, root_id);

  SearchStop stop = SearchStop::kExhausted;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), HeapAfter{});
    const HeapEntry top = heap_.back();
    heap_.pop_back();
    const Node node = nodes_[static_cast<size_t>(top.node)];
    if (top.f != node.g + node.h) continue;  // stale: the node was reached more cheaply since
    const uint64_t* state = seen_.state(top.node);
    if (policy.is_goal(state)) {
      goal_cost_ = node.g;
      write_path(top.node, Policy::kRootIsInitialState, out);
      return SearchStop::kGoal;
    }
    if (expanded_ >= limits.max_expansions) return SearchStop::kExpansionLimit;
    if (max_seconds > 0 && (expanded_ & 1023) == 0 && expanded_ > 0) {
      const Clock::time_point now = Clock::now();
      if (expanded_ == 1024) start = now;
      if (std::chrono::duration<double>(now - start).count() > max_seconds)
        return SearchStop::kTimeLimit;
    }
    ++expanded_;
    std::copy(state, state + words_, current_.begin());
    auto emit = [&](ActionId action, int64_t step_cost) -> bool {
      ++generated_;
      if (static_cast<int64_t>(seen_.size()) >= max_nodes) {
        stop = SearchStop::kMemoryLimit;
        return false;
      }
      const int64_t g = node.g + step_cost;
      const int32_t child = intern(inserted);
      Node& known = nodes_[static_cast<size_t>(child)];
      if (inserted) {
        const int64_t h = policy.heuristic(child_.data());
        known = Node{g, h, top.node, action};
        if (h < kInfiniteCost) push<Policy>(g + h, g, child);  // a dead end is never pushed
      } else if (g < known.g && known.h < kInfiniteCost) {
        known.g = g;
        known.parent = top.node;
        known.action = action;
        push<Policy>(g + known.h, g, child);
      }
      return true;
    };
    if (!policy.expand(current_.data(), child_.data(), emit)) return stop;
  }
  return SearchStop::kExhausted;
}

}  // namespace topoplan
