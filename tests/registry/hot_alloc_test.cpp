// The hot adapters of "exact", "astar-back" and "backstrom" plan without allocating once their
// scratch is warm: every instance planned once (the arrays grow), then all of them again under
// the global operator-new counter. Failures are left out for 𝒫 (its message is a string).
#include <gtest/gtest.h>

#include "alloc_counter.h"
#include "random_domains.h"
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

}  // namespace
}  // namespace topoplan
