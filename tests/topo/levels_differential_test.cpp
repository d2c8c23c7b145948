// Differential test of ℙ against the exact search on generated GOAP levels (families.h: GoTo
// actions without a pre-condition on the location, patrol routes, doors, keys, items, needs;
// goals of 1-3 facts, every other variable free) — the tasks games give ℙ (docs/goap.md).
//
// TOPOPLAN_LEVEL_INSTANCES sets the number of instances (default 1000), TOPOPLAN_LEVEL_SEED the
// first level seed, TOPOPLAN_LEVEL_MAX_LOCATIONS the largest level (default 12; the exact search
// is the slow side). Asserted: every plan ℙ returns is valid, uses each action once and is as
// short as the exact optimum (or the optimum repeats an action and ℙ's plan is minimal among plans
// with each action once); ℙ never says kUnsolvable when the exact search finds a plan; ℙ solves
// every instance whose optimal plan uses each action once. Printed: the share ℙ answers.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>

#include "env.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::env_int;

TEST(TopoDifferential, GoapLevels) {
  const int64_t wanted = env_int("TOPOPLAN_LEVEL_INSTANCES", 1000);
  const uint64_t first_seed = static_cast<uint64_t>(env_int("TOPOPLAN_LEVEL_SEED", 1));
  const auto max_locations = static_cast<int32_t>(env_int("TOPOPLAN_LEVEL_MAX_LOCATIONS", 12));
  PlannerOptions exact_opts;
  exact_opts.objective = Objective::kLength;
  exact_opts.limits.max_expansions = 2'000'000;
  int64_t instances = 0, solvable = 0, t1 = 0, limit = 0, solved = 0, minimal = 0, longer = 0;
  int64_t invalid = 0, unsolvable = 0, wrong = 0, gave_up = 0, missed = 0;
  std::map<std::string, int64_t> gave_up_reasons;
  int reported = 0;
  std::vector<ActionId> out;
  for (uint64_t seed = first_seed; instances < wanted; ++seed) {
    const Task task = goap_level(goap_level_params(seed, max_locations));
    const Domain& d = task.domain;
    std::map<ClassId, TopoPlanner> planners;
    for (const Instance& inst : task.instances) {
      if (instances >= wanted) break;
      ++instances;
      auto it = planners.find(inst.npc_class);
      if (it == planners.end()) {
        Result<TopoPlanner> p = TopoPlanner::create(d, inst.npc_class);
        ASSERT_TRUE(p.ok()) << p.error().to_string();
        it = planners.emplace(inst.npc_class, std::move(p).value()).first;
      }
      const TopoPlanner& planner = it->second;
      TopoScratch scratch = planner.make_scratch();
      out.assign(static_cast<size_t>(planner.max_plan_length()), -1);
      int32_t len = 0;
      const PlanOutcome o = planner.plan(scratch, inst.init, inst.goal, out, &len);
      const PlanStatus st = o.status;
      const PlanResult ex = plan_exact(d, inst, exact_opts);
      if (ex.status == PlanStatus::kLimitReached) {
        ++limit;
        continue;
      }
      const bool ok = ex.status == PlanStatus::kSolved;
      const bool ex_t1 = ok && std::set<ActionId>(ex.actions.begin(), ex.actions.end()).size() ==
                                   ex.actions.size();
      solvable += ok;
      t1 += ex_t1;
      std::string why;
      if (st == PlanStatus::kSolved) {
        ++solved;
        const std::vector<ActionId> plan(out.begin(), out.begin() + len);
        const Validation val = validate_plan(d, inst, plan);
        if (!val.valid || std::set<ActionId>(plan.begin(), plan.end()).size() != plan.size()) {
          ++invalid;
          why = "invalid plan: " + val.reason;
        } else if (ok && !ex_t1 && plan.size() > ex.actions.size()) {
          ++longer;
        } else if (!ok || plan.size() != ex.actions.size()) {
          why = "length " + std::to_string(plan.size()) + " vs exact " +
                std::to_string(ex.actions.size());
        } else {
          ++minimal;
        }
      } else if (st == PlanStatus::kUnsolvable) {
        ++unsolvable;
        if (ok) {
          ++wrong;
          why = "wrong unsolvable: " + planner.explain(o);
        }
      } else {
        ++gave_up;
        ++gave_up_reasons[describe(o.detail)];
      }
      if (st != PlanStatus::kSolved && ex_t1) {
        ++missed;
        why = "missed a T1 instance: " + planner.explain(o);
      }
      if (!why.empty() && ++reported <= 20) {  // report the first 20, count them all
        ADD_FAILURE() << "level seed " << seed << " " << inst.name << ": " << why << "\n  init "
                      << format_state(d, inst.init) << "\n  goal " << format_state(d, inst.goal)
                      << "\n  exact " << to_string(ex.status) << " len " << ex.actions.size();
      }
    }
  }
  const int64_t decided = instances - limit;
  std::printf("\ntopo vs exact on GOAP levels (locations 3-%d)\n", max_locations);
  std::printf("instances %lld, exact: solvable %lld, T1-solvable %lld, limit %lld\n",
              (long long)instances, (long long)solvable, (long long)t1, (long long)limit);
  std::printf(
      "topo: solved %lld (minimal %lld, longer than a repeating optimum %lld), "
      "unsolvable %lld (wrong %lld), gave up %lld, missed T1 %lld, invalid %lld\n",
      (long long)solved, (long long)minimal, (long long)longer, (long long)unsolvable,
      (long long)wrong, (long long)gave_up, (long long)missed, (long long)invalid);
  if (decided > 0)
    std::printf(
        "topo answers %.2f%% of the instances (solved or proven unsolvable); "
        "T1-solvable solved: %lld / %lld\n",
        100.0 * static_cast<double>(solved + unsolvable) / static_cast<double>(decided),
        (long long)(t1 - missed), (long long)t1);
  for (const auto& [reason, n] : gave_up_reasons)
    std::printf("  gave up, %s: %lld\n", reason.c_str(), (long long)n);
  std::fflush(stdout);
  EXPECT_EQ(invalid, 0);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(missed, 0);
}

}  // namespace
}  // namespace topoplan
