// Smart ambiance (thesis chapter 7): rate functions, boosters and dampeners, and the three
// demonstrations — library (location), road crossing (event), spy (object) — loaded from their
// scenario files and planned with GOAP A* on the costs the ambiance gives, every plan validated.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "source_path.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/udgoap/ambiance.h"
#include "topoplan/udgoap/ambiance_scenario.h"

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

// A penalty beyond int64 (>= ~9.3e18) overflowed llround and the cost became 0: the most
// penalised action was free. It must saturate at kMaxCost, and a huge bonus at 0.
TEST(Ambiance, HugeAmountsSaturateTheCost) {
  DomainDef def;
  def.variables.push_back({"v", {"a", "b"}});
  def.actions.push_back({"shout", 5, {{0, 0, 1}}, {}});
  def.actions.push_back({"whisper", 5, {{0, 0, 1}}, {}});
  const ActionAnnotations annotations{{"loud"}, {"quiet"}};
  for (double amount : {9.3e18, 1e19, 1e300}) {
    AmbianceModifier m;
    m.booster = modifier(0, amount, 0, Rate::kInstantaneous, {"loud"});
    const AmbianceInfo npc{{"loud"}, {m}};
    const DomainDef out = apply_ambiance(def, annotations, npc, 1);
    EXPECT_EQ(out.actions[0].cost, kMaxCost) << amount;
    EXPECT_EQ(out.actions[1].cost, 5) << amount;
    m.booster.amount = -amount;
    const AmbianceInfo bonus{{"loud"}, {m}};
    EXPECT_EQ(apply_ambiance(def, annotations, bonus, 1).actions[0].cost, 0) << amount;
  }
  AmbianceModifier up, down;  // +inf and -inf: NaN, which must not read as free
  up.booster = modifier(0, 1e308, 0, Rate::kInstantaneous, {"loud"});
  down.booster = up.booster;
  up.booster.amount = std::numeric_limits<double>::infinity();
  down.booster.amount = -std::numeric_limits<double>::infinity();
  const AmbianceInfo both{{"loud"}, {up, down}};
  EXPECT_EQ(apply_ambiance(def, annotations, both, 1).actions[0].cost, kMaxCost);
}

// The demonstrations, loaded from domains/udgoap/ambiance-*.toml and played with and without
// ambiance, as the thesis plays them. Every decision's plan was checked by the validator.
AmbianceScenario load(const std::string& name) {
  Result<AmbianceScenario> sc =
      load_ambiance_scenario(testing::source_path("domains/udgoap/ambiance-") + name + ".toml");
  EXPECT_TRUE(sc.ok()) << (sc.ok() ? "" : sc.error().to_string());
  return sc.ok() ? std::move(sc).value() : AmbianceScenario{};
}

// Executed action names per NPC; asserts every decision planned a valid plan.
std::vector<std::vector<std::string>> play(const AmbianceScenario& sc, bool with_ambiance) {
  const AmbianceRun run = run_ambiance(sc, with_ambiance);
  EXPECT_TRUE(run.all_solved);
  std::vector<std::vector<std::string>> out;
  for (const AmbianceNpcRun& npc : run.npcs) {
    for (const AmbianceDecision& d : npc.decisions) {
      EXPECT_EQ(d.status, PlanStatus::kSolved) << npc.name;
      EXPECT_TRUE(d.valid) << npc.name;
    }
    std::vector<std::string> names;
    for (ActionId a : npc.executed) names.push_back(sc.domain.actions[static_cast<size_t>(a)].name);
    out.push_back(std::move(names));
  }
  return out;
}

using Names = std::vector<std::vector<std::string>>;

// 7.2.1 Location ambiance: the outgoing character chats without ambiance; entering the library
// makes `loud` actions 10 dearer at once, so it replans and checks its social network.
TEST(AmbianceDemo, LibraryMakesTheOutgoingCharacterUseTheComputer) {
  const AmbianceScenario sc = load("library");
  EXPECT_EQ(play(sc, false), (Names{{"enter_library", "chat"}}));
  EXPECT_EQ(play(sc, true), (Names{{"enter_library", "check_social_network"}}));
  const AmbianceRun run = run_ambiance(sc, true);
  ASSERT_EQ(run.npcs[0].decisions.size(), 2u);
  const AmbianceDecision& outside = run.npcs[0].decisions[0];
  const AmbianceDecision& inside = run.npcs[0].decisions[1];
  EXPECT_TRUE(outside.active.empty());  // on the street: no ambiance yet, chat is planned
  EXPECT_EQ(outside.plan_cost, 3);
  EXPECT_EQ(inside.active, (std::vector<std::string>{"library_hush@1"}));
  EXPECT_EQ(inside.cost, (std::vector<int64_t>{1, 12, 5}));  // chat 2 + 10
  EXPECT_EQ(inside.plan_cost, 5);
}

