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
#include "judge.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::env_int;
using testing::Figures;

void print(int32_t max_locations, const Figures& f,
           const std::map<std::string, int64_t>& gave_up_reasons) {
  const int64_t decided = f.instances - f.exact_limit;
  std::printf("\ntopo vs exact on GOAP levels (locations 3-%d)\n", max_locations);
  std::printf("instances %lld, exact: solvable %lld, T1-solvable %lld, limit %lld\n",
              (long long)f.instances, (long long)f.exact_solved, (long long)f.exact_t1,
              (long long)f.exact_limit);
  std::printf(
      "topo: solved %lld (minimal %lld, longer than a repeating optimum %lld), "
      "unsolvable %lld (wrong %lld), gave up %lld, missed T1 %lld, invalid %lld\n",
      (long long)f.solved, (long long)f.minimal, (long long)f.longer, (long long)f.unsolvable,
      (long long)f.wrong_unsolvable, (long long)f.gave_up, (long long)f.missed,
      (long long)f.invalid);
  if (decided > 0)
    std::printf(
        "topo answers %.2f%% of the instances (solved or proven unsolvable); "
        "T1-solvable solved: %lld / %lld\n",
        100.0 * static_cast<double>(f.solved + f.unsolvable) / static_cast<double>(decided),
        (long long)(f.exact_t1 - f.missed), (long long)f.exact_t1);
  for (const auto& [reason, n] : gave_up_reasons)
    std::printf("  gave up, %s: %lld\n", reason.c_str(), (long long)n);
  std::fflush(stdout);
}

TEST(TopoDifferential, GoapLevels) {
  const int64_t wanted = env_int("TOPOPLAN_LEVEL_INSTANCES", 1000);
  const uint64_t first_seed = static_cast<uint64_t>(env_int("TOPOPLAN_LEVEL_SEED", 1));
  const auto max_locations = static_cast<int32_t>(env_int("TOPOPLAN_LEVEL_MAX_LOCATIONS", 12));
  PlannerOptions exact_opts;
  exact_opts.objective = Objective::kLength;
  exact_opts.limits.max_expansions = 2'000'000;
  Figures f;
  std::map<std::string, int64_t> gave_up_reasons;
  int reported = 0;
  std::vector<ActionId> out;
  for (uint64_t seed = first_seed; f.instances < wanted; ++seed) {
    const Task task = goap_level(goap_level_params(seed, max_locations));
    const Domain& d = task.domain;
    std::map<ClassId, TopoPlanner> planners;
    for (const Instance& inst : task.instances) {
      if (f.instances >= wanted) break;
      ++f.instances;
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
      const PlanResult ex = plan_exact(d, inst, exact_opts);
      if (ex.status == PlanStatus::kLimitReached) {
        ++f.exact_limit;
        continue;
      }
      if (o.status != PlanStatus::kSolved && o.status != PlanStatus::kUnsolvable)
        ++gave_up_reasons[describe(o.detail)];
      const std::vector<ActionId> plan(out.begin(), out.begin() + (o.solved() ? len : 0));
      // Levels have partial goals, yet ℙ must solve every T1 instance of them.
      const testing::Verdict v = testing::judge(planner, d, inst, o, plan, ex, testing::Sweep{}, f);
      if (v.bad && ++reported <= 20) {  // report the first 20, count them all
        ADD_FAILURE() << "level seed " << seed << " " << inst.name << ": " << v.why << "\n  init "
                      << format_state(d, inst.init) << "\n  goal " << format_state(d, inst.goal)
                      << "\n  exact " << to_string(ex.status) << " len " << ex.actions.size();
      }
    }
  }
  print(max_locations, f, gave_up_reasons);
  EXPECT_EQ(f.invalid, 0);
  EXPECT_EQ(f.wrong_unsolvable, 0);
  EXPECT_EQ(f.missed, 0);
}

}  // namespace
}  // namespace topoplan
