// The measurement side of `topoplan bench` (see bench_run.h).
#include "bench_run.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"

namespace topoplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Any planner with a hot factory (planner.h): one HotPlanner + scratch per NPC class used,
// created through the registry, planning into one reused buffer.
class HotRunner final : public BenchRunner {
 public:
  HotRunner(const Task& task, std::vector<size_t> which) : task_(task), which_(std::move(which)) {}
  // Adds the planner of the next class; keeps `set` alive (the planner may refer to it).
  void add(CompiledActionSet set, std::unique_ptr<HotPlanner> planner) {
    sets_.push_back(std::make_unique<CompiledActionSet>(std::move(set)));
    scratch_.push_back(planner->make_scratch());
    // Searches bound their plans by the state count: start small, grow on kBufferTooSmall.
    const auto want = static_cast<size_t>(std::min(planner->max_plan_length(), 1 << 12)) + 1;
    if (out_.size() < want) out_.resize(want);
    planners_.push_back(std::move(planner));
  }
  bool run(size_t i) override { return plan(i).solved(); }
  // Plans instance i; the plan is last() when solved.
  PlanOutcome plan(size_t i) {
    const Instance& inst = task_.instances[i];
    const size_t k = which_[i];
    PlanOutcome o = planners_[k]->plan(*scratch_[k], inst.init, inst.goal, out_, &len_);
    if (o.status == PlanStatus::kBufferTooSmall) {  // once per larger plan: before timing
      out_.resize(static_cast<size_t>(len_));
      o = planners_[k]->plan(*scratch_[k], inst.init, inst.goal, out_, &len_);
    }
    return o;
  }
  std::span<const ActionId> last() const { return {out_.data(), static_cast<size_t>(len_)}; }
  std::string explain(size_t i, const PlanOutcome& o) const {
    const size_t k = which_[i];
    return planners_[k]->explain(*scratch_[k], o);
  }

 private:
  const Task& task_;
  std::vector<size_t> which_;  // instance -> class index
  std::vector<std::unique_ptr<CompiledActionSet>> sets_;
  std::vector<std::unique_ptr<HotPlanner>> planners_;
  std::vector<std::unique_ptr<PlanScratch>> scratch_;
  std::vector<ActionId> out_;
  int32_t len_ = 0;
};

// A planner without a hot factory: its PlanFn, one vector per plan.
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
  const PlannerInfo* info = find_planner(planner);
  if (!info) {
    why = planner + ": no such planner";
    return nullptr;
  }
  // Search planners minimise length here: ℙ and 𝒫 do, so like is compared with like.
  HotPlannerDef def;
  def.objective = Objective::kLength;
  def.limits = SearchLimits{};
  def.limits.max_expansions = max_expansions;
  if (info->create_hot != nullptr) {
    std::vector<size_t> which;
    const std::vector<ClassId> classes = classes_of(task, which);
    auto r = std::make_unique<HotRunner>(task, which);
    for (ClassId c : classes) {
      auto set = CompiledActionSet::create(task.domain, c);
      if (!set.ok()) {
        why = planner + ": " + set.error().to_string();
        return nullptr;
      }
      auto p = info->create_hot(set.value(), def);
      if (!p.ok()) {
        why = planner + ": " + p.error().to_string();
        return nullptr;
      }
      r->add(std::move(set).value(), std::move(p).value());
    }
    for (size_t i = 0; i < task.instances.size(); ++i) {
      const PlanOutcome o = r->plan(i);
      if (!o.solved()) {
        why = planner + ": no plan for " + task.instances[i].name + " (" + r->explain(i, o) +
              (o.detail & kDetailExpansionLimit
                   ? ", " + std::to_string(max_expansions) + " expansions"
                   : std::string()) +
              ")";
        return nullptr;
      }
      if (!check_plan(task, i, r->last(), why, planner)) return nullptr;
    }
    return r;
  }
  auto r = std::make_unique<RegistryRunner>(task, *info, max_expansions);
  for (size_t i = 0; i < task.instances.size(); ++i) {
    if (!r->run(i)) {
      why = planner + ": " + std::string(to_string(r->last().status)) + ": " +
            limit_words_for(r->last().message, LimitDoor::kCli);
      return nullptr;
    }
    if (!check_plan(task, i, r->last().actions, why, planner)) return nullptr;
  }
  return r;
}

