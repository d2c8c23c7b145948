#include "topoplan/tools/search.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <limits>
#include <random>

#include "../support/horse_breeder.h"
#include "compile.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

using testing::make_instance;

using testing::compile_or_die;
using testing::names;

// Horse Breeder 000 from `init` to the fed horses: a valid plan of `length` actions.
PlanResult expect_horse_plan(const Domain& d, std::initializer_list<ValueId> init, size_t length) {
  const Instance inst = make_instance(init, {2, 0, 2});
  PlanResult r = plan_exact(d, inst);
  EXPECT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(r.actions.size(), length);
  EXPECT_TRUE(validate_plan(d, inst, r.actions).valid);
  return r;
}

TEST(ExactSearch, HorseBreederFromEmptyHands) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  const PlanResult r = expect_horse_plan(d, {0, 0, 0}, 6);
  EXPECT_EQ(r.cost, 6);
  // The six actions of the paper, in some valid order.
  std::vector<std::string> got = names(d, r.actions);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::string>{"DropBucket", "FillBucketWithWater", "FillHorseFeeder",
                                           "FillHorseTrough", "PickUpBucket", "TakeHaystack"}));
}

TEST(ExactSearch, HorseBreederWithHaystackInHandsNeedsSeven) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  expect_horse_plan(d, {1, 0, 0}, 7);
}

TEST(ExactSearch, HorseBreederWithHaystackInFeederIsUnsolvable) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  PlanResult r = plan_exact(d, make_instance({2, 0, 0}, {2, 0, 2}));
  EXPECT_EQ(r.status, PlanStatus::kUnsolvable);
  EXPECT_TRUE(r.actions.empty());
}

TEST(ExactSearch, Prevost2022PathAnalysisInstances) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  PlanResult one = plan_exact(d, make_instance({1, 0, 0}, {2, 0, 0}));
  ASSERT_EQ(one.status, PlanStatus::kSolved);
  EXPECT_EQ(names(d, one.actions), (std::vector<std::string>{"FillHorseFeeder"}));
}

TEST(ExactSearch, SasAsTopologicalSortingTableInstance) {
  const Domain d = compile_or_die(testing::horse_breeder_003_def());
  const Instance inst = make_instance({0, 0, 0}, {2, 0, 2});
  PlanResult r = plan_exact(d, inst);
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_TRUE(validate_plan(d, inst, r.actions).valid);
  // Water first (needs the bucket, which needs the haystack stored), then the haystack.
  EXPECT_EQ(r.actions.size(), 6u);
}

TEST(ExactSearch, EmptyPlanWhenTheGoalHolds) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  PlanResult r = plan_exact(d, make_instance({2, 0, 2}, {2, kUndefined, 2}));
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_TRUE(r.actions.empty());
}

TEST(ExactSearch, MinimisesCostNotLength) {
  DomainDef def = testing::horse_breeder_000_def();
  // A direct but expensive way to fill the trough.
  def.actions.push_back({"HireWaterCarrier", 10, {{2, 0, 2}}, {}});
  const Domain d = compile_or_die(def);
  const Instance inst = make_instance({0, 0, 0}, {kUndefined, kUndefined, 2});
  PlanResult by_cost = plan_exact(d, inst);
  ASSERT_EQ(by_cost.status, PlanStatus::kSolved);
  EXPECT_EQ(by_cost.cost, 3);  // PickUpBucket, FillBucketWithWater, FillHorseTrough
  PlannerOptions length;
  length.objective = Objective::kLength;
  PlanResult by_length = plan_exact(d, inst, length);
  ASSERT_EQ(by_length.status, PlanStatus::kSolved);
  EXPECT_EQ(by_length.actions.size(), 1u);
  EXPECT_EQ(by_length.cost, 10);
}

TEST(ExactSearch, ZeroCostActions) {
  DomainDef def = testing::horse_breeder_000_def();
  for (ActionDef& a : def.actions) a.cost = 0;
  const Domain d = compile_or_die(def);
  const Instance inst = make_instance({0, 0, 0}, {2, 0, 2});
  PlanResult r = plan_exact(d, inst);
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_EQ(r.cost, 0);
  EXPECT_TRUE(validate_plan(d, inst, r.actions).valid);
}

TEST(ExactSearch, RespectsTheNpcClass) {
  DomainDef def = testing::horse_breeder_000_def();
  def.classes = {{"no-bucket", {0, 1, 2, 5, 6}}};
  const Domain d = compile_or_die(def);
  PlanResult r = plan_exact(d, make_instance({0, 0, 0}, {2, 0, 2}, 0));
  EXPECT_EQ(r.status, PlanStatus::kUnsolvable);
  PlanResult feed = plan_exact(d, make_instance({0, 0, 0}, {2, 0, 0}, 0));
  ASSERT_EQ(feed.status, PlanStatus::kSolved);
  EXPECT_EQ(feed.actions.size(), 2u);
}

TEST(ExactSearch, LimitIsNeverReportedAsUnsolvable) {
  const Domain d = compile_or_die(testing::horse_breeder_000_def());
  PlannerOptions tight;
  tight.limits.max_expansions = 2;
  PlanResult r = plan_exact(d, make_instance({0, 0, 0}, {2, 0, 2}), tight);
  EXPECT_EQ(r.status, PlanStatus::kLimitReached);
  EXPECT_NE(r.message.find("node limit"), std::string::npos);
  tight.limits.max_expansions = std::numeric_limits<int64_t>::max();
  tight.limits.max_memory_bytes = 1;
  r = plan_exact(d, make_instance({0, 0, 0}, {2, 0, 2}), tight);
  EXPECT_EQ(r.status, PlanStatus::kLimitReached);
  EXPECT_NE(r.message.find("memory limit"), std::string::npos);
}

