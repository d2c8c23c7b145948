// The C API: a prepared planner by name (the HotPlanner contract, planner.h).
#include <memory>
#include <span>
#include <string>

#include "internal.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

struct topoplan_planner {
  const topoplan_task* task;
  CompiledActionSet set;
  std::unique_ptr<HotPlanner> planner;
  std::unique_ptr<PlanScratch> scratch;
  PlanOutcome last;
  std::string answered_by;  // a registry name: short, no allocation when it changes
  bool planned = false;
};

// The definitions below take C linkage from their declarations in topoplan_c.h.

topoplan_status topoplan_planner_create(const topoplan_task* task, const char* name,
                                        int32_t npc_class, topoplan_planner** out, char* error,
                                        size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (task == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "task is NULL", error, error_size);
    if (name == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "name is NULL", error, error_size);
    const Domain& domain = task->task.domain;
    if (!valid_class(domain, npc_class))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "npc_class out of range", error, error_size);
    const PlannerInfo* info = find_planner(name);
    if (info == nullptr)
      return fail(TOPOPLAN_NOT_FOUND, "name: no planner '" + std::string(name) + "'", error,
                  error_size);
    Result<CompiledActionSet> set = CompiledActionSet::create(domain, npc_class);
    if (!set) return fail(TOPOPLAN_INVALID_ARGUMENT, set.error().to_string(), error, error_size);
    Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(name, set.value());
    if (!p) return fail(TOPOPLAN_UNSUPPORTED, p.error().to_string(), error, error_size);
    auto handle = std::make_unique<topoplan_planner>();
    handle->task = task;
    handle->set = std::move(set).value();
    handle->planner = std::move(p).value();
    handle->scratch = handle->planner->make_scratch();
    handle->answered_by.reserve(32);
    *out = handle.release();
    return ok(error, error_size);
  });
}

void topoplan_planner_free(topoplan_planner* planner) {
  delete planner;
}

int32_t topoplan_planner_max_plan_length(const topoplan_planner* planner) {
  return planner == nullptr ? -1 : planner->planner->max_plan_length();
}

topoplan_status topoplan_planner_plan_within(topoplan_planner* planner, const int32_t* init,
                                             const int32_t* goal, int32_t num_variables,
                                             int64_t max_expansions, int64_t max_memory_bytes,
                                             double max_seconds, int32_t* actions, int32_t capacity,
                                             int32_t* length) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (planner == nullptr || init == nullptr || goal == nullptr || length == nullptr ||
        capacity < 0 || (actions == nullptr && capacity > 0) ||
        num_variables != planner->task->task.domain.num_variables())
      return TOPOPLAN_INVALID_ARGUMENT;
    const SearchLimits limits{max_expansions, max_memory_bytes, max_seconds};
    if (!limits_in_range(limits)) return TOPOPLAN_INVALID_ARGUMENT;
    const auto n = static_cast<size_t>(num_variables);
    const PlanOutcome o = planner->planner->plan(
        *planner->scratch, std::span<const ValueId>(init, n), std::span<const ValueId>(goal, n),
        std::span<ActionId>(actions, static_cast<size_t>(capacity)), length, limits);
    planner->last = o;
    planner->planned = true;
    planner->answered_by = o.planner.empty() ? planner->planner->name() : o.planner;
    return from_outcome(o);
  });
}

topoplan_status topoplan_planner_plan(topoplan_planner* planner, const int32_t* init,
                                      const int32_t* goal, int32_t num_variables, int32_t* actions,
                                      int32_t capacity, int32_t* length) {
  const SearchLimits l = kAutoSearchLimits;
  return topoplan_planner_plan_within(planner, init, goal, num_variables, l.max_expansions,
                                      l.max_memory_bytes, l.max_seconds, actions, capacity, length);
}

const char* topoplan_planner_answered_by(const topoplan_planner* planner) {
  return planner == nullptr ? "" : planner->answered_by.c_str();
}

topoplan_status topoplan_planner_explain(const topoplan_planner* planner, char* text,
                                         size_t text_size) {
  return guarded(text, text_size, [&]() -> topoplan_status {
    if (planner == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner is NULL", text, text_size);
    if (!planner->planned) return fail(TOPOPLAN_OK, "no plan yet", text, text_size);
    copy_text(planner->planner->explain(*planner->scratch, planner->last), text, text_size);
    return TOPOPLAN_OK;
  });
}
