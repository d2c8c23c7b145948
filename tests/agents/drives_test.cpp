// Drives as a goal source (agents.h, drive lists): the goal of highest utility gain, against a
// brute-force maximum over the list; a drive change that makes another goal better replans with
// kBetterGoal, a smaller one (within the margin) does not; rates and action effects move the
// drives; the events are the same on any thread count. Every adopted plan is validated from the
// believed state.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
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

constexpr ActionId kWalkToDoor = 0, kEat = 4;
constexpr DriveId kHungerDrive = 0, kEnergyDrive = 1;

// Validates every adopted plan of `events` from the agent's believed state to its goal.
void check_plans(const Domain& domain, const AgentWorld& world,
                 const std::vector<std::vector<ValueId>>& goal_values,
                 std::span<const Event> events) {
  for (const Event& e : events)
    if (e.kind == EventKind::kPlanned)
      expect_adopted_plan_valid(domain, world, e.agent, goal_values[static_cast<size_t>(e.goal)]);
}

struct DriveVillage {
  Domain domain = village(/*alarm=*/false);
  CrowdPlanner planner = CrowdPlanner::create(domain).value();
  AgentWorld world;
  GoalId fed = 0, rested = 0;
  std::vector<std::vector<ValueId>> goal_values;
  std::vector<Event> events = std::vector<Event>(256);
  std::vector<Event> last;

  explicit DriveVillage(double margin, double hunger_rate = 0.0) {
    AgentWorldDef def;
    def.capacity = 4;
    def.decision_period = 1000;  // only changes examine the agent
    world = AgentWorld::create(planner, def).value();
    const ValueId u = kUndefined;
    goal_values = {{u, u, u, 1, u}, {u, u, u, u, 1}};
    fed = world.add_goal("fed", goal_values[0]).value();
    rested = world.add_goal("rested", goal_values[1]).value();
    EXPECT_EQ(world.add_drive({"hunger", 0, 100, hunger_rate, 50}).value(), kHungerDrive);
    EXPECT_EQ(world.add_drive({"energy", 0, 100, 0, 50}).value(), kEnergyDrive);
    const std::vector<DriveGoal> list = {{fed, kHungerDrive, udgoap::Curve::linear(), 1.0},
                                         {rested, kEnergyDrive, udgoap::Curve::linear(), 1.0}};
    EXPECT_FALSE(world.set_class_goals(0, world.add_drive_list(list, margin).value()).has_value());
    EXPECT_FALSE(world.set_action_drive_effect(kEat, kHungerDrive, 60).has_value());
    EXPECT_TRUE(world.add_agent(0, std::vector<ValueId>{0, 0, 0, 0, 0}).ok());
  }
  UpdateStats update(double dt = 1.0 / 60) {
    const UpdateStats s = world.update(dt, events);
    last.assign(events.begin(), events.begin() + s.events);
    check_plans(domain, world, goal_values, last);
    return s;
  }
  const Event* find(EventKind kind) const {
    for (const Event& e : last)
      if (e.kind == kind) return &e;
    return nullptr;
  }
};

TEST(AgentDrives, GoalOfHighestGainIsChosen) {
  DriveVillage v(0.0);
  v.world.set_drive(0, kHungerDrive, 20);  // gain 0.8
  v.world.set_drive(0, kEnergyDrive, 70);  // gain 0.3
  v.update();
  ASSERT_NE(v.find(EventKind::kGoalChanged), nullptr);
  EXPECT_EQ(v.find(EventKind::kGoalChanged)->goal, v.fed);
  EXPECT_DOUBLE_EQ(v.world.goal_score(0), 0.8);
  ASSERT_NE(v.find(EventKind::kPlanned), nullptr);
  EXPECT_EQ(v.find(EventKind::kPlanned)->detail, static_cast<uint8_t>(ReplanReason::kNoPlan));
  EXPECT_EQ(v.world.running_action(0), kWalkToDoor);
}

