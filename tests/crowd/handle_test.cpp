// Plan handles (crowd.h, "Plan handles"): a solved NPC answered by a handle into the cache's plan
// table has the plan a copying batch writes, for every NPC, with 1 and 2 threads, with and
// without the worker memo, warm and cold; handles of an invalidated cache are stale; a full
// table falls back to copies; pending NPCs retried get handles too.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "crowd_support.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"

namespace topoplan {
namespace {

using namespace crowd_test;  // NOLINT(google-build-using-namespace)

Results run_handles(Crowd& crowd, const Town& t, size_t capacity, const PlanCache& cache,
                    CrowdStats* stats = nullptr) {
  Results r(t.npc_class.size(), capacity, &cache);
  const CrowdStats s = crowd.plan(t.batch(), r.output());
  EXPECT_TRUE(s.complete);
  if (stats != nullptr) *stats = s;
  return r;
}

// A crowd on one thread with its own plan cache of 4096 entries (plans of up to 16 actions).
struct CachedCrowd {
  PlanCache cache;
  Crowd crowd;
  explicit CachedCrowd(const CrowdPlanner& planner)
      : cache(planner, {4096, 16}), crowd(Crowd::create(planner, def(cache)).value()) {}
  CachedCrowd(const CachedCrowd&) = delete;
  CachedCrowd& operator=(const CachedCrowd&) = delete;
  static CrowdDef def(PlanCache& cache) {
    CrowdDef d;
    d.cache = &cache;
    return d;
  }
};

TEST(PlanHandles, ResolvedPlansEqualCopiedPlansForEveryNpc) {
  const WesternCase c(3000, 51);
  const auto& [w, planner, t, capacity, copied] = c;
  for (int32_t threads : {1, 2}) {
    for (int32_t memo : {0, 2048}) {
      SCOPED_TRACE(::testing::Message() << threads << " threads, memo " << memo);
      PlanCache cache(planner, {4096, 16});
      CrowdThreadPool pool(threads);
      Crowd crowd = make_crowd(planner, pool, &cache, memo);
      for (int pass = 0; pass < 3; ++pass) {
        SCOPED_TRACE(pass);
        CrowdStats s;
        const Results r = run_handles(crowd, t, capacity, cache, &s);
        expect_same(copied, r, false);
        int64_t by_handle = 0, solved = 0;
        for (size_t i = 0; i < r.status.size(); ++i) {
          if (!(r.status[i] & kCrowdSolved)) {
            EXPECT_TRUE(r.handles[i].empty()) << i;
            continue;
          }
          ++solved;
          by_handle += !r.handles[i].empty();
          if (!r.handles[i].empty()) {
            EXPECT_EQ(r.handles[i].epoch, cache.epoch());
          }
        }
        EXPECT_EQ(by_handle, solved);  // the table is large enough: every plan by handle
        EXPECT_EQ(s.solved, solved);
        if (pass > 0) {
          EXPECT_GT(s.cache_hits, s.served / 2);
        }
        // A copying batch on the same (warm) cache still copies the same plans.
        expect_same(copied, run_batch(planner, t, capacity, threads, &cache));
      }
    }
  }
}

TEST(PlanHandles, InvalidationMakesHandlesStaleAndNewOnesResolve) {
  const WesternCase c(1500, 52);
  const auto& [w, planner, t, capacity, copied] = c;
  CachedCrowd cached(planner);
  auto& [cache, crowd] = cached;
  const Results before = run_handles(crowd, t, capacity, cache);
  const uint32_t epoch = cache.epoch();
  int64_t handles = 0;
  for (const PlanHandle& h : before.handles) {
    if (h.empty()) continue;
    ++handles;
    EXPECT_TRUE(cache.resolve(h).has_value());
    EXPECT_TRUE(crowd.resolve(h).has_value());
  }
  EXPECT_GT(handles, 0);
  cache.invalidate();
  EXPECT_NE(cache.epoch(), epoch);
  for (const PlanHandle& h : before.handles) {
    EXPECT_FALSE(cache.resolve(h).has_value());  // stale: detected, not a wrong plan
  }
  const Results after = run_handles(crowd, t, capacity, cache);
  expect_same(copied, after, false);
  // A planner with another stamp (the domain changed) invalidates too.
  const CrowdPlanner other = CrowdPlanner::create(w.domain).value();
  const PlanHandle some = *std::find_if(after.handles.begin(), after.handles.end(),
                                        [](const PlanHandle& h) { return !h.empty(); });
  EXPECT_TRUE(cache.resolve(some).has_value());
  (void)run_batch(other, t, capacity, 1, &cache);
  EXPECT_FALSE(cache.resolve(some).has_value());
  EXPECT_FALSE(cache.resolve(PlanHandle{}).has_value());
  EXPECT_FALSE(cache.resolve(PlanHandle{1u << 29, cache.epoch()}).has_value());  // beyond use
}

// A handle is accepted only where the table itself records the start of a plan stored in this
// epoch: every other id of the current epoch (inside a plan, at its last action, at or past the
// end of the used part) is not found, before and after an invalidation.
TEST(PlanHandles, ForgedHandlesOfTheCurrentEpochAreNotFound) {
  const WesternCase c(1500, 57);
  const auto& [w, planner, t, capacity, copied] = c;
  CachedCrowd cached(planner);
  auto& [cache, crowd] = cached;
  for (int pass = 0; pass < 2; ++pass) {
    SCOPED_TRACE(pass);
    const Results r = run_handles(crowd, t, capacity, cache);
    std::vector<bool> start(static_cast<size_t>(cache.stats().table_used) + 64, false);
    for (const PlanHandle& h : r.handles) {
      if (h.empty()) continue;
      start.at(h.id) = true;
    }
    int64_t real = 0, forged = 0;
    for (uint32_t id = 0; id < start.size(); ++id) {
      const auto plan = cache.resolve(PlanHandle{id, cache.epoch()});
      if (start[id]) {
        ++real;
        EXPECT_TRUE(plan.has_value()) << id;
      } else if (id != 0) {
        ++forged;
        EXPECT_FALSE(plan.has_value()) << "forged id " << id << " resolved";
        EXPECT_FALSE(crowd.resolve(PlanHandle{id, cache.epoch()}).has_value()) << id;
      }
    }
    EXPECT_GT(real, 10);
    EXPECT_GT(forged, real);
    cache.invalidate();
    // Old starts are forgotten: nothing but the empty plan resolves in the new epoch.
    for (uint32_t id = 1; id < start.size(); ++id) {
      EXPECT_FALSE(cache.resolve(PlanHandle{id, cache.epoch()}).has_value()) << id;
    }
  }
}

TEST(PlanHandles, FullTableFallsBackToCopies) {
  const WesternCase c(2000, 53);
  const auto& [w, planner, t, capacity, copied] = c;
  PlanCacheDef cdef;
  cdef.table_actions = 40;  // a few plans
  PlanCache cache(planner, cdef);
  CrowdDef def;
  def.cache = &cache;
  Crowd crowd = Crowd::create(planner, def).value();
  for (int pass = 0; pass < 2; ++pass) {
    const Results r = run_handles(crowd, t, capacity, cache);
    expect_same(copied, r, false);
    int64_t by_handle = 0, by_copy = 0;
    for (size_t i = 0; i < r.status.size(); ++i) {
      if (!(r.status[i] & kCrowdSolved) || r.length[i] == 0) continue;
      (r.handles[i].empty() ? by_copy : by_handle) += 1;
    }
    EXPECT_GT(by_handle, 0);
    EXPECT_GT(by_copy, 0);
  }
  EXPECT_LE(cache.stats().table_used, 40);
  PlanCacheDef none;
  none.table_actions = 0;  // no table: every plan copied
  PlanCache plain(planner, none);
  def.cache = &plain;
  Crowd copying = Crowd::create(planner, def).value();
  const Results r = run_handles(copying, t, capacity, plain);
  for (const PlanHandle& h : r.handles) EXPECT_TRUE(h.empty());
  expect_same(copied, r);
}

// Two host threads, each with its own Crowd and 2-thread pool, on one small shared cache, half
// the passes with handles: under ThreadSanitizer the plan table's publication is checked.
TEST(PlanHandles, TwoCrowdsShareOneCacheWithHandles) {
  const WesternCase c(600, 54, 12, 16);
  // Named references, not a structured binding: clang 14 cannot capture bindings in a lambda.
  const CrowdPlanner& planner = c.planner;
  const Town& t = c.t;
  const size_t capacity = c.capacity;
  const Results& copied = c.cold;
  PlanCache cache(planner, {16, 16});
  auto hammer = [&](int32_t memo) {
    CrowdThreadPool pool(2);
    CrowdDef def;
    def.npcs_per_block = 16;
    def.cache = &cache;
    def.worker_memo_entries = memo;
    pool.install(def);
    Crowd crowd = Crowd::create(planner, def).value();
    for (int pass = 0; pass < 6; ++pass) {
      if (pass % 2 == 0) {
        expect_same(copied, run_handles(crowd, t, capacity, cache), false);
      } else {
        Results r(t.npc_class.size(), capacity);
        EXPECT_TRUE(crowd.plan(t.batch(), r.output()).complete);
        expect_same(copied, r);
      }
    }
  };
  std::thread a(hammer, 0), b(hammer, 64);
  a.join();
  b.join();
  EXPECT_GT(cache.stats().hits, 0);
}

}  // namespace
}  // namespace topoplan
