// The wizard arena (Sloan 2015, ch. 6): world, the wizard's actions, three selectors.
#include "topoplan/sim/arena.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <memory>

#include "topoplan/astar.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::sim {

namespace {

enum ArenaAction : int32_t { kGoto = 0, kMelee = 1, kLightning = 2, kBlast = 3, kHeal = 4 };

struct Antlion {
  bool alive = false;
  int32_t id = 0;  // unique per episode (target ids of plan steps)
  Vec2 pos;
  double health = 0.0;
  double bite_clock = 0.0;
  bool moving = true;
};
struct Potion {
  bool alive = false;
  int32_t id = 0;
  bool health = true;
  double amount = 0.0;
  Vec2 pos;
};

// ---------------------------------------------------------------------------------------------
class Arena final : public Environment {
 public:
  Arena(const ArenaConfig& cfg, uint64_t seed, ReplayWriter* replay)
      : cfg_(cfg), rng_(seed), replay_(replay) {
    antlions_.resize(static_cast<size_t>(std::max(1, cfg.max_antlions)));
    potions_.resize(static_cast<size_t>(std::max(1, cfg.max_potions)));
    pos_ = cfg.wizard_start;
    health_ = cfg.max_health;
    mana_ = cfg.max_mana;
    next_spawn_ = rng_.uniform(cfg.spawn_min, cfg.spawn_max);
    next_potion_ = rng_.uniform(cfg.potion_min, cfg.potion_max);
  }

  // --- sensing (selectors read these) ---
  const ArenaConfig& cfg() const { return cfg_; }
  Vec2 pos() const { return pos_; }
  double health() const { return health_; }
  double mana() const { return mana_; }
  std::span<const Antlion> antlions() const { return antlions_; }
  std::span<const Potion> potions() const { return potions_; }
  double damage_since_decision() const { return damage_since_decision_; }
  void clear_decision_damage() { damage_since_decision_ = 0.0; }
  const Antlion* antlion(int32_t id) const {
    for (const Antlion& a : antlions_) {
      if (a.alive && a.id == id) return &a;
    }
    return nullptr;
  }
  const Potion* potion(int32_t id) const {
    for (const Potion& p : potions_) {
      if (p.alive && p.id == id) return &p;
    }
    return nullptr;
  }
  const Antlion* nearest_antlion() const {
    const Antlion* best = nullptr;
    double bd = 0.0;
    for (const Antlion& a : antlions_) {
      if (!a.alive) continue;
      const double d = distance(a.pos, pos_);
      if (best == nullptr || d < bd) best = &a, bd = d;
    }
    return best;
  }
  const Potion* nearest_potion(bool health) const {
    const Potion* best = nullptr;
    double bd = 0.0;
    for (const Potion& p : potions_) {
      if (!p.alive || p.health != health) continue;
      const double d = distance(p.pos, pos_);
      if (best == nullptr || d < bd) best = &p, bd = d;
    }
    return best;
  }
  int32_t antlions_within(double r) const {
    int32_t n = 0;
    for (const Antlion& a : antlions_) n += (a.alive && distance(a.pos, pos_) <= r) ? 1 : 0;
    return n;
  }
  bool dead() const { return health_ <= 0.0; }
  ArenaEpisode& stats() { return stats_; }

