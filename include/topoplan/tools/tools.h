// topoplan::tools — what the runtime a game ships does not need: the exact search (the oracle),
// Bäckström's 𝒫, the benchmark families (families.h).
//
// The planner registry (plan.h) lives in topoplan::runtime and knows the runtime's planners
// ("auto", "topo", "topo-reach", "astar", "astar-back"). A program that links topoplan::tools also
// finds the tools' planners ("exact", "backstrom", "topo-ijcai") by name: the tools' link options
// keep their registration (src/tools/register.cpp), no call needed. register_tools_planners() does
// the same explicitly (e.g. after a program replaced one of them with register_planner()).
#pragma once

namespace topoplan {

// Registers "exact", "backstrom" and "topo-ijcai". Idempotent. Not thread-safe (call it before
// planning).
void register_tools_planners();

}  // namespace topoplan
