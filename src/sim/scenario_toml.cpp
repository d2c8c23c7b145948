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
  if (const toml::table* w = table(root, "world", ok)) {
    if (!check_keys(*w, {"width", "height", "wizard_start"}, "[world]")) return false;
    if (!num(*w, "width", "[world]", limits::kSimWidth, c.width)) return false;
    if (!num(*w, "height", "[world]", limits::kSimHeight, c.height)) return false;
    if (!point(*w, "wizard_start", "[world]", c.wizard_start)) return false;
  }
  if (!ok) return false;
  if (!read_spots(root, c.spawn_points, c.width, c.height)) return false;
  if (c.spawn_points.empty())
    return fail(line_of(root), "the arena needs at least one [[spot]] (spawn point)");
  if (const toml::table* t = table(root, "spawning", ok)) {
    const std::string where = "[spawning]";
    if (!check_keys(*t,
                    {"antlion_interval", "potion_interval", "potion_amount", "health_potion_share",
                     "max_antlions", "max_potions"},
                    where)) {
      return false;
    }
    if (!range(*t, "antlion_interval", where, limits::kArenaSpawnMin, limits::kArenaSpawnMax,
               c.spawn_min, c.spawn_max))
      return false;
    if (!range(*t, "potion_interval", where, limits::kArenaPotionMin, limits::kArenaPotionMax,
               c.potion_min, c.potion_max))
      return false;
    if (!range(*t, "potion_amount", where, limits::kArenaPotionAmountMin,
               limits::kArenaPotionAmountMax, c.potion_amount_min, c.potion_amount_max)) {
      return false;
    }
    if (!num(*t, "health_potion_share", where, limits::kArenaHealthPotionShare,
             c.health_potion_share))
      return false;
    if (!integer(*t, "max_antlions", where, limits::kArenaMaxAntlions, c.max_antlions))
      return false;
    if (!integer(*t, "max_potions", where, limits::kArenaMaxPotions, c.max_potions)) return false;
  }
  if (!ok) return false;
  if (const toml::table* t = table(root, "wizard", ok)) {
    const std::string where = "[wizard]";
    if (!check_keys(*t,
                    {"health", "mana", "speed", "pickup_radius", "heavy_damage", "melee",
                     "lightning", "blast", "heal"},
                    where)) {
      return false;
    }
    if (!num(*t, "health", where, limits::kArenaMaxHealth, c.max_health)) return false;
    if (!num(*t, "mana", where, limits::kArenaMaxMana, c.max_mana)) return false;
    if (!num(*t, "speed", where, limits::kArenaSpeed, c.speed)) return false;
    if (!num(*t, "pickup_radius", where, limits::kArenaPickupRadius, c.pickup_radius)) return false;
    if (!num(*t, "heavy_damage", where, limits::kArenaHeavyDamage, c.heavy_damage)) return false;
    if (const toml::table* m = table(*t, "melee", ok)) {
      if (!check_keys(*m, {"range", "time", "hit", "damage"}, "wizard.melee")) return false;
      if (!num(*m, "damage", "wizard.melee", limits::kArenaMeleeDamage, c.melee_damage))
        return false;
      if (!num(*m, "range", "wizard.melee", limits::kArenaMeleeRange, c.melee_range)) return false;
      if (!num(*m, "time", "wizard.melee", limits::kArenaMeleeTime, c.melee_time)) return false;
      if (!num(*m, "hit", "wizard.melee", limits::kArenaMeleeHit, c.melee_hit)) return false;
    }
    if (const toml::table* m = table(*t, "lightning", ok)) {
      if (!check_keys(*m, {"mana", "range", "time", "miss_moving"}, "wizard.lightning"))
        return false;
      if (!num(*m, "mana", "wizard.lightning", limits::kArenaLightningMana, c.lightning_mana))
        return false;
      if (!num(*m, "range", "wizard.lightning", limits::kArenaLightningRange, c.lightning_range))
        return false;
      if (!num(*m, "time", "wizard.lightning", limits::kArenaLightningTime, c.lightning_time))
        return false;
      if (!num(*m, "miss_moving", "wizard.lightning", limits::kArenaLightningMissMoving,
               c.lightning_miss_moving))
        return false;
    }
    if (const toml::table* m = table(*t, "blast", ok)) {
      if (!check_keys(*m, {"mana", "radius", "time"}, "wizard.blast")) return false;
      if (!num(*m, "mana", "wizard.blast", limits::kArenaBlastMana, c.blast_mana)) return false;
      if (!num(*m, "radius", "wizard.blast", limits::kArenaBlastRadius, c.blast_radius))
        return false;
      if (!num(*m, "time", "wizard.blast", limits::kArenaBlastTime, c.blast_time)) return false;
    }
    if (const toml::table* m = table(*t, "heal", ok)) {
      if (!check_keys(*m, {"mana", "amount", "time"}, "wizard.heal")) return false;
      if (!num(*m, "mana", "wizard.heal", limits::kArenaHealMana, c.heal_mana)) return false;
      if (!num(*m, "amount", "wizard.heal", limits::kArenaHealAmount, c.heal_amount)) return false;
      if (!num(*m, "time", "wizard.heal", limits::kArenaHealTime, c.heal_time)) return false;
    }
  }
  if (!ok) return false;
  if (const toml::table* t = table(root, "antlion", ok)) {
    if (!check_keys(*t, {"speed", "health", "bite"}, "[antlion]")) return false;
    if (!num(*t, "health", "[antlion]", limits::kArenaAntlionHealth, c.antlion_health))
      return false;
    if (!num(*t, "speed", "[antlion]", limits::kArenaAntlionSpeed, c.antlion_speed)) return false;
    if (const toml::table* m = table(*t, "bite", ok)) {
      if (!check_keys(*m, {"range", "damage", "period", "hit"}, "antlion.bite")) return false;
      if (!num(*m, "range", "antlion.bite", limits::kArenaBiteRange, c.bite_range)) return false;
      if (!num(*m, "damage", "antlion.bite", limits::kArenaBiteDamage, c.bite_damage)) return false;
      if (!num(*m, "period", "antlion.bite", limits::kArenaBitePeriod, c.bite_period)) return false;
      if (!num(*m, "hit", "antlion.bite", limits::kArenaBiteHit, c.bite_hit)) return false;
    }
  }
  if (!ok) return false;
  if (const toml::table* t = table(root, "fsm", ok)) {
    if (!check_keys(*t, {"health", "mana", "blast_crowd"}, "[fsm]")) return false;
    if (!num(*t, "health", "[fsm]", limits::kArenaFsmHealth, c.fsm_health)) return false;
    if (!num(*t, "mana", "[fsm]", limits::kArenaFsmMana, c.fsm_mana)) return false;
    if (!integer(*t, "blast_crowd", "[fsm]", limits::kArenaFsmBlastCrowd, c.fsm_blast_crowd))
      return false;
  }
  if (!ok) return false;
  if (const toml::table* t = table(root, "goap", ok)) {
    if (!check_keys(*t, {"costs", "health_goal_below", "planner"}, "[goap]")) return false;
    if (!num(*t, "health_goal_below", "[goap]", limits::kArenaGoapHealth, c.goap_health))
      return false;
    std::string planner = "astar";
    int planner_line = 0;
    if (!get_string(*t, "planner", "[goap]", false, Empty::kReject, planner, &planner_line)) {
      return false;
    }
    if (planner != "astar" && planner != "astar-back") {
      return fail(planner_line, "'planner' of [goap] must be \"astar\" or \"astar-back\", found " +
                                    quote(planner));
    }
    c.goap_backward = planner == "astar-back";
    if (const toml::table* m = table(*t, "costs", ok)) {
      const std::string where = "goap.costs";
      if (!check_keys(*m, {"goto", "melee", "lightning", "blast", "heal"}, where)) return false;
      if (!num(*m, "goto", where, limits::kArenaCostGoto, c.cost_goto)) return false;
      if (!num(*m, "melee", where, limits::kArenaCostMelee, c.cost_melee)) return false;
      if (!num(*m, "lightning", where, limits::kArenaCostLightning, c.cost_lightning)) return false;
      if (!num(*m, "blast", where, limits::kArenaCostBlast, c.cost_blast)) return false;
      if (!num(*m, "heal", where, limits::kArenaCostHeal, c.cost_heal)) return false;
    }
  }
  if (!ok) return false;
  if (const toml::table* t = table(root, "udgoap", ok)) {
    const std::string where = "[udgoap]";
    if (!check_keys(*t, {"template", "enemies", "potions", "near", "max_expansions"}, where)) {
      return false;
    }
    std::string path;
    int path_line = 0;
    if (!get_string(*t, "template", where, true, Empty::kReject, path, &path_line)) return false;
    if (!integer(*t, "enemies", where, limits::kArenaUdgoapEnemies, c.udgoap_enemies)) return false;
    if (!integer(*t, "potions", where, limits::kArenaUdgoapPotions, c.udgoap_potions)) return false;
    if (!num(*t, "near", where, limits::kArenaUdgoapNear, c.udgoap_near)) return false;
    if (!integer(*t, "max_expansions", where, limits::kSimUdgoapMaxExpansions,
                 c.udgoap_max_expansions)) {
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
  }
  return ok;
}

