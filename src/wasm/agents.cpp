// The WebAssembly binding, agents part: a domain file's NPCs living by the agent runtime
// (docs/agents.md) on the Town page, through the C API (topoplan_agents_*).
//
// The page reads and plays the file with the same code as `topoplan agents`: the agents file
// reader and the scripted engine of the io library (topoplan/io/agents_file.h), the C++ the
// module links besides the C API. So the same file, agent count and seed give the same event
// stream — the events hash of the page equals the CLI's `--json` "event_hash"
// (tests/web/test_town_agents.py).
// What the page adds — the user closing a door or taking an item — are sensed facts written
// between frames (tp_agents_sense); they change the stream, as any input does.
//
// Per frame the page reads one int32 view (tp_agents_view: per agent its place value, running
// action, goal, last replan reason, last no-plan reason, frame of its last plan), not JSON.
#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "binding.h"
#include "topoplan/c/topoplan_c_agents.h"
#include "topoplan/io/agents_file.h"

namespace topoplan::wasm {
namespace {

using AgentsPtr = std::unique_ptr<topoplan_agents, Freer<topoplan_agents, topoplan_agents_free>>;

// The view's columns (tp_agents_view).
constexpr int kPlace = 0, kRunning = 1, kGoal = 2, kReplan = 3, kNoPlan = 4, kPlannedAt = 5,
              kColumns = 6;

// ScriptedEngine::World over the C API's agents.
class CAgents final : public ScriptedEngine::World {
 public:
  CAgents(topoplan_agents* w, const std::vector<int32_t>& class_of) : w_(w), class_of_(class_of) {}
  [[nodiscard]] ClassId npc_class(int32_t agent) const override {
    return class_of_[static_cast<size_t>(agent)];
  }
  [[nodiscard]] ActionId running_action(int32_t agent) const override {
    return topoplan_agents_running_action(w_, agent);
  }
  void set_fact(int32_t agent, VarId var, ValueId value) override {
    (void)topoplan_agents_set_fact(w_, agent, var, value);
  }

