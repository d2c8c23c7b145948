// The C API (include/topoplan/topoplan.h) over the C++ library. Every entry point catches
// everything (an exception must never unwind into C), checks its pointers and sizes (the C++ API
// asserts on programmer errors; a C caller gets TOPOPLAN_INVALID_ARGUMENT instead), and copies
// messages into the caller's buffer.
#include "topoplan/topoplan.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/analysis.h"
#include "topoplan/crowd.h"
#include "topoplan/domain.h"
#include "topoplan/io.h"
#include "topoplan/plan.h"
#include "topoplan/topo.h"
#include "topoplan/udgoap/planner.h"
#include "topoplan/udgoap/scenario.h"
#include "topoplan/validate.h"

// The handles. They are plain C++ objects behind the C names.
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
};
struct topoplan_crowd_planner {
  const topoplan_task* task;
  topoplan::CrowdPlanner planner;
};
struct topoplan_plan_cache {
  const topoplan_crowd_planner* owner;
  std::unique_ptr<topoplan::PlanCache> cache;
};
struct topoplan_crowd {
  const topoplan_crowd_planner* owner;
  std::unique_ptr<topoplan::CrowdThreadPool> pool;  // the built-in pool (def.threads > 1)
  std::unique_ptr<topoplan::Crowd> crowd;
};
struct topoplan_udgoap_world {
  topoplan::udgoap::World world;
  topoplan::udgoap::UdgoapLimits limits;
};
struct topoplan_udgoap_agent {
  const topoplan_udgoap_world* owner;
  topoplan::udgoap::AgentState state;
};

namespace {

using namespace topoplan;

void copy_text(std::string_view text, char* buffer, size_t size) {
  if (buffer == nullptr || size == 0) return;
  const size_t n = std::min(text.size(), size - 1);
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

// Writes `text` to the error buffer and returns `status`.
topoplan_status fail(topoplan_status status, std::string_view text, char* error, size_t size) {
  copy_text(text, error, size);
  return status;
}

topoplan_status ok(char* error, size_t size) {
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

topoplan_status from_plan_status(PlanStatus s) {
  switch (s) {
    case PlanStatus::kSolved:
      return TOPOPLAN_OK;
    case PlanStatus::kUnsolvable:
      return TOPOPLAN_UNSOLVABLE;
    case PlanStatus::kLimitReached:
      return TOPOPLAN_LIMIT_REACHED;
    case PlanStatus::kGaveUp:
      return TOPOPLAN_GAVE_UP;
    case PlanStatus::kUnsupported:
      return TOPOPLAN_UNSUPPORTED;
  }
  return TOPOPLAN_INTERNAL_ERROR;
}

FileFormat to_format(int32_t format) {
  switch (format) {
    case TOPOPLAN_FORMAT_NATIVE:
      return FileFormat::kNative;
    case TOPOPLAN_FORMAT_SAS:
      return FileFormat::kFastDownward;
    default:
      return FileFormat::kAuto;
  }
}

bool valid_format(int32_t format) {
  return format == TOPOPLAN_FORMAT_AUTO || format == TOPOPLAN_FORMAT_NATIVE ||
         format == TOPOPLAN_FORMAT_SAS;
}

// Fast Downward text starts with "begin_version" after blank space.
bool looks_like_sas(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text.substr(first).starts_with("begin_version");
}

// An Instance from a C problem, checked against the domain.
std::optional<std::string> to_instance(const Domain& d, const topoplan_problem* p, Instance& out) {
  if (p == nullptr || p->init == nullptr || p->goal == nullptr) return "problem: NULL pointer";
  if (p->num_variables != d.num_variables())
    return "problem: num_variables is " + std::to_string(p->num_variables) + ", the domain has " +
           std::to_string(d.num_variables());
  out.init.assign(p->init, p->init + p->num_variables);
  out.goal.assign(p->goal, p->goal + p->num_variables);
  out.npc_class = p->npc_class;
  if (std::optional<Error> e = d.check_instance(out)) return e->to_string();
  return std::nullopt;
}

bool valid_class(const Domain& d, int32_t c) {
  return c == kAllActions || (c >= 0 && c < d.num_classes());
}

const char* name_or_null(const std::string* s) {
  return s == nullptr ? nullptr : s->c_str();
}

}  // namespace

// The definitions below take C linkage from their declarations in topoplan.h.

const char* topoplan_status_string(topoplan_status status) {
  switch (status) {
    case TOPOPLAN_OK:
      return "ok";
    case TOPOPLAN_UNSOLVABLE:
      return "unsolvable";
    case TOPOPLAN_LIMIT_REACHED:
      return "limit reached";
    case TOPOPLAN_GAVE_UP:
      return "gave up";
    case TOPOPLAN_UNSUPPORTED:
      return "unsupported";
    case TOPOPLAN_BUFFER_TOO_SMALL:
      return "buffer too small";
    case TOPOPLAN_INVALID_PLAN:
      return "invalid plan";
    case TOPOPLAN_NOT_FOUND:
      return "not found";
    case TOPOPLAN_INVALID_ARGUMENT:
      return "invalid argument";
    case TOPOPLAN_INPUT_ERROR:
      return "input error";
    case TOPOPLAN_OUT_OF_MEMORY:
      return "out of memory";
    case TOPOPLAN_INTERNAL_ERROR:
      return "internal error";
    default:
      return "unknown status";
  }
}

uint32_t topoplan_c_abi_version(void) {
  return TOPOPLAN_C_ABI_VERSION;
}

const char* topoplan_version(void) {
  return TOPOPLAN_VERSION_STRING;
}

// ------------------------------------------------------------------------------------------------
// Tasks

topoplan_status topoplan_task_load(const char* path, int32_t format, topoplan_task** out,
                                   char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
    if (path == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "path is NULL", error, error_size);
    if (!valid_format(format))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "unknown format", error, error_size);
    Result<Task> t = load_task(path, to_format(format));
    if (!t) return fail(TOPOPLAN_INPUT_ERROR, t.error().to_string(), error, error_size);
    *out = new topoplan_task{std::move(t).value()};
    return ok(error, error_size);
  });
}

