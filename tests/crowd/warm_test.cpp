// The warm path (src/runtime/crowd/memo.cpp, serve_block_memo): a Crowd reused over several batches
// answers most NPCs from its worker memo, in a loop of its own that counts the answers by kind
// instead of one by one. Every pass must answer as a cold batch does and count exactly what its
// output says — copying and with handles, with and without the memo, 1 and 2 threads — on towns
// that reach every counter: plans, "too small" (a small action buffer), fallback plans and
// proofs, "no plan" (an empty chain), bad class ids and goals on variables a class cannot touch.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "crowd_support.h"
#include "random_domains.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"

namespace topoplan {
namespace {

using namespace crowd_test;  // NOLINT(google-build-using-namespace)

// Three passes of one Crowd (cold, then warm) per setting, against `cold` (no cache, copying).
// Returns the statuses seen on warm passes (OR of all), to check what the case reached.
CrowdStatus expect_warm_passes_match(const CrowdPlanner& planner, const CrowdBatch& batch,
                                     size_t capacity, const CrowdDef& base, const Results& cold,
                                     bool with_handles) {
  const size_t n = batch.npc_class.size();
  CrowdStatus seen = 0;
  for (const int32_t threads : {1, 2}) {
    // No memo; 4 entries (2 sets: most NPCs conflict; its set shift is a variable); the
    // default (its set shift is a constant in the memo loop).
    for (const int32_t memo : {0, 4, 2048}) {
      SCOPED_TRACE(::testing::Message()
                   << threads << " threads, memo " << memo << ", handles " << with_handles);
      PlanCache cache(planner, {4096, 16});
      CrowdThreadPool pool(threads);
      Crowd crowd = make_crowd(planner, pool, &cache, memo, base);
      for (int pass = 0; pass < 3; ++pass) {
        SCOPED_TRACE(pass);
        Results r = with_handles ? Results(n, capacity, &cache) : Results(n, capacity);
        const CrowdStats s = crowd.plan(batch, r.output());
        expect_counts_match_output(s, r);
        EXPECT_TRUE(s.complete);
        // Offsets too when copying, except on warm passes after NPCs went pending: a retried
        // plan goes after its block's plans, the same plan from the cache in its place.
        const bool pending_shifts = pass > 0 && base.fallback_budget < CrowdDef{}.fallback_budget;
        expect_same(cold, r, !with_handles && !pending_shifts);
        if (pass > 0) {
          EXPECT_GT(s.cache_hits, 0);
          for (const CrowdStatus st : r.status) seen |= st;
        }
      }
    }
  }
  return seen;
}

Results cold_batch(const CrowdPlanner& planner, const CrowdBatch& batch, size_t capacity,
                   const CrowdDef& base) {
  CrowdDef def = base;
  def.cache = nullptr;
  Crowd crowd = Crowd::create(planner, def).value();
  Results r(batch.npc_class.size(), capacity);
  EXPECT_TRUE(crowd.plan(batch, r.output()).complete);
  return r;
}

TEST(CrowdWarm, WesternPassesAnswerAsColdAndCountTheirOutput) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  ASSERT_EQ(planner.layout().words(), 1);  // the memo loop's case
  const Town t = make_town(w.domain, planner.layout(), w.instances, 3000, 61);
  // Repeated situations, as in a town: the memo hits within a pass too.
  Town twice = t;
  twice.npc_class.insert(twice.npc_class.end(), t.npc_class.begin(), t.npc_class.end());
  twice.init.insert(twice.init.end(), t.init.begin(), t.init.end());
  twice.goal.insert(twice.goal.end(), t.goal.begin(), t.goal.end());
  const size_t n = twice.npc_class.size();
  for (const size_t capacity : {n * 12, n}) {  // n: one action per NPC, many "too small"
    SCOPED_TRACE(capacity);
    const Results cold = cold_batch(planner, twice.batch(), capacity, {});
    const CrowdStatus seen =
        expect_warm_passes_match(planner, twice.batch(), capacity, {}, cold, false);
    EXPECT_NE(seen & kCrowdSolved, 0u);
    EXPECT_NE(seen & kCrowdUnsolvable, 0u);
    EXPECT_NE(seen & kCrowdBadInput, 0u);
    if (capacity == n) {
      EXPECT_NE(seen & kCrowdBufferTooSmall, 0u);
    } else {
      expect_warm_passes_match(planner, twice.batch(), capacity, {}, cold, true);
    }
  }
}

// The memo loop reads a key mask for any 16-bit class id (0 beyond the classes) and has no class
// range check: an NPC of an id beyond the classes must still miss every memo entry — also
// 0xFFFF, the tag of an empty entry, with s0 = goal = 0 (its projected key, 0, must not be an
// empty entry's) — and be answered "bad input" by the full path.
TEST(CrowdWarm, ClassIdsBeyondTheClassesAreBadInputInTheMemoLoop) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  ASSERT_EQ(planner.layout().words(), 1);
  Town t = make_town(w.domain, planner.layout(), w.instances, 1000, 5);
  const auto classes = static_cast<uint16_t>(planner.num_classes());
  const std::vector<uint16_t> bad = {classes, static_cast<uint16_t>(classes + 1), 0x7FFF, 0xFFFE,
                                     0xFFFF};
  std::vector<size_t> bad_npcs;
  for (size_t k = 0; k < 2 * bad.size(); ++k) {
    const size_t i = 37 + 91 * k;  // spread over the blocks
    t.npc_class[i] = bad[k % bad.size()];
    if (k < bad.size()) t.init[i] = t.goal[i] = 0;  // the all-zero key
    bad_npcs.push_back(i);
  }
  const size_t capacity = t.npc_class.size() * 12;
  const Results cold = cold_batch(planner, t.batch(), capacity, {});
  for (const size_t i : bad_npcs) EXPECT_EQ(cold.status[i], kCrowdBadInput) << i;
  for (const bool with_handles : {false, true}) {
    const CrowdStatus seen =
        expect_warm_passes_match(planner, t.batch(), capacity, {}, cold, with_handles);
    EXPECT_NE(seen & kCrowdBadInput, 0u);
  }
}

