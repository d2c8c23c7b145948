// topoplan — command-line entry point. Each subcommand lives in its own cmd_*.cpp.
#include <cstdio>
#include <exception>
#include <iostream>

#include "commands.h"
#include "files.h"

int main(int argc, char** argv) {
  using namespace topoplan::cli;
  CLI::App app{"topoplan — linear-time action planning for game characters (SAS+ / SAS-PU)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "topoplan 0.1.0");
  // Usage errors on one line: "topoplan crowd: --churn: must be a number in [0, 1], got 'nan'".
  app.failure_message([](const CLI::App* failing, const CLI::Error& e) {
    std::string who = "topoplan";
    if (failing != nullptr)
      for (const CLI::App* sub : failing->get_subcommands())
        if (sub->parsed()) who += " " + sub->get_name();
    return who + ": " + e.what() + " (--help for usage)\n";
  });
  add_input_limit_option(app);
  int exit_code = kExitOk;
  add_plan_command(app, exit_code);
  add_validate_command(app, exit_code);
  add_show_command(app, exit_code);
  add_bench_command(app, exit_code);
  add_agent_command(app, exit_code);
  add_convert_command(app, exit_code);
  add_check_command(app, exit_code);
  add_crowd_command(app, exit_code);
  add_ambiance_command(app, exit_code);
  add_goals_command(app, exit_code);
  add_sim_command(app, exit_code);
  add_agents_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    std::fputs("topoplan: out of memory\n", stderr);
    return kExitNoPlan;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "topoplan: internal error: %s\n", e.what());
    return 70;
  }
  // A plan printed to a full disk is not a success.
  if (!flush_stdout() && exit_code == kExitOk) return kExitInputError;
  return exit_code;
}
