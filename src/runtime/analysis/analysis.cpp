// Class analysis (Prévost et al. 2023, Defs 1-7). docs/classes.md explains every step and decision.
// References: docs/references.md.
//
// Everything is indexed through the value slots of a CompiledActionSet (compiled.h): slot(v, x) =
// Σ_{w<v} |D_w| + x. Its CSR tables over the slots (producers: actions whose post is (v, x);
// consumers: actions whose defined pre is (v, x); requesters: actions with prevail (v, x)) give
// every graph of the papers without hashing, so the whole analysis is O(|M| + Σ|D_v| +
// Σ|prv(a)| + |A| + |E_A|) but for sorting each A(v) (the producers of v's values) by id.
#include "topoplan/runtime/analysis.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <optional>
#include <utility>

#include "separation.h"

namespace topoplan {

std::string_view to_string(StructuralClass c) {
  // In the enum's order, one name per enumerator.
  static constexpr std::array<std::string_view, 4> kNames = {"C0", "C2S", "C2*", "none"};
  static_assert(kNames.size() == static_cast<size_t>(StructuralClass::kNone) + 1);
  const auto i = static_cast<size_t>(c);
  return i < kNames.size() ? kNames[i] : "none";
}

namespace {

// Disjoint sets with union by size and path halving (used for the weak components of G(v)).
class DisjointSets {
 public:
  explicit DisjointSets(size_t n) : parent_(n), size_(n, 1) {
    for (size_t i = 0; i < n; ++i) parent_[i] = static_cast<int32_t>(i);
  }
  int32_t find(int32_t x) {
    while (parent_[static_cast<size_t>(x)] != x) {
      auto& p = parent_[static_cast<size_t>(x)];
      p = parent_[static_cast<size_t>(p)];
      x = p;
    }
    return x;
  }
  void unite(int32_t a, int32_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[static_cast<size_t>(a)] < size_[static_cast<size_t>(b)]) std::swap(a, b);
    parent_[static_cast<size_t>(b)] = a;
    size_[static_cast<size_t>(a)] += size_[static_cast<size_t>(b)];
  }

 private:
  std::vector<int32_t> parent_;
  std::vector<int32_t> size_;
};

std::string quote(const std::string& s) {
  return "'" + s + "'";
}

class Analyzer {
 public:
  explicit Analyzer(const CompiledActionSet& set)
      : set_(set), d_(set.domain()), n_(d_.num_actions()), m_(d_.num_variables()) {
    r_.npc_class = set.npc_class();
  }

  ClassReport run() {
    syntactic();
    prevail_edges();
    domain_action_graphs();
    pre_edges();
    classify();
    return std::move(r_);
  }

 private:
  [[nodiscard]] bool in(ActionId a) const { return set_.available(a); }
  [[nodiscard]] int32_t slot(VarId v, ValueId x) const { return set_.slot(v, x); }
  [[nodiscard]] ValueId post_on(ActionId a, VarId v) const {
    for (const Effect& e : d_.effects(a))
      if (e.var == v) return e.post;
    return kUndefined;
  }
  [[nodiscard]] ValueId pre_on(ActionId a, VarId v) const {
    for (const Effect& e : d_.effects(a))
      if (e.var == v) return e.pre;
    return kUndefined;
  }
  [[nodiscard]] std::string aname(ActionId a) const { return quote(d_.action_name(a)); }
  [[nodiscard]] std::string names(std::span<const ActionId> as) const {
    std::string s = "{";
    for (size_t i = 0; i < as.size(); ++i) s += (i ? ", " : "") + d_.action_name(as[i]);
    return s + "}";
  }