// 7.2.2 Event ambiance: only normal pedestrians all walk; with nervous ones, each run makes
// nervous actions 1 cheaper in the crossing, and after three runs the normal ones run too.
TEST(AmbianceDemo, RoadCrossingNervousnessIsInfectious) {
  AmbianceScenario sc = load("road-crossing");
  EXPECT_EQ(play(sc, true), (Names{{"walk"}, {"run"}, {"run"}, {"run"}, {"run"}, {"run"}}));
  EXPECT_EQ(play(sc, false), (Names{{"walk"}, {"run"}, {"run"}, {"run"}, {"walk"}, {"walk"}}));
  const AmbianceRun run = run_ambiance(sc, true);
  const AmbianceDecision& normal_2 = run.npcs[4].decisions[0];
  EXPECT_EQ(normal_2.active.size(), 3u);
  EXPECT_EQ(normal_2.cost, (std::vector<int64_t>{4, 3}));  // run 6 − 3 < walk 4
  std::erase_if(sc.npcs, [&](const AmbianceNpc& n) {
    return sc.types[static_cast<size_t>(n.type)].name != "normal";
  });
  EXPECT_EQ(play(sc, true), (Names{{"walk"}, {"walk"}, {"walk"}}));
}

// 7.2.3 Object ambiance: without ambiance the spy runs the corridor; with it she walks while a
// camera sees her (p0, p1) and runs the last segment.
TEST(AmbianceDemo, SpyWalksPastTheCamerasThenRuns) {
  const AmbianceScenario sc = load("spy");
  EXPECT_EQ(play(sc, false), (Names{{"run_0_1", "run_1_2", "run_2_3"}}));
  EXPECT_EQ(play(sc, true), (Names{{"walk_0_1", "walk_1_2", "run_2_3"}}));
  const AmbianceRun run = run_ambiance(sc, true);
  EXPECT_EQ(run.npcs[0].decisions[0].active, (std::vector<std::string>{"watched@0"}));
  EXPECT_EQ(run.npcs[0].decisions[1].active, (std::vector<std::string>{"watched@1"}));
  EXPECT_TRUE(run.npcs[0].decisions[2].active.empty());
  EXPECT_EQ(run.npcs[0].cost, 2 + 2 + 1);
}

// A dampener declared in a file brings the cost back; the area drops the event modifier once
// both parts are complete.
TEST(AmbianceScenarioFile, DampenedEventFades) {
  const char* text = R"(
[scenario]
action_time = 10
[[variable]]
name = "side"
values = ["near", "far"]
[[action]]
name = "walk"
cost = 4
effects = [{ var = "side", to = "far" }]
[[action]]
name = "run"
cost = 6
effects = [{ var = "side", to = "far" }]
annotations = ["nervous"]
ambiance_effects = ["panic"]
[[modifier]]
name = "panic"
booster = { amount = -5, annotations = ["nervous"] }
dampener = { amount = -5, rate = "linear", delay = 5, duration = 10 }
[[area]]
name = "street"
[[npc_type]]
name = "nervous"
susceptible = ["nervous"]
costs = { walk = 6, run = 4 }
[[npc_type]]
name = "normal"
susceptible = ["nervous"]
[[npc]]
name = "a"
type = "nervous"
init = { side = "near" }
goal = { side = "far" }
[[npc]]
name = "b"
type = "normal"
init = { side = "near" }
goal = { side = "far" }
[[npc]]
name = "c"
type = "normal"
init = { side = "near" }
goal = { side = "far" }
)";
  Result<AmbianceScenario> sc = parse_ambiance_scenario(text, "fade.toml");
  ASSERT_TRUE(sc.ok()) << sc.error().to_string();
  EXPECT_EQ(sc->modifiers[0].dampener.annotations, (std::vector<std::string>{"nervous"}));
  const AmbianceRun run = run_ambiance(*sc, true);
  // b at t=10: booster −5, dampener (10−5)/10 of −5 → run 6 − 5 + 2.5 = 3.5 → 4 (rounded); ties
  // with walk 4 — A* keeps the first action: walk. c at t=20: the modifier has stopped.
  EXPECT_EQ(run.npcs[1].decisions[0].cost[1], 4);
  EXPECT_EQ(run.npcs[2].decisions[0].cost[1], 6);
  EXPECT_TRUE(run.npcs[2].decisions[0].active.empty());
}

