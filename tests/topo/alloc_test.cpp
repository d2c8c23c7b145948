// ℙ's hot path allocates nothing: count global operator new around repeated plan() calls.
// GCC 12 flags free() in a replaced operator delete as mismatched once inlined (false positive).

#include <gtest/gtest.h>

#include "alloc_counter.h"

#include "../support/horse_breeder.h"
#include "random_domains.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

TEST(TopoAlloc, CounterSeesAllocations) {
  const int64_t before = testing::allocation_count();
  auto* p = new std::vector<int>(100);
  EXPECT_GE(testing::allocation_count() - before, 2);  // the vector and its buffer
  delete p;
}

TEST(TopoAlloc, PlanDoesNotAllocate) {
  std::vector<Domain> domains;
  domains.push_back(Domain::compile(testing::horse_breeder_000_def()).value());
  domains.push_back(Domain::compile(testing::multiprv_cycle_def(6, 4)).value());
  for (uint64_t seed = 1; seed <= 20; ++seed) domains.push_back(testing::random_domain(seed));
  // The general path: undefined pre-conditions (and, below, partial goals).
  testing::RandomDomainOptions goto_options;
  goto_options.undefined_pre_probability = 0.5;
  for (uint64_t seed = 1; seed <= 20; ++seed)
    domains.push_back(testing::random_domain(seed, goto_options));
  for (const Domain& d : domains) {
    Result<TopoPlanner> p = TopoPlanner::create(d);
    ASSERT_TRUE(p.ok());
    TopoScratch scratch = p->make_scratch();
    std::vector<ActionId> out(static_cast<size_t>(p->max_plan_length()));
    testing::Rng rng(7);
    std::vector<Instance> instances;
    for (int i = 0; i < 50; ++i) {
      testing::RandomInstanceOptions io;
      io.kind = i % 2 ? testing::GoalKind::kRandomGoal : testing::GoalKind::kRandomWalk;
      io.free_goal_probability = i % 3 == 0 ? 0.5 : 0.0;
      instances.push_back(testing::random_instance(d, rng, io));
    }
    int64_t solved = 0;
    const int64_t before = testing::allocation_count();
    for (int rep = 0; rep < 20; ++rep) {
      for (const Instance& inst : instances) {
        int32_t len = 0;
        solved += p->plan(scratch, inst.init, inst.goal, out, &len).solved();
      }
    }
    const int64_t after = testing::allocation_count();
    EXPECT_EQ(after - before, 0) << d.name();
    EXPECT_GE(solved, 0);
  }
}

// The relaxed reachability proof (src/runtime/topo/relax.cpp), run where ℙ would give up, works on
// the scratch's preallocated arrays too. GOAP levels produce such proofs (asserted).
TEST(TopoAlloc, RelaxedProofDoesNotAllocate) {
  int64_t relaxed = 0;
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const Task task = goap_level(goap_level_params(seed, 10));
    const Domain& d = task.domain;
    for (const Instance& inst : task.instances) {
      Result<TopoPlanner> p = TopoPlanner::create(d, inst.npc_class);
      ASSERT_TRUE(p.ok());
      TopoScratch scratch = p->make_scratch();
      std::vector<ActionId> out(static_cast<size_t>(p->max_plan_length()));
      int32_t len = 0;
      PlanOutcome o;
      const int64_t before = testing::allocation_count();
      for (int rep = 0; rep < 3; ++rep) o = p->plan(scratch, inst.init, inst.goal, out, &len);
      EXPECT_EQ(testing::allocation_count() - before, 0) << d.name() << " " << inst.name;
      relaxed += (o.detail & kDetailRelaxedUnreachable) != 0;
    }
  }
  EXPECT_GT(relaxed, 0);
}

}  // namespace
}  // namespace topoplan
