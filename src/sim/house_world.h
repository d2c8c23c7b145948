// The Sims house's world (Sloan 2015, ch. 5), shared by its GOAP and its UDGOAP, both on the agent
// runtime (house_goap.cpp; UDGOAP's planner, house.cpp): the engine that runs steps, moves the NPC
// and its drives, and knows which places are blocked.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/sim/house.h"

namespace topoplan::sim::house_detail {

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

// UDGOAP's planner as the agent world's planner hook (house.cpp): plans from the house's template
// world with the NPC's believed drives and what it senses, and maps the steps to the domain's
// actions — `steps` gives each action's house step (a walk to a place, an activity).
[[nodiscard]] std::unique_ptr<agents::AgentPlanner> make_house_udgoap(
    House& house, const agents::AgentWorld& world, std::span<const Step> steps);

// The house's NPC on the agent runtime (agents.h): the house is the engine, an AgentWorld of one
// agent keeps its beliefs and replans it (house_goap.cpp). GOAP: the world picks the goal (a drive
// list over the house's drives) and plans it with A*; UDGOAP: the world has no goal list and its
// planner hook (make_house_udgoap) makes the plan of highest utility.
class HouseAgent {
 public:
  HouseAgent(House& house, SelectorKind kind);
  ~HouseAgent();
  HouseAgent(const HouseAgent&) = delete;
  HouseAgent& operator=(const HouseAgent&) = delete;
  // One tick: sense (on decision ticks and after a report), update the agent world, run the
  // step it started.
  void tick(int64_t tick, double dt, const LoopConfig& loop, LoopObserver* observer, bool timing);
  [[nodiscard]] const Plan& plan() const;
  [[nodiscard]] const Step* current() const;
  [[nodiscard]] bool running() const;
  // GOAP: the drive pursued; UDGOAP: 0 once it planned (one goal, the utility); -1: none.
  [[nodiscard]] int32_t goal() const;
  [[nodiscard]] Replan last_reason() const;
  [[nodiscard]] const LoopCounters& counters() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace topoplan::sim::house_detail
