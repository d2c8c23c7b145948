// The C API: the simulation (docs/sim.md). One episode per run, with the replay that
// `topoplan sim --replay` writes for the same scenario, selector, seed and --replay-every.
#include "internal.h"

#include <span>
#include <string>
#include <vector>

#include "topoplan/sim/arena.h"
#include "topoplan/sim/core.h"
#include "topoplan/sim/house.h"
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

struct HeaderAgent {
  int32_t id;
  std::string name;
  std::string kind;
};

void append_key_string(std::string& s, const char* key, std::string_view value) {
  s += key;
  ReplayWriter::append_string(s, value);
}

void append_key_number(std::string& s, const char* key, double value) {
  s += key;
  ReplayWriter::append_number(s, value);
}

// The header line of docs/sim.md, byte for byte the CLI's (cli/cmd_sim.cpp).
std::string replay_header(const std::string& scenario, std::string_view selector, uint64_t seed,
                          double dt, double width, double height, std::span<const NamedSpot> spots,
                          std::span<const HeaderAgent> agents,
                          std::span<const std::string> drives) {
  std::string s;
  append_key_string(s, "{\"type\":\"header\",\"version\":1,\"scenario\":", scenario);
  append_key_string(s, ",\"selector\":", selector);
  s += ",\"seed\":" + std::to_string(seed);
  append_key_number(s, ",\"dt\":", dt);
  append_key_number(s, ",\"world\":{\"width\":", width);
  append_key_number(s, ",\"height\":", height);
  s += "},\"spots\":[";
  for (size_t i = 0; i < spots.size(); ++i) {
    append_key_string(s, i ? ",{\"name\":" : "{\"name\":", spots[i].name);
    append_key_number(s, ",\"x\":", spots[i].pos.x);
    append_key_number(s, ",\"y\":", spots[i].pos.y);
    s += "}";
  }
  s += "],\"agents\":[";
  for (size_t i = 0; i < agents.size(); ++i) {
    s += (i ? ",{\"id\":" : "{\"id\":") + std::to_string(agents[i].id);
    append_key_string(s, ",\"name\":", agents[i].name);
    append_key_string(s, ",\"kind\":", agents[i].kind);
    s += "}";
  }
  s += "],\"drives\":[";
  for (size_t i = 0; i < drives.size(); ++i) {
    if (i) s += ",";
    ReplayWriter::append_string(s, drives[i]);
  }
  s += "]}\n";
  return s;
}

std::string end_line(int64_t ticks, double t) {
  std::string s = "{\"type\":\"end\",\"tick\":" + std::to_string(ticks);
  append_key_number(s, ",\"t\":", t);
  return s;
}

std::vector<SelectorKind> selectors_of(const SimScenario& sc) {
  switch (sc.kind) {
    case ScenarioKind::kArena:
      if (sc.arena.has_udgoap)
        return {SelectorKind::kFsm, SelectorKind::kGoap, SelectorKind::kUdgoap};
      return {SelectorKind::kFsm, SelectorKind::kGoap};
    case ScenarioKind::kHouse:
      if (sc.house.has_udgoap) return {SelectorKind::kGoap, SelectorKind::kUdgoap};
      return {SelectorKind::kGoap};
    case ScenarioKind::kHospital:
      break;
  }
  return {};
}

topoplan_status wrap(Result<SimScenario> sc, topoplan_sim** out, char* error, size_t error_size) {
  if (!sc) return fail(TOPOPLAN_INPUT_ERROR, sc.error().to_string(), error, error_size);
  auto s = std::make_unique<topoplan_sim>();
  s->scenario = std::move(sc).value();
  s->selectors = selectors_of(s->scenario);
  *out = s.release();
  return ok(error, error_size);
}

// The scenario's config (ArenaConfig, HouseConfig), cut at the options' max_seconds when shorter.
template <typename Config>
Config limited(Config c, const topoplan_sim_options& o) {
  if (o.max_seconds > 0 && o.max_seconds < c.max_seconds) c.max_seconds = o.max_seconds;
  return c;
}

