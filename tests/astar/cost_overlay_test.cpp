// The cost overlay of forward and regressive A* (set_costs / clear_costs): one planner built on
// the base Domain, plans under changing per-action costs with the cost a Domain compiled with
// those costs gives, checked against the exact search on that Domain.
#include <gtest/gtest.h>

#include <random>

#include "random_tasks.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/astar_back.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::random_task;
using testing::RandomTaskSpec;

Domain compiled(const DomainDef& def) {
  Result<Domain> d = Domain::compile(def);
  if (!d) ADD_FAILURE() << d.error().to_string();
  return std::move(d).value();
}

int64_t overlay_cost(std::span<const int64_t> costs, const std::vector<ActionId>& plan) {
  int64_t c = 0;
  for (ActionId a : plan) c += costs[static_cast<size_t>(a)];
  return c;
}

// Plans every instance with `planner` under `costs` and compares with the exact search on
// `costed` (the same domain compiled with those costs).
template <typename Planner>
void expect_as_compiled(Planner& planner, const Domain& base, const Domain& costed,
                        const std::vector<Instance>& instances, std::span<const int64_t> costs,
                        uint64_t seed) {
  std::vector<ActionId> out;
  for (Objective objective : {Objective::kCost, Objective::kLength}) {
    PlannerOptions options;
    options.objective = objective;
    for (const Instance& inst : instances) {
      const PlanResult oracle = plan_exact(costed, inst, options);
      const PlanStatus s = planner.plan(inst.init, inst.goal, inst.npc_class, costs, options, out);
      ASSERT_EQ(s, oracle.status) << "seed " << seed;
      if (s != PlanStatus::kSolved) continue;
      const Validation v = validate_plan(base, inst, out);
      ASSERT_TRUE(v.valid) << "seed " << seed << ": " << v.reason;
      const int64_t want = objective == Objective::kLength
                               ? static_cast<int64_t>(oracle.actions.size())
                               : overlay_cost(costs, oracle.actions);
      const int64_t got = objective == Objective::kLength ? static_cast<int64_t>(out.size())
                                                          : overlay_cost(costs, out);
      EXPECT_EQ(got, want) << "seed " << seed;
      EXPECT_EQ(planner.last_cost(), want) << "seed " << seed;
    }
  }
}

template <typename Planner>
void overlay_differential(uint64_t first_seed, int count) {
  RandomTaskSpec spec;
  std::mt19937_64 rng(first_seed);
  for (int i = 0; i < count; ++i) {
    const uint64_t seed = first_seed + static_cast<uint64_t>(i);
    const testing::RandomTask task = random_task(seed, spec);
    const Domain base = compiled(task.def);
    Planner planner(base);
    for (int round = 0; round < 3; ++round) {
      DomainDef def = task.def;
      std::vector<int64_t> costs;
      for (ActionDef& a : def.actions) {
        a.cost = std::uniform_int_distribution<int64_t>(0, 9)(rng);
        costs.push_back(a.cost);
      }
      const Domain costed = compiled(def);
      expect_as_compiled(planner, base, costed, task.instances, costs, seed);
    }
    // Back to the Domain's own costs: as if the planner had never seen an overlay.
    planner.clear_costs();
    std::vector<int64_t> own;
    for (ActionId a = 0; a < base.num_actions(); ++a) own.push_back(base.cost(a));
    ASSERT_TRUE(std::equal(own.begin(), own.end(), planner.costs().begin()));
    expect_as_compiled(planner, base, base, task.instances, own, seed);
  }
}

TEST(CostOverlay, ForwardAStarPlansAsOnTheRecompiledDomain) {
  overlay_differential<AStarPlanner>(7000, 150);
}

TEST(CostOverlay, RegressiveAStarPlansAsOnTheRecompiledDomain) {
  overlay_differential<BackAStarPlanner>(8000, 150);
}

template <typename Planner>
void refuses_bad_costs() {
  const testing::RandomTask task = random_task(1, RandomTaskSpec{});
  const Domain d = compiled(task.def);
  Planner planner(d);
  std::vector<int64_t> costs(static_cast<size_t>(d.num_actions()), 3);
  ASSERT_TRUE(planner.set_costs(costs));
  std::vector<int64_t> bad = costs;
  bad.pop_back();
  EXPECT_FALSE(planner.set_costs(bad));  // wrong size
  bad = costs;
  bad[0] = -1;
  EXPECT_FALSE(planner.set_costs(bad));
  bad[0] = kMaxCost + 1;
  EXPECT_FALSE(planner.set_costs(bad));
  EXPECT_TRUE(std::equal(costs.begin(), costs.end(), planner.costs().begin()));  // unchanged
  std::vector<ActionId> out{1, 2, 3};
  const Instance& inst = task.instances[0];
  EXPECT_EQ(planner.plan(inst.init, inst.goal, inst.npc_class, bad, PlannerOptions{}, out),
            PlanStatus::kGaveUp);
  EXPECT_TRUE(out.empty());
}

TEST(CostOverlay, RefusesBadCosts) {
  refuses_bad_costs<AStarPlanner>();
  refuses_bad_costs<BackAStarPlanner>();
}

}  // namespace
}  // namespace topoplan
