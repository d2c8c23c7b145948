// The numeric fields of the UDGOAP structs and files are range-checked at the API edge, with a
// one-line error naming the field and the accepted range (never clamped or ignored): one test
// per field family (planner limits, response curves, weights, goal-selection facts).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "source_path.h"
#include "topoplan/tools/families.h"
#include "topoplan/udgoap/goal_selection.h"
#include "topoplan/udgoap/planner.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::udgoap {
namespace {

const std::string kWizard = testing::source_path("domains/udgoap/wizard.toml");
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void expect_names(const std::string& message, const std::string& field, const std::string& range) {
  EXPECT_NE(message.find("'" + field + "'"), std::string::npos) << message;
  EXPECT_NE(message.find(range), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

TEST(DefCheck, PlannerLimitsOutOfRangeAreRefusedNotRun) {
  Result<Scenario> s = load_scenario(kWizard);
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  struct Case {
    UdgoapLimits limits;
    const char* field;
    const char* range;
  };
  UdgoapLimits expansions, generated, length;
  expansions.max_expansions = -1;
  generated.max_generated = -5;
  length.max_plan_length = -1;
  for (const Case& c : {Case{expansions, "max_expansions", "[1, 1000000000000]"},
                        Case{generated, "max_generated", "[0, 1000000000000]"},
                        Case{length, "max_plan_length", "[1, 10000]"}}) {
    ASSERT_TRUE(check(c.limits).has_value()) << c.field;
    expect_names(check(c.limits)->message, c.field, c.range);
    UdgoapOptions opts;
    opts.limits = c.limits;
    const UdgoapResult r = plan_udgoap(s->world, s->agent, opts);
    EXPECT_EQ(r.status, PlanStatus::kUnsupported) << c.field;
    EXPECT_EQ(r.message, check(c.limits)->message);
    EXPECT_EQ(r.expanded, 0);
  }
  EXPECT_FALSE(check(UdgoapLimits{}).has_value());
}

TEST(DefCheck, CurveParametersMustBeFiniteAndBounded) {
  EXPECT_FALSE(check(Curve::linear(), "g").has_value());
  EXPECT_FALSE(check(Curve::inverse_linear(), "g").has_value());
  Curve c;
  c.slope = kNaN;
  ASSERT_TRUE(check(c, "g").has_value());
  expect_names(check(c, "g")->message, "slope", "[-1e+06, 1e+06]");
  c = Curve{};
  c.exponent = 1e300;
  ASSERT_TRUE(check(c, "g").has_value());
  expect_names(check(c, "g")->message, "exponent", "[-1e+06, 1e+06]");
  // In a scenario file: the line of the curve's table.
  Result<Scenario> s = load_scenario(kWizard);
  ASSERT_TRUE(s.ok());
  std::ifstream in(kWizard, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  const std::string from = "eval = \"linear\" }";
  const size_t at = text.find(from);
  ASSERT_NE(at, std::string::npos);
  text.replace(at, from.size(), "eval = { curve = \"linear\", slope = 1e300 } }");
  Result<Scenario> bad = parse_scenario(text, "w.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().line, 138) << bad.error().to_string();
  expect_names(bad.error().message, "slope", "[-1e+06, 1e+06]");
  // In the world (World::check, the API edge of code-built worlds).
  for (Drive& d : s->world.drives)
    for (GoalGenerator& g : d.generators) g.goal.conditions.front().curve.x_shift = kNaN;
  ASSERT_TRUE(s->world.check().has_value());
  expect_names(s->world.check()->message, "x_shift", "[-1e+06, 1e+06]");
}

TEST(DefCheck, WeightsHaveARange) {
  Result<Scenario> s = load_scenario(kWizard);
  ASSERT_TRUE(s.ok());
  World w = s->world;
  w.drives.front().weight = 1e12;
  ASSERT_TRUE(w.check().has_value());
  expect_names(w.check()->message, "weight", "[0, 1e9]");
  w = s->world;
  w.drives.front().generators.front().goal.weight = kNaN;
  ASSERT_TRUE(w.check().has_value());
  expect_names(w.check()->message, "weight", "[0, 1e9]");

  const Task task = western();
  GoalSelectionDef def = western_goal_selection(task.domain);
  ASSERT_TRUE(GoalSelector::create(task.domain, def).ok());
  def.drives.front().weight = 2e9;
  Result<GoalSelector> r = GoalSelector::create(task.domain, def);
  ASSERT_FALSE(r.ok());
  expect_names(r.error().message, "weight", "(0, 1e9]");
  def = western_goal_selection(task.domain);
  def.goals.front().weight = -1;
  r = GoalSelector::create(task.domain, def);
  ASSERT_FALSE(r.ok());
  expect_names(r.error().message, "weight", "(0, 1e9]");
}

TEST(DefCheck, GoalSelectionFactsCurvesAndThresholds) {
  const Task task = western();
  GoalSelectionDef def = western_goal_selection(task.domain);
  def.goals.front().curve.slope = std::numeric_limits<double>::infinity();
  Result<GoalSelector> r = GoalSelector::create(task.domain, def);
  ASSERT_FALSE(r.ok());
  expect_names(r.error().message, "slope", "[-1e+06, 1e+06]");

  def = western_goal_selection(task.domain);
  def.facts.front().max = kNaN;
  r = GoalSelector::create(task.domain, def);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("'min' < 'max'"), std::string::npos) << r.error().message;

  def = western_goal_selection(task.domain);
  for (VariableProjection& p : def.projection)
    if (!p.thresholds.empty()) p.thresholds.front() = -std::numeric_limits<double>::infinity();
  bool any = false;
  for (const VariableProjection& p : def.projection) any = any || !p.thresholds.empty();
  if (any) {
    r = GoalSelector::create(task.domain, def);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.error().message.find("must be finite"), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace topoplan::udgoap
