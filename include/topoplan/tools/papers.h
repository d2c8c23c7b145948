// topoplan — the papers' planners as their pseudocode is written (docs/algorithm.md, "The papers'
// pseudocode as written"): for comparison with topoplan's own ℙ, not for games.
#pragma once

#include <cstdint>

#include "topoplan/runtime/plan.h"

namespace topoplan {

// "topo-ijcai": TopoPlan, BuildChain and DFSTopo of Prévost et al. 2023 (IJCAI) §5. kSolved
// plans are validated; the paper's "fail" comes back as kGaveUp whose message starts with
// "fail at (procedure.line)", an invalid plan as kGaveUp starting with "invalid plan".
[[nodiscard]] PlanResult plan_topo_ijcai(const Domain& domain, const Instance& instance,
                                         const PlannerOptions& options);
// Invalid plans topo-ijcai has caught in this process.
[[nodiscard]] int64_t topo_ijcai_invalid_plans();

// "topo-sas": ℙ of "SAS Planning as Topological Sorting" (Flag matrix, two-entry Next);
// "topo-cnia": its CNIA 2022 version (one-entry Next, NextInCycle, the path analysis for
// prevail-conditions s0 satisfies). Results as topo-ijcai's; the readings are listed in
// src/tools/papers/topo_sas.cpp.
[[nodiscard]] PlanResult plan_topo_sas(const Domain& domain, const Instance& instance,
                                       const PlannerOptions& options);
[[nodiscard]] PlanResult plan_topo_cnia(const Domain& domain, const Instance& instance,
                                        const PlannerOptions& options);
// Invalid plans topo-sas and topo-cnia have caught in this process.
[[nodiscard]] int64_t topo_sas_invalid_plans();

}  // namespace topoplan
