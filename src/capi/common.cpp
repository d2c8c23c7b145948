// The C API: status names, versions and the helpers shared by its sources (internal.h).
#include "internal.h"

#include <string>

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

namespace topoplan::capi {

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
    case PlanStatus::kBufferTooSmall:
      return TOPOPLAN_BUFFER_TOO_SMALL;
  }
  return TOPOPLAN_INTERNAL_ERROR;
}

topoplan_status from_outcome(const PlanOutcome& outcome) {
  if ((outcome.detail & kDetailBadInput) != 0) return TOPOPLAN_INVALID_ARGUMENT;
  return from_plan_status(outcome.status);
}

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

topoplan_status write_text(std::string_view text, char* buffer, size_t capacity, size_t* size) {
  if (size == nullptr || (buffer == nullptr && capacity > 0)) return TOPOPLAN_INVALID_ARGUMENT;
  *size = text.size() + 1;
  if (capacity < text.size() + 1) return TOPOPLAN_BUFFER_TOO_SMALL;
  std::memcpy(buffer, text.data(), text.size());
  buffer[text.size()] = '\0';
  return TOPOPLAN_OK;
}

}  // namespace topoplan::capi

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