topoplan_status topoplan_task_parse(const char* text, size_t size, int32_t format,
                                    const char* filename, topoplan_task** out, char* error,
                                    size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
    if (text == nullptr && size > 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "text is NULL", error, error_size);
    if (!valid_format(format))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "unknown format", error, error_size);
    const std::string_view body(text == nullptr ? "" : text, size);
    const std::string name = filename == nullptr ? "<text>" : filename;
    const bool sas =
        format == TOPOPLAN_FORMAT_SAS || (format == TOPOPLAN_FORMAT_AUTO && looks_like_sas(body));
    Result<Task> t = sas ? parse_fd_sas(body, name) : parse_native(body, name);
    if (!t) return fail(TOPOPLAN_INPUT_ERROR, t.error().to_string(), error, error_size);
    *out = new topoplan_task{std::move(t).value()};
    return ok(error, error_size);
  });
}

void topoplan_task_free(topoplan_task* task) {
  delete task;
}

topoplan_status topoplan_task_write(const topoplan_task* task, int32_t format, char* buffer,
                                    size_t capacity, size_t* size) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (task == nullptr || size == nullptr || (buffer == nullptr && capacity > 0) ||
        !valid_format(format))
      return TOPOPLAN_INVALID_ARGUMENT;
    std::string text;
    if (format == TOPOPLAN_FORMAT_SAS) {
      if (task->task.instances.empty()) return TOPOPLAN_INVALID_ARGUMENT;
      text = write_fd_sas(task->task.domain, task->task.instances.front());
    } else {
      text = write_native(task->task);
    }
    *size = text.size() + 1;
    if (capacity < text.size() + 1) return TOPOPLAN_BUFFER_TOO_SMALL;
    std::memcpy(buffer, text.c_str(), text.size() + 1);
    return TOPOPLAN_OK;
  });
}

const char* topoplan_task_name(const topoplan_task* task) {
  return task == nullptr ? nullptr : task->task.domain.name().c_str();
}

int32_t topoplan_task_num_variables(const topoplan_task* task) {
  return task == nullptr ? -1 : task->task.domain.num_variables();
}

const char* topoplan_task_variable_name(const topoplan_task* task, int32_t var) {
  if (task == nullptr || var < 0 || var >= task->task.domain.num_variables()) return nullptr;
  return task->task.domain.variable_name(var).c_str();
}

int32_t topoplan_task_domain_size(const topoplan_task* task, int32_t var) {
  if (task == nullptr || var < 0 || var >= task->task.domain.num_variables()) return -1;
  return task->task.domain.domain_size(var);
}

