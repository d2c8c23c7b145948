// The crowd batch path against ℙ one NPC at a time on the whole domain: same status, same plan
// (action for action), every plan accepted by the validator — for any thread count, with and
// without the cache, with small output buffers, and a frame at a time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "crowd_support.h"
#include "random_domains.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"

namespace topoplan {
namespace {

using namespace crowd_test;  // NOLINT(google-build-using-namespace)

// A town of `npcs` NPCs from 4 random instances of `d`: one thread without cache against ℙ one
// NPC at a time, then `threads` threads with a small cache against that (blocks of 16 NPCs).
void expect_random_town_matches(const Domain& d, const CrowdPlanner& planner, Rng& rng,
                                int32_t npcs, uint64_t seed, int32_t threads) {
  std::vector<Instance> seeds;
  testing::RandomInstanceOptions io;
  for (int k = 0; k < 4; ++k) seeds.push_back(testing::random_instance(d, rng, io));
  const Town t = make_town(d, planner.layout(), seeds, npcs, seed);
  const size_t capacity = t.npc_class.size() * static_cast<size_t>(planner.max_plan_length());
  const Results one = run_batch(planner, t, capacity, 1, nullptr, 16);
  expect_matches_reference(d, t, one);
  PlanCache cache(planner, {64, 16});
  expect_same(one, run_batch(planner, t, capacity, threads, &cache, 16));
}

TEST(CrowdLayout, RoundTripsStatesAndPartialGoals) {
  const Task w = western();
  const CrowdLayout layout(w.domain);
  EXPECT_EQ(layout.words(), 1);  // 29 variables of 2-5 values: 63 bits
  EXPECT_LE(layout.bytes_per_npc(), 64);
  Rng rng(3);
  for (int k = 0; k < 200; ++k) {
    std::vector<ValueId> s(static_cast<size_t>(w.domain.num_variables()));
    std::vector<ValueId> g(s.size());
    for (VarId v = 0; v < w.domain.num_variables(); ++v) {
      s[static_cast<size_t>(v)] = rng.uniform(0, w.domain.domain_size(v) - 1);
      g[static_cast<size_t>(v)] = rng.uniform(-1, w.domain.domain_size(v) - 1);
    }
    uint64_t ps[1], pg[1];
    layout.pack_state(s, ps);
    layout.pack_goal(g, pg);
    std::vector<ValueId> s2(s.size()), g2(s.size());
    layout.unpack_state(ps, s2);
    layout.unpack_goal(pg, g2);
    EXPECT_EQ(s, s2);
    EXPECT_EQ(g, g2);
  }
}

TEST(Crowd, WesternBatchMatchesOneByOneForAnyThreadCount) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  const Town t = make_town(w.domain, planner.layout(), w.instances, 3000, 11);
  const size_t capacity = t.npc_class.size() * static_cast<size_t>(planner.max_plan_length());
  const Results one = run_batch(planner, t, capacity, 1, nullptr);
  EXPECT_GT(expect_matches_reference(w.domain, t, one), 3000 / 3);
  for (int32_t threads : {2, 3, 8}) {
    SCOPED_TRACE(threads);
    expect_same(one, run_batch(planner, t, capacity, threads, nullptr));
  }
}

TEST(Crowd, RandomDomainsWithClassesMatchOneByOne) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE(seed);
    DomainDef def = testing::random_domain_def(seed);
    Rng rng(seed * 7 + 1);
    add_random_classes(def, static_cast<int32_t>(seed % 4), rng);  // 0: no classes
    const Domain d = Domain::compile(def).value();
    const CrowdPlanner planner = CrowdPlanner::create(d).value();
    expect_random_town_matches(d, planner, rng, 400, seed, 3);
  }
}

