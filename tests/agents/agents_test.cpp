// The agent loop (agents.h): each replan rule, the events around it, determinism across thread
// counts, and every plan the runtime adopts checked by the validator from the believed state.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/random.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "worlds.h"

namespace topoplan::agents {
namespace {

constexpr ActionId kWalkToDoor = 0, kOpenDoor = 1, kWalkToShop = 2, kTakeBread = 3, kEat = 4,
                   kSleep = 5;
constexpr VarId kPos = 0, kDoor = 1, kBread = 2, kHunger = 3, kAlarm = 5;

struct Village {
  Domain domain = village(/*alarm=*/true);
  CrowdPlanner planner = CrowdPlanner::create(domain).value();
  AgentWorld world;
  GoalId quiet = 0, fed = 0, rested = 0;
  std::vector<Event> events = std::vector<Event>(256);
  std::vector<Event> last;

  explicit Village(AgentWorldDef def = {}, int32_t agents = 1) {
    def.capacity = std::max(def.capacity, agents);
    world = AgentWorld::create(planner, def).value();
    const ValueId u = kUndefined;
    quiet = world.add_goal("quiet", std::vector<ValueId>{u, u, u, u, u, 0}).value();
    fed = world.add_goal("fed", std::vector<ValueId>{u, u, u, 1, u, u}).value();
    rested = world.add_goal("rested", std::vector<ValueId>{u, u, u, u, 1, u}).value();
    const int32_t list = world.add_goal_list(std::vector<GoalId>{quiet, fed, rested}).value();
    EXPECT_FALSE(world.set_class_goals(0, list).has_value());
    for (int32_t i = 0; i < agents; ++i)
      EXPECT_TRUE(world.add_agent(0, std::vector<ValueId>{0, 0, 0, 0, 0, 0}).ok());
  }
  UpdateStats update() {
    const UpdateStats s = world.update(1.0 / 60, events);
    last.assign(events.begin(), events.begin() + s.events);
    for (const Event& e : last)
      if (e.kind == EventKind::kPlanned) check_plan(e.agent);
    return s;
  }
  // The adopted plan is a plan from the believed state (the validator's judgement).
  void check_plan(AgentId a) {
    const GoalId g = world.goal(a);
    ASSERT_NE(g, kNoGoal);
    expect_adopted_plan_valid(domain, world, a, goal_values(g));
  }
  std::vector<ValueId> goal_values(GoalId g) const {
    const ValueId u = kUndefined;
    if (g == quiet) return {u, u, u, u, u, 0};
    if (g == fed) return {u, u, u, 1, u, u};
    return {u, u, u, u, 1, u};
  }
  bool has(EventKind kind, ActionId action = -2, int detail = -1) const {
    return std::any_of(last.begin(), last.end(), [&](const Event& e) {
      return e.kind == kind && (action == -2 || e.action == action) &&
             (detail < 0 || e.detail == detail);
    });
  }
  int planned_reason() const {
    for (const Event& e : last)
      if (e.kind == EventKind::kPlanned) return e.detail;
    return -1;
  }
};

TEST(Agents, FirstPlanStartsTheFirstAction) {
  Village v;
  const UpdateStats s = v.update();
  EXPECT_EQ(s.examined, 1);
  EXPECT_EQ(s.planned, 1);
  EXPECT_EQ(s.replans[static_cast<size_t>(ReplanReason::kNoPlan)], 1);
  ASSERT_EQ(v.last.size(), 3u);
  EXPECT_EQ(v.last[0].kind, EventKind::kGoalChanged);
  EXPECT_EQ(v.last[0].goal, v.fed);
  EXPECT_EQ(v.last[1].kind, EventKind::kPlanned);
  EXPECT_EQ(v.last[1].detail, static_cast<uint8_t>(ReplanReason::kNoPlan));
  EXPECT_EQ(v.last[1].action, 5);  // plan length
  EXPECT_EQ(v.last[2].kind, EventKind::kStartAction);
  EXPECT_EQ(v.last[2].action, kWalkToDoor);
  EXPECT_EQ(v.world.running_action(0), kWalkToDoor);
  // Nothing changed, nothing due: nothing happens.
  EXPECT_EQ(v.update().examined, 0);
  EXPECT_TRUE(v.last.empty());
  EXPECT_GT(v.world.progress(0), 0.0);
}

TEST(Agents, ObservedEffectsFinishTheAction) {
  Village v;
  v.update();
  v.world.set_fact(0, kPos, 1);  // the engine moved the villager to the door
  const UpdateStats s = v.update();
  EXPECT_EQ(s.planned, 0);
  ASSERT_EQ(v.last.size(), 1u);
  EXPECT_EQ(v.last[0].kind, EventKind::kStartAction);
  EXPECT_EQ(v.last[0].action, kOpenDoor);
  EXPECT_EQ(v.last[0].step, 1);
  // Writing a value the agent already believes changes nothing.
  v.world.set_fact(0, kPos, 1);
  EXPECT_EQ(v.update().examined, 0);
}

TEST(Agents, ReportedFinishAppliesTheEffects) {
  Village v;
  v.update();
  v.world.action_finished(0);
  v.update();
  EXPECT_EQ(v.world.fact(0, kPos), 1);
  EXPECT_TRUE(v.has(EventKind::kStartAction, kOpenDoor));
  EXPECT_FALSE(v.has(EventKind::kPlanned));
}

TEST(Agents, ActionFailedReplans) {
  Village v;
  v.update();
  v.world.action_failed(0);
  const UpdateStats s = v.update();
  EXPECT_EQ(s.replans[static_cast<size_t>(ReplanReason::kActionFailed)], 1);
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kActionFailed));
  EXPECT_FALSE(v.has(EventKind::kAbortAction));  // the engine knows: it reported the failure
  EXPECT_TRUE(v.has(EventKind::kStartAction, kWalkToDoor));
  EXPECT_EQ(v.world.last_replan(0), ReplanReason::kActionFailed);
}

