// Crowds on the real GOAP corpus (domains/real/): classes ℙ takes only part of (multi-effect
// actions, several producers of one value) are created, and every NPC of a town is answered —
// by ℙ on its part or by the planner chain — with valid plans, the fallback's at the optimal
// cost, "unsolvable" confirmed by the exact search, the same output on 1 and 2 threads, and the
// same answers warm (cache and worker memos) as cold.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "crowd_support.h"
#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/tools/search.h"

namespace topoplan::crowd_test {
namespace {

std::vector<std::string> real_domain_files() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::source_path("domains/real")))
    if (entry.path().extension() == ".toml") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

// A town of the CLI's kind (CrowdTown) with the NPCs unpacked for the checks.
struct RealTown {
  Town t;
  explicit RealTown(const Task& task, const CrowdPlanner& planner, int64_t npcs, bool partial) {
    TownDef def;
    def.npcs = npcs;
    def.situations_per_class = 24;
    def.backgrounds = 16;
    def.partial_goals = partial;
    CrowdTown town = CrowdTown::create(task, planner, def).value();
    const CrowdBatch b = town.batch();
    const CrowdLayout& layout = planner.layout();
    const auto words = static_cast<size_t>(layout.words());
    t.npc_class.assign(b.npc_class.begin(), b.npc_class.end());
    t.init.assign(b.init.begin(), b.init.end());
    t.goal.assign(b.goal.begin(), b.goal.end());
    const Domain& d = task.domain;
    for (size_t i = 0; i < t.npc_class.size(); ++i) {
      Instance inst;
      inst.init.resize(static_cast<size_t>(d.num_variables()));
      inst.goal.resize(static_cast<size_t>(d.num_variables()));
      layout.unpack_state(&t.init[i * words], inst.init);
      layout.unpack_goal(&t.goal[i * words], inst.goal);
      inst.npc_class = d.num_classes() == 0 ? kAllActions : t.npc_class[i];
      t.instances.push_back(std::move(inst));
    }
  }
};

Results run(const CrowdPlanner& planner, const Town& t, int32_t threads, PlanCache* cache,
            int32_t memo) {
  CrowdThreadPool pool(threads);
  CrowdDef def;
  Crowd crowd = make_crowd(planner, pool, cache, memo, def);
  Results r(t.npc_class.size(), t.npc_class.size() * 64);
  const CrowdStats s = crowd.plan(t.batch(), r.output());
  EXPECT_TRUE(s.complete);
  return r;
}

struct Shares {
  int64_t topo = 0, fallback = 0, unsolvable = 0, exact_checked = 0;
  int64_t topo_checked = 0, above_optimum = 0;  // ℙ's plans compared with the optimum
};

// Every NPC answered (solved or proved unsolvable), every plan valid; on up to `sample` distinct
// situations the exact search confirms "unsolvable" and the fallback's cost (A*: optimal), and
// counts ℙ's plans above the optimum (ℙ on part of a class keeps one producer per value).
void check_answers(const Task& task, const Town& t, const Results& r, int32_t sample,
                   Shares& shares) {
  const Domain& d = task.domain;
  std::map<std::tuple<int32_t, std::vector<ValueId>, std::vector<ValueId>>, PlanResult> exact;
  for (size_t i = 0; i < t.npc_class.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << d.name() << " npc " << i);
    const Instance& inst = t.instances[i];
    const CrowdStatus st = r.status[i] & ~kCrowdCacheHit;
    const bool fallback = (st & kCrowdFallback) != 0;
    ASSERT_TRUE((st & (kCrowdSolved | kCrowdUnsolvable)) != 0) << "status " << st;
    const PlanResult* ex = nullptr;
    const auto key = std::make_tuple(inst.npc_class, inst.init, inst.goal);
    if (auto it = exact.find(key); it != exact.end()) {
      ex = &it->second;
    } else if (static_cast<int32_t>(exact.size()) < sample) {
      ex = &exact.emplace(key, plan_exact(d, inst)).first->second;
      ++shares.exact_checked;
    }
    if (st & kCrowdSolved) {
      const std::vector<ActionId> plan = r.plan(i);
      const Validation v = validate_plan(d, inst, plan);
      ASSERT_TRUE(v.valid) << v.reason;
      ++(fallback ? shares.fallback : shares.topo);
      if (ex != nullptr) {
        ASSERT_EQ(ex->status, PlanStatus::kSolved);
        if (fallback) {
          EXPECT_EQ(plan_cost(d, plan), ex->cost) << "A* is optimal";
        } else {
          EXPECT_GE(plan_cost(d, plan), ex->cost);
          ++shares.topo_checked;
          shares.above_optimum += plan_cost(d, plan) > ex->cost;
        }
      }
    } else {
      ++shares.unsolvable;
      if (ex != nullptr) {
        EXPECT_EQ(ex->status, PlanStatus::kUnsolvable) << "a wrong 'unsolvable'";
      }
    }
  }
}

