// AgentWorld's frame (topoplan/agents/agents.h): what the engine writes between updates (senses
// and reports), update() into an EVENT_DTYPE array with no Python object per event, and what it
// reads after (an agent's state, plan and goal; events in words).
#include <algorithm>
#include <cstring>
#include <span>
#include <string>

#include "agents_world.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/validate.h"

namespace topoplan_py {
namespace {

// The engine's report on each of `agents` (an int32 array of the world's agents):
// `report` is AgentWorld::action_finished or action_failed.
void report_each(PyAgentWorld& p, const py::handle& agents,
                 void (AgentWorld::*report)(agents::AgentId)) {
  auto a = agents_arg(p, agents);
  AgentWorld& w = p.w();
  for (py::ssize_t k = 0; k < a.size(); ++k) (w.*report)(a.data()[k]);
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

// A method of one agent: the index checked (IndexError), then `read(world, agent)`.
template <class Read>
auto per_agent(Read read) {
  return [read](PyAgentWorld& p, int64_t agent) {
    check_agent(p, agent);
    return read(p.w(), static_cast<int32_t>(agent));
  };
}

}  // namespace

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
            report_each(p, agents, &AgentWorld::action_finished);
          },
          py::arg("agents"))
      .def(
          "action_failed",
          [](PyAgentWorld& p, const py::handle& agents) {
            report_each(p, agents, &AgentWorld::action_failed);
          },
          py::arg("agents"))
      .def("bump_world_version", [](PyAgentWorld& p) { p.w().bump_world_version(); });
}

// The frame: update() into an EVENT_DTYPE array.
void bind_agent_frame(AgentWorldClass& cls) {
  cls.def(
      "update",
      [](PyAgentWorld& p, double dt, const py::object& out) {
        if (auto e = check_limit(limits::kAgentsUpdateDt, dt, "AgentWorld.update"))
          throw py::value_error(e->message);
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
      .def("npc_class", per_agent([](AgentWorld& w, int32_t a) { return w.npc_class(a); }),
           py::arg("agent"))
      .def("goal", per_agent([](AgentWorld& w, int32_t a) { return w.goal(a); }), py::arg("agent"))
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
      .def("step", per_agent([](AgentWorld& w, int32_t a) { return w.step(a); }), py::arg("agent"))
      .def("running_action",
           per_agent([](AgentWorld& w, int32_t a) { return w.running_action(a); }),
           py::arg("agent"))
      .def("progress", per_agent([](AgentWorld& w, int32_t a) { return w.progress(a); }),
           py::arg("agent"))
      .def(
          "last_replan",
          [](PyAgentWorld& p, int64_t agent) {
            check_agent(p, agent);
            return std::string(to_string(p.w().last_replan(static_cast<int32_t>(agent))));
          },
          py::arg("agent"));
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

}  // namespace topoplan_py