TEST(CrowdWarm, GoapLevelPassesWithAndWithoutFallbackCountTheirOutput) {
  const Task task = chain_level_task();  // (crowd_support.h: ℙ still gives up on some NPCs)
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  TownDef town_def;
  town_def.npcs = 3000;
  town_def.seed = 7;
  const CrowdTown town = CrowdTown::create(task, planner, town_def).value();
  const size_t capacity = static_cast<size_t>(town.npcs()) * 12;
  CrowdDef none;
  none.fallback = {};
  // Small blocks and a small per-NPC budget: NPCs go pending in the memo loop's claims of
  // several blocks (375 blocks: 2-5 blocks a claim), and their retries write after their block.
  CrowdDef tight;
  tight.fallback_budget = 20;
  tight.npcs_per_block = 8;
  {
    Crowd crowd = Crowd::create(planner, tight).value();
    Results r(static_cast<size_t>(town.npcs()), capacity);
    EXPECT_GT(crowd.plan(town.batch(), r.output()).resumed, 0);
  }
  for (const CrowdDef& base : {CrowdDef{}, none, tight}) {
    SCOPED_TRACE(::testing::Message()
                 << base.fallback.size() << " fallbacks, budget " << base.fallback_budget);
    const Results cold = cold_batch(planner, town.batch(), capacity, base);
    for (const bool with_handles : {false, true}) {
      const CrowdStatus seen =
          expect_warm_passes_match(planner, town.batch(), capacity, base, cold, with_handles);
      EXPECT_NE(seen & kCrowdSolved, 0u);
      // The chain's proofs, or without a chain what ℙ leaves: both answered from the memo.
      EXPECT_NE(seen & (base.fallback.empty() ? kCrowdNoPlan : kCrowdFallback), 0u);
    }
  }
}

