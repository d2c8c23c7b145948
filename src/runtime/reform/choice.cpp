// ℙ over producer choices on a reformulated instance (reform.h, step 2).
//
// Search tree: a node is an action mask of the reformulated task. Its actions that cannot apply
// from s0 or matter to the goal are dropped first (exact: docs/algorithm.md, "Reach"). If some
// value still has several relevant producers, the node branches on the first such value, one
// child per producer (cheapest first), each keeping that producer and dropping the others. A leaf
// is post-unique: ℙ plans it. Every plan that uses one producer per value lies within some leaf
// (choose its producer at each branch), and ℙ's plan is the cheapest plan of its leaf (every
// chosen action is in every plan of the leaf), so the best leaf plan is optimal among such plans
// once every leaf is answered. A node whose lower bound (the costs of the actions every plan of
// the node contains: sole producers of needed values, followed back from the goal) is not below
// the best plan found is cut.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "runtime/reform/internal.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

using reform_detail::Work;

constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max();

struct Search {
  const Domain& d;
  const Instance& inst;
  int32_t budget;
  const std::vector<Work>& acts;                        // the actions, as Work (for the closures)
  const std::vector<int32_t>& off;                      // value slot offsets
  const std::vector<std::vector<ActionId>>& producers;  // per slot: every action setting it

  int64_t best_cost = kInfinite;
  std::vector<ActionId> best;
  int32_t choices = 0;
  int32_t pruned = 0;
  int64_t nodes = 0;         // search nodes visited (leaves and branches); budget: 16 per choice
  bool exhausted = true;     // no node was skipped for the budget
  bool all_answered = true;  // ℙ answered (plan or proof) on every leaf
  bool branched = false;
  int64_t root_bound = -1;                         // the root's lower bound (after narrowing)
  PlanStatus single_status = PlanStatus::kGaveUp;  // the leaf's status when nothing branched
  std::string single_message;
  std::set<std::vector<uint8_t>> seen;

  Search(const reform_detail::ChoiceTables& t, const Instance& in, int32_t max_choices)
      : d(*t.domain),
        inst(in),
        budget(max_choices),
        acts(t.acts),
        off(t.off),
        producers(t.producers) {}
  [[nodiscard]] size_t slot(VarId v, ValueId x) const { return static_cast<size_t>(off[v] + x); }

