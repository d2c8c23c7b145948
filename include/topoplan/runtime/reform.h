// topoplan — ℙ's reach: exact reformulation of one instance, and ℙ over producer choices.
//
// Design
// ------
// ℙ (topo.h) takes unary, post-unique action sets. The domains game designers write are often
// neither (docs/domains.md, "Real GOAP domains"): deliveries move two flags at once, and walking
// and driving both bring the NPC to the same place. Two stages bring such instances to ℙ without
// changing which plans exist or what they cost (docs/algorithm.md, "Reach"):
//
//   1. reformulate() rewrites one instance (its class's actions, its s0 and goal) into an
//      equivalent task:
//        * an effect that keeps its value (pre = post) becomes a prevail-condition; an action
//          left with no effect is dropped (it never helps a plan);
//        * actions that cannot apply from s0 even ignoring deletes are dropped, then those that
//          cannot matter to the goal (backward relevance): removing them from any plan leaves a
//          plan, no more costly (the argument is in docs/algorithm.md);
//        * of actions with the same conditions and effects, the cheapest is kept;
//        * variables that a multi-effect action changes together are merged into one variable
//          whose values are the tuples reachable in their projection from s0 (invariant
//          synthesis in the sense of Helmert 2009, §5, restricted to what this instance reaches):
//          the action becomes unary. An action whose condition names only some members of a
//          merged variable becomes one copy per matching tuple; a goal naming several tuples
//          becomes an extra value "goal" entered at no cost from each of them.
//      Plans of the two tasks correspond one to one (each copy maps to its action), with the same
//      cost; map_plan() gives the user's actions back.
//   2. plan_reach() runs ℙ on the reformulated task. When several actions still produce one
//      value, it searches over producer choices, not over states: each choice keeps one
//      producer per value, a post-unique task that ℙ decides in linear time. Branching only on
//      values that stay relevant, and pruning with a lower bound (the costs of actions every plan
//      of the choice must contain), it returns the cheapest plan found. When the choices are
//      exhausted within the budget and ℙ answered each of them, that plan is optimal among the
//      plans that use one producer per value (ReachResult::optimal_in_choices).
//
// Cold path: both allocate (per instance). Every plan is validated against the original domain
// before it is returned.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

struct ReformOptions {
  bool prune = true;                // reachability, relevance and dominated duplicates
  bool merge = true;                // merge variables changed together
  int32_t max_merged_values = 512;  // a group reaching more tuples stays unmerged
  int32_t max_actions_factor = 16;  // copies allowed: at most factor × |A| + 256 actions
};

// One merged variable of a reformulation: its members (original variables) and, per value, the
// members' values.
struct MergedVariable {
  std::vector<VarId> members;
  std::vector<std::vector<ValueId>> tuples;
};

struct Reformulation {
  Domain domain;      // every action available (no NPC classes)
  Instance instance;  // s0 and goal in the reformulated variables
  // Per reformulated action: the original action, or -1 for the no-cost action that enters the
  // extra value "goal" of a merged variable whose goal names several of its tuples (docs/
  // algorithm.md, "Reach"; map_plan() drops it).
  std::vector<ActionId> origin;
  std::vector<VarId> var_origin;    // per reformulated variable: the original one (-1: merged)
  std::vector<int32_t> var_merged;  // ... or its index in `merged` (-1: not merged)
  std::vector<MergedVariable> merged;
  // What the rewrite did.
  int32_t prevails_from_effects = 0;  // pre = post effects read as prevail-conditions
  int32_t dropped_noop = 0;           // actions left without effects
  int32_t dropped_unreachable = 0;    // ... not applicable from s0 even ignoring deletes
  int32_t dropped_irrelevant = 0;     // ... unable to matter to the goal
  int32_t dropped_dominated = 0;      // ... same conditions and effects as a cheaper one
  int32_t unmerged_groups = 0;        // groups left unmerged (too many tuples or copies)
  // A proof that the instance has no plan, in words ("" when none was found): a goal value is
  // unreachable ignoring deletes, or no reachable tuple of a merged variable meets the goal.
  std::string unsolvable;

  // The original actions of a plan of the reformulated task.
  [[nodiscard]] std::vector<ActionId> map_plan(std::span<const ActionId> plan) const;
  // "hasLogs+logsDelivered ∈ {(false,false), (true,false), (false,true)}" for merged variable i.
  [[nodiscard]] std::string describe_merge(const Domain& original, size_t i) const;
};

// The reformulation of `instance` (its class's actions). Errors: an instance that does not fit
// the domain (the message of Domain::check_instance).
[[nodiscard]] Result<Reformulation> reformulate(const Domain& domain, const Instance& instance,
                                                const ReformOptions& options = {});

// What would bring `instance` into ℙ's reach, in the designer's terms, one sentence each: the
// variables to merge ("merge hasLogs and logsDelivered into one variable ∈ {...}"), the effects
// read as prevail-conditions, the actions ignored for this start and goal, and the values that
// keep several producers ("'WalkTo-X' and 'DriveTo-X' both produce location=X: ℙ chooses between
// 2 producers"). Empty when the instance already fits ℙ unchanged. Cold path.
[[nodiscard]] std::vector<std::string> advise(const Domain& domain, const Instance& instance,
                                              const ReformOptions& options = {});

struct ReachOptions {
  ReformOptions reform;
  // The budget: producer choices ℙ is run on, and 16 search nodes per choice (nodes cut by the
  // lower bound cost no ℙ call but still count).
  int32_t max_choices = 256;
};

struct ReachResult {
  PlanResult result;             // the plan in the original domain's actions, validated; or why not
  bool reformulated_pu = false;  // the reformulated task is unary and post-unique (no choice)
  int32_t choices = 0;           // producer choices ℙ was run on
  int32_t pruned = 0;            // choices cut by the lower bound
  // kSolved without choices: the plan is optimal (ℙ's guarantee on an equivalent task).
  // With choices: optimal among plans that use one producer per value when this is true (the
  // space was exhausted and ℙ answered every choice).
  bool optimal_in_choices = false;
  // kSolved and the plan is the exact optimum: no choice was needed, or its cost equals a lower
  // bound on every plan (the costs of the actions every plan contains).
  bool proven_optimal = false;
};

// ℙ after reformulation, over producer choices (see the header comment). kSolved: a valid plan;
// kUnsolvable: proven (reformulation's proof, or ℙ's on a task that needed no choice); kGaveUp:
// no plan found within the budget, or every choice failed (not a proof); kUnsupported: a
// multi-effect action remained (its group was left unmerged).
[[nodiscard]] ReachResult plan_reach(const Domain& domain, const Instance& instance,
                                     const ReachOptions& options = {});

// The cold PlanFn registered as "topo-reach": plan_reach with default options; stats.reason says
// how the answer was reached (choices explored, whether optimality among choices is proven).
[[nodiscard]] PlanResult plan_topo_reach(const Domain& domain, const Instance& instance,
                                         const PlannerOptions& options = {});

}  // namespace topoplan
