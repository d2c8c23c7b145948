// One recorded episode and its replay's header and end lines (topoplan/sim/episode.h).
#include "topoplan/sim/episode.h"

#include <span>
#include <string_view>

namespace topoplan::sim {
namespace {

struct HeaderAgent {
  int32_t id;
  std::string name;
  std::string kind;
};

void key_string(std::string& s, const char* key, std::string_view value) {
  s += key;
  ReplayWriter::append_string(s, value);
}

void key_number(std::string& s, const char* key, double value) {
  s += key;
  ReplayWriter::append_number(s, value);
}

std::string header_line(const std::string& scenario, std::string_view selector, uint64_t seed,
                        double dt, double width, double height, std::span<const NamedSpot> spots,
                        std::span<const HeaderAgent> agents, std::span<const std::string> drives) {
  std::string s;
  key_string(s, "{\"type\":\"header\",\"version\":1,\"scenario\":", scenario);
  key_string(s, ",\"selector\":", selector);
  s += ",\"seed\":" + std::to_string(seed);
  key_number(s, ",\"dt\":", dt);
  key_number(s, ",\"world\":{\"width\":", width);
  key_number(s, ",\"height\":", height);
  s += "},\"spots\":[";
  for (size_t i = 0; i < spots.size(); ++i) {
    key_string(s, i ? ",{\"name\":" : "{\"name\":", spots[i].name);
    key_number(s, ",\"x\":", spots[i].pos.x);
    key_number(s, ",\"y\":", spots[i].pos.y);
    s += "}";
  }
  s += "],\"agents\":[";
  for (size_t i = 0; i < agents.size(); ++i) {
    s += (i ? ",{\"id\":" : "{\"id\":") + std::to_string(agents[i].id);
    key_string(s, ",\"name\":", agents[i].name);
    key_string(s, ",\"kind\":", agents[i].kind);
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

std::string end_start(int64_t ticks, double t) {
  std::string s = "{\"type\":\"end\",\"tick\":" + std::to_string(ticks);
  key_number(s, ",\"t\":", t);
  return s;
}

template <typename Config>
Config cut(Config c, double max_seconds) {
  if (max_seconds > 0 && max_seconds < c.max_seconds) c.max_seconds = max_seconds;
  return c;
}

}  // namespace

std::vector<SelectorKind> episode_selectors(const SimScenario& sc) {
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

EpisodeRun run_episode(const SimScenario& sc, const EpisodeOptions& o, ReplayWriter* replay,
                       LoopObserver* observer) {
  EpisodeRun r;
  if (sc.kind == ScenarioKind::kArena) {
    r.arena = run_arena_episode(cut(sc.arena, o.max_seconds), o.selector, stream_seed(o.seed, 0),
                                replay, observer, o.timing);
    r.ticks = r.arena.ticks;
    r.seconds = r.arena.lifespan;
    r.censored = r.arena.censored;
    r.counters = r.arena.counters;
    r.end = end_start(r.ticks, r.seconds);
    key_number(r.end, ",\"result\":{\"lifespan\":", r.seconds);
    r.end += ",\"censored\":" + std::string(r.censored ? "true" : "false") +
             ",\"kills\":" + std::to_string(r.arena.kills) + "}}\n";
  } else {
    r.house = run_house(cut(sc.house, o.max_seconds), o.selector, replay, observer, o.timing);
    r.ticks = r.house.ticks;
    r.seconds = r.house.time;
    r.censored = !r.house.reached;
    r.counters = r.house.counters;
    r.end = end_start(r.ticks, r.seconds);
    key_number(r.end, ",\"result\":{\"time\":", r.seconds);
    r.end += ",\"reached\":" + std::string(r.house.reached ? "true" : "false") + "}}\n";
  }
  return r;
}

bool replay_header_needs_run(const SimScenario& sc) {
  return sc.kind == ScenarioKind::kArena;
}

std::string replay_header(const SimScenario& sc, const EpisodeOptions& o, const EpisodeRun* run) {
  const std::string_view selector = to_string(o.selector);
  if (sc.kind == ScenarioKind::kArena) {
    const ArenaConfig& c = sc.arena;
    std::vector<HeaderAgent> agents = {{0, "wizard", "wizard"}};
    if (run != nullptr)
      for (int32_t id : run->arena.antlion_ids)
        agents.push_back({id, "antlion_" + std::to_string(id), "antlion"});
    const std::string drives[] = {"health", "mana"};
    return header_line(sc.name, selector, o.seed, c.dt, c.width, c.height, c.spawn_points, agents,
                       drives);
  }
  const HouseConfig& c = sc.house;
  const HeaderAgent agents[] = {{0, "sim", "sim"}};
  return header_line(sc.name, selector, o.seed, c.dt, c.width, c.height, c.spots, agents, c.drives);
}

}  // namespace topoplan::sim
