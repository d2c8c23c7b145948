// Differential test of "topo-sas" and "topo-cnia" (ℙ as the two versions of "SAS Planning as
// Topological Sorting" write it) against the exact search on seeded random unary, post-unique
// instances with total goals: the classes SAS-PUC0 / C2S / C2* and the rest of SAS-PU (the
// papers claim SAS-PU T1, where T1 restricts the plans, not the input).
//
// TOPOPLAN_DIFF_INSTANCES sets the number of instances (default 3000), TOPOPLAN_DIFF_SEED the first
// domain seed, TOPOPLAN_DIFF_DUMP=1 prints each wrong answer with its domain. Per class and
// planner: agree (a valid plan of the optimal length, or a fail where no plan exists), longer
// (valid, not minimal), invalid (caught by the validator), wrong-unsolvable (a fail on a solvable
// instance; "(T1)": the optimal plan uses each action once, the papers' class).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "horse_breeder.h"
#include "random_domains.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/papers.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoll(v) : fallback;
}

struct Counts {
  int64_t instances = 0, agree = 0, longer = 0, invalid = 0, invalid_t1 = 0, wrong = 0,
          wrong_t1 = 0, gave_up = 0;
  int64_t first_invalid_seed = -1, first_wrong_t1_seed = -1;
};

bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

bool uses_each_action_once(const Domain& d, const std::vector<ActionId>& plan) {
  std::vector<int32_t> seen(static_cast<size_t>(d.num_actions()), 0);
  for (const ActionId a : plan)
    if (seen[static_cast<size_t>(a)]++ != 0) return false;
  return true;
}

void dump(const char* who, const Domain& d, const Instance& inst, const PlanResult& r,
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

// Classifies r against the exact answer into c.
void tally(const char* who, Counts& c, uint64_t seed, const Domain& d, const Instance& inst,
           const PlanResult& r, const PlanResult& exact) {
  ++c.instances;
  const bool solvable = exact.status == PlanStatus::kSolved;
  const bool t1 = solvable && uses_each_action_once(d, exact.actions);
  const bool show = env_int("TOPOPLAN_DIFF_DUMP", 0) != 0;
  if (r.status == PlanStatus::kSolved) {
    ASSERT_TRUE(validate_plan(d, inst, r.actions).valid);  // the planner validated it
    ASSERT_TRUE(solvable);
    if (r.actions.size() == exact.actions.size()) {
      ++c.agree;
    } else {
      ++c.longer;
    }
  } else if (starts_with(r.message, "invalid plan")) {
    ++c.invalid;
    if (t1) ++c.invalid_t1;
    if (c.first_invalid_seed < 0) c.first_invalid_seed = static_cast<int64_t>(seed);
    if (show) dump(who, d, inst, r, exact);
  } else if (starts_with(r.message, "fail at")) {
    if (!solvable) {
      ++c.agree;
      return;
    }
    ++c.wrong;
    if (t1) {
      ++c.wrong_t1;
      if (c.first_wrong_t1_seed < 0) c.first_wrong_t1_seed = static_cast<int64_t>(seed);
      if (show) dump(who, d, inst, r, exact);
    }
  } else {
    ++c.gave_up;
  }
}

void print(const char* who, const Counts (&counts)[4]) {
  const char* names[] = {"C0", "C2S", "C2*", "other"};
  std::printf("\n%s\n%-5s %9s %9s %7s %8s %6s %9s %8s %7s  first seeds (invalid, wrong T1)\n", who,
              "class", "instances", "agree", "longer", "invalid", "(T1)", "wrong-uns", "(T1)",
              "gave-up");
  for (int i = 0; i < 4; ++i) {
    const Counts& c = counts[i];
    std::printf("%-5s %9lld %9lld %7lld %8lld %6lld %9lld %8lld %7lld  %lld %lld\n", names[i],
                (long long)c.instances, (long long)c.agree, (long long)c.longer,
                (long long)c.invalid, (long long)c.invalid_t1, (long long)c.wrong,
                (long long)c.wrong_t1, (long long)c.gave_up, (long long)c.first_invalid_seed,
                (long long)c.first_wrong_t1_seed);
  }
  std::fflush(stdout);
}

TEST(TopoSas, DifferentialAgainstExact) {
  const int64_t instances = env_int("TOPOPLAN_DIFF_INSTANCES", 3000);
  const uint64_t first_seed = static_cast<uint64_t>(env_int("TOPOPLAN_DIFF_SEED", 1));
  testing::RandomDomainOptions dopt;
  if (env_int("TOPOPLAN_DIFF_LARGE", 0) == 0) {
    dopt.max_variables = 6;
    dopt.max_values = 4;
  }
  PlannerOptions options;
  options.objective = Objective::kLength;
  options.limits.max_expansions = 200'000;
  Counts sas[4], cnia[4];
  int64_t done = 0;
  for (uint64_t seed = first_seed; done < instances; ++seed) {
    const Domain d = testing::random_domain(seed, dopt);
    const ClassReport report = analyze(d);
    const int cls = report.structural_class == StructuralClass::kNone
                        ? 3
                        : static_cast<int>(report.structural_class);
    testing::Rng rng(seed * 7919 + 1);
    for (int k = 0; k < 4 && done < instances; ++k) {
      testing::RandomInstanceOptions iopt;
      iopt.kind = k % 2 == 0 ? testing::GoalKind::kRandomWalk : testing::GoalKind::kRandomGoal;
      const Instance inst = testing::random_instance(d, rng, iopt);
      const PlanResult exact = plan_exact(d, inst, options);
      if (exact.status == PlanStatus::kLimitReached) continue;
      ++done;
      tally("topo-sas", sas[cls], seed, d, inst, plan_topo_sas(d, inst, options), exact);
      tally("topo-cnia", cnia[cls], seed, d, inst, plan_topo_cnia(d, inst, options), exact);
    }
  }
  print("topo-sas", sas);
  print("topo-cnia", cnia);
  int64_t invalid = 0;
  for (int i = 0; i < 4; ++i) {
    invalid += sas[i].invalid + cnia[i].invalid;
    EXPECT_EQ(sas[i].gave_up, 0);  // every instance is in the papers' input class
    EXPECT_EQ(cnia[i].gave_up, 0);
  }
  EXPECT_EQ(topo_sas_invalid_plans(), invalid);
}

}  // namespace
}  // namespace topoplan