const char* topoplan_task_value_name(const topoplan_task* task, int32_t var, int32_t value) {
  if (task == nullptr || var < 0 || var >= task->task.domain.num_variables() || value < 0 ||
      value >= task->task.domain.domain_size(var))
    return nullptr;
  return task->task.domain.value_name(var, value).c_str();
}

int32_t topoplan_task_num_actions(const topoplan_task* task) {
  return task == nullptr ? -1 : task->task.domain.num_actions();
}

const char* topoplan_task_action_name(const topoplan_task* task, int32_t action) {
  if (task == nullptr || action < 0 || action >= task->task.domain.num_actions()) return nullptr;
  return task->task.domain.action_name(action).c_str();
}

int64_t topoplan_task_action_cost(const topoplan_task* task, int32_t action) {
  if (task == nullptr || action < 0 || action >= task->task.domain.num_actions()) return -1;
  return task->task.domain.cost(action);
}

int32_t topoplan_task_num_classes(const topoplan_task* task) {
  return task == nullptr ? -1 : task->task.domain.num_classes();
}

const char* topoplan_task_class_name(const topoplan_task* task, int32_t npc_class) {
  if (task == nullptr || npc_class < 0 || npc_class >= task->task.domain.num_classes())
    return nullptr;
  return task->task.domain.class_name(npc_class).c_str();
}

int32_t topoplan_task_num_instances(const topoplan_task* task) {
  return task == nullptr ? -1 : static_cast<int32_t>(task->task.instances.size());
}

const char* topoplan_task_instance_name(const topoplan_task* task, int32_t index) {
  if (task == nullptr || index < 0 || static_cast<size_t>(index) >= task->task.instances.size())
    return nullptr;
  return name_or_null(&task->task.instances[static_cast<size_t>(index)].name);
}

namespace {
template <class Lookup>
topoplan_status find_by_name(const topoplan_task* task, const char* name, int32_t* id,
                             Lookup&& lookup) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (task == nullptr || name == nullptr || id == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    const std::optional<int32_t> found = lookup(std::string_view(name));
    if (!found) return TOPOPLAN_NOT_FOUND;
    *id = *found;
    return TOPOPLAN_OK;
  });
}
}  // namespace

topoplan_status topoplan_task_find_variable(const topoplan_task* task, const char* name,
                                            int32_t* id) {
  return find_by_name(task, name, id,
                      [&](std::string_view n) { return task->task.domain.find_variable(n); });
}

topoplan_status topoplan_task_find_value(const topoplan_task* task, int32_t var, const char* name,
                                         int32_t* id) {
  if (task != nullptr && (var < 0 || var >= task->task.domain.num_variables()))
    return TOPOPLAN_INVALID_ARGUMENT;
  return find_by_name(task, name, id,
                      [&](std::string_view n) { return task->task.domain.find_value(var, n); });
}

topoplan_status topoplan_task_find_action(const topoplan_task* task, const char* name,
                                          int32_t* id) {
  return find_by_name(task, name, id,
                      [&](std::string_view n) { return task->task.domain.find_action(n); });
}

topoplan_status topoplan_task_find_class(const topoplan_task* task, const char* name, int32_t* id) {
  return find_by_name(task, name, id,
                      [&](std::string_view n) { return task->task.domain.find_class(n); });
}

topoplan_status topoplan_task_find_instance(const topoplan_task* task, const char* name,
                                            int32_t* index) {
  return find_by_name(task, name, index,
                      [&](std::string_view n) { return task->task.find_instance_index(n); });
}

topoplan_status topoplan_task_instance(const topoplan_task* task, int32_t index,
                                       topoplan_problem* out) {
  if (task == nullptr || out == nullptr || index < 0 ||
      static_cast<size_t>(index) >= task->task.instances.size())
    return TOPOPLAN_INVALID_ARGUMENT;
  const Instance& inst = task->task.instances[static_cast<size_t>(index)];
  out->init = inst.init.data();
  out->goal = inst.goal.data();
  out->num_variables = static_cast<int32_t>(inst.init.size());
  out->npc_class = inst.npc_class;
  return TOPOPLAN_OK;
}

// ------------------------------------------------------------------------------------------------
// Planning by name

int32_t topoplan_num_planners(void) {
  return static_cast<int32_t>(planners().size());
}

const char* topoplan_planner_name(int32_t index) {
  const auto list = planners();
  if (index < 0 || static_cast<size_t>(index) >= list.size()) return nullptr;
  return list[static_cast<size_t>(index)].name.data();  // string literals: NUL-terminated
}

