// ℙ's relaxed reachability proofs (src/runtime/topo/relax.cpp; docs/algorithm.md, "Relaxed
// reachability proofs"), judged by the exact search and by a naive fixpoint of the
// relaxation:
//   * every kRelaxedUnreachable answer is kUnsolvable, and the exact search finds no plan;
//   * its variable / value is unreachable in the naive delete relaxation;
//   * when ℙ still gives up (other than on bad input or a failed self-check), the naive
//     relaxation reaches every goal value (ℙ ran the proof and it did not apply);
//   * both random small domains and generated GOAP levels produce such answers (not vacuous).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <vector>

#include "random_domains.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

// Per (var, value): reachable from s0 ignoring deletes, by a plain fixpoint over `mask`.
std::vector<std::vector<uint8_t>> relaxed_reachable(const Domain& d, std::span<const uint8_t> mask,
                                                    const std::vector<ValueId>& s0) {
  std::vector<std::vector<uint8_t>> r(static_cast<size_t>(d.num_variables()));
  for (VarId v = 0; v < d.num_variables(); ++v) {
    r[static_cast<size_t>(v)].assign(static_cast<size_t>(d.domain_size(v)), 0);
    r[static_cast<size_t>(v)][static_cast<size_t>(s0[static_cast<size_t>(v)])] = 1;
  }
  auto holds = [&](VarId v, ValueId x) {
    return r[static_cast<size_t>(v)][static_cast<size_t>(x)] != 0;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (ActionId a = 0; a < d.num_actions(); ++a) {
      if (!mask.empty() && mask[static_cast<size_t>(a)] == 0) continue;
      bool ok = true;
      for (const Fact& f : d.prevail(a)) ok = ok && holds(f.var, f.value);
      for (const Effect& e : d.effects(a)) ok = ok && (e.pre == kUndefined || holds(e.var, e.pre));
      if (!ok) continue;
      for (const Effect& e : d.effects(a)) {
        if (!holds(e.var, e.post)) {
          r[static_cast<size_t>(e.var)][static_cast<size_t>(e.post)] = 1;
          changed = true;
        }
      }
    }
  }
  return r;
}

struct Counts {
  int64_t relaxed = 0;  // kRelaxedUnreachable answers
  int64_t gave_up = 0;  // still kGaveUp
};

// Plans one instance and checks the properties above; `mask` empty: every action.
void check(const Domain& d, const TopoPlanner& planner, TopoScratch& scratch,
           std::span<const uint8_t> mask, const Instance& inst, Counts& c) {
  std::vector<ActionId> out(static_cast<size_t>(planner.max_plan_length()) + 1, -1);
  int32_t len = -1;
  const PlanOutcome o = planner.plan(scratch, inst.init, inst.goal, out, &len);
  const PlanStatus st = o.status;
  const PlanDetail why = o.detail;
  const auto relaxed = relaxed_reachable(d, mask, inst.init);
  if ((why & kDetailRelaxedUnreachable) != 0) {
    ++c.relaxed;
    EXPECT_EQ(st, PlanStatus::kUnsolvable);
    EXPECT_EQ(len, 0);
    EXPECT_EQ(why, kDetailGoalUnreachable | kDetailRelaxedUnreachable);
    const VarId v = o.var;
    const ValueId x = o.value;
    ASSERT_GE(v, 0);
    ASSERT_GE(x, 0);
    EXPECT_EQ(inst.goal[static_cast<size_t>(v)], x);
    EXPECT_EQ(relaxed[static_cast<size_t>(v)][static_cast<size_t>(x)], 0)
        << d.variable_name(v) << "=" << d.value_name(v, x) << " is relaxed-reachable";
    EXPECT_NE(planner.explain(o).find(d.variable_name(v)), std::string::npos);
    PlannerOptions exact_opts;
    exact_opts.objective = Objective::kLength;
    exact_opts.limits.max_expansions = 2'000'000;
    Instance exact_inst = inst;
    const PlanResult ex = plan_exact(d, exact_inst, exact_opts);
    EXPECT_EQ(ex.status, PlanStatus::kUnsolvable) << "relaxed proof on a solvable instance";
  } else if (st == PlanStatus::kGaveUp && (why & (kDetailBadInput | kDetailSelfCheck)) == 0) {
    ++c.gave_up;
    for (VarId v = 0; v < d.num_variables(); ++v) {
      const ValueId g = inst.goal[static_cast<size_t>(v)];
      if (g == kUndefined) continue;
      EXPECT_NE(relaxed[static_cast<size_t>(v)][static_cast<size_t>(g)], 0)
          << "gave up (" << describe(why) << ") on a relaxed-unreachable goal "
          << d.variable_name(v);
    }
  }
}

TEST(TopoRelaxed, RandomDomainsAgainstExactSearch) {
  Counts c;
  for (const double undefined : {0.0, 0.5}) {
    for (uint64_t seed = 1; seed <= 1500; ++seed) {
      const Domain d = testing::random_domain(seed, {.undefined_pre_probability = undefined});
      Result<TopoPlanner> planner = TopoPlanner::create(d);
      ASSERT_TRUE(planner.ok()) << planner.error().to_string();
      TopoScratch scratch = planner->make_scratch();
      testing::Rng rng(seed ^ 0x4E1A5ull);
      for (int k = 0; k < 8; ++k) {
        check(d, *planner, scratch, {}, testing::alternating_instance(d, rng, k, k < 4 ? 0.0 : 0.4),
              c);
      }
    }
  }
  std::printf("random domains: %lld relaxed-unreachable proofs, %lld still gave up\n",
              (long long)c.relaxed, (long long)c.gave_up);
  EXPECT_GT(c.relaxed, 0);
}

TEST(TopoRelaxed, GoapLevelsAgainstExactSearch) {
  Counts c;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    const Task task = goap_level(goap_level_params(seed, 10));
    const Domain& d = task.domain;
    std::map<ClassId, TopoPlanner> planners;
    for (const Instance& inst : task.instances) {
      auto it = planners.find(inst.npc_class);
      if (it == planners.end()) {
        Result<TopoPlanner> p = TopoPlanner::create(d, inst.npc_class);
        ASSERT_TRUE(p.ok()) << p.error().to_string();
        it = planners.emplace(inst.npc_class, std::move(p).value()).first;
      }
      TopoScratch scratch = it->second.make_scratch();
      const std::span<const uint8_t> mask = inst.npc_class == kAllActions
                                                ? std::span<const uint8_t>()
                                                : d.action_mask(inst.npc_class);
      check(d, it->second, scratch, mask, inst, c);
    }
  }
  std::printf("GOAP levels: %lld relaxed-unreachable proofs, %lld still gave up\n",
              (long long)c.relaxed, (long long)c.gave_up);
  EXPECT_GT(c.relaxed, 0);
}

}  // namespace
}  // namespace topoplan
