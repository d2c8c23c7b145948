// ℙ over producer choices on a reformulated instance (reform.h, step 2).
//
// Search tree: a node is an action mask of the reformulated task. Its actions that cannot apply
// from s0 or matter to the goal are dropped first (exact: docs/algorithm.md, "Reach"). If some
// value still has several relevant producers, the node branches on the first such value, one
// child per producer (cheapest first), each keeping that producer and dropping the others. A leaf
// is post-unique: ℙ plans it. Every plan that uses one producer per value lies within some leaf
// (choose its producer at each branch), and ℙ's plan is the cheapest plan of its leaf (every
// chosen action is in every plan of the leaf), so the best leaf plan is optimal among such plans
// once every leaf is answered. A node whose lower bound (Σ over the values every plan of the node
// must produce of their cheapest producer; see lower_bound) is not below the best plan found is
// cut.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <limits>
#include <span>
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
  const reform_detail::ChoiceTables& t;
  const Domain& d;
  const std::vector<int32_t>& off;                      // value slot offsets
  const std::vector<std::vector<ActionId>>& producers;  // per slot: every action setting it
  reform_detail::ChoiceScratch& s;
  reform_detail::ChoiceOutcome& o;
  std::span<const ValueId> s0;
  std::span<const ValueId> goal;
  int32_t budget;
  bool leaf_planners;
  int64_t nodes = 0;  // search nodes visited (leaves and branches); budget: 16 per choice

  Search(const reform_detail::ChoiceTables& tables, reform_detail::ChoiceScratch& scratch,
         std::span<const ValueId> s0_in, std::span<const ValueId> goal_in, int32_t max_choices,
         bool leaf_planners_in)
      : t(tables),
        d(*tables.domain),
        off(tables.off),
        producers(tables.producers),
        s(scratch),
        o(scratch.outcome),
        s0(s0_in),
        goal(goal_in),
        budget(max_choices),
        leaf_planners(leaf_planners_in) {}
  [[nodiscard]] size_t slot(VarId v, ValueId x) const { return static_cast<size_t>(off[v] + x); }

  // Drops from `mask` the actions that cannot apply from s0 or cannot matter to the goal, ignoring
  // deletes (the closures of reform_detail::relaxed_closure). Counter-based: an action fires when
  // its last missing condition is reached, and relevance walks back from the goal through the
  // producers, so a node costs O(|A| + Σ conditions), not a fixpoint sweep per value reached.
  void narrow(std::vector<uint8_t>& mask) {
    const auto na = static_cast<size_t>(d.num_actions());
    const auto nslots = static_cast<size_t>(off.back());
    s.reached.assign(nslots, 0);
    s.reach_act.assign(na, 0);
    s.missing.resize(na);
    s.slots.clear();
    for (size_t a = 0; a < na; ++a) s.missing[a] = t.cond_off[a + 1] - t.cond_off[a];
    auto reach = [&](int32_t x) {
      if (s.reached[static_cast<size_t>(x)]) return;
      s.reached[static_cast<size_t>(x)] = 1;
      s.slots.push_back(x);
    };
    for (VarId v = 0; v < d.num_variables(); ++v) reach(off[v] + s0[v]);
    for (size_t a = 0; a < na; ++a)
      if (mask[a] && s.missing[a] == 0) {
        s.reach_act[a] = 1;
        reach(t.post[a]);
      }
    while (!s.slots.empty()) {
      const auto x = static_cast<size_t>(s.slots.back());
      s.slots.pop_back();
      for (int32_t k = t.req_off[x]; k < t.req_off[x + 1]; ++k) {
        const auto a = static_cast<size_t>(t.req[static_cast<size_t>(k)]);
        if (mask[a] && --s.missing[a] == 0) {
          s.reach_act[a] = 1;
          reach(t.post[a]);
        }
      }
    }
    // reach_act: 1 reachable, 2 reachable and relevant.
    s.rel.assign(nslots, 0);
    auto relevant = [&](int32_t x) {
      if (s.rel[static_cast<size_t>(x)]) return;
      s.rel[static_cast<size_t>(x)] = 1;
      s.slots.push_back(x);
    };
    for (VarId v = 0; v < d.num_variables(); ++v)
      if (goal[v] != kUndefined) relevant(off[v] + goal[v]);
    while (!s.slots.empty()) {
      const auto x = static_cast<size_t>(s.slots.back());
      s.slots.pop_back();
      for (const ActionId b : producers[x]) {
        const auto a = static_cast<size_t>(b);
        if (s.reach_act[a] != 1) continue;
        s.reach_act[a] = 2;
        for (int32_t k = t.cond_off[a]; k < t.cond_off[a + 1]; ++k)
          relevant(t.conds[static_cast<size_t>(k)]);
      }
    }
    for (size_t a = 0; a < na; ++a)
      if (s.reach_act[a] != 2) mask[a] = 0;
  }

  // A lower bound on the cost of every plan within `mask`; kInfinite when a needed value has no
  // producer (the node has no plan). A value is needed when it is a goal value, or a condition
  // shared by every producer of a needed value, and differs from s0. Every plan holds a producer
  // of each needed value, and an action (unary) produces one value only, so Σ over the needed
  // values of their cheapest producer is a bound.
  [[nodiscard]] int64_t lower_bound(const std::vector<uint8_t>& mask) {
    s.needed.assign(static_cast<size_t>(off.back()), 0);
    s.queue.clear();
    auto need = [&](VarId v, ValueId x) {
      if (x == kUndefined || x == s0[v] || s.needed[slot(v, x)]) return;
      s.needed[slot(v, x)] = 1;
      s.queue.emplace_back(v, x);
    };
    // True when action b requires var = x (an effect's pre-condition or a prevail-condition).
    auto demands = [&](ActionId b, VarId var, ValueId x) {
      for (const Effect& e : d.effects(b))
        if (e.var == var) return e.pre == x;
      for (const Fact& f : d.prevail(b))
        if (f.var == var) return f.value == x;
      return false;
    };
    for (VarId v = 0; v < d.num_variables(); ++v) need(v, goal[v]);
    int64_t sum = 0;
    while (!s.queue.empty()) {
      // Plain variables, not a structured binding: the lambda below captures them (clang 14).
      const VarId v = s.queue.back().first;
      const ValueId x = s.queue.back().second;
      s.queue.pop_back();
      ActionId first = -1;
      int64_t cheapest = kInfinite;
      for (ActionId a : producers[slot(v, x)])
        if (mask[static_cast<size_t>(a)]) {
          if (first < 0) first = a;
          cheapest = std::min(cheapest, d.cost(a));
        }
      if (first < 0) return kInfinite;
      sum += cheapest;
      auto shared = [&](VarId var, ValueId y) {
        for (ActionId b : producers[slot(v, x)])
          if (mask[static_cast<size_t>(b)] && b != first && !demands(b, var, y)) return false;
        return true;
      };
      for (const Effect& e : d.effects(first))
        if (e.pre != kUndefined && shared(e.var, e.pre)) need(e.var, e.pre);
      for (const Fact& f : d.prevail(first))
        if (shared(f.var, f.value)) need(f.var, f.value);
    }
    return sum;
  }

  // True when `mask` was a leaf already (two branches can narrow to the same actions).
  bool seen_before(const std::vector<uint8_t>& mask) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (const uint8_t b : mask) h = (h ^ b) * 1099511628211ull;
    const size_t n = mask.size();
    for (size_t k = 0; k < s.seen_hash.size(); ++k)
      if (s.seen_hash[k] == h && std::equal(mask.begin(), mask.end(), s.seen.begin() + k * n))
        return true;
    s.seen_hash.push_back(h);
    s.seen.insert(s.seen.end(), mask.begin(), mask.end());
    return false;
  }

  // ℙ on the post-unique leaf `mask`: the shared ℙ restricted to it; where that one gives up
  // (it claims no class), a ℙ built for the leaf alone, whose class may make the failure a proof.
  void leaf(const std::vector<uint8_t>& mask) {
    if (seen_before(mask)) return;
    ++o.choices;
    int32_t len = 0;
    PlanStatus st = PlanStatus::kGaveUp;
    std::string message;
    if (s.topo && s.topo->restrict_to(mask)) {
      TopoPlanner& topo = *s.topo;
      const PlanOutcome outcome = topo.plan(s.topo_scratch, s0, goal, s.out, &len);
      st = outcome.status;
      if (st == PlanStatus::kUnsolvable) message = topo.explain(outcome);
    }
    if (st != PlanStatus::kSolved && st != PlanStatus::kUnsolvable && !leaf_planners) {
      o.single_status = st;
      o.all_answered = false;
      return;
    }
    if (st != PlanStatus::kSolved && st != PlanStatus::kUnsolvable) {
      Result<TopoPlanner> own = TopoPlanner::create(d, mask);
      if (!own) {  // cannot happen on a unary post-unique mask; counted as unanswered
        o.all_answered = false;
        o.single_message = own.error().to_string();
        return;
      }
      TopoScratch scratch = own->make_scratch();
      const PlanOutcome outcome = own->plan(scratch, s0, goal, s.out, &len);
      st = outcome.status;
      if (st != PlanStatus::kSolved) message = own->explain(outcome);
    }
    o.single_status = st;
    if (st == PlanStatus::kSolved) {
      const std::span<const ActionId> plan(s.out.data(), static_cast<size_t>(len));
      const int64_t c = plan_cost(d, plan);
      if (c < o.best_cost) {
        o.best_cost = c;
        o.best.assign(plan.begin(), plan.end());
      }
    } else {
      o.single_message = std::move(message);
      if (st != PlanStatus::kUnsolvable) o.all_answered = false;
    }
  }

  // The node whose mask is s.levels[depth].mask (levels may grow below: re-read after recursing).
  void dfs(size_t depth) {
    if (o.choices >= budget || nodes >= int64_t{16} * budget) {
      o.exhausted = false;
      return;
    }
    ++nodes;
    narrow(s.levels[depth].mask);
    // kInfinite proves the node has no plan; otherwise it is cut when it cannot beat the best.
    const int64_t bound = lower_bound(s.levels[depth].mask);
    if (o.root_bound < 0) o.root_bound = bound;
    if (bound >= o.best_cost) {
      ++o.pruned;
      return;
    }
    // The first value every plan must produce (lower_bound's s.needed) with several relevant
    // producers — a choice every plan makes —, else the first value with several.
    // A child keeping producer p of a needed value is bounded below by this node's bound with
    // that value's cheapest producer replaced by p (its mask is a subset: its needed values
    // include these, each no cheaper), so such a child is cut without narrowing it.
    int64_t others = -1;  // the bound without the needed branch value's term; -1: not needed
    {
      reform_detail::ChoiceScratch::Level& cur = s.levels[depth];
      int32_t found = 0;
      for (int32_t pass = 0; pass < 2 && cur.alts.size() < 2; ++pass)
        for (size_t k = 0; k < producers.size() && cur.alts.size() < 2; ++k) {
          if (pass == 0 && !s.needed[k]) continue;
          cur.alts.clear();
          for (ActionId a : producers[k])
            if (cur.mask[static_cast<size_t>(a)]) cur.alts.push_back(a);
          found = pass;
        }
      if (cur.alts.size() < 2) {
        leaf(cur.mask);
        return;
      }
      // Cheapest first; stable (insertion sort: a handful of producers, no buffer).
      for (size_t i = 1; i < cur.alts.size(); ++i)
        for (size_t j = i; j > 0 && d.cost(cur.alts[j]) < d.cost(cur.alts[j - 1]); --j)
          std::swap(cur.alts[j], cur.alts[j - 1]);
      if (found == 0) others = bound - d.cost(cur.alts[0]);
    }
    o.branched = true;
    if (s.levels.size() <= depth + 1) s.levels.resize(depth + 2);
    for (size_t i = 0; i < s.levels[depth].alts.size(); ++i) {
      const reform_detail::ChoiceScratch::Level& cur = s.levels[depth];
      if (others >= 0 && others + d.cost(cur.alts[i]) >= o.best_cost) {
        ++o.pruned;
        continue;
      }
      reform_detail::ChoiceScratch::Level& child = s.levels[depth + 1];
      child.mask.assign(cur.mask.begin(), cur.mask.end());
      const ActionId keep = cur.alts[i];
      for (ActionId other : cur.alts)
        if (other != keep) child.mask[static_cast<size_t>(other)] = 0;
      child.alts.clear();
      dfs(depth + 1);
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
    t.post.push_back(t.off[w.eff[0].var] + w.eff[0].post);
    t.producers[static_cast<size_t>(t.post.back())].push_back(a);
    t.acts.push_back(std::move(w));
  }
  // Conditions per action, and per slot the actions that read it (counting sort).
  t.cond_off.assign(static_cast<size_t>(d.num_actions()) + 1, 0);
  t.req_off.assign(t.producers.size() + 1, 0);
  for (const Work& w : t.acts) {
    for (const Effect& e : w.eff)
      if (e.pre != kUndefined) t.conds.push_back(t.off[e.var] + e.pre);
    for (const Fact& f : w.prv) t.conds.push_back(t.off[f.var] + f.value);
    t.cond_off[static_cast<size_t>(w.origin) + 1] = static_cast<int32_t>(t.conds.size());
  }
  for (const int32_t x : t.conds) ++t.req_off[static_cast<size_t>(x) + 1];
  for (size_t x = 0; x < t.producers.size(); ++x) t.req_off[x + 1] += t.req_off[x];
  t.req.resize(t.conds.size());
  std::vector<int32_t> fill(t.req_off.begin(), t.req_off.end() - 1);
  for (size_t a = 0; a + 1 < t.cond_off.size(); ++a)
    for (int32_t k = t.cond_off[a]; k < t.cond_off[a + 1]; ++k)
      t.req[static_cast<size_t>(fill[static_cast<size_t>(t.conds[static_cast<size_t>(k)])]++)] =
          static_cast<ActionId>(a);
  Result<CompiledActionSet> set = CompiledActionSet::create(d);
  if (set) {
    Result<TopoPlanner> topo = TopoPlanner::create_restrictable(*set);
    if (topo) t.topo = std::move(topo).value();
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

void search_choices(const ChoiceTables& tables, ChoiceScratch& scratch, std::span<const ValueId> s0,
                    std::span<const ValueId> goal, int32_t max_choices, bool leaf_planners) {
  const auto na = static_cast<size_t>(tables.domain->num_actions());
  if (!scratch.topo && tables.topo) {
    scratch.topo = *tables.topo;
    scratch.topo_scratch = scratch.topo->make_scratch();
  }
  if (scratch.out.size() < std::max<size_t>(na, 1)) scratch.out.assign(std::max<size_t>(na, 1), -1);
  ChoiceOutcome& o = scratch.outcome;
  o.best_cost = kInfinite;
  o.best.clear();
  o.choices = 0;
  o.pruned = 0;
  o.branched = false;
  o.exhausted = true;
  o.all_answered = true;
  o.root_bound = -1;
  o.single_status = PlanStatus::kGaveUp;
  o.single_message.clear();
  scratch.seen.clear();
  scratch.seen_hash.clear();
  if (scratch.levels.empty()) scratch.levels.resize(1);
  scratch.levels[0].mask.assign(na, 1);
  scratch.levels[0].alts.clear();
  Search search(tables, scratch, s0, goal, std::max(max_choices, 1), leaf_planners);
  search.dfs(0);
}

ChoiceOutcome search_choices(const ChoiceTables& tables, const Instance& instance,
                             int32_t max_choices) {
  ChoiceScratch scratch;
  search_choices(tables, scratch, instance.init, instance.goal, max_choices);
  return std::move(scratch.outcome);
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
