// topoplan crowd's measurements: see crowd_measure.h.
#include "crowd_measure.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>  // no-ops unless run under callgrind
#define TOPOPLAN_CALLGRIND 1
#endif

#include "topoplan/runtime/random.h"

namespace topoplan::cli::crowd_bench {

void set_chain(const CrowdOptions& o, CrowdDef& def) {
  def.fallback = parse_planner_chain(o.fallback);
  def.fallback_budget = o.fallback_budget;
  for (const std::string& entry : o.class_fallback) {
    const size_t eq = entry.find('=');
    def.class_fallback.emplace_back(entry.substr(0, eq), parse_planner_chain(entry.substr(eq + 1)));
  }
}

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// CPU seconds of the whole process (all threads): time spent running, not waiting for a core.
double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// CPU seconds of the calling thread.
double thread_cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// Instruction counts of the measured batch calls only: `valgrind --tool=callgrind
// --collect-atstart=no --separate-threads=yes topoplan crowd ...` writes one dump per phase
// ("cold-T", "warm-T", T = threads) and per thread. Collection is toggled per thread, inside
// each worker's task (TimedTasks::run).
void callgrind_toggle() {
#ifdef TOPOPLAN_CALLGRIND
  CALLGRIND_TOGGLE_COLLECT;
#endif
}
void callgrind_dump(const std::string& name) {
#ifdef TOPOPLAN_CALLGRIND
  CALLGRIND_DUMP_STATS_AT(name.c_str());
#else
  (void)name;
#endif
}

// A host task system in front of the built-in pool (through CrowdDef's hook) that adds up the
// CPU time each worker spends inside the batch. The largest is what the batch would take if
// every worker had a core to itself, however busy the machine is.
class TimedTasks {
 public:
  TimedTasks(CrowdDef& def, int32_t workers)
      : enqueue_(def.enqueue_task),
        finish_(def.finish_task),
        user_(def.user_task_context),
        cpu_(static_cast<size_t>(workers) * kStride, 0.0) {
    def.enqueue_task = &TimedTasks::enqueue;
    def.finish_task = &TimedTasks::finish;
    def.user_task_context = this;
  }
  void reset() { std::fill(cpu_.begin(), cpu_.end(), 0.0); }
  void set_collect(bool collect) { collect_ = collect; }
  [[nodiscard]] double max_worker_cpu_s() const {
    return *std::max_element(cpu_.begin(), cpu_.end());
  }