  // --- Environment ---
  bool applicable(int32_t, const Step& s) const override {
    switch (s.action) {
      case kGoto:
        return antlion(s.target) != nullptr || potion(s.target) != nullptr;
      case kMelee: {
        const Antlion* a = antlion(s.target);
        return a != nullptr && distance(a->pos, pos_) <= cfg_.melee_range + 0.25;
      }
      case kLightning: {
        const Antlion* a = antlion(s.target);
        return mana_ >= cfg_.lightning_mana && a != nullptr &&
               distance(a->pos, pos_) <= cfg_.lightning_range;
      }
      case kBlast:
        return mana_ >= cfg_.blast_mana;
      case kHeal:
        return mana_ >= cfg_.heal_mana && health_ < cfg_.max_health;
      default:
        return false;
    }
  }
  void begin(int32_t, const Step& s) override {
    timer_ = 0.0;
    cast_pos_ = pos_;
    damage_in_action_ = 0.0;
    if (s.action == kLightning) mana_ -= cfg_.lightning_mana;
    if (s.action == kBlast) mana_ -= cfg_.blast_mana;
    if (s.action == kHeal) mana_ -= cfg_.heal_mana;
  }
  StepStatus advance(int32_t npc, const Step& s, double dt) override {
    const StepStatus st = advance_step(npc, s, dt);
    if (st == StepStatus::kDone && s.action >= 0 && s.action < kArenaActions) {
      ++stats_.actions_done[static_cast<size_t>(s.action)];
    }
    return st;
  }
  StepStatus advance_step(int32_t, const Step& s, double dt) {
    timer_ += dt;
    switch (s.action) {
      case kGoto: {
        Vec2 goal;
        double arrive = 0.0;
        if (const Antlion* a = antlion(s.target)) {
          goal = a->pos;
          arrive = cfg_.melee_range * 0.9;
        } else if (const Potion* p = potion(s.target)) {
          goal = p->pos;
          arrive = 0.0;
        } else {
          // The potion we walked to was picked up on arrival (pickups run after this step), or
          // the target is gone.
          return picked_ == s.target ? StepStatus::kDone : StepStatus::kFailed;
        }
        if (distance(goal, pos_) <= arrive) return StepStatus::kDone;
        pos_ = move_toward(pos_, goal, cfg_.speed * dt);
        pickups();
        if (picked_ == s.target) return StepStatus::kDone;
        return distance(goal, pos_) <= arrive ? StepStatus::kDone : StepStatus::kRunning;
      }
      case kMelee: {
        const Antlion* a = antlion(s.target);
        if (a == nullptr || distance(a->pos, pos_) > cfg_.melee_range + 0.5) {
          return StepStatus::kFailed;
        }
        if (timer_ < cfg_.melee_time) return StepStatus::kRunning;
        if (!rng_.chance(cfg_.melee_hit)) return StepStatus::kFailed;  // missed
        for (Antlion& x : antlions_) {
          if (x.alive && x.id == s.target) x.health -= cfg_.melee_damage;
        }
        if (a->health <= 0.0) kill(s.target);
        return StepStatus::kDone;
      }
      case kLightning:
      case kBlast:
      case kHeal: {
        // Spells fail on heavy damage during the cast or when the wizard moves.
        if (damage_in_action_ >= cfg_.heavy_damage || distance(cast_pos_, pos_) > 1e-9) {
          return StepStatus::kFailed;
        }
        const double cast = s.action == kLightning ? cfg_.lightning_time
                            : s.action == kBlast   ? cfg_.blast_time
                                                   : cfg_.heal_time;
        if (timer_ < cast) return StepStatus::kRunning;
        if (s.action == kHeal) {
          health_ = std::min(cfg_.max_health, health_ + cfg_.heal_amount);
          return StepStatus::kDone;
        }
        if (s.action == kBlast) {
          for (Antlion& a : antlions_) {
            if (a.alive && distance(a.pos, pos_) <= cfg_.blast_radius) kill(a.id);
          }
          return StepStatus::kDone;
        }
        const Antlion* a = antlion(s.target);
        if (a == nullptr) return StepStatus::kFailed;
        if (a->moving && rng_.chance(cfg_.lightning_miss_moving)) return StepStatus::kFailed;
        kill(s.target);
        return StepStatus::kDone;
      }
      default:
        return StepStatus::kFailed;
    }
  }
  bool interruptible(int32_t, const Step& s) const override {
    return s.action == kGoto || s.action == kMelee;
  }
  uint64_t world_version() const override { return version_; }