TEST(Agents, BrokenRunningActionIsAbortedAndReplanned) {
  Village v;
  v.update();
  v.world.action_finished(0);  // at the door
  v.update();
  v.world.action_finished(0);  // door open
  v.update();
  ASSERT_EQ(v.world.running_action(0), kWalkToShop);
  v.world.set_fact(0, kDoor, 0);  // someone closed the door
  const UpdateStats s = v.update();
  EXPECT_EQ(s.replans[static_cast<size_t>(ReplanReason::kConditionBroken)], 1);
  ASSERT_GE(v.last.size(), 3u);
  EXPECT_EQ(v.last[0].kind, EventKind::kAbortAction);
  EXPECT_EQ(v.last[0].action, kWalkToShop);
  EXPECT_EQ(v.last[0].detail, static_cast<uint8_t>(ReplanReason::kConditionBroken));
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kConditionBroken));
  EXPECT_TRUE(v.has(EventKind::kStartAction, kOpenDoor));
}

TEST(Agents, LaterStepBrokenKeepsTheRunningAction) {
  Village v;
  v.update();
  ASSERT_EQ(v.world.running_action(0), kWalkToDoor);
  v.world.set_fact(0, kDoor, 1);  // the door opens: OpenDoor's pre-condition no longer holds
  v.update();
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kConditionBroken));
  EXPECT_FALSE(v.has(EventKind::kAbortAction));
  EXPECT_FALSE(v.has(EventKind::kStartAction));  // WalkToDoor keeps running
  EXPECT_EQ(v.world.running_action(0), kWalkToDoor);
  EXPECT_EQ(v.world.plan_length(0), 4);
}

TEST(Agents, FactThatKeepsThePlanValidDoesNotReplan) {
  Village v;
  v.update();
  v.world.set_fact(0, 4, 1);  // asleep: no step of the plan reads it
  const UpdateStats s = v.update();
  EXPECT_EQ(s.examined, 1);
  EXPECT_EQ(s.planned, 0);
  EXPECT_TRUE(v.last.empty());
}

