// AgentWorld's options for GOAP domains and long activities: planning by the chain alone
// (AgentWorldDef::topo_first false) and actions that run to their end (set_action_runs_to_end).
// Every adopted plan is checked by the validator from the believed state; the chain's plans
// also against the exact search's optimal cost.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/random.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan::agents {
namespace {

// `done` is set by Quick (unary, cost 10) or by Combo (cost 1, which also sets `tidy`): ℙ takes
// only the unary part of the domain (CrowdPlanner::topo_part) and answers Quick; A* answers Combo.
// A `spare` variable gives the agents 8 distinct states.
Domain two_ways() {
  DomainDef d;
  d.name = "two-ways";
  d.variables = {{"done", {"no", "yes"}},
                 {"tidy", {"no", "yes"}},
                 {"spare", {"a", "b", "c", "d", "e", "f", "g", "h"}}};
  d.actions.push_back(ActionDef{"Quick", 10, {{0, 0, 1}}, {}});
  d.actions.push_back(ActionDef{"Combo", 1, {{0, 0, 1}, {1, 0, 1}}, {}});
  return Domain::compile(d).value();
}

// Plans of `n` agents of two_ways() from random states; returns every event of 3 frames.
std::vector<Event> run_two_ways(const Domain& domain, const CrowdPlanner& planner,
                                AgentWorldDef def, int32_t n, int32_t threads,
                                std::vector<int64_t>* costs) {
  std::unique_ptr<CrowdThreadPool> pool;
  if (threads > 1) {
    pool = std::make_unique<CrowdThreadPool>(threads);
    pool->install(def.crowd);
    def.min_agents_per_part = 64;
  }
  def.capacity = n;
  AgentWorld w = AgentWorld::create(planner, def).value();
  const ValueId u = kUndefined;
  const GoalId done = w.add_goal("done", std::vector<ValueId>{1, u, u}).value();
  EXPECT_FALSE(w.set_class_goals(0, w.add_goal_list(std::vector<GoalId>{done}).value()));
  SplitMix64 rng(7);
  for (int32_t i = 0; i < n; ++i) {
    const std::vector<ValueId> s{0, 0, static_cast<ValueId>(rng.below(8))};
    EXPECT_TRUE(w.add_agent(0, s).ok());
  }
  std::vector<Event> events(static_cast<size_t>(n) * 4), all;
  for (int frame = 0; frame < 3; ++frame) {
    const UpdateStats st = w.update(0.1, events);
    for (int64_t k = 0; k < st.events; ++k) {
      const Event& e = events[static_cast<size_t>(k)];
      all.push_back(e);
      if (e.kind != EventKind::kPlanned) continue;
      Instance inst;
      inst.init.resize(3);
      w.state(e.agent, inst.init);
      inst.goal = {1, u, u};
      std::vector<ActionId> p(static_cast<size_t>(w.plan_length(e.agent)));
      w.plan(e.agent, p);
      const Validation v = validate_plan(domain, inst, p);
      EXPECT_TRUE(v.valid) << v.reason;
      const PlanResult best = plan_exact(domain, inst);
      EXPECT_EQ(best.status, PlanStatus::kSolved);
      int64_t cost = 0;
      for (ActionId a : p) cost += domain.cost(a);
      if (costs != nullptr) costs->push_back(cost - best.cost);
    }
  }
  return all;
}

TEST(AgentOptions, TopoFirstFalsePlansByTheChainAlone) {
  const Domain domain = two_ways();
  const CrowdPlanner planner = CrowdPlanner::create(domain).value();
  ASSERT_TRUE(planner.topo_part(0));
  AgentWorldDef def;
  std::vector<int64_t> extra;
  run_two_ways(domain, planner, def, 200, 1, &extra);
  ASSERT_EQ(extra.size(), 200u);
  // With ℙ first, ℙ's part answers: valid plans, 9 more than the cheapest.
  for (int64_t x : extra) EXPECT_EQ(x, 9);
  extra.clear();
  def.topo_first = false;
  def.crowd.fallback = {"astar"};
  const std::vector<Event> one = run_two_ways(domain, planner, def, 200, 1, &extra);
  ASSERT_EQ(extra.size(), 200u);
  for (int64_t x : extra) EXPECT_EQ(x, 0) << "A* alone: the cheapest plan";
  // The same events on 2 and 3 threads (the chain plans on the calling thread, the examination
  // and the adoption run in parts).
  for (int32_t threads : {2, 3})
    EXPECT_EQ(run_two_ways(domain, planner, def, 200, threads, nullptr), one);
}

TEST(AgentOptions, TopoFirstFalseNeedsAChain) {
  const Domain domain = two_ways();
  const CrowdPlanner planner = CrowdPlanner::create(domain).value();
  AgentWorldDef def;
  def.topo_first = false;
  def.crowd.fallback = {};
  const Result<AgentWorld> w = AgentWorld::create(planner, def);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("topo_first"), std::string::npos) << w.error().message;
  def.crowd.fallback = {"no-such-planner"};
  const Result<AgentWorld> w2 = AgentWorld::create(planner, def);
  ASSERT_FALSE(w2.ok());
  EXPECT_NE(w2.error().message.find("no-such-planner"), std::string::npos) << w2.error().message;
}

