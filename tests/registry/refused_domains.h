// Random domains ℙ refuses at create, for the tests of planners that must still answer on them
// ("auto" falls back to A*): a random unary post-unique domain (random_domains.h) with one
// action copied at another cost (two producers of one value: not post-unique) or one action
// given a second effect (not unary).
#pragma once

#include <cstdint>

#include "random_domains.h"
#include "topoplan/runtime/domain.h"

namespace topoplan::testing {

enum class Refusal : uint8_t { kTwoProducers, kTwoEffects };

inline Domain refused_domain(uint64_t seed, Refusal refusal) {
  DomainDef def = random_domain_def(seed);
  Rng rng(seed * 7919 + 13);
  const auto na = static_cast<int32_t>(def.actions.size());
  ActionDef& a = def.actions[static_cast<size_t>(rng.uniform(0, na - 1))];
  if (refusal == Refusal::kTwoProducers) {
    ActionDef copy = a;
    copy.name += "-alt";
    copy.cost = a.cost + rng.uniform(-1, 2);
    if (copy.cost < 0) copy.cost = 0;
    if (!copy.prevail.empty() && rng.chance(0.5)) copy.prevail.pop_back();
    def.actions.push_back(copy);
  } else {
    const auto m = static_cast<int32_t>(def.variables.size());
    const VarId own = a.effects.front().var;
    VarId other = rng.uniform(0, m - 1);
    if (other == own) other = (own + 1) % m;
    std::erase_if(a.prevail, [&](const Fact& f) { return f.var == other; });
    const auto n = static_cast<int32_t>(def.variables[static_cast<size_t>(other)].values.size());
    const ValueId post = rng.uniform(0, n - 1);
    ValueId pre = rng.chance(0.5) ? kUndefined : rng.uniform(0, n - 1);
    if (pre == post) pre = kUndefined;
    a.effects.push_back(Effect{other, pre, post});
  }
  Result<Domain> d = Domain::compile(def);
  return std::move(d).value();
}

}  // namespace topoplan::testing
