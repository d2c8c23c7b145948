// Exact per-instance reformulation (reform.h, step 1). docs/algorithm.md, "Reach", gives the
// arguments that each rewrite keeps the set of plans and their costs.
#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/reform/internal.h"
#include "topoplan/runtime/reform.h"

namespace topoplan {
namespace reform_detail {

void relaxed_closure(const Domain& d, std::span<const Work> acts, std::span<const ValueId> s0,
                     std::span<const ValueId> goal, std::vector<uint8_t>& reach_act,
                     std::vector<uint8_t>& relevant_act, std::vector<uint8_t>& reached) {
  std::vector<int32_t> off(static_cast<size_t>(d.num_variables()) + 1, 0);
  for (VarId v = 0; v < d.num_variables(); ++v) off[v + 1] = off[v] + d.domain_size(v);
  auto slot = [&](VarId v, ValueId x) { return static_cast<size_t>(off[v] + x); };
  reached.assign(static_cast<size_t>(off.back()), 0);
  for (VarId v = 0; v < d.num_variables(); ++v) reached[slot(v, s0[v])] = 1;
  reach_act.assign(acts.size(), 0);
  auto holds = [&](const Work& a) {
    for (const Effect& e : a.eff)
      if (e.pre != kUndefined && !reached[slot(e.var, e.pre)]) return false;
    for (const Fact& f : a.prv)
      if (!reached[slot(f.var, f.value)]) return false;
    return true;
  };
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < acts.size(); ++i) {
      if (reach_act[i] || !holds(acts[i])) continue;
      reach_act[i] = 1;
      grew = true;
      for (const Effect& e : acts[i].eff) reached[slot(e.var, e.post)] = 1;
    }
  }
  std::vector<uint8_t> rel(reached.size(), 0);
  for (VarId v = 0; v < d.num_variables(); ++v)
    if (goal[v] != kUndefined) rel[slot(v, goal[v])] = 1;
  relevant_act.assign(acts.size(), 0);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < acts.size(); ++i) {
      if (!reach_act[i] || relevant_act[i]) continue;
      bool needed = false;
      for (const Effect& e : acts[i].eff) needed = needed || rel[slot(e.var, e.post)];
      if (!needed) continue;
      relevant_act[i] = 1;
      grew = true;
      for (const Effect& e : acts[i].eff)
        if (e.pre != kUndefined) rel[slot(e.var, e.pre)] = 1;
      for (const Fact& f : acts[i].prv) rel[slot(f.var, f.value)] = 1;
    }
  }
}

}  // namespace reform_detail

namespace {

using reform_detail::Work;

struct UnionFind {
  std::vector<int32_t> parent;
  explicit UnionFind(int32_t n) : parent(static_cast<size_t>(n)) {
    std::iota(parent.begin(), parent.end(), 0);
  }
  int32_t find(int32_t x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  }
  void unite(int32_t a, int32_t b) { parent[find(a)] = find(b); }
};

// A group of variables to merge, and the tuples its projection reaches from s0.
struct Group {
  std::vector<VarId> members;  // ascending
  std::vector<std::vector<ValueId>> tuples;
  std::map<std::vector<ValueId>, int32_t> index;
  bool ok = true;
  // The goal names several tuples: the merged variable gets one more value, "goal", entered at
  // no cost from each of them (after it, nothing reads or changes the variable).
  bool finish = false;
};

// Position of `v` in `g.members`, or -1.
int32_t member_pos(const Group& g, VarId v) {
  auto it = std::lower_bound(g.members.begin(), g.members.end(), v);
  return it != g.members.end() && *it == v ? static_cast<int32_t>(it - g.members.begin()) : -1;
}

// The conditions of `a` on the members of `g` hold in tuple `t`.
bool tuple_holds(const Group& g, const Work& a, const std::vector<ValueId>& t) {
  for (const Effect& e : a.eff) {
    const int32_t p = member_pos(g, e.var);
    if (p >= 0 && e.pre != kUndefined && t[p] != e.pre) return false;
  }
  for (const Fact& f : a.prv) {
    const int32_t p = member_pos(g, f.var);
    if (p >= 0 && t[p] != f.value) return false;
  }
  return true;
}

std::vector<ValueId> apply(const Group& g, const Work& a, std::vector<ValueId> t) {
  for (const Effect& e : a.eff) {
    const int32_t p = member_pos(g, e.var);
    if (p >= 0) t[p] = e.post;
  }
  return t;
}

// Breadth-first closure of the group's projection from s0. False when it passes `cap` tuples.
bool close_group(Group& g, std::span<const Work> acts, std::span<const ValueId> s0, int32_t cap) {
  std::vector<size_t> touching;
  for (size_t i = 0; i < acts.size(); ++i)
    for (const Effect& e : acts[i].eff)
      if (member_pos(g, e.var) >= 0) {
        touching.push_back(i);
        break;
      }
  std::vector<ValueId> start;
  for (VarId v : g.members) start.push_back(s0[v]);
  g.index.emplace(start, 0);
  g.tuples.push_back(start);
  for (size_t k = 0; k < g.tuples.size(); ++k) {
    for (size_t i : touching) {
      if (!tuple_holds(g, acts[i], g.tuples[k])) continue;
      std::vector<ValueId> next = apply(g, acts[i], g.tuples[k]);
      if (g.index.count(next)) continue;
      if (static_cast<int32_t>(g.tuples.size()) >= cap) return false;
      g.index.emplace(next, static_cast<int32_t>(g.tuples.size()));
      g.tuples.push_back(std::move(next));
    }
  }
  return true;
}

// Tuples of `g` matching the facts `want` (entries for the members; kUndefined: any).
std::vector<int32_t> matching(const Group& g, const std::vector<ValueId>& want) {
  std::vector<int32_t> out;
  for (size_t k = 0; k < g.tuples.size(); ++k) {
    bool ok = true;
    for (size_t p = 0; p < want.size() && ok; ++p)
      ok = want[p] == kUndefined || g.tuples[k][p] == want[p];
    if (ok) out.push_back(static_cast<int32_t>(k));
  }
  return out;
}

std::string unique_name(std::set<std::string>& used, std::string name) {
  std::string n = name;
  for (int32_t k = 2; used.count(n); ++k) n = name + " #" + std::to_string(k);
  used.insert(n);
  return n;
}

}  // namespace

