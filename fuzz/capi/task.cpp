// fuzz_capi: the task's calls: plans by name, validation, the engine calls, names and lookups,
// states as text, ℙ handles, prepared planners, class analyses, the task written back.
#include "session.h"

namespace fuzz_capi {

namespace {

using FindFn = topoplan_status (*)(const topoplan_task*, const char*, int32_t*);
using NameFn = const char* (*)(const topoplan_task*, int32_t);

// An id drawn in [-1, count], one past each end: its name (`name_of`) is NULL exactly when it is
// out of range, and a lookup (`find`) of that name or of random bytes finds an id of the same
// name. Returns the id; `looked_up` (optional) is the name looked up.
int32_t draw_named(Session& s, int32_t count, NameFn name_of, FindFn find, const std::string& kind,
                   std::string* looked_up = nullptr) {
  const int32_t id = s.in.ConsumeIntegralInRange<int32_t>(-1, count);
  const char* known_name = name_of(s.task, id);
  require((known_name != nullptr) == (id >= 0 && id < count),
          (kind + "_name: NULL iff out of range").c_str());
  const std::string name = s.some_name(known_name);
  int32_t found = -2;
  const topoplan_status status = find(s.task, name.c_str(), &found);
  known(status);
  if (status == TOPOPLAN_OK)
    require(std::strcmp(name.c_str(), name_of(s.task, found)) == 0,
            ("find_" + kind + ": another's name").c_str());
  if (looked_up != nullptr) *looked_up = name;
  return id;
}

}  // namespace

void Session::plan() {
  const int32_t m = vars();
  std::vector<int32_t> init(static_cast<size_t>(m)), goal(static_cast<size_t>(m));
  topoplan_problem problem{};
  const bool from_instance = topoplan_task_num_instances(task) > 0 && in.ConsumeBool();
  if (from_instance) {
    known(topoplan_task_instance(task, in.ConsumeIntegralInRange<int32_t>(-1, 3), &problem));
    if (problem.init != nullptr) {
      std::copy(problem.init, problem.init + m, init.begin());
      std::copy(problem.goal, problem.goal + m, goal.begin());
    }
  } else {
    for (int32_t v = 0; v < m; ++v) {
      init[static_cast<size_t>(v)] = value(v, false);
      goal[static_cast<size_t>(v)] = value(v, true);
    }
    problem.npc_class = in.ConsumeIntegralInRange<int32_t>(-2, num_classes());
  }
  problem.init = init.data();
  problem.goal = goal.data();
  problem.num_variables = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
  topoplan_plan_options options;
  topoplan_plan_options_init(&options);
  if (in.ConsumeBool()) {
    options.max_expansions = hostile_int(1, kExpansions);
    options.max_memory_bytes = hostile_int(1 << 20, 1 << 26);
    options.max_seconds = hostile_real();
    options.objective = in.ConsumeIntegralInRange<int32_t>(-1, 2);
    // Out-of-range values stay; valid ones are kept small so a search ends soon.
    if (options.max_expansions > kExpansions) options.max_expansions = kExpansions;
  } else {
    options.max_expansions = kExpansions;
  }
  const int32_t n = topoplan_num_planners();
  std::string name =
      in.ConsumeBool()
          ? std::string(topoplan_planner_name(in.ConsumeIntegralInRange<int32_t>(0, n - 1)))
          : in.ConsumeRandomLengthString(12);
  // Without options only ℙ (linear) and "auto" (its own bounded defaults) run unbounded.
  const bool with_options = name != "topo" || in.ConsumeBool();
  const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 64);
  std::vector<int32_t> actions(static_cast<size_t>(capacity > 0 ? capacity : 0));
  topoplan_plan_stats stats;
  const topoplan_status s = topoplan_plan(
      task, name.c_str(), &problem, with_options ? &options : nullptr,
      actions.empty() ? nullptr : actions.data(), capacity, &stats, error, sizeof error);
  known(s);
  if (s == TOPOPLAN_OK) {
    int32_t failed = -2;
    int64_t cost = -1;
    known(topoplan_validate(task, &problem, actions.data(), stats.length, &failed, &cost, error,
                            sizeof error));
    require(failed == -1, "a solved plan does not validate");
    require(cost == stats.cost, "a solved plan's cost differs from the validator's");
  }
}

