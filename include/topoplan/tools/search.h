// topoplan — the exact search: the oracle every other planner is judged against.
//
// Uniform-cost search (Dijkstra) over bit-packed states, with a hashed closed list. It is
// optimal for the chosen objective (cost, or length = number of actions), supports partial
// goals and NPC classes, and proves unsolvability only by exhausting the reachable states.
// When a limit stops it, it says kLimitReached, never kUnsolvable.
#pragma once

#include <memory>

#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

[[nodiscard]] PlanResult plan_exact(const Domain& domain, const Instance& instance,
                                    const PlannerOptions& options = {});

// The hot planner (planner.h) registered as "exact": create_hot_planner("exact", set). Takes
// the set's actions (explicit masks included) and its cost overlay.
[[nodiscard]] Result<std::unique_ptr<HotPlanner>> create_exact_hot(const CompiledActionSet& set,
                                                                   const HotPlannerDef& def);

}  // namespace topoplan