std::vector<ActionId> Reformulation::map_plan(std::span<const ActionId> plan) const {
  std::vector<ActionId> out;
  out.reserve(plan.size());
  for (ActionId a : plan)
    if (origin[static_cast<size_t>(a)] >= 0) out.push_back(origin[static_cast<size_t>(a)]);
  return out;
}

std::string Reformulation::describe_merge(const Domain& original, size_t i) const {
  const MergedVariable& m = merged[i];
  std::string s;
  for (size_t p = 0; p < m.members.size(); ++p)
    s += (p ? " and " : "") + original.variable_name(m.members[p]);
  s += " into one variable ∈ {";
  for (size_t k = 0; k < m.tuples.size(); ++k) {
    s += k ? ", (" : "(";
    for (size_t p = 0; p < m.members.size(); ++p)
      s += (p ? "," : "") + original.value_name(m.members[p], m.tuples[k][p]);
    s += ")";
  }
  return s + "}";
}

namespace {

// What the steps of reformulate share: the input, the actions as they are rewritten, the groups
// of variables to merge, and the reformulated domain as it is built.
struct Builder {
  const Domain& domain;
  const Instance& instance;
  const ReformOptions& options;
  Reformulation& r;
  std::vector<Work> acts;
  std::vector<Group> groups;
  std::vector<int32_t> group_of;  // per variable its group in `groups`, -1: not merged
  DomainDef def;
  std::vector<VarId> new_var;    // per unmerged variable its reformulated variable
  std::vector<VarId> group_var;  // per group its merged variable (-1: not merged)
  std::set<std::string> action_names;
};

// The class's actions, with pre = post effects as prevail-conditions; actions left without an
// effect dropped.
void collect_actions(Builder& b) {
  const std::span<const uint8_t> mask = b.domain.action_mask(b.instance.npc_class);
  for (ActionId a = 0; a < b.domain.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    Work w{a, b.domain.cost(a), {}, {}};
    for (const Fact& f : b.domain.prevail(a)) w.prv.push_back(f);
    for (const Effect& e : b.domain.effects(a)) {
      if (e.pre == e.post) {
        w.prv.push_back(Fact{e.var, e.pre});
        ++b.r.prevails_from_effects;
      } else {
        w.eff.push_back(e);
      }
    }
    if (w.eff.empty()) {
      ++b.r.dropped_noop;
      continue;
    }
    b.acts.push_back(std::move(w));
  }
}

// Reachability from s0 and relevance to the goal, ignoring deletes; then dominated duplicates
// (same effects and conditions: the cheapest, then the first, stays).
void prune_actions(Builder& b) {
  const Domain& domain = b.domain;
  Reformulation& r = b.r;
  std::vector<uint8_t> reach, rel, reached;
  reform_detail::relaxed_closure(domain, b.acts, b.instance.init, b.instance.goal, reach, rel,
                                 reached);
  int32_t off = 0;
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const ValueId g = b.instance.goal[v];
    if (g != kUndefined && !reached[static_cast<size_t>(off + g)] && r.unsolvable.empty())
      r.unsolvable = "the goal " + domain.variable_name(v) + "=" + domain.value_name(v, g) +
                     " cannot be reached from s0 even ignoring deletes";
    off += domain.domain_size(v);
  }
  std::vector<Work> kept;
  for (size_t i = 0; i < b.acts.size(); ++i) {
    if (!reach[i])
      ++r.dropped_unreachable;
    else if (!rel[i])
      ++r.dropped_irrelevant;
    else
      kept.push_back(std::move(b.acts[i]));
  }
  b.acts = std::move(kept);
  std::vector<uint8_t> drop = reform_detail::dominated_duplicates(b.acts);
  kept.clear();
  for (size_t i = 0; i < b.acts.size(); ++i) {
    if (drop[i])
      ++r.dropped_dominated;
    else
      kept.push_back(std::move(b.acts[i]));
  }
  b.acts = std::move(kept);
}

