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

#include "bindings.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/validate.h"

namespace topoplan_py {
namespace {

using agents::AgentWorld;
using agents::AgentWorldDef;
using agents::Event;

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

struct PyAgentWorld {
  TaskPtr task;
  std::unique_ptr<CrowdPlanner> planner;
  std::unique_ptr<CrowdThreadPool> pool;  // outlives the world (declared before it)
  std::optional<AgentWorld> world;
  std::vector<Event> events;  // update()'s array when the caller gives none
  agents::UpdateStats last;
  bool busy = false;  // update() runs with the GIL released

  AgentWorld& w() {
    if (busy)
      throw std::runtime_error(
          "this AgentWorld is running update() in another thread: call it from one thread");
    return *world;
  }
  const Domain& domain() const { return task->domain; }
};

void check_agent(PyAgentWorld& p, int64_t agent, const char* what = "agent") {
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
  if (py::isinstance<py::str>(h)) {
    const auto name = h.cast<std::string>();
    for (VarId v = 0; v < d.num_variables(); ++v)
      if (d.variable_name(v) == name) return v;
    throw py::key_error("no variable '" + name + "'");
  }
  const int64_t v = index_arg(h, "var");
  if (v < 0 || v >= d.num_variables())
    throw py::index_error("var " + std::to_string(v) + " out of range (" +
                          std::to_string(d.num_variables()) + " variables)");
  return static_cast<VarId>(v);
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
  if (py::isinstance<py::str>(h)) {
    const auto name = h.cast<std::string>();
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (d.action_name(a) == name) return a;
    throw py::key_error("no action '" + name + "'");
  }
  const int64_t a = index_arg(h, "action");
  if (a < 0 || a >= d.num_actions())
    throw py::index_error("action " + std::to_string(a) + " out of range (" +
                          std::to_string(d.num_actions()) + " actions)");
  return static_cast<ActionId>(a);
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

using AgentWorldClass = py::class_<PyAgentWorld, std::shared_ptr<PyAgentWorld>>;

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

// Drives and drive lists (agents.h): NumPy in (set_drives) and out (drives).
agents::DriveId drive_arg(PyAgentWorld& p, const py::handle& h) {
  const AgentWorld& w = *p.world;
  if (py::isinstance<py::str>(h)) {
    const auto name = h.cast<std::string>();
    for (agents::DriveId d = 0; d < w.num_drives(); ++d)
      if (w.drive_def(d).name == name) return d;
    throw py::key_error("no drive '" + name + "'");
  }
  const int64_t d = index_arg(h, "drive");
  if (d < 0 || d >= w.num_drives())
    throw py::index_error("drive " + std::to_string(d) + " out of range (" +
                          std::to_string(w.num_drives()) + " drives)");
  return static_cast<agents::DriveId>(d);
}

double finite_arg(const py::handle& h, const std::string& what) {
  if (py::isinstance<py::bool_>(h) ||
      !(py::isinstance<py::float_>(h) || py::isinstance<py::int_>(h) ||
        py::isinstance(h, py::module_::import("numpy").attr("number"))))
    throw py::type_error(what + ": expected a number");
  const double x = h.cast<double>();
  if (!std::isfinite(x)) throw py::value_error(what + ": must be finite");
  return x;
}

// One drive-list entry: a dict with "goal" and "drive", and optionally "curve" (a udgoap curve
// name), "slope", "exponent", "x_shift", "y_shift" and "weight".
agents::DriveGoal drive_goal_arg(PyAgentWorld& p, const py::handle& h, size_t k) {
  const std::string where = "entries[" + std::to_string(k) + "]";
  if (!py::isinstance<py::dict>(h))
    throw py::type_error(where + ": expected a dict with 'goal' and 'drive'");
  const auto d = py::reinterpret_borrow<py::dict>(h);
  agents::DriveGoal e;
  bool has_goal = false, has_drive = false;
  for (const auto& [key, value] : d) {
    if (!py::isinstance<py::str>(key)) throw py::type_error(where + ": keys are strings");
    const auto name = key.cast<std::string>();
    if (name == "goal") {
      e.goal = static_cast<agents::GoalId>(index_arg(value, where + ".goal"));
      has_goal = true;
    } else if (name == "drive") {
      e.drive = drive_arg(p, value);
      has_drive = true;
    } else if (name == "curve") {
      if (!py::isinstance<py::str>(value)) throw py::type_error(where + ".curve: expected a name");
      const auto type = udgoap::parse_curve_type(value.cast<std::string>());
      if (!type)
        throw py::value_error(where + ".curve: no curve '" + value.cast<std::string>() + "'");
      e.curve.type = *type;
    } else if (name == "slope") {
      e.curve.slope = finite_arg(value, where + ".slope");
    } else if (name == "exponent") {
      e.curve.exponent = finite_arg(value, where + ".exponent");
    } else if (name == "x_shift") {
      e.curve.x_shift = finite_arg(value, where + ".x_shift");
    } else if (name == "y_shift") {
      e.curve.y_shift = finite_arg(value, where + ".y_shift");
    } else if (name == "weight") {
      e.weight = finite_arg(value, where + ".weight");
    } else {
      throw py::value_error(where + ": unknown key '" + name + "'");
    }
  }
  if (!has_goal || !has_drive) throw py::value_error(where + ": needs 'goal' and 'drive'");
  return e;
}

void bind_agent_drives(AgentWorldClass& cls) {
  cls.def(
         "add_drive",
         [](PyAgentWorld& p, const std::string& name, const py::object& min, const py::object& max,
            const py::object& rate, const py::object& initial) {
           return unwrap(p.w().add_drive(
               agents::DriveDef{name, finite_arg(min, "min"), finite_arg(max, "max"),
                                finite_arg(rate, "rate"), finite_arg(initial, "initial")}));
         },
         py::arg("name"), py::arg("min") = 0.0, py::arg("max") = 100.0, py::arg("rate") = 0.0,
         py::arg("initial") = 0.0)
      .def(
          "add_drive_list",
          [](PyAgentWorld& p, const py::sequence& entries, const py::object& margin) {
            std::vector<agents::DriveGoal> list;
            for (size_t k = 0; k < entries.size(); ++k)
              list.push_back(drive_goal_arg(p, entries[k], k));
            return unwrap(p.w().add_drive_list(list, finite_arg(margin, "margin")));
          },
          py::arg("entries"), py::arg("margin") = 0.0)
      .def(
          "set_action_drive",
          [](PyAgentWorld& p, const py::object& action, const py::object& drive,
             const py::object& delta) {
            const ActionId a = action_arg(p.domain(), action);
            const agents::DriveId d = drive_arg(p, drive);
            if (auto e = p.w().set_action_drive_effect(a, d, finite_arg(delta, "delta")))
              throw InputError(e->to_string());
          },
          py::arg("action"), py::arg("drive"), py::arg("delta"))
      .def_property_readonly("num_drives",
                             [](const PyAgentWorld& p) { return p.world->num_drives(); })
      .def(
          "set_drives",
          [](PyAgentWorld& p, const py::handle& agents, const py::object& drive,
             const py::handle& values) {
            const agents::DriveId d = drive_arg(p, drive);
            auto a = agents_arg(p, agents);
            auto x = exact<double>(values, "values");
            if (x.ndim() != 1 || x.size() != a.size())
              throw py::value_error("values: expected a float64 array of len(agents) entries");
            for (py::ssize_t k = 0; k < x.size(); ++k)
              if (!std::isfinite(x.data()[k]))
                throw py::value_error("values[" + std::to_string(k) + "]: must be finite");
            AgentWorld& w = p.w();
            for (py::ssize_t k = 0; k < x.size(); ++k) w.set_drive(a.data()[k], d, x.data()[k]);
          },
          py::arg("agents"), py::arg("drive"), py::arg("values"))
      .def(
          "drives",
          [](PyAgentWorld& p, const py::object& agents) {
            AgentWorld& w = p.w();
            const auto count = static_cast<py::ssize_t>(w.num_drives());
            std::optional<CArray<int32_t>> a;
            if (!agents.is_none()) a = agents_arg(p, agents);
            const py::ssize_t n = a ? a->size() : w.num_agents();
            py::array_t<double, py::array::c_style> out(std::vector<py::ssize_t>{n, count});
            double* o = out.mutable_data();
            for (py::ssize_t k = 0; k < n; ++k) {
              const int32_t agent = a ? a->data()[k] : static_cast<int32_t>(k);
              for (py::ssize_t d = 0; d < count; ++d)
                o[k * count + d] = w.drive(agent, static_cast<agents::DriveId>(d));
            }
            return out;
          },
          py::arg("agents") = py::none())
      .def(
          "goal_score",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return p.w().goal_score(static_cast<int32_t>(agent));
          },
          py::arg("agent"));
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

// What the engine writes between updates: senses and reports.
void bind_agent_senses(AgentWorldClass& cls) {
  cls.def(
         "set_fact",
         [](PyAgentWorld& p, int64_t agent, const py::object& var, const py::object& value) {
           check_agent(p, agent);
           const VarId v = var_arg(p.domain(), var);
           p.w().set_fact(static_cast<int32_t>(agent), v, value_arg(p.domain(), v, value, false));
         },
         py::arg("agent"), py::arg("var"), py::arg("value"))
      .def(
          "set_facts",
          [](PyAgentWorld& p, const py::handle& agents, const py::object& var,
             const py::handle& values) {
            const VarId v = var_arg(p.domain(), var);
            auto a = agents_arg(p, agents);
            auto x = exact<int32_t>(values, "values");
            if (x.ndim() != 1 || x.size() != a.size())
              throw py::value_error("values: expected an int32 array of len(agents) entries");
            const int32_t size = p.domain().domain_size(v);
            for (py::ssize_t k = 0; k < x.size(); ++k)
              if (x.data()[k] < 0 || x.data()[k] >= size)
                throw py::value_error("values[" + std::to_string(k) +
                                      "]: " + std::to_string(x.data()[k]) + " of '" +
                                      p.domain().variable_name(v) + "' out of range [0, " +
                                      std::to_string(size) + ")");
            AgentWorld& w = p.w();
            for (py::ssize_t k = 0; k < x.size(); ++k) w.set_fact(a.data()[k], v, x.data()[k]);
          },
          py::arg("agents"), py::arg("var"), py::arg("values"))
      .def(
          "set_state",
          [](PyAgentWorld& p, int64_t agent, const py::object& state) {
            check_agent(p, agent);
            p.w().set_state(static_cast<int32_t>(agent),
                            values_arg(p.domain(), state, "state", false));
          },
          py::arg("agent"), py::arg("state"))
      .def(
          "set_packed_states",
          [](PyAgentWorld& p, const py::handle& agents, const py::handle& packed) {
            auto a = agents_arg(p, agents);
            auto s = exact<uint64_t>(packed, "packed");
            const auto words = static_cast<py::ssize_t>(p.planner->layout().words());
            if (s.size() != a.size() * words)
              throw py::value_error("packed: expected len(agents) * words = " +
                                    std::to_string(a.size() * words) + " words");
            // Every packed field must hold a value of its variable (as pack_states writes).
            const Domain& d = p.domain();
            const CrowdLayout& layout = p.planner->layout();
            for (py::ssize_t k = 0; k < a.size(); ++k) {
              const uint64_t* row = s.data() + k * words;
              for (VarId v = 0; v < d.num_variables(); ++v) {
                const CrowdLayout::Field& fl = layout.field(v);
                const auto x = static_cast<int64_t>((row[fl.word] >> fl.shift) & fl.mask);
                if (x >= d.domain_size(v))
                  throw py::value_error("packed row " + std::to_string(k) + ": value " +
                                        std::to_string(x) + " of '" + d.variable_name(v) +
                                        "' out of range");
              }
            }
            AgentWorld& w = p.w();
            for (py::ssize_t k = 0; k < a.size(); ++k)
              w.set_packed_state(a.data()[k], s.data() + k * words);
          },
          py::arg("agents"), py::arg("packed"))
      .def(
          "action_finished",
          [](PyAgentWorld& p, const py::handle& agents) {
            auto a = agents_arg(p, agents);
            AgentWorld& w = p.w();
            for (py::ssize_t k = 0; k < a.size(); ++k) w.action_finished(a.data()[k]);
          },
          py::arg("agents"))
      .def(
          "action_failed",
          [](PyAgentWorld& p, const py::handle& agents) {
            auto a = agents_arg(p, agents);
            AgentWorld& w = p.w();
            for (py::ssize_t k = 0; k < a.size(); ++k) w.action_failed(a.data()[k]);
          },
          py::arg("agents"))
      .def("bump_world_version", [](PyAgentWorld& p) { p.w().bump_world_version(); });
}

// The frame: update() into an EVENT_DTYPE array.
void bind_agent_frame(AgentWorldClass& cls) {
  cls.def(
      "update",
      [](PyAgentWorld& p, double dt, const py::object& out) {
        if (!(dt >= 0) || dt > 1e9) throw py::value_error("dt: seconds >= 0");
        AgentWorld& w = p.w();
        std::span<Event> target(p.events);
        py::array given;
        if (!out.is_none()) {
          if (!py::isinstance<py::array>(out))
            throw py::type_error("out: expected a numpy array of dtype EVENT_DTYPE");
          given = py::reinterpret_borrow<py::array>(out);
          if (!given.dtype().equal(event_dtype()) || given.ndim() != 1 ||
              !(given.flags() & py::array::c_style) || !given.writeable())
            throw py::type_error(
                "out: expected a writeable 1-d C-contiguous array of dtype EVENT_DTYPE "
                "(numpy.zeros(n, dtype=topoplan.EVENT_DTYPE))");
          target = {static_cast<Event*>(given.mutable_data()), static_cast<size_t>(given.size())};
        }
        p.busy = true;
        {
          py::gil_scoped_release release;
          p.last = w.update(dt, target);
        }
        p.busy = false;
        const auto count = static_cast<py::ssize_t>(p.last.events);
        if (!out.is_none()) return py::array(given.attr("__getitem__")(py::slice(0, count, 1)));
        py::array result(event_dtype(), std::vector<py::ssize_t>{count});
        if (count > 0)
          std::memcpy(result.mutable_data(), p.events.data(),
                      sizeof(Event) * static_cast<size_t>(count));
        return result;
      },
      py::arg("dt"), py::arg("out") = py::none());
}

// Reading an agent.
void bind_agent_readers(AgentWorldClass& cls) {
  cls.def(
         "fact",
         [](PyAgentWorld& p, int64_t agent, const py::object& var) {
           check_agent(p, agent);
           return p.w().fact(static_cast<int32_t>(agent), var_arg(p.domain(), var));
         },
         py::arg("agent"), py::arg("var"))
      .def(
          "state",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            CArray<int32_t> out(p.domain().num_variables());
            p.w().state(static_cast<int32_t>(agent),
                        {out.mutable_data(), static_cast<size_t>(out.size())});
            return out;
          },
          py::arg("agent"))
      .def(
          "npc_class",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return p.w().npc_class(static_cast<int32_t>(agent));
          },
          py::arg("agent"))
      .def(
          "goal",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return p.w().goal(static_cast<int32_t>(agent));
          },
          py::arg("agent"))
      .def(
          "plan",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            AgentWorld& w = p.w();
            CArray<int32_t> out(w.plan_length(static_cast<int32_t>(agent)));
            (void)w.plan(static_cast<int32_t>(agent),
                         {out.mutable_data(), static_cast<size_t>(out.size())});
            return out;
          },
          py::arg("agent"))
      .def(
          "step",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return p.w().step(static_cast<int32_t>(agent));
          },
          py::arg("agent"))
      .def(
          "running_action",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return p.w().running_action(static_cast<int32_t>(agent));
          },
          py::arg("agent"))
      .def(
          "progress",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return p.w().progress(static_cast<int32_t>(agent));
          },
          py::arg("agent"))
      .def(
          "last_replan",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return std::string(to_string(p.w().last_replan(static_cast<int32_t>(agent))));
          },
          py::arg("agent"));
}

