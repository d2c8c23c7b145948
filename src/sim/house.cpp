// The Sims-like house (Sloan 2015, ch. 5): world, GOAP and UDGOAP selectors.
#include "topoplan/sim/house.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "topoplan/runtime/astar.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::sim {

namespace {

constexpr int32_t kHouseGoto = 1000;

class House final : public Environment {
 public:
  House(const HouseConfig& cfg, HouseRun& run) : cfg_(cfg), run_(run) {
    drives_ = cfg.initial;
    drives_.resize(cfg.drives.size(), 0.0);
    blocked_.assign(cfg.spots.size(), 0);
    at_ = cfg.start_spot;
    pos_ = cfg.spots[static_cast<size_t>(at_)].pos;
    run_.steps.reserve(4096);
  }
  const HouseConfig& cfg() const { return cfg_; }
  double drive(int32_t d) const { return drives_[static_cast<size_t>(d)]; }
  std::span<const double> drives() const { return drives_; }
  int32_t item() const { return item_; }
  int32_t at() const { return at_; }
  Vec2 pos() const { return pos_; }
  bool blocked(int32_t s) const { return blocked_[static_cast<size_t>(s)] != 0; }
  void block(int32_t s, bool b) {
    blocked_[static_cast<size_t>(s)] = b ? 1 : 0;
    ++version_;
  }
  void steal() {
    item_ = -1;
    ++version_;
  }
  bool goal_reached() const {
    for (double v : drives_) {
      if (!(v > cfg_.target)) return false;
    }
    return true;
  }
  void decay(double dt) {
    for (size_t d = 0; d < drives_.size(); ++d) {
      drives_[d] = std::clamp(drives_[d] - cfg_.decay[d] * dt, 0.0, 100.0);
    }
  }
  void set_time(double t) { t_ = t; }

  bool applicable(int32_t, const Step& s) const override {
    if (s.action == kHouseGoto) return s.target >= 0 && !blocked(s.target);
    const HouseActivity& a = cfg_.activities[static_cast<size_t>(s.action)];
    if (a.spot >= 0 && (blocked(a.spot) || at_ != a.spot)) return false;
    if (a.needs >= 0) return item_ == a.needs;
    if (a.gives >= 0) return item_ == -1;
    return true;
  }
  void begin(int32_t, const Step& s) override {
    timer_ = 0.0;
    run_.steps.push_back({t_, s.action == kHouseGoto ? -1 : s.action, s.target, false});
    if (s.action != kHouseGoto) {
      const HouseActivity& a = cfg_.activities[static_cast<size_t>(s.action)];
      if (a.needs >= 0) item_ = -1;
    }
  }
  StepStatus advance(int32_t, const Step& s, double dt) override {
    if (s.action == kHouseGoto) {
      if (blocked(s.target)) return finish(StepStatus::kFailed);
      at_ = -1;
      const Vec2 goal = cfg_.spots[static_cast<size_t>(s.target)].pos;
      pos_ = move_toward(pos_, goal, cfg_.speed * dt);
      if (distance(pos_, goal) > 1e-9) return StepStatus::kRunning;
      at_ = s.target;
      return finish(StepStatus::kDone);
    }
    const HouseActivity& a = cfg_.activities[static_cast<size_t>(s.action)];
    if (a.spot >= 0 && blocked(a.spot)) return finish(StepStatus::kFailed);
    timer_ += dt;
    const size_t energy = energy_index();
    for (size_t d = 0; d < drives_.size(); ++d) {
      double g = a.gain[d];
      if (d == energy && g <= 0.0) g -= cfg_.activity_energy;
      drives_[d] = std::clamp(drives_[d] + g * dt, 0.0, 100.0);
    }
    const bool full = a.until >= 0 && drives_[static_cast<size_t>(a.until)] >= 100.0;
    if (!full && timer_ + 1e-9 < a.duration) return StepStatus::kRunning;
    if (a.gives >= 0) item_ = a.gives;
    return finish(StepStatus::kDone);
  }
  bool interruptible(int32_t, const Step& s) const override { return s.action == kHouseGoto; }
  uint64_t world_version() const override { return version_; }

 private:
  StepStatus finish(StepStatus st) {
    if (!run_.steps.empty()) run_.steps.back().done = st == StepStatus::kDone;
    return st;
  }
  size_t energy_index() const {
    for (size_t d = 0; d < cfg_.drives.size(); ++d) {
      if (cfg_.drives[d] == "energy") return d;
    }
    return cfg_.drives.size();
  }

