// The WebAssembly binding, agents part: a domain file's NPCs living by the agent runtime
// (docs/agents.md) on the Town page, through the C API (topoplan_agents_*).
//
// The page plays the engine exactly as `topoplan agents` does (cli/cmd_agents.cpp), so that the
// same file, agent count and seed give the same event stream — the events hash of the page
// equals the CLI's `--json` "event_hash" (tests/web/test_town_agents.py):
//   * the file's [agents], [[goal]] and [[event]] tables are cut out of the domain text (their
//     lines left blank, so line numbers stay the file's) and read here with toml++, as the CLI
//     reads them; an event's share is drawn by the CLI's coin (seed + the event's line);
//   * agents are added classes in turn, each from its class's first instance;
//   * an action the runtime starts takes action_frames frames, then its effects are written as
//     sensed facts (a wheel of finishing actions); --sense draws from SplitMix64(seed).
// What the page adds — the user closing a door or taking an item — are sensed facts written
// between frames (tp_agents_sense); they change the stream, as any input does.
//
// Per frame the page reads one int32 view (tp_agents_view: per agent its place value, running
// action, goal, last replan reason, last no-plan reason, frame of its last plan), not JSON.
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binding.h"
#include "topoplan/c/topoplan_c_agents.h"
#include "topoplan/runtime/random.h"

namespace topoplan::wasm {
namespace {

using AgentsPtr = std::unique_ptr<topoplan_agents, Freer<topoplan_agents, topoplan_agents_free>>;

struct Fact2 {
  int32_t var = 0, value = 0;
};
struct Goal {
  std::string name;
  std::vector<int32_t> values;   // one per variable, TOPOPLAN_UNDEFINED: free
  std::vector<int32_t> classes;  // empty: every class
};
struct SensedEvent {
  int64_t frame = 0;
  int32_t npc_class = -1;  // -1: every class
  double share = 1.0;
  std::vector<Fact2> set;
  int line = 0;
};

// The view's columns (tp_agents_view).
constexpr int kPlace = 0, kRunning = 1, kGoal = 2, kReplan = 3, kNoPlan = 4, kPlannedAt = 5,
              kColumns = 6;

struct Village {
  TaskPtr task;
  CrowdPlannerPtr planner;
  AgentsPtr world;
  std::string file;
  int32_t num_vars = 0, num_agents = 0, classes = 1, place_var = -1;
  int32_t decision_period = 30, action_frames = 3;
  int64_t max_plan_age = 0;
  uint64_t seed = 1;
  std::vector<Goal> goals;
  std::vector<SensedEvent> events;            // by frame, then file order
  std::vector<std::vector<int32_t>> changes;  // per class: the variables its actions change
  std::vector<std::vector<std::pair<int32_t, int32_t>>> wheel;
  std::vector<topoplan_agent_event> event_buf;
  std::vector<int32_t> view;  // num_agents × kColumns
  std::vector<int32_t> plan_buf;
  std::vector<int32_t> class_of;
  std::unique_ptr<SplitMix64> rng;
  size_t next_event = 0;
  int64_t frame = 0, total_events = 0, dropped = 0;
  uint64_t hash = 1469598103934665603ull;
  std::array<int64_t, 8> replans{};
  std::array<int64_t, 4> no_plan{};
};
std::unique_ptr<Village> g_village;

// The CLI's coin for agent i at frame f (cmd_agents.cpp).
bool chosen(uint64_t seed, int64_t frame, int32_t agent, double share) {
  if (share >= 1.0) return true;
  SplitMix64 r(seed ^ (static_cast<uint64_t>(frame) * 0x9E3779B97F4A7C15ull) ^
               (static_cast<uint64_t>(agent) << 20));
  return r.unit() < share;
}

bool is_agent_section(std::string_view line) {
  if (line.empty() || line[0] != '[') return false;
  size_t i = line.size() > 1 && line[1] == '[' ? 2 : 1;
  const size_t start = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) != 0 ||
                             line[i] == '_' || line[i] == '-'))
    ++i;
  if (i == start || i >= line.size() || line[i] != ']') return false;
  const std::string_view key = line.substr(start, i - start);
  return key == "agents" || key == "goal" || key == "event";
}
// Whether the line opens any top-level table (then it ends an agent section).
bool is_header(std::string_view line) {
  if (line.empty() || line[0] != '[') return false;
  size_t i = line.size() > 1 && line[1] == '[' ? 2 : 1;
  const size_t start = i;
  while (i < line.size() && (std::isalnum(static_cast<unsigned char>(line[i])) != 0 ||
                             line[i] == '_' || line[i] == '-'))
    ++i;
  return i > start && i < line.size() && line[i] == ']';
}

