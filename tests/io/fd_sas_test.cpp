#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "test_util.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using test::BadCase;

// A hand-written task: metric 1, a mutex group, a partial goal, a multi-effect operator and a
// zero-cost operator. Line numbers are referred to by the malformed cases below.
const char* const kBase[] = {
    "begin_version",        // 1
    "3",                    // 2
    "end_version",          // 3
    "begin_metric",         // 4
    "1",                    // 5
    "end_metric",           // 6
    "2",                    // 7
    "begin_variable",       // 8
    "var0",                 // 9
    "-1",                   // 10
    "2",                    // 11
    "Atom a(x, y)",         // 12
    "NegatedAtom a(x, y)",  // 13
    "end_variable",         // 14
    "begin_variable",       // 15
    "var1",                 // 16
    "-1",                   // 17
    "3",                    // 18
    "v0",                   // 19
    "v1",                   // 20
    "v2",                   // 21
    "end_variable",         // 22
    "1",                    // 23
    "begin_mutex_group",    // 24
    "2",                    // 25
    "0 0",                  // 26
    "1 1",                  // 27
    "end_mutex_group",      // 28
    "begin_state",          // 29
    "0",                    // 30
    "2",                    // 31
    "end_state",            // 32
    "begin_goal",           // 33
    "1",                    // 34
    "1 0",                  // 35
    "end_goal",             // 36
    "2",                    // 37
    "begin_operator",       // 38
    "move a b",             // 39
    "1",                    // 40
    "0 0",                  // 41
    "1",                    // 42
    "0 1 -1 1",             // 43
    "5",                    // 44
    "end_operator",         // 45
    "begin_operator",       // 46
    "swap",                 // 47
    "0",                    // 48
    "2",                    // 49
    "0 0 0 1",              // 50
    "0 1 2 0",              // 51
    "0",                    // 52
    "end_operator",         // 53
    "0",                    // 54
};
constexpr int kBaseLines = static_cast<int>(std::size(kBase));

// The base text with line `n` (1-based) replaced by `text` (which may hold several lines or
// none); `upto` > 0 cuts the file after that line.
std::string base(int n = 0, const std::string& text = "", int upto = 0) {
  std::string out;
  for (int i = 1; i <= kBaseLines; ++i) {
    if (upto > 0 && i > upto) break;
    if (i == n) {
      out += text;
      if (!text.empty()) out += '\n';
    } else {
      out += kBase[i - 1];
      out += '\n';
    }
  }
  return out;
}

void expect_base_task(const Task& t) {
  const Domain& d = t.domain;
  ASSERT_EQ(d.num_variables(), 2);
  EXPECT_EQ(d.variable_name(0), "var0");
  EXPECT_EQ(d.value_name(0, 1), "NegatedAtom a(x, y)");
  EXPECT_EQ(d.domain_size(1), 3);
  ASSERT_EQ(d.num_actions(), 2);
  EXPECT_EQ(d.action_name(0), "move a b");
  EXPECT_EQ(d.cost(0), 5);
  EXPECT_EQ(d.cost(1), 0);
  EXPECT_FALSE(d.unit_cost());
  ASSERT_EQ(d.prevail(0).size(), 1u);
  EXPECT_EQ(d.prevail(0)[0], (Fact{0, 0}));
  ASSERT_EQ(d.effects(0).size(), 1u);
  EXPECT_EQ(d.effects(0)[0], (Effect{1, kUndefined, 1}));
  ASSERT_EQ(d.effects(1).size(), 2u);
  EXPECT_EQ(d.effects(1)[0], (Effect{0, 0, 1}));
  EXPECT_EQ(d.effects(1)[1], (Effect{1, 2, 0}));
  EXPECT_FALSE(d.all_unary());
  EXPECT_EQ(d.num_classes(), 0);
  ASSERT_EQ(t.instances.size(), 1u);
  EXPECT_EQ(t.instances[0].init, (std::vector<ValueId>{0, 2}));
  EXPECT_EQ(t.instances[0].goal, (std::vector<ValueId>{kUndefined, 0}));
  EXPECT_EQ(t.instances[0].npc_class, kAllActions);
}