const char* topoplan_planner_description(int32_t index) {
  const auto list = planners();
  if (index < 0 || static_cast<size_t>(index) >= list.size()) return nullptr;
  return list[static_cast<size_t>(index)].description.data();
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
      if (options->max_expansions < 0 || options->max_memory_bytes < 0 ||
          !(options->max_seconds >= 0.0) ||
          (options->objective != TOPOPLAN_OBJECTIVE_COST &&
           options->objective != TOPOPLAN_OBJECTIVE_LENGTH))
        return fail(TOPOPLAN_INVALID_ARGUMENT, "options out of range", error, error_size);
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
      return fail(from_plan_status(r.status), r.message, error, error_size);
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

// ------------------------------------------------------------------------------------------------
// Class analysis

topoplan_status topoplan_check(const topoplan_task* task, int32_t npc_class,
                               topoplan_class_report* report, char* why_not, size_t why_not_size) {
  return guarded(why_not, why_not_size, [&]() -> topoplan_status {
    if (task == nullptr || report == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "task or report is NULL", why_not, why_not_size);
    if (!valid_class(task->task.domain, npc_class))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "npc_class out of range", why_not, why_not_size);
    const ClassReport r = analyze(task->task.domain, npc_class);
    *report = topoplan_class_report{};
    report->num_analysed = r.num_analysed;
    report->unary = r.unary ? 1 : 0;
    report->post_unique = r.post_unique ? 1 : 0;
    report->single_valued = r.single_valued ? 1 : 0;
    report->pre_defined = r.pre_defined ? 1 : 0;
    report->structural_class = static_cast<int32_t>(r.structural_class);
    report->num_requestable = static_cast<int32_t>(r.requestable.size());
    copy_text(r.why_not, why_not, why_not_size);
    return TOPOPLAN_OK;
  });
}
static_assert(static_cast<int>(StructuralClass::kC0) == TOPOPLAN_CLASS_C0 &&
              static_cast<int>(StructuralClass::kC2S) == TOPOPLAN_CLASS_C2S &&
              static_cast<int>(StructuralClass::kC2Star) == TOPOPLAN_CLASS_C2STAR &&
              static_cast<int>(StructuralClass::kNone) == TOPOPLAN_CLASS_NONE);

// ------------------------------------------------------------------------------------------------
// ℙ on the hot path

topoplan_status topoplan_topo_create(const topoplan_task* task, int32_t npc_class,
                                     topoplan_topo** out, char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
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
  const PlanStatus s = topo->planner.plan(
      scratch->scratch, std::span<const ValueId>(init, n), std::span<const ValueId>(goal, n),
      std::span<ActionId>(actions, static_cast<size_t>(capacity)), length);
  switch (scratch->scratch.failure()) {
    case TopoFailure::kBadInput:
      return TOPOPLAN_INVALID_ARGUMENT;
    case TopoFailure::kBufferTooSmall:
      return TOPOPLAN_BUFFER_TOO_SMALL;
    default:
      return from_plan_status(s);
  }
}

topoplan_status topoplan_topo_explain(const topoplan_topo* topo, const topoplan_scratch* scratch,
                                      char* text, size_t text_size) {
  return guarded(text, text_size, [&]() -> topoplan_status {
    if (topo == nullptr || scratch == nullptr || scratch->owner != topo)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "topo/scratch NULL or mismatched", text, text_size);
    copy_text(topo->planner.explain(scratch->scratch), text, text_size);
    return TOPOPLAN_OK;
  });
}

// ------------------------------------------------------------------------------------------------
// Crowds

static_assert(TOPOPLAN_CROWD_SOLVED == kCrowdSolved &&
              TOPOPLAN_CROWD_UNSOLVABLE == kCrowdUnsolvable &&
              TOPOPLAN_CROWD_NO_PLAN == kCrowdNoPlan &&
              TOPOPLAN_CROWD_BUFFER_TOO_SMALL == kCrowdBufferTooSmall &&
              TOPOPLAN_CROWD_BAD_INPUT == kCrowdBadInput &&
              TOPOPLAN_CROWD_CACHE_HIT == kCrowdCacheHit);
static_assert(sizeof(ActionId) == sizeof(int32_t) && sizeof(CrowdStatus) == sizeof(uint16_t));

