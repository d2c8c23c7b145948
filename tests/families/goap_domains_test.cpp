// The hand-made GOAP levels of domains/goap/: every instance loads, the exact search and the
// default planner (`auto`) agree on it (same status, same optimal cost), every plan validates,
// and the optimal lengths are the ones the files' comments state.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "source_path.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

// Optimal plan length per instance; -1 = unsolvable. `t1`: some optimal plan uses each action once.
struct Expect {
  int length;
  bool t1;
};

void check_level(const std::string& file, const std::map<std::string, Expect>& expected) {
  Result<Task> task = load_task(testing::source_path("domains/goap/") + file);
  ASSERT_TRUE(task.ok()) << task.error().to_string();
  ASSERT_EQ(task->instances.size(), expected.size()) << file;
  const PlannerInfo* automatic = find_planner("auto");
  ASSERT_NE(automatic, nullptr);
  for (const Instance& inst : task->instances) {
    SCOPED_TRACE(file + " / " + inst.name);
    const auto it = expected.find(inst.name);
    ASSERT_NE(it, expected.end());
    const PlanResult ex = plan_exact(task->domain, inst);
    const PlanResult au = automatic->plan(task->domain, inst, PlannerOptions{});
    ASSERT_NE(ex.status, PlanStatus::kLimitReached);
    EXPECT_EQ(au.status, ex.status) << au.message;
    if (it->second.length < 0) {
      EXPECT_EQ(ex.status, PlanStatus::kUnsolvable);
      continue;
    }
    ASSERT_EQ(ex.status, PlanStatus::kSolved) << ex.message;
    EXPECT_EQ(static_cast<int>(ex.actions.size()), it->second.length);
    EXPECT_TRUE(validate_plan(task->domain, inst, ex.actions).valid);
    const bool once =
        std::set<ActionId>(ex.actions.begin(), ex.actions.end()).size() == ex.actions.size();
    if (!it->second.t1) {
      EXPECT_FALSE(once) << "an optimal plan with each action once exists";
    }
    if (au.status != PlanStatus::kSolved) continue;
    const Validation v = validate_plan(task->domain, inst, au.actions);
    EXPECT_TRUE(v.valid) << au.stats.engine << ": " << v.reason;
    EXPECT_EQ(au.cost, ex.cost) << au.stats.engine;
    EXPECT_TRUE(au.stats.engine == "topo" || au.stats.engine == "topo-reach" ||
                au.stats.engine == "astar")
        << au.stats.engine;
  }
}

TEST(GoapDomains, CastleGuard) {
  check_level("castle-guard.toml", {{"raise-alarm", {5, true}},
                                    {"man-the-post", {3, true}},
                                    {"walk-the-wall", {2, true}},
                                    {"lock-down", {8, true}},
                                    {"alarm-and-beacon", {8, false}},
                                    {"recruit-sounds-alarm", {-1, false}}});
}

TEST(GoapDomains, FearSoldier) {
  check_level("fear-soldier.toml", {{"kill-enemy", {12, true}},
                                    {"take-cover", {2, true}},
                                    {"ready-at-cover-b", {6, true}},
                                    {"kill-and-fall-back", {9, false}},
                                    {"unarmed-grunt", {-1, false}},
                                    {"armed-grunt", {9, true}}});
}

TEST(GoapDomains, SimsHouse) {
  check_level("sims-house.toml", {{"morning", {8, true}},
                                  {"evening", {5, true}},
                                  {"chores", {5, true}},
                                  {"dinner-and-dishes", {8, false}},
                                  {"toddler-hungry", {-1, false}},
                                  {"toddler-lunch-and-nap", {4, true}}});
}

}  // namespace
}  // namespace topoplan