// The goal's values on the members of `g` (kUndefined: free).
std::vector<ValueId> goal_of(const Builder& b, const Group& g) {
  std::vector<ValueId> want;
  for (VarId v : g.members) want.push_back(b.instance.goal[v]);
  return want;
}

// Groups of variables changed together (by one action), each closed from s0; the ones whose
// closure stays within max_merged_values are merged (group_of).
void merge_groups(Builder& b) {
  const int32_t m = b.domain.num_variables();
  UnionFind uf(m);
  for (const Work& w : b.acts)
    for (size_t k = 1; k < w.eff.size(); ++k) uf.unite(w.eff[0].var, w.eff[k].var);
  std::map<int32_t, int32_t> root_group;
  std::vector<int32_t> size(static_cast<size_t>(m), 0);
  for (VarId v = 0; v < m; ++v) ++size[uf.find(v)];
  for (VarId v = 0; v < m; ++v) {
    if (size[uf.find(v)] < 2) continue;
    auto [it, fresh] = root_group.emplace(uf.find(v), static_cast<int32_t>(b.groups.size()));
    if (fresh) b.groups.emplace_back();
    b.groups[it->second].members.push_back(v);
  }
  for (Group& g : b.groups) {
    g.ok = close_group(g, b.acts, b.instance.init, b.options.max_merged_values);
    if (!g.ok) continue;
    // The goal must name one tuple (or none of the members).
    const std::vector<ValueId> want = goal_of(b, g);
    if (std::all_of(want.begin(), want.end(), [](ValueId x) { return x == kUndefined; })) continue;
    const std::vector<int32_t> hits = matching(g, want);
    if (hits.empty() && b.r.unsolvable.empty()) {
      std::string names;
      for (VarId v : g.members) names += (names.empty() ? "" : ", ") + b.domain.variable_name(v);
      b.r.unsolvable = "no combination of " + names +
                       " reachable from s0 (ignoring the other variables) meets the goal";
    }
    g.finish = hits.size() > 1;
  }
  for (size_t gi = 0; gi < b.groups.size(); ++gi) {
    if (!b.groups[gi].ok) {
      ++b.r.unmerged_groups;
      continue;
    }
    for (VarId v : b.groups[gi].members) b.group_of[v] = static_cast<int32_t>(gi);
  }
}

// Group g's merged variable: one value per tuple (named by its members' values), and "goal"
// when the goal names several tuples.
VariableDef merged_variable(const Builder& b, const Group& g, std::set<std::string>& var_names) {
  std::string name;
  for (VarId u : g.members) name += (name.empty() ? "" : "+") + b.domain.variable_name(u);
  VariableDef vd{unique_name(var_names, name), {}};
  std::set<std::string> value_names;
  for (const auto& t : g.tuples) {
    std::string s = "(";
    for (size_t p = 0; p < t.size(); ++p)
      s += (p ? "," : "") + b.domain.value_name(g.members[p], t[p]);
    vd.values.push_back(unique_name(value_names, s + ")"));
  }
  if (g.finish) vd.values.push_back(unique_name(value_names, "goal"));
  return vd;
}

