// topoplan sim --replay: a scenario's first episode (topoplan/sim/episode.h, as the C API runs
// it) with its replay written as the simulation produces it, never held whole. The file goes
// through OutputFile (checked against the inputs, renamed into place at the end); when the header
// needs the finished run (the arena's lists the antlions that appeared) the lines go first to an
// unlinked temporary file beside the output, then after the header.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "topoplan/sim/episode.h"

namespace topoplan::cli {

// `path` empty: no replay. nullopt: the replay could not be written (reported on stderr).
[[nodiscard]] std::optional<sim::EpisodeRun> run_recorded(const sim::SimScenario& sc,
                                                          const sim::EpisodeOptions& eo,
                                                          sim::LoopObserver* observer,
                                                          const std::string& path, int32_t every,
                                                          std::span<const std::string> inputs);

}  // namespace topoplan::cli