int line_of(const toml::node& n) {
  return static_cast<int>(n.source().begin.line);
}

class Reader {
 public:
  explicit Reader(Village& v) : v_(v) {}
  std::string read(std::string_view text);

 private:
  std::string fail(int line, const std::string& m) const {
    return v_.file + ":" + std::to_string(line) + ": " + m;
  }
  std::string facts(const toml::node* node, int line, const std::string& where,
                    std::vector<int32_t>* values, std::vector<Fact2>* list);
  std::string classes(const toml::node* node, int line, std::vector<int32_t>& out);
  std::string keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                   const std::string& where);
  Village& v_;
};

std::string Reader::keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                         const std::string& where) {
  for (auto&& [key, node] : t) {
    (void)node;
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return fail(
        static_cast<int>(key.source().begin.line),
        "unknown key '" + std::string(key.str()) + "' in " + where + " (allowed: " + list + ")");
  }
  return "";
}

std::string Reader::facts(const toml::node* node, int line, const std::string& where,
                          std::vector<int32_t>* values, std::vector<Fact2>* list) {
  const toml::table* t = node != nullptr ? node->as_table() : nullptr;
  if (t == nullptr) return fail(line, where + " needs a table of facts, e.g. { door = \"open\" }");
  if (t->empty()) return fail(line, where + ": no facts");
  if (values != nullptr) values->assign(static_cast<size_t>(v_.num_vars), TOPOPLAN_UNDEFINED);
  const topoplan_task* task = v_.task.get();
  for (auto&& [key, value] : *t) {
    const int at = static_cast<int>(key.source().begin.line);
    const std::string k(key.str());
    int32_t var = -1, x = -1;
    if (topoplan_task_find_variable(task, k.c_str(), &var) != TOPOPLAN_OK)
      return fail(at, where + ": no variable '" + k + "'");
    const std::optional<std::string> name = value.value<std::string>();
    if (!name) return fail(at, where + ": the value of '" + k + "' must be a string");
    if (topoplan_task_find_value(task, var, name->c_str(), &x) != TOPOPLAN_OK)
      return fail(at, where + ": variable '" + k + "' has no value '" + *name + "'");
    if (values != nullptr) (*values)[static_cast<size_t>(var)] = x;
    if (list != nullptr) list->push_back(Fact2{var, x});
  }
  return "";
}

std::string Reader::classes(const toml::node* node, int line, std::vector<int32_t>& out) {
  auto one = [&](const toml::node& n) -> std::string {
    const std::optional<std::string> name = n.value<std::string>();
    if (!name) return fail(line_of(n), "a class is named by a string");
    int32_t c = -1;
    if (topoplan_task_find_class(v_.task.get(), name->c_str(), &c) != TOPOPLAN_OK)
      return fail(line_of(n), "no class '" + *name + "'");
    out.push_back(c);
    return "";
  };
  if (node == nullptr) return "";
  if (const toml::array* a = node->as_array()) {
    for (const toml::node& n : *a)
      if (std::string e = one(n); !e.empty()) return e;
    if (a->empty()) return fail(line, "an empty class list");
    return "";
  }
  return one(*node);
}

