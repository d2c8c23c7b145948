// Golden tests of ℙ: the papers' Horse Breeder instances, MultiPrv_n_Cycle, statuses and API
// contracts. Every plan goes through the validator and is compared with the exact search.
#include <gtest/gtest.h>

#include <set>

#include "../support/horse_breeder.h"
#include "../support/theorem4.h"
#include "compile.h"
#include "random_domains.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::c2star_counterexample_def;
using testing::horse_breeder_000_def;
using testing::horse_breeder_003_def;
using testing::make_instance;

using testing::compile_or_die;
using testing::names;

// Runs "topo" and the exact search (length objective); checks validity, distinct actions and
// equal length; returns ℙ's result.
PlanResult run_checked(const Domain& d, const Instance& inst) {
  PlanResult r = plan_topo(d, inst);
  PlannerOptions opts;
  opts.objective = Objective::kLength;
  const PlanResult ex = plan_exact(d, inst, opts);
  if (r.status == PlanStatus::kSolved) {
    const Validation val = validate_plan(d, inst, r.actions);
    EXPECT_TRUE(val.valid) << val.reason;
    EXPECT_EQ(std::set<ActionId>(r.actions.begin(), r.actions.end()).size(), r.actions.size());
    EXPECT_EQ(ex.status, PlanStatus::kSolved);
    EXPECT_EQ(r.actions.size(), ex.actions.size());
  } else if (r.status == PlanStatus::kUnsolvable) {
    EXPECT_EQ(ex.status, PlanStatus::kUnsolvable) << r.message;
  }
  return r;
}

TEST(TopoGolden, HorseBreeder000FromEmptyHands) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  const PlanResult r = run_checked(d, make_instance({0, 0, 0}, {2, 0, 2}));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  // Prévost et al. (2023) §3: Δ = ⟨a5, a6, a7, a4, a2, a3⟩.
  EXPECT_EQ(names(d, r.actions),
            (std::vector<std::string>{"PickUpBucket", "FillBucketWithWater", "FillHorseTrough",
                                      "DropBucket", "TakeHaystack", "FillHorseFeeder"}));
}

TEST(TopoGolden, HorseBreeder000HaystackInHands) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  const PlanResult r = run_checked(d, make_instance({1, 0, 0}, {2, 0, 2}));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(r.actions.size(), 7u);
  EXPECT_EQ(names(d, r.actions),
            (std::vector<std::string>{"DropHaystack", "PickUpBucket", "FillBucketWithWater",
                                      "FillHorseTrough", "DropBucket", "TakeHaystack",
                                      "FillHorseFeeder"}));
}

TEST(TopoGolden, HorseBreeder000HaystackInFeederIsUnsolvable) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  const PlanResult r = run_checked(d, make_instance({2, 0, 0}, {2, 0, 2}));
  EXPECT_EQ(r.status, PlanStatus::kUnsolvable);
  EXPECT_NE(r.message.find("haystack=none"), std::string::npos) << r.message;
}

// Prévost et al. (2022, CNIA) §2.3: from ⟨1,0,0⟩ the first action to leave s0[v0] depends on the
// goal.
TEST(TopoGolden, Seed001Section23) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  PlanResult r = run_checked(d, make_instance({1, 0, 0}, {2, 0, 0}));
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_EQ(names(d, r.actions), std::vector<std::string>{"FillHorseFeeder"});
  r = run_checked(d, make_instance({1, 0, 0}, {2, 0, 2}));
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  EXPECT_EQ(r.actions.size(), 7u);
  EXPECT_EQ(d.action_name(r.actions.front()), "DropHaystack");
}

TEST(TopoGolden, HorseBreeder003Table) {
  const Domain d = compile_or_die(horse_breeder_003_def());
  PlanResult r = run_checked(d, make_instance({0, 0, 0}, {2, 0, 2}));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(r.actions.size(), 6u);
  // Prévost et al., SAS as Topological Sorting, §3: s0[v0] = 1 and v0 = 0 requested: both entries
  // of Next in use.
  r = run_checked(d, make_instance({1, 0, 0}, {2, 0, 2}));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(r.actions.size(), 7u);
}