// Goals as GOAP writes them — the class's variables named, every other field free — in runs,
// between runs of the other kinds: total goals, goals that free some other variables and keep
// the rest, goals that change a variable the class cannot touch, and ids beyond the classes with
// an all-free goal. The memo loop has one instance for each of the first two kinds and switches
// on a miss; every pass answers as a cold batch, which answers as ℙ on the whole domain one NPC
// at a time (plans validated), and the partial goals are answered from the memo when warm.
TEST(CrowdWarm, PartialGoalRunsAnswerAsColdAndAsThePerNpcPlanner) {
  const Task w = western();
  const Domain& d = w.domain;
  const CrowdPlanner planner = CrowdPlanner::create(d).value();
  const CrowdLayout& layout = planner.layout();
  ASSERT_EQ(layout.words(), 1);
  Town t = make_town(d, layout, w.instances, 1500, 23);
  Rng rng(29);
  const auto classes = static_cast<uint16_t>(planner.num_classes());
  enum Kind { kAsDrawn, kPartial, kSomeFree, kChangesOther };
  std::vector<Kind> kind(t.npc_class.size());
  for (size_t i = 0; i < t.npc_class.size();) {
    const auto k = static_cast<Kind>(rng.uniform(0, 3));
    for (size_t end = std::min(t.npc_class.size(), i + static_cast<size_t>(rng.uniform(1, 150)));
         i < end; ++i) {
      kind[i] = k;
      Instance& inst = t.instances[i];
      if (k == kAsDrawn || inst.npc_class < 0) continue;
      std::vector<bool> mine(static_cast<size_t>(d.num_variables()), false);
      for (const VarId v : planner.class_variables(inst.npc_class))
        mine[static_cast<size_t>(v)] = true;
      std::vector<VarId> others;
      for (VarId v = 0; v < d.num_variables(); ++v) {
        if (mine[static_cast<size_t>(v)]) continue;
        others.push_back(v);
        const bool keep = k == kSomeFree && rng.chance(0.5);
        inst.goal[static_cast<size_t>(v)] = keep ? inst.init[static_cast<size_t>(v)] : kUndefined;
      }
      if (k == kChangesOther) {
        const VarId v =
            others[static_cast<size_t>(rng.uniform(0, static_cast<int32_t>(others.size()) - 1))];
        inst.goal[static_cast<size_t>(v)] =
            (inst.init[static_cast<size_t>(v)] + 1) % d.domain_size(v);
      }
      if (k == kPartial && rng.chance(0.02)) {  // an id beyond the classes, s0 = 0
        t.npc_class[i] = static_cast<uint16_t>(classes + rng.uniform(0, 2));
        std::fill(inst.init.begin(), inst.init.end(), 0);
        layout.pack_state(inst.init, &t.init[i]);
      }
      layout.pack_goal(inst.goal, &t.goal[i]);
    }
  }
  // Repeated situations, as in a town: the memo hits within a pass too.
  Town twice = t;
  twice.npc_class.insert(twice.npc_class.end(), t.npc_class.begin(), t.npc_class.end());
  twice.init.insert(twice.init.end(), t.init.begin(), t.init.end());
  twice.goal.insert(twice.goal.end(), t.goal.begin(), t.goal.end());
  twice.instances.insert(twice.instances.end(), t.instances.begin(), t.instances.end());
  kind.insert(kind.end(), kind.begin(), kind.end());
  const size_t n = twice.npc_class.size();
  const size_t capacity = n * 12;
  const Results cold = cold_batch(planner, twice.batch(), capacity, {});
  expect_matches_reference(d, twice, cold);
  for (const bool with_handles : {false, true}) {
    const CrowdStatus seen =
        expect_warm_passes_match(planner, twice.batch(), capacity, {}, cold, with_handles);
    EXPECT_NE(seen & kCrowdSolved, 0u);
    EXPECT_NE(seen & kCrowdUnsolvable, 0u);
    EXPECT_NE(seen & kCrowdBadInput, 0u);
  }
  // Warm, every partial goal of a class is a memo or cache hit.
  PlanCache cache(planner);
  CrowdThreadPool pool(1);
  Crowd crowd = make_crowd(planner, pool, &cache, 2048);
  for (int pass = 0; pass < 2; ++pass) {
    Results r(n, capacity);
    crowd.plan(twice.batch(), r.output());
    if (pass == 0) continue;
    int64_t partial = 0;
    for (size_t i = 0; i < n; ++i) {
      if (kind[i] != kPartial || twice.npc_class[i] >= classes) continue;
      ++partial;
      EXPECT_NE(r.status[i] & kCrowdCacheHit, 0u) << i;
    }
    EXPECT_GT(partial, 100);
  }
}

// Random domains with classes: goals that free or set variables a class cannot touch (the memo
// loop's one-word check sends those to the full path) and fallback plans.
TEST(CrowdWarm, RandomDomainPassesAnswerAsColdAndCountTheirOutput) {
  CrowdStatus seen = 0;
  int32_t one_word = 0;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    DomainDef def = testing::random_domain_def(seed);
    Rng rng(seed * 13 + 5);
    add_random_classes(def, 2, rng);
    const Domain d = Domain::compile(def).value();
    const CrowdPlanner planner = CrowdPlanner::create(d).value();
    if (planner.layout().words() != 1) continue;
    ++one_word;
    std::vector<Instance> seeds;
    testing::RandomInstanceOptions io;
    for (int k = 0; k < 3; ++k) seeds.push_back(testing::random_instance(d, rng, io));
    const Town t = make_town(d, planner.layout(), seeds, 600, seed);
    const size_t capacity = t.npc_class.size() * static_cast<size_t>(planner.max_plan_length());
    const Results cold = cold_batch(planner, t.batch(), capacity, {});
    for (const bool with_handles : {false, true})
      seen |= expect_warm_passes_match(planner, t.batch(), capacity, {}, cold, with_handles);
  }
  EXPECT_GE(one_word, 6);
  EXPECT_NE(seen & kCrowdSolved, 0u);
  EXPECT_NE(seen & kCrowdUnsolvable, 0u);
  EXPECT_NE(seen & kCrowdFallback, 0u);
}

}  // namespace
}  // namespace topoplan
