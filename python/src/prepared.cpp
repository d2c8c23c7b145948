// The binding of a prepared planner by name (planner.h's HotPlanner contract): Planner(task,
// "auto", npc_class).plan(init, goal) plans many tasks of one domain without recompiling.
#include <algorithm>

#include "bindings.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"

namespace topoplan_py {
namespace {

struct PyPlanner {
  TaskPtr task;  // keeps the domain alive
  CompiledActionSet set;
  std::unique_ptr<HotPlanner> planner;
  std::unique_ptr<PlanScratch> scratch;
  SearchLimits limits;
  std::vector<ActionId> out;
  PlanOutcome last;
  bool planned = false;
};

}  // namespace

void bind_prepared(py::module_& m) {
  py::class_<PyPlanner, std::shared_ptr<PyPlanner>>(m, "Planner")
      .def(py::init([](TaskPtr t, const std::string& name, const py::object& npc_class) {
             required(t, "task");
             if (find_planner(name) == nullptr)
               throw py::key_error("name: no planner '" + name + "'");
             const ClassId c = class_of(t->domain, npc_class);
             auto p = std::make_shared<PyPlanner>();
             p->task = t;
             p->set = unwrap(CompiledActionSet::create(t->domain, c));
             HotPlannerDef def;
             p->limits = def.limits;
             p->planner = unwrap(create_hot_planner(name, p->set, def));
             p->scratch = p->planner->make_scratch();
             p->out.resize(static_cast<size_t>(std::clamp(p->planner->max_plan_length(), 1, 256)));
             return p;
           }),
           py::arg("task"), py::arg("name") = "auto", py::arg("npc_class") = py::none(),
           "Prepares the planner registered as `name` for one NPC class (None: every action): "
           "compiled once, then plan() any number of times. InputError when the planner refuses "
           "the class ('auto' takes every class).")
      .def_property_readonly("name",
                             [](const PyPlanner& p) { return std::string(p.planner->name()); })
      .def_property_readonly("max_plan_length",
                             [](const PyPlanner& p) { return p.planner->max_plan_length(); })
      .def(
          "plan",
          [](PyPlanner& p, const std::vector<int32_t>& init, const std::vector<int32_t>& goal,
             int64_t max_expansions, int64_t max_memory_bytes, double max_seconds) {
            const auto vars = static_cast<size_t>(p.set.domain().num_variables());
            if (init.size() != vars || goal.size() != vars)
              throw py::value_error("init and goal: one value per variable (" +
                                    std::to_string(vars) + ")");
            SearchLimits limits = p.limits;
            set_limit(limits.max_expansions, max_expansions);
            set_limit(limits.max_memory_bytes, max_memory_bytes);
            set_limit(limits.max_seconds, max_seconds);
            int32_t len = 0;
            PlanOutcome o = p.planner->plan(*p.scratch, init, goal, p.out, &len, limits);
            if (o.status == PlanStatus::kBufferTooSmall &&
                len > static_cast<int32_t>(p.out.size())) {
              p.out.resize(static_cast<size_t>(len));
              o = p.planner->plan(*p.scratch, init, goal, p.out, &len, limits);
            }
            p.last = o;
            p.planned = true;
            if ((o.detail & kDetailBadInput) != 0)
              throw py::value_error(p.planner->explain(*p.scratch, o));
            py::list actions;
            if (o.solved())
              for (int32_t i = 0; i < len; ++i) actions.append(p.out[static_cast<size_t>(i)]);
            return py::make_tuple(std::string(to_string(o.status)), actions);
          },
          py::arg("init"), py::arg("goal"), py::arg("max_expansions") = -1,
          py::arg("max_memory_bytes") = -1, py::arg("max_seconds") = -1.0,
          "Plans from init (one value per variable) to goal (-1 = free): (status, actions). "
          "The search limits of this call (-1: the default, kAutoSearchLimits). Not "
          "thread-safe: one Planner per thread.")
      .def_property_readonly(
          "answered_by",
          [](const PyPlanner& p) {
            if (!p.planned) return std::string();
            return std::string(p.last.planner.empty() ? p.planner->name() : p.last.planner);
          },
          "The planner that answered the last plan() ('topo' or 'astar' for 'auto').")
      .def("explain", [](const PyPlanner& p) {
        return p.planned ? p.planner->explain(*p.scratch, p.last) : std::string("no plan yet");
      });
}

}  // namespace topoplan_py
