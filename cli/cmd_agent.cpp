// topoplan agent SCENARIO [--trace] [--max-expansions N] [--max-plan-length N]
//
// Runs one UDGOAP agent (Sloan 2015): reads a scenario file, updates the agent's drives and goals
// against its facts, plans, and prints the chosen plan as "(action supplier)" lines. --trace adds
// the facts, goals, drive satisfactions, every plan state with its utility, and the decision, as
// ';' comment lines so the output stays a plan file.
// References: docs/references.md.
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::cli {
namespace {

using namespace topoplan::udgoap;

struct AgentOptions {
  std::string path;
  bool trace = false;
  int64_t max_expansions = 0;  // 0: the scenario's (or the default) limit
  int32_t max_plan_length = 0;
};

std::string plan_text(const World& world, const std::vector<PlanStep>& plan) {
  std::string s;
  for (const PlanStep& step : plan) s += (s.empty() ? "" : ", ") + format_step(world, step);
  return "[" + s + "]";
}

void print_header(const Scenario& sc) {
  const World& w = sc.world;
  std::printf("; scenario: %s, agent: %s\n", w.name.c_str(),
              w.entities[static_cast<size_t>(w.agent)].name.c_str());
  std::printf("; facts:\n");
  for (const udgoap::Fact& f : w.facts) {
    if (f.kind != FactKind::kSensed) continue;
    std::printf(";   %d %s.%s = %s (t=%g)\n", f.id,
                w.entities[static_cast<size_t>(f.entity)].name.c_str(),
                w.attributes[static_cast<size_t>(f.attribute)].c_str(),
                format_value(f.value).c_str(), f.timestamp);
  }
  std::printf("; goals:\n");
  for (const Goal& g : sc.agent.goals) {
    const Drive& d = w.drives[static_cast<size_t>(g.drive)];
    const GoalTemplate& t = d.generators[static_cast<size_t>(g.generator)].goal;
    std::printf(";   %d %s%s%s (drive %s, weight %g): completeness %.4f\n", g.id, t.name.c_str(),
                g.target == kNoEntity ? "" : " ",
                g.target == kNoEntity ? "" : w.entities[static_cast<size_t>(g.target)].name.c_str(),
                d.name.c_str(), t.weight, g.completeness);
  }
  std::vector<double> sat;
  const double u = state_utility(w, sc.agent, w.initial_state(), &sat);
  std::printf("; drives:\n");
  for (size_t i = 0; i < sc.agent.drives.size(); ++i) {
    const Drive& d = w.drives[static_cast<size_t>(sc.agent.drives[i])];
    std::printf(";   %s (weight %g): satisfaction %.4f\n", d.name.c_str(), d.weight, sat[i]);
  }
  std::printf("; initial utility: %.4f\n", u);
}

int run_agent(const AgentOptions& options) {
  Result<Scenario> loaded = load_scenario(options.path, input_limits().max_bytes);
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return kExitInputError;
  }
  const Scenario& sc = loaded.value();
  UdgoapOptions popts;
  popts.limits = sc.limits;
  if (options.max_expansions > 0) popts.limits.max_expansions = options.max_expansions;
  if (options.max_plan_length > 0) popts.limits.max_plan_length = options.max_plan_length;
  popts.trace = options.trace;
  const UdgoapResult r = plan_udgoap(sc.world, sc.agent, popts);

  if (options.trace) {
    print_header(sc);
    for (const TraceEntry& e : r.trace) {
      const char* kind = e.kind == TraceEntry::Kind::kGenerated  ? "state"
                         : e.kind == TraceEntry::Kind::kPruned   ? "pruned"
                         : e.kind == TraceEntry::Kind::kSelected ? "expand"
                                                                 : "chosen";
      if (e.kind == TraceEntry::Kind::kPruned) {
        std::printf("; %-6s (child of %d) %s utility %.4f: %s\n", kind, e.parent,
                    plan_text(sc.world, e.plan).c_str(), e.utility, e.note.c_str());
      } else {
        std::printf("; %-6s %d (parent %d) %s utility %.4f: %s\n", kind, e.state, e.parent,
                    plan_text(sc.world, e.plan).c_str(), e.utility, e.note.c_str());
      }
    }
    std::printf("; expanded %lld, generated %lld\n", static_cast<long long>(r.expanded),
                static_cast<long long>(r.generated));
  }
  if (r.status != PlanStatus::kSolved) {
    std::fprintf(stderr, "topoplan agent: %s: %s\n", std::string(to_string(r.status)).c_str(),
                 limit_words_for(r.message, LimitDoor::kCli).c_str());
    return kExitNoPlan;
  }
  for (const PlanStep& step : r.plan) {
    const std::string& action = sc.world.actions[static_cast<size_t>(step.action)].name;
    if (step.supplier == kNoEntity) {
      std::printf("(%s)\n", action.c_str());
    } else {
      std::printf("(%s %s)\n", action.c_str(),
                  sc.world.entities[static_cast<size_t>(step.supplier)].name.c_str());
    }
  }
  std::printf("; utility = %.4f (initial %.4f)\n", r.utility, r.initial_utility);
  return kExitOk;
}

}  // namespace

void add_agent_command(CLI::App& app, int& exit_code) {
  auto [cmd, options] = add_subcommand<AgentOptions>(
      app, exit_code, "agent",
      "plan for one UDGOAP agent (drives, goals, utility; Sloan 2015) from a scenario file",
      run_agent);
  cmd->add_option("SCENARIO", options->path, "scenario file (.toml, see docs/udgoap.md)")
      ->required();
  cmd->add_flag("--trace", options->trace,
                "print facts, goals, drives, every plan state with its utility, and the decision");
  add_limit(*cmd, limits::kUdgoapMaxExpansions, options->max_expansions,
            "plan states expanded before giving up (then exit 12)");
  add_limit(*cmd, limits::kUdgoapMaxPlanLength, options->max_plan_length,
            "actions per plan at most");
  cmd->footer(
      "Exit codes: 0 plan found, 12 no plan or limit reached, 33 input error, 2 usage error.");
}

}  // namespace topoplan::cli