bool Reader::read_hospital(const toml::table& root, HospitalConfig& c) {
  if (!check_keys(root, {"scenario", "hospital", "crowd"}, "the file")) return false;
  bool ok = true;
  if (const toml::table* t = table(root, "hospital", ok)) {
    const std::string where = "[hospital]";
    if (!check_keys(*t, {"npcs", "mix", "threshold", "decay", "durations", "weights"}, where)) {
      return false;
    }
    if (!integer(*t, "npcs", where, limits::kHospitalNpcs, c.npcs)) return false;
    if (!num(*t, "threshold", where, limits::kHospitalThreshold, c.threshold)) return false;
    if (const toml::table* m = table(*t, "mix", ok)) {
      if (!check_keys(*m, {"nurses", "doctors", "visitors"}, "hospital.mix")) return false;
      if (!integer(*m, "nurses", "hospital.mix", limits::kHospitalNurses, c.nurses)) return false;
      if (!integer(*m, "doctors", "hospital.mix", limits::kHospitalDoctors, c.doctors))
        return false;
      if (!integer(*m, "visitors", "hospital.mix", limits::kHospitalVisitors, c.visitors))
        return false;
      if (c.nurses + c.doctors + c.visitors == 0)
        return fail(line_of(*m), "the mix needs at least one NPC");
    }
    if (const toml::table* m = table(*t, "decay", ok)) {
      const std::string w = "hospital.decay";
      if (!check_keys(*m, {"medication", "food", "company", "rest", "admin", "chart"}, w))
        return false;
      if (!num(*m, "medication", w, limits::kHospitalMedDecay, c.med_decay) ||
          !num(*m, "food", w, limits::kHospitalFoodDecay, c.food_decay) ||
          !num(*m, "company", w, limits::kHospitalCompanyDecay, c.company_decay) ||
          !num(*m, "rest", w, limits::kHospitalRestDecay, c.rest_decay) ||
          !num(*m, "admin", w, limits::kHospitalAdminRate, c.admin_rate) ||
          !num(*m, "chart", w, limits::kHospitalChartRate, c.chart_rate)) {
        return false;
      }
    }
    if (const toml::table* m = table(*t, "durations", ok)) {
      const std::string w = "hospital.durations";
      if (!check_keys(*m, {"goto", "get", "medicate", "feed", "break", "admin", "chart", "chat"},
                      w)) {
        return false;
      }
      if (!num(*m, "goto", w, limits::kHospitalTGoto, c.t_goto) ||
          !num(*m, "get", w, limits::kHospitalTGet, c.t_get) ||
          !num(*m, "medicate", w, limits::kHospitalTMedicate, c.t_medicate) ||
          !num(*m, "feed", w, limits::kHospitalTFeed, c.t_feed) ||
          !num(*m, "break", w, limits::kHospitalTBreak, c.t_break) ||
          !num(*m, "admin", w, limits::kHospitalTAdmin, c.t_admin) ||
          !num(*m, "chart", w, limits::kHospitalTChart, c.t_chart) ||
          !num(*m, "chat", w, limits::kHospitalTChat, c.t_chat)) {
        return false;
      }
    }
    if (const toml::table* m = table(*t, "weights", ok)) {
      const std::string w = "hospital.weights";
      if (!check_keys(*m, {"medication", "food", "rest", "admin", "chart", "company"}, w))
        return false;
      if (!num(*m, "medication", w, limits::kHospitalWMed, c.w_med) ||
          !num(*m, "food", w, limits::kHospitalWFood, c.w_food) ||
          !num(*m, "rest", w, limits::kHospitalWRest, c.w_rest) ||
          !num(*m, "admin", w, limits::kHospitalWAdmin, c.w_admin) ||
          !num(*m, "chart", w, limits::kHospitalWChart, c.w_chart) ||
          !num(*m, "company", w, limits::kHospitalWChat, c.w_chat)) {
        return false;
      }
    }
  }
  if (!ok) return false;
  if (const toml::table* t = table(root, "crowd", ok)) {
    const std::string where = "[crowd]";
    if (!check_keys(*t, {"npcs", "seconds", "threads", "cache"}, where)) return false;
    if (!num(*t, "seconds", where, limits::kHospitalCrowdSeconds, c.crowd_seconds)) return false;
    if (!integer(*t, "threads", where, limits::kHospitalThreads, c.threads)) return false;
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
  }
  return ok;
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
