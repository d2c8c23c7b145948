// The ranges of ArenaConfig's numeric fields (include/topoplan/sim/arena.h): the same as the
// scenario file's (src/sim/scenario_toml.cpp), so that a config built in code is held to what a
// file may say. run_arena_episode asserts them in debug builds.
#include <array>
#include <cmath>
#include <span>

#include "runtime/limits/def_check.h"
#include "topoplan/sim/arena.h"

namespace topoplan::sim {

using def_check::Field;
using def_check::IntField;

std::optional<Error> check(const LoopConfig& loop) {
  constexpr std::string_view kWhere = "LoopConfig";
  const std::array ints = {
      IntField{"decision_ticks", loop.decision_ticks, 1, 1'000'000},
      IntField{"replan_ticks", loop.replan_ticks, 0, 100'000'000},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const IntField>(ints))) return e;
  return def_check::range(kWhere, "better_margin", loop.better_margin, 0.0, 1e6);
}

std::optional<Error> check(const ArenaConfig& c) {
  constexpr std::string_view kWhere = "ArenaConfig";
  const std::array fields = {
      Field{"width", c.width, 1.0, 1e5},
      Field{"height", c.height, 1.0, 1e5},
      Field{"dt", c.dt, 1e-3, 1.0},
      Field{"max_seconds", c.max_seconds, 0.0, 1e7},
      Field{"spawn_min", c.spawn_min, 1e-3, 1e6},
      Field{"spawn_max", c.spawn_max, c.spawn_min, 1e6},
      Field{"potion_min", c.potion_min, 1e-3, 1e6},
      Field{"potion_max", c.potion_max, c.potion_min, 1e6},
      Field{"potion_amount_min", c.potion_amount_min, 0.0, 1e6},
      Field{"potion_amount_max", c.potion_amount_max, c.potion_amount_min, 1e6},
      Field{"health_potion_share", c.health_potion_share, 0.0, 1.0},
      Field{"max_health", c.max_health, 1.0, 1e6},
      Field{"max_mana", c.max_mana, 0.0, 1e6},
      Field{"speed", c.speed, 0.0, 1e3},
      Field{"pickup_radius", c.pickup_radius, 0.0, 1e3},
      Field{"melee_range", c.melee_range, 0.0, 1e3},
      Field{"melee_time", c.melee_time, 0.0, 60.0},
      Field{"melee_hit", c.melee_hit, 0.0, 1.0},
      Field{"melee_damage", c.melee_damage, 0.0, 1e6},
      Field{"lightning_mana", c.lightning_mana, 0.0, 1e6},
      Field{"lightning_range", c.lightning_range, 0.0, 1e4},
      Field{"lightning_time", c.lightning_time, 0.0, 60.0},
      Field{"lightning_miss_moving", c.lightning_miss_moving, 0.0, 1.0},
      Field{"blast_mana", c.blast_mana, 0.0, 1e6},
      Field{"blast_radius", c.blast_radius, 0.0, 1e4},
      Field{"blast_time", c.blast_time, 0.0, 60.0},
      Field{"heal_mana", c.heal_mana, 0.0, 1e6},
      Field{"heal_amount", c.heal_amount, 0.0, 1e6},
      Field{"heal_time", c.heal_time, 0.0, 60.0},
      Field{"heavy_damage", c.heavy_damage, 0.0, 1e6},
      Field{"antlion_speed", c.antlion_speed, 0.0, 1e3},
      Field{"antlion_health", c.antlion_health, 1e-3, 1e6},
      Field{"bite_range", c.bite_range, 0.0, 1e3},
      Field{"bite_damage", c.bite_damage, 0.0, 1e6},
      Field{"bite_period", c.bite_period, 1e-3, 1e3},
      Field{"bite_hit", c.bite_hit, 0.0, 1.0},
      Field{"fsm_health", c.fsm_health, 0.0, 1e6},
      Field{"fsm_mana", c.fsm_mana, 0.0, 1e6},
      Field{"cost_goto", c.cost_goto, 0.0, 1e6},
      Field{"cost_melee", c.cost_melee, 0.0, 1e6},
      Field{"cost_lightning", c.cost_lightning, 0.0, 1e6},
      Field{"cost_blast", c.cost_blast, 0.0, 1e6},
      Field{"cost_heal", c.cost_heal, 0.0, 1e6},
      Field{"goap_health", c.goap_health, 0.0, 1e6},
      Field{"udgoap_near", c.udgoap_near, 0.0, 1e4},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const Field>(fields))) return e;
  const std::array ints = {
      IntField{"max_antlions", c.max_antlions, 1, 4096},
      IntField{"max_potions", c.max_potions, 1, 4096},
      IntField{"fsm_blast_crowd", c.fsm_blast_crowd, 1, 1000},
      IntField{"udgoap_enemies", c.udgoap_enemies, 0, 64},
      IntField{"udgoap_potions", c.udgoap_potions, 0, 16},
      IntField{"udgoap_max_expansions", c.udgoap_max_expansions, 1, 10'000'000},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const IntField>(ints))) return e;
  if (c.spawn_points.empty()) return Error{"ArenaConfig: 'spawn_points' must not be empty", "", 0};
  for (const NamedSpot& s : c.spawn_points)  // the arena is centred on (0, 0)
    if (!(std::abs(s.pos.x) <= c.width / 2 && std::abs(s.pos.y) <= c.height / 2))
      return Error{"ArenaConfig: spawn point '" + s.name +
                       "' must lie in [-width/2, width/2] x [-height/2, height/2]",
                   "", 0};
  return check(c.loop);
}

}  // namespace topoplan::sim
