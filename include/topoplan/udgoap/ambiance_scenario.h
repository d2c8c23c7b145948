// topoplan::udgoap — smart ambiance scenarios (Sloan 2015, chapter 7): a SAS domain whose actions
// carry ambiance annotations and ambiance effects, the ambiance modifiers of locations (areas),
// objects and events, NPC types (susceptibilities, their own predefined costs) and NPCs that plan
// with GOAP A* on the costs the ambiance gives them, one after the other.
// References: docs/references.md.
//
// The scenario is data (docs/udgoap.md, "Smart ambiance scenario files"); run_ambiance() is the
// deterministic simulation that the thesis's three demonstrations (library, road crossing, spy)
// need:
//   * NPCs act in file order on one clock; each executed action takes `action_time` seconds.
//   * Before every decision the NPC's active modifiers are rebuilt from its state: the modifiers
//     of every area whose `inside` holds (location ambiance, attached when the NPC entered it),
//     the event modifiers those areas hold, and the modifiers of every object whose `range`
//     holds (object ambiance, attached when the NPC came within range). A modifier's booster and
//     dampener `start` are delays after it was attached.
//   * The NPC plans with GOAP A* (cost objective) on its type's costs changed by apply_ambiance(),
//     then executes the first action (replan = true) or the whole plan, until its goal holds.
//   * An executed action's ambiance effects add their modifiers, started at the time of the
//     action, to every area the NPC is inside (event ambiance); the area keeps them until they
//     should stop (AmbianceModifier::should_stop).
// load_ambiance_scenario() lives in topoplan::udgoap_io (toml++); the rest in topoplan::udgoap.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"
#include "topoplan/udgoap/ambiance.h"

namespace topoplan::udgoap {

// Holds when the state's value of `var` is one of `values`.
struct StateCondition {
  VarId var = 0;
  std::vector<ValueId> values;
};

struct AmbianceArea {  // a smart ambiance with its location ambiance
  std::string name;
  std::vector<StateCondition> inside;  // all must hold; empty: the whole world
  std::vector<int32_t> modifiers;      // indices into AmbianceScenario::modifiers
};

struct AmbianceObject {  // object ambiance, applied to the NPCs within range
  std::string name;
  std::vector<StateCondition> range;  // all must hold; empty: every NPC
  std::vector<int32_t> modifiers;
};

struct AmbianceNpcType {
  std::string name;
  std::vector<std::string> susceptible;  // applicable ambiance annotations
  std::vector<int64_t> costs;            // predefined cost per action (the type's personality)
};

struct AmbianceNpc {
  std::string name;
  int32_t type = 0;
  std::vector<ValueId> init;  // total
  std::vector<ValueId> goal;  // partial (kUndefined = free)
  bool replan = true;         // replan after every action; false: execute the first plan whole
};

inline constexpr int32_t kMaxAmbianceSteps = 1'000'000;

struct AmbianceScenario {
  std::string name;
  DomainDef domain;                                 // base costs; every action listed, no classes
  ActionAnnotations annotations;                    // per action
  std::vector<std::vector<int32_t>> action_events;  // per action: modifiers of its ambiance effects
  std::vector<AmbianceModifier> modifiers;          // templates; starts are delays
  std::vector<AmbianceArea> areas;
  std::vector<AmbianceObject> objects;
  std::vector<AmbianceNpcType> types;
  std::vector<AmbianceNpc> npcs;
  double action_time = 1.0;  // seconds per executed action: [0, 1e9]
  int32_t max_steps = 100;   // decisions per NPC at most: [1, kMaxAmbianceSteps]
};

// One decision of one NPC.
struct AmbianceDecision {
  double time = 0.0;
  std::vector<ValueId> state;
  std::vector<std::string> active;  // "name@attached" of the active modifiers that apply
  std::vector<int64_t> base_cost;   // per action: the type's predefined cost
  std::vector<int64_t> cost;        // per action: the cost the planner used
  PlanStatus status = PlanStatus::kSolved;
  std::vector<ActionId> plan;
  int64_t plan_cost = 0;  // under `cost`
  bool valid = false;     // validate_plan on the domain with `cost`
};

struct AmbianceNpcRun {
  std::string name;
  PlanStatus status = PlanStatus::kSolved;  // kSolved: the goal holds at the end
  std::vector<ActionId> executed;
  int64_t cost = 0;  // Σ of the executed actions' costs when each was chosen
  std::vector<AmbianceDecision> decisions;
};

struct AmbianceRun {
  std::vector<AmbianceNpcRun> npcs;
  bool all_solved = true;
};

// Checks the cross references (names resolved, sizes, ranges) and every numeric field: the
// modifiers' (check(AmbianceModifier)), the types' costs, action_time, max_steps; NaN fails.
// run_ambiance() asserts it held.
[[nodiscard]] std::optional<Error> check(const AmbianceScenario& scenario);

// Runs the scenario; `with_ambiance` = false plays it with every NPC's active set empty (the
// thesis plays each demonstration both ways).
[[nodiscard]] AmbianceRun run_ambiance(const AmbianceScenario& scenario, bool with_ambiance = true);

// Scenario files (TOML). Errors are "file:line: message".
// Files over max_bytes are refused (default 64 MiB, as topoplan::kDefaultMaxInputBytes).
[[nodiscard]] Result<AmbianceScenario> load_ambiance_scenario(const std::string& path,
                                                              int64_t max_bytes = int64_t{64}
                                                                                  << 20);
[[nodiscard]] Result<AmbianceScenario> parse_ambiance_scenario(std::string_view text,
                                                               const std::string& filename);

}  // namespace topoplan::udgoap
