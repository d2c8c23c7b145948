#include "topoplan/tools/families.h"

#include <gtest/gtest.h>

#include <set>

#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

// Solves every instance with the exact search (length objective, as ℙ minimises length) and
// checks the plan with the validator. Returns the optimal lengths.
std::vector<size_t> solve_all(const Task& task) {
  std::vector<size_t> lengths;
  PlannerOptions options;
  options.objective = Objective::kLength;
  for (const Instance& inst : task.instances) {
    EXPECT_FALSE(task.domain.check_instance(inst).has_value()) << inst.name;
    const PlanResult r = plan_exact(task.domain, inst, options);
    EXPECT_EQ(r.status, PlanStatus::kSolved) << inst.name << ": " << r.message;
    const Validation v = validate_plan(task.domain, inst, r.actions);
    EXPECT_TRUE(v.valid) << inst.name << ": " << v.reason;
    lengths.push_back(r.actions.size());
  }
  return lengths;
}

int32_t max_domain(const Domain& d) {
  int32_t n = 0;
  for (VarId v = 0; v < d.num_variables(); ++v) n = std::max(n, d.domain_size(v));
  return n;
}

TEST(Families, MultiPrvNCycleShapeAndPlanLength) {
  for (int32_t m : {1, 2, 3, 4}) {
    for (int32_t n : {2, 3, 4}) {
      const Task t = multiprv_n_cycle(m, n);
      EXPECT_EQ(t.domain.num_variables(), m);
      EXPECT_EQ(t.domain.num_actions(), m * n);
      EXPECT_TRUE(t.domain.all_unary());
      ASSERT_EQ(t.instances.size(), 1u);
      EXPECT_EQ(t.instances[0].goal[0], n - 1);
      const auto lengths = solve_all(t);
      // v0 climbs to n-1; every other variable goes round its whole cycle once.
      EXPECT_EQ(lengths[0], static_cast<size_t>(m * n - 1)) << "m=" << m << " n=" << n;
      const ClassReport r = analyze(t.domain);
      EXPECT_TRUE(r.unary && r.post_unique && r.single_valued);
    }
  }
  EXPECT_EQ(multiprv_2_cycle(5).domain.num_actions(), 10);
}

TEST(Families, MultiPrvNAcyclicSolvableAndTopoAgreesWithExact) {
  const PlannerInfo* topo = find_planner("topo");
  ASSERT_NE(topo, nullptr);
  PlannerOptions options;
  options.objective = Objective::kLength;
  for (int32_t m : {1, 2, 3, 4}) {
    for (int32_t n : {2, 3, 4, 5}) {
      const Task t = multiprv_n(m, n);
      EXPECT_EQ(t.domain.num_actions(), m * (n - 1));
      const ClassReport r = analyze(t.domain);
      EXPECT_TRUE(r.unary && r.post_unique && r.single_valued);
      // No action goes back to 0: every action appears once in the only plan.
      const auto lengths = solve_all(t);
      EXPECT_EQ(lengths[0], static_cast<size_t>(m * (n - 1))) << "m=" << m << " n=" << n;
      const PlanResult p = topo->plan(t.domain, t.instances[0], options);
      ASSERT_EQ(p.status, PlanStatus::kSolved) << p.message;
      EXPECT_TRUE(validate_plan(t.domain, t.instances[0], p.actions).valid);
      EXPECT_EQ(p.actions.size(), lengths[0]) << "m=" << m << " n=" << n;
    }
  }
}

TEST(Families, OnePrv5ShapeAndPlanLength) {
  for (int32_t m : {1, 2, 3, 4}) {
    const Task t = oneprv_5(m);
    EXPECT_EQ(t.domain.num_variables(), m);
    EXPECT_EQ(t.domain.num_actions(), 4 * m);
    EXPECT_EQ(max_domain(t.domain), 5);
    EXPECT_EQ(t.instances[0].goal, std::vector<ValueId>(static_cast<size_t>(m), 4));
    EXPECT_EQ(solve_all(t)[0], static_cast<size_t>(4 * m));
    const ClassReport r = analyze(t.domain);
    EXPECT_TRUE(r.unary && r.post_unique && r.single_valued);
  }
}