TEST(TopoGolden, HorseBreederEveryTotalInstance) {
  for (const DomainDef& def : {horse_breeder_000_def(), horse_breeder_003_def()}) {
    const Domain d = compile_or_die(def);
    for (int32_t i = 0; i < 18 * 18; ++i) {
      const std::vector<ValueId> s0 = {i % 3, (i / 3) % 2, (i / 6) % 3};
      const std::vector<ValueId> g = {(i / 18) % 3, (i / 54) % 2, (i / 108) % 3};
      const PlanResult r = run_checked(d, make_instance(s0, g));
      PlannerOptions opts;
      opts.objective = Objective::kLength;
      // In C2*: solved iff solvable.
      EXPECT_EQ(r.status == PlanStatus::kSolved,
                plan_exact(d, make_instance(s0, g), opts).status == PlanStatus::kSolved);
    }
  }
}

// Prévost et al. (2022, CNIA) §3: every variable but v0 walks its whole cycle once.
TEST(TopoGolden, MultiPrvCycle) {
  for (const auto& [m, n] : {std::pair{2, 2}, {4, 3}, {4, 4}, {5, 5}}) {
    const Domain d = compile_or_die(testing::multiprv_cycle_def(m, n));
    std::vector<ValueId> goal(static_cast<size_t>(m), 0);
    goal[0] = n - 1;
    const PlanResult r = run_checked(d, make_instance(std::vector<ValueId>(m, 0), goal));
    ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
    EXPECT_EQ(static_cast<int32_t>(r.actions.size()), (n - 1) + (m - 1) * n);
  }
}

// The pick_deferred budget (docs/algorithm.md, "Complexity"). n two-valued loops v_i (a_i+: 0→1,
// a_i-: 1→0) in pairs; c_i sets x_i and needs v_i = 0 (= s0, a disjunctive request) and
// v_partner = 1. Every c_i waits for its partner's loop and every loop waits for its c_i, so
// the sort stops with all n loops deferred; each choice releases one pair, giving n / 2 passes
// of cost ≥ |A'| = 3n against a budget of 8·(|A'| + |E'|) — spent from about pass 13 on.
// Minimal plan per pair: a_j+ c_i a_i+ a_j- c_j a_i- (3n actions). Whatever the budget does,
// the answer must be a valid plan or kGaveUp, never kUnsolvable.
DomainDef pick_budget_def(int32_t n) {
  DomainDef d;
  d.name = "pick-budget";
  for (int32_t i = 0; i < n; ++i) d.variables.push_back({"v" + std::to_string(i), {"0", "1"}});
  for (int32_t i = 0; i < n; ++i) d.variables.push_back({"x" + std::to_string(i), {"0", "1"}});
  for (int32_t i = 0; i < n; ++i) {
    const std::string k = std::to_string(i);
    const int32_t partner = i ^ 1;
    d.actions.push_back({"a" + k + "+", 1, {{i, 0, 1}}, {}});
    d.actions.push_back({"a" + k + "-", 1, {{i, 1, 0}}, {}});
    d.actions.push_back({"c" + k, 1, {{n + i, 0, 1}}, {{i, 0}, {partner, 1}}});
  }
  return d;
}

TEST(TopoBudget, PickDeferredBudgetSpent) {
  for (const int32_t n : {4, 64}) {
    const Domain d = compile_or_die(pick_budget_def(n));
    Result<TopoPlanner> p = TopoPlanner::create(d);
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    TopoScratch scratch = p.value().make_scratch();
    std::vector<ValueId> s0(static_cast<size_t>(2 * n), 0);
    std::vector<ValueId> goal(static_cast<size_t>(2 * n), 0);
    for (int32_t i = 0; i < n; ++i) goal[static_cast<size_t>(n + i)] = 1;
    std::vector<ActionId> out(static_cast<size_t>(p.value().max_plan_length()));
    int32_t len = 0;
    const PlanOutcome o = p.value().plan(scratch, s0, goal, out, &len);
    const PlanStatus st = o.status;
    // The small instance stays within the budget, the large one spends it.
    EXPECT_EQ(scratch.pick_budget_spent(), n == 64);
    ASSERT_NE(st, PlanStatus::kUnsolvable) << p.value().explain(o);
    ASSERT_TRUE(st == PlanStatus::kSolved || st == PlanStatus::kGaveUp) << static_cast<int>(st);
    if (st == PlanStatus::kSolved) {
      const std::vector<ActionId> plan(out.begin(), out.begin() + len);
      const Validation val = validate_plan(d, make_instance(s0, goal), plan);
      EXPECT_TRUE(val.valid) << val.reason;
      EXPECT_EQ(len, 3 * n);
    }
    if (n == 4) run_checked(d, make_instance(s0, goal));  // exact search: small instance only
  }
}

