// The bindings of the agent runtime (topoplan/agents/agents.h): AgentWorld over NumPy arrays,
// and the validator's small calls for engines that execute plans themselves (bindings.h).
//
// update() writes the C++ events straight into a NumPy structured array (EVENT_DTYPE has the
// layout of agents::Event), so a frame costs no Python object per event. Every argument is
// checked here, before the C++ call (the runtime only asserts), and a bad one raises IndexError,
// ValueError or TypeError naming it.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <optional>
#include <type_traits>

#include "agents_world.h"
#include "bindings.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/validate.h"

namespace topoplan_py {

static_assert(sizeof(Event) == 16 && offsetof(Event, agent) == 0 && offsetof(Event, kind) == 4 &&
              offsetof(Event, detail) == 5 && offsetof(Event, step) == 6 &&
              offsetof(Event, action) == 8 && offsetof(Event, goal) == 12 &&
              std::is_trivially_copyable_v<Event>);

// The NumPy dtype of agents::Event.
py::dtype event_dtype() {
  static const py::dtype* dt = [] {
    py::list fields;
    fields.append(py::make_tuple("agent", "<i4"));
    fields.append(py::make_tuple("kind", "u1"));
    fields.append(py::make_tuple("detail", "u1"));
    fields.append(py::make_tuple("step", "<u2"));
    fields.append(py::make_tuple("action", "<i4"));
    fields.append(py::make_tuple("goal", "<i4"));
    return new py::dtype(py::module_::import("numpy").attr("dtype")(fields));
  }();
  return *dt;
}

void check_agent(PyAgentWorld& p, int64_t agent, const char* what) {
  if (agent < 0 || agent >= p.world->num_agents())
    throw py::index_error(std::string(what) + " " + std::to_string(agent) + " out of range (" +
                          std::to_string(p.world->num_agents()) + " agents)");
}

// An integer argument (a Python or NumPy integer, never a bool) as int64: TypeError for another
// type, IndexError past int64 (pybind11's cast raised RuntimeError "Unable to cast" for both).
int64_t index_arg(const py::handle& h, const std::string& what) {
  if (py::isinstance<py::bool_>(h)) throw py::type_error(what + ": expected a name or an index");
  PyObject* i = PyNumber_Index(h.ptr());
  if (i == nullptr) {
    PyErr_Clear();
    throw py::type_error(what + ": expected a name or an index");
  }
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
  Py_DECREF(i);
  if (overflow != 0) throw py::index_error(what + " out of range");
  return v;
}

VarId var_arg(const Domain& d, const py::handle& h) {
  return name_or_index_arg(h, "var", "variable", d.num_variables(),
                           [&](VarId v) { return d.variable_name(v); });
}

ValueId value_arg(const Domain& d, VarId v, const py::handle& h, bool partial) {
  if (py::isinstance<py::str>(h)) {
    const auto name = h.cast<std::string>();
    for (ValueId x = 0; x < d.domain_size(v); ++x)
      if (d.value_name(v, x) == name) return x;
    throw py::key_error("no value '" + name + "' of variable '" + d.variable_name(v) + "'");
  }
  if (!py::isinstance<py::int_>(h) &&
      !py::isinstance(h, py::module_::import("numpy").attr("integer")))
    throw py::type_error("value of '" + d.variable_name(v) + "': expected a name or an index");
  const int64_t x = index_arg(h, "value");
  if ((x < 0 || x >= d.domain_size(v)) && !(partial && x == kUndefined))
    throw py::value_error("value " + std::to_string(x) + " of '" + d.variable_name(v) +
                          "' out of range [0, " + std::to_string(d.domain_size(v)) + ")");
  return static_cast<ValueId>(x);
}

// A state (total) or a goal (partial: -1 or absent = free): a dict {variable: value} by names or
// indices, or a sequence / array of one value per variable.
std::vector<ValueId> values_arg(const Domain& d, const py::handle& h, const char* what,
                                bool partial) {
  const auto m = static_cast<size_t>(d.num_variables());
  std::vector<ValueId> out(m, kUndefined);
  if (py::isinstance<py::dict>(h)) {
    for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(h)) {
      const VarId var = var_arg(d, k);
      out[static_cast<size_t>(var)] = value_arg(d, var, v, partial);
    }
    if (!partial)
      for (size_t v = 0; v < m; ++v)
        if (out[v] == kUndefined)
          throw py::value_error(std::string(what) + ": no value for '" +
                                d.variable_name(static_cast<VarId>(v)) + "'");
    return out;
  }
  if (py::isinstance<py::str>(h) ||
      (!py::isinstance<py::sequence>(h) && !py::isinstance<py::array>(h)))
    throw py::type_error(std::string(what) + ": expected a dict or a sequence of values");
  const auto seq = py::reinterpret_borrow<py::sequence>(h);
  if (seq.size() != m)
    throw py::value_error(std::string(what) + ": expected " + std::to_string(m) +
                          " values (one per variable), got " + std::to_string(seq.size()));
  for (size_t v = 0; v < m; ++v) out[v] = value_arg(d, static_cast<VarId>(v), seq[v], partial);
  return out;
}

