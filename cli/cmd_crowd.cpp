// topoplan crowd: the crowd benchmark. A town of N NPCs (topoplan/tools/town.h: a built-in town by
// name, or any domain file whose instances serve as routines; docs/crowds.md), planned cold (no
// cache, every NPC through ℙ), warm (plan cache, steady state with churn) and a frame at a time
// (1.67 ms budget). Medians over repetitions; --json prints one object.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "crowd_measure.h"
#include "numeric_option.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/town.h"

namespace topoplan::cli::crowd_bench {
namespace {

// A --class-fallback value: "" when it reads CLASS=PLANNER[,PLANNER...], else the reason (the
// names are checked by Crowd::create once the domain is loaded).
std::string check_class_fallback(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    return "expected CLASS=PLANNER[,PLANNER...] (or CLASS=none), got '" + text + "'";
  return "";
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
}  // namespace topoplan::cli::crowd_bench

namespace topoplan::cli {

void add_crowd_command(CLI::App& app, int& exit_code) {
  using crowd_bench::CrowdOptions;
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
      ->check(CLI::Validator([](std::string& s) { return crowd_bench::check_class_fallback(s); },
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
    exit_code = crowd_bench::run_crowd(*options);
  });
}

}  // namespace topoplan::cli
