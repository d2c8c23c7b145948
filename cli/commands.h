// The topoplan command-line tool: one file per subcommand (cmd_*.cpp), each registering itself
// with CLI11 through add_*_command(). Shared helpers (loading a task, picking the instance,
// exit codes) live in common.cpp.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"

namespace topoplan::cli {

// Exit codes (Fast Downward's conventions where they exist).
enum ExitCode : int {
  kExitOk = 0,
  kExitInvalidPlan = 1,  // validate: the plan is not valid
  kExitUsage = 2,
  kExitUnsolvable = 11,  // proven unsolvable
  kExitNoPlan = 12,      // no plan and no proof (limits, planner gave up or refused)
  kExitInputError = 33,
};

// Maps a planner status to the exit code of `topoplan plan`.
int exit_code_for(PlanStatus status);

// Options every command that reads a TASK shares: the file, and how to pick the instance.
struct TaskOptions {
  std::string path;
  std::string instance;   // --instance NAME (native files with several instances)
  std::string init;       // --init "var=value,..."
  std::string goal;       // --goal "var=value,..."
  std::string npc_class;  // --class NAME
  // Whether --init / --goal / --class / --instance were given at all: an empty value is an
  // error, never "not given".
  bool init_given = false, goal_given = false, class_given = false, instance_given = false;
  [[nodiscard]] bool selects() const {
    return init_given || goal_given || class_given || instance_given;
  }
};
void add_task_options(CLI::App& cmd, TaskOptions& options);

// A loaded task with the instance the options select. Prints "file:line: message" to stderr
// and returns std::nullopt on failure (the caller exits with kExitInputError).
struct LoadedTask {
  Task task;
  Instance instance;
};
std::optional<LoadedTask> load_task_and_instance(const TaskOptions& options);
// Loads only the task (no instance needed), printing errors as above.
std::optional<Task> load_task_only(const std::string& path);

// A subcommand and the options object its flags are bound to.
template <class Options>
struct Subcommand {
  CLI::App* cmd;
  Options* options;
};

// Registers subcommand NAME. CLI11 binds flags by reference, so the options live as long as the
// callback that owns them; when the subcommand is chosen, exit_code = RUN(options), or
// RUN(options, subcommand) for a command that asks which flags were given.
template <class Options, class Run>
Subcommand<Options> add_subcommand(CLI::App& app, int& exit_code, const std::string& name,
                                   const std::string& help, Run run) {
  auto options = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(name, help);
  cmd->callback([options, cmd, run, &exit_code] {
    if constexpr (std::is_invocable_v<Run, Options&, const CLI::App&>)
      exit_code = run(*options, *cmd);
    else {
      (void)cmd;  // clang warns of a capture that this branch leaves unused
      exit_code = run(*options);
    }
  });
  return {cmd, options.get()};
}

void add_plan_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);
void add_show_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_agent_command(CLI::App& app, int& exit_code);
void add_convert_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_crowd_command(CLI::App& app, int& exit_code);
void add_ambiance_command(CLI::App& app, int& exit_code);
void add_goals_command(CLI::App& app, int& exit_code);
void add_sim_command(CLI::App& app, int& exit_code);
void add_agents_command(CLI::App& app, int& exit_code);

}  // namespace topoplan::cli