  // --- world update ---
  void spawn(double t) {
    while (t >= next_spawn_) {
      next_spawn_ += rng_.uniform(cfg_.spawn_min, cfg_.spawn_max);
      if (cfg_.spawn_points.empty()) break;
      const NamedSpot& sp = cfg_.spawn_points[static_cast<size_t>(
          rng_.below(static_cast<int32_t>(cfg_.spawn_points.size())))];
      for (Antlion& a : antlions_) {
        if (a.alive) continue;
        a = Antlion{true, next_id_++, sp.pos, cfg_.antlion_health, 0.0, true};
        ++stats_.spawned;
        ++version_;
        if (replay_ != nullptr && replay_->enabled()) {
          stats_.antlion_ids.push_back(a.id);
          event(std::string("antlion_") + std::to_string(a.id) + " spawned at " + sp.name, &sp.pos);
        }
        break;
      }
    }
    while (t >= next_potion_) {
      next_potion_ += rng_.uniform(cfg_.potion_min, cfg_.potion_max);
      const bool health = rng_.chance(cfg_.health_potion_share);
      const double amount =
          std::floor(rng_.uniform(cfg_.potion_amount_min, cfg_.potion_amount_max + 1.0));
      const Vec2 p{rng_.uniform(-cfg_.width / 2, cfg_.width / 2),
                   rng_.uniform(-cfg_.height / 2, cfg_.height / 2)};
      for (Potion& q : potions_) {
        if (q.alive) continue;
        q = Potion{true, next_id_++, health, amount, p};
        ++version_;
        if (replay_ != nullptr && replay_->enabled()) {
          event(std::string(health ? "health" : "mana") + "_potion_" + std::to_string(q.id) + " (" +
                    std::to_string(static_cast<int>(amount)) + ") appeared",
                &p);
        }
        break;
      }
    }
  }
  void move_antlions(double dt) {
    for (Antlion& a : antlions_) {
      if (!a.alive) continue;
      const double d = distance(a.pos, pos_);
      if (d > cfg_.bite_range * 0.9) {
        a.pos = move_toward(a.pos, pos_, cfg_.antlion_speed * dt);
        a.moving = true;
        a.bite_clock = 0.0;
        continue;
      }
      a.moving = false;
      a.bite_clock += dt;
      if (a.bite_clock >= cfg_.bite_period) {
        a.bite_clock -= cfg_.bite_period;
        if (rng_.chance(cfg_.bite_hit)) {
          health_ -= cfg_.bite_damage;
          damage_in_action_ += cfg_.bite_damage;
          damage_since_decision_ += cfg_.bite_damage;
        }
      }
    }
  }
  void pickups() {
    for (Potion& p : potions_) {
      if (!p.alive || distance(p.pos, pos_) > cfg_.pickup_radius) continue;
      p.alive = false;
      picked_ = p.id;
      if (p.health) {
        health_ = std::min(cfg_.max_health, health_ + p.amount);
      } else {
        mana_ = std::min(cfg_.max_mana, mana_ + p.amount);
      }
      ++stats_.potions_taken;
      ++version_;
      if (replay_ != nullptr && replay_->enabled()) {
        event("wizard took " + std::string(p.health ? "health" : "mana") + "_potion_" +
                  std::to_string(p.id),
              &p.pos);
      }
    }
  }
  void set_tick(int64_t tick, double t) {
    tick_ = tick;
    t_ = t;
  }

  void event(const std::string& text, const Vec2* at) {
    std::string& s = *replay_->out();
    s += "{\"type\":\"event\",\"tick\":";
    s += std::to_string(tick_);
    s += ",\"t\":";
    ReplayWriter::append_number(s, t_);
    s += ",\"text\":";
    ReplayWriter::append_string(s, text);
    if (at != nullptr) {
      s += ",\"x\":";
      ReplayWriter::append_number(s, at->x);
      s += ",\"y\":";
      ReplayWriter::append_number(s, at->y);
    }
    s += "}\n";
  }

 private:
  void kill(int32_t id) {
    for (Antlion& a : antlions_) {
      if (!a.alive || a.id != id) continue;
      a.alive = false;
      ++stats_.kills;
      ++version_;
      if (replay_ != nullptr && replay_->enabled()) {
        event("antlion_" + std::to_string(id) + " killed", &a.pos);
      }
    }
  }