// Theorem 4's counterexample (theorem4.h): ℙ must not say "unsolvable".
TEST(TopoGolden, C2StarTheoremCounterexample) {
  const Domain d = compile_or_die(c2star_counterexample_def());
  const Instance inst = make_instance({0, 0, 1}, {1, 1, 0});
  PlannerOptions opts;
  opts.objective = Objective::kLength;
  const PlanResult ex = plan_exact(d, inst, opts);
  ASSERT_EQ(ex.status, PlanStatus::kSolved);
  EXPECT_EQ(names(d, ex.actions),
            (std::vector<std::string>{"a_plus", "b", "a_minus", "c", "a_plus"}));
  const PlanResult r = run_checked(d, inst);
  EXPECT_EQ(r.status, PlanStatus::kGaveUp) << r.message;
  Result<TopoPlanner> p = TopoPlanner::create(d);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->structural_class(), StructuralClass::kC2Star);
}

TEST(TopoApi, UnsupportedActionSets) {
  DomainDef def = horse_breeder_000_def();
  def.actions.push_back({"Juggle", 1, {{0, 0, 2}, {1, 0, 1}}, {}});
  Domain d = compile_or_die(def);
  EXPECT_EQ(plan_topo(d, make_instance({0, 0, 0}, {2, 0, 2})).status, PlanStatus::kUnsupported);
  def = horse_breeder_000_def();
  def.actions.push_back({"ThrowHaystack", 1, {{0, 0, 2}}, {}});  // second producer of v0 = 2
  d = compile_or_die(def);
  const PlanResult r = plan_topo(d, make_instance({0, 0, 0}, {2, 0, 2}));
  EXPECT_EQ(r.status, PlanStatus::kUnsupported);
  EXPECT_NE(r.message.find("post-unique"), std::string::npos) << r.message;
}

// Contextual post-uniqueness: two producers of v0 = 2, never in the same class.
TEST(TopoApi, ContextualPostUniqueness) {
  DomainDef def = horse_breeder_000_def();
  def.actions.push_back({"ThrowHaystack", 1, {{0, 0, 2}}, {}});
  def.classes = {{"breeder", {0, 1, 2, 3, 4, 5, 6}}, {"thrower", {0, 1, 3, 4, 5, 6, 7}}};
  const Domain d = compile_or_die(def);
  PlanResult r = run_checked(d, make_instance({0, 0, 0}, {2, 0, 0}, 0));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(r.actions.size(), 2u);
  r = run_checked(d, make_instance({0, 0, 0}, {2, 0, 0}, 1));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(names(d, r.actions), std::vector<std::string>{"ThrowHaystack"});
}

TEST(TopoApi, BufferTooSmallAndDeterminism) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  Result<TopoPlanner> p = TopoPlanner::create(d);
  ASSERT_TRUE(p.ok());
  TopoScratch s = p->make_scratch();
  std::vector<ActionId> out(3);
  int32_t len = -1;
  const std::vector<ValueId> s0 = {0, 0, 0};
  const std::vector<ValueId> g = {2, 0, 2};
  const PlanOutcome small = p->plan(s, s0, g, out, &len);
  EXPECT_EQ(small.status, PlanStatus::kBufferTooSmall);
  EXPECT_EQ(small.detail, kDetailNone);
  EXPECT_EQ(len, 6);
  out.resize(static_cast<size_t>(p->max_plan_length()));
  ASSERT_EQ(p->plan(s, s0, g, out, &len).status, PlanStatus::kSolved);
  const std::vector<ActionId> first(out.begin(), out.begin() + len);
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(p->plan(s, s0, g, out, &len).status, PlanStatus::kSolved);
    EXPECT_EQ(std::vector<ActionId>(out.begin(), out.begin() + len), first);
  }
}

