// The WebAssembly binding, playground part: planners, loading a domain from text, the class
// analysis with its graphs, and planning with the validator's verdict — all through the C API.
// One loaded task per module instance (a page). binding.h says how answers are returned.
#include "binding.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>

namespace topoplan::wasm {

namespace {
std::string g_answer;  // the last answer handed to JavaScript
TaskPtr g_task;        // the domain loaded in the playground
}  // namespace

const char* answer(std::string s) {
  g_answer = std::move(s);
  return g_answer.c_str();
}

double now_ms() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now();
#else
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

// "file:line: message" → its parts (a plain message has no file and line 0).
void write_error(JsonWriter& j, std::string_view text) {
  std::string file, message(text);
  int64_t line = 0;
  const size_t c1 = text.find(':');
  if (c1 != std::string_view::npos && c1 > 0) {
    size_t k = c1 + 1;
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
    if (k > c1 + 1 && k + 1 < text.size() && text[k] == ':' && text[k + 1] == ' ') {
      file = std::string(text.substr(0, c1));
      line = std::strtoll(std::string(text.substr(c1 + 1, k - c1 - 1)).c_str(), nullptr, 10);
      message = std::string(text.substr(k + 2));
    }
  }
  j.key("error").begin_object();
  j.field("message", message).field("file", file).field("line", line).field("text", text);
  j.end_object();
}

const char* answer_error(std::string_view text) {
  JsonWriter j;
  j.begin_object().field("ok", false);
  write_error(j, text);
  return answer(j.end_object().take());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double min_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

const char* structural_class_name(int32_t structural) {
  // By TOPOPLAN_CLASS_* value: C0, C2S, C2*.
  static constexpr const char* kNames[] = {"C0", "C2S", "C2*"};
  static_assert(TOPOPLAN_CLASS_C0 == 0 && TOPOPLAN_CLASS_C2S == 1 && TOPOPLAN_CLASS_C2STAR == 2);
  return structural >= 0 && structural < 3 ? kNames[structural] : "none";
}

namespace {

// Fast Downward files start with "begin_version"; anything else is read as native TOML.
bool looks_like_sas(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return text.substr(i, 13) == "begin_version";
}

template <class T>
void write_ints(JsonWriter& j, const T* xs, int32_t n) {
  j.begin_array();
  for (int32_t i = 0; i < n; ++i) j.value(static_cast<int32_t>(xs[i]));
  j.end_array();
}

void write_pairs(JsonWriter& j, const int32_t* pairs, int32_t n) {
  j.begin_array();
  for (int32_t i = 0; i < n; ++i)
    j.begin_array().value(pairs[2 * i]).value(pairs[2 * i + 1]).end_array();
  j.end_array();
}

std::string format_state(const topoplan_task* t, const std::vector<int32_t>& state) {
  size_t size = 0;
  (void)topoplan_task_format_state(t, state.data(), static_cast<int32_t>(state.size()), nullptr, 0,
                                   &size);
  std::string s(size, '\0');
  if (topoplan_task_format_state(t, state.data(), static_cast<int32_t>(state.size()), s.data(),
                                 s.size(), &size) != TOPOPLAN_OK)
    return "?";
  s.resize(size - 1);
  return s;
}

void write_actions(JsonWriter& j, const topoplan_task* t) {
  j.key("actions").begin_array();
  for (int32_t a = 0; a < topoplan_task_num_actions(t); ++a) {
    j.begin_object().field("name", topoplan_task_action_name(t, a));
    j.field("cost", topoplan_task_action_cost(t, a));
    j.key("effects").begin_array();
    topoplan_effect e{};
    for (int32_t i = 0; topoplan_task_action_effect(t, a, i, &e) == TOPOPLAN_OK; ++i)
      j.begin_object().field("var", e.var).field("pre", e.pre).field("post", e.post).end_object();
    j.end_array().key("prevail").begin_array();
    topoplan_fact f{};
    for (int32_t i = 0; topoplan_task_action_prevail(t, a, i, &f) == TOPOPLAN_OK; ++i)
      j.begin_object().field("var", f.var).field("value", f.value).end_object();
    j.end_array().end_object();
  }
  j.end_array();
}

void write_domain(JsonWriter& j, const topoplan_task* t) {
  j.key("domain").begin_object().field("name", topoplan_task_name(t));
  j.key("variables").begin_array();
  for (int32_t v = 0; v < topoplan_task_num_variables(t); ++v) {
    j.begin_object().field("name", topoplan_task_variable_name(t, v)).key("values").begin_array();
    for (int32_t x = 0; x < topoplan_task_domain_size(t, v); ++x)
      j.value(topoplan_task_value_name(t, v, x));
    j.end_array().end_object();
  }
  j.end_array();
  write_actions(j, t);
  j.key("classes").begin_array();
  for (int32_t c = 0; c < topoplan_task_num_classes(t); ++c) {
    j.begin_object().field("name", topoplan_task_class_name(t, c)).key("actions").begin_array();
    for (int32_t i = 0; i < topoplan_task_class_num_actions(t, c); ++i)
      j.value(topoplan_task_class_action(t, c, i));
    j.end_array().end_object();
  }
  j.end_array();
  j.key("instances").begin_array();
  for (int32_t i = 0; i < topoplan_task_num_instances(t); ++i) {
    topoplan_problem p{};
    (void)topoplan_task_instance(t, i, &p);
    const std::vector<int32_t> init(p.init, p.init + p.num_variables);
    const std::vector<int32_t> goal(p.goal, p.goal + p.num_variables);
    const char* name = topoplan_task_instance_name(t, i);
    j.begin_object().field("name", name == nullptr ? "" : name).field("class", p.npc_class);
    j.field("init", format_state(t, init)).field("goal", format_state(t, goal)).end_object();
  }
  j.end_array().end_object();
}

// The action ids of the domain whose analysis flags have `bit`.
void write_flagged(JsonWriter& j, const topoplan_analysis* a, int32_t actions, int32_t bit) {
  j.begin_array();
  for (int32_t x = 0; x < actions; ++x)
    if (topoplan_analysis_action_flags(a, x) & bit) j.value(x);
  j.end_array();
}

void write_variable(JsonWriter& j, const topoplan_analysis* a, int32_t v) {
  topoplan_variable_graph g{};
  (void)topoplan_analysis_variable(a, v, &g);
  j.begin_object().field("var", g.var).field("components", g.components).key("actions");
  write_ints(j, g.actions, g.num_actions);
  j.key("edges");
  write_pairs(j, g.edges, g.num_edges);
  j.key("requestable");
  write_ints(j, g.requestable, g.num_requestable);
  j.key("ghost_values");
  write_ints(j, g.ghost_values, g.num_ghost_values);
  j.key("cycles").begin_array();
  for (int32_t k = 0; k < g.num_cycles; ++k) {
    topoplan_cycle c{};
    (void)topoplan_analysis_cycle(a, v, k, &c);
    j.begin_object().field("simple", c.simple != 0).key("actions");
    write_ints(j, c.actions, c.num_actions);
    j.key("requestable");
    write_ints(j, c.requestable, c.num_requestable);
    j.end_object();
  }
  j.end_array().end_object();
}

void write_report(JsonWriter& j, const topoplan_task* t, const topoplan_analysis* a, int32_t c) {
  topoplan_class_report r{};
  (void)topoplan_analysis_report(a, &r);
  const int32_t actions = topoplan_task_num_actions(t);
  j.begin_object();
  j.field("scope", c < 0 ? std::string("all actions")
                         : "class " + std::string(topoplan_task_class_name(t, c)));
  j.field("actions", r.num_analysed).field("unary", r.unary != 0);
  j.field("post_unique", r.post_unique != 0).field("single_valued", r.single_valued != 0);
  j.field("pre_defined", r.pre_defined != 0)
      .field("class", structural_class_name(r.structural_class));
  j.field("why_not", topoplan_analysis_why_not(a));
  j.key("words").begin_array();
  for (int32_t i = 0; i < topoplan_analysis_num_lines(a); ++i)
    j.value(topoplan_analysis_line(a, i));
  j.end_array().key("analysed");
  write_flagged(j, a, actions, TOPOPLAN_ACTION_ANALYSED);
  j.key("requestable");
  write_flagged(j, a, actions, TOPOPLAN_ACTION_REQUESTABLE);
  j.key("on_cycle");
  write_flagged(j, a, actions, TOPOPLAN_ACTION_ON_CYCLE);
  const int32_t* pairs = nullptr;
  const int32_t pre = topoplan_analysis_edges(a, TOPOPLAN_EDGES_PRE, &pairs);
  j.key("pre_edges");
  write_pairs(j, pairs, pre);
  const int32_t prv = topoplan_analysis_edges(a, TOPOPLAN_EDGES_PRV, &pairs);
  j.key("prv_edges");
  write_pairs(j, pairs, prv);
  j.key("variables").begin_array();
  for (int32_t v = 0; v < topoplan_task_num_variables(t); ++v) write_variable(j, a, v);
  j.end_array().end_object();
}

// The instance to plan: instance `index` (or all-zero / free), its init overridden and its goal
// replaced by the non-empty "var=value, ..." texts. The error text when one does not parse.
std::string problem_of(const topoplan_task* t, int index, const char* init, const char* goal,
                       std::vector<int32_t>& s0, std::vector<int32_t>& g, int32_t& npc_class) {
  const auto n = static_cast<size_t>(topoplan_task_num_variables(t));
  s0.assign(n, 0);
  g.assign(n, TOPOPLAN_UNDEFINED);
  npc_class = TOPOPLAN_ALL_ACTIONS;
  topoplan_problem p{};
  if (topoplan_task_instance(t, index, &p) == TOPOPLAN_OK) {
    s0.assign(p.init, p.init + n);
    g.assign(p.goal, p.goal + n);
    npc_class = p.npc_class;
  }
  char error[512];
  std::vector<int32_t> s(n);
  if (*init) {
    if (topoplan_task_parse_state(t, init, s.data(), static_cast<int32_t>(n), error,
                                  sizeof error) != TOPOPLAN_OK)
      return std::string("init: ") + error;
    for (size_t v = 0; v < n; ++v)
      if (s[v] != TOPOPLAN_UNDEFINED) s0[v] = s[v];
  }
  if (*goal) {
    if (topoplan_task_parse_state(t, goal, s.data(), static_cast<int32_t>(n), error,
                                  sizeof error) != TOPOPLAN_OK)
      return std::string("goal: ") + error;
    g = s;
  }
  return "";
}

// What the goal asks to change, "var: from → to" (the states themselves can be long).
void write_changes(JsonWriter& j, const topoplan_task* t, const std::vector<int32_t>& s0,
                   const std::vector<int32_t>& g) {
  j.key("changes").begin_array();
  for (int32_t v = 0; v < static_cast<int32_t>(g.size()); ++v) {
    const int32_t want = g[static_cast<size_t>(v)], have = s0[static_cast<size_t>(v)];
    if (want != TOPOPLAN_UNDEFINED && want != have)
      j.value(std::string(topoplan_task_variable_name(t, v)) + ": " +
              topoplan_task_value_name(t, v, have) + " → " + topoplan_task_value_name(t, v, want));
  }
  j.end_array();
}

void write_plan(JsonWriter& j, const topoplan_task* t, const topoplan_problem& p,
                const std::vector<int32_t>& plan, int64_t cost) {
  j.field("cost", cost).key("actions").begin_array();
  for (int32_t a : plan)
    j.begin_object().field("id", a).field("name", topoplan_task_action_name(t, a)).end_object();
  j.end_array();
  char reason[512];
  int32_t failed = -1;
  int64_t valid_cost = 0;
  const topoplan_status v = topoplan_validate(t, &p, plan.data(), static_cast<int32_t>(plan.size()),
                                              &failed, &valid_cost, reason, sizeof reason);
  j.key("validation").begin_object().field("valid", v == TOPOPLAN_OK);
  j.field("failed_step", failed).field("reason", reason).field("cost", valid_cost).end_object();
}

}  // namespace
}  // namespace topoplan::wasm

using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

extern "C" {

// [{name, description}] of every planner linked in.
TP_EXPORT const char* tp_planners() {
  JsonWriter j;
  j.begin_array();
  for (int32_t i = 0; i < topoplan_num_planners(); ++i)
    j.begin_object()
        .field("name", topoplan_planner_name(i))
        .field("description", topoplan_planner_description(i))
        .end_object();
  j.end_array();
  return answer(j.take());
}

// Loads a task from text. format: 0 by content ("begin_version" = Fast Downward SAS), 1 native
// TOML, 2 SAS. Answers {ok, format, domain} or {ok: false, error: {message, file, line, text}}.
TP_EXPORT const char* tp_load(const char* text, int format) {
  const std::string_view body(text);
  const bool sas = format == 2 || (format == 0 && looks_like_sas(body));
  char error[1024];
  topoplan_task* t = nullptr;
  const topoplan_status s =
      topoplan_task_parse(text, body.size(), sas ? TOPOPLAN_FORMAT_SAS : TOPOPLAN_FORMAT_NATIVE,
                          sas ? "domain.sas" : "domain.toml", &t, error, sizeof error);
  g_task.reset(t);
  JsonWriter j;
  j.begin_object().field("ok", s == TOPOPLAN_OK).field("format", sas ? "sas" : "native");
  if (s == TOPOPLAN_OK)
    write_domain(j, t);
  else
    write_error(j, error);
  return answer(j.end_object().take());
}

// Class analysis of NPC class `npc_class` of the loaded task (-1: every action), with one
// summary line per class when every action is analysed.
TP_EXPORT const char* tp_check(int npc_class) {
  const topoplan_task* t = g_task.get();
  if (t == nullptr) return answer_error("no domain loaded");
  topoplan_analysis* raw = nullptr;
  if (topoplan_analysis_create(t, npc_class < 0 ? TOPOPLAN_ALL_ACTIONS : npc_class, &raw) !=
      TOPOPLAN_OK)
    return answer_error("no NPC class " + std::to_string(npc_class));
  const AnalysisPtr a(raw);
  JsonWriter j;
  j.begin_object().field("ok", true).key("report");
  write_report(j, t, a.get(), npc_class < 0 ? -1 : npc_class);
  j.key("classes").begin_array();
  if (npc_class < 0) {
    for (int32_t c = 0; c < topoplan_task_num_classes(t); ++c) {
      topoplan_class_report r{};
      char why[1024];
      (void)topoplan_check(t, c, &r, why, sizeof why);
      j.begin_object().field("name", topoplan_task_class_name(t, c));
      j.field("class", structural_class_name(r.structural_class));
      j.field("post_unique", r.post_unique != 0).field("why_not", why).end_object();
    }
  }
  j.end_array();
  return answer(j.end_object().take());
}

// Plans instance `instance` of the loaded task with planner `planner` (a name of tp_planners()).
// Non-empty `init` / `goal` ("var=value,...") replace the instance's. The answer carries the
// plan, its cost, the engine, and the validator's verdict on it.
TP_EXPORT const char* tp_plan(const char* planner, int instance, const char* init,
                              const char* goal) {
  const topoplan_task* t = g_task.get();
  if (t == nullptr) return answer_error("no domain loaded");
  std::vector<int32_t> s0, g;
  topoplan_problem p{};
  if (std::string e = problem_of(t, instance, init, goal, s0, g, p.npc_class); !e.empty())
    return answer_error(e);
  p.init = s0.data();
  p.goal = g.data();
  p.num_variables = static_cast<int32_t>(s0.size());
  // ℙ and the searches get generous bounds; auto keeps its own (docs/planners.md).
  topoplan_plan_options o;
  topoplan_plan_options_init(&o);
  o.max_expansions = 2'000'000;
  o.max_memory_bytes = int64_t{256} << 20;
  o.max_seconds = 10.0;
  const topoplan_plan_options* options = std::strcmp(planner, "auto") == 0 ? nullptr : &o;
  std::vector<int32_t> plan(256);
  topoplan_plan_stats st{};
  char message[1024];
  topoplan_status s =
      topoplan_plan(t, planner, &p, options, plan.data(), static_cast<int32_t>(plan.size()), &st,
                    message, sizeof message);
  if (s == TOPOPLAN_BUFFER_TOO_SMALL) {
    plan.resize(static_cast<size_t>(st.length));
    s = topoplan_plan(t, planner, &p, options, plan.data(), st.length, &st, message,
                      sizeof message);
  }
  if (s == TOPOPLAN_NOT_FOUND || s == TOPOPLAN_INVALID_ARGUMENT) return answer_error(message);
  JsonWriter j;
  j.begin_object().field("ok", true).field("planner", planner);
  j.field("status", s == TOPOPLAN_OK ? "solved" : topoplan_status_string(s));
  j.field("message", message).field("engine", st.engine).field("seconds", st.seconds);
  j.field("expanded", st.expanded).field("generated", st.generated);
  j.field("init", format_state(t, s0)).field("goal", format_state(t, g));
  write_changes(j, t, s0, g);
  if (s == TOPOPLAN_OK) {
    plan.resize(static_cast<size_t>(st.length));
    write_plan(j, t, p, plan, st.cost);
  }
  return answer(j.end_object().take());
}

}  // extern "C"