topoplan_status topoplan_crowd_planner_create(const topoplan_task* task,
                                              topoplan_crowd_planner** out, char* error,
                                              size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
    if (task == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "task is NULL", error, error_size);
    Result<CrowdPlanner> p = CrowdPlanner::create(task->task.domain);
    if (!p) return fail(TOPOPLAN_UNSUPPORTED, p.error().to_string(), error, error_size);
    *out = new topoplan_crowd_planner{task, std::move(p).value()};
    return ok(error, error_size);
  });
}

void topoplan_crowd_planner_free(topoplan_crowd_planner* planner) {
  delete planner;
}

int32_t topoplan_crowd_planner_words(const topoplan_crowd_planner* planner) {
  return planner == nullptr ? -1 : planner->planner.layout().words();
}

int32_t topoplan_crowd_planner_num_classes(const topoplan_crowd_planner* planner) {
  return planner == nullptr ? -1 : planner->planner.num_classes();
}

int32_t topoplan_crowd_planner_max_plan_length(const topoplan_crowd_planner* planner) {
  return planner == nullptr ? -1 : planner->planner.max_plan_length();
}

namespace {
// Values in range; `partial`: kUndefined allowed.
bool state_ok(const Domain& d, const int32_t* s, int32_t n, bool partial) {
  if (s == nullptr || n != d.num_variables()) return false;
  for (VarId v = 0; v < n; ++v)
    if (!((s[v] >= 0 && s[v] < d.domain_size(v)) || (partial && s[v] == kUndefined))) return false;
  return true;
}
}  // namespace

topoplan_status topoplan_crowd_pack_state(const topoplan_crowd_planner* planner,
                                          const int32_t* state, int32_t num_variables,
                                          uint64_t* packed) {
  if (planner == nullptr || packed == nullptr ||
      !state_ok(planner->planner.domain(), state, num_variables, false))
    return TOPOPLAN_INVALID_ARGUMENT;
  planner->planner.layout().pack_state(
      std::span<const ValueId>(state, static_cast<size_t>(num_variables)), packed);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_crowd_pack_goal(const topoplan_crowd_planner* planner, const int32_t* goal,
                                         int32_t num_variables, uint64_t* packed) {
  if (planner == nullptr || packed == nullptr ||
      !state_ok(planner->planner.domain(), goal, num_variables, true))
    return TOPOPLAN_INVALID_ARGUMENT;
  planner->planner.layout().pack_goal(
      std::span<const ValueId>(goal, static_cast<size_t>(num_variables)), packed);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_crowd_unpack_state(const topoplan_crowd_planner* planner,
                                            const uint64_t* packed, int32_t* state,
                                            int32_t num_variables) {
  if (planner == nullptr || packed == nullptr || state == nullptr ||
      num_variables != planner->planner.domain().num_variables())
    return TOPOPLAN_INVALID_ARGUMENT;
  planner->planner.layout().unpack_state(
      packed, std::span<ValueId>(state, static_cast<size_t>(num_variables)));
  return TOPOPLAN_OK;
}

topoplan_status topoplan_crowd_unpack_goal(const topoplan_crowd_planner* planner,
                                           const uint64_t* packed, int32_t* goal,
                                           int32_t num_variables) {
  if (planner == nullptr || packed == nullptr || goal == nullptr ||
      num_variables != planner->planner.domain().num_variables())
    return TOPOPLAN_INVALID_ARGUMENT;
  planner->planner.layout().unpack_goal(
      packed, std::span<ValueId>(goal, static_cast<size_t>(num_variables)));
  return TOPOPLAN_OK;
}

topoplan_status topoplan_plan_cache_create(const topoplan_crowd_planner* planner, int32_t capacity,
                                           int32_t max_plan_length, topoplan_plan_cache** out,
                                           char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
    if (planner == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner is NULL", error, error_size);
    if (capacity < 1 || capacity > (1 << 28) || max_plan_length < 0 || max_plan_length > 255)
      return fail(TOPOPLAN_INVALID_ARGUMENT,
                  "capacity must be in [1, 2^28] and max_plan_length in [0, 255]", error,
                  error_size);
    PlanCacheDef def;
    def.capacity = capacity;
    def.max_plan_length = max_plan_length;
    *out = new topoplan_plan_cache{planner, std::make_unique<PlanCache>(planner->planner, def)};
    return ok(error, error_size);
  });
}

void topoplan_plan_cache_free(topoplan_plan_cache* cache) {
  delete cache;
}

void topoplan_plan_cache_invalidate(topoplan_plan_cache* cache) {
  if (cache != nullptr) cache->cache->invalidate();
}

topoplan_status topoplan_plan_cache_stats_get(const topoplan_plan_cache* cache,
                                              topoplan_plan_cache_stats* stats) {
  if (cache == nullptr || stats == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const PlanCacheStats s = cache->cache->stats();
  *stats = topoplan_plan_cache_stats{s.hits,          s.misses,   s.inserts, s.evictions,
                                     s.invalidations, s.capacity, s.bytes};
  return TOPOPLAN_OK;
}

void topoplan_crowd_def_init(topoplan_crowd_def* def) {
  if (def == nullptr) return;
  const CrowdDef d;
  *def = topoplan_crowd_def{};
  def->worker_count = d.worker_count;
  def->threads = 1;
  def->npcs_per_block = d.npcs_per_block;
  def->worker_memo_entries = d.worker_memo_entries;
}

topoplan_status topoplan_crowd_create(const topoplan_crowd_planner* planner,
                                      const topoplan_crowd_def* def, topoplan_crowd** out,
                                      char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
    if (planner == nullptr || def == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner or def is NULL", error, error_size);
    if ((def->enqueue_task == nullptr) != (def->finish_task == nullptr))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "enqueue_task and finish_task go together", error,
                  error_size);
    if (def->threads < 1 || def->threads > 1024 || def->worker_count < 1 ||
        def->worker_count > 1024 || def->npcs_per_block < 1 || def->worker_memo_entries < 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT,
                  "threads and worker_count must be in [1, 1024], npcs_per_block >= 1, "
                  "worker_memo_entries >= 0",
                  error, error_size);
    if (def->cache != nullptr && def->cache->owner != planner)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "the cache was made for another crowd planner", error,
                  error_size);
    auto crowd = std::make_unique<topoplan_crowd>();
    crowd->owner = planner;
    CrowdDef d;
    d.worker_count = def->worker_count;
    d.npcs_per_block = def->npcs_per_block;
    d.worker_memo_entries = def->worker_memo_entries;
    d.cache = def->cache == nullptr ? nullptr : def->cache->cache.get();
    if (def->enqueue_task != nullptr) {
      // The C and C++ callback types have the same signature (C language linkage aside).
      d.enqueue_task = reinterpret_cast<CrowdEnqueueFn*>(def->enqueue_task);
      d.finish_task = reinterpret_cast<CrowdFinishFn*>(def->finish_task);
      d.user_task_context = def->user_task_context;
    } else if (def->threads > 1) {
      crowd->pool = std::make_unique<CrowdThreadPool>(def->threads);
      crowd->pool->install(d);
    }
    Result<Crowd> c = Crowd::create(planner->planner, d);
    if (!c) return fail(TOPOPLAN_INVALID_ARGUMENT, c.error().to_string(), error, error_size);
    crowd->crowd = std::make_unique<Crowd>(std::move(c).value());
    *out = crowd.release();
    return ok(error, error_size);
  });
}