std::string Reader::read(std::string_view text) {
  toml::table root;
  try {
    root = toml::parse(text, v_.file);
  } catch (const toml::parse_error& e) {
    return fail(static_cast<int>(e.source().begin.line), std::string(e.description()));
  }
  if (const toml::node* s = root.get("agents")) {
    const toml::table* t = s->as_table();
    if (t == nullptr) return fail(line_of(*s), "[agents] must be a table");
    if (std::string e = keys(*t, {"decision_period", "max_plan_age", "action_frames"}, "[agents]");
        !e.empty())
      return e;
    auto integer = [&](const char* key, int64_t min, int64_t max, auto& dst) -> std::string {
      const toml::node* n = t->get(key);
      if (n == nullptr) return "";
      const std::optional<int64_t> v = n->value<int64_t>();
      if (!v || *v < min || *v > max)
        return fail(line_of(*n), std::string("[agents] ") + key + " must be an integer in [" +
                                     std::to_string(min) + ", " + std::to_string(max) + "]");
      dst = static_cast<std::remove_reference_t<decltype(dst)>>(*v);
      return "";
    };
    if (std::string e = integer("decision_period", 1, 1 << 20, v_.decision_period); !e.empty())
      return e;
    if (std::string e = integer("max_plan_age", 0, int64_t{1} << 30, v_.max_plan_age); !e.empty())
      return e;
    if (std::string e = integer("action_frames", 1, 1 << 16, v_.action_frames); !e.empty())
      return e;
  }
  if (const toml::node* s = root.get("goal")) {
    const toml::array* a = s->as_array();
    if (a == nullptr) return fail(line_of(*s), "goals are [[goal]] tables");
    for (const toml::node& n : *a) {
      const toml::table* t = n.as_table();
      const int line = line_of(n);
      if (t == nullptr) return fail(line, "goals are [[goal]] tables");
      if (std::string e = keys(*t, {"name", "class", "facts"}, "[[goal]]"); !e.empty()) return e;
      Goal g;
      const std::optional<std::string> name = (*t)["name"].value<std::string>();
      if (!name || name->empty()) return fail(line, "[[goal]] needs a name");
      g.name = *name;
      if (std::string e = classes(t->get("class"), line, g.classes); !e.empty()) return e;
      if (std::string e = facts(t->get("facts"), line, "goal '" + g.name + "'", &g.values, nullptr);
          !e.empty())
        return e;
      v_.goals.push_back(std::move(g));
    }
  }
  if (const toml::node* s = root.get("event")) {
    const toml::array* a = s->as_array();
    if (a == nullptr) return fail(line_of(*s), "events are [[event]] tables");
    for (const toml::node& n : *a) {
      const toml::table* t = n.as_table();
      const int line = line_of(n);
      if (t == nullptr) return fail(line, "events are [[event]] tables");
      if (std::string e = keys(*t, {"frame", "class", "share", "set"}, "[[event]]"); !e.empty())
        return e;
      SensedEvent ev;
      ev.line = line;
      const std::optional<int64_t> frame = (*t)["frame"].value<int64_t>();
      if (!frame || *frame < 0) return fail(line, "[[event]] needs frame = an integer >= 0");
      ev.frame = *frame;
      std::vector<int32_t> cls;
      if (std::string e = classes(t->get("class"), line, cls); !e.empty()) return e;
      if (cls.size() > 1) return fail(line, "[[event]] names one class");
      if (!cls.empty()) ev.npc_class = cls[0];
      if (const toml::node* sh = t->get("share")) {
        const std::optional<double> v = sh->value<double>();
        if (!v || !std::isfinite(*v) || *v < 0 || *v > 1)
          return fail(line_of(*sh), "[[event]] share must be a number in [0, 1]");
        ev.share = *v;
      }
      if (std::string e = facts(t->get("set"), line, "[[event]] set", nullptr, &ev.set); !e.empty())
        return e;
      v_.events.push_back(std::move(ev));
    }
    std::stable_sort(v_.events.begin(), v_.events.end(),
                     [](const auto& x, const auto& y) { return x.frame < y.frame; });
  }
  return "";
}