// The self-check's goal test (docs/algorithm.md, "Algorithm", step 5) compares state codes when
// the product of the domain sizes is at most 2^31 and scans the goal otherwise: a tool t is taken
// (0 → 1), n - 1 binary variables are set in a chain that needs it, and t goes back, so the code
// moves away from the goal and back. n = 31 has 2^31 states (codes), n = 32 has 2^32 (scan).
TEST(TopoSelfCheck, GoalTestWithAndWithoutStateCode) {
  for (const int32_t n : {4, 31, 32, 40}) {
    DomainDef def;
    def.name = "tool-chain";
    def.variables.push_back({"t", {"0", "1"}});
    for (int32_t i = 1; i < n; ++i) def.variables.push_back({"x" + std::to_string(i), {"0", "1"}});
    def.actions.push_back({"take", 1, {{0, 0, 1}}, {}});
    def.actions.push_back({"put", 1, {{0, 1, 0}}, {}});
    for (int32_t i = 1; i < n; ++i) {
      std::vector<Fact> prevail = {{0, 1}};
      if (i > 1) prevail.push_back({i - 1, 1});
      def.actions.push_back({"set" + std::to_string(i), 1, {{i, 0, 1}}, prevail});
    }
    const Domain d = compile_or_die(def);
    Result<TopoPlanner> p = TopoPlanner::create(d);
    ASSERT_TRUE(p.ok()) << p.error().to_string();
    TopoScratch s = p->make_scratch();
    const std::vector<ValueId> s0(static_cast<size_t>(n), 0);
    std::vector<ValueId> goal(static_cast<size_t>(n), 1);
    goal[0] = 0;
    std::vector<ActionId> out(static_cast<size_t>(p->max_plan_length()));
    int32_t len = 0;
    const PlanOutcome o = p->plan(s, s0, goal, out, &len);
    ASSERT_EQ(o.status, PlanStatus::kSolved) << n << ": " << p->explain(o);
    const std::vector<ActionId> plan(out.begin(), out.begin() + len);
    EXPECT_TRUE(validate_plan(d, make_instance(s0, goal), plan).valid) << n;
    ASSERT_EQ(len, n + 1) << n;
    EXPECT_EQ(d.action_name(plan.front()), "take");
    EXPECT_EQ(d.action_name(plan.back()), "put");
    // A goal the chain cannot reach without the tool staying out is still planned (t = 1).
    goal[0] = 1;
    ASSERT_EQ(p->plan(s, s0, goal, out, &len).status, PlanStatus::kSolved) << n;
    EXPECT_EQ(len, n) << n;
  }
}

// Phase 1 checks each variable's input and walks it in one loop; an out-of-range value of a later
// variable must still win over an earlier variable's unreachable goal (kBadInput, not a proof).
TEST(TopoApi, BadInputWinsOverUnreachableGoal) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  Result<TopoPlanner> p = TopoPlanner::create(d);
  ASSERT_TRUE(p.ok());
  TopoScratch s = p->make_scratch();
  std::vector<ActionId> out(static_cast<size_t>(p->max_plan_length()));
  int32_t len = -1;
  // haystack: inFeeder -> stored is unreachable (the walk back from stored loops).
  PlanOutcome o =
      p->plan(s, std::vector<ValueId>{2, 0, 0}, std::vector<ValueId>{0, 0, 0}, out, &len);
  EXPECT_EQ(o.status, PlanStatus::kUnsolvable);
  EXPECT_EQ(o.detail, kDetailGoalUnreachable);
  EXPECT_EQ(o.var, 0);
  // The same with water's goal out of range: bad input, named at water.
  o = p->plan(s, std::vector<ValueId>{2, 0, 0}, std::vector<ValueId>{0, 0, 7}, out, &len);
  EXPECT_EQ(o.status, PlanStatus::kGaveUp);
  EXPECT_EQ(o.detail, kDetailBadInput);
  EXPECT_EQ(o.var, 2);
  o = p->plan(s, std::vector<ValueId>{2, 0, 3}, std::vector<ValueId>{0, 0, 0}, out, &len);
  EXPECT_EQ(o.status, PlanStatus::kGaveUp);
  EXPECT_EQ(o.detail, kDetailBadInput);
  EXPECT_EQ(o.var, 2);
  EXPECT_EQ(o.value, 3);
}

