// topoplan crowd: the crowd benchmark. A town of N NPCs (topoplan/tools/town.h: a built-in town by
// name, or any domain file whose instances serve as routines; docs/crowds.md), planned cold (no
// cache, every NPC through ℙ), warm (plan cache, steady state with churn) and a frame at a time
// (1.67 ms budget). Medians over repetitions; --json prints one object.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>  // no-ops unless run under callgrind
#define TOPOPLAN_CALLGRIND 1
#endif

#include "commands.h"
#include "numeric_option.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/town.h"

namespace topoplan::cli {
namespace {

struct CrowdOptions {
  std::string domain = "western";  // a built-in town or a domain file
  int64_t npcs = 100'000;
  int32_t threads = 1;
  int32_t frames = 10;
  int32_t reps = 5;
  double churn = 0.05;
  int32_t situations_per_class = 64;
  int32_t cache_entries = 1 << 14;
  // Action buffer: NPCs × this; cached plans: at most max(16, this). Unless --actions-per-npc
  // gives it, the longest plan the town's NPCs get (at least 12: town_action_room).
  int32_t actions_per_npc = 12;
  bool actions_per_npc_given = false;
  int32_t memo_entries = CrowdDef{}.worker_memo_entries;
  bool json = false;
  bool no_baseline = false;
  bool handles = false;        // warm batches and frames answer by plan handle (crowd.h)
  bool partial_goals = false;  // goals name only the class's variables (TownDef::partial_goals)
  uint64_t seed = 1;
  std::string fallback = "astar";  // planner chain after ℙ, comma-separated; "none": ℙ only
  std::vector<std::string> class_fallback;  // CLASS=PLANNER[,PLANNER...]: a class's own chain
  int64_t fallback_budget = CrowdDef{}.fallback_budget;
};

// A --class-fallback value: "" when it reads CLASS=PLANNER[,PLANNER...], else the reason (the
// names are checked by Crowd::create once the domain is loaded).
std::string check_class_fallback(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return "expected CLASS=PLANNER[,PLANNER...] (or CLASS=none), got '" + text + "'";
  return "";
}

// The planner chain of the options in a CrowdDef: --fallback, --class-fallback, the budget.
void set_chain(const CrowdOptions& o, CrowdDef& def) {
  def.fallback = parse_planner_chain(o.fallback);
  def.fallback_budget = o.fallback_budget;
  for (const std::string& entry : o.class_fallback) {
    const size_t eq = entry.find('=');
    def.class_fallback.emplace_back(entry.substr(0, eq), parse_planner_chain(entry.substr(eq + 1)));
  }
}

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

// Progress on stderr, only when it is a terminal.
class Progress {
 public:
  explicit Progress(int64_t total) : total_(total), tty_(isatty(2) != 0) {}
  void step(const char* what) {
    ++done_;
    if (!tty_) return;
    const int width = 30;
    const auto filled = static_cast<int>(width * done_ / std::max<int64_t>(total_, 1));
    std::fprintf(stderr, "\r[%.*s%*s] %3lld%% %-24s", filled, "##############################",
                 width - filled, "",
                 static_cast<long long>(100 * done_ / std::max<int64_t>(total_, 1)), what);
    std::fflush(stderr);
  }
  ~Progress() {
    if (tty_) std::fprintf(stderr, "\r%*s\r", 70, "");
  }

 private:
  int64_t total_;
  int64_t done_ = 0;
  bool tty_;
};

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

struct Measured {
  double cold_s = 0, warm_s = 0, cold_cpu_s = 0, warm_cpu_s = 0, cold_worker_cpu_s = 0,
         warm_worker_cpu_s = 0, frame_npcs = 0, frame_npcs_cold = 0, hit_rate = 0;
  double solved_fraction = 0, mean_length = 0;
  // The planner chain on the cold batch (shares of the town): who answered.
  int64_t solved_topo = 0, solved_fallback = 0, unsolvable_topo = 0, unsolvable_fallback = 0,
          no_plan = 0, bad_input = 0, too_small = 0;
  // A pass of cold frames (plan_frame, 1.67 ms budget, no cache) until the batch is complete.
  int64_t chain_frames = 0, pending_max = 0, resumed = 0;
  double pending_mean = 0;
  int64_t by_handle = 0, table_used = 0;  // --handles: NPCs of the last warm batch by handle
};

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

Measured measure(const CrowdPlanner& planner, CrowdTown& town, const CrowdOptions& o,
                 int32_t threads, Progress& progress, bool frames) {
  const auto n = static_cast<size_t>(o.npcs);
  std::vector<ActionId> actions(n * static_cast<size_t>(o.actions_per_npc));
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n);
  std::vector<CrowdStatus> status(n);
  std::vector<PlanHandle> handles(o.handles ? n : 0);
  const CrowdOutput out{actions, offset, length, status};
  const CrowdOutput warm_out{actions, offset, length, status, handles};
  const CrowdBatch batch = town.batch();
  CrowdThreadPool pool(threads);
  Measured m;