void topoplan_crowd_free(topoplan_crowd* crowd) {
  delete crowd;
}

namespace {
// Checks the batch and output against the crowd's layout; fills the C++ views.
bool crowd_views(const topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                 const topoplan_crowd_output* output, CrowdBatch& b, CrowdOutput& o) {
  if (crowd == nullptr || batch == nullptr || output == nullptr) return false;
  const int64_t n = batch->count;
  if (n < 0 || n > INT32_MAX) return false;
  if (n > 0 &&
      (batch->npc_class == nullptr || batch->init == nullptr || batch->goal == nullptr ||
       output->offset == nullptr || output->length == nullptr || output->status == nullptr))
    return false;
  if (output->capacity < 0 || output->capacity > int64_t{0xFFFFFFFF} ||
      (output->actions == nullptr && output->capacity > 0))
    return false;
  const auto count = static_cast<size_t>(n);
  const auto words =
      static_cast<size_t>(crowd->owner->planner.layout().words()) * static_cast<size_t>(n);
  b.npc_class = {batch->npc_class, count};
  b.init = {batch->init, words};
  b.goal = {batch->goal, words};
  o.actions = {output->actions, static_cast<size_t>(output->capacity)};
  o.offset = {output->offset, count};
  o.length = {output->length, count};
  o.status = {output->status, count};
  return true;
}

void copy_stats(const CrowdStats& s, topoplan_crowd_stats* out) {
  if (out == nullptr) return;
  *out = topoplan_crowd_stats{
      s.served, s.planned, s.cache_hits, s.solved, s.buffer_too_small, s.complete ? 1 : 0, 0};
}
}  // namespace

