// Shared by the C API's sources (src/capi/*.cpp): the handles behind the C names of
// include/topoplan/c/topoplan_c.h and the helpers every entry point uses. Every entry point catches
// everything (an exception must never unwind into C), checks its pointers and sizes (the C++ API
// asserts on programmer errors; a C caller gets TOPOPLAN_INVALID_ARGUMENT instead), and copies
// messages into the caller's buffer.
#pragma once

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>

#include "topoplan/c/topoplan_c.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/topo.h"

// The handles. They are plain C++ objects behind the C names (the sim, town, analysis and UDGOAP
// handles are defined in their own sources).
struct topoplan_task {
  topoplan::Task task;
};
struct topoplan_topo {
  const topoplan_task* task;
  topoplan::TopoPlanner planner;
};
struct topoplan_scratch {
  const topoplan_topo* owner;
  topoplan::TopoScratch scratch;
  topoplan::PlanOutcome last{};  // the last topoplan_topo_plan's outcome (topoplan_topo_explain)
};
struct topoplan_crowd_planner {
  const topoplan_task* task;
  topoplan::CrowdPlanner planner;
};

namespace topoplan::capi {

inline void copy_text(std::string_view text, char* buffer, size_t size) {
  if (buffer == nullptr || size == 0) return;
  const size_t n = std::min(text.size(), size - 1);
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

// Writes `text` to the error buffer and returns `status`.
inline topoplan_status fail(topoplan_status status, std::string_view text, char* error,
                            size_t size) {
  copy_text(text, error, size);
  return status;
}

inline topoplan_status ok(char* error, size_t size) {
  copy_text("", error, size);
  return TOPOPLAN_OK;
}

// Runs `body` (which returns a status), turning exceptions into statuses.
template <class F>
topoplan_status guarded(char* error, size_t size, F&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return fail(TOPOPLAN_OUT_OF_MEMORY, "out of memory", error, size);
  } catch (const std::exception& e) {
    return fail(TOPOPLAN_INTERNAL_ERROR, std::string("internal error: ") + e.what(), error, size);
  } catch (...) {
    return fail(TOPOPLAN_INTERNAL_ERROR, "internal error", error, size);
  }
}

// The body of a call that creates an object into *out: a NULL `out` is refused, *out is cleared
// before `body` runs (so a failure leaves NULL), and exceptions become statuses as in guarded.
template <class T, class F>
topoplan_status creating(T** out, char* error, size_t size, F&& body) noexcept {
  return guarded(error, size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, size);
    *out = nullptr;
    return body();
  });
}

// The C status of a plan: the one mapping of PlanStatus, and of a PlanOutcome (bad input is the
// caller's argument: TOPOPLAN_INVALID_ARGUMENT).
topoplan_status from_plan_status(PlanStatus s);
topoplan_status from_outcome(const PlanOutcome& outcome);

// An Instance from a C problem, checked against the domain; the reason when it does not fit.
std::optional<std::string> to_instance(const Domain& d, const topoplan_problem* p, Instance& out);

inline bool valid_class(const Domain& d, int32_t c) {
  return c == kAllActions || (c >= 0 && c < d.num_classes());
}

// Element `index` of `list` (nullptr when out of range), for the calls that list by index.
template <class List>
auto* at_index(const List& list, int32_t index) {
  return index < 0 || static_cast<size_t>(index) >= list.size() ? nullptr
                                                                : &list[static_cast<size_t>(index)];
}

// A C state of n values checked against the domain: one value in range per variable;
// `partial` (a goal) also allows kUndefined.
inline bool state_fits(const Domain& d, const int32_t* s, int32_t n, bool partial) {
  if (s == nullptr || n != d.num_variables()) return false;
  for (VarId v = 0; v < n; ++v)
    if (!((s[v] >= 0 && s[v] < d.domain_size(v)) || (partial && s[v] == kUndefined))) return false;
  return true;
}

// Copies `text` and its NUL into buffer[0, capacity); *size = bytes needed including the NUL.
topoplan_status write_text(std::string_view text, char* buffer, size_t capacity, size_t* size);

}  // namespace topoplan::capi
