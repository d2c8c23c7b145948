// topoplan crowd: the crowd benchmark. A Western town of N NPCs (docs/crowds.md describes the
// mix), planned cold (no cache, every NPC through ℙ), warm (plan cache, steady state with churn)
// and a frame at a time (1.67 ms budget). Medians over repetitions; --json prints one object.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>  // no-ops unless run under callgrind
#define TOPOPLAN_CALLGRIND 1
#endif

#include "commands.h"
#include "numeric_option.h"
#include "topoplan/crowd.h"
#include "topoplan/families.h"
#include "topoplan/validate.h"

namespace topoplan::cli {
namespace {

struct CrowdOptions {
  std::string domain = "western";
  int64_t npcs = 100'000;
  int32_t threads = 1;
  int32_t frames = 10;
  int32_t reps = 5;
  double churn = 0.05;
  int32_t situations_per_class = 64;
  int32_t cache_entries = 1 << 14;
  int32_t memo_entries = CrowdDef{}.worker_memo_entries;
  bool json = false;
  bool no_baseline = false;
  uint64_t seed = 1;
};

class Rng {  // SplitMix64
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  int32_t below(int32_t n) { return static_cast<int32_t>(next() % static_cast<uint64_t>(n)); }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

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

void random_walk(const Domain& d, std::vector<ValueId>& state, Rng& rng, int32_t steps, ClassId c) {
  const std::span<const uint8_t> mask = d.action_mask(c);
  std::vector<ActionId> options;
  for (int32_t k = 0; k < steps; ++k) {
    options.clear();
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)] && applicable(d, a, state)) options.push_back(a);
    if (options.empty()) return;
    const ActionId a =
        options[static_cast<size_t>(rng.below(static_cast<int32_t>(options.size())))];
    for (const Effect& e : d.effects(a)) state[static_cast<size_t>(e.var)] = e.post;
  }
}

// Share of the town per class (Western names); other classes get weight 1.
double class_weight(const std::string& name) {
  static const std::pair<const char*, double> kWeights[] = {
      {"Rancher", 30},   {"HorseBreeder", 15}, {"Cook", 15},  {"Shopkeeper", 15},
      {"Bartender", 10}, {"Blacksmith", 10},   {"Sheriff", 5}};
  for (const auto& [n, w] : kWeights)
    if (name == n) return w;
  return 1;
}

// The town: per-class pools of (s0, goal) on the class's variables, a pool of "rest of the town"
// backgrounds, and per NPC the packed input composed from one of each.
struct Town {
  const CrowdPlanner* planner = nullptr;
  int32_t words = 0;
  std::vector<double> class_cdf;
  std::vector<std::vector<uint64_t>> sit_init, sit_goal;  // per class: pool * words
  std::vector<uint64_t> background;                       // pool * words
  std::vector<std::vector<uint64_t>> class_mask;          // per class: key mask per word
  std::vector<uint16_t> npc_class;
  std::vector<uint64_t> init, goal;

  void assign(int64_t i, Rng& rng) {
    const double u = rng.unit();
    const auto c = static_cast<int32_t>(std::lower_bound(class_cdf.begin(), class_cdf.end(), u) -
                                        class_cdf.begin());
    const int32_t cls = std::min<int32_t>(c, static_cast<int32_t>(class_cdf.size()) - 1);
    const auto pool = static_cast<int32_t>(sit_init[static_cast<size_t>(cls)].size() / words);
    const int32_t s = rng.below(pool);
    const int32_t b = rng.below(static_cast<int32_t>(background.size() / words));
    npc_class[static_cast<size_t>(i)] = static_cast<uint16_t>(cls);
    for (int32_t k = 0; k < words; ++k) {
      const uint64_t m = class_mask[static_cast<size_t>(cls)][static_cast<size_t>(k)];
      const uint64_t bg = background[static_cast<size_t>(b * words + k)] & ~m;
      init[static_cast<size_t>(i * words + k)] =
          bg | sit_init[static_cast<size_t>(cls)][static_cast<size_t>(s * words + k)];
      goal[static_cast<size_t>(i * words + k)] =
          bg | sit_goal[static_cast<size_t>(cls)][static_cast<size_t>(s * words + k)];
    }
  }
};

