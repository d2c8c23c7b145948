// The hospital (Sloan 2015, ch. 4) as a structure-of-arrays simulation for 32 to 10⁶ NPCs.
#include "topoplan/sim/hospital.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>
#include <memory>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/crowd.h"

namespace topoplan::sim {

namespace {

// Places, variables, needs (levels), actions.
constexpr uint8_t kStation = 0, kPharmacy = 1, kKitchen = 2, kRoom = 3, kLounge = 4;
constexpr int32_t kPlaces = 6;
constexpr int32_t vAt = 0, vPills = 1, vFood = 2, vLevel0 = 3;
constexpr int32_t lMed = 0, lFed = 1, lRest = 2, lAdmin = 3, lChart = 4, lCompany = 5, kLevels = 6;
constexpr int32_t kVars = vLevel0 + kLevels;
constexpr int32_t aGoto0 = 0, aGetPills = kPlaces, aGetFood = kPlaces + 1, aMedicate = kPlaces + 2,
                  aFeed = kPlaces + 3, aBreak = kPlaces + 4, aAdmin = kPlaces + 5,
                  aChart = kPlaces + 6, aChat = kPlaces + 7, kActs = kPlaces + 8;
enum Role : uint8_t { kNurse, kDoctor, kVisitor };
// Per need, in the needs' order: the item its action uses (0: pills, 1: food, -1: none), where
// that item is fetched and by which action, then where the need's action is done. The need
// actions (aMedicate ... aChat) are in the same order.
struct Errand {
  int8_t item;
  uint8_t fetch_at, fetch, at, act;
};
constexpr std::array<Errand, kLevels> kErrands = {{
    {0, kPharmacy, aGetPills, kRoom, aMedicate},  // lMed
    {1, kKitchen, aGetFood, kRoom, aFeed},        // lFed
    {-1, 0, 0, kLounge, aBreak},                  // lRest
    {-1, 0, 0, kStation, aAdmin},                 // lAdmin
    {-1, 0, 0, kRoom, aChart},                    // lChart
    {-1, 0, 0, kRoom, aChat},                     // lCompany
}};
static_assert(aChat - aMedicate == lCompany && aGetFood - aGetPills == 1);
constexpr int32_t kMaxSteps = 8;

constexpr std::array<std::array<int8_t, 4>, 3> kGoals = {{
    {lMed, lFed, lRest, lAdmin},  // nurse, by priority
    {lChart, lRest, lAdmin, -1},  // doctor
    {lCompany, lRest, -1, -1},    // visitor
}};

Domain build_domain() {
  DomainDef d;
  d.name = "hospital";
  d.variables = {{"at", {"station", "pharmacy", "kitchen", "room", "lounge", "office"}},
                 {"pills", {"no", "yes"}},
                 {"food", {"no", "yes"}},
                 {"medicated", {"low", "ok"}},
                 {"fed", {"low", "ok"}},
                 {"rested", {"tired", "ok"}},
                 {"admin", {"pending", "done"}},
                 {"chart", {"due", "checked"}},
                 {"company", {"lonely", "ok"}}};
  const char* places[] = {"station", "pharmacy", "kitchen", "room", "lounge", "office"};
  for (int32_t p = 0; p < kPlaces; ++p) {
    d.actions.push_back({std::string("goto_") + places[p], 1, {{vAt, kUndefined, p}}, {}});
  }
  d.actions.push_back({"get_pills", 1, {{vPills, 0, 1}}, {{vAt, kPharmacy}}});
  d.actions.push_back({"get_food", 1, {{vFood, 0, 1}}, {{vAt, kKitchen}}});
  d.actions.push_back({"medicate", 1, {{vLevel0 + lMed, 0, 1}}, {{vAt, kRoom}, {vPills, 1}}});
  d.actions.push_back({"feed", 1, {{vLevel0 + lFed, 0, 1}}, {{vAt, kRoom}, {vFood, 1}}});
  d.actions.push_back({"take_break", 1, {{vLevel0 + lRest, 0, 1}}, {{vAt, kLounge}}});
  d.actions.push_back({"do_admin", 1, {{vLevel0 + lAdmin, 0, 1}}, {{vAt, kStation}}});
  d.actions.push_back({"check_chart", 1, {{vLevel0 + lChart, 0, 1}}, {{vAt, kRoom}}});
  d.actions.push_back({"chat", 1, {{vLevel0 + lCompany, 0, 1}}, {{vAt, kRoom}}});
  std::vector<ActionId> gotos = {0, 1, 2, 3, 4, 5};
  auto with = [&](std::vector<ActionId> extra) {
    std::vector<ActionId> v = gotos;
    v.insert(v.end(), extra.begin(), extra.end());
    return v;
  };
  d.classes = {{"nurse", with({aGetPills, aGetFood, aMedicate, aFeed, aBreak, aAdmin})},
               {"doctor", with({aBreak, aAdmin, aChart})},
               {"visitor", with({aBreak, aChat})}};
  return std::move(Domain::compile(d).value());
}

class Hospital {
 public:
  Hospital(const HospitalConfig& cfg, HospitalSelector sel, int64_t n, uint64_t seed, bool timing)
      : cfg_(cfg), sel_(sel), n_(n), timing_(timing), domain_(build_domain()) {
    const auto N = static_cast<size_t>(n);
    role_.resize(N);
    at_.assign(N, kStation);
    pills_.assign(N, 0);
    food_.assign(N, 0);
    level_.assign(N * kLevels, 100.0f);
    steps_.assign(N * kMaxSteps, 0);
    len_.assign(N, 0);
    idx_.assign(N, 0);
    left_.assign(N, 0);
    goal_.assign(N, -1);
    broken_.assign(N, 0);
    Rng rng(seed);
    const int32_t mix = cfg.nurses + cfg.doctors + cfg.visitors;
    for (size_t i = 0; i < N; ++i) {
      const auto k = static_cast<int32_t>(i % static_cast<size_t>(mix));
      role_[i] = k < cfg.nurses ? kNurse : k < cfg.nurses + cfg.doctors ? kDoctor : kVisitor;
      for (int32_t l = 0; l < kLevels; ++l) {
        if (relevant(role_[i], l))
          level_[i * kLevels + static_cast<size_t>(l)] =
              static_cast<float>(rng.uniform(20.0, 100.0));
      }
    }
    decay_ = {static_cast<float>(cfg.med_decay),  static_cast<float>(cfg.food_decay),
              static_cast<float>(cfg.rest_decay), static_cast<float>(cfg.admin_rate),
              static_cast<float>(cfg.chart_rate), static_cast<float>(cfg.company_decay)};
    const double dur[kActs] = {cfg.t_goto,  cfg.t_goto,  cfg.t_goto,  cfg.t_goto,     cfg.t_goto,
                               cfg.t_goto,  cfg.t_get,   cfg.t_get,   cfg.t_medicate, cfg.t_feed,
                               cfg.t_break, cfg.t_admin, cfg.t_chart, cfg.t_chat};
    for (int32_t a = 0; a < kActs; ++a) {
      dur_ticks_[static_cast<size_t>(a)] =
          std::max(1, static_cast<int32_t>(std::lround(dur[a] / cfg.dt)));
    }
    weight_ = {cfg.w_med, cfg.w_food, cfg.w_rest, cfg.w_admin, cfg.w_chart, cfg.w_chat};
    init_.resize(kVars);
    gvec_.resize(kVars);
    if (sel == HospitalSelector::kGoap) {
      astar_ = std::make_unique<AStarPlanner>(domain_);
      out_.reserve(64);
    }
    if (sel == HospitalSelector::kCrowd) make_agents();
  }

