// The measurement side of `topoplan bench` (see bench_run.h).
#include "bench_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "topoplan/analysis.h"
#include "topoplan/astar.h"
#include "topoplan/backstrom.h"
#include "topoplan/families.h"
#include "topoplan/plan.h"
#include "topoplan/topo.h"
#include "topoplan/validate.h"

namespace topoplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

class TopoRunner final : public BenchRunner {
 public:
  TopoRunner(const Task& task, std::vector<TopoPlanner> planners, std::vector<size_t> which)
      : task_(task), planners_(std::move(planners)), which_(std::move(which)) {
    for (const TopoPlanner& p : planners_) {
      scratch_.push_back(p.make_scratch());
      max_len_ = std::max(max_len_, p.max_plan_length());
    }
    out_.resize(static_cast<size_t>(max_len_) + 1);
  }
  bool run(size_t i) override {
    const Instance& inst = task_.instances[i];
    const size_t k = which_[i];
    int32_t len = 0;
    return planners_[k].plan(scratch_[k], inst.init, inst.goal, out_, &len) == PlanStatus::kSolved;
  }
  std::span<const ActionId> last(size_t i) {
    const Instance& inst = task_.instances[i];
    const size_t k = which_[i];
    int32_t len = 0;
    planners_[k].plan(scratch_[k], inst.init, inst.goal, out_, &len);
    return {out_.data(), static_cast<size_t>(len)};
  }

 private:
  const Task& task_;
  std::vector<TopoPlanner> planners_;  // one per NPC class used
  std::vector<size_t> which_;          // instance -> planner
  std::vector<TopoScratch> scratch_;
  std::vector<ActionId> out_;
  int32_t max_len_ = 0;
};

class BackstromRunner final : public BenchRunner {
 public:
  BackstromRunner(const Task& task, std::vector<BackstromPlanner> planners,
                  std::vector<size_t> which)
      : task_(task), planners_(std::move(planners)), which_(std::move(which)) {}
  bool run(size_t i) override {
    const Instance& inst = task_.instances[i];
    return planners_[which_[i]].plan(inst.init, inst.goal, out_) == PlanStatus::kSolved;
  }
  const std::vector<ActionId>& out() const { return out_; }

 private:
  const Task& task_;
  std::vector<BackstromPlanner> planners_;
  std::vector<size_t> which_;
  std::vector<ActionId> out_;
};

class AStarRunner final : public BenchRunner {
 public:
  AStarRunner(const Task& task, int64_t max_expansions) : task_(task), planner_(task.domain) {
    options_.limits.max_expansions = max_expansions;
    options_.objective = Objective::kLength;  // ℙ and 𝒫 minimise length: compare like with like
  }
  bool run(size_t i) override {
    return planner_.plan(task_.instances[i], options_, out_) == PlanStatus::kSolved;
  }
  const std::vector<ActionId>& out() const { return out_; }

 private:
  const Task& task_;
  AStarPlanner planner_;
  PlannerOptions options_;
  std::vector<ActionId> out_;
};

class RegistryRunner final : public BenchRunner {
 public:
  RegistryRunner(const Task& task, const PlannerInfo& info, int64_t max_expansions)
      : task_(task), info_(info) {
    options_.limits.max_expansions = max_expansions;
    options_.objective = Objective::kLength;
  }
  bool run(size_t i) override {
    last_ = info_.plan(task_.domain, task_.instances[i], options_);
    return last_.status == PlanStatus::kSolved;
  }
  const PlanResult& last() const { return last_; }

 private:
  const Task& task_;
  const PlannerInfo& info_;
  PlannerOptions options_;
  PlanResult last_;
};

// Distinct NPC classes of the instances, and instance -> index into that list.
std::vector<ClassId> classes_of(const Task& task, std::vector<size_t>& which) {
  std::vector<ClassId> classes;
  which.clear();
  for (const Instance& inst : task.instances) {
    auto it = std::find(classes.begin(), classes.end(), inst.npc_class);
    if (it == classes.end()) {
      classes.push_back(inst.npc_class);
      it = classes.end() - 1;
    }
    which.push_back(static_cast<size_t>(it - classes.begin()));
  }
  return classes;
}

bool check_plan(const Task& task, size_t i, std::span<const ActionId> plan, std::string& why,
                const std::string& planner) {
  const Validation v = validate_plan(task.domain, task.instances[i], plan);
  if (!v.valid) why = planner + ": invalid plan for " + task.instances[i].name + ": " + v.reason;
  return v.valid;
}

