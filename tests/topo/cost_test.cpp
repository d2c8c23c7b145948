// ℙ chooses only actions that every plan must contain (post-uniqueness makes each value's
// producer unique), so its plans are minimal in cost as well as in length whenever costs are
// non-negative. The default planner relies on this to use ℙ on domains with action costs; this
// test checks it against the cost-optimal exact search on random domains with random costs.
#include <gtest/gtest.h>

#include "random_domains.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

TEST(TopoCost, PlansAreCostOptimalWithArbitraryNonNegativeCosts) {
  int compared = 0;
  PlannerOptions exact_opts;  // Objective::kCost
  exact_opts.limits.max_expansions = 2'000'000;
  for (uint64_t seed = 1; seed <= 1500; ++seed) {
    DomainDef def = testing::random_domain_def(seed);
    testing::Rng rng(seed * 7919);
    for (ActionDef& a : def.actions) a.cost = rng.uniform(0, 9);
    Domain domain = std::move(Domain::compile(def)).value();
    for (int k = 0; k < 3; ++k) {
      testing::RandomInstanceOptions iopts;
      iopts.kind = (k == 2) ? testing::GoalKind::kRandomGoal : testing::GoalKind::kRandomWalk;
      const Instance inst = testing::random_instance(domain, rng, iopts);
      PlanResult topo = plan_topo(domain, inst);
      if (topo.status != PlanStatus::kSolved) continue;
      ASSERT_TRUE(validate_plan(domain, inst, topo.actions).valid) << "seed " << seed;
      PlanResult exact = plan_exact(domain, inst, exact_opts);
      ASSERT_EQ(exact.status, PlanStatus::kSolved) << "seed " << seed;
      EXPECT_EQ(topo.cost, exact.cost) << "seed " << seed << " instance " << k;
      ++compared;
    }
  }
  EXPECT_GT(compared, 1500);
}

}  // namespace
}  // namespace topoplan
