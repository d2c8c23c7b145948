// The C API: towns (topoplan/tools/town.h), the populations `topoplan crowd` plans, as crowd
// batches.
#include "internal.h"

#include <climits>
#include <optional>

#include "topoplan/runtime/random.h"
#include "topoplan/tools/town.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

struct topoplan_town {
  const topoplan_crowd_planner* owner;
  std::optional<topoplan::CrowdTown> town;
  topoplan::SplitMix64 churn;  // the churn's own stream, as `topoplan crowd` (seed * 31 + 7)
};

// The definitions below take C linkage from their declarations in topoplan.h.

void topoplan_town_def_init(topoplan_town_def* def) {
  if (def == nullptr) return;
  const TownDef d;
  *def =
      topoplan_town_def{d.npcs, d.situations_per_class, d.backgrounds, d.errand_fraction, d.seed};
}

topoplan_status topoplan_town_create(const topoplan_crowd_planner* planner,
                                     const topoplan_town_def* def, topoplan_town** out, char* error,
                                     size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (planner == nullptr || def == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner or def is NULL", error, error_size);
    if (def->npcs > INT32_MAX)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "town: npcs must be at most 2^31 - 1", error,
                  error_size);
    TownDef d;
    d.npcs = def->npcs;
    d.situations_per_class = def->situations_per_class;
    d.backgrounds = def->backgrounds;
    d.errand_fraction = def->errand_fraction;
    d.seed = def->seed;
    Result<CrowdTown> t = CrowdTown::create(planner->task->task, planner->planner, d);
    if (!t) return fail(TOPOPLAN_INVALID_ARGUMENT, t.error().to_string(), error, error_size);
    *out = new topoplan_town{planner, std::move(t).value(), SplitMix64(def->seed * 31 + 7)};
    return ok(error, error_size);
  });
}

void topoplan_town_free(topoplan_town* town) {
  delete town;
}

int64_t topoplan_town_npcs(const topoplan_town* town) {
  return town == nullptr ? -1 : town->town->npcs();
}

int64_t topoplan_town_distinct_situations(const topoplan_town* town) {
  return town == nullptr ? -1 : town->town->distinct_situations();
}

topoplan_status topoplan_town_batch(const topoplan_town* town, topoplan_crowd_batch* out) {
  if (town == nullptr || out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const CrowdBatch b = town->town->batch();
  *out = topoplan_crowd_batch{static_cast<int64_t>(b.npc_class.size()), b.npc_class.data(),
                              b.init.data(), b.goal.data()};
  return TOPOPLAN_OK;
}

topoplan_status topoplan_town_churn(topoplan_town* town, int64_t count) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (town == nullptr || count < 0) return TOPOPLAN_INVALID_ARGUMENT;
    const auto n = static_cast<int32_t>(town->town->npcs());
    for (int64_t k = 0; k < count; ++k) town->town->reassign(town->churn.below(n), town->churn);
    return TOPOPLAN_OK;
  });
}