  const ArenaConfig& cfg_;
  Rng rng_;
  ReplayWriter* replay_;
  std::vector<Antlion> antlions_;
  std::vector<Potion> potions_;
  Vec2 pos_;
  double health_ = 0.0;
  double mana_ = 0.0;
  double next_spawn_ = 0.0;
  double next_potion_ = 0.0;
  int32_t next_id_ = 1;
  uint64_t version_ = 1;
  double timer_ = 0.0;
  Vec2 cast_pos_;
  double damage_in_action_ = 0.0;
  double damage_since_decision_ = 0.0;
  int32_t picked_ = 0;
  int64_t tick_ = 0;
  double t_ = 0.0;
  ArenaEpisode stats_;
};

// ---------------------------------------------------------------------------------------------
// HL2-style FSM: flags → state → schedule; a schedule fails when one of its failure flags is set.
enum FsmSchedule : int32_t {
  kTakeHealthPotion,
  kCastHeal,
  kTakeManaPotion,
  kBlastCrowd,
  kMeleeAttack,
  kRangeAttack,
  kChaseEnemy,
  kCollectPotion,
  kNumSchedules
};
constexpr const char* kScheduleNames[] = {
    "take_health_potion", "heal",        "take_mana_potion", "blast", "melee",
    "range_attack",       "chase_enemy", "collect_potion"};

class FsmSelector final : public Selector {
 public:
  explicit FsmSelector(Arena& a) : a_(a) {}
  std::string_view name() const override { return "fsm"; }
  bool preempts() const override { return false; }
  GoalChoice choose_goal(int32_t) override {
    const ArenaConfig& c = a_.cfg();
    heavy_ = a_.damage_since_decision() >= c.heavy_damage;
    a_.clear_decision_damage();
    const bool critical_health = a_.health() < c.fsm_health;
    const bool critical_mana = a_.mana() <= c.fsm_mana;
    if (critical_health) {
      if (const Potion* p = a_.nearest_potion(true)) return {kTakeHealthPotion, p->id, 1};
      if (a_.mana() >= c.heal_mana) return {kCastHeal, -1, 1};
    }
    if (critical_mana) {
      if (const Potion* p = a_.nearest_potion(false)) return {kTakeManaPotion, p->id, 1};
    }
    if (const Antlion* e = a_.nearest_antlion()) {
      const double d = distance(e->pos, a_.pos());
      if (a_.antlions_within(c.blast_radius) >= c.fsm_blast_crowd && a_.mana() >= c.blast_mana) {
        return {kBlastCrowd, -1, 1};
      }
      if (d <= c.melee_range) return {kMeleeAttack, e->id, 1};
      if (a_.mana() >= c.lightning_mana && d <= c.lightning_range) return {kRangeAttack, e->id, 1};
      return {kChaseEnemy, e->id, 1};
    }
    const bool want_health = a_.health() < c.max_health;
    if (const Potion* p = a_.nearest_potion(want_health)) return {kCollectPotion, p->id, 1};
    if (const Potion* p = a_.nearest_potion(!want_health)) return {kCollectPotion, p->id, 1};
    return {};
  }
  bool plan(int32_t, const GoalChoice& g, Plan& out) override {
    out.clear();
    current_ = g.goal;
    switch (g.goal) {
      case kTakeHealthPotion:
      case kTakeManaPotion:
      case kCollectPotion:
        out.push({kGoto, g.target});
        break;
      case kCastHeal:
        out.push({kHeal, -1});
        break;
      case kBlastCrowd:
        out.push({kBlast, -1});
        break;
      case kMeleeAttack:
        out.push({kMelee, g.target});
        break;
      case kRangeAttack:
        out.push({kLightning, g.target});
        break;
      case kChaseEnemy:
        out.push({kGoto, g.target});
        out.push({kMelee, g.target});
        break;
      default:
        return false;
    }
    return true;
  }
  // Failure flags: combat schedules fail on heavy damage (cond_heavy_damage) and when health
  // turns critical; the failure schedule is a fresh selection.
  bool interrupted(int32_t) override {
    if (current_ == kMeleeAttack || current_ == kChaseEnemy || current_ == kRangeAttack ||
        current_ == kCollectPotion) {
      return heavy_ || (a_.health() < a_.cfg().fsm_health && current_ != kCollectPotion);
    }
    return false;
  }