Town build_town(const Task& task, const CrowdPlanner& planner, const CrowdOptions& o, Rng& rng) {
  const Domain& d = task.domain;
  const CrowdLayout& layout = planner.layout();
  Town t;
  t.planner = &planner;
  t.words = layout.words();
  const auto words = static_cast<size_t>(t.words);
  const int32_t classes = planner.num_classes();
  double total = 0;
  for (int32_t c = 0; c < classes; ++c) {
    total += class_weight(d.num_classes() ? d.class_name(c) : "");
    t.class_cdf.push_back(total);
  }
  for (double& x : t.class_cdf) x /= total;
  const std::vector<ValueId> dawn(static_cast<size_t>(d.num_variables()), 0);
  std::vector<uint64_t> packed(words);
  for (int32_t c = 0; c < classes; ++c) {
    std::vector<uint64_t> mask(words, 0);
    for (VarId v : planner.class_variables(c)) {
      const CrowdLayout::Field& f = layout.field(v);
      mask[static_cast<size_t>(f.word)] |= f.mask << f.shift;
    }
    const ClassId dc = d.num_classes() ? c : kAllActions;
    std::vector<const Instance*> routines;
    for (const Instance& inst : task.instances)
      if (inst.npc_class == dc) routines.push_back(&inst);
    std::vector<uint64_t> si, sg;
    for (int32_t k = 0; k < o.situations_per_class; ++k) {
      // A routine, some steps into it; the routine's goal, or (15 %) an errand nearby.
      std::vector<ValueId> s0 =
          routines.empty()
              ? dawn
              : routines[static_cast<size_t>(rng.below(static_cast<int32_t>(routines.size())))]
                    ->init;
      std::vector<ValueId> g =
          routines.empty()
              ? dawn
              : routines[static_cast<size_t>(rng.below(static_cast<int32_t>(routines.size())))]
                    ->goal;
      random_walk(d, s0, rng, rng.below(7), dc);
      if (routines.empty() || rng.unit() < 0.15) {
        g = s0;
        random_walk(d, g, rng, 1 + rng.below(8), dc);
      }
      layout.pack_state(s0, packed.data());
      for (size_t w = 0; w < words; ++w) si.push_back(packed[w] & mask[w]);
      layout.pack_goal(g, packed.data());
      for (size_t w = 0; w < words; ++w) sg.push_back(packed[w] & mask[w]);
    }
    t.sit_init.push_back(std::move(si));
    t.sit_goal.push_back(std::move(sg));
    t.class_mask.push_back(std::move(mask));
  }
  for (int32_t k = 0; k < 256; ++k) {  // the rest of the town, somewhere in its day
    std::vector<ValueId> s = dawn;
    random_walk(d, s, rng, rng.below(40), kAllActions);
    layout.pack_state(s, packed.data());
    t.background.insert(t.background.end(), packed.begin(), packed.end());
  }
  t.npc_class.resize(static_cast<size_t>(o.npcs));
  t.init.resize(static_cast<size_t>(o.npcs) * words);
  t.goal.resize(static_cast<size_t>(o.npcs) * words);
  for (int64_t i = 0; i < o.npcs; ++i) t.assign(i, rng);
  return t;
}

// Rough single-thread memory bandwidth: memcpy between two 256 MB buffers (read + write).
double memcpy_gbps() {
  const size_t bytes = size_t{256} << 20;
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
};