TEST(Agents, UnsolvableGoalSaysWhyAndWaitsForAChange) {
  AgentWorldDef def;
  def.decision_period = 1;
  Village v(def);
  v.update();
  v.world.set_fact(0, kBread, 2);  // the bread was stolen
  v.update();
  ASSERT_TRUE(v.has(EventKind::kNoPlan, -2, static_cast<int>(PlanStatus::kUnsolvable)));
  // The event carries the planner's outcome; explain() asks ℙ again and names what is at fault.
  const auto no_plan = std::find_if(v.last.begin(), v.last.end(),
                                    [](const Event& e) { return e.kind == EventKind::kNoPlan; });
  EXPECT_EQ(no_plan_outcome(*no_plan).status, PlanStatus::kUnsolvable);
  const std::string why = v.world.explain(*no_plan);
  EXPECT_NE(why.find("bread"), std::string::npos) << why;
  EXPECT_NE(v.world.describe(*no_plan).find("(unsolvable"), std::string::npos);
  EXPECT_EQ(v.world.explain(Event{}), "");  // not a no-plan event
  EXPECT_TRUE(v.has(EventKind::kAbortAction, kWalkToDoor));
  EXPECT_EQ(v.world.plan_length(0), 0);
  // Due every frame, but nothing changed: no new attempt.
  EXPECT_EQ(v.update().planned, 0);
  v.world.set_fact(0, kBread, 0);  // restocked
  v.update();
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kNoPlan));
}

TEST(Agents, HigherPriorityGoalPreempts) {
  Village v;
  v.update();
  v.world.set_fact(0, kAlarm, 1);
  const UpdateStats s = v.update();
  EXPECT_EQ(s.replans[static_cast<size_t>(ReplanReason::kBetterGoal)], 1);
  EXPECT_TRUE(v.has(EventKind::kAbortAction, kWalkToDoor));
  EXPECT_EQ(v.world.goal(0), v.quiet);
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kBetterGoal));
  EXPECT_TRUE(v.has(EventKind::kStartAction, 6));
  v.world.action_finished(0);
  v.update();  // quiet holds: back to 'fed'
  EXPECT_TRUE(v.has(EventKind::kGoalReached));
  EXPECT_EQ(v.world.goal(0), v.fed);
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kPlanFinished));
}

TEST(Agents, FinishedPlanReachesTheGoalAndTakesTheNext) {
  Village v;
  v.update();
  for (ActionId a : {kWalkToDoor, kOpenDoor, kWalkToShop, kTakeBread}) {
    ASSERT_EQ(v.world.running_action(0), a);
    v.world.action_finished(0);
    v.update();
  }
  ASSERT_EQ(v.world.running_action(0), kEat);
  v.world.set_fact(0, kHunger, 1);  // eaten, as the engine sees it
  v.update();
  EXPECT_TRUE(v.has(EventKind::kGoalReached));
  EXPECT_EQ(v.world.goal(0), v.rested);
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kPlanFinished));
  EXPECT_TRUE(v.has(EventKind::kStartAction, kSleep));
  v.world.action_finished(0);
  v.update();  // every goal holds: idle
  EXPECT_TRUE(v.has(EventKind::kGoalChanged));
  EXPECT_EQ(v.world.goal(0), kNoGoal);
  EXPECT_EQ(v.world.running_action(0), -1);
}

TEST(Agents, WorldVersionReplansOnTheDueFrame) {
  AgentWorldDef def;
  def.decision_period = 4;
  Village v(def);
  v.update();  // frame 0: due, planned
  v.world.bump_world_version();
  int frames = 0;
  int reason = -1;
  while (reason < 0 && frames < 10) {
    v.update();
    reason = v.planned_reason();
    ++frames;
  }
  EXPECT_EQ(reason, static_cast<int>(ReplanReason::kWorldChanged));
  EXPECT_EQ(frames, 4);  // frames 1..3 not due; frame 4 due
}

TEST(Agents, DueFramesAreSpreadOverThePeriod) {
  AgentWorldDef def;
  def.decision_period = 4;
  Village v(def, 64);
  EXPECT_EQ(v.update().examined, 64);  // added: examined in the next update
  for (int k = 0; k < 8; ++k) EXPECT_EQ(v.update().examined, 16) << "frame " << k + 1;
}

// Events past the caller's array are dropped and counted alike on one thread and on parts of 64
// agents on 2 threads (the parts' buffers are copied up to the array's end).
TEST(Agents, EventsPastTheArrayAreDroppedAlikeOnAnyThreadCount) {
  AgentWorldDef one_def;
  Village one(one_def, 300);
  AgentWorldDef parts_def;
  parts_def.min_agents_per_part = 64;
  CrowdThreadPool pool(2);
  pool.install(parts_def.crowd);
  Village parts(parts_def, 300);
  one.events.resize(500);
  parts.events.resize(500);
  const UpdateStats a = one.update();
  const UpdateStats b = parts.update();
  EXPECT_EQ(a.events, 500);
  EXPECT_GT(a.events_dropped, 0);
  EXPECT_EQ(a.events, b.events);
  EXPECT_EQ(a.events_dropped, b.events_dropped);
  EXPECT_EQ(one.last, parts.last);
}

