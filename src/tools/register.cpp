// The planners of topoplan::tools in the runtime's registry (topoplan/tools/tools.h).
//
// The runtime's registry asks for topoplan_tools_planners() through a weak reference, and
// topoplan::tools adds "-u topoplan_tools_planners" to the link line of every program that links
// it (src/CMakeLists.txt). So a program that links the tools finds "exact" and "backstrom" by
// name without a call, and a runtime-only program links none of their code.
#include <cstdint>

#include "topoplan/runtime/plan.h"
#include "topoplan/tools/backstrom.h"
#include "topoplan/tools/papers.h"
#include "topoplan/tools/search.h"
#include "topoplan/tools/tools.h"

namespace topoplan {
namespace {

constexpr PlannerInfo kToolPlanners[] = {
    {"exact", "optimal uniform-cost search over packed states (the test oracle)", &plan_exact,
     &create_exact_hot},
    {"backstrom", "Backstrom's O(m^2 n) SAS+-PUS planner (unary, post-unique, single-valued)",
     &plan_backstrom, &create_backstrom_hot},
    {"topo-ijcai",
     "TopoPlan as Prevost et al. 2023 write it (BuildChain, DFSTopo; comparison only)",
     &plan_topo_ijcai},
    {"topo-sas",
     "P as SAS Planning as Topological Sorting writes it (Flag, two-entry Next; comparison only)",
     &plan_topo_sas},
    {"topo-cnia",
     "P as its CNIA 2022 version writes it (NextInCycle, path analysis; comparison only)",
     &plan_topo_cnia},
};

}  // namespace

void register_tools_planners() {
  for (const PlannerInfo& p : kToolPlanners) register_planner(p);
}

}  // namespace topoplan

extern "C" void topoplan_tools_planners(const topoplan::PlannerInfo** list, int32_t* count) {
  *list = topoplan::kToolPlanners;
  *count = static_cast<int32_t>(std::size(topoplan::kToolPlanners));
}
