// ℙ's reach (include/topoplan/runtime/reform.h) against the exact search: the real GOAP corpus
// (domains/real/, every instance and random start/goal pairs) and seeded random domains made
// with several producers per value and multi-effect actions.
//
// Properties asserted on every instance:
//   * a returned plan is valid in the original domain and costs at least the exact optimum;
//   * kUnsolvable only where the exact search proves there is no plan;
//   * when the reformulated task needed no producer choice, the plan is the exact optimum (ℙ's
//     guarantee on an equivalent task), and ℙ answers whenever the exact search finds a plan
//     whose actions are used once (counted; the figure is printed);
//   * when the choice space was exhausted (optimal_in_choices) and the exact optimum uses one
//     producer per value (in an unmerged task), the plan costs exactly the optimum.
// TOPOPLAN_REACH_INSTANCES sets the number of random instances (default 4000; an eighth under a
// sanitizer, random_domains.h).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "env.h"
#include "random_domains.h"
#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::env_int;

struct Figures {
  int64_t instances = 0, exact_solved = 0, exact_unsolvable = 0, exact_limit = 0;
  int64_t solved = 0, optimal = 0, unsolvable = 0, gave_up = 0, unsupported = 0;
  int64_t pu = 0, choices = 0, max_choices = 0;
  int64_t hot_solved = 0;  // plans of the prepared "topo-reach"
  void print(const char* what) const {
    std::printf(
        "%s: %lld instances (exact: %lld solvable, %lld unsolvable, %lld over its limit); "
        "topo-reach: %lld plans (%lld at the optimum), %lld unsolvable, %lld gave up, "
        "%lld unsupported; %lld post-unique after reformulation; %lld choices (max %lld); "
        "prepared topo-reach: %lld plans\n",
        what, (long long)instances, (long long)exact_solved, (long long)exact_unsolvable,
        (long long)exact_limit, (long long)solved, (long long)optimal, (long long)unsolvable,
        (long long)gave_up, (long long)unsupported, (long long)pu, (long long)choices,
        (long long)max_choices, (long long)hot_solved);
  }
};

// True when no two distinct actions of `plan` set the same variable to the same value (counting
// only effects that change the value).
bool one_producer_per_value(const Domain& d, std::span<const ActionId> plan) {
  std::map<std::pair<VarId, ValueId>, ActionId> by;
  for (ActionId a : plan)
    for (const Effect& e : d.effects(a)) {
      if (e.pre == e.post) continue;
      auto [it, fresh] = by.emplace(std::make_pair(e.var, e.post), a);
      if (!fresh && it->second != a) return false;
    }
  return true;
}

// The prepared planners on one instance: "topo-reach" (its plan valid, optimal when it does not
// say otherwise, "unsolvable" only when the exact search agrees) and "auto" (the exact optimum).
void check_hot(const Domain& d, const Instance& inst, const PlanResult& ex, Figures& f,
               const std::string& where) {
  Result<CompiledActionSet> set = CompiledActionSet::create(d, inst.npc_class);
  ASSERT_TRUE(set) << where;
  for (const char* name : {"topo-reach", "auto"}) {
    Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(name, *set);
    if (!p) {
      ASSERT_STREQ(name, "topo-reach") << where << ": " << p.error().to_string();
      continue;  // a class without any action that changes a value
    }
    auto scratch = (*p)->make_scratch();
    std::vector<ActionId> out(static_cast<size_t>((*p)->max_plan_length()));
    int32_t len = 0;
    const PlanOutcome o = (*p)->plan(*scratch, inst.init, inst.goal, out, &len);
    const bool is_auto = std::string_view(name) == "auto";
    if (o.status == PlanStatus::kSolved) {
      out.resize(static_cast<size_t>(len));
      const Validation v = validate_plan(d, inst, out);
      ASSERT_TRUE(v.valid) << where << " " << name << ": " << v.reason;
      ASSERT_NE(ex.status, PlanStatus::kUnsolvable) << where << " " << name;
      if (ex.status != PlanStatus::kSolved) continue;
      ASSERT_GE(v.cost, ex.cost) << where << " " << name;
      if (is_auto || (o.detail & kDetailNotProvenOptimal) == 0) {
        ASSERT_EQ(v.cost, ex.cost) << where << " " << name << ": not marked unproven";
      }
      if (!is_auto) ++f.hot_solved;
    } else if (o.status == PlanStatus::kUnsolvable) {
      ASSERT_NE(ex.status, PlanStatus::kSolved) << where << " " << name;
    } else {
      ASSERT_NE(o.status, PlanStatus::kBufferTooSmall) << where << " " << name;
    }
  }
}

