// ℙ's reach (reform.h) behind the hot-planner contract (planner.h), registered as "topo-reach".
//
// What is prepared once per domain × class, at create: the rewrites that do not depend on s0 or
// the goal — the class's actions only, an effect that keeps its value read as a prevail-condition,
// actions left without effects dropped, dominated duplicates dropped (same conditions and effects,
// the cheapest kept) — compiled into one task whose actions map back to the user's. Then, by what
// that task is:
//   * unary and post-unique: ℙ prepared on it; a call is ℙ's (no allocation). When ℙ gives up
//     without a proof, the call goes on to the producer-choice search below, whose relevance
//     pruning may take the task back into ℙ's class;
//   * unary, several producers of a value: the producer tables and one ℙ over every action are
//     built once; a call runs the producer-choice search, each leaf ℙ restricted to its producers
//     (on the scratch: no allocation once the scratch has grown, unless a leaf's ℙ gives up);
//   * multi-effect: a call reformulates its instance (merging depends on what s0 reaches) and
//     runs plan_reach on the prepared task (cold work, per call).
// Plans are the user's actions. A solved outcome whose plan is not proven optimal (a producer
// choice was made and its cost is above the lower bound) carries kDetailNotProvenOptimal, so
// that "auto" can keep its optimality and pass the task on; with kDetailExpansionLimit too when
// the choices were not exhausted within the budget (or ℙ gave up on a leaf), so the plan is not
// even optimal among the plans with one producer per value.
#include <algorithm>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/reform/internal.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/topo.h"

namespace topoplan {

namespace {

using reform_detail::Work;

struct ReachHotScratch final : PlanScratch {
  TopoScratch topo;
  reform_detail::ChoiceScratch choice;
  Instance instance;  // s0 and goal copied for the cold stages (buffers reused)
  std::string message;
};

class ReachHotPlanner final : public HotPlanner {
 public:
  ReachHotPlanner(std::unique_ptr<Domain> task, std::vector<ActionId> origin, bool leaf_planners)
      : task_(std::move(task)), origin_(std::move(origin)), leaf_planners_(leaf_planners) {
    unary_ = true;
    for (ActionId a = 0; a < task_->num_actions(); ++a) unary_ = unary_ && task_->is_unary(a);
    if (unary_) {
      tables_ = reform_detail::ChoiceTables::build(*task_);
      bool pu = true;
      for (const auto& p : tables_.producers) pu = pu && p.size() <= 1;
      if (pu) {
        Result<TopoPlanner> t = TopoPlanner::create(*task_);
        if (t.ok()) topo_ = std::move(t).value();
      }
      max_len_ = task_->num_actions();
    } else {
      // A merged task's copies map to their actions; ℙ uses each copy at most once.
      const ReformOptions o;
      max_len_ = o.max_actions_factor * task_->num_actions() + 256;
    }
  }

  [[nodiscard]] std::string_view name() const override { return "topo-reach"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    auto s = std::make_unique<ReachHotScratch>();
    if (topo_) s->topo = topo_->make_scratch();
    s->instance.npc_class = kAllActions;
    return s;
  }
  PlanOutcome plan_within(const SearchLimits& /*limits*/, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    auto& s = static_cast<ReachHotScratch&>(scratch);
    s.message.clear();
    PlanOutcome o;
    *len = 0;
    const int32_t m = task_->num_variables();
    if (static_cast<int32_t>(s0.size()) != m || static_cast<int32_t>(goal.size()) != m) {
      o.detail = kDetailBadInput;
      s.message = "s0 and goal need one entry per variable";
      return o;
    }
    for (VarId v = 0; v < m; ++v) {
      const int32_t n = task_->domain_size(v);
      if (s0[v] < 0 || s0[v] >= n || (goal[v] != kUndefined && (goal[v] < 0 || goal[v] >= n))) {
        o.detail = kDetailBadInput;
        o.var = v;
        s.message = "value out of range for variable '" + task_->variable_name(v) + "'";
        return o;
      }
    }
    if (topo_) {
      const PlanOutcome t = topo_->plan(s.topo, s0, goal, out, len);
      o.status = t.status;
      if (o.status == PlanStatus::kSolved) {
        for (int32_t i = 0; i < *len; ++i) out[i] = origin_[static_cast<size_t>(out[i])];
        return o;
      }
      if (o.status == PlanStatus::kUnsolvable) {
        s.message = topo_->explain(t);
        o.detail = kDetailGoalUnreachable;
        return o;
      }
      if (o.status == PlanStatus::kBufferTooSmall) return o;
    }
    if (unary_) {
      reform_detail::search_choices(tables_, s.choice, s0, goal, ReachOptions{}.max_choices,
                                    leaf_planners_);
      const reform_detail::ChoiceOutcome& c = s.choice.outcome;
      if (c.best_cost == std::numeric_limits<int64_t>::max()) {
        o.status = c.status_without_plan();
        o.detail =
            o.status == PlanStatus::kUnsolvable ? kDetailGoalUnreachable : kDetailOutsideClass;
        s.message = c.message_without_plan();
        return o;
      }
      if (c.branched && c.best_cost != c.root_bound) o.detail = kDetailNotProvenOptimal;
      if (!c.exhausted || !c.all_answered) o.detail |= kDetailExpansionLimit;
      return emit(c.best, out, len, o);
    }
    s.instance.init.assign(s0.begin(), s0.end());
    s.instance.goal.assign(goal.begin(), goal.end());
    const ReachResult rr = plan_reach(*task_, s.instance);
    o.status = rr.result.status;
    if (o.status != PlanStatus::kSolved) {
      o.detail = o.status == PlanStatus::kUnsolvable ? kDetailGoalUnreachable : kDetailOutsideClass;
      s.message = rr.result.message;
      return o;
    }
    if (!rr.proven_optimal) o.detail = kDetailNotProvenOptimal;
    if (!rr.optimal_in_choices) o.detail |= kDetailExpansionLimit;
    return emit(rr.result.actions, out, len, o);
  }
  [[nodiscard]] int32_t max_plan_length() const override { return max_len_; }
  [[nodiscard]] std::string explain(const PlanScratch& scratch,
                                    const PlanOutcome& outcome) const override {
    const auto& s = static_cast<const ReachHotScratch&>(scratch);
    std::string out(to_string(outcome.status));
    if (!s.message.empty()) out += ": " + s.message;
    return out;
  }