 private:
  Arena& a_;
  bool heavy_ = false;
  int32_t current_ = -1;
};

// ---------------------------------------------------------------------------------------------
// GOAP: A* over a small SAS+ abstraction of the wizard's situation.
enum GoapVar : int32_t {
  vNear,
  vInRange,
  vEnemy,
  vHealth,
  vMana,
  vHealthPotion,
  vManaPotion,
  kGoapVars
};
enum GoapGoal : int32_t { gKill = 0, gHealth = 1, gMana = 2 };
constexpr const char* kGoapGoalNames[] = {"kill_enemy", "restore_health", "restore_mana"};

struct GoapModel {
  Domain domain;
  std::vector<int32_t> step_action;  // SAS action → arena action
  std::vector<int32_t> step_kind;  // 0: target the enemy, 1: health potion, 2: mana potion, 3: none
};

GoapModel build_goap_model(const ArenaConfig& c) {
  DomainDef d;
  d.name = "arena-goap";
  d.variables = {{"near", {"no", "yes"}},
                 {"in_range", {"no", "yes"}},
                 {"enemy", {"alive", "dead"}},
                 {"health", {"low", "ok"}},
                 {"mana", {"0", "20", "40", "60", "80", "100"}},
                 {"health_potion", {"none", "some"}},
                 {"mana_potion", {"none", "some"}}};
  GoapModel m;
  auto cost = [](double x) { return static_cast<int64_t>(std::llround(x * 100.0)); };
  auto add = [&](std::string name, double c_, std::vector<Effect> eff, std::vector<Fact> prv,
                 int32_t action, int32_t kind) {
    d.actions.push_back({std::move(name), cost(c_), std::move(eff), std::move(prv)});
    m.step_action.push_back(action);
    m.step_kind.push_back(kind);
  };
  add("goto_enemy", c.cost_goto, {{vNear, 0, 1}, {vInRange, kUndefined, 1}}, {}, kGoto, 0);
  add("melee", c.cost_melee, {{vEnemy, 0, 1}}, {{vNear, 1}}, kMelee, 0);
  const auto level = [](double mana) {
    return static_cast<int32_t>(std::ceil(mana / 20.0 - 1e-9));
  };
  for (int32_t k = 1; k <= 5; ++k) {
    const int32_t lk = level(c.lightning_mana);
    if (k >= lk) {
      add("lightning_" + std::to_string(k), c.cost_lightning, {{vEnemy, 0, 1}, {vMana, k, k - lk}},
          {{vInRange, 1}}, kLightning, 0);
    }
    const int32_t bk = level(c.blast_mana);
    if (k >= bk) {
      add("blast_" + std::to_string(k), c.cost_blast, {{vEnemy, 0, 1}, {vMana, k, k - bk}},
          {{vNear, 1}}, kBlast, 0);
    }
    const int32_t hk = std::max(1, level(c.heal_mana));
    if (k >= hk) {
      add("heal_" + std::to_string(k), c.cost_heal, {{vHealth, 0, 1}, {vMana, k, k - hk}}, {},
          kHeal, 3);
    }
  }
  add("goto_health_potion", c.cost_goto,
      {{vHealth, kUndefined, 1}, {vHealthPotion, 1, 0}, {vNear, kUndefined, 0}}, {}, kGoto, 1);
  add("goto_mana_potion", c.cost_goto,
      {{vMana, kUndefined, 5}, {vManaPotion, 1, 0}, {vNear, kUndefined, 0}}, {}, kGoto, 2);
  Result<Domain> compiled = Domain::compile(d);
  m.domain = std::move(compiled.value());
  return m;
}

class GoapSelector final : public Selector {
 public:
  GoapSelector(Arena& a, const GoapModel& m) : a_(a), m_(m), astar_(m.domain) {
    init_.resize(kGoapVars);
    goal_.resize(kGoapVars);
    out_.reserve(64);
  }
  std::string_view name() const override { return "goap"; }
  GoalChoice choose_goal(int32_t) override {
    const ArenaConfig& c = a_.cfg();
    if (a_.health() < c.goap_health &&
        (a_.nearest_potion(true) != nullptr || a_.mana() >= c.heal_mana)) {
      return {gHealth, -1, 3};
    }
    if (a_.mana() < c.lightning_mana && a_.nearest_potion(false) != nullptr) {
      return {gMana, -1, 2};
    }
    if (const Antlion* e = a_.nearest_antlion()) return {gKill, e->id, 1};
    return {};
  }
  bool plan(int32_t, const GoalChoice& g, Plan& out) override {
    out.clear();
    const ArenaConfig& c = a_.cfg();
    const Antlion* e = g.goal == gKill ? a_.antlion(g.target) : a_.nearest_antlion();
    const Potion* hp = a_.nearest_potion(true);
    const Potion* mp = a_.nearest_potion(false);
    const double d = e != nullptr ? distance(e->pos, a_.pos()) : 1e9;
    init_[vNear] = d <= c.melee_range ? 1 : 0;
    init_[vInRange] = d <= c.lightning_range ? 1 : 0;
    init_[vEnemy] = e != nullptr ? 0 : 1;
    init_[vHealth] = a_.health() < c.goap_health ? 0 : 1;
    init_[vMana] = std::clamp(static_cast<int32_t>(std::floor(a_.mana() / 20.0)), 0, 5);
    init_[vHealthPotion] = hp != nullptr ? 1 : 0;
    init_[vManaPotion] = mp != nullptr ? 1 : 0;
    std::fill(goal_.begin(), goal_.end(), kUndefined);
    if (g.goal == gKill) goal_[vEnemy] = 1;
    if (g.goal == gHealth) goal_[vHealth] = 1;
    if (g.goal == gMana) goal_[vMana] = 5;
    PlannerOptions opt;
    opt.limits.max_expansions = 100000;
    if (astar_.plan(init_, goal_, kAllActions, opt, out_) != PlanStatus::kSolved) return false;
    for (ActionId a : out_) {
      const size_t i = static_cast<size_t>(a);
      const int32_t kind = m_.step_kind[i];
      int32_t target = -1;
      if (kind == 0) target = e != nullptr ? e->id : -1;
      if (kind == 1) target = hp != nullptr ? hp->id : -1;
      if (kind == 2) target = mp != nullptr ? mp->id : -1;
      if (!out.push({m_.step_action[i], target})) return false;
    }
    return out.length > 0;
  }

