// The bindings of UDGOAP: worlds, agents, planning and scenario files (bindings.h).
#include "bindings.h"

#include <algorithm>
#include <cmath>

#include "topoplan/runtime/limits.h"
#include "topoplan/udgoap/planner.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan_py {
namespace {

// ---------------------------------------------------------------------------------------------
// UDGOAP.

struct PyWorld {
  udgoap::World world;
  udgoap::UdgoapLimits limits;
};

struct PyAgent {
  std::shared_ptr<PyWorld> world;
  udgoap::AgentState state;
};

udgoap::SlotId fact_slot(const udgoap::World& w, const std::string& entity,
                         const std::string& attribute) {
  const auto e = w.find_entity(entity);
  const auto a = w.find_attribute(attribute);
  const udgoap::SlotId s = (e && a) ? w.slot(*e, *a) : udgoap::kNoSlot;
  if (s == udgoap::kNoSlot) throw py::key_error("no fact " + entity + "." + attribute);
  return s;
}

// UdgoapWorld: the entities, drives and actions of a UDGOAP world.
void bind_udgoap_world(py::module_& m) {
  py::class_<PyWorld, std::shared_ptr<PyWorld>>(m, "UdgoapWorld")
      .def_property_readonly("name", [](const PyWorld& w) { return w.world.name; })
      .def_property_readonly("entities",
                             [](const PyWorld& w) {
                               return names_of(std::ssize(w.world.entities), [&](int64_t i) {
                                 return w.world.entities[static_cast<size_t>(i)].name;
                               });
                             })
      .def_property_readonly("actions",
                             [](const PyWorld& w) {
                               return names_of(std::ssize(w.world.actions), [&](int64_t i) {
                                 return w.world.actions[static_cast<size_t>(i)].name;
                               });
                             })
      .def("get_fact",
           [](const PyWorld& w, const std::string& e, const std::string& a) {
             const auto& f = w.world.facts[static_cast<size_t>(fact_slot(w.world, e, a))];
             if (f.value.is_vector)
               return py::object(py::make_tuple(f.value.x, f.value.y, f.value.z));
             return py::object(py::float_(f.value.x));
           })
      .def("set_fact", [](PyWorld& w, const std::string& e, const std::string& a, double v) {
        if (!std::isfinite(v)) throw py::value_error("value must be finite");
        auto& f = w.world.facts[static_cast<size_t>(fact_slot(w.world, e, a))];
        if (f.value.is_vector) throw py::value_error("a vector fact");
        f.value.x = std::clamp(v, f.min, f.max);
      });
}

// UdgoapAgent: an agent of a world, its goals and its plans.
void bind_udgoap_agent(py::module_& m) {
  py::class_<PyAgent, std::shared_ptr<PyAgent>>(m, "UdgoapAgent")
      .def(py::init([](std::shared_ptr<PyWorld> w) {
             required(w, "world");
             auto a = std::make_shared<PyAgent>();
             a->world = w;
             a->state = udgoap::make_agent_state(w->world);
             udgoap::update_agent(w->world, w->world.initial_state(), a->state);
             return a;
           }),
           py::arg("world"))
      .def("update",
           [](PyAgent& a) {
             udgoap::update_agent(a.world->world, a.world->world.initial_state(), a.state);
           })
      .def_property_readonly("world", [](const PyAgent& a) { return a.world; })
      .def_property_readonly(
          "goals",
          [](const PyAgent& a) {
            py::list out;
            for (const udgoap::Goal& g : a.state.goals) {
              const auto& drive = a.world->world.drives[static_cast<size_t>(g.drive)];
              py::dict d;
              d["id"] = g.id;
              d["drive"] = drive.name;
              d["goal"] = drive.generators[static_cast<size_t>(g.generator)].goal.name;
              d["target"] = g.target == udgoap::kNoEntity
                                ? py::object(py::none())
                                : py::object(py::str(
                                      a.world->world.entities[static_cast<size_t>(g.target)].name));
              d["completeness"] = g.completeness;
              out.append(d);
            }
            return out;
          })
      .def(
          "plan",
          [](const PyAgent& a, int64_t max_expansions, int64_t max_generated,
             int32_t max_plan_length) {
            udgoap::UdgoapOptions o;
            o.limits = a.world->limits;
            set_limit(o.limits.max_expansions, max_expansions);
            set_limit(o.limits.max_generated, max_generated);
            set_limit(o.limits.max_plan_length, max_plan_length);
            if (max_expansions < -1 || max_generated < -1 || max_plan_length < -1)
              throw py::value_error("limits: -1 keeps the world's, else non-negative");
            if (auto e = udgoap::check(o.limits)) throw py::value_error(e->message);
            // The GIL stays held: set_fact() from another thread must not change the world
            // under the search.
            const udgoap::UdgoapResult r = udgoap::plan_udgoap(a.world->world, a.state, o);
            py::list steps;
            for (const udgoap::PlanStep& s : r.plan)
              steps.append(py::make_tuple(
                  a.world->world.actions[static_cast<size_t>(s.action)].name,
                  s.supplier == udgoap::kNoEntity
                      ? py::object(py::none())
                      : py::object(py::str(
                            a.world->world.entities[static_cast<size_t>(s.supplier)].name))));
            py::dict d;
            d["status"] = std::string(to_string(r.status));
            d["steps"] = steps;
            d["utility"] = r.utility;
            d["initial_utility"] = r.initial_utility;
            d["message"] = limit_words_for(r.message, LimitDoor::kPython);
            d["expanded"] = r.expanded;
            d["generated"] = r.generated;
            return d;
          },
          py::arg("max_expansions") = -1, py::arg("max_generated") = -1,
          py::arg("max_plan_length") = -1);
}

// UDGOAP scenario files.
void bind_udgoap_files(py::module_& m) {
  m.def(
      "load_scenario",
      [](const std::string& path) {
        udgoap::Scenario s = unwrap(udgoap::load_scenario(path));
        auto w = std::make_shared<PyWorld>();
        w->world = std::move(s.world);
        w->limits = s.limits;
        auto a = std::make_shared<PyAgent>();
        a->world = w;
        a->state = std::move(s.agent);
        return py::make_tuple(w, a);
      },
      py::arg("path"),
      "Reads a UDGOAP scenario file: (world, agent), the agent updated once against the facts.");
}

}  // namespace

void bind_udgoap(py::module_& m) {
  bind_udgoap_world(m);
  bind_udgoap_agent(m);
  bind_udgoap_files(m);
}

}  // namespace topoplan_py
