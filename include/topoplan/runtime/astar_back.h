// topoplan — regressive (backward) GOAP A*, as F.E.A.R. plans: from the goal toward the
// current world state, over partial states ("facts still to achieve").
//
// Design
// ------
// * A search node is a subgoal: a partial state packed one field per variable, holding
//   value + 1 (0 = free). The root is the goal; a node is a solution when the initial state
//   satisfies it (every defined field equals init + 1).
// * Regression of subgoal G through action a (effects E, prevails P):
//     relevant    some effect e has G[e.var] = e.post;
//     consistent  every effect e has G[e.var] ∈ {free, e.post} and every prevail (v, x) has
//                 G[v] ∈ {free, x} (a conflicting prevail would ask v to hold two values);
//     subgoal     G' = G with every effect variable set to e.pre (free when pre = u) and every
//                 prevail variable set to x.
//   A state satisfying G' admits a, and a leads it to a state satisfying G. Conversely every
//   plan regresses to a chain of subgoals no costlier than the plan (an action of the plan
//   that is not relevant to the subgoal after it can be dropped: it touches no defined
//   variable of that subgoal), so the search over subgoals is complete and optimal.
// * Both tests are one SWAR expression per word the action touches (precompiled masks), and
//   the regression is G' = (G & ~touched) | new_values: no per-variable loop.
// * Heuristic: per-variable domain-transition-graph distances from the initial value to the
//   required value (prevails ignored), max over the subgoal's defined variables, or the sum
//   when every action is unary. Admissible and consistent; the proof is in astar_back.cpp.
//   A required value unreachable from init in its own graph makes the subgoal a dead end.
// * Duplicate detection on the packed subgoals (open-addressing hash); no subsumption. The
//   search proves unsolvability only by exhausting the subgoals reachable from the goal.
// * Node/memory/time limits yield kLimitReached, never kUnsolvable. No allocation per node:
//   arrays live in the planner and are reused across calls (they only grow).
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

class BackAStarPlanner final : public GoapSearchPlanner<BackAStarPlanner> {
 public:
  // Keeps a reference to `domain`, which must outlive the planner.
  explicit BackAStarPlanner(const Domain& domain);
  ~BackAStarPlanner();
  BackAStarPlanner(BackAStarPlanner&&) noexcept;
  BackAStarPlanner& operator=(BackAStarPlanner&&) noexcept;

  // Plans from `init` (total) to `goal` (partial) with the actions of `npc_class`; same
  // contract as AStarPlanner::plan. The plan is written to `out` in execution order. The other
  // overloads, the cost overlay and the figures of the last call are GoapSearchPlanner's.
  PlanStatus plan(std::span<const ValueId> init, std::span<const ValueId> goal, ClassId npc_class,
                  const PlannerOptions& options, std::vector<ActionId>& out);
  using GoapSearchPlanner::plan;

 private:
  struct Op {  // one word of an action's regression
    int32_t word;
    uint64_t touched;  // fields of effect and prevail variables
    uint64_t need;     // compatible values there: post + 1 (effects), x + 1 (prevails)
    uint64_t effect;   // fields of effect variables
    uint64_t next;     // regressed values: pre + 1 (0 when pre = u), x + 1 (prevails)
  };
  struct SearchPolicy;  // the regression's subgoals for BestFirstSearch (astar_back.cpp)
  struct DtgEdge {
    ActionId action;
    ValueId pre;  // kUndefined: from every value
    ValueId post;
  };
  struct DistTable {  // dist[offset[v] + x * n_v + y]; built: GoapSearchPlanner::table_built
    std::vector<int64_t> dist;
  };

  void dist_from(VarId v, ValueId source, std::span<const uint8_t> mask, Objective objective,
                 int64_t* out);
  void prepare_heuristic(std::span<const ValueId> init, ClassId npc_class, Objective objective);
  [[nodiscard]] int64_t heuristic(const uint64_t* g) const;

  int32_t words_ = 0;
  BitFields fields_;                  // per variable: 0 = free, value + 1 = required
  std::vector<uint64_t> low_, high_;  // per word: the bits below each field's top bit; top bits
  std::vector<int32_t> op_offset_;    // CSR per action into ops_
  std::vector<Op> ops_;
  std::vector<int32_t> dtg_offset_;  // CSR per variable into dtg_
  std::vector<DtgEdge> dtg_;
  std::vector<int64_t> table_offset_;  // per variable, into DistTable::dist
  bool use_tables_ = true;
  std::vector<DistTable> tables_;      // (num_classes + 1) * 2 objectives
  std::vector<int32_t> field_offset_;  // per variable: first entry of hfield_
  std::vector<int64_t> hfield_;        // per (variable, field value): h term; field 0 -> 0
  std::vector<uint8_t> done_;
  std::vector<ActionId> actions_;

  std::unique_ptr<BestFirstSearch> search_;
  std::vector<uint64_t> init_, scratch_;
};

// The hot planner (planner.h) registered as "astar-back": create_hot_planner("astar-back", set).
// Takes the set's class and cost overlay; rejects explicit action masks other than a class's.
[[nodiscard]] Result<std::unique_ptr<HotPlanner>> create_astar_back_hot(
    const CompiledActionSet& set, const HotPlannerDef& def);

// The registered cold-path entry point ("astar-back").
[[nodiscard]] PlanResult plan_astar_back(const Domain& domain, const Instance& instance,
                                         const PlannerOptions& options = {});

}  // namespace topoplan