  HospitalRun run() {
    HospitalRun r;
    r.npcs = n_;
    const auto ticks = static_cast<int64_t>(std::llround(cfg_.seconds / cfg_.dt));
    const int64_t t0 = wall_ns();
    const int64_t c0 = thread_cpu_ns();
    double unmet = 0.0;
    int64_t samples = 0;
    const int64_t sample_every = std::max<int64_t>(1, std::llround(1.0 / cfg_.dt));
    for (int64_t tick = 0; tick < ticks; ++tick) {
      step(tick, r);
      if (tick % sample_every == 0) {
        unmet += unmet_share();
        ++samples;
      }
    }
    r.wall_seconds = static_cast<double>(wall_ns() - t0) * 1e-9;
    r.cpu_seconds = static_cast<double>(thread_cpu_ns() - c0) * 1e-9;
    r.ticks = ticks;
    r.sim_seconds = static_cast<double>(ticks) * cfg_.dt;
    r.mean_unmet = samples > 0 ? unmet / static_cast<double>(samples) : 0.0;
    return r;
  }

 private:
  static bool relevant(uint8_t role, int32_t l) {
    for (int8_t g : kGoals[role]) {
      if (g == l) return true;
    }
    return false;
  }
  float& level(size_t i, int32_t l) { return level_[i * kLevels + static_cast<size_t>(l)]; }
  bool low(size_t i, int32_t l) { return level(i, l) < static_cast<float>(cfg_.threshold); }