// An alarm (a = 1 breaks the first goal, "quiet") and a job of two steps for the second goal
// ("job"): Long (p 0→1, needs power c = 1), then Finish (q 0→1, needs p = 1).
struct Job {
  Domain domain;
  CrowdPlanner planner;
  AgentWorld world;
  std::vector<Event> events = std::vector<Event>(64), last;
  static constexpr VarId kAlarm = 0, kPower = 3;
  static constexpr ActionId kSilence = 0, kLong = 1, kFinish = 2;
  GoalId quiet = 0, job = 0;

  explicit Job(bool long_runs_to_end, AgentWorldDef def = {})
      : domain(make()), planner(CrowdPlanner::create(domain).value()) {
    world = AgentWorld::create(planner, def).value();
    if (long_runs_to_end) {
      EXPECT_FALSE(world.set_action_runs_to_end(kLong, true));
    }
    const ValueId u = kUndefined;
    quiet = world.add_goal("quiet", std::vector<ValueId>{0, u, u, u}).value();
    job = world.add_goal("job", std::vector<ValueId>{u, u, 1, u}).value();
    EXPECT_FALSE(
        world.set_class_goals(0, world.add_goal_list(std::vector<GoalId>{quiet, job}).value()));
    EXPECT_TRUE(world.add_agent(0, std::vector<ValueId>{0, 0, 0, 1}).ok());
  }
  static Domain make() {
    DomainDef d;
    d.name = "job";
    d.variables = {
        {"alarm", {"off", "on"}}, {"p", {"0", "1"}}, {"q", {"0", "1"}}, {"power", {"off", "on"}}};
    d.actions.push_back(ActionDef{"Silence", 1, {{0, 1, 0}}, {}});
    d.actions.push_back(ActionDef{"Long", 1, {{1, 0, 1}}, {{3, 1}}});
    d.actions.push_back(ActionDef{"Finish", 1, {{2, 0, 1}}, {{1, 1}}});
    return Domain::compile(d).value();
  }
  void update() {
    const UpdateStats s = world.update(0.1, events);
    last.assign(events.begin(), events.begin() + s.events);
    for (const Event& e : last) {
      if (e.kind != EventKind::kPlanned) continue;
      Instance inst;
      inst.init.resize(4);
      world.state(e.agent, inst.init);
      inst.goal.assign(4, kUndefined);
      if (e.goal == quiet)
        inst.goal[0] = 0;
      else
        inst.goal[2] = 1;
      std::vector<ActionId> p(static_cast<size_t>(world.plan_length(e.agent)));
      world.plan(e.agent, p);
      EXPECT_TRUE(validate_plan(domain, inst, p).valid);
    }
  }
  bool has(EventKind kind, ActionId action = -2) const {
    for (const Event& e : last)
      if (e.kind == kind && (action == -2 || e.action == action)) return true;
    return false;
  }
};