  CrowdDef cold_def;
  set_chain(o, cold_def);
  pool.install(cold_def);
  TimedTasks timed(cold_def, threads);
  Crowd cold = Crowd::create(planner, cold_def).value();
  std::vector<double> t, cpu, worker_cpu;
  const std::string tag = "-" + std::to_string(threads);
  for (int32_t r = 0; r < o.reps; ++r) {
    timed.reset();
    const double c0 = cpu_s();
    const double t0 = now_s();
    timed.set_collect(true);
    const CrowdStats s = cold.plan(batch, out);
    timed.set_collect(false);
    t.push_back(now_s() - t0);
    cpu.push_back(cpu_s() - c0);
    worker_cpu.push_back(timed.max_worker_cpu_s());
    m.solved_fraction = static_cast<double>(s.solved) / static_cast<double>(n);
    progress.step("cold");
  }
  m.cold_s = median(t);
  m.cold_cpu_s = median(cpu);
  m.cold_worker_cpu_s = median(worker_cpu);
  callgrind_dump("cold" + tag);
  cpu.clear();
  worker_cpu.clear();
  int64_t total_len = 0;
  for (size_t i = 0; i < n; ++i)
    if (status[i] & kCrowdSolved) total_len += length[i];
  m.mean_length =
      static_cast<double>(total_len) / std::max(1.0, m.solved_fraction * static_cast<double>(n));
  if (frames) {
    count_chain(status, m);
    // Frames of 1.67 ms over the whole batch, cold: how many NPCs wait as pending per frame.
    CrowdCursor cursor;
    int64_t pending_sum = 0;
    for (int64_t f = 0; f < 10'000'000; ++f) {
      const CrowdStats s = cold.plan_frame(batch, out, &cursor);
      ++m.chain_frames;
      m.pending_max = std::max(m.pending_max, s.pending);
      pending_sum += s.pending;
      m.resumed += s.resumed;
      if (s.complete) break;
    }
    m.pending_mean = static_cast<double>(pending_sum) / static_cast<double>(m.chain_frames);
  }