// The reformulated variables: unmerged ones in order, a merged one at its first member.
void add_variables(Builder& b) {
  const Domain& domain = b.domain;
  Reformulation& r = b.r;
  std::set<std::string> var_names;
  for (VarId v = 0; v < domain.num_variables(); ++v) var_names.insert(domain.variable_name(v));
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const int32_t gi = b.group_of[v];
    if (gi < 0) {
      b.new_var[v] = static_cast<VarId>(b.def.variables.size());
      b.def.variables.push_back(VariableDef{domain.variable_name(v), {}});
      for (ValueId x = 0; x < domain.domain_size(v); ++x)
        b.def.variables.back().values.push_back(domain.value_name(v, x));
      r.var_origin.push_back(v);
      r.var_merged.push_back(-1);
      continue;
    }
    const Group& g = b.groups[gi];
    if (g.members.front() != v) continue;
    b.group_var[gi] = static_cast<VarId>(b.def.variables.size());
    b.def.variables.push_back(merged_variable(b, g, var_names));
    r.var_origin.push_back(-1);
    r.var_merged.push_back(static_cast<int32_t>(r.merged.size()));
    r.merged.push_back(MergedVariable{g.members, g.tuples});
  }
}

// The merged groups action w reads or changes, ascending.
std::vector<int32_t> touched_groups(const Builder& b, const Work& w) {
  std::vector<int32_t> touched;
  for (const Effect& e : w.eff)
    if (b.group_of[e.var] >= 0) touched.push_back(b.group_of[e.var]);
  for (const Fact& f : w.prv)
    if (b.group_of[f.var] >= 0) touched.push_back(b.group_of[f.var]);
  std::sort(touched.begin(), touched.end());
  touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
  return touched;
}

using Transitions = std::vector<std::vector<std::pair<int32_t, int32_t>>>;

// One copy of action w per combination of (from, to) tuple pairs of the groups it touches.
// False when the domain passes `cap` actions.
bool add_copies(Builder& b, const Work& w, const std::vector<int32_t>& touched,
                const Transitions& options_per, size_t cap) {
  std::vector<size_t> pick(touched.size(), 0);
  int32_t copy = 0;
  for (;;) {
    ActionDef ad;
    ad.cost = w.cost;
    for (const Effect& e : w.eff)
      if (b.group_of[e.var] < 0) ad.effects.push_back(Effect{b.new_var[e.var], e.pre, e.post});
    for (const Fact& f : w.prv)
      if (b.group_of[f.var] < 0) ad.prevail.push_back(Fact{b.new_var[f.var], f.value});
    for (size_t t = 0; t < touched.size(); ++t) {
      const auto [from, to] = options_per[t][pick[t]];
      const VarId nv = b.group_var[touched[t]];
      if (from != to)
        ad.effects.push_back(Effect{nv, from, to});
      else
        ad.prevail.push_back(Fact{nv, from});
    }
    if (!ad.effects.empty()) {
      const std::string& name = b.domain.action_name(w.origin);
      ad.name = unique_name(b.action_names,
                            copy == 0 ? name : name + " [" + std::to_string(copy + 1) + "]");
      ++copy;
      b.def.actions.push_back(std::move(ad));
      b.r.origin.push_back(w.origin);
      if (b.def.actions.size() > cap) return false;
    }
    size_t t = 0;
    while (t < pick.size() && ++pick[t] == options_per[t].size()) pick[t++] = 0;
    if (t == pick.size()) return true;
  }
}

// Actions: one copy per combination of tuples of the merged variables they touch. False when
// there would be more than max_actions_factor times the domain's actions.
bool add_actions(Builder& b) {
  const size_t cap = static_cast<size_t>(b.options.max_actions_factor) *
                         static_cast<size_t>(b.domain.num_actions()) +
                     256;
  for (const Work& w : b.acts) {
    // Per merged group touched: the (from, to) tuple pairs of this action.
    const std::vector<int32_t> touched = touched_groups(b, w);
    Transitions options_per;
    bool dead = false;
    for (int32_t gi : touched) {
      const Group& g = b.groups[gi];
      std::vector<std::pair<int32_t, int32_t>> pairs;
      for (size_t k = 0; k < g.tuples.size(); ++k) {
        if (!tuple_holds(g, w, g.tuples[k])) continue;
        const std::vector<ValueId> next = apply(g, w, g.tuples[k]);
        pairs.emplace_back(static_cast<int32_t>(k), g.index.at(next));
      }
      if (pairs.empty()) dead = true;
      options_per.push_back(std::move(pairs));
    }
    if (dead) continue;  // its condition on a merged variable is never met: it cannot apply
    if (!add_copies(b, w, touched, options_per, cap)) return false;
  }
  return true;
}

