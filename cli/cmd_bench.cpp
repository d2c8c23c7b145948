// topoplan bench FAMILY: the papers' Figures 1-3 with every planner timed in the same run;
// topoplan bench --domain FILE: the planners on the instances of any domain file.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "bench_run.h"
#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/tools/families.h"

namespace topoplan::cli {
namespace {

struct BenchOptions {
  std::string family;
  std::string domain;  // --domain FILE
  bool json = false;
  std::string csv;
  std::string plot;
  BenchConfig config;
};

double ratio(double num, double den) {
  return (num > 0 && den > 0) ? num / den : -1;
}

nlohmann::json to_json(const BenchReport& r, const BenchConfig& c) {
  nlohmann::json j;
  j["family"] = r.family;
  j["figure"] = r.figure;
  j["reps"] = c.reps;
  j["mix"] = r.mix_description;
  nlohmann::json ns = nlohmann::json::object(), pps = nlohmann::json::object();
  for (size_t p = 0; p < r.planners.size(); ++p) {
    if (r.mix_ns_per_plan[p] < 0) continue;
    ns[r.planners[p]] = r.mix_ns_per_plan[p];
    pps[r.planners[p]] = 1e9 / r.mix_ns_per_plan[p];
  }
  j["ns_per_plan"] = ns;
  j["plans_per_second_per_core"] = pps;
  nlohmann::json ratios = nlohmann::json::object();
  for (size_t p = 1; p < r.planners.size(); ++p) {
    const double q = ratio(r.mix_ns_per_plan[p], r.mix_ns_per_plan[0]);
    if (q > 0) ratios[r.planners[p] + "/" + r.planners[0]] = q;
  }
  j["ratios"] = ratios;
  nlohmann::json sweep = nlohmann::json::array();
  for (const BenchPoint& pt : r.points) {
    nlohmann::json e;
    e["x"] = pt.x;
    if (pt.size > 0) e["size"] = pt.size;
    for (size_t p = 0; p < r.planners.size(); ++p) {
      if (pt.ns_per_plan[p] < 0) continue;
      e["ns_per_plan"][r.planners[p]] = pt.ns_per_plan[p];
      if (r.figure == "Figure 3") e["ms_total"][r.planners[p]] = pt.ms_total[p];
    }
    sweep.push_back(e);
  }
  j["x_label"] = r.x_label;
  j["sweep"] = sweep;
  j["skipped"] = r.skipped;
  return j;
}

void print_table(const BenchReport& r) {
  std::printf("%s: %s (median of reps; ns per plan)\n", r.figure.c_str(), r.family.c_str());
  std::printf("%12s", r.figure == "Figure 3"      ? "NPCs"
                      : r.figure == "Domain file" ? "instances"
                                                  : r.x_label.substr(0, 1).c_str());
  for (const std::string& p : r.planners) std::printf(" %14s", p.c_str());
  if (r.figure == "Figure 3")
    for (const std::string& p : r.planners) std::printf(" %12s", (p + " ms").c_str());
  for (size_t p = 1; p < r.planners.size(); ++p)
    std::printf(" %14s", (r.planners[p] + "/" + r.planners[0]).c_str());
  std::printf("\n");
  for (const BenchPoint& pt : r.points) {
    std::printf("%12.0f", pt.x);
    for (double v : pt.ns_per_plan) v < 0 ? std::printf(" %14s", "-") : std::printf(" %14.1f", v);
    if (r.figure == "Figure 3")
      for (double v : pt.ms_total) v < 0 ? std::printf(" %12s", "-") : std::printf(" %12.3f", v);
    for (size_t p = 1; p < r.planners.size(); ++p) {
      const double q = ratio(pt.ns_per_plan[p], pt.ns_per_plan[0]);
      q < 0 ? std::printf(" %14s", "-") : std::printf(" %14.1f", q);
    }
    std::printf("\n");
  }
  std::printf("summary (%s):", r.mix_description.c_str());
  for (size_t p = 0; p < r.planners.size(); ++p) {
    if (r.mix_ns_per_plan[p] < 0) continue;
    std::printf("  %s %.1f ns/plan (%.3g plans/s/core)", r.planners[p].c_str(),
                r.mix_ns_per_plan[p], 1e9 / r.mix_ns_per_plan[p]);
  }
  for (size_t p = 1; p < r.planners.size(); ++p) {
    const double q = ratio(r.mix_ns_per_plan[p], r.mix_ns_per_plan[0]);
    if (q > 0) std::printf("  %s/%s %.1fx", r.planners[p].c_str(), r.planners[0].c_str(), q);
  }
  std::printf("\n");
  for (const std::string& s : r.skipped) std::printf("skipped: %s\n", s.c_str());
  if (!r.points.empty() && r.points.front().size > 0) {  // linearity check (Figures 1-2)
    std::printf("linearity: ns per (|A| + |E_A|); flat = linear in the action graph\n");
    std::printf("%12s %14s", r.x_label.substr(0, 1).c_str(), "|A|+|E_A|");
    for (const std::string& p : r.planners) std::printf(" %14s", p.c_str());
    std::printf("\n");
    for (const BenchPoint& pt : r.points) {
      std::printf("%12.0f %14.0f", pt.x, pt.size);
      for (double v : pt.ns_per_plan)
        v < 0 ? std::printf(" %14s", "-") : std::printf(" %14.3f", v / pt.size);
      std::printf("\n");
    }
  }
}

bool write_file(const std::string& path, const std::string& text) {
  return write_output("bench", path, text, {});
}

std::string to_csv(const BenchReport& r) {
  std::string s = "family,planner,x,ns_per_plan,ms_total,plans_per_second,size\n";
  for (const BenchPoint& pt : r.points)
    for (size_t p = 0; p < r.planners.size(); ++p) {
      if (pt.ns_per_plan[p] < 0) continue;
      char line[256];
      std::snprintf(line, sizeof line, "%s,%s,%.0f,%.3f,%.6f,%.1f,%.0f\n", r.family.c_str(),
                    r.planners[p].c_str(), pt.x, pt.ns_per_plan[p], pt.ms_total[p],
                    1e9 / pt.ns_per_plan[p], pt.size);
      s += line;
    }
  return s;
}

// `bench goap-levels`: a latency table per planner, not a sweep.
int run_levels(const BenchOptions& o) {
  LevelsReport r;
  run_goap_levels(o.config, r);
  const double share = r.instances == 0 ? 0
                                        : 100.0 * static_cast<double>(r.topo_answered) /
                                              static_cast<double>(r.instances);
  if (o.json) {
    nlohmann::json j;
    j["family"] = "goap-levels";
    j["levels"] = r.levels;
    j["instances"] = r.instances;
    j["max_locations"] = o.config.max_locations;
    j["actions"] = {r.actions_min, r.actions_max};
    j["limits"] = {{"max_expansions", kAutoSearchLimits.max_expansions},
                   {"max_memory_mib", kAutoSearchLimits.max_memory_bytes >> 20},
                   {"max_seconds", kAutoSearchLimits.max_seconds}};
    j["topo_answered"] = r.topo_answered;
    j["topo_share_percent"] = share;
    j["auto_answered"] = r.auto_answered;
    j["auto_limit_reached"] = r.auto_limit;
    j["invalid_plans"] = r.invalid;
    j["cost_mismatch"] = r.cost_mismatch;
    nlohmann::json rows = nlohmann::json::array();
    for (const LatencyStats& x : r.rows)
      rows.push_back({{"planner", x.planner},
                      {"instances", x.subset},
                      {"measured", x.measured},
                      {"solved", x.solved},
                      {"unsolvable", x.unsolvable},
                      {"limit", x.limit},
                      {"gave_up", x.gave_up},
                      {"unsupported", x.unsupported},
                      {"p50_us", x.p50_us},
                      {"p99_us", x.p99_us},
                      {"max_us", x.max_us}});
    j["latency"] = rows;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf(
        "GOAP levels: %lld levels, %lld instances, %lld-%lld actions, up to %d places; "
        "search limits %lld expansions, %lld MiB, %g s\n",
        static_cast<long long>(r.levels), static_cast<long long>(r.instances),
        static_cast<long long>(r.actions_min), static_cast<long long>(r.actions_max),
        o.config.max_locations, static_cast<long long>(kAutoSearchLimits.max_expansions),
        static_cast<long long>(kAutoSearchLimits.max_memory_bytes >> 20),
        kAutoSearchLimits.max_seconds);
    std::printf("%-11s %-20s %9s %8s %8s %6s %8s %8s %11s %11s %11s\n", "planner", "instances",
                "measured", "solved", "unsolv", "limit", "gave-up", "unsupp", "p50 us", "p99 us",
                "max us");
    for (const LatencyStats& x : r.rows)
      std::printf("%-11s %-20s %9lld %8lld %8lld %6lld %8lld %8lld %11.2f %11.2f %11.2f\n",
                  x.planner.c_str(), x.subset.c_str(), static_cast<long long>(x.measured),
                  static_cast<long long>(x.solved), static_cast<long long>(x.unsolvable),
                  static_cast<long long>(x.limit), static_cast<long long>(x.gave_up),
                  static_cast<long long>(x.unsupported), x.p50_us, x.p99_us, x.max_us);
    std::printf(
        "answered by topo: %lld / %lld (%.2f%%); auto answered %lld, limit reached %lld; "
        "invalid plans %lld; auto/A* cost mismatches %lld\n",
        static_cast<long long>(r.topo_answered), static_cast<long long>(r.instances), share,
        static_cast<long long>(r.auto_answered), static_cast<long long>(r.auto_limit),
        static_cast<long long>(r.invalid), static_cast<long long>(r.cost_mismatch));
  }
  return r.invalid == 0 && r.cost_mismatch == 0 ? kExitOk : 1;
}

// Every --planners name is a registered planner (as plan's --planner): else exit 2, not a
// table of "-".
bool planners_known(const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (find_planner(name) != nullptr) continue;
    std::string known;
    for (const PlannerInfo& p : planners())
      known += (known.empty() ? "" : ", ") + std::string(p.name);
    std::fprintf(stderr, "topoplan bench: --planners: unknown planner '%s' (available: %s)\n",
                 name.c_str(), known.c_str());
    return false;
  }
  return true;
}

int run(const BenchOptions& o) {
  if (!planners_known(o.config.planners)) return kExitUsage;
  if (o.family == "goap-levels") return run_levels(o);
  BenchReport report;
  std::string error;
  if (!o.domain.empty()) {
    const std::optional<Task> task = load_task_only(o.domain);
    if (!task) return kExitInputError;
    if (!run_bench_task(*task, o.domain, o.config, report, error)) {
      std::fprintf(stderr, "topoplan bench: %s\n", error.c_str());
      return kExitInputError;
    }
  } else if (!run_bench(o.family, o.config, report, error)) {
    std::fprintf(stderr, "topoplan bench: %s\n", error.c_str());
    return kExitUsage;
  }
  if (o.json)
    std::printf("%s\n", to_json(report, o.config).dump(2).c_str());
  else
    print_table(report);
  if (!o.csv.empty() && !write_file(o.csv, to_csv(report))) return kExitInputError;
  if (!o.plot.empty() && !write_file(o.plot, bench_svg(report))) return kExitInputError;
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<BenchOptions>(
      app, exit_code, "bench", "time the planners on a benchmark family (the papers' Figures 1-3)",
      [](const BenchOptions& o) {
        if (o.family.empty() && o.domain.empty())
          throw CLI::RequiredError("FAMILY or --domain FILE");
        return run(o);
      });
  CLI::Option* family = cmd->add_option(
      "FAMILY", options->family,
      "multiprv-n, multiprv-n-cycle (Fig. 1), multiprv-2-cycle, oneprv-5 (Fig. 2), western, "
      "western-pus (Fig. 3), goap-levels (latency of topo, astar, astar-back, auto), "
      "goap-goto (topo's linearity on GoTo actions); or --domain FILE");
  cmd->add_option("--domain", options->domain,
                  "time the planners on the instances of a domain file (native or SAS) instead "
                  "of a family")
      ->excludes(family);
  cmd->add_flag("--json", options->json, "print one JSON object instead of a table");
  cmd->add_option("--csv", options->csv, "also write the sweep as CSV to FILE")
      ->check(non_empty_file());
  cmd->add_option("--plot", options->plot, "also write the chart as SVG to FILE")
      ->check(non_empty_file());
  add_number(*cmd, "--reps", options->config.reps, 1, 1000,
             "repetitions per point (median reported)");
  cmd->add_option("--planners", options->config.planners,
                  "planners to time (default: the family's set; first one is the reference)")
      ->delimiter(',');
  add_number(*cmd, "--max-point-seconds", options->config.max_point_seconds, 0.0, 1e6,
             "drop a planner from larger points once one point costs this long");
  cmd->add_flag("--quick", options->config.quick, "fewer and smaller sweep points");
  add_number(*cmd, "--levels", options->config.levels, 1, 10'000'000,
             "goap-levels: levels generated (4 instances each)");
  add_number(*cmd, "--max-locations", options->config.max_locations, 3, kMaxGoapLocations,
             "goap-levels: largest level (places)");
  add_number(*cmd, "--seed", options->config.seed, uint64_t{0}, UINT64_MAX,
             "goap-levels: first level seed");
}

}  // namespace topoplan::cli
