// ℙ through the hot-planner contract (planner.h): created by name from a CompiledActionSet, its
// plans equal the cold plan_topo's on random instances, and its failures carry detail bits.
#include <gtest/gtest.h>

#include <vector>

#include "random_domains.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

using namespace topoplan::testing;  // NOLINT(google-build-using-namespace)

TEST(TopoHot, EqualsColdPlanOnRandomInstances) {
  int64_t solved = 0, failed = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Domain domain =
        random_domain(seed, {.undefined_pre_probability = seed % 3 == 0 ? 0.3 : 0.0});
    const CompiledActionSet set = CompiledActionSet::create(domain).value();
    auto hot = create_hot_planner("topo", set).value();
    EXPECT_EQ(hot->name(), "topo");
    auto scratch = hot->make_scratch();
    std::vector<ActionId> out(static_cast<size_t>(hot->max_plan_length()));
    Rng rng(seed * 977);
    for (int i = 0; i < 40; ++i) {
      const Instance inst = alternating_instance(domain, rng, i, i % 4 == 1 ? 0.3 : 0.0);
      const PlanResult cold = plan_topo(domain, inst);
      int32_t len = -1;
      const PlanOutcome o = hot->plan(*scratch, inst.init, inst.goal, out, &len);
      ASSERT_EQ(o.status, cold.status) << "seed " << seed << " instance " << i;
      if (o.solved()) {
        ++solved;
        EXPECT_EQ(o.detail, kDetailNone);
        const std::vector<ActionId> plan(out.begin(), out.begin() + len);
        EXPECT_EQ(plan, cold.actions);
        EXPECT_TRUE(validate_plan(domain, inst, plan).valid);
      } else {
        ++failed;
        EXPECT_NE(o.detail, kDetailNone) << hot->explain(*scratch, o);
        EXPECT_FALSE(hot->explain(*scratch, o).empty());
      }
    }
  }
  EXPECT_GT(solved, 100);
  EXPECT_GT(failed, 10);
}

TEST(TopoHot, ShortBufferAndBadInput) {
  const Domain domain = random_domain(7);
  const CompiledActionSet set = CompiledActionSet::create(domain).value();
  auto hot = create_hot_planner("topo", set).value();
  auto scratch = hot->make_scratch();
  Rng rng(3);
  std::vector<ActionId> out(static_cast<size_t>(hot->max_plan_length()));
  for (int i = 0; i < 200; ++i) {
    const Instance inst = random_instance(domain, rng);
    int32_t len = 0;
    if (!hot->plan(*scratch, inst.init, inst.goal, out, &len).solved() || len < 2) continue;
    int32_t needed = 0;
    const PlanOutcome o =
        hot->plan(*scratch, inst.init, inst.goal, std::span<ActionId>(out.data(), 1), &needed);
    EXPECT_EQ(o.status, PlanStatus::kBufferTooSmall);
    EXPECT_EQ(needed, len);
    std::vector<ValueId> bad = inst.init;
    bad[0] = 99;
    const PlanOutcome b = hot->plan(*scratch, bad, inst.goal, out, &len);
    EXPECT_FALSE(b.solved());
    EXPECT_NE(b.detail & kDetailBadInput, 0u);
    return;
  }
  FAIL() << "no instance with a plan of two actions or more";
}

}  // namespace
}  // namespace topoplan
