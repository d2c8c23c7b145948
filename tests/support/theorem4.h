// The counterexample to Prévost et al. (2023)'s Theorem 4, shared by ℙ's golden tests and the
// tests of the paper's pseudocode.
#pragma once

#include "topoplan/runtime/domain.h"

namespace topoplan::testing {

// A C2* domain with a solvable instance, ⟨0,0,1⟩ to ⟨1,1,0⟩, whose only plans repeat an action
// (docs/algorithm.md): b needs v1 = 1 and v2 = 1; c needs v1 = 0 and destroys v2 = 1, so b runs
// before c and v1 goes 0 → 1 → 0 → 1, a_plus twice.
inline DomainDef c2star_counterexample_def() {
  DomainDef d;
  d.name = "c2star-counterexample";
  d.variables = {{"v0", {"0", "1"}}, {"v1", {"0", "1"}}, {"v2", {"0", "1"}}};
  d.actions = {
      {"a_plus", 1, {{1, 0, 1}}, {}},
      {"a_minus", 1, {{1, 1, 0}}, {}},
      {"b", 1, {{0, 0, 1}}, {{1, 1}, {2, 1}}},
      {"c", 1, {{2, 1, 0}}, {{1, 0}}},
  };
  return d;
}

}  // namespace topoplan::testing
