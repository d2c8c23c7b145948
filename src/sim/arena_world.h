// The wizard arena's world (Sloan 2015, ch. 6), not installed: antlions, potions and the Arena
// environment the selectors act on. Shared by arena.cpp (the FSM and GOAP selectors, the
// episode loop) and arena_udgoap.cpp (the UDGOAP selector).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "topoplan/sim/arena.h"

namespace topoplan::sim::arena_detail {

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

// The UDGOAP selector on `arena`, planning over `world` (the scenario's template;
// arena_udgoap.cpp).
std::unique_ptr<Selector> make_udgoap_selector(Arena& arena, const udgoap::World& world);

}  // namespace topoplan::sim::arena_detail