namespace {

// Latency percentiles (microseconds) of `ns`.
void percentiles(std::vector<double>& ns, LatencyStats& row) {
  row.measured = static_cast<int64_t>(ns.size());
  if (ns.empty()) return;
  std::sort(ns.begin(), ns.end());
  auto at = [&](double q) {
    const auto k = static_cast<size_t>(q * static_cast<double>(ns.size() - 1) + 0.5);
    return ns[std::min(k, ns.size() - 1)] * 1e-3;
  };
  row.p50_us = at(0.50);
  row.p99_us = at(0.99);
  row.max_us = ns.back() * 1e-3;
}

void count(LatencyStats& row, PlanStatus st) {
  switch (st) {
    case PlanStatus::kSolved:
      ++row.solved;
      break;
    case PlanStatus::kUnsolvable:
      ++row.unsolvable;
      break;
    case PlanStatus::kLimitReached:
    case PlanStatus::kBufferTooSmall:
      ++row.limit;
      break;
    case PlanStatus::kGaveUp:
      ++row.gave_up;
      break;
    case PlanStatus::kUnsupported:
      ++row.unsupported;
      break;
  }
}

// Times `call` alone: the median of up to three runs (one when a run takes over 10 ms).
template <typename Call>
double time_call(Call&& call, PlanStatus& status) {
  double runs[3];
  int n = 0;
  for (; n < 3; ++n) {
    const auto t0 = Clock::now();
    status = call();
    runs[n] = std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
    if (runs[n] > 1e7) return runs[n];
  }
  std::sort(runs, runs + 3);
  return runs[1];
}

}  // namespace

namespace {

// One planner, by registry name, on one level: its hot planner per NPC class (created through
// the registry's factory, one scratch, one reused buffer), or its PlanFn when it has no hot
// factory. A class whose set the planner refuses answers kUnsupported.
class LevelPlanner {
 public:
  LevelPlanner(const std::string& name, const Domain& domain, const PlannerOptions& options)
      : info_(find_planner(name)), domain_(domain), options_(options) {
    def_.limits = options.limits;
    def_.objective = options.objective;
    classes_.resize(static_cast<size_t>(domain.num_classes()) + 1);
  }
  PlanStatus plan(const Instance& inst) {
    len_ = 0;
    if (info_ == nullptr) return PlanStatus::kUnsupported;
    if (info_->create_hot == nullptr) {
      cold_ = info_->plan(domain_, inst, options_);
      return cold_.status;
    }
    PerClass& c = classes_[static_cast<size_t>(inst.npc_class + 1)];
    if (!c.tried) {
      c.tried = true;
      auto set = CompiledActionSet::create(domain_, inst.npc_class);
      if (set.ok()) {
        c.set = std::make_unique<CompiledActionSet>(std::move(set).value());
        auto p = info_->create_hot(*c.set, def_);
        if (p.ok()) {
          c.planner = std::move(p).value();
          c.scratch = c.planner->make_scratch();
        }
      }
    }
    if (!c.planner) return PlanStatus::kUnsupported;
    if (out_.empty()) out_.resize(4096);
    PlanOutcome o = c.planner->plan(*c.scratch, inst.init, inst.goal, out_, &len_);
    if (o.status == PlanStatus::kBufferTooSmall) {
      out_.resize(static_cast<size_t>(len_));
      o = c.planner->plan(*c.scratch, inst.init, inst.goal, out_, &len_);
    }
    return o.status;
  }
  // The plan of the last solved call.
  [[nodiscard]] std::span<const ActionId> last() const {
    if (info_ != nullptr && info_->create_hot == nullptr) return cold_.actions;
    return {out_.data(), static_cast<size_t>(len_)};
  }

 private:
  struct PerClass {
    bool tried = false;
    std::unique_ptr<CompiledActionSet> set;
    std::unique_ptr<HotPlanner> planner;
    std::unique_ptr<PlanScratch> scratch;
  };
  const PlannerInfo* info_;
  const Domain& domain_;
  PlannerOptions options_;
  HotPlannerDef def_;
  std::vector<PerClass> classes_;
  std::vector<ActionId> out_;
  int32_t len_ = 0;
  PlanResult cold_;
};

}  // namespace