// Checks one instance; returns false (with a gtest failure) when a property breaks.
void check(const Domain& d, const Instance& inst, Figures& f, const std::string& where) {
  ++f.instances;
  PlannerOptions eo;
  eo.limits.max_expansions = 2'000'000;
  const PlanResult ex = plan_exact(d, inst, eo);
  const ReachResult rr = plan_reach(d, inst);
  const PlanResult& r = rr.result;
  f.choices += rr.choices;
  f.max_choices = std::max<int64_t>(f.max_choices, rr.choices);
  if (rr.reformulated_pu) ++f.pu;
  if (ex.status == PlanStatus::kSolved) ++f.exact_solved;
  if (ex.status == PlanStatus::kUnsolvable) ++f.exact_unsolvable;
  if (ex.status == PlanStatus::kLimitReached) ++f.exact_limit;
  switch (r.status) {
    case PlanStatus::kSolved: {
      ++f.solved;
      const Validation v = validate_plan(d, inst, r.actions);
      ASSERT_TRUE(v.valid) << where << ": " << v.reason;
      ASSERT_EQ(v.cost, r.cost) << where;
      ASSERT_NE(ex.status, PlanStatus::kUnsolvable) << where;
      if (ex.status != PlanStatus::kSolved) break;
      ASSERT_GE(r.cost, ex.cost) << where;
      if (r.cost == ex.cost) ++f.optimal;
      if (rr.reformulated_pu) {
        ASSERT_EQ(r.cost, ex.cost) << where << ": no choice was needed";
      }
      if (rr.proven_optimal) {
        ASSERT_EQ(r.cost, ex.cost) << where << ": proven optimal";
      }
      break;
    }
    case PlanStatus::kUnsolvable:
      ++f.unsolvable;
      ASSERT_NE(ex.status, PlanStatus::kSolved) << where << ": " << r.message;
      break;
    case PlanStatus::kUnsupported:
      ++f.unsupported;
      if (std::getenv("TOPOPLAN_REACH_VERBOSE"))
        std::printf("unsupported: %s: %s\n", where.c_str(), r.message.c_str());
      break;
    default:
      ++f.gave_up;
      break;
  }
  (void)one_producer_per_value;
  check_hot(d, inst, ex, f, where);
}

TEST(Reach, CorpusInstancesAndRandomPairs) {
  const std::filesystem::path dir = testing::source_path("domains/real");
  Figures given, pairs;
  int32_t files = 0;
  testing::Rng rng(20261127);
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".toml") continue;
    Result<Task> task = load_task(entry.path().string());
    ASSERT_TRUE(task) << entry.path() << ": " << task.error().to_string();
    ++files;
    const Domain& d = task->domain;
    for (const Instance& inst : task->instances)
      check(d, inst, given, entry.path().filename().string() + " " + inst.name);
    // Random pairs: a random start of the class's NPCs, and a goal reached by a random walk.
    const ClassId cls = task->instances.empty() ? kAllActions : task->instances[0].npc_class;
    for (int32_t k = 0; k < (testing::kSanitized ? 4 : 20); ++k) {
      testing::RandomInstanceOptions io;
      io.kind = k % 4 == 3 ? testing::GoalKind::kRandomGoal : testing::GoalKind::kRandomWalk;
      io.free_goal_probability = k % 2 ? 0.6 : 0.0;
      Instance inst = testing::random_instance(d, rng, io);
      inst.npc_class = cls;
      check(d, inst, pairs, entry.path().filename().string() + " random pair " + std::to_string(k));
    }
  }
  EXPECT_GE(files, 15);
  given.print("corpus instances");
  pairs.print("corpus random pairs");
}

