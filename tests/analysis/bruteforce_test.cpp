// The linear-time analysis against the definitions computed naively (pairwise loops, transitive
// closure by Floyd-Warshall, "related" by a fresh BFS per requester) on thousands of seeded random
// small domains, whole and under random action masks.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <random>
#include <set>

#include "../../src/runtime/analysis/separation.h"
#include "topoplan/runtime/analysis.h"

namespace topoplan {
namespace {

struct Naive {
  bool unary = true, post_unique = true, single_valued = true;
  std::vector<ActionId> requestable;
  std::set<std::pair<ActionId, ActionId>> pre_edges, prv_edges;
  std::vector<uint8_t> on_cycle;
  std::vector<std::set<std::set<ActionId>>> cycles;  // per variable: SCCs holding a cycle
  std::vector<int> components;
  StructuralClass cls = StructuralClass::kNone;
};

ValueId prv_of(const Domain& d, ActionId b, VarId v) {
  for (const Fact& f : d.prevail(b))
    if (f.var == v) return f.value;
  return kUndefined;
}

// Unary, post-unique and single-valued by pairwise loops.
void naive_flags(const Domain& d, const std::vector<ActionId>& acts, Naive& r) {
  for (ActionId a : acts) {
    if (d.effects(a).size() != 1) r.unary = false;
    for (ActionId b : acts) {
      if (b <= a) continue;
      for (const Effect& e : d.effects(a))
        for (const Effect& f : d.effects(b))
          if (e.var == f.var && e.post == f.post) r.post_unique = false;
      for (const Fact& f : d.prevail(a)) {
        const ValueId y = prv_of(d, b, f.var);
        if (y != kUndefined && y != f.value) r.single_valued = false;
      }
    }
  }
}

// Req and E_prv: which actions some other action's prevail asks for. Returns Req as a mask.
std::vector<uint8_t> naive_requestable(const Domain& d, const std::vector<ActionId>& acts,
                                       Naive& r) {
  std::vector<uint8_t> req(static_cast<size_t>(d.num_actions()), 0);
  for (ActionId a : acts)
    for (ActionId b : acts)
      for (const Effect& e : d.effects(a))
        if (b != a && prv_of(d, b, e.var) == e.post) {
          req[static_cast<size_t>(a)] = 1;
          r.prv_edges.insert({a, b});
        }
  for (ActionId a : acts)
    if (req[static_cast<size_t>(a)]) r.requestable.push_back(a);
  return req;
}

using Matrix = std::vector<std::vector<uint8_t>>;

// Floyd-Warshall's transitive closure, in place.
void close_transitively(Matrix& m) {
  const size_t k = m.size();
  for (size_t x = 0; x < k; ++x)
    for (size_t i = 0; i < k; ++i)
      if (m[i][x])
        for (size_t j = 0; j < k; ++j)
          if (m[x][j]) m[i][j] = 1;
}

// A cycle of a domain-transition graph: its variable, its actions, whether it is simple.
struct Cyc {
  VarId v;
  std::vector<ActionId> members;
  bool simple;
};

// The parts of the action set: one per weak component of a variable's graph.
struct Parts {
  std::vector<int> of;  // per action, -1 outside the mask
  int count = 0;
};

// G(v) of one variable: its edges into r.pre_edges, its cycles (the SCCs holding one) into
// r.cycles, r.on_cycle and `cycs`, its weak components into r.components and `parts`.
void naive_variable(const Domain& d, const std::vector<ActionId>& acts, VarId v, Naive& r,
                    std::vector<Cyc>& cycs, Parts& parts) {
  std::vector<ActionId> av;
  std::vector<Effect> ev;
  for (ActionId a : acts)
    for (const Effect& e : d.effects(a))
      if (e.var == v) {
        av.push_back(a);
        ev.push_back(e);
      }
  const size_t k = av.size();
  Matrix adj(k, std::vector<uint8_t>(k, 0));
  for (size_t i = 0; i < k; ++i)
    for (size_t j = 0; j < k; ++j) {
      const bool edge = ev[j].pre == kUndefined ? i != j : ev[i].post == ev[j].pre;
      if (edge) {
        adj[i][j] = 1;
        r.pre_edges.insert({av[i], av[j]});
      }
    }
  Matrix reach = adj;
  close_transitively(reach);
  std::vector<uint8_t> done(k, 0);
  for (size_t i = 0; i < k; ++i) {
    if (!reach[i][i] || done[i]) continue;
    std::set<ActionId> scc;
    std::vector<size_t> idx;
    for (size_t j = 0; j < k; ++j)
      if (j == i || (reach[i][j] && reach[j][i])) {
        scc.insert(av[j]);
        idx.push_back(j);
        done[j] = 1;
      }
    size_t internal = 0;
    for (size_t x : idx)
      for (size_t y : idx) internal += adj[x][y];
    for (ActionId a : scc) r.on_cycle[static_cast<size_t>(a)] = 1;
    r.cycles[static_cast<size_t>(v)].insert(scc);
    cycs.push_back({v, std::vector<ActionId>(scc.begin(), scc.end()), internal == scc.size()});
  }
  // Weak components by undirected closure.
  Matrix und = adj;
  for (size_t i = 0; i < k; ++i) {
    und[i][i] = 1;
    for (size_t j = 0; j < k; ++j) und[i][j] = und[i][j] | adj[j][i];
  }
  close_transitively(und);
  std::vector<int> comp(k, -1);
  for (size_t i = 0; i < k; ++i) {
    if (comp[i] >= 0) continue;
    ++r.components[static_cast<size_t>(v)];
    for (size_t j = 0; j < k; ++j)
      if (und[i][j]) comp[j] = parts.count;
    ++parts.count;
  }
  for (size_t i = 0; i < k; ++i) parts.of[static_cast<size_t>(av[i])] = comp[i];
}

// Def 7, "related": some action of `from` connected to one of `to` in the undirected action graph
// without part p, by a fresh BFS per requester.
bool related(const Naive& r, const Parts& parts, int n, int p, const std::vector<ActionId>& from,
             const std::vector<ActionId>& to) {
  const auto outside = [&](ActionId x) { return parts.of[static_cast<size_t>(x)] != p; };
  for (ActionId s : from) {
    std::vector<uint8_t> seen(static_cast<size_t>(n), 0);
    std::deque<ActionId> q{s};
    seen[static_cast<size_t>(s)] = 1;
    while (!q.empty()) {
      const ActionId u = q.front();
      q.pop_front();
      if (std::find(to.begin(), to.end(), u) != to.end()) return true;
      for (const auto* es : {&r.pre_edges, &r.prv_edges})
        for (const auto& edge : *es) {
          if (!outside(edge.first) || !outside(edge.second)) continue;
          const ActionId w = edge.first == u ? edge.second : edge.second == u ? edge.first : -1;
          if (w >= 0 && !seen[static_cast<size_t>(w)]) {
            seen[static_cast<size_t>(w)] = 1;
            q.push_back(w);
          }
        }
    }
  }
  return false;
}

// The structural class from the cycles holding requestable actions.
StructuralClass naive_class(const Naive& r, const Parts& parts, int n,
                            const std::vector<uint8_t>& req, const std::vector<Cyc>& cycs) {
  bool not_c2 = false, two = false, one = false;
  for (const Cyc& c : cycs) {
    std::vector<ActionId> rq;
    for (ActionId a : c.members)
      if (req[static_cast<size_t>(a)]) rq.push_back(a);
    if (rq.empty()) continue;
    if (!c.simple || c.members.size() > 2) {
      not_c2 = true;
      continue;
    }
    one = true;
    if (rq.size() < 2) continue;
    two = true;
    std::array<std::vector<ActionId>, 2> requesters;
    for (size_t s = 0; s < 2; ++s)
      for (const auto& [x, y] : r.prv_edges)
        if (x == c.members[s]) requesters[s].push_back(y);
    const int p = parts.of[static_cast<size_t>(c.members[0])];
    if (related(r, parts, n, p, requesters[0], requesters[1])) not_c2 = true;
  }
  return not_c2 ? StructuralClass::kNone
         : two  ? StructuralClass::kC2Star
         : one  ? StructuralClass::kC2S
                : StructuralClass::kC0;
}

Naive naive(const Domain& d, std::span<const uint8_t> mask) {
  const int n = d.num_actions(), m = d.num_variables();
  Naive r;
  std::vector<ActionId> acts;
  for (ActionId a = 0; a < n; ++a)
    if (mask[static_cast<size_t>(a)]) acts.push_back(a);
  naive_flags(d, acts, r);
  r.on_cycle.assign(static_cast<size_t>(n), 0);
  const std::vector<uint8_t> req = naive_requestable(d, acts, r);
  Parts parts;
  parts.of.assign(static_cast<size_t>(n), -1);
  r.cycles.resize(static_cast<size_t>(m));
  r.components.assign(static_cast<size_t>(m), 0);
  std::vector<Cyc> cycs;
  for (VarId v = 0; v < m; ++v) naive_variable(d, acts, v, r, cycs, parts);
  if (!r.unary || !r.post_unique) return r;
  r.cls = naive_class(r, parts, n, req, cycs);
  return r;
}

struct GenOptions {
  double p_action = 0.7;      // per (variable, post value)
  double p_prevail = 0.3;     // per (action, other variable)
  double p_undefined = 0.05;  // pre undefined
  double p_self = 0.02;       // pre = post
  double p_duplicate = 0.05;  // a second action with the same (var, post)
  double p_multi = 0.03;      // a second effect
};

DomainDef random_def(std::mt19937_64& rng, const GenOptions& o) {
  auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  DomainDef d;
  d.name = "random";
  const int m = pick(1, 5);
  for (int v = 0; v < m; ++v) {
    VariableDef var{"v" + std::to_string(v), {}};
    const int size = pick(2, 4);
    for (int x = 0; x < size; ++x) var.values.push_back(std::to_string(x));
    d.variables.push_back(var);
  }
  auto size_of = [&](int v) {
    return static_cast<int>(d.variables[static_cast<size_t>(v)].values.size());
  };
  for (int v = 0; v < m; ++v)
    for (int x = 0; x < size_of(v); ++x) {
      const int copies = coin(o.p_action) ? (coin(o.p_duplicate) ? 2 : 1) : 0;
      for (int c = 0; c < copies; ++c) {
        ActionDef a;
        a.name = "a" + std::to_string(d.actions.size());
        ValueId pre = kUndefined;
        if (!coin(o.p_undefined)) {
          if (coin(o.p_self)) {
            pre = x;
          } else {
            pre = pick(0, size_of(v) - 2);
            if (pre >= x) ++pre;
          }
        }
        a.effects.push_back({v, pre, x});
        std::vector<uint8_t> used(static_cast<size_t>(m), 0);
        used[static_cast<size_t>(v)] = 1;
        if (m > 1 && coin(o.p_multi)) {
          int w = pick(0, m - 1);
          if (!used[static_cast<size_t>(w)]) {
            used[static_cast<size_t>(w)] = 1;
            a.effects.push_back({w, pick(0, size_of(w) - 1), pick(0, size_of(w) - 1)});
          }
        }
        for (int w = 0; w < m; ++w)
          if (!used[static_cast<size_t>(w)] && coin(o.p_prevail))
            a.prevail.push_back({w, pick(0, size_of(w) - 1)});
        d.actions.push_back(a);
      }
    }
  if (d.actions.empty()) d.actions.push_back({"only", 1, {{0, 0, 1}}, {}});
  return d;
}

void compare(const Domain& d, std::span<const uint8_t> mask, const std::string& what,
             std::map<StructuralClass, int>& count) {
  const Naive want = naive(d, mask);
  const ClassReport got = analyze(d, mask);
  ASSERT_EQ(got.unary, want.unary) << what;
  ASSERT_EQ(got.post_unique, want.post_unique) << what;
  ASSERT_EQ(got.single_valued, want.single_valued) << what;
  ASSERT_EQ(got.requestable, want.requestable) << what;
  ASSERT_EQ(got.on_cycle, want.on_cycle) << what;
  std::set<std::pair<ActionId, ActionId>> pre, prv;
  for (const ActionEdge& e : got.pre_edges) pre.insert({e.from, e.to});
  for (const ActionEdge& e : got.prv_edges) prv.insert({e.from, e.to});
  ASSERT_EQ(pre.size(), got.pre_edges.size()) << what << ": duplicate E_pre edge";
  ASSERT_EQ(prv.size(), got.prv_edges.size()) << what << ": duplicate E_prv edge";
  ASSERT_TRUE(std::is_sorted(got.prv_edges.begin(), got.prv_edges.end(), [](auto& x, auto& y) {
    return std::pair(x.from, x.to) < std::pair(y.from, y.to);
  })) << what;
  ASSERT_TRUE(std::is_sorted(got.pre_edges.begin(), got.pre_edges.end(), [](auto& x, auto& y) {
    return std::pair(x.from, x.to) < std::pair(y.from, y.to);
  })) << what;
  ASSERT_EQ(pre, want.pre_edges) << what;
  ASSERT_EQ(prv, want.prv_edges) << what;
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const VariableReport& vr = got.variables[static_cast<size_t>(v)];
    std::set<std::set<ActionId>> cycles;
    for (const DomainCycle& c : vr.cycles) {
      cycles.insert(std::set<ActionId>(c.actions.begin(), c.actions.end()));
      if (c.simple) {  // in cycle order: each action's successor is the next one
        for (size_t i = 0; i < c.actions.size(); ++i) {
          ASSERT_TRUE(pre.count({c.actions[i], c.actions[(i + 1) % c.actions.size()]})) << what;
        }
      }
    }
    ASSERT_EQ(cycles, want.cycles[static_cast<size_t>(v)]) << what << " v" << v;
    ASSERT_EQ(vr.components, want.components[static_cast<size_t>(v)]) << what << " v" << v;
  }
  ASSERT_EQ(got.structural_class, want.cls) << what << "\n" << got.why_not;
  ASSERT_EQ(got.why_not.empty(), got.structural_class == StructuralClass::kC0) << what;
  ++count[got.structural_class];
}

TEST(AnalysisBruteForce, RandomDomainsAgreeWithTheDefinitions) {
  std::map<StructuralClass, int> count;
  const std::array<GenOptions, 4> profiles = {
      GenOptions{},
      GenOptions{0.9, 0.15, 0.0, 0.0, 0.0, 0.0},  // unary post-unique, sparse prevails
      GenOptions{0.9, 0.5, 0.0, 0.0, 0.0, 0.0},   // unary post-unique, dense prevails
      GenOptions{0.8, 0.3, 0.3, 0.05, 0.0, 0.0},  // many undefined pre-conditions
  };
  int domains = 0;
  for (uint64_t seed = 0; seed < 6000; ++seed) {
    std::mt19937_64 rng(seed);
    const DomainDef def = random_def(rng, profiles[seed % profiles.size()]);
    auto compiled = Domain::compile(def);
    ASSERT_TRUE(compiled.ok()) << compiled.error().to_string();
    const Domain& d = *compiled;
    ++domains;
    const std::string what = "seed " + std::to_string(seed);
    compare(d, d.action_mask(kAllActions), what, count);
    std::vector<uint8_t> mask(static_cast<size_t>(d.num_actions()));
    for (auto& b : mask) b = static_cast<uint8_t>(rng() % 4 != 0);
    compare(d, mask, what + " (mask)", count);
  }
  // The generator must reach every class, or the comparison proves little.
  for (StructuralClass c : {StructuralClass::kC0, StructuralClass::kC2S, StructuralClass::kC2Star,
                            StructuralClass::kNone})
    EXPECT_GE(count[c], 100) << to_string(c);
  std::printf("[ analysis ] %d domains x 2 action sets: C0 %d, C2S %d, C2* %d, none %d\n", domains,
              count[StructuralClass::kC0], count[StructuralClass::kC2S],
              count[StructuralClass::kC2Star], count[StructuralClass::kNone]);
}

// The separation index against BFS on random multigraphs.
TEST(AnalysisBruteForce, SeparationIndexAgreesWithBfs) {
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    std::mt19937_64 rng(seed);
    const int nv = 2 + static_cast<int>(rng() % 9);
    const int ne = static_cast<int>(rng() % 16);
    std::vector<std::pair<int32_t, int32_t>> edges;
    for (int i = 0; i < ne; ++i) {
      const auto u = static_cast<int32_t>(rng() % static_cast<uint64_t>(nv));
      auto w = static_cast<int32_t>(rng() % static_cast<uint64_t>(nv - 1));
      if (w >= u) ++w;
      edges.emplace_back(u, w);
    }
    const analysis_detail::SeparationIndex index(nv, edges);
    for (int32_t p = 0; p < nv; ++p) {
      // Components of graph - p by BFS.
      std::vector<int> comp(static_cast<size_t>(nv), -1);
      int c = 0;
      for (int32_t s = 0; s < nv; ++s) {
        if (s == p || comp[static_cast<size_t>(s)] >= 0) continue;
        std::deque<int32_t> q{s};
        comp[static_cast<size_t>(s)] = c;
        while (!q.empty()) {
          const int32_t u = q.front();
          q.pop_front();
          for (const auto& [a, b] : edges) {
            const int32_t w = a == u ? b : b == u ? a : -1;
            if (w >= 0 && w != p && comp[static_cast<size_t>(w)] < 0) {
              comp[static_cast<size_t>(w)] = c;
              q.push_back(w);
            }
          }
        }
        ++c;
      }
      for (size_t e1 = 0; e1 < edges.size(); ++e1)
        for (size_t e2 = 0; e2 < edges.size(); ++e2) {
          auto far = [&](size_t e) {
            return edges[e].first == p ? edges[e].second : edges[e].first;
          };
          const bool inc1 = edges[e1].first == p || edges[e1].second == p;
          const bool inc2 = edges[e2].first == p || edges[e2].second == p;
          if (!inc1 || !inc2) continue;
          const bool same =
              comp[static_cast<size_t>(far(e1))] == comp[static_cast<size_t>(far(e2))];
          ASSERT_EQ(
              index.side(p, static_cast<int32_t>(e1)) == index.side(p, static_cast<int32_t>(e2)),
              same)
              << "seed " << seed << " p " << p;
        }
    }
  }
}

}  // namespace
}  // namespace topoplan
