// topoplan goals [--npcs N] [--threads T] [--reps R] [--seed S] [--json]
//
// Benchmark of goal selection for crowds (Sloan 2015 drives and utility choosing SAS goals for ℙ):
// a Western town of N NPCs (random classes and needs, a quarter with one variable moved off
// dawn, seeded), GoalSelector::select over the whole batch, then the crowd batch planner on the
// selected goals (cold: no plan cache; warm: a plan cache filled by a first pass). Reports ns per
// NPC for selection alone and for selection + planning, best of R repetitions, and the outcome
// counts (goals chosen, plans solved), so the figure can be checked for what it measured.
// References: docs/references.md.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "numeric_option.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"
#include "topoplan/udgoap/goal_selection.h"

namespace topoplan::cli {
namespace {

using namespace topoplan::udgoap;

struct GoalsOptions {
  int64_t npcs = 1000000;
  int32_t threads = 1;
  int32_t reps = 3;
  uint64_t seed = 1;
  bool json = false;
};

double now_ns() {
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                 std::chrono::steady_clock::now().time_since_epoch())
                                 .count());
}

// What run_goals measured: the best of --reps per NPC, and the last cold batch's answers.
struct GoalsFigures {
  int64_t npcs = 0;
  int32_t facts = 0;
  double sel_ns = 0, cold_ns = 0, warm_ns = 0;
  int64_t chosen = 0, solved = 0, nonempty = 0, unsolvable = 0, too_small = 0, cache_hits = 0;
};

void report_goals(const GoalsOptions& o, const GoalsFigures& g) {
  if (o.json) {
    nlohmann::json j = {{"domain", "western"},
                        {"npcs", g.npcs},
                        {"threads", o.threads},
                        {"reps", o.reps},
                        {"seed", o.seed},
                        {"facts_per_npc", g.facts},
                        {"input_bytes_per_npc", 2 + 4 * g.facts},
                        {"select_ns_per_npc", g.sel_ns},
                        {"select_plan_cold_ns_per_npc", g.cold_ns},
                        {"select_plan_warm_ns_per_npc", g.warm_ns},
                        {"goals_chosen", g.chosen},
                        {"plans_solved", g.solved},
                        {"plans_nonempty", g.nonempty},
                        {"unsolvable", g.unsolvable},
                        {"buffer_too_small", g.too_small},
                        {"cache_hits_warm", g.cache_hits}};
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("goal selection, western, %lld NPCs, %d thread(s), best of %d (wall clock)\n",
                static_cast<long long>(g.npcs), o.threads, o.reps);
    std::printf("  input                %d facts = %d bytes per NPC\n", g.facts, 2 + 4 * g.facts);
    std::printf("  selection            %8.1f ns/NPC\n", g.sel_ns);
    std::printf("  selection + ℙ cold   %8.1f ns/NPC (no plan cache)\n", g.cold_ns);
    std::printf("  selection + ℙ warm   %8.1f ns/NPC (plan cache, %lld hits)\n", g.warm_ns,
                static_cast<long long>(g.cache_hits));
    std::printf("  goals chosen %lld, plans solved %lld (non-empty %lld), unsolvable %lld\n",
                static_cast<long long>(g.chosen), static_cast<long long>(g.solved),
                static_cast<long long>(g.nonempty), static_cast<long long>(g.unsolvable));
  }
}

