// libFuzzer harness: bytes → a sequence of C API calls, as a host program (or a hostile one)
// would make them: a task (built-in, or parsed from the input's bytes), its names and lookups,
// states as text, plans by registry name with valid and out-of-range options and problems,
// prepared planners and ℙ handles, class analyses, validation of random plans, crowd planners,
// plan caches (with and without a plan table), crowds with random defs and planner chains,
// batches with random classes, packed states and buffer sizes (copying, framed, by handle),
// handles resolved (given ones, stale ones after an invalidation, forged ones of the current
// epoch), packing and unpacking, towns, agent worlds (drives, drive lists, explanations), a UDGOAP
// world, simulations, and the frees.
// Under ASan + UBSan every call must return a status (never crash, read out of bounds or leak),
// and what it returns is checked: a solved plan validates, a batch's solved NPCs have valid
// plans, a resolved handle gives action ids of the domain and no longer than the longest plan,
// the engine calls agree with the validator, a name found is the name asked for.

#include "capi/session.h"

namespace fuzz_capi {

Shared& builtin(int32_t index) {
  static auto* made = new std::vector<Shared*>(static_cast<size_t>(topoplan_num_builtin_tasks()));
  Shared*& b = (*made)[static_cast<size_t>(index)];
  if (b == nullptr) {
    b = new Shared;
    b->builtin = true;
    char error[256] = {};
    known(topoplan_task_builtin(topoplan_builtin_task_name(index), &b->task, error, sizeof error));
    require(b->task != nullptr, "a built-in task does not load");
  }
  return *b;
}

}  // namespace fuzz_capi

using namespace fuzz_capi;  // NOLINT(google-build-using-namespace)

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::unique_ptr<Shared> parsed;
  Shared* shared = nullptr;
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {  // a task from the bytes themselves
    parsed = std::make_unique<Shared>();
    const std::string text = in.ConsumeRandomLengthString(1024);
    char error[256];
    known(topoplan_task_parse(text.data(), text.size(), in.ConsumeIntegralInRange<int32_t>(-1, 3),
                              "fuzz", &parsed->task, error, sizeof error));
    shared = parsed.get();
  } else {
    const int32_t n = topoplan_num_builtin_tasks();
    shared = &builtin(in.ConsumeIntegralInRange<int32_t>(0, n - 1));
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {  // a name that is (almost surely) not one
      const std::string name = in.ConsumeRandomLengthString(12);
      topoplan_task* t = nullptr;
      char error[256];
      known(topoplan_task_builtin(name.c_str(), &t, error, sizeof error));
      topoplan_task_free(t);
    }
  }
  if (shared->task == nullptr || topoplan_task_num_variables(shared->task) > 64) return 0;
  Session s(in, *shared);
  for (int step = 0; step < kSteps && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange<int>(0, 19)) {
      case 0:
        s.plan();
        break;
      case 1:
        s.validate_random();
        break;
      case 2:
        s.make_crowd();
        break;
      case 3:
      case 4:
        s.batch();
        break;
      case 5:
        s.resolve();
        break;
      case 6:
        if (s.cache != nullptr) topoplan_plan_cache_invalidate(s.cache);
        break;
      case 7:
        s.pack_unpack();
        break;
      case 8:
        s.pending();
        break;
      case 9:
        s.engine();
        break;
      case 10:
        s.agent_world();
        break;
      case 11:
        s.make_town();
        break;
      case 12:
        s.town_batch();
        break;
      case 13:
        s.introspect();
        break;
      case 14:
        s.state_text();
        break;
      case 15:
        s.topo();
        break;
      case 16:
        s.planner_handle();
        break;
      case 17:
        s.analysis();
        break;
      case 18:
        s.misc();
        break;
      default:
        if (in.ConsumeBool()) {
          s.udgoap();
        } else {
          s.sim();
        }
    }
  }
  return 0;
}
