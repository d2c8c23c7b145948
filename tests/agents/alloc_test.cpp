// update() allocates nothing at steady state: a Western world with sensed changes every frame,
// counted around update() and the senses, on the calling thread and on the built-in pool.
#include <gtest/gtest.h>

#include <vector>

#include "alloc_counter.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/random.h"
#include "topoplan/tools/families.h"
#include "worlds.h"

namespace topoplan::agents {
namespace {

// With `drives`, each class's goals form a drive list over two decaying drives, finished actions
// refill one, and the senses include drive values.
void run(int32_t threads, int32_t min_agents_per_part = AgentWorldDef{}.min_agents_per_part,
         bool drives = false) {
  const Task task = western();
  const Domain& d = task.domain;
  const CrowdPlanner planner = CrowdPlanner::create(d).value();
  AgentWorldDef def;
  def.capacity = 3000;
  def.decision_period = 4;
  def.max_plan_age = 20;
  def.min_agents_per_part = min_agents_per_part;
  CrowdThreadPool pool(threads);
  if (threads > 1) pool.install(def.crowd);
  AgentWorld world = AgentWorld::create(planner, def).value();
  if (drives) {
    ASSERT_TRUE(world.add_drive({"rest", 0, 100, -2.0, 50}).ok());
    ASSERT_TRUE(world.add_drive({"food", 0, 100, -5.0, 50}).ok());
    for (ActionId a = 0; a < d.num_actions(); ++a)
      ASSERT_FALSE(world.set_action_drive_effect(a, a % 2, 20.0).has_value());
  }
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    std::vector<GoalId> list;
    std::vector<DriveGoal> scored;
    for (const Instance& inst : task.instances)
      if (inst.npc_class == c) {
        list.push_back(world.add_goal(inst.name, class_goal(d, c, inst)).value());
        scored.push_back(
            {list.back(), static_cast<DriveId>(list.size() % 2), udgoap::Curve::linear(), 1.0});
      }
    const int32_t id =
        drives ? world.add_drive_list(scored, 0.05).value() : world.add_goal_list(list).value();
    ASSERT_FALSE(world.set_class_goals(c, id).has_value());
  }
  for (int32_t i = 0; i < def.capacity; ++i)
    ASSERT_TRUE(world.add_agent(i % d.num_classes(), task.instances[0].init).ok());
  std::vector<Event> events(static_cast<size_t>(def.capacity) * 8);
  SplitMix64 rng(3);
  int64_t planned = 0;
  auto frame = [&] {
    for (int32_t k = 0; k < def.capacity / 20; ++k) {
      const int32_t i = rng.below(def.capacity);
      const ActionId a = d.class_actions(world.npc_class(i))[0];
      const VarId v = d.effects(a)[0].var;
      world.set_fact(i, v, rng.below(d.domain_size(v)));
      if (world.running_action(i) >= 0 && (k & 1) != 0) world.action_finished(i);
      if (drives && (k & 3) == 0) world.set_drive(i, k % 2, rng.below(101));
    }
    planned += world.update(1.0 / 60, events).planned;
  };
  for (int k = 0; k < 60; ++k) frame();  // warm: the cache and the worker memos fill
  planned = 0;
  const int64_t before = testing::allocation_count();
  for (int k = 0; k < 60; ++k) frame();
  EXPECT_EQ(testing::allocation_count() - before, 0);
  EXPECT_GT(planned, 0);  // the measured frames did plan
}

TEST(AgentsAlloc, UpdateAllocatesNothingAtSteadyState) {
  run(1);
}
TEST(AgentsAlloc, UpdateAllocatesNothingOnThePool) {
  run(2);
}
// The examination in parts on the pool: the parts' buffers are reused from frame to frame.
TEST(AgentsAlloc, UpdateAllocatesNothingWithTheExaminationInParts) {
  run(2, 64);
}
// Goals chosen from drive lists: drives live in arrays sized when they are declared.
TEST(AgentsAlloc, UpdateAllocatesNothingWithDriveLists) {
  run(1, AgentWorldDef{}.min_agents_per_part, true);
  run(2, 64, true);
}

}  // namespace
}  // namespace topoplan::agents