// The events of an EVENT_DTYPE array, each checked against the world (agent, kind, action,
// goal and detail in range): the rows of a numpy array the caller may have written. Returns the
// array as C-contiguous (a copy if need be), which the caller keeps while it reads the events.
py::array checked_events(PyAgentWorld& p, const py::handle& events) {
  if (!py::isinstance<py::array>(events) ||
      !py::reinterpret_borrow<py::array>(events).dtype().equal(event_dtype()))
    throw py::type_error("events: expected an array of dtype EVENT_DTYPE");
  auto a = py::array::ensure(events, py::array::c_style);
  const auto* e = static_cast<const Event*>(a.data());
  AgentWorld& w = p.w();
  for (py::ssize_t k = 0; k < a.size(); ++k) {
    const Event& x = e[k];
    check_agent(p, x.agent, "event agent");
    const auto kind = static_cast<int>(x.kind);
    const bool action_event = kind <= 1;  // start, abort
    const bool bad = kind > 5 ||
                     (action_event && (x.action < 0 || x.action >= p.domain().num_actions())) ||
                     x.goal < agents::kNoGoal || x.goal >= w.num_goals() ||
                     (kind != 2 && x.goal == agents::kNoGoal) ||
                     ((kind == 1 || kind == 3) && x.detail >= agents::kNumReplanReasons) ||
                     (kind == 5 && (x.detail == 0 || x.detail > 5));  // a PlanStatus, not solved
    if (bad)
      throw py::value_error("events[" + std::to_string(k) +
                            "]: not an event of this world (kind, action, goal or detail "
                            "out of range)");
  }
  return a;
}

