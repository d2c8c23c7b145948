// Test support for tests/crowd: the caller-owned output of a batch (with optional plan handles),
// a random town of packed NPCs, a batch runner, and the comparison of two outputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "random_domains.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"

namespace topoplan::crowd_test {

using testing::Rng;

struct Town {
  std::vector<uint16_t> npc_class;
  std::vector<uint64_t> init;
  std::vector<uint64_t> goal;
  std::vector<Instance> instances;  // unpacked, for the reference
  CrowdBatch batch() const { return {npc_class, init, goal}; }
};

struct Results {
  std::vector<ActionId> actions;
  std::vector<uint32_t> offset;
  std::vector<uint16_t> length;
  std::vector<CrowdStatus> status;
  std::vector<PlanHandle> handles;   // empty: plans are copied
  const PlanCache* cache = nullptr;  // resolves the handles
  Results(size_t n, size_t capacity) : actions(capacity, -7), offset(n), length(n), status(n) {}
  // With handles: NPC plans come from `by`'s plan table when their handle is not empty.
  Results(size_t n, size_t capacity, const PlanCache* by) : Results(n, capacity) {
    handles.assign(n, PlanHandle{});
    cache = by;
  }
  CrowdOutput output() { return {actions, offset, length, status, handles}; }
  std::vector<ActionId> plan(size_t i) const {
    if (!handles.empty() && !handles[i].empty()) {
      const std::optional<std::span<const ActionId>> p = cache->resolve(handles[i]);
      EXPECT_TRUE(p.has_value()) << "stale handle, npc " << i;
      if (!p) return {};
      EXPECT_EQ(p->size(), length[i]) << i;
      return {p->begin(), p->end()};
    }
    return {actions.begin() + offset[i], actions.begin() + offset[i] + length[i]};
  }
};

// NPC classes for a random domain: `classes` classes c0, c1, ..., each taking every action with
// probability 0.7 (draws from `rng`).
// The built-in goap-level town's level (town_task("goap-level")) with level seed 32, for the
// tests of the planner chain: with its relaxed reachability proofs (docs/algorithm.md) ℙ
// answers every NPC of the built-in town (seed 1) itself, so the chain would go untested
// there. On this level ℙ still gives up on NPCs whose goal is relaxed-reachable: A* solves some,
// proves others unsolvable, and with a tight budget some go pending.
inline Task chain_level_task() {
  GoapLevelParams params = goap_level_town_params();
  params.seed = 32;
  return goap_level(params);
}

inline void add_random_classes(DomainDef& def, int32_t classes, Rng& rng) {
  for (int32_t c = 0; c < classes; ++c) {
    NpcClassDef cls{"c" + std::to_string(c), {}};
    for (ActionId a = 0; a < static_cast<ActionId>(def.actions.size()); ++a)
      if (rng.chance(0.7)) cls.actions.push_back(a);
    def.classes.push_back(cls);
  }
}

// NPCs of every class from `seeds` (start states), with goals reached by walks (solvable),
// random (mostly unsolvable) or partly free, and a few bad class ids.
inline Town make_town(const Domain& d, const CrowdLayout& layout,
                      const std::vector<Instance>& seeds, int32_t n, uint64_t seed) {
  Town t;
  Rng rng(seed);
  const int32_t classes = std::max(d.num_classes(), 1);
  const auto words = static_cast<size_t>(layout.words());
  t.init.resize(static_cast<size_t>(n) * words);
  t.goal.resize(static_cast<size_t>(n) * words);
  for (int32_t i = 0; i < n; ++i) {
    Instance inst =
        seeds[static_cast<size_t>(rng.uniform(0, static_cast<int32_t>(seeds.size()) - 1))];
    inst.npc_class = d.num_classes() == 0 ? kAllActions : rng.uniform(0, classes - 1);
    random_walk(d, inst.init, rng, rng.uniform(0, 20));
    inst.goal = inst.init;
    const int kind = rng.uniform(0, 9);
    if (kind < 6) {
      random_walk(d, inst.goal, rng, rng.uniform(0, 12), inst.npc_class);
    } else if (kind < 8) {
      for (VarId v = 0; v < d.num_variables(); ++v)
        if (rng.chance(0.3))
          inst.goal[static_cast<size_t>(v)] = rng.uniform(0, d.domain_size(v) - 1);
    } else {
      random_walk(d, inst.goal, rng, rng.uniform(0, 12), inst.npc_class);
      for (ValueId& x : inst.goal)
        if (rng.chance(0.3)) x = kUndefined;
    }
    uint16_t c = static_cast<uint16_t>(inst.npc_class < 0 ? 0 : inst.npc_class);
    if (rng.chance(0.01)) c = static_cast<uint16_t>(classes + rng.uniform(0, 3));  // bad id
    t.npc_class.push_back(c);
    layout.pack_state(inst.init, &t.init[static_cast<size_t>(i) * words]);
    layout.pack_goal(inst.goal, &t.goal[static_cast<size_t>(i) * words]);
    t.instances.push_back(std::move(inst));
  }
  return t;
}

// ℙ on the whole domain, one NPC at a time, checked against `r` (room: the slice space the
// batch had, so only "too small" can differ, and only for plans longer than the room).
// Returns how many NPCs the batch solved.
inline int64_t expect_matches_reference(const Domain& d, const Town& t, const Results& r) {
  const int32_t classes = std::max(d.num_classes(), 1);
  std::vector<TopoPlanner> planners;
  std::vector<TopoScratch> scratch;
  for (ClassId c = 0; c < classes; ++c)
    planners.push_back(TopoPlanner::create(d, d.num_classes() == 0 ? kAllActions : c).value());
  for (const TopoPlanner& p : planners) scratch.push_back(p.make_scratch());
  std::vector<ActionId> buf(static_cast<size_t>(d.num_actions()) + 1);
  int64_t solved = 0;
  for (size_t i = 0; i < t.npc_class.size(); ++i) {
    SCOPED_TRACE(::testing::Message() << "npc " << i);
    const CrowdStatus st = r.status[i] & ~kCrowdCacheHit;
    if (t.npc_class[i] >= classes) {
      EXPECT_EQ(st, kCrowdBadInput);
      continue;
    }
    const Instance& inst = t.instances[i];
    int32_t len = 0;
    const PlanOutcome po =
        planners[t.npc_class[i]].plan(scratch[t.npc_class[i]], inst.init, inst.goal, buf, &len);
    const PlanStatus ps = po.status;
    const bool bad_input = (po.detail & kDetailBadInput) != 0;
    switch (ps) {
      case PlanStatus::kSolved: {
        const std::vector<ActionId> want(buf.begin(), buf.begin() + len);
        EXPECT_EQ(r.length[i], len);
        if (st == kCrowdBufferTooSmall) break;  // checked by the caller's room accounting
        EXPECT_EQ(st, kCrowdSolved);
        if (st != kCrowdSolved) break;
        EXPECT_EQ(r.plan(i), want);
        EXPECT_TRUE(validate_plan(d, inst, r.plan(i)).valid);
        ++solved;
        break;
      }
      case PlanStatus::kUnsolvable:
        EXPECT_EQ(st, kCrowdUnsolvable);
        break;
      default: {
        if (bad_input || ps != PlanStatus::kGaveUp) {
          EXPECT_EQ(st, bad_input ? kCrowdBadInput : kCrowdNoPlan);
          break;
        }
        // ℙ gave up: the default fallback (A*, optimal) answered, on the class's projection.
        const PlanResult exact = plan_astar(d, inst);
        if (exact.status == PlanStatus::kSolved) {
          if (st == (kCrowdBufferTooSmall | kCrowdFallback)) break;
          EXPECT_EQ(st, kCrowdSolved | kCrowdFallback);
          if (st != (kCrowdSolved | kCrowdFallback)) break;
          EXPECT_TRUE(validate_plan(d, inst, r.plan(i)).valid);
          EXPECT_EQ(plan_cost(d, r.plan(i)), exact.cost);
        } else if (exact.status == PlanStatus::kUnsolvable) {
          EXPECT_EQ(st, kCrowdUnsolvable | kCrowdFallback);
        }
        break;
      }
    }
  }
  EXPECT_GT(solved, 0);
  return solved;
}

// Two passes answered as many NPCs each way (`planned`, `resumed` and `cache_hits` depend on the
// path the answers took, and are not compared).
inline void expect_same_answer_counts(const CrowdStats& a, const CrowdStats& b) {
  EXPECT_EQ(a.served, b.served);
  EXPECT_EQ(a.solved, b.solved);
  EXPECT_EQ(a.solved_fallback, b.solved_fallback);
  EXPECT_EQ(a.buffer_too_small, b.buffer_too_small);
  EXPECT_EQ(a.no_plan, b.no_plan);
  EXPECT_EQ(a.unsolvable, b.unsolvable);
}

// The counters a pass reports are those of its output: one status per NPC served.
inline void expect_counts_match_output(const CrowdStats& s, const Results& r) {
  CrowdStats want;
  for (const CrowdStatus st : r.status) {
    ++want.served;
    want.cache_hits += (st & kCrowdCacheHit) != 0;
    if (st & kCrowdSolved) {
      ++want.solved;
      want.solved_fallback += (st & kCrowdFallback) != 0;
    }
    want.buffer_too_small += (st & kCrowdBufferTooSmall) != 0;
    want.no_plan += (st & kCrowdNoPlan) != 0;
    want.unsolvable += (st & kCrowdUnsolvable) != 0;
  }
  expect_same_answer_counts(s, want);
  EXPECT_EQ(s.cache_hits, want.cache_hits);
}

// Same answers; `offsets`: same offsets too (not with handles: a plan given by handle uses no
// slice space).
inline void expect_same(const Results& a, const Results& b, bool offsets = true) {
  ASSERT_EQ(a.status.size(), b.status.size());
  for (size_t i = 0; i < a.status.size(); ++i) {
    ASSERT_EQ(a.status[i] & ~kCrowdCacheHit, b.status[i] & ~kCrowdCacheHit) << i;
    ASSERT_EQ(a.length[i], b.length[i]) << i;
    if (offsets) {
      ASSERT_EQ(a.offset[i], b.offset[i]) << i;
    }
    if (a.status[i] & kCrowdSolved) {
      ASSERT_EQ(a.plan(i), b.plan(i)) << i;
    }
  }
}

// A crowd on `pool`'s threads with `cache` and worker memos of `memo` entries, the rest of its
// def from `base`.
inline Crowd make_crowd(const CrowdPlanner& planner, CrowdThreadPool& pool, PlanCache* cache,
                        int32_t memo, CrowdDef base = {}) {
  base.cache = cache;
  base.worker_memo_entries = memo;
  pool.install(base);
  return Crowd::create(planner, base).value();
}

// A crowd without cache on `pool`'s threads, serving blocks of `block` NPCs.
inline Crowd blocked_crowd(const CrowdPlanner& planner, CrowdThreadPool& pool, int32_t block) {
  CrowdDef def;
  def.npcs_per_block = block;
  pool.install(def);
  return Crowd::create(planner, def).value();
}

inline Results run_batch(const CrowdPlanner& planner, const Town& t, size_t capacity,
                         int32_t threads, PlanCache* cache, int32_t block = 64) {
  CrowdThreadPool pool(threads);
  CrowdDef def;
  def.npcs_per_block = block;
  def.cache = cache;
  pool.install(def);
  Crowd crowd = Crowd::create(planner, def).value();
  Results r(t.npc_class.size(), capacity);
  const CrowdStats s = crowd.plan(t.batch(), r.output());
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.served, static_cast<int64_t>(t.npc_class.size()));
  return r;
}

// The common start of a Western test: the task, its crowd planner, a town of `npcs` NPCs
// (make_town, `seed`), an action buffer of `actions_per_npc` per NPC, and the answers of a cold
// batch on one thread without cache (blocks of `block` NPCs). Tests bind the parts by name:
//   const WesternCase c(3000, 21);
//   const auto& [w, planner, t, capacity, cold] = c;
// Not movable: the planner points into the task's domain.
struct WesternCase {
  Task w;
  CrowdPlanner planner;
  Town t;
  size_t capacity;
  Results cold;
  WesternCase(int32_t npcs, uint64_t seed, size_t actions_per_npc = 12, int32_t block = 64)
      : w(western()),
        planner(CrowdPlanner::create(w.domain).value()),
        t(make_town(w.domain, planner.layout(), w.instances, npcs, seed)),
        capacity(t.npc_class.size() * actions_per_npc),
        cold(run_batch(planner, t, capacity, 1, nullptr, block)) {}
  WesternCase(const WesternCase&) = delete;
  WesternCase& operator=(const WesternCase&) = delete;
};

}  // namespace topoplan::crowd_test