  PlanCacheDef cache_def;
  cache_def.capacity = o.cache_entries;
  cache_def.max_plan_length = std::max(cache_def.max_plan_length, o.actions_per_npc);
  PlanCache cache(planner, cache_def);
  CrowdDef warm_def = cold_def;
  warm_def.cache = &cache;
  warm_def.worker_memo_entries = o.memo_entries;
  Crowd warm = Crowd::create(planner, warm_def).value();
  (void)warm.plan(batch, warm_out);  // fill the cache
  SplitMix64 rng(o.seed * 31 + 7);
  const auto churned = static_cast<int64_t>(o.churn * static_cast<double>(n));
  t.clear();
  std::vector<double> frame_npcs, frame_npcs_cold;
  const PlanCacheStats before = cache.stats();
  for (int32_t f = 0; f < o.frames; ++f) {
    for (int64_t k = 0; k < churned; ++k)
      town.reassign(rng.below(static_cast<int32_t>(std::min<int64_t>(o.npcs, INT32_MAX))), rng);
    timed.reset();
    const double c0 = cpu_s();
    const double t0 = now_s();
    timed.set_collect(true);
    (void)warm.plan(batch, warm_out);
    timed.set_collect(false);
    t.push_back(now_s() - t0);
    cpu.push_back(cpu_s() - c0);
    worker_cpu.push_back(timed.max_worker_cpu_s());
    if (frames) {
      CrowdCursor cursor;
      frame_npcs.push_back(static_cast<double>(warm.plan_frame(batch, warm_out, &cursor).served));
      CrowdCursor cursor2;
      frame_npcs_cold.push_back(static_cast<double>(cold.plan_frame(batch, out, &cursor2).served));
    }
    progress.step("warm frames");
  }
  const PlanCacheStats after = cache.stats();
  m.warm_s = median(t);
  m.warm_cpu_s = median(cpu);
  m.warm_worker_cpu_s = median(worker_cpu);
  callgrind_dump("warm" + tag);
  m.frame_npcs = median(frame_npcs);
  m.frame_npcs_cold = median(frame_npcs_cold);
  const auto lookups =
      static_cast<double>((after.hits - before.hits) + (after.misses - before.misses));
  m.hit_rate = lookups > 0 ? static_cast<double>(after.hits - before.hits) / lookups : 0;
  if (o.handles) {
    for (size_t i = 0; i < n; ++i) m.by_handle += !handles[i].empty();
    m.table_used = after.table_used;
  }
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

// What run_crowd measured, and the figures it reports from it (JSON or text).
struct Report {
  const CrowdOptions& o;
  const CrowdPlanner& planner;
  const Measured& m;
  const Measured& one;  // the 1-thread baseline (with `baseline`)
  int64_t distinct = 0;
  bool baseline = false;
  double load_before = 0;
  double out_bytes = 0;  // per NPC
  double bw = 0;         // memcpy GB/s
  std::vector<std::string> part_classes{};
  double n = static_cast<double>(o.npcs);
  double cold_ns = m.cold_s * 1e9 * o.threads / n;  // per NPC per core
  double warm_ns = m.warm_s * 1e9 * o.threads / n;

