// Differential test of "topo-ijcai" (TopoPlan as Prévost et al. 2023 write it) against the exact
// search on seeded random SAS-PUC0 / C2S / C2* instances with total goals.
//
// TOPOPLAN_DIFF_INSTANCES sets the number of instances (default 4000), TOPOPLAN_DIFF_SEED the first
// domain seed. Per class: agree (a valid plan of the optimal length where a plan exists, a fail
// where none exists), longer (valid, not minimal), invalid-plan (caught by the validator),
// wrong-unsolvable (the paper's "fail" on a solvable instance), gave-up (anything else).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

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
  int64_t instances = 0, agree = 0, longer = 0, invalid = 0, wrong_unsolvable = 0, gave_up = 0;
  int64_t first_invalid_seed = -1, first_wrong_seed = -1, first_longer_seed = -1;
};

bool starts_with(const std::string& s, const char* p) {
  return s.rfind(p, 0) == 0;
}

TEST(TopoIjcai, DifferentialAgainstExact) {
  const int64_t instances = env_int("TOPOPLAN_DIFF_INSTANCES", 4000);
  const uint64_t first_seed = static_cast<uint64_t>(env_int("TOPOPLAN_DIFF_SEED", 1));
  testing::RandomDomainOptions dopt;
  dopt.max_variables = 6;
  dopt.max_values = 4;
  PlannerOptions options;
  options.objective = Objective::kLength;
  options.limits.max_expansions = 200'000;
  Counts counts[3];
  int64_t done = 0;
  for (uint64_t seed = first_seed; done < instances; ++seed) {
    const Domain d = testing::random_domain(seed, dopt);
    const ClassReport report = analyze(d);
    if (report.structural_class == StructuralClass::kNone) continue;
    Counts& c = counts[static_cast<int>(report.structural_class)];
    testing::Rng rng(seed * 7919 + 1);
    for (int k = 0; k < 4 && done < instances; ++k) {
      testing::RandomInstanceOptions iopt;
      iopt.kind = k % 2 == 0 ? testing::GoalKind::kRandomWalk : testing::GoalKind::kRandomGoal;
      const Instance inst = testing::random_instance(d, rng, iopt);
      const PlanResult exact = plan_exact(d, inst, options);
      if (exact.status == PlanStatus::kLimitReached) continue;
      ++done;
      ++c.instances;
      const PlanResult r = plan_topo_ijcai(d, inst, options);
      const bool solvable = exact.status == PlanStatus::kSolved;
      if (r.status == PlanStatus::kSolved) {
        ASSERT_TRUE(validate_plan(d, inst, r.actions).valid);  // the planner validated it
        ASSERT_TRUE(solvable);
        if (r.actions.size() == exact.actions.size()) {
          ++c.agree;
        } else {
          ++c.longer;
          if (c.first_longer_seed < 0) c.first_longer_seed = static_cast<int64_t>(seed);
        }
      } else if (starts_with(r.message, "invalid plan")) {
        ++c.invalid;
        if (c.first_invalid_seed < 0) c.first_invalid_seed = static_cast<int64_t>(seed);
      } else if (starts_with(r.message, "fail at")) {
        if (solvable) {
          ++c.wrong_unsolvable;
          if (c.first_wrong_seed < 0) c.first_wrong_seed = static_cast<int64_t>(seed);
        } else {
          ++c.agree;
        }
      } else {
        ++c.gave_up;
      }
    }
  }
  const char* names[] = {"C0", "C2S", "C2*"};
  std::printf("\n%-5s %9s %9s %7s %9s %9s %8s  first seeds (invalid, wrong, longer)\n", "class",
              "instances", "agree", "longer", "invalid", "wrong-uns", "gave-up");
  for (int i = 0; i < 3; ++i) {
    const Counts& c = counts[i];
    std::printf("%-5s %9lld %9lld %7lld %9lld %9lld %8lld  %lld %lld %lld\n", names[i],
                (long long)c.instances, (long long)c.agree, (long long)c.longer,
                (long long)c.invalid, (long long)c.wrong_unsolvable, (long long)c.gave_up,
                (long long)c.first_invalid_seed, (long long)c.first_wrong_seed,
                (long long)c.first_longer_seed);
  }
  std::fflush(stdout);
  EXPECT_EQ(topo_ijcai_invalid_plans(), counts[0].invalid + counts[1].invalid + counts[2].invalid);
  for (const Counts& c : counts) EXPECT_EQ(c.gave_up, 0);  // every instance is in the input class
}

}  // namespace
}  // namespace topoplan