// ℙ plans on a copy of each class's projection that keeps every domain action at its own id
// (planner.cpp), so the crowd writes ℙ's ids without remapping them: two classes whose actions
// interleave (even and odd ids) and one with every action, against ℙ on the whole domain.
TEST(Crowd, InterleavedClassesMatchOneByOne) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    SCOPED_TRACE(seed);
    DomainDef def = testing::random_domain_def(seed);
    const auto na = static_cast<ActionId>(def.actions.size());
    NpcClassDef even{"even", {}}, all{"all", {}}, odd{"odd", {}};
    for (ActionId a = 0; a < na; ++a) {
      (a % 2 == 0 ? even : odd).actions.push_back(a);
      all.actions.push_back(a);
    }
    def.classes = {even, all, odd};
    const Domain d = Domain::compile(def).value();
    auto made = CrowdPlanner::create(d);
    ASSERT_TRUE(made.ok()) << made.error().message;
    const CrowdPlanner planner = std::move(made).value();
    Rng rng(seed * 5 + 3);
    expect_random_town_matches(d, planner, rng, 300, seed, 2);
  }
}

// A cold one-word batch unpacks each NPC's class variables with AVX2 where the CPU has it
// (cold.cpp, unpack_avx2: a 32-bit window per field, [0, 32), [16, 48) or [32, 64), 8 variables
// a group), else with the scalar loop (also with TOPOPLAN_CROWD_SIMD=0). Both against ℙ one NPC
// at a time and against each other, on one-word layouts with fields of up to 6 bits in every
// window and classes of more than 8 variables.
TEST(Crowd, ColdLoopScalarAndSimdUnpackingMatchOneByOne) {
  int32_t one_word = 0, high_fields = 0, big_classes = 0;
  for (uint64_t seed = 1; seed <= 24; ++seed) {
    SCOPED_TRACE(seed);
    testing::RandomDomainOptions options;
    options.min_variables = 6;
    options.max_variables = 16;
    options.max_values = 40;
    DomainDef def = testing::random_domain_def(seed, options);
    Rng rng(seed * 11 + 5);
    add_random_classes(def, static_cast<int32_t>(seed % 3), rng);  // 0: no classes
    const Domain d = Domain::compile(def).value();
    const CrowdPlanner planner = CrowdPlanner::create(d).value();
    if (planner.layout().words() != 1) continue;
    ++one_word;
    for (VarId v = 0; v < d.num_variables(); ++v)
      high_fields += planner.layout().field(v).shift >= 40;
    for (int32_t c = 0; c < planner.num_classes(); ++c)
      big_classes += planner.class_variables(c).size() > 8;
    std::vector<Instance> seeds;
    testing::RandomInstanceOptions io;
    for (int k = 0; k < 4; ++k) seeds.push_back(testing::random_instance(d, rng, io));
    const Town t = make_town(d, planner.layout(), seeds, 300, seed);
    const size_t capacity = t.npc_class.size() * static_cast<size_t>(planner.max_plan_length());
    ASSERT_EQ(setenv("TOPOPLAN_CROWD_SIMD", "0", 1), 0);
    const Results scalar = run_batch(planner, t, capacity, 1, nullptr, 16);
    ASSERT_EQ(unsetenv("TOPOPLAN_CROWD_SIMD"), 0);
    expect_matches_reference(d, t, scalar);
    expect_same(scalar, run_batch(planner, t, capacity, 2, nullptr, 16));
  }
  EXPECT_GE(one_word, 8);
  EXPECT_GT(high_fields, 0);
  EXPECT_GT(big_classes, 0);
}

TEST(Crowd, SmallBufferFlagsOverflowPerNpcAndStaysDeterministic) {
  const WesternCase c(2000, 5, 1);  // 1 action per NPC on average: many overflow
  const auto& [w, planner, t, capacity, one] = c;
  expect_matches_reference(w.domain, t, one);
  int64_t overflow = 0;
  for (size_t i = 0; i < t.npc_class.size(); ++i) {
    if (one.status[i] & kCrowdSolved) {
      EXPECT_LE(one.offset[i] + one.length[i], capacity);
    }
    overflow += (one.status[i] & kCrowdBufferTooSmall) != 0;
  }
  int64_t total_len = 0, solved = 0;
  for (size_t i = 0; i < t.npc_class.size(); ++i)
    if (one.status[i] & (kCrowdSolved | kCrowdBufferTooSmall)) total_len += one.length[i], ++solved;
  EXPECT_GT(total_len, 3 * solved / 2);  // plans of some length, or the test proves little
  EXPECT_GT(overflow, 50);
  PlanCache cache(planner);
  expect_same(one, run_batch(planner, t, capacity, 2, &cache));
  expect_same(one, run_batch(planner, t, capacity, 8, &cache));  // warm: from the cache
}

