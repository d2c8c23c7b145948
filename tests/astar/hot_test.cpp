// GOAP A* through the hot-planner contract (planner.h): created by name from a
// CompiledActionSet, its plans equal the cold plan_astar's on random instances; the set's cost
// overlay and HotPlannerDef's limits are honoured.
#include <gtest/gtest.h>

#include <vector>

#include "hot_contract.h"
#include "random_domains.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

using namespace topoplan::testing;  // NOLINT(google-build-using-namespace)

TEST(AStarHot, EqualsColdPlanOnRandomInstances) {
  HotSweep sweep{.name = "astar", .cold = &plan_astar};
  sweep.def.limits = SearchLimits{};
  sweep.options.limits = sweep.def.limits;
  sweep.seeds = 40;
  sweep.per_domain = 30;
  sweep.rng_factor = 31;
  sweep.out_size = 4096;
  int64_t unsolvable = 0;
  const int64_t solved = expect_hot_equals_cold(
      sweep, [](uint64_t seed) { return random_domain(seed); },
      [](int i) { return i % 3 == 1 ? 0.3 : 0.0; },
      [&](const HotPlanner&, const PlanScratch& scratch, const PlanOutcome& o,
          const std::vector<ActionId>& plan) {
        if (o.solved() && !plan.empty()) {
          EXPECT_GT(scratch.expanded, 0);
        } else if (o.status == PlanStatus::kUnsolvable) {
          ++unsolvable;
          EXPECT_NE(o.detail & kDetailExhausted, 0u);
        }
      });
  EXPECT_GT(solved, 100);
  EXPECT_GT(unsolvable, 5);
}

TEST(AStarHot, CostOverlayOfTheSet) {
  const Domain domain = random_domain(11);
  std::vector<int64_t> costs(static_cast<size_t>(domain.num_actions()));
  for (size_t a = 0; a < costs.size(); ++a) costs[a] = 1 + static_cast<int64_t>((a * 7) % 5);
  const CompiledActionSet set = CompiledActionSet::create(domain).value().with_costs(costs).value();
  auto hot = create_hot_planner("astar", set).value();
  auto scratch = hot->make_scratch();
  AStarPlanner reference(domain);
  std::vector<ActionId> out(4096), expected;
  Rng rng(5);
  int64_t compared = 0;
  for (int i = 0; i < 100; ++i) {
    const Instance inst = random_instance(domain, rng);
    const PlanStatus ref =
        reference.plan(inst.init, inst.goal, kAllActions, costs, PlannerOptions{}, expected);
    int32_t len = 0;
    const PlanOutcome o = hot->plan(*scratch, inst.init, inst.goal, out, &len);
    ASSERT_EQ(o.status, ref);
    if (!o.solved()) continue;
    ++compared;
    EXPECT_EQ(std::vector<ActionId>(out.begin(), out.begin() + len), expected);
  }
  EXPECT_GT(compared, 50);
}

TEST(AStarHot, LimitsAndBuffer) {
  const Domain domain = random_domain(3);
  const CompiledActionSet set = CompiledActionSet::create(domain).value();
  HotPlannerDef tight;
  tight.limits.max_expansions = 1;
  auto hot = create_hot_planner("astar", set, tight).value();
  auto full = create_hot_planner("astar", set).value();
  auto scratch = hot->make_scratch();
  auto full_scratch = full->make_scratch();
  std::vector<ActionId> out(4096);
  Rng rng(9);
  bool limited = false, short_buffer = false;
  for (int i = 0; i < 200 && !(limited && short_buffer); ++i) {
    const Instance inst = random_instance(domain, rng);
    int32_t len = 0;
    const PlanOutcome f = full->plan(*full_scratch, inst.init, inst.goal, out, &len);
    if (!f.solved() || len < 3) continue;
    int32_t tlen = 0;
    const PlanOutcome t = hot->plan(*scratch, inst.init, inst.goal, out, &tlen);
    if (t.status == PlanStatus::kLimitReached) {
      limited = true;
      EXPECT_NE(t.detail & kDetailExpansionLimit, 0u);
    }
    int32_t needed = 0;
    const PlanOutcome s = full->plan(*full_scratch, inst.init, inst.goal,
                                     std::span<ActionId>(out.data(), 1), &needed);
    EXPECT_EQ(s.status, PlanStatus::kBufferTooSmall);
    EXPECT_EQ(needed, len);
    short_buffer = true;
  }
  EXPECT_TRUE(limited);
  EXPECT_TRUE(short_buffer);
  std::vector<ValueId> bad(1, 0);
  int32_t len = 0;
  EXPECT_NE(full->plan(*full_scratch, bad, bad, out, &len).detail & kDetailBadInput, 0u);
}

}  // namespace
}  // namespace topoplan