  // (U), (P), (S), defined pre-conditions.
  void syntactic() {
    const auto sn = static_cast<size_t>(n_);
    r_.analysed.assign(sn, 0);
    r_.is_requestable.assign(sn, 0);
    r_.on_cycle.assign(sn, 0);
    for (const ActionId a : set_.actions()) {
      r_.analysed[static_cast<size_t>(a)] = 1;
      ++r_.num_analysed;
      const auto effects = d_.effects(a);
      if (effects.size() != 1) r_.non_unary.push_back(a);
      if (std::any_of(effects.begin(), effects.end(),
                      [](const Effect& e) { return e.pre == kUndefined; }))
        r_.undefined_pre.push_back(a);
    }
    r_.unary = r_.non_unary.empty();
    r_.pre_defined = r_.undefined_pre.empty();

    for (VarId v = 0; v < m_; ++v) {
      PrevailConflict pc;
      pc.var = v;
      for (ValueId x = 0; x < d_.domain_size(v); ++x) {
        const auto prod = set_.producers(slot(v, x));
        if (prod.size() >= 2)
          r_.post_conflicts.push_back({v, x, std::vector<ActionId>(prod.begin(), prod.end())});
        const auto req = set_.requesters(slot(v, x));
        if (!req.empty()) {
          pc.values.push_back(x);
          pc.witnesses.push_back(req.front());
        }
      }
      if (pc.values.size() >= 2) r_.prevail_conflicts.push_back(std::move(pc));
    }
    r_.post_unique = r_.post_conflicts.empty();
    r_.single_valued = r_.prevail_conflicts.empty();

    // Def 3: a is requestable when some other action's defined prevail equals one of its posts
    // (an action never has a prevail on a variable it changes, so "other" is automatic).
    for (const ActionId a : set_.actions()) {
      for (const Effect& e : d_.effects(a))
        if (!set_.requesters(slot(e.var, e.post)).empty())
          r_.is_requestable[static_cast<size_t>(a)] = 1;
      if (r_.is_requestable[static_cast<size_t>(a)]) r_.requestable.push_back(a);
    }
  }

  // Def 6, E_prv: (a, b) when post(a) = prv(b)[v] ≠ u. Sorted by (from, to); prv_begin_[a] indexes
  // the first edge leaving a.
  void prevail_edges() {
    prv_begin_.assign(static_cast<size_t>(n_) + 1, 0);
    for (ActionId a = 0; a < n_; ++a) {
      prv_begin_[static_cast<size_t>(a)] = static_cast<int32_t>(r_.prv_edges.size());
      if (!in(a)) continue;
      const auto first = r_.prv_edges.size();
      const auto effects = d_.effects(a);
      for (const Effect& e : effects)
        for (ActionId b : set_.requesters(slot(e.var, e.post))) r_.prv_edges.push_back({a, b});
      if (effects.size() > 1) {  // several effects may reach the same requester: sort and merge
        auto begin = r_.prv_edges.begin() + static_cast<std::ptrdiff_t>(first);
        std::sort(begin, r_.prv_edges.end(),
                  [](const ActionEdge& x, const ActionEdge& y) { return x.to < y.to; });
        r_.prv_edges.erase(std::unique(begin, r_.prv_edges.end()), r_.prv_edges.end());
      }
    }
    prv_begin_[static_cast<size_t>(n_)] = static_cast<int32_t>(r_.prv_edges.size());
  }

  // Defs 1-2 per variable: edges, strongly connected components, cycles, weak components.
  void domain_action_graphs() {
    r_.variables.resize(static_cast<size_t>(m_));
    local_.assign(static_cast<size_t>(n_), -1);
    part_.assign(static_cast<size_t>(n_), -1);
    for (VarId v = 0; v < m_; ++v) analyse_variable(v);
  }

