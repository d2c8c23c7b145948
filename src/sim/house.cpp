// The Sims-like house (Sloan 2015, ch. 5): UDGOAP's planner as the agent world's planner hook, and
// the simulation (the world is house_world.h, the NPC on the agent runtime house_goap.cpp).
#include "topoplan/sim/house.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "sim/house_world.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::sim {

using house_detail::House;
using house_detail::HouseAgent;
using house_detail::kHouseGoto;

namespace {

// ---------------------------------------------------------------------------------------------
// UDGOAP on the world the scenario reader generated from the house (docs/sim.md), as the agent
// world's planner: the template world takes the NPC's believed drives, item and open places (the
// domain's facts: at, item, open_<place>) and its position (which the domain does not hold: the
// house is its sensor), and the plan's steps become the domain's actions.
class HouseUdgoap final : public agents::AgentPlanner {
 public:
  HouseUdgoap(House& h, const agents::AgentWorld& world, std::span<const Step> steps)
      : h_(h), world_(world), w0_(h.cfg().udgoap_world), steps_(steps.begin(), steps.end()) {
    const HouseConfig& c = h.cfg();
    position_ = w0_.find_attribute("position").value_or(-1);
    exists_ = w0_.find_attribute("exists").value_or(-1);
    for (const std::string& d : c.drives) drive_attr_.push_back(w0_.find_attribute(d).value_or(-1));
    for (const std::string& i : c.items) item_attr_.push_back(w0_.find_attribute(i).value_or(-1));
    std::vector<ActionId> goto_action(c.spots.size(), -1), activity_action(c.activities.size(), -1);
    for (size_t a = 0; a < steps.size(); ++a) {
      const Step& st = steps[a];
      if (st.action == kHouseGoto)
        goto_action[static_cast<size_t>(st.target)] = static_cast<ActionId>(a);
      else
        activity_action[static_cast<size_t>(st.action)] = static_cast<ActionId>(a);
    }
    for (const udgoap::Entity& e : w0_.entities) {
      int32_t s = -1;
      for (size_t k = 0; k < c.spots.size(); ++k) {
        if (c.spots[k].name == e.name) s = static_cast<int32_t>(k);
      }
      spot_of_.push_back(s);
      goto_of_.push_back(s >= 0 ? goto_action[static_cast<size_t>(s)] : -1);
    }
    goto_action_ = goto_action;
    // An activity that changes nothing (no item, no drive raised) has no action in the domain;
    // UDGOAP never gains by it, and a plan that holds one is refused (kGaveUp).
    for (const udgoap::Action& a : w0_.actions) {
      ActionId m = -1;
      bool is_goto = a.name == "goto";
      for (size_t k = 0; k < c.activities.size(); ++k) {
        if (c.activities[k].name == a.name) m = activity_action[k];
      }
      action_map_.push_back(m);
      is_goto_.push_back(is_goto ? 1 : 0);
    }
  }

