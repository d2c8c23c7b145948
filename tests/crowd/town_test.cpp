// Crowd towns (topoplan/tools/town.h): seeded, deterministic, every NPC a valid input of its class.
#include "topoplan/tools/town.h"

#include <gtest/gtest.h>

#include <vector>

#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

TEST(CrowdTown, SameSeedSameTownOtherSeedOtherTown) {
  const Task task = western();
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  TownDef def;
  def.npcs = 2000;
  const CrowdTown a = CrowdTown::create(task, planner, def).value();
  const CrowdTown b = CrowdTown::create(task, planner, def).value();
  def.seed = 2;
  const CrowdTown c = CrowdTown::create(task, planner, def).value();
  const auto same = [](const CrowdBatch& x, const CrowdBatch& y) {
    return std::equal(x.npc_class.begin(), x.npc_class.end(), y.npc_class.begin()) &&
           std::equal(x.init.begin(), x.init.end(), y.init.begin()) &&
           std::equal(x.goal.begin(), x.goal.end(), y.goal.begin());
  };
  EXPECT_TRUE(same(a.batch(), b.batch()));
  EXPECT_FALSE(same(a.batch(), c.batch()));
  EXPECT_GT(a.distinct_situations(), planner.num_classes());
  EXPECT_LE(a.distinct_situations(), int64_t{64} * planner.num_classes());
}

TEST(CrowdTown, EveryNpcIsAValidInputOfItsClassAndClassesFollowTheWeights) {
  const Task task = western();
  const Domain& d = task.domain;
  const CrowdPlanner planner = CrowdPlanner::create(d).value();
  TownDef def;
  def.npcs = 5000;
  def.class_weights.assign(static_cast<size_t>(planner.num_classes()), 0.0);
  def.class_weights[1] = 3;
  def.class_weights[2] = 1;
  const CrowdTown town = CrowdTown::create(task, planner, def).value();
  const CrowdBatch batch = town.batch();
  const auto words = static_cast<size_t>(planner.layout().words());
  std::vector<ValueId> s0(static_cast<size_t>(d.num_variables()));
  std::vector<ValueId> goal(s0.size());
  std::vector<int64_t> per_class(static_cast<size_t>(planner.num_classes()), 0);
  for (size_t i = 0; i < batch.npc_class.size(); ++i) {
    const uint16_t c = batch.npc_class[i];
    ASSERT_LT(c, planner.num_classes());
    ++per_class[c];
    planner.layout().unpack_state(&batch.init[i * words], s0);
    planner.layout().unpack_goal(&batch.goal[i * words], goal);
    for (VarId v = 0; v < d.num_variables(); ++v) {
      ASSERT_LT(s0[static_cast<size_t>(v)], d.domain_size(v));
      const ValueId g = goal[static_cast<size_t>(v)];
      ASSERT_TRUE(g == kUndefined || g < d.domain_size(v));
    }
  }
  EXPECT_EQ(per_class[0], 0);
  EXPECT_GT(per_class[1], 2 * per_class[2]);  // 3:1, drawn
  EXPECT_GT(per_class[2], 0);
}

TEST(CrowdTown, RefusesBadDefinitions) {
  const Task task = western();
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  TownDef def;
  def.npcs = 0;
  EXPECT_FALSE(CrowdTown::create(task, planner, def).ok());
  def.npcs = 10;
  def.class_weights = {1.0};  // not one per class
  EXPECT_FALSE(CrowdTown::create(task, planner, def).ok());
  def.class_weights.assign(static_cast<size_t>(planner.num_classes()), 0.0);
  EXPECT_FALSE(CrowdTown::create(task, planner, def).ok());  // weights sum to zero
}

TEST(CrowdTown, BuiltInTownsByName) {
  for (std::string_view name : town_names()) {
    Result<Task> task = town_task(name);
    ASSERT_TRUE(task.ok()) << name;
    EXPECT_GT(task->domain.num_actions(), 0) << name;
  }
  const Result<Task> unknown = town_task("atlantis");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.error().message.find("western"), std::string::npos);
}

}  // namespace
}  // namespace topoplan
