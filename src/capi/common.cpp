// The C API: status names, versions and the helpers shared by its sources (internal.h).
#include "internal.h"

#include <array>
#include <iterator>
#include <string>

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

// The definitions below take C linkage from their declarations in topoplan.h.

namespace topoplan::capi {

topoplan_status from_plan_status(PlanStatus s) {
  // By PlanStatus, in its order.
  static constexpr std::array<topoplan_status, 6> kStatus = {
      TOPOPLAN_OK,      TOPOPLAN_UNSOLVABLE,  TOPOPLAN_LIMIT_REACHED,
      TOPOPLAN_GAVE_UP, TOPOPLAN_UNSUPPORTED, TOPOPLAN_BUFFER_TOO_SMALL};
  static_assert(kStatus.size() == static_cast<size_t>(PlanStatus::kBufferTooSmall) + 1);
  const auto i = static_cast<size_t>(s);
  return i < kStatus.size() ? kStatus[i] : TOPOPLAN_INTERNAL_ERROR;
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
  // By status value, TOPOPLAN_OK (0) to TOPOPLAN_INTERNAL_ERROR.
  static constexpr const char* kNames[] = {"ok",           "unsolvable",    "limit reached",
                                           "gave up",      "unsupported",   "buffer too small",
                                           "invalid plan", "not found",     "invalid argument",
                                           "input error",  "out of memory", "internal error"};
  static_assert(std::size(kNames) == TOPOPLAN_INTERNAL_ERROR + 1);
  return status >= 0 && status <= TOPOPLAN_INTERNAL_ERROR ? kNames[status] : "unknown status";
}

uint32_t topoplan_c_abi_version(void) {
  return TOPOPLAN_C_ABI_VERSION;
}

const char* topoplan_version(void) {
  return TOPOPLAN_VERSION_STRING;
}