// Median ns per plan over `reps` repetitions cycling through the instances; each repetition
// plans at least `min_seconds` long (and at least `min_plans` plans).
double time_per_plan(BenchRunner& r, size_t instances, int reps, double min_seconds,
                     int64_t min_plans = 1) {
  // Calibrate the batch size.
  int64_t batch = std::max<int64_t>(1, min_plans);
  for (;;) {
    const auto t0 = Clock::now();
    for (int64_t k = 0; k < batch; ++k) r.run(static_cast<size_t>(k) % instances);
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s >= min_seconds || batch >= (int64_t{1} << 34)) break;
    batch = s <= 0 ? batch * 10
                   : std::max<int64_t>(batch + 1,
                                       static_cast<int64_t>(static_cast<double>(batch) *
                                                            std::min(10.0, 1.2 * min_seconds / s)));
  }
  std::vector<double> samples;
  for (int rep = 0; rep < reps; ++rep) {
    const auto t0 = Clock::now();
    for (int64_t k = 0; k < batch; ++k) r.run(static_cast<size_t>(k) % instances);
    samples.push_back(std::chrono::duration<double, std::nano>(Clock::now() - t0).count() /
                      static_cast<double>(batch));
  }
  std::nth_element(samples.begin(), samples.begin() + static_cast<ptrdiff_t>(samples.size() / 2),
                   samples.end());
  return samples[samples.size() / 2];
}

