// libFuzzer harness: the plan reader on the Western domain (59 actions, NPC classes). Any bytes:
// an Error or a list of in-range action ids; the validator then judges it without crashing, and
// an accepted plan's cost is the sum of its actions' costs.
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "topoplan/io/formats.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topoplan;
  static const Task western_task = western();
  const Domain& d = western_task.domain;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<std::vector<ActionId>> plan = parse_plan(d, text, "fuzz.plan");
  if (!plan) return 0;
  for (ActionId a : *plan)
    if (a < 0 || a >= d.num_actions()) std::abort();
  const Instance& inst = western_task.instances[size % western_task.instances.size()];
  const Validation v = validate_plan(d, inst, *plan);
  if (v.valid && v.cost != plan_cost(d, *plan)) std::abort();
  if (!v.valid && v.reason.empty()) std::abort();
  return 0;
}
