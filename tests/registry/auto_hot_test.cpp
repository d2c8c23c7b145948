// The hot "auto" planner (src/runtime/planner/auto_hot.cpp) against the exact search: on seeded
// random domains ℙ takes and on domains ℙ refuses at create (two producers of a value, an
// action with two effects), every plan validates and costs the optimum, every "unsolvable" is
// confirmed by the exact search, and the outcome names the stage that answered. Per-call limits
// are honoured.
#include <gtest/gtest.h>

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "random_domains.h"
#include "refused_domains.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"

namespace topoplan {
namespace {

std::unique_ptr<HotPlanner> make(std::string_view name, const CompiledActionSet& set,
                                 const HotPlannerDef& def = {}) {
  auto p = create_hot_planner(name, set, def);
  EXPECT_TRUE(p.ok()) << name << ": " << (p.ok() ? "" : p.error().to_string());
  return p.ok() ? std::move(p).value() : nullptr;
}

// PLAN is a valid plan of `inst` and costs what the exact search's REF costs.
void expect_valid_and_as_cheap(const Domain& d, const Instance& inst,
                               std::span<const ActionId> plan, std::span<const ActionId> ref,
                               const std::string& at) {
  const Validation v = validate_plan(d, inst, plan);
  EXPECT_TRUE(v.valid) << at << ": " << v.reason;
  EXPECT_EQ(plan_cost(d, plan), plan_cost(d, ref)) << at;
}

// `auto` and the exact search (without limits) prepared on `d`'s whole action set, with a
// scratch each; the planners are null where creation failed (a test failure already).
struct AutoAndExact {
  CompiledActionSet set;
  std::unique_ptr<HotPlanner> autop, exact;
  std::unique_ptr<PlanScratch> as, es;
  explicit AutoAndExact(const Domain& d) : set(CompiledActionSet::create(d).value()) {
    HotPlannerDef exact_def;
    exact_def.limits = SearchLimits{};
    autop = make("auto", set);
    exact = make("exact", set, exact_def);
    if (autop) as = autop->make_scratch();
    if (exact) es = exact->make_scratch();
  }
  AutoAndExact(const AutoAndExact&) = delete;
  AutoAndExact& operator=(const AutoAndExact&) = delete;
  bool ok() const { return autop && exact; }
};

struct Tally {
  int solved = 0, unsolvable = 0, by_topo = 0, by_reach = 0, by_astar = 0;
};

// Plans instances of `d` with auto and exact; returns what auto answered.
Tally differential(const Domain& d, uint64_t seed, bool topo_refuses, const std::string& where) {
  Tally t;
  AutoAndExact planners(d);
  EXPECT_EQ(create_hot_planner("topo", planners.set).ok(), !topo_refuses) << where;
  if (!planners.ok()) return t;
  HotPlanner& autop = *planners.autop;
  HotPlanner& exact = *planners.exact;
  PlanScratch& as = *planners.as;
  PlanScratch& es = *planners.es;
  std::vector<ActionId> plan(4096), ref(4096);
  testing::Rng rng(seed);
  for (int i = 0; i < 24; ++i) {
    testing::RandomInstanceOptions io;
    io.kind = i % 3 == 2 ? testing::GoalKind::kRandomGoal : testing::GoalKind::kRandomWalk;
    io.free_goal_probability = i % 2 == 0 ? 0.0 : 0.4;
    const Instance inst = testing::random_instance(d, rng, io);
    int32_t len = -1, ref_len = -1;
    const PlanOutcome o = autop.plan(as, inst.init, inst.goal, plan, &len);
    const PlanOutcome e = exact.plan(es, inst.init, inst.goal, ref, &ref_len);
    const std::string at = where + " instance " + std::to_string(i);
    EXPECT_TRUE(e.status == PlanStatus::kSolved || e.status == PlanStatus::kUnsolvable) << at;
    EXPECT_EQ(o.status, e.status) << at << ": " << autop.explain(as, o);
    if (o.status != e.status) continue;
    EXPECT_TRUE(o.planner == "topo" || o.planner == "topo-reach" || o.planner == "astar")
        << at << ": " << o.planner;
    if (topo_refuses) {
      EXPECT_NE(o.planner, "topo") << at;
    }
    (o.planner == "topo" ? t.by_topo : o.planner == "topo-reach" ? t.by_reach : t.by_astar)++;
    if (o.status == PlanStatus::kUnsolvable) {
      ++t.unsolvable;
      continue;
    }
    ++t.solved;
    expect_valid_and_as_cheap(d, inst, {plan.data(), static_cast<size_t>(len)},
                              {ref.data(), static_cast<size_t>(ref_len)}, at);
  }
  return t;
}

TEST(AutoHot, AgreesWithExactWhereTopoTakesTheSet) {
  Tally all;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Tally t =
        differential(testing::random_domain(seed), seed, false, "seed " + std::to_string(seed));
    all.solved += t.solved;
    all.unsolvable += t.unsolvable;
    all.by_topo += t.by_topo;
    all.by_astar += t.by_astar;
  }
  EXPECT_GT(all.solved, 600);
  EXPECT_GT(all.unsolvable, 20);
  EXPECT_GT(all.by_topo, 600);  // ℙ answers most; A* the rest (partial goals, repeats)
}

// A chain of k boolean flags, each set by one action that needs the previous flag: ℙ's class.
Domain flag_chain(int32_t k) {
  DomainDef def;
  def.name = "flags";
  for (int32_t i = 0; i < k; ++i) {
    def.variables.push_back(VariableDef{"f" + std::to_string(i), {"off", "on"}});
    ActionDef a{"Set" + std::to_string(i), 1 + i % 3, {Effect{i, 0, 1}}, {}};
    if (i > 0) a.prevail.push_back(Fact{i - 1, 1});
    def.actions.push_back(a);
  }
  Result<Domain> d = Domain::compile(def);
  EXPECT_TRUE(d.ok());
  return std::move(d).value();
}

// Tasks of at most 64 states go to A* first (its whole search is cheaper than ℙ's fixed cost);
// larger ones to ℙ first. Either way the answer is the exact search's.
TEST(AutoHot, TinyTasksGoToAStarFirst) {
  for (const int32_t k : {3, 6, 7, 9}) {
    const Domain d = flag_chain(k);
    AutoAndExact planners(d);
    ASSERT_TRUE(planners.ok());
    HotPlanner& autop = *planners.autop;
    HotPlanner& exact = *planners.exact;
    std::vector<ActionId> plan(64), ref(64);
    const bool tiny = (int64_t{1} << k) <= 64;
    for (int32_t mask = 0; mask < (1 << k); mask += 1 + mask / 4) {
      std::vector<ValueId> s0(static_cast<size_t>(k)), goal(static_cast<size_t>(k), 1);
      for (int32_t i = 0; i < k; ++i) s0[static_cast<size_t>(i)] = (mask >> i) & 1;
      int32_t len = 0, ref_len = 0;
      const PlanOutcome o = autop.plan(*planners.as, s0, goal, plan, &len);
      const PlanOutcome e = exact.plan(*planners.es, s0, goal, ref, &ref_len);
      const std::string at = std::to_string(k) + " flags, s0 mask " + std::to_string(mask);
      ASSERT_EQ(o.status, e.status) << at;
      ASSERT_EQ(o.status, PlanStatus::kSolved) << at;
      EXPECT_EQ(o.planner, tiny ? "astar" : "topo") << at;
      Instance inst;
      inst.init = s0;
      inst.goal = goal;
      expect_valid_and_as_cheap(d, inst, {plan.data(), static_cast<size_t>(len)},
                                {ref.data(), static_cast<size_t>(ref_len)}, at);
    }
  }
}

// A tiny task's first stage, the one-word A*, called without its stage: when it stops at the
// call's limit, the chain goes on to ℙ, and the scratch counts the A*'s expansions.
TEST(AutoHot, TinyTaskPastTheAStarLimitGoesOnToTopo) {
  const Domain d = flag_chain(5);  // 32 states: A* first
  AutoAndExact planners(d);
  ASSERT_TRUE(planners.ok());
  HotPlanner* autop = planners.autop.get();
  HotPlanner* exact = planners.exact.get();
  PlanScratch* as = planners.as.get();
  PlanScratch* es = planners.es.get();
  std::vector<ActionId> plan(64), ref(64);
  const std::vector<ValueId> s0(5, 0), goal(5, 1);
  int32_t len = 0, ref_len = 0;
  PlanOutcome o = autop->plan(*as, s0, goal, plan, &len);
  ASSERT_TRUE(o.solved());
  EXPECT_EQ(o.planner, "astar");
  EXPECT_GT(as->expanded, 1);
  o = autop->plan(*as, s0, goal, plan, &len, SearchLimits{1, int64_t{1} << 30, 0.0});
  ASSERT_TRUE(o.solved());
  EXPECT_EQ(o.planner, "topo");
  EXPECT_EQ(as->expanded, 1);  // the A*'s one expansion; ℙ does not search
  EXPECT_NE(autop->explain_earlier_stages(*as).find("astar"), std::string::npos)
      << autop->explain_earlier_stages(*as);
  ASSERT_TRUE(exact->plan(*es, s0, goal, ref, &ref_len).solved());
  Instance inst;
  inst.init = s0;
  inst.goal = goal;
  const std::span<const ActionId> p(plan.data(), static_cast<size_t>(len));
  EXPECT_TRUE(validate_plan(d, inst, p).valid);
  EXPECT_EQ(plan_cost(d, p),
            plan_cost(d, std::span<const ActionId>(ref.data(), static_cast<size_t>(ref_len))));
}

TEST(AutoHot, AnswersWithAStarWhereTopoRefusesTheSet) {
  for (const auto refusal : {testing::Refusal::kTwoProducers, testing::Refusal::kTwoEffects}) {
    Tally all;
    int domains = 0;
    for (uint64_t seed = 1; seed <= 60; ++seed) {
      const Domain d = testing::refused_domain(seed, refusal);
      auto set = CompiledActionSet::create(d);
      ASSERT_TRUE(set.ok());
      if (create_hot_planner("topo", set.value()).ok()) continue;  // the change kept it in class
      ++domains;
      const Tally t = differential(d, seed, true, "refused seed " + std::to_string(seed));
      all.solved += t.solved;
      all.unsolvable += t.unsolvable;
      all.by_reach += t.by_reach;
      all.by_astar += t.by_astar;
    }
    EXPECT_GT(domains, 30);
    EXPECT_GT(all.solved, 300);
    // Two producers of a value on these large unary sets: ℙ over producer choices answers
    // (auto_hot.cpp, reach_pays); a two-effect action leaves the set to A*.
    if (refusal == testing::Refusal::kTwoProducers) {
      EXPECT_GT(all.by_reach, 300);
    } else {
      EXPECT_EQ(all.by_reach, 0);
    }
  }
}

TEST(AutoHot, ExplainSaysWhyTopoDidNotAnswer) {
  const Domain d = testing::refused_domain(3, testing::Refusal::kTwoEffects);
  auto set = CompiledActionSet::create(d);
  ASSERT_TRUE(set.ok());
  ASSERT_FALSE(create_hot_planner("topo", set.value()).ok());
  auto p = make("auto", set.value());
  ASSERT_NE(p, nullptr);
  auto s = p->make_scratch();
  testing::Rng rng(3);
  const Instance inst = testing::random_instance(d, rng);
  std::vector<ActionId> out(static_cast<size_t>(p->max_plan_length()));
  int32_t len = 0;
  const PlanOutcome o = p->plan(*s, inst.init, inst.goal, out, &len);
  ASSERT_TRUE(o.solved());
  EXPECT_NE(p->explain(*s, o).find("topo unsupported: "), std::string::npos) << p->explain(*s, o);
}

// The same planner within a budget of one expansion stops at the limit, then solves with the
// def's limits: one planner serves every retry level.
TEST(AutoHot, PerCallLimitsAreHonoured) {
  int limited = 0;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    const Domain d = testing::refused_domain(seed, testing::Refusal::kTwoProducers);
    auto set = CompiledActionSet::create(d);
    ASSERT_TRUE(set.ok());
    for (const char* name : {"auto", "astar", "astar-back", "exact"}) {
      HotPlannerDef def;
      def.limits = SearchLimits{};
      auto p = make(name, set.value(), def);
      ASSERT_NE(p, nullptr);
      auto s = p->make_scratch();
      testing::Rng rng(seed);
      std::vector<ActionId> out(4096);
      for (int i = 0; i < 8; ++i) {
        const Instance inst = testing::random_instance(d, rng);
        int32_t len = 0;
        const PlanOutcome full = p->plan(*s, inst.init, inst.goal, out, &len);
        ASSERT_TRUE(full.solved()) << name << " seed " << seed;
        if (s->expanded <= 1) continue;
        const PlanOutcome one =
            p->plan(*s, inst.init, inst.goal, out, &len, SearchLimits{1, int64_t{1} << 30, 0.0});
        EXPECT_EQ(one.status, PlanStatus::kLimitReached) << name << " seed " << seed;
        EXPECT_NE(one.detail & kDetailExpansionLimit, 0u) << name;
        EXPECT_LE(s->expanded, 2) << name;
        ++limited;
        EXPECT_TRUE(p->plan(*s, inst.init, inst.goal, out, &len).solved()) << name;
        const PlanOutcome bad =
            p->plan(*s, inst.init, inst.goal, out, &len, SearchLimits{-1, int64_t{1} << 30, 0.0});
        EXPECT_EQ(bad.status, PlanStatus::kGaveUp) << name;
        EXPECT_NE(bad.detail & kDetailBadInput, 0u) << name;
      }
    }
  }
  EXPECT_GT(limited, 100);
}

