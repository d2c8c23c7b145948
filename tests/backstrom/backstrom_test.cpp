#include "topoplan/tools/backstrom.h"

#include <gtest/gtest.h>

#include "../astar/random_tasks.h"
#include "../support/horse_breeder.h"
#include "cold_contract.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"
#include "topoplan/tools/tools.h"

namespace topoplan {
namespace {

TEST(Backstrom, IsRegisteredByTheTools) {
  register_tools_planners();
  testing::expect_registered("backstrom", plan_backstrom);
}

TEST(Backstrom, RefusesNonSingleValuedDomains) {
  auto d = Domain::compile(testing::horse_breeder_003_def());
  ASSERT_TRUE(d.ok());
  const PlanResult r = plan_backstrom(*d, testing::make_instance({0, 0, 0}, {2, 0, 2}));
  EXPECT_EQ(r.status, PlanStatus::kUnsupported);
  EXPECT_NE(r.message.find("single-valued"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("bucket"), std::string::npos) << r.message;
  // Western as a whole is not S either.
  const Task w = western();
  EXPECT_EQ(plan_backstrom(w.domain, w.instances[0]).status, PlanStatus::kUnsupported);
}

TEST(Backstrom, RefusesNonPostUniqueAndNonUnary) {
  DomainDef def;
  def.variables = {{"a", {"0", "1"}}, {"b", {"0", "1"}}};
  def.actions = {{"x", 1, {{0, 0, 1}}, {}}, {"y", 1, {{0, kUndefined, 1}}, {}}};
  auto d = Domain::compile(def);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(plan_backstrom(*d, testing::make_instance({0, 0}, {1, 0})).status,
            PlanStatus::kUnsupported);
  def.actions = {{"xy", 1, {{0, 0, 1}, {1, 0, 1}}, {}}};
  auto d2 = Domain::compile(def);
  ASSERT_TRUE(d2.ok());
  const PlanResult r = plan_backstrom(*d2, testing::make_instance({0, 0}, {1, 1}));
  EXPECT_EQ(r.status, PlanStatus::kUnsupported);
  EXPECT_NE(r.message.find("unary"), std::string::npos);
}

void expect_optimal(const Domain& d, const Instance& inst, const std::string& what) {
  PlannerOptions options;
  options.objective = Objective::kLength;
  const PlanResult e = plan_exact(d, inst, options);
  const PlanResult r = plan_backstrom(d, inst, options);
  ASSERT_EQ(r.status, e.status) << what << ": " << r.message;
  if (r.status != PlanStatus::kSolved) return;
  const Validation v = validate_plan(d, inst, r.actions);
  ASSERT_TRUE(v.valid) << what << ": " << v.reason;
  EXPECT_EQ(r.actions.size(), e.actions.size()) << what << ": 𝒫 plans are minimal";
}

TEST(Backstrom, SolvesTheSyntheticFamiliesOptimally) {
  for (int32_t m : {1, 2, 3, 5}) {
    for (int32_t n : {2, 3, 4}) {
      const Task t = multiprv_n_cycle(m, n);
      expect_optimal(t.domain, t.instances[0], t.domain.name());
    }
    const Task o = oneprv_5(m);
    expect_optimal(o.domain, o.instances[0], o.domain.name());
  }
}

TEST(Backstrom, SolvesWesternPus) {
  const Task t = western_pus();
  for (const Instance& inst : t.instances) expect_optimal(t.domain, inst, inst.name);
}

TEST(Backstrom, PlannerIsReusable) {
  const Task t = western_pus();
  auto p = BackstromPlanner::create(t.domain);
  ASSERT_TRUE(p.ok());
  std::vector<ActionId> plan;
  for (int round = 0; round < 3; ++round)
    for (const Instance& inst : t.instances) {
      ASSERT_EQ(p->plan(inst.init, inst.goal, plan), PlanStatus::kSolved);
      EXPECT_TRUE(validate_plan(t.domain, inst, plan).valid);
    }
}

// Differential test on random SAS+-PUS tasks: same status as the exact search, valid plans of
// minimal length.
void differential(testing::RandomTaskSpec spec, uint64_t first, int count) {
  spec.pus = true;
  int solved = 0, unsolvable = 0;
  for (uint64_t seed = first; seed < first + static_cast<uint64_t>(count); ++seed) {
    const auto task = testing::random_task(seed, spec);
    auto d = Domain::compile(task.def);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    for (const Instance& inst : task.instances) {
      expect_optimal(*d, inst, "seed " + std::to_string(seed));
      if (::testing::Test::HasFatalFailure()) return;
      const PlanResult e = plan_exact(*d, inst);
      (e.status == PlanStatus::kSolved ? solved : unsolvable)++;
    }
  }
  EXPECT_GT(solved, count / 4) << solved << " solved, " << unsolvable << " not";
  EXPECT_GT(unsolvable, 0);
}

TEST(BackstromDifferential, SmallPusTasks) {
  differential({}, 1, 600);
}

TEST(BackstromDifferential, TotalGoalsDefinedPre) {
  testing::RandomTaskSpec spec;
  spec.partial_goal = 0;
  spec.undefined_pre = 0;
  differential(spec, 5000, 600);
}

TEST(BackstromDifferential, LargerPusTasks) {
  testing::RandomTaskSpec spec;
  spec.min_vars = 5;
  spec.max_vars = 9;
  spec.max_values = 4;
  spec.max_actions = 30;
  spec.prevail = 0.25;
  differential(spec, 9000, 150);
}

}  // namespace
}  // namespace topoplan