TEST(FdRead, HandWrittenTask) {
  auto r = parse_fd_sas(base(), "dir/task.sas");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.name(), "task");
  expect_base_task(*r);
}

TEST(FdRead, Metric0MakesEveryOperatorCostOne) {
  auto r = parse_fd_sas(base(5, "0"), "t.sas");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.cost(0), 1);
  EXPECT_EQ(r->domain.cost(1), 1);
  EXPECT_TRUE(r->domain.unit_cost());
}

TEST(FdRead, BlankLinesCrlfAndLooseSpacing) {
  std::string loose;
  for (int i = 1; i <= kBaseLines; ++i) {
    std::string line = kBase[i - 1];
    if (i == 43) line = "  0\t1  -1 1 ";  // numbers: any spaces or tabs between and around
    loose += "\r\n" + line + "\r\n   \r\n";
  }
  auto r = parse_fd_sas(loose, "t.sas");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_base_task(*r);
}

// Editors on Windows start files with a UTF-8 byte-order mark; it failed on begin_version.
TEST(FdRead, ByteOrderMarkIsSkipped) {
  auto r = parse_fd_sas("\xEF\xBB\xBF" + base(), "t.sas");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  expect_base_task(*r);
  // Only at the very start: a second mark is still bad input, with its line.
  auto bad = parse_fd_sas("\xEF\xBB\xBF\xEF\xBB\xBF" + base(), "t.sas");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().line, 1);
}

TEST(FdRead, NoTrailingNewline) {
  std::string text = base();
  text.pop_back();
  auto r = parse_fd_sas(text, "t.sas");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
}

TEST(FdRoundTrip, ShippedSasIsTheWriterOutput) {
  auto t = load_task(test::domain_path("horse-breeder.toml"));
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  const std::string written = write_fd_sas(t->domain, t->instances[0]);
  const std::string path = test::domain_path("horse-breeder.sas");
  if (std::getenv("TOPOPLAN_REGENERATE")) std::ofstream(path, std::ios::binary) << written;
  EXPECT_EQ(test::read_text(path), written)
      << "domains/horse-breeder.sas is stale: rerun with TOPOPLAN_REGENERATE=1";
  auto back = load_task(path);
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  EXPECT_EQ(back->domain.name(), "horse-breeder");
}

TEST(FdRoundTrip, NativeToFdKeepsTheSemantics) {
  for (const char* file : {"horse-breeder.toml", "horse-breeder-003.toml"}) {
    auto t = load_task(test::domain_path(file));
    ASSERT_TRUE(t.ok()) << t.error().to_string();
    for (const Instance& inst : t->instances) {
      SCOPED_TRACE(std::string(file) + " " + inst.name);
      const std::string text = write_fd_sas(t->domain, inst);
      auto back = parse_fd_sas(text, "x.sas");
      ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
      const DomainDef want = t->domain.to_def();
      const DomainDef got = back->domain.to_def();
      EXPECT_EQ(got.variables, want.variables);
      EXPECT_EQ(got.actions, want.actions);  // names, effects, prevails, costs, order
      ASSERT_EQ(back->instances.size(), 1u);
      EXPECT_EQ(back->instances[0].init, inst.init);
      EXPECT_EQ(back->instances[0].goal, inst.goal);
      EXPECT_EQ(write_fd_sas(back->domain, back->instances[0]), text);
    }
  }
}