topoplan_status topoplan_crowd_plan(topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                                    const topoplan_crowd_output* output,
                                    topoplan_crowd_stats* stats) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    CrowdBatch b;
    CrowdOutput o;
    if (!crowd_views(crowd, batch, output, b, o)) return TOPOPLAN_INVALID_ARGUMENT;
    copy_stats(crowd->crowd->plan(b, o), stats);
    return TOPOPLAN_OK;
  });
}

topoplan_status topoplan_crowd_plan_frame(topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                                          const topoplan_crowd_output* output, int64_t* cursor,
                                          double budget_seconds, topoplan_crowd_stats* stats) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    CrowdBatch b;
    CrowdOutput o;
    if (!crowd_views(crowd, batch, output, b, o) || cursor == nullptr || *cursor < 0 ||
        *cursor > batch->count || !(budget_seconds >= 0.0))
      return TOPOPLAN_INVALID_ARGUMENT;
    CrowdCursor c{*cursor};
    copy_stats(crowd->crowd->plan_frame(b, o, &c, budget_seconds), stats);
    *cursor = c.next;
    return TOPOPLAN_OK;
  });
}

// ------------------------------------------------------------------------------------------------
// UDGOAP

topoplan_status topoplan_udgoap_load(const char* path, topoplan_udgoap_world** world,
                                     topoplan_udgoap_agent** agent, char* error,
                                     size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (world == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "world is NULL", error, error_size);
    *world = nullptr;
    if (agent != nullptr) *agent = nullptr;
    if (path == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "path is NULL", error, error_size);
    Result<udgoap::Scenario> s = udgoap::load_scenario(path);
    if (!s) return fail(TOPOPLAN_INPUT_ERROR, s.error().to_string(), error, error_size);
    auto w = std::make_unique<topoplan_udgoap_world>();
    w->world = std::move(s->world);
    w->limits = s->limits;
    if (agent != nullptr) *agent = new topoplan_udgoap_agent{w.get(), std::move(s->agent)};
    *world = w.release();
    return ok(error, error_size);
  });
}

void topoplan_udgoap_world_free(topoplan_udgoap_world* world) {
  delete world;
}

void topoplan_udgoap_agent_free(topoplan_udgoap_agent* agent) {
  delete agent;
}

topoplan_status topoplan_udgoap_agent_create(const topoplan_udgoap_world* world,
                                             topoplan_udgoap_agent** out) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    *out = nullptr;
    if (world == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    auto a = std::make_unique<topoplan_udgoap_agent>();
    a->owner = world;
    a->state = udgoap::make_agent_state(world->world);
    const std::vector<udgoap::Value> state = world->world.initial_state();
    udgoap::update_agent(world->world, state, a->state);
    *out = a.release();
    return TOPOPLAN_OK;
  });
}

int32_t topoplan_udgoap_num_entities(const topoplan_udgoap_world* world) {
  return world == nullptr ? -1 : static_cast<int32_t>(world->world.entities.size());
}

const char* topoplan_udgoap_entity_name(const topoplan_udgoap_world* world, int32_t entity) {
  if (world == nullptr || entity < 0 || static_cast<size_t>(entity) >= world->world.entities.size())
    return nullptr;
  return world->world.entities[static_cast<size_t>(entity)].name.c_str();
}

int32_t topoplan_udgoap_num_actions(const topoplan_udgoap_world* world) {
  return world == nullptr ? -1 : static_cast<int32_t>(world->world.actions.size());
}

const char* topoplan_udgoap_action_name(const topoplan_udgoap_world* world, int32_t action) {
  if (world == nullptr || action < 0 || static_cast<size_t>(action) >= world->world.actions.size())
    return nullptr;
  return world->world.actions[static_cast<size_t>(action)].name.c_str();
}

topoplan_status topoplan_udgoap_find_entity(const topoplan_udgoap_world* world, const char* name,
                                            int32_t* id) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || name == nullptr || id == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    const std::optional<udgoap::EntityId> e = world->world.find_entity(name);
    if (!e) return TOPOPLAN_NOT_FOUND;
    *id = *e;
    return TOPOPLAN_OK;
  });
}

