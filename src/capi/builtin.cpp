// The C API: the built-in tasks (the benchmark towns' domains of topoplan::tools). Part of the
// research library, libtopoplan_c_research: a game loads its own domains.
#include "internal.h"

#include <cstdint>
#include "topoplan/tools/town.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

// ------------------------------------------------------------------------------------------------
// Built-in tasks

int32_t topoplan_num_builtin_tasks(void) {
  return static_cast<int32_t>(town_names().size());
}

const char* topoplan_builtin_task_name(int32_t index) {
  const auto* name = at_index(town_names(), index);
  return name == nullptr ? nullptr : name->data();  // string literals: NUL-terminated
}

topoplan_status topoplan_task_builtin(const char* name, topoplan_task** out, char* error,
                                      size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (name == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "name is NULL", error, error_size);
    Result<Task> t = town_task(name);
    if (!t) return fail(TOPOPLAN_NOT_FOUND, t.error().to_string(), error, error_size);
    *out = new topoplan_task{std::move(t).value()};
    return ok(error, error_size);
  });
}
