// topoplan validate TASK PLAN
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>

#include "commands.h"
#include "files.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/validate.h"

namespace topoplan::cli {
namespace {

struct ValidateOptions {
  TaskOptions task;
  std::string plan_path;
};

int run_validate(const ValidateOptions& options) {
  std::optional<LoadedTask> loaded = load_task_and_instance(options.task);
  if (!loaded) return kExitInputError;
  Result<std::vector<ActionId>> plan =
      load_plan(loaded->task.domain, options.plan_path, input_limits());
  if (!plan) {
    std::fprintf(stderr, "%s\n", plan.error().to_string().c_str());
    return kExitInputError;
  }
  Validation v = validate_plan(loaded->task.domain, loaded->instance, *plan);
  if (!v.valid) {
    std::printf("invalid plan: %s\n", v.reason.c_str());
    return kExitInvalidPlan;
  }
  std::printf("valid plan: %zu actions, cost %lld\n", plan->size(), static_cast<long long>(v.cost));
  return kExitOk;
}

}  // namespace

void add_validate_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<ValidateOptions>(
      app, exit_code, "validate",
      "check a plan: exit 0 if valid, 1 with the first failing step if not", run_validate);
  add_task_options(*cmd, options->task);
  cmd->add_option("PLAN", options->plan_path, "plan file: one (action name) per line")->required();
}

}  // namespace topoplan::cli