void Session::validate_random() {
  const int32_t m = vars();
  std::vector<int32_t> init(static_cast<size_t>(m)), goal(static_cast<size_t>(m));
  for (int32_t v = 0; v < m; ++v) {
    init[static_cast<size_t>(v)] = value(v, false);
    goal[static_cast<size_t>(v)] = value(v, true);
  }
  const topoplan_problem problem{init.data(), goal.data(), m, TOPOPLAN_ALL_ACTIONS};
  std::vector<int32_t> plan(in.ConsumeIntegralInRange<size_t>(0, 8));
  for (int32_t& a : plan) a = in.ConsumeIntegralInRange<int32_t>(-1, num_actions());
  int32_t failed = 0;
  int64_t cost = 0;
  known(topoplan_validate(task, &problem, plan.data(), static_cast<int32_t>(plan.size()), &failed,
                          &cost, error, sizeof error));
}

// The engine calls: whether an action applies where the validator says it does, its effects
// where the validator's final state has them, goals judged as the validator judges them.
void Session::engine() {
  const int32_t m = vars();
  const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
  std::vector<int32_t> state(static_cast<size_t>(m) + 2), goal(static_cast<size_t>(m) + 2);
  bool in_range = true;
  for (int32_t v = 0; v < m; ++v) {
    const auto x = static_cast<size_t>(v);
    state[x] = value(v, false);
    goal[x] = value(v, true);
    const int32_t size = topoplan_task_domain_size(task, v);
    in_range = in_range && state[x] >= 0 && state[x] < size &&
               (goal[x] == TOPOPLAN_UNDEFINED || (goal[x] >= 0 && goal[x] < size));
  }
  const int32_t action = in.ConsumeIntegralInRange<int32_t>(-1, topoplan_task_num_actions(task));
  topoplan_condition failed{};
  const topoplan_status s = topoplan_action_applies(task, action, state.data(), n, &failed);
  known(s);
  const int32_t holds = topoplan_goal_holds(task, state.data(), goal.data(), n);
  require(holds >= -1 && holds <= 1, "goal_holds outside {-1, 0, 1}");
  char text[160];
  size_t size = 0;
  known(topoplan_condition_describe(task, &failed, text,
                                    in.ConsumeIntegralInRange<size_t>(0, sizeof text), &size));
  if ((s != TOPOPLAN_OK && s != TOPOPLAN_INVALID_PLAN) || !in_range || n != m) return;
  require((s == TOPOPLAN_OK) == (failed.kind == TOPOPLAN_CONDITION_NONE),
          "action_applies: its status and its failed condition disagree");
  // The validator's verdict on the one-action plan from `state` must be the engine's.
  std::vector<int32_t> free(static_cast<size_t>(m), TOPOPLAN_UNDEFINED);
  const topoplan_problem p{state.data(), free.data(), m, TOPOPLAN_ALL_ACTIONS};
  int32_t step = -2;
  int64_t cost = 0;
  const topoplan_status one =
      topoplan_validate(task, &p, &action, 1, &step, &cost, error, sizeof error);
  known(one);
  require((failed.kind == TOPOPLAN_CONDITION_NONE) == (one == TOPOPLAN_OK),
          "action_applies and the validator disagree");
  const topoplan_problem g{state.data(), goal.data(), m, TOPOPLAN_ALL_ACTIONS};
  const topoplan_status none =
      topoplan_validate(task, &g, &action, 0, &step, &cost, error, sizeof error);
  known(none);
  require((holds == 1) == (none == TOPOPLAN_OK), "goal_holds and the validator disagree");
  if (failed.kind == TOPOPLAN_CONDITION_NONE) {
    known(topoplan_action_apply(task, action, state.data(), n));
    for (int32_t v = 0; v < m; ++v)
      require(state[static_cast<size_t>(v)] >= 0 &&
                  state[static_cast<size_t>(v)] < topoplan_task_domain_size(task, v),
              "apply_action wrote a value outside its variable's domain");
  }
}

