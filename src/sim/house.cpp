// The Sims-like house (Sloan 2015, ch. 5): the UDGOAP selector and the simulation (the world is
// house_world.h, GOAP on the agent runtime house_goap.cpp).
#include "topoplan/sim/house.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "sim/house_world.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::sim {

using house_detail::House;
using house_detail::HouseGoap;
using house_detail::kHouseGoto;

namespace {

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
// GOAP runs on the agent runtime (HouseGoap, house_goap.cpp); UDGOAP on the simulations' loop.
struct HouseSim::Impl {
  const HouseConfig& cfg;
  HouseRun run;
  House house;
  std::unique_ptr<HouseUdgoap> udgoap;
  std::unique_ptr<HouseGoap> goap;
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
      udgoap = std::make_unique<HouseUdgoap>(house);
    } else {
      goap = std::make_unique<HouseGoap>(house);
    }
    loop.reset(0);
  }
  const Step* current() const { return goap ? goap->current() : loop.current(); }
  const LoopCounters& counters() const { return goap ? goap->counters() : loop.counters; }
  void write_replay(double t);
};

void HouseSim::Impl::write_replay(double t) {
  std::string& s = *replay->out();
  s += "{\"type\":\"state\",\"tick\":" + std::to_string(tick) + ",\"t\":";
  ReplayWriter::append_number(s, t);
  s += ",\"npc\":0,\"x\":";
  ReplayWriter::append_number(s, house.pos().x);
  s += ",\"y\":";
  ReplayWriter::append_number(s, house.pos().y);
  s += ",\"action\":";
  const Step* cur = current();
  ReplayWriter::append_string(s, cur != nullptr ? house_step_name(cfg, *cur) : "idle");
  s += ",\"goal\":";
  const int32_t g = goap ? goap->goal() : loop.goal().goal;
  ReplayWriter::append_string(s, g < 0 ? std::string()
                                       : (goap ? "raise_" + cfg.drives[static_cast<size_t>(g)]
                                               : std::string("max_utility")));
  s += ",\"drives\":{";
  for (size_t d = 0; d < cfg.drives.size(); ++d) {
    if (d) s += ",";
    ReplayWriter::append_string(s, cfg.drives[d]);
    s += ":";
    ReplayWriter::append_number(s, house.drive(static_cast<int32_t>(d)));
  }
  s += "}}\n";
  replay->flush_if_large();
}

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
  m.house.decay(m.cfg.dt);
  if (m.goap) {
    m.goap->tick(m.tick, m.cfg.dt, m.cfg.loop, m.observer, m.timing);
  } else {
    m.loop.tick(m.house, *m.udgoap, 0, m.tick, m.cfg.dt, m.cfg.loop, m.observer, m.timing);
  }
  if (m.replay != nullptr && m.replay->due(m.tick)) m.write_replay(t);
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
    m.run.counters = m.counters();
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
const Plan& HouseSim::plan() const {
  return impl_->goap ? impl_->goap->plan() : impl_->loop.plan();
}
const Step* HouseSim::current() const {
  return impl_->current();
}
bool HouseSim::running() const {
  return impl_->goap ? impl_->goap->running() : impl_->loop.running();
}
Replan HouseSim::last_reason() const {
  return impl_->goap ? impl_->goap->last_reason() : impl_->loop.last_reason();
}
const LoopCounters& HouseSim::counters() const {
  return impl_->counters();
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
