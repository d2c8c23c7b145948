// topoplan._topoplan — the pybind11 bindings of the C++ API (the Python package `topoplan`
// re-exports them; python/topoplan/__init__.py adds the pure-Python helpers and
// python/topoplan/_topoplan.pyi the types).
//
// Ownership: a Task is held by shared_ptr; every object that borrows its domain (TopoPlanner,
// CrowdPlanner) keeps it alive, and a Crowd keeps its planner and cache alive, so that Python's
// garbage collector can never free a domain under a planner. Crowd batches take NumPy arrays
// without copying (C-contiguous arrays of the exact dtype are required, anything else is a
// TypeError rather than a hidden copy), write into caller-owned output arrays, and release the
// GIL while planning.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <climits>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "topoplan/analysis.h"
#include "topoplan/crowd.h"
#include "topoplan/domain.h"
#include "topoplan/families.h"
#include "topoplan/io.h"
#include "topoplan/plan.h"
#include "topoplan/sim/arena.h"
#include "topoplan/sim/scenario.h"
#include "topoplan/topo.h"
#include "topoplan/udgoap/planner.h"
#include "topoplan/udgoap/scenario.h"
#include "topoplan/validate.h"

namespace py = pybind11;
using namespace topoplan;

namespace {

// Bad input from files or dicts: "file:line: message".
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
T unwrap(Result<T> r) {
  if (!r) throw InputError(r.error().to_string());
  return std::move(r).value();
}

using TaskPtr = std::shared_ptr<Task>;

// ---------------------------------------------------------------------------------------------
// Dicts ↔ DomainDef / Instance, by names.

std::string str_of(const py::handle& h, const char* what) {
  if (!py::isinstance<py::str>(h)) throw InputError(std::string(what) + ": expected a string");
  return h.cast<std::string>();
}

// A value of variable v given by name or by id.
ValueId value_of(const DomainDef& def, VarId v, const py::handle& h, const std::string& where) {
  const VariableDef& var = def.variables[static_cast<size_t>(v)];
  if (py::isinstance<py::int_>(h)) {
    const auto x = h.cast<int64_t>();
    if (x < 0 || x >= static_cast<int64_t>(var.values.size()))
      throw InputError(where + ": value " + std::to_string(x) + " of " + var.name +
                       " out of range");
    return static_cast<ValueId>(x);
  }
  const std::string name = str_of(h, where.c_str());
  for (size_t i = 0; i < var.values.size(); ++i)
    if (var.values[i] == name) return static_cast<ValueId>(i);
  throw InputError(where + ": " + var.name + " has no value '" + name + "'");
}

VarId var_of(const DomainDef& def, const py::handle& h, const std::string& where) {
  const std::string name = str_of(h, where.c_str());
  for (size_t i = 0; i < def.variables.size(); ++i)
    if (def.variables[i].name == name) return static_cast<VarId>(i);
  throw InputError(where + ": no variable '" + name + "'");
}

// {"var": value, ...} → partial state (kUndefined elsewhere).
std::vector<ValueId> state_of(const DomainDef& def, const py::handle& h, const std::string& where) {
  std::vector<ValueId> s(def.variables.size(), kUndefined);
  if (h.is_none()) return s;
  if (py::isinstance<py::dict>(h)) {
    for (auto [k, val] : h.cast<py::dict>()) {
      const VarId v = var_of(def, k, where);
      s[static_cast<size_t>(v)] = value_of(def, v, val, where);
    }
    return s;
  }
  // A sequence of values, one per variable (None / -1 = free).
  const auto seq = h.cast<py::sequence>();
  if (seq.size() != def.variables.size())
    throw InputError(where + ": expected " + std::to_string(def.variables.size()) + " values");
  for (size_t v = 0; v < seq.size(); ++v) {
    py::handle x = seq[v];
    if (x.is_none() || (py::isinstance<py::int_>(x) && x.cast<int64_t>() == kUndefined)) continue;
    s[v] = value_of(def, static_cast<VarId>(v), x, where);
  }
  return s;
}

py::object get(const py::dict& d, const char* key) {
  return d.contains(key) ? py::object(d[key]) : py::object(py::none());
}

// The dict form (python/topoplan/__init__.py documents it; Task.to_dict() writes it).
Task task_from_dict(const py::dict& d) {
  DomainDef def;
  def.name = d.contains("name") ? str_of(d["name"], "name") : "domain";
  for (py::handle vh : get(d, "variables").is_none() ? py::list() : py::list(d["variables"])) {
    const auto v = vh.cast<py::dict>();
    VariableDef var;
    var.name = str_of(v["name"], "variables: name");
    for (py::handle x : py::list(v["values"])) var.values.push_back(str_of(x, "values"));
    def.variables.push_back(std::move(var));
  }
  for (py::handle ah : get(d, "actions").is_none() ? py::list() : py::list(d["actions"])) {
    const auto a = ah.cast<py::dict>();
    ActionDef act;
    act.name = str_of(a["name"], "actions: name");
    const std::string where = "action " + act.name;
    if (a.contains("cost")) act.cost = a["cost"].cast<int64_t>();
    const std::vector<ValueId> pre = state_of(def, get(a, "pre"), where + ": pre");
    const std::vector<ValueId> post = state_of(def, get(a, "post"), where + ": post");
    const std::vector<ValueId> prv = state_of(def, get(a, "prevail"), where + ": prevail");
    for (size_t v = 0; v < post.size(); ++v) {
      if (post[v] != kUndefined)
        act.effects.push_back(Effect{static_cast<VarId>(v), pre[v], post[v]});
      else if (pre[v] != kUndefined)
        throw InputError(where + ": pre on " + def.variables[v].name + " without a post");
      if (prv[v] != kUndefined) act.prevail.push_back(Fact{static_cast<VarId>(v), prv[v]});
    }
    def.actions.push_back(std::move(act));
  }
  for (py::handle ch : get(d, "classes").is_none() ? py::list() : py::list(d["classes"])) {
    const auto c = ch.cast<py::dict>();
    NpcClassDef cls;
    cls.name = str_of(c["name"], "classes: name");
    for (py::handle x : py::list(c["actions"])) {
      const std::string name = str_of(x, "classes: actions");
      ActionId found = -1;
      for (size_t i = 0; i < def.actions.size(); ++i)
        if (def.actions[i].name == name) found = static_cast<ActionId>(i);
      if (found < 0) throw InputError("class " + cls.name + ": no action '" + name + "'");
      cls.actions.push_back(found);
    }
    def.classes.push_back(std::move(cls));
  }
  Task task{unwrap(Domain::compile(def)), {}};
  for (py::handle ih : get(d, "instances").is_none() ? py::list() : py::list(d["instances"])) {
    const auto i = ih.cast<py::dict>();
    Instance inst;
    inst.name = i.contains("name") ? str_of(i["name"], "instances: name") : "";
    const std::string where = "instance " + inst.name;
    inst.init = state_of(def, get(i, "init"), where + ": init");
    inst.goal = state_of(def, get(i, "goal"), where + ": goal");
    if (i.contains("class") && !i["class"].is_none()) {
      const auto c = task.domain.find_class(str_of(i["class"], "instances: class"));
      if (!c) throw InputError(where + ": no class '" + i["class"].cast<std::string>() + "'");
      inst.npc_class = *c;
    }
    if (auto e = task.domain.check_instance(inst)) throw InputError(where + ": " + e->message);
    task.instances.push_back(std::move(inst));
  }
  return task;
}

py::dict state_dict(const Domain& d, const std::vector<ValueId>& s) {
  py::dict out;
  for (VarId v = 0; v < d.num_variables(); ++v)
    if (s[static_cast<size_t>(v)] != kUndefined)
      out[py::str(d.variable_name(v))] = d.value_name(v, s[static_cast<size_t>(v)]);
  return out;
}

py::dict task_to_dict(const Task& t) {
  const Domain& d = t.domain;
  py::dict out;
  out["name"] = d.name();
  py::list vars;
  for (VarId v = 0; v < d.num_variables(); ++v) {
    py::list values;
    for (ValueId x = 0; x < d.domain_size(v); ++x) values.append(d.value_name(v, x));
    vars.append(py::dict(py::arg("name") = d.variable_name(v), py::arg("values") = values));
  }
  out["variables"] = vars;
  py::list actions;
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    py::dict pre, post, prv;
    for (const Effect& e : d.effects(a)) {
      if (e.pre != kUndefined) pre[py::str(d.variable_name(e.var))] = d.value_name(e.var, e.pre);
      post[py::str(d.variable_name(e.var))] = d.value_name(e.var, e.post);
    }
    for (const Fact& f : d.prevail(a))
      prv[py::str(d.variable_name(f.var))] = d.value_name(f.var, f.value);
    actions.append(py::dict(py::arg("name") = d.action_name(a), py::arg("cost") = d.cost(a),
                            py::arg("pre") = pre, py::arg("post") = post,
                            py::arg("prevail") = prv));
  }
  out["actions"] = actions;
  py::list classes;
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    py::list members;
    for (ActionId a : d.class_actions(c)) members.append(d.action_name(a));
    classes.append(py::dict(py::arg("name") = d.class_name(c), py::arg("actions") = members));
  }
  out["classes"] = classes;
  py::list instances;
  for (const Instance& i : t.instances) {
    py::dict di;
    di["name"] = i.name;
    di["init"] = state_dict(d, i.init);
    di["goal"] = state_dict(d, i.goal);
    di["class"] = i.npc_class == kAllActions ? py::object(py::none())
                                             : py::object(py::str(d.class_name(i.npc_class)));
    instances.append(di);
  }
  out["instances"] = instances;
  return out;
}