void run_goap_levels(const BenchConfig& config, LevelsReport& report) {
  report = LevelsReport{};
  PlannerOptions search;  // the default planner's limits, for every search planner here
  search.limits = kAutoSearchLimits;
  search.objective = Objective::kCost;
  enum { kTopo, kAStar, kBack, kAuto, kFallback, kRows };
  const char* names[kRows] = {"topo", "astar", "astar-back", "auto", "astar"};
  std::vector<std::vector<double>> ns(kRows);
  report.rows.resize(kRows);
  for (int r = 0; r < kRows; ++r) {
    report.rows[static_cast<size_t>(r)].planner = names[r];
    report.rows[static_cast<size_t>(r)].subset = r == kFallback ? "topo did not answer" : "all";
  }
  for (int level = 0; level < config.levels; ++level) {
    GoapLevelParams params =
        goap_level_params(config.seed + static_cast<uint64_t>(level), config.max_locations);
    const Task task = goap_level(params);
    const Domain& d = task.domain;
    ++report.levels;
    const int64_t na = d.num_actions();
    report.actions_min = report.levels == 1 ? na : std::min(report.actions_min, na);
    report.actions_max = std::max(report.actions_max, na);
    // Every planner through the registry (hot planners per NPC class, built once per level).
    LevelPlanner topo("topo", d, search), astar("astar", d, search), back("astar-back", d, search);
    auto validate = [&](const Instance& inst, std::span<const ActionId> plan) {
      if (!validate_plan(d, inst, plan).valid) ++report.invalid;
    };
    for (const Instance& inst : task.instances) {
      ++report.instances;
      PlanStatus st = PlanStatus::kGaveUp;
      // ℙ alone.
      const double t_topo = time_call([&] { return topo.plan(inst); }, st);
      count(report.rows[kTopo], st);
      if (st != PlanStatus::kUnsupported) ns[kTopo].push_back(t_topo);
      const bool topo_answers = st == PlanStatus::kSolved || st == PlanStatus::kUnsolvable;
      report.topo_answered += topo_answers;
      if (st == PlanStatus::kSolved) validate(inst, topo.last());
      // A* alone (within the default planner's limits).
      const double t_astar = time_call([&] { return astar.plan(inst); }, st);
      count(report.rows[kAStar], st);
      ns[kAStar].push_back(t_astar);
      const PlanStatus astar_status = st;
      const int64_t astar_cost = st == PlanStatus::kSolved ? plan_cost(d, astar.last()) : 0;
      if (st == PlanStatus::kSolved) validate(inst, astar.last());
      if (!topo_answers) {
        count(report.rows[kFallback], st);
        ns[kFallback].push_back(t_astar);
      }
      // astar-back.
      const double t_back = time_call([&] { return back.plan(inst); }, st);
      count(report.rows[kBack], st);
      ns[kBack].push_back(t_back);
      if (st == PlanStatus::kSolved) validate(inst, back.last());
      // auto: ℙ, then A* (what plan_auto does, on the hot planners).
      bool auto_by_topo = false;
      const double t_auto = time_call(
          [&] {
            const PlanStatus t = topo.plan(inst);
            auto_by_topo = t == PlanStatus::kSolved || t == PlanStatus::kUnsolvable;
            return auto_by_topo ? t : astar.plan(inst);
          },
          st);
      count(report.rows[kAuto], st);
      ns[kAuto].push_back(t_auto);
      report.auto_answered += st == PlanStatus::kSolved || st == PlanStatus::kUnsolvable;
      report.auto_limit += st == PlanStatus::kLimitReached;
      if (st == PlanStatus::kSolved) {
        const std::span<const ActionId> plan = auto_by_topo ? topo.last() : astar.last();
        validate(inst, plan);
        if (astar_status == PlanStatus::kSolved && plan_cost(d, plan) != astar_cost)
          ++report.cost_mismatch;
      }
    }
  }
  for (int r = 0; r < kRows; ++r)
    percentiles(ns[static_cast<size_t>(r)], report.rows[static_cast<size_t>(r)]);
}

