// topoplan::sim — the Sims-like house of Sloan (2015), chapter 5: one NPC with seven drives,
// all at 0, acts until every drive is above 90. GOAP plans for the lowest drive (§5.1.1.1) with
// A* on Table 5.1's costs, on the agent runtime (agents.h: the house is the engine); UDGOAP plans
// for the utility over all drives with topoplan::udgoap. The measure is the simulated time to reach
// the goal state; the claim is the ratio (thesis: GOAP 146 s, UDGOAP 118 s).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "topoplan/sim/arena.h"
#include "topoplan/sim/core.h"
#include "topoplan/udgoap/model.h"

namespace topoplan::sim {

struct HouseActivity {
  std::string name;
  int64_t cost = 1;          // GOAP cost (Table 5.1)
  int32_t spot = -1;         // where it happens (-1: anywhere)
  double duration = 1.0;     // seconds (fixed), or the longest it may last with `until`
  int32_t until = -1;        // drive: the activity stops when this drive is full
  std::vector<double> gain;  // per drive, per second while running (may be negative)
  int32_t needs = -1;        // item held and consumed at the start (-1: none)
  int32_t gives = -1;        // item held at the end (-1: none)
};

// Drives a house may have (every decision scores each of them).
inline constexpr int64_t kMaxHouseDrives = 64;

struct HouseConfig {
  std::string name = "sims-house";
  double dt = 0.05;
  double max_seconds = 3600.0;
  double width = 14.0, height = 10.0;
  double speed = 1.5;            // walking speed (m/s)
  int64_t goto_cost = 1;         // Table 5.1: every goto_* costs 1
  double target = 90.0;          // every drive above this ends the run (thesis)
  double activity_energy = 0.0;  // energy lost per second by activities that do not raise it
  std::vector<std::string> drives;
  std::vector<double> decay;    // per drive, per second
  std::vector<double> initial;  // per drive (thesis: all 0)
  std::vector<NamedSpot> spots;
  int32_t start_spot = 0;
  std::vector<std::string> items;
  std::vector<HouseActivity> activities;
  double switch_margin = 10.0;  // GOAP: a new lowest drive must be this much lower to preempt
  // UDGOAP: the world generated from the above by the scenario reader.
  udgoap::World udgoap_world;
  bool has_udgoap = false;
  int64_t udgoap_max_expansions = 2000;
  LoopConfig loop;
};

struct HouseRecord {
  double t = 0.0;       // start time
  int32_t action = -1;  // activity index, or -1 for goto
  int32_t target = -1;  // spot of a goto
  bool done = false;    // false: failed
};

struct HouseRun {
  double time = 0.0;  // simulated seconds until every drive was above the target (or the cut)
  bool reached = false;
  int64_t ticks = 0;
  std::vector<double> final_drives;
  std::vector<HouseRecord> steps;  // executed steps in order
  LoopCounters counters;
};

// The accepted ranges of the config's numeric fields (those of the scenario file, docs/sim.md),
// its per-drive vectors' sizes and its indices: an Error naming the field and its range.
[[nodiscard]] std::optional<Error> check(const HouseConfig& config);

// A house simulation that tests can drive tick by tick and disturb (`cfg` must pass check();
// asserted in debug builds).
class HouseSim {
 public:
  HouseSim(const HouseConfig& cfg, SelectorKind kind, ReplayWriter* replay = nullptr,
           LoopObserver* observer = nullptr, bool timing = false);
  ~HouseSim();
  HouseSim(const HouseSim&) = delete;
  HouseSim& operator=(const HouseSim&) = delete;

  // One tick; false once the run is over (goal reached or cut).
  bool step();
  void run();
  // Disturbances (the replanning tests): a blocked spot cannot be reached or used; a stolen item
  // leaves the NPC's hands.
  void block_spot(int32_t spot, bool blocked);
  void steal_item();

  [[nodiscard]] const HouseRun& result() const;
  // The plan being run, its step running or next (nullptr: none), whether that step has begun,
  // why the NPC last planned, and the loop's counters (GOAP: on the agent runtime).
  [[nodiscard]] const Plan& plan() const;
  [[nodiscard]] const Step* current() const;
  [[nodiscard]] bool running() const;
  [[nodiscard]] Replan last_reason() const;
  [[nodiscard]] const LoopCounters& counters() const;
  [[nodiscard]] double drive(int32_t d) const;
  [[nodiscard]] int32_t item() const;
  [[nodiscard]] int32_t spot() const;  // -1 while walking

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

[[nodiscard]] HouseRun run_house(const HouseConfig& cfg, SelectorKind kind,
                                 ReplayWriter* replay = nullptr, LoopObserver* observer = nullptr,
                                 bool timing = false);
[[nodiscard]] std::string house_step_name(const HouseConfig& cfg, const Step& s);

}  // namespace topoplan::sim
