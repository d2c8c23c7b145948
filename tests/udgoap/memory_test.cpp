// The agent's fact memory (fresh facts preferred, stale ones forgotten with the goals they fed)
// and drives given at run time (Sloan 2015 §3.5.1-3.5.2), on the thesis's Appendix A wizard.
#include "topoplan/udgoap/memory.h"
#include "source_path.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "topoplan/udgoap/scenario.h"

namespace topoplan::udgoap {
namespace {

std::string wizard_text() {
  std::ifstream in(testing::source_path("domains/udgoap/wizard.toml"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Scenario parse(const std::string& text) {
  Result<Scenario> s = parse_scenario(text, "test.toml");
  EXPECT_TRUE(s.ok()) << (s.ok() ? "" : s.error().to_string());
  return std::move(s).value();
}

Fact percept(const World& w, const char* entity, const char* attribute, double value, double t) {
  const SlotId s = w.slot(w.find_entity(entity).value(), w.find_attribute(attribute).value());
  Fact f = s != kNoSlot ? w.facts[static_cast<size_t>(s)] : Fact{};
  f.entity = w.find_entity(entity).value();
  f.attribute = w.find_attribute(attribute).value();
  f.value = Value::number(value);
  f.timestamp = t;
  f.kind = FactKind::kSensed;
  return f;
}

double known(const World& w, const char* entity, const char* attribute) {
  const SlotId s = w.slot(w.find_entity(entity).value(), w.find_attribute(attribute).value());
  return s == kNoSlot ? NAN : w.facts[static_cast<size_t>(s)].value.x;
}

bool names(const World& w, const std::vector<PlanStep>& plan, const char* entity) {
  for (const PlanStep& p : plan)
    if (p.supplier == w.find_entity(entity).value()) return true;
  return false;
}

// The plan is the planner's answer: its simulated end state has the utility it reports, above
// the present one.
void expect_improving_plan(const Scenario& s, const UdgoapResult& r) {
  ASSERT_EQ(r.status, PlanStatus::kSolved) << r.message;
  const Simulation sim = simulate(s.world, r.plan);
  EXPECT_NEAR(state_utility(s.world, s.agent, sim.state), r.utility, 1e-12);
  EXPECT_GT(r.utility, state_utility(s.world, s.agent, s.world.initial_state()));
}

TEST(Memory, TheFresherFactWins) {
  Scenario s = parse(wizard_text());
  World& w = s.world;
  // The goblin is seen hurt at t = 5; a report of an observation at t = 3 arrives afterwards.
  EXPECT_EQ(sense(w, percept(w, "goblin", "health", 10, 5.0)).value(), SenseOutcome::kRefreshed);
  EXPECT_EQ(sense(w, percept(w, "goblin", "health", 30, 3.0)).value(), SenseOutcome::kKeptFresher);
  EXPECT_EQ(known(w, "goblin", "health"), 10);
  // Same time: the later percept is taken.
  EXPECT_EQ(sense(w, percept(w, "goblin", "health", 20, 5.0)).value(), SenseOutcome::kRefreshed);
  EXPECT_EQ(known(w, "goblin", "health"), 20);
  const size_t facts = w.facts.size();
  Fact fresh = percept(w, "goblin", "health", 0, 6.0);
  fresh.attribute = w.intern_attribute("morale");
  EXPECT_EQ(sense(w, fresh).value(), SenseOutcome::kAdded);
  EXPECT_EQ(w.facts.size(), facts + 1);
}

TEST(Memory, BadPerceptsAreRefusedAndChangeNothing) {
  Scenario s = parse(wizard_text());
  World& w = s.world;
  const std::vector<Fact> before = w.facts;
  Fact f = percept(w, "goblin", "health", 1, 9.0);
  f.timestamp = NAN;
  Result<SenseOutcome> r = sense(w, f);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("goblin.health: the timestamp must be finite"),
            std::string::npos)
      << r.error().message;
  f = percept(w, "goblin", "health", 1, 9.0);
  f.entity = 99;
  EXPECT_FALSE(sense(w, f).ok());
  f = percept(w, "goblin", "health", 1, 9.0);
  f.kind = FactKind::kProperty;
  EXPECT_FALSE(sense(w, f).ok());
  // melee_damage is a design property of the goblin, not something sensed.
  f = percept(w, "goblin", "melee_damage", 1, 9.0);
  r = sense(w, f);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("goblin.melee_damage is a property"), std::string::npos);
  ASSERT_EQ(w.facts.size(), before.size());
  for (size_t i = 0; i < before.size(); ++i) EXPECT_EQ(w.facts[i].value, before[i].value);
  EXPECT_FALSE(forget(w, s.agent, NAN, 1.0).ok());
  EXPECT_FALSE(forget(w, s.agent, 1.0, -1.0).ok());
  EXPECT_EQ(w.facts.size(), before.size());
}

TEST(Memory, StaleFactsAreForgottenWithTheirGoals) {
  Scenario s = parse(wizard_text());
  World& w = s.world;
  // Before: the wizard (15 health, no mana) plans with the goblin and the potion it knows.
  const UdgoapResult first = plan_udgoap(w, s.agent);
  expect_improving_plan(s, first);
  EXPECT_TRUE(names(w, first.plan, "goblin"));
  // At t = 10 the wizard senses itself and the potion again; the goblin (seen at t = 2) is stale.
  for (const char* a : {"health", "mana"})
    ASSERT_TRUE(sense(w, percept(w, "wizard", a, known(w, "wizard", a), 10.0)).ok());
  Fact pos = w.facts[static_cast<size_t>(
      w.slot(w.find_entity("wizard").value(), w.find_attribute("position").value()))];
  pos.timestamp = 10.0;
  ASSERT_TRUE(sense(w, pos).ok());
  pos = w.facts[static_cast<size_t>(
      w.slot(w.find_entity("mana_potion").value(), w.find_attribute("position").value()))];
  pos.timestamp = 9.0;
  ASSERT_TRUE(sense(w, pos).ok());
  const Result<ForgetStats> st = forget(w, s.agent, 10.0, 5.0);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(st->facts, 2);  // the goblin's position and health
  EXPECT_EQ(st->goals, 1);  // kill_enemy(goblin)
  EXPECT_TRUE(std::isnan(known(w, "goblin", "health")));
  EXPECT_EQ(known(w, "goblin", "melee_damage"), 20);  // properties are not forgotten
  update_agent(w, w.initial_state(), s.agent);        // not generated again: nothing known
  for (const Goal& g : s.agent.goals) EXPECT_NE(g.target, w.find_entity("goblin").value());
  const UdgoapResult after = plan_udgoap(w, s.agent);
  expect_improving_plan(s, after);
  EXPECT_FALSE(names(w, after.plan, "goblin"));
  // Seen again: the goal comes back.
  Fact h = percept(w, "goblin", "health", 30, 11.0);
  h.max = 30;
  ASSERT_EQ(sense(w, h).value(), SenseOutcome::kAdded);
  update_agent(w, w.initial_state(), s.agent);
  bool back = false;
  for (const Goal& g : s.agent.goals) back |= g.target == w.find_entity("goblin").value();
  EXPECT_TRUE(back);
  // Nothing is older than max_age 100: nothing goes.
  EXPECT_EQ(forget(w, s.agent, 11.0, 100.0)->facts, 0);
}

// An order ("get mana, now") given at run time: an external drive with a heavy weight and a
// removal trigger (mana ≥ 40).
const char* kOrder = R"(
[[drive]]
name = "ordered_mana"
weight = 5
removal = [{ fact = "self.mana", op = ">=", value = 40 }]

[[drive.generator]]
name = "now"
triggers = [{ fact = "self.mana", op = "below_max" }]
goal = { name = "get_mana", weight = 1.0, conditions = [
  { fact = "self.mana", direction = "increase", eval = "linear" },
] }
)";

TEST(ExternalDrives, AddedAtRunTimeTheyDirectThePlanUntilRetired) {
  Scenario s = parse(wizard_text());
  const Scenario with_order = parse(wizard_text() + kOrder);
  const Drive order = with_order.world.drives.back();
  World& w = s.world;
  const size_t drives = w.drives.size();
  const Result<int32_t> i = add_external_drive(w, s.agent, order);
  ASSERT_TRUE(i.ok()) << i.error().message;
  EXPECT_EQ(*i, static_cast<int32_t>(drives));
  EXPECT_EQ(s.agent.drives.back(), *i);
  // Repeated while active: refused, nothing added.
  EXPECT_FALSE(add_external_drive(w, s.agent, order).ok());
  EXPECT_EQ(w.drives.size(), drives + 1);
  update_agent(w, w.initial_state(), s.agent);
  bool has_goal = false;
  for (const Goal& g : s.agent.goals) has_goal |= g.drive == *i;
  EXPECT_TRUE(has_goal);
  // The same plan search as the file's agent with the order in its file.
  const UdgoapResult r = plan_udgoap(w, s.agent);
  expect_improving_plan(s, r);
  const UdgoapResult ref = plan_udgoap(with_order.world, with_order.agent);
  EXPECT_EQ(r.plan, ref.plan);
  EXPECT_NEAR(r.utility, ref.utility, 1e-12);
  // The order weighs mana over everything: the plan drinks the potion.
  bool drinks = false;
  for (const PlanStep& p : r.plan)
    drinks |= w.actions[static_cast<size_t>(p.action)].name == "drink_mana_potion";
  EXPECT_TRUE(drinks);
  // Mana sensed at 40: the drive is retired with its goals.
  ASSERT_TRUE(sense(w, percept(w, "wizard", "mana", 40, 3.0)).ok());
  update_agent(w, w.initial_state(), s.agent);
  EXPECT_EQ(std::count(s.agent.drives.begin(), s.agent.drives.end(), *i), 0);
  for (const Goal& g : s.agent.goals) EXPECT_NE(g.drive, *i);
  // Given again later: the retired entry is reused.
  EXPECT_EQ(add_external_drive(w, s.agent, order).value(), *i);
  EXPECT_EQ(w.drives.size(), drives + 1);
}

TEST(ExternalDrives, ABadDriveIsRefusedAndChangesNothing) {
  Scenario s = parse(wizard_text());
  Drive d = parse(wizard_text() + kOrder).world.drives.back();
  d.weight = -1;
  const size_t drives = s.world.drives.size();
  const size_t active = s.agent.drives.size();
  Result<int32_t> r = add_external_drive(s.world, s.agent, d);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("ordered_mana"), std::string::npos) << r.error().message;
  d.weight = 1;
  d.removal[0].fact.attribute = 999;  // not an attribute of this world
  EXPECT_FALSE(add_external_drive(s.world, s.agent, d).ok());
  d.name.clear();
  EXPECT_FALSE(add_external_drive(s.world, s.agent, d).ok());
  EXPECT_EQ(s.world.drives.size(), drives);
  EXPECT_EQ(s.agent.drives.size(), active);
}

}  // namespace
}  // namespace topoplan::udgoap
