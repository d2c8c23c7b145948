// The hot adapters of "astar-back", "exact" and "backstrom" (include/topoplan/runtime/planner.h),
// reached only through the registry (create_hot_planner): on seeded random domains and on the
// Western tasks each hot plan equals the cold PlanFn's plan and passes the validator; the
// failure outcomes carry their detail bits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "random_domains.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

struct HotRun {
  PlanOutcome outcome;
  std::vector<ActionId> plan;
};

HotRun run_hot(const HotPlanner& planner, PlanScratch& scratch, const Instance& inst) {
  HotRun r;
  r.plan.assign(static_cast<size_t>(std::min(planner.max_plan_length(), 1 << 16)), -1);
  int32_t len = -1;
  r.outcome = planner.plan(scratch, inst.init, inst.goal, r.plan, &len);
  if (r.outcome.status == PlanStatus::kBufferTooSmall) {
    r.plan.assign(static_cast<size_t>(len), -1);
    r.outcome = planner.plan(scratch, inst.init, inst.goal, r.plan, &len);
  }
  r.plan.resize(r.outcome.solved() ? static_cast<size_t>(len) : 0);
  return r;
}

std::unique_ptr<HotPlanner> hot(const std::string& name, const CompiledActionSet& set,
                                const HotPlannerDef& def = {}) {
  auto p = create_hot_planner(name, set, def);
  EXPECT_TRUE(p.ok()) << name << ": " << (p.ok() ? "" : p.error().to_string());
  return p.ok() ? std::move(p).value() : nullptr;
}

// Same limits as the cold PlanFn's defaults (the hot default is the bounded auto limits).
HotPlannerDef cold_like_def() {
  HotPlannerDef def;
  def.limits = SearchLimits{};
  return def;
}

// Plans every instance with the cold PlanFn and the hot planner (one scratch reused across the
// instances): same status, same actions, and the plan validates. Returns the plans compared.
int compare(const std::string& name, const Domain& domain, const std::vector<Instance>& instances,
            const std::string& where) {
  const PlannerInfo* info = find_planner(name);
  if (info == nullptr) {
    ADD_FAILURE() << name << " is not registered";
    return 0;
  }
  int solved = 0;
  std::vector<std::unique_ptr<HotPlanner>> planners(static_cast<size_t>(domain.num_classes()) + 1);
  std::vector<std::unique_ptr<PlanScratch>> scratch(planners.size());
  for (const Instance& inst : instances) {
    const auto k = static_cast<size_t>(inst.npc_class + 1);
    if (!planners[k]) {
      auto set = CompiledActionSet::create(domain, inst.npc_class);
      EXPECT_TRUE(set.ok());
      auto p = create_hot_planner(name, set.value(), cold_like_def());
      if (!p.ok()) {  // the planner refuses the set: the cold PlanFn must refuse it too
        const PlanResult cold = info->plan(domain, inst, {});
        EXPECT_EQ(cold.status, PlanStatus::kUnsupported) << where << ": " << p.error().to_string();
        continue;
      }
      planners[k] = std::move(p).value();
      scratch[k] = planners[k]->make_scratch();
    }
    const PlanResult cold = info->plan(domain, inst, {});
    const HotRun h = run_hot(*planners[k], *scratch[k], inst);
    EXPECT_EQ(h.outcome.status, cold.status) << where << " " << name << ": " << cold.message;
    EXPECT_EQ(h.plan, cold.actions) << where << " " << name;
    if (h.outcome.solved()) {
      ++solved;
      const Validation v = validate_plan(domain, inst, h.plan);
      EXPECT_TRUE(v.valid) << where << " " << name << ": " << v.reason;
      EXPECT_EQ(h.outcome.detail, kDetailNone);
    } else {
      EXPECT_NE(h.outcome.detail, kDetailNone) << where << " " << name;
    }
  }
  return solved;
}

