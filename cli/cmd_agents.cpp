// topoplan agents: a domain's NPCs living by the agent runtime (topoplan/agents/agents.h) against
// scripted sensors — the [[event]]s of the file (topoplan/io/agents_file.h) and, with --sense, a
// share of the agents sensing a random change of one of their class's variables every frame. The
// command plays the engine: an action the runtime starts takes action_frames frames, then the
// engine writes its effects as sensed facts (the runtime sees them and moves on). Prints the cost
// of update() per agent, the share of it spent planning, and the replans by reason; --record writes
// the decisions as JSON Lines.
#include <time.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "topoplan/agents/agents.h"
#include "topoplan/io/agents_file.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/limits.h"

namespace topoplan::cli {
namespace {

using agents::AgentWorld;
using agents::AgentWorldDef;
using agents::Event;
using agents::EventKind;

struct Options {
  std::string path;
  int32_t agents = 1000;
  int32_t frames = 100;
  int32_t threads = 1;
  double sense = 0.0;
  int32_t warmup = -1;    // frames not measured; -1: a fifth of the run
  int32_t max_plans = 0;  // 0: every agent that needs a plan, each frame
  std::string record;
  bool json = false;
  uint64_t seed = 1;
};

double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}
double process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return 1e9 * static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec);
}

// What a run measured (frames after the warmup) and counted (the whole run).
struct Figures {
  int32_t classes = 1, warmup = 0;
  std::array<int64_t, agents::kNumReplanReasons> replans{};
  std::array<int64_t, 6> no_plan{};  // by the no-plan event's PlanStatus
  int64_t planned = 0, examined = 0, dropped = 0, total_events = 0;
  double wall_ns = 0, cpu_ns = 0, process_ns = 0, plan_ns = 0;
  std::vector<double> frame_ns;
  std::string hash;
};

// One --record line: an agent planned (its plan in action names) or found no plan.
void record_decision(std::ofstream& record, int32_t frame, const Event& e, const AgentWorld& world,
                     const Domain& d, std::vector<ActionId>& plan_buf) {
  nlohmann::json j{{"tick", frame},
                   {"agent", e.agent},
                   {"class", d.num_classes() > 0 ? d.class_name(world.npc_class(e.agent)) : ""},
                   {"goal", world.goal_name(e.goal)}};
  if (e.kind == EventKind::kPlanned) {
    const int32_t n = world.plan(e.agent, plan_buf);
    nlohmann::json steps = nlohmann::json::array();
    for (int32_t k = 0; k < n; ++k)
      steps.push_back(d.action_name(plan_buf[static_cast<size_t>(k)]));
    j["plan"] = std::move(steps);
    j["reason"] = to_string(static_cast<agents::ReplanReason>(e.detail));
  } else {
    j["no_plan"] = to_string(agents::no_plan_outcome(e).status);
    j["reason"] = to_string(world.last_replan(e.agent));
  }
  record << j.dump() << '\n';
}

double load_average() {
  double load = 0;
  if (FILE* l = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(l, "%lf", &load) != 1) load = 0;
    std::fclose(l);
  }
  return load;
}

