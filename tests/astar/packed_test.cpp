// The hot "astar" planner's one-word search (src/runtime/astar/packed_astar.h): same status and
// optimal cost as the exact search, valid plans, and the very plans of AStarPlanner (it claims
// the same expansion order), on random general SAS+ tasks that fit one word (multi-effect
// actions, undefined pre-conditions, zero costs, NPC classes, partial goals, multi-valued
// variables, unsolvable instances) and on every instance of domains/real/.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "random_domains.h"
#include "random_tasks.h"
#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

struct Tally {
  int64_t solved = 0, unsolvable = 0;
};

// Plans `inst` with the hot "astar" (one-word search) and checks it against the exact search
// and AStarPlanner.
void check_instance(const Domain& d, const Instance& inst, Objective objective, Tally& tally,
                    const std::string& where) {
  const CompiledActionSet set = CompiledActionSet::create(d, inst.npc_class).value();
  HotPlannerDef def;
  def.objective = objective;
  def.limits = SearchLimits{};
  auto hot = create_hot_planner("astar", set, def).value();
  auto scratch = hot->make_scratch();
  std::vector<ActionId> out(static_cast<size_t>(std::min(hot->max_plan_length(), 4096)));
  int32_t len = -1;
  const PlanOutcome o = hot->plan(*scratch, inst.init, inst.goal, out, &len);

  PlannerOptions options;
  options.objective = objective;
  const PlanResult exact = plan_exact(d, inst, options);
  ASSERT_EQ(o.status, exact.status) << where;
  AStarPlanner general(d);
  std::vector<ActionId> expected;
  ASSERT_EQ(general.plan(inst, options, expected), exact.status) << where;
  if (!o.solved()) {
    ++tally.unsolvable;
    EXPECT_NE(o.detail & kDetailExhausted, 0u) << where;
    return;
  }
  ++tally.solved;
  const std::vector<ActionId> plan(out.begin(), out.begin() + len);
  const Validation v = validate_plan(d, inst, plan);
  ASSERT_TRUE(v.valid) << where << ": " << v.reason;
  if (objective == Objective::kCost)
    ASSERT_EQ(plan_cost(d, plan), exact.cost) << where;
  else
    ASSERT_EQ(plan.size(), exact.actions.size()) << where;
  ASSERT_EQ(plan, expected) << where;
}

TEST(AStarOneWord, RandomTasksAgainstExactSearch) {
  testing::RandomTaskSpec spec;  // up to 6 variables of up to 4 values: always one word
  spec.instances = 5;
  Tally tally;
  int64_t instances = 0;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    const auto task = testing::random_task(seed * 7919, spec);
    const Domain d = Domain::compile(task.def).value();
    ASSERT_TRUE(astar_hot_uses_one_word(d));
    for (const Instance& inst : task.instances)
      for (Objective obj : {Objective::kCost, Objective::kLength}) {
        ++instances;
        check_instance(d, inst, obj, tally, "seed " + std::to_string(seed));
        if (::testing::Test::HasFatalFailure()) return;
      }
  }
  EXPECT_GE(instances, 10'000);
  EXPECT_GT(tally.solved, instances / 4);
  EXPECT_GT(tally.unsolvable, instances / 20);
}