  // Drops from `mask` the actions that cannot apply or cannot matter.
  void narrow(std::vector<uint8_t>& mask) const {
    std::vector<Work> sub;
    std::vector<ActionId> ids;
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)]) {
        sub.push_back(acts[static_cast<size_t>(a)]);
        ids.push_back(a);
      }
    std::vector<uint8_t> reach, rel, reached;
    reform_detail::relaxed_closure(d, sub, inst.init, inst.goal, reach, rel, reached);
    for (size_t i = 0; i < ids.size(); ++i)
      if (!rel[i]) mask[static_cast<size_t>(ids[i])] = 0;
  }

  // Σ cost of the actions every plan within `mask` contains; kInfinite when a needed value has
  // no producer (the node has no plan).
  [[nodiscard]] int64_t lower_bound(const std::vector<uint8_t>& mask) const {
    std::vector<uint8_t> needed(static_cast<size_t>(off.back()), 0), taken(acts.size(), 0);
    std::vector<std::pair<VarId, ValueId>> queue;
    auto need = [&](VarId v, ValueId x) {
      if (x == kUndefined || x == inst.init[v] || needed[slot(v, x)]) return;
      needed[slot(v, x)] = 1;
      queue.emplace_back(v, x);
    };
    for (VarId v = 0; v < d.num_variables(); ++v) need(v, inst.goal[v]);
    int64_t sum = 0;
    while (!queue.empty()) {
      const auto [v, x] = queue.back();
      queue.pop_back();
      ActionId only = -1;
      int32_t n = 0;
      for (ActionId a : producers[slot(v, x)])
        if (mask[static_cast<size_t>(a)]) {
          only = a;
          ++n;
        }
      if (n == 0) return kInfinite;
      if (n > 1 || taken[static_cast<size_t>(only)]) continue;
      taken[static_cast<size_t>(only)] = 1;
      sum += d.cost(only);
      for (const Effect& e : d.effects(only)) need(e.var, e.pre);
      for (const Fact& f : d.prevail(only)) need(f.var, f.value);
    }
    return sum;
  }

  void leaf(const std::vector<uint8_t>& mask) {
    if (!seen.insert(mask).second) return;
    ++choices;
    Result<TopoPlanner> planner = TopoPlanner::create(d, mask);
    if (!planner) {  // cannot happen on a unary post-unique mask; counted as unanswered
      all_answered = false;
      single_message = planner.error().to_string();
      return;
    }
    TopoScratch scratch = planner->make_scratch();
    std::vector<ActionId> out(static_cast<size_t>(planner->max_plan_length()));
    int32_t len = 0;
    const PlanOutcome outcome = planner->plan(scratch, inst.init, inst.goal, out, &len);
    const PlanStatus st = outcome.status;
    single_status = st;
    if (st == PlanStatus::kSolved) {
      out.resize(static_cast<size_t>(len));
      const int64_t c = plan_cost(d, out);
      if (c < best_cost) {
        best_cost = c;
        best = std::move(out);
      }
    } else {
      single_message = planner->explain(outcome);
      if (st != PlanStatus::kUnsolvable) all_answered = false;
    }
  }

  void dfs(std::vector<uint8_t> mask) {
    if (choices >= budget || nodes >= int64_t{16} * budget) {
      exhausted = false;
      return;
    }
    ++nodes;
    narrow(mask);
    // kInfinite proves the node has no plan; otherwise it is cut when it cannot beat the best.
    const int64_t bound = lower_bound(mask);
    if (root_bound < 0) root_bound = bound;
    if (bound >= best_cost) {
      ++pruned;
      return;
    }
    // The first value with several relevant producers.
    std::vector<ActionId> alts;
    for (size_t s = 0; s < producers.size() && alts.size() < 2; ++s) {
      alts.clear();
      for (ActionId a : producers[s])
        if (mask[static_cast<size_t>(a)]) alts.push_back(a);
    }
    if (alts.size() < 2) {
      leaf(mask);
      return;
    }
    branched = true;
    std::stable_sort(alts.begin(), alts.end(),
                     [&](ActionId a, ActionId b) { return d.cost(a) < d.cost(b); });
    for (ActionId keep : alts) {
      std::vector<uint8_t> child = mask;
      for (ActionId other : alts)
        if (other != keep) child[static_cast<size_t>(other)] = 0;
      dfs(std::move(child));
    }
  }
};

}  // namespace

namespace reform_detail {

ChoiceTables ChoiceTables::build(const Domain& d) {
  ChoiceTables t;
  t.domain = &d;
  t.off.assign(static_cast<size_t>(d.num_variables()) + 1, 0);
  for (VarId v = 0; v < d.num_variables(); ++v) t.off[v + 1] = t.off[v] + d.domain_size(v);
  t.producers.resize(static_cast<size_t>(t.off.back()));
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    Work w{a, d.cost(a), {}, {}};
    for (const Effect& e : d.effects(a)) w.eff.push_back(e);
    for (const Fact& f : d.prevail(a)) w.prv.push_back(f);
    t.producers[static_cast<size_t>(t.off[w.eff[0].var] + w.eff[0].post)].push_back(a);
    t.acts.push_back(std::move(w));
  }
  return t;
}

PlanStatus ChoiceOutcome::status_without_plan() const {
  if (!branched && choices == 1 && single_status == PlanStatus::kUnsolvable)
    return PlanStatus::kUnsolvable;
  // The root had no plan by its bound: a needed value without any producer.
  if (!branched && choices == 0 && pruned == 1) return PlanStatus::kUnsolvable;
  return PlanStatus::kGaveUp;
}

