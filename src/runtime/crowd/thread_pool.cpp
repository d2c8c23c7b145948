// CrowdThreadPool: the default task system. threads - 1 pool threads sleep on a condition
// variable; enqueue wakes them, finish makes the calling thread the last worker and waits.
// Items are claimed one at a time from an atomic counter, each run with the claimer's index.
#include <cassert>
#include <chrono>
#include <thread>

#include "topoplan/runtime/crowd.h"

namespace topoplan {

namespace {
constexpr std::chrono::microseconds kFinishSpin{200};

// A spin-wait hint to the core (no syscall); a plain yield where there is none.
inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#else
  std::this_thread::yield();
#endif
}
}  // namespace

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
    assert(self->running_.load(std::memory_order_relaxed) == 0);  // one task at a time
    self->task_ = task;
    self->task_context_ = task_context;
    self->item_count_ = item_count;
    self->next_item_.store(0, std::memory_order_relaxed);
    self->running_.store(self->threads_ - 1, std::memory_order_relaxed);
    ++self->generation_;
  }
  self->wake_.notify_all();
  return self;
}

void CrowdThreadPool::finish(void* user_task, void* /*user_context*/) {
  auto* self = static_cast<CrowdThreadPool*>(user_task);
  self->run_items(self->threads_ - 1);
  // The pool threads are finishing their last items (a few µs): wait for them spinning, up to
  // kFinishSpin, before sleeping on done_ — on a virtual machine a sleep/wake pair cost ~8-10 %
  // of a warm 1M-NPC batch on 2 threads (docs/crowds.md), more than this spin ever burns.
  const auto give_up = std::chrono::steady_clock::now() + kFinishSpin;
  for (int32_t k = 1; self->running_.load(std::memory_order_acquire) != 0; ++k) {
    cpu_relax();
    if (k % 64 == 0 && std::chrono::steady_clock::now() >= give_up) break;
  }
  if (self->running_.load(std::memory_order_acquire) == 0) return;
  std::unique_lock<std::mutex> lock(self->mutex_);
  self->done_.wait(lock, [self] { return self->running_.load(std::memory_order_acquire) == 0; });
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
      if (running_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.notify_all();
    }
  }
}

}  // namespace topoplan