 private:
  topoplan_agents* w_;
  const std::vector<int32_t>& class_of_;
};

struct Village {
  TaskPtr task;
  CrowdPlannerPtr planner;
  AgentsPtr world;
  AgentsFile file;
  std::unique_ptr<ScriptedEngine> engine;
  std::unique_ptr<CAgents> access;
  int32_t num_vars = 0, num_agents = 0, place_var = -1;
  std::vector<topoplan_agent_event> event_buf;
  std::vector<int32_t> view;  // num_agents × kColumns
  std::vector<int32_t> plan_buf;
  std::vector<int32_t> class_of;
  int64_t total_events = 0, dropped = 0;
  std::array<int64_t, 8> replans{};
  std::array<int64_t, 12> no_plan{};  // by the no-plan event's topoplan_status
};
std::unique_ptr<Village> g_village;

std::string build(const char* text, const char* filename, int32_t agents, uint64_t seed,
                  Village& v) {
  Result<AgentsFile> file = parse_agents_file(text, filename);
  if (!file) return file.error().to_string();
  v.file = std::move(file).value();
  const AgentsFile& f = v.file;
  // The C API's handle of the same domain (the file without its agent sections).
  const std::string domain_text = split_agents_file(text).domain;
  char error[1024];
  topoplan_task* t = nullptr;
  if (topoplan_task_parse(domain_text.data(), domain_text.size(), TOPOPLAN_FORMAT_NATIVE, filename,
                          &t, error, sizeof error) != TOPOPLAN_OK)
    return error;
  v.task.reset(t);
  const topoplan_task* task = t;
  v.num_vars = topoplan_task_num_variables(task);
  topoplan_crowd_planner* p = nullptr;
  if (topoplan_crowd_planner_create(task, &p, error, sizeof error) != TOPOPLAN_OK)
    return std::string(filename) + ": " + error;
  v.planner.reset(p);

  topoplan_agents_def def;
  topoplan_agents_def_default(&def);
  def.capacity = agents;
  def.decision_period = f.decision_period;
  def.max_plan_age = f.max_plan_age;
  def.max_plans_per_frame = agents;
  def.threads = 1;
  topoplan_agents* w = nullptr;
  if (topoplan_agents_create(p, &def, &w, error, sizeof error) != TOPOPLAN_OK) return error;
  v.world.reset(w);
  const int32_t classes = f.num_classes();
  std::vector<std::vector<int32_t>> lists(static_cast<size_t>(classes));
  for (const AgentsFile::Goal& g : f.goals) {
    int32_t id = -1;
    if (topoplan_agents_add_goal(w, g.name.c_str(), g.values.data(), v.num_vars, &id, error,
                                 sizeof error) != TOPOPLAN_OK)
      return error;
    for (int32_t c = 0; c < classes; ++c)
      if (g.classes.empty() || std::find(g.classes.begin(), g.classes.end(), c) != g.classes.end())
        lists[static_cast<size_t>(c)].push_back(id);
  }
  for (int32_t c = 0; c < classes; ++c) {
    int32_t id = -1;
    const auto& l = lists[static_cast<size_t>(c)];
    if (topoplan_agents_add_goal_list(w, l.data(), static_cast<int32_t>(l.size()), &id, error,
                                      sizeof error) != TOPOPLAN_OK)
      return error;
    (void)topoplan_agents_set_class_goals(w, c, id);
  }
  v.num_agents = agents;
  v.class_of.resize(static_cast<size_t>(agents));
  for (int32_t i = 0; i < agents; ++i) {
    int32_t id = -1;
    v.class_of[static_cast<size_t>(i)] = i % classes;
    if (topoplan_agents_add(w, i % classes, f.start[static_cast<size_t>(i % classes)].data(),
                            v.num_vars, &id, error, sizeof error) != TOPOPLAN_OK)
      return error;
  }
  for (const char* name : {"pos", "location", "place", "position"})
    if (topoplan_task_find_variable(task, name, &v.place_var) == TOPOPLAN_OK) break;
  if (v.place_var >= v.num_vars) v.place_var = -1;
  v.engine = std::make_unique<ScriptedEngine>(v.file, agents, seed);
  v.access = std::make_unique<CAgents>(w, v.class_of);
  v.event_buf.resize(static_cast<size_t>(agents) * 4 + 64);
  v.view.assign(static_cast<size_t>(agents) * kColumns, -1);
  v.plan_buf.resize(256);
  return "";
}

// An agent's place: the value of the place variable it believes in.
void refresh_view(Village& v, int32_t i) {
  int32_t* row = &v.view[static_cast<size_t>(i) * kColumns];
  topoplan_agents* w = v.world.get();
  row[kPlace] = v.place_var >= 0 ? topoplan_agents_fact(w, i, v.place_var) : -1;
  row[kRunning] = topoplan_agents_running_action(w, i);
  row[kGoal] = topoplan_agents_goal(w, i);
  row[kReplan] = topoplan_agents_last_replan(w, i);
}

void write_info(JsonWriter& j, const Village& v) {
  const topoplan_task* task = v.task.get();
  j.field("ok", true).field("name", topoplan_task_name(task)).field("agents", v.num_agents);
  j.field("place_var", v.place_var).field("columns", kColumns);
  j.field("decision_period", v.file.decision_period);
  j.field("action_frames", v.file.action_frames).field("max_plan_age", v.file.max_plan_age);
  j.key("classes").begin_array();
  for (int32_t c = 0; c < topoplan_task_num_classes(task); ++c)
    j.value(topoplan_task_class_name(task, c));
  j.end_array().key("variables").begin_array();
  for (int32_t x = 0; x < v.num_vars; ++x) {
    j.begin_object().field("name", topoplan_task_variable_name(task, x)).key("values");
    j.begin_array();
    for (int32_t y = 0; y < topoplan_task_domain_size(task, x); ++y)
      j.value(topoplan_task_value_name(task, x, y));
    j.end_array().end_object();
  }
  j.end_array().key("actions").begin_array();
  for (int32_t a = 0; a < topoplan_task_num_actions(task); ++a) {
    j.begin_object().field("name", topoplan_task_action_name(task, a)).key("effects");
    j.begin_array();
    for (int32_t k = 0; k < topoplan_task_action_num_effects(task, a); ++k) {
      topoplan_effect e{};
      (void)topoplan_task_action_effect(task, a, k, &e);
      j.begin_array().value(e.var).value(e.post).value(e.pre).end_array();  // pre -1: any
    }
    j.end_array().key("prevail").begin_array();
    topoplan_fact f{};
    for (int32_t k = 0; topoplan_task_action_prevail(task, a, k, &f) == TOPOPLAN_OK; ++k)
      j.begin_array().value(f.var).value(f.value).end_array();
    j.end_array().end_object();
  }
  j.end_array().key("goals").begin_array();
  for (const AgentsFile::Goal& g : v.file.goals) {  // values: one per variable, -1: free
    j.begin_object().field("name", g.name).key("values").begin_array();
    for (int32_t x : g.values) j.value(x);
    j.end_array().end_object();
  }
  j.end_array().key("events").begin_array();
  for (const AgentsFile::SensedEvent& e : v.file.events) {
    j.begin_object().field("frame", e.frame).field("class", e.npc_class).field("share", e.share);
    j.field("line", static_cast<int64_t>(e.line)).key("set").begin_array();
    for (const Fact& f : e.set) j.begin_array().value(f.var).value(f.value).end_array();
    j.end_array().end_object();
  }
  j.end_array();
  j.key("replan_reasons").begin_array();
  for (int32_t r = 0; r < 8; ++r) j.value(topoplan_agents_replan_string(r));
  j.end_array().key("no_plan_reasons").begin_array();
  for (int32_t r = 0; r < 12; ++r) j.value(topoplan_status_string(r));
  j.end_array();
}

}  // namespace
}  // namespace topoplan::wasm

