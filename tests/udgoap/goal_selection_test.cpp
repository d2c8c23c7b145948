// Goal selection for crowds: the chosen goal is the hand-computed best, the batch equals one
// call per NPC (and any cut into ranges), and ℙ's plans for the selected goals — through the
// crowd batch API — are valid and equal to TopoPlanner's one by one.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"
#include "topoplan/udgoap/goal_selection.h"

namespace topoplan::udgoap {
namespace {

int32_t goal_index(const GoalSelectionDef& def, const std::string& name) {
  for (size_t g = 0; g < def.goals.size(); ++g) {
    if (def.goals[g].name == name) return static_cast<int32_t>(g);
  }
  ADD_FAILURE() << "no goal " << name;
  return -1;
}

int32_t fact_index(const GoalSelectionDef& def, const std::string& name) {
  for (size_t f = 0; f < def.facts.size(); ++f) {
    if (def.facts[f].name == name) return static_cast<int32_t>(f);
  }
  ADD_FAILURE() << "no fact " << name;
  return -1;
}

struct Western {
  Task task = western();
  GoalSelector selector =
      GoalSelector::create(task.domain, western_goal_selection(task.domain)).value();
  const GoalSelectionDef& def() const { return selector.def(); }
  // Dawn state, every need 0, then the given needs.
  std::vector<float> facts(std::initializer_list<std::pair<const char*, float>> needs) const {
    std::vector<float> f(def().facts.size(), 0.0f);
    for (const auto& [name, value] : needs) f[static_cast<size_t>(fact_index(def(), name))] = value;
    return f;
  }
  int32_t choose(const char* npc_class, const std::vector<float>& facts, double* gain) const {
    std::vector<ValueId> s0(static_cast<size_t>(task.domain.num_variables()));
    std::vector<ValueId> goal(s0.size());
    return selector.select_one(*task.domain.find_class(npc_class), facts, s0, goal, gain);
  }
};

TEST(GoalSelection, FactorsAreDriveAndGoalWeightShares) {
  const Western w;
  // Sheriff: keep_the_law (2) with one goal, stay_safe (1) with one goal.
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "bring_in_the_outlaw")), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "arm_yourself")), 1.0 / 3.0);
  // HorseBreeder: one drive, goals 2 and 1.
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "feed_the_horses")), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "water_the_horses")), 1.0 / 3.0);
  // Shopkeeper: trade (2) = restock (2) + open (1); bookkeeping (1) = ledger.
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "restock_the_store")), 2.0 / 3 * 2.0 / 3);
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "open_the_shop")), 2.0 / 3 * 1.0 / 3);
  EXPECT_DOUBLE_EQ(w.selector.factor(goal_index(w.def(), "balance_the_ledger")), 1.0 / 3);
}

TEST(GoalSelection, ChosenGoalIsTheHandComputedBest) {
  const Western w;
  double gain = 0;
  // Sheriff, outlaw need 50, danger need 90: 2/3·0.5 = 0.333 > 1/3·0.9 = 0.3.
  EXPECT_EQ(w.choose("Sheriff",
                     w.facts({{"bring_in_the_outlaw_need", 50}, {"arm_yourself_need", 90}}), &gain),
            goal_index(w.def(), "bring_in_the_outlaw"));
  EXPECT_NEAR(gain, 1.0 / 3.0, 1e-6);
  // Outlaw need 40: 0.267 < 0.3.
  EXPECT_EQ(w.choose("Sheriff",
                     w.facts({{"bring_in_the_outlaw_need", 40}, {"arm_yourself_need", 90}}), &gain),
            goal_index(w.def(), "arm_yourself"));
  EXPECT_NEAR(gain, 0.3, 1e-6);
  // A tie (2/3·0.5 = 1/3·1.0) goes to the goal listed first.
  EXPECT_EQ(
      w.choose("Sheriff", w.facts({{"bring_in_the_outlaw_need", 50}, {"arm_yourself_need", 100}}),
               &gain),
      goal_index(w.def(), "bring_in_the_outlaw"));
  // Shopkeeper: restock 4/9·0.3 = 0.133, open 2/9·0.9 = 0.2, ledger 1/3·0.5 = 0.167 → open.
  EXPECT_EQ(w.choose("Shopkeeper",
                     w.facts({{"restock_the_store_need", 30},
                              {"open_the_shop_need", 90},
                              {"balance_the_ledger_need", 50}}),
                     &gain),
            goal_index(w.def(), "open_the_shop"));
  EXPECT_NEAR(gain, 0.2, 1e-6);
  // Nothing needed: no goal.
  EXPECT_EQ(w.choose("Cook", w.facts({}), &gain), -1);
  EXPECT_EQ(gain, 0.0);
}

