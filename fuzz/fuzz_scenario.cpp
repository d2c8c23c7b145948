// libFuzzer harness: the UDGOAP scenario reader, then one bounded planning call on what it
// accepts (the reader promises a world the planner can run on).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "refusal.h"
#include "topoplan/udgoap/planner.h"
#include "topoplan/udgoap/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topoplan::udgoap;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  topoplan::Result<Scenario> s = parse_scenario(text, "fuzz.toml");
  if (!topoplan_fuzz::accepted(s)) return 0;
  UdgoapOptions options;
  options.limits.max_expansions = 200;
  options.limits.max_generated = 2000;
  options.limits.max_plan_length = std::min(options.limits.max_plan_length, 6);
  (void)plan_udgoap(s->world, s->agent, options);
  return 0;
}