TEST(AmbianceScenarioFile, ErrorsNameFileAndLine) {
  const auto error = [](const char* text) {
    Result<AmbianceScenario> sc = parse_ambiance_scenario(text, "bad.toml");
    return sc.ok() ? std::string("ok") : sc.error().to_string();
  };
  const std::string head =
      "[[variable]]\nname = \"side\"\nvalues = [\"near\", \"far\"]\n"                // 1-3
      "[[action]]\nname = \"walk\"\neffects = [{ var = \"side\", to = \"far\" }]\n"  // 4-6
      "[[npc_type]]\nname = \"t\"\n";                                                // 7-8
  const std::string npc =
      "[[npc]]\nname = \"n\"\ntype = \"t\"\ninit = { side = \"near\" }\n"
      "goal = { side = \"far\" }\n";
  EXPECT_EQ(error((head + npc).c_str()), "ok");
  EXPECT_EQ(
      error((head + npc + "bogus = 1\n").c_str()),
      "bad.toml:14: unknown key 'bogus' in [[npc]] (allowed: name, type, init, goal, replan)");
  EXPECT_EQ(error((head + "[[npc]]\nname = \"n\"\ntype = \"t\"\ninit = { side = \"middle\" }\n"
                          "goal = { side = \"far\" }\n")
                      .c_str()),
            "bad.toml:12: 'middle' is not a value of 'side'");
  EXPECT_EQ(error((head + "[[area]]\nname = \"a\"\nmodifiers = [\"nope\"]\n" + npc).c_str()),
            "bad.toml:11: 'modifiers' of area 'a': unknown modifier 'nope'");
  EXPECT_EQ(
      error((head +
             "[[modifier]]\nname = \"m\"\nbooster = { amount = 1, rate = \"cubic\", "
             "annotations = [\"x\"] }\n" +
             npc)
                .c_str()),
      "bad.toml:11: 'booster' of modifier 'm': 'rate' must be \"instantaneous\" or \"linear\"");
  EXPECT_EQ(error((head + npc + "[[npc]]\nname = \"n\"\n").c_str()),
            "bad.toml:15: duplicate npc 'n'");
  EXPECT_EQ(error("[[variable]]\nname = \"x\"\nvalues = [\"a\", \"b\"\n"),
            error("[[variable]]\nname = \"x\"\nvalues = [\"a\", \"b\"\n"));  // syntax: no crash
  EXPECT_NE(error("[[variable]]\nname = \"x\"\nvalues = [\"a\", \"b\"\n").find("bad.toml:"),
            std::string::npos);
}