  double unmet_share() {
    int64_t low_n = 0, all = 0;
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) {
      for (int8_t g : kGoals[role_[i]]) {
        if (g < 0) continue;
        ++all;
        low_n += low(i, g) ? 1 : 0;
      }
    }
    return all > 0 ? static_cast<double>(low_n) / static_cast<double>(all) : 0.0;
  }

  int32_t choose(size_t i) {
    const auto& goals = kGoals[role_[i]];
    if (sel_ == HospitalSelector::kUtility) {
      // Chapter 4's utility: the most valuable need, weight × (1 − level/100), among low ones.
      int32_t best = -1;
      double bs = -1.0;
      for (int8_t g : goals) {
        if (g < 0 || !low(i, g)) continue;
        const double s = weight_[static_cast<size_t>(g)] * (1.0 - level(i, g) / 100.0);
        if (s > bs) bs = s, best = g;
      }
      return best;
    }
    for (int8_t g : goals) {  // FSM transitions and GOAP priorities: the first low need
      if (g >= 0 && low(i, g)) return g;
    }
    return -1;
  }

  // Predefined plans (FSM schedules and the utility system's plans), skipping satisfied steps.
  int32_t schedule(size_t i, int32_t g, uint8_t* out) const {
    int32_t n = 0;
    uint8_t at = at_[i];
    auto go = [&](uint8_t p) {
      if (at != p) out[n++] = static_cast<uint8_t>(aGoto0 + p), at = p;
    };
    if (g < 0 || g >= kLevels) return n;
    const Errand& e = kErrands[static_cast<size_t>(g)];
    if (e.item >= 0 && !has(i, e.item)) go(e.fetch_at), out[n++] = e.fetch;
    go(e.at);
    out[n++] = e.act;
    return n;
  }

  void sas_state(size_t i, int32_t g) {
    init_[vAt] = at_[i];
    init_[vPills] = pills_[i];
    init_[vFood] = food_[i];
    for (int32_t l = 0; l < kLevels; ++l)
      init_[static_cast<size_t>(vLevel0 + l)] = low(i, l) ? 0 : 1;
    std::fill(gvec_.begin(), gvec_.end(), kUndefined);
    gvec_[static_cast<size_t>(vLevel0 + g)] = 1;
  }

  // Whether agent i holds item k (0: pills, 1: food).
  [[nodiscard]] bool has(size_t i, int8_t k) const { return (k == 0 ? pills_[i] : food_[i]) != 0; }

