// The C API: the simulation (docs/sim.md). One episode per run, with the replay that
// `topoplan sim --replay` writes for the same scenario, selector, seed and --replay-every (both
// run it with topoplan/sim/episode.h).
#include "internal.h"

#include <string>
#include <vector>

#include "topoplan/sim/episode.h"
#include "topoplan/sim/scenario.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)
using namespace topoplan::sim;   // NOLINT(google-build-using-namespace)

struct topoplan_sim {
  SimScenario scenario;
  std::vector<SelectorKind> selectors;  // what the scenario can run, the default first
  std::string replay;                   // the last run's
};

namespace {

topoplan_status wrap(Result<SimScenario> sc, topoplan_sim** out, char* error, size_t error_size) {
  if (!sc) return fail(TOPOPLAN_INPUT_ERROR, sc.error().to_string(), error, error_size);
  auto s = std::make_unique<topoplan_sim>();
  s->scenario = std::move(sc).value();
  s->selectors = episode_selectors(s->scenario);
  *out = s.release();
  return ok(error, error_size);
}

}  // namespace

// The definitions below take C linkage from their declarations in topoplan.h.

topoplan_status topoplan_sim_parse(const char* text, size_t size, const char* filename,
                                   const char* dir, topoplan_sim** out, char* error,
                                   size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (text == nullptr && size > 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "text is NULL", error, error_size);
    const std::string_view body(text == nullptr ? "" : text, size);
    return wrap(parse_sim_scenario(body, filename == nullptr ? "<text>" : filename,
                                   dir == nullptr ? "." : dir),
                out, error, error_size);
  });
}

topoplan_status topoplan_sim_load(const char* path, topoplan_sim** out, char* error,
                                  size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (path == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "path is NULL", error, error_size);
    return wrap(load_sim_scenario(path), out, error, error_size);
  });
}

void topoplan_sim_free(topoplan_sim* sim) {
  delete sim;
}

const char* topoplan_sim_kind(const topoplan_sim* sim) {
  if (sim == nullptr) return nullptr;
  switch (sim->scenario.kind) {
    case ScenarioKind::kArena:
      return "arena";
    case ScenarioKind::kHouse:
      return "house";
    case ScenarioKind::kHospital:
      return "hospital";
  }
  return nullptr;
}

const char* topoplan_sim_name(const topoplan_sim* sim) {
  return sim == nullptr ? nullptr : sim->scenario.name.c_str();
}

int32_t topoplan_sim_num_selectors(const topoplan_sim* sim) {
  return sim == nullptr ? -1 : static_cast<int32_t>(sim->selectors.size());
}

const char* topoplan_sim_selector_name(const topoplan_sim* sim, int32_t index) {
  const auto* selector = sim == nullptr ? nullptr : at_index(sim->selectors, index);
  return selector == nullptr ? nullptr : to_string(*selector).data();  // literals
}

void topoplan_sim_options_init(topoplan_sim_options* options) {
  if (options == nullptr) return;
  *options = topoplan_sim_options{nullptr, 1, 1, 0, 0.0};
}

topoplan_status topoplan_sim_run(topoplan_sim* sim, const topoplan_sim_options* options,
                                 topoplan_sim_result* result, char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (sim == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "sim is NULL", error, error_size);
    topoplan_sim_options o;
    topoplan_sim_options_init(&o);
    if (options != nullptr) o = *options;
    if (o.replay_every < 0 || !(o.max_seconds >= 0))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "replay_every and max_seconds must be >= 0", error,
                  error_size);
    if (sim->selectors.empty())
      return fail(TOPOPLAN_UNSUPPORTED,
                  "a hospital is a crowd experiment: run it with `topoplan sim` (no replay)", error,
                  error_size);
    SelectorKind kind = sim->selectors.front();
    if (o.selector != nullptr) {
      const std::string_view want(o.selector);
      std::string known;
      bool found = false;
      for (SelectorKind k : sim->selectors) {
        known += (known.empty() ? "" : ", ") + std::string(to_string(k));
        if (to_string(k) == want) {
          kind = k;
          found = true;
        }
      }
      if (!found)
        return fail(
            TOPOPLAN_NOT_FOUND,
            "this scenario runs the selectors " + known + ", not '" + std::string(want) + "'",
            error, error_size);
    }
    const EpisodeOptions eo{kind, o.seed, o.max_seconds, false};
    std::string text;
    ReplayWriter writer(o.replay_every > 0 ? &text : nullptr, o.replay_every);
    const EpisodeRun run =
        run_episode(sim->scenario, eo, writer.enabled() ? &writer : nullptr, nullptr);
    sim->replay.clear();
    if (writer.enabled()) sim->replay = replay_header(sim->scenario, eo, &run) + text + run.end;
    topoplan_sim_result r{};
    r.ticks = run.ticks;
    r.seconds = run.seconds;
    r.censored = run.censored ? 1 : 0;
    r.decisions = run.counters.decisions;
    r.plans = run.counters.plans;
    r.plan_failures = run.counters.plan_failures;
    r.steps_done = run.counters.steps_done;
    r.kills = run.arena.kills;
    if (result != nullptr) *result = r;
    return ok(error, error_size);
  });
}

topoplan_status topoplan_sim_replay(const topoplan_sim* sim, char* buffer, size_t capacity,
                                    size_t* size) {
  if (sim == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  return write_text(sim->replay, buffer, capacity, size);
}