TEST(AgentDrives, DriveChangeReplansForTheBetterGoalBeyondTheMargin) {
  DriveVillage v(0.1);
  v.world.set_drive(0, kHungerDrive, 20);  // fed: 0.8
  v.world.set_drive(0, kEnergyDrive, 70);  // rested: 0.3
  v.update();
  ASSERT_EQ(v.world.goal(0), v.fed);
  // Within the margin (0.85 <= 0.8 + 0.1): the agent keeps its goal and its plan.
  v.world.set_drive(0, kEnergyDrive, 15);
  UpdateStats s = v.update();
  EXPECT_EQ(s.examined, 1);
  EXPECT_EQ(s.planned, 0);
  EXPECT_TRUE(v.last.empty());
  EXPECT_EQ(v.world.goal(0), v.fed);
  // Beyond it (0.95 > 0.9): rested replaces fed, replanned as a better goal.
  v.world.set_drive(0, kEnergyDrive, 5);
  s = v.update();
  EXPECT_EQ(s.replans[static_cast<size_t>(ReplanReason::kBetterGoal)], 1);
  ASSERT_NE(v.find(EventKind::kGoalChanged), nullptr);
  EXPECT_EQ(v.find(EventKind::kGoalChanged)->goal, v.rested);
  ASSERT_NE(v.find(EventKind::kPlanned), nullptr);
  EXPECT_EQ(v.find(EventKind::kPlanned)->detail, static_cast<uint8_t>(ReplanReason::kBetterGoal));
  EXPECT_EQ(v.world.last_replan(0), ReplanReason::kBetterGoal);
  EXPECT_DOUBLE_EQ(v.world.goal_score(0), 0.95);
  // A goal change stops the running action, and the new plan starts its own first action.
  ASSERT_NE(v.find(EventKind::kAbortAction), nullptr);
  EXPECT_EQ(v.find(EventKind::kAbortAction)->detail,
            static_cast<uint8_t>(ReplanReason::kBetterGoal));
  EXPECT_EQ(v.world.running_action(0), kWalkToDoor);
}

TEST(AgentDrives, RatesAndFinishedActionsMoveTheDrives) {
  DriveVillage v(0.0, -10.0);  // hunger decays by 10 per second
  v.world.set_drive(0, kEnergyDrive, 100);
  v.update(0.5);
  EXPECT_DOUBLE_EQ(v.world.drive(0, kHungerDrive), 45.0);
  v.update(2.0);
  EXPECT_DOUBLE_EQ(v.world.drive(0, kHungerDrive), 25.0);
  EXPECT_DOUBLE_EQ(v.world.drive(0, kEnergyDrive), 100.0);
  v.update(10.0);
  EXPECT_DOUBLE_EQ(v.world.drive(0, kHungerDrive), 0.0);  // clamped to its range
  // Walk, open, walk, take, eat: Eat adds 60 to hunger when it finishes.
  for (int k = 0; k < 5; ++k) {
    v.world.action_finished(0);
    v.update(0.0);
  }
  EXPECT_DOUBLE_EQ(v.world.drive(0, kHungerDrive), 60.0);
  ASSERT_NE(v.find(EventKind::kGoalReached), nullptr);
  EXPECT_EQ(v.find(EventKind::kGoalReached)->goal, v.fed);
}

TEST(AgentDrives, NothingToGainIsNoGoal) {
  DriveVillage v(0.0);
  v.world.set_drive(0, kHungerDrive, 100);
  v.world.set_drive(0, kEnergyDrive, 100);
  const UpdateStats s = v.update();
  EXPECT_EQ(s.planned, 0);
  EXPECT_EQ(v.world.goal(0), kNoGoal);
  v.world.set_drive(0, kEnergyDrive, 40);
  v.update();
  EXPECT_EQ(v.world.goal(0), v.rested);
}