void report(const Options& o, Figures& f) {
  const double measured = static_cast<double>(o.frames - f.warmup);
  const double per = measured * static_cast<double>(o.agents);
  std::sort(f.frame_ns.begin(), f.frame_ns.end());
  const double median_frame = f.frame_ns.empty() ? 0 : f.frame_ns[f.frame_ns.size() / 2];
  const double load = load_average();
  if (o.json) {
    nlohmann::json j{{"file", o.path},
                     {"agents", o.agents},
                     {"frames", o.frames},
                     {"warmup_frames", f.warmup},
                     {"threads", o.threads},
                     {"sense", o.sense},
                     {"ns_per_agent_update", f.wall_ns / per},
                     // CPU of every thread of the process (the pool's too); the calling
                     // thread's alone equals the wall time once it works as a pool worker.
                     {"cpu_ns_per_agent_update", f.process_ns / per},
                     {"calling_thread_cpu_ns_per_agent_update", f.cpu_ns / per},
                     {"median_frame_ms", median_frame * 1e-6},
                     {"planning_share", f.wall_ns > 0 ? f.plan_ns / f.wall_ns : 0.0},
                     {"examined_per_frame", static_cast<double>(f.examined) / measured},
                     {"planned_per_frame", static_cast<double>(f.planned) / measured},
                     {"events", f.total_events},
                     {"events_dropped", f.dropped},
                     {"event_hash", f.hash},
                     {"load_average", load}};
    nlohmann::json r;
    for (int32_t k = 1; k < agents::kNumReplanReasons; ++k)
      r[std::string(to_string(static_cast<agents::ReplanReason>(k)))] =
          f.replans[static_cast<size_t>(k)];
    j["replans"] = r;
    nlohmann::json np;
    for (size_t k = 0; k < f.no_plan.size(); ++k)
      if (f.no_plan[k] > 0) np[std::string(to_string(static_cast<PlanStatus>(k)))] = f.no_plan[k];
    j["no_plan"] = np;
    std::printf("%s\n", j.dump(2).c_str());
    return;
  }
  std::printf("%s: %d agents (%d classes), %d frames (%d measured), %d thread(s), sense %.3g\n",
              o.path.c_str(), o.agents, f.classes, o.frames, o.frames - f.warmup, o.threads,
              o.sense);
  std::printf(
      "update: %.1f ns per agent (wall), %.1f ns CPU of the process (%.1f ns of the calling "
      "thread); median frame %.3f ms\n",
      f.wall_ns / per, f.process_ns / per, f.cpu_ns / per, median_frame * 1e-6);
  std::printf("planning: %.0f %% of update time; %.0f agents examined and %.0f planned per frame\n",
              f.wall_ns > 0 ? 100.0 * f.plan_ns / f.wall_ns : 0.0,
              static_cast<double>(f.examined) / measured,
              static_cast<double>(f.planned) / measured);
  std::printf("replans by reason (whole run):");
  for (int32_t k = 1; k < agents::kNumReplanReasons; ++k)
    std::printf(" %s %lld", std::string(to_string(static_cast<agents::ReplanReason>(k))).c_str(),
                static_cast<long long>(f.replans[static_cast<size_t>(k)]));
  std::printf("\nno plan:");
  for (size_t k = 0; k < f.no_plan.size(); ++k)
    if (f.no_plan[k] > 0)
      std::printf(" %s %lld", std::string(to_string(static_cast<PlanStatus>(k))).c_str(),
                  static_cast<long long>(f.no_plan[k]));
  std::printf("\nevents %lld (dropped %lld), hash %s, load average %.2f\n",
              static_cast<long long>(f.total_events), static_cast<long long>(f.dropped),
              f.hash.c_str(), load);
}