// Names, sizes and lookups with ids in and out of range: NULL / -1 exactly when out of range,
// and a name found by a lookup is the name asked for.
void Session::introspect() {
  const int32_t m = vars(), na = num_actions();
  require(topoplan_task_name(task) != nullptr, "a task without a name");
  const int32_t var =
      draw_named(*this, m, topoplan_task_variable_name, topoplan_task_find_variable, "variable");
  const int32_t size = topoplan_task_domain_size(task, var);
  require((size > 0) == (var >= 0 && var < m), "domain_size: -1 iff out of range");
  const int32_t val = in.ConsumeIntegralInRange<int32_t>(-1, std::max(size, 0));
  const char* value_name = topoplan_task_value_name(task, var, val);
  require((value_name != nullptr) == (val >= 0 && val < size), "value_name: NULL iff in range");
  int32_t id = -2;
  std::string name = some_name(value_name);
  topoplan_status s = topoplan_task_find_value(task, var, name.c_str(), &id);
  known(s);
  if (s == TOPOPLAN_OK)
    require(std::strcmp(name.c_str(), topoplan_task_value_name(task, var, id)) == 0,
            "find_value: another's name");

  const int32_t action =
      draw_named(*this, na, topoplan_task_action_name, topoplan_task_find_action, "action");
  const bool valid_action = action >= 0 && action < na;
  require((topoplan_task_action_cost(task, action) >= 0) == valid_action, "action_cost");
  const int32_t effects = topoplan_task_action_num_effects(task, action);
  require((effects >= 0) == valid_action, "action_num_effects");
  topoplan_effect e{};
  s = topoplan_task_action_effect(task, action,
                                  in.ConsumeIntegralInRange<int32_t>(-1, std::max(effects, 0)), &e);
  known(s);
  if (s == TOPOPLAN_OK) {
    require(e.var >= 0 && e.var < m, "an effect on a variable outside the task");
    const int32_t d = topoplan_task_domain_size(task, e.var);
    require(e.post >= 0 && e.post < d, "an effect's post outside its domain");
    require(e.pre == TOPOPLAN_UNDEFINED || (e.pre >= 0 && e.pre < d), "an effect's pre");
  }
  const int32_t prevails = topoplan_task_action_num_prevail(task, action);
  require((prevails >= 0) == valid_action, "action_num_prevail");
  topoplan_fact f{};
  s = topoplan_task_action_prevail(
      task, action, in.ConsumeIntegralInRange<int32_t>(-1, std::max(prevails, 0)), &f);
  known(s);
  if (s == TOPOPLAN_OK)
    require(
        f.var >= 0 && f.var < m && f.value >= 0 && f.value < topoplan_task_domain_size(task, f.var),
        "a prevail outside the task");

  introspect_classes(var);
}

// Classes and instances by id and name, NULL arguments, and the static strings.
void Session::introspect_classes(int32_t var) {
  const int32_t na = num_actions(), nc = num_classes();
  int32_t id = -2;
  const int32_t c =
      draw_named(*this, nc, topoplan_task_class_name, topoplan_task_find_class, "class");
  const int32_t class_actions = topoplan_task_class_num_actions(task, c);
  if (c >= 0 && c < nc) {
    require(class_actions >= 0 && class_actions <= na, "class_num_actions");
    int32_t last = -1;
    for (int32_t i = 0; i < class_actions && i < 64; ++i) {
      const int32_t a = topoplan_task_class_action(task, c, i);
      require(a > last && a < na, "class_action: not ascending ids of the task");
      last = a;
    }
  }
  topoplan_task_class_action(task, c, in.ConsumeIntegralInRange<int32_t>(-1, 1 << 20));

  const int32_t ni = topoplan_task_num_instances(task);
  std::string name;
  draw_named(*this, ni, topoplan_task_instance_name, topoplan_task_find_instance, "instance",
             &name);

  // NULL arguments where a pointer is asked for.
  known(topoplan_task_find_variable(task, nullptr, &id));
  known(topoplan_task_find_action(task, name.c_str(), nullptr));
  known(topoplan_task_find_value(task, var, nullptr, &id));

  // The static strings.
  const int32_t np = topoplan_num_planners();
  const int32_t p = in.ConsumeIntegralInRange<int32_t>(-1, np);
  require((topoplan_planner_name(p) != nullptr) == (p >= 0 && p < np), "planner_name");
  require((topoplan_planner_description(p) != nullptr) == (p >= 0 && p < np),
          "planner_description");
  const int32_t b = in.ConsumeIntegralInRange<int32_t>(-1, topoplan_num_builtin_tasks());
  require(
      (topoplan_builtin_task_name(b) != nullptr) == (b >= 0 && b < topoplan_num_builtin_tasks()),
      "builtin_task_name");
  const auto code = in.ConsumeIntegral<int32_t>();
  require(topoplan_status_string(static_cast<topoplan_status>(code)) != nullptr, "status_string");
  require(topoplan_agents_replan_string(code) != nullptr, "replan_string");
  require(topoplan_agents_event_string(code) != nullptr, "event_string");
  require(topoplan_c_abi_version() == TOPOPLAN_C_ABI_VERSION, "abi version");
  require(topoplan_version() != nullptr && *topoplan_version() != '\0', "version");
}