// A scratch not made by this planner (another domain's, or default-constructed) is refused as
// bad input before anything is written through it.
TEST(TopoApi, ForeignScratchIsBadInput) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  const Task other = western();
  Result<TopoPlanner> p = TopoPlanner::create(d);
  Result<TopoPlanner> q = TopoPlanner::create(other.domain, 0);
  ASSERT_TRUE(p.ok() && q.ok());
  std::vector<ActionId> out(static_cast<size_t>(p->max_plan_length()));
  int32_t len = -1;
  const std::vector<ValueId> s0 = {0, 0, 0};
  const std::vector<ValueId> g = {2, 0, 2};
  TopoScratch foreign = q->make_scratch();
  const PlanOutcome refused_foreign = p->plan(foreign, s0, g, out, &len);
  EXPECT_EQ(refused_foreign.status, PlanStatus::kGaveUp);
  EXPECT_EQ(refused_foreign.detail, kDetailBadInput);
  EXPECT_EQ(len, 0);
  TopoScratch empty;
  const PlanOutcome refused = p->plan(empty, s0, g, out, &len);
  EXPECT_EQ(refused.status, PlanStatus::kGaveUp);
  EXPECT_EQ(refused.detail, kDetailBadInput);
  TopoScratch own = p->make_scratch();
  EXPECT_EQ(p->plan(own, s0, g, out, &len).status, PlanStatus::kSolved);
  EXPECT_EQ(len, 6);
}

TEST(TopoApi, PartialGoal) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  // The bucket is free and nobody needs it elsewhere: a minimal plan.
  PlanResult r = run_checked(d, make_instance({0, 0, 0}, {2, kUndefined, kUndefined}));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(r.actions.size(), 2u);
  // Water needs the bucket in hands and the bucket is free: the general path ("Windows") plans
  // the bucket's walk up to the deepest value requested; run_checked compares with the exact
  // optimum.
  r = run_checked(d, make_instance({0, 0, 0}, {2, kUndefined, 2}));
  EXPECT_EQ(r.status, PlanStatus::kSolved) << r.message;
}

}  // namespace
}  // namespace topoplan

namespace topoplan {
namespace {

// explain(): the failure in the designer's terms, with the names of the variable, value and
// actions at fault.
TEST(TopoDescribe, NamesTheFactAndTheActions) {
  const Domain d = compile_or_die(horse_breeder_000_def());
  EXPECT_EQ(explain(d, PlanOutcome{PlanStatus::kSolved}), "");
  PlanOutcome f;
  f.detail = kDetailOutsideClass | kDetailNeedsRepeat;
  f.var = 0;
  f.value = 0;
  f.action = 1;
  const std::string msg = explain(d, f);
  EXPECT_NE(msg.find("visiting " + d.variable_name(0) + "=" + d.value_name(0, 0) + " twice"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("'" + d.action_name(1) + "'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("each action once does not exist"), std::string::npos) << msg;
  f.detail = kDetailPreconditionUnmet;
  EXPECT_NE(explain(d, f).find("does not exist"), std::string::npos);
  // Out-of-range ids are reported as "?", never a crash.
  f.var = 99;
  f.action = 99;
  EXPECT_FALSE(explain(d, f).empty());
}

}  // namespace
}  // namespace topoplan

namespace topoplan {
namespace {

// A guard at the post: take the key in the armory, open the chest at the post, bring the key
// back to the armory. The armory is needed twice: no plan with each action once; ℙ gives up (never
// "unsolvable") and says which place and action would be needed twice.
TEST(TopoGeneral, PlaceNeededTwiceIsExplained) {
  DomainDef def;
  def.name = "guard";
  def.variables = {{"location", {"post", "armory"}},
                   {"key", {"rack", "held", "back"}},
                   {"chest", {"closed", "open"}}};
  def.actions = {
      {"GoTo-post", 1, {{0, kUndefined, 0}}, {}},
      {"GoTo-armory", 1, {{0, kUndefined, 1}}, {}},
      {"TakeKey", 1, {{1, 0, 1}}, {{0, 1}}},
      {"ReturnKey", 1, {{1, 1, 2}}, {{0, 1}, {2, 1}}},
      {"OpenChest", 1, {{2, 0, 1}}, {{0, 0}, {1, 1}}},
  };
  const Domain d = compile_or_die(def);
  // Only the chest: GoTo-armory TakeKey GoTo-post OpenChest (a return to the start place).
  PlanResult r = run_checked(d, make_instance({0, 0, 0}, {kUndefined, kUndefined, 1}));
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  EXPECT_EQ(names(d, r.actions),
            (std::vector<std::string>{"GoTo-armory", "TakeKey", "GoTo-post", "OpenChest"}));
  // And the key back: the armory twice.
  r = run_checked(d, make_instance({0, 0, 0}, {kUndefined, 2, 1}));
  EXPECT_EQ(r.status, PlanStatus::kGaveUp);
  EXPECT_NE(r.message.find("location=armory"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("a plan may need 'GoTo-armory' twice"), std::string::npos) << r.message;
}

}  // namespace
}  // namespace topoplan