void expect_game_family(const Task& t, int32_t m, int32_t n, int32_t actions, int32_t classes,
                        size_t goals) {
  EXPECT_EQ(t.domain.num_variables(), m);
  EXPECT_EQ(max_domain(t.domain), n);
  EXPECT_EQ(t.domain.num_actions(), actions);
  EXPECT_EQ(t.domain.num_classes(), classes);
  ASSERT_EQ(t.instances.size(), goals);
  std::set<ClassId> used;
  std::set<std::string> names;
  for (const Instance& inst : t.instances) {
    used.insert(inst.npc_class);
    names.insert(inst.name);
    for (ValueId g : inst.goal) EXPECT_NE(g, kUndefined) << inst.name << ": goals are total";
  }
  EXPECT_EQ(used.size(), static_cast<size_t>(classes)) << "every NPC class has a goal";
  EXPECT_EQ(names.size(), goals);
  for (size_t len : solve_all(t)) {
    EXPECT_GE(len, 3u);
    EXPECT_LE(len, 10u);
  }
  // Every action belongs to some class; every class is unary and post-unique.
  std::vector<int> owners(static_cast<size_t>(actions), 0);
  for (ClassId c = 0; c < t.domain.num_classes(); ++c)
    for (ActionId a : t.domain.class_actions(c)) ++owners[static_cast<size_t>(a)];
  for (ActionId a = 0; a < actions; ++a)
    EXPECT_GT(owners[static_cast<size_t>(a)], 0) << t.domain.action_name(a);
}

TEST(Families, WesternMatchesThePapersCounts) {
  const Task t = western();
  expect_game_family(t, 29, 5, 58, 7, 9);
  ASSERT_TRUE(t.domain.find_class("HorseBreeder").has_value());
  const ClassReport r = analyze(t.domain);
  EXPECT_TRUE(r.unary);
  EXPECT_TRUE(r.post_unique);
  EXPECT_FALSE(r.single_valued) << "Western is not S (the Horse Breeder's bucket)";
  EXPECT_EQ(r.structural_class, StructuralClass::kC2Star) << r.why_not;
}

TEST(Families, WesternPusMatchesThePapersCounts) {
  const Task t = western_pus();
  expect_game_family(t, 19, 2, 37, 5, 6);
  const ClassReport r = analyze(t.domain);
  EXPECT_TRUE(r.unary);
  EXPECT_TRUE(r.post_unique);
  EXPECT_TRUE(r.single_valued) << "Western-PUS is single-valued";
  EXPECT_TRUE(r.pre_defined);
}

TEST(Families, HorseBreederSecondInstanceNeedsTheStoreStep) {
  // Prévost et al., SAS as Topological Sorting: s0[haystack] = inHands, goal inFeeder, and the
  // bucket needs haystack = stored.
  const Task t = western();
  const Instance& inst = t.instances[1];
  PlannerOptions options;
  options.objective = Objective::kLength;
  const PlanResult r = plan_exact(t.domain, inst, options);
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_EQ(r.actions.size(), 7u);
  EXPECT_EQ(t.domain.action_name(r.actions.front()), "StoreHaystack");
}

}  // namespace
}  // namespace topoplan

namespace topoplan {
namespace {

// The committed files in domains/ are the generators' output (written with write_native).
TEST(FamilyFiles, MatchTheGenerators) {
  const std::pair<const char*, Task> files[] = {
      {"western.toml", western()},
      {"western-pus.toml", western_pus()},
      {"multiprv-2-cycle-m10.toml", multiprv_2_cycle(10)},
      {"multiprv-4-cycle-m5.toml", multiprv_n_cycle(5, 4)},
      {"oneprv-5-m10.toml", oneprv_5(10)},
  };
  for (const auto& [name, expected] : files) {
    const std::string path = testing::source_path("domains/") + name;
    auto loaded = load_task(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().to_string();
    EXPECT_EQ(loaded->domain.to_def(), expected.domain.to_def()) << name;
    EXPECT_EQ(loaded->instances, expected.instances) << name;
  }
}

}  // namespace
}  // namespace topoplan