TEST(Agents, OldPlanIsReplanned) {
  AgentWorldDef def;
  def.decision_period = 1;
  def.max_plan_age = 3;
  Village v(def);
  v.update();
  for (int k = 0; k < 3; ++k) {
    v.update();
    EXPECT_EQ(v.planned_reason(), -1);
  }
  v.update();
  EXPECT_EQ(v.planned_reason(), static_cast<int>(ReplanReason::kPlanTooOld));
  EXPECT_FALSE(v.has(EventKind::kAbortAction));  // the new plan starts with the running action
}

TEST(Agents, FrameBudgetCarriesAgentsOver) {
  AgentWorldDef def;
  def.max_plans_per_frame = 3;
  Village v(def, 7);
  UpdateStats s = v.update();
  EXPECT_EQ(s.planned, 3);
  EXPECT_EQ(s.waiting, 4);
  s = v.update();
  EXPECT_EQ(s.planned, 3);
  s = v.update();
  EXPECT_EQ(s.planned, 1);
  EXPECT_EQ(s.waiting, 0);
  for (AgentId a = 0; a < 7; ++a) EXPECT_EQ(v.world.running_action(a), kWalkToDoor);
}

TEST(Agents, EventOverflowIsCounted) {
  Village v({}, 10);
  std::vector<Event> few(4);
  const UpdateStats s = v.world.update(0.0, few);
  EXPECT_EQ(s.events, 4);
  EXPECT_EQ(s.events_dropped, 26);
}

TEST(Agents, BadInputIsRefused) {
  Village v({}, 1);
  EXPECT_FALSE(v.world.add_agent(3, std::vector<ValueId>(6, 0)).ok());
  EXPECT_FALSE(v.world.add_agent(0, std::vector<ValueId>(5, 0)).ok());
  EXPECT_FALSE(v.world.add_agent(0, std::vector<ValueId>{0, 0, 7, 0, 0, 0}).ok());
  EXPECT_FALSE(v.world.add_goal("", std::vector<ValueId>(6, kUndefined)).ok());
  EXPECT_FALSE(v.world.add_goal_list(std::vector<GoalId>{99}).ok());
  AgentWorldDef def;
  def.max_plan_length = 0;
  EXPECT_FALSE(AgentWorld::create(v.planner, def).ok());
  def = {};
  def.decision_period = 0;
  EXPECT_FALSE(AgentWorld::create(v.planner, def).ok());
}

TEST(Agents, SmallCallsNameTheFailedCondition) {
  const Domain d = village(/*alarm=*/true);
  std::vector<ValueId> s{0, 0, 0, 0, 0, 0};
  FailedCondition f = failed_condition(d, kOpenDoor, s);
  EXPECT_EQ(f.kind, ConditionKind::kPrevail);
  EXPECT_EQ(describe(d, f), "prevail-condition 'pos=door' does not hold (it is 'pos=home')");
  f = failed_condition(d, kWalkToDoor, s);
  EXPECT_TRUE(f.holds());
  apply_action(d, kWalkToDoor, s);
  EXPECT_EQ(s[kPos], 1);
  f = failed_condition(d, kWalkToDoor, s);
  EXPECT_EQ(f.kind, ConditionKind::kPre);
  EXPECT_EQ(f.required, 0);
  EXPECT_EQ(f.actual, 1);
  EXPECT_TRUE(satisfies(
      s, std::vector<ValueId>{1, kUndefined, kUndefined, kUndefined, kUndefined, kUndefined}));
}