TEST(FdWrite, ClassRestrictsTheOperatorsAndCostsPickTheMetric) {
  DomainDef def;
  def.variables = {{"v", {"a", "b", "c"}}, {"w", {"p", "q"}}};
  def.actions = {{"ab", 3, {{0, 0, 1}}, {}},
                 {"bc", 1, {{0, 1, 2}}, {{1, 1}}},
                 {"pq", 1, {{1, kUndefined, 1}}, {}}};
  def.classes = {{"c1", {2, 1}}};
  auto d = Domain::compile(def);
  ASSERT_TRUE(d.ok());
  const Instance inst{"", {0, 0}, {2, kUndefined}, 0};
  const std::string text = write_fd_sas(*d, inst);
  EXPECT_NE(text.find("begin_metric\n0\nend_metric"), std::string::npos) << text;
  auto back = parse_fd_sas(text, "c.sas");
  ASSERT_TRUE(back.ok()) << back.error().to_string();
  ASSERT_EQ(back->domain.num_actions(), 2);
  EXPECT_EQ(back->domain.action_name(0), "bc");  // domain order, not class order
  EXPECT_EQ(back->domain.action_name(1), "pq");
  const std::string all = write_fd_sas(*d, Instance{"", {0, 0}, {2, kUndefined}, kAllActions});
  EXPECT_NE(all.find("begin_metric\n1\nend_metric"), std::string::npos);
  auto back_all = parse_fd_sas(all, "c.sas");
  ASSERT_TRUE(back_all.ok());
  EXPECT_EQ(back_all->domain.cost(0), 3);
}

