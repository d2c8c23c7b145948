// topoplan — GOAP A*: the search-based planner games ship (F.E.A.R. and its heirs; Orochena 2018),
// built as a strong peer rather than a strawman.
// References: docs/references.md.
//
// Design
// ------
// * Forward A* over bit-packed states (StatePacker). Duplicates are found through an
//   open-addressing hash table over the packed words; the open list is a binary heap with lazy
//   deletion (a node re-pushed with a smaller g makes its older heap entries stale).
// * Applicability and effects are precompiled per action into sparse per-word masks:
//   applicable iff (s[w] & mask) == value for every word the action reads; applying it is
//   s[w] = (s[w] & ~clear) | set. No per-node allocation: nodes, states, heap and table live in
//   arrays owned by the AStarPlanner and reused by every call (they only grow).
// * Heuristic: per-variable domain-transition-graph distances (shortest cost from value x to
//   the goal value in the variable's own transition graph, prevails ignored), precomputed per
//   NPC class and objective. When every action is unary, each action changes one variable, so
//   the SUM over variables is admissible and consistent; otherwise the MAX is used. An infinite
//   distance is a dead end, so a goal value unreachable in its own graph proves unsolvability.
// * Optimal for the chosen objective (Objective::kCost: sum of costs; kLength: number of
//   actions). Partial goals (kUndefined entries) and NPC classes are supported.
// * Limits (expansions, memory, seconds) yield kLimitReached, never a wrong kUnsolvable.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "topoplan/runtime/astar_common.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/state.h"

namespace topoplan {

class BestFirstSearch;  // src/runtime/search/best_first.h

class AStarPlanner final : public GoapSearchPlanner<AStarPlanner> {
 public:
  // Keeps a reference to `domain`, which must outlive the planner. Compiles the action masks.
  explicit AStarPlanner(const Domain& domain);
  ~AStarPlanner();
  AStarPlanner(AStarPlanner&&) noexcept;
  AStarPlanner& operator=(AStarPlanner&&) noexcept;

  // Plans from `init` (total) to `goal` (partial) with the actions of `npc_class`. Writes the
  // plan into `out` (cleared first) when the status is kSolved. `init` and `goal` must have
  // one entry per variable with values in range (Domain::check_instance checks that).
  // Allocation-free once the internal arrays have grown to the size a search needs.
  // The Instance overload, the cost overlay (set_costs, clear_costs, costs, plan with costs) and
  // the figures of the last call (last_cost, expanded, generated) are GoapSearchPlanner's.
  PlanStatus plan(std::span<const ValueId> init, std::span<const ValueId> goal, ClassId npc_class,
                  const PlannerOptions& options, std::vector<ActionId>& out);
  using GoapSearchPlanner::plan;

 private:
  struct Cond {  // one word of an action's conditions or effects
    int32_t word;
    uint64_t mask;   // conditions: bits read; effects: bits written
    uint64_t value;  // conditions: required bits; effects: new bits
  };
  struct SearchPolicy;  // the forward search's states for BestFirstSearch (astar.cpp)

  struct PostEdge {  // an action reaching (var, post) from `pre`
    ActionId action;
    ValueId pre;
  };
  // Per (class, objective) distance tables: dist[offset[v] + y * n_v + x] = cost x -> y.
  struct DistTable {  // built: GoapSearchPlanner::table_built
    std::vector<int64_t> offset;
    std::vector<int64_t> dist;
  };
  void dist_to(VarId v, ValueId target, std::span<const uint8_t> mask, Objective objective,
               int64_t* out);
  void prepare_heuristic(ClassId npc_class, Objective objective);
  [[nodiscard]] int64_t heuristic(const uint64_t* s) const;

  StatePacker packer_;
  int32_t words_ = 0;
  std::vector<int32_t> cond_offset_;  // CSR per action into conds_
  std::vector<Cond> conds_;
  std::vector<int32_t> eff_offset_;  // CSR per action into effs_
  std::vector<Cond> effs_;
  std::vector<int32_t> dist_offset_;     // per variable: first slot of its values
  std::vector<int32_t> by_post_offset_;  // CSR per (variable, value) into by_post_
  std::vector<PostEdge> by_post_;
  bool use_tables_ = true;
  std::vector<DistTable> tables_;  // (num_classes + 1) * 2 objectives
  std::vector<ValueId> goal_of_;   // per variable, kUndefined when free
  std::vector<int64_t> hgoal_;     // per (variable, value): distance to the goal value
  std::vector<uint8_t> done_;
  std::vector<ActionId> actions_;
  ClassId actions_class_ = kAllActions - 1;  // the class actions_ lists (none yet)

  // Search arrays, reused across calls.
  std::unique_ptr<BestFirstSearch> search_;
  std::vector<uint64_t> goal_mask_, goal_value_, scratch_;
  std::vector<VarId> goal_vars_;
};

// True when the hot "astar" planner (create_hot_planner) of `domain` runs its one-word search:
// every variable fits, side by side, in 64 bits, and the distance tables are small. Its plans
// are AStarPlanner's; only the per-call cost differs.
[[nodiscard]] bool astar_hot_uses_one_word(const Domain& domain);

// The registered cold-path entry point ("astar").
[[nodiscard]] PlanResult plan_astar(const Domain& domain, const Instance& instance,
                                    const PlannerOptions& options = {});

}  // namespace topoplan
