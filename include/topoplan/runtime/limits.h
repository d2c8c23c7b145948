// The table of numeric limits: every bounded field of the public option and Def structs that
// callers reach through more than one door (C++ create/plan functions, the C API, Python, the
// CLI), with its accepted range and what it counts. Every door checks a value against the same
// entry and reports it with the same words — "'max_seconds' (seconds of search; 0: none) must be
// in [0, 1e+09], found inf" — prefixed by where the value came from (a struct, an argument, a
// flag). NaN is outside every range.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "topoplan/runtime/result.h"

namespace topoplan {

struct LimitSpec {
  std::string_view name;   // the field's name in the C++ and C structs and in Python
  std::string_view flag;   // the CLI option that sets it ("" when the CLI has none)
  double lo, hi;           // accepted range, both ends included (integers are exact below 2^53)
  bool integer;            // an integer field
  std::string_view words;  // what it counts, for the message
  // Where a C++ and a C caller set it, as a message names it ("SearchLimits::max_expansions",
  // "topoplan_plan_options.max_expansions"); "" for fields whose limit never stops a planner.
  std::string_view cxx = {};
  std::string_view c = {};
  // Where a simulation scenario file sets it, as "table.key" (docs/sim.md); "" for none.
  std::string_view file = {};
};

namespace limits {
inline constexpr double kInt64Max = 9223372036854775807.0;
// Search limits (SearchLimits, topoplan_plan_options, plan(), the crowd's fallback_limits).
inline constexpr LimitSpec kMaxExpansions{"max_expansions",
                                          "--max-expansions",
                                          1,
                                          kInt64Max,
                                          true,
                                          "search nodes expanded",
                                          "SearchLimits::max_expansions",
                                          "topoplan_plan_options.max_expansions"};
// The CLI's --max-memory counts MiB.
inline constexpr LimitSpec kMaxMemoryBytes{"max_memory_bytes",
                                           "--max-memory",
                                           1,
                                           kInt64Max,
                                           true,
                                           "bytes of search memory",
                                           "SearchLimits::max_memory_bytes",
                                           "topoplan_plan_options.max_memory_bytes"};
inline constexpr LimitSpec kMaxSeconds{"max_seconds",
                                       "--max-seconds",
                                       0,
                                       1e9,
                                       false,
                                       "seconds of search; 0: none",
                                       "SearchLimits::max_seconds",
                                       "topoplan_plan_options.max_seconds"};
// UDGOAP (UdgoapLimits).
inline constexpr LimitSpec kUdgoapMaxExpansions{"max_expansions",
                                                "--max-expansions",
                                                1,
                                                1e12,
                                                true,
                                                "UDGOAP nodes expanded",
                                                "UdgoapLimits::max_expansions",
                                                "topoplan_udgoap_limits.max_expansions"};
inline constexpr LimitSpec kUdgoapMaxGenerated{"max_generated",
                                               "",
                                               0,
                                               1e12,
                                               true,
                                               "UDGOAP nodes generated",
                                               "UdgoapLimits::max_generated",
                                               "topoplan_udgoap_limits.max_generated"};
inline constexpr LimitSpec kUdgoapMaxPlanLength{"max_plan_length",
                                                "--max-plan-length",
                                                1,
                                                10000,
                                                true,
                                                "actions in a UDGOAP plan",
                                                "UdgoapLimits::max_plan_length",
                                                "topoplan_udgoap_limits.max_plan_length"};
// Plan cache (PlanCacheDef).
inline constexpr LimitSpec kCacheCapacity{
    "capacity", "", 1, 1 << 28, true, "cache entries, rounded up to a power of two"};
inline constexpr LimitSpec kCacheMaxPlanLength{"max_plan_length",         "", 0, 255, true,
                                               "actions of a cached plan"};
inline constexpr LimitSpec kCacheTableActions{"table_actions", "",   0,
                                              1 << 30,         true, "plan table slots"};
// Crowds (CrowdDef, topoplan_crowd_def, topoplan_crowd_chain, Python's Crowd). The fallback
// limits are the retries' (CrowdDef::fallback_limits; the C chain's and Python's fallback_*).
inline constexpr LimitSpec kCrowdWorkerCount{
    "worker_count", "", 1, 4096, true, "distinct worker indices of a crowd"};
inline constexpr LimitSpec kCrowdThreads{
    "threads", "--threads", 1, 1024, true, "threads of a crowd's built-in pool"};
inline constexpr LimitSpec kCrowdNpcsPerBlock{"npcs_per_block", "",   1,
                                              1 << 20,          true, "NPCs per unit of work"};
inline constexpr LimitSpec kCrowdWorkerMemoEntries{
    "worker_memo_entries", "", 0, 1 << 24, true, "memo entries per worker; 0: none"};
inline constexpr LimitSpec kCrowdFallbackBudget{
    "fallback_budget", "", 1, 1099511627776.0, true, "first-attempt expansions per NPC"};
inline constexpr LimitSpec kCrowdFallbackMaxExpansions{
    "fallback_limits.max_expansions", "", 1, 1099511627776.0, true, "retry expansions per NPC"};
inline constexpr LimitSpec kCrowdFallbackMaxMemoryBytes{
    "fallback_limits.max_memory_bytes", "", 1, 1125899906842624.0, true,
    "retry search memory in bytes"};
inline constexpr LimitSpec kCrowdFallbackMaxSeconds{
    "fallback_limits.max_seconds", "", 0, 1e9, false, "retry seconds per NPC; 0: none"};
// Crowd towns (TownDef, topoplan_town_def).
inline constexpr LimitSpec kTownNpcs{"npcs", "--npcs", 1, 10'000'000, true, "NPCs"};
inline constexpr LimitSpec kTownSituations{
    "situations_per_class", "--situations", 1, 10'000, true, "situations per NPC class"};
inline constexpr LimitSpec kTownBackgrounds{"backgrounds", "", 1, 65536, true, "background states"};
// Agent worlds (AgentWorldDef, topoplan_agents_def, Python's AgentWorld, `topoplan agents` and
// the [agents] table of its domain file).
inline constexpr LimitSpec kAgentsCapacity{"capacity", "--agents", 1,
                                           1 << 28,    true,       "agents a world may hold"};
inline constexpr LimitSpec kAgentsDecisionPeriod{
    "decision_period",       "", 1, 1 << 20, true, "frames between due examinations", "", "",
    "agents.decision_period"};
inline constexpr LimitSpec kAgentsMaxPlanAge{
    "max_plan_age",       "", 0, 1 << 30, true, "frames a plan may age; 0: never", "", "",
    "agents.max_plan_age"};
inline constexpr LimitSpec kAgentsMaxPlansPerFrame{
    "max_plans_per_frame", "--max-plans", 1, 2147483647.0, true, "agents planned per update"};
inline constexpr LimitSpec kAgentsMaxPlanLength{"max_plan_length",         "", 1, 255, true,
                                                "actions stored per agent"};
inline constexpr LimitSpec kAgentsMinAgentsPerPart{
    "min_agents_per_part", "", 64, 2147483647.0, true, "agents per part of an examination"};
inline constexpr LimitSpec kAgentsThreads{
    "threads", "--threads", 1, 256, true, "threads of an agent world's pool"};
inline constexpr LimitSpec kAgentsActionFrames{
    "action_frames",       "", 1, 1 << 16, true, "frames a scripted action runs", "", "",
    "agents.action_frames"};
// AgentWorld::update's dt (topoplan_agents_update, Python's AgentWorld.update): an infinite
// time would make every drive with a rate NaN.
inline constexpr LimitSpec kAgentsUpdateDt{"dt", "",    0,
                                           1e9,  false, "seconds since the last update"};

// Every entry, for documentation and the test that walks the doors.
inline constexpr LimitSpec kAll[] = {kMaxExpansions,
                                     kMaxMemoryBytes,
                                     kMaxSeconds,
                                     kUdgoapMaxExpansions,
                                     kUdgoapMaxGenerated,
                                     kUdgoapMaxPlanLength,
                                     kCacheCapacity,
                                     kCacheMaxPlanLength,
                                     kCacheTableActions,
                                     kCrowdWorkerCount,
                                     kCrowdThreads,
                                     kCrowdNpcsPerBlock,
                                     kCrowdWorkerMemoEntries,
                                     kCrowdFallbackBudget,
                                     kCrowdFallbackMaxExpansions,
                                     kCrowdFallbackMaxMemoryBytes,
                                     kCrowdFallbackMaxSeconds,
                                     kTownNpcs,
                                     kTownSituations,
                                     kTownBackgrounds,
                                     kAgentsCapacity,
                                     kAgentsDecisionPeriod,
                                     kAgentsMaxPlanAge,
                                     kAgentsMaxPlansPerFrame,
                                     kAgentsMaxPlanLength,
                                     kAgentsMinAgentsPerPart,
                                     kAgentsThreads,
                                     kAgentsActionFrames,
                                     kAgentsUpdateDt};
// Simulation configs (ArenaConfig, HouseConfig, HospitalConfig, LoopConfig): what a scenario
// file sets (`file`) and check() verifies. Ranges whose bound is another field (spawn_max >=
// spawn_min, max_seconds >= dt, a spot inside the world) are checked after these.
inline constexpr LimitSpec kSimDt{"dt", "", 1e-3,         1.0, false, "simulated seconds per tick",
                                  "",   "", "scenario.dt"};
inline constexpr LimitSpec kSimMaxSeconds{
    "max_seconds",         "", 0, 1e7, false, "simulated seconds of an episode", "", "",
    "scenario.max_seconds"};
inline constexpr LimitSpec kSimDecisionPeriod{
    "decision_period",         "", 1e-3, 60, false, "simulated seconds between decisions", "", "",
    "scenario.decision_period"};
inline constexpr LimitSpec kSimReplanPeriod{"replan_period",
                                            "",
                                            0,
                                            3600,
                                            false,
                                            "simulated seconds between replans; 0: none",
                                            "",
                                            "",
                                            "scenario.replan_period"};
inline constexpr LimitSpec kLoopDecisionTicks{"decision_ticks",          "", 1,  1'000'000, true,
                                              "ticks between decisions", "", "", ""};
inline constexpr LimitSpec kLoopReplanTicks{
    "replan_ticks", "", 0, 100'000'000, true, "ticks between replans; 0: none", "", "", ""};
inline constexpr LimitSpec kLoopBetterMargin{
    "better_margin", "", 0, 1e6, false, "score margin a new goal must beat", "", "", ""};
inline constexpr LimitSpec kSimWidth{
    "width", "", 1, 1e5, false, "world width in metres", "", "", "world.width"};
inline constexpr LimitSpec kSimHeight{
    "height", "", 1, 1e5, false, "world height in metres", "", "", "world.height"};
inline constexpr LimitSpec kSimUdgoapMaxExpansions{
    "udgoap_max_expansions", "", 1, 10'000'000, true, "UDGOAP nodes expanded per plan", "", "",
    "udgoap.max_expansions"};
inline constexpr LimitSpec kArenaSpawnMin{
    "spawn_min", "",    1e-3,
    1e6,         false, "shortest seconds between antlion spawns",
    "",          "",    "spawning.antlion_interval"};
inline constexpr LimitSpec kArenaSpawnMax{
    "spawn_max", "",    1e-3,
    1e6,         false, "longest seconds between antlion spawns",
    "",          "",    "spawning.antlion_interval"};
inline constexpr LimitSpec kArenaPotionMin{
    "potion_min", "",    1e-3,
    1e6,          false, "shortest seconds between potion spawns",
    "",           "",    "spawning.potion_interval"};
inline constexpr LimitSpec kArenaPotionMax{
    "potion_max", "",    1e-3,
    1e6,          false, "longest seconds between potion spawns",
    "",           "",    "spawning.potion_interval"};
inline constexpr LimitSpec kArenaPotionAmountMin{
    "potion_amount_min",     "", 0, 1e6, false, "smallest potion amount", "", "",
    "spawning.potion_amount"};
inline constexpr LimitSpec kArenaPotionAmountMax{
    "potion_amount_max",     "", 0, 1e6, false, "largest potion amount", "", "",
    "spawning.potion_amount"};
inline constexpr LimitSpec kArenaHealthPotionShare{
    "health_potion_share",         "", 0, 1, false, "probability that a potion heals", "", "",
    "spawning.health_potion_share"};
inline constexpr LimitSpec kArenaMaxAntlions{
    "max_antlions", "", 1, 4096, true, "antlions alive at once", "", "", "spawning.max_antlions"};
inline constexpr LimitSpec kArenaMaxPotions{
    "max_potions", "", 1, 4096, true, "potions lying at once", "", "", "spawning.max_potions"};
inline constexpr LimitSpec kArenaMaxHealth{
    "max_health", "", 1, 1e6, false, "the wizard's health", "", "", "wizard.health"};
inline constexpr LimitSpec kArenaMaxMana{"max_mana",          "", 0,  1e6,          false,
                                         "the wizard's mana", "", "", "wizard.mana"};
inline constexpr LimitSpec kArenaSpeed{
    "speed", "", 0, 1e3, false, "the wizard's metres per second", "", "", "wizard.speed"};
inline constexpr LimitSpec kArenaPickupRadius{
    "pickup_radius",       "", 0, 1e3, false, "metres to pick a potion up", "", "",
    "wizard.pickup_radius"};
inline constexpr LimitSpec kArenaHeavyDamage{
    "heavy_damage", "", 0, 1e6, false, "damage the wizard flees at", "", "", "wizard.heavy_damage"};
inline constexpr LimitSpec kArenaMeleeDamage{
    "melee_damage", "", 0, 1e6, false, "damage of a melee hit", "", "", "wizard.melee.damage"};
inline constexpr LimitSpec kArenaMeleeRange{
    "melee_range", "", 0, 1e3, false, "metres of melee reach", "", "", "wizard.melee.range"};
inline constexpr LimitSpec kArenaMeleeTime{
    "melee_time", "", 0, 60, false, "seconds of a melee attack", "", "", "wizard.melee.time"};
inline constexpr LimitSpec kArenaMeleeHit{
    "melee_hit",       "", 0, 1, false, "probability that a melee attack hits", "", "",
    "wizard.melee.hit"};
inline constexpr LimitSpec kArenaLightningMana{
    "lightning_mana",       "", 0, 1e6, false, "mana of a lightning bolt", "", "",
    "wizard.lightning.mana"};
inline constexpr LimitSpec kArenaLightningRange{
    "lightning_range",       "", 0, 1e4, false, "metres of lightning reach", "", "",
    "wizard.lightning.range"};
inline constexpr LimitSpec kArenaLightningTime{
    "lightning_time",       "", 0, 60, false, "seconds of a lightning cast", "", "",
    "wizard.lightning.time"};
inline constexpr LimitSpec kArenaLightningMissMoving{
    "lightning_miss_moving",
    "",
    0,
    1,
    false,
    "probability that lightning misses a moving target",
    "",
    "",
    "wizard.lightning.miss_moving"};
inline constexpr LimitSpec kArenaBlastMana{
    "blast_mana", "", 0, 1e6, false, "mana of a blast", "", "", "wizard.blast.mana"};
inline constexpr LimitSpec kArenaBlastRadius{
    "blast_radius", "", 0, 1e4, false, "metres of blast radius", "", "", "wizard.blast.radius"};
inline constexpr LimitSpec kArenaBlastTime{
    "blast_time", "", 0, 60, false, "seconds of a blast cast", "", "", "wizard.blast.time"};
inline constexpr LimitSpec kArenaHealMana{
    "heal_mana", "", 0, 1e6, false, "mana of a heal", "", "", "wizard.heal.mana"};
inline constexpr LimitSpec kArenaHealAmount{
    "heal_amount", "", 0, 1e6, false, "health a heal restores", "", "", "wizard.heal.amount"};
inline constexpr LimitSpec kArenaHealTime{
    "heal_time", "", 0, 60, false, "seconds of a heal cast", "", "", "wizard.heal.time"};
inline constexpr LimitSpec kArenaAntlionHealth{
    "antlion_health", "", 1e-3, 1e6, false, "an antlion's health", "", "", "antlion.health"};
inline constexpr LimitSpec kArenaAntlionSpeed{
    "antlion_speed", "", 0, 1e3, false, "an antlion's metres per second", "", "", "antlion.speed"};
inline constexpr LimitSpec kArenaBiteRange{"bite_range", "",    0,
                                           1e3,          false, "metres of an antlion's bite reach",
                                           "",           "",    "antlion.bite.range"};
inline constexpr LimitSpec kArenaBiteDamage{
    "bite_damage", "", 0, 1e6, false, "damage of a bite", "", "", "antlion.bite.damage"};
inline constexpr LimitSpec kArenaBitePeriod{
    "bite_period", "", 1e-3, 1e3, false, "seconds between bites", "", "", "antlion.bite.period"};
inline constexpr LimitSpec kArenaBiteHit{
    "bite_hit", "", 0, 1, false, "probability that a bite hits", "", "", "antlion.bite.hit"};
inline constexpr LimitSpec kArenaFsmHealth{
    "fsm_health", "", 0, 1e6, false, "health the FSM flees below", "", "", "fsm.health"};
inline constexpr LimitSpec kArenaFsmMana{
    "fsm_mana", "", 0, 1e6, false, "mana the FSM seeks potions below", "", "", "fsm.mana"};
inline constexpr LimitSpec kArenaFsmBlastCrowd{
    "fsm_blast_crowd", "", 1, 1000, true, "antlions near that make the FSM blast", "", "",
    "fsm.blast_crowd"};
inline constexpr LimitSpec kArenaGoapHealth{
    "goap_health", "", 0, 1e6, false, "health GOAP heals below", "", "", "goap.health_goal_below"};
inline constexpr LimitSpec kArenaCostGoto{
    "cost_goto", "", 0, 1e6, false, "GOAP cost of goto", "", "", "goap.costs.goto"};
inline constexpr LimitSpec kArenaCostMelee{
    "cost_melee", "", 0, 1e6, false, "GOAP cost of melee", "", "", "goap.costs.melee"};
inline constexpr LimitSpec kArenaCostLightning{
    "cost_lightning", "", 0, 1e6, false, "GOAP cost of lightning", "", "", "goap.costs.lightning"};
inline constexpr LimitSpec kArenaCostBlast{
    "cost_blast", "", 0, 1e6, false, "GOAP cost of blast", "", "", "goap.costs.blast"};
inline constexpr LimitSpec kArenaCostHeal{
    "cost_heal", "", 0, 1e6, false, "GOAP cost of heal", "", "", "goap.costs.heal"};
inline constexpr LimitSpec kArenaUdgoapEnemies{
    "udgoap_enemies", "", 0, 64, true, "antlions in a UDGOAP world", "", "", "udgoap.enemies"};
inline constexpr LimitSpec kArenaUdgoapPotions{
    "udgoap_potions", "", 0, 16, true, "potions in a UDGOAP world", "", "", "udgoap.potions"};
inline constexpr LimitSpec kArenaUdgoapNear{
    "udgoap_near", "", 0, 1e4, false, "metres within which UDGOAP sees things", "", "",
    "udgoap.near"};
inline constexpr LimitSpec kHouseSpeed{
    "speed", "", 1e-3, 1e3, false, "the resident's metres per second", "", "", "house.speed"};
inline constexpr LimitSpec kHouseTarget{
    "target", "", 0, 99.999, false, "drive level an activity fills to", "", "", "house.target"};
inline constexpr LimitSpec kHouseActivityEnergy{
    "activity_energy",      "", 0, 1e3, false, "energy an activity drains per second", "", "",
    "house.activity_energy"};
inline constexpr LimitSpec kHouseGotoCost{"goto_cost",         "", 0,  1'000'000,        true,
                                          "GOAP cost of goto", "", "", "house.goto_cost"};
inline constexpr LimitSpec kHouseSwitchMargin{
    "switch_margin",     "", 0, 100, false, "score margin a new goal must beat", "", "",
    "goap.switch_margin"};
inline constexpr LimitSpec kHouseDecay{
    "decay", "", 0, 1e3, false, "drive points lost per second", "", "", "drive.decay"};
inline constexpr LimitSpec kHouseInitial{
    "initial", "", 0, 100, false, "drive level at the start", "", "", "drive.initial"};
inline constexpr LimitSpec kHouseCost{
    "cost", "", 0, 1'000'000, true, "GOAP cost of an action", "", "", "action.cost"};
inline constexpr LimitSpec kHouseDuration{
    "duration", "", 1e-3, 1e5, false, "seconds of an action", "", "", "action.duration"};
inline constexpr LimitSpec kHouseGain{
    "gain", "", -1e4, 1e4, false, "drive points an action adds per second", "", "", "action.gain"};
// HospitalConfig::seconds: the file sets it as scenario.max_seconds (kSimMaxSeconds).
inline constexpr LimitSpec kHospitalSeconds{"seconds", "",    0,
                                            1e7,       false, "simulated seconds of an episode"};
inline constexpr LimitSpec kHospitalNpcs{
    "npcs", "", 1, 1'000'000, true, "NPCs of the timed run", "", "", "hospital.npcs"};
inline constexpr LimitSpec kHospitalThreshold{
    "threshold", "", 0, 100, false, "need level an NPC acts on", "", "", "hospital.threshold"};
inline constexpr LimitSpec kHospitalNurses{
    "nurses", "", 0, 10'000, true, "nurses in the mix", "", "", "hospital.mix.nurses"};
inline constexpr LimitSpec kHospitalDoctors{
    "doctors", "", 0, 10'000, true, "doctors in the mix", "", "", "hospital.mix.doctors"};
inline constexpr LimitSpec kHospitalVisitors{
    "visitors", "", 0, 10'000, true, "visitors in the mix", "", "", "hospital.mix.visitors"};
inline constexpr LimitSpec kHospitalMedDecay{
    "med_decay", "",    0,
    1e3,         false, "medication points lost per second",
    "",          "",    "hospital.decay.medication"};
inline constexpr LimitSpec kHospitalFoodDecay{
    "food_decay", "", 0, 1e3, false, "food points lost per second", "", "", "hospital.decay.food"};
inline constexpr LimitSpec kHospitalCompanyDecay{
    "company_decay",         "", 0, 1e3, false, "company points lost per second", "", "",
    "hospital.decay.company"};
inline constexpr LimitSpec kHospitalRestDecay{
    "rest_decay", "", 0, 1e3, false, "rest points lost per second", "", "", "hospital.decay.rest"};
inline constexpr LimitSpec kHospitalAdminRate{"admin_rate", "",    0,
                                              1e3,          false, "admin points gained per second",
                                              "",           "",    "hospital.decay.admin"};
inline constexpr LimitSpec kHospitalChartRate{"chart_rate", "",    0,
                                              1e3,          false, "chart points gained per second",
                                              "",           "",    "hospital.decay.chart"};
inline constexpr LimitSpec kHospitalTGoto{
    "t_goto", "", 0, 1e4, false, "seconds of goto", "", "", "hospital.durations.goto"};
inline constexpr LimitSpec kHospitalTGet{
    "t_get", "", 0, 1e4, false, "seconds of get", "", "", "hospital.durations.get"};
inline constexpr LimitSpec kHospitalTMedicate{
    "t_medicate", "", 0, 1e4, false, "seconds of medicate", "", "", "hospital.durations.medicate"};
inline constexpr LimitSpec kHospitalTFeed{
    "t_feed", "", 0, 1e4, false, "seconds of feed", "", "", "hospital.durations.feed"};
inline constexpr LimitSpec kHospitalTBreak{
    "t_break", "", 0, 1e4, false, "seconds of break", "", "", "hospital.durations.break"};
inline constexpr LimitSpec kHospitalTAdmin{
    "t_admin", "", 0, 1e4, false, "seconds of admin", "", "", "hospital.durations.admin"};
inline constexpr LimitSpec kHospitalTChart{
    "t_chart", "", 0, 1e4, false, "seconds of chart", "", "", "hospital.durations.chart"};
inline constexpr LimitSpec kHospitalTChat{
    "t_chat", "", 0, 1e4, false, "seconds of chat", "", "", "hospital.durations.chat"};
inline constexpr LimitSpec kHospitalWMed{"w_med", "",    0,
                                         1e3,     false, "weight of the medication need",
                                         "",      "",    "hospital.weights.medication"};
inline constexpr LimitSpec kHospitalWFood{
    "w_food", "", 0, 1e3, false, "weight of the food need", "", "", "hospital.weights.food"};
inline constexpr LimitSpec kHospitalWRest{
    "w_rest", "", 0, 1e3, false, "weight of the rest need", "", "", "hospital.weights.rest"};
inline constexpr LimitSpec kHospitalWAdmin{
    "w_admin", "", 0, 1e3, false, "weight of the admin need", "", "", "hospital.weights.admin"};
inline constexpr LimitSpec kHospitalWChart{
    "w_chart", "", 0, 1e3, false, "weight of the chart need", "", "", "hospital.weights.chart"};
inline constexpr LimitSpec kHospitalWChat{
    "w_chat", "", 0, 1e3, false, "weight of the company need", "", "", "hospital.weights.company"};
inline constexpr LimitSpec kHospitalCrowdSeconds{
    "crowd_seconds", "", 0, 1e5, false, "wall-clock seconds of a crowd timing", "", "",
    "crowd.seconds"};
inline constexpr LimitSpec kHospitalCrowdNpcs{
    "crowd_npcs", "", 1, 10'000'000, true, "NPCs of a crowd timing", "", "", "crowd.npcs"};
inline constexpr LimitSpec kHospitalThreads{
    "threads", "--threads", 1, 256, true, "crowd planning threads", "", "", "crowd.threads"};
// Every simulation entry, for the test that walks the scenario files and the configs.
inline constexpr LimitSpec kSimAll[] = {kSimDt,
                                        kSimMaxSeconds,
                                        kSimDecisionPeriod,
                                        kSimReplanPeriod,
                                        kLoopDecisionTicks,
                                        kLoopReplanTicks,
                                        kLoopBetterMargin,
                                        kSimWidth,
                                        kSimHeight,
                                        kSimUdgoapMaxExpansions,
                                        kArenaSpawnMin,
                                        kArenaSpawnMax,
                                        kArenaPotionMin,
                                        kArenaPotionMax,
                                        kArenaPotionAmountMin,
                                        kArenaPotionAmountMax,
                                        kArenaHealthPotionShare,
                                        kArenaMaxAntlions,
                                        kArenaMaxPotions,
                                        kArenaMaxHealth,
                                        kArenaMaxMana,
                                        kArenaSpeed,
                                        kArenaPickupRadius,
                                        kArenaHeavyDamage,
                                        kArenaMeleeDamage,
                                        kArenaMeleeRange,
                                        kArenaMeleeTime,
                                        kArenaMeleeHit,
                                        kArenaLightningMana,
                                        kArenaLightningRange,
                                        kArenaLightningTime,
                                        kArenaLightningMissMoving,
                                        kArenaBlastMana,
                                        kArenaBlastRadius,
                                        kArenaBlastTime,
                                        kArenaHealMana,
                                        kArenaHealAmount,
                                        kArenaHealTime,
                                        kArenaAntlionHealth,
                                        kArenaAntlionSpeed,
                                        kArenaBiteRange,
                                        kArenaBiteDamage,
                                        kArenaBitePeriod,
                                        kArenaBiteHit,
                                        kArenaFsmHealth,
                                        kArenaFsmMana,
                                        kArenaFsmBlastCrowd,
                                        kArenaGoapHealth,
                                        kArenaCostGoto,
                                        kArenaCostMelee,
                                        kArenaCostLightning,
                                        kArenaCostBlast,
                                        kArenaCostHeal,
                                        kArenaUdgoapEnemies,
                                        kArenaUdgoapPotions,
                                        kArenaUdgoapNear,
                                        kHouseSpeed,
                                        kHouseTarget,
                                        kHouseActivityEnergy,
                                        kHouseGotoCost,
                                        kHouseSwitchMargin,
                                        kHouseDecay,
                                        kHouseInitial,
                                        kHouseCost,
                                        kHouseDuration,
                                        kHouseGain,
                                        kHospitalSeconds,
                                        kHospitalNpcs,
                                        kHospitalThreshold,
                                        kHospitalNurses,
                                        kHospitalDoctors,
                                        kHospitalVisitors,
                                        kHospitalMedDecay,
                                        kHospitalFoodDecay,
                                        kHospitalCompanyDecay,
                                        kHospitalRestDecay,
                                        kHospitalAdminRate,
                                        kHospitalChartRate,
                                        kHospitalTGoto,
                                        kHospitalTGet,
                                        kHospitalTMedicate,
                                        kHospitalTFeed,
                                        kHospitalTBreak,
                                        kHospitalTAdmin,
                                        kHospitalTChart,
                                        kHospitalTChat,
                                        kHospitalWMed,
                                        kHospitalWFood,
                                        kHospitalWRest,
                                        kHospitalWAdmin,
                                        kHospitalWChart,
                                        kHospitalWChat,
                                        kHospitalCrowdSeconds,
                                        kHospitalCrowdNpcs,
                                        kHospitalThreads};
// Smart ambiance scenarios (AmbianceScenario, CostModifier, AmbianceNpcType; the ambiance file's
// keys, `topoplan ambiance`): check() and the file reader refuse a value with the same words.
// A modifier's start is the file's `delay` (a template's start is relative to its trigger).
inline constexpr LimitSpec kAmbianceCost{
    "cost", "", 0, 1099511627776.0, true, "cost of an action", "", "", "action.cost"};
inline constexpr LimitSpec kAmbianceActionTime{
    "action_time",         "", 0, 1e9, false, "seconds per executed action", "", "",
    "scenario.action_time"};
inline constexpr LimitSpec kAmbianceMaxSteps{
    "max_steps", "", 1, 1e6, true, "decisions per NPC", "", "", "scenario.max_steps"};
inline constexpr LimitSpec kAmbianceDelay{"delay", "",    0,
                                          1e9,     false, "seconds before a modifier starts",
                                          "",      "",    "modifier.booster.delay"};
inline constexpr LimitSpec kAmbianceDuration{
    "duration", "", 0, 1e9, false, "seconds a modifier lasts", "", "", "modifier.booster.duration"};
inline constexpr LimitSpec kAmbianceAmount{
    "amount", "", -1e12, 1e12, false, "cost a modifier adds", "", "", "modifier.booster.amount"};
// Every ambiance entry, for the test that walks the file reader and check().
inline constexpr LimitSpec kAmbianceAll[] = {kAmbianceCost,  kAmbianceActionTime, kAmbianceMaxSteps,
                                             kAmbianceDelay, kAmbianceDuration,   kAmbianceAmount};
}  // namespace limits

// "'name' (words) must be an integer in [lo, hi], found v" (reals: "must be a number in") — the
// words every door uses; the CLI's range clause is the same ("--npcs: must be an integer in
// [1, 10000000], got '0'").
[[nodiscard]] std::string limit_message(const LimitSpec& spec, double value);
// nullopt when `value` is in range (and an integer for integer fields); else an Error whose
// message is `where` + ": " + limit_message(...).
[[nodiscard]] std::optional<Error> check_limit(const LimitSpec& spec, double value,
                                               std::string_view where);
[[nodiscard]] std::optional<Error> check_limit(const LimitSpec& spec, int64_t value,
                                               std::string_view where);

// A limit that stops a planner is named in its message the way the caller's door sets it. The
// library words the message for C++ callers and every other door rewrites it with
// limit_words_for, so "raise SearchLimits::max_expansions" reaches a C caller as "raise
// topoplan_plan_options.max_expansions", Python as "raise max_expansions=" and the CLI as "raise
// --max-expansions".
enum class LimitDoor { kCxx, kC, kPython, kCli };
// How `door` names the field (the table's name where the door has no spelling of its own).
[[nodiscard]] std::string limit_field(const LimitSpec& spec, LimitDoor door);
// "raise A, B or C" with the C++ spellings of `specs`: the clause of a LIMIT_REACHED message.
[[nodiscard]] std::string raise_limits(std::span<const LimitSpec* const> specs);
// `message` with every C++ spelling of a limit of the table replaced by `door`'s.
[[nodiscard]] std::string limit_words_for(std::string message, LimitDoor door);

}  // namespace topoplan
