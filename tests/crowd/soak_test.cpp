// Soak: a Western town under churn for many frames — 2 worker threads, a shared plan cache with
// worker memos, the cache invalidated every few hundred frames — checked against ℙ one NPC at a
// time at random frames, with the resident set size flat once warm.
//
// TOPOPLAN_SOAK_FRAMES sets the frames (default 3,000: the CI run; the long run is 100,000),
// TOPOPLAN_SOAK_NPCS the town size (default 2,000). The figures are printed at the end.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <vector>

#include "env.h"
#include "random_domains.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"

namespace topoplan {
namespace {

using testing::Rng;

using testing::env_int;

int64_t rss_kib() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

// One situation of the pool with its reference answer (ℙ on the whole domain, one at a time).
struct Situation {
  uint16_t npc_class = 0;
  std::vector<uint64_t> init, goal;  // packed
  PlanStatus status = PlanStatus::kGaveUp;
  std::vector<ActionId> plan;
};

// The pool: routines walked a few steps, goals reached by walks (solvable), random facts
// (mostly unsolvable) or partial; each answered by ℙ, its plans validated.
void make_pool(const Task& w, const CrowdLayout& layout, Rng& rng, std::vector<Situation>& pool) {
  const Domain& d = w.domain;
  const auto words = static_cast<size_t>(layout.words());
  const int32_t classes = d.num_classes();
  std::vector<TopoPlanner> refs;
  std::vector<TopoScratch> scratch;
  for (ClassId c = 0; c < classes; ++c) refs.push_back(TopoPlanner::create(d, c).value());
  for (const TopoPlanner& p : refs) scratch.push_back(p.make_scratch());
  std::vector<ActionId> buf(static_cast<size_t>(d.num_actions()) + 1);
  for (Situation& s : pool) {
    const Instance& seed = w.instances[static_cast<size_t>(
        rng.uniform(0, static_cast<int32_t>(w.instances.size()) - 1))];
    Instance inst = seed;
    inst.npc_class = rng.uniform(0, classes - 1);
    random_walk(d, inst.init, rng, rng.uniform(0, 15), kAllActions);
    inst.goal = inst.init;
    const int kind = rng.uniform(0, 9);
    random_walk(d, inst.goal, rng, rng.uniform(1, 10), inst.npc_class);
    if (kind >= 7)
      for (ValueId& x : inst.goal)
        if (rng.chance(0.4)) x = kUndefined;
    if (kind == 9) inst.goal[static_cast<size_t>(rng.uniform(0, d.num_variables() - 1))] = 0;
    s.npc_class = static_cast<uint16_t>(inst.npc_class);
    s.init.resize(words);
    s.goal.resize(words);
    layout.pack_state(inst.init, s.init.data());
    layout.pack_goal(inst.goal, s.goal.data());
    int32_t len = 0;
    s.status =
        refs[static_cast<size_t>(inst.npc_class)]
            .plan(scratch[static_cast<size_t>(inst.npc_class)], inst.init, inst.goal, buf, &len)
            .status;
    if (s.status == PlanStatus::kSolved) {
      s.plan.assign(buf.begin(), buf.begin() + len);
      ASSERT_TRUE(validate_plan(d, inst, s.plan).valid);
    }
  }
}

// The town: each NPC one situation of the pool, in packed batch arrays that stay in place.
struct Town {
  Town(const std::vector<Situation>& situations, size_t npcs, size_t packed_words)
      : pool(situations),
        words(packed_words),
        which(npcs),
        npc_class(npcs),
        init(npcs * packed_words),
        goal(npcs * packed_words) {}
  void assign(size_t i, int32_t s) {
    which[i] = s;
    const Situation& sit = pool[static_cast<size_t>(s)];
    npc_class[i] = sit.npc_class;
    std::copy(sit.init.begin(), sit.init.end(), init.begin() + static_cast<ptrdiff_t>(i * words));
    std::copy(sit.goal.begin(), sit.goal.end(), goal.begin() + static_cast<ptrdiff_t>(i * words));
  }
  const std::vector<Situation>& pool;
  size_t words;
  std::vector<int32_t> which;
  std::vector<uint16_t> npc_class;
  std::vector<uint64_t> init, goal;
};

// The crowd's answer for an NPC is ℙ's one-by-one answer of its situation: the same plan, the
// same proof, or (where ℙ gave up) an answer of the fallback chain, checked in chain_test.cpp.
bool same_as_reference(const Situation& sit, CrowdStatus status, uint16_t length,
                       const std::vector<ActionId>& actions, uint32_t offset) {
  const CrowdStatus st = status & ~kCrowdCacheHit;
  if (sit.status == PlanStatus::kSolved)
    return st == kCrowdSolved && length == sit.plan.size() &&
           std::equal(sit.plan.begin(), sit.plan.end(), actions.begin() + offset);
  if (sit.status == PlanStatus::kUnsolvable) return st == kCrowdUnsolvable;
  return st == kCrowdNoPlan || st == kCrowdBadInput || (st & kCrowdFallback) != 0;
}

TEST(CrowdSoak, ChurnAndInvalidationsMatchOneByOneAndMemoryStaysFlat) {
  const int64_t frames = env_int("TOPOPLAN_SOAK_FRAMES", 3000);
  const auto npcs = static_cast<size_t>(env_int("TOPOPLAN_SOAK_NPCS", 2000));
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  const auto words = static_cast<size_t>(planner.layout().words());
  Rng rng(20261123);
  std::vector<Situation> pool(1024);
  ASSERT_NO_FATAL_FAILURE(make_pool(w, planner.layout(), rng, pool));

  // Churn reassigns 5 % of the NPCs per frame.
  Town town(pool, npcs, words);
  for (size_t i = 0; i < npcs; ++i) town.assign(i, rng.uniform(0, 1023));
  const CrowdBatch batch{town.npc_class, town.init, town.goal};
  const size_t capacity = npcs * static_cast<size_t>(planner.max_plan_length());
  std::vector<ActionId> actions(capacity);
  std::vector<uint32_t> offset(npcs);
  std::vector<uint16_t> length(npcs);
  std::vector<CrowdStatus> status(npcs);
  const CrowdOutput out{actions, offset, length, status};

  CrowdThreadPool pool_threads(2);
  PlanCache cache(planner, {512, 16});  // smaller than the pool: evictions all along
  CrowdDef def;
  def.cache = &cache;
  def.worker_memo_entries = 64;
  pool_threads.install(def);
  Crowd crowd = Crowd::create(planner, def).value();

  int64_t checks = 0, npcs_checked = 0, mismatches = 0, invalidations = 0;
  int64_t rss_warm = 0;
  const int64_t warm_frame = std::min<int64_t>(frames / 10, 1000);
  const int64_t churn = std::max<int64_t>(1, static_cast<int64_t>(npcs) / 20);
  for (int64_t f = 0; f < frames; ++f) {
    for (int64_t k = 0; k < churn; ++k)
      town.assign(static_cast<size_t>(rng.uniform(0, static_cast<int32_t>(npcs) - 1)),
                  rng.uniform(0, 1023));
    if (rng.chance(1.0 / 300)) {
      cache.invalidate();
      ++invalidations;
    }
    const CrowdStats s = crowd.plan(batch, out);
    ASSERT_TRUE(s.complete);
    if (f == frames - 1 || rng.chance(0.01)) {  // a random frame: every NPC against ℙ
      ++checks;
      for (size_t i = 0; i < npcs; ++i) {
        const Situation& sit = pool[static_cast<size_t>(town.which[i])];
        mismatches += same_as_reference(sit, status[i], length[i], actions, offset[i]) ? 0 : 1;
        ++npcs_checked;
      }
      ASSERT_EQ(mismatches, 0) << "frame " << f;
    }
    if (f == warm_frame) rss_warm = rss_kib();
  }
  const int64_t rss_end = rss_kib();
  const PlanCacheStats cs = cache.stats();
  std::printf(
      "soak: %lld frames x %zu NPCs (2 threads, churn %lld/frame), %lld checked frames "
      "(%lld NPCs against one-by-one P, %lld mismatches), %lld invalidations, cache hits %lld "
      "misses %lld evictions %lld; RSS %lld KiB at frame %lld, %lld KiB at the end\n",
      static_cast<long long>(frames), npcs, static_cast<long long>(churn),
      static_cast<long long>(checks), static_cast<long long>(npcs_checked),
      static_cast<long long>(mismatches), static_cast<long long>(invalidations),
      static_cast<long long>(cs.hits), static_cast<long long>(cs.misses),
      static_cast<long long>(cs.evictions), static_cast<long long>(rss_warm),
      static_cast<long long>(warm_frame), static_cast<long long>(rss_end));
  EXPECT_GT(checks, 0);
  EXPECT_GT(cs.hits, 0);
  EXPECT_GT(cs.evictions, 0);
#ifndef TOPOPLAN_TEST_SANITIZED
  // Flat: nothing the frames allocate accumulates (a leak of one byte per NPC per frame would
  // be 2 MB in the CI run). Sanitizers keep freed memory in quarantine, so only unsanitized.
  EXPECT_LE(rss_end, rss_warm + 512) << "RSS grew from " << rss_warm << " KiB";
#endif
}

}  // namespace
}  // namespace topoplan
