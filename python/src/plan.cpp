// The bindings of the registry's planners, plan validation, the class analysis, and ℙ on the
// hot path (bindings.h).
#include "bindings.h"

#include <optional>

#include "topoplan/runtime/limits.h"

#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"

namespace topoplan_py {
namespace {

// ---------------------------------------------------------------------------------------------
// Class analysis as a dict (the keys of `topoplan check --json`).

py::list action_names(const Domain& d, std::span<const ActionId> as) {
  py::list l;
  for (ActionId a : as) l.append(d.action_name(a));
  return l;
}

py::dict report_dict(const Domain& d, const ClassReport& r) {
  py::dict j;
  for_each_summary_field(d, r, [&j](const char* key, const auto& value) { j[key] = value; });
  j["non_unary"] = action_names(d, r.non_unary);
  py::list pcs;
  for (const PostConflict& pc : r.post_conflicts)
    pcs.append(py::dict(py::arg("variable") = d.variable_name(pc.var),
                        py::arg("value") = d.value_name(pc.var, pc.post),
                        py::arg("actions") = action_names(d, pc.actions)));
  j["post_conflicts"] = pcs;
  py::list vcs;
  for (const PrevailConflict& pc : r.prevail_conflicts) {
    py::list vals;
    for (ValueId x : pc.values) vals.append(d.value_name(pc.var, x));
    vcs.append(py::dict(py::arg("variable") = d.variable_name(pc.var), py::arg("values") = vals,
                        py::arg("witnesses") = action_names(d, pc.witnesses)));
  }
  j["prevail_conflicts"] = vcs;
  j["undefined_pre"] = action_names(d, r.undefined_pre);
  j["requestable"] = action_names(d, r.requestable);
  py::list vars;
  for (const VariableReport& v : r.variables) {
    py::list cycles;
    for (const DomainCycle& c : v.cycles)
      cycles.append(py::dict(py::arg("actions") = action_names(d, c.actions),
                             py::arg("requestable") = action_names(d, c.requestable),
                             py::arg("simple") = c.simple));
    py::list ghosts;
    for (ValueId x : v.ghost_values) ghosts.append(d.value_name(v.var, x));
    vars.append(py::dict(py::arg("variable") = d.variable_name(v.var),
                         py::arg("actions") = action_names(d, v.actions),
                         py::arg("cycles") = cycles,
                         py::arg("requestable") = action_names(d, v.requestable),
                         py::arg("ghost_values") = ghosts, py::arg("components") = v.components));
  }
  j["variables"] = vars;
  py::list viol;
  for (const ClassViolation& cv : r.violations)
    viol.append(py::dict(
        py::arg("variable") = d.variable_name(cv.var), py::arg("cycle") = action_names(d, cv.cycle),
        py::arg("requestable") = action_names(d, cv.requestable), py::arg("message") = cv.message));
  j["violations"] = viol;
  return j;
}

// ---------------------------------------------------------------------------------------------
// ℙ on the hot path, for the single-call overhead (and for games scripting in Python).

struct PyTopo {
  TaskPtr task;
  TopoPlanner planner;
  TopoScratch scratch;
  std::vector<ActionId> out;
  PlanOutcome last{};  // the last plan()'s outcome (explain())
};

// The cold calls: the planners by name, plan, validate, the class analysis.
void bind_plan_calls(py::module_& m) {
  m.def("planners", []() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const PlannerInfo& p : planners())
      out.emplace_back(std::string(p.name), std::string(p.description));
    return out;
  });