TEST(AgentDrives, BadDefinitionsAreRefused) {
  DriveVillage v(0.0);
  auto says = [](const auto& r, const char* text) {
    return r.has_value() && r->to_string().find(text) != std::string::npos;
  };
  // Drives come before the first agent.
  const Result<DriveId> late = v.world.add_drive({"late", 0, 1, 0, 0});
  ASSERT_FALSE(late.ok());
  EXPECT_NE(late.error().to_string().find("before the first agent"), std::string::npos);
  const std::vector<DriveGoal> no_goal = {{7, 0, udgoap::Curve::linear(), 1.0}};
  EXPECT_FALSE(v.world.add_drive_list(no_goal).ok());
  const std::vector<DriveGoal> no_drive = {{v.fed, 9, udgoap::Curve::linear(), 1.0}};
  EXPECT_FALSE(v.world.add_drive_list(no_drive).ok());
  const std::vector<DriveGoal> bad_weight = {{v.fed, 0, udgoap::Curve::linear(), -1.0}};
  EXPECT_FALSE(v.world.add_drive_list(bad_weight).ok());
  udgoap::Curve steep = udgoap::Curve::linear();
  steep.slope = 1e9;
  const std::vector<DriveGoal> bad_curve = {{v.fed, 0, steep, 1.0}};
  const Result<int32_t> curve = v.world.add_drive_list(bad_curve);
  ASSERT_FALSE(curve.ok());
  EXPECT_NE(curve.error().to_string().find("entry 0"), std::string::npos);
  EXPECT_FALSE(v.world.add_drive_list({}, -1.0).ok());
  EXPECT_FALSE(v.world.add_drive_list({}, std::nan("")).ok());
  EXPECT_TRUE(says(v.world.set_action_drive_effect(99, 0, 1.0), "no action 99"));
  EXPECT_TRUE(says(v.world.set_action_drive_effect(0, 5, 1.0), "no drive 5"));
  EXPECT_TRUE(says(v.world.set_action_drive_effect(0, 0, INFINITY), "finite"));

  const Task task = western();
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  AgentWorld w = AgentWorld::create(planner).value();
  EXPECT_FALSE(w.add_drive({"", 0, 1, 0, 0}).ok());
  EXPECT_FALSE(w.add_drive({"empty", 1, 1, 0, 0}).ok());
  EXPECT_FALSE(w.add_drive({"inf", 0, INFINITY, 0, 0}).ok());
  EXPECT_FALSE(w.add_drive({"rate", 0, 1, std::nan(""), 0}).ok());
  for (int32_t d = 0; d < kMaxDrives; ++d)
    ASSERT_TRUE(w.add_drive({"d" + std::to_string(d), 0, 1, 0, 0}).ok());
  EXPECT_FALSE(w.add_drive({"one-too-many", 0, 1, 0, 0}).ok());
}

// The brute-force reference: every entry's gain from the curve's definition, the best among the
// goals that do not hold (ties: the first), and the commitment rule.
struct Choice {
  GoalId goal = kNoGoal;
  double score = 0.0;
};
Choice reference(const std::vector<DriveGoal>& list, const std::vector<DriveDef>& drives,
                 const std::vector<double>& value, const std::vector<uint8_t>& holds,
                 GoalId current, double committed, double margin, int64_t& held) {
  Choice best;
  double current_now = 0.0;
  for (const DriveGoal& e : list) {
    if (holds[static_cast<size_t>(e.goal)] != 0) continue;
    const DriveDef& d = drives[static_cast<size_t>(e.drive)];
    const double x =
        std::clamp((value[static_cast<size_t>(e.drive)] - d.min) / (d.max - d.min), 0.0, 1.0);
    const double gain = e.weight * (1.0 - udgoap::evaluate(e.curve, x));
    if (e.goal == current) current_now = std::max(current_now, gain);
    if (gain > best.score) best = {e.goal, gain};
  }
  if (current != kNoGoal && current != best.goal && current_now > 0.0 &&
      best.score <= committed + margin) {
    if (best.score > committed) ++held;  // kept by the margin alone
    return {current, committed};
  }
  // A goal that stays the best keeps the score it was adopted with.
  if (current != kNoGoal && current == best.goal) return {current, committed};
  return best;
}

// A village world of random goals, drives, a random drive list and 16 agents of random states
// and drive values: what the brute-force reference needs to know of it.
struct RandomDrives {
  std::vector<std::vector<ValueId>> goal_values;  // six partial goals over five variables
  std::vector<DriveDef> drives;
  std::vector<DriveGoal> list;
  double margin = 0;
  std::vector<std::vector<ValueId>> states;
  std::vector<std::vector<double>> values;  // per agent, per drive
};

constexpr int32_t kRandomAgents = 16;

