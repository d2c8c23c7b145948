// topoplan::tools — crowd towns: seeded populations of NPCs for the crowd benchmark, tests and
// demos, built from any domain (a file or a built-in one).
//
// A town has, per NPC class, a pool of situations — (s0, goal) restricted to the variables the
// class can change or read — and a pool of "backgrounds": states of the rest of the town,
// somewhere in its day. An NPC is a class (drawn by weight), one situation of its class and one
// background; its packed s0 and goal (crowd.h layout) are the background outside the class's
// variables and the situation inside. A situation starts from one of the class's instances
// ("routines": the instances whose npc_class is the class; none: all-zero state) walked a few
// random applicable steps; its goal is a routine's goal or, for an errand, a few random steps
// further from s0. So most NPCs of a class share few situations — as in a town at a given hour —
// and the plan cache has something to find.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/random.h"
#include "topoplan/runtime/result.h"
#include "topoplan/tools/families.h"

namespace topoplan {

struct TownDef {
  int64_t npcs = 100'000;
  int32_t situations_per_class = 64;  // distinct (s0, goal) drawn per class
  int32_t backgrounds = 256;          // states of the rest of the town
  double errand_fraction = 0.15;      // goals a few random steps from s0 instead of a routine's
  // Share of the town per class, by class id; empty: Western's weights by class name (Rancher
  // 30, HorseBreeder 15, ...) and 1 for any other class.
  std::vector<double> class_weights;
  uint64_t seed = 1;
  // Goals name only the NPC's class's variables (the rest free), as GOAP goals are written;
  // false: the goal also leaves every other variable as it is (a total goal, as in the papers).
  bool partial_goals = false;
};

class CrowdTown {
 public:
  // `task` and `planner` (made from task.domain) must outlive the town. Fails on bad def values.
  [[nodiscard]] static Result<CrowdTown> create(const Task& task, const CrowdPlanner& planner,
                                                const TownDef& def = {});

  // The NPCs as a crowd batch (spans into the town; valid until the town changes).
  [[nodiscard]] CrowdBatch batch() const { return CrowdBatch{npc_class_, init_, goal_}; }
  [[nodiscard]] int64_t npcs() const { return static_cast<int64_t>(npc_class_.size()); }
  // Gives NPC `npc` a new class, situation and background (churn between frames).
  void reassign(int64_t npc, SplitMix64& rng);
  // Distinct (class, situation) pairs drawn (situations of a class may repeat).
  [[nodiscard]] int64_t distinct_situations() const { return distinct_; }

 private:
  const CrowdPlanner* planner_ = nullptr;
  int32_t words_ = 0;
  std::vector<double> class_cdf_;
  std::vector<std::vector<uint64_t>> situation_init_, situation_goal_;  // per class: pool * words
  std::vector<std::vector<uint64_t>> class_mask_;  // per class, per word: the class's fields
  std::vector<std::vector<uint64_t>> free_rest_;   // per class, per word: partial goals' rest
  bool partial_goals_ = false;
  std::vector<uint64_t> backgrounds_;  // pool * words
  std::vector<uint16_t> npc_class_;
  std::vector<uint64_t> init_, goal_;
  int64_t distinct_ = 0;
};

// The input of a goal-selection batch (udgoap/goal_selection.h) for a town of NPCs: per NPC a
// class (uniform over the domain's classes) and its facts, stored fact-major (structure of
// arrays: facts[k * npcs + i] is fact k of NPC i). Facts below num_variables() are the state:
// dawn (every value 0), except for about a quarter of the NPCs, who have one random variable
// at a random value; the facts above (drives, levels) are drawn in 0 .. 100. Seeded: the same
// arguments give the same town (topoplan goals, tests).
struct GoalTown {
  std::vector<uint16_t> npc_class;  // npcs entries
  std::vector<float> facts;         // num_facts * npcs entries
};
// Preconditions (asserted): npcs >= 1, num_facts >= domain.num_variables(), the domain has at
// least one class.
[[nodiscard]] GoalTown make_goal_town(const Domain& domain, int64_t npcs, int32_t num_facts,
                                      uint64_t seed);

// Applies up to `steps` random applicable actions of class `npc_class` to `state` (stops at a
// state where none applies): the walks towns and tests draw situations with.
void random_walk(const Domain& domain, std::vector<ValueId>& state, SplitMix64& rng, int32_t steps,
                 ClassId npc_class = kAllActions);

// The built-in towns by name: "western", "western-pus" (families.h) and "goap-level" (a GOAP
// level, goap_level() with 12 places, NPC classes and partial goals).
[[nodiscard]] std::span<const std::string_view> town_names();
// The parameters of the "goap-level" town's level (seed 1); tests draw sibling levels from them
// by changing the seed.
[[nodiscard]] GoapLevelParams goap_level_town_params();
// The task of a built-in town, or an error naming the known towns.
[[nodiscard]] Result<Task> town_task(std::string_view name);

}  // namespace topoplan