  bool applicable(size_t i, int32_t a) const {
    if (a >= aGoto0 && a < aGoto0 + kPlaces) return true;
    if (a == aGetPills || a == aGetFood)
      return at_[i] == kErrands[static_cast<size_t>(a - aGetPills)].fetch_at;
    if (a < aMedicate || a >= kActs) return false;
    const Errand& e = kErrands[static_cast<size_t>(a - aMedicate)];
    return at_[i] == e.at && (e.item < 0 || has(i, e.item));
  }
  void finish(size_t i, int32_t a) {
    if (a < kPlaces) {
      at_[i] = static_cast<uint8_t>(a);
    } else if (a == aGetPills || a == aGetFood) {
      (a == aGetPills ? pills_ : food_)[i] = 1;
    } else if (a >= aMedicate && a < kActs) {
      const int32_t need = a - aMedicate;
      level(i, need) = 100.0f;
      const int8_t item = kErrands[static_cast<size_t>(need)].item;
      if (item >= 0) (item == 0 ? pills_ : food_)[i] = 0;
    }
  }

  void step(int64_t tick, HospitalRun& r) {
    if (sel_ == HospitalSelector::kCrowd) {
      step_agents(tick, r);
      return;
    }
    decay_and_decide(tick, r, [&](size_t i) {
      const int64_t c0 = timing_ ? thread_cpu_ns() : 0;
      const int32_t g = choose(i);
      const bool done = idx_[i] >= len_[i];
      const bool running = !done && left_[i] > 0;
      const int32_t cur = done ? -1 : steps_[i * kMaxSteps + idx_[i]];
      const bool switchable = !running || cur < kPlaces;
      bool need = g >= 0 && (done || broken_[i]);
      if (g >= 0 && !need && g != goal_[i] && switchable && sel_ != HospitalSelector::kFsm) {
        // GOAP: a goal of higher priority; utility: a more valuable need.
        need = true;
      }
      if (need) {
        broken_[i] = 0;
        left_[i] = 0;
        plan_one(i, g, r);
      }
      if (timing_) r.decision_cpu_ns += thread_cpu_ns() - c0;
    });
    // Execute.
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) {
      if (idx_[i] >= len_[i]) continue;
      const int32_t a = steps_[i * kMaxSteps + idx_[i]];
      if (left_[i] == 0) {
        if (!applicable(i, a)) {
          broken_[i] = 1;
          len_[i] = 0;
          idx_[i] = 0;
          continue;
        }
        left_[i] = dur_ticks_[static_cast<size_t>(a)];
      }
      if (--left_[i] == 0) {
        finish(i, a);
        ++r.actions_done;
        ++idx_[i];
      }
    }
  }