  nlohmann::json json() const;
  void print() const;
};

nlohmann::json Report::json() const {
  nlohmann::json j;
  j["domain"] = o.domain;
  j["npcs"] = o.npcs;
  j["threads"] = o.threads;
  j["hardware_threads"] = std::thread::hardware_concurrency();
  j["frames"] = o.frames;
  j["reps"] = o.reps;
  j["churn_per_frame"] = o.churn;
  j["classes"] = planner.num_classes();
  j["distinct_situations"] = distinct;
  j["solved_fraction"] = m.solved_fraction;
  j["fallback"] = o.fallback;
  if (!o.class_fallback.empty()) j["class_fallback"] = o.class_fallback;
  j["fallback_budget"] = o.fallback_budget;
  j["partial_goals"] = o.partial_goals;
  j["topo_part_classes"] = part_classes;
  j["solved_by_topo"] = static_cast<double>(m.solved_topo) / n;
  j["solved_by_fallback"] = static_cast<double>(m.solved_fallback) / n;
  j["unsolvable_by_topo"] = static_cast<double>(m.unsolvable_topo) / n;
  j["unsolvable_by_fallback"] = static_cast<double>(m.unsolvable_fallback) / n;
  j["no_plan"] = static_cast<double>(m.no_plan) / n;
  j["buffer_too_small"] = static_cast<double>(m.too_small) / n;
  j["bad_input"] = static_cast<double>(m.bad_input) / n;
  j["cold_frames_to_complete"] = m.chain_frames;
  j["pending_max_per_frame"] = m.pending_max;
  j["pending_mean_per_frame"] = m.pending_mean;
  j["pending_resumed"] = m.resumed;
  j["mean_plan_length"] = m.mean_length;
  j["npcs_per_second"] = n / m.warm_s;
  j["npcs_per_second_cold"] = n / m.cold_s;
  j["cold_ns_per_npc_per_core"] = cold_ns;
  j["warm_ns_per_npc_per_core"] = warm_ns;
  // CPU time (all threads) per NPC: what a core spends, whatever else the machine runs.
  j["cold_cpu_ns_per_npc"] = m.cold_cpu_s * 1e9 / n;
  j["warm_cpu_ns_per_npc"] = m.warm_cpu_s * 1e9 / n;
  j["load_average_before"] = load_before;
  j["load_average"] = load_average();
  // The largest per-worker CPU time of a batch, per NPC: the batch time if every worker had
  // a core of its own.
  j["cold_worker_cpu_max_ns_per_npc"] = m.cold_worker_cpu_s * 1e9 / n;
  j["warm_worker_cpu_max_ns_per_npc"] = m.warm_worker_cpu_s * 1e9 / n;
  j["cache_hit_rate"] = m.hit_rate;
  j["memo_entries"] = o.memo_entries;
  j["actions_per_npc"] = o.actions_per_npc;
  j["actions_per_npc_given"] = o.actions_per_npc_given;
  j["handles"] = o.handles;
  if (o.handles) {
    j["answered_by_handle"] = static_cast<double>(m.by_handle) / n;
    j["plan_table_used"] = m.table_used;
  }
  j["npcs_per_frame"] = m.frame_npcs;
  j["npcs_per_frame_cold"] = m.frame_npcs_cold;
  j["frame_budget_ms"] = 1.67;
  j["bytes_per_npc"] = planner.layout().bytes_per_npc();
  j["output_bytes_per_npc"] = out_bytes;
  j["memcpy_gbps"] = bw;
  j["bandwidth_floor_ns_per_npc"] = (planner.layout().bytes_per_npc() + out_bytes) / bw;
  if (baseline) {
    j["cold_speedup_vs_1_thread"] = one.cold_s / m.cold_s;
    j["warm_speedup_vs_1_thread"] = one.warm_s / m.warm_s;
    // Speed-up if each worker had its own core: 1-thread CPU time / largest worker CPU time.
    j["cold_cpu_speedup_vs_1_thread"] = one.cold_worker_cpu_s / m.cold_worker_cpu_s;
    j["warm_cpu_speedup_vs_1_thread"] = one.warm_worker_cpu_s / m.warm_worker_cpu_s;
  }
  return j;
}

void Report::print() const {
  std::string chain = o.fallback;  // with the per-class chains, e.g. "astar (Cook=none)"
  for (size_t i = 0; i < o.class_fallback.size(); ++i)
    chain += (i == 0 ? " (" : ", ") + o.class_fallback[i];
  if (!o.class_fallback.empty()) chain += ")";
  std::printf(
      "crowd %s: %lld NPC%s, %d thread%s (%u hardware), %lld distinct situations, "
      "%.0f%% solved, mean plan %.1f actions\n",
      o.domain.c_str(), static_cast<long long>(o.npcs), o.npcs == 1 ? "" : "s", o.threads,
      o.threads == 1 ? "" : "s", std::thread::hardware_concurrency(),
      static_cast<long long>(distinct), 100 * m.solved_fraction, m.mean_length);
  std::printf(
      "  chain %s: solved by ℙ %.1f%%, by the fallback %.1f%%; unsolvable proved by ℙ %.1f%%, "
      "by the fallback %.1f%%; no plan %.1f%%",
      chain.c_str(), 100.0 * static_cast<double>(m.solved_topo) / n,
      100.0 * static_cast<double>(m.solved_fallback) / n,
      100.0 * static_cast<double>(m.unsolvable_topo) / n,
      100.0 * static_cast<double>(m.unsolvable_fallback) / n,
      100.0 * static_cast<double>(m.no_plan) / n);
  if (!part_classes.empty()) {
    std::printf("; ℙ on part of class");
    for (size_t k = 0; k < part_classes.size(); ++k)
      std::printf("%s%s", k == 0 ? " " : ", ", part_classes[k].c_str());
  }
  if (m.bad_input + m.too_small > 0)
    std::printf("; bad input %lld, buffer too small %lld", static_cast<long long>(m.bad_input),
                static_cast<long long>(m.too_small));
  std::printf(
      "\n  pending (budget %lld expansions/NPC): %lld max, %.1f mean per cold frame, %lld "
      "frames of 1.67 ms to complete, %lld resumed\n",
      static_cast<long long>(o.fallback_budget), static_cast<long long>(m.pending_max),
      m.pending_mean, static_cast<long long>(m.chain_frames), static_cast<long long>(m.resumed));
  std::printf("  cold  %8.1f ns/NPC/core  (%.3g NPCs/s; CPU time %.1f ns/NPC)\n", cold_ns,
              n / m.cold_s, m.cold_cpu_s * 1e9 / n);
  std::printf("  warm CPU time %.1f ns/NPC; load average %.2f\n", m.warm_cpu_s * 1e9 / n,
              load_average());
  std::printf(
      "  warm  %8.1f ns/NPC/core  (%.3g NPCs/s, cache hit rate %.1f%%, churn %.0f%%/frame)\n",
      warm_ns, n / m.warm_s, 100 * m.hit_rate, 100 * o.churn);
  if (o.handles)
    std::printf("  handles: %.1f%% of the last warm batch answered by handle, table %lld slots\n",
                100.0 * static_cast<double>(m.by_handle) / n, static_cast<long long>(m.table_used));
  std::printf("  frame %8.0f NPCs in 1.67 ms warm, %.0f cold\n", m.frame_npcs, m.frame_npcs_cold);
  std::printf(
      "  input %d bytes/NPC, output room %d actions/NPC (%s), memcpy %.1f GB/s\n",
      planner.layout().bytes_per_npc(), o.actions_per_npc,
      o.actions_per_npc_given ? "--actions-per-npc" : "the town's longest plan, at least 12", bw);
  if (baseline)
    std::printf(
        "  speedup vs 1 thread: wall cold %.2fx, warm %.2fx; per-worker CPU cold %.2fx, "
        "warm %.2fx (load average %.2f before, %.2f after)\n",
        one.cold_s / m.cold_s, one.warm_s / m.warm_s, one.cold_worker_cpu_s / m.cold_worker_cpu_s,
        one.warm_worker_cpu_s / m.warm_worker_cpu_s, load_before, load_average());
}

int run_crowd(CrowdOptions o) {
  // A built-in town by name, else a domain file (its instances are the routines).
  Task task;
  if (Result<Task> builtin = town_task(o.domain); builtin.ok()) {
    task = std::move(builtin).value();
  } else if (o.domain.find('.') == std::string::npos && o.domain.find('/') == std::string::npos) {
    std::fprintf(stderr, "topoplan crowd: %s, or a domain file\n", builtin.error().message.c_str());
    return kExitUsage;
  } else {
    std::optional<Task> loaded = load_task_only(o.domain);
    if (!loaded) return kExitInputError;
    task = std::move(*loaded);
  }
  Result<CrowdPlanner> planner = CrowdPlanner::create(task.domain);
  if (!planner.ok()) {
    std::fprintf(stderr, "topoplan crowd: %s\n", planner.error().message.c_str());
    return kExitInputError;
  }
  TownDef town_def;
  town_def.npcs = o.npcs;
  town_def.situations_per_class = o.situations_per_class;
  town_def.seed = o.seed;
  town_def.partial_goals = o.partial_goals;
  Result<CrowdTown> created = CrowdTown::create(task, *planner, town_def);
  if (!created.ok()) {
    std::fprintf(stderr, "topoplan crowd: %s\n", created.error().message.c_str());
    return kExitUsage;
  }
  CrowdTown& town = created.value();
  {
    CrowdDef check;
    set_chain(o, check);
    if (Result<Crowd> crowd = Crowd::create(*planner, check); !crowd.ok()) {
      std::fprintf(stderr, "topoplan crowd: %s\n", crowd.error().message.c_str());
      return kExitUsage;
    }
  }
  if (!o.actions_per_npc_given)
    o.actions_per_npc = town_action_room(*planner, town, o, o.actions_per_npc);
  const int64_t distinct = town.distinct_situations();
  const bool baseline = o.threads > 1 && !o.no_baseline;
  const double load_before = load_average();
  Progress progress(static_cast<int64_t>(o.reps + o.frames) * (baseline ? 2 : 1));
  // The 1-thread run of the speed-ups does what the T-thread run did, on the same town: its
  // warm frames churned the town, so the baseline starts from a copy of the town as it was, and
  // it runs the same frames (a frame pass after the cold batches, a warm and a cold frame after
  // each warm batch), so that its warm batches follow the same work as the T-thread ones.
  std::optional<CrowdTown> start;
  if (baseline) start = town;
  const Measured m = measure(*planner, town, o, o.threads, progress, true);
  Measured one;
  if (baseline) {
    town = *start;
    one = measure(*planner, town, o, 1, progress, true);
  }
  Report r{o, *planner, m, one, distinct, baseline, load_before};
  // offset, length, status + the plan (or, with handles, the 8-byte handle)
  r.out_bytes = o.handles ? 16.0 : 8.0 + 4.0 * m.mean_length;
  const double batch_bytes =
      static_cast<double>(o.npcs) * (planner->layout().bytes_per_npc() + r.out_bytes);
  r.bw = memcpy_gbps(std::max<size_t>(size_t{4} << 20, static_cast<size_t>(batch_bytes)));
  // Classes ℙ takes only part of (CrowdPlanner::topo_part): the chain answers the rest.
  for (int32_t c = 0; c < planner->num_classes(); ++c)
    if (planner->topo_part(c))
      r.part_classes.push_back(task.domain.num_classes() ? task.domain.class_name(c) : "(all)");
  if (o.json)
    std::printf("%s\n", r.json().dump().c_str());
  else
    r.print();
  return kExitOk;
}

}  // namespace

void add_crowd_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CrowdOptions>();
  CLI::App* cmd =
      app.add_subcommand("crowd", "Benchmark plans for a town of NPCs (docs/crowds.md)");
  cmd->add_option("--domain", options->domain,
                  "a built-in town (western, western-pus, goap-level) or a domain file (.toml, "
                  ".sas) whose instances serve as routines")
      ->capture_default_str();
  add_limit(*cmd, limits::kTownNpcs, options->npcs, "NPCs in the town")->capture_default_str();
  add_limit(*cmd, limits::kCrowdThreads, options->threads, "worker threads (built-in pool)")
      ->capture_default_str();
  add_number(*cmd, "--frames", options->frames, 1, 1'000'000, "warm frames measured")
      ->capture_default_str();
  add_number(*cmd, "--reps", options->reps, 1, 1000, "cold repetitions")->capture_default_str();
  add_number(*cmd, "--churn", options->churn, 0.0, 1.0,
             "fraction of NPCs whose situation changes per frame")
      ->capture_default_str();
  add_limit(*cmd, limits::kTownSituations, options->situations_per_class,
            "distinct (s0, goal) situations per class")
      ->capture_default_str();
  add_number(*cmd, "--cache-entries", options->cache_entries, 1, 1 << 22, "plan cache capacity")
      ->capture_default_str();
  CLI::Option* room = add_number(
      *cmd, "--actions-per-npc", options->actions_per_npc, 1, 255,
      "action buffer per NPC (plans longer than the room left are 'buffer too small'); the cache "
      "keeps plans of up to max(16, this) actions. Default: the longest plan of the town's NPCs, "
      "at least 12");
  add_number(*cmd, "--memo-entries", options->memo_entries, 0, 1 << 20,
             "per-worker memo in front of the plan cache (0: none)")
      ->capture_default_str();
  add_number(*cmd, "--seed", options->seed, uint64_t{0}, UINT64_MAX, "town seed")
      ->capture_default_str();
  cmd->add_option("--fallback", options->fallback,
                  "planners tried after ℙ when it gives up, comma-separated registry names; "
                  "none: ℙ only")
      ->capture_default_str();
  cmd->add_option("--class-fallback", options->class_fallback,
                  "CLASS=PLANNER[,PLANNER...]: NPC class CLASS's own chain instead of --fallback "
                  "(CLASS=none: ℙ only); repeatable")
      ->check(CLI::Validator([](std::string& s) { return check_class_fallback(s); },
                             "CLASS=PLANNERS", ""));
  add_number(*cmd, "--fallback-budget", options->fallback_budget, int64_t{1},
             int64_t{1'000'000'000}, "expansions per NPC before it goes pending to the next frame")
      ->capture_default_str();
  cmd->add_flag("--no-baseline", options->no_baseline,
                "with --threads > 1, skip the 1-thread run that gives the speedups");
  cmd->add_flag(
      "--handles", options->handles,
      "warm batches and frames answer cache hits by plan handle, not by copying the plan");
  cmd->add_flag("--partial-goals", options->partial_goals,
                "goals name only the NPC's class's variables, the rest free (GOAP style)");
  cmd->add_flag("--json", options->json, "print one JSON object");
  cmd->callback([options, room, &exit_code] {
    options->actions_per_npc_given = room->count() > 0;
    exit_code = run_crowd(*options);
  });
}

}  // namespace topoplan::cli