// An instance argument: None (the first), an index, a name, an Instance.
Instance resolve_instance(const Task& t, const py::object& which) {
  if (which.is_none()) {
    if (t.instances.empty()) throw InputError("the task has no instance");
    return t.instances.front();
  }
  if (py::isinstance<Instance>(which)) {
    Instance inst = which.cast<Instance>();
    if (auto e = t.domain.check_instance(inst)) throw py::value_error(e->to_string());
    return inst;
  }
  if (py::isinstance<py::int_>(which)) {
    const auto i = which.cast<int64_t>();
    if (i < 0 || static_cast<size_t>(i) >= t.instances.size())
      throw py::index_error("instance index out of range");
    return t.instances[static_cast<size_t>(i)];
  }
  const std::string name = str_of(which, "instance");
  const Instance* found = t.find_instance(name);
  if (found == nullptr) throw py::key_error("no instance called '" + name + "'");
  return *found;
}

// ---------------------------------------------------------------------------------------------
// Class analysis as a dict (the keys of `topoplan check --json`).

py::list action_names(const Domain& d, std::span<const ActionId> as) {
  py::list l;
  for (ActionId a : as) l.append(d.action_name(a));
  return l;
}

py::dict report_dict(const Domain& d, const ClassReport& r) {
  py::dict j;
  j["scope"] = r.npc_class == kAllActions ? std::string("all") : d.class_name(r.npc_class);
  j["actions"] = r.num_analysed;
  j["unary"] = r.unary;
  j["post_unique"] = r.post_unique;
  j["single_valued"] = r.single_valued;
  j["pre_defined"] = r.pre_defined;
  j["class"] = std::string(to_string(r.structural_class));
  j["why_not"] = r.why_not;
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
// Crowds.

template <class T>
using CArray = py::array_t<T, py::array::c_style>;

// A C-contiguous array of exactly dtype T (no conversion, no copy), or TypeError.
template <class T>
CArray<T> exact(const py::handle& h, const char* name) {
  if (!py::isinstance<py::array>(h))
    throw py::type_error(std::string(name) + ": expected a numpy array");
  auto a = py::reinterpret_borrow<py::array>(h);
  if (!a.dtype().is(py::dtype::of<T>()) || !(a.flags() & py::array::c_style))
    throw py::type_error(std::string(name) + ": expected a C-contiguous array of dtype " +
                         py::str(py::dtype::of<T>()).cast<std::string>() + " (got " +
                         py::str(a.dtype()).cast<std::string>() +
                         "); convert it once with numpy.ascontiguousarray(x, dtype=...)");
  return py::reinterpret_borrow<CArray<T>>(h);
}

struct PyCrowdPlanner {
  TaskPtr task;
  CrowdPlanner planner;
};

struct PyPlanCache {
  std::shared_ptr<PyCrowdPlanner> owner;
  std::unique_ptr<PlanCache> cache;
};

struct PyCrowd {
  std::mutex busy;  // one batch at a time per crowd (the GIL is released while it runs)
  std::shared_ptr<PyCrowdPlanner> owner;
  std::shared_ptr<PyPlanCache> cache;
  std::unique_ptr<CrowdThreadPool> pool;
  std::unique_ptr<Crowd> crowd;
};

py::dict stats_dict(const CrowdStats& s) {
  py::dict d;
  d["served"] = s.served;
  d["planned"] = s.planned;
  d["cache_hits"] = s.cache_hits;
  d["solved"] = s.solved;
  d["buffer_too_small"] = s.buffer_too_small;
  d["complete"] = s.complete;
  return d;
}

// Runs a batch: inputs and outputs are NumPy arrays, viewed in place.
py::tuple run_crowd(PyCrowd& c, const py::handle& npc_class, const py::handle& init,
                    const py::handle& goal, py::object actions, py::object offset,
                    py::object length, py::object status, int64_t* cursor, double budget) {
  const CrowdLayout& layout = c.owner->planner.layout();
  auto cls = exact<uint16_t>(npc_class, "npc_class");
  auto in = exact<uint64_t>(init, "init");
  auto gl = exact<uint64_t>(goal, "goal");
  const auto n = static_cast<size_t>(cls.size());
  const auto words = static_cast<size_t>(layout.words());
  if (cls.ndim() != 1) throw py::value_error("npc_class: expected a 1-d array");
  if (n > static_cast<size_t>(INT32_MAX)) throw py::value_error("at most 2^31 - 1 NPCs per batch");
  if (static_cast<size_t>(in.size()) != n * words || static_cast<size_t>(gl.size()) != n * words)
    throw py::value_error("init and goal: expected len(npc_class) * words = " +
                          std::to_string(n * words) + " words each");
  // Outputs: given (written in place) or allocated here.
  if (actions.is_none())
    actions = CArray<int32_t>(static_cast<py::ssize_t>(
        n * static_cast<size_t>(std::max(1, std::min(c.owner->planner.max_plan_length(), 16)))));
  if (offset.is_none()) offset = CArray<uint32_t>(static_cast<py::ssize_t>(n));
  if (length.is_none()) length = CArray<uint16_t>(static_cast<py::ssize_t>(n));
  if (status.is_none()) status = CArray<uint16_t>(static_cast<py::ssize_t>(n));
  auto act = exact<int32_t>(actions, "actions");
  auto off = exact<uint32_t>(offset, "offset");
  auto len = exact<uint16_t>(length, "length");
  auto st = exact<uint16_t>(status, "status");
  if (!act.writeable() || !off.writeable() || !len.writeable() || !st.writeable())
    throw py::value_error("output arrays must be writeable");
  if (static_cast<size_t>(off.size()) != n || static_cast<size_t>(len.size()) != n ||
      static_cast<size_t>(st.size()) != n)
    throw py::value_error("offset, length and status: expected len(npc_class) entries each");
  if (static_cast<uint64_t>(act.size()) > 0xFFFFFFFFull)
    throw py::value_error("actions: at most 2^32 - 1 entries");
  const CrowdBatch batch{{cls.data(), n}, {in.data(), n * words}, {gl.data(), n * words}};
  const CrowdOutput out{{act.mutable_data(), static_cast<size_t>(act.size())},
                        {off.mutable_data(), n},
                        {len.mutable_data(), n},
                        {st.mutable_data(), n}};
  std::unique_lock<std::mutex> lock(c.busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw std::runtime_error(
        "this Crowd is planning a batch in another thread: use one Crowd "
        "per thread (they may share the CrowdPlanner and the PlanCache)");
  CrowdStats stats;
  {
    py::gil_scoped_release release;
    if (cursor == nullptr) {
      stats = c.crowd->plan(batch, out);
    } else {
      CrowdCursor cur{*cursor};
      stats = c.crowd->plan_frame(batch, out, &cur, budget);
      *cursor = cur.next;
    }
  }
  return py::make_tuple(actions, offset, length, status, stats_dict(stats));
}

// States as a (N, num_variables) int32 array → (N, words) uint64.
CArray<uint64_t> pack(const PyCrowdPlanner& p, const py::handle& states, bool goal) {
  auto s = exact<int32_t>(states, goal ? "goals" : "states");
  const Domain& d = p.planner.domain();
  const auto m = static_cast<size_t>(d.num_variables());
  if (s.ndim() != 2 || static_cast<size_t>(s.shape(1)) != m)
    throw py::value_error("expected an int32 array of shape (N, " + std::to_string(m) + ")");
  const auto n = static_cast<size_t>(s.shape(0));
  const auto words = static_cast<size_t>(p.planner.layout().words());
  CArray<uint64_t> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(words)});
  const int32_t* src = s.data();
  uint64_t* dst = out.mutable_data();
  for (size_t i = 0; i < n; ++i) {
    const int32_t* row = src + i * m;
    for (size_t v = 0; v < m; ++v) {
      const int32_t x = row[v];
      if (!((x >= 0 && x < d.domain_size(static_cast<VarId>(v))) || (goal && x == kUndefined)))
        throw py::value_error("row " + std::to_string(i) + ": value " + std::to_string(x) + " of " +
                              d.variable_name(static_cast<VarId>(v)) + " out of range");
    }
    const std::span<const ValueId> view(row, m);
    if (goal)
      p.planner.layout().pack_goal(view, dst + i * words);
    else
      p.planner.layout().pack_state(view, dst + i * words);
  }
  return out;
}

