// topoplan — the exact search: the oracle every other planner is judged against.
//
// Uniform-cost search (Dijkstra) over bit-packed states, with a hashed closed list. It is
// optimal for the chosen objective (cost, or length = number of actions), supports partial
// goals and NPC classes, and proves unsolvability only by exhausting the reachable states.
// When a limit stops it, it says kLimitReached, never kUnsolvable.
#pragma once

#include "topoplan/plan.h"

namespace topoplan {

[[nodiscard]] PlanResult plan_exact(const Domain& domain, const Instance& instance,
                                    const PlannerOptions& options = {});

}  // namespace topoplan
