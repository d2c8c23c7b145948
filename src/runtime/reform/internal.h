// Shared by src/runtime/reform/: the working form of an action and the relaxed closures.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/topo.h"

namespace topoplan::reform_detail {

// An action while it is being rewritten: its original id, cost, effects and prevail-conditions.
struct Work {
  ActionId origin;
  int64_t cost;
  std::vector<Effect> eff;
  std::vector<Fact> prv;
};

// Ignoring deletes: which actions can apply from s0 (reach_act), which of those can matter to the
// goal (relevant_act: an effect reaches a goal value or a condition of a relevant action), and
// which value slots are reached (slot = Σ_{u<v} |D_u| + x).
void relaxed_closure(const Domain& d, std::span<const Work> acts, std::span<const ValueId> s0,
                     std::span<const ValueId> goal, std::vector<uint8_t>& reach_act,
                     std::vector<uint8_t>& relevant_act, std::vector<uint8_t>& reached);

// What the producer-choice search reads of a unary task, built once per task (per prepared class
// on the hot path, per reformulation on the cold one): its actions as Work and, per value slot,
// every action setting it. `domain` must outlive the tables.
struct ChoiceTables {
  const Domain* domain = nullptr;
  std::vector<Work> acts;
  std::vector<int32_t> off;                      // value slot offsets
  std::vector<std::vector<ActionId>> producers;  // per slot
  // Narrowing's indexes (counter-based closures, linear in |A| + Σ conditions per node):
  std::vector<int32_t> post;      // per action: the slot its (one) effect sets
  std::vector<int32_t> cond_off;  // per action: its condition slots are conds[cond_off[a] ..
  std::vector<int32_t> conds;     // cond_off[a + 1]) (defined pre-conditions and prevails)
  std::vector<int32_t> req_off;   // per slot: the actions with that condition are
  std::vector<ActionId> req;      // req[req_off[x] .. req_off[x + 1])
  // ℙ's tables over every action, restricted to one leaf's producers at a time (topo.h,
  // create_restrictable): no leaf builds a planner or runs the class analysis.
  std::optional<TopoPlanner> topo;
  [[nodiscard]] static ChoiceTables build(const Domain& d);
};

// The producer-choice search's answer (src/runtime/reform/choice.cpp).
struct ChoiceOutcome {
  int64_t best_cost = std::numeric_limits<int64_t>::max();  // max: no plan found
  std::vector<ActionId> best;                               // in the task's actions
  int32_t choices = 0;
  int32_t pruned = 0;
  bool branched = false;
  bool exhausted = true;
  bool all_answered = true;
  int64_t root_bound = -1;  // lower bound on every plan's cost (the root's, after narrowing)
  PlanStatus single_status = PlanStatus::kGaveUp;
  std::string single_message;
  // When no plan was found: kUnsolvable with a proof, or kGaveUp; and why, in words.
  [[nodiscard]] PlanStatus status_without_plan() const;
  [[nodiscard]] std::string message_without_plan() const;
};

// The producer-choice search's working memory, one per thread: after the first calls have grown
// it, a call allocates nothing unless a leaf's ℙ gives up (then a ℙ is built for that leaf alone).
struct ChoiceScratch {
  std::optional<TopoPlanner> topo;  // a copy of the tables' restrictable ℙ
  TopoScratch topo_scratch;
  std::vector<ActionId> out;                     // a leaf's plan
  std::vector<uint8_t> reached, rel, reach_act;  // narrowing: per slot, per slot, per action
  std::vector<int32_t> missing;                  // narrowing: per action, conditions not reached
  std::vector<int32_t> slots;                    // narrowing: the slots still to process
  std::vector<uint8_t> needed;                   // lower bound: per slot
  std::vector<std::pair<VarId, ValueId>> queue;  // lower bound
  struct Level {                                 // per search depth
    std::vector<uint8_t> mask;
    std::vector<ActionId> alts;
  };
  std::vector<Level> levels;
  std::vector<uint8_t> seen;        // the masks of the leaves planned, one after another
  std::vector<uint64_t> seen_hash;  // their hashes
  ChoiceOutcome outcome;            // the last call's answer
};

// ℙ over producer choices on a unary task (reform.h, step 2) from `s0` to `goal` (every action of
// the tables' domain is available); the answer is scratch.outcome.
// leaf_planners: where the restricted ℙ gives up on a leaf, build a ℙ for that leaf alone (it
// allocates); without, the leaf counts as unanswered (ChoiceOutcome::all_answered).
void search_choices(const ChoiceTables& tables, ChoiceScratch& scratch, std::span<const ValueId> s0,
                    std::span<const ValueId> goal, int32_t max_choices, bool leaf_planners = true);
// Same with a scratch of its own (cold path).
[[nodiscard]] ChoiceOutcome search_choices(const ChoiceTables& tables, const Instance& instance,
                                           int32_t max_choices);

// Per action, 1 when another action has the same effects and conditions at a lower cost (or the
// same cost and an earlier index): the dominated duplicates every reformulation drops.
std::vector<uint8_t> dominated_duplicates(const std::vector<Work>& acts);

}  // namespace topoplan::reform_detail