using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

extern "C" {

// Reads a domain file with agent tables (`topoplan agents`' format, docs/agents.md) and creates
// `agents` agents (seed: the shares' coins and the random senses). Answers the domain, goals and
// scripted events, or {ok: false, error} with file:line.
TP_EXPORT const char* tp_agents_create(const char* text, const char* filename, int agents,
                                       double seed) {
  g_village.reset();
  if (agents < 1 || agents > 1'000'000) return answer_error("agents must be in [1, 1000000]");
  if (!(seed >= 0) || seed > 9.0e15) return answer_error("seed must be an integer in [0, 9e15]");
  auto v = std::make_unique<Village>();
  const std::string e =
      build(text, filename != nullptr && *filename != 0 ? filename : "agents.toml", agents,
            static_cast<uint64_t>(seed), *v);
  if (!e.empty()) return answer_error(e);
  g_village = std::move(v);
  for (int32_t i = 0; i < g_village->num_agents; ++i) refresh_view(*g_village, i);
  JsonWriter j;
  j.begin_object();
  write_info(j, *g_village);
  return answer(j.end_object().take());
}

// A sensed fact between frames (what the user did: closed a door, took an item): agent -1 writes
// it to every agent. 0, or -1 on a bad id.
TP_EXPORT int tp_agents_sense(int agent, int var, int value) {
  if (!g_village) return -1;
  Village& v = *g_village;
  if (var < 0 || var >= v.num_vars || value < 0 ||
      value >= topoplan_task_domain_size(v.task.get(), var) || agent < -1 || agent >= v.num_agents)
    return -1;
  for (int32_t i = agent < 0 ? 0 : agent; i < (agent < 0 ? v.num_agents : agent + 1); ++i)
    (void)topoplan_agents_set_fact(v.world.get(), i, var, value);
  return 0;
}

// The engine could not run the agent's running action (the page's "fail" button). 0, or -1.
TP_EXPORT int tp_agents_fail(int agent) {
  if (!g_village || agent < 0 || agent >= g_village->num_agents) return -1;
  return topoplan_agents_action_failed(g_village->world.get(), agent) == TOPOPLAN_OK ? 0 : -1;
}

// One frame, as `topoplan agents` plays it: finished actions' effects sensed, the file's events
// of this frame (skipped when `scripted` is 0), `sense` (a share of the agents) random senses,
// then update(1/60). Answers the frame's figures, the events hash so far and, for agent `watch`
// (-1: none), its events of the frame in words.
TP_EXPORT const char* tp_agents_frame(double sense, int watch, int scripted) {
  if (!g_village) return answer_error("no agents");
  Village& v = *g_village;
  topoplan_agents* w = v.world.get();
  const int64_t frame = v.engine->frame();
  v.engine->before_update(*v.access, sense, scripted != 0);
  topoplan_agents_stats s{};
  const double t0 = now_ms();
  (void)topoplan_agents_update(w, 1.0 / 60, v.event_buf.data(),
                               static_cast<int32_t>(v.event_buf.size()), &s);
  const double ms = now_ms() - t0;
  v.dropped += s.events_dropped;
  v.total_events += s.events;
  JsonWriter j;
  j.begin_object().field("ok", true).field("frame", frame).field("ms", ms);
  j.field("events", s.events).field("examined", s.examined).field("planned", s.planned);
  j.field("waiting", s.waiting).field("plan_ms", static_cast<double>(s.plan_ns) * 1e-6);
  j.key("watched").begin_array();
  char line[512];
  for (int64_t k = 0; k < s.events; ++k) {
    const topoplan_agent_event& e = v.event_buf[static_cast<size_t>(k)];
    namespace ta = topoplan::agents;
    v.engine->observe(
        ta::Event{e.agent, static_cast<ta::EventKind>(e.kind), e.detail, e.step, e.action, e.goal});
    int32_t* row = &v.view[static_cast<size_t>(e.agent) * kColumns];
    if (e.kind == TOPOPLAN_AGENT_NO_PLAN) {
      ++v.no_plan[std::min<size_t>(e.detail, v.no_plan.size() - 1)];
      row[kNoPlan] = e.detail;
    }
    if (e.kind == TOPOPLAN_AGENT_PLANNED) {
      row[kNoPlan] = -1;
      row[kPlannedAt] = static_cast<int32_t>(frame);
    }
    if (e.agent == watch) {
      size_t n = 0;
      if (topoplan_agents_describe(w, &e, line, sizeof line, &n) == TOPOPLAN_OK) j.value(line);
    }
  }
  j.end_array();
  for (size_t r = 0; r < v.replans.size(); ++r) v.replans[r] += s.replans[r];
  for (int32_t i = 0; i < v.num_agents; ++i) refresh_view(v, i);
  v.engine->end_frame();
  j.field("total_events", v.total_events).field("dropped", v.dropped);
  j.field("event_hash", v.engine->hash_text()).key("replans").begin_array();
  for (int64_t r : v.replans) j.value(r);
  j.end_array().key("no_plan").begin_array();
  for (int64_t r : v.no_plan) j.value(r);
  j.end_array();
  return answer(j.end_object().take());
}

// Runs `frames` frames without answers in between (the determinism check): the final frame's
// answer.
TP_EXPORT const char* tp_agents_run(int frames, double sense) {
  if (!g_village) return answer_error("no agents");
  if (frames < 1) return answer_error("frames must be >= 1");
  for (int f = 0; f + 1 < frames; ++f) (void)tp_agents_frame(sense, -1, 1);
  return tp_agents_frame(sense, -1, 1);
}

// The per-agent view: num_agents × columns int32 (place value, running action, goal, last replan
// reason, last no-plan reason or -1, frame of the last adopted plan or -1), refreshed by every
// frame. Its address in the heap.
TP_EXPORT int32_t* tp_agents_view() {
  return g_village ? g_village->view.data() : nullptr;
}

// One agent in words: class, goal, plan with the running step, beliefs, why it last replanned.
TP_EXPORT const char* tp_agents_agent(int agent) {
  if (!g_village || agent < 0 || agent >= g_village->num_agents)
    return answer_error("agent out of range");
  Village& v = *g_village;
  const topoplan_agents* w = v.world.get();
  const topoplan_task* task = v.task.get();
  JsonWriter j;
  j.begin_object().field("ok", true).field("agent", static_cast<int64_t>(agent));
  const int32_t c = v.class_of[static_cast<size_t>(agent)];
  j.field("class", topoplan_task_num_classes(task) > 0 ? topoplan_task_class_name(task, c) : "");
  const int32_t g = topoplan_agents_goal(w, agent);
  const char* gname = g >= 0 ? topoplan_agents_goal_name(w, g) : nullptr;
  j.field("goal", gname != nullptr ? gname : "");
  int32_t n = 0;
  (void)topoplan_agents_plan(w, agent, v.plan_buf.data(), static_cast<int32_t>(v.plan_buf.size()),
                             &n);
  j.key("plan").begin_array();
  for (int32_t k = 0; k < n; ++k)
    j.value(topoplan_task_action_name(task, v.plan_buf[static_cast<size_t>(k)]));
  j.end_array().field("step", static_cast<int64_t>(topoplan_agents_step(w, agent)));
  const int32_t run = topoplan_agents_running_action(w, agent);
  j.field("running", run >= 0 ? topoplan_task_action_name(task, run) : "");
  j.field("progress", topoplan_agents_progress(w, agent));
  j.field("replan", topoplan_agents_replan_string(topoplan_agents_last_replan(w, agent)));
  const int32_t np = v.view[static_cast<size_t>(agent) * kColumns + kNoPlan];
  j.field("no_plan", np >= 0 ? topoplan_status_string(np) : "");
  j.key("state").begin_array();
  for (int32_t x = 0; x < v.num_vars; ++x) j.value(topoplan_agents_fact(w, agent, x));
  j.end_array();
  return answer(j.end_object().take());
}

}  // extern "C"