  PlanOutcome plan(agents::AgentId agent, agents::GoalId, std::span<const ValueId> state,
                   std::span<ActionId> out, int32_t* len) override {
    *len = 0;
    udgoap::World w = w0_;
    auto set = [&](udgoap::EntityId e, udgoap::AttributeId a, udgoap::Value v) {
      const udgoap::SlotId s = w.slot(e, a);
      if (s != udgoap::kNoSlot) w.facts[static_cast<size_t>(s)].value = v;
    };
    const Vec2 p = h_.pos();
    set(w.agent, position_, udgoap::Value::vec3(p.x, p.y, 0.0));
    for (size_t d = 0; d < drive_attr_.size(); ++d) {
      set(w.agent, drive_attr_[d],
          udgoap::Value::number(world_.drive(agent, static_cast<agents::DriveId>(d))));
    }
    const ValueId item = state[kItemVar] - 1;
    for (size_t i = 0; i < item_attr_.size(); ++i) {
      set(w.agent, item_attr_[i], udgoap::Value::number(item == static_cast<ValueId>(i) ? 1 : 0));
    }
    for (size_t e = 0; e < w.entities.size(); ++e) {
      if (spot_of_[e] >= 0 && state[static_cast<size_t>(kOpenVar + spot_of_[e])] == 0) {
        set(static_cast<udgoap::EntityId>(e), exists_, udgoap::Value::number(0));
      }
    }
    udgoap::AgentState agent_state = udgoap::make_agent_state(w);
    udgoap::update_agent(w, w.initial_state(), agent_state);
    udgoap::UdgoapOptions opt;
    opt.limits.max_expansions = h_.cfg().udgoap_max_expansions;
    opt.limits.max_plan_length = static_cast<int32_t>(std::min<size_t>(out.size(), kMaxPlanSteps));
    const udgoap::UdgoapResult r = udgoap::plan_udgoap(w, agent_state, opt);
    // No plan, or none that gains utility: nothing to do for now (no proof of anything).
    if (r.plan.empty() || r.utility <= r.initial_utility + 1e-9) return PlanOutcome{};
    // UDGOAP's "near the place" is a distance; the domain's is `at`: a step at a place the NPC
    // is not at (it is between places, having just left it) gets its walk first.
    const std::vector<HouseActivity>& acts = h_.cfg().activities;
    ValueId at = state[0];
    for (const udgoap::PlanStep& st : r.plan) {
      const auto k = static_cast<size_t>(st.action);
      const ActionId a =
          is_goto_[k] != 0 ? goto_of_[static_cast<size_t>(st.supplier)] : action_map_[k];
      if (a < 0) return PlanOutcome{};
      const Step& step = steps_[static_cast<size_t>(a)];
      const int32_t place =
          step.action == kHouseGoto ? step.target : acts[static_cast<size_t>(step.action)].spot;
      const bool walk = step.action != kHouseGoto && place >= 0 && place != at;
      if (static_cast<size_t>(*len) + (walk ? 2 : 1) > out.size())
        return PlanOutcome{PlanStatus::kBufferTooSmall};
      if (walk) out[static_cast<size_t>((*len)++)] = goto_action_[static_cast<size_t>(place)];
      if (place >= 0) at = place;
      out[static_cast<size_t>((*len)++)] = a;
    }
    return PlanOutcome{PlanStatus::kSolved};
  }

 private:
  static constexpr size_t kItemVar = 1;   // the domain's variables (house_goap.cpp): at, item,
  static constexpr int32_t kOpenVar = 2;  // open_<place> per place, raised_<drive> per drive
  House& h_;
  const agents::AgentWorld& world_;
  const udgoap::World& w0_;
  udgoap::AttributeId position_ = -1, exists_ = -1;
  std::vector<udgoap::AttributeId> drive_attr_, item_attr_;
  std::vector<Step> steps_;  // per domain action: its house step
  std::vector<ActionId> action_map_, goto_of_, goto_action_;
  std::vector<int32_t> spot_of_;
  std::vector<uint8_t> is_goto_;
};

}  // namespace

std::unique_ptr<agents::AgentPlanner> house_detail::make_house_udgoap(
    House& house, const agents::AgentWorld& world, std::span<const Step> steps) {
  return std::make_unique<HouseUdgoap>(house, world, steps);
}

// ---------------------------------------------------------------------------------------------
// GOAP and UDGOAP run on the agent runtime (HouseAgent, house_goap.cpp).
struct HouseSim::Impl {
  const HouseConfig& cfg;
  HouseRun run;
  House house;
  HouseAgent agent;
  ReplayWriter* replay;
  LoopObserver* observer;
  bool timing;
  int64_t tick = 0;
  int64_t max_ticks;
  bool over = false;

  Impl(const HouseConfig& c, SelectorKind kind, ReplayWriter* r, LoopObserver* o, bool t)
      : cfg(c),
        house(c, run),
        agent(house, kind),
        replay(r),
        observer(o),
        timing(t),
        max_ticks(static_cast<int64_t>(std::llround(c.max_seconds / c.dt))),
        udgoap(kind == SelectorKind::kUdgoap) {}
  bool udgoap;
  const Step* current() const { return agent.current(); }
  const LoopCounters& counters() const { return agent.counters(); }
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
  const int32_t g = agent.goal();
  ReplayWriter::append_string(s, g < 0 ? std::string()
                                       : (udgoap ? std::string("max_utility")
                                                 : "raise_" + cfg.drives[static_cast<size_t>(g)]));
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
  m.agent.tick(m.tick, m.cfg.dt, m.cfg.loop, m.observer, m.timing);
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
  return impl_->agent.plan();
}
const Step* HouseSim::current() const {
  return impl_->current();
}
bool HouseSim::running() const {
  return impl_->agent.running();
}
Replan HouseSim::last_reason() const {
  return impl_->agent.last_reason();
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
