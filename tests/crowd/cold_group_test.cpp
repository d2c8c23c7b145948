// The cold loop grouped by class (cold.cpp, serve_block_cold; internal.h, kColdGroupNpcs): pass
// 1 runs ℙ for up to 1,024 NPCs sorted by class and projected key, pass 2 writes the answers in
// NPC order. The output must be the one-NPC-at-a-time answer, offsets included: against ℙ one
// NPC at a time and against the cache-on path (serve_npc, no grouping), on towns whose blocks mix
// many classes (ids of 64 and more share the sort's class bits with smaller ones), bad class ids
// (past the classes, >= 64, 65535), buffers that run out mid-block, blocks smaller and larger
// than a group, 1 and 2 threads, the AVX2 and the scalar loop, plan() and plan_frame().
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <vector>

#include "crowd_support.h"
#include "random_domains.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

using namespace crowd_test;  // NOLINT(google-build-using-namespace)

struct Batch {
  Results r;
  CrowdStats stats;
};

// One plan() of `t` on `threads` threads, blocks of `block`, with `cache` (null: the cold loop),
// the scalar loop when `scalar` (TOPOPLAN_CROWD_SIMD=0, read by Crowd::create).
Batch run(const CrowdPlanner& planner, const Town& t, size_t capacity, int32_t threads,
          int32_t block, PlanCache* cache, bool scalar) {
  CrowdThreadPool pool(threads);
  CrowdDef def;
  def.npcs_per_block = block;
  def.cache = cache;
  pool.install(def);
  if (scalar) {
    EXPECT_EQ(setenv("TOPOPLAN_CROWD_SIMD", "0", 1), 0);
  }
  Crowd crowd = Crowd::create(planner, def).value();
  if (scalar) {
    EXPECT_EQ(unsetenv("TOPOPLAN_CROWD_SIMD"), 0);
  }
  Batch out{Results(t.npc_class.size(), capacity), {}};
  out.stats = crowd.plan(t.batch(), out.r.output());
  EXPECT_TRUE(out.stats.complete);
  EXPECT_EQ(out.stats.served, static_cast<int64_t>(t.npc_class.size()));
  return out;
}

// Same counters (`planned` only between cold runs: a cache answers some NPCs without ℙ).
void expect_same_stats(const CrowdStats& a, const CrowdStats& b, bool planned) {
  expect_same_answer_counts(a, b);
  if (planned) {
    EXPECT_EQ(a.planned, b.planned);
  }
  EXPECT_EQ(a.resumed, b.resumed);
}

// What the town's answers cover, summed over a test (so that it cannot pass on easy towns).
struct Seen {
  int64_t solved = 0, unsolvable = 0, too_small = 0, bad = 0, fallback = 0, no_plan = 0;
  void add(const Results& r) {
    for (const CrowdStatus st : r.status) {
      solved += (st & kCrowdSolved) != 0;
      unsolvable += st == kCrowdUnsolvable;
      too_small += (st & kCrowdBufferTooSmall) != 0;
      bad += st == kCrowdBadInput;
      fallback += (st & kCrowdFallback) != 0;
      no_plan += (st & kCrowdNoPlan) != 0;
    }
  }
};

// Every configuration of the cold loop on `t` against the first (1 thread, AVX2 where the CPU
// has it) and the cache-on path, offsets included; the first against ℙ one NPC at a time when
// the buffer has room for every plan.
void expect_cold_groups_match(const Domain& d, const CrowdPlanner& planner, const Town& t,
                              size_t capacity, bool full, Seen& seen) {
  // Claims of one block of 64 or less (a small batch), groups across blocks (blocks of 1 and 7:
  // claims of several), a group per block (3000), groups of 4,096 inside one block (10000).
  for (const int32_t block : {1, 7, 64, 3000, 10000}) {
    SCOPED_TRACE(::testing::Message() << "block " << block << ", capacity " << capacity);
    const Batch first = run(planner, t, capacity, 1, block, nullptr, false);
    if (full) expect_matches_reference(d, t, first.r);
    expect_counts_match_output(first.stats, first.r);
    seen.add(first.r);
    for (const int32_t threads : {1, 2}) {
      for (const bool scalar : {false, true}) {
        if (threads == 1 && !scalar) continue;
        SCOPED_TRACE(::testing::Message() << threads << " threads, scalar " << scalar);
        const Batch other = run(planner, t, capacity, threads, block, nullptr, scalar);
        expect_same(first.r, other.r);
        expect_same_stats(first.stats, other.stats, true);
      }
    }
    // The cache-on path answers one NPC at a time (serve_npc), ℙ first on a cold cache.
    PlanCache cache(planner);
    const Batch cached = run(planner, t, capacity, 2, block, &cache, false);
    expect_same(first.r, cached.r);
    expect_same_stats(first.stats, cached.stats, false);
  }
}

// `t` with some class ids replaced by bad ones: past the classes, 64 and more past them (the
// same class bits in the sort as a valid class), 65535.
void add_bad_ids(Town& t, int32_t classes, Rng& rng) {
  for (uint16_t& c : t.npc_class) {
    if (!rng.chance(0.02)) continue;
    const int kind = rng.uniform(0, 2);
    c = static_cast<uint16_t>(kind == 0   ? classes
                              : kind == 1 ? classes + 64 + rng.uniform(0, 3)
                                          : 65535);
  }
}