// A random domain with several producers per value and multi-effect actions: the unary
// post-unique generator, then (per action, with the given odds) a copy with another cost and
// prevail-condition, a second effect on another variable, or a pre = post effect.
DomainDef reach_domain(uint64_t seed, double dup, double multi, double keep) {
  testing::RandomDomainOptions o;
  o.max_variables = 5;
  o.max_values = 4;
  DomainDef def = testing::random_domain_def(seed, o);
  testing::Rng rng(seed * 7919 + 17);
  const auto n = static_cast<int32_t>(def.actions.size());
  const auto m = static_cast<int32_t>(def.variables.size());
  for (int32_t i = 0; i < n; ++i) {
    ActionDef& a = def.actions[i];
    a.cost = rng.uniform(1, 4);
    if (m > 1 && rng.chance(multi)) {
      VarId w = rng.uniform(0, m - 1);
      if (w == a.effects[0].var) w = (w + 1) % m;
      std::erase_if(a.prevail, [&](const Fact& f) { return f.var == w; });
      const auto size = static_cast<int32_t>(def.variables[w].values.size());
      const ValueId post = rng.uniform(0, size - 1);
      ValueId pre = rng.chance(0.3) ? kUndefined : rng.uniform(0, size - 1);
      if (pre == post) pre = (post + 1) % size;
      a.effects.push_back(Effect{w, pre, post});
    } else if (m > 1 && rng.chance(keep)) {
      VarId w = rng.uniform(0, m - 1);
      if (w == a.effects[0].var) w = (w + 1) % m;
      std::erase_if(a.prevail, [&](const Fact& f) { return f.var == w; });
      const ValueId x = rng.uniform(0, static_cast<int32_t>(def.variables[w].values.size()) - 1);
      a.effects.push_back(Effect{w, x, x});
    }
  }
  for (int32_t i = 0; i < n; ++i) {
    if (!rng.chance(dup)) continue;
    ActionDef c = def.actions[i];
    c.name += "-alt";
    c.cost = rng.uniform(1, 4);
    c.prevail.clear();
    if (m > 1 && rng.chance(0.5)) {
      VarId w = rng.uniform(0, m - 1);
      bool clash = false;
      for (const Effect& e : c.effects) clash = clash || e.var == w;
      if (!clash)
        c.prevail.push_back(
            Fact{w, rng.uniform(0, static_cast<int32_t>(def.variables[w].values.size()) - 1)});
    }
    def.actions.push_back(std::move(c));
  }
  return def;
}

// The producer-choice search's leaves share one ℙ restricted per leaf (topo.h, restrict_to): on
// every post-unique subset of random several-producer domains, one restrictable ℙ and one scratch,
// reused across subsets, answer as a ℙ built for the subset alone does — the same plan; kUnsolvable
// only where that one proves it — and every plan is valid.
TEST(Reach, RestrictedPlannerMatchesOneBuiltForTheSubset) {
  int64_t compared = 0, solved = 0, unsolvable = 0;
  for (uint64_t seed = 1; seed <= 300; ++seed) {
    Result<Domain> d =
        Domain::compile(reach_domain(seed, 0.25 + 0.25 * static_cast<double>(seed % 3), 0.0, 0.0));
    ASSERT_TRUE(d) << "seed " << seed << ": " << d.error().to_string();
    Result<CompiledActionSet> set = CompiledActionSet::create(*d);
    ASSERT_TRUE(set);
    Result<TopoPlanner> shared = TopoPlanner::create_restrictable(*set);
    ASSERT_TRUE(shared) << shared.error().to_string();
    TopoScratch shared_scratch = shared->make_scratch();
    testing::Rng rng(seed * 31 + 7);
    const auto na = static_cast<size_t>(d->num_actions());
    std::vector<uint8_t> all(na, 1);
    bool several = false;
    for (ActionId a = 0; a < d->num_actions(); ++a)
      for (ActionId b = a + 1; b < d->num_actions(); ++b)
        several = several || (d->effects(a)[0].var == d->effects(b)[0].var &&
                              d->effects(a)[0].post == d->effects(b)[0].post);
    EXPECT_EQ(shared->restrict_to(all), !several) << "seed " << seed;
    std::vector<ActionId> out(na + 1), fresh_out(na + 1);
    for (int32_t k = 0; k < 6; ++k) {
      // A post-unique subset: actions in random order, each kept with odds 0.8 if its value has
      // no producer yet.
      std::vector<uint8_t> mask(na, 0);
      std::set<std::pair<VarId, ValueId>> produced;
      std::vector<ActionId> order(na);
      for (size_t i = 0; i < na; ++i) order[i] = static_cast<ActionId>(i);
      for (size_t i = na; i > 1; --i)
        std::swap(order[i - 1],
                  order[static_cast<size_t>(rng.uniform(0, static_cast<int32_t>(i) - 1))]);
      for (ActionId a : order) {
        const Effect& e = d->effects(a)[0];
        if (rng.chance(0.8) && produced.insert({e.var, e.post}).second)
          mask[static_cast<size_t>(a)] = 1;
      }
      ASSERT_TRUE(shared->restrict_to(mask)) << "seed " << seed;
      Result<TopoPlanner> fresh = TopoPlanner::create(*d, mask);
      ASSERT_TRUE(fresh) << fresh.error().to_string();
      TopoScratch fresh_scratch = fresh->make_scratch();
      for (int32_t j = 0; j < 4; ++j) {
        testing::RandomInstanceOptions io;
        io.kind = j % 2 ? testing::GoalKind::kRandomGoal : testing::GoalKind::kRandomWalk;
        io.free_goal_probability = j >= 2 ? 0.5 : 0.0;
        const Instance inst = testing::random_instance(*d, rng, io);
        const std::string where = "seed " + std::to_string(seed) + " subset " + std::to_string(k) +
                                  " instance " + std::to_string(j);
        int32_t len = 0, fresh_len = 0;
        const PlanStatus st = shared->plan(shared_scratch, inst.init, inst.goal, out, &len).status;
        const PlanStatus fst =
            fresh->plan(fresh_scratch, inst.init, inst.goal, fresh_out, &fresh_len).status;
        ++compared;
        if (st == PlanStatus::kUnsolvable) {
          ++unsolvable;
          ASSERT_EQ(fst, PlanStatus::kUnsolvable) << where;
        }
        if (st == PlanStatus::kSolved || fst == PlanStatus::kSolved) {
          ASSERT_EQ(st, fst) << where;
          ASSERT_EQ(std::vector<ActionId>(out.begin(), out.begin() + len),
                    std::vector<ActionId>(fresh_out.begin(), fresh_out.begin() + fresh_len))
              << where;
          Instance in_subset = inst;
          in_subset.npc_class = kAllActions;
          const Validation v =
              validate_plan(*d, in_subset, std::span<const ActionId>(out.data(), len));
          ASSERT_TRUE(v.valid) << where << ": " << v.reason;
          for (int32_t i = 0; i < len; ++i) ASSERT_TRUE(mask[static_cast<size_t>(out[i])]) << where;
          ++solved;
        }
      }
    }
  }
  std::printf("restricted ℙ vs ℙ built per subset: %lld instances, %lld plans, %lld unsolvable\n",
              (long long)compared, (long long)solved, (long long)unsolvable);
  EXPECT_GT(solved, compared / 4);
  EXPECT_GT(unsolvable, 0);
}

