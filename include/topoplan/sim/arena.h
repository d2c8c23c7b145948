// topoplan::sim — the wizard arena of Sloan (2015), chapter 6: a wizard fights an endless
// supply of antlions from four spawn points, potions appear now and then, and the measure is
// how long he lives. Three behaviour selectors: the HL2-style FSM (schedules, failure flags,
// health/mana thresholds), GOAP (A* on a small SAS+ domain, Table 6.1 costs, one goal by
// priority) and UDGOAP (the topoplan::udgoap planner on a scenario template whose drive weights
// are Table 6.2). Every number the thesis does not give is ours and listed in docs/sim.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topoplan/runtime/result.h"
#include "topoplan/sim/core.h"
#include "topoplan/udgoap/model.h"

namespace topoplan::sim {

enum class SelectorKind : uint8_t { kFsm, kGoap, kUdgoap };
[[nodiscard]] std::string_view to_string(SelectorKind k);

struct NamedSpot {
  std::string name;
  Vec2 pos;
};

struct ArenaConfig {
  std::string name = "arena";
  double width = 40.0;
  double height = 40.0;
  double dt = 0.05;
  double max_seconds = 3600.0;  // an episode longer than this is cut (censored)
  std::vector<NamedSpot> spawn_points;
  Vec2 wizard_start;
  // Spawning (thesis: antlions every 2.5–5 s, potions every 10–20 s worth 1–100).
  double spawn_min = 2.5, spawn_max = 5.0;
  double potion_min = 10.0, potion_max = 20.0;
  double potion_amount_min = 1.0, potion_amount_max = 100.0;
  double health_potion_share = 0.5;
  int32_t max_antlions = 128;
  int32_t max_potions = 32;
  // Wizard.
  double max_health = 100.0, max_mana = 100.0;
  double speed = 5.0;
  double pickup_radius = 1.0;
  double melee_range = 2.0, melee_time = 0.8, melee_hit = 0.75, melee_damage = 30.0;
  double lightning_mana = 20.0, lightning_range = 15.0, lightning_time = 1.0;
  double lightning_miss_moving = 0.3;
  double blast_mana = 60.0, blast_radius = 5.0, blast_time = 1.0;
  double heal_mana = 15.0, heal_amount = 25.0, heal_time = 1.0;
  double heavy_damage =
      15.0;  // damage during a cast (or since the last decision) that counts as heavy
  // Antlions.
  double antlion_speed = 3.5;
  double antlion_health = 30.0;
  double bite_range = 1.5, bite_damage = 5.0, bite_period = 1.0, bite_hit = 0.7;
  // FSM thresholds (thesis: health 35, mana 0).
  double fsm_health = 35.0;
  double fsm_mana = 0.0;
  int32_t fsm_blast_crowd = 3;
  // GOAP: Table 6.1 costs (scaled by 100 to integers) and the health goal's trigger.
  double cost_goto = 0.23, cost_melee = 0.38, cost_lightning = 0.71, cost_blast = 0.53,
         cost_heal = 0.30;
  double goap_health = 35.0;
  // The GOAP selector's search: forward A* (AStarPlanner) or, as the thesis's GOAP (Sloan 2015
  // §2.5.2.2), regressive A* from the goal (BackAStarPlanner). Both return an optimal plan; ties
  // between plans of equal cost may be settled differently.
  bool goap_backward = false;
  // UDGOAP: the template scenario (agent "wizard", prototypes "antlion", "health_potion",
  // "mana_potion", anything else kept as is) and how much of the world is planned over.
  udgoap::World udgoap_template;
  std::string udgoap_template_path;  // the file it was read from ("" when built in code)
  bool has_udgoap = false;
  int32_t udgoap_enemies = 4;
  int32_t udgoap_potions = 2;  // per kind
  double udgoap_near = 6.0;    // "near" radius for minimize_enemies_nearby
  int64_t udgoap_max_expansions = 400;
  LoopConfig loop;
};

struct ArenaEpisode {
  double lifespan = 0.0;  // simulated seconds
  bool censored = false;  // cut at max_seconds
  int64_t ticks = 0;
  int64_t kills = 0;
  int64_t spawned = 0;
  int64_t potions_taken = 0;
  std::array<int64_t, 5> actions_done{};  // per action: goto, melee, lightning, blast, heal
  LoopCounters counters;
  std::vector<int32_t> antlion_ids;  // every antlion that appeared (only with a replay)
};

// The accepted ranges of the config's numeric fields (those of the scenario file, docs/sim.md;
// LoopConfig: decision_ticks in [1, 10^6], replan_ticks in [0, 10^8], better_margin in
// [0, 1e6]): an Error naming the field and its range, nullopt when all hold.
[[nodiscard]] std::optional<Error> check(const LoopConfig& loop);
[[nodiscard]] std::optional<Error> check(const ArenaConfig& config);

// One episode (`cfg` must pass check(); asserted in debug builds). `replay` (may be null) gets the
// JSON Lines of docs/sim.md; `observer` (may be null) sees the wizard's decisions. `timing`
// measures CPU time per decision.
[[nodiscard]] ArenaEpisode run_arena_episode(const ArenaConfig& cfg, SelectorKind kind,
                                             uint64_t seed, ReplayWriter* replay = nullptr,
                                             LoopObserver* observer = nullptr, bool timing = false);

// Names for traces: "lightning(antlion_12)".
[[nodiscard]] std::string arena_step_name(const Step& s);
inline constexpr int32_t kArenaActions = 5;
[[nodiscard]] std::string_view arena_action_name(int32_t action);

}  // namespace topoplan::sim
