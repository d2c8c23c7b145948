// What the differential tests of the papers' planners share (topo_ijcai_test.cpp,
// topo_sas_test.cpp): the loops over seeded random instances and over every Horse Breeder
// instance, decided by the exact search, and the small helpers that classify and print an answer.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "env.h"
#include "horse_breeder.h"
#include "random_domains.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan::papers_test {

inline bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

// True when the plan uses each action at most once (a T1 plan).
inline bool uses_each_action_once(const Domain& d, const std::vector<ActionId>& plan) {
  std::vector<int32_t> seen(static_cast<size_t>(d.num_actions()), 0);
  for (const ActionId a : plan)
    if (seen[static_cast<size_t>(a)]++ != 0) return false;
  return true;
}

// Prints a wrong answer with its domain (TOPOPLAN_DIFF_DUMP=1), to extract counterexamples.
inline void dump(const char* who, const Domain& d, const Instance& inst, const PlanResult& r,
                 const PlanResult& exact) {
  std::printf("\n%s: %s\n", who, r.message.c_str());
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    const Effect& e = d.effects(a)[0];
    std::printf("  %s: v%d %d->%d prv", d.action_name(a).c_str(), e.var, e.pre, e.post);
    for (const Fact& f : d.prevail(a)) std::printf(" v%d=%d", f.var, f.value);
    std::printf("\n");
  }
  std::printf("  init");
  for (const ValueId x : inst.init) std::printf(" %d", x);
  std::printf(" goal");
  for (const ValueId x : inst.goal) std::printf(" %d", x);
  std::printf("\n  exact:");
  for (const ActionId a : exact.actions) std::printf(" %s", d.action_name(a).c_str());
  std::printf("\n");
}

// The answers of a papers' planner against the exact search, in one class of domains.
struct Counts {
  int64_t instances = 0;
  int64_t agree = 0;    // a plan of the optimal length, or a fail where no plan exists
  int64_t longer = 0;   // a valid plan, not minimal
  int64_t invalid = 0;  // a plan the validator caught
  int64_t wrong = 0;    // a fail on a solvable instance
  // invalid and wrong where the exact optimum uses each action once (a T1 plan exists); the
  // others are instances whose minimal plans repeat an action (Theorem 4's gap).
  int64_t invalid_t1 = 0, wrong_t1 = 0;
  int64_t gave_up = 0;    // anything else: the instance is outside the paper's input class
  int64_t next_full = 0;  // fails because Next would hold a third action (S3)
  int64_t first_invalid_seed = -1, first_wrong_seed = -1, first_wrong_t1_seed = -1,
          first_longer_seed = -1;
};

// Counts r, the answer of `who`, against the exact answer into c; a solved answer must be
// valid (the planners validate their plans) and solvable. TOPOPLAN_DIFF_DUMP=1 prints the
// invalid plans and the wrong fails on T1 instances with their domains.
inline void tally(const char* who, Counts& c, uint64_t seed, const Domain& d, const Instance& inst,
                  const PlanResult& r, const PlanResult& exact) {
  const auto first = [seed](int64_t& at) {
    if (at < 0) at = static_cast<int64_t>(seed);
  };
  ++c.instances;
  const bool solvable = exact.status == PlanStatus::kSolved;
  const bool t1 = solvable && uses_each_action_once(d, exact.actions);
  const bool show = testing::env_int("TOPOPLAN_DIFF_DUMP", 0) != 0;
  if (r.status == PlanStatus::kSolved) {
    ASSERT_TRUE(validate_plan(d, inst, r.actions).valid);
    ASSERT_TRUE(solvable);
    if (r.actions.size() == exact.actions.size()) {
      ++c.agree;
    } else {
      ++c.longer;
      first(c.first_longer_seed);
    }
  } else if (starts_with(r.message, "invalid plan")) {
    ++c.invalid;
    if (t1) ++c.invalid_t1;
    first(c.first_invalid_seed);
    if (show) dump(who, d, inst, r, exact);
  } else if (starts_with(r.message, "fail at")) {
    if (r.message.find("third action") != std::string::npos) ++c.next_full;
    if (!solvable) {
      ++c.agree;
      return;
    }
    ++c.wrong;
    first(c.first_wrong_seed);
    if (t1) {
      ++c.wrong_t1;
      first(c.first_wrong_t1_seed);
      if (show) dump(who, d, inst, r, exact);
    }
  } else {
    ++c.gave_up;
  }
}

// The differential loop: seeded random unary, post-unique domains (from TOPOPLAN_DIFF_SEED,
// default 1; small ones unless TOPOPLAN_DIFF_LARGE=1), four instances each (random walks and
// random goals in turn), until TOPOPLAN_DIFF_INSTANCES (default `default_instances`) instances
// the exact search decides (shortest plan, 200,000 expansions at most) have been visited:
// visit(seed, domain, class report, instance, exact answer). `classified_only` skips the domains
// outside C0 / C2S / C2*.
template <class Visit>
void for_each_decided_instance(int64_t default_instances, bool classified_only, Visit visit) {
  const int64_t instances = testing::env_int("TOPOPLAN_DIFF_INSTANCES", default_instances);
  const uint64_t first_seed = static_cast<uint64_t>(testing::env_int("TOPOPLAN_DIFF_SEED", 1));
  testing::RandomDomainOptions dopt;
  if (testing::env_int("TOPOPLAN_DIFF_LARGE", 0) ==
      0) {  // the generator's defaults: 8 variables, 5 values
    dopt.max_variables = 6;
    dopt.max_values = 4;
  }
  PlannerOptions options;
  options.objective = Objective::kLength;
  options.limits.max_expansions = 200'000;
  int64_t done = 0;
  for (uint64_t seed = first_seed; done < instances; ++seed) {
    const Domain d = testing::random_domain(seed, dopt);
    const ClassReport report = analyze(d);
    if (classified_only && report.structural_class == StructuralClass::kNone) continue;
    testing::Rng rng(seed * 7919 + 1);
    for (int k = 0; k < 4 && done < instances; ++k) {
      const Instance inst = testing::alternating_instance(d, rng, k);
      const PlanResult exact = plan_exact(d, inst, options);
      if (exact.status == PlanStatus::kLimitReached) continue;
      ++done;
      visit(seed, d, report, inst, exact);
    }
  }
}

// Both Horse Breeder tables (IJCAI's 000 and SAS as Topological Sorting's 003), every pair of
// total states: check(domain, instance, exact, options) with the exact search's answer under the
// length objective, the one the papers' plans are measured against; then done(def), for the
// table's figures.
template <class Check, class Done>
void for_every_horse_instance(const Check& check, const Done& done) {
  for (const DomainDef& def :
       {testing::horse_breeder_000_def(), testing::horse_breeder_003_def()}) {
    auto d = Domain::compile(def);
    ASSERT_TRUE(d.ok());
    PlannerOptions options;
    options.objective = Objective::kLength;
    const std::vector<std::vector<ValueId>> states = testing::horse_breeder_states();
    for (const auto& s0 : states)
      for (const auto& g : states) {
        const Instance inst = testing::make_instance(s0, g);
        check(*d, inst, plan_exact(*d, inst, options), options);
      }
    done(def);
  }
}

// A papers' plan is as short as the exact search's.
inline void expect_shortest(const PlanResult& r, const PlanResult& exact) {
  ASSERT_EQ(exact.status, PlanStatus::kSolved);
  EXPECT_EQ(r.actions.size(), exact.actions.size());
}

}  // namespace topoplan::papers_test