int run(const Options& o) {
  Result<AgentsFile> file = load_agents_file(o.path, input_limits());
  if (!file) {
    std::fprintf(stderr, "%s\n", file.error().to_string().c_str());
    return kExitInputError;
  }
  const AgentsFile& f = file.value();
  const Domain& d = f.task.domain;
  Result<CrowdPlanner> planner = CrowdPlanner::create(d);
  if (!planner) {
    std::fprintf(stderr, "%s: %s\n", o.path.c_str(), planner.error().to_string().c_str());
    return kExitInputError;
  }
  AgentWorldDef def;
  def.capacity = o.agents;
  def.decision_period = f.decision_period;
  def.max_plan_age = f.max_plan_age;
  def.max_plans_per_frame = o.max_plans > 0 ? o.max_plans : o.agents;
  std::unique_ptr<CrowdThreadPool> pool;
  if (o.threads > 1) {
    pool = std::make_unique<CrowdThreadPool>(o.threads);
    pool->install(def.crowd);
  }
  Result<AgentWorld> made = AgentWorld::create(planner.value(), def);
  if (!made) {
    std::fprintf(stderr, "topoplan agents: %s\n", made.error().to_string().c_str());
    return kExitInputError;
  }
  AgentWorld& world = made.value();
  if (auto e = populate_agents(f, o.agents, world)) {
    std::fprintf(stderr, "topoplan agents: %s\n", e->to_string().c_str());
    return kExitInputError;
  }

  std::ofstream record;
  if (!o.record.empty()) {
    record.open(o.record);
    if (!record) {
      std::fprintf(stderr, "topoplan agents: --record: cannot write '%s'\n", o.record.c_str());
      return kExitInputError;
    }
  }
  ScriptedEngine engine(f, o.agents, o.seed);
  AgentWorldAccess access(world);
  std::vector<Event> events(static_cast<size_t>(o.agents) * 4 + 64);
  std::vector<ActionId> plan_buf(256);
  Figures fig;
  fig.classes = f.num_classes();
  fig.warmup = o.warmup >= 0 ? std::min(o.warmup, o.frames - 1) : o.frames / 5;
  for (int32_t frame = 0; frame < o.frames; ++frame, engine.end_frame()) {
    // The engine's side of the frame: finished actions, scripted senses, random senses.
    engine.before_update(access, o.sense);
    // The runtime's side.
    const double c0 = thread_cpu_ns(), p0 = process_cpu_ns();
    const auto t0 = std::chrono::steady_clock::now();
    const agents::UpdateStats s = world.update(1.0 / 60, events);
    const double w = static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count());
    const double c = thread_cpu_ns() - c0, p = process_cpu_ns() - p0;
    fig.dropped += s.events_dropped;
    fig.total_events += s.events;
    for (int64_t k = 0; k < s.events; ++k) {
      const Event& e = events[static_cast<size_t>(k)];
      engine.observe(e);
      if (e.kind == EventKind::kNoPlan) ++fig.no_plan[std::min<size_t>(e.detail, 5)];
      if (record.is_open() && (e.kind == EventKind::kPlanned || e.kind == EventKind::kNoPlan))
        record_decision(record, frame, e, world, d, plan_buf);
    }
    for (size_t r = 0; r < fig.replans.size(); ++r) fig.replans[r] += s.replans[r];
    if (frame < fig.warmup) continue;
    fig.planned += s.planned;
    fig.examined += s.examined;
    fig.wall_ns += w;
    fig.cpu_ns += c;
    fig.process_ns += p;
    fig.plan_ns += static_cast<double>(s.plan_ns);
    fig.frame_ns.push_back(w);
  }
  fig.hash = engine.hash_text();
  report(o, fig);
  if (fig.dropped > 0) {
    std::fprintf(stderr, "topoplan agents: %lld events did not fit in the event buffer\n",
                 static_cast<long long>(fig.dropped));
    return kExitNoPlan;
  }
  return kExitOk;
}

}  // namespace

void add_agents_command(CLI::App& app, int& exit_code) {
  auto [cmd, o] = add_subcommand<Options>(
      app, exit_code, "agents",
      "run a domain's NPCs on the agent runtime against scripted sensors ([[event]] tables, "
      "--sense); prints ns per agent per update, the share spent planning, replans by reason",
      run);
  cmd->add_option("FILE", o->path, "domain file (native .toml, with [[goal]]/[[event]] tables)")
      ->required();
  add_limit(*cmd, limits::kAgentsCapacity, o->agents, "number of agents");
  add_number(*cmd, "--frames", o->frames, int32_t{1}, int32_t{1} << 24, "frames to run");
  add_limit(*cmd, limits::kAgentsThreads, o->threads,
            "threads of the planning batch and of the agents' examination (the built-in pool)");
  add_number(*cmd, "--sense", o->sense, 0.0, 1.0,
             "share of the agents sensing a random change of one of their class's variables "
             "each frame");
  add_number(*cmd, "--warmup", o->warmup, int32_t{0}, int32_t{1} << 24,
             "frames left out of the figures (default: a fifth of the run)");
  add_limit(*cmd, limits::kAgentsMaxPlansPerFrame, o->max_plans,
            "agents planned per frame at most (default: all that need a plan)");
  add_number(*cmd, "--seed", o->seed, uint64_t{0}, ~uint64_t{0}, "seed of --sense and shares");
  cmd->add_option("--record", o->record, "write decisions as JSON Lines to this file");
  cmd->add_flag("--json", o->json, "print one JSON object");
}

}  // namespace topoplan::cli
