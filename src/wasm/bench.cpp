// The WebAssembly binding, benchmarks: the CLI's methods, single-threaded, through the C API, to
// compare WebAssembly with native (tests/web/bench_wasm.py compiles these same sources natively).
#include <algorithm>

#include "binding.h"

using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

namespace {

// ℙ (topoplan_topo_*) for every instance of a task, one planner per NPC class.
struct WesternPlans {
  TaskPtr task;
  std::vector<TopoPtr> topo;
  std::vector<ScratchPtr> scratch;
  std::vector<size_t> which;  // per instance: its planner
  std::vector<topoplan_problem> problems;
  std::vector<int32_t> out;
  int64_t solved = 0;

  WesternPlans() {
    topoplan_task* t = nullptr;
    (void)topoplan_task_builtin("western", &t, nullptr, 0);
    task.reset(t);
    std::vector<int32_t> classes;
    for (int32_t i = 0; i < topoplan_task_num_instances(t); ++i) {
      topoplan_problem p{};
      (void)topoplan_task_instance(t, i, &p);
      auto it = std::find(classes.begin(), classes.end(), p.npc_class);
      if (it == classes.end()) {
        classes.push_back(p.npc_class);
        topoplan_topo* tp = nullptr;
        topoplan_scratch* sc = nullptr;
        (void)topoplan_topo_create(t, p.npc_class, &tp, nullptr, 0);
        (void)topoplan_scratch_create(tp, &sc);
        topo.emplace_back(tp);
        scratch.emplace_back(sc);
        it = classes.end() - 1;
      }
      which.push_back(static_cast<size_t>(it - classes.begin()));
      problems.push_back(p);
    }
    out.resize(static_cast<size_t>(topoplan_task_num_actions(t)) + 1);
  }
  void run(size_t i) {
    const topoplan_problem& p = problems[i];
    int32_t len = 0;
    solved += topoplan_topo_plan(topo[which[i]].get(), scratch[which[i]].get(), p.init, p.goal,
                                 p.num_variables, out.data(), static_cast<int32_t>(out.size()),
                                 &len) == TOPOPLAN_OK;
  }
};

// A batch size that takes at least `min_seconds`.
int64_t calibrate(WesternPlans& w, double min_seconds) {
  const size_t m = w.problems.size();
  int64_t batch = 1;
  while (true) {
    const double t0 = now_ms();
    for (int64_t k = 0; k < batch; ++k) w.run(static_cast<size_t>(k) % m);
    const double s = (now_ms() - t0) * 1e-3;
    if (s >= min_seconds || batch >= (int64_t{1} << 34)) return batch;
    batch = s <= 0 ? batch * 10
                   : std::max<int64_t>(batch + 1,
                                       static_cast<int64_t>(static_cast<double>(batch) *
                                                            std::min(10.0, 1.2 * min_seconds / s)));
  }
}

}  // namespace

extern "C" {

// ℙ on Western's instances, cycled, as `topoplan bench western`: median ns per plan over `reps`
// repetitions of at least `min_seconds` each — or, when `fixed_batch` > 0, of exactly that many
// plans (the same work on every machine, for CPU-time comparisons).
TP_EXPORT const char* tp_bench_western(double min_seconds, int reps, int fixed_batch) {
  WesternPlans w;
  const size_t m = w.problems.size();
  const int64_t batch = fixed_batch > 0 ? fixed_batch : calibrate(w, min_seconds);
  std::vector<double> samples;
  w.solved = 0;
  for (int r = 0; r < std::max(1, reps); ++r) {
    const double t0 = now_ms();
    for (int64_t k = 0; k < batch; ++k) w.run(static_cast<size_t>(k) % m);
    samples.push_back((now_ms() - t0) * 1e6 / static_cast<double>(batch));
  }
  JsonWriter j;
  j.begin_object().field("ns_per_plan", median(samples));
  j.field("ns_per_plan_min", min_of(samples)).field("plans_per_rep", batch);
  j.field("instances", static_cast<int64_t>(m));
  j.field("all_solved", w.solved == batch * std::max(1, reps));
  return answer(j.end_object().take());
}

// The crowd benchmark of `topoplan crowd --threads 1` (its town, seed 1): cold (no cache, every
// NPC through ℙ, median of `reps` batches) and warm (cache of 2^14 entries, median of `frames`
// batches after one filling batch, 5 % churn between frames), in ns per NPC. reps = 0 or
// frames = 0 skips that part (the town is always built).
TP_EXPORT const char* tp_bench_crowd(int npcs, int reps, int frames) {
  CrowdTownRun cold, warm;
  std::string e = make_crowd_town("western", npcs, 1, 0, cold);
  if (e.empty()) e = make_crowd_town("western", npcs, 1, 1 << 14, warm);
  if (!e.empty()) return answer_error(e);
  const auto n = static_cast<double>(npcs);
  std::vector<double> t;
  topoplan_crowd_stats s{};
  const topoplan_crowd_output cold_out = cold.output();
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_ms();
    (void)topoplan_crowd_plan(cold.crowd.get(), &cold.batch, &cold_out, &s);
    t.push_back(now_ms() - t0);
  }
  const double cold_ms = median(t), cold_min_ms = min_of(t);
  const double solved = static_cast<double>(s.solved);
  t.clear();
  const topoplan_crowd_output out = warm.output();
  if (frames > 0) (void)topoplan_crowd_plan(warm.crowd.get(), &warm.batch, &out, &s);
  topoplan_plan_cache_stats before{}, after{};
  (void)topoplan_plan_cache_stats_get(warm.cache.get(), &before);
  for (int f = 0; f < frames; ++f) {
    (void)topoplan_town_churn(warm.town.get(), static_cast<int64_t>(0.05 * n));
    const double t0 = now_ms();
    (void)topoplan_crowd_plan(warm.crowd.get(), &warm.batch, &out, &s);
    t.push_back(now_ms() - t0);
  }
  (void)topoplan_plan_cache_stats_get(warm.cache.get(), &after);
  const auto lookups =
      static_cast<double>((after.hits - before.hits) + (after.misses - before.misses));
  JsonWriter j;
  j.begin_object().field("npcs", npcs);
  j.field("cold_ns_per_npc", cold_ms * 1e6 / n).field("warm_ns_per_npc", median(t) * 1e6 / n);
  j.field("cold_ns_per_npc_min", cold_min_ms * 1e6 / n);
  j.field("warm_ns_per_npc_min", min_of(t) * 1e6 / n);
  j.field("solved_fraction", solved / n);
  j.field("hit_rate", lookups > 0 ? static_cast<double>(after.hits - before.hits) / lookups : 0.0);
  return answer(j.end_object().take());
}

}  // extern "C"