std::string ChoiceOutcome::message_without_plan() const {
  if (!branched && choices == 1 && single_status == PlanStatus::kUnsolvable) return single_message;
  if (!branched && choices == 0 && pruned == 1)
    return "a value the goal needs has no producer among the relevant actions";
  return branched ? "no plan with one producer per value among " + std::to_string(choices) +
                        " choices" + (exhausted ? "" : " (budget spent)")
                  : single_message;
}

ChoiceOutcome search_choices(const ChoiceTables& tables, const Instance& instance,
                             int32_t max_choices) {
  Search search(tables, instance, std::max(max_choices, 1));
  search.dfs(std::vector<uint8_t>(static_cast<size_t>(tables.domain->num_actions()), 1));
  ChoiceOutcome o;
  o.best_cost = search.best_cost;
  o.best = std::move(search.best);
  o.choices = search.choices;
  o.pruned = search.pruned;
  o.branched = search.branched;
  o.exhausted = search.exhausted;
  o.all_answered = search.all_answered;
  o.root_bound = search.root_bound;
  o.single_status = search.single_status;
  o.single_message = std::move(search.single_message);
  return o;
}

}  // namespace reform_detail

ReachResult plan_reach(const Domain& domain, const Instance& instance,
                       const ReachOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  ReachResult rr;
  PlanResult& result = rr.result;
  result.stats.engine = "topo-reach";
  auto finish = [&]() {
    result.stats.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return rr;
  };
  Result<Reformulation> ref = reformulate(domain, instance, options.reform);
  if (!ref) {
    result.status = PlanStatus::kGaveUp;
    result.message = ref.error().to_string();
    return finish();
  }
  if (!ref->unsolvable.empty()) {
    result.status = PlanStatus::kUnsolvable;
    result.message = ref->unsolvable;
    return finish();
  }
  const Domain& d = ref->domain;
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    if (d.is_unary(a)) continue;
    result.status = PlanStatus::kUnsupported;
    result.message = "action '" + d.action_name(a) + "' changes " +
                     std::to_string(d.effects(a).size()) +
                     " variables that could not be merged into one (more combinations reachable "
                     "than ReformOptions::max_merged_values, or too many copies)";
    return finish();
  }
  const reform_detail::ChoiceTables tables = reform_detail::ChoiceTables::build(d);
  reform_detail::ChoiceOutcome search =
      reform_detail::search_choices(tables, ref->instance, options.max_choices);
  rr.choices = search.choices;
  rr.pruned = search.pruned;
  rr.reformulated_pu = !search.branched;
  if (search.best_cost == kInfinite) {
    result.status = search.status_without_plan();
    result.message = search.message_without_plan();
    return finish();
  }
  std::vector<ActionId> plan = ref->map_plan(search.best);
  const Validation v = validate_plan(domain, instance, plan);
  if (!v.valid) {  // a bug in the reformulation; never returned as a plan
    result.status = PlanStatus::kGaveUp;
    result.message = "internal: the mapped plan failed validation: " + v.reason;
    return finish();
  }
  rr.optimal_in_choices = search.exhausted && search.all_answered;
  rr.proven_optimal = !search.branched || search.best_cost == search.root_bound;
  result.status = PlanStatus::kSolved;
  result.actions = std::move(plan);
  result.cost = v.cost;
  return finish();
}

PlanResult plan_topo_reach(const Domain& domain, const Instance& instance, const PlannerOptions&) {
  ReachResult rr = plan_reach(domain, instance);
  PlanResult r = std::move(rr.result);
  if (rr.reformulated_pu)
    r.stats.reason = "post-unique after reformulation";
  else
    r.stats.reason = std::to_string(rr.choices) + " producer choices, " +
                     std::to_string(rr.pruned) + " cut" +
                     (r.status != PlanStatus::kSolved ? ""
                      : rr.optimal_in_choices         ? "; optimal among one-producer plans"
                                              : "; not proven optimal (budget or ℙ gave up)");
  return r;
}

}  // namespace topoplan
