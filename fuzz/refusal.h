// What every harness asks of a reader or a compile: a refusal says what is wrong.
#pragma once

#include <cstdlib>

#include "topoplan/runtime/result.h"

namespace topoplan_fuzz {

// True when `r` holds a value; false for a refusal, and a refusal without a message aborts the
// run (every error names what is wrong).
template <class T>
bool accepted(const topoplan::Result<T>& r) {
  if (r) return true;
  if (r.error().message.empty()) std::abort();
  return false;
}

}  // namespace topoplan_fuzz