  const HouseConfig& cfg_;
  HouseRun& run_;
  std::vector<double> drives_;
  std::vector<uint8_t> blocked_;
  int32_t at_ = 0;
  Vec2 pos_;
  int32_t item_ = -1;
  double timer_ = 0.0;
  double t_ = 0.0;
  uint64_t version_ = 1;
};

// ---------------------------------------------------------------------------------------------
// GOAP: the lowest drive is the goal (§5.1.1.1); A* over (place, item in hand, open places,
// which drives an action raised).
class HouseGoap final : public Selector {
 public:
  explicit HouseGoap(House& h) : h_(h) {
    const HouseConfig& c = h.cfg();
    const auto ns = static_cast<int32_t>(c.spots.size());
    const auto nd = static_cast<int32_t>(c.drives.size());
    DomainDef d;
    d.name = "house-goap";
    VariableDef at{"at", {}};
    for (const NamedSpot& s : c.spots) at.values.push_back(s.name);
    d.variables.push_back(at);
    VariableDef item{"item", {"none"}};
    for (const std::string& i : c.items) item.values.push_back(i);
    d.variables.push_back(item);
    open_var_ = 2;
    for (const NamedSpot& s : c.spots)
      d.variables.push_back({"open_" + s.name, {"closed", "open"}});
    raised_var_ = open_var_ + ns;
    for (const std::string& n : c.drives) d.variables.push_back({"raised_" + n, {"no", "yes"}});
    for (int32_t s = 0; s < ns; ++s) {
      d.actions.push_back({"goto_" + c.spots[static_cast<size_t>(s)].name,
                           c.goto_cost,
                           {{0, kUndefined, s}},
                           {{open_var_ + s, 1}}});
      steps_.push_back({kHouseGoto, s});
    }
    for (size_t a = 0; a < c.activities.size(); ++a) {
      const HouseActivity& act = c.activities[a];
      ActionDef ad{act.name, act.cost, {}, {}};
      if (act.spot >= 0) ad.prevail = {{0, act.spot}, {open_var_ + act.spot, 1}};
      if (act.needs >= 0) {
        ad.effects.push_back({1, act.needs + 1, act.gives >= 0 ? act.gives + 1 : 0});
      } else if (act.gives >= 0) {
        ad.effects.push_back({1, 0, act.gives + 1});
      }
      for (int32_t dv = 0; dv < nd; ++dv) {
        if (act.gain[static_cast<size_t>(dv)] > 0.0)
          ad.effects.push_back({raised_var_ + dv, kUndefined, 1});
      }
      if (ad.effects.empty()) continue;
      d.actions.push_back(std::move(ad));
      steps_.push_back({static_cast<int32_t>(a), -1});
    }
    Result<Domain> compiled = Domain::compile(d);
    domain_ = std::make_unique<Domain>(std::move(compiled.value()));
    astar_ = std::make_unique<AStarPlanner>(*domain_);
    init_.resize(static_cast<size_t>(domain_->num_variables()));
    goal_.resize(init_.size());
    out_.reserve(64);
  }
  std::string_view name() const override { return "goap"; }
  GoalChoice choose_goal(int32_t) override {
    int32_t best = 0;
    for (int32_t d = 1; d < static_cast<int32_t>(h_.drives().size()); ++d) {
      if (h_.drive(d) < h_.drive(best)) best = d;
    }
    return {best, -1, 100.0 - h_.drive(best)};
  }
  bool plan(int32_t, const GoalChoice& g, Plan& out) override {
    out.clear();
    const HouseConfig& c = h_.cfg();
    // While walking, plan from the place being walked to (the step in progress).
    init_[0] = h_.at() >= 0 ? h_.at() : walking_to_;
    init_[1] = h_.item() + 1;
    for (size_t s = 0; s < c.spots.size(); ++s) {
      init_[static_cast<size_t>(open_var_) + s] = h_.blocked(static_cast<int32_t>(s)) ? 0 : 1;
    }
    for (size_t d = 0; d < c.drives.size(); ++d) init_[static_cast<size_t>(raised_var_) + d] = 0;
    std::fill(goal_.begin(), goal_.end(), kUndefined);
    goal_[static_cast<size_t>(raised_var_ + g.goal)] = 1;
    PlannerOptions opt;
    if (astar_->plan(init_, goal_, kAllActions, opt, out_) != PlanStatus::kSolved) return false;
    for (ActionId a : out_) out.push(steps_[static_cast<size_t>(a)]);
    return out.length > 0;
  }
  void set_walking_to(int32_t s) { walking_to_ = s; }