 private:
  // Writes `plan` (the task's actions) as the user's actions.
  PlanOutcome emit(std::span<const ActionId> plan, std::span<ActionId> out, int32_t* len,
                   PlanOutcome o) const {
    *len = static_cast<int32_t>(plan.size());
    if (plan.size() > out.size()) {
      o.status = PlanStatus::kBufferTooSmall;
      o.detail = kDetailNone;
      return o;
    }
    for (size_t i = 0; i < plan.size(); ++i) out[i] = origin_[static_cast<size_t>(plan[i])];
    o.status = PlanStatus::kSolved;
    return o;
  }

  std::unique_ptr<Domain> task_;  // the prepared task (heap: the tables and ℙ point into it)
  std::vector<ActionId> origin_;  // per task action: the user's action
  bool leaf_planners_ = true;     // false: "auto"'s stage (see create_topo_reach_stage)
  bool unary_ = false;
  reform_detail::ChoiceTables tables_;
  std::optional<TopoPlanner> topo_;
  int32_t max_len_ = 0;
};

}  // namespace

namespace {

Result<std::unique_ptr<HotPlanner>> create_reach(const CompiledActionSet& set, bool leaf_planners) {
  const Domain& d = set.domain();
  std::vector<Work> acts;
  for (ActionId a : set.actions()) {
    Work w{a, set.cost(a), {}, {}};
    for (const Fact& f : d.prevail(a)) w.prv.push_back(f);
    for (const Effect& e : d.effects(a)) {
      if (e.pre == e.post)
        w.prv.push_back(Fact{e.var, e.pre});
      else
        w.eff.push_back(e);
    }
    if (!w.eff.empty()) acts.push_back(std::move(w));
  }
  // Dominated duplicates: the cheapest (then the first) of the same conditions and effects.
  const std::vector<uint8_t> drop = reform_detail::dominated_duplicates(acts);
  DomainDef def;
  def.name = d.name();
  for (VarId v = 0; v < d.num_variables(); ++v) {
    def.variables.push_back(VariableDef{d.variable_name(v), {}});
    for (ValueId x = 0; x < d.domain_size(v); ++x)
      def.variables.back().values.push_back(d.value_name(v, x));
  }
  std::vector<ActionId> origin;
  for (size_t i = 0; i < acts.size(); ++i) {
    if (drop[i]) continue;
    def.actions.push_back(
        ActionDef{d.action_name(acts[i].origin), acts[i].cost, acts[i].eff, acts[i].prv});
    origin.push_back(acts[i].origin);
  }
  if (def.actions.empty()) {
    // No action changes anything: a task with one inert action keeps the tables well-formed.
    return Error{"topo-reach: the action set has no action that changes a value", {}, 0};
  }
  Result<Domain> task = Domain::compile(def);
  if (!task.ok()) return Error{"topo-reach: " + task.error().message, {}, 0};
  return std::unique_ptr<HotPlanner>(std::make_unique<ReachHotPlanner>(
      std::make_unique<Domain>(std::move(task).value()), std::move(origin), leaf_planners));
}

}  // namespace

// The hot factory registered for "topo-reach" (src/runtime/planner/registry.cpp).
Result<std::unique_ptr<HotPlanner>> create_topo_reach_hot(const CompiledActionSet& set,
                                                          const HotPlannerDef& /*def*/) {
  return create_reach(set, true);
}

// "auto"'s stage (src/runtime/planner/auto_hot.cpp): a warm call allocates nothing, so a leaf
// the shared ℙ cannot answer is left unanswered (the plan, if any, then carries
// kDetailExpansionLimit and auto goes on to A*) instead of building a ℙ for it.
Result<std::unique_ptr<HotPlanner>> create_topo_reach_stage(const CompiledActionSet& set,
                                                            const HotPlannerDef& /*def*/) {
  return create_reach(set, false);
}

}  // namespace topoplan