// The cold path is the hot planner through one helper: find_planner("auto")->plan and a
// PreparedPlanner give the same answer, name the engine, and say why ℙ did not answer.
TEST(AutoHot, ColdPathAndPreparedPlannerGoThroughTheContract) {
  int compared = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const Domain d = testing::refused_domain(seed, testing::Refusal::kTwoEffects);
    Result<PreparedPlanner> prepared = PreparedPlanner::create(d, "auto");
    ASSERT_TRUE(prepared.ok()) << prepared.error().to_string();
    testing::Rng rng(seed);
    for (int i = 0; i < 10; ++i) {
      const Instance inst = testing::random_instance(d, rng);
      const PlanResult hot = prepared->plan(inst);
      const PlanResult cold = find_planner("auto")->plan(d, inst, PlannerOptions{});
      ASSERT_EQ(hot.status, cold.status) << cold.message;
      EXPECT_EQ(hot.actions, cold.actions);
      EXPECT_EQ(hot.stats.engine, cold.stats.engine);
      if (!hot.stats.reason.empty() || hot.stats.engine == "astar") {
        EXPECT_EQ(hot.stats.reason.rfind("topo unsupported: ", 0), 0u) << hot.stats.reason;
      }
      if (hot.status != PlanStatus::kSolved) continue;
      EXPECT_TRUE(validate_plan(d, inst, hot.actions).valid);
      EXPECT_EQ(hot.cost, plan_cost(d, hot.actions));
      ++compared;
    }
    // A tight per-call budget gives the default planner's limit message on the cold path.
    PlannerOptions tight;
    tight.auto_limits.max_expansions = 0;
    const Instance inst = testing::random_instance(d, rng);
    const PlanResult r = find_planner("auto")->plan(d, inst, tight);
    if (r.status == PlanStatus::kLimitReached) {
      EXPECT_NE(r.message.find("default planner's limits"), std::string::npos) << r.message;
    }
  }
  EXPECT_GT(compared, 100);
  const Domain d = testing::random_domain(1);
  Result<PreparedPlanner> p = PreparedPlanner::create(d, "no-such-planner");
  EXPECT_FALSE(p.ok());
}

}  // namespace
}  // namespace topoplan