  m.def(
      "_plan",
      [](const Task& t, const py::object& which, const std::string& planner,
         std::optional<int64_t> max_expansions, std::optional<int64_t> max_memory_bytes,
         std::optional<double> max_seconds, const std::string& objective) {
        const PlannerInfo* p = find_planner(planner);
        if (p == nullptr) throw py::value_error("no planner called '" + planner + "'");
        if (objective != "cost" && objective != "length")
          throw py::value_error("objective: cost or length");
        const Instance inst = resolve_instance(t, which);
        PlannerOptions o;
        // A limit left at -1 keeps the planner's default; for "auto" the limits bound its A*
        // stage (auto_limits), whose defaults are tighter than the plain search planners'.
        SearchLimits& l = planner == "auto" ? o.auto_limits : o.limits;
        // Each given limit against the table of limits (limits.h); None keeps the default.
        if (max_expansions) {
          if (auto e = check_limit(limits::kMaxExpansions, *max_expansions, "plan"))
            throw py::value_error(e->message);
          l.max_expansions = *max_expansions;
        }
        if (max_memory_bytes) {
          if (auto e = check_limit(limits::kMaxMemoryBytes, *max_memory_bytes, "plan"))
            throw py::value_error(e->message);
          l.max_memory_bytes = *max_memory_bytes;
        }
        if (max_seconds) {
          if (auto e = check_limit(limits::kMaxSeconds, *max_seconds, "plan"))
            throw py::value_error(e->message);
          l.max_seconds = *max_seconds;
        }
        o.objective = objective == "length" ? Objective::kLength : Objective::kCost;
        if (auto e = check(o)) throw py::value_error(e->message);  // e.g. max_seconds above 1e9
        PlanResult r;
        {
          py::gil_scoped_release release;
          r = p->plan(t.domain, inst, o);
        }
        r.message = limit_words_for(std::move(r.message), LimitDoor::kPython);
        py::dict d;
        d["status"] = std::string(to_string(r.status));
        put_fields(d, r, "actions", &PlanResult::actions, "cost", &PlanResult::cost, "message",
                   &PlanResult::message);
        put_fields(d, r.stats, "engine", &PlanStats::engine, "expanded", &PlanStats::expanded,
                   "generated", &PlanStats::generated, "seconds", &PlanStats::seconds);
        return d;
      },
      py::arg("task"), py::arg("instance"), py::arg("planner"), py::arg("max_expansions"),
      py::arg("max_memory_bytes"), py::arg("max_seconds"), py::arg("objective"));
  {
    const PlannerOptions defaults;
    m.attr("DEFAULT_MAX_EXPANSIONS") = defaults.limits.max_expansions;
    m.attr("DEFAULT_MAX_MEMORY_BYTES") = defaults.limits.max_memory_bytes;
  }

  m.def(
      "_validate",
      [](const Task& t, const py::object& which, const std::vector<ActionId>& actions) {
        const Instance inst = resolve_instance(t, which);
        for (size_t i = 0; i < actions.size(); ++i)
          if (actions[i] < 0 || actions[i] >= t.domain.num_actions())
            throw py::value_error("step " + std::to_string(i + 1) + ": action id out of range");
        using V = Validation;
        return dict_of(validate_plan(t.domain, inst, actions), "valid", &V::valid, "failed_step",
                       &V::failed_step, "reason", &V::reason, "final_state", &V::final_state,
                       "cost", &V::cost);
      },
      py::arg("task"), py::arg("instance"), py::arg("actions"));

  m.def(
      "check",
      [](const Task& t, const py::object& npc_class) {
        return report_dict(t.domain, analyze(t.domain, class_of(t.domain, npc_class)));
      },
      py::arg("task"), py::arg("npc_class") = py::none(),
      "The class analysis (docs/classes.md) of one NPC class's actions (None: all) as a dict "
      "with the keys of `topoplan check --json`.");
}

// ℙ on the hot path: TopoPlanner.
void bind_topo_planner(py::module_& m) {
  // ℙ on the hot path.
  py::class_<PyTopo, std::shared_ptr<PyTopo>>(m, "TopoPlanner")
      .def(py::init([](TaskPtr t, const py::object& npc_class) {
             required(t, "task");
             const ClassId c = class_of(t->domain, npc_class);
             auto p = std::make_shared<PyTopo>();
             p->task = t;
             p->planner = unwrap(TopoPlanner::create(t->domain, c));
             p->scratch = p->planner.make_scratch();
             p->out.resize(static_cast<size_t>(std::max(1, p->planner.max_plan_length())));
             return p;
           }),
           py::arg("task"), py::arg("npc_class") = py::none())
      .def_property_readonly("max_plan_length",
                             [](const PyTopo& p) { return p.planner.max_plan_length(); })
      .def(
          "plan",
          [](PyTopo& p, const py::handle& init, const py::handle& goal) {
            auto s0 = exact<int32_t>(init, "init");
            auto g = exact<int32_t>(goal, "goal");
            const auto vars = static_cast<size_t>(p.planner.domain().num_variables());
            if (static_cast<size_t>(s0.size()) != vars || static_cast<size_t>(g.size()) != vars)
              throw py::value_error("init and goal: one int32 per variable");
            int32_t len = 0;
            p.last = p.planner.plan(p.scratch, {s0.data(), vars}, {g.data(), vars}, p.out, &len);
            const PlanStatus s = p.last.status;
            if ((p.last.detail & kDetailBadInput) != 0)
              throw py::value_error(p.planner.explain(p.last));
            py::list actions;
            if (s == PlanStatus::kSolved)
              for (int32_t i = 0; i < len; ++i) actions.append(p.out[static_cast<size_t>(i)]);
            return py::make_tuple(std::string(to_string(s)), actions);
          },
          py::arg("init"), py::arg("goal"),
          "ℙ from int32 arrays (one value per variable; -1 = free in the goal): (status, "
          "actions). Not thread-safe: one TopoPlanner per thread.")
      .def("explain", [](const PyTopo& p) { return p.planner.explain(p.last); });
}

}  // namespace

void bind_plan(py::module_& m) {
  bind_plan_calls(m);
  bind_topo_planner(m);
}

}  // namespace topoplan_py
