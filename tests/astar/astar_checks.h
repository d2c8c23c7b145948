// The checks the forward and the regressive A* share: the papers' Horse Breeder instance, and the
// differential test on seeded random SAS+ tasks (the same status as the exact search, the same
// optimal objective value and a valid plan, for both objectives, with one planner reused across
// instances, classes and objectives).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <utility>
#include <vector>

#include "../support/horse_breeder.h"
#include "random_tasks.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan::testing {

// The papers' Horse Breeder instance on d, ⟨0,0,0⟩ to ⟨2,0,2⟩ (haystack in the feeder, water in
// the trough), planned by `plan`: solved, valid and as cheap as the exact search's plan.
inline PlanResult expect_horse_breeder_optimal(const Domain& d, PlanFn plan) {
  const Instance inst = make_instance({0, 0, 0}, {2, 0, 2});
  PlanResult r = plan(d, inst, PlannerOptions{});
  EXPECT_EQ(r.status, PlanStatus::kSolved) << r.message;
  const Validation v = validate_plan(d, inst, r.actions);
  EXPECT_TRUE(v.valid) << v.reason;
  const PlanResult e = plan_exact(d, inst);
  EXPECT_EQ(e.status, PlanStatus::kSolved);
  EXPECT_EQ(r.cost, e.cost);
  return r;
}

// Plans the instances of `count` random tasks from `first_seed` with a Planner (AStarPlanner or
// BackAStarPlanner) and checks each against plan_exact; stops at the first disagreement.
// Returns (solved, unsolvable).
template <class Planner>
std::pair<int, int> astar_differential(const RandomTaskSpec& spec, uint64_t first_seed, int count) {
  int solved = 0, unsolvable = 0;
  for (uint64_t seed = first_seed; seed < first_seed + static_cast<uint64_t>(count); ++seed) {
    const auto task = random_task(seed, spec);
    auto compiled = Domain::compile(task.def);
    EXPECT_TRUE(compiled.ok()) << "seed " << seed << ": " << compiled.error().to_string();
    if (!compiled.ok()) return {solved, unsolvable};
    const Domain& d = *compiled;
    Planner planner(d);
    std::vector<ActionId> plan;
    for (const Instance& inst : task.instances) {
      for (Objective obj : {Objective::kCost, Objective::kLength}) {
        PlannerOptions options;
        options.objective = obj;
        const PlanResult e = plan_exact(d, inst, options);
        const PlanStatus s = planner.plan(inst, options, plan);
        EXPECT_EQ(s, e.status) << "seed " << seed << " " << format_state(d, inst.init) << " -> "
                               << format_state(d, inst.goal);
        if (s != e.status) return {solved, unsolvable};
        if (s != PlanStatus::kSolved) {
          ++unsolvable;
          continue;
        }
        ++solved;
        const Validation v = validate_plan(d, inst, plan);
        EXPECT_TRUE(v.valid) << "seed " << seed << ": " << v.reason;
        const int64_t got =
            obj == Objective::kCost ? plan_cost(d, plan) : static_cast<int64_t>(plan.size());
        const int64_t want =
            obj == Objective::kCost ? e.cost : static_cast<int64_t>(e.actions.size());
        EXPECT_EQ(got, want) << "seed " << seed;
        EXPECT_EQ(planner.last_cost(), want) << "seed " << seed;
        if (!v.valid || got != want) return {solved, unsolvable};
      }
    }
  }
  return {solved, unsolvable};
}

// The generator must exercise both outcomes, or the differential test proves little.
inline void expect_both_outcomes(std::pair<int, int> r, int count) {
  EXPECT_GT(r.first, count / 4) << r.first << " solved, " << r.second << " not";
  EXPECT_GT(r.second, 0);
  std::cout << "[ counts   ] " << r.first << " solved, " << r.second << " unsolvable\n";
}

}  // namespace topoplan::testing