// Milliseconds to plan for `npcs` NPCs (instance mix cycled), median over reps.
double time_npcs(BenchRunner& r, size_t instances, int64_t npcs, int reps) {
  std::vector<double> samples;
  for (int rep = 0; rep < reps; ++rep) {
    const auto t0 = Clock::now();
    for (int64_t k = 0; k < npcs; ++k) r.run(static_cast<size_t>(k) % instances);
    samples.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
  }
  std::nth_element(samples.begin(), samples.begin() + static_cast<ptrdiff_t>(samples.size() / 2),
                   samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

std::unique_ptr<BenchRunner> make_runner(const std::string& planner, const Task& task,
                                         int64_t max_expansions, std::string& why) {
  std::vector<size_t> which;
  const std::vector<ClassId> classes = classes_of(task, which);
  if (planner == "topo") {
    std::vector<TopoPlanner> ps;
    for (ClassId c : classes) {
      auto p = TopoPlanner::create(task.domain, c);
      if (!p.ok()) {
        why = "topo: " + p.error().to_string();
        return nullptr;
      }
      ps.push_back(std::move(p).value());
    }
    auto r = std::make_unique<TopoRunner>(task, std::move(ps), which);
    for (size_t i = 0; i < task.instances.size(); ++i) {
      if (!r->run(i)) {
        why = "topo: no plan for " + task.instances[i].name;
        return nullptr;
      }
      if (!check_plan(task, i, r->last(i), why, planner)) return nullptr;
    }
    return r;
  }
  if (planner == "backstrom") {
    std::vector<BackstromPlanner> ps;
    for (ClassId c : classes) {
      auto p = BackstromPlanner::create(task.domain, c);
      if (!p.ok()) {
        why = p.error().to_string();
        return nullptr;
      }
      ps.push_back(std::move(p).value());
    }
    auto r = std::make_unique<BackstromRunner>(task, std::move(ps), which);
    for (size_t i = 0; i < task.instances.size(); ++i) {
      if (!r->run(i)) {
        why = "backstrom: no plan for " + task.instances[i].name;
        return nullptr;
      }
      if (!check_plan(task, i, r->out(), why, planner)) return nullptr;
    }
    return r;
  }
  if (planner == "astar") {
    auto r = std::make_unique<AStarRunner>(task, max_expansions);
    for (size_t i = 0; i < task.instances.size(); ++i) {
      if (!r->run(i)) {
        why = "astar: no plan within " + std::to_string(max_expansions) + " expansions for " +
              task.domain.name();
        return nullptr;
      }
      if (!check_plan(task, i, r->out(), why, planner)) return nullptr;
    }
    return r;
  }
  const PlannerInfo* info = find_planner(planner);
  if (!info) {
    why = planner + ": no such planner";
    return nullptr;
  }
  auto r = std::make_unique<RegistryRunner>(task, *info, max_expansions);
  for (size_t i = 0; i < task.instances.size(); ++i) {
    if (!r->run(i)) {
      why = planner + ": " + std::string(to_string(r->last().status)) + ": " + r->last().message;
      return nullptr;
    }
    if (!check_plan(task, i, r->last().actions, why, planner)) return nullptr;
  }
  return r;
}

bool run_bench(const std::string& family, const BenchConfig& config, BenchReport& report,
               std::string& error) {
  report = BenchReport{};
  report.family = family;
  const bool game = family == "western" || family == "western-pus";
  std::vector<int32_t> xs;
  if (family == "multiprv-n-cycle") {
    report.figure = "Figure 1";
    report.x_label = "n (values per variable), m = 10";
    xs = config.quick ? std::vector<int32_t>{2, 8, 32, 64}
                      : std::vector<int32_t>{2, 4, 8, 16, 32, 64, 128, 256, 512};
    report.planners = {"topo", "backstrom"};
  } else if (family == "multiprv-2-cycle" || family == "oneprv-5") {
    report.figure = "Figure 2";
    report.x_label = "m (state variables)";
    xs = config.quick ? std::vector<int32_t>{10, 50, 100, 200}
                      : std::vector<int32_t>{10, 25, 50, 100, 200, 400, 800, 1600};
    report.planners = {"topo", "backstrom"};
  } else if (game) {
    report.figure = "Figure 3";
    report.x_label = "NPCs";
    report.log_x = true;
    for (int64_t n = 1; n <= (config.quick ? 100'000 : 2'000'000); n *= 10)
      xs.push_back(static_cast<int32_t>(n));
    if (!config.quick) xs.push_back(2'000'000);
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    report.planners = family == "western" ? std::vector<std::string>{"topo", "astar"}
                                          : std::vector<std::string>{"topo", "backstrom", "astar"};
  } else {
    error = "unknown family '" + family +
            "' (multiprv-n-cycle, multiprv-2-cycle, oneprv-5, western, western-pus)";
    return false;
  }
  if (!config.planners.empty()) report.planners = config.planners;
  report.y_label = game ? "milliseconds for all NPCs" : "nanoseconds per plan";
  const size_t np = report.planners.size();
  report.mix_ns_per_plan.assign(np, -1);
  std::vector<uint8_t> dropped(np, 0);

  auto note_skip = [&](size_t p, const std::string& why) {
    if (dropped[p]) return;
    dropped[p] = 1;
    report.skipped.push_back(why);
    std::fprintf(stderr, "bench: %s\n", why.c_str());
  };

  if (game) {
    const Task task = family == "western" ? western() : western_pus();
    report.mix_description = std::to_string(task.instances.size()) + " instances of " +
                             std::to_string(task.domain.num_classes()) + " NPC classes, cycled";
    std::vector<std::unique_ptr<BenchRunner>> runners(np);
    for (size_t p = 0; p < np; ++p) {
      std::string why;
      runners[p] = make_runner(report.planners[p], task, config.max_expansions, why);
      if (!runners[p]) {
        note_skip(p, why);
        continue;
      }
      report.mix_ns_per_plan[p] =
          time_per_plan(*runners[p], task.instances.size(), config.reps, config.min_rep_seconds);
    }
    for (int32_t x : xs) {
      BenchPoint pt;
      pt.x = x;
      pt.ns_per_plan.assign(np, -1);
      pt.ms_total.assign(np, -1);
      for (size_t p = 0; p < np; ++p) {
        if (!runners[p] || report.mix_ns_per_plan[p] < 0) continue;
        const double estimate_s = report.mix_ns_per_plan[p] * x * 1e-9 * config.reps;
        if (estimate_s > config.max_point_seconds) continue;
        pt.ms_total[p] = time_npcs(*runners[p], task.instances.size(), x, config.reps);
        pt.ns_per_plan[p] = pt.ms_total[p] * 1e6 / x;
      }
      report.points.push_back(pt);
    }
    return true;
  }

  // Synthetic families: one instance per point; time per plan vs n or m.
  for (int32_t x : xs) {
    const Task task = family == "multiprv-n-cycle"   ? multiprv_n_cycle(10, x)
                      : family == "multiprv-2-cycle" ? multiprv_2_cycle(x)
                                                     : oneprv_5(x);
    BenchPoint pt;
    pt.x = x;
    pt.ns_per_plan.assign(np, -1);
    {  // The linear-time claim's unit: ns per (|A| + |E_A|) should stay flat along the sweep.
      const ClassReport cr = analyze(task.domain);
      pt.size = static_cast<double>(cr.num_analysed) + static_cast<double>(cr.pre_edges.size()) +
                static_cast<double>(cr.prv_edges.size());
    }
    for (size_t p = 0; p < np; ++p) {
      if (dropped[p]) continue;
      std::string why;
      auto r = make_runner(report.planners[p], task, config.max_expansions, why);
      if (!r) {
        note_skip(p, why + " (at " + report.x_label.substr(0, 1) + " = " + std::to_string(x) +
                         " and beyond)");
        continue;
      }
      const auto t0 = Clock::now();
      pt.ns_per_plan[p] = time_per_plan(*r, 1, config.reps, config.min_rep_seconds);
      if (std::chrono::duration<double>(Clock::now() - t0).count() > config.max_point_seconds)
        note_skip(p, report.planners[p] + ": over the time budget per point after " +
                         report.x_label.substr(0, 1) + " = " + std::to_string(x));
    }
    pt.ms_total = pt.ns_per_plan;
    report.points.push_back(pt);
  }
  // The summary: the largest point every planner measured.
  for (auto it = report.points.rbegin(); it != report.points.rend(); ++it) {
    if (std::all_of(it->ns_per_plan.begin(), it->ns_per_plan.end(),
                    [](double v) { return v >= 0; })) {
      report.mix_ns_per_plan = it->ns_per_plan;
      report.mix_description = report.x_label.substr(0, report.x_label.find(' ')) + " = " +
                               std::to_string(static_cast<int64_t>(it->x));
      break;
    }
  }
  return true;
}

}  // namespace topoplan::cli
