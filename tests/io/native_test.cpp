#include <gtest/gtest.h>

#include "source_path.h"
#include "test_util.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using test::BadCase;

Task load_ok(const std::string& file) {
  auto r = load_task(test::domain_path(file));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().to_string());
  return r.ok() ? std::move(r).value() : Task{};
}

struct Row {
  const char* name;
  const char* var;
  const char* pre;  // nullptr: undefined
  const char* post;
  std::vector<std::pair<const char*, const char*>> prevail;
};

void expect_table(const Domain& d, const std::vector<Row>& rows) {
  ASSERT_EQ(d.num_actions(), static_cast<int32_t>(rows.size()));
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const auto a = static_cast<ActionId>(i);
    SCOPED_TRACE(r.name);
    EXPECT_EQ(d.action_name(a), r.name);
    EXPECT_EQ(d.cost(a), 1);
    ASSERT_EQ(d.effects(a).size(), 1u);
    const Effect e = d.effects(a)[0];
    EXPECT_EQ(d.variable_name(e.var), r.var);
    ASSERT_NE(e.pre, kUndefined);
    EXPECT_EQ(d.value_name(e.var, e.pre), r.pre);
    EXPECT_EQ(d.value_name(e.var, e.post), r.post);
    ASSERT_EQ(d.prevail(a).size(), r.prevail.size());
    for (size_t k = 0; k < r.prevail.size(); ++k) {
      const Fact f = d.prevail(a)[k];
      EXPECT_EQ(d.variable_name(f.var), r.prevail[k].first);
      EXPECT_EQ(d.value_name(f.var, f.value), r.prevail[k].second);
    }
  }
}

TEST(NativeDomains, HorseBreederMatchesPrevost2023Table1) {
  Task t = load_ok("horse-breeder.toml");
  const Domain& d = t.domain;
  EXPECT_EQ(d.name(), "horse-breeder");
  ASSERT_EQ(d.num_variables(), 3);
  EXPECT_EQ(d.variable_name(0), "haystack");
  EXPECT_EQ(d.value_name(0, 0), "none");
  EXPECT_EQ(d.value_name(0, 2), "inFeeder");
  EXPECT_EQ(d.domain_size(1), 2);
  EXPECT_EQ(d.value_name(2, 0), "inSource");
  expect_table(
      d, {
             {"DropHaystack", "haystack", "inHands", "none", {}},
             {"TakeHaystack", "haystack", "none", "inHands", {{"bucket", "none"}}},
             {"FillHorseFeeder", "haystack", "inHands", "inFeeder", {}},
             {"DropBucket", "bucket", "inHands", "none", {}},
             {"PickUpBucket", "bucket", "none", "inHands", {{"haystack", "none"}}},
             {"FillBucketWithWater", "water", "inSource", "inBucket", {{"bucket", "inHands"}}},
             {"FillHorseTrough", "water", "inBucket", "inTrough", {{"bucket", "inHands"}}},
         });
  EXPECT_TRUE(d.all_unary());
  EXPECT_TRUE(d.unit_cost());
  ASSERT_EQ(d.num_classes(), 1);
  EXPECT_EQ(d.class_actions(0).size(), 7u);
  ASSERT_EQ(t.instances.size(), 4u);
  using S = std::vector<ValueId>;
  EXPECT_EQ(t.instances[0].init, (S{0, 0, 0}));
  EXPECT_EQ(t.instances[0].goal, (S{2, 0, 2}));
  EXPECT_EQ(t.instances[0].npc_class, 0);
  EXPECT_EQ(t.instances[1].init, (S{1, 0, 0}));
  EXPECT_EQ(t.instances[1].goal, (S{2, 0, 2}));
  EXPECT_EQ(t.instances[2].init, (S{2, 0, 0}));
  EXPECT_EQ(t.instances[2].goal, (S{2, 0, 2}));
  EXPECT_EQ(t.instances[3].init, (S{1, 0, 0}));
  EXPECT_EQ(t.instances[3].goal, (S{2, 0, 0}));
}

