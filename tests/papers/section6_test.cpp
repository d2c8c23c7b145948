// The IJCAI paper's §6 crowds as we rebuilt them (domains/ac-origins-citizens.toml,
// domains/hzd-machines.toml): what the paper states of them must hold of the files — every class
// is SAS-PUC2* and no smaller class, the longest minimal plan has 10 actions — and ℙ and the
// papers' planners answer every routine as the exact search does.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/analysis.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/papers.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

class Section6 : public ::testing::TestWithParam<const char*> {};

TEST_P(Section6, EveryClassIsC2StarAndEveryRoutineAgreesWithTheExactSearch) {
  const std::string path = testing::source_path("domains/") + GetParam();
  Result<Task> task = load_task(path);
  ASSERT_TRUE(task.ok()) << task.error().to_string();
  const Domain& d = task->domain;
  ASSERT_GE(d.num_classes(), 2);
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    const ClassReport report = analyze(d, c);
    EXPECT_EQ(report.structural_class, StructuralClass::kC2Star)
        << d.class_name(c) << ": " << report.why_not;
  }
  PlannerOptions options;
  options.objective = Objective::kLength;
  size_t longest = 0;
  int unsolvable = 0;
  for (const Instance& inst : task->instances) {
    const PlanResult exact = plan_exact(d, inst, options);
    ASSERT_NE(exact.status, PlanStatus::kLimitReached) << inst.name;
    if (exact.status == PlanStatus::kUnsolvable) {
      ++unsolvable;
      EXPECT_NE(plan_topo(d, inst, options).status, PlanStatus::kSolved) << inst.name;
      continue;
    }
    ASSERT_EQ(exact.status, PlanStatus::kSolved) << inst.name;
    longest = std::max(longest, exact.actions.size());
    const PlanResult topo = plan_topo(d, inst, options);
    ASSERT_EQ(topo.status, PlanStatus::kSolved) << inst.name << ": " << topo.message;
    EXPECT_TRUE(validate_plan(d, inst, topo.actions).valid) << inst.name;
    EXPECT_EQ(topo.actions.size(), exact.actions.size()) << inst.name;
    for (const auto planner : {&plan_topo_ijcai, &plan_topo_sas, &plan_topo_cnia}) {
      const PlanResult r = planner(d, inst, options);
      ASSERT_EQ(r.status, PlanStatus::kSolved)
          << r.stats.engine << " " << inst.name << ": " << r.message;
      EXPECT_EQ(r.actions.size(), exact.actions.size()) << r.stats.engine << " " << inst.name;
    }
  }
  EXPECT_EQ(longest, 10u);  // "plans with up to 10 actions"
  EXPECT_EQ(unsolvable, 1);
}

INSTANTIATE_TEST_SUITE_P(Files, Section6,
                         ::testing::Values("ac-origins-citizens.toml", "hzd-machines.toml"));

}  // namespace
}  // namespace topoplan