TEST(HotAdapters, EqualColdPlansOnRandomDomains) {
  int solved_exact = 0, solved_back = 0, solved_backstrom = 0, solved_others = 0, unsolvable = 0;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Domain d = testing::random_domain(seed);
    testing::Rng rng(seed * 7919);
    std::vector<Instance> instances;
    for (int i = 0; i < 6; ++i) {
      instances.push_back(testing::alternating_instance(d, rng, i, i % 3 == 0 ? 0.3 : 0.0));
    }
    const std::string where = "seed " + std::to_string(seed);
    solved_exact += compare("exact", d, instances, where);
    solved_back += compare("astar-back", d, instances, where);
    solved_backstrom += compare("backstrom", d, instances, where);
    // The runtime's own hot planners, through the same registry path.
    solved_others += compare("topo", d, instances, where);
    solved_others += compare("astar", d, instances, where);
    for (const Instance& inst : instances)
      unsolvable += find_planner("exact")->plan(d, inst, {}).status == PlanStatus::kUnsolvable;
  }
  // The comparisons are not vacuous: many plans of each planner, and unsolvable cases.
  EXPECT_GT(solved_exact, 100);
  EXPECT_GT(solved_back, 100);
  EXPECT_GT(solved_backstrom, 30);
  EXPECT_GT(solved_others, 200);
  EXPECT_GT(unsolvable, 10);
}

TEST(HotAdapters, EqualColdPlansOnWesternClasses) {
  const Task western = western_pus();
  EXPECT_GT(compare("astar-back", western.domain, western.instances, "western-pus"), 0);
  EXPECT_GT(compare("backstrom", western.domain, western.instances, "western-pus"), 0);
}

TEST(HotAdapters, UnsolvableIsExhaustedAndLimitsAreNamed) {
  // Proven-unsolvable instances, and solvable ones with a plan of several steps.
  int unsolvable = 0, limited = 0;
  for (uint64_t seed = 1; seed <= 200; ++seed) {
    const Domain d = testing::random_domain(seed);
    testing::Rng rng(seed);
    testing::RandomInstanceOptions o;
    o.kind = testing::GoalKind::kRandomGoal;
    const Instance inst = testing::random_instance(d, rng, o);
    const PlanResult cold = find_planner("exact")->plan(d, inst, {});
    auto set = CompiledActionSet::create(d);
    ASSERT_TRUE(set.ok());
    if (cold.status == PlanStatus::kUnsolvable) {
      ++unsolvable;
      for (const char* name : {"exact", "astar-back"}) {
        auto p = hot(name, set.value(), cold_like_def());
        ASSERT_TRUE(p);
        auto s = p->make_scratch();
        const HotRun h = run_hot(*p, *s, inst);
        EXPECT_EQ(h.outcome.status, PlanStatus::kUnsolvable) << name;
        EXPECT_TRUE(h.outcome.detail & kDetailExhausted) << name;
        EXPECT_NE(p->explain(*s, h.outcome).find("exhausted"), std::string::npos);
      }
    }
    if (cold.status == PlanStatus::kSolved && cold.actions.size() >= 3) {
      ++limited;
      HotPlannerDef def;
      def.limits.max_expansions = 1;
      def.limits.max_seconds = 0;
      for (const char* name : {"exact", "astar-back"}) {
        auto p = hot(name, set.value(), def);
        ASSERT_TRUE(p);
        auto s = p->make_scratch();
        const HotRun h = run_hot(*p, *s, inst);
        EXPECT_EQ(h.outcome.status, PlanStatus::kLimitReached) << name;
        EXPECT_EQ(h.outcome.detail, kDetailExpansionLimit) << name;
      }
      // A buffer one action short: kBufferTooSmall with the length needed, never a cut plan.
      for (const char* name : {"exact", "astar-back"}) {
        auto p = hot(name, set.value(), cold_like_def());
        ASSERT_TRUE(p);
        auto s = p->make_scratch();
        std::vector<ActionId> out(cold.actions.size() - 1);
        int32_t len = 0;
        const PlanOutcome short_buffer = p->plan(*s, inst.init, inst.goal, out, &len);
        EXPECT_EQ(short_buffer.status, PlanStatus::kBufferTooSmall) << name;
        EXPECT_EQ(len, static_cast<int32_t>(cold.actions.size())) << name;
      }
    }
  }
  EXPECT_GT(unsolvable, 5);
  EXPECT_GT(limited, 5);
}

