// The C API: tasks (loading, parsing, writing, names, lookups, instances).
#include "internal.h"

#include <cstdint>
#include <vector>
#include "topoplan/io/formats.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

namespace {

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

const char* name_or_null(const std::string* s) {
  return s == nullptr ? nullptr : s->c_str();
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Tasks

topoplan_status topoplan_task_load(const char* path, int32_t format, topoplan_task** out,
                                   char* error, size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
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
  return creating(out, error, error_size, [&]() -> topoplan_status {
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
  const Instance* found = task == nullptr ? nullptr : at_index(task->task.instances, index);
  if (found == nullptr || out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const Instance& inst = *found;
  out->init = inst.init.data();
  out->goal = inst.goal.data();
  out->num_variables = static_cast<int32_t>(inst.init.size());
  out->npc_class = inst.npc_class;
  return TOPOPLAN_OK;
}

// ------------------------------------------------------------------------------------------------
// Structure of actions and classes

namespace {
bool valid_action(const topoplan_task* task, int32_t action) {
  return task != nullptr && action >= 0 && action < task->task.domain.num_actions();
}
}  // namespace

int32_t topoplan_task_action_num_effects(const topoplan_task* task, int32_t action) {
  if (!valid_action(task, action)) return -1;
  return static_cast<int32_t>(task->task.domain.effects(action).size());
}

topoplan_status topoplan_task_action_effect(const topoplan_task* task, int32_t action,
                                            int32_t index, topoplan_effect* out) {
  if (out == nullptr || index < 0 || index >= topoplan_task_action_num_effects(task, action))
    return TOPOPLAN_INVALID_ARGUMENT;
  const Effect& e = task->task.domain.effects(action)[static_cast<size_t>(index)];
  *out = topoplan_effect{e.var, e.pre, e.post};
  return TOPOPLAN_OK;
}

int32_t topoplan_task_action_num_prevail(const topoplan_task* task, int32_t action) {
  if (!valid_action(task, action)) return -1;
  return static_cast<int32_t>(task->task.domain.prevail(action).size());
}

topoplan_status topoplan_task_action_prevail(const topoplan_task* task, int32_t action,
                                             int32_t index, topoplan_fact* out) {
  if (out == nullptr || index < 0 || index >= topoplan_task_action_num_prevail(task, action))
    return TOPOPLAN_INVALID_ARGUMENT;
  const Fact& f = task->task.domain.prevail(action)[static_cast<size_t>(index)];
  *out = topoplan_fact{f.var, f.value};
  return TOPOPLAN_OK;
}

int32_t topoplan_task_class_num_actions(const topoplan_task* task, int32_t npc_class) {
  if (task == nullptr || npc_class < 0 || npc_class >= task->task.domain.num_classes()) return -1;
  return static_cast<int32_t>(task->task.domain.class_actions(npc_class).size());
}

int32_t topoplan_task_class_action(const topoplan_task* task, int32_t npc_class, int32_t index) {
  if (index < 0 || index >= topoplan_task_class_num_actions(task, npc_class)) return -1;
  return task->task.domain.class_actions(npc_class)[static_cast<size_t>(index)];
}

// ------------------------------------------------------------------------------------------------
// States by name

topoplan_status topoplan_task_parse_state(const topoplan_task* task, const char* text,
                                          int32_t* state, int32_t num_variables, char* error,
                                          size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (task == nullptr || text == nullptr || state == nullptr ||
        num_variables != task->task.domain.num_variables())
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL pointer or num_variables mismatch", error,
                  error_size);
    Result<std::vector<ValueId>> s = parse_state_by_names(task->task.domain, text);
    if (!s) return fail(TOPOPLAN_INPUT_ERROR, s.error().message, error, error_size);
    std::copy(s->begin(), s->end(), state);
    return ok(error, error_size);
  });
}

topoplan_status topoplan_task_format_state(const topoplan_task* task, const int32_t* state,
                                           int32_t num_variables, char* buffer, size_t capacity,
                                           size_t* size) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (task == nullptr || state == nullptr || num_variables != task->task.domain.num_variables())
      return TOPOPLAN_INVALID_ARGUMENT;
    const std::string text = format_state(
        task->task.domain, std::span<const ValueId>(state, static_cast<size_t>(num_variables)));
    return write_text(text, buffer, capacity, size);
  });
}