int run_goals(const GoalsOptions& o) {
  const Task task = western();
  const Domain& domain = task.domain;
  Result<GoalSelector> created = GoalSelector::create(domain, western_goal_selection(domain));
  Result<CrowdPlanner> planner = CrowdPlanner::create(domain);
  if (!created || !planner) {
    std::fprintf(stderr, "topoplan goals: %s\n",
                 (!created ? created.error() : planner.error()).to_string().c_str());
    return kExitInputError;
  }
  const GoalSelector& selector = created.value();
  const int64_t n = o.npcs;
  const int32_t f = selector.num_facts();
  const int32_t words = selector.layout().words();

  // Input (structure of arrays), seeded: the library's goal town (town.h).
  const GoalTown town = make_goal_town(domain, n, f, o.seed);
  const std::vector<uint16_t>& npc_class = town.npc_class;
  std::vector<int32_t> goal(static_cast<size_t>(n));
  std::vector<float> gain(static_cast<size_t>(n));
  std::vector<uint64_t> init(static_cast<size_t>(n * words)), packed_goal(init.size());
  const GoalSelectionBatch batch{npc_class, town.facts};
  const GoalSelectionOutput sel_out{goal, gain, init, packed_goal};

  // Crowd planner output.
  const size_t capacity = static_cast<size_t>(n) * 12;  // Western plans: <= 10 actions mostly
  std::vector<ActionId> actions(capacity);
  std::vector<uint32_t> offset(static_cast<size_t>(n));
  std::vector<uint16_t> length(static_cast<size_t>(n));
  std::vector<CrowdStatus> status(static_cast<size_t>(n));
  const CrowdOutput plan_out{actions, offset, length, status};
  std::unique_ptr<CrowdThreadPool> pool;
  CrowdDef cold_def;
  if (o.threads > 1) {
    pool = std::make_unique<CrowdThreadPool>(o.threads);
    pool->install(cold_def);
  }
  Result<Crowd> cold = Crowd::create(planner.value(), cold_def);
  PlanCache cache(planner.value());
  CrowdDef warm_def = cold_def;
  warm_def.cache = &cache;
  Result<Crowd> warm = Crowd::create(planner.value(), warm_def);
  if (!cold || !warm) {
    std::fprintf(stderr, "topoplan goals: %s\n",
                 (!cold ? cold.error() : warm.error()).to_string().c_str());
    return kExitUsage;
  }

  // Selection on `threads` std::threads over equal ranges (select() is range-parallel).
  const auto select_all = [&] {
    if (o.threads <= 1) {
      selector.select(batch, 0, n, sel_out);
      return;
    }
    std::vector<std::thread> ts;
    for (int32_t t = 0; t < o.threads; ++t) {
      const int64_t b = n * t / o.threads, e = n * (t + 1) / o.threads;
      ts.emplace_back([&, b, e] { selector.select(batch, b, e, sel_out); });
    }
    for (std::thread& t : ts) t.join();
  };
  double best_sel = 1e300, best_cold = 1e300, best_warm = 1e300;
  CrowdStats cold_stats, warm_stats;
  (void)warm->plan({npc_class, init, packed_goal}, plan_out);  // fills the cache (unmeasured)
  for (int32_t r = 0; r < o.reps; ++r) {
    double t0 = now_ns();
    select_all();
    best_sel = std::min(best_sel, now_ns() - t0);
    t0 = now_ns();
    select_all();
    cold_stats = cold->plan({npc_class, init, packed_goal}, plan_out);
    best_cold = std::min(best_cold, now_ns() - t0);
    t0 = now_ns();
    select_all();
    warm_stats = warm->plan({npc_class, init, packed_goal}, plan_out);
    best_warm = std::min(best_warm, now_ns() - t0);
  }
  GoalsFigures g;
  g.npcs = n;
  g.facts = f;
  g.cache_hits = warm_stats.cache_hits;
  cold_stats = cold->plan({npc_class, init, packed_goal}, plan_out);
  for (int64_t i = 0; i < n; ++i) {
    g.chosen += goal[static_cast<size_t>(i)] >= 0;
    const CrowdStatus s = status[static_cast<size_t>(i)];
    g.solved += (s & kCrowdSolved) != 0;
    g.nonempty += (s & kCrowdSolved) != 0 && length[static_cast<size_t>(i)] > 0;
    g.unsolvable += (s & kCrowdUnsolvable) != 0;
    g.too_small += (s & kCrowdBufferTooSmall) != 0;
  }
  const double dn = static_cast<double>(n);
  g.sel_ns = best_sel / dn;
  g.cold_ns = best_cold / dn;
  g.warm_ns = best_warm / dn;
  report_goals(o, g);
  return kExitOk;
}

}  // namespace

void add_goals_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<GoalsOptions>(
      app, exit_code, "goals",
      "benchmark goal selection for crowds (drives/utility choose SAS goals, ℙ plans)", run_goals);
  add_number(*cmd, "--npcs", options->npcs, int64_t{1}, int64_t{50000000},
             "NPCs in the batch (default 1000000)");
  add_number(*cmd, "--threads", options->threads, 1, 256, "threads (default 1)");
  add_number(*cmd, "--reps", options->reps, 1, 1000,
             "repetitions; the best is reported (default 3)");
  add_number(*cmd, "--seed", options->seed, uint64_t{0}, UINT64_MAX,
             "seed of the generated town (default 1)");
  cmd->add_flag("--json", options->json, "print the figures as JSON");
}

}  // namespace topoplan::cli