  void analyse_variable(VarId v) {
    VariableReport& vr = r_.variables[static_cast<size_t>(v)];
    vr.var = v;
    // A(v): the producers of v's values (an action sets v to one value), ascending.
    av_.clear();
    for (ValueId x = 0; x < d_.domain_size(v); ++x) {
      const auto prod = set_.producers(slot(v, x));
      av_.insert(av_.end(), prod.begin(), prod.end());
    }
    std::sort(av_.begin(), av_.end());
    const std::span<const ActionId> av = av_;
    vr.actions.assign(av.begin(), av.end());
    for (ValueId x = 0; x < d_.domain_size(v); ++x)
      if (set_.producers(slot(v, x)).empty()) vr.ghost_values.push_back(x);
    for (ActionId a : av)
      if (r_.is_requestable[static_cast<size_t>(a)]) vr.requestable.push_back(a);
    if (av.empty()) return;
    const auto k = av.size();
    for (size_t i = 0; i < k; ++i) local_[static_cast<size_t>(av[i])] = static_cast<int32_t>(i);

    // Edges a → b: b's defined pre is post(a) (a self-loop when b = a has pre = post), or b's
    // pre is undefined (b may follow any other action of v). Both lists are ascending and
    // disjoint, so merging keeps (from, to) order.
    undef_.clear();  // A(v)'s actions whose pre on v is undefined, ascending
    for (ActionId a : av)
      if (pre_on(a, v) == kUndefined) undef_.push_back(a);
    const std::span<const ActionId> undef = undef_;
    std::vector<int32_t> eb(k + 1, 0);
    for (size_t i = 0; i < k; ++i) {
      const ActionId a = av[i];
      eb[i] = static_cast<int32_t>(vr.edges.size());
      const auto cons = set_.consumers(slot(v, post_on(a, v)));
      size_t p = 0, q = 0;
      while (p < cons.size() || q < undef.size()) {
        if (q < undef.size() && undef[q] == a) {
          ++q;
          continue;
        }
        const bool take_cons = q == undef.size() || (p < cons.size() && cons[p] < undef[q]);
        vr.edges.push_back({a, take_cons ? cons[p++] : undef[q++]});
      }
    }
    eb[k] = static_cast<int32_t>(vr.edges.size());
    auto lo = [&](ActionId a) { return local_[static_cast<size_t>(a)]; };

    // Tarjan's strongly connected components, iteratively.
    std::vector<int32_t> index(k, -1), low(k, 0), comp(k, -1), it(k, 0), stack, calls;
    std::vector<uint8_t> on_stack(k, 0);
    int32_t counter = 0, ncomp = 0;
    for (size_t s = 0; s < k; ++s) {
      if (index[s] >= 0) continue;
      auto push = [&](size_t u) {
        index[u] = low[u] = counter++;
        it[u] = eb[u];
        stack.push_back(static_cast<int32_t>(u));
        on_stack[u] = 1;
        calls.push_back(static_cast<int32_t>(u));
      };
      push(s);
      while (!calls.empty()) {
        const auto u = static_cast<size_t>(calls.back());
        if (it[u] < eb[u + 1]) {
          const auto w = static_cast<size_t>(lo(vr.edges[static_cast<size_t>(it[u]++)].to));
          if (index[w] < 0) {
            push(w);
          } else if (on_stack[w]) {
            low[u] = std::min(low[u], index[w]);
          }
          continue;
        }
        calls.pop_back();
        if (!calls.empty()) {
          const auto p = static_cast<size_t>(calls.back());
          low[p] = std::min(low[p], low[u]);
        }
        if (low[u] == index[u]) {
          int32_t w = -1;
          do {
            w = stack.back();
            stack.pop_back();
            on_stack[static_cast<size_t>(w)] = 0;
            comp[static_cast<size_t>(w)] = ncomp;
          } while (static_cast<size_t>(w) != u);
          ++ncomp;
        }
      }
    }
    // A component is a cycle when it has an internal edge; it is simple when it has exactly as
    // many internal edges as actions (then each action has exactly one successor inside).
    const auto nc = static_cast<size_t>(ncomp);
    std::vector<int32_t> csize(nc, 0), internal(nc, 0), next(k, -1);
    for (size_t i = 0; i < k; ++i) ++csize[static_cast<size_t>(comp[i])];
    for (const ActionEdge& e : vr.edges) {
      const auto f = static_cast<size_t>(lo(e.from)), t = static_cast<size_t>(lo(e.to));
      if (comp[f] == comp[t]) {
        ++internal[static_cast<size_t>(comp[f])];
        next[f] = static_cast<int32_t>(t);
      }
    }
    std::vector<int32_t> cycle_of(nc, -1);
    for (size_t i = 0; i < k; ++i) {  // ascending action order
      const auto c = static_cast<size_t>(comp[i]);
      if (internal[c] == 0) continue;
      if (cycle_of[c] < 0) {
        cycle_of[c] = static_cast<int32_t>(vr.cycles.size());
        vr.cycles.emplace_back();
        vr.cycles.back().simple = internal[c] == csize[c];
      }
      DomainCycle& cy = vr.cycles[static_cast<size_t>(cycle_of[c])];
      cy.actions.push_back(av[i]);
      r_.on_cycle[static_cast<size_t>(av[i])] = 1;
      if (r_.is_requestable[static_cast<size_t>(av[i])]) cy.requestable.push_back(av[i]);
    }
    for (DomainCycle& cy : vr.cycles) {
      if (!cy.simple) continue;  // keep ascending order
      const size_t len = cy.actions.size();
      cy.actions.resize(1);  // start at the smallest id and follow the unique successor
      for (int32_t i = next[static_cast<size_t>(lo(cy.actions[0]))]; cy.actions.size() < len;
           i = next[static_cast<size_t>(i)])
        cy.actions.push_back(av[static_cast<size_t>(i)]);
    }

    // Weakly connected components ("parts"): each is treated as a variable of its own for the
    // C2* test (Prévost et al. 2023 §3 remark after Def 1).
    DisjointSets ds(k);
    for (const ActionEdge& e : vr.edges) ds.unite(lo(e.from), lo(e.to));
    std::vector<int32_t> part_id(k, -1);
    for (size_t i = 0; i < k; ++i) {
      const auto root = static_cast<size_t>(ds.find(static_cast<int32_t>(i)));
      if (part_id[root] < 0) {
        part_id[root] = num_parts_++;
        ++vr.components;
      }
      part_[static_cast<size_t>(av[i])] = part_id[root];
    }
  }

