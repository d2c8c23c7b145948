// The planner hook (AgentWorld::set_planner): the hook's plan becomes the agent's, its failures
// become kNoPlan events with its outcome, and the world's replan rules still decide when it is
// asked. Every plan the hook answers is checked by the validator from the state it was given.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/validate.h"

namespace topoplan::agents {
namespace {

// A door to open and a room to reach: Walk (pos 0 -> 1), Open (door 0 -> 1 at pos 1),
// Enter (pos 1 -> 2 with the door open).
Domain rooms() {
  DomainDef d;
  d.name = "rooms";
  d.variables = {{"pos", {"hall", "door", "room"}}, {"door", {"closed", "open"}}};
  d.actions = {{"Walk", 1, {{0, 0, 1}}, {}},
               {"Open", 1, {{1, 0, 1}}, {{0, 1}}},
               {"Enter", 1, {{0, 1, 2}}, {{1, 1}}}};
  return Domain::compile(d).value();
}

// Answers a fixed plan (or a fixed failure), and records what it was asked.
struct FixedHook final : AgentPlanner {
  const Domain* domain = nullptr;
  std::vector<ActionId> plan_actions;
  PlanOutcome answer{PlanStatus::kSolved};
  std::vector<GoalId> goals;
  std::vector<std::vector<ValueId>> states;
  PlanOutcome plan(AgentId, GoalId goal, std::span<const ValueId> state, std::span<ActionId> out,
                   int32_t* len) override {
    goals.push_back(goal);
    states.emplace_back(state.begin(), state.end());
    *len = 0;
    if (answer.status != PlanStatus::kSolved) return answer;
    // The answer must be a plan from the state given: checked here as the validator does.
    std::vector<ValueId> s(state.begin(), state.end());
    for (const ActionId a : plan_actions) {
      EXPECT_TRUE(a >= domain->num_actions() || failed_condition(*domain, a, s).holds());
      if (a < domain->num_actions()) apply_action(*domain, a, s);
    }
    std::copy(plan_actions.begin(), plan_actions.end(), out.begin());
    *len = static_cast<int32_t>(plan_actions.size());
    return answer;
  }
};

struct HookWorld {
  Domain domain = rooms();
  CrowdPlanner planner = CrowdPlanner::create(domain).value();
  AgentWorld world;
  FixedHook hook;
  std::vector<Event> events = std::vector<Event>(64);
  std::vector<Event> last;
  HookWorld() {
    AgentWorldDef def;
    def.capacity = 4;
    def.decision_period = 5;
    world = AgentWorld::create(planner, def).value();
    hook.domain = &domain;
    hook.plan_actions = {0, 1, 2};
    world.set_planner(&hook);
    EXPECT_TRUE(world.add_agent(0, std::vector<ValueId>{0, 0}).ok());
  }
  void update() {
    const UpdateStats s = world.update(1.0 / 60, events);
    last.assign(events.begin(), events.begin() + s.events);
  }
  [[nodiscard]] bool has(EventKind kind, ActionId action = -2) const {
    return std::any_of(last.begin(), last.end(), [&](const Event& e) {
      return e.kind == kind && (action == -2 || e.action == action);
    });
  }
};

TEST(AgentHook, FixedPlanIsAdoptedForAnAgentWithoutGoals) {
  HookWorld w;
  w.update();
  ASSERT_EQ(w.hook.goals, std::vector<GoalId>{kNoGoal});
  EXPECT_EQ(w.hook.states[0], (std::vector<ValueId>{0, 0}));
  EXPECT_TRUE(w.has(EventKind::kPlanned, 3));
  EXPECT_TRUE(w.has(EventKind::kStartAction, 0));
  std::vector<ActionId> plan(8);
  plan.resize(static_cast<size_t>(w.world.plan(0, plan)));
  EXPECT_EQ(plan, (std::vector<ActionId>{0, 1, 2}));
  EXPECT_EQ(w.world.last_replan(0), ReplanReason::kNoPlan);
  // The engine runs the plan: each finish starts the next step without asking the hook again.
  for (const ActionId a : {1, 2}) {
    w.world.action_finished(0);
    w.update();
    EXPECT_TRUE(w.has(EventKind::kStartAction, a));
  }
  EXPECT_EQ(w.hook.goals.size(), 1u);
  // The plan's end: the hook is asked again (kPlanFinished), from the state the plan reached.
  w.hook.plan_actions = {};
  w.world.action_finished(0);
  w.update();
  ASSERT_EQ(w.hook.goals.size(), 2u);
  EXPECT_EQ(w.hook.states[1], (std::vector<ValueId>{2, 1}));
  EXPECT_EQ(w.world.last_replan(0), ReplanReason::kPlanFinished);
  // An empty plan: idle until a change or a due frame, not asked every frame.
  w.world.set_decision_period(0, 100);
  for (int k = 0; k < 3; ++k) w.update();
  EXPECT_EQ(w.hook.goals.size(), 2u);
}

TEST(AgentHook, FailureIsANoPlanEventWithTheHooksOutcome) {
  HookWorld w;
  w.hook.answer = PlanOutcome{PlanStatus::kUnsolvable, kDetailGoalUnreachable};
  w.update();
  ASSERT_EQ(w.last.size(), 1u);
  EXPECT_EQ(w.last[0].kind, EventKind::kNoPlan);
  const PlanOutcome o = no_plan_outcome(w.last[0]);
  EXPECT_EQ(o.status, PlanStatus::kUnsolvable);
  EXPECT_EQ(o.detail, kDetailGoalUnreachable);
  // Blocked: not asked again until a fact changes.
  w.update();
  EXPECT_EQ(w.hook.goals.size(), 1u);
  w.world.set_fact(0, 1, 1);
  w.update();
  EXPECT_EQ(w.hook.goals.size(), 2u);
}

TEST(AgentHook, ActionIdsOutOfRangeAreRefused) {
  HookWorld w;
  w.hook.plan_actions = {0, 7};
  w.update();
  ASSERT_EQ(w.last.size(), 1u);
  EXPECT_EQ(no_plan_outcome(w.last[0]).status, PlanStatus::kGaveUp);
  EXPECT_EQ(no_plan_outcome(w.last[0]).detail, kDetailBadInput);
  EXPECT_EQ(w.world.plan_length(0), 0);
}

TEST(AgentHook, ReplanTriggersStillFire) {
  HookWorld w;
  w.update();
  // The engine reports the walk failed.
  w.world.action_failed(0);
  w.update();
  EXPECT_EQ(w.world.last_replan(0), ReplanReason::kActionFailed);
  EXPECT_EQ(w.hook.goals.size(), 2u);
  // A sensed fact breaks the running step (Walk needs pos = hall): the agent is seen in the room,
  // where nothing applies.
  w.hook.plan_actions = {};
  w.world.set_fact(0, 0, 2);
  w.update();
  EXPECT_EQ(w.world.last_replan(0), ReplanReason::kConditionBroken);
  EXPECT_TRUE(w.has(EventKind::kAbortAction, 0));
  EXPECT_EQ(w.hook.states.back(), (std::vector<ValueId>{2, 0}));
  // Back in the hall: the empty plan is over.
  w.hook.plan_actions = {0};
  w.world.set_fact(0, 0, 0);
  w.update();
  EXPECT_EQ(w.world.last_replan(0), ReplanReason::kPlanFinished);
  EXPECT_TRUE(w.has(EventKind::kStartAction, 0));
  // The world version: replanned at the agent's next due frame (period 5).
  const size_t asked = w.hook.goals.size();
  w.world.bump_world_version();
  for (int k = 0; k < 6; ++k) w.update();
  EXPECT_EQ(w.hook.goals.size(), asked + 1);
  EXPECT_EQ(w.world.last_replan(0), ReplanReason::kWorldChanged);
}

TEST(AgentHook, AGoalListsChoiceIsPassedOn) {
  HookWorld w;
  const ValueId u = kUndefined;
  const GoalId in = w.world.add_goal("in", std::vector<ValueId>{2, u}).value();
  const int32_t list = w.world.add_goal_list(std::vector<GoalId>{in}).value();
  w.world.set_goal_list(0, list);
  w.update();
  EXPECT_EQ(w.hook.goals, std::vector<GoalId>{in});
  EXPECT_TRUE(w.has(EventKind::kStartAction, 0));
  // Back to the crowd: it plans the goal itself.
  w.world.set_planner(nullptr);
  w.world.action_failed(0);
  w.update();
  EXPECT_EQ(w.hook.goals.size(), 1u);
  EXPECT_TRUE(w.has(EventKind::kPlanned, 3));
}

}  // namespace
}  // namespace topoplan::agents
