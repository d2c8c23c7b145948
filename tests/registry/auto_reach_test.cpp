// "auto"'s producer-choice stage (src/runtime/planner/auto_hot.cpp, reach_pays): entered on large
// unary sets with 2-3 producers per value, never on smaller ones or on the real corpus's classes;
// where it answers, the plan is valid and, on these travel tasks, costs the exact optimum.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

// Walk (cost 3, from anywhere) or ride (cost 2, with the mount fetched at place-1) to each of n
// places; k errands, errand i done at place-(1 + i mod (n - 1)). Goal: every errand done.
Task travel(int32_t n, int32_t k) {
  DomainDef def;
  def.name = "travel";
  VariableDef loc{"location", {}};
  for (int32_t x = 0; x < n; ++x) loc.values.push_back("place-" + std::to_string(x));
  def.variables.push_back(loc);
  def.variables.push_back({"mount", {"no", "yes"}});
  for (int32_t i = 0; i < k; ++i)
    def.variables.push_back({"errand-" + std::to_string(i), {"todo", "done"}});
  for (int32_t x = 0; x < n; ++x) {
    def.actions.push_back({"Walk-" + std::to_string(x), 3, {Effect{0, kUndefined, x}}, {}});
    def.actions.push_back(
        {"Ride-" + std::to_string(x), 2, {Effect{0, kUndefined, x}}, {Fact{1, 1}}});
  }
  def.actions.push_back({"Get-mount", 1, {Effect{1, 0, 1}}, {Fact{0, 1}}});
  for (int32_t i = 0; i < k; ++i)
    def.actions.push_back(
        {"Errand-" + std::to_string(i), 1, {Effect{2 + i, 0, 1}}, {Fact{0, 1 + i % (n - 1)}}});
  Result<Domain> d = Domain::compile(def);
  EXPECT_TRUE(d.ok());
  Instance inst;
  inst.init.assign(def.variables.size(), 0);
  inst.goal.assign(def.variables.size(), kUndefined);
  for (int32_t i = 0; i < k; ++i) inst.goal[static_cast<size_t>(2 + i)] = 1;
  return Task{std::move(d).value(), {inst}};
}

struct Answer {
  PlanOutcome outcome;
  std::vector<ActionId> plan;
};

Answer plan_with(std::string_view name, const Domain& d, const Instance& inst) {
  auto set = CompiledActionSet::create(d, inst.npc_class);
  EXPECT_TRUE(set.ok());
  HotPlannerDef def;
  def.limits = SearchLimits{};
  auto p = create_hot_planner(name, set.value(), def);
  EXPECT_TRUE(p.ok()) << name;
  auto s = (*p)->make_scratch();
  std::vector<ActionId> out(static_cast<size_t>((*p)->max_plan_length()));
  int32_t len = 0;
  Answer a;
  a.outcome = (*p)->plan(*s, inst.init, inst.goal, out, &len);
  if (a.outcome.solved()) a.plan.assign(out.begin(), out.begin() + len);
  return a;
}

TEST(AutoReach, LargeTravelTasksTakeTheChoiceStageAtTheExactOptimum) {
  // n = 8, 9, 10: n · 2 · 2^(n-1) states (2,048 to 10,240) and 24-30 actions.
  for (int32_t n = 8; n <= 10; ++n) {
    const Task t = travel(n, n - 1);
    const Instance& inst = t.instances[0];
    const Answer a = plan_with("auto", t.domain, inst);
    const Answer e = plan_with("exact", t.domain, inst);
    ASSERT_TRUE(a.outcome.solved()) << n;
    ASSERT_TRUE(e.outcome.solved()) << n;
    EXPECT_EQ(a.outcome.planner, "topo-reach") << n;
    const Validation v = validate_plan(t.domain, inst, a.plan);
    EXPECT_TRUE(v.valid) << n << ": " << v.reason;
    EXPECT_EQ(v.cost, plan_cost(t.domain, e.plan)) << n;
  }
}

TEST(AutoReach, SmallTasksAndTheRealCorpusKeepTheirPath) {
  // 4 places, 3 errands: 2^6 · 2 states, 12 actions — below the rule: A* answers.
  const Task small = travel(4, 3);
  EXPECT_EQ(plan_with("auto", small.domain, small.instances[0]).outcome.planner, "astar");
  int instances = 0;
  const auto dir = std::filesystem::path(testing::source_path("domains/real"));
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    Result<Task> task = load_task(entry.path().string());
    ASSERT_TRUE(task.ok()) << task.error().to_string();
    for (const Instance& inst : task->instances) {
      const Answer a = plan_with("auto", task->domain, inst);
      EXPECT_NE(a.outcome.planner, "topo-reach") << entry.path() << " " << inst.name;
      ++instances;
    }
  }
  EXPECT_GE(instances, 49);
}

}  // namespace
}  // namespace topoplan
