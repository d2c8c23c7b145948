// ℙ's hot path allocates nothing: count global operator new around repeated plan() calls.
// GCC 12 flags free() in a replaced operator delete as mismatched once inlined (false positive).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "../support/horse_breeder.h"
#include "random_domains.h"
#include "topoplan/topo.h"

namespace {
std::atomic<int64_t> g_allocations{0};
}

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}

namespace topoplan {
namespace {

TEST(TopoAlloc, PlanDoesNotAllocate) {
  std::vector<Domain> domains;
  domains.push_back(Domain::compile(testing::horse_breeder_000_def()).value());
  domains.push_back(Domain::compile(testing::multiprv_cycle_def(6, 4)).value());
  for (uint64_t seed = 1; seed <= 20; ++seed) domains.push_back(testing::random_domain(seed));
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
      io.free_goal_probability = i % 5 == 0 ? 0.3 : 0.0;
      instances.push_back(testing::random_instance(d, rng, io));
    }
    int64_t solved = 0;
    const int64_t before = g_allocations.load();
    for (int rep = 0; rep < 20; ++rep) {
      for (const Instance& inst : instances) {
        int32_t len = 0;
        solved += p->plan(scratch, inst.init, inst.goal, out, &len) == PlanStatus::kSolved;
      }
    }
    const int64_t after = g_allocations.load();
    EXPECT_EQ(after - before, 0) << d.name();
    EXPECT_GE(solved, 0);
  }
}

}  // namespace
}  // namespace topoplan