  // Def 6, E_pre = ∪_v E_pre(A(v)), sorted by (from, to) with a counting sort on `from`.
  void pre_edges() {
    std::vector<int32_t> off(static_cast<size_t>(n_) + 1, 0);
    for (const VariableReport& vr : r_.variables)
      for (const ActionEdge& e : vr.edges) ++off[static_cast<size_t>(e.from) + 1];
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) off[i + 1] += off[i];
    r_.pre_edges.resize(static_cast<size_t>(off.back()));
    std::vector<int32_t> pos(off.begin(), off.end() - 1);
    for (const VariableReport& vr : r_.variables)
      for (const ActionEdge& e : vr.edges)
        r_.pre_edges[static_cast<size_t>(pos[static_cast<size_t>(e.from)]++)] = e;
    if (r_.unary) return;  // each action's edges come from one variable, already ordered by `to`
    std::vector<ActionEdge> merged;
    merged.reserve(r_.pre_edges.size());
    for (ActionId a = 0; a < n_; ++a) {
      const auto first = merged.size();
      merged.insert(merged.end(), r_.pre_edges.begin() + off[static_cast<size_t>(a)],
                    r_.pre_edges.begin() + off[static_cast<size_t>(a) + 1]);
      if (d_.effects(a).size() > 1) {
        auto begin = merged.begin() + static_cast<std::ptrdiff_t>(first);
        std::sort(begin, merged.end(),
                  [](const ActionEdge& x, const ActionEdge& y) { return x.to < y.to; });
        merged.erase(std::unique(begin, merged.end()), merged.end());
      }
    }
    r_.pre_edges = std::move(merged);
  }

  // Defs 4, 5, 7.
  void classify() {
    if (!r_.unary || !r_.post_unique) {
      r_.structural_class = StructuralClass::kNone;
      if (!r_.unary) {
        const ActionId a = r_.non_unary.front();
        r_.why_not = "not unary: " + std::to_string(r_.non_unary.size()) +
                     " action(s) with several effects, e.g. " + aname(a) + " (" +
                     std::to_string(d_.effects(a).size()) + " effects)";
      } else {
        const PostConflict& pc = r_.post_conflicts.front();
        r_.why_not = "not post-unique: " + names(pc.actions) + " all set " +
                     quote(d_.variable_name(pc.var)) + " to " +
                     quote(d_.value_name(pc.var, pc.post));
      }
      return;
    }
    bool not_c2 = false, two_requestable = false, requestable_cycle = false;
    for (const VariableReport& vr : r_.variables) {
      for (const DomainCycle& cy : vr.cycles) {
        if (cy.requestable.empty()) continue;
        ClassViolation base;
        base.var = vr.var;
        base.cycle = cy.actions;
        base.requestable = cy.requestable;
        const std::string where = "variable " + quote(d_.variable_name(vr.var)) + ": ";
        if (!cy.simple) {
          add(base, ClassViolation::Kind::kTangledCycle,
              where + "actions " + names(cy.actions) +
                  " form several intertwined cycles (undefined pre-conditions) holding the "
                  "requestable action(s) " +
                  names(cy.requestable));
          not_c2 = true;
          continue;
        }
        if (cy.actions.size() > 2) {
          add(base, ClassViolation::Kind::kLongCycle,
              where + "the cycle " + names(cy.actions) + " has " +
                  std::to_string(cy.actions.size()) + " actions and the requestable action(s) " +
                  names(cy.requestable));
          not_c2 = true;
          continue;
        }
        requestable_cycle = true;
        add(base, ClassViolation::Kind::kRequestableCycle,
            where + "the requestable action(s) " + names(cy.requestable) + " lie on the cycle " +
                names(cy.actions));
        if (cy.requestable.size() < 2) continue;
        two_requestable = true;
        add(base, ClassViolation::Kind::kTwoRequestable,
            where + "both actions of the cycle " + names(cy.actions) + " are requestable");
        if (auto related = related_requesters(cy.actions[0], cy.actions[1])) {
          ClassViolation cv = base;
          cv.requester_plus = related->first;
          cv.requester_minus = related->second;
          add(cv, ClassViolation::Kind::kRelatedRequesters,
              where + aname(related->first) + " (requests " + aname(cy.actions[0]) + ") and " +
                  aname(related->second) + " (requests " + aname(cy.actions[1]) +
                  ") are related in G \\ G(" + d_.variable_name(vr.var) + ")");
          not_c2 = true;
        }
      }
    }
    using K = ClassViolation::Kind;
    K blocking = K::kRequestableCycle;
    if (not_c2) {
      r_.structural_class = StructuralClass::kNone;
    } else if (two_requestable) {
      r_.structural_class = StructuralClass::kC2Star;
      blocking = K::kTwoRequestable;
    } else if (requestable_cycle) {
      r_.structural_class = StructuralClass::kC2S;
    } else {
      r_.structural_class = StructuralClass::kC0;
    }
    for (const ClassViolation& cv : r_.violations) {
      const bool counts = not_c2 ? (cv.kind == K::kLongCycle || cv.kind == K::kTangledCycle ||
                                    cv.kind == K::kRelatedRequesters)
                                 : cv.kind == blocking;
      if (!counts || r_.structural_class == StructuralClass::kC0) continue;
      if (!r_.why_not.empty()) r_.why_not += "; ";
      r_.why_not += cv.message;
    }
  }