// Random one-word domains with 70 classes (ids 64-69 share the sort's class bits with 0-5), NPCs
// of every class interleaved, plans that fit and a buffer of one action per NPC (many overflow,
// mid-block and mid-group).
TEST(CrowdColdGroups, ManyClassesMatchOneByOneAndTheCachePath) {
  Seen seen;
  int32_t domains = 0;
  for (uint64_t seed = 1; seed <= 12 && domains < 4; ++seed) {
    SCOPED_TRACE(seed);
    DomainDef def = testing::random_domain_def(seed);
    Rng rng(seed * 13 + 7);
    add_random_classes(def, 70, rng);
    const Domain d = Domain::compile(def).value();
    auto made = CrowdPlanner::create(d);
    // A class ℙ cannot take (its structural class), or a layout of more than one word (the cold
    // loop is the one-word layouts').
    if (!made.ok() || made.value().layout().words() != 1) continue;
    const CrowdPlanner planner = std::move(made).value();
    ++domains;
    std::vector<Instance> seeds;
    testing::RandomInstanceOptions io;
    for (int k = 0; k < 4; ++k) seeds.push_back(testing::random_instance(d, rng, io));
    Town t = make_town(d, planner.layout(), seeds, 2500, seed);
    add_bad_ids(t, planner.num_classes(), rng);
    const size_t full = t.npc_class.size() * static_cast<size_t>(planner.max_plan_length());
    expect_cold_groups_match(d, planner, t, full, true, seen);
    expect_cold_groups_match(d, planner, t, t.npc_class.size(), false, seen);
  }
  EXPECT_EQ(domains, 4);
  EXPECT_GT(seen.solved, 1000);
  EXPECT_GT(seen.unsolvable, 100);
  EXPECT_GT(seen.too_small, 100);
  EXPECT_GT(seen.bad, 100);
  EXPECT_GT(seen.fallback + seen.no_plan, 0);  // ℙ gave up: served out of line
}

// Western (one word, 9 classes interleaved), with bad ids, plans that fit and one action per NPC.
TEST(CrowdColdGroups, WesternTownMatchesOneByOneAndTheCachePath) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  ASSERT_EQ(planner.layout().words(), 1);
  Town t = make_town(w.domain, planner.layout(), w.instances, 10000, 31);
  Rng rng(31);
  add_bad_ids(t, planner.num_classes(), rng);
  Seen seen;
  expect_cold_groups_match(w.domain, planner, t,
                           t.npc_class.size() * static_cast<size_t>(planner.max_plan_length()),
                           true, seen);
  expect_cold_groups_match(w.domain, planner, t, t.npc_class.size(), false, seen);
  EXPECT_GT(seen.solved, 10000);
  EXPECT_GT(seen.too_small, 100);
  EXPECT_GT(seen.bad, 50);
}

// Long plans: every NPC the family's instance (MultiPrv_4_Cycle of 10 values: every variable walks
// its cycle), so the first NPCs of a group fill the stage (kColdStageActions, 32,768 actions) and
// the others are served out of line, with the same answers.
TEST(CrowdColdGroups, FullStageServesTheRestOutOfLine) {
  const Task task = multiprv_n_cycle(4, 10);
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  ASSERT_EQ(planner.layout().words(), 1);
  Town t;
  for (int32_t i = 0; i < 3000; ++i) {
    const Instance& inst = task.instances[static_cast<size_t>(i) % task.instances.size()];
    t.npc_class.push_back(0);
    t.init.push_back(0);
    t.goal.push_back(0);
    planner.layout().pack_state(inst.init, &t.init.back());
    planner.layout().pack_goal(inst.goal, &t.goal.back());
    t.instances.push_back(inst);
  }
  const size_t capacity = t.npc_class.size() * static_cast<size_t>(planner.max_plan_length());
  const Batch first = run(planner, t, capacity, 1, 10000, nullptr, false);
  expect_matches_reference(task.domain, t, first.r);
  int64_t by_topo = 0;  // actions of ℙ's plans
  for (const size_t i : {size_t{0}, t.npc_class.size() - 1}) {
    EXPECT_EQ(first.r.status[i], kCrowdSolved);
    by_topo += first.r.length[i];
  }
  EXPECT_GT(by_topo * static_cast<int64_t>(t.npc_class.size()) / 2, 32768 + 10000);
  for (const int32_t threads : {1, 2}) {
    const Batch scalar = run(planner, t, capacity, threads, 10000, nullptr, true);
    expect_same(first.r, scalar.r);
    expect_same_stats(first.stats, scalar.stats, true);
  }
  PlanCache cache(planner);
  const Batch cached = run(planner, t, capacity, 1, 10000, &cache, false);
  expect_same(first.r, cached.r);
}

// plan_frame serves the cold batch a claim of blocks at a time (one block with a zero budget):
// the same answers as plan(), on 1 and 2 threads.
TEST(CrowdColdGroups, FramesGiveThePlanAnswers) {
  const WesternCase c(5000, 33, 4, 48);
  const auto& [w, planner, t, capacity, ref] = c;
  for (const int32_t threads : {1, 2}) {
    for (const double budget : {0.0, 2e-5}) {
      SCOPED_TRACE(::testing::Message() << threads << " threads, budget " << budget);
      CrowdThreadPool pool(threads);
      Crowd crowd = blocked_crowd(planner, pool, 48);
      Results r(t.npc_class.size(), capacity);
      CrowdCursor cursor;
      int calls = 0;
      while (!crowd.plan_frame(t.batch(), r.output(), &cursor, budget).complete) ++calls;
      EXPECT_GT(calls, 0);
      expect_same(ref, r);
    }
  }
}

}  // namespace
}  // namespace topoplan