// The ambiance reader's messages (through the UDGOAP table reader, src/udgoap/table_reader.h)
// and the ranges of the modifiers' numbers: each is "file:line: message", the line of the
// offending value.
TEST(AmbianceScenarioFile, ModifierNumbersAreCheckedWithTheirLine) {
  const auto error = [](const std::string& text) {
    Result<AmbianceScenario> sc = parse_ambiance_scenario(text, "bad.toml");
    return sc.ok() ? std::string("ok") : sc.error().to_string();
  };
  const std::string head =
      "[scenario]\naction_time = 1\n"                                                // 1-2
      "[[variable]]\nname = \"side\"\nvalues = [\"near\", \"far\"]\n"                // 3-5
      "[[action]]\nname = \"walk\"\neffects = [{ var = \"side\", to = \"far\" }]\n"  // 6-8
      "[[npc_type]]\nname = \"t\"\n"                                                 // 9-10
      "[[npc]]\nname = \"n\"\ntype = \"t\"\ninit = { side = \"near\" }\n"            // 11-14
      "goal = { side = \"far\" }\n"                                                  // 15
      "[[modifier]]\nname = \"m\"\n";                                                // 16-17
  const auto booster = [&](const std::string& fields) {
    return error(head + "booster = { " + fields + ", annotations = [\"x\"] }\n");
  };
  EXPECT_EQ(booster("amount = 10, rate = \"linear\", duration = 2"), "ok");
  EXPECT_EQ(booster("amount = -1e12"), "ok");
  // Type errors in the reader's words, ranges in the limits table's.
  EXPECT_EQ(booster("rate = \"linear\""),
            "bad.toml:18: 'booster' of modifier 'm' is missing the key 'amount'");
  EXPECT_EQ(booster("amount = 1, delay = -1"),
            "bad.toml:18: 'booster' of modifier 'm': 'delay' (seconds before a modifier starts) "
            "must be a number in [0, 1e+09], found -1");
  EXPECT_EQ(booster("amount = 1, duration = -1"),
            "bad.toml:18: 'booster' of modifier 'm': 'duration' (seconds a modifier lasts) must be "
            "a number in [0, 1e+09], found -1");
  EXPECT_EQ(booster("amount = 1, rate = \"linear\""),
            "bad.toml:18: 'booster' of modifier 'm': a linear rate needs duration > 0");
  EXPECT_EQ(booster("amount = nan"),
            "bad.toml:18: 'booster' of modifier 'm': 'amount' (cost a modifier adds) must be a "
            "number in [-1e+12, 1e+12], found nan");
  EXPECT_EQ(booster("amount = \"x\""),
            "bad.toml:18: 'amount' of 'booster' of modifier 'm' must be a number, found a string");
  // Ranges (unchecked, a 1e19 amount would overflow the cost to 0; 1e300 s of delay would never
  // start).
  EXPECT_EQ(booster("amount = 1e19"),
            "bad.toml:18: 'booster' of modifier 'm': 'amount' (cost a modifier adds) must be a "
            "number in [-1e+12, 1e+12], found 1e+19");
  EXPECT_EQ(booster("amount = -2e12"),
            "bad.toml:18: 'booster' of modifier 'm': 'amount' (cost a modifier adds) must be a "
            "number in [-1e+12, 1e+12], found -2e+12");
  EXPECT_EQ(booster("amount = 1, delay = 1e300"),
            "bad.toml:18: 'booster' of modifier 'm': 'delay' (seconds before a modifier starts) "
            "must be a number in [0, 1e+09], found 1e+300");
  EXPECT_EQ(booster("amount = 1, rate = \"linear\", duration = 2e9"),
            "bad.toml:18: 'booster' of modifier 'm': 'duration' (seconds a modifier lasts) must be "
            "a number in [0, 1e+09], found 2e+09");
  EXPECT_EQ(error(head + "booster = { amount = 1, annotations = [\"x\"] }\n"
                         "dampener = { amount = 1e13 }\n"),
            "bad.toml:19: 'dampener' of modifier 'm': 'amount' (cost a modifier adds) must be a "
            "number in [-1e+12, 1e+12], found 1e+13");
  std::string slow = head + "booster = { amount = 1, annotations = [\"x\"] }\n";
  slow.replace(slow.find("action_time = 1"), 15, "action_time = 1e10");
  EXPECT_EQ(error(slow),
            "bad.toml:2: [scenario]: 'action_time' (seconds per executed action) must be a number "
            "in [0, 1e+09], found 1e+10");
}