// No action room at all (an empty span, whose data() is null): empty plans are still answered
// solved, every longer one "too small" with the length it needs — cold, warm and from the memo.
TEST(Crowd, NoActionRoomAnswersEmptyPlansAndFlagsTheRest) {
  const WesternCase c(1500, 9);
  const auto& [w, planner, t, capacity, full] = c;
  PlanCache cache(planner);
  for (PlanCache* by : {static_cast<PlanCache*>(nullptr), &cache, &cache}) {
    const Results none = run_batch(planner, t, 0, 2, by);
    ASSERT_EQ(none.actions.data(), nullptr);
    int64_t empty = 0;
    for (size_t i = 0; i < t.npc_class.size(); ++i) {
      const bool solved = (full.status[i] & kCrowdSolved) != 0;
      if (solved && full.length[i] == 0) {
        ++empty;
        EXPECT_TRUE(none.status[i] & kCrowdSolved) << i;
        EXPECT_EQ(none.length[i], 0) << i;
      } else if (solved) {
        EXPECT_TRUE(none.status[i] & kCrowdBufferTooSmall) << i;
        EXPECT_EQ(none.length[i], full.length[i]) << i;
      } else {
        EXPECT_EQ(none.status[i], full.status[i]) << i;
      }
    }
    EXPECT_GT(empty, 0);  // NPCs already at their goal, or the test proves little
  }
}

TEST(PlanCache, CachedAnswersAreTheSameAnswers) {
  const WesternCase c(3000, 21);
  const auto& [w, planner, t, capacity, cold] = c;
  PlanCache cache(planner, {4096, 16});
  const Results first = run_batch(planner, t, capacity, 2, &cache);
  const PlanCacheStats s1 = cache.stats();
  EXPECT_GT(s1.inserts, 0);
  const Results second = run_batch(planner, t, capacity, 2, &cache);
  const PlanCacheStats s2 = cache.stats();
  expect_same(cold, first);
  expect_same(cold, second);
  EXPECT_GT(s2.hits - s1.hits, s1.hits);  // warm pass hits more
  int64_t hit_flags = 0;
  for (CrowdStatus st : second.status) hit_flags += (st & kCrowdCacheHit) != 0;
  EXPECT_EQ(hit_flags, s2.hits - s1.hits);
}

TEST(PlanCache, TinyCacheEvictsAndStillAnswersRight) {
  const WesternCase c(2000, 8);
  const auto& [w, planner, t, capacity, cold] = c;
  PlanCache cache(planner, {8, 4});  // 8 entries, plans of at most 4 actions
  expect_same(cold, run_batch(planner, t, capacity, 3, &cache));
  expect_same(cold, run_batch(planner, t, capacity, 3, &cache));
  EXPECT_GT(cache.stats().evictions, 0);
  EXPECT_EQ(cache.stats().capacity, 8);
}

TEST(PlanCache, InvalidatedWhenTheDomainChanges) {
  // Same variables (same layout and keys), actions in reverse order: other action ids.
  DomainDef def = testing::random_domain_def(17);
  const Domain d1 = Domain::compile(def).value();
  std::reverse(def.actions.begin(), def.actions.end());
  const Domain d2 = Domain::compile(def).value();
  const CrowdPlanner p1 = CrowdPlanner::create(d1).value();
  const CrowdPlanner p2 = CrowdPlanner::create(d2).value();
  Rng rng(4);
  std::vector<Instance> seeds{testing::random_instance(d1, rng), testing::random_instance(d1, rng)};
  const Town t = make_town(d1, p1.layout(), seeds, 500, 9);
  const size_t capacity = t.npc_class.size() * static_cast<size_t>(p1.max_plan_length());
  PlanCache cache(p1);
  (void)run_batch(p1, t, capacity, 1, &cache);
  const int64_t before = cache.stats().invalidations;
  const Results r2 = run_batch(p2, t, capacity, 1, &cache);
  EXPECT_EQ(cache.stats().invalidations, before + 1);
  expect_matches_reference(d2, t, r2);
  cache.invalidate();
  expect_same(r2, run_batch(p2, t, capacity, 2, &cache));
}

