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

Result<Reformulation> reformulate(const Domain& domain, const Instance& instance,
                                  const ReformOptions& options) {
  if (auto err = domain.check_instance(instance)) return *err;
  Reformulation r;
  const int32_t m = domain.num_variables();
  const std::span<const uint8_t> mask = domain.action_mask(instance.npc_class);

  // Pre = post effects become prevail-conditions.
  std::vector<Work> acts;
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    Work w{a, domain.cost(a), {}, {}};
    for (const Fact& f : domain.prevail(a)) w.prv.push_back(f);
    for (const Effect& e : domain.effects(a)) {
      if (e.pre == e.post) {
        w.prv.push_back(Fact{e.var, e.pre});
        ++r.prevails_from_effects;
      } else {
        w.eff.push_back(e);
      }
    }
    if (w.eff.empty()) {
      ++r.dropped_noop;
      continue;
    }
    acts.push_back(std::move(w));
  }

  // Reachability from s0 and relevance to the goal, ignoring deletes.
  if (options.prune) {
    std::vector<uint8_t> reach, rel, reached;
    reform_detail::relaxed_closure(domain, acts, instance.init, instance.goal, reach, rel, reached);
    int32_t off = 0;
    for (VarId v = 0; v < m; ++v) {
      const ValueId g = instance.goal[v];
      if (g != kUndefined && !reached[static_cast<size_t>(off + g)] && r.unsolvable.empty())
        r.unsolvable = "the goal " + domain.variable_name(v) + "=" + domain.value_name(v, g) +
                       " cannot be reached from s0 even ignoring deletes";
      off += domain.domain_size(v);
    }
    std::vector<Work> kept;
    for (size_t i = 0; i < acts.size(); ++i) {
      if (!reach[i])
        ++r.dropped_unreachable;
      else if (!rel[i])
        ++r.dropped_irrelevant;
      else
        kept.push_back(std::move(acts[i]));
    }
    acts = std::move(kept);
    // Dominated duplicates: same effects and conditions; the cheapest (then the first) stays.
    std::vector<uint8_t> drop = reform_detail::dominated_duplicates(acts);
    kept.clear();
    for (size_t i = 0; i < acts.size(); ++i) {
      if (drop[i])
        ++r.dropped_dominated;
      else
        kept.push_back(std::move(acts[i]));
    }
    acts = std::move(kept);
  }

  // Groups of variables changed together.
  UnionFind uf(m);
  for (const Work& w : acts)
    for (size_t k = 1; k < w.eff.size(); ++k) uf.unite(w.eff[0].var, w.eff[k].var);
  std::vector<int32_t> group_of(static_cast<size_t>(m), -1);
  std::vector<Group> groups;
  if (options.merge) {
    std::map<int32_t, int32_t> root_group;
    std::vector<int32_t> size(static_cast<size_t>(m), 0);
    for (VarId v = 0; v < m; ++v) ++size[uf.find(v)];
    for (VarId v = 0; v < m; ++v) {
      if (size[uf.find(v)] < 2) continue;
      auto [it, fresh] = root_group.emplace(uf.find(v), static_cast<int32_t>(groups.size()));
      if (fresh) groups.emplace_back();
      groups[it->second].members.push_back(v);
    }
    for (Group& g : groups) {
      g.ok = close_group(g, acts, instance.init, options.max_merged_values);
      if (!g.ok) continue;
      // The goal must name one tuple (or none of the members).
      std::vector<ValueId> want;
      bool any = false;
      for (VarId v : g.members) {
        want.push_back(instance.goal[v]);
        any = any || instance.goal[v] != kUndefined;
      }
      if (!any) continue;
      const std::vector<int32_t> hits = matching(g, want);
      if (hits.empty() && r.unsolvable.empty()) {
        std::string names;
        for (VarId v : g.members) names += (names.empty() ? "" : ", ") + domain.variable_name(v);
        r.unsolvable = "no combination of " + names +
                       " reachable from s0 (ignoring the other variables) meets the goal";
      }
      g.finish = hits.size() > 1;
    }
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      if (!groups[gi].ok) {
        ++r.unmerged_groups;
        continue;
      }
      for (VarId v : groups[gi].members) group_of[v] = static_cast<int32_t>(gi);
    }
  }

  // The reformulated variables: unmerged ones in order, a merged one at its first member.
  DomainDef def;
  def.name = domain.name();
  std::set<std::string> var_names;
  for (VarId v = 0; v < m; ++v) var_names.insert(domain.variable_name(v));
  std::vector<VarId> new_var(static_cast<size_t>(m), -1);
  std::vector<VarId> group_var(groups.size(), -1);
  for (VarId v = 0; v < m; ++v) {
    const int32_t gi = group_of[v];
    if (gi < 0) {
      new_var[v] = static_cast<VarId>(def.variables.size());
      def.variables.push_back(VariableDef{domain.variable_name(v), {}});
      for (ValueId x = 0; x < domain.domain_size(v); ++x)
        def.variables.back().values.push_back(domain.value_name(v, x));
      r.var_origin.push_back(v);
      r.var_merged.push_back(-1);
      continue;
    }
    const Group& g = groups[gi];
    if (g.members.front() != v) continue;
    group_var[gi] = static_cast<VarId>(def.variables.size());
    std::string name;
    for (VarId u : g.members) name += (name.empty() ? "" : "+") + domain.variable_name(u);
    VariableDef vd{unique_name(var_names, name), {}};
    std::set<std::string> value_names;
    for (const auto& t : g.tuples) {
      std::string s = "(";
      for (size_t p = 0; p < t.size(); ++p)
        s += (p ? "," : "") + domain.value_name(g.members[p], t[p]);
      vd.values.push_back(unique_name(value_names, s + ")"));
    }
    if (g.finish) vd.values.push_back(unique_name(value_names, "goal"));
    def.variables.push_back(std::move(vd));
    r.var_origin.push_back(-1);
    r.var_merged.push_back(static_cast<int32_t>(r.merged.size()));
    r.merged.push_back(MergedVariable{g.members, g.tuples});
  }

  // Actions: one copy per combination of tuples of the merged variables they touch.
  const size_t cap =
      static_cast<size_t>(options.max_actions_factor) * static_cast<size_t>(domain.num_actions()) +
      256;
  std::set<std::string> action_names;
  for (const Work& w : acts) {
    // Per merged group touched: the (from, to) tuple pairs of this action.
    std::vector<int32_t> touched;
    for (const Effect& e : w.eff)
      if (group_of[e.var] >= 0) touched.push_back(group_of[e.var]);
    for (const Fact& f : w.prv)
      if (group_of[f.var] >= 0) touched.push_back(group_of[f.var]);
    std::sort(touched.begin(), touched.end());
    touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
    std::vector<std::vector<std::pair<int32_t, int32_t>>> options_per;
    bool dead = false;
    for (int32_t gi : touched) {
      const Group& g = groups[gi];
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
    std::vector<size_t> pick(touched.size(), 0);
    int32_t copy = 0;
    for (;;) {
      ActionDef ad;
      ad.cost = w.cost;
      for (const Effect& e : w.eff)
        if (group_of[e.var] < 0) ad.effects.push_back(Effect{new_var[e.var], e.pre, e.post});
      for (const Fact& f : w.prv)
        if (group_of[f.var] < 0) ad.prevail.push_back(Fact{new_var[f.var], f.value});
      for (size_t t = 0; t < touched.size(); ++t) {
        const auto [from, to] = options_per[t][pick[t]];
        const VarId nv = group_var[touched[t]];
        if (from != to)
          ad.effects.push_back(Effect{nv, from, to});
        else
          ad.prevail.push_back(Fact{nv, from});
      }
      if (!ad.effects.empty()) {
        ad.name = unique_name(action_names, copy == 0 ? domain.action_name(w.origin)
                                                      : domain.action_name(w.origin) + " [" +
                                                            std::to_string(copy + 1) + "]");
        ++copy;
        def.actions.push_back(std::move(ad));
        r.origin.push_back(w.origin);
        if (def.actions.size() > cap) {
          ReformOptions no_merge = options;
          no_merge.merge = false;
          Result<Reformulation> plain = reformulate(domain, instance, no_merge);
          if (plain) plain->unmerged_groups = static_cast<int32_t>(groups.size());
          return plain;
        }
      }
      size_t t = 0;
      while (t < pick.size() && ++pick[t] == options_per[t].size()) pick[t++] = 0;
      if (t == pick.size()) break;
    }
  }

  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const Group& g = groups[gi];
    if (group_var[gi] < 0 || !g.finish) continue;
    std::vector<ValueId> want;
    for (VarId v : g.members) want.push_back(instance.goal[v]);
    const auto top = static_cast<ValueId>(g.tuples.size());
    for (int32_t k : matching(g, want)) {
      ActionDef ad;
      ad.name = unique_name(action_names, "reach goal of " + def.variables[group_var[gi]].name +
                                              " from " + def.variables[group_var[gi]].values[k]);
      ad.cost = 0;
      ad.effects.push_back(Effect{group_var[gi], k, top});
      def.actions.push_back(std::move(ad));
      r.origin.push_back(-1);
    }
  }

  Result<Domain> compiled = Domain::compile(def);
  if (!compiled) return compiled.error();
  r.domain = std::move(*compiled);
  r.instance.name = instance.name;
  r.instance.npc_class = kAllActions;
  r.instance.init.assign(def.variables.size(), 0);
  r.instance.goal.assign(def.variables.size(), kUndefined);
  for (VarId v = 0; v < m; ++v) {
    if (group_of[v] < 0) {
      r.instance.init[new_var[v]] = instance.init[v];
      r.instance.goal[new_var[v]] = instance.goal[v];
    }
  }
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    if (group_var[gi] < 0) continue;
    const Group& g = groups[gi];
    r.instance.init[group_var[gi]] = 0;  // the closure starts at s0's tuple
    std::vector<ValueId> want;
    for (VarId v : g.members) want.push_back(instance.goal[v]);
    const std::vector<int32_t> hits = matching(g, want);
    bool any = std::any_of(want.begin(), want.end(), [](ValueId x) { return x != kUndefined; });
    if (any && hits.size() == 1) r.instance.goal[group_var[gi]] = hits[0];
    if (g.finish) r.instance.goal[group_var[gi]] = static_cast<ValueId>(g.tuples.size());
  }
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