// Adds r's random goals, drives, drive list (class 0's goals) and agents to `world`.
void add_random_drives(const Domain& domain, int32_t world_seed, SplitMix64& rng, AgentWorld& world,
                       RandomDrives& r) {
  for (int32_t g = 0; g < 6; ++g) {
    std::vector<ValueId> values(5, kUndefined);
    const int32_t fields = 1 + rng.below(2);
    for (int32_t k = 0; k < fields; ++k) {
      const auto var = static_cast<VarId>(rng.below(5));
      values[static_cast<size_t>(var)] = rng.below(domain.domain_size(var));
    }
    r.goal_values.push_back(values);
    ASSERT_TRUE(world.add_goal("g" + std::to_string(g), values).ok());
  }
  for (int32_t d = 0; d < 3; ++d) {
    const double lo = rng.below(50) - 25.0;
    r.drives.push_back({"d" + std::to_string(d), lo, lo + 1.0 + rng.below(200), 0.0, lo});
    ASSERT_TRUE(world.add_drive(r.drives.back()).ok());
  }
  const int32_t entries = 1 + rng.below(8);
  for (int32_t k = 0; k < entries; ++k) {
    udgoap::Curve c;
    c.type = static_cast<udgoap::CurveType>(rng.below(6));
    c.slope = (rng.below(41) - 20) / 4.0;
    c.exponent = 1 + rng.below(4);
    c.x_shift = rng.below(5) / 10.0;
    c.y_shift = rng.below(5) / 10.0;
    r.list.push_back({rng.below(6), rng.below(3), c, rng.below(5) / 2.0});
  }
  r.margin = world_seed % 2 == 0 ? 0.0 : rng.below(4) / 10.0;
  ASSERT_TRUE(world.set_class_goals(0, world.add_drive_list(r.list, r.margin).value()) ==
              std::nullopt);
  for (int32_t i = 0; i < kRandomAgents; ++i) {
    std::vector<ValueId> s(5);
    for (VarId var = 0; var < 5; ++var)
      s[static_cast<size_t>(var)] = rng.below(domain.domain_size(var));
    ASSERT_TRUE(world.add_agent(0, s).ok());
    std::vector<double> v;
    for (size_t d = 0; d < r.drives.size(); ++d) {
      v.push_back(r.drives[d].min + (r.drives[d].max - r.drives[d].min) * rng.below(101) / 100.0);
      world.set_drive(i, static_cast<DriveId>(d), v.back());
    }
    r.states.push_back(s);
    r.values.push_back(v);
  }
}

// The reference's choice for every agent of the world as it stands.
std::vector<Choice> reference_choices(const AgentWorld& world, RandomDrives& r, int64_t& held) {
  std::vector<Choice> want(static_cast<size_t>(kRandomAgents));
  for (int32_t i = 0; i < kRandomAgents; ++i) {
    const auto u = static_cast<size_t>(i);
    world.state(i, r.states[u]);
    std::vector<uint8_t> holds;
    for (const auto& g : r.goal_values) {
      bool h = true;
      for (size_t var = 0; var < g.size(); ++var)
        h = h && (g[var] == kUndefined || g[var] == r.states[u][var]);
      holds.push_back(h ? 1 : 0);
    }
    want[u] = reference(r.list, r.drives, r.values[u], holds, world.goal(i), world.goal_score(i),
                        r.margin, held);
  }
  return want;
}

// New drive values for the next round: a new draw, or a step of up to a tenth of the range (so
// that some choices fall within the margin); some agents keep their goal, some switch.
void move_drives(SplitMix64& rng, AgentWorld& world, RandomDrives& r) {
  for (int32_t i = 0; i < kRandomAgents; ++i) {
    const auto u = static_cast<size_t>(i);
    for (size_t d = 0; d < r.drives.size(); ++d) {
      const DriveDef& drive = r.drives[d];
      const double range = drive.max - drive.min;
      const int32_t how = rng.below(3);
      if (how == 0) continue;
      r.values[u][d] = how == 1 ? drive.min + range * rng.below(101) / 100.0
                                : std::clamp(r.values[u][d] + range * (rng.below(21) - 10) / 100.0,
                                             drive.min, drive.max);
      world.set_drive(i, static_cast<DriveId>(d), r.values[u][d]);
    }
  }
}