std::vector<BadCase> fd_cases() {
  const std::string nul("move\0b", 6);
  return {
      {"empty file", "", 1, "unexpected end of file: expected 'begin_version'"},
      {"only blank lines", "\n\n  \n", 3, "unexpected end of file"},
      {"not begin_version", base(1, "begin_versio"), 1, "expected 'begin_version'"},
      {"begin_version with token", base(1, "begin_version 3"), 1, "expected 'begin_version'"},
      {"toml given as sas", "[domain]\nname = \"x\"\n", 1, "expected 'begin_version'"},
      {"version 2", base(2, "2"), 2, "the version 2 is out of range"},
      {"version two numbers", base(2, "3 3"), 2, "too many numbers"},
      {"version junk", base(2, "3x"), 2, "expected the version, found '3x'"},
      {"missing end_version", base(3, "end_versio"), 3, "expected 'end_version'"},
      {"metric 2", base(5, "2"), 5, "the metric 2 is out of range (0..1)"},
      {"metric plus sign", base(5, "+1"), 5, "found '+1'"},
      {"zero variables", base(7, "0"), 7, "number of variables 0 is out of range"},
      {"variables overflow", base(7, "99999999999999999999"), 7, "is out of range"},
      {"variables above limit", base(7, "1000000000"), 7, "out of range (1..1048576)"},
      {"more variables claimed", base(7, "3"), 23, "expected 'begin_variable', found '1'"},
      {"variable name trailing space", base(9, "var0 "), 9, "trailing white space"},
      {"variable name leading tab", base(9, "\tvar0"), 9, "contains a control character"},
      {"value name leading space", base(19, " v0"), 19, "leading or trailing white space"},
      {"duplicate variable", base(16, "var0"), 16,
       "duplicate variable name 'var0' (first at line 9)"},
      {"derived variable", base(10, "0"), 10, "variable 'var0' is a derived variable"},
      {"layer -2", base(10, "-2"), 10, "axiom layer -2 is out of range"},
      {"zero values", base(11, "0"), 11, "number of values 0 is out of range"},
      {"too many values", base(11, "70000"), 11, "out of range (1..65536)"},
      {"duplicate value", base(13, "Atom a(x, y)"), 13, "duplicate value name"},
      {"more values claimed", base(11, "3"), 15, "expected 'end_variable', found 'begin_variable'"},
      {"negative mutex count", base(23, "-1"), 23, "number of mutex groups -1 is out of range"},
      {"mutex variable out of range", base(26, "5 0"), 26, "variable 5 out of range"},
      {"mutex value out of range", base(26, "0 7"), 26, "value 7 out of range for variable 'var0'"},
      {"mutex pair short", base(26, "0"), 26, "expected 'VAR VAL'"},
      {"initial value out of range", base(31, "3"), 31, "value 3 out of range for variable 'var1'"},
      {"initial value negative", base(30, "-1"), 30, "an initial value -1 is out of range"},
      {"initial state short", base(31, "end_state"), 31,
       "expected an initial value, found 'end_state'"},
      {"initial state long", base(32, "1\nend_state"), 32, "expected 'end_state', found '1'"},
      {"goal size 0", base(34, "0"), 34, "the goal size 0 is out of range (1..2)"},
      {"goal size 3", base(34, "3"), 34, "out of range (1..2)"},
      {"goal variable twice", base(34, "2\n1 0", 0) /* line 35 stays "1 0" */, 36,
       "appears twice in the goal"},
      {"goal variable negative", base(35, "-1 0"), 35, "variable -1 out of range"},
      {"operator count junk", base(37, "abc"), 37, "expected the number of operators, found 'abc'"},
      {"operator count above limit", base(37, "1000000000"), 37, "out of range (0..16777216)"},
      {"billion mutex groups then EOF", base(23, "1000000000", 23), 23,
       "unexpected end of file: expected 'begin_mutex_group'"},
      {"many operators then EOF", base(37, "16000000", 37), 37,
       "unexpected end of file: expected 'begin_operator'"},
      {"more operators claimed", base(37, "3"), 54, "expected 'begin_operator', found '0'"},
      {"duplicate operator", base(47, "move a b"), 47, "duplicate operator name 'move a b'"},
      {"prevail count above variables", base(40, "3"), 40, "out of range (0..2)"},
      {"prevail variable out of range", base(41, "2 0"), 41, "variable 2 out of range"},
      {"prevail value out of range", base(41, "0 2"), 41, "value 2 out of range"},
      {"prevail and effect same variable", base(41, "1 0"), 43,
       "operator 'move a b': variable 'var1' appears twice"},
      {"two prevails same variable", base(40, "2\n0 0\n0 1", 0) + "", 0, ""},  // replaced below
      {"zero effects", base(42, "0"), 42, "number of effects 0 is out of range"},
      {"conditional effect", base(43, "1 0 0 1 -1 1"), 43,
       "operator 'move a b' has a conditional effect"},
      {"effect too short", base(43, "0 1 1"), 43, "expected an effect '0 VAR PRE POST'"},
      {"effect too long", base(43, "0 1 -1 1 1"), 43, "expected an effect"},
      {"effect pre -2", base(43, "0 1 -2 1"), 43, "value -2 out of range"},
      {"effect post -1", base(43, "0 1 -1 -1"), 43, "value -1 out of range"},
      {"two effects same variable", base(51, "0 0 1 0"), 51, "appears twice"},
      {"negative cost", base(44, "-1"), 44, "the operator cost -1 is out of range"},
      {"cost above limit", base(44, "1099511627777"), 44, "out of range (0..1099511627776)"},
      {"cost junk", base(44, "5a"), 44, "found '5a'"},
      {"missing end_operator", base(45, "end_op"), 45, "expected 'end_operator'"},
      {"axioms", base(54, "1"), 54, "axioms are not supported"},
      {"content after axioms", base() + "junk\n", 55, "unexpected content after the axioms"},
      {"truncated in values", base(0, "", 20), 20, "unexpected end of file: expected value name"},
      {"truncated before axioms", base(0, "", 53), 53, "expected the number of axioms"},
      {"NUL byte", base(39, nul), 39, "NUL byte"},
      {"carriage return inside", base(39, "move\ra b"), 39, "carriage return inside a line"},
      {"control character", base(39, "move\x01"), 39, "control character"},
      {"invalid utf-8 name", base(39, "move \xff"), 39, "is not valid UTF-8"},
      {"binary garbage",
       std::string("\x7f"
                   "ELF\x02\x01\x01",
                   7),
       1, "control character"},
  };
}

TEST(FdMalformed, EveryCaseFailsAtTheRightLine) {
  auto cases = fd_cases();
  // Two prevail conditions on one variable: P = 2 at line 40, then "0 0" (41) and "0 1" (42).
  for (BadCase& c : cases)
    if (std::string(c.name) == "two prevails same variable") {
      std::string text;
      for (int i = 1; i <= kBaseLines; ++i) {
        if (i == 40)
          text += "2\n0 0\n0 1\n";
        else if (i != 41)
          text += std::string(kBase[i - 1]) + "\n";
      }
      c.text = text;
      c.line = 42;
      c.phrase = "two prevail conditions on variable 'var0'";
    }
  test::expect_errors(cases, parse_fd_sas, "bad.sas", 40);
}

}  // namespace
}  // namespace topoplan
