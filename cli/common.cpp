#include <algorithm>
#include <cstdio>

#include "commands.h"
#include "files.h"
#include "topoplan/io/formats.h"

namespace topoplan::cli {

int exit_code_for(PlanStatus status) {
  // A plan, a proof that none exists, or neither (a limit, a refusal, a short buffer).
  if (status == PlanStatus::kSolved) return kExitOk;
  return status == PlanStatus::kUnsolvable ? kExitUnsolvable : kExitNoPlan;
}

void add_task_options(CLI::App& cmd, TaskOptions& options) {
  cmd.add_option("TASK", options.path, "task file: native .toml or Fast Downward .sas")->required();
  auto given = [&options](std::string TaskOptions::*field, bool TaskOptions::*flag) {
    return [&options, field, flag](const std::string& value) {
      options.*field = value;
      options.*flag = true;
    };
  };
  cmd.add_option_function<std::string>("--instance",
                                       given(&TaskOptions::instance, &TaskOptions::instance_given),
                                       "instance of the file to use, by name (default: the first)");
  cmd.add_option_function<std::string>(
      "--init", given(&TaskOptions::init, &TaskOptions::init_given),
      "initial state by value names, e.g. \"haystack=stored,bucket=onFloor,...\" "
      "(all variables)");
  cmd.add_option_function<std::string>(
      "--goal", given(&TaskOptions::goal, &TaskOptions::goal_given),
      "goal by value names, e.g. \"haystack=inFeeder\" (partial, at least one variable)");
  cmd.add_option_function<std::string>("--class",
                                       given(&TaskOptions::npc_class, &TaskOptions::class_given),
                                       "NPC class whose actions may be used");
}

std::optional<Task> load_task_only(const std::string& path) {
  Result<Task> task = load_task(path, FileFormat::kAuto, input_limits());
  if (!task) {
    std::fprintf(stderr, "%s\n", task.error().to_string().c_str());
    return std::nullopt;
  }
  return std::move(task).value();
}

std::optional<LoadedTask> load_task_and_instance(const TaskOptions& options) {
  std::optional<Task> task = load_task_only(options.path);
  if (!task) return std::nullopt;
  const Domain& domain = task->domain;
  auto fail = [&](const std::string& message) -> std::optional<LoadedTask> {
    std::fprintf(stderr, "%s: %s\n", options.path.c_str(), message.c_str());
    return std::nullopt;
  };

  Instance instance;
  if (options.instance_given && options.instance.empty()) return fail("--instance: empty name");
  if (options.class_given && options.npc_class.empty()) return fail("--class: empty name");
  if (!options.instance.empty()) {
    bool found = false;
    for (const Instance& i : task->instances)
      if (i.name == options.instance) {
        instance = i;
        found = true;
        break;
      }
    if (!found) return fail("no instance named '" + options.instance + "'");
  } else if (!task->instances.empty()) {
    instance = task->instances.front();
  } else if (!options.init_given || !options.goal_given) {
    return fail("the file has no instance: give --init and --goal");
  }
  if (options.init_given) {
    Result<std::vector<ValueId>> init = parse_state_by_names(domain, options.init);
    if (!init) return fail("--init: " + init.error().message);
    instance.init = std::move(init).value();
    instance.name.clear();
  }
  if (options.goal_given) {
    Result<std::vector<ValueId>> goal = parse_state_by_names(domain, options.goal);
    if (!goal) return fail("--goal: " + goal.error().message);
    // As in the files: a goal names at least one variable.
    if (std::all_of(goal->begin(), goal->end(), [](ValueId x) { return x == kUndefined; }))
      return fail("--goal: the goal is empty (give at least one variable, e.g. \"" +
                  domain.variable_name(0) + "=" + domain.value_name(0, 0) + "\")");
    instance.goal = std::move(goal).value();
    instance.name.clear();
  }
  if (!options.npc_class.empty()) {
    std::optional<ClassId> c = domain.find_class(options.npc_class);
    if (!c) return fail("--class: no NPC class named '" + options.npc_class + "'");
    instance.npc_class = *c;
  }
  if (auto err = domain.check_instance(instance)) return fail(err->message);
  return LoadedTask{std::move(*task), std::move(instance)};
}

}  // namespace topoplan::cli