namespace {
// The slot of the fact (entity, attribute), or kNoSlot.
udgoap::SlotId fact_slot(const udgoap::World& w, const char* entity, const char* attribute) {
  const std::optional<udgoap::EntityId> e = w.find_entity(entity);
  const std::optional<udgoap::AttributeId> a = w.find_attribute(attribute);
  if (!e || !a) return udgoap::kNoSlot;
  return w.slot(*e, *a);
}
}  // namespace

topoplan_status topoplan_udgoap_get_fact(const topoplan_udgoap_world* world, const char* entity,
                                         const char* attribute, double* value) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || entity == nullptr || attribute == nullptr || value == nullptr)
      return TOPOPLAN_INVALID_ARGUMENT;
    const udgoap::SlotId s = fact_slot(world->world, entity, attribute);
    if (s == udgoap::kNoSlot) return TOPOPLAN_NOT_FOUND;
    const udgoap::Fact& f = world->world.facts[static_cast<size_t>(s)];
    if (f.value.is_vector) return TOPOPLAN_INVALID_ARGUMENT;
    *value = f.value.x;
    return TOPOPLAN_OK;
  });
}

topoplan_status topoplan_udgoap_set_fact(topoplan_udgoap_world* world, const char* entity,
                                         const char* attribute, double value) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || entity == nullptr || attribute == nullptr || !std::isfinite(value))
      return TOPOPLAN_INVALID_ARGUMENT;
    const udgoap::SlotId s = fact_slot(world->world, entity, attribute);
    if (s == udgoap::kNoSlot) return TOPOPLAN_NOT_FOUND;
    udgoap::Fact& f = world->world.facts[static_cast<size_t>(s)];
    if (f.value.is_vector) return TOPOPLAN_INVALID_ARGUMENT;
    f.value.x = std::clamp(value, f.min, f.max);
    return TOPOPLAN_OK;
  });
}

topoplan_status topoplan_udgoap_agent_update(const topoplan_udgoap_world* world,
                                             topoplan_udgoap_agent* agent) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || agent == nullptr || agent->owner != world)
      return TOPOPLAN_INVALID_ARGUMENT;
    const std::vector<udgoap::Value> state = world->world.initial_state();
    udgoap::update_agent(world->world, state, agent->state);
    return TOPOPLAN_OK;
  });
}

int32_t topoplan_udgoap_agent_num_goals(const topoplan_udgoap_agent* agent) {
  return agent == nullptr ? -1 : static_cast<int32_t>(agent->state.goals.size());
}

void topoplan_udgoap_limits_init(topoplan_udgoap_limits* limits) {
  if (limits == nullptr) return;
  const udgoap::UdgoapLimits d;
  *limits = topoplan_udgoap_limits{d.max_expansions, d.max_generated, d.max_plan_length, 0};
}

topoplan_status topoplan_udgoap_plan(const topoplan_udgoap_world* world,
                                     const topoplan_udgoap_agent* agent,
                                     const topoplan_udgoap_limits* limits,
                                     topoplan_udgoap_step* steps, int32_t capacity, int32_t* length,
                                     double* utility, char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (world == nullptr || agent == nullptr || agent->owner != world || length == nullptr ||
        capacity < 0 || (steps == nullptr && capacity > 0))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL or mismatched world/agent, or bad buffer", error,
                  error_size);
    udgoap::UdgoapOptions options;
    options.limits = world->limits;
    if (limits != nullptr) {
      if (limits->max_expansions < 0 || limits->max_generated < 0 || limits->max_plan_length < 0)
        return fail(TOPOPLAN_INVALID_ARGUMENT, "negative limit", error, error_size);
      options.limits.max_expansions = limits->max_expansions;
      options.limits.max_generated = limits->max_generated;
      options.limits.max_plan_length = limits->max_plan_length;
    }
    const udgoap::UdgoapResult r = udgoap::plan_udgoap(world->world, agent->state, options);
    *length = static_cast<int32_t>(r.plan.size());
    if (utility != nullptr) *utility = r.utility;
    if (r.status != PlanStatus::kSolved)
      return fail(from_plan_status(r.status), r.message, error, error_size);
    if (*length > capacity)
      return fail(TOPOPLAN_BUFFER_TOO_SMALL, "the plan has more steps than the buffer", error,
                  error_size);
    for (size_t i = 0; i < r.plan.size(); ++i)
      steps[i] = topoplan_udgoap_step{r.plan[i].action, r.plan[i].supplier};
    return ok(error, error_size);
  });
}
