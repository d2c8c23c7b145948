// GOAP A* over one 64-bit word: the hot "astar" planner's search when every variable of the
// domain fits, side by side, in one machine word.
//
// Why a second forward A*: on the small tasks game designers write (a handful of boolean facts,
// 1-10 expansions) the general search (astar.cpp over BestFirstSearch) spends more on its
// per-call setup — goal masks over a word vector, heuristic rows copied per goal variable, state
// copies through a pooled table — than on the search itself. Here a state is a uint64_t, an
// action is four words (applicable iff (s & pre_mask) == pre_value; successor
// (s & ~eff_mask) | eff_value), the goal test is one mask compare, and everything a call needs is
// precompiled per planner or lives in a scratch reused by every call: no allocation once the
// arrays have grown, duplicates found through an open-addressed table cleared in O(1) by a
// generation stamp.
//
// Why the same plans as the general A*: it computes the same heuristic (per-variable transition
// distances with the set's costs: the sum when every action of the domain is unary, else the
// max), interns states in the same order, and orders its binary heap with the same comparator
// and the same std::push_heap / pop_heap calls; so it expands the same nodes in the same order,
// stops at the same limits and returns the same plan. Only the representation differs.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"

namespace topoplan::detail {

struct PackedAStarScratch {
  struct Node {
    uint64_t state;
    int64_t g;
    int64_t h;
    int32_t parent;  // -1 for the root
    ActionId action;
  };
  struct Slot {
    uint32_t stamp;  // the slot is used in this call iff stamp == the scratch's stamp
    int32_t node;
  };
  struct HeapEntry {
    int64_t f;
    int64_t tie;  // g: deeper first among equal f
    int32_t node;
  };
  // The same order in one word when f and g fit 32 bits: (f, 2^32 - 1 - g), compared as one
  // unsigned number, orders entries as (f, tie) does and ties exactly when both tie, so the std
  // heap calls make the same moves (they see the same comparisons) on 16 bytes instead of 24.
  struct CompactEntry {
    uint64_t key;
    int32_t node;
  };
  struct GoalTerm {  // one goal variable's heuristic: row[(s >> shift) & mask]
    const int64_t* row;
    uint64_t mask;
    int32_t shift;
  };

  explicit PackedAStarScratch(size_t num_variables);

  // Arrays used up to a count (a vector's push_back is not inlined on every compiler; the
  // arrays only grow, and never in the small searches this planner is for).
  std::vector<Node> nodes;  // node id = index; every node of the call is in `slots`
  size_t num_nodes = 0;
  std::vector<Slot> slots;  // power-of-two size, at most half full
  uint32_t stamp = 0;
  std::vector<HeapEntry> heap;
  size_t heap_size = 0;
  size_t heap_capacity = 0;  // heap.size(), kept apart: the push's test is then one compare
  std::vector<CompactEntry> compact_heap;  // instead of `heap` when the planner's keys fit
  size_t compact_capacity = 0;
  std::vector<GoalTerm> terms;  // one per variable
  size_t num_terms = 0;
  int64_t expanded = 0;
  int64_t generated = 0;
};

class PackedAStar {
 public:
  // True when every variable of the set's domain fits in one word together (ceil(log2 n) bits
  // each) and the transition-distance tables stay small.
  [[nodiscard]] static bool fits(const Domain& domain);

  // `set` must fit (fits()). Precompiles the set's actions and its distance tables for
  // `objective`.
  PackedAStar(const CompiledActionSet& set, Objective objective);

  // Plans from `s0` to `goal` within `limits` (already checked in range). Validates s0 and goal
  // (size, values in range: kGaveUp + kDetailBadInput otherwise). Plan written to `out`.
  PlanOutcome plan(PackedAStarScratch& scratch, std::span<const ValueId> s0,
                   std::span<const ValueId> goal, const SearchLimits& limits,
                   std::span<ActionId> out, int32_t* len) const;

 private:
  struct Action {
    uint64_t pre_mask, pre_value, eff_mask, eff_value;
    int64_t cost;
    ActionId id;
  };
  struct Var {
    uint64_t field;  // its bits, shifted down
    int32_t shift;
    int32_t size;    // number of values
    int64_t offset;  // of its table in dist_: dist_[offset + y * size + x] = cost x -> y
  };

  // The search from `root` once the goal is compiled; kOneBit: the one-bit layout's heuristic
  // and the compact heap (compact_).
  template <bool kOneBit>
  PlanOutcome search(PackedAStarScratch& s, uint64_t root, uint64_t goal_mask, uint64_t goal_value,
                     const SearchLimits& limits, std::span<ActionId> out, int32_t* len) const;
  template <bool kOneBit>
  [[nodiscard]] int64_t heuristic(const PackedAStarScratch& s, uint64_t state, uint64_t goal_mask,
                                  uint64_t goal_value) const;

  std::vector<Action> actions_;  // the set's actions, in action-id order
  std::vector<Var> vars_;
  std::vector<int64_t> dist_;
  // One-bit layout: per variable, the cost of setting it to 1 from 0 (on) and to 0 from 1 (off).
  std::vector<int64_t> flip_on_, flip_off_;
  bool sum_ = false;      // every action of the domain unary: the sum is admissible
  bool one_bit_ = false;  // every variable boolean: variable v is bit v
  // one_bit_, and every f and g of a search fits 32 bits (CompactEntry): the search of the
  // small boolean tasks GOAP designers write.
  bool compact_ = false;
};

// The one-word search inside a hot "astar" planner (create_hot_planner("astar", ...)), or null
// when `planner` is another planner or its domain does not fit one word; and the search's part
// of a scratch that planner made. Lets a planner that delegates to "astar" first ("auto") call
// the search directly, without two virtual calls and outcome copies per plan.
[[nodiscard]] const PackedAStar* one_word_search(const HotPlanner& planner);
[[nodiscard]] PackedAStarScratch& one_word_scratch(PlanScratch& astar_scratch);

}  // namespace topoplan::detail