TEST(PlanCache, WorkerMemoGivesTheSameAnswersAndIsDroppedWithTheCache) {
  const WesternCase c(3000, 31);
  const auto& [w, planner, t, capacity, cold] = c;
  for (int32_t memo : {0, 1, 4, 2048}) {  // none, 1 (4 entries: most NPCs conflict), tiny, default
    SCOPED_TRACE(memo);
    PlanCache cache(planner, {4096, 16});
    CrowdDef def;
    def.cache = &cache;
    def.worker_memo_entries = memo;
    Crowd crowd = Crowd::create(planner, def).value();
    int64_t first_planned = 0;
    for (int pass = 0; pass < 3; ++pass) {
      if (pass == 2) cache.invalidate();  // the memo must go with it: misses and inserts again
      const PlanCacheStats before = cache.stats();
      Results r(t.npc_class.size(), capacity);
      const CrowdStats s = crowd.plan(t.batch(), r.output());
      const PlanCacheStats after = cache.stats();
      expect_same(cold, r);
      int64_t hit_flags = 0;
      for (CrowdStatus st : r.status) hit_flags += (st & kCrowdCacheHit) != 0;
      EXPECT_EQ(hit_flags, s.cache_hits);
      EXPECT_EQ(after.hits - before.hits, s.cache_hits);
      EXPECT_EQ(s.planned, after.misses - before.misses);
      if (pass != 1) {
        EXPECT_GT(after.inserts - before.inserts, 0);
      } else {
        EXPECT_LT(s.planned, first_planned);  // warm
      }
      if (pass == 0) first_planned = s.planned;
    }
  }
}

// Two host threads, each with its own Crowd and 2-thread pool, hammer one small shared cache:
// readers race writers on the same entries (torn reads must be misses, never wrong plans).
// Under ThreadSanitizer (scripts/test.sh) this is the seqlock's race test.
TEST(PlanCache, TwoCrowdsOnTwoThreadsShareOneSmallCache) {
  const WesternCase c(600, 41, 12, 16);
  // Named references, not a structured binding: clang 14 cannot capture bindings in a lambda.
  const CrowdPlanner& planner = c.planner;
  const Town& t = c.t;
  const size_t capacity = c.capacity;
  const Results& cold = c.cold;
  PlanCache cache(planner, {16, 16});  // far fewer entries than situations: constant overwrites
  auto hammer = [&] {
    CrowdThreadPool pool(2);
    CrowdDef def;
    def.npcs_per_block = 16;
    def.cache = &cache;
    def.worker_memo_entries = 0;  // every NPC goes through the shared cache
    pool.install(def);
    Crowd crowd = Crowd::create(planner, def).value();
    for (int pass = 0; pass < 6; ++pass) {
      Results r(t.npc_class.size(), capacity);
      EXPECT_TRUE(crowd.plan(t.batch(), r.output()).complete);
      expect_same(cold, r);
    }
  };
  std::thread a(hammer), b(hammer);
  a.join();
  b.join();
  const PlanCacheStats s = cache.stats();
  EXPECT_GT(s.hits, 0);
  EXPECT_GT(s.evictions, 0);
}

// A host task system that runs ranges in reverse, with arbitrary worker indices.
void* reverse_enqueue(CrowdTaskFn* task, int32_t items, int32_t, void* ctx, void*) {
  for (int32_t i = items - 1; i >= 0; --i) task(i, i + 1, (i * 5) % items, ctx);
  return nullptr;
}
void never_finish(void*, void*) {
  ADD_FAILURE() << "finish called after a null handle";
}

