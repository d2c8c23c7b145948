// topoplan agents: a domain's NPCs living by the agent runtime (topoplan/agents/agents.h) against
// scripted sensors — the [[event]]s of the file (agents_file.h) and, with --sense, a share of the
// agents sensing a random change of one of their class's variables every frame. The command plays
// the engine: an action the runtime starts takes action_frames frames, then the engine writes
// its effects as sensed facts (the runtime sees them and moves on). Prints the cost of update()
// per agent, the share of it spent planning, and the replans by reason; --record writes the
// decisions as JSON Lines.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "agents_file.h"
#include "commands.h"
#include "numeric_option.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/random.h"

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

// A deterministic coin for agent i at frame f: true with probability `share`.
bool chosen(uint64_t seed, int64_t frame, int32_t agent, double share) {
  if (share >= 1.0) return true;
  SplitMix64 r(seed ^ (static_cast<uint64_t>(frame) * 0x9E3779B97F4A7C15ull) ^
               (static_cast<uint64_t>(agent) << 20));
  return r.unit() < share;
}

int run(const Options& o) {
  Result<AgentsFile> file = read_agents_file(o.path);
  if (!file) {
    std::fprintf(stderr, "%s\n", file.error().to_string().c_str());
    return kExitInputError;
  }
  AgentsFile& f = file.value();
  const Domain& d = f.task.domain;
  Result<CrowdPlanner> planner = CrowdPlanner::create(d);
  if (!planner) {
    std::fprintf(stderr, "%s: %s\n", o.path.c_str(), planner.error().to_string().c_str());
    return kExitInputError;
  }
  const int32_t classes = std::max(1, d.num_classes());
  // What a class's actions change (the routines' goals and --sense draw from these).
  std::vector<std::vector<VarId>> changes(static_cast<size_t>(classes));
  std::vector<std::vector<uint8_t>> changed(static_cast<size_t>(classes),
                                            std::vector<uint8_t>(d.num_variables(), 0));
  for (int32_t c = 0; c < classes; ++c) {
    const auto mask = d.action_mask(d.num_classes() > 0 ? c : kAllActions);
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)] != 0)
        for (const Effect& e : d.effects(a)) changed[static_cast<size_t>(c)][e.var] = 1;
    for (VarId v = 0; v < d.num_variables(); ++v)
      if (changed[static_cast<size_t>(c)][v] != 0) changes[static_cast<size_t>(c)].push_back(v);
  }
  if (f.goals.empty()) {
    for (const Instance& inst : f.task.instances) {
      AgentsFile::Goal g;
      g.name = inst.name.empty() ? "instance" : inst.name;
      const int32_t c = inst.npc_class == kAllActions ? 0 : inst.npc_class;
      if (inst.npc_class != kAllActions) g.classes = {c};
      g.values.assign(inst.goal.size(), kUndefined);
      for (VarId v = 0; v < d.num_variables(); ++v)
        if (changed[static_cast<size_t>(c)][v] != 0) g.values[v] = inst.goal[v];
      f.goals.push_back(std::move(g));
    }
  }
  if (f.goals.empty()) {
    std::fprintf(stderr, "%s: no goals: add [[goal]] tables or instances\n", o.path.c_str());
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
  std::vector<std::vector<agents::GoalId>> lists(static_cast<size_t>(classes));
  for (const AgentsFile::Goal& g : f.goals) {
    const agents::GoalId id = world.add_goal(g.name, g.values).value();
    for (int32_t c = 0; c < classes; ++c)
      if (g.classes.empty() || std::find(g.classes.begin(), g.classes.end(), c) != g.classes.end())
        lists[static_cast<size_t>(c)].push_back(id);
  }
  for (int32_t c = 0; c < classes; ++c)
    (void)world.set_class_goals(c, world.add_goal_list(lists[static_cast<size_t>(c)]).value());
  // Agents: classes in turn, each from its class's first routine (else the first instance's
  // state, else every variable at its first value).
  std::vector<std::vector<ValueId>> start(static_cast<size_t>(classes),
                                          std::vector<ValueId>(d.num_variables(), 0));
  for (int32_t c = 0; c < classes; ++c) {
    for (const Instance& inst : f.task.instances)
      if (inst.npc_class == c || inst.npc_class == kAllActions) {
        start[static_cast<size_t>(c)] = inst.init;
        break;
      }
  }
  for (int32_t i = 0; i < o.agents; ++i)
    (void)world.add_agent(i % classes, start[static_cast<size_t>(i % classes)]).value();

  std::ofstream record;
  if (!o.record.empty()) {
    record.open(o.record);
    if (!record) {
      std::fprintf(stderr, "topoplan agents: --record: cannot write '%s'\n", o.record.c_str());
      return kExitInputError;
    }
  }
  // The engine: a wheel of actions finishing at frame f + action_frames.
  const int32_t span = f.action_frames + 1;
  std::vector<std::vector<std::pair<int32_t, ActionId>>> wheel(static_cast<size_t>(span));
  std::vector<Event> events(static_cast<size_t>(o.agents) * 4 + 64);
  std::vector<ActionId> plan_buf(256);
  SplitMix64 rng(o.seed);
  const int32_t warmup = o.warmup >= 0 ? std::min(o.warmup, o.frames - 1) : o.frames / 5;
  std::array<int64_t, agents::kNumReplanReasons> replans{};
  std::array<int64_t, 4> no_plan{};
  int64_t planned = 0, examined = 0, dropped = 0, total_events = 0;
  double wall_ns = 0, cpu_ns = 0, process_ns = 0, plan_ns = 0;
  std::vector<double> frame_ns;
  uint64_t hash = 1469598103934665603ull;
  size_t next_event = 0;
  for (int32_t frame = 0; frame < o.frames; ++frame) {
    // The engine's side of the frame: finished actions, scripted senses, random senses.
    auto& due = wheel[static_cast<size_t>(frame % span)];
    for (const auto& [agent, action] : due)
      if (world.running_action(agent) == action)
        for (const Effect& e : d.effects(action)) world.set_fact(agent, e.var, e.post);
    due.clear();
    while (next_event < f.events.size() && f.events[next_event].frame <= frame) {
      const AgentsFile::SensedEvent& ev = f.events[next_event++];
      if (ev.frame < frame) continue;
      for (int32_t i = 0; i < o.agents; ++i)
        if ((ev.npc_class == kAllActions || world.npc_class(i) == ev.npc_class) &&
            chosen(o.seed + static_cast<uint64_t>(ev.line), frame, i, ev.share))
          for (const Fact& x : ev.set) world.set_fact(i, x.var, x.value);
    }
    const auto sensing = static_cast<int64_t>(o.sense * o.agents);
    for (int64_t k = 0; k < sensing; ++k) {
      const int32_t i = rng.below(o.agents);
      const auto& vars = changes[static_cast<size_t>(world.npc_class(i))];
      if (vars.empty()) continue;
      const VarId v = vars[static_cast<size_t>(rng.below(static_cast<int32_t>(vars.size())))];
      world.set_fact(i, v, rng.below(d.domain_size(v)));
    }
    // The runtime's side.
    const double c0 = thread_cpu_ns(), p0 = process_cpu_ns();
    const auto t0 = std::chrono::steady_clock::now();
    const agents::UpdateStats s = world.update(1.0 / 60, events);
    const double w = static_cast<double>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
            .count());
    const double c = thread_cpu_ns() - c0, p = process_cpu_ns() - p0;
    dropped += s.events_dropped;
    total_events += s.events;
    for (int64_t k = 0; k < s.events; ++k) {
      const Event& e = events[static_cast<size_t>(k)];
      for (uint64_t x :
           {uint64_t(uint32_t(e.agent)), uint64_t(e.kind), uint64_t(e.detail), uint64_t(e.step),
            uint64_t(uint32_t(e.action)), uint64_t(uint32_t(e.goal))})
        hash = (hash ^ x) * 1099511628211ull;
      if (e.kind == EventKind::kStartAction)
        wheel[static_cast<size_t>((frame + f.action_frames) % span)].emplace_back(e.agent,
                                                                                  e.action);
      if (e.kind == EventKind::kNoPlan) ++no_plan[e.detail];
      if (record.is_open() && (e.kind == EventKind::kPlanned || e.kind == EventKind::kNoPlan)) {
        nlohmann::json j{
            {"tick", frame},
            {"agent", e.agent},
            {"class", d.num_classes() > 0 ? d.class_name(world.npc_class(e.agent)) : ""},
            {"goal", world.goal_name(e.goal)}};
        if (e.kind == EventKind::kPlanned) {
          const int32_t n = world.plan(e.agent, plan_buf);
          nlohmann::json steps = nlohmann::json::array();
          for (int32_t k2 = 0; k2 < n; ++k2)
            steps.push_back(d.action_name(plan_buf[static_cast<size_t>(k2)]));
          j["plan"] = std::move(steps);
          j["reason"] = to_string(static_cast<agents::ReplanReason>(e.detail));
        } else {
          j["no_plan"] = to_string(static_cast<agents::NoPlanReason>(e.detail));
          j["reason"] = to_string(world.last_replan(e.agent));
        }
        record << j.dump() << '\n';
      }
    }
    for (size_t r = 0; r < replans.size(); ++r) replans[r] += s.replans[r];
    if (frame < warmup) continue;
    planned += s.planned;
    examined += s.examined;
    wall_ns += w;
    cpu_ns += c;
    process_ns += p;
    plan_ns += static_cast<double>(s.plan_ns);
    frame_ns.push_back(w);
  }
  const double measured = static_cast<double>(o.frames - warmup);
  const double per = measured * static_cast<double>(o.agents);
  std::sort(frame_ns.begin(), frame_ns.end());
  const double median_frame = frame_ns.empty() ? 0 : frame_ns[frame_ns.size() / 2];
  double load = 0;
  if (FILE* l = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(l, "%lf", &load) != 1) load = 0;
    std::fclose(l);
  }
  char hash_text[32];
  std::snprintf(hash_text, sizeof hash_text, "%016llx", static_cast<unsigned long long>(hash));
  if (o.json) {
    nlohmann::json j{{"file", o.path},
                     {"agents", o.agents},
                     {"frames", o.frames},
                     {"warmup_frames", warmup},
                     {"threads", o.threads},
                     {"sense", o.sense},
                     {"ns_per_agent_update", wall_ns / per},
                     {"cpu_ns_per_agent_update", cpu_ns / per},
                     {"process_cpu_ns_per_agent_update", process_ns / per},
                     {"median_frame_ms", median_frame * 1e-6},
                     {"planning_share", wall_ns > 0 ? plan_ns / wall_ns : 0.0},
                     {"examined_per_frame", static_cast<double>(examined) / measured},
                     {"planned_per_frame", static_cast<double>(planned) / measured},
                     {"events", total_events},
                     {"events_dropped", dropped},
                     {"event_hash", hash_text},
                     {"load_average", load}};
    nlohmann::json r;
    for (int32_t k = 1; k < agents::kNumReplanReasons; ++k)
      r[std::string(to_string(static_cast<agents::ReplanReason>(k)))] =
          replans[static_cast<size_t>(k)];
    j["replans"] = r;
    nlohmann::json np;
    for (int32_t k = 0; k < 4; ++k)
      np[std::string(to_string(static_cast<agents::NoPlanReason>(k)))] =
          no_plan[static_cast<size_t>(k)];
    j["no_plan"] = np;
    std::printf("%s\n", j.dump(2).c_str());
  } else {
    std::printf("%s: %d agents (%d classes), %d frames (%d measured), %d thread(s), sense %.3g\n",
                o.path.c_str(), o.agents, classes, o.frames, o.frames - warmup, o.threads, o.sense);
    std::printf(
        "update: %.1f ns per agent (wall), %.1f ns CPU of the calling thread, %.1f ns CPU "
        "of the process; median frame %.3f ms\n",
        wall_ns / per, cpu_ns / per, process_ns / per, median_frame * 1e-6);
    std::printf(
        "planning: %.0f %% of update time; %.0f agents examined and %.0f planned per frame\n",
        wall_ns > 0 ? 100.0 * plan_ns / wall_ns : 0.0, static_cast<double>(examined) / measured,
        static_cast<double>(planned) / measured);
    std::printf("replans by reason (whole run):");
    for (int32_t k = 1; k < agents::kNumReplanReasons; ++k)
      std::printf(" %s %lld", std::string(to_string(static_cast<agents::ReplanReason>(k))).c_str(),
                  static_cast<long long>(replans[static_cast<size_t>(k)]));
    std::printf("\nno plan:");
    for (int32_t k = 0; k < 4; ++k)
      std::printf(" %s %lld", std::string(to_string(static_cast<agents::NoPlanReason>(k))).c_str(),
                  static_cast<long long>(no_plan[static_cast<size_t>(k)]));
    std::printf("\nevents %lld (dropped %lld), hash %s, load average %.2f\n",
                static_cast<long long>(total_events), static_cast<long long>(dropped), hash_text,
                load);
  }
  if (dropped > 0) {
    std::fprintf(stderr, "topoplan agents: %lld events did not fit in the event buffer\n",
                 static_cast<long long>(dropped));
    return kExitNoPlan;
  }
  return kExitOk;
}

}  // namespace