TEST(ExactSearch, NonUnaryActions) {
  DomainDef def = testing::horse_breeder_000_def();
  def.actions.push_back({"DoItAll", 2, {{0, 0, 2}, {2, 0, 2}}, {{1, 0}}});
  const Domain d = compile_or_die(def);
  const Instance inst = make_instance({0, 0, 0}, {2, 0, 2});
  PlanResult r = plan_exact(d, inst);
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_EQ(names(d, r.actions), (std::vector<std::string>{"DoItAll"}));
  EXPECT_EQ(r.cost, 2);
}

// An independent oracle for the oracle: Bellman-Ford over every state of a tiny random SAS+
// task (any pre, prevail, several effects, costs 0-3, partial goals).
TEST(ExactSearch, AgreesWithExhaustiveBellmanFordOnRandomTasks) {
  std::mt19937 rng(12345);
  int solved = 0, unsolvable = 0;
  for (int round = 0; round < 300; ++round) {
    DomainDef def;
    const int m = 1 + static_cast<int>(rng() % 4);
    std::vector<int> size(static_cast<size_t>(m));
    int states = 1;
    for (int v = 0; v < m; ++v) {
      size[static_cast<size_t>(v)] = 1 + static_cast<int>(rng() % 4);
      states *= size[static_cast<size_t>(v)];
      VariableDef var{"v" + std::to_string(v), {}};
      for (int x = 0; x < size[static_cast<size_t>(v)]; ++x)
        var.values.push_back("x" + std::to_string(x));
      def.variables.push_back(var);
    }
    const int n_actions = static_cast<int>(rng() % 10);
    for (int a = 0; a < n_actions; ++a) {
      ActionDef act{"a" + std::to_string(a), static_cast<int64_t>(rng() % 4), {}, {}};
      for (int v = 0; v < m; ++v) {
        const int sz = size[static_cast<size_t>(v)];
        switch (rng() % 4) {
          case 0:
            act.effects.push_back({v, (rng() % 2) ? kUndefined : static_cast<ValueId>(rng() % sz),
                                   static_cast<ValueId>(rng() % sz)});
            break;
          case 1:
            act.prevail.push_back({v, static_cast<ValueId>(rng() % sz)});
            break;
          default:
            break;
        }
      }
      if (act.effects.empty()) {
        std::erase_if(act.prevail, [](const Fact& f) { return f.var == 0; });
        act.effects.push_back({0, kUndefined, 0});
      }
      def.actions.push_back(act);
    }
    const Domain d = compile_or_die(def);
    Instance inst;
    inst.init.resize(static_cast<size_t>(m));
    inst.goal.resize(static_cast<size_t>(m));
    for (int v = 0; v < m; ++v) {
      inst.init[static_cast<size_t>(v)] =
          static_cast<ValueId>(rng() % size[static_cast<size_t>(v)]);
      inst.goal[static_cast<size_t>(v)] =
          (rng() % 3) ? static_cast<ValueId>(rng() % size[static_cast<size_t>(v)]) : kUndefined;
    }
    // Exhaustive: decode state index -> values; Bellman-Ford from init.
    auto decode = [&](int s) {
      std::vector<ValueId> st(static_cast<size_t>(m));
      for (int v = 0; v < m; ++v) {
        st[static_cast<size_t>(v)] = s % size[static_cast<size_t>(v)];
        s /= size[static_cast<size_t>(v)];
      }
      return st;
    };
    auto encode = [&](const std::vector<ValueId>& st) {
      int s = 0;
      for (int v = m - 1; v >= 0; --v)
        s = s * size[static_cast<size_t>(v)] + st[static_cast<size_t>(v)];
      return s;
    };
    const int64_t inf = std::numeric_limits<int64_t>::max();
    std::vector<int64_t> dist(static_cast<size_t>(states), inf);
    dist[static_cast<size_t>(encode(inst.init))] = 0;
    for (int iter = 0; iter < states; ++iter)
      for (int s = 0; s < states; ++s) {
        if (dist[static_cast<size_t>(s)] == inf) continue;
        std::vector<ValueId> st = decode(s);
        for (ActionId a = 0; a < d.num_actions(); ++a) {
          if (!applicable(d, a, st)) continue;
          std::vector<ValueId> next = st;
          for (const Effect& e : d.effects(a)) next[static_cast<size_t>(e.var)] = e.post;
          int64_t& nd = dist[static_cast<size_t>(encode(next))];
          nd = std::min(nd, dist[static_cast<size_t>(s)] + d.cost(a));
        }
      }
    int64_t best = inf;
    for (int s = 0; s < states; ++s)
      if (satisfies(decode(s), inst.goal)) best = std::min(best, dist[static_cast<size_t>(s)]);

    PlanResult r = plan_exact(d, inst);
    if (best == inf) {
      EXPECT_EQ(r.status, PlanStatus::kUnsolvable) << "round " << round;
      ++unsolvable;
    } else {
      ASSERT_EQ(r.status, PlanStatus::kSolved) << "round " << round;
      EXPECT_EQ(r.cost, best) << "round " << round;
      EXPECT_TRUE(validate_plan(d, inst, r.actions).valid) << "round " << round;
      ++solved;
    }
  }
  EXPECT_GT(solved, 50);
  EXPECT_GT(unsolvable, 20);
}

}  // namespace
}  // namespace topoplan