Measured measure(const CrowdPlanner& planner, Town& town, const CrowdOptions& o, int32_t threads,
                 Progress& progress, bool frames) {
  const auto n = static_cast<size_t>(o.npcs);
  std::vector<ActionId> actions(n * 12);
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n);
  std::vector<CrowdStatus> status(n);
  const CrowdOutput out{actions, offset, length, status};
  const CrowdBatch batch{town.npc_class, town.init, town.goal};
  CrowdThreadPool pool(threads);
  Measured m;

  CrowdDef cold_def;
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

  PlanCacheDef cache_def;
  cache_def.capacity = o.cache_entries;
  PlanCache cache(planner, cache_def);
  CrowdDef warm_def = cold_def;
  warm_def.cache = &cache;
  warm_def.worker_memo_entries = o.memo_entries;
  Crowd warm = Crowd::create(planner, warm_def).value();
  (void)warm.plan(batch, out);  // fill the cache
  Rng rng(o.seed * 31 + 7);
  const auto churned = static_cast<int64_t>(o.churn * static_cast<double>(n));
  t.clear();
  std::vector<double> frame_npcs, frame_npcs_cold;
  const PlanCacheStats before = cache.stats();
  for (int32_t f = 0; f < o.frames; ++f) {
    for (int64_t k = 0; k < churned; ++k)
      town.assign(rng.below(static_cast<int32_t>(std::min<int64_t>(o.npcs, INT32_MAX))), rng);
    timed.reset();
    const double c0 = cpu_s();
    const double t0 = now_s();
    timed.set_collect(true);
    (void)warm.plan(batch, out);
    timed.set_collect(false);
    t.push_back(now_s() - t0);
    cpu.push_back(cpu_s() - c0);
    worker_cpu.push_back(timed.max_worker_cpu_s());
    if (frames) {
      CrowdCursor cursor;
      frame_npcs.push_back(static_cast<double>(warm.plan_frame(batch, out, &cursor).served));
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
  return m;
}

int run_crowd(const CrowdOptions& o) {
  Task task;
  if (o.domain == "western") {
    task = western();
  } else if (o.domain == "western-pus") {
    task = western_pus();
  } else {
    std::fprintf(stderr, "topoplan crowd: unknown domain '%s' (western, western-pus)\n",
                 o.domain.c_str());
    return kExitUsage;
  }
  Result<CrowdPlanner> planner = CrowdPlanner::create(task.domain);
  if (!planner.ok()) {
    std::fprintf(stderr, "topoplan crowd: %s\n", planner.error().message.c_str());
    return kExitInputError;
  }
  Rng rng(o.seed);
  Town town = build_town(task, *planner, o, rng);
  std::unordered_set<std::string> distinct;
  {
    std::string key;
    for (size_t c = 0; c < town.sit_init.size(); ++c)
      for (size_t s = 0; s < town.sit_init[c].size(); s += static_cast<size_t>(town.words)) {
        key.assign(reinterpret_cast<const char*>(&c), sizeof c);
        key.append(reinterpret_cast<const char*>(&town.sit_init[c][s]),
                   8 * static_cast<size_t>(town.words));
        key.append(reinterpret_cast<const char*>(&town.sit_goal[c][s]),
                   8 * static_cast<size_t>(town.words));
        distinct.insert(key);
      }
  }
  const bool baseline = o.threads > 1 && !o.no_baseline;
  const double load_before = load_average();
  Progress progress(static_cast<int64_t>(o.reps + o.frames) * (baseline ? 2 : 1));
  const Measured m = measure(*planner, town, o, o.threads, progress, true);
  Measured one;
  if (baseline) one = measure(*planner, town, o, 1, progress, false);
  const double bw = memcpy_gbps();

  const auto n = static_cast<double>(o.npcs);
  const double cold_ns = m.cold_s * 1e9 * o.threads / n;
  const double warm_ns = m.warm_s * 1e9 * o.threads / n;
  const double out_bytes = 8.0 + 4.0 * m.mean_length;  // offset, length, status + the plan
  nlohmann::json j;
  j["domain"] = o.domain;
  j["npcs"] = o.npcs;
  j["threads"] = o.threads;
  j["hardware_threads"] = std::thread::hardware_concurrency();
  j["frames"] = o.frames;
  j["reps"] = o.reps;
  j["churn_per_frame"] = o.churn;
  j["classes"] = planner->num_classes();
  j["distinct_situations"] = distinct.size();
  j["solved_fraction"] = m.solved_fraction;
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
  j["npcs_per_frame"] = m.frame_npcs;
  j["npcs_per_frame_cold"] = m.frame_npcs_cold;
  j["frame_budget_ms"] = 1.67;
  j["bytes_per_npc"] = planner->layout().bytes_per_npc();
  j["output_bytes_per_npc"] = out_bytes;
  j["memcpy_gbps"] = bw;
  j["bandwidth_floor_ns_per_npc"] = (planner->layout().bytes_per_npc() + out_bytes) / bw;
  if (baseline) {
    j["cold_speedup_vs_1_thread"] = one.cold_s / m.cold_s;
    j["warm_speedup_vs_1_thread"] = one.warm_s / m.warm_s;
    // Speed-up if each worker had its own core: 1-thread CPU time / largest worker CPU time.
    j["cold_cpu_speedup_vs_1_thread"] = one.cold_worker_cpu_s / m.cold_worker_cpu_s;
    j["warm_cpu_speedup_vs_1_thread"] = one.warm_worker_cpu_s / m.warm_worker_cpu_s;
  }
  if (o.json) {
    std::printf("%s\n", j.dump().c_str());
  } else {
    std::printf(
        "crowd %s: %lld NPC%s, %d thread%s (%u hardware), %zu distinct situations, "
        "%.0f%% solved, mean plan %.1f actions\n",
        o.domain.c_str(), static_cast<long long>(o.npcs), o.npcs == 1 ? "" : "s", o.threads,
        o.threads == 1 ? "" : "s", std::thread::hardware_concurrency(), distinct.size(),
        100 * m.solved_fraction, m.mean_length);
    std::printf("  cold  %8.1f ns/NPC/core  (%.3g NPCs/s; CPU time %.1f ns/NPC)\n", cold_ns,
                n / m.cold_s, m.cold_cpu_s * 1e9 / n);
    std::printf("  warm CPU time %.1f ns/NPC; load average %.2f\n", m.warm_cpu_s * 1e9 / n,
                load_average());
    std::printf(
        "  warm  %8.1f ns/NPC/core  (%.3g NPCs/s, cache hit rate %.1f%%, churn %.0f%%/frame)\n",
        warm_ns, n / m.warm_s, 100 * m.hit_rate, 100 * o.churn);
    std::printf("  frame %8.0f NPCs in 1.67 ms warm, %.0f cold\n", m.frame_npcs, m.frame_npcs_cold);
    std::printf("  input %d bytes/NPC, memcpy %.1f GB/s\n", planner->layout().bytes_per_npc(), bw);
    if (baseline)
      std::printf(
          "  speedup vs 1 thread: wall cold %.2fx, warm %.2fx; per-worker CPU cold %.2fx, "
          "warm %.2fx (load average %.2f before, %.2f after)\n",
          one.cold_s / m.cold_s, one.warm_s / m.warm_s, one.cold_worker_cpu_s / m.cold_worker_cpu_s,
          one.warm_worker_cpu_s / m.warm_worker_cpu_s, load_before, load_average());
  }
  return kExitOk;
}

}  // namespace

