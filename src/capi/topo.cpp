// The C API: ℙ (TopoPlan) on the hot path.
#include "internal.h"

#include <span>

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

// ------------------------------------------------------------------------------------------------
// ℙ on the hot path

topoplan_status topoplan_topo_create(const topoplan_task* task, int32_t npc_class,
                                     topoplan_topo** out, char* error, size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (task == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "task is NULL", error, error_size);
    if (!valid_class(task->task.domain, npc_class))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "npc_class out of range", error, error_size);
    Result<TopoPlanner> p = TopoPlanner::create(task->task.domain, npc_class);
    if (!p) return fail(TOPOPLAN_UNSUPPORTED, p.error().to_string(), error, error_size);
    *out = new topoplan_topo{task, std::move(p).value()};
    return ok(error, error_size);
  });
}

void topoplan_topo_free(topoplan_topo* topo) {
  delete topo;
}

int32_t topoplan_topo_max_plan_length(const topoplan_topo* topo) {
  return topo == nullptr ? -1 : topo->planner.max_plan_length();
}

topoplan_status topoplan_scratch_create(const topoplan_topo* topo, topoplan_scratch** out) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    *out = nullptr;
    if (topo == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    *out = new topoplan_scratch{topo, topo->planner.make_scratch()};
    return TOPOPLAN_OK;
  });
}

void topoplan_scratch_free(topoplan_scratch* scratch) {
  delete scratch;
}

topoplan_status topoplan_topo_plan(const topoplan_topo* topo, topoplan_scratch* scratch,
                                   const int32_t* init, const int32_t* goal, int32_t num_variables,
                                   int32_t* actions, int32_t capacity, int32_t* length) {
  if (topo == nullptr || scratch == nullptr || scratch->owner != topo || init == nullptr ||
      goal == nullptr || length == nullptr || capacity < 0 ||
      (actions == nullptr && capacity > 0) ||
      num_variables != topo->planner.domain().num_variables())
    return TOPOPLAN_INVALID_ARGUMENT;
  const auto n = static_cast<size_t>(num_variables);
  scratch->last = topo->planner.plan(
      scratch->scratch, std::span<const ValueId>(init, n), std::span<const ValueId>(goal, n),
      std::span<ActionId>(actions, static_cast<size_t>(capacity)), length);
  return from_outcome(scratch->last);
}

topoplan_status topoplan_topo_explain(const topoplan_topo* topo, const topoplan_scratch* scratch,
                                      char* text, size_t text_size) {
  return guarded(text, text_size, [&]() -> topoplan_status {
    if (topo == nullptr || scratch == nullptr || scratch->owner != topo)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "topo/scratch NULL or mismatched", text, text_size);
    copy_text(topo->planner.explain(scratch->last), text, text_size);
    return TOPOPLAN_OK;
  });
}
