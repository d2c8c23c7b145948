#include <gtest/gtest.h>

#include "test_util.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

Domain make_domain(int64_t cost_of_first = 1) {
  DomainDef def;
  def.variables = {{"bucket", {"none", "inHands"}},
                   {"at", {"Atom at(a, b)", "Atom at(b, a)", "x=y"}},
                   {"v=w", {"p"}}};
  def.actions = {{"pick-up bucket", cost_of_first, {{0, 0, 1}}, {}},
                 {"Drop", 1, {{0, 1, 0}}, {}},
                 {"go (fast)", 1, {{1, kUndefined, 1}}, {}},
                 {"Twin", 1, {{1, 0, 2}}, {}},
                 {"twin", 1, {{1, 2, 0}}, {}}};
  auto d = Domain::compile(def);
  EXPECT_TRUE(d.ok());
  return d.ok() ? *d : Domain{};
}

TEST(PlanFile, WriteThenParse) {
  const Domain d = make_domain();
  const std::vector<ActionId> plan{0, 2, 1};
  const std::string text = write_plan(d, plan);
  EXPECT_EQ(text, "(pick-up bucket)\n(go (fast))\n(Drop)\n; cost = 3 (unit cost)\n");
  auto back = parse_plan(d, text, "p.plan");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(*back, plan);
}

TEST(PlanFile, GeneralCostAndEmptyPlan) {
  const Domain d = make_domain(7);
  EXPECT_EQ(write_plan(d, std::vector<ActionId>{0, 1}),
            "(pick-up bucket)\n(Drop)\n; cost = 8 (general cost)\n");
  EXPECT_EQ(write_plan(d, {}), "; cost = 0 (general cost)\n");
  auto empty = parse_plan(d, "; nothing to do\n\n", "p");
  ASSERT_TRUE(empty.ok());
  EXPECT_TRUE(empty->empty());
}

TEST(PlanFile, CommentsBlankLinesCrlfAndCaseFallback) {
  const Domain d = make_domain();
  auto r =
      parse_plan(d, "; header\r\n\r\n  (drop)  \r\n(PICK-UP BUCKET)\r\n(Twin)\r\n(twin)\r\n", "p");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(*r, (std::vector<ActionId>{1, 0, 3, 4}));
}

TEST(PlanFile, Errors) {
  const Domain d = make_domain();
  struct Case {
    std::string text;
    int line;
    const char* phrase;
  };
  const std::vector<Case> cases = {
      {"(Drop)\n(fly)\n", 2, "unknown action 'fly'"},
      {"(Drop)\nDrop\n", 2, "expected '(action name)'"},
      {"(Drop\n", 1, "expected '(action name)'"},
      {"\n\n(TWIN)\n", 3, "matches several actions when case is ignored"},
      {"()\n", 1, "unknown action ''"},
      {std::string("(Dr\0op)\n", 8), 1, "NUL byte"},
      {"(Drop)\n(Dr\x01op)\n", 2, "control character"},
  };
  for (const Case& c : cases) {
    auto r = parse_plan(d, c.text, "bad.plan");
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().file, "bad.plan");
    EXPECT_EQ(r.error().line, c.line) << r.error().to_string();
    EXPECT_NE(r.error().message.find(c.phrase), std::string::npos) << r.error().message;
  }
}

TEST(StateByNames, ParsesPartialStates) {
  const Domain d = make_domain();
  auto r = parse_state_by_names(d, " bucket = inHands ,at=Atom at(b, a)");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(*r, (std::vector<ValueId>{1, 1, kUndefined}));
  auto eq = parse_state_by_names(d, "at=x=y, bucket=none");
  ASSERT_TRUE(eq.ok()) << eq.error().message;
  EXPECT_EQ(*eq, (std::vector<ValueId>{0, 2, kUndefined}));
  auto empty = parse_state_by_names(d, "  ");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(*empty, (std::vector<ValueId>(3, kUndefined)));
}

TEST(StateByNames, Errors) {
  const Domain d = make_domain();
  const std::vector<std::pair<std::string, const char*>> cases = {
      {"buckt=none", "unknown variable 'buckt' (valid: 'bucket', 'at', 'v=w')"},
      {"bucket=full", "unknown value 'full' for variable 'bucket' (valid: 'none', 'inHands')"},
      {"bucket=none,bucket=inHands", "variable 'bucket' is given twice"},
      {"bucket", "expected 'variable=value'"},
      {"bucket=none,", "empty entry"},
      {",bucket=none", "empty entry"},
      {"at=Atom at(a", "unknown value 'Atom at(a'"},
  };
  for (const auto& [text, phrase] : cases) {
    auto r = parse_state_by_names(d, text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_NE(r.error().message.find(phrase), std::string::npos) << r.error().message;
  }
}

}  // namespace
}  // namespace topoplan
