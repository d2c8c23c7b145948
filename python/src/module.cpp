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
//
// One file per concept (bindings.h lists them); this one defines the module.
#include "bindings.h"

PYBIND11_MODULE(_topoplan, m) {
  m.doc() = "topoplan: real-time action planning for game NPCs (C++ core, pybind11 bindings)";
  m.attr("__version__") = TOPOPLAN_VERSION_STRING;
  py::register_exception<topoplan_py::InputError>(m, "InputError", PyExc_ValueError);
  topoplan_py::bind_task(m);
  topoplan_py::bind_plan(m);
  topoplan_py::bind_prepared(m);
  topoplan_py::bind_crowd(m);
  topoplan_py::bind_udgoap(m);
  topoplan_py::bind_sim(m);
  topoplan_py::bind_agents(m);
}
