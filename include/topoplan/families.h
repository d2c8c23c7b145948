// topoplan — the papers' benchmark families, as generators.
//
// Synthetic families (seed 001 §3, seed 003 §3), each with the one instance the papers time:
//   * MultiPrv_n_Cycle(m, n): m variables with values 0..n-1; per variable i, one action per value
//     p: pre p-1 → post p (p = 0: pre n-1, closing the cycle), prevail v_j = ⌊n/2⌋ for every
//     j > i. s0 = all 0; s* = v0 at n-1, the others 0. O(m²) orderings between mn actions.
//   * MultiPrv_2_Cycle(m) = MultiPrv_n_Cycle(m, 2): Bäckström's tunnel of lights.
//   * OnePrv_5(m): m variables with values 0..4; per variable i, actions p = 1..4: pre p-1 → post
//     p, prevail v_{i+1} = 2 (none for the last variable). s0 = all 0; s* = all 4 (the papers
//     write 5 where values are 0..4). O(m) orderings between 4m actions.
// All three are unary, post-unique and single-valued (SAS-PUS), so both ℙ and 𝒫 apply.
//
// Game families (docs/domains.md describes every class, routine and goal):
//   * western(): a Red Dead Redemption 2 town at dawn — m = 29 variables, at most 5 values,
//     58 unary post-unique actions, 7 NPC classes (the Horse Breeder of seed 003 Table 1 is one),
//     9 instances with total goals and optimal plans of 3-10 actions. Not single-valued (the
//     Horse Breeder needs the bucket both on the floor and in hand).
//   * western_pus(): its single-valued restriction — m = 19 binary variables, 37 actions,
//     5 NPC classes, 6 instances — which Bäckström's 𝒫 can solve.
#pragma once

#include <span>

#include "topoplan/domain.h"

namespace topoplan {

// Preconditions (asserted): m >= 1, n >= 2, m * n <= kMaxActions.
[[nodiscard]] Task multiprv_n_cycle(int32_t m, int32_t n);
[[nodiscard]] Task multiprv_2_cycle(int32_t m);
// Precondition (asserted): m >= 1.
[[nodiscard]] Task oneprv_5(int32_t m);

[[nodiscard]] Task western();
[[nodiscard]] Task western_pus();

// The families by name ("multiprv-n-cycle", "multiprv-2-cycle", "oneprv-5", "western",
// "western-pus"), for tools. `m` and `n` are ignored by the fixed game families.
struct FamilyInfo {
  const char* name;
  const char* description;
};
[[nodiscard]] std::span<const FamilyInfo> families();

}  // namespace topoplan