TEST(GoalSelection, GoalsWhoseTargetsHoldAreComplete) {
  const Western w;
  // HorseBreeder: water need 80 (1/3·0.8 = 0.267) beats feed need 30 (2/3·0.3 = 0.2) ...
  auto facts = w.facts({{"feed_the_horses_need", 30}, {"water_the_horses_need", 80}});
  double gain = 0;
  EXPECT_EQ(w.choose("HorseBreeder", facts, &gain), goal_index(w.def(), "water_the_horses"));
  // ... unless the trough is already full (fact "water" projects to inTrough = 2).
  facts[static_cast<size_t>(fact_index(w.def(), "water"))] = 2.0f;
  EXPECT_EQ(w.choose("HorseBreeder", facts, &gain), goal_index(w.def(), "feed_the_horses"));
  EXPECT_NEAR(gain, 0.2, 1e-6);
}

TEST(GoalSelection, ProjectionRoundsClampsAndBuckets) {
  DomainDef d;
  d.name = "p";
  d.variables = {{"mood", {"calm", "tense", "angry"}}, {"door", {"shut", "open"}}};
  d.actions = {{"open", 1, {{1, 0, 1}}, {}}};
  d.classes = {{"guard", {0}}};
  const Domain domain = Domain::compile(d).value();
  GoalSelectionDef def;
  def.facts = {{"anger", 0, 100}, {"door", 0, 1}};
  def.projection = {{0, {30.0, 70.0}}, {1, {}}};
  def.drives = {{"work", 1}};
  def.goals = {{"open_up", 0, 0, 1, 0, Curve::linear(), {{1, 1}}}};
  const GoalSelector s = GoalSelector::create(domain, def).value();
  std::vector<ValueId> s0(2), goal(2);
  const std::vector<std::pair<std::vector<float>, std::vector<ValueId>>> cases = {
      {{10, 0}, {0, 0}},
      {{30, 0.4f}, {1, 0}},
      {{69.9f, 0.6f}, {1, 1}},
      {{95, 7}, {2, 1}},
      {{95, -3}, {2, 0}}};
  for (const auto& [facts, expected] : cases) {
    s.select_one(0, facts, s0, goal);
    EXPECT_EQ(s0, expected) << facts[0] << " " << facts[1];
  }
  // Linear completeness of anger 10 is 0.1: gain 0.9; goal = s0 with door open.
  double gain = 0;
  EXPECT_EQ(s.select_one(0, std::vector<float>{10, 0}, s0, goal, &gain), 0);
  EXPECT_NEAR(gain, 0.9, 1e-6);
  EXPECT_EQ(goal, (std::vector<ValueId>{0, 1}));
  // Errors name what is wrong.
  GoalSelectionDef bad = def;
  bad.goals[0].drive = 3;
  EXPECT_FALSE(GoalSelector::create(domain, bad).ok());
  bad = def;
  bad.projection[0].thresholds = {70, 30};
  EXPECT_FALSE(GoalSelector::create(domain, bad).ok());
  bad = def;
  bad.projection.pop_back();
  EXPECT_FALSE(GoalSelector::create(domain, bad).ok());
}

struct Selected {
  std::vector<int32_t> goal;
  std::vector<float> gain;
  std::vector<uint64_t> init, packed_goal;
  explicit Selected(int64_t n, int32_t words)
      : goal(static_cast<size_t>(n)),
        gain(static_cast<size_t>(n)),
        init(static_cast<size_t>(n * words)),
        packed_goal(static_cast<size_t>(n * words)) {}
  GoalSelectionOutput out() { return {goal, gain, init, packed_goal}; }
  friend bool operator==(const Selected&, const Selected&) = default;
};

