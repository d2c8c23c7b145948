// Counts calls to the global operator new, for tests that assert a hot path allocates nothing.
// Link the object library topoplan_alloc_counter (tests/CMakeLists.txt) into the test binary:
// it replaces the global operator new/delete for the whole binary.
#pragma once

#include <cstdint>

namespace topoplan::testing {

// Number of global operator new / new[] calls since the program started.
[[nodiscard]] int64_t allocation_count();

}  // namespace topoplan::testing