 private:
  Arena& a_;
  const GoapModel& m_;
  AStarPlanner astar_;
  std::vector<ValueId> init_, goal_;
  std::vector<ActionId> out_;
};

// ---------------------------------------------------------------------------------------------
// UDGOAP: the topoplan::udgoap planner on the template world, instantiated per decision with the
// nearest antlions and potions (cold path: this allocates).
struct UdgoapTemplate {
  udgoap::World base;
  struct Proto {
    bool present = false;
    udgoap::Entity entity;
    std::vector<udgoap::Fact> facts;
  };
  Proto antlion, health_potion, mana_potion;
  udgoap::AttributeId position = -1, health = -1, mana = -1, near = -1, amount = -1;
  std::vector<int32_t> action_map;  // udgoap action → arena action (-1: a potion drink)
};

UdgoapTemplate build_udgoap_template(const udgoap::World& w) {
  UdgoapTemplate t;
  std::vector<udgoap::EntityId> remap(w.entities.size(), udgoap::kNoEntity);
  t.base = w;
  t.base.entities.clear();
  t.base.facts.clear();
  for (size_t e = 0; e < w.entities.size(); ++e) {
    const std::string& n = w.entities[e].name;
    UdgoapTemplate::Proto* p = n == "antlion"         ? &t.antlion
                               : n == "health_potion" ? &t.health_potion
                               : n == "mana_potion"   ? &t.mana_potion
                                                      : nullptr;
    if (p != nullptr) {
      p->present = true;
      p->entity = w.entities[e];
      for (const udgoap::Fact& f : w.facts) {
        if (f.entity == static_cast<udgoap::EntityId>(e) && f.kind != udgoap::FactKind::kImplicit) {
          p->facts.push_back(f);
        }
      }
      continue;
    }
    remap[e] = static_cast<udgoap::EntityId>(t.base.entities.size());
    t.base.entities.push_back(w.entities[e]);
  }
  for (const udgoap::Fact& f : w.facts) {
    const udgoap::EntityId ne = remap[static_cast<size_t>(f.entity)];
    if (ne == udgoap::kNoEntity) continue;
    udgoap::Fact g = f;
    g.entity = ne;
    t.base.facts.push_back(g);
  }
  t.base.agent = remap[static_cast<size_t>(w.agent)];
  t.base.reindex();
  t.position = t.base.intern_attribute("position");
  t.health = t.base.intern_attribute("health");
  t.mana = t.base.intern_attribute("mana");
  t.near = t.base.intern_attribute("near");
  t.amount = t.base.intern_attribute("amount");
  for (const udgoap::Action& a : w.actions) {
    int32_t m = -1;
    for (int32_t k = 0; k < kArenaActions; ++k) {
      if (a.name == arena_action_name(k)) m = k;
    }
    t.action_map.push_back(m);
  }
  return t;
}

class UdgoapSelector final : public Selector {
 public:
  UdgoapSelector(Arena& a, const UdgoapTemplate& t) : a_(a), t_(t) {}
  std::string_view name() const override { return "udgoap"; }
  bool replans_on_world_change() const override { return true; }
  GoalChoice choose_goal(int32_t) override {
    a_.clear_decision_damage();
    return {0, -1, 0.0};
  }
  bool plan(int32_t, const GoalChoice&, Plan& out) override {
    out.clear();
    const ArenaConfig& c = a_.cfg();
    udgoap::World w = t_.base;
    std::vector<int32_t> object_of;  // udgoap entity → arena object id
    object_of.assign(w.entities.size(), -1);
    auto vec = [](Vec2 p) { return udgoap::Value::vec3(p.x, p.y, 0.0); };
    auto add = [&](const UdgoapTemplate::Proto& p, const std::string& name, int32_t id, Vec2 pos,
                   double health, double near, double amount) {
      if (!p.present) return;
      udgoap::Entity e = p.entity;
      e.name = name;
      const auto eid = static_cast<udgoap::EntityId>(w.entities.size());
      w.entities.push_back(std::move(e));
      object_of.push_back(id);
      for (udgoap::Fact f : p.facts) {
        f.entity = eid;
        if (f.attribute == t_.position) f.value = vec(pos);
        if (f.attribute == t_.health)
          f.value = udgoap::Value::number(std::clamp(health, f.min, f.max));
        if (f.attribute == t_.near) f.value = udgoap::Value::number(near);
        if (f.attribute == t_.amount) f.value = udgoap::Value::number(amount);
        w.facts.push_back(f);
      }
    };
    // Nearest antlions, then nearest potions of each kind.
    picks_.clear();
    for (const Antlion& an : a_.antlions()) {
      if (an.alive) picks_.push_back({distance(an.pos, a_.pos()), an.id});
    }
    std::sort(picks_.begin(), picks_.end());
    for (size_t i = 0; i < picks_.size() && i < static_cast<size_t>(c.udgoap_enemies); ++i) {
      const Antlion* an = a_.antlion(picks_[i].second);
      add(t_.antlion, "antlion_" + std::to_string(an->id), an->id, an->pos, an->health,
          picks_[i].first <= c.udgoap_near ? 1.0 : 0.0, 0.0);
    }
    for (int kind = 0; kind < 2; ++kind) {
      picks_.clear();
      for (const Potion& p : a_.potions()) {
        if (p.alive && p.health == (kind == 0)) picks_.push_back({distance(p.pos, a_.pos()), p.id});
      }
      std::sort(picks_.begin(), picks_.end());
      for (size_t i = 0; i < picks_.size() && i < static_cast<size_t>(c.udgoap_potions); ++i) {
        const Potion* p = a_.potion(picks_[i].second);
        add(kind == 0 ? t_.health_potion : t_.mana_potion,
            std::string(kind == 0 ? "health_potion_" : "mana_potion_") + std::to_string(p->id),
            p->id, p->pos, 0.0, 0.0, 0.5 * (c.potion_amount_min + c.potion_amount_max));
      }
    }
    w.add_implicit_facts();
    w.reindex();
    // The wizard's own facts.
    auto set = [&](udgoap::AttributeId attr, udgoap::Value v) {
      const udgoap::SlotId s = w.slot(w.agent, attr);
      if (s != udgoap::kNoSlot) w.facts[static_cast<size_t>(s)].value = v;
    };
    set(t_.position, vec(a_.pos()));
    set(t_.health, udgoap::Value::number(std::max(0.0, a_.health())));
    set(t_.mana, udgoap::Value::number(std::max(0.0, a_.mana())));
    udgoap::AgentState agent = udgoap::make_agent_state(w);
    udgoap::update_agent(w, w.initial_state(), agent);
    udgoap::UdgoapOptions opt;
    opt.limits.max_expansions = c.udgoap_max_expansions;
    opt.limits.max_plan_length = kMaxPlanSteps;
    const udgoap::UdgoapResult r = udgoap::plan_udgoap(w, agent, opt);
    // The planner never returns the empty plan (thesis §3.8); doing nothing is better than a
    // plan whose outcome is worth no more than the present (ours).
    if (r.plan.empty() || r.utility <= r.initial_utility + 1e-9) return false;
    for (size_t i = 0; i < r.plan.size(); ++i) {
      const udgoap::PlanStep& st = r.plan[i];
      const int32_t act = t_.action_map[static_cast<size_t>(st.action)];
      const int32_t target = st.supplier >= 0 ? object_of[static_cast<size_t>(st.supplier)] : -1;
      if (act < 0) {
        // A potion is drunk on arrival: "drink" after "goto" of the same potion is implicit; a
        // lone drink means walking there.
        if (out.length > 0 &&
            out.steps[static_cast<size_t>(out.length - 1)] == Step{kGoto, target}) {
          continue;
        }
        out.push({kGoto, target});
        continue;
      }
      out.push({act, target});
    }
    return out.length > 0;
  }

