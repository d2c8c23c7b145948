#include "random_domains.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "topoplan/runtime/validate.h"

namespace topoplan::testing {

namespace {
// In-place Fisher-Yates with our own PRNG (std::shuffle is implementation-defined).
void shuffle(std::vector<ValueId>& xs, Rng& rng) {
  for (int32_t i = static_cast<int32_t>(xs.size()) - 1; i > 0; --i)
    std::swap(xs[static_cast<size_t>(i)], xs[static_cast<size_t>(rng.uniform(0, i))]);
}
}  // namespace

DomainDef random_domain_def(uint64_t seed, const RandomDomainOptions& options) {
  Rng rng(seed * 0x2545F4914F6CDD1Dull + 17);
  DomainDef d;
  d.name = "random-" + std::to_string(seed);
  const int32_t m = rng.uniform(options.min_variables, options.max_variables);
  static constexpr double kDensities[] = {0.05, 0.15, 0.3, 0.5, 0.8};
  const double density =
      options.prevail_density >= 0 ? options.prevail_density : kDensities[rng.uniform(0, 4)];
  std::vector<int32_t> sizes(static_cast<size_t>(m));
  for (int32_t v = 0; v < m; ++v) {
    sizes[v] = rng.uniform(options.min_values, options.max_values);
    VariableDef var;
    var.name = "v" + std::to_string(v);
    for (int32_t x = 0; x < sizes[v]; ++x) var.values.push_back("x" + std::to_string(x));
    d.variables.push_back(std::move(var));
  }
  for (VarId v = 0; v < m; ++v) {
    const int32_t n = sizes[v];
    std::vector<ValueId> perm(static_cast<size_t>(n));
    for (int32_t x = 0; x < n; ++x) perm[x] = x;
    shuffle(perm, rng);
    // parent[x]: pre-condition of the action producing x; -1 = ghost (no producer).
    std::vector<ValueId> parent(static_cast<size_t>(n), -1);
    int32_t cycle = 0;
    if (rng.chance(options.cycle_probability)) cycle = rng.uniform(2, n);
    if (cycle > 0) {
      for (int32_t i = 0; i < cycle; ++i) parent[perm[i]] = perm[(i + cycle - 1) % cycle];
    }
    for (int32_t i = std::max(cycle, 1); i < n; ++i) parent[perm[i]] = perm[rng.uniform(0, i - 1)];
    if (std::max(cycle, 1) < n && rng.chance(options.extra_ghost_probability))
      parent[perm[rng.uniform(std::max(cycle, 1), n - 1)]] = -1;
    constexpr ValueId kAnywhere = -2;
    if (options.undefined_pre_probability > 0 && rng.chance(0.5))
      for (ValueId x = 0; x < n; ++x)
        if (rng.chance(options.undefined_pre_probability)) parent[x] = kAnywhere;
    for (ValueId x = 0; x < n; ++x) {
      if (parent[x] == -1) continue;
      ActionDef a;
      if (parent[x] == kAnywhere) {
        a.name = "goto_v" + std::to_string(v) + "_" + std::to_string(x);
        a.effects = {{v, kUndefined, x}};
      } else {
        a.name = "set_v" + std::to_string(v) + "_" + std::to_string(parent[x]) + "to" +
                 std::to_string(x);
        a.effects = {{v, parent[x], x}};
      }
      for (VarId w = 0; w < m; ++w) {
        if (w == v || !rng.chance(density)) continue;
        a.prevail.push_back({w, rng.uniform(0, sizes[w] - 1)});
      }
      d.actions.push_back(std::move(a));
    }
  }
  return d;
}

Domain random_domain(uint64_t seed, const RandomDomainOptions& options) {
  Result<Domain> r = Domain::compile(random_domain_def(seed, options));
  assert(r.ok());
  return std::move(r).value();
}

Instance random_instance(const Domain& domain, Rng& rng, const RandomInstanceOptions& options) {
  const int32_t m = domain.num_variables();
  Instance inst;
  inst.init.resize(static_cast<size_t>(m));
  for (VarId v = 0; v < m; ++v) inst.init[v] = rng.uniform(0, domain.domain_size(v) - 1);
  inst.goal = inst.init;
  if (options.kind == GoalKind::kRandomGoal) {
    for (VarId v = 0; v < m; ++v) inst.goal[v] = rng.uniform(0, domain.domain_size(v) - 1);
  } else {
    const int32_t steps = rng.uniform(0, options.max_walk);
    std::vector<ActionId> applicable_now;
    for (int32_t k = 0; k < steps; ++k) {
      applicable_now.clear();
      for (ActionId a = 0; a < domain.num_actions(); ++a)
        if (applicable(domain, a, inst.goal)) applicable_now.push_back(a);
      if (applicable_now.empty()) break;
      const ActionId a = applicable_now[static_cast<size_t>(
          rng.uniform(0, static_cast<int32_t>(applicable_now.size()) - 1))];
      for (const Effect& e : domain.effects(a)) inst.goal[e.var] = e.post;
    }
  }
  if (options.free_goal_probability > 0)
    for (VarId v = 0; v < m; ++v)
      if (rng.chance(options.free_goal_probability)) inst.goal[v] = kUndefined;
  return inst;
}

DomainDef multiprv_cycle_def(int32_t m, int32_t n) {
  DomainDef d;
  d.name = "multiprv-" + std::to_string(n) + "-cycle-" + std::to_string(m);
  for (int32_t v = 0; v < m; ++v) {
    VariableDef var;
    var.name = "v" + std::to_string(v);
    for (int32_t x = 0; x < n; ++x) var.values.push_back(std::to_string(x));
    d.variables.push_back(std::move(var));
  }
  for (VarId v = 0; v < m; ++v) {
    for (ValueId p = 0; p < n; ++p) {
      ActionDef a;
      a.name = "a_v" + std::to_string(v) + "_" + std::to_string(p);
      a.effects = {{v, p == 0 ? n - 1 : p - 1, p}};
      for (VarId w = v + 1; w < m; ++w) a.prevail.push_back({w, n / 2});
      d.actions.push_back(std::move(a));
    }
  }
  return d;
}

}  // namespace topoplan::testing