// Western agents whose goals are their class's routines restricted to what the class changes;
// every frame a share of them senses a random value of one of its class's variables, and the
// "engine" finishes every running action after two frames. Returns a hash of the events.
uint64_t western_run(int32_t threads, int32_t agents, int32_t frames, bool check_plans,
                     int32_t min_agents_per_part = AgentWorldDef{}.min_agents_per_part) {
  AgentWorldDef def = run_def(agents, min_agents_per_part);
  def.max_plan_age = 10;
  WesternWorld w(def, threads);
  const Task& task = w.task;
  const Domain& d = task.domain;
  AgentWorld& world = w.world;
  std::vector<std::vector<VarId>> changes(static_cast<size_t>(d.num_classes()));
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    std::vector<GoalId> list;
    for (const Instance& inst : task.instances)
      if (inst.npc_class == c)
        list.push_back(world.add_goal(inst.name, class_goal(d, c, inst)).value());
    EXPECT_FALSE(world.set_class_goals(c, world.add_goal_list(list).value()).has_value());
    for (ActionId a : d.class_actions(c))
      for (const Effect& e : d.effects(a)) changes[static_cast<size_t>(c)].push_back(e.var);
  }
  w.add_agents(agents);
  std::vector<Event> events(static_cast<size_t>(agents) * 8);
  ScriptedEngine engine(agents);
  SplitMix64 rng(7);
  EventHash hash;
  std::array<int64_t, kNumReplanReasons> replans{};
  for (int32_t f = 0; f < frames; ++f) {
    engine.finish_due(world, f);
    for (int32_t k = 0; k < agents / 20; ++k) {
      const int32_t i = rng.below(agents);
      const auto& vars = changes[static_cast<size_t>(world.npc_class(i))];
      const VarId v = vars[static_cast<size_t>(rng.below(static_cast<int32_t>(vars.size())))];
      world.set_fact(i, v, rng.below(d.domain_size(v)));
    }
    const UpdateStats s = world.update(1.0 / 60, events);
    EXPECT_EQ(s.events_dropped, 0);
    for (size_t r = 0; r < replans.size(); ++r) replans[r] += s.replans[r];
    for (int64_t k = 0; k < s.events; ++k) {
      const Event& e = events[static_cast<size_t>(k)];
      hash.add(e);
      engine.saw(e, f);
      if (check_plans && e.kind == EventKind::kPlanned) {
        // The goal's values: rebuilt from the routine of the goal's name, as added above.
        for (const Instance& routine : task.instances)
          if (routine.name == world.goal_name(e.goal))
            expect_adopted_plan_valid(d, world, e.agent,
                                      class_goal(d, world.npc_class(e.agent), routine));
      }
    }
  }
  // The run exercises the rules it claims to: first plans, finished plans, broken plans.
  EXPECT_GT(replans[static_cast<size_t>(ReplanReason::kNoPlan)], 0);
  EXPECT_GT(replans[static_cast<size_t>(ReplanReason::kPlanFinished)], 0);
  EXPECT_GT(replans[static_cast<size_t>(ReplanReason::kConditionBroken)], 0);
  EXPECT_GT(replans[static_cast<size_t>(ReplanReason::kPlanTooOld)], 0);
  return hash.hash;
}

TEST(Agents, WesternPlansAreValidFromTheBelievedState) {
  western_run(1, 2000, 40, true);
}

TEST(Agents, EventsAreIdenticalForAnyThreadCount) {
  const uint64_t one = western_run(1, 5000, 30, false);
  EXPECT_EQ(one, western_run(2, 5000, 30, false));
  EXPECT_EQ(one, western_run(3, 5000, 30, false));
  EXPECT_EQ(one, western_run(1, 5000, 30, false));
}

// The examination in parts of 64 agents (and of 192: parts of whole words, the last one short)
// on 2 and 3 threads: the events are merged in agent order, as one thread writes them.
TEST(Agents, EventsAreIdenticalWhenTheExaminationRunsInParts) {
  const uint64_t one = western_run(1, 5000, 30, false);
  EXPECT_EQ(one, western_run(2, 5000, 30, false, 64));
  EXPECT_EQ(one, western_run(3, 5000, 30, false, 64));
  EXPECT_EQ(one, western_run(2, 5000, 30, false, 192));
  EXPECT_EQ(one, western_run(3, 5000, 30, false, 192));
}

TEST(Agents, PartsSmallerThanAWordAreRefused) {
  const Task task = western();
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  AgentWorldDef def;
  def.min_agents_per_part = 63;
  const Result<AgentWorld> made = AgentWorld::create(planner, def);
  ASSERT_FALSE(made.ok());
  EXPECT_NE(made.error().to_string().find("min_agents_per_part"), std::string::npos);
}

}  // namespace
}  // namespace topoplan::agents