TEST(NativeDomains, HorseBreeder003MatchesSasAsTopologicalSortingTable1) {
  Task t = load_ok("horse-breeder-003.toml");
  const Domain& d = t.domain;
  ASSERT_EQ(d.num_variables(), 3);
  EXPECT_EQ(d.value_name(0, 0), "stored");
  EXPECT_EQ(d.value_name(1, 0), "onFloor");
  EXPECT_EQ(d.value_name(2, 0), "inFountain");
  expect_table(d,
               {
                   {"StoreHaystack", "haystack", "inHands", "stored", {{"bucket", "onFloor"}}},
                   {"TakeHaystack", "haystack", "stored", "inHands", {{"bucket", "onFloor"}}},
                   {"FillHorseFeeder", "haystack", "inHands", "inFeeder", {{"bucket", "onFloor"}}},
                   {"DropBucket", "bucket", "inHands", "onFloor", {{"haystack", "stored"}}},
                   {"PickUpBucket", "bucket", "onFloor", "inHands", {{"haystack", "stored"}}},
                   {"FillWithWater", "water", "inFountain", "inBucket", {{"bucket", "inHands"}}},
                   {"FillHorseTrough", "water", "inBucket", "inTrough", {{"bucket", "inHands"}}},
               });
  ASSERT_EQ(t.instances.size(), 1u);
  EXPECT_EQ(t.instances[0].init, (std::vector<ValueId>{0, 0, 0}));
  EXPECT_EQ(t.instances[0].goal, (std::vector<ValueId>{2, 0, 2}));
}

TEST(NativeRoundTrip, WriteThenParseGivesTheSameDefAndInstances) {
  for (const char* file : {"horse-breeder.toml", "horse-breeder-003.toml"}) {
    SCOPED_TRACE(file);
    Task t = load_ok(file);
    const std::string text = write_native(t);
    auto back = parse_native(text, "written.toml");
    ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
    EXPECT_EQ(back->domain.to_def(), t.domain.to_def());
    EXPECT_EQ(back->instances, t.instances);
    EXPECT_EQ(write_native(*back), text);  // the writer is a fixed point
  }
}

TEST(NativeRoundTrip, CostsMultiEffectsOddNamesAndClasslessInstances) {
  DomainDef def;
  def.name = "odd \"names\"";
  def.variables = {{"door state", {"open", "closed \\ shut"}},
                   {"x", {"0", "1", "two words"}},
                   {"ünï", {"a=b", "c, d"}}};
  def.actions = {{"open door", 0, {{0, 1, 0}}, {{1, 2}}},
                 {"multi", 1234567, {{2, kUndefined, 1}, {0, 0, 1}}, {}},
                 {"x up", 1, {{1, 0, 1}}, {{2, 0}, {0, 1}}}};
  def.classes = {{"door-opener", {0}}, {"empty", {}}};
  auto d = Domain::compile(def);
  ASSERT_TRUE(d.ok()) << d.error().message;
  Task t{*d,
         {Instance{"", {1, 0, 0}, {0, kUndefined, kUndefined}, kAllActions},
          Instance{"second", {0, 2, 1}, {kUndefined, 1, 0}, 1}}};
  const std::string text = write_native(t);
  auto back = parse_native(text, "odd.toml");
  ASSERT_TRUE(back.ok()) << back.error().to_string() << "\n" << text;
  EXPECT_EQ(back->instances, t.instances);
  EXPECT_EQ(back->domain.name(), def.name);
  // Effects and prevails come back sorted by variable; compare semantically.
  const DomainDef got = back->domain.to_def();
  ASSERT_EQ(got.actions.size(), def.actions.size());
  for (size_t a = 0; a < def.actions.size(); ++a) {
    auto sorted = [](ActionDef x) {
      std::sort(x.effects.begin(), x.effects.end(),
                [](const Effect& l, const Effect& r) { return l.var < r.var; });
      std::sort(x.prevail.begin(), x.prevail.end(),
                [](const Fact& l, const Fact& r) { return l.var < r.var; });
      return x;
    };
    EXPECT_EQ(got.actions[a], sorted(def.actions[a]));
  }
  EXPECT_EQ(got.variables, def.variables);
  EXPECT_EQ(got.classes, def.classes);
}

