// The crowd's planner chain (crowd.h, "Planner chain"): ℙ first, then the fallback planners by
// registry name. On a GOAP-level town (GoTo-from-anywhere, partial goals) ℙ gives up on part of
// the NPCs; every such NPC must end solved by the fallback (a valid, cost-optimal plan) or proven
// unsolvable — with a per-NPC budget too small, after being pending and answered by the next
// frames — never "no plan", with the same output for any thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "crowd_support.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/town.h"

namespace topoplan {
namespace {

using namespace crowd_test;  // NOLINT(google-build-using-namespace)

struct Fixture {
  Task task;
  CrowdPlanner planner;
  CrowdTown town;
  static Fixture make(int64_t npcs) {
    Fixture f;
    f.task = chain_level_task();  // (crowd_support.h: ℙ still gives up on some NPCs)
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

Results run(const Fixture& f, CrowdDef def, int32_t threads, bool frames, CrowdStats* total) {
  CrowdThreadPool pool(threads);
  pool.install(def);
  Crowd crowd = Crowd::create(f.planner, def).value();
  const CrowdBatch batch = f.town.batch();
  Results o(static_cast<size_t>(f.town.npcs()), static_cast<size_t>(f.town.npcs()) * 12);
  CrowdStats sum;
  if (!frames) {
    sum = crowd.plan(batch, o.output());
    EXPECT_TRUE(sum.complete);
    EXPECT_EQ(sum.pending, 0);
  } else {
    CrowdCursor cursor;
    bool saw_pending = false;
    for (int frame = 0; frame < 100000; ++frame) {
      // A budget of zero: one block, or one pending retry, per frame.
      const CrowdStats s = crowd.plan_frame(batch, o.output(), &cursor, 0.0);
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

TEST(CrowdChain, GoapLevelTownHasNoNoPlanAndFallbackPlansAreOptimal) {
  const Fixture f = Fixture::make(1500);
  CrowdStats stats;
  const Results o = run(f, CrowdDef{}, 1, false, &stats);
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
  const Results base = run(f, CrowdDef{}, 1, false, &base_stats);
  CrowdDef tight;
  tight.fallback_budget = 1;  // every fallback search that expands more goes pending
  tight.npcs_per_block = 16;
  CrowdStats one_stats, two_stats, frame_stats;
  const Results one = run(f, tight, 1, false, &one_stats);
  const Results two = run(f, tight, 2, false, &two_stats);
  const Results framed = run(f, tight, 2, true, &frame_stats);
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
  const Results plain = run(f, CrowdDef{}, 1, false, &s0);
  PlanCache cache(f.planner);
  CrowdDef def;
  def.cache = &cache;
  def.fallback_budget = 1;
  (void)run(f, def, 2, false, &s1);  // fills the cache, fallback answers included
  const Results warm = run(f, def, 2, false, &s1);
  // Every NPC that went pending is now a cache hit, answered in order: offsets as without budget.
  expect_same(plain, warm);
  EXPECT_EQ(s1.resumed, 0);
}

TEST(CrowdChain, EmptyChainIsPOnlyAndUnknownNamesAreRefused) {
  const Fixture f = Fixture::make(400);
  CrowdDef only_p;
  only_p.fallback.clear();
  CrowdStats s;
  const Results o = run(f, only_p, 1, false, &s);
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

TEST(CrowdChain, RetriedPendingNpcsGetHandles) {
  const Fixture f = Fixture::make(600);
  CrowdStats base_stats;
  const Results base = run(f, CrowdDef{}, 1, false, &base_stats);
  PlanCache cache(f.planner);
  CrowdDef def;
  def.cache = &cache;
  def.fallback_budget = 1;
  def.npcs_per_block = 16;
  Crowd crowd = Crowd::create(f.planner, def).value();
  const auto n = static_cast<size_t>(f.town.npcs());
  Results o(n, n * 12, &cache);
  CrowdCursor cursor;
  int64_t resumed = 0;
  for (int frame = 0; frame < 100000; ++frame) {
    const CrowdStats s = crowd.plan_frame(f.town.batch(), o.output(), &cursor, 0.0);
    resumed += s.resumed;
    if (s.complete) break;
  }
  EXPECT_GT(resumed, 0);
  int64_t fallback_handles = 0;
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(base.status[i], o.status[i] & ~kCrowdCacheHit) << i;
    if (!(base.status[i] & kCrowdSolved)) continue;
    EXPECT_FALSE(o.handles[i].empty()) << i;
    ASSERT_EQ(base.plan(i), o.plan(i)) << i;
    fallback_handles += (base.status[i] & kCrowdFallback) != 0;
  }
  EXPECT_GT(fallback_handles + base_stats.solved, 0);
}

// Pending NPCs: (a) with a budget of zero, a call runs one retry slice (budgets grow
// ×4 per slice, so a hard NPC takes several calls, each bounded, instead of one 500k-expansion
// search); (b) a cursor reset to 0 (src/wasm/live_town.cpp does it) does not drop the NPCs
// still pending: the new pass waits until they are answered.
TEST(CrowdChain, RetriesRunInSlicesAndACursorResetDoesNotDropPendingNpcs) {
  const Fixture f = Fixture::make(600);
  CrowdDef tight;
  tight.fallback_budget = 1;
  tight.npcs_per_block = 16;
  CrowdStats full_stats;
  const Results full = run(f, tight, 1, false, &full_stats);
  ASSERT_GT(full_stats.resumed, 0);
  Crowd crowd = Crowd::create(f.planner, tight).value();
  const auto n = static_cast<size_t>(f.town.npcs());
  Results o(n, n * 12);
  CrowdCursor cursor;
  int64_t resumed = 0, slices = 0, max_slices = 0;
  while (cursor.next < f.town.npcs()) {
    const CrowdStats s = crowd.plan_frame(f.town.batch(), o.output(), &cursor, 0.0);
    resumed += s.resumed;
    slices += s.retry_slices;
    max_slices = std::max(max_slices, s.retry_slices);
  }
  EXPECT_EQ(max_slices, 1);  // a zero budget: one slice per call
  ASSERT_GT(crowd.pending(), 0) << "the pass must end with NPCs pending for this test";
  cursor.next = 0;  // a new pass, as live_town starts one
  int64_t waited = 0;
  while (crowd.pending() > 0) {
    const CrowdStats s = crowd.plan_frame(f.town.batch(), o.output(), &cursor, 0.0);
    resumed += s.resumed;
    slices += s.retry_slices;
    EXPECT_LE(s.retry_slices, 1);
    if (crowd.pending() > 0) {
      EXPECT_EQ(cursor.next, 0);  // the new pass waits
      EXPECT_EQ(s.served, 0);
      ++waited;
    }
  }
  EXPECT_EQ(resumed, full_stats.resumed);  // every pending NPC answered once, none dropped
  EXPECT_GT(slices, resumed);              // some needed more than one slice
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(o.status[i] & kCrowdPending, 0u) << i;
    ASSERT_EQ(o.status[i], full.status[i]) << i;
    if (o.status[i] & kCrowdSolved) {
      ASSERT_EQ(o.plan(i), full.plan(i)) << i;
    }
  }
  // The next calls run the new pass from 0.
  const CrowdStats s = crowd.plan_frame(f.town.batch(), o.output(), &cursor, 0.0);
  EXPECT_GT(s.served, 0);
  EXPECT_GT(cursor.next, 0);
  (void)waited;
}

TEST(CrowdChain, PerClassChainsByClassName) {
  const Fixture f = Fixture::make(800);
  const Domain& d = f.task.domain;
  ASSERT_GT(d.num_classes(), 1);
  CrowdStats base_stats;
  const Results base = run(f, CrowdDef{}, 1, false, &base_stats);
  const CrowdBatch batch = f.town.batch();
  std::vector<int64_t> by_class(static_cast<size_t>(d.num_classes()), 0);
  for (size_t i = 0; i < base.status.size(); ++i)
    if (base.status[i] & kCrowdFallback) ++by_class[batch.npc_class[i]];
  const auto c0 =
      static_cast<ClassId>(std::max_element(by_class.begin(), by_class.end()) - by_class.begin());
  ASSERT_GT(by_class[static_cast<size_t>(c0)], 0);
  CrowdDef def;
  def.class_fallback = {{d.class_name(c0), {}}};  // ℙ only for that class
  CrowdStats stats;
  const Results o = run(f, def, 2, false, &stats);
  for (size_t i = 0; i < o.status.size(); ++i) {
    if (batch.npc_class[i] == c0 && (base.status[i] & kCrowdFallback)) {
      EXPECT_EQ(o.status[i], kCrowdNoPlan) << i;
    } else {
      ASSERT_EQ(o.status[i], base.status[i]) << i;
      if (o.status[i] & kCrowdSolved) {
        ASSERT_EQ(o.plan(i), base.plan(i)) << i;
      }
    }
  }
  // The same chain named explicitly for every class is the default.
  CrowdDef all;
  for (ClassId c = 0; c < d.num_classes(); ++c)
    all.class_fallback.push_back({d.class_name(c), {"astar"}});
  all.fallback.clear();
  CrowdStats all_stats;
  expect_same(base, run(f, all, 1, false, &all_stats));
  CrowdDef unknown_class;
  unknown_class.class_fallback = {{"no-such-class", {"astar"}}};
  EXPECT_FALSE(Crowd::create(f.planner, unknown_class).ok());
  CrowdDef unknown_planner;
  unknown_planner.class_fallback = {{d.class_name(c0), {"no-such-planner"}}};
  EXPECT_FALSE(Crowd::create(f.planner, unknown_planner).ok());
}

// The chain's text syntax, shared by the CLI, the C API and Python (one parser).
TEST(CrowdChain, ParsePlannerChain) {
  using V = std::vector<std::string>;
  EXPECT_EQ(parse_planner_chain("astar"), V{"astar"});
  EXPECT_EQ(parse_planner_chain("astar-back,astar"), (V{"astar-back", "astar"}));
  EXPECT_EQ(parse_planner_chain(",astar,,astar-back,"), (V{"", "astar", "", "astar-back", ""}));
  EXPECT_EQ(parse_planner_chain("none"), V{});
  EXPECT_EQ(parse_planner_chain(""), V{""});
  EXPECT_EQ(parse_planner_chain(","), (V{"", ""}));
  // "none" is the empty chain only as the whole text; as a name Crowd::create refuses it.
  EXPECT_EQ(parse_planner_chain("none,astar"), (V{"none", "astar"}));
}

}  // namespace
}  // namespace topoplan