TEST(Crowd, HostTaskSystemHook) {
  const WesternCase c(1000, 2);
  const auto& [w, planner, t, capacity, ref] = c;
  CrowdDef def;
  def.worker_count = 7;
  def.enqueue_task = &reverse_enqueue;
  def.finish_task = &never_finish;
  Crowd crowd = Crowd::create(planner, def).value();
  Results r(t.npc_class.size(), capacity);
  EXPECT_TRUE(crowd.plan(t.batch(), r.output()).complete);
  expect_same(ref, r);
  def.finish_task = nullptr;
  EXPECT_FALSE(Crowd::create(planner, def).ok());
}

// A value out of range is bad input wherever it is, also on a variable the NPC's class cannot
// touch: the proof "the goal changes a variable outside the class" holds only for values of the
// variable. Every loop (cold, memo, shared cache, handles), with and without the fallback chain.
TEST(Crowd, OutOfRangeValuesOutsideTheClassAreBadInputNotAProof) {
  DomainDef def;
  def.name = "two-flags";
  def.variables = {{"x", {"0", "1"}}, {"y", {"0", "1"}}};  // 2-bit fields: codes 2 and 3 spare
  def.actions = {{"SetX", 1, {{0, 0, 1}}, {}}, {"SetY", 1, {{1, 0, 1}}, {}}};
  def.classes = {{"cx", {0}}, {"cy", {1}}};
  const Domain d = Domain::compile(def).value();
  const CrowdPlanner planner = CrowdPlanner::create(d).value();
  const CrowdLayout& layout = planner.layout();
  ASSERT_EQ(layout.words(), 1);
  const int32_t sx = layout.field(0).shift, sy = layout.field(1).shift;
  const uint64_t free_y = layout.field(1).mask;
  // (init y, goal y) for an NPC of class cx (SetX only) with x: 0 -> 1; the expected status.
  struct Case {
    uint64_t init_y, goal_y;
    CrowdStatus want;
  };
  const std::vector<Case> cases = {
      {0, 1, kCrowdUnsolvable},  // in range: the proof holds
      {2, 1, kCrowdBadInput},    // init out of range on y, which cx never touches
      {3, 1, kCrowdBadInput},    // init holds the "free" code
      {0, 2, kCrowdBadInput},    // goal out of range on y
      {1, 1, kCrowdSolved},      // y already as wanted
      {0, free_y, kCrowdSolved},
  };
  std::vector<uint16_t> cls;
  std::vector<uint64_t> init, goal;
  for (int rep = 0; rep < 200; ++rep) {  // enough NPCs for several blocks and cache hits
    for (const Case& k : cases) {
      cls.push_back(0);
      init.push_back(k.init_y << sy);  // x = 0
      goal.push_back((uint64_t{1} << sx) | (k.goal_y << sy));
    }
  }
  const size_t n = cls.size();
  for (const bool with_cache : {false, true}) {
    for (const int32_t memo : {0, 2048}) {
      for (const bool chain : {false, true}) {
        SCOPED_TRACE(::testing::Message()
                     << "cache " << with_cache << " memo " << memo << " chain " << chain);
        PlanCache cache(planner);
        CrowdDef cdef;
        cdef.cache = with_cache ? &cache : nullptr;
        cdef.worker_memo_entries = memo;
        if (!chain) cdef.fallback.clear();
        Crowd crowd = Crowd::create(planner, cdef).value();
        for (int pass = 0; pass < 2; ++pass) {
          std::vector<ActionId> actions(4 * n);
          std::vector<uint32_t> offset(n);
          std::vector<uint16_t> length(n);
          std::vector<CrowdStatus> status(n);
          const CrowdStats st = crowd.plan({cls, init, goal}, {actions, offset, length, status});
          ASSERT_TRUE(st.complete);
          for (size_t i = 0; i < n; ++i) {
            const Case& k = cases[i % cases.size()];
            EXPECT_EQ(status[i] & ~kCrowdCacheHit, k.want)
                << "npc " << i << " init y " << k.init_y << " goal y " << k.goal_y;
          }
        }
      }
    }
  }
}