TEST(NativeParse, MinimalFileDefaultsAndCrlf) {
  const std::string text =
      "[[variable]]\r\nname = \"v\"\r\nvalues = [\"a\", \"b\"]\r\n"
      "[[action]]\r\nname = \"go\"\r\npost = { v = \"b\" }\r\n";
  auto r = parse_native(text, "min.toml");
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(r->domain.name(), "");
  EXPECT_EQ(r->domain.cost(0), 1);
  EXPECT_EQ(r->domain.effects(0)[0].pre, kUndefined);
  EXPECT_TRUE(r->instances.empty());
}

// ---- malformed input: exact line and a key phrase of the message ----

// Lines 1-6: two variables, a {x, y} and b {p, q, r}.
const std::string kVars =
    "[[variable]]\n"
    "name = \"a\"\n"
    "values = [\"x\", \"y\"]\n"
    "[[variable]]\n"
    "name = \"b\"\n"
    "values = [\"p\", \"q\", \"r\"]\n";
// Lines 7-9: action A (a: -> y).
const std::string kAct = kVars +
                         "[[action]]\n"
                         "name = \"A\"\n"
                         "post = { a = \"y\" }\n";
// Lines 10-12: class C with A.
const std::string kCls = kAct +
                         "[[class]]\n"
                         "name = \"C\"\n"
                         "actions = [\"A\"]\n";
// Lines 13-14: instance header and name.
const std::string kInst = kCls +
                          "[[instance]]\n"
                          "name = \"I\"\n";

// Data tables, not logic: one malformed file a row (name, text, the error's line and words).
// The file, the domain and the variables.
std::vector<BadCase> file_and_variable_cases() {
  return {
      {"toml syntax", "[[variable]\nname = \"a\"\n", 1, ""},
      {"toml syntax later line", kVars + "name = = 3\n", 7, ""},
      {"duplicate toml key", kVars + "[[action]]\nname = \"A\"\nname = \"B\"\n", 9, ""},
      {"unterminated string", kVars + "[[action]]\nname = \"A\n", 8, ""},
      {"NUL byte", kVars + std::string("[[action]]\nname = \"A\0\"\n", 23), 8, ""},
      {"invalid utf-8", kVars + "[[action]]\nname = \"\xff\"\n", 8, ""},
      {"unknown top-level key", "variables = 3\n" + kVars, 1,
       "unknown key 'variables' in the file"},
      {"unknown key lands in last table", kVars + "variables = 3\n", 7,
       "unknown key 'variables' in [[variable]]"},
      {"unknown key in variable", "[[variable]]\nname = \"a\"\nvalue = [\"x\"]\n", 3,
       "unknown key 'value'"},
      {"unknown key in action", kAct + "previal = { b = \"p\" }\n", 10, "unknown key 'previal'"},
      {"unknown key in domain", "[domain]\nnme = \"d\"\n" + kVars, 2, "unknown key 'nme'"},
      {"unknown key in class", kAct + "[[class]]\nname = \"C\"\nactions = []\nextra = 1\n", 13,
       "unknown key 'extra'"},
      {"unknown key in instance", kInst + "int = {}\n", 15, "unknown key 'int'"},
      {"domain not a table", "domain = 3\n" + kVars, 1, "'domain' must be a table"},
      {"domain name not string", "[domain]\nname = 3\n" + kVars, 2, "must be a string"},
      {"domain name trailing space", "[domain]\nname = \"d \"\n" + kVars, 2,
       "trailing white space"},
      {"no variables", "[domain]\nname = \"d\"\n", 1, "no variables"},
      {"variable not array of tables", "variable = 3\n", 1, "array of tables"},
      {"variable element not table", "variable = [1]\n", 1, "must be a table"},
      {"variable missing name", "[[variable]]\nvalues = [\"x\"]\n", 1, "missing the key 'name'"},
      {"variable name not string", "[[variable]]\nname = 1\nvalues = [\"x\"]\n", 2,
       "must be a string, found an integer"},
      {"variable name empty", "[[variable]]\nname = \"\"\nvalues = [\"x\"]\n", 2, "is empty"},
      {"variable name trailing space", "[[variable]]\nname = \"a \"\nvalues = [\"x\"]\n", 2,
       "trailing white space"},
      {"variable name control char", "[[variable]]\nname = \"a\\tb\"\nvalues = [\"x\"]\n", 2,
       "control character"},
      {"duplicate variable", kVars + "[[variable]]\nname = \"a\"\nvalues = [\"z\"]\n", 8,
       "duplicate variable 'a' (first defined at line 2)"},
      {"variable missing values", "[[variable]]\nname = \"a\"\n", 1, "missing the key 'values'"},
      {"values not array", "[[variable]]\nname = \"a\"\nvalues = \"x\"\n", 3,
       "must be an array of strings"},
      {"values empty", "[[variable]]\nname = \"a\"\nvalues = []\n", 3, "has no values"},
      {"value not string", "[[variable]]\nname = \"a\"\nvalues = [\n\"x\",\n2]\n", 5,
       "must be strings, found an integer"},
      {"duplicate value", "[[variable]]\nname = \"a\"\nvalues = [\"x\",\n\"x\"]\n", 4,
       "duplicate value 'x'"},
      {"value empty", "[[variable]]\nname = \"a\"\nvalues = [\"\"]\n", 3, "is empty"},
  };
}