 private:
  House& h_;
  std::unique_ptr<Domain> domain_;
  std::unique_ptr<AStarPlanner> astar_;
  std::vector<Step> steps_;  // SAS action → plan step
  int32_t open_var_ = 0, raised_var_ = 0;
  std::vector<ValueId> init_, goal_;
  std::vector<ActionId> out_;
  int32_t walking_to_ = 0;
};

// ---------------------------------------------------------------------------------------------
// UDGOAP on the world the scenario reader generated from the house (docs/sim.md).
class HouseUdgoap final : public Selector {
 public:
  explicit HouseUdgoap(House& h) : h_(h), w0_(h.cfg().udgoap_world) {
    const HouseConfig& c = h.cfg();
    position_ = w0_.find_attribute("position").value_or(-1);
    exists_ = w0_.find_attribute("exists").value_or(-1);
    for (const std::string& d : c.drives) drive_attr_.push_back(w0_.find_attribute(d).value_or(-1));
    for (const std::string& i : c.items) item_attr_.push_back(w0_.find_attribute(i).value_or(-1));
    for (const udgoap::Action& a : w0_.actions) {
      int32_t m = a.name == "goto" ? kHouseGoto : -1;
      for (size_t k = 0; k < c.activities.size(); ++k) {
        if (c.activities[k].name == a.name) m = static_cast<int32_t>(k);
      }
      action_map_.push_back(m);
    }
    for (const udgoap::Entity& e : w0_.entities) {
      int32_t s = -1;
      for (size_t k = 0; k < c.spots.size(); ++k) {
        if (c.spots[k].name == e.name) s = static_cast<int32_t>(k);
      }
      spot_of_.push_back(s);
    }
  }
  std::string_view name() const override { return "udgoap"; }
  bool replans_on_world_change() const override { return true; }
  GoalChoice choose_goal(int32_t) override { return {0, -1, 0.0}; }
  bool plan(int32_t, const GoalChoice&, Plan& out) override {
    out.clear();
    udgoap::World w = w0_;
    auto set = [&](udgoap::EntityId e, udgoap::AttributeId a, udgoap::Value v) {
      const udgoap::SlotId s = w.slot(e, a);
      if (s != udgoap::kNoSlot) w.facts[static_cast<size_t>(s)].value = v;
    };
    const Vec2 p = h_.pos();
    set(w.agent, position_, udgoap::Value::vec3(p.x, p.y, 0.0));
    for (size_t d = 0; d < drive_attr_.size(); ++d) {
      set(w.agent, drive_attr_[d], udgoap::Value::number(h_.drive(static_cast<int32_t>(d))));
    }
    for (size_t i = 0; i < item_attr_.size(); ++i) {
      set(w.agent, item_attr_[i],
          udgoap::Value::number(h_.item() == static_cast<int32_t>(i) ? 1 : 0));
    }
    for (size_t e = 0; e < w.entities.size(); ++e) {
      if (spot_of_[e] >= 0 && h_.blocked(spot_of_[e])) {
        set(static_cast<udgoap::EntityId>(e), exists_, udgoap::Value::number(0));
      }
    }
    udgoap::AgentState agent = udgoap::make_agent_state(w);
    udgoap::update_agent(w, w.initial_state(), agent);
    udgoap::UdgoapOptions opt;
    opt.limits.max_expansions = h_.cfg().udgoap_max_expansions;
    opt.limits.max_plan_length = kMaxPlanSteps;
    const udgoap::UdgoapResult r = udgoap::plan_udgoap(w, agent, opt);
    if (r.plan.empty() || r.utility <= r.initial_utility + 1e-9) return false;
    for (const udgoap::PlanStep& st : r.plan) {
      const int32_t a = action_map_[static_cast<size_t>(st.action)];
      if (a < 0) return false;
      if (a == kHouseGoto) {
        out.push({kHouseGoto, spot_of_[static_cast<size_t>(st.supplier)]});
      } else {
        out.push({a, -1});
      }
    }
    return out.length > 0;
  }

 private:
  House& h_;
  const udgoap::World& w0_;
  udgoap::AttributeId position_ = -1, exists_ = -1;
  std::vector<udgoap::AttributeId> drive_attr_, item_attr_;
  std::vector<int32_t> action_map_, spot_of_;
};

}  // namespace

// ---------------------------------------------------------------------------------------------
struct HouseSim::Impl {
  const HouseConfig& cfg;
  HouseRun run;
  House house;
  std::unique_ptr<Selector> sel;
  HouseGoap* goap = nullptr;
  AgentLoop loop;
  ReplayWriter* replay;
  LoopObserver* observer;
  bool timing;
  int64_t tick = 0;
  int64_t max_ticks;
  bool over = false;

