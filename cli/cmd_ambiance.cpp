// topoplan ambiance SCENARIO [--trace] [--no-ambiance]
//
// Runs a smart ambiance scenario (Sloan 2015, chapter 7): every NPC plans with GOAP A* on the
// action costs its ambiance gives it and acts until its goal holds. Prints the executed actions
// as "(action)" lines, one "; npc NAME (TYPE): cost C" comment line before each NPC's actions.
// --trace adds, per decision, the time, state, active modifiers, the changed costs and the plan.
// References: docs/references.md.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "files.h"
#include "topoplan/udgoap/ambiance_scenario.h"

namespace topoplan::cli {
namespace {

using namespace topoplan::udgoap;

struct AmbianceOptions {
  std::string path;
  bool trace = false;
  bool no_ambiance = false;
};

std::string state_text(const AmbianceScenario& sc, const std::vector<ValueId>& s) {
  std::string out;
  for (size_t v = 0; v < s.size(); ++v) {
    out += (out.empty() ? "" : ", ") + sc.domain.variables[v].name + "=" +
           sc.domain.variables[v].values[static_cast<size_t>(s[v])];
  }
  return out;
}

void print_decision(const AmbianceScenario& sc, const AmbianceDecision& d) {
  std::printf(";   t=%g state [%s]\n", d.time, state_text(sc, d.state).c_str());
  std::string active;
  for (const std::string& a : d.active) active += (active.empty() ? "" : ", ") + a;
  std::printf(";     active modifiers: %s\n", active.empty() ? "none" : active.c_str());
  std::string costs;
  for (size_t a = 0; a < d.cost.size(); ++a) {
    costs += (costs.empty() ? "" : ", ") + sc.domain.actions[a].name + " " +
             std::to_string(d.base_cost[a]);
    if (d.cost[a] != d.base_cost[a]) costs += " -> " + std::to_string(d.cost[a]);
  }
  std::printf(";     costs: %s\n", costs.c_str());
  if (d.status != PlanStatus::kSolved) {
    std::printf(";     no plan: %s\n", std::string(to_string(d.status)).c_str());
    return;
  }
  std::string plan;
  for (ActionId a : d.plan)
    plan += (plan.empty() ? "" : ", ") + sc.domain.actions[static_cast<size_t>(a)].name;
  std::printf(
      ";     plan [%s] cost %lld%s -> do %s\n", plan.c_str(), static_cast<long long>(d.plan_cost),
      d.valid ? "" : " (INVALID)",
      d.plan.empty() ? "nothing" : sc.domain.actions[static_cast<size_t>(d.plan[0])].name.c_str());
}

int run_ambiance_command(const AmbianceOptions& options) {
  Result<AmbianceScenario> loaded = load_ambiance_scenario(options.path, input_limits().max_bytes);
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return kExitInputError;
  }
  const AmbianceScenario& sc = loaded.value();
  const AmbianceRun run = run_ambiance(sc, !options.no_ambiance);
  if (options.trace) {
    std::printf("; scenario: %s, ambiance %s\n", sc.name.c_str(),
                options.no_ambiance ? "disabled" : "enabled");
  }
  int rc = kExitOk;
  for (size_t i = 0; i < run.npcs.size(); ++i) {
    const AmbianceNpcRun& r = run.npcs[i];
    const AmbianceNpc& npc = sc.npcs[i];
    std::printf("; npc %s (%s): cost %lld\n", r.name.c_str(),
                sc.types[static_cast<size_t>(npc.type)].name.c_str(),
                static_cast<long long>(r.cost));
    if (options.trace) {
      for (const AmbianceDecision& d : r.decisions) print_decision(sc, d);
    }
    for (ActionId a : r.executed) {
      std::printf("(%s)\n", sc.domain.actions[static_cast<size_t>(a)].name.c_str());
    }
    if (r.status != PlanStatus::kSolved) {
      std::fprintf(stderr, "topoplan ambiance: npc %s: %s\n", r.name.c_str(),
                   std::string(to_string(r.status)).c_str());
      const int code = exit_code_for(r.status);
      if (rc == kExitOk || code == kExitNoPlan) rc = code;
    }
  }
  return rc;
}

}  // namespace

void add_ambiance_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<AmbianceOptions>(
      app, exit_code, "ambiance",
      "run a smart ambiance scenario (cost modifiers on GOAP A*; Sloan 2015 ch. 7)",
      run_ambiance_command);
  cmd->add_option("SCENARIO", options->path, "ambiance scenario (.toml, see docs/udgoap.md)")
      ->required();
  cmd->add_flag("--trace", options->trace,
                "print each decision: time, state, active modifiers, modified costs, plan");
  cmd->add_flag("--no-ambiance", options->no_ambiance,
                "play the scenario with no ambiance modifier applied (the thesis's control run)");
  cmd->footer(
      "Exit codes: 0 every NPC reached its goal, 11 an NPC's goal is unreachable, 12 no plan "
      "(limit), 33 input error, 2 usage error.");
}

}  // namespace topoplan::cli