TEST(Reach, RandomSeveralProducersAndMultiEffect) {
  const int64_t total = env_int("TOPOPLAN_REACH_INSTANCES", testing::sanitized_share(4000));
  const uint64_t first = static_cast<uint64_t>(env_int("TOPOPLAN_REACH_SEED", 1));
  Figures f;
  int64_t one_producer_optimum = 0, one_producer_matched = 0;
  for (uint64_t seed = first; f.instances < total; ++seed) {
    const double dup = static_cast<double>(seed % 3) * 0.25;
    const double multi = static_cast<double>((seed / 3) % 3) * 0.2;
    Result<Domain> d = Domain::compile(reach_domain(seed, dup, multi, 0.1));
    ASSERT_TRUE(d) << "seed " << seed << ": " << d.error().to_string();
    testing::Rng rng(seed);
    for (int32_t k = 0; k < 8 && f.instances < total; ++k) {
      testing::RandomInstanceOptions io;
      io.kind = k % 4 == 3 ? testing::GoalKind::kRandomGoal : testing::GoalKind::kRandomWalk;
      io.free_goal_probability = k % 2 ? 0.5 : 0.0;
      const Instance inst = testing::random_instance(*d, rng, io);
      const std::string where = "seed " + std::to_string(seed) + " instance " + std::to_string(k);
      check(*d, inst, f, where);
      if (HasFatalFailure()) return;
      // Optimal among one-producer plans, on tasks without multi-effect actions (no merging).
      if (multi > 0) continue;
      const ReachResult rr = plan_reach(*d, inst);
      if (!rr.optimal_in_choices) continue;
      PlannerOptions eo;
      eo.limits.max_expansions = 2'000'000;
      const PlanResult ex = plan_exact(*d, inst, eo);
      if (ex.status != PlanStatus::kSolved || !one_producer_per_value(*d, ex.actions)) continue;
      ++one_producer_optimum;
      ASSERT_EQ(rr.result.status, PlanStatus::kSolved) << where;
      ASSERT_EQ(rr.result.cost, ex.cost) << where << ": optimal among one-producer plans";
      ++one_producer_matched;
    }
  }
  f.print("random several-producer / multi-effect");
  std::printf("exact optimum with one producer per value, choices exhausted: %lld, matched %lld\n",
              (long long)one_producer_optimum, (long long)one_producer_matched);
  EXPECT_GT(f.solved, f.instances / 3);
  EXPECT_GT(one_producer_optimum, 0);
}

}  // namespace
}  // namespace topoplan