ActionId action_arg(const Domain& d, const py::handle& h) {
  return name_or_index_arg(h, "action", "action", d.num_actions(),
                           [&](ActionId a) { return d.action_name(a); });
}

// An NPC class by name or id; a domain without classes has one, 0.
int32_t class_arg(const Domain& d, const py::object& h) {
  if (h.is_none()) return 0;
  if (py::isinstance<py::int_>(h)) {
    const int64_t c = index_arg(h, "npc_class");
    const int32_t count = std::max(1, d.num_classes());
    if (c < 0 || c >= count)
      throw py::index_error("npc_class " + std::to_string(c) + " out of range (" +
                            std::to_string(count) + " classes)");
    return static_cast<int32_t>(c);
  }
  return class_of(d, h);
}

// Agents as an int32 array (or one int), each in range.
CArray<int32_t> agents_arg(PyAgentWorld& p, const py::handle& h) {
  if (py::isinstance<py::int_>(h)) {
    CArray<int32_t> one(1);
    const int64_t agent = index_arg(h, "agent");
    check_agent(p, agent);
    one.mutable_data()[0] = static_cast<int32_t>(agent);
    return one;
  }
  auto a = exact<int32_t>(h, "agents");
  if (a.ndim() != 1) throw py::value_error("agents: expected a 1-d int32 array");
  const int32_t* x = a.data();
  for (py::ssize_t k = 0; k < a.size(); ++k) check_agent(p, x[k]);
  return a;
}

