// topoplan show TASK: variables, values, actions, classes, instances, by name.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "files.h"

namespace topoplan::cli {
namespace {

std::string fact(const Domain& d, VarId v, ValueId x) {
  return d.variable_name(v) + "=" + (x == kUndefined ? std::string("u") : d.value_name(v, x));
}

int run_show(const std::string& path) {
  std::optional<Task> task = load_task_only(path);
  if (!task) return kExitInputError;
  const Domain& d = task->domain;
  std::printf(
      "domain %s: %s, %s, %s, %s%s\n", d.name().empty() ? "(unnamed)" : d.name().c_str(),
      counted(d.num_variables(), "variable", "variables").c_str(),
      counted(d.num_actions(), "action", "actions").c_str(),
      counted(d.num_classes(), "NPC class", "NPC classes").c_str(),
      counted(static_cast<long long>(task->instances.size()), "instance", "instances").c_str(),
      d.unit_cost() ? ", unit costs" : "");
  std::printf("\nvariables\n");
  for (VarId v = 0; v < d.num_variables(); ++v) {
    std::printf("  v%d %s:", v, d.variable_name(v).c_str());
    for (ValueId x = 0; x < d.domain_size(v); ++x)
      std::printf("%s %d=%s", x ? "," : "", x, d.value_name(v, x).c_str());
    std::printf("\n");
  }
  std::printf("\nactions\n");
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    std::string line = "  a" + std::to_string(a) + " " + d.action_name(a) + ":";
    for (const Effect& e : d.effects(a)) {
      line += " " + d.variable_name(e.var) + " ";
      line += (e.pre == kUndefined ? std::string("u") : d.value_name(e.var, e.pre));
      line += "->" + d.value_name(e.var, e.post);
    }
    if (!d.prevail(a).empty()) {
      line += "  prevail";
      for (const Fact& f : d.prevail(a)) line += " " + fact(d, f.var, f.value);
    }
    if (d.cost(a) != 1) line += "  cost " + std::to_string(d.cost(a));
    std::printf("%s\n", line.c_str());
  }
  if (d.num_classes() > 0) {
    std::printf("\nNPC classes\n");
    for (ClassId c = 0; c < d.num_classes(); ++c) {
      std::printf("  %s (%zu actions):", d.class_name(c).c_str(), d.class_actions(c).size());
      for (ActionId a : d.class_actions(c)) std::printf(" %s", d.action_name(a).c_str());
      std::printf("\n");
    }
  }
  if (!task->instances.empty()) {
    std::printf("\ninstances\n");
    for (const Instance& i : task->instances) {
      std::printf("  %s%s%s\n    init %s\n    goal %s\n",
                  i.name.empty() ? "(unnamed)" : i.name.c_str(),
                  i.npc_class == kAllActions ? "" : " class ",
                  i.npc_class == kAllActions ? "" : d.class_name(i.npc_class).c_str(),
                  format_state(d, i.init).c_str(), format_state(d, i.goal).c_str());
    }
  }
  return kExitOk;
}

}  // namespace

void add_show_command(CLI::App& app, int& exit_code) {
  auto path = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("show", "print the variables, actions, classes and instances");
  cmd->add_option("TASK", *path, "task file: native .toml or Fast Downward .sas")->required();
  cmd->callback([path, &exit_code] { exit_code = run_show(*path); });
}

}  // namespace topoplan::cli