// Actions, classes and instances.
std::vector<BadCase> action_class_instance_cases() {
  return {
      {"action not array", kVars + "[action]\nname = \"A\"\n", 7, "array of tables"},
      {"action missing name", kVars + "[[action]]\npost = { a = \"y\" }\n", 7,
       "missing the key 'name'"},
      {"duplicate action", kAct + "[[action]]\nname = \"A\"\npost = { b = \"p\" }\n", 11,
       "duplicate action 'A' (first defined at line 8)"},
      {"action missing post", kVars + "[[action]]\nname = \"A\"\n", 7, "missing the key 'post'"},
      {"post not table", kVars + "[[action]]\nname = \"A\"\npost = \"a\"\n", 9, "must be a table"},
      {"post empty", kVars + "[[action]]\nname = \"A\"\npost = {}\n", 9, "changes nothing"},
      {"post unknown variable", kVars + "[[action]]\nname = \"A\"\npost = { c = \"y\" }\n", 9,
       "unknown variable 'c' in 'post' of action 'A' (valid: 'a', 'b')"},
      {"post unknown value", kVars + "[[action]]\nname = \"A\"\npost = { a = \"z\" }\n", 9,
       "unknown value 'z' for variable 'a' in 'post' of action 'A' (valid: 'x', 'y')"},
      {"post value not string", kVars + "[[action]]\nname = \"A\"\npost = { a = 1 }\n", 9,
       "must be a string (a value name)"},
      {"post in subtable line",
       kVars + "[[action]]\nname = \"A\"\n[action.post]\nb = \"p\"\nc = \"x\"\n", 11,
       "unknown variable 'c'"},
      {"pre unknown value", kAct + "pre = { a = \"w\" }\n", 10, "unknown value 'w'"},
      {"pre not in post", kAct + "pre = { b = \"p\" }\n", 10, "which 'post' does not change"},
      {"prevail on post variable", kAct + "prevail = { a = \"x\" }\n", 10,
       "in both 'post' and 'prevail'"},
      {"prevail unknown variable", kAct + "prevail = { zz = \"x\" }\n", 10,
       "unknown variable 'zz'"},
      {"prevail not table", kAct + "prevail = [\"b\"]\n", 10, "must be a table"},
      {"cost negative", kAct + "cost = -1\n", 10, "must not be negative"},
      {"cost float", kAct + "cost = 1.5\n", 10, "must be an integer, found a float"},
      {"cost string", kAct + "cost = \"1\"\n", 10, "must be an integer, found a string"},
      {"cost above limit", kAct + "cost = 1099511627777\n", 10, "above the limit"},
      {"cost overflow", kAct + "cost = 99999999999999999999\n", 10, ""},
      {"class missing actions", kAct + "[[class]]\nname = \"C\"\n", 10,
       "missing the key 'actions'"},
      {"class unknown action", kAct + "[[class]]\nname = \"C\"\nactions = [\"A\", \"B\"]\n", 12,
       "unknown action 'B' (valid: 'A')"},
      {"class action twice", kAct + "[[class]]\nname = \"C\"\nactions = [\"A\",\n\"A\"]\n", 13,
       "listed twice"},
      {"class actions not array", kAct + "[[class]]\nname = \"C\"\nactions = \"A\"\n", 12,
       "must be an array of action names"},
      {"duplicate class", kCls + "[[class]]\nname = \"C\"\nactions = []\n", 14,
       "duplicate class 'C' (first defined at line 11)"},
      {"instance missing init", kInst + "goal = { a = \"y\" }\n", 13, "missing the key 'init'"},
      {"instance missing goal", kInst + "init = { a = \"x\", b = \"p\" }\n", 13,
       "missing the key 'goal'"},
      {"init not total", kInst + "init = { a = \"x\" }\ngoal = { a = \"y\" }\n", 15,
       "missing: 'b'"},
      {"init unknown value", kInst + "init = { a = \"x\", b = \"s\" }\ngoal = { a = \"y\" }\n", 15,
       "unknown value 's' for variable 'b'"},
      {"goal unknown variable",
       kInst + "init = { a = \"x\", b = \"p\" }\ngoal = { a = \"y\", c = \"p\" }\n", 16,
       "unknown variable 'c'"},
      {"goal empty", kInst + "init = { a = \"x\", b = \"p\" }\ngoal = {}\n", 16, "is empty"},
      {"instance unknown class",
       kInst + "class = \"D\"\ninit = { a = \"x\", b = \"p\" }\ngoal = { a = \"y\" }\n", 15,
       "unknown class 'D' (valid: 'C')"},
      {"instance class not string",
       kInst + "class = 0\ninit = { a = \"x\", b = \"p\" }\ngoal = { a = \"y\" }\n", 15,
       "must be a string"},
      {"duplicate instance",
       kInst +
           "init = { a = \"x\", b = \"p\" }\ngoal = { a = \"y\" }\n[[instance]]\nname = \"I\"\n",
       18, "duplicate instance 'I' (first defined at line 14)"},
      {"instance name empty", kCls + "[[instance]]\nname = \"\"\n", 14, "is empty"},
  };
}

std::vector<BadCase> native_cases() {
  std::vector<BadCase> cases = file_and_variable_cases();
  for (BadCase& c : action_class_instance_cases()) cases.push_back(std::move(c));
  return cases;
}

TEST(NativeMalformed, EveryCaseFailsAtTheRightLine) {
  const auto cases = native_cases();
  test::expect_errors(cases, parse_native, "bad.toml", 40);
}

TEST(NativeMalformed, BaseTextsAreValid) {
  // The malformed cases above are built on these prefixes; each prefix must parse (apart from
  // the instance one, which is cut short on purpose).
  for (const std::string* text : {&kVars, &kAct, &kCls}) {
    auto r = parse_native(*text, "base.toml");
    EXPECT_TRUE(r.ok()) << r.error().to_string();
  }
}

TEST(LoadTask, ErrorsForMissingFilesAndDirectories) {
  auto missing = load_task("/nonexistent/dir/x.toml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().file, "/nonexistent/dir/x.toml");
  auto dir = load_task(testing::source_path("domains"));
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.error().message.find("directory"), std::string::npos);
}

}  // namespace
}  // namespace topoplan