CArray<int32_t> unpack(const PyCrowdPlanner& p, const py::handle& packed, bool goal) {
  auto s = exact<uint64_t>(packed, "packed");
  const auto m = static_cast<size_t>(p.planner.domain().num_variables());
  const auto words = static_cast<size_t>(p.planner.layout().words());
  if (static_cast<size_t>(s.size()) % words != 0)
    throw py::value_error("expected a multiple of words() words");
  const size_t n = static_cast<size_t>(s.size()) / words;
  CArray<int32_t> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(m)});
  for (size_t i = 0; i < n; ++i) {
    const std::span<ValueId> row(out.mutable_data() + i * m, m);
    if (goal)
      p.planner.layout().unpack_goal(s.data() + i * words, row);
    else
      p.planner.layout().unpack_state(s.data() + i * words, row);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ℙ on the hot path, for the single-call overhead (and for games scripting in Python).

struct PyTopo {
  TaskPtr task;
  TopoPlanner planner;
  TopoScratch scratch;
  std::vector<ActionId> out;
};

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

}  // namespace

PYBIND11_MODULE(_topoplan, m) {
  m.doc() = "topoplan: real-time action planning for game NPCs (C++ core, pybind11 bindings)";
  m.attr("__version__") = TOPOPLAN_VERSION_STRING;
  py::register_exception<InputError>(m, "InputError", PyExc_ValueError);

  py::class_<Instance>(m, "Instance")
      .def(py::init([](std::string name, std::vector<ValueId> init, std::vector<ValueId> goal,
                       ClassId npc_class) {
             return Instance{std::move(name), std::move(init), std::move(goal), npc_class};
           }),
           py::arg("name") = "", py::arg("init") = std::vector<ValueId>{},
           py::arg("goal") = std::vector<ValueId>{}, py::arg("npc_class") = kAllActions)
      .def_readwrite("name", &Instance::name)
      .def_readwrite("init", &Instance::init)
      .def_readwrite("goal", &Instance::goal)
      .def_readwrite("npc_class", &Instance::npc_class)
      .def("__eq__", [](const Instance& a, const Instance& b) { return a == b; })
      .def("__repr__", [](const Instance& i) {
        return "Instance(name='" + i.name + "', npc_class=" + std::to_string(i.npc_class) + ")";
      });

  py::class_<Task, TaskPtr>(m, "Task")
      .def_static(
          "from_dict", [](const py::dict& d) { return std::make_shared<Task>(task_from_dict(d)); },
          py::arg("spec"))
      .def("to_dict", &task_to_dict)
      .def("to_native", [](const Task& t) { return write_native(t); })
      .def(
          "to_sas",
          [](const Task& t, const py::object& which) {
            return write_fd_sas(t.domain, resolve_instance(t, which));
          },
          py::arg("instance") = py::none())
      .def_property_readonly("name", [](const Task& t) { return t.domain.name(); })
      .def_property_readonly("variables",
                             [](const Task& t) {
                               std::vector<std::string> v;
                               for (VarId i = 0; i < t.domain.num_variables(); ++i)
                                 v.push_back(t.domain.variable_name(i));
                               return v;
                             })
      .def(
          "values",
          [](const Task& t, VarId v) {
            if (v < 0 || v >= t.domain.num_variables()) throw py::index_error("variable");
            std::vector<std::string> out;
            for (ValueId x = 0; x < t.domain.domain_size(v); ++x)
              out.push_back(t.domain.value_name(v, x));
            return out;
          },
          py::arg("variable"))
      .def_property_readonly("actions",
                             [](const Task& t) {
                               std::vector<std::string> v;
                               for (ActionId a = 0; a < t.domain.num_actions(); ++a)
                                 v.push_back(t.domain.action_name(a));
                               return v;
                             })
      .def_property_readonly("classes",
                             [](const Task& t) {
                               std::vector<std::string> v;
                               for (ClassId c = 0; c < t.domain.num_classes(); ++c)
                                 v.push_back(t.domain.class_name(c));
                               return v;
                             })
      .def_readonly("instances", &Task::instances)
      .def(
          "find_instance",
          [](const Task& t, const std::string& name) -> std::optional<Instance> {
            const Instance* i = t.find_instance(name);
            return i == nullptr ? std::nullopt : std::optional<Instance>(*i);
          },
          py::arg("name"))
      .def(
          "find_instance_index",
          [](const Task& t, const std::string& name) { return t.find_instance_index(name); },
          py::arg("name"))
      .def(
          "find_action",
          [](const Task& t, const std::string& n) { return t.domain.find_action(n); },
          py::arg("name"))
      .def(
          "find_class", [](const Task& t, const std::string& n) { return t.domain.find_class(n); },
          py::arg("name"))
      .def(
          "find_variable",
          [](const Task& t, const std::string& n) { return t.domain.find_variable(n); },
          py::arg("name"))
      .def(
          "action_cost",
          [](const Task& t, ActionId a) {
            if (a < 0 || a >= t.domain.num_actions()) throw py::index_error("action");
            return t.domain.cost(a);
          },
          py::arg("action"))
      .def(
          "instance",
          [](const Task& t, const py::object& init, const py::object& goal,
             const py::object& npc_class, const std::string& name) {
            const DomainDef def = t.domain.to_def();
            Instance inst;
            inst.name = name;
            inst.init = state_of(def, init, "init");
            inst.goal = state_of(def, goal, "goal");
            if (!npc_class.is_none()) {
              if (py::isinstance<py::int_>(npc_class)) {
                inst.npc_class = npc_class.cast<ClassId>();
              } else {
                const auto c = t.domain.find_class(str_of(npc_class, "npc_class"));
                if (!c) throw py::key_error("no class '" + npc_class.cast<std::string>() + "'");
                inst.npc_class = *c;
              }
            }
            if (auto e = t.domain.check_instance(inst)) throw py::value_error(e->to_string());
            return inst;
          },
          py::arg("init"), py::arg("goal"), py::arg("npc_class") = py::none(), py::arg("name") = "")
      .def("state_dict", [](const Task& t, const std::vector<ValueId>& s) {
        if (s.size() != static_cast<size_t>(t.domain.num_variables()))
          throw py::value_error("expected one value per variable");
        return state_dict(t.domain, s);
      });

  m.def(
      "load_task",
      [](const std::string& path, const std::string& format) {
        FileFormat f = FileFormat::kAuto;
        if (format == "native")
          f = FileFormat::kNative;
        else if (format == "sas")
          f = FileFormat::kFastDownward;
        else if (format != "auto")
          throw py::value_error("format: auto, native or sas");
        return std::make_shared<Task>(unwrap(load_task(path, f)));
      },
      py::arg("path"), py::arg("format") = "auto");
  m.def(
      "parse_task",
      [](const std::string& text, const std::string& filename, const std::string& format) {
        const bool sas = format == "sas" ||
                         (format == "auto" && text.find("begin_version") != std::string::npos &&
                          text.find("[domain]") == std::string::npos);
        if (format != "auto" && format != "sas" && format != "native")
          throw py::value_error("format: auto, native or sas");
        return std::make_shared<Task>(
            unwrap(sas ? parse_fd_sas(text, filename) : parse_native(text, filename)));
      },
      py::arg("text"), py::arg("filename") = "<text>", py::arg("format") = "auto");

  m.def("planners", []() {
    std::vector<std::pair<std::string, std::string>> out;
    for (const PlannerInfo& p : planners())
      out.emplace_back(std::string(p.name), std::string(p.description));
    return out;
  });

  m.def(
      "_plan",
      [](const Task& t, const py::object& which, const std::string& planner, int64_t max_expansions,
         int64_t max_memory_bytes, double max_seconds, const std::string& objective) {
        const PlannerInfo* p = find_planner(planner);
        if (p == nullptr) throw py::value_error("no planner called '" + planner + "'");
        if (objective != "cost" && objective != "length")
          throw py::value_error("objective: cost or length");
        if (max_expansions < -1 || max_memory_bytes < -1 || !(max_seconds >= -1.0))
          throw py::value_error("limits must be non-negative (or None for the default)");
        const Instance inst = resolve_instance(t, which);
        PlannerOptions o;
        // A limit left at -1 keeps the planner's default; for "auto" the limits bound its A*
        // stage (auto_limits), whose defaults are tighter than the plain search planners'.
        SearchLimits& l = planner == "auto" ? o.auto_limits : o.limits;
        if (max_expansions >= 0) l.max_expansions = max_expansions;
        if (max_memory_bytes >= 0) l.max_memory_bytes = max_memory_bytes;
        if (max_seconds >= 0.0) l.max_seconds = max_seconds;
        o.objective = objective == "length" ? Objective::kLength : Objective::kCost;
        PlanResult r;
        {
          py::gil_scoped_release release;
          r = p->plan(t.domain, inst, o);
        }
        py::dict d;
        d["status"] = std::string(to_string(r.status));
        d["actions"] = r.actions;
        d["cost"] = r.cost;
        d["message"] = r.message;
        d["engine"] = r.stats.engine;
        d["expanded"] = r.stats.expanded;
        d["generated"] = r.stats.generated;
        d["seconds"] = r.stats.seconds;
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
        const Validation v = validate_plan(t.domain, inst, actions);
        py::dict d;
        d["valid"] = v.valid;
        d["failed_step"] = v.failed_step;
        d["reason"] = v.reason;
        d["final_state"] = v.final_state;
        d["cost"] = v.cost;
        return d;
      },
      py::arg("task"), py::arg("instance"), py::arg("actions"));

  m.def(
      "check",
      [](const Task& t, const py::object& npc_class) {
        ClassId c = kAllActions;
        if (!npc_class.is_none()) {
          if (py::isinstance<py::int_>(npc_class)) {
            c = npc_class.cast<ClassId>();
            if (c != kAllActions && (c < 0 || c >= t.domain.num_classes()))
              throw py::index_error("npc_class out of range");
          } else {
            const auto found = t.domain.find_class(str_of(npc_class, "npc_class"));
            if (!found) throw py::key_error("no class '" + npc_class.cast<std::string>() + "'");
            c = *found;
          }
        }
        return report_dict(t.domain, analyze(t.domain, c));
      },
      py::arg("task"), py::arg("npc_class") = py::none(),
      "The class analysis (docs/classes.md) of one NPC class's actions (None: all) as a dict "
      "with the keys of `topoplan check --json`.");

  // ℙ on the hot path.
  py::class_<PyTopo, std::shared_ptr<PyTopo>>(m, "TopoPlanner")
      .def(py::init([](TaskPtr t, const py::object& npc_class) {
             ClassId c = kAllActions;
             if (!npc_class.is_none()) {
               if (py::isinstance<py::int_>(npc_class)) {
                 c = npc_class.cast<ClassId>();
                 if (c != kAllActions && (c < 0 || c >= t->domain.num_classes()))
                   throw py::index_error("npc_class out of range");
               } else {
                 const auto found = t->domain.find_class(str_of(npc_class, "npc_class"));
                 if (!found) throw py::key_error("no class");
                 c = *found;
               }
             }
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
            const PlanStatus s =
                p.planner.plan(p.scratch, {s0.data(), vars}, {g.data(), vars}, p.out, &len);
            if (p.scratch.failure() == TopoFailure::kBadInput)
              throw py::value_error(p.planner.explain(p.scratch));
            py::list actions;
            if (s == PlanStatus::kSolved)
              for (int32_t i = 0; i < len; ++i) actions.append(p.out[static_cast<size_t>(i)]);
            return py::make_tuple(std::string(to_string(s)), actions);
          },
          py::arg("init"), py::arg("goal"),
          "ℙ from int32 arrays (one value per variable; -1 = free in the goal): (status, "
          "actions). Not thread-safe: one TopoPlanner per thread.")
      .def("explain", [](const PyTopo& p) { return p.planner.explain(p.scratch); });

  // Crowds.
  py::class_<PyCrowdPlanner, std::shared_ptr<PyCrowdPlanner>>(m, "CrowdPlanner")
      .def(py::init([](TaskPtr t) {
             auto p = std::make_shared<PyCrowdPlanner>();
             p->task = t;
             p->planner = unwrap(CrowdPlanner::create(t->domain));
             return p;
           }),
           py::arg("task"))
      .def_property_readonly("words",
                             [](const PyCrowdPlanner& p) { return p.planner.layout().words(); })
      .def_property_readonly("num_classes",
                             [](const PyCrowdPlanner& p) { return p.planner.num_classes(); })
      .def_property_readonly("max_plan_length",
                             [](const PyCrowdPlanner& p) { return p.planner.max_plan_length(); })
      .def(
          "pack_states",
          [](const PyCrowdPlanner& p, const py::handle& s) { return pack(p, s, false); },
          py::arg("states"))
      .def(
          "pack_goals",
          [](const PyCrowdPlanner& p, const py::handle& s) { return pack(p, s, true); },
          py::arg("goals"))
      .def(
          "unpack_states",
          [](const PyCrowdPlanner& p, const py::handle& s) { return unpack(p, s, false); },
          py::arg("packed"))
      .def(
          "unpack_goals",
          [](const PyCrowdPlanner& p, const py::handle& s) { return unpack(p, s, true); },
          py::arg("packed"));

  py::class_<PyPlanCache, std::shared_ptr<PyPlanCache>>(m, "PlanCache")
      .def(py::init([](std::shared_ptr<PyCrowdPlanner> p, int32_t capacity,
                       int32_t max_plan_length) {
             if (capacity < 1 || capacity > (1 << 28) || max_plan_length < 0 ||
                 max_plan_length > 255)
               throw py::value_error("capacity in [1, 2^28], max_plan_length in [0, 255]");
             auto c = std::make_shared<PyPlanCache>();
             c->owner = p;
             c->cache =
                 std::make_unique<PlanCache>(p->planner, PlanCacheDef{capacity, max_plan_length});
             return c;
           }),
           py::arg("planner"), py::arg("capacity") = 1 << 16, py::arg("max_plan_length") = 16)
      .def("invalidate", [](PyPlanCache& c) { c.cache->invalidate(); })
      .def("stats", [](const PyPlanCache& c) {
        const PlanCacheStats s = c.cache->stats();
        py::dict d;
        d["hits"] = s.hits;
        d["misses"] = s.misses;
        d["inserts"] = s.inserts;
        d["evictions"] = s.evictions;
        d["invalidations"] = s.invalidations;
        d["capacity"] = s.capacity;
        d["bytes"] = s.bytes;
        return d;
      });

  py::class_<PyCrowd, std::shared_ptr<PyCrowd>>(m, "Crowd")
      .def(py::init([](std::shared_ptr<PyCrowdPlanner> p, int32_t threads,
                       std::shared_ptr<PyPlanCache> cache, int32_t npcs_per_block,
                       int32_t worker_memo_entries) {
             if (threads < 1 || threads > 1024 || npcs_per_block < 1 || worker_memo_entries < 0)
               throw py::value_error("threads in [1, 1024], npcs_per_block >= 1");
             if (cache && cache->owner != p)
               throw py::value_error("the cache was made for another CrowdPlanner");
             auto c = std::make_shared<PyCrowd>();
             c->owner = p;
             c->cache = cache;
             CrowdDef def;
             def.npcs_per_block = npcs_per_block;
             def.worker_memo_entries = worker_memo_entries;
             def.cache = cache ? cache->cache.get() : nullptr;
             if (threads > 1) {
               c->pool = std::make_unique<CrowdThreadPool>(threads);
               c->pool->install(def);
             }
             c->crowd = std::make_unique<Crowd>(unwrap(Crowd::create(p->planner, def)));
             return c;
           }),
           py::arg("planner"), py::arg("threads") = 1, py::arg("cache") = nullptr,
           py::arg("npcs_per_block") = 64, py::arg("worker_memo_entries") = 2048)
      .def(
          "plan",
          [](PyCrowd& c, const py::handle& npc_class, const py::handle& init,
             const py::handle& goal, py::object actions, py::object offset, py::object length,
             py::object status) {
            return run_crowd(c, npc_class, init, goal, std::move(actions), std::move(offset),
                             std::move(length), std::move(status), nullptr, 0.0);
          },
          py::arg("npc_class"), py::arg("init"), py::arg("goal"), py::arg("actions") = py::none(),
          py::arg("offset") = py::none(), py::arg("length") = py::none(),
          py::arg("status") = py::none())
      .def(
          "plan_frame",
          [](PyCrowd& c, const py::handle& npc_class, const py::handle& init,
             const py::handle& goal, int64_t cursor, double budget_seconds, py::object actions,
             py::object offset, py::object length, py::object status) {
            if (cursor < 0 ||
                static_cast<uint64_t>(cursor) > static_cast<uint64_t>(py::len(npc_class)) ||
                !(budget_seconds >= 0.0))
              throw py::value_error("cursor in [0, N], budget_seconds >= 0");
            py::tuple r = run_crowd(c, npc_class, init, goal, std::move(actions), std::move(offset),
                                    std::move(length), std::move(status), &cursor, budget_seconds);
            return py::make_tuple(r[0], r[1], r[2], r[3], r[4], cursor);
          },
          py::arg("npc_class"), py::arg("init"), py::arg("goal"), py::arg("cursor"),
          py::arg("budget_seconds") = 1.67e-3, py::arg("actions") = py::none(),
          py::arg("offset") = py::none(), py::arg("length") = py::none(),
          py::arg("status") = py::none());

  m.attr("CROWD_SOLVED") = kCrowdSolved;
  m.attr("CROWD_UNSOLVABLE") = kCrowdUnsolvable;
  m.attr("CROWD_NO_PLAN") = kCrowdNoPlan;
  m.attr("CROWD_BUFFER_TOO_SMALL") = kCrowdBufferTooSmall;
  m.attr("CROWD_BAD_INPUT") = kCrowdBadInput;
  m.attr("CROWD_CACHE_HIT") = kCrowdCacheHit;

  // UDGOAP.
  py::class_<PyWorld, std::shared_ptr<PyWorld>>(m, "UdgoapWorld")
      .def_property_readonly("name", [](const PyWorld& w) { return w.world.name; })
      .def_property_readonly("entities",
                             [](const PyWorld& w) {
                               std::vector<std::string> v;
                               for (const auto& e : w.world.entities) v.push_back(e.name);
                               return v;
                             })
      .def_property_readonly("actions",
                             [](const PyWorld& w) {
                               std::vector<std::string> v;
                               for (const auto& a : w.world.actions) v.push_back(a.name);
                               return v;
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

  py::class_<PyAgent, std::shared_ptr<PyAgent>>(m, "UdgoapAgent")
      .def(py::init([](std::shared_ptr<PyWorld> w) {
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
            if (max_expansions >= 0) o.limits.max_expansions = max_expansions;
            if (max_generated >= 0) o.limits.max_generated = max_generated;
            if (max_plan_length >= 0) o.limits.max_plan_length = max_plan_length;
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
            d["message"] = r.message;
            d["expanded"] = r.expanded;
            d["generated"] = r.generated;
            return d;
          },
          py::arg("max_expansions") = -1, py::arg("max_generated") = -1,
          py::arg("max_plan_length") = -1);

  // The papers' benchmark families (families.h), for sweeps.
  m.def(
      "family",
      [](const std::string& name, int32_t size, int32_t values) {
        auto make = [&]() -> Task {
          if (name == "western") return western();
          if (name == "western-pus") return western_pus();
          if (size < 1 || size > 4096) throw py::value_error("size in [1, 4096]");
          if (name == "multiprv-2-cycle") return multiprv_2_cycle(size);
          if (name == "oneprv-5") return oneprv_5(size);
          if (name == "multiprv-n-cycle") {
            if (values < 2 || values > 4096) throw py::value_error("values in [2, 4096]");
            return multiprv_n_cycle(size, values);
          }
          if (name == "goto-chain") return goap_goto_chain(size);
          throw py::value_error(
              "families: western, western-pus, multiprv-2-cycle, "
              "multiprv-n-cycle, oneprv-5, goto-chain");
        };
        return std::make_shared<Task>(make());
      },
      py::arg("name"), py::arg("size") = 1, py::arg("values") = 2,
      "A benchmark family's task (docs/domains.md): 'oneprv-5' and 'multiprv-2-cycle' of size m, "
      "'multiprv-n-cycle' (size m, values n), 'goto-chain' (n places), 'western', "
      "'western-pus'.");

  // Simulations (docs/sim.md): one episode of the wizard arena of Sloan (2015), ch. 6.
  m.def(
      "simulate",
      [](const std::string& path, const std::string& selector, uint64_t seed) {
        const sim::SimScenario s = unwrap(sim::load_sim_scenario(path));
        sim::SelectorKind kind = sim::SelectorKind::kUdgoap;
        if (selector == "fsm")
          kind = sim::SelectorKind::kFsm;
        else if (selector == "goap")
          kind = sim::SelectorKind::kGoap;
        else if (selector != "udgoap")
          throw py::value_error("selector: fsm, goap or udgoap");
        py::dict d;
        if (s.kind == sim::ScenarioKind::kHouse) {
          // The Sims house of Sloan (2015), ch. 5: deterministic, no seed.
          const sim::HouseConfig& c = s.house;
          if (kind == sim::SelectorKind::kFsm)
            throw py::value_error("the house has no FSM selector (GOAP and UDGOAP only)");
          if (kind == sim::SelectorKind::kUdgoap && !c.has_udgoap)
            throw py::value_error(path + ": the scenario has no UDGOAP world");
          sim::HouseRun r;
          {
            py::gil_scoped_release release;  // the run reads only its own copy of the scenario
            r = sim::run_house(c, kind);
          }
          py::dict drives;
          for (size_t i = 0; i < c.drives.size() && i < r.final_drives.size(); ++i)
            drives[py::str(c.drives[i])] = r.final_drives[i];
          py::list steps;
          for (const sim::HouseRecord& h : r.steps) {
            const bool go = h.action < 0;
            const auto i = static_cast<size_t>(go ? h.target : h.action);
            const std::string what = go ? (i < c.spots.size() ? "goto_" + c.spots[i].name : "goto")
                                        : (i < c.activities.size() ? c.activities[i].name : "?");
            steps.append(py::make_tuple(h.t, what, h.done));
          }
          d["kind"] = "house";
          d["time"] = r.time;
          d["reached"] = r.reached;
          d["ticks"] = r.ticks;
          d["final_drives"] = drives;
          d["steps"] = steps;
          d["decisions"] = r.counters.decisions;
          d["plans"] = r.counters.plans;
          d["plan_failures"] = r.counters.plan_failures;
          return d;
        }
        if (s.kind != sim::ScenarioKind::kArena)
          throw py::value_error(path + ": only arena and house scenarios can be simulated here");
        if (kind == sim::SelectorKind::kUdgoap && !s.arena.has_udgoap)
          throw py::value_error(path + ": the scenario has no UDGOAP template (selector udgoap)");
        sim::ArenaEpisode e;
        {
          py::gil_scoped_release release;  // the episode reads only its own copy of the scenario
          e = sim::run_arena_episode(s.arena, kind, seed);
        }
        d["kind"] = "arena";
        d["lifespan"] = e.lifespan;
        d["censored"] = e.censored;
        d["ticks"] = e.ticks;
        d["kills"] = e.kills;
        d["spawned"] = e.spawned;
        d["potions_taken"] = e.potions_taken;
        d["decisions"] = e.counters.decisions;
        d["steps_done"] = e.counters.steps_done;
        d["steps_failed"] = e.counters.steps_failed;
        d["plans"] = e.counters.plans;
        d["plan_failures"] = e.counters.plan_failures;
        return d;
      },
      py::arg("path"), py::arg("selector") = "udgoap", py::arg("seed") = 1,
      "Runs one episode of a simulation scenario (domains/sim/*.toml): the wizard arena with the "
      "FSM, GOAP or UDGOAP selector (the same seed gives the same episode), or the Sims house "
      "with GOAP or UDGOAP (deterministic).");

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