// The actions of class c (every action when the domain has no classes).
std::vector<int32_t> class_actions(const topoplan_task* task, int32_t c) {
  std::vector<int32_t> out;
  if (topoplan_task_num_classes(task) == 0) {
    for (int32_t a = 0; a < topoplan_task_num_actions(task); ++a) out.push_back(a);
    return out;
  }
  for (int32_t k = 0; k < topoplan_task_class_num_actions(task, c); ++k)
    out.push_back(topoplan_task_class_action(task, c, k));
  return out;
}

std::string build(const char* text, const char* filename, int32_t agents, uint64_t seed,
                  Village& v) {
  v.file = filename;
  v.seed = seed;
  // Two texts of the same lines: the domain's (agent sections blanked) and the agents'.
  std::string domain_text, agent_text;
  bool agent_section = false;
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t nl = rest.find('\n');
    const std::string_view line =
        rest.substr(0, nl == std::string_view::npos ? rest.size() : nl + 1);
    rest.remove_prefix(line.size());
    if (is_header(line)) agent_section = is_agent_section(line);
    const bool has_newline = !line.empty() && line.back() == '\n';
    (agent_section ? agent_text : domain_text) += line;
    (agent_section ? domain_text : agent_text) += has_newline ? "\n" : "";
  }
  char error[1024];
  topoplan_task* t = nullptr;
  if (topoplan_task_parse(domain_text.data(), domain_text.size(), TOPOPLAN_FORMAT_NATIVE, filename,
                          &t, error, sizeof error) != TOPOPLAN_OK)
    return error;
  v.task.reset(t);
  const topoplan_task* task = t;
  v.num_vars = topoplan_task_num_variables(task);
  if (std::string e = Reader(v).read(agent_text); !e.empty()) return e;
  topoplan_crowd_planner* p = nullptr;
  if (topoplan_crowd_planner_create(task, &p, error, sizeof error) != TOPOPLAN_OK)
    return std::string(filename) + ": " + error;
  v.planner.reset(p);

  const int32_t nc = topoplan_task_num_classes(task);
  v.classes = std::max(1, nc);
  std::vector<std::vector<uint8_t>> changed(static_cast<size_t>(v.classes),
                                            std::vector<uint8_t>(v.num_vars, 0));
  v.changes.assign(static_cast<size_t>(v.classes), {});
  for (int32_t c = 0; c < v.classes; ++c) {
    for (int32_t a : class_actions(task, c))
      for (int32_t k = 0; k < topoplan_task_action_num_effects(task, a); ++k) {
        topoplan_effect e{};
        if (topoplan_task_action_effect(task, a, k, &e) == TOPOPLAN_OK)
          changed[static_cast<size_t>(c)][static_cast<size_t>(e.var)] = 1;
      }
    for (int32_t x = 0; x < v.num_vars; ++x)
      if (changed[static_cast<size_t>(c)][static_cast<size_t>(x)] != 0)
        v.changes[static_cast<size_t>(c)].push_back(x);
  }
  std::vector<topoplan_problem> instances;
  for (int32_t i = 0; i < topoplan_task_num_instances(task); ++i) {
    topoplan_problem pr{};
    (void)topoplan_task_instance(task, i, &pr);
    instances.push_back(pr);
  }
  if (v.goals.empty()) {  // each instance with a class: a routine of its class
    for (int32_t i = 0; i < static_cast<int32_t>(instances.size()); ++i) {
      const topoplan_problem& pr = instances[static_cast<size_t>(i)];
      Goal g;
      const char* name = topoplan_task_instance_name(task, i);
      g.name = name != nullptr && *name != 0 ? name : "instance";
      const int32_t c = pr.npc_class == TOPOPLAN_ALL_ACTIONS ? 0 : pr.npc_class;
      if (pr.npc_class != TOPOPLAN_ALL_ACTIONS) g.classes = {c};
      g.values.assign(static_cast<size_t>(v.num_vars), TOPOPLAN_UNDEFINED);
      for (int32_t x = 0; x < v.num_vars; ++x)
        if (changed[static_cast<size_t>(c)][static_cast<size_t>(x)] != 0)
          g.values[static_cast<size_t>(x)] = pr.goal[x];
      v.goals.push_back(std::move(g));
    }
  }
  if (v.goals.empty())
    return std::string(filename) + ": no goals: add [[goal]] tables or instances";

  topoplan_agents_def def;
  topoplan_agents_def_default(&def);
  def.capacity = agents;
  def.decision_period = v.decision_period;
  def.max_plan_age = v.max_plan_age;
  def.max_plans_per_frame = agents;
  def.threads = 1;
  topoplan_agents* w = nullptr;
  if (topoplan_agents_create(p, &def, &w, error, sizeof error) != TOPOPLAN_OK) return error;
  v.world.reset(w);
  std::vector<std::vector<int32_t>> lists(static_cast<size_t>(v.classes));
  for (const Goal& g : v.goals) {
    int32_t id = -1;
    if (topoplan_agents_add_goal(w, g.name.c_str(), g.values.data(), v.num_vars, &id, error,
                                 sizeof error) != TOPOPLAN_OK)
      return error;
    for (int32_t c = 0; c < v.classes; ++c)
      if (g.classes.empty() || std::find(g.classes.begin(), g.classes.end(), c) != g.classes.end())
        lists[static_cast<size_t>(c)].push_back(id);
  }
  for (int32_t c = 0; c < v.classes; ++c) {
    int32_t id = -1;
    const auto& l = lists[static_cast<size_t>(c)];
    if (topoplan_agents_add_goal_list(w, l.data(), static_cast<int32_t>(l.size()), &id, error,
                                      sizeof error) != TOPOPLAN_OK)
      return error;
    (void)topoplan_agents_set_class_goals(w, c, id);
  }
  std::vector<std::vector<int32_t>> start(static_cast<size_t>(v.classes),
                                          std::vector<int32_t>(v.num_vars, 0));
  for (int32_t c = 0; c < v.classes; ++c)
    for (const topoplan_problem& pr : instances)
      if (pr.npc_class == c || pr.npc_class == TOPOPLAN_ALL_ACTIONS) {
        start[static_cast<size_t>(c)].assign(pr.init, pr.init + v.num_vars);
        break;
      }
  v.num_agents = agents;
  v.class_of.resize(static_cast<size_t>(agents));
  for (int32_t i = 0; i < agents; ++i) {
    int32_t id = -1;
    v.class_of[static_cast<size_t>(i)] = i % v.classes;
    if (topoplan_agents_add(w, i % v.classes, start[static_cast<size_t>(i % v.classes)].data(),
                            v.num_vars, &id, error, sizeof error) != TOPOPLAN_OK)
      return error;
  }
  for (const char* name : {"pos", "location", "place", "position"})
    if (topoplan_task_find_variable(task, name, &v.place_var) == TOPOPLAN_OK) break;
  if (v.place_var >= v.num_vars) v.place_var = -1;
  v.wheel.assign(static_cast<size_t>(v.action_frames + 1), {});
  v.event_buf.resize(static_cast<size_t>(agents) * 4 + 64);
  v.view.assign(static_cast<size_t>(agents) * kColumns, -1);
  v.plan_buf.resize(256);
  v.rng = std::make_unique<SplitMix64>(seed);
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
  j.field("decision_period", v.decision_period).field("action_frames", v.action_frames);
  j.field("max_plan_age", v.max_plan_age);
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
  for (const Goal& g : v.goals) {  // values: one per variable, -1: free
    j.begin_object().field("name", g.name).key("values").begin_array();
    for (int32_t x : g.values) j.value(x);
    j.end_array().end_object();
  }
  j.end_array().key("events").begin_array();
  for (const SensedEvent& e : v.events) {
    j.begin_object().field("frame", e.frame).field("class", e.npc_class).field("share", e.share);
    j.field("line", static_cast<int64_t>(e.line)).key("set").begin_array();
    for (const Fact2& f : e.set) j.begin_array().value(f.var).value(f.value).end_array();
    j.end_array().end_object();
  }
  j.end_array();
  j.key("replan_reasons").begin_array();
  for (int32_t r = 0; r < 8; ++r) j.value(topoplan_agents_replan_string(r));
  j.end_array().key("no_plan_reasons").begin_array();
  for (int32_t r = 0; r < 4; ++r) j.value(topoplan_agents_no_plan_string(r));
  j.end_array();
}

