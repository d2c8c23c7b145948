// The Western benchmark town for the browser: the same generator as `topoplan crowd`
// (tools/topoplan/cmd_crowd.cpp; docs/crowds.md "The benchmark town": class shares, 64
// situations per class, 256 backgrounds, churn), so that WebAssembly and native figures compare
// like for like. Single-threaded (the page's build has no threads).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "topoplan/crowd.h"
#include "topoplan/domain.h"
#include "topoplan/random.h"

namespace topoplan::wasm {

using Rng = SplitMix64;  // the project's one seeded generator (topoplan/random.h)

// Per-class pools of (s0, goal) on the class's variables, a pool of "rest of the town"
// backgrounds, and per NPC the packed input composed from one of each.
struct Town {
  int32_t words = 0;
  std::vector<double> class_cdf;
  std::vector<std::vector<uint64_t>> sit_init, sit_goal;  // per class: pool * words
  std::vector<uint64_t> background;                       // pool * words
  std::vector<std::vector<uint64_t>> class_mask;          // per class: key mask per word
  std::vector<uint16_t> npc_class;
  std::vector<uint64_t> init, goal;

  void assign(int64_t i, Rng& rng);
  [[nodiscard]] int64_t size() const { return static_cast<int64_t>(npc_class.size()); }
};

Town build_town(const Task& task, const CrowdPlanner& planner, int64_t npcs,
                int32_t situations_per_class, Rng& rng);

// A live town: the crowd, its cache and output buffers, planned a frame at a time.
struct LiveTown {
  Task task;
  std::unique_ptr<CrowdPlanner> planner;
  std::unique_ptr<PlanCache> cache;
  std::unique_ptr<Crowd> crowd;  // (Crowd's default constructor needs its private types)
  Town town;
  Rng rng{1};
  std::vector<ActionId> actions;
  std::vector<uint32_t> offset;
  std::vector<uint16_t> length;
  std::vector<CrowdStatus> status;
  CrowdCursor cursor;  // frame mode: where the current pass stands
};

}  // namespace topoplan::wasm
