// The GOAP level generator: well-formed, deterministic levels that the exact search solves and
// the validator accepts; the native format carries their undefined pre-conditions.
#include <gtest/gtest.h>

#include <set>

#include "topoplan/io/formats.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

int32_t goal_facts(const Instance& inst) {
  int32_t n = 0;
  for (ValueId g : inst.goal) n += g != kUndefined;
  return n;
}

TEST(GoapLevels, SameSeedSameLevelOtherSeedOtherLevel) {
  GoapLevelParams p = goap_level_params(42, 20);
  const Task a = goap_level(p);
  const Task b = goap_level(p);
  EXPECT_EQ(a.domain.to_def(), b.domain.to_def());
  EXPECT_EQ(a.instances, b.instances);
  p.seed = 43;
  const Task c = goap_level(p);
  EXPECT_FALSE(a.domain.to_def() == c.domain.to_def() && a.instances == c.instances);
}

TEST(GoapLevels, SizesFollowTheParameters) {
  GoapLevelParams p{.locations = 50,
                    .items = 4,
                    .doors = 3,
                    .needs = 3,
                    .classes = 3,
                    .instances = 7,
                    .patrol_percent = 0,
                    .key_percent = 100};
  const Task t = goap_level(p);
  const Domain& d = t.domain;
  EXPECT_EQ(d.domain_size(*d.find_variable("location")), 50);
  // location + 3 doors + 3 keys + 4 items + 3 needs.
  EXPECT_EQ(d.num_variables(), 1 + 3 + 3 + 4 + 3);
  EXPECT_EQ(d.num_classes(), 3);
  EXPECT_EQ(t.instances.size(), 7u);
  // Without patrols every place is entered by a GoTo without pre-condition on the location.
  int32_t go_to = 0;
  for (ActionId a = 0; a < d.num_actions(); ++a)
    if (d.action_name(a).starts_with("GoTo-")) {
      ++go_to;
      EXPECT_EQ(d.effects(a)[0].pre, kUndefined) << d.action_name(a);
    }
  EXPECT_EQ(go_to, 50);
}

// Every generated level over many seeds: unary, post-unique, instances valid with goals of
// 1-3 facts, GoTo without pre-condition and patrol steps with one.
TEST(GoapLevels, InstancesAreValidTasks) {
  int64_t undefined = 0, patrol = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const Task t = goap_level(goap_level_params(seed, 50));
    const Domain& d = t.domain;
    ASSERT_TRUE(d.all_unary());
    const ClassReport all = analyze(d);
    EXPECT_TRUE(all.post_unique) << seed;
    for (ActionId a = 0; a < d.num_actions(); ++a) {
      const bool go_to = d.action_name(a).starts_with("GoTo-");
      EXPECT_EQ(d.effects(a)[0].pre == kUndefined, go_to) << d.action_name(a);
      undefined += go_to;
      patrol += d.action_name(a).starts_with("Patrol-");
    }
    ASSERT_FALSE(t.instances.empty());
    for (const Instance& inst : t.instances) {
      EXPECT_FALSE(d.check_instance(inst).has_value()) << seed;
      EXPECT_GE(goal_facts(inst), 1) << seed;
      EXPECT_LE(goal_facts(inst), 3) << seed;
      EXPECT_GE(inst.npc_class, 0);
    }
  }
  EXPECT_GT(undefined, 0);
  EXPECT_GT(patrol, 0);
}

// The native format keeps undefined pre-conditions: write, parse, same task.
TEST(GoapLevels, NativeRoundTripKeepsUndefinedPreconditions) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Task t = goap_level(goap_level_params(seed, 12));
    const std::string text = write_native(t);
    Result<Task> back = parse_native(text, "level.toml");
    ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
    EXPECT_EQ(back->domain.to_def(), t.domain.to_def());
    EXPECT_EQ(back->instances, t.instances);
  }
}

// The exact search solves a sample; every plan it returns is valid; a good share is solvable
// and some need a place twice (the levels are not all in ℙ's slice, by design).
TEST(GoapLevels, ExactSearchSolvesAndValidatesASample) {
  PlannerOptions options;
  options.objective = Objective::kLength;
  int64_t instances = 0, solved = 0, unsolvable = 0, repeats = 0;
  for (uint64_t seed = 1; seed <= 150; ++seed) {
    const Task t = goap_level(goap_level_params(seed, 10));
    for (const Instance& inst : t.instances) {
      ++instances;
      const PlanResult r = plan_exact(t.domain, inst, options);
      ASSERT_NE(r.status, PlanStatus::kLimitReached) << seed;
      if (r.status == PlanStatus::kUnsolvable) {
        ++unsolvable;
        continue;
      }
      ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
      ++solved;
      const Validation v = validate_plan(t.domain, inst, r.actions);
      EXPECT_TRUE(v.valid) << seed << " " << inst.name << ": " << v.reason;
      repeats += std::set<ActionId>(r.actions.begin(), r.actions.end()).size() != r.actions.size();
    }
  }
  EXPECT_GT(solved, instances / 2);
  EXPECT_GT(unsolvable, 0);
  EXPECT_GT(repeats, 0);
}

TEST(GoapLevels, GoToChainHasOnePlanOfTwoNSteps) {
  for (int32_t n : {1, 2, 3, 6}) {
    const Task t = goap_goto_chain(n);
    EXPECT_EQ(t.domain.num_actions(), 2 * n);
    PlannerOptions options;
    options.objective = Objective::kLength;
    const PlanResult r = plan_exact(t.domain, t.instances[0], options);
    ASSERT_EQ(r.status, PlanStatus::kSolved);
    EXPECT_EQ(r.actions.size(), static_cast<size_t>(n == 1 ? 1 : 2 * n));
    EXPECT_TRUE(validate_plan(t.domain, t.instances[0], r.actions).valid);
  }
}

}  // namespace
}  // namespace topoplan
