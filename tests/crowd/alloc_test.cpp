// The crowd hot path allocates nothing: count global operator new around plan() and
// plan_frame() (cold and warm cache, the calling thread and the built-in pool; copying, and with
// plan handles).

#include <gtest/gtest.h>

#include <vector>

#include "alloc_counter.h"

#include "topoplan/runtime/crowd.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

// 2000 NPCs of Western's instances (in turn), packed, and an output of 12 actions per NPC.
struct WesternBatch {
  static constexpr size_t n = 2000;
  Task w = western();
  CrowdPlanner planner = CrowdPlanner::create(w.domain).value();
  std::vector<uint16_t> cls;
  std::vector<uint64_t> init, goal;
  std::vector<ActionId> actions = std::vector<ActionId>(n * 12);
  std::vector<uint32_t> offset = std::vector<uint32_t>(n);
  std::vector<uint16_t> length = std::vector<uint16_t>(n);
  std::vector<CrowdStatus> status = std::vector<CrowdStatus>(n);
  WesternBatch() {
    const CrowdLayout& layout = planner.layout();
    const auto words = static_cast<size_t>(layout.words());
    cls.resize(n);
    init.resize(n * words);
    goal.resize(n * words);
    for (size_t i = 0; i < n; ++i) {
      const Instance& inst = w.instances[i % w.instances.size()];
      cls[i] = static_cast<uint16_t>(inst.npc_class);
      layout.pack_state(inst.init, &init[i * words]);
      layout.pack_goal(inst.goal, &goal[i * words]);
    }
  }
  WesternBatch(const WesternBatch&) = delete;
  WesternBatch& operator=(const WesternBatch&) = delete;
  [[nodiscard]] CrowdBatch batch() const { return {cls, init, goal}; }
};

TEST(CrowdAlloc, BatchAndFrameDoNotAllocate) {
  WesternBatch wb;
  const CrowdPlanner& planner = wb.planner;
  const size_t n = WesternBatch::n;
  const CrowdBatch batch = wb.batch();
  const CrowdOutput out{wb.actions, wb.offset, wb.length, wb.status};
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
  WesternBatch wb;
  const CrowdPlanner& planner = wb.planner;
  const size_t n = WesternBatch::n;
  std::vector<PlanHandle> handles(n);
  const CrowdBatch batch = wb.batch();
  const CrowdOutput out{wb.actions, wb.offset, wb.length, wb.status, handles};
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