TEST(AgentOptions, RunsToEndDefersABetterGoalUntilTheActionEnds) {
  Job j(true);
  EXPECT_TRUE(j.world.action_runs_to_end(Job::kLong));
  EXPECT_FALSE(j.world.action_runs_to_end(Job::kFinish));
  j.update();
  ASSERT_EQ(j.world.running_action(0), Job::kLong);
  j.world.set_fact(0, Job::kAlarm, 1);  // "quiet", first in the list, no longer holds
  j.update();
  EXPECT_FALSE(j.has(EventKind::kAbortAction));
  EXPECT_EQ(j.world.goal(0), j.job);
  EXPECT_EQ(j.world.running_action(0), Job::kLong);
  // It ends: the better goal now, and Finish is not started.
  j.world.action_finished(0);
  j.update();
  EXPECT_EQ(j.world.goal(0), j.quiet);
  EXPECT_EQ(j.world.last_replan(0), ReplanReason::kBetterGoal);
  EXPECT_TRUE(j.has(EventKind::kStartAction, Job::kSilence));
  EXPECT_FALSE(j.has(EventKind::kStartAction, Job::kFinish));
}

TEST(AgentOptions, WithoutRunsToEndABetterGoalAbortsAtOnce) {
  Job j(false);
  j.update();
  ASSERT_EQ(j.world.running_action(0), Job::kLong);
  j.world.set_fact(0, Job::kAlarm, 1);
  j.update();
  EXPECT_TRUE(j.has(EventKind::kAbortAction, Job::kLong));
  EXPECT_EQ(j.world.goal(0), j.quiet);
  EXPECT_EQ(j.world.last_replan(0), ReplanReason::kBetterGoal);
}

TEST(AgentOptions, RunsToEndStillStopsOnABrokenConditionOrAFailure) {
  {
    Job j(true);
    j.update();
    j.world.set_fact(0, Job::kPower, 0);  // Long's prevail breaks
    j.update();
    EXPECT_TRUE(j.has(EventKind::kAbortAction, Job::kLong));
    EXPECT_EQ(j.world.last_replan(0), ReplanReason::kConditionBroken);
  }
  {
    Job j(true);
    j.update();
    j.world.set_fact(0, Job::kAlarm, 1);
    j.world.action_failed(0);
    j.update();
    EXPECT_EQ(j.world.last_replan(0), ReplanReason::kActionFailed);
    EXPECT_EQ(j.world.goal(0), j.quiet);
    EXPECT_TRUE(j.has(EventKind::kStartAction, Job::kSilence));
  }
  Job j(true);
  EXPECT_TRUE(j.world.set_action_runs_to_end(3, true).has_value());
  EXPECT_TRUE(j.world.set_action_runs_to_end(-1, true).has_value());
}

// The chain alone, with plans longer than the world stores: no plan, kBufferTooSmall (the plan
// buffer is the world's max_plan_length, not the search's bound on a plan's length).
TEST(AgentOptions, TopoFirstFalseReportsAPlanTooLong) {
  AgentWorldDef def;
  def.topo_first = false;
  def.max_plan_length = 1;
  Job j(false, def);
  j.update();
  ASSERT_TRUE(j.has(EventKind::kNoPlan));
  for (const Event& e : j.last) {
    if (e.kind == EventKind::kNoPlan) {
      EXPECT_EQ(no_plan_outcome(e).status, PlanStatus::kBufferTooSmall);
    }
  }
  AgentWorldDef two = def;
  two.max_plan_length = 2;
  Job k(false, two);
  k.update();
  EXPECT_TRUE(k.has(EventKind::kStartAction, Job::kLong));
}

}  // namespace
}  // namespace topoplan::agents