// A family's figure: its title, axis, the x values of the sweep and the planners it compares.
bool describe_family(const std::string& family, bool quick, BenchReport& report,
                     std::vector<int32_t>& xs, std::string& error) {
  const bool game = family == "western" || family == "western-pus";
  if (family == "multiprv-n-cycle" || family == "multiprv-n") {
    report.figure = "Figure 1";
    report.x_label = "n (values per variable), m = 10";
    xs = quick ? std::vector<int32_t>{2, 8, 32, 64}
               : std::vector<int32_t>{2, 4, 8, 16, 32, 64, 128, 256, 512};
    report.planners = {"topo", "backstrom"};
  } else if (family == "multiprv-2-cycle" || family == "oneprv-5") {
    report.figure = "Figure 2";
    report.x_label = "m (state variables)";
    xs = quick ? std::vector<int32_t>{10, 50, 100, 200}
               : std::vector<int32_t>{10, 25, 50, 100, 200, 400, 800, 1600};
    report.planners = {"topo", "backstrom"};
  } else if (family == "goap-goto") {
    report.figure = "GoTo chain";
    report.x_label = "n (places and tasks; |A| = 2n)";
    xs = quick ? std::vector<int32_t>{10, 100, 1000}
               : std::vector<int32_t>{10, 50, 100, 500, 1000, 2000, 5000};
    report.planners = {"topo"};
  } else if (game) {
    report.figure = "Figure 3";
    report.x_label = "NPCs";
    report.log_x = true;
    for (int64_t n = 1; n <= (quick ? 100'000 : 2'000'000); n *= 10)
      xs.push_back(static_cast<int32_t>(n));
    if (!quick) xs.push_back(2'000'000);
    xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
    report.planners = family == "western" ? std::vector<std::string>{"topo", "astar"}
                                          : std::vector<std::string>{"topo", "backstrom", "astar"};
  } else {
    error = "unknown family '" + family +
            "' (multiprv-n, multiprv-n-cycle, multiprv-2-cycle, oneprv-5, western, western-pus, "
            "goap-levels, "
            "goap-goto)";
    return false;
  }
  return true;
}

bool run_bench(const std::string& family, const BenchConfig& config, BenchReport& report,
               std::string& error) {
  report = BenchReport{};
  report.family = family;
  const bool game = family == "western" || family == "western-pus";
  std::vector<int32_t> xs;
  if (!describe_family(family, config.quick, report, xs, error)) return false;
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
                      : family == "multiprv-n"       ? multiprv_n(10, x)
                      : family == "multiprv-2-cycle" ? multiprv_2_cycle(x)
                      : family == "goap-goto"        ? goap_goto_chain(x)
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

bool run_bench_task(const Task& task, const std::string& label, const BenchConfig& config,
                    BenchReport& report, std::string& error) {
  report = BenchReport{};
  if (task.instances.empty()) {
    error = label + ": the file has no instance to time";
    return false;
  }
  report.family = label;
  report.figure = "Domain file";
  report.x_label = "instances";
  report.y_label = "nanoseconds per plan";
  report.planners = config.planners.empty()
                        ? std::vector<std::string>{"topo", "astar", "astar-back", "backstrom"}
                        : config.planners;
  report.mix_description =
      std::to_string(task.instances.size()) + " instances of " + task.domain.name() + ", cycled";
  const size_t np = report.planners.size();
  report.mix_ns_per_plan.assign(np, -1);
  BenchPoint pt;
  pt.x = static_cast<double>(task.instances.size());
  pt.ns_per_plan.assign(np, -1);
  for (size_t p = 0; p < np; ++p) {
    std::string why;
    const std::unique_ptr<BenchRunner> r =
        make_runner(report.planners[p], task, config.max_expansions, why);
    if (!r) {
      report.skipped.push_back(why);
      std::fprintf(stderr, "bench: %s\n", why.c_str());
      continue;
    }
    pt.ns_per_plan[p] =
        time_per_plan(*r, task.instances.size(), config.reps, config.min_rep_seconds);
  }
  pt.ms_total = pt.ns_per_plan;
  report.mix_ns_per_plan = pt.ns_per_plan;
  report.points.push_back(pt);
  return true;
}

}  // namespace topoplan::cli