 private:
  Arena& a_;
  const UdgoapTemplate& t_;
  std::vector<std::pair<double, int32_t>> picks_;
};

// ---------------------------------------------------------------------------------------------
void write_state(std::string& s, int64_t tick, double t, int32_t npc, Vec2 p,
                 std::string_view action, std::string_view goal, const double* health,
                 const double* mana, const char* kind = nullptr,
                 const std::string* name = nullptr) {
  s += "{\"type\":\"state\",\"tick\":";
  s += std::to_string(tick);
  s += ",\"t\":";
  ReplayWriter::append_number(s, t);
  s += ",\"npc\":";
  s += std::to_string(npc);
  if (kind != nullptr) {
    s += ",\"kind\":";
    ReplayWriter::append_string(s, kind);
    s += ",\"name\":";
    ReplayWriter::append_string(s, *name);
  }
  s += ",\"x\":";
  ReplayWriter::append_number(s, p.x);
  s += ",\"y\":";
  ReplayWriter::append_number(s, p.y);
  s += ",\"action\":";
  ReplayWriter::append_string(s, action);
  s += ",\"goal\":";
  ReplayWriter::append_string(s, goal);
  s += ",\"drives\":{";
  if (health != nullptr) {
    s += "\"health\":";
    ReplayWriter::append_number(s, *health);
    s += ",\"mana\":";
    ReplayWriter::append_number(s, *mana);
  }
  s += "}}\n";
}

std::string goal_name(SelectorKind kind, const GoalChoice& g) {
  if (g.goal < 0) return "";
  if (kind == SelectorKind::kFsm && g.goal < kNumSchedules) return kScheduleNames[g.goal];
  if (kind == SelectorKind::kGoap && g.goal <= gMana) return kGoapGoalNames[g.goal];
  if (kind == SelectorKind::kUdgoap) return "max_utility";
  return "?";
}

}  // namespace