// check() holds a scenario built in code to the files' ranges: every numeric field of the
// modifiers, action_time and max_steps; NaN always fails; the message names the field.
TEST(AmbianceCheck, EveryNumericFieldOutOfRangeIsAnError) {
  const AmbianceScenario good = load("library");
  ASSERT_FALSE(check(good).has_value());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    std::string expected;  // the whole message
    void (*set)(AmbianceScenario&, double, double);
  };
  const Case cases[] = {
      {"modifier 'library_hush' booster: 'amount' (cost a modifier adds) must be a number in "
       "[-1e+12, 1e+12], found nan",
       [](AmbianceScenario& s, double n, double) { s.modifiers[0].booster.amount = n; }},
      {"modifier 'library_hush' booster: 'amount' (cost a modifier adds) must be a number in "
       "[-1e+12, 1e+12], found 1e+19",
       [](AmbianceScenario& s, double, double) { s.modifiers[0].booster.amount = 1e19; }},
      {"modifier 'library_hush' booster: 'amount' (cost a modifier adds) must be a number in "
       "[-1e+12, 1e+12], found -inf",
       [](AmbianceScenario& s, double, double i) { s.modifiers[0].booster.amount = -i; }},
      {"modifier 'library_hush' booster: 'delay' (seconds before a modifier starts) must be a "
       "number in [0, 1e+09], found -1",
       [](AmbianceScenario& s, double, double) { s.modifiers[0].booster.start = -1; }},
      {"modifier 'library_hush' booster: 'delay' (seconds before a modifier starts) must be a "
       "number in [0, 1e+09], found nan",
       [](AmbianceScenario& s, double n, double) { s.modifiers[0].booster.start = n; }},
      {"modifier 'library_hush' booster: 'duration' (seconds a modifier lasts) must be a number in "
       "[0, 1e+09], found inf",
       [](AmbianceScenario& s, double, double i) { s.modifiers[0].booster.duration = i; }},
      {"modifier 'library_hush' booster: a linear rate needs 'duration' > 0",
       [](AmbianceScenario& s, double, double) { s.modifiers[0].booster.rate = Rate::kLinear; }},
      {"modifier 'library_hush' booster: 'rate' must be kInstantaneous or kLinear, found 9",
       [](AmbianceScenario& s, double, double) {
         s.modifiers[0].booster.rate = static_cast<Rate>(9);
       }},
      {"modifier 'library_hush' booster: 'annotations' must not be empty",
       [](AmbianceScenario& s, double, double) { s.modifiers[0].booster.annotations.clear(); }},
      {"modifier 'library_hush' dampener: 'amount' (cost a modifier adds) must be a number in "
       "[-1e+12, 1e+12], found nan",
       [](AmbianceScenario& s, double n, double) {
         s.modifiers[0].has_dampener = true;
         s.modifiers[0].dampener.amount = n;
       }},
      {"AmbianceScenario: 'action_time' (seconds per executed action) must be a number in [0, "
       "1e+09], found nan",
       [](AmbianceScenario& s, double n, double) { s.action_time = n; }},
      {"AmbianceScenario: 'action_time' (seconds per executed action) must be a number in [0, "
       "1e+09], found inf",
       [](AmbianceScenario& s, double, double i) { s.action_time = i; }},
      {"AmbianceScenario: 'max_steps' (decisions per NPC) must be an integer in [1, 1000000], "
       "found 0",
       [](AmbianceScenario& s, double, double) { s.max_steps = 0; }},
      {"AmbianceScenario: 'max_steps' (decisions per NPC) must be an integer in [1, 1000000], "
       "found 2000000000",
       [](AmbianceScenario& s, double, double) { s.max_steps = 2'000'000'000; }},
  };
  for (const Case& c : cases) {
    AmbianceScenario s = good;
    c.set(s, nan, inf);
    const auto e = check(s);
    EXPECT_EQ(e ? e->message : std::string("no error"), c.expected);
  }
}

// The costs a decision plans with come from ambiance_costs, on the type's costs, without a
// domain definition copied; they equal apply_ambiance's on the same definition.
TEST(Ambiance, CostsWithoutADomainCopyEqualApplyAmbiance) {
  DomainDef def;
  def.variables.push_back({"v", {"a", "b"}});
  def.actions.push_back({"shout", 5, {{0, 0, 1}}, {}});
  def.actions.push_back({"whisper", 5, {{0, 0, 1}}, {}});
  def.actions.push_back({"plain", 7, {{0, 0, 1}}, {}});
  const ActionAnnotations annotations{{"loud"}, {"quiet"}};  // 'plain' has none: base cost
  AmbianceModifier loud, hush;
  loud.booster = modifier(0, 2.6, 0, Rate::kInstantaneous, {"loud"});
  hush.booster = modifier(1, -9, 4, Rate::kLinear, {"quiet"});
  const AmbianceInfo npc{{"loud", "quiet"}, {loud, hush}};
  for (double t : {0.0, 1.0, 2.5, 5.0, 100.0}) {
    const std::vector<int64_t> base{5, 5, 7};
    std::vector<int64_t> out(3, -1);
    ambiance_costs(base, annotations, npc, t, out);
    const DomainDef costed = apply_ambiance(def, annotations, npc, t);
    for (size_t a = 0; a < 3; ++a) EXPECT_EQ(out[a], costed.actions[a].cost) << t << " " << a;
  }
}

// The limits table's ambiance rows (limits::kAmbianceAll), at both doors: a scenario file with
// the value out of range fails at the value's line, and check() on a scenario built in code with
// the same value fails, both with the table's words (limit_message) for that value.
TEST(AmbianceLimits, TheFileAndCheckRefuseEachRowInTheTablesWords) {
  struct Case {
    const LimitSpec* spec;
    std::string text;  // the value as the file writes it
    double value;
    int line;  // of the value in the file
    void (*set)(AmbianceScenario&, double);
  };
  const auto cost = [](AmbianceScenario& s, double v) {
    s.domain.actions[0].cost = static_cast<int64_t>(v);
  };
  const auto action_time = [](AmbianceScenario& s, double v) { s.action_time = v; };
  const auto max_steps = [](AmbianceScenario& s, double v) {
    s.max_steps = static_cast<int32_t>(v);
  };
  const auto delay = [](AmbianceScenario& s, double v) { s.modifiers[0].booster.start = v; };
  const auto duration = [](AmbianceScenario& s, double v) { s.modifiers[0].booster.duration = v; };
  const auto amount = [](AmbianceScenario& s, double v) { s.modifiers[0].booster.amount = v; };
  const Case cases[] = {
      {&limits::kAmbianceCost, "-1", -1, 9, cost},
      {&limits::kAmbianceCost, "1099511627777", 1099511627777.0, 9, cost},
      {&limits::kAmbianceActionTime, "-1", -1, 2, action_time},
      {&limits::kAmbianceActionTime, "1e10", 1e10, 2, action_time},
      {&limits::kAmbianceMaxSteps, "0", 0, 2, max_steps},
      {&limits::kAmbianceMaxSteps, "1000001", 1000001, 2, max_steps},
      {&limits::kAmbianceDelay, "-1", -1, 13, delay},
      {&limits::kAmbianceDelay, "inf", std::numeric_limits<double>::infinity(), 13, delay},
      {&limits::kAmbianceDuration, "-0.5", -0.5, 13, duration},
      {&limits::kAmbianceDuration, "2e9", 2e9, 13, duration},
      {&limits::kAmbianceAmount, "-2e12", -2e12, 13, amount},
      {&limits::kAmbianceAmount, "nan", std::numeric_limits<double>::quiet_NaN(), 13, amount},
  };
  size_t rows_seen = 0;
  for (const LimitSpec& row : limits::kAmbianceAll)
    for (const Case& c : cases) rows_seen += c.spec->name == row.name ? 1 : 0;
  EXPECT_EQ(rows_seen, std::size(cases));  // every case is a row; every row has cases below
  for (const LimitSpec& row : limits::kAmbianceAll) {
    const std::string_view key = row.name;
    EXPECT_TRUE(std::any_of(std::begin(cases), std::end(cases), [&](const Case& c) {
      return c.spec->name == key;
    })) << key;
  }
  for (const Case& c : cases) {
    const std::string key(c.spec->name);
    const std::string set = key + " = " + c.text;
    const bool scenario = c.line == 2, action = c.line == 9;
    const std::string modifier = key == "amount" ? set : "amount = 1, " + set;
    const std::string text =
        "[scenario]\n" + (scenario ? set : "name = \"s\"") + "\n" +                      // 1-2
        "[[variable]]\nname = \"side\"\nvalues = [\"near\", \"far\"]\n" +                // 3-5
        "[[action]]\nname = \"walk\"\neffects = [{ var = \"side\", to = \"far\" }]\n" +  // 6-8
        (action ? set : "annotations = [\"x\"]") + "\n" +                                // 9
        "[[modifier]]\nname = \"m\"\n" +                                                 // 10-11
        "dampener = { amount = 0 }\n" +                                                  // 12
        "booster = { " + (scenario || action ? "amount = 1" : modifier) +
        ", annotations = [\"x\"] }\n" +  // 13
        "[[npc_type]]\nname = \"t\"\n[[npc]]\nname = \"n\"\ntype = \"t\"\n"
        "init = { side = \"near\" }\ngoal = { side = \"far\" }\n";
    const std::string words = limit_message(*c.spec, c.value);
    Result<AmbianceScenario> file = parse_ambiance_scenario(text, "bad.toml");
    ASSERT_FALSE(file.ok()) << set;
    const std::string found = file.error().to_string();
    EXPECT_EQ(found.rfind("bad.toml:" + std::to_string(c.line) + ": ", 0), 0u) << found;
    EXPECT_NE(found.find(": " + words), std::string::npos) << found << "\n" << words;
    AmbianceScenario s = load("library");
    c.set(s, c.value);
    const auto e = check(s);
    ASSERT_TRUE(e.has_value()) << set;
    EXPECT_TRUE(e->message.size() >= words.size() &&
                e->message.compare(e->message.size() - words.size(), words.size(), words) == 0)
        << e->message << "\n"
        << words;
  }
}

}  // namespace
}  // namespace topoplan::udgoap
