// What every hot planner (planner.h) answers next to its cold plan function: created by name from
// a domain's CompiledActionSet, it gives each random instance the cold function's status and,
// when solved, the cold function's plan, which is valid. Each planner's tests sweep their own
// domains and add their own checks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "random_domains.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"

namespace topoplan::testing {

// The sweep: domains domain_of(1..seeds), each with `per_domain` instances drawn from
// Rng(seed * rng_factor) (alternating_instance, goal entries free with free_goal(i)); the hot
// planner `name` made with `def` and an output of out_size actions (0: its max_plan_length())
// against `cold` with `options`.
struct HotSweep {
  const char* name = "";
  HotPlannerDef def = {};
  PlanFn cold = nullptr;
  PlannerOptions options = {};
  uint64_t seeds = 0;
  int per_domain = 0;
  uint64_t rng_factor = 1;
  size_t out_size = 0;
};

// Runs the sweep; check(hot, scratch, domain, outcome, plan) adds the planner's own checks on
// every answer (plan: the solved answer's actions, else empty). Returns how many were solved.
template <class DomainOf, class FreeGoal, class Check>
int64_t expect_hot_equals_cold(const HotSweep& sweep, DomainOf domain_of, FreeGoal free_goal,
                               Check check) {
  int64_t solved = 0;
  for (uint64_t seed = 1; seed <= sweep.seeds; ++seed) {
    const Domain domain = domain_of(seed);
    const CompiledActionSet set = CompiledActionSet::create(domain).value();
    auto hot = create_hot_planner(sweep.name, set, sweep.def).value();
    EXPECT_EQ(hot->name(), sweep.name);
    auto scratch = hot->make_scratch();
    std::vector<ActionId> out(sweep.out_size > 0 ? sweep.out_size
                                                 : static_cast<size_t>(hot->max_plan_length()));
    Rng rng(seed * sweep.rng_factor);
    for (int i = 0; i < sweep.per_domain; ++i) {
      const Instance inst = alternating_instance(domain, rng, i, free_goal(i));
      const PlanResult cold = sweep.cold(domain, inst, sweep.options);
      int32_t len = -1;
      const PlanOutcome o = hot->plan(*scratch, inst.init, inst.goal, out, &len);
      EXPECT_EQ(o.status, cold.status) << "seed " << seed << " instance " << i;
      if (o.status != cold.status) return solved;
      std::vector<ActionId> plan;
      if (o.solved()) {
        ++solved;
        plan.assign(out.begin(), out.begin() + len);
        EXPECT_EQ(plan, cold.actions);
        EXPECT_TRUE(validate_plan(domain, inst, plan).valid);
      }
      check(*hot, *scratch, o, plan);
    }
  }
  return solved;
}

}  // namespace topoplan::testing
