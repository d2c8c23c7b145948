// topoplan convert TASK [-o FILE] [--to sas|native]: between the native format and Fast
// Downward's SAS format. An FD file carries one instance and no NPC classes: converting to
// .sas writes the selected instance and only its class's actions. To native: every instance,
// or with --instance/--init/--goal/--class the one instance they select (as plan reads them).
#include <cstdio>
#include <fstream>
#include <memory>

#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "topoplan/io/formats.h"

namespace topoplan::cli {
namespace {

struct ConvertOptions {
  TaskOptions task;
  std::string output;
  std::string to;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_convert(const ConvertOptions& options) {
  std::string to = options.to;
  if (to.empty()) to = ends_with(options.output, ".toml") ? "native" : "sas";
  std::string text;
  if (to == "sas") {
    std::optional<LoadedTask> loaded = load_task_and_instance(options.task);
    if (!loaded) return kExitInputError;
    text = write_fd_sas(loaded->task.domain, loaded->instance);
  } else if (options.task.selects()) {
    // --instance/--init/--goal/--class select one instance, as for plan: write it alone.
    std::optional<LoadedTask> loaded = load_task_and_instance(options.task);
    if (!loaded) return kExitInputError;
    Instance instance = std::move(loaded->instance);
    if (instance.name.empty()) instance.name = "selected";
    text = write_native(Task{std::move(loaded->task.domain), {std::move(instance)}});
  } else {
    std::optional<Task> task = load_task_only(options.task.path);
    if (!task) return kExitInputError;
    text = write_native(*task);
  }
  const std::string inputs[] = {options.task.path};
  return write_output("convert", options.output, text, inputs) ? kExitOk : kExitInputError;
}

}  // namespace

void add_convert_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<ConvertOptions>(
      app, exit_code, "convert",
      "convert between the native format (.toml) and Fast Downward's SAS (.sas)", run_convert);
  add_task_options(*cmd, options->task);
  cmd->add_option("-o,--output", options->output, "output file (default: stdout)")
      ->check(non_empty_file());
  cmd->add_option("--to", options->to,
                  "output format: sas or native (default: from the output's extension, else sas)")
      ->check(CLI::IsMember({"sas", "native"}));
}

}  // namespace topoplan::cli