// States as text: formatted with any capacity, parsed back (or random text parsed).
void Session::state_text() {
  const int32_t m = vars();
  std::vector<int32_t> state(static_cast<size_t>(m) + 2), back(static_cast<size_t>(m) + 2);
  bool in_range = true;
  for (int32_t v = 0; v < m; ++v) {
    const auto x = static_cast<size_t>(v);
    state[x] = in.ConsumeBool() ? TOPOPLAN_UNDEFINED : value(v, true);
    in_range = in_range && (state[x] == TOPOPLAN_UNDEFINED ||
                            (state[x] >= 0 && state[x] < topoplan_task_domain_size(task, v)));
  }
  const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
  std::string buffer(in.ConsumeIntegralInRange<size_t>(0, 2048), 'x');
  size_t size = 0;
  const topoplan_status s = topoplan_task_format_state(
      task, state.data(), n, buffer.empty() ? nullptr : buffer.data(), buffer.size(), &size);
  known(s);
  if (s == TOPOPLAN_OK) {
    require(size >= 1 && size <= buffer.size() && buffer[size - 1] == '\0',
            "format_state: the size is not the text's with its NUL");
  }
  std::string text;
  if (s == TOPOPLAN_OK && in.ConsumeBool()) {
    text = buffer.c_str();
    // The CLI's form: "var=value, ..." without the brackets the formatter adds.
    if (text.rfind("\u27e8", 0) == 0 && text.size() >= 6) text = text.substr(3, text.size() - 6);
  } else {
    text = in.ConsumeRandomLengthString(64);
  }
  const int32_t nb = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
  const topoplan_status p =
      topoplan_task_parse_state(task, text.c_str(), back.data(), nb, error, sizeof error);
  known(p);
  if (p != TOPOPLAN_OK) return;
  for (int32_t v = 0; v < nb && v < m; ++v) {
    const int32_t x = back[static_cast<size_t>(v)];
    require(x == TOPOPLAN_UNDEFINED || (x >= 0 && x < topoplan_task_domain_size(task, v)),
            "parse_state: a value outside its variable's domain");
  }
}

// ℙ handles: made per class (pooled), a scratch each, plans validated, explanations.
void Session::topo() {
  const int32_t nc = num_classes();
  const int32_t c = in.ConsumeIntegralInRange<int32_t>(-2, nc);
  const bool valid_class = c == TOPOPLAN_ALL_ACTIONS || (c >= 0 && c < nc);
  Key key;
  key << int64_t{c};
  TopoPair* pair = valid_class ? pools.topos.find(key.bytes) : nullptr;
  std::unique_ptr<TopoPair, void (*)(TopoPair*)> own(nullptr, free_topo_pair);
  if (pair == nullptr) {
    if (valid_class && !may_create()) return;
    own.reset(new TopoPair);
    known(topoplan_topo_create(task, c, &own->topo, error, sizeof error));
    if (own->topo == nullptr) return;
    known(topoplan_scratch_create(
        own->topo, in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : &own->scratch));
    if (own->scratch == nullptr) return;
    pair = own.get();
    if (valid_class) pools.topos.keep(key.bytes, own.release());
  }
  std::vector<int32_t> init, goal;
  bool in_range = true;
  draw_problem(init, goal, in_range);
  const int32_t m = vars();
  const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
  const int32_t max_len = topoplan_topo_max_plan_length(pair->topo);
  require(max_len >= 0, "topo_max_plan_length");
  const int32_t capacity = in.ConsumeBool() ? max_len : in.ConsumeIntegralInRange<int32_t>(-1, 64);
  std::vector<int32_t> actions(static_cast<size_t>(std::max(capacity, 0)) + 1);
  int32_t length = -1;
  const topoplan_status s = topoplan_topo_plan(pair->topo, pair->scratch, init.data(), goal.data(),
                                               n, actions.data(), capacity, &length);
  known(s);
  if (s == TOPOPLAN_OK) {
    require(length >= 0 && length <= capacity && length <= max_len, "topo_plan: its length");
    expect_valid(init.data(), goal.data(), c, actions.data(), length,
                 "a plan of ℙ does not validate");
  }
  std::string text(in.ConsumeIntegralInRange<size_t>(0, 256), 'x');
  known(topoplan_topo_explain(pair->topo, pair->scratch, text.empty() ? nullptr : text.data(),
                              text.size()));
}

