// The villager of the agents tests, and the validator's check of a plan an agent adopted.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <span>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/validate.h"

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

}  // namespace topoplan::agents
