// What every cold planner (a PlanFn of the registry) answers on Horse Breeder (Table 1 of the
// SAS paper): an empty plan when the goal holds; a proof of unsolvability for a goal value no
// action produces; a limit that is reached is never a proof; a malformed instance is an answer
// with a message, never a crash. Each planner's tests call expect_cold_contract with its own
// entry.
#pragma once

#include <gtest/gtest.h>

#include <string_view>
#include <utility>

#include "compile.h"
#include "horse_breeder.h"
#include "topoplan/runtime/plan.h"

namespace topoplan::testing {

// The registry answers NAME with this planner's entry.
inline void expect_registered(std::string_view name, PlanFn plan) {
  const PlannerInfo* p = find_planner(name);
  ASSERT_NE(p, nullptr) << name;
  EXPECT_EQ(p->plan.get(), plan) << name;
}

inline void expect_empty_plan_when_goal_holds(PlanFn plan) {
  const Domain d = compile_or_die(horse_breeder_003_def());
  const PlanResult r = plan(d, make_instance({1, 0, 1}, {1, kUndefined, kUndefined}), {});
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_TRUE(r.actions.empty());
}

// Water can never return to the fountain: no action has post inFountain.
inline void expect_unreachable_goal_value_unsolvable(PlanFn plan) {
  const Domain d = compile_or_die(horse_breeder_003_def());
  const PlanResult r = plan(d, make_instance({0, 0, 2}, {0, 0, 0}), {});
  EXPECT_EQ(r.status, PlanStatus::kUnsolvable);
  EXPECT_FALSE(r.message.empty());
}

// Feeding the horses from empty hands (7 actions) under `options`.
inline PlanResult feed_the_horses(PlanFn plan, const PlannerOptions& options) {
  const Domain d = compile_or_die(horse_breeder_003_def());
  return plan(d, make_instance({0, 0, 0}, {2, 0, 2}), options);
}

inline void expect_expansion_limit_not_a_proof(PlanFn plan) {
  PlannerOptions options;
  options.limits.max_expansions = 1;
  const PlanResult r = feed_the_horses(plan, options);
  EXPECT_EQ(r.status, PlanStatus::kLimitReached);
  EXPECT_FALSE(r.message.empty());
}

inline void expect_memory_limit_not_a_proof(PlanFn plan) {
  PlannerOptions options;
  options.limits.max_memory_bytes = 64;
  EXPECT_EQ(feed_the_horses(plan, options).status, PlanStatus::kLimitReached);
}

inline void expect_bad_instance_reported(PlanFn plan) {
  const Domain d = compile_or_die(horse_breeder_003_def());
  const PlanResult r = plan(d, make_instance({0, 0}, {2, 0, 2}), {});
  EXPECT_NE(r.status, PlanStatus::kSolved);
  EXPECT_FALSE(r.message.empty());
}

// The whole contract, each part traced by its name: the registry entry NAME, then the five
// answers above.
inline void expect_cold_contract(std::string_view name, PlanFn plan) {
  const std::pair<const char*, void (*)(PlanFn)> parts[] = {
      {"empty plan when the goal holds", expect_empty_plan_when_goal_holds},
      {"unreachable goal value", expect_unreachable_goal_value_unsolvable},
      {"expansion limit", expect_expansion_limit_not_a_proof},
      {"memory limit", expect_memory_limit_not_a_proof},
      {"bad instance", expect_bad_instance_reported},
  };
  expect_registered(name, plan);
  for (const auto& part : parts) {
    SCOPED_TRACE(part.first);
    part.second(plan);
  }
}

}  // namespace topoplan::testing