TEST(AStarOneWord, EveryRealDomainInstanceAndRandomTasksOfThem) {
  Tally tally;
  int32_t files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::source_path("domains/real"))) {
    if (entry.path().extension() != ".toml") continue;
    Result<Task> task = load_task(entry.path().string());
    ASSERT_TRUE(task.ok()) << entry.path() << ": " << task.error().to_string();
    const Domain& d = task->domain;
    if (!astar_hot_uses_one_word(d)) continue;
    ++files;
    const std::string name = entry.path().filename().string();
    for (const Instance& inst : task->instances) {
      check_instance(d, inst, Objective::kCost, tally, name + " " + inst.name);
      if (::testing::Test::HasFatalFailure()) return;
    }
    testing::Rng rng(static_cast<uint64_t>(files) * 97);
    for (int i = 0; i < 20; ++i) {
      const Instance inst = testing::alternating_instance(d, rng, i, 0.6);
      check_instance(d, inst, Objective::kCost, tally, name + " random " + std::to_string(i));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GE(files, 15);
  EXPECT_GT(tally.solved, 300);
  EXPECT_GT(tally.unsolvable, 0);
}

// n boolean variables, action i sets v_i when v_{i-1} is set; plus `ones` one-valued variables.
Domain chain_domain(int32_t n, int32_t ones) {
  DomainDef def;
  def.name = "chain";
  for (int32_t v = 0; v < n; ++v)
    def.variables.push_back(VariableDef{"b" + std::to_string(v), {"no", "yes"}});
  for (int32_t v = 0; v < ones; ++v)
    def.variables.push_back(VariableDef{"c" + std::to_string(v), {"only"}});
  for (int32_t i = 0; i < n; ++i) {
    ActionDef a;
    a.name = "set" + std::to_string(i);
    a.effects.push_back(Effect{i, 0, 1});
    if (i > 0) a.prevail.push_back(Fact{i - 1, 1});
    def.actions.push_back(a);
  }
  return Domain::compile(def).value();
}

TEST(AStarOneWord, WordBoundary) {
  EXPECT_FALSE(astar_hot_uses_one_word(chain_domain(65, 0)));
  const Domain d = chain_domain(64, 3);  // 64 bits, then variables of no bits
  ASSERT_TRUE(astar_hot_uses_one_word(d));
  Instance inst;
  inst.init.assign(67, 0);
  inst.goal.assign(67, kUndefined);
  inst.goal[63] = 1;
  inst.goal[65] = 0;
  Tally tally;
  check_instance(d, inst, Objective::kCost, tally, "chain 64");
  EXPECT_EQ(tally.solved, 1);
}

// Boolean tasks whose f or g may pass 32 bits (costs of 2^33, or 40 variables: paths of up to
// 2^40 - 1 actions) keep the wide heap entries; the plans are the same.
TEST(AStarOneWord, BooleanTasksBeyondCompactKeys) {
  Tally tally;
  for (const int64_t cost : {int64_t{1}, int64_t{1} << 33}) {
    DomainDef def;
    def.name = "wide";
    for (int32_t v = 0; v < 3; ++v)
      def.variables.push_back(VariableDef{"b" + std::to_string(v), {"no", "yes"}});
    for (int32_t v = 0; v < 3; ++v) {
      def.actions.push_back(
          ActionDef{"set" + std::to_string(v), cost * (v + 1), {Effect{v, 0, 1}}, {}});
      def.actions.push_back(
          ActionDef{"clear" + std::to_string(v), cost, {Effect{v, 1, 0}}, {Fact{(v + 1) % 3, 1}}});
    }
    const Domain d = Domain::compile(def).value();
    for (int32_t mask = 0; mask < 8; ++mask) {
      Instance inst;
      for (int32_t v = 0; v < 3; ++v) inst.init.push_back((mask >> v) & 1);
      inst.goal = {1, 0, kUndefined};
      check_instance(d, inst, Objective::kCost, tally, "cost " + std::to_string(cost));
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  Instance inst;
  inst.init.assign(40, 0);
  inst.goal.assign(40, kUndefined);
  inst.goal[39] = 1;
  check_instance(chain_domain(40, 0), inst, Objective::kCost, tally, "chain 40");
  EXPECT_EQ(tally.solved, 8 + 8 + 1 - tally.unsolvable);
  EXPECT_GT(tally.solved, 10);
}

TEST(AStarOneWord, BadInputLimitsAndBuffer) {
  const Domain d = chain_domain(10, 0);
  const CompiledActionSet set = CompiledActionSet::create(d).value();
  auto hot = create_hot_planner("astar", set).value();
  auto scratch = hot->make_scratch();
  std::vector<ActionId> out(64);
  int32_t len = 0;
  std::vector<ValueId> s0(10, 0), goal(10, kUndefined);
  goal[9] = 1;
  // Bad input: sizes, values out of range, limits out of range.
  std::vector<ValueId> short_state(9, 0), bad = s0, bad_goal = goal;
  bad[3] = 2;
  bad_goal[2] = -5;
  for (const auto& [a, b] :
       {std::pair{short_state, goal}, {s0, short_state}, {bad, goal}, {s0, bad_goal}}) {
    const PlanOutcome o = hot->plan(*scratch, a, b, out, &len);
    EXPECT_EQ(o.status, PlanStatus::kGaveUp);
    EXPECT_EQ(o.detail, kDetailBadInput);
    EXPECT_EQ(len, 0);
  }
  // Every position (the one-bit packing reads four values at a time, then one by one).
  for (size_t v = 0; v < s0.size(); ++v)
    for (const ValueId x : {2, -1, 7, std::numeric_limits<ValueId>::min()}) {
      bad = s0;
      bad[v] = x;
      bad_goal = goal;
      bad_goal[v] = x == -1 ? -2 : x;
      for (const auto& [a, b] : {std::pair{bad, goal}, {s0, bad_goal}}) {
        const PlanOutcome o = hot->plan(*scratch, a, b, out, &len);
        EXPECT_EQ(o.status, PlanStatus::kGaveUp) << "variable " << v << " value " << x;
        EXPECT_EQ(o.detail, kDetailBadInput);
        EXPECT_EQ(len, 0);
      }
    }
  SearchLimits limits;
  limits.max_expansions = -1;
  EXPECT_EQ(hot->plan(*scratch, s0, goal, out, &len, limits).detail, kDetailBadInput);
  // Limits: the plan needs 10 expansions.
  limits = SearchLimits{};
  limits.max_expansions = 5;
  PlanOutcome o = hot->plan(*scratch, s0, goal, out, &len, limits);
  EXPECT_EQ(o.status, PlanStatus::kLimitReached);
  EXPECT_EQ(o.detail, kDetailExpansionLimit);
  EXPECT_EQ(scratch->expanded, 5);
  limits = SearchLimits{};
  limits.max_memory_bytes = 200;
  o = hot->plan(*scratch, s0, goal, out, &len, limits);
  EXPECT_EQ(o.status, PlanStatus::kLimitReached);
  EXPECT_EQ(o.detail, kDetailMemoryLimit);
  // A buffer too small gives the length needed; the full buffer then gets the plan.
  o = hot->plan(*scratch, s0, goal, std::span<ActionId>(out.data(), 4), &len);
  EXPECT_EQ(o.status, PlanStatus::kBufferTooSmall);
  EXPECT_EQ(len, 10);
  o = hot->plan(*scratch, s0, goal, out, &len);
  ASSERT_TRUE(o.solved());
  ASSERT_EQ(len, 10);
  for (int32_t i = 0; i < 10; ++i) EXPECT_EQ(out[static_cast<size_t>(i)], i);
}

}  // namespace
}  // namespace topoplan
