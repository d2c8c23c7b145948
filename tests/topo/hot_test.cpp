// ℙ through the hot-planner contract (planner.h): created by name from a CompiledActionSet, its
// plans equal the cold plan_topo's on random instances, and its failures carry detail bits.
#include <gtest/gtest.h>

#include <vector>

#include "hot_contract.h"
#include "random_domains.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

using namespace topoplan::testing;  // NOLINT(google-build-using-namespace)

TEST(TopoHot, EqualsColdPlanOnRandomInstances) {
  HotSweep sweep{.name = "topo", .cold = &plan_topo};
  sweep.seeds = 60;
  sweep.per_domain = 40;
  sweep.rng_factor = 977;
  int64_t failed = 0;
  const int64_t solved = expect_hot_equals_cold(
      sweep,
      [](uint64_t seed) {
        return random_domain(seed, {.undefined_pre_probability = seed % 3 == 0 ? 0.3 : 0.0});
      },
      [](int i) { return i % 4 == 1 ? 0.3 : 0.0; },
      [&](const HotPlanner& hot, const PlanScratch& scratch, const PlanOutcome& o,
          const std::vector<ActionId>&) {
        if (o.solved()) {
          EXPECT_EQ(o.detail, kDetailNone);
        } else {
          ++failed;
          EXPECT_NE(o.detail, kDetailNone) << hot.explain(scratch, o);
          EXPECT_FALSE(hot.explain(scratch, o).empty());
        }
      });
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
