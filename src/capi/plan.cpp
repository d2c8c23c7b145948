// The C API: planning by planner name and the validator.
#include "internal.h"

#include <vector>
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/validate.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

// ------------------------------------------------------------------------------------------------
// Planning by name

int32_t topoplan_num_planners(void) {
  return static_cast<int32_t>(planners().size());
}

// The registry's names and descriptions are string literals: NUL-terminated.
const char* topoplan_planner_name(int32_t index) {
  const auto* p = at_index(planners(), index);
  return p == nullptr ? nullptr : p->name.data();
}

const char* topoplan_planner_description(int32_t index) {
  const auto* p = at_index(planners(), index);
  return p == nullptr ? nullptr : p->description.data();
}

void topoplan_plan_options_init(topoplan_plan_options* options) {
  if (options == nullptr) return;
  const PlannerOptions defaults;
  options->max_expansions = defaults.limits.max_expansions;
  options->max_memory_bytes = defaults.limits.max_memory_bytes;
  options->max_seconds = defaults.limits.max_seconds;
  options->objective = defaults.objective == Objective::kLength ? TOPOPLAN_OBJECTIVE_LENGTH
                                                                : TOPOPLAN_OBJECTIVE_COST;
  options->reserved = 0;
}

topoplan_status topoplan_plan(const topoplan_task* task, const char* planner,
                              const topoplan_problem* problem, const topoplan_plan_options* options,
                              int32_t* actions, int32_t capacity, topoplan_plan_stats* stats,
                              char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (stats != nullptr) *stats = topoplan_plan_stats{};
    if (task == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "task is NULL", error, error_size);
    if (capacity < 0 || (actions == nullptr && capacity > 0))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "actions: NULL or negative capacity", error,
                  error_size);
    const std::string_view name = planner == nullptr ? "auto" : planner;
    const PlannerInfo* info = find_planner(name);
    if (info == nullptr)
      return fail(TOPOPLAN_NOT_FOUND, "no planner called '" + std::string(name) + "'", error,
                  error_size);
    Instance inst;
    if (auto why = to_instance(task->task.domain, problem, inst))
      return fail(TOPOPLAN_INVALID_ARGUMENT, *why, error, error_size);
    PlannerOptions po;
    if (options != nullptr) {
      if (options->objective != TOPOPLAN_OBJECTIVE_COST &&
          options->objective != TOPOPLAN_OBJECTIVE_LENGTH)
        return fail(TOPOPLAN_INVALID_ARGUMENT,
                    "options: 'objective' must be TOPOPLAN_OBJECTIVE_COST or "
                    "TOPOPLAN_OBJECTIVE_LENGTH, found " +
                        std::to_string(static_cast<int64_t>(options->objective)),
                    error, error_size);
      // The table of limits (limits.h): bad input, not a planner that cannot run.
      for (const auto& [spec, value] :
           {std::pair{&limits::kMaxExpansions, static_cast<double>(options->max_expansions)},
            std::pair{&limits::kMaxMemoryBytes, static_cast<double>(options->max_memory_bytes)},
            std::pair{&limits::kMaxSeconds, options->max_seconds}})
        if (auto e = check_limit(*spec, value, "options"))
          return fail(TOPOPLAN_INVALID_ARGUMENT, e->message, error, error_size);
      po.limits.max_expansions = options->max_expansions;
      po.limits.max_memory_bytes = options->max_memory_bytes;
      po.limits.max_seconds = options->max_seconds;
      if (name == "auto") po.auto_limits = po.limits;  // the limits bound auto's A* stage
      po.objective =
          options->objective == TOPOPLAN_OBJECTIVE_LENGTH ? Objective::kLength : Objective::kCost;
    }
    const PlanResult r = info->plan(task->task.domain, inst, po);
    const auto length = static_cast<int32_t>(r.actions.size());
    if (stats != nullptr) {
      stats->cost = r.cost;
      stats->length = length;
      stats->expanded = r.stats.expanded;
      stats->generated = r.stats.generated;
      stats->seconds = r.stats.seconds;
      copy_text(r.stats.engine, stats->engine, sizeof stats->engine);
    }
    if (r.status != PlanStatus::kSolved)
      return fail(from_plan_status(r.status), limit_words_for(r.message, LimitDoor::kC), error,
                  error_size);
    if (length > capacity)
      return fail(TOPOPLAN_BUFFER_TOO_SMALL,
                  "the plan has " + std::to_string(length) + " actions, the buffer " +
                      std::to_string(capacity),
                  error, error_size);
    std::copy(r.actions.begin(), r.actions.end(), actions);
    return ok(error, error_size);
  });
}

topoplan_status topoplan_validate(const topoplan_task* task, const topoplan_problem* problem,
                                  const int32_t* actions, int32_t length, int32_t* failed_step,
                                  int64_t* cost, char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (task == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "task is NULL", error, error_size);
    if (length < 0 || (actions == nullptr && length > 0))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "actions: NULL or negative length", error, error_size);
    Instance inst;
    if (auto why = to_instance(task->task.domain, problem, inst))
      return fail(TOPOPLAN_INVALID_ARGUMENT, *why, error, error_size);
    const Domain& d = task->task.domain;
    for (int32_t i = 0; i < length; ++i)
      if (actions[i] < 0 || actions[i] >= d.num_actions())
        return fail(TOPOPLAN_INVALID_ARGUMENT,
                    "step " + std::to_string(i + 1) + ": action id " + std::to_string(actions[i]) +
                        " out of range",
                    error, error_size);
    const Validation v =
        validate_plan(d, inst, std::span<const ActionId>(actions, static_cast<size_t>(length)));
    if (failed_step != nullptr) *failed_step = v.failed_step;
    if (cost != nullptr) *cost = v.cost;
    if (!v.valid) return fail(TOPOPLAN_INVALID_PLAN, v.reason, error, error_size);
    return ok(error, error_size);
  });
}
