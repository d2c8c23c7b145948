// How a batch's blocks are shared among workers (src/runtime/crowd, task_entry): each worker claims
// from its own home range first, then from the others'. Whatever the worker count (beyond the
// number of home ranges too), whichever workers run and in what order, every block is served once
// and the output is the one-thread output, offsets included.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "crowd_support.h"
#include "topoplan/runtime/crowd.h"

namespace topoplan {
namespace {

using namespace crowd_test;  // NOLINT(google-build-using-namespace)

// A host task system that runs every item on the calling thread, item i with worker index
// index_of(i, items): some workers never run, or one worker runs all items one after another.
struct SerialHost {
  int32_t (*index_of)(int32_t item, int32_t items) = nullptr;
  static void* enqueue(CrowdTaskFn* task, int32_t items, int32_t /*min_range*/, void* ctx,
                       void* user) {
    const auto* self = static_cast<const SerialHost*>(user);
    for (int32_t i = 0; i < items; ++i) task(i, i + 1, self->index_of(i, items), ctx);
    return nullptr;
  }
  static void finish(void* /*handle*/, void* /*user*/) {}
  void install(CrowdDef& def, int32_t workers) {
    def.worker_count = workers;
    def.enqueue_task = &SerialHost::enqueue;
    def.finish_task = &SerialHost::finish;
    def.user_task_context = this;
  }
};

int32_t in_order(int32_t item, int32_t /*items*/) {
  return item;
}
int32_t reversed(int32_t item, int32_t items) {
  return items - 1 - item;
}
int32_t all_last(int32_t /*item*/, int32_t items) {  // one worker runs every item
  return items - 1;
}
int32_t all_first(int32_t /*item*/, int32_t /*items*/) {
  return 0;
}

Results plan_once(const WesternCase& c, const CrowdDef& def) {
  Crowd crowd = Crowd::create(c.planner, def).value();
  Results r(c.t.npc_class.size(), c.capacity);
  const CrowdStats s = crowd.plan(c.t.batch(), r.output());
  EXPECT_TRUE(s.complete);
  EXPECT_EQ(s.served, static_cast<int64_t>(c.t.npc_class.size()));
  return r;
}

TEST(CrowdThreads, EveryBlockServedOnceWhicheverWorkersRun) {
  // 3000 NPCs in blocks of 16: 188 blocks, a last block of 8.
  const WesternCase c(3000, 41, 12, 16);
  // 16 and 17, 40: as many workers as home ranges, and more (ranges shared by several workers).
  for (const int32_t workers : {2, 3, 5, 16, 17, 40}) {
    for (auto* index_of : {&in_order, &reversed, &all_last, &all_first}) {
      SCOPED_TRACE(::testing::Message() << workers << " workers, host " << (void*)index_of);
      SerialHost host{index_of};
      CrowdDef def;
      def.npcs_per_block = 16;
      host.install(def, workers);
      expect_same(c.cold, plan_once(c, def));
    }
  }
}

TEST(CrowdThreads, PoolThreadsMatchOneThreadCopyingAndByHandle) {
  const WesternCase c(4000, 43, 12, 16);
  for (const int32_t threads : {2, 3, 17}) {
    SCOPED_TRACE(threads);
    CrowdThreadPool pool(threads);
    CrowdDef def;
    def.npcs_per_block = 16;
    pool.install(def);
    for (int rep = 0; rep < 3; ++rep) expect_same(c.cold, plan_once(c, def));
    // Warm, with the cache and the worker memos: copying, then by handle.
    PlanCache cache(c.planner, {});
    Crowd warm = make_crowd(c.planner, pool, &cache, 256, def);
    for (int rep = 0; rep < 3; ++rep) {
      Results copied(c.t.npc_class.size(), c.capacity);
      EXPECT_EQ(warm.plan(c.t.batch(), copied.output()).served,
                static_cast<int64_t>(c.t.npc_class.size()));
      expect_same(c.cold, copied);
      Results by_handle(c.t.npc_class.size(), c.capacity, &cache);
      EXPECT_EQ(warm.plan(c.t.batch(), by_handle.output()).served,
                static_cast<int64_t>(c.t.npc_class.size()));
      expect_same(c.cold, by_handle, /*offsets=*/false);
    }
  }
}

TEST(CrowdThreads, FewerBlocksThanWorkers) {
  // 1 to 3 blocks for 8 workers: most home ranges are empty.
  for (const int32_t npcs : {1, 64, 65, 150}) {
    SCOPED_TRACE(npcs);
    const WesternCase c(npcs, 47);
    CrowdThreadPool pool(8);
    CrowdDef def;
    pool.install(def);
    expect_same(c.cold, plan_once(c, def));
    SerialHost host{&reversed};
    CrowdDef serial;
    host.install(serial, 8);
    expect_same(c.cold, plan_once(c, serial));
  }
}

TEST(CrowdThreads, AWorkerDropsItsStaleMemoWhenItNextRuns) {
  // Each worker clears its own memo in its task: a worker that did not run in the batch after an
  // invalidation must not answer from its old memo when it runs again (its handles would be of
  // the old epoch: Results::plan fails to resolve them).
  const WesternCase c(2000, 59, 12, 16);
  PlanCache cache(c.planner, {});
  SerialHost host{&all_last};
  CrowdDef def;
  def.npcs_per_block = 16;
  def.cache = &cache;
  def.worker_memo_entries = 256;
  host.install(def, 2);
  Crowd crowd = Crowd::create(c.planner, def).value();
  auto batch = [&](int32_t (*index_of)(int32_t, int32_t)) {
    host.index_of = index_of;
    Results r(c.t.npc_class.size(), c.capacity, &cache);
    EXPECT_EQ(crowd.plan(c.t.batch(), r.output()).served,
              static_cast<int64_t>(c.t.npc_class.size()));
    expect_same(c.cold, r, /*offsets=*/false);
  };
  batch(&all_last);  // worker 1 fills its memo
  batch(&all_last);  // and answers from it
  cache.invalidate();
  batch(&all_first);  // worker 1 does not run
  batch(&all_last);   // worker 1 again: its memo is of the old epoch
}

}  // namespace
}  // namespace topoplan