class RealDomainCrowd : public ::testing::TestWithParam<bool> {};

TEST_P(RealDomainCrowd, EveryNpcAnsweredValidAndTheSameOnTwoThreadsAndWarm) {
  const bool partial = GetParam();
  const std::vector<std::string> files = real_domain_files();
  ASSERT_GE(files.size(), 15u);
  int64_t part_classes = 0, topo = 0, fallback = 0, above = 0, checked = 0, topo_checked = 0;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    Result<Task> task = load_task(file);
    ASSERT_TRUE(task.ok()) << task.error().to_string();
    Result<CrowdPlanner> planner = CrowdPlanner::create(task->domain);
    ASSERT_TRUE(planner.ok()) << planner.error().message;
    for (int32_t c = 0; c < planner->num_classes(); ++c) part_classes += planner->topo_part(c);
    const RealTown town(*task, *planner, 600, partial);
    const Results one = run(*planner, town.t, 1, nullptr, 0);
    Shares s;
    check_answers(*task, town.t, one, 12, s);
    topo += s.topo;
    fallback += s.fallback;
    above += s.above_optimum;
    topo_checked += s.topo_checked;
    checked += s.exact_checked;
    const Results two = run(*planner, town.t, 2, nullptr, 0);
    expect_same(one, two);
    // Warm: a cache and the worker memos give the same answers (a second batch from the memos).
    PlanCache cache(*planner);
    CrowdThreadPool pool(2);
    Crowd warm = make_crowd(*planner, pool, &cache, 64);
    for (int32_t pass = 0; pass < 2; ++pass) {
      Results w(town.t.npc_class.size(), town.t.npc_class.size() * 64);
      ASSERT_TRUE(warm.plan(town.t.batch(), w.output()).complete);
      expect_same(one, w, false);
    }
    EXPECT_GT(cache.stats().hits, 0);
  }
  // The corpus has classes ℙ takes only part of, and both ℙ and the chain answer NPCs.
  EXPECT_GT(part_classes, 0);
  EXPECT_GT(topo, 0);
  EXPECT_GT(fallback, 0);
  EXPECT_GT(checked, 0);
  std::printf(
      "real domains%s: solved by ℙ %lld, by the fallback %lld; %lld situations checked "
      "against the exact search: of their %lld NPCs solved by ℙ, %lld above the optimum\n",
      partial ? " (partial goals)" : "", static_cast<long long>(topo),
      static_cast<long long>(fallback), static_cast<long long>(checked),
      static_cast<long long>(topo_checked), static_cast<long long>(above));
}

INSTANTIATE_TEST_SUITE_P(Goals, RealDomainCrowd, ::testing::Values(false, true),
                         [](const auto& p) { return p.param ? "Partial" : "Total"; });

// A class ℙ takes only part of, without a chain: what ℙ does not solve there is "no plan" —
// never "unsolvable", since ℙ's failures on part of the actions prove nothing.
TEST(RealDomainCrowd, PartWithoutChainIsNoPlanNotUnsolvable) {
  Result<Task> task = load_task(testing::source_path("domains/real/gpgoap-soldier.toml"));
  ASSERT_TRUE(task.ok());
  const CrowdPlanner planner = CrowdPlanner::create(task->domain).value();
  bool any_part = false;
  for (int32_t c = 0; c < planner.num_classes(); ++c) any_part = any_part || planner.topo_part(c);
  ASSERT_TRUE(any_part);
  const RealTown town(*task, planner, 400, false);
  CrowdDef def;
  def.fallback.clear();
  Crowd crowd = Crowd::create(planner, def).value();
  Results r(town.t.npc_class.size(), town.t.npc_class.size() * 64);
  ASSERT_TRUE(crowd.plan(town.t.batch(), r.output()).complete);
  int64_t no_plan = 0;
  for (size_t i = 0; i < r.status.size(); ++i) {
    const Instance& inst = town.t.instances[i];
    if (r.status[i] & kCrowdSolved) {
      EXPECT_TRUE(validate_plan(task->domain, inst, r.plan(i)).valid) << i;
    } else if (r.status[i] & kCrowdUnsolvable) {
      EXPECT_EQ(plan_exact(task->domain, inst).status, PlanStatus::kUnsolvable) << i;
    } else {
      EXPECT_EQ(r.status[i], kCrowdNoPlan) << i;
      ++no_plan;
    }
  }
  EXPECT_GT(no_plan, 0);
}

}  // namespace
}  // namespace topoplan::crowd_test
