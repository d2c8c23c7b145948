#include <cstdio>

#include "commands.h"
#include "files.h"
#include "topoplan/io/formats.h"

namespace topoplan::cli {

int exit_code_for(PlanStatus status) {
  switch (status) {
    case PlanStatus::kSolved:
      return kExitOk;
    case PlanStatus::kUnsolvable:
      return kExitUnsolvable;
    case PlanStatus::kLimitReached:
    case PlanStatus::kGaveUp:
    case PlanStatus::kUnsupported:
    case PlanStatus::kBufferTooSmall:
      return kExitNoPlan;
  }
  return kExitNoPlan;
}

void add_task_options(CLI::App& cmd, TaskOptions& options) {
  cmd.add_option("TASK", options.path, "task file: native .toml or Fast Downward .sas")->required();
  cmd.add_option("--instance", options.instance,
                 "instance of the file to use, by name (default: the first)");
  cmd.add_option("--init", options.init,
                 "initial state by value names, e.g. \"haystack=stored,bucket=onFloor,...\" "
                 "(all variables)");
  cmd.add_option("--goal", options.goal,
                 "goal by value names, e.g. \"haystack=inFeeder\" (partial allowed)");
  cmd.add_option("--class", options.npc_class, "NPC class whose actions may be used");
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
  } else if (options.init.empty() || options.goal.empty()) {
    return fail("the file has no instance: give --init and --goal");
  }
  if (!options.init.empty()) {
    Result<std::vector<ValueId>> init = parse_state_by_names(domain, options.init);
    if (!init) return fail("--init: " + init.error().message);
    instance.init = std::move(init).value();
    instance.name.clear();
  }
  if (!options.goal.empty()) {
    Result<std::vector<ValueId>> goal = parse_state_by_names(domain, options.goal);
    if (!goal) return fail("--goal: " + goal.error().message);
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
