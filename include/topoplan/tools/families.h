// topoplan — the papers' benchmark families, as generators.
//
// Synthetic families (Prévost et al. 2022 §3; Prévost et al., SAS as Topological Sorting §3), each
// with the one instance the papers time:
//   * MultiPrv_n_Cycle(m, n): m variables with values 0..n-1; per variable i, one action per value
//     p: pre p-1 → post p (p = 0: pre n-1, closing the cycle), prevail v_j = ⌊n/2⌋ for every
//     j > i. s0 = all 0; s* = v0 at n-1, the others 0. O(m²) orderings between mn actions.
//   * MultiPrv_2_Cycle(m) = MultiPrv_n_Cycle(m, 2): Bäckström's tunnel of lights.
//   * MultiPrv_n(m, n): the acyclic version of SAS as Topological Sorting §3: per variable i,
//     actions p = 1..n-1 only (pre p-1 → post p, nothing goes back to 0), prevail v_j = 1 for
//     every j > i. That paper gives no states; ours: s0 = all 0, s* = all n-1, so every one of
//     the m(n-1) actions is in the plan (v_{m-1}..v_1 step to 1, then v_0..v_{m-1} climb in turn).
//   * OnePrv_5(m): m variables with values 0..4; per variable i, actions p = 1..4: pre p-1 → post
//     p, prevail v_{i+1} = 2 (none for the last variable). s0 = all 0; s* = all 4 (the papers
//     write 5 where values are 0..4). O(m) orderings between 4m actions.
// All three are unary, post-unique and single-valued (SAS-PUS), so both ℙ and 𝒫 apply.
// References: docs/references.md.
//
// Game families (docs/domains.md describes every class, routine and goal):
//   * western(): a Red Dead Redemption 2 town at dawn — m = 29 variables, at most 5 values,
//     58 unary post-unique actions, 7 NPC classes (the Horse Breeder of Prévost et al., SAS as
//     Topological Sorting, Table 1 is one), 9 instances with total goals and optimal plans of 3-10
//     actions. Not single-valued (the Horse Breeder needs the bucket both on the floor and in
//     hand).
//   * western_pus(): its single-valued restriction — m = 19 binary variables, 37 actions,
//     5 NPC classes, 6 instances — which Bäckström's 𝒫 can solve.
//
// GOAP levels (docs/domains.md, "GOAP levels"): seeded, deterministic levels as game designers
// write them, outside the papers' slice on purpose:
//   * `location` with 3-50 places. Most are entered by GoTo-<place> (post location=<place>, NO
//     pre-condition on the location: "go there from wherever you are", Fast Downward's -1);
//     the others lie on one-way patrol routes (Patrol-a-to-b: pre location=a, a defined
//     pre-condition), whose head is entered by GoTo — or, for a closed ring, only from its last
//     place;
//   * doors (`door-<room>`: closed/open) opened at a spot and guarding a room (entering it needs
//     the door open), half of them needing a key in hand (`key-<room>`: there/held/used, picked
//     up at its spot), a quarter of them closable again;
//   * items (there/held/used) picked up at one spot and, for 60 %, used at another;
//   * needs (unmet/met) satisfied at a spot, most with an item in hand;
//   * NPC classes (class 0 holds every action; the others about 85 % of them);
//   * instances: a random place, items mostly lying at their spot, doors mostly closed; goals of
//     1-3 facts (places, open doors, items used or held, needs met), all other variables free.
// Every action is unary and the domain is post-unique (one producer per value), so ℙ's
// structure applies once it handles undefined pre-conditions and partial goals; whether a plan
// using each action once exists varies (visiting a place twice needs its GoTo twice).
//   * goap_goto_chain(n): n places, each entered by GoTo, and n tasks, task i done at place i
//     after task i-1; goal: every task done, location free. 2n actions, one plan of 2n steps:
//     the linearity family (ns per |A| + |E_A|).
#pragma once

#include <cstdint>
#include <span>

#include "topoplan/runtime/domain.h"

namespace topoplan {

// Preconditions (asserted): m >= 1, n >= 2, m * n <= kMaxActions.
[[nodiscard]] Task multiprv_n_cycle(int32_t m, int32_t n);
[[nodiscard]] Task multiprv_2_cycle(int32_t m);
// Preconditions (asserted): m >= 1, n >= 2, m * (n - 1) <= kMaxActions.
[[nodiscard]] Task multiprv_n(int32_t m, int32_t n);
// Precondition (asserted): m >= 1.
[[nodiscard]] Task oneprv_5(int32_t m);

[[nodiscard]] Task western();
[[nodiscard]] Task western_pus();

inline constexpr int32_t kMaxGoapLocations = 50;

struct GoapLevelParams {
  int32_t locations = 8;        // 3 .. kMaxGoapLocations
  int32_t items = 2;            // items other than keys, 0 .. 12 (more are ignored)
  int32_t doors = 2;            // 0 .. locations - 1 (more are ignored); keys come with doors
  int32_t needs = 2;            // 0 .. 6 (more are ignored)
  int32_t classes = 2;          // NPC classes, 1 .. 8
  int32_t instances = 4;        // instances of the level, >= 1
  int32_t patrol_percent = 30;  // chance that a place starts a one-way patrol route
  int32_t key_percent = 50;     // chance that a door needs a key
  uint64_t seed = 1;
};

// One level (preconditions asserted as documented on the fields). Same parameters, same level.
[[nodiscard]] Task goap_level(const GoapLevelParams& params);
// The sizes the differential test and `bench goap-levels` draw per seed: locations in
// [3, max_locations], 0-4 items, 0-3 doors, 0-3 needs, 1-3 classes, patrol 0-40 %.
[[nodiscard]] GoapLevelParams goap_level_params(uint64_t seed, int32_t max_locations);
// Precondition (asserted): 1 <= n <= kMaxDomainSize.
[[nodiscard]] Task goap_goto_chain(int32_t n);

// The families by name ("multiprv-n", "multiprv-n-cycle", "multiprv-2-cycle", "oneprv-5",
// "western", "western-pus"), for tools. `m` and `n` are ignored by the fixed game families.
struct FamilyInfo {
  const char* name;
  const char* description;
};
[[nodiscard]] std::span<const FamilyInfo> families();

}  // namespace topoplan