void add_crowd_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CrowdOptions>();
  CLI::App* cmd =
      app.add_subcommand("crowd", "Benchmark plans for a town of NPCs (docs/crowds.md)");
  cmd->add_option("--domain", options->domain, "western or western-pus")->capture_default_str();
  add_number(*cmd, "--npcs", options->npcs, int64_t{1}, int64_t{10'000'000}, "NPCs in the town")
      ->capture_default_str();
  add_number(*cmd, "--threads", options->threads, 1, 256, "worker threads (built-in pool)")
      ->capture_default_str();
  add_number(*cmd, "--frames", options->frames, 1, 1'000'000, "warm frames measured")
      ->capture_default_str();
  add_number(*cmd, "--reps", options->reps, 1, 1000, "cold repetitions")->capture_default_str();
  add_number(*cmd, "--churn", options->churn, 0.0, 1.0,
             "fraction of NPCs whose situation changes per frame")
      ->capture_default_str();
  add_number(*cmd, "--situations", options->situations_per_class, 1, 10'000,
             "distinct (s0, goal) situations per class")
      ->capture_default_str();
  add_number(*cmd, "--cache-entries", options->cache_entries, 1, 1 << 22, "plan cache capacity")
      ->capture_default_str();
  add_number(*cmd, "--memo-entries", options->memo_entries, 0, 1 << 20,
             "per-worker memo in front of the plan cache (0: none)")
      ->capture_default_str();
  add_number(*cmd, "--seed", options->seed, uint64_t{0}, UINT64_MAX, "town seed")
      ->capture_default_str();
  cmd->add_flag("--no-baseline", options->no_baseline,
                "with --threads > 1, skip the 1-thread run that gives the speedups");
  cmd->add_flag("--json", options->json, "print one JSON object");
  cmd->callback([options, &exit_code] { exit_code = run_crowd(*options); });
}

}  // namespace topoplan::cli
