// Seeded generator of random unary post-unique domains and instances for differential tests.
//
// Every domain: 2-8 variables of 2-5 values (configurable); per variable a domain-action graph
// that is a tree (one ghost value) or holds one cycle of any length 2..|D_v| with trees hanging
// off it, sometimes with an extra ghost value; each action gets a prevail-condition on each other
// variable with the domain's density, drawn from sparse to dense. All actions are unary, have a
// defined pre-condition different from their post, and are post-unique. The same seed gives the
// same domain and instances on every platform (own PRNG, no std distributions).
#pragma once

#include <cstdint>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/random.h"

namespace topoplan::testing {

// Sanitizer builds run the random differentials on a share of their instances: the release build
// runs them whole, and the sanitizers look for memory and undefined-behaviour errors, which the
// same generators reach on a smaller sample at a fraction of the instrumented cost.
// gcc defines __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__; clang 14 answers __has_feature only.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TOPOPLAN_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TOPOPLAN_TEST_SANITIZED 1
#endif
#endif
#ifdef TOPOPLAN_TEST_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
// `n` in a release build; n / 8 (at least 1) under a sanitizer.
constexpr int64_t sanitized_share(int64_t n) {
  return kSanitized ? (n / 8 > 0 ? n / 8 : 1) : n;
}

// The project's SplitMix64 (topoplan/runtime/random.h) with the draws the generators use.
class Rng : public SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  // Uniform in [lo, hi] (inclusive).
  int32_t uniform(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // True with probability p.
  bool chance(double p) { return unit() < p; }
};

struct RandomDomainOptions {
  int32_t min_variables = 2;
  int32_t max_variables = 8;
  int32_t min_values = 2;
  int32_t max_values = 5;
  // Probability that an action has a prevail-condition on a given other variable. Negative:
  // drawn per domain from {0.05, 0.15, 0.3, 0.5, 0.8}.
  double prevail_density = -1.0;
  double cycle_probability = 0.6;         // a variable's graph holds a cycle (else: a tree)
  double extra_ghost_probability = 0.15;  // drop one more producer (disconnected G(v))
  // GoTo-style variables (SAS+ undefined pre-conditions): each variable is one with probability
  // 1/2, and then each of its values is entered, with this probability, by an action with no
  // pre-condition on the variable ("from anywhere") instead of its tree/cycle producer. 0 (the
  // default) draws nothing, so the domains above are unchanged.
  double undefined_pre_probability = 0.0;
};

enum class GoalKind : uint8_t {
  kRandomWalk,  // the state reached by a random walk of applicable actions from init: solvable
  kRandomGoal,  // a uniformly random total state
};

struct RandomInstanceOptions {
  GoalKind kind = GoalKind::kRandomWalk;
  int32_t max_walk = 12;             // random-walk length drawn from [0, max_walk]
  double free_goal_probability = 0;  // each goal entry left kUndefined with this probability
};

// A random unary post-unique domain (no NPC classes: every action is available).
[[nodiscard]] DomainDef random_domain_def(uint64_t seed, const RandomDomainOptions& options = {});
// random_domain_def compiled (the generator only produces valid definitions).
[[nodiscard]] Domain random_domain(uint64_t seed, const RandomDomainOptions& options = {});

// A random instance of `domain` (class kAllActions), using and advancing `rng`.
[[nodiscard]] Instance random_instance(const Domain& domain, Rng& rng,
                                       const RandomInstanceOptions& options = {});

// The sweeps' mix of instances: instance k is a random walk when k is even, a random goal when k
// is odd; each goal entry is left kUndefined with `free_goal_probability`.
inline Instance alternating_instance(const Domain& domain, Rng& rng, int64_t k,
                                     double free_goal_probability = 0) {
  RandomInstanceOptions options;
  options.kind = k % 2 == 0 ? GoalKind::kRandomWalk : GoalKind::kRandomGoal;
  options.free_goal_probability = free_goal_probability;
  return random_instance(domain, rng, options);
}

// MultiPrv_n_Cycle of Prévost et al. 2022 §3: m variables with the cycle 0 → 1 → ... → n-1 → 0,
// each action on v_i requiring v_j = n/2 for every j > i. From all-0 to all-0 every variable walks
// its cycle once (each waits for the later ones to reach n/2). References: docs/references.md.
[[nodiscard]] DomainDef multiprv_cycle_def(int32_t m, int32_t n);

}  // namespace topoplan::testing
