// Reader of simulation scenario files (docs/sim.md): "file:line: message" on bad input.
#include <cmath>
#include <filesystem>

#include "scenario_reader.h"
#include "topoplan/sim/scenario.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::sim {
namespace scenario_detail {

constexpr std::uintmax_t kMaxFileSize = 4u << 20;

bool Reader::read_common(const toml::table& root, SimScenario& s, LoopConfig& loop, double& dt,
                         double& max_seconds) {
  const toml::node* sn = root.get("scenario");
  if (sn == nullptr || !sn->is_table()) {
    return fail(sn != nullptr ? line_of(*sn) : 1, "the file needs a [scenario] table with 'kind'");
  }
  const toml::table& t = *sn->as_table();
  if (!check_keys(t, {"kind", "name", "dt", "max_seconds", "decision_period", "replan_period"},
                  "[scenario]")) {
    return false;
  }
  std::string kind;
  int kind_line = 0;
  if (!get_string(t, "kind", "[scenario]", true, Empty::kReject, kind, &kind_line)) return false;
  if (kind == "arena") {
    s.kind = ScenarioKind::kArena;
  } else if (kind == "house") {
    s.kind = ScenarioKind::kHouse;
  } else if (kind == "hospital") {
    s.kind = ScenarioKind::kHospital;
  } else {
    return fail(
        kind_line,
        "'kind' of [scenario] must be \"arena\", \"house\" or \"hospital\", found " + quote(kind));
  }
  if (!get_string(t, "name", "[scenario]", false, Empty::kReject, s.name)) return false;
  if (!num(t, "dt", "[scenario]", limits::kSimDt, dt)) return false;
  if (!num(t, "max_seconds", "[scenario]", limits::kSimMaxSeconds, max_seconds) ||
      !num(t, "max_seconds", "[scenario]", dt, 1e7, max_seconds)) {
    return false;
  }
  double decision = 0.2;
  double replan = 2.0;
  if (!num(t, "decision_period", "[scenario]", limits::kSimDecisionPeriod, decision) ||
      !num(t, "decision_period", "[scenario]", dt, 60.0, decision)) {
    return false;
  }
  if (!num(t, "replan_period", "[scenario]", limits::kSimReplanPeriod, replan)) return false;
  loop.decision_ticks = std::max(1, static_cast<int32_t>(std::lround(decision / dt)));
  loop.replan_ticks = static_cast<int32_t>(std::lround(replan / dt));
  return true;
}

bool Reader::read_spots(const toml::table& root, std::vector<NamedSpot>& spots, double w,
                        double h) {
  std::vector<const toml::table*> ts;
  if (!array_of_tables(root, "spot", ts)) return false;
  for (const toml::table* t : ts) {
    if (!check_keys(*t, {"name", "x", "y"}, "[[spot]]")) return false;
    NamedSpot s;
    int name_line = 0;
    if (!get_string(*t, "name", "[[spot]]", true, Empty::kReject, s.name, &name_line)) return false;
    for (const NamedSpot& o : spots) {
      if (o.name == s.name) return fail(name_line, "duplicate spot " + quote(s.name));
    }
    if (t->get("x") == nullptr) return fail_missing(line_of(*t), "[[spot]]", "x");
    if (t->get("y") == nullptr) return fail_missing(line_of(*t), "[[spot]]", "y");
    if (!num(*t, "x", "[[spot]]", -w / 2, w / 2, s.pos.x)) return false;
    if (!num(*t, "y", "[[spot]]", -h / 2, h / 2, s.pos.y)) return false;
    spots.push_back(std::move(s));
  }
  return true;
}

bool Reader::read_arena(const toml::table& root, ArenaConfig& c) {
  if (!check_keys(
          root,
          {"scenario", "world", "spot", "spawning", "wizard", "antlion", "fsm", "goap", "udgoap"},
          "the file")) {
    return false;
  }
  bool ok = true;
  if (const toml::table* w =
          section(root, "world", "[world]", {"width", "height", "wizard_start"},
                  {{limits::kSimWidth, &c.width}, {limits::kSimHeight, &c.height}}, ok)) {
    if (!point(*w, "wizard_start", "[world]", c.wizard_start)) return false;
  }
  if (!ok) return false;
  if (!read_spots(root, c.spawn_points, c.width, c.height)) return false;
  if (c.spawn_points.empty())
    return fail(line_of(root), "the arena needs at least one [[spot]] (spawn point)");
  return read_arena_spawning(root, c) && read_wizard(root, c) && read_antlion(root, c) &&
         read_arena_goap(root, c) && read_arena_udgoap(root, c);
}

bool Reader::read_arena_spawning(const toml::table& root, ArenaConfig& c) {
  bool ok = true;
  const std::string where = "[spawning]";
  const toml::table* t = section(root, "spawning", where,
                                 {"antlion_interval", "potion_interval", "potion_amount",
                                  "health_potion_share", "max_antlions", "max_potions"},
                                 {}, ok);
  if (t == nullptr) return ok;
  return range(*t, "antlion_interval", where, limits::kArenaSpawnMin, limits::kArenaSpawnMax,
               c.spawn_min, c.spawn_max) &&
         range(*t, "potion_interval", where, limits::kArenaPotionMin, limits::kArenaPotionMax,
               c.potion_min, c.potion_max) &&
         range(*t, "potion_amount", where, limits::kArenaPotionAmountMin,
               limits::kArenaPotionAmountMax, c.potion_amount_min, c.potion_amount_max) &&
         fields(*t, where,
                {{limits::kArenaHealthPotionShare, &c.health_potion_share},
                 {limits::kArenaMaxAntlions, &c.max_antlions},
                 {limits::kArenaMaxPotions, &c.max_potions}});
}

bool Reader::read_wizard(const toml::table& root, ArenaConfig& c) {
  bool ok = true;
  const toml::table* t = section(root, "wizard", "[wizard]",
                                 {"health", "mana", "speed", "pickup_radius", "heavy_damage",
                                  "melee", "lightning", "blast", "heal"},
                                 {{limits::kArenaMaxHealth, &c.max_health},
                                  {limits::kArenaMaxMana, &c.max_mana},
                                  {limits::kArenaSpeed, &c.speed},
                                  {limits::kArenaPickupRadius, &c.pickup_radius},
                                  {limits::kArenaHeavyDamage, &c.heavy_damage}},
                                 ok);
  if (t == nullptr) return ok;
  section(*t, "melee", "wizard.melee", {"range", "time", "hit", "damage"},
          {{limits::kArenaMeleeDamage, &c.melee_damage},
           {limits::kArenaMeleeRange, &c.melee_range},
           {limits::kArenaMeleeTime, &c.melee_time},
           {limits::kArenaMeleeHit, &c.melee_hit}},
          ok);
  if (!ok) return false;
  section(*t, "lightning", "wizard.lightning", {"mana", "range", "time", "miss_moving"},
          {{limits::kArenaLightningMana, &c.lightning_mana},
           {limits::kArenaLightningRange, &c.lightning_range},
           {limits::kArenaLightningTime, &c.lightning_time},
           {limits::kArenaLightningMissMoving, &c.lightning_miss_moving}},
          ok);
  if (!ok) return false;
  section(*t, "blast", "wizard.blast", {"mana", "radius", "time"},
          {{limits::kArenaBlastMana, &c.blast_mana},
           {limits::kArenaBlastRadius, &c.blast_radius},
           {limits::kArenaBlastTime, &c.blast_time}},
          ok);
  if (!ok) return false;
  section(*t, "heal", "wizard.heal", {"mana", "amount", "time"},
          {{limits::kArenaHealMana, &c.heal_mana},
           {limits::kArenaHealAmount, &c.heal_amount},
           {limits::kArenaHealTime, &c.heal_time}},
          ok);
  return ok;
}

bool Reader::read_antlion(const toml::table& root, ArenaConfig& c) {
  bool ok = true;
  const toml::table* t = section(root, "antlion", "[antlion]", {"speed", "health", "bite"},
                                 {{limits::kArenaAntlionHealth, &c.antlion_health},
                                  {limits::kArenaAntlionSpeed, &c.antlion_speed}},
                                 ok);
  if (t == nullptr) return ok;
  section(*t, "bite", "antlion.bite", {"range", "damage", "period", "hit"},
          {{limits::kArenaBiteRange, &c.bite_range},
           {limits::kArenaBiteDamage, &c.bite_damage},
           {limits::kArenaBitePeriod, &c.bite_period},
           {limits::kArenaBiteHit, &c.bite_hit}},
          ok);
  return ok;
}

// [fsm] and [goap]: the thresholds and costs of the two scripted selectors.
bool Reader::read_arena_goap(const toml::table& root, ArenaConfig& c) {
  bool ok = true;
  section(root, "fsm", "[fsm]", {"health", "mana", "blast_crowd"},
          {{limits::kArenaFsmHealth, &c.fsm_health},
           {limits::kArenaFsmMana, &c.fsm_mana},
           {limits::kArenaFsmBlastCrowd, &c.fsm_blast_crowd}},
          ok);
  if (!ok) return false;
  const toml::table* t = section(root, "goap", "[goap]", {"costs", "health_goal_below", "planner"},
                                 {{limits::kArenaGoapHealth, &c.goap_health}}, ok);
  if (t == nullptr) return ok;
  std::string planner = "astar";
  int planner_line = 0;
  if (!get_string(*t, "planner", "[goap]", false, Empty::kReject, planner, &planner_line)) {
    return false;
  }
  if (planner != "astar" && planner != "astar-back") {
    return fail(planner_line,
                "'planner' of [goap] must be \"astar\" or \"astar-back\", found " + quote(planner));
  }
  c.goap_backward = planner == "astar-back";
  section(*t, "costs", "goap.costs", {"goto", "melee", "lightning", "blast", "heal"},
          {{limits::kArenaCostGoto, &c.cost_goto},
           {limits::kArenaCostMelee, &c.cost_melee},
           {limits::kArenaCostLightning, &c.cost_lightning},
           {limits::kArenaCostBlast, &c.cost_blast},
           {limits::kArenaCostHeal, &c.cost_heal}},
          ok);
  return ok;
}

bool Reader::read_arena_udgoap(const toml::table& root, ArenaConfig& c) {
  bool ok = true;
  const std::string where = "[udgoap]";
  const toml::table* t = section(
      root, "udgoap", where, {"template", "enemies", "potions", "near", "max_expansions"}, {}, ok);
  if (t == nullptr) return ok;
  std::string path;
  int path_line = 0;
  if (!get_string(*t, "template", where, true, Empty::kReject, path, &path_line)) return false;
  if (!fields(*t, where,
              {{limits::kArenaUdgoapEnemies, &c.udgoap_enemies},
               {limits::kArenaUdgoapPotions, &c.udgoap_potions},
               {limits::kArenaUdgoapNear, &c.udgoap_near},
               {limits::kSimUdgoapMaxExpansions, &c.udgoap_max_expansions}})) {
    return false;
  }
  const std::filesystem::path full = std::filesystem::path(dir_) / path;
  Result<udgoap::Scenario> tpl = udgoap::load_scenario(full.string());
  if (!tpl) {
    return fail(path_line, "cannot load the UDGOAP template: " + tpl.error().to_string());
  }
  c.udgoap_template = std::move(tpl.value().world);
  c.udgoap_template_path = full.string();
  if (!c.udgoap_template.find_entity("antlion")) {
    return fail(path_line, "the UDGOAP template has no entity 'antlion' (the enemy prototype)");
  }
  c.has_udgoap = true;
  return true;
}

bool Reader::read_hospital(const toml::table& root, HospitalConfig& c) {
  if (!check_keys(root, {"scenario", "hospital", "crowd"}, "the file")) return false;
  bool ok = true;
  const toml::table* t = section(
      root, "hospital", "[hospital]", {"npcs", "mix", "threshold", "decay", "durations", "weights"},
      {{limits::kHospitalNpcs, &c.npcs}, {limits::kHospitalThreshold, &c.threshold}}, ok);
  if (t == nullptr) return ok && read_crowd(root, c);
  if (const toml::table* m = section(*t, "mix", "hospital.mix", {"nurses", "doctors", "visitors"},
                                     {{limits::kHospitalNurses, &c.nurses},
                                      {limits::kHospitalDoctors, &c.doctors},
                                      {limits::kHospitalVisitors, &c.visitors}},
                                     ok)) {
    if (c.nurses + c.doctors + c.visitors == 0)
      return fail(line_of(*m), "the mix needs at least one NPC");
  }
  if (!ok) return false;
  section(*t, "decay", "hospital.decay",
          {"medication", "food", "company", "rest", "admin", "chart"},
          {{limits::kHospitalMedDecay, &c.med_decay},
           {limits::kHospitalFoodDecay, &c.food_decay},
           {limits::kHospitalCompanyDecay, &c.company_decay},
           {limits::kHospitalRestDecay, &c.rest_decay},
           {limits::kHospitalAdminRate, &c.admin_rate},
           {limits::kHospitalChartRate, &c.chart_rate}},
          ok);
  if (!ok) return false;
  section(*t, "durations", "hospital.durations",
          {"goto", "get", "medicate", "feed", "break", "admin", "chart", "chat"},
          {{limits::kHospitalTGoto, &c.t_goto},
           {limits::kHospitalTGet, &c.t_get},
           {limits::kHospitalTMedicate, &c.t_medicate},
           {limits::kHospitalTFeed, &c.t_feed},
           {limits::kHospitalTBreak, &c.t_break},
           {limits::kHospitalTAdmin, &c.t_admin},
           {limits::kHospitalTChart, &c.t_chart},
           {limits::kHospitalTChat, &c.t_chat}},
          ok);
  if (!ok) return false;
  section(*t, "weights", "hospital.weights",
          {"medication", "food", "rest", "admin", "chart", "company"},
          {{limits::kHospitalWMed, &c.w_med},
           {limits::kHospitalWFood, &c.w_food},
           {limits::kHospitalWRest, &c.w_rest},
           {limits::kHospitalWAdmin, &c.w_admin},
           {limits::kHospitalWChart, &c.w_chart},
           {limits::kHospitalWChat, &c.w_chat}},
          ok);
  return ok && read_crowd(root, c);
}

bool Reader::read_crowd(const toml::table& root, HospitalConfig& c) {
  bool ok = true;
  const std::string where = "[crowd]";
  const toml::table* t = section(
      root, "crowd", where, {"npcs", "seconds", "threads", "cache"},
      {{limits::kHospitalCrowdSeconds, &c.crowd_seconds}, {limits::kHospitalThreads, &c.threads}},
      ok);
  if (t == nullptr) return ok;
  if (!get_bool(*t, "cache", where, c.cache)) return false;
  if (const toml::node* n = t->get("npcs")) {
    const toml::array* a = n->as_array();
    if (a == nullptr) return fail(line_of(*n), "'npcs' of [crowd] must be an array of integers");
    c.crowd_npcs.clear();
    for (const toml::node& el : *a) {
      const auto v = el.value<int64_t>();
      if (!el.is_integer() || !v)
        return fail(line_of(el), "'npcs' of [crowd] must be an array of integers");
      if (auto e = check_limit(limits::kHospitalCrowdNpcs, *v, "'npcs' of [crowd]"))
        return fail(line_of(el), e->message);
      c.crowd_npcs.push_back(*v);
    }
  }
  return true;
}

Result<SimScenario> Reader::read(std::string_view text) {
  toml::table root;
  if (!parse(text, root)) return err_;
  SimScenario s;
  double dt = 0.05;
  double max_seconds = 3600.0;
  LoopConfig loop;
  if (!read_common(root, s, loop, dt, max_seconds)) return err_;
  if (s.kind == ScenarioKind::kArena) {
    ArenaConfig& c = s.arena;
    c.dt = dt;
    c.max_seconds = max_seconds;
    c.loop = loop;
    if (!read_arena(root, c)) return err_;
    c.name = s.name.empty() ? "arena" : s.name;
    if (auto bad = check(c)) return Error{bad->message, file_, 1};  // the reader missed a range
  } else if (s.kind == ScenarioKind::kHouse) {
    HouseConfig& c = s.house;
    c.dt = dt;
    c.max_seconds = max_seconds;
    c.loop = loop;
    if (!read_house(root, c)) return err_;
    if (auto bad = check(c)) return Error{bad->message, file_, 1};  // the reader missed a range
    c.name = s.name.empty() ? "house" : s.name;
  } else {
    HospitalConfig& c = s.hospital;
    c.dt = dt;
    c.seconds = max_seconds;
    c.decision_ticks = loop.decision_ticks;
    if (!read_hospital(root, c)) return err_;
    if (auto bad = check(c)) return Error{bad->message, file_, 1};  // the reader missed a range
    c.name = s.name.empty() ? "hospital" : s.name;
  }
  if (s.name.empty()) s.name = "scenario";
  return s;
}

}  // namespace scenario_detail

using scenario_detail::kMaxFileSize;
using scenario_detail::Reader;

Result<SimScenario> parse_sim_scenario(std::string_view text, const std::string& filename,
                                       const std::string& dir) {
  return Reader(filename, dir).read(text);
}

Result<SimScenario> load_sim_scenario(const std::string& path) {
  auto text = toml_detail::read_text_file(path, kMaxFileSize);
  if (!text) return text.error();
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return parse_sim_scenario(text.value(), path, dir.empty() ? "." : dir);
}

}  // namespace topoplan::sim