std::string hash_text(uint64_t h) {
  char text[32];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
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
  const topoplan_task* task = v.task.get();
  const int64_t frame = v.frame;
  const auto span = static_cast<int64_t>(v.wheel.size());
  auto& due = v.wheel[static_cast<size_t>(frame % span)];
  for (const auto& [agent, action] : due)
    if (topoplan_agents_running_action(w, agent) == action)
      for (int32_t k = 0; k < topoplan_task_action_num_effects(task, action); ++k) {
        topoplan_effect e{};
        (void)topoplan_task_action_effect(task, action, k, &e);
        (void)topoplan_agents_set_fact(w, agent, e.var, e.post);
      }
  due.clear();
  while (v.next_event < v.events.size() && v.events[v.next_event].frame <= frame) {
    const SensedEvent& ev = v.events[v.next_event++];
    if (ev.frame < frame || scripted == 0) continue;
    for (int32_t i = 0; i < v.num_agents; ++i)
      if ((ev.npc_class < 0 || v.class_of[static_cast<size_t>(i)] == ev.npc_class) &&
          chosen(v.seed + static_cast<uint64_t>(ev.line), frame, i, ev.share))
        for (const Fact2& x : ev.set) (void)topoplan_agents_set_fact(w, i, x.var, x.value);
  }
  const auto sensing = static_cast<int64_t>(std::clamp(sense, 0.0, 1.0) * v.num_agents);
  for (int64_t k = 0; k < sensing; ++k) {
    const int32_t i = v.rng->below(v.num_agents);
    const auto& vars = v.changes[static_cast<size_t>(v.class_of[static_cast<size_t>(i)])];
    if (vars.empty()) continue;
    const int32_t x = vars[static_cast<size_t>(v.rng->below(static_cast<int32_t>(vars.size())))];
    (void)topoplan_agents_set_fact(w, i, x, v.rng->below(topoplan_task_domain_size(task, x)));
  }
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
    for (uint64_t x : {uint64_t(uint32_t(e.agent)), uint64_t(e.kind), uint64_t(e.detail),
                       uint64_t(e.step), uint64_t(uint32_t(e.action)), uint64_t(uint32_t(e.goal))})
      v.hash = (v.hash ^ x) * 1099511628211ull;
    if (e.kind == TOPOPLAN_AGENT_START)
      v.wheel[static_cast<size_t>((frame + v.action_frames) % span)].emplace_back(e.agent,
                                                                                  e.action);
    int32_t* row = &v.view[static_cast<size_t>(e.agent) * kColumns];
    if (e.kind == TOPOPLAN_AGENT_NO_PLAN) {
      ++v.no_plan[e.detail & 3];
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
  ++v.frame;
  j.field("total_events", v.total_events).field("dropped", v.dropped);
  j.field("event_hash", hash_text(v.hash)).key("replans").begin_array();
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
  j.field("no_plan", np >= 0 ? topoplan_agents_no_plan_string(np) : "");
  j.key("state").begin_array();
  for (int32_t x = 0; x < v.num_vars; ++x) j.value(topoplan_agents_fact(w, agent, x));
  j.end_array();
  return answer(j.end_object().take());
}

}  // extern "C"