TEST(Crowd, CreateRefusesOutOfRangeDefs) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  PlanCache cache(planner, {64, 16});
  auto refused = [&](auto edit) {
    CrowdDef def;
    def.cache = &cache;
    edit(def);
    return !Crowd::create(planner, def).ok();
  };
  EXPECT_TRUE(refused([](CrowdDef& d) { d.worker_count = 0; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.npcs_per_block = 0; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.npcs_per_block = INT32_MAX; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.worker_memo_entries = -1; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.worker_memo_entries = INT32_MAX; }));
  EXPECT_FALSE(refused([](CrowdDef& d) { d.worker_memo_entries = 0; }));
  // Every numeric field has a range, NaN included.
  EXPECT_TRUE(refused([](CrowdDef& d) { d.worker_count = 4097; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.fallback_budget = int64_t{1} << 50; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.fallback_limits.max_expansions = int64_t{1} << 50; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.fallback_limits.max_memory_bytes = INT64_MAX; }));
  EXPECT_TRUE(refused([](CrowdDef& d) { d.fallback_limits.max_seconds = std::nan(""); }));
  EXPECT_TRUE(refused([](CrowdDef& d) {
    d.fallback_limits.max_seconds = std::numeric_limits<double>::infinity();
  }));
  EXPECT_FALSE(refused([](CrowdDef& d) { d.fallback_limits.max_seconds = 0.5; }));
  CrowdDef def;
  def.worker_count = 0;
  const std::string message = Crowd::create(planner, def).error().message;
  EXPECT_NE(message.find("worker_count"), std::string::npos) << message;
  EXPECT_NE(message.find("[1, 4096]"), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos);
}

TEST(PlanCache, CreateRefusesOutOfRangeDefsNamingTheField) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  auto error = [&](PlanCacheDef def) {
    const Result<std::unique_ptr<PlanCache>> r = PlanCache::create(planner, def);
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_EQ(error({}), "");
  EXPECT_NE(error({-1, 16}).find("'capacity' (cache entries, rounded up to a power of two) must "
                                 "be an integer in [1, 268435456], found -1"),
            std::string::npos);
  EXPECT_NE(error({0, 16}).find("capacity"), std::string::npos);
  EXPECT_NE(error({64, 256}).find("'max_plan_length' (actions of a cached plan) must be an integer "
                                  "in [0, 255], found 256"),
            std::string::npos);
  EXPECT_NE(error({64, -1}).find("max_plan_length"), std::string::npos);
  EXPECT_NE(error({64, 16, -1}).find("table_actions"), std::string::npos);
  const std::unique_ptr<PlanCache> cache = PlanCache::create(planner, {64, 16, 0}).value();
  EXPECT_EQ(cache->stats().capacity, 64);
  EXPECT_EQ(cache->stats().table_capacity, 0);
}

TEST(Crowd, FrameBudgetServesAPrefixAndResumes) {
  const WesternCase c(1000, 12, 12, 32);
  const auto& [w, planner, t, capacity, ref] = c;
  for (int32_t threads : {1, 3}) {
    CrowdThreadPool pool(threads);
    Crowd crowd = blocked_crowd(planner, pool, 32);
    Results r(t.npc_class.size(), capacity);
    CrowdCursor cursor;
    int calls = 0;
    while (true) {
      const int64_t before = cursor.next;
      // A zero budget still serves one block per worker: progress is guaranteed.
      const CrowdStats s = crowd.plan_frame(t.batch(), r.output(), &cursor, 0.0);
      ++calls;
      EXPECT_GE(s.served, std::min<int64_t>(32, 1000 - before));
      EXPECT_LE(s.served, 32 * threads);
      EXPECT_EQ(cursor.next, std::min<int64_t>(before + s.served, 1000));
      for (int64_t i = before; i < cursor.next; ++i) EXPECT_NE(r.status[static_cast<size_t>(i)], 0);
      for (int64_t i = cursor.next; i < 1000; ++i) EXPECT_EQ(r.status[static_cast<size_t>(i)], 0);
      if (s.complete) break;
    }
    EXPECT_GE(calls, 1000 / (32 * threads));
    expect_same(ref, r);
    // A generous budget finishes in one call.
    Results r2(t.npc_class.size(), capacity);
    CrowdCursor c2;
    EXPECT_TRUE(crowd.plan_frame(t.batch(), r2.output(), &c2, 60.0).complete);
    expect_same(ref, r2);
  }
}

}  // namespace
}  // namespace topoplan
