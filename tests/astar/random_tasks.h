// Small seeded random SAS+ tasks for the differential tests of A* and 𝒫 (tests only).
//
// Two shapes: general SAS+ (multi-effect actions, undefined pre-conditions, costs, NPC classes,
// partial goals) for A*, and SAS+-PUS (post-unique, unary, single-valued prevails) for 𝒫.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan::testing {

struct RandomTaskSpec {
  int32_t min_vars = 2, max_vars = 6;
  int32_t min_values = 2, max_values = 4;
  int32_t max_actions = 14;
  double multi_effect = 0.15;  // probability that an action has two effects
  double undefined_pre = 0.1;  // probability of pre = u
  double prevail = 0.35;       // probability per other variable
  bool unit_cost = false;
  bool pus = false;  // post-unique, unary, single-valued
  int32_t classes = 2;
  double partial_goal = 0.3;  // probability that a goal entry is u
  int32_t instances = 4;
};

// Larger tasks (6-10 variables, up to 60 actions, few prevails, mostly partial goals): the
// differential tests' widest sweep, the same for every A*.
inline constexpr RandomTaskSpec kLargerTasks{.min_vars = 6,
                                             .max_vars = 10,
                                             .max_values = 5,
                                             .max_actions = 60,
                                             .prevail = 0.12,
                                             .partial_goal = 0.6};

struct RandomTask {
  DomainDef def;
  std::vector<Instance> instances;
};

inline RandomTask random_task(uint64_t seed, const RandomTaskSpec& spec) {
  std::mt19937_64 rng(seed);
  auto uni = [&](int32_t lo, int32_t hi) {
    return std::uniform_int_distribution<int32_t>(lo, hi)(rng);
  };
  auto coin = [&](double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; };
  RandomTask t;
  t.def.name = "random-" + std::to_string(seed);
  const int32_t m = uni(spec.min_vars, spec.max_vars);
  std::vector<int32_t> sizes;
  for (int32_t v = 0; v < m; ++v) {
    VariableDef var;
    var.name = "v" + std::to_string(v);
    const int32_t n = uni(spec.min_values, spec.max_values);
    sizes.push_back(n);
    for (int32_t x = 0; x < n; ++x) var.values.push_back("x" + std::to_string(x));
    t.def.variables.push_back(var);
  }
  std::vector<ValueId> single(static_cast<size_t>(m));  // the S prevail value per variable
  for (int32_t v = 0; v < m; ++v)
    single[static_cast<size_t>(v)] = uni(0, sizes[static_cast<size_t>(v)] - 1);
  std::vector<std::vector<uint8_t>> post_used(static_cast<size_t>(m));
  for (int32_t v = 0; v < m; ++v)
    post_used[static_cast<size_t>(v)].assign(static_cast<size_t>(sizes[static_cast<size_t>(v)]), 0);

  const int32_t na = uni(2, spec.max_actions);
  for (int32_t i = 0; i < na * 3 && static_cast<int32_t>(t.def.actions.size()) < na; ++i) {
    ActionDef a;
    a.cost = spec.unit_cost ? 1 : uni(0, 5);
    const int32_t effects = (!spec.pus && m > 1 && coin(spec.multi_effect)) ? 2 : 1;
    std::vector<VarId> vars;
    while (static_cast<int32_t>(vars.size()) < effects) {
      const VarId v = uni(0, m - 1);
      if (std::find(vars.begin(), vars.end(), v) == vars.end()) vars.push_back(v);
    }
    bool ok = true;
    for (VarId v : vars) {
      const int32_t n = sizes[static_cast<size_t>(v)];
      Effect e;
      e.var = v;
      e.post = uni(0, n - 1);
      e.pre = coin(spec.undefined_pre) ? kUndefined : uni(0, n - 1);
      if (e.pre == e.post) e.pre = (e.post + 1) % n;
      if (spec.pus) {
        if (post_used[static_cast<size_t>(v)][static_cast<size_t>(e.post)]) ok = false;
        post_used[static_cast<size_t>(v)][static_cast<size_t>(e.post)] = 1;
      }
      a.effects.push_back(e);
    }
    if (!ok) continue;
    for (VarId w = 0; w < m; ++w) {
      if (std::find(vars.begin(), vars.end(), w) != vars.end() || !coin(spec.prevail)) continue;
      a.prevail.push_back(Fact{w, spec.pus ? single[static_cast<size_t>(w)]
                                           : uni(0, sizes[static_cast<size_t>(w)] - 1)});
    }
    a.name = "a" + std::to_string(t.def.actions.size());
    t.def.actions.push_back(a);
  }
  for (int32_t c = 0; c < spec.classes; ++c) {
    NpcClassDef cls;
    cls.name = "c" + std::to_string(c);
    for (ActionId a = 0; a < static_cast<ActionId>(t.def.actions.size()); ++a)
      if (coin(0.75)) cls.actions.push_back(a);
    t.def.classes.push_back(cls);
  }
  for (int32_t k = 0; k < spec.instances; ++k) {
    Instance inst;
    for (int32_t v = 0; v < m; ++v) {
      inst.init.push_back(uni(0, sizes[static_cast<size_t>(v)] - 1));
      inst.goal.push_back(coin(spec.partial_goal) ? kUndefined
                                                  : uni(0, sizes[static_cast<size_t>(v)] - 1));
    }
    inst.npc_class = (spec.classes > 0 && coin(0.5)) ? uni(0, spec.classes - 1) : kAllActions;
    t.instances.push_back(inst);
  }
  return t;
}

}  // namespace topoplan::testing
