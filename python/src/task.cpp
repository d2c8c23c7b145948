// The bindings of Instance and Task: dicts and files to tasks and back, names, instances, and
// the papers' benchmark families (bindings.h).
#include "bindings.h"

#include <optional>

#include "topoplan/io/formats.h"
#include "topoplan/tools/families.h"

namespace topoplan_py {
namespace {

// ---------------------------------------------------------------------------------------------
// Dicts ↔ DomainDef / Instance, by names.

// A dict, or InputError naming `where` (not pybind11's "Unable to cast").
py::dict dict_arg(const py::handle& h, const std::string& where) {
  if (!py::isinstance<py::dict>(h))
    throw InputError(where + ": expected a dict, got " +
                     py::str(py::type::of(h).attr("__name__")).cast<std::string>());
  return py::reinterpret_borrow<py::dict>(h);
}

// A list or tuple (a str is not a list of its characters), or InputError naming `where`.
py::list list_arg(const py::handle& h, const std::string& where) {
  if (!py::isinstance<py::list>(h) && !py::isinstance<py::tuple>(h))
    throw InputError(where + ": expected a list, got " +
                     py::str(py::type::of(h).attr("__name__")).cast<std::string>());
  return py::list(py::reinterpret_borrow<py::object>(h));
}

// The keys of a dict form are exact: a misspelled key is an error (formats.md), never dropped.
void check_keys(const py::dict& d, std::initializer_list<const char*> allowed,
                const std::string& where) {
  for (auto [k, v] : d) {
    (void)v;
    const std::string key = str_of(k, (where + ": key").c_str());
    bool known = false;
    for (const char* a : allowed) known |= key == a;
    if (known) continue;
    std::string list;
    for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
    throw InputError(where + ": unknown key '" + key + "' (expected " + list + ")");
  }
}

// An action cost: an int (not a bool, not a float) in [0, kMaxCost].
int64_t cost_arg(const py::handle& h, const std::string& where) {
  if (!py::isinstance<py::int_>(h) || py::isinstance<py::bool_>(h))
    throw InputError(where + ": 'cost' must be an integer, got " +
                     py::str(py::type::of(h).attr("__name__")).cast<std::string>());
  const auto big = py::reinterpret_borrow<py::int_>(h);
  if (big < py::int_(0) || big > py::int_(kMaxCost))
    throw InputError(where + ": 'cost' must be in [0, " + std::to_string(kMaxCost) + "], found " +
                     py::str(h).cast<std::string>());
  return big.cast<int64_t>();
}

// A value of variable v given by name or by id.
ValueId value_of(const DomainDef& def, VarId v, const py::handle& h, const std::string& where) {
  const VariableDef& var = def.variables[static_cast<size_t>(v)];
  if (py::isinstance<py::bool_>(h))
    throw InputError(where + ": value of " + var.name + " must be a name or an id, got a bool");
  if (py::isinstance<py::int_>(h)) {
    const auto x = py::reinterpret_borrow<py::int_>(h);
    if (x < py::int_(0) || x >= py::int_(var.values.size()))
      throw InputError(where + ": value " + py::str(h).cast<std::string>() + " of " + var.name +
                       " out of range");
    return x.cast<ValueId>();
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
  const py::list seq = list_arg(h, where);
  if (seq.size() != def.variables.size())
    throw InputError(where + ": expected " + std::to_string(def.variables.size()) + " values");
  for (size_t v = 0; v < seq.size(); ++v) {
    py::handle x = seq[v];
    if (x.is_none() || (py::isinstance<py::int_>(x) && !py::isinstance<py::bool_>(x) &&
                        py::reinterpret_borrow<py::int_>(x).equal(py::int_(kUndefined))))
      continue;
    s[v] = value_of(def, static_cast<VarId>(v), x, where);
  }
  return s;
}

// The files' rule: a goal names at least one variable (an empty goal is not written).
void check_goal_not_empty(const std::vector<ValueId>& goal, const std::string& where) {
  for (const ValueId x : goal)
    if (x != kUndefined) return;
  throw InputError(where + ": the goal is empty (give at least one variable)");
}

// The `format` argument of load_task / parse_task.
FileFormat format_of(const std::string& format) {
  if (format == "native") return FileFormat::kNative;
  if (format == "sas") return FileFormat::kFastDownward;
  if (format != "auto") throw py::value_error("format: auto, native or sas");
  return FileFormat::kAuto;
}

py::object get(const py::dict& d, const char* key) {
  return d.contains(key) ? py::object(d[key]) : py::object(py::none());
}

// The dict form (python/topoplan/__init__.py documents it; Task.to_dict() writes it).
Task task_from_dict(const py::dict& d) {
  DomainDef def;
  check_keys(d, {"name", "variables", "actions", "classes", "instances"}, "task");
  def.name = d.contains("name") ? str_of(d["name"], "name") : "domain";
  auto items = [&](const char* key) {
    return get(d, key).is_none() ? py::list() : list_arg(d[key], key);
  };
  auto required = [](const py::dict& x, const char* key, const std::string& where) {
    if (!x.contains(key)) throw InputError(where + ": missing key '" + key + "'");
    return py::object(x[key]);
  };
  for (py::handle vh : items("variables")) {
    const py::dict v = dict_arg(vh, "variables");
    check_keys(v, {"name", "values"}, "variables");
    VariableDef var;
    var.name = str_of(required(v, "name", "variables"), "variables: name");
    const std::string where = "variable " + var.name;
    for (py::handle x : list_arg(required(v, "values", where), where + ": values"))
      var.values.push_back(str_of(x, (where + ": values").c_str()));
    def.variables.push_back(std::move(var));
  }
  for (py::handle ah : items("actions")) {
    const py::dict a = dict_arg(ah, "actions");
    ActionDef act;
    act.name = str_of(required(a, "name", "actions"), "actions: name");
    const std::string where = "action " + act.name;
    check_keys(a, {"name", "cost", "pre", "post", "prevail"}, where);
    if (a.contains("cost")) act.cost = cost_arg(a["cost"], where);
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
  for (py::handle ch : items("classes")) {
    const py::dict c = dict_arg(ch, "classes");
    check_keys(c, {"name", "actions"}, "classes");
    NpcClassDef cls;
    cls.name = str_of(required(c, "name", "classes"), "classes: name");
    for (py::handle x :
         list_arg(required(c, "actions", "class " + cls.name), "class " + cls.name + ": actions")) {
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
  for (py::handle ih : items("instances")) {
    const py::dict i = dict_arg(ih, "instances");
    Instance inst;
    inst.name = i.contains("name") ? str_of(i["name"], "instances: name") : "";
    const std::string where = "instance " + inst.name;
    check_keys(i, {"name", "init", "goal", "class"}, where);
    inst.init = state_of(def, get(i, "init"), where + ": init");
    inst.goal = state_of(def, get(i, "goal"), where + ": goal");
    check_goal_not_empty(inst.goal, where);
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

// Every value a value of its variable (or undefined): ValueError naming the first that is not.
void check_state(const Domain& d, const std::vector<ValueId>& s, const char* what) {
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = s[static_cast<size_t>(v)];
    if (x != kUndefined && (x < 0 || x >= d.domain_size(v)))
      throw py::value_error(std::string(what) + "[" + std::to_string(v) +
                            "] = " + std::to_string(x) + ": variable '" + d.variable_name(v) +
                            "' has values 0.." + std::to_string(d.domain_size(v) - 1) +
                            " (or -1: undefined)");
  }
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

}  // namespace

std::string str_of(const py::handle& h, const char* what) {
  if (!py::isinstance<py::str>(h)) throw InputError(std::string(what) + ": expected a string");
  return h.cast<std::string>();
}

ClassId class_of(const Domain& d, const py::object& npc_class) {
  if (npc_class.is_none()) return kAllActions;
  if (py::isinstance<py::int_>(npc_class)) {
    const auto c = npc_class.cast<int64_t>();
    if (c != kAllActions && (c < 0 || c >= d.num_classes()))
      throw py::index_error("npc_class out of range");
    return static_cast<ClassId>(c);
  }
  const auto found = d.find_class(str_of(npc_class, "npc_class"));
  if (!found) throw py::key_error("no class '" + npc_class.cast<std::string>() + "'");
  return *found;
}

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

namespace {

// Instance: a task's initial state, goal and NPC class.
void bind_instance(py::module_& m) {
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
}

// Task: a compiled domain with its instances, names and states.
void bind_task_class(py::module_& m) {
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
                               return names_of(t.domain.num_variables(), [&](int64_t i) {
                                 return t.domain.variable_name(static_cast<VarId>(i));
                               });
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
                               return names_of(t.domain.num_actions(), [&](int64_t a) {
                                 return t.domain.action_name(static_cast<ActionId>(a));
                               });
                             })
      .def_property_readonly("classes",
                             [](const Task& t) {
                               return names_of(t.domain.num_classes(), [&](int64_t c) {
                                 return t.domain.class_name(static_cast<ClassId>(c));
                               });
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
            check_goal_not_empty(inst.goal, "goal");
            inst.npc_class = class_of(t.domain, npc_class);
            if (auto e = t.domain.check_instance(inst)) throw py::value_error(e->to_string());
            return inst;
          },
          py::arg("init"), py::arg("goal"), py::arg("npc_class") = py::none(), py::arg("name") = "")
      .def("state_dict", [](const Task& t, const std::vector<ValueId>& s) {
        if (s.size() != static_cast<size_t>(t.domain.num_variables()))
          throw py::value_error("state: expected one value per variable (" +
                                std::to_string(t.domain.num_variables()) + "), got " +
                                std::to_string(s.size()));
        check_state(t.domain, s, "state");
        return state_dict(t.domain, s);
      });
}

// Tasks from files, from text and from the benchmark families.
void bind_task_readers(py::module_& m) {
  m.def(
      "load_task",
      [](const std::string& path, const std::string& format) {
        return std::make_shared<Task>(unwrap(load_task(path, format_of(format))));
      },
      py::arg("path"), py::arg("format") = "auto");
  m.def(
      "parse_task",
      [](const std::string& text, const std::string& filename, const std::string& format) {
        const FileFormat f = format_of(format);
        const bool sas =
            f == FileFormat::kFastDownward ||
            (f == FileFormat::kAuto && text.find("begin_version") != std::string::npos &&
             text.find("[domain]") == std::string::npos);
        return std::make_shared<Task>(
            unwrap(sas ? parse_fd_sas(text, filename) : parse_native(text, filename)));
      },
      py::arg("text"), py::arg("filename") = "<text>", py::arg("format") = "auto");

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
}

}  // namespace

void bind_task(py::module_& m) {
  bind_instance(m);
  bind_task_class(m);
  bind_task_readers(m);
}

}  // namespace topoplan_py
