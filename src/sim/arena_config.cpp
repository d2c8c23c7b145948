// The ranges of ArenaConfig's numeric fields (include/topoplan/sim/arena.h): the same as the
// scenario file's (src/sim/scenario_toml.cpp), so that a config built in code is held to what a
// file may say. run_arena_episode asserts them in debug builds.
#include <array>
#include <cmath>
#include <span>

#include "runtime/limits/def_check.h"
#include "topoplan/sim/arena.h"

namespace topoplan::sim {

using def_check::Limited;

std::optional<Error> check(const LoopConfig& loop) {
  constexpr std::string_view kWhere = "LoopConfig";
  const std::array ints = {
      Limited{&limits::kLoopDecisionTicks, static_cast<double>(loop.decision_ticks)},
      Limited{&limits::kLoopReplanTicks, static_cast<double>(loop.replan_ticks)},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(ints))) return e;
  return check_limit(limits::kLoopBetterMargin, loop.better_margin, kWhere);
}

std::optional<Error> check(const ArenaConfig& c) {
  constexpr std::string_view kWhere = "ArenaConfig";
  const std::array fields = {
      Limited{&limits::kSimWidth, c.width},
      Limited{&limits::kSimHeight, c.height},
      Limited{&limits::kSimDt, c.dt},
      Limited{&limits::kSimMaxSeconds, c.max_seconds},
      Limited{&limits::kArenaSpawnMin, c.spawn_min},
      Limited{&limits::kArenaPotionMin, c.potion_min},
      Limited{&limits::kArenaPotionAmountMin, c.potion_amount_min},
      Limited{&limits::kArenaHealthPotionShare, c.health_potion_share},
      Limited{&limits::kArenaMaxHealth, c.max_health},
      Limited{&limits::kArenaMaxMana, c.max_mana},
      Limited{&limits::kArenaSpeed, c.speed},
      Limited{&limits::kArenaPickupRadius, c.pickup_radius},
      Limited{&limits::kArenaMeleeRange, c.melee_range},
      Limited{&limits::kArenaMeleeTime, c.melee_time},
      Limited{&limits::kArenaMeleeHit, c.melee_hit},
      Limited{&limits::kArenaMeleeDamage, c.melee_damage},
      Limited{&limits::kArenaLightningMana, c.lightning_mana},
      Limited{&limits::kArenaLightningRange, c.lightning_range},
      Limited{&limits::kArenaLightningTime, c.lightning_time},
      Limited{&limits::kArenaLightningMissMoving, c.lightning_miss_moving},
      Limited{&limits::kArenaBlastMana, c.blast_mana},
      Limited{&limits::kArenaBlastRadius, c.blast_radius},
      Limited{&limits::kArenaBlastTime, c.blast_time},
      Limited{&limits::kArenaHealMana, c.heal_mana},
      Limited{&limits::kArenaHealAmount, c.heal_amount},
      Limited{&limits::kArenaHealTime, c.heal_time},
      Limited{&limits::kArenaHeavyDamage, c.heavy_damage},
      Limited{&limits::kArenaAntlionSpeed, c.antlion_speed},
      Limited{&limits::kArenaAntlionHealth, c.antlion_health},
      Limited{&limits::kArenaBiteRange, c.bite_range},
      Limited{&limits::kArenaBiteDamage, c.bite_damage},
      Limited{&limits::kArenaBitePeriod, c.bite_period},
      Limited{&limits::kArenaBiteHit, c.bite_hit},
      Limited{&limits::kArenaFsmHealth, c.fsm_health},
      Limited{&limits::kArenaFsmMana, c.fsm_mana},
      Limited{&limits::kArenaCostGoto, c.cost_goto},
      Limited{&limits::kArenaCostMelee, c.cost_melee},
      Limited{&limits::kArenaCostLightning, c.cost_lightning},
      Limited{&limits::kArenaCostBlast, c.cost_blast},
      Limited{&limits::kArenaCostHeal, c.cost_heal},
      Limited{&limits::kArenaGoapHealth, c.goap_health},
      Limited{&limits::kArenaUdgoapNear, c.udgoap_near},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(fields))) return e;
  // Each end of an interval is on the table; the upper one may not be below the lower.
  const std::array ends = {
      Limited{&limits::kArenaSpawnMax, c.spawn_max},
      Limited{&limits::kArenaPotionMax, c.potion_max},
      Limited{&limits::kArenaPotionAmountMax, c.potion_amount_max},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(ends))) return e;
  if (auto e = def_check::range(kWhere, "spawn_max", c.spawn_max, c.spawn_min, 1e6)) return e;
  if (auto e = def_check::range(kWhere, "potion_max", c.potion_max, c.potion_min, 1e6)) return e;
  if (auto e = def_check::range(kWhere, "potion_amount_max", c.potion_amount_max,
                                c.potion_amount_min, 1e6))
    return e;
  const std::array ints = {
      Limited{&limits::kArenaMaxAntlions, static_cast<double>(c.max_antlions)},
      Limited{&limits::kArenaMaxPotions, static_cast<double>(c.max_potions)},
      Limited{&limits::kArenaFsmBlastCrowd, static_cast<double>(c.fsm_blast_crowd)},
      Limited{&limits::kArenaUdgoapEnemies, static_cast<double>(c.udgoap_enemies)},
      Limited{&limits::kArenaUdgoapPotions, static_cast<double>(c.udgoap_potions)},
      Limited{&limits::kSimUdgoapMaxExpansions, static_cast<double>(c.udgoap_max_expansions)},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(ints))) return e;
  if (c.spawn_points.empty()) return Error{"ArenaConfig: 'spawn_points' must not be empty", "", 0};
  for (const NamedSpot& s : c.spawn_points)  // the arena is centred on (0, 0)
    if (!(std::abs(s.pos.x) <= c.width / 2 && std::abs(s.pos.y) <= c.height / 2))
      return Error{"ArenaConfig: spawn point '" + s.name +
                       "' must lie in [-width/2, width/2] x [-height/2, height/2]",
                   "", 0};
  return check(c.loop);
}

}  // namespace topoplan::sim