 private:
  static constexpr size_t kStride = 8;  // one cache line per worker's sum
  static void* enqueue(CrowdTaskFn* task, int32_t items, int32_t min_range, void* ctx, void* user) {
    auto* self = static_cast<TimedTasks*>(user);
    self->task_ = task;
    self->ctx_ = ctx;
    return self->enqueue_(&TimedTasks::run, items, min_range, self, self->user_);
  }
  static void finish(void* handle, void* user) {
    auto* self = static_cast<TimedTasks*>(user);
    self->finish_(handle, self->user_);
  }
  static void run(int32_t begin, int32_t end, int32_t worker, void* context) {
    auto* self = static_cast<TimedTasks*>(context);
    const double t0 = thread_cpu_s();
    if (self->collect_) callgrind_toggle();
    self->task_(begin, end, worker, self->ctx_);
    if (self->collect_) callgrind_toggle();
    self->cpu_[static_cast<size_t>(worker) * kStride] += thread_cpu_s() - t0;
  }
  CrowdEnqueueFn* enqueue_;
  CrowdFinishFn* finish_;
  void* user_;
  CrowdTaskFn* task_ = nullptr;
  void* ctx_ = nullptr;
  bool collect_ = false;
  std::vector<double> cpu_;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

void count_chain(const std::vector<CrowdStatus>& status, Measured& m) {
  for (const CrowdStatus st : status) {
    const bool fallback = (st & kCrowdFallback) != 0;
    if (st & kCrowdSolved)
      ++(fallback ? m.solved_fallback : m.solved_topo);
    else if (st & kCrowdUnsolvable)
      ++(fallback ? m.unsolvable_fallback : m.unsolvable_topo);
    else if (st & kCrowdNoPlan)
      ++m.no_plan;
    else if (st & kCrowdBadInput)
      ++m.bad_input;
    else if (st & kCrowdBufferTooSmall)
      ++m.too_small;
  }
}

// The output arrays of one pass over `n` NPCs, copied (`out`) or by handle (`warm_out`).
struct Buffers {
  std::vector<ActionId> actions;
  std::vector<uint32_t> offset;
  std::vector<uint16_t> length;
  std::vector<CrowdStatus> status;
  std::vector<PlanHandle> handles;
  Buffers(size_t n, const CrowdOptions& o)
      : actions(n * static_cast<size_t>(o.actions_per_npc)),
        offset(n),
        length(n),
        status(n),
        handles(o.handles ? n : 0) {}
  CrowdOutput out() { return {actions, offset, length, status}; }
  CrowdOutput warm_out() { return {actions, offset, length, status, handles}; }
};

// Wall, process CPU and the busiest worker's CPU of each pass, and their medians.
struct Times {
  std::vector<double> wall, cpu, worker_cpu;
  template <class F>
  auto time(TimedTasks& timed, F&& pass) {
    timed.reset();
    const double c0 = cpu_s();
    const double t0 = now_s();
    timed.set_collect(true);
    auto result = pass();
    timed.set_collect(false);
    wall.push_back(now_s() - t0);
    cpu.push_back(cpu_s() - c0);
    worker_cpu.push_back(timed.max_worker_cpu_s());
    return result;
  }
};

// The cold batches (--reps): times, the solved share and the mean plan length.
void measure_cold(Crowd& cold, const CrowdBatch& batch, Buffers& b, TimedTasks& timed,
                  const CrowdOptions& o, Progress& progress, Measured& m) {
  const double n = static_cast<double>(b.status.size());
  Times t;
  for (int32_t r = 0; r < o.reps; ++r) {
    const CrowdStats s = t.time(timed, [&] { return cold.plan(batch, b.out()); });
    m.solved_fraction = static_cast<double>(s.solved) / n;
    progress.step("cold");
  }
  m.cold_s = median(t.wall);
  m.cold_cpu_s = median(t.cpu);
  m.cold_worker_cpu_s = median(t.worker_cpu);
  int64_t total_len = 0;
  for (size_t i = 0; i < b.status.size(); ++i)
    if (b.status[i] & kCrowdSolved) total_len += b.length[i];
  m.mean_length = static_cast<double>(total_len) / std::max(1.0, m.solved_fraction * n);
}

// Frames of 1.67 ms over the whole batch, cold: how many NPCs wait as pending per frame.
void measure_pending(Crowd& cold, const CrowdBatch& batch, Buffers& b, Measured& m) {
  count_chain(b.status, m);
  CrowdCursor cursor;
  int64_t pending_sum = 0;
  for (int64_t f = 0; f < 10'000'000; ++f) {
    const CrowdStats s = cold.plan_frame(batch, b.out(), &cursor);
    ++m.chain_frames;
    m.pending_max = std::max(m.pending_max, s.pending);
    pending_sum += s.pending;
    m.resumed += s.resumed;
    if (s.complete) break;
  }
  m.pending_mean = static_cast<double>(pending_sum) / static_cast<double>(m.chain_frames);
}

// The warm frames: churn, a batch through the plan cache, and (with `frames`) a warm and a cold
// frame of 1.67 ms; times, NPCs per frame, the cache's hit rate, the NPCs answered by handle.
void measure_warm(const CrowdPlanner& planner, CrowdTown& town, const CrowdBatch& batch,
                  Crowd& cold, Buffers& b, const CrowdDef& cold_def, TimedTasks& timed,
                  const CrowdOptions& o, Progress& progress, bool frames, Measured& m) {
  PlanCacheDef cache_def;
  cache_def.capacity = o.cache_entries;
  cache_def.max_plan_length = std::max(cache_def.max_plan_length, o.actions_per_npc);
  PlanCache cache(planner, cache_def);
  CrowdDef warm_def = cold_def;
  warm_def.cache = &cache;
  warm_def.worker_memo_entries = o.memo_entries;
  Crowd warm = Crowd::create(planner, warm_def).value();
  (void)warm.plan(batch, b.warm_out());  // fill the cache
  SplitMix64 rng(o.seed * 31 + 7);
  const auto churned = static_cast<int64_t>(o.churn * static_cast<double>(b.status.size()));
  Times t;
  std::vector<double> frame_npcs, frame_npcs_cold;
  const PlanCacheStats before = cache.stats();
  for (int32_t f = 0; f < o.frames; ++f) {
    for (int64_t k = 0; k < churned; ++k)
      town.reassign(rng.below(static_cast<int32_t>(std::min<int64_t>(o.npcs, INT32_MAX))), rng);
    (void)t.time(timed, [&] { return warm.plan(batch, b.warm_out()); });
    if (frames) {
      CrowdCursor cursor;
      frame_npcs.push_back(
          static_cast<double>(warm.plan_frame(batch, b.warm_out(), &cursor).served));
      CrowdCursor cursor2;
      frame_npcs_cold.push_back(
          static_cast<double>(cold.plan_frame(batch, b.out(), &cursor2).served));
    }
    progress.step("warm frames");
  }
  const PlanCacheStats after = cache.stats();
  m.warm_s = median(t.wall);
  m.warm_cpu_s = median(t.cpu);
  m.warm_worker_cpu_s = median(t.worker_cpu);
  m.frame_npcs = median(frame_npcs);
  m.frame_npcs_cold = median(frame_npcs_cold);
  const auto lookups =
      static_cast<double>((after.hits - before.hits) + (after.misses - before.misses));
  m.hit_rate = lookups > 0 ? static_cast<double>(after.hits - before.hits) / lookups : 0;
  if (o.handles) {
    for (const PlanHandle& h : b.handles) m.by_handle += !h.empty();
    m.table_used = after.table_used;
  }
}
}  // namespace

Measured measure(const CrowdPlanner& planner, CrowdTown& town, const CrowdOptions& o,
                 int32_t threads, Progress& progress, bool frames) {
  Buffers b(static_cast<size_t>(o.npcs), o);
  const CrowdBatch batch = town.batch();
  CrowdThreadPool pool(threads);
  Measured m;
  CrowdDef cold_def;
  set_chain(o, cold_def);
  pool.install(cold_def);
  TimedTasks timed(cold_def, threads);
  Crowd cold = Crowd::create(planner, cold_def).value();
  const std::string tag = "-" + std::to_string(threads);
  measure_cold(cold, batch, b, timed, o, progress, m);
  callgrind_dump("cold" + tag);
  if (frames) measure_pending(cold, batch, b, m);
  measure_warm(planner, town, batch, cold, b, cold_def, timed, o, progress, frames, m);
  callgrind_dump("warm" + tag);
  return m;
}

// The action room per NPC when --actions-per-npc does not give one: the longest plan any NPC
// of the town gets (ℙ's, or the chain's, which may repeat actions), at least `least` and at most
// the flag's 255. A room of the longest plan fits every NPC's plan in its block's slice, so no
// NPC of the town is "buffer too small"; a fixed room does not suit every file (dogoap-miner's
// A* plans average 26 actions, the longest 32). One batch through a crowd with the run's chain
// and a plan cache finds it: each distinct situation is planned once, the rest are hits, and an
// NPC whose plan does not fit the first room still reports its length.
int32_t town_action_room(const CrowdPlanner& planner, const CrowdTown& town, const CrowdOptions& o,
                         int32_t least) {
  const CrowdBatch batch = town.batch();
  const size_t n = batch.npc_class.size();
  std::vector<ActionId> actions(n * static_cast<size_t>(least));
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n);
  std::vector<CrowdStatus> status(n);
  PlanCacheDef cache_def;
  cache_def.capacity = o.cache_entries;
  cache_def.max_plan_length = 255;
  PlanCache cache(planner, cache_def);
  CrowdDef def;
  set_chain(o, def);
  def.cache = &cache;
  Crowd crowd = Crowd::create(planner, def).value();  // the chain was checked by run_crowd
  (void)crowd.plan(batch, CrowdOutput{actions, offset, length, status});
  int32_t longest = least;
  for (size_t i = 0; i < n; ++i)
    if (status[i] & (kCrowdSolved | kCrowdBufferTooSmall))
      longest = std::max(longest, static_cast<int32_t>(length[i]));
  return std::min(longest, 255);
}

// Rough single-thread memory bandwidth: memcpy between two buffers of `bytes` (read + write).
// Sized like the batch's input and output (at least 4 MB), so the probe costs no more memory
// than the batch and measures the level of the memory hierarchy the batch streams from.
double memcpy_gbps(size_t bytes) {
  std::vector<char> a(bytes, 1), b(bytes, 2);
  double best = 1e30;
  for (int r = 0; r < 4; ++r) {
    const double t0 = now_s();
    std::memcpy(b.data(), a.data(), bytes);
    best = std::min(best, now_s() - t0);
    a[static_cast<size_t>(r)] = b[static_cast<size_t>(r) + 1];
  }
  return 2.0 * static_cast<double>(bytes) / best / 1e9;  // bytes read + written
}

double load_average() {
  double l[1] = {0};
  return getloadavg(l, 1) == 1 ? l[0] : -1;
}

}  // namespace topoplan::cli::crowd_bench