namespace {

py::dict stats_dict(const agents::UpdateStats& s) {
  using S = agents::UpdateStats;
  py::dict d = dict_of(s, "frame", &S::frame, "events", &S::events, "events_dropped",
                       &S::events_dropped, "examined", &S::examined, "planned", &S::planned,
                       "waiting", &S::waiting, "plan_ns", &S::plan_ns);
  py::dict r;
  for (int32_t k = 1; k < agents::kNumReplanReasons; ++k)
    r[py::str(std::string(to_string(static_cast<agents::ReplanReason>(k))))] =
        s.replans[static_cast<size_t>(k)];
  d["replans"] = r;
  return d;
}

py::list names(int32_t count, std::string_view (*name)(int32_t)) {
  py::list l;
  for (int32_t k = 0; k < count; ++k) l.append(py::str(std::string(name(k))));
  return l;
}

// The event dtype and the names and numbers of event kinds and reasons.
void bind_agent_constants(py::module_& m) {
  m.attr("EVENT_DTYPE") = event_dtype();
  m.attr("EVENT_KINDS") =
      names(6, [](int32_t k) { return to_string(static_cast<agents::EventKind>(k)); });
  m.attr("REPLAN_REASONS") = names(agents::kNumReplanReasons, [](int32_t k) {
    return to_string(static_cast<agents::ReplanReason>(k));
  });
  // A no-plan event's detail: the planner's PlanStatus (its detail bits in `step`).
  m.attr("PLAN_STATUSES") =
      names(6, [](int32_t k) { return to_string(static_cast<PlanStatus>(k)); });
  m.attr("EVENT_START") = static_cast<int>(agents::EventKind::kStartAction);
  m.attr("EVENT_ABORT") = static_cast<int>(agents::EventKind::kAbortAction);
  m.attr("EVENT_GOAL_CHANGED") = static_cast<int>(agents::EventKind::kGoalChanged);
  m.attr("EVENT_PLANNED") = static_cast<int>(agents::EventKind::kPlanned);
  m.attr("EVENT_GOAL_REACHED") = static_cast<int>(agents::EventKind::kGoalReached);
  m.attr("EVENT_NO_PLAN") = static_cast<int>(agents::EventKind::kNoPlan);
}

// The validator's small calls, for engines that run plans themselves (validate.h).
void bind_engine_calls(py::module_& m) {
  m.def(
      "failed_condition",
      [](const Task& t, const py::object& state, const py::object& action) {
        const std::vector<ValueId> s = values_arg(t.domain, state, "state", false);
        return describe(t.domain, failed_condition(t.domain, action_arg(t.domain, action), s));
      },
      py::arg("task"), py::arg("state"), py::arg("action"));
  m.def(
      "action_applies",
      [](const Task& t, const py::object& state, const py::object& action) {
        const std::vector<ValueId> s = values_arg(t.domain, state, "state", false);
        return failed_condition(t.domain, action_arg(t.domain, action), s).holds();
      },
      py::arg("task"), py::arg("state"), py::arg("action"));
  m.def(
      "apply_action",
      [](const Task& t, const py::object& state, const py::object& action) {
        std::vector<ValueId> s = values_arg(t.domain, state, "state", false);
        apply_action(t.domain, action_arg(t.domain, action), s);
        CArray<int32_t> out(static_cast<py::ssize_t>(s.size()));
        std::copy(s.begin(), s.end(), out.mutable_data());
        return out;
      },
      py::arg("task"), py::arg("state"), py::arg("action"));
  m.def(
      "goal_holds",
      [](const Task& t, const py::object& state, const py::object& goal) {
        return satisfies(values_arg(t.domain, state, "state", false),
                         values_arg(t.domain, goal, "goal", true));
      },
      py::arg("task"), py::arg("state"), py::arg("goal"));
}

// The constructor and the world's properties.
void bind_agent_world(AgentWorldClass& cls) {
  cls.def(py::init([](TaskPtr t, int32_t capacity, int32_t decision_period, int64_t max_plan_age,
                      int32_t max_plans_per_frame, int32_t max_plan_length, int32_t threads,
                      bool use_cache, int64_t event_capacity, int32_t min_agents_per_part) {
            if (!t) throw py::type_error("task: expected a Task");
            if (auto e = check_limit(limits::kAgentsThreads, int64_t{threads}, "AgentWorld"))
              throw py::value_error(e->message);
            if (event_capacity < 0 || event_capacity > (int64_t{1} << 30))
              throw py::value_error("event_capacity: in [0, 2^30] (0: 4 per agent)");
            auto p = std::make_shared<PyAgentWorld>();
            p->task = std::move(t);
            p->planner =
                std::make_unique<CrowdPlanner>(unwrap(CrowdPlanner::create(p->task->domain)));
            AgentWorldDef def;
            def.capacity = capacity;
            def.decision_period = decision_period;
            def.max_plan_age = max_plan_age;
            def.max_plans_per_frame = max_plans_per_frame;
            def.max_plan_length = max_plan_length;
            def.use_cache = use_cache;
            def.min_agents_per_part = min_agents_per_part;
            if (threads > 1) {
              p->pool = std::make_unique<CrowdThreadPool>(threads);
              p->pool->install(def.crowd);
            }
            p->world.emplace(unwrap(AgentWorld::create(*p->planner, def)));
            p->events.resize(static_cast<size_t>(event_capacity > 0 ? event_capacity
                                                                    : 4 * int64_t{capacity} + 64));
            return p;
          }),
          py::arg("task"), py::arg("capacity") = 1024, py::arg("decision_period") = 30,
          py::arg("max_plan_age") = 0, py::arg("max_plans_per_frame") = 1 << 16,
          py::arg("max_plan_length") = 32, py::arg("threads") = 1, py::arg("use_cache") = true,
          py::arg("event_capacity") = 0, py::arg("min_agents_per_part") = 16384)
      .def_property_readonly("task", [](const PyAgentWorld& p) { return p.task; })
      .def_property_readonly("num_agents",
                             [](const PyAgentWorld& p) { return p.world->num_agents(); })
      .def_property_readonly("frame", [](const PyAgentWorld& p) { return p.world->frame(); })
      .def_property_readonly("words",
                             [](const PyAgentWorld& p) { return p.planner->layout().words(); })
      .def_property_readonly("last_stats",
                             [](const PyAgentWorld& p) { return stats_dict(p.last); });
}

// Goals and goal lists.
void bind_agent_goals(AgentWorldClass& cls) {
  cls.def(
         "add_goal",
         [](PyAgentWorld& p, const std::string& name, const py::object& goal) {
           return unwrap(p.w().add_goal(name, values_arg(p.domain(), goal, "goal", true)));
         },
         py::arg("name"), py::arg("goal"))
      .def(
          "add_goal_list",
          [](PyAgentWorld& p, const std::vector<int32_t>& goals) {
            return unwrap(p.w().add_goal_list(goals));
          },
          py::arg("goals"))
      .def(
          "set_class_goals",
          [](PyAgentWorld& p, const py::object& npc_class, int32_t goal_list) {
            if (auto e = p.w().set_class_goals(class_arg(p.domain(), npc_class), goal_list))
              throw InputError(e->to_string());
          },
          py::arg("npc_class"), py::arg("goal_list"))
      .def_property_readonly("num_goals",
                             [](const PyAgentWorld& p) { return p.world->num_goals(); })
      .def(
          "goal_name",
          [](PyAgentWorld& p, int32_t g) {
            if (g < 0 || g >= p.world->num_goals())
              throw py::index_error("goal " + std::to_string(g) + " out of range");
            return p.world->goal_name(g);
          },
          py::arg("goal"));
}

// Adding agents, their goal lists and decision periods.
void bind_agent_population(AgentWorldClass& cls) {
  cls.def(
         "add_agent",
         [](PyAgentWorld& p, const py::object& npc_class, const py::object& state) {
           return unwrap(p.w().add_agent(class_arg(p.domain(), npc_class),
                                         values_arg(p.domain(), state, "state", false)));
         },
         py::arg("npc_class"), py::arg("state"))
      .def(
          "add_agents",
          [](PyAgentWorld& p, const py::object& npc_class, const py::handle& states) {
            AgentWorld& w = p.w();
            auto s = exact<int32_t>(states, "states");
            const auto nv = static_cast<py::ssize_t>(p.domain().num_variables());
            if (s.ndim() != 2 || s.shape(1) != nv)
              throw py::value_error("states: expected an int32 array of shape (N, " +
                                    std::to_string(nv) + ")");
            const py::ssize_t n = s.shape(0);
            std::optional<CArray<int32_t>> classes;
            int32_t one_class = 0;
            if (py::isinstance<py::array>(npc_class)) {
              classes = exact<int32_t>(npc_class, "npc_class");
              if (classes->ndim() != 1 || classes->size() != n)
                throw py::value_error("npc_class: expected an int32 array of N entries");
            } else {
              one_class = class_arg(p.domain(), npc_class);
            }
            CArray<int32_t> ids(n);
            for (py::ssize_t i = 0; i < n; ++i) {
              const std::span<const ValueId> row(s.data() + i * nv, static_cast<size_t>(nv));
              const int32_t c = classes ? classes->data()[i] : one_class;
              Result<agents::AgentId> r = w.add_agent(c, row);
              if (!r)
                throw InputError("states row " + std::to_string(i) + ": " + r.error().to_string());
              ids.mutable_data()[i] = r.value();
            }
            return ids;
          },
          py::arg("npc_class"), py::arg("states"))
      .def(
          "set_goal_list",
          [](PyAgentWorld& p, int64_t agent, int32_t goal_list) {
            check_agent(p, agent);
            if (!p.w().has_goal_list(goal_list))
              throw py::index_error("goal_list " + std::to_string(goal_list) + " out of range");
            p.w().set_goal_list(static_cast<int32_t>(agent), goal_list);
          },
          py::arg("agent"), py::arg("goal_list"))
      .def(
          "set_decision_period",
          [](PyAgentWorld& p, int64_t agent, int32_t period) {
            check_agent(p, agent);
            if (period < 1 || period > (1 << 20))
              throw py::value_error("period: in [1, 2^20] frames");
            p.w().set_decision_period(static_cast<int32_t>(agent), period);
          },
          py::arg("agent"), py::arg("period"));
}

// Actions that run to their end: a better goal waits for their end instead of aborting them.
void bind_agent_actions(AgentWorldClass& cls) {
  cls.def(
         "set_action_runs_to_end",
         [](PyAgentWorld& p, const py::object& action, const py::object& runs_to_end) {
           const ActionId a = action_arg(p.domain(), action);
           // A bool only, as the C API takes 0 or 1 only: pybind11's bool would take 2 as True.
           if (!py::isinstance<py::bool_>(runs_to_end) &&
               !py::isinstance(runs_to_end, py::module_::import("numpy").attr("bool_")))
             throw py::type_error("runs_to_end: expected a bool");
           if (auto e = p.w().set_action_runs_to_end(a, runs_to_end.cast<bool>()))
             throw InputError(e->to_string());
         },
         py::arg("action"), py::arg("runs_to_end"))
      .def(
          "action_runs_to_end",
          [](PyAgentWorld& p, const py::object& action) {
            return p.w().action_runs_to_end(action_arg(p.domain(), action));
          },
          py::arg("action"));
}

}  // namespace

void bind_agents(py::module_& m) {
  bind_agent_constants(m);
  bind_engine_calls(m);
  AgentWorldClass cls(m, "AgentWorld");
  bind_agent_world(cls);
  bind_agent_goals(cls);
  bind_agent_drives(cls);
  bind_agent_population(cls);
  bind_agent_actions(cls);
  bind_agent_senses(cls);
  bind_agent_frame(cls);
  bind_agent_readers(cls);
  bind_agent_describe(cls);
}

}  // namespace topoplan_py
