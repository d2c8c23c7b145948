// The Python AgentWorld (agents.cpp, agents_drives.cpp, agents_frame.cpp): its state, and the
// argument checks its bindings share. Every check raises IndexError, ValueError or TypeError
// naming the argument.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/crowd.h"

namespace topoplan_py {

using agents::AgentWorld;
using agents::AgentWorldDef;
using agents::Event;

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

using AgentWorldClass = py::class_<PyAgentWorld, std::shared_ptr<PyAgentWorld>>;

// The NumPy dtype of agents::Event (EVENT_DTYPE).
py::dtype event_dtype();

void check_agent(PyAgentWorld& p, int64_t agent, const char* what = "agent");
// An integer argument (a Python or NumPy integer, never a bool) as int64.
int64_t index_arg(const py::handle& h, const std::string& what);

// One of `count` things (variables, actions, drives) by name — KeyError "no NOUN 'x'" when none
// has it — or by index — IndexError "ARG i out of range (count NOUNs)" outside [0, count).
template <class Name>
int32_t name_or_index_arg(const py::handle& h, const char* arg, const char* noun, int32_t count,
                          Name name) {
  if (py::isinstance<py::str>(h)) {
    const auto wanted = h.cast<std::string>();
    for (int32_t k = 0; k < count; ++k)
      if (name(k) == wanted) return k;
    throw py::key_error(std::string("no ") + noun + " '" + wanted + "'");
  }
  const int64_t k = index_arg(h, arg);
  if (k < 0 || k >= count)
    throw py::index_error(std::string(arg) + " " + std::to_string(k) + " out of range (" +
                          std::to_string(count) + " " + noun + "s)");
  return static_cast<int32_t>(k);
}
VarId var_arg(const Domain& d, const py::handle& h);
ValueId value_arg(const Domain& d, VarId v, const py::handle& h, bool partial);
// A state (total) or a goal (partial: -1 or absent = free).
std::vector<ValueId> values_arg(const Domain& d, const py::handle& h, const char* what,
                                bool partial);
ActionId action_arg(const Domain& d, const py::handle& h);
// An NPC class by name or id; a domain without classes has one, 0.
int32_t class_arg(const Domain& d, const py::object& h);
// Agents as an int32 array (or one int), each in range.
CArray<int32_t> agents_arg(PyAgentWorld& p, const py::handle& h);

// The groups of AgentWorld's methods that live in their own files.
void bind_agent_drives(AgentWorldClass& cls);    // agents_drives.cpp
void bind_agent_senses(AgentWorldClass& cls);    // agents_frame.cpp
void bind_agent_frame(AgentWorldClass& cls);     // agents_frame.cpp
void bind_agent_readers(AgentWorldClass& cls);   // agents_frame.cpp
void bind_agent_describe(AgentWorldClass& cls);  // agents_frame.cpp

}  // namespace topoplan_py