std::span<const Event> events_of(const py::array& a) {
  return {static_cast<const Event*>(a.data()), static_cast<size_t>(a.size())};
}

// One line per event, in the domain's names; the words of a no-plan event.
void bind_agent_describe(AgentWorldClass& cls) {
  cls.def(
         "describe",
         [](PyAgentWorld& p, const py::handle& events) {
           const py::array a = checked_events(p, events);
           py::list lines;
           for (const Event& x : events_of(a)) lines.append(p.w().describe(x));
           return lines;
         },
         py::arg("events"))
      .def(
          "explain",
          [](PyAgentWorld& p, const py::handle& events) {
            const py::array a = checked_events(p, events);
            py::list lines;
            for (const Event& x : events_of(a)) {
              if (x.kind != agents::EventKind::kNoPlan)
                throw py::value_error("events: explain takes no-plan events only");
              lines.append(p.w().explain(x));
            }
            return lines;
          },
          py::arg("events"),
          "Why each no-plan event's goal has no plan, in the designer's words, with the names of "
          "the variable, value and action at fault (the planner asked again on the agent's "
          "current belief).");
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
  bind_agent_senses(cls);
  bind_agent_frame(cls);
  bind_agent_readers(cls);
  bind_agent_describe(cls);
}

}  // namespace topoplan_py
