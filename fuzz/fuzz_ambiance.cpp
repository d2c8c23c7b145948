// libFuzzer harness: the smart-ambiance scenario reader; an accepted scenario passes check()
// and, when small, runs (every decision planned on the ambiance costs and validated).
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "refusal.h"
#include "topoplan/udgoap/ambiance_scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topoplan::udgoap;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  topoplan::Result<AmbianceScenario> s = parse_ambiance_scenario(text, "fuzz.toml");
  if (!topoplan_fuzz::accepted(s)) return 0;
  if (check(*s).has_value()) std::abort();  // the reader accepted what check() refuses
  if (s->domain.actions.size() <= 24 && s->domain.variables.size() <= 8 && s->npcs.size() <= 4 &&
      s->max_steps <= 20) {
    const AmbianceRun run = run_ambiance(*s, true);
    for (const AmbianceNpcRun& npc : run.npcs)
      for (const AmbianceDecision& dec : npc.decisions)
        if (dec.status == topoplan::PlanStatus::kSolved && !dec.valid) std::abort();
  }
  return 0;
}
