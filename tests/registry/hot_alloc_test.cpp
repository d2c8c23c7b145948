// The hot adapters of "exact", "astar-back" and "backstrom" plan without allocating once their
// scratch is warm: every instance planned once (the arrays grow), then all of them again under
// the global operator-new counter. Failures are left out for 𝒫 (its message is a string).
#include <gtest/gtest.h>

#include "alloc_counter.h"
#include "random_domains.h"
#include "refused_domains.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"

namespace topoplan {
namespace {

TEST(HotAdaptersAlloc, CounterSeesAllocations) {
  const int64_t before = testing::allocation_count();
  auto* p = new std::vector<int>(100);
  EXPECT_GE(testing::allocation_count() - before, 2);
  delete p;
}

TEST(HotAdaptersAlloc, WarmScratchPlansWithoutAllocating) {
  int64_t planned = 0;
  for (const char* name : {"exact", "astar-back", "backstrom"}) {
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      const Domain d = testing::random_domain(seed);
      auto set = CompiledActionSet::create(d);
      ASSERT_TRUE(set.ok());
      HotPlannerDef def;
      def.limits = SearchLimits{};
      auto planner = create_hot_planner(name, set.value(), def);
      if (!planner.ok()) continue;  // backstrom: not single-valued
      const HotPlanner& p = *planner.value();
      auto scratch = p.make_scratch();
      testing::Rng rng(seed);
      std::vector<Instance> instances;
      for (int i = 0; i < 20; ++i) instances.push_back(testing::random_instance(d, rng));
      std::vector<ActionId> out(1024);
      int32_t len = 0;
      std::vector<uint8_t> solved;
      for (const Instance& inst : instances)
        solved.push_back(p.plan(*scratch, inst.init, inst.goal, out, &len).solved() ? 1 : 0);
      const int64_t before = testing::allocation_count();
      for (size_t i = 0; i < instances.size(); ++i) {
        if (!solved[i]) continue;
        EXPECT_TRUE(p.plan(*scratch, instances[i].init, instances[i].goal, out, &len).solved());
        ++planned;
      }
      EXPECT_EQ(testing::allocation_count() - before, 0) << name << " seed " << seed;
    }
  }
  EXPECT_GT(planned, 500);
}

// "auto" (ℙ, then A*, one scratch holding both) on domains ℙ takes and on domains it refuses
// (every call then runs A*): warm, a plan costs no allocation.
TEST(HotAdaptersAlloc, AutoPlansWithoutAllocating) {
  int64_t planned = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    for (int variant = 0; variant < 3; ++variant) {
      const Domain d = variant == 0 ? testing::random_domain(seed)
                       : variant == 1
                           ? testing::refused_domain(seed, testing::Refusal::kTwoProducers)
                           : testing::refused_domain(seed, testing::Refusal::kTwoEffects);
      auto set = CompiledActionSet::create(d);
      ASSERT_TRUE(set.ok());
      auto planner = create_hot_planner("auto", set.value());
      ASSERT_TRUE(planner.ok()) << planner.error().to_string();
      const HotPlanner& p = *planner.value();
      auto scratch = p.make_scratch();
      testing::Rng rng(seed);
      std::vector<Instance> instances;
      for (int i = 0; i < 20; ++i) {
        testing::RandomInstanceOptions io;
        io.free_goal_probability = i % 2 == 0 ? 0.0 : 0.4;
        instances.push_back(testing::random_instance(d, rng, io));
      }
      std::vector<ActionId> out(1024);
      int32_t len = 0;
      for (const Instance& inst : instances)
        (void)p.plan(*scratch, inst.init, inst.goal, out, &len);
      const int64_t before = testing::allocation_count();
      for (const Instance& inst : instances) {
        planned += p.plan(*scratch, inst.init, inst.goal, out, &len).solved() ? 1 : 0;
      }
      EXPECT_EQ(testing::allocation_count() - before, 0)
          << "seed " << seed << " variant " << variant;
    }
  }
  EXPECT_GT(planned, 800);
}

}  // namespace
}  // namespace topoplan