// A merged variable whose goal names several tuples: a free action from each to "goal".
void add_goal_actions(Builder& b) {
  for (size_t gi = 0; gi < b.groups.size(); ++gi) {
    const Group& g = b.groups[gi];
    if (b.group_var[gi] < 0 || !g.finish) continue;
    const VariableDef& var = b.def.variables[b.group_var[gi]];
    const auto top = static_cast<ValueId>(g.tuples.size());
    for (int32_t k : matching(g, goal_of(b, g))) {
      ActionDef ad;
      ad.name = unique_name(b.action_names, "reach goal of " + var.name + " from " + var.values[k]);
      ad.cost = 0;
      ad.effects.push_back(Effect{b.group_var[gi], k, top});
      b.def.actions.push_back(std::move(ad));
      b.r.origin.push_back(-1);
    }
  }
}

// The instance on the reformulated variables.
void set_instance(Builder& b) {
  Instance& out = b.r.instance;
  out.name = b.instance.name;
  out.npc_class = kAllActions;
  out.init.assign(b.def.variables.size(), 0);
  out.goal.assign(b.def.variables.size(), kUndefined);
  for (VarId v = 0; v < b.domain.num_variables(); ++v) {
    if (b.group_of[v] < 0) {
      out.init[b.new_var[v]] = b.instance.init[v];
      out.goal[b.new_var[v]] = b.instance.goal[v];
    }
  }
  for (size_t gi = 0; gi < b.groups.size(); ++gi) {
    if (b.group_var[gi] < 0) continue;
    const Group& g = b.groups[gi];
    out.init[b.group_var[gi]] = 0;  // the closure starts at s0's tuple
    const std::vector<ValueId> want = goal_of(b, g);
    const std::vector<int32_t> hits = matching(g, want);
    bool any = std::any_of(want.begin(), want.end(), [](ValueId x) { return x != kUndefined; });
    if (any && hits.size() == 1) out.goal[b.group_var[gi]] = hits[0];
    if (g.finish) out.goal[b.group_var[gi]] = static_cast<ValueId>(g.tuples.size());
  }
}

}  // namespace

Result<Reformulation> reformulate(const Domain& domain, const Instance& instance,
                                  const ReformOptions& options) {
  if (auto err = domain.check_instance(instance)) return *err;
  Reformulation r;
  const auto m = static_cast<size_t>(domain.num_variables());
  Builder b{domain,
            instance,
            options,
            r,
            {},
            {},
            std::vector<int32_t>(m, -1),
            {},
            std::vector<VarId>(m, -1),
            {},
            {}};
  collect_actions(b);
  if (options.prune) prune_actions(b);
  if (options.merge) merge_groups(b);
  b.def.name = domain.name();
  b.group_var.assign(b.groups.size(), -1);
  add_variables(b);
  if (!add_actions(b)) {
    ReformOptions no_merge = options;
    no_merge.merge = false;
    Result<Reformulation> plain = reformulate(domain, instance, no_merge);
    if (plain) plain->unmerged_groups = static_cast<int32_t>(b.groups.size());
    return plain;
  }
  add_goal_actions(b);
  Result<Domain> compiled = Domain::compile(b.def);
  if (!compiled) return compiled.error();
  r.domain = std::move(*compiled);
  set_instance(b);
  return r;
}

}  // namespace topoplan

namespace topoplan::reform_detail {

std::vector<uint8_t> dominated_duplicates(const std::vector<Work>& acts) {
  auto key = [](const Work& w) {
    std::vector<int64_t> k;
    std::vector<Effect> e = w.eff;
    std::vector<Fact> p = w.prv;
    std::sort(e.begin(), e.end(), [](auto& a, auto& b) { return a.var < b.var; });
    std::sort(p.begin(), p.end(), [](auto& a, auto& b) { return a.var < b.var; });
    for (const Effect& x : e) k.insert(k.end(), {x.var, x.pre, x.post});
    k.push_back(-2);
    for (const Fact& x : p) k.insert(k.end(), {x.var, x.value});
    return k;
  };
  std::map<std::vector<int64_t>, size_t> best;
  std::vector<uint8_t> drop(acts.size(), 0);
  for (size_t i = 0; i < acts.size(); ++i) {
    auto [it, fresh] = best.emplace(key(acts[i]), i);
    if (fresh) continue;
    if (acts[i].cost < acts[it->second].cost) {
      drop[it->second] = 1;
      it->second = i;
    } else {
      drop[i] = 1;
    }
  }
  return drop;
}

}  // namespace topoplan::reform_detail
