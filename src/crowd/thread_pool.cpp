// CrowdThreadPool: the default task system. threads - 1 pool threads sleep on a condition
// variable; enqueue wakes them, finish makes the calling thread the last worker and waits.
// Items are claimed one at a time from an atomic counter, each run with the claimer's index.
#include <cassert>

#include "topoplan/crowd.h"

namespace topoplan {

CrowdThreadPool::CrowdThreadPool(int32_t threads) : threads_(threads < 1 ? 1 : threads) {
  pool_.reserve(static_cast<size_t>(threads_ - 1));
  for (int32_t i = 0; i + 1 < threads_; ++i) pool_.emplace_back([this, i] { worker_loop(i); });
}

CrowdThreadPool::~CrowdThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : pool_) t.join();
}

void CrowdThreadPool::install(CrowdDef& def) {
  def.worker_count = threads_;
  def.enqueue_task = &CrowdThreadPool::enqueue;
  def.finish_task = &CrowdThreadPool::finish;
  def.user_task_context = this;
}

void* CrowdThreadPool::enqueue(CrowdTaskFn* task, int32_t item_count, int32_t /*min_range*/,
                               void* task_context, void* user_context) {
  auto* self = static_cast<CrowdThreadPool*>(user_context);
  if (self->threads_ == 1) {  // nothing to hand over: run it here
    for (int32_t i = 0; i < item_count; ++i) task(i, i + 1, 0, task_context);
    return nullptr;
  }
  {
    std::lock_guard<std::mutex> lock(self->mutex_);
    assert(self->running_ == 0);  // one task at a time
    self->task_ = task;
    self->task_context_ = task_context;
    self->item_count_ = item_count;
    self->next_item_.store(0, std::memory_order_relaxed);
    self->running_ = self->threads_ - 1;
    ++self->generation_;
  }
  self->wake_.notify_all();
  return self;
}

void CrowdThreadPool::finish(void* user_task, void* /*user_context*/) {
  auto* self = static_cast<CrowdThreadPool*>(user_task);
  self->run_items(self->threads_ - 1);
  std::unique_lock<std::mutex> lock(self->mutex_);
  self->done_.wait(lock, [self] { return self->running_ == 0; });
}

void CrowdThreadPool::run_items(int32_t worker) {
  while (true) {
    const int32_t i = next_item_.fetch_add(1, std::memory_order_relaxed);
    if (i >= item_count_) break;
    task_(i, i + 1, worker, task_context_);
  }
}

void CrowdThreadPool::worker_loop(int32_t index) {
  uint64_t seen = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    run_items(index);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--running_ == 0) done_.notify_all();
    }
  }
}

}  // namespace topoplan
