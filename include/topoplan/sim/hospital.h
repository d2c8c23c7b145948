// topoplan::sim — the hospital of Sloan (2015), chapter 4: nurses, doctors and visitors caring
// for patients, selected by an FSM, GOAP (A*), the chapter's utility system (weighted needs,
// predefined plans), or, for 10⁴-10⁶ NPCs, GOAP on the agent runtime (agents.h: beliefs, goal
// lists, replanning, ℙ through one crowd batch per tick) with the hospital as its engine. Structure
// of arrays, decisions every 200 ms spread over the ticks; nothing allocates per tick.
// Simplification (docs/sim.md): every carer has its own patient (no shared patients), places are
// abstract (a goto takes a fixed time).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "topoplan/runtime/result.h"
#include "topoplan/sim/core.h"

namespace topoplan::sim {

enum class HospitalSelector : uint8_t { kFsm, kGoap, kUtility, kCrowd };
[[nodiscard]] std::string_view to_string(HospitalSelector s);

struct HospitalConfig {
  std::string name = "hospital";
  double dt = 0.05;
  double seconds = 240.0;  // simulated seconds per run (thesis: about four minutes)
  int32_t decision_ticks = 4;
  // Role mix per 32 NPCs (thesis: 32 NPCs; nurses, doctors, visitors; patients are the world).
  int32_t nurses = 12, doctors = 8, visitors = 12;
  // Need dynamics (per second) and the threshold below which a need is "low".
  double med_decay = 0.8, food_decay = 0.6, company_decay = 0.7, rest_decay = 0.25;
  double admin_rate = 0.5, chart_rate = 0.6;  // backlog growth; "pending" above the threshold
  double threshold = 30.0;
  // Action durations (seconds).
  double t_goto = 2.0, t_get = 1.0, t_medicate = 2.0, t_feed = 3.0, t_break = 10.0, t_admin = 5.0,
         t_chart = 3.0, t_chat = 8.0;
  // Utility weights (nurse: medicate, feed, rest, admin; doctor: chart, rest, admin; visitor:
  // chat, rest).
  double w_med = 1.0, w_food = 0.8, w_rest = 0.5, w_admin = 0.3, w_chart = 1.0, w_chat = 1.0;
  int32_t threads = 1;  // crowd: threads of the agent runtime (examination and batch)
  bool cache = true;    // crowd: PlanCache in front of ℙ
  int64_t npcs = 32;    // the thesis's run
  std::vector<int64_t> crowd_npcs = {10'000, 1'000'000};
  double crowd_seconds = 10.0;  // simulated seconds per crowd run
};

struct HospitalRun {
  int64_t npcs = 0;
  int64_t ticks = 0;
  double sim_seconds = 0.0;
  double wall_seconds = 0.0;
  double planning_wall_seconds = 0.0;  // crowd: inside the runtime's crowd batches
  int64_t decisions = 0;
  int64_t plans = 0;
  int64_t plan_failures = 0;
  int64_t cache_hits = 0;
  int64_t decision_cpu_ns = 0;  // per-decision CPU time summed (fsm, goap, utility)
  int64_t plan_cpu_ns = 0;      // ... of which making plans
  double cpu_seconds = 0.0;     // CPU time of the calling thread for the whole run
  int64_t actions_done = 0;
  double mean_unmet = 0.0;  // average share of patients' needs below the threshold
};

// Runs `npcs` NPCs (roles in the configured mix) for cfg.seconds. `timing`: measure each
// decision's CPU time (adds two clock reads per decision).
// The accepted ranges of the config's numeric fields (those of the scenario file, docs/sim.md):
// an Error naming the field and its range, nullopt when all hold. run_hospital asserts it.
[[nodiscard]] std::optional<Error> check(const HospitalConfig& config);

[[nodiscard]] HospitalRun run_hospital(const HospitalConfig& cfg, HospitalSelector sel,
                                       int64_t npcs, uint64_t seed, bool timing);

}  // namespace topoplan::sim
