// `topoplan bench`: the papers' sweeps (Figures 1-3), measured for every planner in one run.
//
// Every planner is found by name in the registry (plan.h) and driven through its hot planner
// (planner.h: created per NPC class from a CompiledActionSet, one scratch, one reused buffer)
// when it registers a hot factory, through its PlanFn otherwise — so any registered planner,
// a user's included, benchmarks without a line here. Before timing, every planner's plan for every
// instance of the point is checked by the validator; a planner that cannot solve the point is
// reported, not timed.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan::cli {

// Plans the instances of one task repeatedly. run(i) plans instance i; returns false on failure.
class BenchRunner {
 public:
  virtual ~BenchRunner() = default;
  virtual bool run(size_t instance) = 0;
};

// A runner for `planner` (any registered name) on `task`, or
// nullptr with `why` set when the planner cannot handle the task (unsupported, fails the
// validator or the limits). `max_expansions` bounds search-based planners.
std::unique_ptr<BenchRunner> make_runner(const std::string& planner, const Task& task,
                                         int64_t max_expansions, std::string& why);

struct BenchConfig {
  int reps = 5;                   // repetitions; the median is reported
  double min_rep_seconds = 0.05;  // each repetition plans at least this long
  double max_point_seconds = 3;   // skip larger points of a planner past this budget
  int64_t max_expansions = 2'000'000;
  std::vector<std::string> planners;  // empty: the family's default set
  bool quick = false;                 // fewer, smaller sweep points
  int levels = 500;                   // goap-levels: generated levels (4 instances each)
  int max_locations = 50;             // goap-levels: largest level drawn
  uint64_t seed = 1;                  // goap-levels: first level seed
};

struct BenchPoint {
  double x = 0;                     // n, m or number of NPCs
  std::vector<double> ns_per_plan;  // per planner; < 0 when not measured
  std::vector<double> ms_total;     // Figure 3: milliseconds for x NPCs; else = ns_per_plan
  double size = -1;  // synthetic families: |A| + |E_A| (post-pre + post-prevail edges), Figs 1-2
};

struct BenchReport {
  std::string family;
  std::string x_label;  // "n", "m" or "NPCs"
  std::string y_label;  // what the chart plots
  std::string figure;   // "Figure 1" ...
  bool log_x = false;
  std::vector<std::string> planners;
  std::vector<std::string> skipped;  // "planner: why", for planners dropped at some point
  std::vector<BenchPoint> points;
  // The family's instance mix (Western, Western-PUS), or the largest point measured by all.
  std::vector<double> mix_ns_per_plan;  // per planner; < 0 when not measured
  std::string mix_description;
};

// `bench goap-levels`: per-instance latency of ℙ, A*, astar-back and auto on generated GOAP levels
// (families.h goap_level), search planners within the default planner's limits
// (kAutoSearchLimits), each call timed alone (median of up to 3 runs).
struct LatencyStats {
  std::string planner;
  std::string subset;    // which instances ("all", or "topo gave up": the fallback's share)
  int64_t measured = 0;  // calls timed
  int64_t solved = 0, unsolvable = 0, limit = 0, gave_up = 0, unsupported = 0;
  double p50_us = -1, p99_us = -1, max_us = -1;
};
struct LevelsReport {
  int64_t levels = 0;
  int64_t instances = 0;
  int64_t actions_min = 0, actions_max = 0;  // |A| of the levels
  int64_t topo_answered = 0;                 // ℙ solved or proved unsolvable
  int64_t auto_answered = 0, auto_limit = 0;
  int64_t invalid = 0;        // plans the validator rejected (must be 0)
  int64_t cost_mismatch = 0;  // auto and A* both solved with different costs (must be 0)
  std::vector<LatencyStats> rows;
};
void run_goap_levels(const BenchConfig& config, LevelsReport& report);

// `bench --domain FILE`: the instances of `task` (read from the file `label`) cycled, one
// point, ns per plan for each planner (default: topo, astar, astar-back, backstrom; a planner
// that refuses the task or fails an instance is skipped with the reason). False with `error`
// set when the task has no instance.
bool run_bench_task(const Task& task, const std::string& label, const BenchConfig& config,
                    BenchReport& report, std::string& error);

// Runs the sweep of `family`; false with `error` set for an unknown family.
bool run_bench(const std::string& family, const BenchConfig& config, BenchReport& report,
               std::string& error);

// A chart of the report in the style of the papers' figures (log-scale y), as SVG text.
std::string bench_svg(const BenchReport& report);

}  // namespace topoplan::cli
