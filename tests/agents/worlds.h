// The worlds of the agents tests: the villager, Western's classes with their routines as goals,
// a scripted engine, the events' hash, and the validator's check of a plan an agent adopted.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"

namespace topoplan::agents {

// A villager: walk to the door, open it, walk into the shop, take bread, eat, sleep once fed.
// With `alarm`, a sixth variable and a seventh action: an alarm to silence first whenever it
// rings (the ids of the others do not change).
inline Domain village(bool alarm) {
  DomainDef d;
  d.name = "village";
  d.variables = {{"pos", {"home", "door", "shop"}},
                 {"door", {"closed", "open"}},
                 {"bread", {"shelf", "held", "gone"}},
                 {"hunger", {"hungry", "fed"}},
                 {"sleep", {"awake", "asleep"}}};
  auto act = [&](const char* name, Effect e, std::vector<Fact> prevail) {
    d.actions.push_back(ActionDef{name, 1, {e}, std::move(prevail)});
  };
  act("WalkToDoor", {0, 0, 1}, {});
  act("OpenDoor", {1, 0, 1}, {{0, 1}});
  act("WalkToShop", {0, 1, 2}, {{1, 1}});
  act("TakeBread", {2, 0, 1}, {{0, 2}});
  act("Eat", {3, 0, 1}, {{2, 1}});
  act("Sleep", {4, 0, 1}, {{3, 1}});
  if (alarm) {
    d.variables.push_back({"alarm", {"off", "on"}});
    act("SilenceAlarm", {5, 1, 0}, {});
  }
  NpcClassDef villager{"Villager", {}};
  for (ActionId a = 0; a < static_cast<ActionId>(d.actions.size()); ++a)
    villager.actions.push_back(a);
  d.classes = {villager};
  return Domain::compile(d).value();
}

// The plan agent `a` adopted is a plan from its believed state to `goal` (the validator's
// judgement).
inline void expect_adopted_plan_valid(const Domain& domain, const AgentWorld& world, AgentId a,
                                      std::span<const ValueId> goal) {
  Instance inst;
  inst.init.resize(static_cast<size_t>(domain.num_variables()));
  world.state(a, inst.init);
  inst.goal.assign(goal.begin(), goal.end());
  inst.npc_class = world.npc_class(a);
  std::vector<ActionId> p(static_cast<size_t>(world.plan_length(a)));
  world.plan(a, p);
  const Validation v = validate_plan(domain, inst, p);
  EXPECT_TRUE(v.valid) << v.reason;
}

// The determinism runs' settings: `agents` agents, each examined every 8 frames at least, in
// parts of at least `min_agents_per_part` agents.
inline AgentWorldDef run_def(int32_t agents, int32_t min_agents_per_part) {
  AgentWorldDef def;
  def.capacity = agents;
  def.decision_period = 8;
  def.min_agents_per_part = min_agents_per_part;
  return def;
}

// An agent world on Western with `def`, its crowd on a pool of `threads` workers when more
// than one (the pool outlives the world).
struct WesternWorld {
  Task task = western();
  CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  std::unique_ptr<CrowdThreadPool> pool;
  AgentWorld world;
  WesternWorld(AgentWorldDef def, int32_t threads) {
    if (threads > 1) {
      pool = std::make_unique<CrowdThreadPool>(threads);
      pool->install(def.crowd);
    }
    world = AgentWorld::create(planner, def).value();
  }
  // n agents of every class in turn, each in the first routine's initial state.
  void add_agents(int32_t n) {
    for (int32_t i = 0; i < n; ++i)
      EXPECT_TRUE(world.add_agent(i % task.domain.num_classes(), task.instances[0].init).ok());
  }
};

// A routine's goal as class c's goal: its values on the variables c's actions change, free
// elsewhere.
inline std::vector<ValueId> class_goal(const Domain& d, ClassId c, const Instance& routine) {
  std::vector<ValueId> g(routine.goal.size(), kUndefined);
  for (ActionId a : d.class_actions(c))
    for (const Effect& e : d.effects(a))
      g[static_cast<size_t>(e.var)] = routine.goal[static_cast<size_t>(e.var)];
  return g;
}

// The engine of the determinism runs: every action an agent starts finishes two frames later
// (unless aborted first).
struct ScriptedEngine {
  std::vector<int32_t> started;  // the frame an agent's running action started, or -1
  explicit ScriptedEngine(int32_t agents) : started(static_cast<size_t>(agents), -1) {}
  void finish_due(AgentWorld& world, int32_t frame) {
    for (size_t i = 0; i < started.size(); ++i)
      if (started[i] >= 0 && frame - started[i] >= 2) {
        world.action_finished(static_cast<AgentId>(i));
        started[i] = -1;
      }
  }
  void saw(const Event& e, int32_t frame) {
    if (e.kind == EventKind::kStartAction) started[static_cast<size_t>(e.agent)] = frame;
    if (e.kind == EventKind::kAbortAction) started[static_cast<size_t>(e.agent)] = -1;
  }
};

// FNV-1a over every field of the events, in order.
struct EventHash {
  uint64_t hash = 1469598103934665603ull;
  void add(const Event& e) {
    for (uint64_t x : {uint64_t(e.agent), uint64_t(e.kind), uint64_t(e.detail), uint64_t(e.step),
                       uint64_t(uint32_t(e.action)), uint64_t(uint32_t(e.goal))})
      hash = (hash ^ x) * 1099511628211ull;
  }
};

}  // namespace topoplan::agents