TEST(AgentDrives, ChosenGoalIsTheBruteForceMaximum) {
  const Domain domain = village(/*alarm=*/false);
  const CrowdPlanner planner = CrowdPlanner::create(domain).value();
  SplitMix64 rng(11);
  int64_t checked = 0, kept = 0, switched = 0, held = 0;
  for (int32_t world_seed = 0; world_seed < 40; ++world_seed) {
    AgentWorldDef def;
    def.capacity = 64;
    def.decision_period = 1;
    AgentWorld world = AgentWorld::create(planner, def).value();
    RandomDrives r;
    ASSERT_NO_FATAL_FAILURE(add_random_drives(domain, world_seed, rng, world, r));
    std::vector<Event> events(1024);
    // One update examines every agent (period 1): compare each against the reference.
    for (int32_t round = 0; round < 6; ++round) {
      const std::vector<Choice> want = reference_choices(world, r, held);
      const UpdateStats s = world.update(0.0, events);
      ASSERT_EQ(s.events_dropped, 0);
      check_plans(domain, world, r.goal_values,
                  std::span<const Event>(events).first(static_cast<size_t>(s.events)));
      for (int32_t i = 0; i < kRandomAgents; ++i) {
        const auto u = static_cast<size_t>(i);
        EXPECT_EQ(world.goal(i), want[u].goal) << "world " << world_seed << " agent " << i;
        if (want[u].goal != kNoGoal) {
          EXPECT_DOUBLE_EQ(world.goal_score(i), want[u].score);
        }
        ++checked;
      }
      move_drives(rng, world, r);
    }
    for (int32_t i = 0; i < kRandomAgents; ++i) {
      if (world.goal(i) == kNoGoal) continue;
      (world.last_replan(i) == ReplanReason::kBetterGoal ? switched : kept) += 1;
    }
  }
  EXPECT_EQ(checked, 40 * 16 * 6);
  EXPECT_GT(switched, 0);  // the runs do replan for better goals
  EXPECT_GT(kept, 0);
  EXPECT_GT(held, 0);  // the margin decided some choices
}

// Western agents whose goals are their class's routines, each answering one of three drives
// that decay at their own rates; finished actions refill a drive; a share of the agents is
// told a new drive value every frame. Returns a hash of the events.
uint64_t western_drives_run(int32_t threads, int32_t min_agents_per_part) {
  const int32_t agents = 5000, frames = 30;
  WesternWorld w(run_def(agents, min_agents_per_part), threads);
  const Task& task = w.task;
  const Domain& d = task.domain;
  AgentWorld& world = w.world;
  for (int32_t k = 0; k < 3; ++k)
    EXPECT_TRUE(world.add_drive({"need" + std::to_string(k), 0, 100, -3.0 - k, 60}).ok());
  for (ActionId a = 0; a < d.num_actions(); ++a)
    EXPECT_FALSE(world.set_action_drive_effect(a, a % 3, 25.0).has_value());
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    std::vector<DriveGoal> list;
    for (const Instance& inst : task.instances) {
      if (inst.npc_class != c) continue;
      const GoalId id = world.add_goal(inst.name, class_goal(d, c, inst)).value();
      const auto k = static_cast<int32_t>(list.size());
      list.push_back({id, k % 3, udgoap::Curve::linear(), 1.0 + k});
    }
    EXPECT_FALSE(world.set_class_goals(c, world.add_drive_list(list, 0.05).value()).has_value());
  }
  w.add_agents(agents);
  std::vector<Event> events(static_cast<size_t>(agents) * 8);
  ScriptedEngine engine(agents);
  SplitMix64 rng(5);
  EventHash hash;
  int64_t better = 0;
  for (int32_t f = 0; f < frames; ++f) {
    engine.finish_due(world, f);
    for (int32_t k = 0; k < agents / 20; ++k)
      world.set_drive(rng.below(agents), rng.below(3), rng.below(101));
    const UpdateStats s = world.update(0.25, events);
    EXPECT_EQ(s.events_dropped, 0);
    better += s.replans[static_cast<size_t>(ReplanReason::kBetterGoal)];
    for (int64_t k = 0; k < s.events; ++k) {
      hash.add(events[static_cast<size_t>(k)]);
      engine.saw(events[static_cast<size_t>(k)], f);
    }
  }
  EXPECT_GT(better, 0);
  return hash.hash;
}

TEST(AgentDrives, EventsAreIdenticalForAnyThreadCount) {
  const uint64_t one = western_drives_run(1, AgentWorldDef{}.min_agents_per_part);
  EXPECT_EQ(one, western_drives_run(2, AgentWorldDef{}.min_agents_per_part));
  EXPECT_EQ(one, western_drives_run(2, 64));
  EXPECT_EQ(one, western_drives_run(3, 192));
}

}  // namespace
}  // namespace topoplan::agents
