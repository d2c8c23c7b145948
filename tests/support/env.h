// Sizes of long runs from the environment: a differential or soak test reads its instance count
// (or seed) from a variable, so that CI runs a few seconds and a long run only sets a variable.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace topoplan::testing {

// The variable's integer value, or `fallback` when it is unset or empty.
inline int64_t env_int(const char* name, int64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoll(v) : fallback;
}

}  // namespace topoplan::testing
