// Smart ambiance (thesis chapter 7): rate functions, boosters and dampeners, and the three
// demonstrations — library (location), road crossing (event), spy (object) — planned with the
// GOAP A* planner on the costs the ambiance gives, every plan checked by the validator.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "topoplan/astar.h"
#include "topoplan/udgoap/ambiance.h"
#include "topoplan/validate.h"

namespace topoplan::udgoap {
namespace {

CostModifier modifier(double start, double amount, double duration, Rate rate,
                      std::vector<std::string> annotations) {
  return CostModifier{start, amount, duration, rate, std::move(annotations)};
}

TEST(Ambiance, RateFunctions) {
  const CostModifier now = modifier(123.0, 10, 0, Rate::kInstantaneous, {"serious"});
  EXPECT_DOUBLE_EQ(now.value(122.9), 0.0);
  EXPECT_DOUBLE_EQ(now.value(123.0), 10.0);
  const CostModifier ramp = modifier(0.0, 10, 10, Rate::kLinear, {"serious"});
  EXPECT_DOUBLE_EQ(ramp.value(2.5), 2.5);
  EXPECT_DOUBLE_EQ(ramp.value(10.0), 10.0);
  EXPECT_DOUBLE_EQ(ramp.value(50.0), 10.0);
  EXPECT_FALSE(ramp.complete(9.0));
  EXPECT_TRUE(ramp.complete(10.0));
}

TEST(Ambiance, DampenerBringsTheCostBackThenStops) {
  AmbianceModifier m;
  m.booster = modifier(0, 10, 10, Rate::kLinear, {"nervous"});
  m.has_dampener = true;
  m.dampener = modifier(20, 10, 10, Rate::kLinear, {"nervous"});
  EXPECT_DOUBLE_EQ(m.total(5), 5);
  EXPECT_DOUBLE_EQ(m.total(15), 10);
  EXPECT_DOUBLE_EQ(m.total(25), 5);
  EXPECT_DOUBLE_EQ(m.total(30), 0);
  EXPECT_FALSE(m.should_stop(29));
  EXPECT_TRUE(m.should_stop(30));
  AmbianceInfo npc{{"nervous"}, {m}};
  expire(npc, 29);
  EXPECT_EQ(npc.active.size(), 1u);
  expire(npc, 30);
  EXPECT_TRUE(npc.active.empty());
}

TEST(Ambiance, OnlySusceptibleNpcsAndAnnotatedActionsChange) {
  AmbianceModifier loud;
  loud.booster = modifier(0, 10, 0, Rate::kInstantaneous, {"loud"});
  const AmbianceInfo outgoing{{"loud"}, {loud}};
  const AmbianceInfo deaf{{"serious"}, {loud}};
  EXPECT_DOUBLE_EQ(cost_change(outgoing, {"loud"}, 1), 10);
  EXPECT_DOUBLE_EQ(cost_change(outgoing, {}, 1), 0);
  EXPECT_DOUBLE_EQ(cost_change(deaf, {"loud"}, 1), 0);
}

// Plans with GOAP A* on the ambiance costs; the plan must be valid.
std::vector<std::string> plan_names(const DomainDef& def, const ActionAnnotations& ann,
                                    const AmbianceInfo& npc, double t, std::vector<ValueId> init,
                                    std::vector<ValueId> goal) {
  Result<Domain> domain = Domain::compile(apply_ambiance(def, ann, npc, t));
  EXPECT_TRUE(domain.ok());
  if (!domain.ok()) return {};
  Instance inst;
  inst.init = std::move(init);
  inst.goal = std::move(goal);
  AStarPlanner astar(domain.value());
  std::vector<ActionId> plan;
  EXPECT_EQ(astar.plan(inst, PlannerOptions{}, plan), PlanStatus::kSolved);
  EXPECT_TRUE(validate_plan(domain.value(), inst, plan).valid);
  std::vector<std::string> names;
  for (ActionId a : plan) names.push_back(domain->action_name(a));
  return names;
}

// 7.2.1 Location ambiance: an outgoing character wants to socialise in a library.
TEST(AmbianceDemo, LibraryMakesTheOutgoingCharacterUseTheComputer) {
  DomainDef def;
  def.name = "library";
  def.variables = {{"social", {"lonely", "satisfied"}}};
  def.actions = {{"chat", 2, {{0, 0, 1}}, {}}, {"check_social_network", 5, {{0, 0, 1}}, {}}};
  const ActionAnnotations ann = {{"loud"}, {}};
  AmbianceInfo outgoing{{"loud"}, {}};
  EXPECT_EQ(plan_names(def, ann, outgoing, 0, {0}, {1}), (std::vector<std::string>{"chat"}));
  AmbianceModifier library;  // entering the library: loud actions cost 10 more, at once
  library.name = "library";
  library.booster = modifier(0, 10, 0, Rate::kInstantaneous, {"loud"});
  outgoing.active.push_back(library);
  EXPECT_EQ(plan_names(def, ann, outgoing, 1, {0}, {1}),
            (std::vector<std::string>{"check_social_network"}));
}

// 7.2.2 Event ambiance: every run across the road makes nervous actions cheaper for everyone in
// the crossing's ambiance; normal pedestrians start to run once enough people have run.
std::vector<std::string> crossing(const std::vector<bool>& nervous_types) {
  DomainDef normal;
  normal.name = "crossing";
  normal.variables = {{"side", {"near", "far"}}};
  normal.actions = {{"walk", 4, {{0, 0, 1}}, {}}, {"run", 6, {{0, 0, 1}}, {}}};
  DomainDef nervous = normal;
  nervous.actions[0].cost = 6;
  nervous.actions[1].cost = 4;
  const ActionAnnotations ann = {{}, {"nervous"}};
  std::vector<AmbianceModifier> ambiance;  // modifiers added to the crossing by run events
  std::vector<std::string> chosen;
  double t = 0;
  for (bool is_nervous : nervous_types) {
    const AmbianceInfo npc{{"nervous"}, ambiance};
    const auto plan = plan_names(is_nervous ? nervous : normal, ann, npc, t, {0}, {1});
    chosen.push_back(plan.empty() ? "?" : plan.front());
    if (chosen.back() == "run") {
      AmbianceModifier event;
      event.name = "someone_ran";
      event.booster = modifier(t, -1, 0, Rate::kInstantaneous, {"nervous"});
      ambiance.push_back(event);
    }
    t += 1;
  }
  return chosen;
}

TEST(AmbianceDemo, RoadCrossingNervousnessIsInfectious) {
  EXPECT_EQ(crossing({false, false, false, false}),
            (std::vector<std::string>{"walk", "walk", "walk", "walk"}));
  // 6 − 3 runs = 3 < 4: the fourth pedestrian, a normal one, runs too; the first did not.
  EXPECT_EQ(crossing({false, true, true, true, false}),
            (std::vector<std::string>{"walk", "run", "run", "run", "run"}));
}

// 7.2.3 Object ambiance: cameras make suspicious actions dearer for a spy within their range.
// The spy replans at every position of a corridor p0 → p3 (exit); cameras cover p0 and p1.
std::vector<std::string> spy(bool with_ambiance) {
  DomainDef def;
  def.name = "spy";
  def.variables = {{"at", {"p0", "p1", "p2", "p3"}}};
  ActionAnnotations ann;
  for (ValueId p = 0; p < 3; ++p) {
    const std::string seg = std::to_string(p) + "_" + std::to_string(p + 1);
    def.actions.push_back({"walk_" + seg, 2, {{0, p, p + 1}}, {}});
    ann.push_back({});
    def.actions.push_back({"run_" + seg, 1, {{0, p, p + 1}}, {}});
    ann.push_back({"suspicious"});
  }
  AmbianceModifier camera;
  camera.name = "camera";
  camera.booster = modifier(0, 5, 0, Rate::kInstantaneous, {"suspicious"});
  std::vector<std::string> executed;
  for (ValueId at = 0; at < 3;) {
    AmbianceInfo npc{{"suspicious"}, {}};
    if (with_ambiance && at <= 1) npc.active.push_back(camera);  // within a camera's range
    const auto plan = plan_names(def, ann, npc, 0, {at}, {3});
    if (plan.empty()) break;
    executed.push_back(plan.front());
    ++at;
  }
  return executed;
}

TEST(AmbianceDemo, SpyWalksPastTheCamerasThenRuns) {
  EXPECT_EQ(spy(false), (std::vector<std::string>{"run_0_1", "run_1_2", "run_2_3"}));
  EXPECT_EQ(spy(true), (std::vector<std::string>{"walk_0_1", "walk_1_2", "run_2_3"}));
}

}  // namespace
}  // namespace topoplan::udgoap
