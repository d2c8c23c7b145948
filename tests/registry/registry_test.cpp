// The registry's entrance (include/topoplan/runtime/plan.h, RegisteredPlanFn): every registered
// planner's cold PlanFn refuses PlannerOptions out of range — negative, NaN, infinite or too large
// limits, an objective outside the enum — with kUnsupported and a one-line message naming the field
// and its range, before the planner runs; options at the edges of the ranges still plan.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct BadCase {
  std::string field;  // what the message must name
  std::function<void(PlannerOptions&)> set;
};

std::vector<BadCase> bad_cases() {
  return {
      {"PlannerOptions.limits: 'max_expansions' (search nodes expanded) must be an integer in [1, "
       "9223372036854775807], found -1",
       [](PlannerOptions& o) { o.limits.max_expansions = -1; }},
      {"PlannerOptions.limits: 'max_expansions'",
       [](PlannerOptions& o) { o.limits.max_expansions = std::numeric_limits<int64_t>::min(); }},
      {"PlannerOptions.limits: 'max_memory_bytes'",
       [](PlannerOptions& o) { o.limits.max_memory_bytes = -1; }},
      {"PlannerOptions.limits: 'max_seconds' (seconds of search; 0: none) must be a number in [0, "
       "1e+09], found nan",
       [](PlannerOptions& o) { o.limits.max_seconds = kNaN; }},
      {"PlannerOptions.limits: 'max_seconds'",
       [](PlannerOptions& o) { o.limits.max_seconds = -0.5; }},
      {"PlannerOptions.limits: 'max_seconds'",
       [](PlannerOptions& o) { o.limits.max_seconds = kInf; }},
      {"PlannerOptions.limits: 'max_seconds'",
       [](PlannerOptions& o) { o.limits.max_seconds = 1e300; }},
      {"PlannerOptions.auto_limits: 'max_expansions'",
       [](PlannerOptions& o) { o.auto_limits.max_expansions = -5; }},
      {"PlannerOptions.auto_limits: 'max_memory_bytes'",
       [](PlannerOptions& o) { o.auto_limits.max_memory_bytes = -1; }},
      {"PlannerOptions.auto_limits: 'max_seconds'",
       [](PlannerOptions& o) { o.auto_limits.max_seconds = kNaN; }},
      {"PlannerOptions.auto_limits: 'max_seconds'",
       [](PlannerOptions& o) { o.auto_limits.max_seconds = -kInf; }},
      {"'objective' must be kCost or kLength, found 7",
       [](PlannerOptions& o) { o.objective = static_cast<Objective>(7); }},
  };
}

TEST(Registry, EveryPlannerRefusesOptionsOutOfRange) {
  const Task task = western_pus();
  int planners_checked = 0;
  for (const PlannerInfo& info : planners()) {
    ++planners_checked;
    for (const BadCase& c : bad_cases()) {
      PlannerOptions o;
      c.set(o);
      const PlanResult r = info.plan(task.domain, task.instances.front(), o);
      EXPECT_EQ(r.status, PlanStatus::kUnsupported) << info.name << ": " << c.field;
      EXPECT_NE(r.message.find(c.field), std::string::npos)
          << info.name << ": '" << r.message << "' should name " << c.field;
      EXPECT_EQ(r.message.find('\n'), std::string::npos) << r.message;
      EXPECT_TRUE(r.actions.empty());
    }
  }
  EXPECT_GE(planners_checked, 4);  // auto, astar, astar-back, topo at least
}

TEST(Registry, OptionsAtTheEdgesOfTheRangesStillPlan) {
  const Task task = western_pus();
  PlannerOptions edges;
  edges.limits.max_expansions = std::numeric_limits<int64_t>::max();
  edges.limits.max_memory_bytes = std::numeric_limits<int64_t>::max();
  edges.limits.max_seconds = 1e9;
  edges.objective = Objective::kLength;
  for (const char* name : {"auto", "astar", "astar-back", "topo"}) {
    const PlannerInfo* info = find_planner(name);
    ASSERT_NE(info, nullptr) << name;
    const PlanResult r = info->plan(task.domain, task.instances.front(), edges);
    EXPECT_EQ(r.status, PlanStatus::kSolved) << name << ": " << r.message;
  }
  // The smallest limit is a limit, not an error: the search stops after one expansion. A zero
  // limit is refused (include/topoplan/runtime/limits.h: every search limit is at least 1).
  PlannerOptions one;
  one.limits.max_expansions = 1;
  const PlanResult r = find_planner("astar")->plan(task.domain, task.instances.front(), one);
  EXPECT_EQ(r.status, PlanStatus::kLimitReached) << r.message;
}

TEST(Registry, CheckNamesTheFieldAndItsRange) {
  EXPECT_FALSE(check(PlannerOptions{}).has_value());
  PlannerOptions o;
  o.limits.max_seconds = kNaN;
  const auto e = check(o);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message,
            "PlannerOptions.limits: 'max_seconds' (seconds of search; 0: none) must be a number in "
            "[0, 1e+09], found nan");
}

// A search stopped by a limit says which fields to raise, in the C++ spelling; each door rewrites
// them into its own (the C struct's fields, Python's keywords, the CLI's flags) and no door is
// told about another's.
TEST(Registry, LimitReachedNamesTheFieldsOfEachDoor) {
  const Task task = western_pus();
  PlannerOptions one;
  one.limits.max_expansions = 1;
  for (const char* name : {"astar", "astar-back", "exact"}) {
    const PlanResult r = find_planner(name)->plan(task.domain, task.instances.front(), one);
    ASSERT_EQ(r.status, PlanStatus::kLimitReached) << name << ": " << r.message;
    EXPECT_NE(r.message.find("raise SearchLimits::max_expansions"), std::string::npos) << r.message;
    EXPECT_EQ(r.message.find("--"), std::string::npos) << r.message;
    const std::string c = limit_words_for(r.message, LimitDoor::kC);
    EXPECT_NE(c.find("raise topoplan_plan_options.max_expansions"), std::string::npos) << c;
    EXPECT_EQ(c.find("SearchLimits"), std::string::npos) << c;
    const std::string py = limit_words_for(r.message, LimitDoor::kPython);
    EXPECT_NE(py.find("raise max_expansions="), std::string::npos) << py;
    const std::string cli = limit_words_for(r.message, LimitDoor::kCli);
    EXPECT_NE(cli.find("raise --max-expansions"), std::string::npos) << cli;
  }
  const LimitSpec* const all[] = {&limits::kMaxExpansions, &limits::kMaxMemoryBytes,
                                  &limits::kMaxSeconds};
  EXPECT_EQ(limit_words_for(raise_limits(all), LimitDoor::kCli),
            "raise --max-expansions, --max-memory or --max-seconds");
  EXPECT_EQ(limit_words_for(raise_limits(all), LimitDoor::kC),
            "raise topoplan_plan_options.max_expansions, topoplan_plan_options.max_memory_bytes "
            "or topoplan_plan_options.max_seconds");
}

}  // namespace
}  // namespace topoplan
