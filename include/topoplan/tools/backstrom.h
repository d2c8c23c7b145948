// topoplan — 𝒫: Bäckström's polynomial planner for SAS+-PUS (thesis 1992, pp. 84-90), the
// baseline the papers measure ℙ against (Prévost et al. 2022, §2.3; Prévost et al., SAS as
// Topological Sorting, §2.2; docs/references.md).
//
// Design
// ------
// Applies to action sets that are unary (U), post-unique (P) and single-valued (S): every
// variable is requested by prevail-conditions at one value at most. Three phases:
//   1. chains: for each variable with a goal value, walk back from the goal through the unique
//      producer of each value (P) to s0 (or to an action whose pre-condition is undefined);
//   2. requests: every action in a chain is scanned over all m variables (its prevail row, kept
//      dense as in the original, hence O(m) per action); a requested value x of variable w that
//      the chain of w does not visit makes w's chain s0 → x → goal (so an action type may occur
//      twice: SAS+-PUS minimal plans are T2, Bäckström's Theorem 4.4). Repeat to a fixpoint;
//   3. ordering: chain order, plus for every action b requesting w = x: after the action that
//      makes w = x and before the one that leaves it (again scanning all m variables per
//      action); a topological sort gives the total order, a cycle means no plan.
// Time O(m²n) per plan, as Theorem 4.11 states — the cost the papers compare ℙ against. The
// per-plan working arrays are owned by the planner and reused (no allocation after warm-up).
// The value slots and producers come from a CompiledActionSet (compiled.h, shared with ℙ, the
// class analysis and the searches); only the dense prevail rows are 𝒫's own.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

class BackstromPlanner {
 public:
  // Fails (with a message naming the offending actions or variable) unless the actions of
  // `npc_class` are unary, post-unique and single-valued. Keeps a reference to `domain`.
  [[nodiscard]] static Result<BackstromPlanner> create(const Domain& domain,
                                                       ClassId npc_class = kAllActions);
  // The same over a compiled action set (its class or mask): the chains walk the set's producer
  // index. Shares the set's indexes; its Domain must outlive the planner.
  [[nodiscard]] static Result<BackstromPlanner> create(const CompiledActionSet& set);

  // Plans from the total state `init` to the partial state `goal`. kSolved: `out` holds a plan
  // (minimal in length, each action type at most twice); kUnsolvable: proven.
  PlanStatus plan(std::span<const ValueId> init, std::span<const ValueId> goal,
                  std::vector<ActionId>& out);

  // Why the last plan() call failed (empty after kSolved).
  [[nodiscard]] const std::string& message() const { return message_; }
  // Which step of the last plan() call failed, as the plan outcome's detail bits (plan.h):
  // kDetailGoalUnreachable (no producer chain from the current value to the goal value),
  // kDetailPreconditionUnmet (no chain to, or on from, a value a prevail-condition requests),
  // kDetailOrderingCycle (the chains cannot be ordered); kDetailNone after kSolved. And on which
  // variable (-1 for none / an ordering cycle).
  [[nodiscard]] PlanDetail failure() const { return failure_; }
  [[nodiscard]] VarId failed_variable() const { return failed_var_; }

 private:
  BackstromPlanner() = default;
  bool fail(std::string why);
  bool walk(VarId v, ValueId stop, ValueId to);
  bool build(VarId v, std::span<const ValueId> init, std::span<const ValueId> goal);

  CompiledActionSet set_;  // value slots and the (post-unique) producer per slot
  int32_t m_ = 0;
  std::vector<ValueId> prevail_;  // per action, dense: m entries (kUndefined = none), as in 𝒫

  // Working arrays, reused.
  std::vector<ValueId> request_;    // per variable: the requested value (S: at most one)
  std::vector<int32_t> seq_begin_;  // per variable: its chain in seq_ (2 * n_v slots)
  std::vector<int32_t> seq_len_;
  std::vector<int32_t> visit_pos_;  // per variable: index in its chain after which w = request
  std::vector<ActionId> seq_;
  std::vector<uint32_t> scanned_;  // per action: stamp when its prevails were scanned
  uint32_t stamp_ = 0;
  std::vector<VarId> worklist_;
  std::vector<ActionId> walk_;
  std::vector<int32_t> inst_base_;  // per variable: first instance id
  std::vector<ActionId> inst_action_;
  std::vector<int32_t> head_, next_, to_, indeg_, queue_;
  std::string message_;
  PlanDetail failure_ = kDetailNone;
  VarId failed_var_ = -1;
};

// The hot planner (planner.h) registered as "backstrom": create_hot_planner("backstrom", set).
// Rejects sets that are not SAS+-PUS, and explicit action masks other than a class's.
[[nodiscard]] Result<std::unique_ptr<HotPlanner>> create_backstrom_hot(const CompiledActionSet& set,
                                                                       const HotPlannerDef& def);

// The registered cold-path entry point ("backstrom"). Non-SAS+-PUS action sets give
// kUnsupported with the reason.
[[nodiscard]] PlanResult plan_backstrom(const Domain& domain, const Instance& instance,
                                        const PlannerOptions& options = {});

}  // namespace topoplan
