// topoplan crowd's measurements (cmd_crowd.cpp): the command's options, the cold, frame and warm
// passes over a town with their wall, CPU and per-worker CPU times, and the machine's load and
// memory bandwidth the report puts beside them.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "topoplan/runtime/crowd.h"
#include "topoplan/tools/town.h"

namespace topoplan::cli::crowd_bench {

struct CrowdOptions {
  std::string domain = "western";  // a built-in town or a domain file
  int64_t npcs = 100'000;
  int32_t threads = 1;
  int32_t frames = 10;
  int32_t reps = 5;
  double churn = 0.05;
  int32_t situations_per_class = 64;
  int32_t cache_entries = 1 << 14;
  // Action buffer: NPCs × this; cached plans: at most max(16, this). Unless --actions-per-npc
  // gives it, the longest plan the town's NPCs get (at least 12: town_action_room).
  int32_t actions_per_npc = 12;
  bool actions_per_npc_given = false;
  int32_t memo_entries = CrowdDef{}.worker_memo_entries;
  bool json = false;
  bool no_baseline = false;
  bool handles = false;        // warm batches and frames answer by plan handle (crowd.h)
  bool partial_goals = false;  // goals name only the class's variables (TownDef::partial_goals)
  uint64_t seed = 1;
  std::string fallback = "astar";  // planner chain after ℙ, comma-separated; "none": ℙ only
  std::vector<std::string> class_fallback;  // CLASS=PLANNER[,PLANNER...]: a class's own chain
  int64_t fallback_budget = CrowdDef{}.fallback_budget;
};

// The planner chain of the options in a CrowdDef: --fallback, --class-fallback, the budget.
void set_chain(const CrowdOptions& o, CrowdDef& def);

// Progress on stderr, only when it is a terminal.
class Progress {
 public:
  explicit Progress(int64_t total) : total_(total), tty_(isatty(2) != 0) {}
  void step(const char* what) {
    ++done_;
    if (!tty_) return;
    const int width = 30;
    const auto filled = static_cast<int>(width * done_ / std::max<int64_t>(total_, 1));
    std::fprintf(stderr, "\r[%.*s%*s] %3lld%% %-24s", filled, "##############################",
                 width - filled, "",
                 static_cast<long long>(100 * done_ / std::max<int64_t>(total_, 1)), what);
    std::fflush(stderr);
  }
  ~Progress() {
    if (tty_) std::fprintf(stderr, "\r%*s\r", 70, "");
  }

 private:
  int64_t total_;
  int64_t done_ = 0;
  bool tty_;
};

struct Measured {
  double cold_s = 0, warm_s = 0, cold_cpu_s = 0, warm_cpu_s = 0, cold_worker_cpu_s = 0,
         warm_worker_cpu_s = 0, frame_npcs = 0, frame_npcs_cold = 0, hit_rate = 0;
  double solved_fraction = 0, mean_length = 0;
  // The planner chain on the cold batch (shares of the town): who answered.
  int64_t solved_topo = 0, solved_fallback = 0, unsolvable_topo = 0, unsolvable_fallback = 0,
          no_plan = 0, bad_input = 0, too_small = 0;
  // A pass of cold frames (plan_frame, 1.67 ms budget, no cache) until the batch is complete.
  int64_t chain_frames = 0, pending_max = 0, resumed = 0;
  double pending_mean = 0;
  int64_t by_handle = 0, table_used = 0;  // --handles: NPCs of the last warm batch by handle
};

// The cold batches (--reps), a pass of cold frames when `frames`, and the warm frames with
// churn, on `threads` workers.
Measured measure(const CrowdPlanner& planner, CrowdTown& town, const CrowdOptions& o,
                 int32_t threads, Progress& progress, bool frames);

// The action room per NPC when --actions-per-npc does not give one: the longest plan any NPC
// of the town gets (ℙ's, or the chain's, which may repeat actions), at least `least` and at most
// the flag's 255. A room of the longest plan fits every NPC's plan in its block's slice, so no
// NPC of the town is "buffer too small"; a fixed room does not suit every file (dogoap-miner's
// A* plans average 26 actions, the longest 32). One batch through a crowd with the run's chain
// and a plan cache finds it: each distinct situation is planned once, the rest are hits, and an
// NPC whose plan does not fit the first room still reports its length.
int32_t town_action_room(const CrowdPlanner& planner, const CrowdTown& town, const CrowdOptions& o,
                         int32_t least);

// Rough single-thread memory bandwidth: memcpy between two buffers of `bytes` (read + write).
// Sized like the batch's input and output (at least 4 MB), so the probe costs no more memory
// than the batch and measures the level of the memory hierarchy the batch streams from.
double memcpy_gbps(size_t bytes);
// The 1-minute load average; -1 when unknown.
double load_average();

}  // namespace topoplan::cli::crowd_bench