  Impl(const HouseConfig& c, SelectorKind kind, ReplayWriter* r, LoopObserver* o, bool t)
      : cfg(c),
        house(c, run),
        replay(r),
        observer(o),
        timing(t),
        max_ticks(static_cast<int64_t>(std::llround(c.max_seconds / c.dt))) {
    if (kind == SelectorKind::kUdgoap) {
      sel = std::make_unique<HouseUdgoap>(house);
    } else {
      auto g = std::make_unique<HouseGoap>(house);
      goap = g.get();
      sel = std::move(g);
    }
    loop.reset(0);
  }
};

HouseSim::HouseSim(const HouseConfig& cfg, SelectorKind kind, ReplayWriter* replay,
                   LoopObserver* observer, bool timing)
    : impl_(std::make_unique<Impl>(cfg, kind, replay, observer, timing)) {
  assert(!check(cfg));
}
HouseSim::~HouseSim() = default;

bool HouseSim::step() {
  Impl& m = *impl_;
  if (m.over) return false;
  const double t = static_cast<double>(m.tick) * m.cfg.dt;
  m.house.set_time(t);
  if (m.goap != nullptr) {
    const Step* cur = m.loop.current();
    m.goap->set_walking_to(cur != nullptr && cur->action == kHouseGoto ? cur->target
                                                                       : std::max(0, m.house.at()));
  }
  m.house.decay(m.cfg.dt);
  m.loop.tick(m.house, *m.sel, 0, m.tick, m.cfg.dt, m.cfg.loop, m.observer, m.timing);
  if (m.replay != nullptr && m.replay->due(m.tick)) {
    std::string& s = *m.replay->out();
    s += "{\"type\":\"state\",\"tick\":" + std::to_string(m.tick) + ",\"t\":";
    ReplayWriter::append_number(s, t);
    s += ",\"npc\":0,\"x\":";
    ReplayWriter::append_number(s, m.house.pos().x);
    s += ",\"y\":";
    ReplayWriter::append_number(s, m.house.pos().y);
    s += ",\"action\":";
    const Step* cur = m.loop.current();
    ReplayWriter::append_string(s, cur != nullptr ? house_step_name(m.cfg, *cur) : "idle");
    s += ",\"goal\":";
    const GoalChoice& g = m.loop.goal();
    ReplayWriter::append_string(
        s, g.goal < 0 ? std::string()
                      : (m.goap != nullptr ? "raise_" + m.cfg.drives[static_cast<size_t>(g.goal)]
                                           : std::string("max_utility")));
    s += ",\"drives\":{";
    for (size_t d = 0; d < m.cfg.drives.size(); ++d) {
      if (d) s += ",";
      ReplayWriter::append_string(s, m.cfg.drives[d]);
      s += ":";
      ReplayWriter::append_number(s, m.house.drive(static_cast<int32_t>(d)));
    }
    s += "}}\n";
    m.replay->flush_if_large();
  }
  ++m.tick;
  if (m.house.goal_reached()) {
    m.run.reached = true;
    m.over = true;
  } else if (m.tick >= m.max_ticks) {
    m.over = true;
  }
  if (m.over) {
    m.run.ticks = m.tick;
    m.run.time = static_cast<double>(m.tick) * m.cfg.dt;
    m.run.final_drives.assign(m.house.drives().begin(), m.house.drives().end());
    m.run.counters = m.loop.counters;
  }
  return !m.over;
}

void HouseSim::run() {
  while (step()) {
  }
}

void HouseSim::block_spot(int32_t spot, bool blocked) {
  impl_->house.block(spot, blocked);
}
void HouseSim::steal_item() {
  impl_->house.steal();
}
const HouseRun& HouseSim::result() const {
  return impl_->run;
}
const AgentLoop& HouseSim::loop() const {
  return impl_->loop;
}
double HouseSim::drive(int32_t d) const {
  return impl_->house.drive(d);
}
int32_t HouseSim::item() const {
  return impl_->house.item();
}
int32_t HouseSim::spot() const {
  return impl_->house.at();
}

HouseRun run_house(const HouseConfig& cfg, SelectorKind kind, ReplayWriter* replay,
                   LoopObserver* observer, bool timing) {
  HouseSim sim(cfg, kind, replay, observer, timing);
  sim.run();
  return sim.result();
}

std::string house_step_name(const HouseConfig& cfg, const Step& s) {
  if (s.action == kHouseGoto) {
    return "goto(" + (s.target >= 0 ? cfg.spots[static_cast<size_t>(s.target)].name : "?") + ")";
  }
  return s.action >= 0 ? cfg.activities[static_cast<size_t>(s.action)].name : "?";
}

}  // namespace topoplan::sim