TEST(HotAdapters, BadInputIsReportedNotPlanned) {
  const Domain d = testing::random_domain(3);
  auto set = CompiledActionSet::create(d);
  ASSERT_TRUE(set.ok());
  testing::Rng rng(3);
  Instance inst = testing::random_instance(d, rng);
  inst.init[0] = d.domain_size(0);  // out of range
  for (const char* name : {"exact", "astar-back", "backstrom"}) {
    auto p = create_hot_planner(name, set.value(), cold_like_def());
    if (!p.ok()) continue;  // backstrom: not single-valued
    auto s = p.value()->make_scratch();
    std::vector<ActionId> out(16);
    int32_t len = 7;
    const PlanOutcome o = p.value()->plan(*s, inst.init, inst.goal, out, &len);
    EXPECT_EQ(o.status, PlanStatus::kGaveUp) << name;
    EXPECT_EQ(o.detail, kDetailBadInput) << name;
    EXPECT_EQ(o.var, 0) << name;
    EXPECT_EQ(len, 0) << name;
    const std::vector<ValueId> short_goal(1, kUndefined);
    EXPECT_EQ(p.value()->plan(*s, inst.init, short_goal, out, &len).detail, kDetailBadInput);
  }
}

TEST(HotAdapters, CostOverlayGivesEqualOptimalCosts) {
  // exact and astar-back both minimise cost under an overlay the Domain does not carry.
  int compared = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Domain d = testing::random_domain(seed);
    testing::Rng rng(seed + 1000);
    std::vector<int64_t> costs(static_cast<size_t>(d.num_actions()));
    for (int64_t& c : costs) c = rng.uniform(0, 9);
    auto base = CompiledActionSet::create(d);
    ASSERT_TRUE(base.ok());
    auto set = base->with_costs(costs);
    ASSERT_TRUE(set.ok());
    auto exact = hot("exact", set.value(), cold_like_def());
    auto back = hot("astar-back", set.value(), cold_like_def());
    ASSERT_TRUE(exact && back);
    auto se = exact->make_scratch();
    auto sb = back->make_scratch();
    for (int i = 0; i < 4; ++i) {
      const Instance inst = testing::random_instance(d, rng);
      const HotRun e = run_hot(*exact, *se, inst);
      const HotRun b = run_hot(*back, *sb, inst);
      ASSERT_EQ(e.outcome.status, b.outcome.status);
      if (!e.outcome.solved()) continue;
      int64_t ce = 0, cb = 0;
      for (ActionId a : e.plan) ce += costs[static_cast<size_t>(a)];
      for (ActionId a : b.plan) cb += costs[static_cast<size_t>(a)];
      EXPECT_EQ(ce, cb) << "seed " << seed;
      EXPECT_TRUE(validate_plan(d, inst, b.plan).valid);
      ++compared;
    }
  }
  EXPECT_GT(compared, 50);
}

TEST(HotAdapters, ExplicitMasks) {
  const Domain d = testing::random_domain(5);
  std::vector<uint8_t> mask(static_cast<size_t>(d.num_actions()), 1);
  mask[0] = 0;
  auto set = CompiledActionSet::create(d, mask);
  ASSERT_TRUE(set.ok());
  // The searches over classes refuse a mask they cannot honour, in create(), with a reason.
  for (const char* name : {"astar-back", "backstrom"}) {
    auto p = create_hot_planner(name, set.value());
    ASSERT_FALSE(p.ok()) << name;
    EXPECT_NE(p.error().message.find("mask"), std::string::npos);
  }
  // The exact search takes it: its plans never use action 0.
  auto p = hot("exact", set.value(), cold_like_def());
  ASSERT_TRUE(p);
  auto s = p->make_scratch();
  testing::Rng rng(5);
  for (int i = 0; i < 20; ++i) {
    const Instance inst = testing::random_instance(d, rng);
    const HotRun h = run_hot(*p, *s, inst);
    for (ActionId a : h.plan) {
      EXPECT_NE(a, 0);
    }
    if (h.outcome.solved()) {
      EXPECT_TRUE(validate_plan(d, inst, h.plan).valid);
    }
  }
}

}  // namespace
}  // namespace topoplan
