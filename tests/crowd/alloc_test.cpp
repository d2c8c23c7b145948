// The crowd hot path allocates nothing: count global operator new around plan() and
// plan_frame() (cold and warm cache, the calling thread and the built-in pool; copying, and with
// plan handles).

#include <gtest/gtest.h>

#include "alloc_counter.h"

#include "topoplan/crowd.h"
#include "topoplan/families.h"

namespace topoplan {
namespace {

TEST(CrowdAlloc, BatchAndFrameDoNotAllocate) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  const CrowdLayout& layout = planner.layout();
  const size_t n = 2000;
  const auto words = static_cast<size_t>(layout.words());
  std::vector<uint16_t> cls(n);
  std::vector<uint64_t> init(n * words), goal(n * words);
  for (size_t i = 0; i < n; ++i) {
    const Instance& inst = w.instances[i % w.instances.size()];
    cls[i] = static_cast<uint16_t>(inst.npc_class);
    layout.pack_state(inst.init, &init[i * words]);
    layout.pack_goal(inst.goal, &goal[i * words]);
  }
  std::vector<ActionId> actions(n * 12);
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n);
  std::vector<CrowdStatus> status(n);
  const CrowdBatch batch{cls, init, goal};
  const CrowdOutput out{actions, offset, length, status};
  PlanCache cache(planner);
  for (int32_t threads : {1, 2}) {
    CrowdThreadPool pool(threads);
    for (PlanCache* c : {static_cast<PlanCache*>(nullptr), &cache}) {
      CrowdDef def;
      def.cache = c;
      pool.install(def);
      Crowd crowd = Crowd::create(planner, def).value();
      const int64_t before = testing::allocation_count();
      for (int rep = 0; rep < 3; ++rep) {
        EXPECT_EQ(crowd.plan(batch, out).solved, static_cast<int64_t>(n));
        CrowdCursor cursor;
        while (!crowd.plan_frame(batch, out, &cursor, 1e-5).complete) {
        }
      }
      EXPECT_EQ(testing::allocation_count(), before)
          << threads << " threads, cache " << (c != nullptr);
    }
  }
}

// The same with plan handles (CrowdOutput::handles): warm NPCs answered from the handle memo or
// the shared cache by handle, cold ones stored in the plan table — with and without the worker
// memo, on the calling thread and the built-in pool.
TEST(CrowdAlloc, HandleBatchAndFrameDoNotAllocate) {
  const Task w = western();
  const CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  const CrowdLayout& layout = planner.layout();
  const size_t n = 2000;
  const auto words = static_cast<size_t>(layout.words());
  std::vector<uint16_t> cls(n);
  std::vector<uint64_t> init(n * words), goal(n * words);
  for (size_t i = 0; i < n; ++i) {
    const Instance& inst = w.instances[i % w.instances.size()];
    cls[i] = static_cast<uint16_t>(inst.npc_class);
    layout.pack_state(inst.init, &init[i * words]);
    layout.pack_goal(inst.goal, &goal[i * words]);
  }
  std::vector<ActionId> actions(n * 12);
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n);
  std::vector<CrowdStatus> status(n);
  std::vector<PlanHandle> handles(n);
  const CrowdBatch batch{cls, init, goal};
  const CrowdOutput out{actions, offset, length, status, handles};
  for (int32_t threads : {1, 2}) {
    CrowdThreadPool pool(threads);
    for (int32_t memo : {0, 2048}) {
      PlanCache cache(planner);
      CrowdDef def;
      def.cache = &cache;
      def.worker_memo_entries = memo;
      pool.install(def);
      Crowd crowd = Crowd::create(planner, def).value();
      const int64_t before = testing::allocation_count();
      for (int rep = 0; rep < 3; ++rep) {
        if (rep == 2) cache.invalidate();  // cold again: plans go to the (emptied) table
        EXPECT_EQ(crowd.plan(batch, out).solved, static_cast<int64_t>(n));
        CrowdCursor cursor;
        while (!crowd.plan_frame(batch, out, &cursor, 1e-5).complete) {
        }
      }
      EXPECT_EQ(testing::allocation_count(), before) << threads << " threads, memo " << memo;
      int64_t by_handle = 0;
      for (const PlanHandle& h : handles) by_handle += !h.empty();
      EXPECT_GT(by_handle, static_cast<int64_t>(n) / 2);  // the handle path did run
    }
  }
}

}  // namespace
}  // namespace topoplan
