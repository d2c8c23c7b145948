// topoplan._topoplan — what the binding files share (not installed): the exception for bad
// input, Result unwrapping, the argument helpers that every concept's bindings use, and one
// bind_*() per concept. module.cpp defines the module and calls them in order:
//   task.cpp    Instance, Task (dicts, files, names), the benchmark families
//   plan.cpp    the registry's planners, validation, the class analysis, ℙ's hot TopoPlanner
//   prepared.cpp  a prepared planner by name (Planner)
//   crowd.cpp   CrowdPlanner, PlanCache, Crowd (NumPy batches, the GIL released)
//   udgoap.cpp  UDGOAP worlds and agents, scenario files
//   sim.cpp     one episode of a simulation scenario
//   agents.cpp  AgentWorld (the agent runtime; NumPy events), the engines' small calls
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"

namespace py = pybind11;

namespace topoplan_py {

using namespace topoplan;  // NOLINT(google-build-using-namespace)

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

// A required object argument: pybind11 turns None into an empty holder, which the binding must
// refuse (TypeError naming the argument) before it reaches through it.
template <class T>
const std::shared_ptr<T>& required(const std::shared_ptr<T>& p, const char* what) {
  if (!p) throw py::type_error(std::string(what) + " must not be None");
  return p;
}

// A str argument, or InputError naming `what`.
std::string str_of(const py::handle& h, const char* what);

// An NPC class argument: None (every action), an id (kAllActions or in range, else IndexError)
// or a class name (else KeyError).
ClassId class_of(const Domain& d, const py::object& npc_class);

// An instance argument: None (the first), an index, a name, an Instance.
Instance resolve_instance(const Task& t, const py::object& which);

// The names of `count` things (variables, actions, classes, entities), by `name(i)`.
template <class Name>
std::vector<std::string> names_of(int64_t count, Name name) {
  std::vector<std::string> out;
  out.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) out.push_back(name(i));
  return out;
}

// A limit argument: -1 keeps the default in `field`, a value >= 0 replaces it.
template <class T, class U>
void set_limit(T& field, U value) {
  if (value >= 0) field = static_cast<T>(value);
}

// Result structs as dicts, one helper for every binding: put_fields(d, s, "key", &S::member,
// ...) sets d[key] = s.member for each (key, member pointer) pair, in order (a dict keeps it);
// dict_of(s, ...) does it into a new dict.
template <class S>
void put_fields(py::dict&, const S&) {}
template <class S, class M, class... Rest>
void put_fields(py::dict& d, const S& s, const char* key, M S::*member, const Rest&... rest) {
  d[key] = s.*member;
  put_fields(d, s, rest...);
}
template <class S, class... Fields>
py::dict dict_of(const S& s, const Fields&... fields) {
  py::dict d;
  put_fields(d, s, fields...);
  return d;
}

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

void bind_task(py::module_& m);
void bind_plan(py::module_& m);
void bind_prepared(py::module_& m);
void bind_crowd(py::module_& m);
void bind_udgoap(py::module_& m);
void bind_sim(py::module_& m);
void bind_agents(py::module_& m);

}  // namespace topoplan_py