  // Decays every NPC's needs by one tick; calls decide(i) for the NPCs whose decision tick this
  // is (every `decision_ticks` ticks, the NPCs spread over the phases).
  template <class Decide>
  void decay_and_decide(int64_t tick, HospitalRun& r, Decide&& decide) {
    const auto dt = static_cast<float>(cfg_.dt);
    const int32_t period = std::max(1, cfg_.decision_ticks);
    const auto phase = static_cast<size_t>(tick % period);
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) {
      decay(i, dt);
      if (i % static_cast<size_t>(period) != phase) continue;
      ++r.decisions;
      decide(i);
    }
  }

  void decay(size_t i, float dt) {
    float* lv = &level_[i * kLevels];
    for (int32_t l = 0; l < kLevels; ++l) {
      if (relevant(role_[i], l))
        lv[l] = std::max(0.0f, lv[l] - decay_[static_cast<size_t>(l)] * dt);
    }
  }

  // --- GOAP for crowds, on the agent runtime (agents.h) --------------------------------------
  // The hospital is the engine: it writes what each NPC senses (its place, what it holds, which
  // needs are low) on the NPC's decision ticks, runs the actions the runtime starts and reports
  // them finished. The runtime keeps the beliefs, picks the goal (the first low need of the role's
  // priority list, as GOAP above), plans every NPC that needs it in one crowd batch per tick (ℙ,
  // the plan cache) and says when to start or abort an action.
  void make_agents() {
    Result<CrowdPlanner> p = CrowdPlanner::create(domain_);
    planner_ = std::make_unique<CrowdPlanner>(std::move(p.value()));
    agents::AgentWorldDef def;
    def.capacity = static_cast<int32_t>(n_);
    def.decision_period = 1 << 20;  // examined when a belief changes or a report comes in
    def.max_plans_per_frame = static_cast<int32_t>(n_);
    def.max_plan_length = kMaxSteps;
    def.use_cache = cfg_.cache;
    if (cfg_.threads > 1) {
      pool_ = std::make_unique<CrowdThreadPool>(cfg_.threads);
      pool_->install(def.crowd);
    }
    Result<agents::AgentWorld> w = agents::AgentWorld::create(*planner_, def);
    world_ = std::make_unique<agents::AgentWorld>(std::move(w.value()));
    std::vector<ValueId> goal(kVars, kUndefined);
    std::array<agents::GoalId, kLevels> ids{};
    const char* names[kLevels] = {"medicated",  "fed",           "rested",
                                  "admin_done", "chart_checked", "company"};
    for (int32_t l = 0; l < kLevels; ++l) {
      std::fill(goal.begin(), goal.end(), kUndefined);
      goal[static_cast<size_t>(vLevel0 + l)] = 1;
      ids[static_cast<size_t>(l)] = world_->add_goal(names[l], goal).value();
    }
    for (int32_t role = 0; role < 3; ++role) {
      std::vector<agents::GoalId> list;
      for (int8_t g : kGoals[static_cast<size_t>(role)])
        if (g >= 0) list.push_back(ids[static_cast<size_t>(g)]);
      (void)world_->set_class_goals(role, world_->add_goal_list(list).value());
    }
    for (size_t i = 0; i < static_cast<size_t>(n_); ++i) {
      sense(i, init_);
      (void)world_->add_agent(role_[i], init_).value();
    }
    cur_.assign(static_cast<size_t>(n_), -1);
    left_.assign(static_cast<size_t>(n_), 0);
    events_.resize(static_cast<size_t>(n_) * 4 + 64);
  }

  // What NPC i senses, as a SAS+ state.
  void sense(size_t i, std::vector<ValueId>& s) {
    s[vAt] = at_[i];
    s[vPills] = pills_[i];
    s[vFood] = food_[i];
    for (int32_t l = 0; l < kLevels; ++l) s[static_cast<size_t>(vLevel0 + l)] = low(i, l) ? 0 : 1;
  }

  void step_agents(int64_t tick, HospitalRun& r) {
    const auto N = static_cast<size_t>(n_);
    decay_and_decide(tick, r, [&](size_t i) {
      // The NPC's sensors report (the runtime examines it if a belief changed).
      const auto a = static_cast<agents::AgentId>(i);
      world_->set_fact(a, vAt, at_[i]);
      world_->set_fact(a, vPills, pills_[i]);
      world_->set_fact(a, vFood, food_[i]);
      for (int32_t l = 0; l < kLevels; ++l)
        if (relevant(role_[i], l)) world_->set_fact(a, vLevel0 + l, low(i, l) ? 0 : 1);
    });
    const agents::UpdateStats s = world_->update(cfg_.dt, events_);
    r.plans += s.planned;
    r.cache_hits += s.cache_hits;
    planning_ns_ += s.plan_ns;
    r.planning_wall_seconds = static_cast<double>(planning_ns_) * 1e-9;
    for (int64_t k = 0; k < s.events; ++k) {
      const agents::Event& e = events_[static_cast<size_t>(k)];
      const auto i = static_cast<size_t>(e.agent);
      if (e.kind == agents::EventKind::kStartAction) {
        cur_[i] = e.action;
        left_[i] = 0;
      } else if (e.kind == agents::EventKind::kAbortAction) {
        cur_[i] = -1;
      } else if (e.kind == agents::EventKind::kNoPlan) {
        ++r.plan_failures;
      }
    }
    // Execute the running actions; a finished one is reported (its effects become beliefs).
    for (size_t i = 0; i < N; ++i) {
      const int32_t a = cur_[i];
      if (a < 0) continue;
      if (left_[i] == 0) {
        if (!applicable(i, a)) {
          cur_[i] = -1;
          world_->action_failed(static_cast<agents::AgentId>(i));
          continue;
        }
        left_[i] = dur_ticks_[static_cast<size_t>(a)];
      }
      if (--left_[i] == 0) {
        finish(i, a);
        ++r.actions_done;
        cur_[i] = -1;
        world_->action_finished(static_cast<agents::AgentId>(i));
      }
    }
  }

  void plan_one(size_t i, int32_t g, HospitalRun& r) {
    const int64_t p0 = timing_ ? thread_cpu_ns() : 0;
    plan_one_untimed(i, g, r);
    if (timing_) r.plan_cpu_ns += thread_cpu_ns() - p0;
  }
  void plan_one_untimed(size_t i, int32_t g, HospitalRun& r) {
    ++r.plans;
    goal_[i] = static_cast<int8_t>(g);
    uint8_t* out = &steps_[i * kMaxSteps];
    int32_t n = 0;
    if (sel_ == HospitalSelector::kGoap) {
      sas_state(i, g);
      if (astar_->plan(init_, gvec_, role_[i], opts_, out_) == PlanStatus::kSolved) {
        for (ActionId a : out_) {
          if (n < kMaxSteps) out[n++] = static_cast<uint8_t>(a);
        }
      }
    } else {
      n = schedule(i, g, out);
    }
    if (n == 0) ++r.plan_failures;
    len_[i] = static_cast<uint8_t>(n);
    idx_[i] = 0;
  }

  const HospitalConfig& cfg_;
  HospitalSelector sel_;
  int64_t n_;
  bool timing_;
  Domain domain_;
  std::vector<uint8_t> role_, at_, pills_, food_;
  std::vector<float> level_;
  std::vector<uint8_t> steps_, len_, idx_, broken_;
  std::vector<int32_t> left_;
  std::vector<int8_t> goal_;
  std::array<float, kLevels> decay_{};
  std::array<double, kLevels> weight_{};
  std::array<int32_t, kActs> dur_ticks_{};
  std::vector<ValueId> init_, gvec_;
  std::unique_ptr<AStarPlanner> astar_;
  std::vector<ActionId> out_;
  PlannerOptions opts_;
  std::unique_ptr<CrowdPlanner> planner_;
  std::unique_ptr<CrowdThreadPool> pool_;
  std::unique_ptr<agents::AgentWorld> world_;
  std::vector<agents::Event> events_;
  std::vector<int32_t> cur_;  // crowd: the action the runtime started, -1: none
  int64_t planning_ns_ = 0;
};

}  // namespace

std::string_view to_string(HospitalSelector s) {
  // In the enum's order, one name per enumerator.
  static constexpr std::array<std::string_view, 4> kNames = {"fsm", "goap", "utility", "crowd"};
  static_assert(kNames.size() == static_cast<size_t>(HospitalSelector::kCrowd) + 1);
  const auto i = static_cast<size_t>(s);
  return i < kNames.size() ? kNames[i] : "?";
}

HospitalRun run_hospital(const HospitalConfig& cfg, HospitalSelector sel, int64_t npcs,
                         uint64_t seed, bool timing) {
  assert(!check(cfg));
  Hospital h(cfg, sel, npcs, seed, timing);
  return h.run();
}

}  // namespace topoplan::sim