std::string_view to_string(SelectorKind k) {
  switch (k) {
    case SelectorKind::kFsm:
      return "fsm";
    case SelectorKind::kGoap:
      return "goap";
    case SelectorKind::kUdgoap:
      return "udgoap";
  }
  return "?";
}

std::string_view arena_action_name(int32_t action) {
  static constexpr std::string_view kNames[] = {"goto", "melee", "lightning", "blast", "heal"};
  return action >= 0 && action < kArenaActions ? kNames[action] : "?";
}

std::string arena_step_name(const Step& s) {
  std::string out(arena_action_name(s.action));
  if (s.target >= 0) out += "(" + std::to_string(s.target) + ")";
  return out;
}

ArenaEpisode run_arena_episode(const ArenaConfig& cfg, SelectorKind kind, uint64_t seed,
                               ReplayWriter* replay, LoopObserver* observer, bool timing) {
  assert(!check(cfg));
  Arena arena(cfg, seed, replay);
  std::unique_ptr<GoapModel> goap_model;
  std::unique_ptr<UdgoapTemplate> ud;
  std::unique_ptr<Selector> sel;
  switch (kind) {
    case SelectorKind::kFsm:
      sel = std::make_unique<FsmSelector>(arena);
      break;
    case SelectorKind::kGoap:
      goap_model = std::make_unique<GoapModel>(build_goap_model(cfg));
      sel = std::make_unique<GoapSelector>(arena, *goap_model);
      break;
    case SelectorKind::kUdgoap:
      ud = std::make_unique<UdgoapTemplate>(build_udgoap_template(cfg.udgoap_template));
      sel = std::make_unique<UdgoapSelector>(arena, *ud);
      break;
  }
  AgentLoop loop;
  loop.reset(0);
  const auto max_ticks = static_cast<int64_t>(std::llround(cfg.max_seconds / cfg.dt));
  int64_t tick = 0;
  std::string action_text;
  for (; tick < max_ticks; ++tick) {
    const double t = static_cast<double>(tick) * cfg.dt;
    arena.set_tick(tick, t);
    arena.spawn(t);
    arena.move_antlions(cfg.dt);
    if (arena.dead()) break;
    loop.tick(arena, *sel, 0, tick, cfg.dt, cfg.loop, observer, timing);
    arena.pickups();
    if (replay != nullptr && replay->due(tick)) {
      std::string& s = *replay->out();
      const Step* st = loop.current();
      action_text = st != nullptr ? arena_step_name(*st) : "idle";
      const double h = arena.health();
      const double m = arena.mana();
      write_state(s, tick, t, 0, arena.pos(), action_text, goal_name(kind, loop.goal()), &h, &m);
      for (const Antlion& a : arena.antlions()) {
        if (!a.alive) continue;
        const std::string n = "antlion_" + std::to_string(a.id);
        write_state(s, tick, t, a.id, a.pos, a.moving ? "chase" : "bite", "kill_wizard", nullptr,
                    nullptr, "antlion", &n);
      }
    }
    if (arena.dead()) break;
  }
  ArenaEpisode ep = arena.stats();
  ep.ticks = tick;
  ep.lifespan = static_cast<double>(tick) * cfg.dt;
  ep.censored = tick >= max_ticks;
  ep.counters = loop.counters;
  return ep;
}

}  // namespace topoplan::sim
