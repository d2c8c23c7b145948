// topoplan::sim — one recorded episode of a scenario and its replay, as `topoplan sim --replay`
// and the C API's topoplan_sim_run play it (both call this, so their replays are the same bytes).
// A replay is JSON Lines (docs/sim.md "Replays"): a header line, the recorded ticks' lines (the
// ReplayWriter handed to run_episode), then the end line with the episode's result.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "topoplan/sim/arena.h"
#include "topoplan/sim/core.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {

struct EpisodeOptions {
  SelectorKind selector = SelectorKind::kGoap;
  uint64_t seed = 1;
  double max_seconds = 0.0;  // > 0: the episode is cut there when the scenario's cut is later
  bool timing = false;       // measure decision CPU time (LoopCounters::decision_ns)
};

struct EpisodeRun {
  int64_t ticks = 0;
  double seconds = 0.0;   // arena: the wizard's lifespan; house: the time to the target
  bool censored = false;  // arena: cut at max_seconds; house: the target not reached
  LoopCounters counters;
  ArenaEpisode arena;  // the arena's episode (ScenarioKind::kArena)
  HouseRun house;      // the house's run (ScenarioKind::kHouse)
  std::string end;     // the replay's end line
};

// The selectors a scenario can run an episode with, its default first; none for a hospital (a
// crowd experiment without episodes or replays).
[[nodiscard]] std::vector<SelectorKind> episode_selectors(const SimScenario& sc);

// The arena's episode 0 (seed stream 0 of o.seed) or the house's run. Precondition: the
// scenario is an arena or a house and o.selector one of episode_selectors(sc).
[[nodiscard]] EpisodeRun run_episode(const SimScenario& sc, const EpisodeOptions& o,
                                     ReplayWriter* replay = nullptr,
                                     LoopObserver* observer = nullptr);

// The replay's header line. The arena's lists every antlion that appeared, so it needs the
// finished run (replay_header_needs_run); the house's is known before (`run` may be null).
[[nodiscard]] bool replay_header_needs_run(const SimScenario& sc);
[[nodiscard]] std::string replay_header(const SimScenario& sc, const EpisodeOptions& o,
                                        const EpisodeRun* run);

}  // namespace topoplan::sim