  void add(ClassViolation cv, ClassViolation::Kind kind, std::string message) {
    cv.kind = kind;
    cv.message = std::move(message);
    r_.violations.push_back(std::move(cv));
  }

  // Def 7 for the 2-cycle {x, y} of one part P: is some requester of x connected to some
  // requester of y in G \ P? Parts are contracted to single vertices (each is connected through
  // its E_pre edges), so this is a question about the graph of parts minus one vertex, answered by
  // the separation index in O(deg_prv(x) + deg_prv(y)).
  std::optional<std::pair<ActionId, ActionId>> related_requesters(ActionId x, ActionId y) {
    if (!sep_) {
      std::vector<std::pair<int32_t, int32_t>> qedges;
      qedges.reserve(r_.prv_edges.size());
      for (const ActionEdge& e : r_.prv_edges)
        qedges.emplace_back(part_[static_cast<size_t>(e.from)], part_[static_cast<size_t>(e.to)]);
      sep_.emplace(num_parts_, qedges);
      stamp_.assign(static_cast<size_t>(num_parts_) + 1, 0);
      witness_.assign(static_cast<size_t>(num_parts_) + 1, -1);
    }
    ++mark_;
    const int32_t p = part_[static_cast<size_t>(x)];
    assert(p == part_[static_cast<size_t>(y)]);
    for (int32_t e = prv_begin_[static_cast<size_t>(x)]; e < prv_begin_[static_cast<size_t>(x) + 1];
         ++e) {
      const auto label = static_cast<size_t>(sep_->side(p, e) + 1);
      if (stamp_[label] != mark_) {
        stamp_[label] = mark_;
        witness_[label] = r_.prv_edges[static_cast<size_t>(e)].to;
      }
    }
    for (int32_t e = prv_begin_[static_cast<size_t>(y)]; e < prv_begin_[static_cast<size_t>(y) + 1];
         ++e) {
      const auto label = static_cast<size_t>(sep_->side(p, e) + 1);
      if (stamp_[label] == mark_)
        return std::make_pair(witness_[label], r_.prv_edges[static_cast<size_t>(e)].to);
    }
    return std::nullopt;
  }

  const CompiledActionSet& set_;
  const Domain& d_;
  int32_t n_;
  int32_t m_;
  ClassReport r_;
  std::vector<ActionId> av_;     // A(v) of the variable being analysed
  std::vector<ActionId> undef_;  // its actions whose pre on v is undefined
  std::vector<int32_t> prv_begin_;
  std::vector<int32_t> local_;  // action → index in A(v) of the variable being analysed
  std::vector<int32_t> part_;   // action → global id of its weak component of G(v)
  int32_t num_parts_ = 0;
  std::optional<analysis_detail::SeparationIndex> sep_;
  std::vector<int32_t> stamp_;
  std::vector<ActionId> witness_;
  int32_t mark_ = 0;
};

}  // namespace

ClassReport analyze(const CompiledActionSet& set) {
  return Analyzer(set).run();
}

ClassReport analyze(const Domain& domain, std::span<const uint8_t> action_mask) {
  assert(action_mask.size() == static_cast<size_t>(domain.num_actions()));
  const Result<CompiledActionSet> set = CompiledActionSet::create(domain, action_mask);
  assert(set.ok());
  return analyze(set.value());
}

ClassReport analyze(const Domain& domain, ClassId npc_class) {
  assert(npc_class == kAllActions || (npc_class >= 0 && npc_class < domain.num_classes()));
  const Result<CompiledActionSet> set = CompiledActionSet::create(domain, npc_class);
  assert(set.ok());
  return analyze(set.value());
}

}  // namespace topoplan
