// Paths of the checkout's files (domains/, docs/, ...) for the tests that read them.
#pragma once

#include <string>
#include <string_view>

namespace topoplan::testing {

// TOPOPLAN_SOURCE_DIR/`relative`, e.g. source_path("domains/udgoap/wizard.toml"). One helper
// instead of `std::string(TOPOPLAN_SOURCE_DIR) + "/domains/..."` in each test: GCC 12 reported a
// false -Warray-bounds on that expression in a dozen test files once gtest.h came from a
// precompiled header, and a string reserved to its final size before the appends has no short
// buffer for the warning to be about.
inline std::string source_path(std::string_view relative) {
  constexpr std::string_view root = TOPOPLAN_SOURCE_DIR "/";
  std::string path;
  path.reserve(root.size() + relative.size());
  path.append(root).append(relative);
  return path;
}

}  // namespace topoplan::testing