TEST(GoalSelection, BatchEqualsOneByOneAndAnyCut) {
  const Western w;
  const int64_t n = 3000;
  // A seeded crowd (town.h: random classes and drives, a quarter with a variable off dawn).
  const GoalTown in = make_goal_town(w.task.domain, n, w.selector.num_facts(), 42);
  const GoalSelectionBatch batch{in.npc_class, in.facts};
  const int32_t words = w.selector.layout().words();
  Selected whole(n, words), ranges(n, words), single(n, words);
  w.selector.select(batch, 0, n, whole.out());
  for (int64_t b = 0; b < n; b += 77)
    w.selector.select(batch, b, std::min(n, b + 77), ranges.out());
  EXPECT_TRUE(whole == ranges);
  const int32_t m = w.task.domain.num_variables();
  std::vector<float> facts(static_cast<size_t>(w.selector.num_facts()));
  std::vector<ValueId> s0(static_cast<size_t>(m)), goal(static_cast<size_t>(m)),
      unpacked(s0.size());
  int64_t chosen = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int32_t k = 0; k < w.selector.num_facts(); ++k) {
      facts[static_cast<size_t>(k)] = in.facts[static_cast<size_t>(k * n + i)];
    }
    double gain = 0;
    const int32_t g =
        w.selector.select_one(in.npc_class[static_cast<size_t>(i)], facts, s0, goal, &gain);
    ASSERT_EQ(g, whole.goal[static_cast<size_t>(i)]) << i;
    EXPECT_EQ(static_cast<float>(gain), whole.gain[static_cast<size_t>(i)]);
    w.selector.layout().unpack_state(whole.init.data() + i * words, unpacked);
    EXPECT_EQ(unpacked, s0);
    w.selector.layout().unpack_state(whole.packed_goal.data() + i * words, unpacked);
    EXPECT_EQ(unpacked, goal);
    chosen += g >= 0;
  }
  EXPECT_GT(chosen, n * 9 / 10);
}

TEST(GoalSelection, SelectedGoalsFeedTheCrowdPlannerAndPlansAreValid) {
  const Western w;
  const int64_t n = 2000;
  const GoalTown in = make_goal_town(w.task.domain, n, w.selector.num_facts(), 7);
  const int32_t words = w.selector.layout().words();
  Selected sel(n, words);
  w.selector.select({in.npc_class, in.facts}, 0, n, sel.out());
  const CrowdPlanner planner = CrowdPlanner::create(w.task.domain).value();
  ASSERT_EQ(planner.layout().words(), words);
  Crowd crowd = Crowd::create(planner).value();
  std::vector<ActionId> actions(static_cast<size_t>(n * planner.max_plan_length()));
  std::vector<uint32_t> offset(static_cast<size_t>(n));
  std::vector<uint16_t> length(static_cast<size_t>(n));
  std::vector<CrowdStatus> status(static_cast<size_t>(n));
  const CrowdStats stats =
      crowd.plan({in.npc_class, sel.init, sel.packed_goal}, {actions, offset, length, status});
  EXPECT_TRUE(stats.complete);
  // One by one with ℙ on the whole domain, per class, and the validator.
  std::vector<TopoPlanner> topo;
  std::vector<TopoScratch> scratch;
  for (ClassId c = 0; c < w.task.domain.num_classes(); ++c) {
    topo.push_back(TopoPlanner::create(w.task.domain, c).value());
  }
  for (const TopoPlanner& p : topo) scratch.push_back(p.make_scratch());
  const int32_t m = w.task.domain.num_variables();
  std::vector<ActionId> one(static_cast<size_t>(w.task.domain.num_actions()));
  int64_t solved = 0, nonempty = 0;
  for (int64_t i = 0; i < n; ++i) {
    const ClassId c = in.npc_class[static_cast<size_t>(i)];
    Instance inst;
    inst.npc_class = c;
    inst.init.resize(static_cast<size_t>(m));
    inst.goal.resize(static_cast<size_t>(m));
    w.selector.layout().unpack_state(sel.init.data() + i * words, inst.init);
    w.selector.layout().unpack_state(sel.packed_goal.data() + i * words, inst.goal);
    int32_t len = 0;
    const PlanStatus ps =
        topo[static_cast<size_t>(c)]
            .plan(scratch[static_cast<size_t>(c)], inst.init, inst.goal, one, &len)
            .status;
    const CrowdStatus st = status[static_cast<size_t>(i)];
    ASSERT_EQ((st & kCrowdSolved) != 0, ps == PlanStatus::kSolved) << i;
    if (ps != PlanStatus::kSolved) {
      EXPECT_EQ((st & kCrowdUnsolvable) != 0, ps == PlanStatus::kUnsolvable) << i;
      continue;
    }
    ++solved;
    const std::span<const ActionId> plan(actions.data() + offset[static_cast<size_t>(i)],
                                         length[static_cast<size_t>(i)]);
    EXPECT_EQ(std::vector<ActionId>(plan.begin(), plan.end()),
              std::vector<ActionId>(one.begin(), one.begin() + len))
        << i;
    EXPECT_TRUE(validate_plan(w.task.domain, inst, plan).valid) << i;
    if (sel.goal[static_cast<size_t>(i)] < 0) {
      EXPECT_TRUE(plan.empty());
    } else {
      nonempty += !plan.empty();
    }
  }
  // Most selected goals are plannable from these perturbed dawn states (79% for this seed).
  EXPECT_GT(solved, n * 3 / 4);
  EXPECT_GT(nonempty, n * 6 / 10);
}

}  // namespace
}  // namespace topoplan::udgoap
