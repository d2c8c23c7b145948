// The wizard arena (Sloan 2015, ch. 6): the FSM and GOAP selectors and the episode loop (the
// world is arena_world.h, the UDGOAP selector arena_udgoap.cpp).
#include "topoplan/sim/arena.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <memory>

#include "arena_world.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/astar_back.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::sim {

namespace {
using namespace arena_detail;

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
  GoapSelector(Arena& a, const GoapModel& m)
      : a_(a), m_(m), astar_(m.domain), back_(m.domain), backward_(a.cfg().goap_backward) {
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
    const PlanStatus st = backward_ ? back_.plan(init_, goal_, kAllActions, opt, out_)
                                    : astar_.plan(init_, goal_, kAllActions, opt, out_);
    if (st != PlanStatus::kSolved) return false;
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
  BackAStarPlanner back_;
  bool backward_;
  std::vector<ValueId> init_, goal_;
  std::vector<ActionId> out_;
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
  // In the enum's order, one name per enumerator.
  static constexpr std::array<std::string_view, 3> kNames = {"fsm", "goap", "udgoap"};
  static_assert(kNames.size() == static_cast<size_t>(SelectorKind::kUdgoap) + 1);
  const auto i = static_cast<size_t>(k);
  return i < kNames.size() ? kNames[i] : "?";
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
      sel = make_udgoap_selector(arena, cfg.udgoap_template);
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
      replay->flush_if_large();
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