// What every episode reports: its clock and the decision loop's counters.
void fill(topoplan_sim_result& r, int64_t ticks, double seconds, bool censored,
          const LoopCounters& counters) {
  r.ticks = ticks;
  r.seconds = seconds;
  r.censored = censored ? 1 : 0;
  r.decisions = counters.decisions;
  r.plans = counters.plans;
  r.plan_failures = counters.plan_failures;
  r.steps_done = counters.steps_done;
}

// Episode 0 of the arena: replay lines, then the end line, the header (which lists every
// antlion that appeared) in front.
void run_arena(topoplan_sim& s, SelectorKind kind, const topoplan_sim_options& o,
               topoplan_sim_result& r) {
  const ArenaConfig c = limited(s.scenario.arena, o);
  std::string text;
  ReplayWriter writer(o.replay_every > 0 ? &text : nullptr, o.replay_every);
  const ArenaEpisode ep = run_arena_episode(c, kind, stream_seed(o.seed, 0),
                                            writer.enabled() ? &writer : nullptr, nullptr);
  fill(r, ep.ticks, ep.lifespan, ep.censored, ep.counters);
  r.kills = ep.kills;
  s.replay.clear();
  if (!writer.enabled()) return;
  text += end_line(ep.ticks, ep.lifespan);
  append_key_number(text, ",\"result\":{\"lifespan\":", ep.lifespan);
  text += ",\"censored\":" + std::string(ep.censored ? "true" : "false") +
          ",\"kills\":" + std::to_string(ep.kills) + "}}\n";
  std::vector<HeaderAgent> agents = {{0, "wizard", "wizard"}};
  for (int32_t id : ep.antlion_ids)
    agents.push_back({id, "antlion_" + std::to_string(id), "antlion"});
  const std::string drives[] = {"health", "mana"};
  s.replay = replay_header(s.scenario.name, to_string(kind), o.seed, c.dt, c.width, c.height,
                           c.spawn_points, agents, drives) +
             text;
}

void run_house_episode(topoplan_sim& s, SelectorKind kind, const topoplan_sim_options& o,
                       topoplan_sim_result& r) {
  const HouseConfig c = limited(s.scenario.house, o);
  std::string text;
  ReplayWriter writer(o.replay_every > 0 ? &text : nullptr, o.replay_every);
  if (writer.enabled()) {
    const HeaderAgent agents[] = {{0, "sim", "sim"}};
    text = replay_header(s.scenario.name, to_string(kind), o.seed, c.dt, c.width, c.height, c.spots,
                         agents, c.drives);
  }
  const HouseRun h = run_house(c, kind, writer.enabled() ? &writer : nullptr, nullptr, false);
  fill(r, h.ticks, h.time, !h.reached, h.counters);
  s.replay.clear();
  if (!writer.enabled()) return;
  text += end_line(h.ticks, h.time);
  append_key_number(text, ",\"result\":{\"time\":", h.time);
  text += ",\"reached\":" + std::string(h.reached ? "true" : "false") + "}}\n";
  s.replay = std::move(text);
}

}  // namespace

// The definitions below take C linkage from their declarations in topoplan.h.

topoplan_status topoplan_sim_parse(const char* text, size_t size, const char* filename,
                                   const char* dir, topoplan_sim** out, char* error,
                                   size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
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
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
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
  if (sim == nullptr || index < 0 || static_cast<size_t>(index) >= sim->selectors.size())
    return nullptr;
  return to_string(sim->selectors[static_cast<size_t>(index)]).data();  // literals
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
    topoplan_sim_result r{};
    if (sim->scenario.kind == ScenarioKind::kArena)
      run_arena(*sim, kind, o, r);
    else
      run_house_episode(*sim, kind, o, r);
    if (result != nullptr) *result = r;
    return ok(error, error_size);
  });
}

topoplan_status topoplan_sim_replay(const topoplan_sim* sim, char* buffer, size_t capacity,
                                    size_t* size) {
  if (sim == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  return write_text(sim->replay, buffer, capacity, size);
}
