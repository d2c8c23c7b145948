// AgentWorld's drives and drive lists (topoplan/agents/agents.h): NumPy in (set_drives) and out
// (drives), each argument checked before the C++ call.
#include <cmath>
#include <string>

#include "agents_world.h"
#include "topoplan/udgoap/model.h"

namespace topoplan_py {
namespace {

agents::DriveId drive_arg(PyAgentWorld& p, const py::handle& h) {
  const AgentWorld& w = *p.world;
  return name_or_index_arg(h, "drive", "drive", w.num_drives(), [&](agents::DriveId d) {
    return std::string_view(w.drive_def(d).name);
  });
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

}  // namespace

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

}  // namespace topoplan_py
