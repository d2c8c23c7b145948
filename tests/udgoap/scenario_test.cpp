// Scenario files: what the reader accepts, and file:line messages for what it does not.
#include <gtest/gtest.h>

#include <string>

#include "source_path.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::udgoap {
namespace {

constexpr const char* kMinimal = R"([scenario]
agent = "npc"

[[entity]]
name = "npc"
consumes = ["eat"]

[[entity]]
name = "apple"
supplies = ["eat"]

[[fact]]
entity = "npc"
attribute = "hunger"
value = 80
max = 100

[[action]]
name = "eat"
effects = [{ target = "consumer.hunger", subtract = 50 }]

[[drive]]
name = "eat"
[[drive.generator]]
name = "hungry"
triggers = [{ fact = "self.hunger", op = ">", value = 10 }]
goal = { name = "not_hungry", conditions = [{ fact = "self.hunger", direction = "decrease", eval = { curve = "polynomial", slope = 1, exponent = 2, x_shift = 1 } }] }
)";

Error error_of(const std::string& text) {
  Result<Scenario> s = parse_scenario(text, "bad.toml");
  EXPECT_FALSE(s.ok());
  return s.ok() ? Error{"", "", 0} : s.error();
}

std::string with(std::string text, const std::string& old, const std::string& replacement) {
  const size_t at = text.find(old);
  EXPECT_NE(at, std::string::npos) << old;
  if (at != std::string::npos) text.replace(at, old.size(), replacement);
  return text;
}

TEST(Scenario, MinimalFilePlans) {
  Result<Scenario> s = parse_scenario(kMinimal, "ok.toml");
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  ASSERT_EQ(s->agent.goals.size(), 1u);
  // (0.8 − 1)² = 0.04 complete.
  EXPECT_NEAR(s->agent.goals[0].completeness, 0.04, 1e-12);
  const UdgoapResult r = plan_udgoap(s->world, s->agent);
  ASSERT_EQ(r.status, PlanStatus::kSolved);
  ASSERT_EQ(r.plan.size(), 1u);
  EXPECT_NEAR(r.utility, 0.49, 1e-12);  // hunger 30: (0.3 − 1)²
}

TEST(Scenario, WizardFileLoads) {
  Result<Scenario> s = load_scenario(testing::source_path("domains/udgoap/wizard.toml"));
  ASSERT_TRUE(s.ok()) << s.error().to_string();
  EXPECT_EQ(s->world.entities.size(), 3u);
  EXPECT_EQ(s->world.actions.size(), 4u);
  int sensed = 0;
  for (const Fact& f : s->world.facts) sensed += f.kind == FactKind::kSensed ? 1 : 0;
  EXPECT_EQ(sensed, 6);  // Table A.1
}

// kMinimal with `old` replaced is refused at `line` of bad.toml, with `words` in the message when
// given.
void expect_error_at(const char* old, const char* replacement, int line, const char* words = "") {
  const Error e = error_of(with(kMinimal, old, replacement));
  EXPECT_EQ(e.file, "bad.toml") << replacement;
  EXPECT_EQ(e.line, line) << replacement;
  if (*words != '\0') {
    EXPECT_NE(e.message.find(words), std::string::npos) << e.message;
  }
}

TEST(Scenario, ErrorsCarryFileAndLine) {
  expect_error_at("consumes = [\"eat\"]", "consumes = [\"drink\"]", 6, "unknown action 'drink'");
  expect_error_at("max = 100", "maxi = 100", 16, "unknown key 'maxi'");
  expect_error_at("op = \">\"", "op = \"=>\"", 26, "unknown op");
  expect_error_at("consumer.hunger\", subtract", "waiter.hunger\", subtract", 20,
                  "unknown entity or role 'waiter'");
  expect_error_at("value = 80", "value = 180", 15, "outside [min, max]");
  expect_error_at("curve = \"polynomial\"", "curve = \"cubic\"", 27);
  expect_error_at("agent = \"npc\"", "agent = \"ghost\"", 2);
  expect_error_at("subtract = 50 }", "subtract = 50, add = 1 }", 20);
  expect_error_at("[[action]]", "[[action]", 18);  // TOML syntax error
  const Error e = error_of("[[entity]]\nname = \"x\"\n");
  EXPECT_NE(e.message.find("[scenario]"), std::string::npos) << e.message;
}

// A misspelled attribute is an error: interned silently as a new, factless attribute, the
// condition or effect would never match and the plan would change without a word.
TEST(Scenario, MisspelledAttributeIsAnError) {
  Error e = error_of(with(kMinimal, "consumer.hunger\", subtract", "consumer.hungre\", subtract"));
  EXPECT_EQ(e.line, 20);
  EXPECT_NE(e.message.find("unknown attribute 'hungre' in 'consumer.hungre'"), std::string::npos)
      << e.message;
  EXPECT_NE(e.message.find("known: hunger"), std::string::npos) << e.message;
  e = error_of(with(kMinimal, "fact = \"self.hunger\", op", "fact = \"self.hungry\", op"));
  EXPECT_EQ(e.line, 26);
  EXPECT_NE(e.message.find("unknown attribute 'hungry'"), std::string::npos) << e.message;
  // The implicit `exists` fact of every entity stays usable.
  Result<Scenario> ok = parse_scenario(
      with(kMinimal, "triggers = [{ fact = \"self.hunger\", op = \">\", value = 10 }]",
           "triggers = [{ fact = \"self.hunger\", op = \">\", value = 10 }, { fact = "
           "\"self.exists\", op = \">\", value = 0 }]"),
      "ok.toml");
  EXPECT_TRUE(ok.ok()) << ok.error().to_string();
}

TEST(Scenario, GarbageNeverCrashes) {
  const std::string base = kMinimal;
  for (size_t cut = 0; cut < base.size(); cut += 7) {
    Result<Scenario> s = parse_scenario(base.substr(0, cut), "cut.toml");
    if (!s.ok()) {
      EXPECT_FALSE(s.error().message.empty());
    }
  }
  std::string binary(256, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 37);
  EXPECT_FALSE(parse_scenario(binary, "bin.toml").ok());
  EXPECT_FALSE(load_scenario("/nonexistent/file.toml").ok());
}

}  // namespace
}  // namespace topoplan::udgoap
