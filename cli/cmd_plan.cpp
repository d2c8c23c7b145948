// topoplan plan TASK [--planner NAME] [-o FILE] [--stats] [--max-expansions N] [--max-memory MIB]
// [--time-limit S]
#include <cstdio>
#include <fstream>
#include <memory>

#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/validate.h"

namespace topoplan::cli {
namespace {

struct PlanOptions {
  TaskOptions task;
  std::string planner = "auto";
  std::string output;
  std::string objective = "cost";
  int64_t max_expansions = SearchLimits{}.max_expansions;
  double max_seconds = 0.0;
  int64_t max_memory_mib = SearchLimits{}.max_memory_bytes >> 20;
  bool stats = false;
  // Which limits the user gave: `auto` keeps its own bounded defaults for the others.
  bool given_expansions = false, given_memory = false, given_seconds = false;
};

int run_plan(const PlanOptions& options) {
  const PlannerInfo* planner = find_planner(options.planner);
  if (planner == nullptr) {
    std::string names;
    for (const PlannerInfo& p : planners())
      names += (names.empty() ? "" : ", ") + std::string(p.name);
    std::fprintf(stderr, "topoplan plan: unknown planner '%s' (available: %s)\n",
                 options.planner.c_str(), names.c_str());
    return kExitUsage;
  }
  std::optional<LoadedTask> loaded = load_task_and_instance(options.task);
  if (!loaded) return kExitInputError;
  const Domain& domain = loaded->task.domain;

  PlannerOptions popts;
  popts.limits.max_expansions = options.max_expansions;
  popts.limits.max_seconds = options.max_seconds;
  popts.limits.max_memory_bytes = options.max_memory_mib << 20;
  // `auto` searches within kAutoSearchLimits unless the user raises (or lowers) them.
  if (options.given_expansions) popts.auto_limits.max_expansions = options.max_expansions;
  if (options.given_memory) popts.auto_limits.max_memory_bytes = options.max_memory_mib << 20;
  if (options.given_seconds) popts.auto_limits.max_seconds = options.max_seconds;
  popts.objective = options.objective == "length" ? Objective::kLength : Objective::kCost;
  PlanResult result = planner->plan(domain, loaded->instance, popts);

  if (options.stats) {
    std::fprintf(stderr, "; planner: %s, engine: %s, status: %s, time: %.6f s, expanded: %lld\n",
                 std::string(planner->name).c_str(), result.stats.engine.c_str(),
                 std::string(to_string(result.status)).c_str(), result.stats.seconds,
                 static_cast<long long>(result.stats.expanded));
    if (!result.stats.reason.empty())
      std::fprintf(stderr, "; reason: %s\n", result.stats.reason.c_str());
  }
  if (result.status != PlanStatus::kSolved) {
    std::fprintf(stderr, "topoplan plan: %s: %s\n", std::string(to_string(result.status)).c_str(),
                 limit_words_for(result.message, LimitDoor::kCli).c_str());
    return exit_code_for(result.status);
  }
  // Defence in depth: never print a plan the validator rejects.
  Validation check = validate_plan(domain, loaded->instance, result.actions);
  if (!check.valid) {
    std::fprintf(stderr,
                 "topoplan plan: internal error: planner '%s' produced an invalid plan: %s\n",
                 result.stats.engine.c_str(), check.reason.c_str());
    return 70;
  }
  const std::string text = write_plan(domain, result.actions);
  const std::string inputs[] = {options.task.path};
  return write_output("plan", options.output, text, inputs) ? kExitOk : kExitInputError;
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<PlanOptions>(
      app, exit_code, "plan", "find a plan and print it as Fast Downward does",
      [](PlanOptions& o, const CLI::App& given) {
        o.given_expansions = given.count("--max-expansions") > 0;
        o.given_memory = given.count("--max-memory") > 0;
        o.given_seconds = given.count("--time-limit") > 0;
        return run_plan(o);
      });
  add_task_options(*cmd, options->task);
  cmd->add_option("--planner", options->planner, "planner name (see `topoplan plan --help`)")
      ->capture_default_str();
  cmd->add_option("-o,--output", options->output, "write the plan to FILE instead of stdout")
      ->check(non_empty_file());
  cmd->add_option("--objective", options->objective,
                  "what optimal means for search planners: cost or length")
      ->check(CLI::IsMember({"cost", "length"}))
      ->capture_default_str();
  add_limit(*cmd, limits::kMaxExpansions, options->max_expansions,
            "node limit of search planners (then exit 12); auto's default: " +
                std::to_string(kAutoSearchLimits.max_expansions))
      ->capture_default_str();
  add_number(*cmd, "--max-memory", options->max_memory_mib, int64_t{1}, int64_t{1} << 30,
             "memory limit of search planners in MiB (then exit 12); auto's default: " +
                 std::to_string(kAutoSearchLimits.max_memory_bytes >> 20))
      ->capture_default_str();
  add_limit(*cmd, limits::kMaxSeconds, options->max_seconds,
            "time limit of search planners in seconds, 0 = none (then exit 12); auto's "
            "default: " +
                std::to_string(kAutoSearchLimits.max_seconds).substr(0, 3),
            "--time-limit,--max-seconds");
  cmd->add_flag("--stats", options->stats, "print which engine answered and the time to stderr");
  std::string footer = "Planners:";
  for (const PlannerInfo& p : planners())
    footer += "\n  " + std::string(p.name) + ": " + std::string(p.description);
  footer +=
      "\nExit codes: 0 plan found, 11 proven unsolvable, 12 no plan and no proof, "
      "33 input error, 2 usage error.";
  cmd->footer(footer);
}

}  // namespace topoplan::cli
