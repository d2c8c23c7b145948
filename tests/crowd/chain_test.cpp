// The crowd's planner chain (crowd.h, "Planner chain"): ℙ first, then the fallback planners by
// registry name. On the GOAP-level town (GoTo-from-anywhere, partial goals) ℙ gives up on part of
// the NPCs; every such NPC must end solved by the fallback (a valid, cost-optimal plan) or proven
// unsolvable — with a per-NPC budget too small, after being pending and answered by the next
// frames — never "no plan", with the same output for any thread count.
#include <gtest/gtest.h>

#include <vector>

#include "topoplan/astar.h"
#include "topoplan/crowd.h"
#include "topoplan/town.h"
#include "topoplan/validate.h"

namespace topoplan {
namespace {

struct Output {
  std::vector<ActionId> actions;
  std::vector<uint32_t> offset;
  std::vector<uint16_t> length;
  std::vector<CrowdStatus> status;
  Output(size_t n, size_t capacity) : actions(capacity, -7), offset(n), length(n), status(n) {}
  CrowdOutput view() { return {actions, offset, length, status}; }
  std::vector<ActionId> plan(size_t i) const {
    return {actions.begin() + offset[i], actions.begin() + offset[i] + length[i]};
  }
};

struct Fixture {
  Task task;
  CrowdPlanner planner;
  CrowdTown town;
  static Fixture make(int64_t npcs) {
    Fixture f;
    f.task = town_task("goap-level").value();
    f.planner = CrowdPlanner::create(f.task.domain).value();
    TownDef def;
    def.npcs = npcs;
    def.seed = 5;
    f.town = CrowdTown::create(f.task, f.planner, def).value();
    return f;
  }
  // NPC i as an Instance of the whole domain.
  Instance instance(int64_t i) const {
    const CrowdBatch b = town.batch();
    const CrowdLayout& layout = planner.layout();
    const auto words = static_cast<size_t>(layout.words());
    const auto m = static_cast<size_t>(task.domain.num_variables());
    Instance inst;
    inst.init.assign(m, 0);
    inst.goal.assign(m, 0);
    layout.unpack_state(&b.init[static_cast<size_t>(i) * words], inst.init);
    layout.unpack_goal(&b.goal[static_cast<size_t>(i) * words], inst.goal);
    inst.npc_class =
        task.domain.num_classes() == 0 ? kAllActions : b.npc_class[static_cast<size_t>(i)];
    return inst;
  }
};

Output run(const Fixture& f, CrowdDef def, int32_t threads, bool frames, CrowdStats* total) {
  CrowdThreadPool pool(threads);
  pool.install(def);
  Crowd crowd = Crowd::create(f.planner, def).value();
  const CrowdBatch batch = f.town.batch();
  Output o(static_cast<size_t>(f.town.npcs()), static_cast<size_t>(f.town.npcs()) * 12);
  CrowdStats sum;
  if (!frames) {
    sum = crowd.plan(batch, o.view());
    EXPECT_TRUE(sum.complete);
    EXPECT_EQ(sum.pending, 0);
  } else {
    CrowdCursor cursor;
    bool saw_pending = false;
    for (int frame = 0; frame < 100000; ++frame) {
      // A budget of zero: one block, or one pending retry, per frame.
      const CrowdStats s = crowd.plan_frame(batch, o.view(), &cursor, 0.0);
      sum.served += s.served;
      sum.solved += s.solved;
      sum.solved_fallback += s.solved_fallback;
      sum.no_plan += s.no_plan;
      sum.resumed += s.resumed;
      saw_pending = saw_pending || s.pending > 0;
      if (s.complete) break;
    }
    EXPECT_EQ(cursor.next, f.town.npcs());
    sum.pending = saw_pending ? 1 : 0;
  }
  *total = sum;
  for (CrowdStatus st : o.status) EXPECT_EQ(st & kCrowdPending, 0u);
  return o;
}

void expect_same(const Output& a, const Output& b) {
  ASSERT_EQ(a.status.size(), b.status.size());
  for (size_t i = 0; i < a.status.size(); ++i) {
    ASSERT_EQ(a.status[i] & ~kCrowdCacheHit, b.status[i] & ~kCrowdCacheHit) << i;
    ASSERT_EQ(a.length[i], b.length[i]) << i;
    ASSERT_EQ(a.offset[i], b.offset[i]) << i;
    if (a.status[i] & kCrowdSolved) {
      ASSERT_EQ(a.plan(i), b.plan(i)) << i;
    }
  }
}

TEST(CrowdChain, GoapLevelTownHasNoNoPlanAndFallbackPlansAreOptimal) {
  const Fixture f = Fixture::make(1500);
  CrowdStats stats;
  const Output o = run(f, CrowdDef{}, 1, false, &stats);
  int64_t by_topo = 0, by_fallback = 0, unsolvable = 0, by_fallback_proof = 0;
  for (int64_t i = 0; i < f.town.npcs(); ++i) {
    const auto k = static_cast<size_t>(i);
    const CrowdStatus st = o.status[k];
    SCOPED_TRACE(::testing::Message() << "npc " << i << " status " << st);
    EXPECT_EQ(st & (kCrowdNoPlan | kCrowdBadInput | kCrowdBufferTooSmall), 0u);
    const Instance inst = f.instance(i);
    if (st & kCrowdSolved) {
      EXPECT_TRUE(validate_plan(f.task.domain, inst, o.plan(k)).valid);
      if (st & kCrowdFallback) {
        ++by_fallback;
        if (by_fallback <= 200) {  // optimal: the cost of A* on the whole domain
          const PlanResult ref = plan_astar(f.task.domain, inst);
          ASSERT_EQ(ref.status, PlanStatus::kSolved);
          EXPECT_EQ(plan_cost(f.task.domain, o.plan(k)), ref.cost);
        }
      } else {
        ++by_topo;
      }
    } else {
      ASSERT_NE(st & kCrowdUnsolvable, 0u);
      ++unsolvable;
      by_fallback_proof += (st & kCrowdFallback) != 0;
      if (unsolvable <= 50) {
        EXPECT_EQ(plan_astar(f.task.domain, inst).status, PlanStatus::kUnsolvable);
      }
    }
  }
  EXPECT_GT(by_topo, 0);
  // In this town ℙ solves every solvable NPC it is given; those it gives up on are the ones the
  // fallback proves unsolvable (they were "no plan" before the chain). Fallback plans are
  // checked on random domains (crowd_test.cpp, expect_matches_reference).
  EXPECT_GT(by_fallback_proof, 0);
  EXPECT_EQ(stats.solved, by_topo + by_fallback);
  EXPECT_EQ(stats.solved_fallback, by_fallback);
  EXPECT_EQ(stats.no_plan, 0);
}

TEST(CrowdChain, PendingNpcsAreResumedAndTheOutputIsTheSameForAnyThreadCount) {
  const Fixture f = Fixture::make(600);
  CrowdStats base_stats;
  const Output base = run(f, CrowdDef{}, 1, false, &base_stats);
  CrowdDef tight;
  tight.fallback_budget = 1;  // every fallback search that expands more goes pending
  tight.npcs_per_block = 16;
  CrowdStats one_stats, two_stats, frame_stats;
  const Output one = run(f, tight, 1, false, &one_stats);
  const Output two = run(f, tight, 2, false, &two_stats);
  const Output framed = run(f, tight, 2, true, &frame_stats);
  EXPECT_GT(one_stats.resumed, 0);
  EXPECT_EQ(one_stats.resumed, two_stats.resumed);
  EXPECT_EQ(frame_stats.pending, 1);  // some frame ended with NPCs pending
  EXPECT_EQ(frame_stats.resumed, one_stats.resumed);
  expect_same(one, two);
  expect_same(one, framed);
  EXPECT_EQ(one_stats.no_plan, 0);
  // Retried plans go to their block's tail, so offsets differ from the unbudgeted run; answers
  // do not.
  for (size_t i = 0; i < base.status.size(); ++i) {
    ASSERT_EQ(base.status[i], one.status[i]) << i;
    if (base.status[i] & kCrowdSolved) {
      ASSERT_EQ(base.plan(i), one.plan(i)) << i;
    }
  }
}

TEST(CrowdChain, WithACacheTheAnswersAreTheSame) {
  const Fixture f = Fixture::make(800);
  CrowdStats s0, s1;
  const Output plain = run(f, CrowdDef{}, 1, false, &s0);
  PlanCache cache(f.planner);
  CrowdDef def;
  def.cache = &cache;
  def.fallback_budget = 1;
  (void)run(f, def, 2, false, &s1);  // fills the cache, fallback answers included
  const Output warm = run(f, def, 2, false, &s1);
  // Every NPC that went pending is now a cache hit, answered in order: offsets as without budget.
  expect_same(plain, warm);
  EXPECT_EQ(s1.resumed, 0);
}

TEST(CrowdChain, EmptyChainIsPOnlyAndUnknownNamesAreRefused) {
  const Fixture f = Fixture::make(400);
  CrowdDef only_p;
  only_p.fallback.clear();
  CrowdStats s;
  const Output o = run(f, only_p, 1, false, &s);
  int64_t no_plan = 0;
  for (CrowdStatus st : o.status) {
    EXPECT_EQ(st & kCrowdFallback, 0u);
    no_plan += (st & kCrowdNoPlan) != 0;
  }
  EXPECT_GT(no_plan, 0);  // what ℙ alone leaves: the reason for the chain
  EXPECT_EQ(s.no_plan, no_plan);
  CrowdDef unknown;
  unknown.fallback = {"astar", "no-such-planner"};
  EXPECT_FALSE(Crowd::create(f.planner, unknown).ok());
  CrowdDef bad;
  bad.fallback_budget = 0;
  EXPECT_FALSE(Crowd::create(f.planner, bad).ok());
}

}  // namespace
}  // namespace topoplan
