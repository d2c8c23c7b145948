// topoplan::udgoap — the agent's memory of facts and the drives it is given at run time
// (Sloan 2015, §3.5.1 sensing and fact update, §3.5.2 updating drives).
//
// Design
// ------
// * A World is the agent's memory: every sensed fact carries the time it was observed
//   (Fact::timestamp). `sense` merges one percept into it: the percept replaces the remembered
//   fact only when it is at least as fresh, so a late report of an older observation never
//   overwrites a newer one (the fresher fact is preferred). Properties and implicit facts are
//   design constants: percepts cannot replace them.
// * `forget` drops the sensed facts older than `now - max_age`: the agent plans only with what it
//   has seen recently. The goals whose target entity has no sensed fact left go with them (their
//   completeness would be read from nothing; their generators' triggers on the target's facts no
//   longer hold, so they are not generated again until the entity is sensed anew). Forgetting
//   renumbers slots: a state built before it (World::initial_state) must be built again.
// * External drives (§3.5.2, phase 1): another entity (an officer's order, an annotated map)
//   gives the agent a drive at run time. `add_external_drive` appends it to the world's drives
//   and makes it active; its goals are generated at the next update_agent, and its removal
//   triggers (phase 2) retire it there like any drive's. The drive is checked against the world
//   (names, references, weight) before anything changes; a drive named like one the agent already
//   has is refused, so an order repeated every frame does not stack.
// Cold path, like the rest of the model: allocates freely, never throws.
#pragma once

#include <cstdint>

#include "topoplan/runtime/result.h"
#include "topoplan/udgoap/model.h"
#include "topoplan/udgoap/planner.h"

namespace topoplan::udgoap {

enum class SenseOutcome : uint8_t {
  kAdded,        // the agent did not know this (entity, attribute): remembered
  kRefreshed,    // replaced a fact observed no later than the percept
  kKeptFresher,  // the remembered fact is fresher: the percept is ignored
};

// Merges a percept (kind kSensed; entity and attribute of the world; finite timestamp) into the
// agent's memory. An error (nothing changed) names what is wrong: an unknown entity or
// attribute, a non-finite timestamp, or a percept about a property or implicit fact.
[[nodiscard]] Result<SenseOutcome> sense(World& world, const Fact& percept);

struct ForgetStats {
  int32_t facts = 0;  // sensed facts forgotten
  int32_t goals = 0;  // goals removed with them
};

// Forgets the sensed facts observed before `now - max_age` and the goals left without a known
// target. `now` must be finite and `max_age` finite and ≥ 0 (an error otherwise, nothing changed).
[[nodiscard]] Result<ForgetStats> forget(World& world, AgentState& agent, double now,
                                         double max_age);

// Gives the agent a drive at run time; returns its index in World::drives. An error (nothing
// changed) when the drive does not check against the world or its name is already a drive's.
[[nodiscard]] Result<int32_t> add_external_drive(World& world, AgentState& agent, Drive drive);

}  // namespace topoplan::udgoap