void add_agents_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "agents",
      "run a domain's NPCs on the agent runtime against scripted sensors ([[event]] tables, "
      "--sense); prints ns per agent per update, the share spent planning, replans by reason");
  cmd->add_option("FILE", o->path, "domain file (native .toml, with [[goal]]/[[event]] tables)")
      ->required();
  add_number(*cmd, "--agents", o->agents, int32_t{1}, int32_t{1} << 26, "number of agents");
  add_number(*cmd, "--frames", o->frames, int32_t{1}, int32_t{1} << 24, "frames to run");
  add_number(*cmd, "--threads", o->threads, int32_t{1}, int32_t{256},
             "threads of the planning batch and of the agents' examination (the built-in pool)");
  add_number(*cmd, "--sense", o->sense, 0.0, 1.0,
             "share of the agents sensing a random change of one of their class's variables "
             "each frame");
  add_number(*cmd, "--warmup", o->warmup, int32_t{0}, int32_t{1} << 24,
             "frames left out of the figures (default: a fifth of the run)");
  add_number(*cmd, "--max-plans", o->max_plans, int32_t{1}, int32_t{1} << 26,
             "agents planned per frame at most (default: all that need a plan)");
  add_number(*cmd, "--seed", o->seed, uint64_t{0}, ~uint64_t{0}, "seed of --sense and shares");
  cmd->add_option("--record", o->record, "write decisions as JSON Lines to this file");
  cmd->add_flag("--json", o->json, "print one JSON object");
  cmd->callback([o, &exit_code] { exit_code = run(*o); });
}

}  // namespace topoplan::cli