// Prepared planners by name and class (pooled): plans within small limits, validated.
void Session::planner_handle() {
  static const char* const kNames[] = {"auto", "topo", "astar", "astar-back", "exact"};
  const int which = in.ConsumeIntegralInRange<int>(0, 5);
  const std::string name = which < 5 ? kNames[which] : in.ConsumeRandomLengthString(12);
  const int32_t nc = num_classes();
  const int32_t c = in.ConsumeIntegralInRange<int32_t>(-2, nc);
  const bool valid = which < 5 && (c == TOPOPLAN_ALL_ACTIONS || (c >= 0 && c < nc));
  Key key;
  key << name << int64_t{c};
  topoplan_planner* p = valid ? pools.planners.find(key.bytes) : nullptr;
  std::unique_ptr<topoplan_planner, void (*)(topoplan_planner*)> own(nullptr,
                                                                     topoplan_planner_free);
  if (p == nullptr) {
    if (valid && !may_create()) return;
    known(topoplan_planner_create(task, name.c_str(), c, &p, error, sizeof error));
    if (p == nullptr) return;
    if (valid) {
      pools.planners.keep(key.bytes, p);
    } else {
      own.reset(p);
    }
  }
  std::vector<int32_t> init, goal;
  bool in_range = true;
  draw_problem(init, goal, in_range);
  const int32_t m = vars();
  const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
  const int32_t max_len = topoplan_planner_max_plan_length(p);
  const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 64);
  std::vector<int32_t> actions(static_cast<size_t>(std::max(capacity, 0)) + 1);
  int32_t length = -1;
  topoplan_status s;
  if (name == "topo" && in.ConsumeBool()) {  // ℙ is linear: no limits needed
    s = topoplan_planner_plan(p, init.data(), goal.data(), n, actions.data(), capacity, &length);
  } else {
    bool hostile = false, bad_seconds = false;
    int64_t expansions = field({1, 16, kExpansions}, int64_t{1} << 40, hostile);
    const int64_t memory = field({1 << 20, 1 << 24}, int64_t{1} << 50, hostile);
    const double seconds = real_field({0.0, 0.01}, bad_seconds);
    // Huge budgets are valid requests; with no time limit they are a long search the caller
    // asked for, which costs the fuzzer its throughput without reaching new code.
    if (seconds == 0.0 && expansions > kExpansions) expansions = kExpansions;
    s = topoplan_planner_plan_within(p, init.data(), goal.data(), n, expansions, memory, seconds,
                                     actions.data(), capacity, &length);
    require(!bad_seconds || s == TOPOPLAN_INVALID_ARGUMENT,
            "planner_plan_within: a time limit outside [0, 1e9] is refused");
  }
  known(s);
  if (s == TOPOPLAN_OK) {
    require(length >= 0 && length <= capacity && (max_len < 0 || length <= max_len),
            "planner_plan: its length");
    expect_valid(init.data(), goal.data(), c, actions.data(), length,
                 "a prepared planner's plan does not validate");
  }
  require(topoplan_planner_answered_by(p) != nullptr, "answered_by");
  std::string text(in.ConsumeIntegralInRange<size_t>(0, 256), 'x');
  known(topoplan_planner_explain(p, text.empty() ? nullptr : text.data(), text.size()));
}

// Class analyses (pooled per class) queried with ids in and out of range; `check` itself.
void Session::analysis() {
  const int32_t nc = num_classes(), na = num_actions(), m = vars();
  const int32_t c = in.ConsumeIntegralInRange<int32_t>(-2, nc);
  const bool valid_class = c == TOPOPLAN_ALL_ACTIONS || (c >= 0 && c < nc);
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
    topoplan_class_report report{};
    std::string why(in.ConsumeIntegralInRange<size_t>(0, 128), 'x');
    known(topoplan_check(task, c, in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : &report,
                         why.empty() ? nullptr : why.data(), why.size()));
    return;
  }
  Key key;
  key << int64_t{c};
  topoplan_analysis* a = valid_class ? pools.analyses.find(key.bytes) : nullptr;
  std::unique_ptr<topoplan_analysis, void (*)(topoplan_analysis*)> own(nullptr,
                                                                       topoplan_analysis_free);
  if (a == nullptr) {
    if (valid_class && !may_create()) return;
    known(topoplan_analysis_create(task, c, &a));
    if (a == nullptr) return;
    if (valid_class) {
      pools.analyses.keep(key.bytes, a);
    } else {
      own.reset(a);
    }
  }
  topoplan_class_report report{};
  known(topoplan_analysis_report(a, &report));
  require(topoplan_analysis_why_not(a) != nullptr, "why_not");
  const int32_t lines = topoplan_analysis_num_lines(a);
  require(lines >= 0, "num_lines");
  const int32_t line = in.ConsumeIntegralInRange<int32_t>(-1, lines);
  require((topoplan_analysis_line(a, line) != nullptr) == (line < lines && line >= 0), "line");
  const int32_t action = in.ConsumeIntegralInRange<int32_t>(-1, na);
  require((topoplan_analysis_action_flags(a, action) >= 0) == (action >= 0 && action < na),
          "action_flags");
  const int32_t* pairs = nullptr;
  const int32_t kind = in.ConsumeIntegralInRange<int32_t>(-1, 2);
  const int32_t edges = topoplan_analysis_edges(a, kind, &pairs);
  for (int32_t i = 0; i < 2 * edges && i < 256; ++i)
    require(pairs[i] >= 0 && pairs[i] < na, "an edge between actions outside the task");
  const int32_t var = in.ConsumeIntegralInRange<int32_t>(-1, m);
  topoplan_variable_graph g{};
  const topoplan_status s = topoplan_analysis_variable(a, var, &g);
  known(s);
  if (s == TOPOPLAN_OK) {
    for (int32_t i = 0; i < g.num_actions; ++i)
      require(g.actions[i] >= 0 && g.actions[i] < na, "G(v) holds an action outside the task");
    topoplan_cycle cycle{};
    const int32_t index = in.ConsumeIntegralInRange<int32_t>(-1, g.num_cycles);
    const topoplan_status cs = topoplan_analysis_cycle(a, var, index, &cycle);
    known(cs);
    require((cs == TOPOPLAN_OK) == (index >= 0 && index < g.num_cycles), "cycle index");
    for (int32_t i = 0; i < cycle.num_actions && cs == TOPOPLAN_OK; ++i)
      require(cycle.actions[i] >= 0 && cycle.actions[i] < na, "a cycle's action");
  } else {
    known(topoplan_analysis_cycle(a, var, 0, nullptr));
  }
}

// The task written back (any format and capacity), a plan cache's counters, a task file that
// is not one.
void Session::misc() {
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {  // the whole task as text: milliseconds
    std::string buffer(in.ConsumeIntegralInRange<size_t>(0, 4096), 'x');
    size_t size = 0;
    const topoplan_status s =
        topoplan_task_write(task, in.ConsumeIntegralInRange<int32_t>(-1, 3),
                            buffer.empty() ? nullptr : buffer.data(), buffer.size(), &size);
    known(s);
    if (s == TOPOPLAN_OK)
      require(size >= 1 && size <= buffer.size() && buffer[size - 1] == '\0', "task_write: size");
  }
  if (cache != nullptr) {
    topoplan_plan_cache_stats stats{};
    known(topoplan_plan_cache_stats_get(cache, in.ConsumeBool() ? &stats : nullptr));
  }
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
    // Paths that are no task: missing, a directory, empty, random (never a real file here).
    static const char* const kPaths[] = {"", "/", "/nonexistent/task.toml", "fuzz.sas"};
    const int which = in.ConsumeIntegralInRange<int>(0, 4);
    const std::string path = which < 4 ? std::string("/nonexistent/") + kPaths[which]
                                       : "/nonexistent/" + in.ConsumeRandomLengthString(12);
    topoplan_task* t = nullptr;
    known(topoplan_task_load(which == 1 ? "/" : path.c_str(),
                             in.ConsumeIntegralInRange<int32_t>(-1, 3), &t, error, sizeof error));
    topoplan_task_free(t);
  }
}

}  // namespace fuzz_capi
