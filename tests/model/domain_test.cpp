#include "topoplan/runtime/domain.h"

#include <gtest/gtest.h>

#include "../support/horse_breeder.h"

namespace topoplan {
namespace {

using testing::horse_breeder_000_def;

TEST(Domain, CompilesHorseBreeder) {
  Result<Domain> d = Domain::compile(horse_breeder_000_def());
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  EXPECT_EQ(d->num_variables(), 3);
  EXPECT_EQ(d->num_actions(), 7);
  EXPECT_EQ(d->domain_size(0), 3);
  EXPECT_EQ(d->domain_size(1), 2);
  EXPECT_EQ(d->max_domain_size(), 3);
  EXPECT_EQ(d->value_name(2, 2), "inTrough");
  EXPECT_EQ(d->action_name(4), "PickUpBucket");
  ASSERT_EQ(d->effects(4).size(), 1u);
  EXPECT_EQ(d->effects(4)[0], (Effect{1, 0, 1}));
  ASSERT_EQ(d->prevail(4).size(), 1u);
  EXPECT_EQ(d->prevail(4)[0], (Fact{0, 0}));
  EXPECT_TRUE(d->all_unary());
  EXPECT_TRUE(d->unit_cost());
  EXPECT_EQ(d->find_variable("water"), 2);
  EXPECT_EQ(d->find_value(0, "inFeeder"), 2);
  EXPECT_EQ(d->find_value(0, "nope"), std::nullopt);
  EXPECT_EQ(d->find_action("DropBucket"), 3);
  EXPECT_EQ(d->find_action("dropbucket"), std::nullopt);
}

TEST(Domain, RoundTripsThroughDef) {
  DomainDef def = horse_breeder_000_def();
  def.actions[2].cost = 5;
  def.classes = {{"breeder", {0, 1, 2}}, {"water-carrier", {3, 4, 5, 6}}};
  Result<Domain> d = Domain::compile(def);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->to_def(), def);
  EXPECT_FALSE(d->unit_cost());
}

TEST(Domain, ClassesAndMasks) {
  DomainDef def = horse_breeder_000_def();
  def.classes = {{"breeder", {0, 2}}, {"all", {0, 1, 2, 3, 4, 5, 6}}};
  Result<Domain> d = Domain::compile(def);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->num_classes(), 2);
  EXPECT_EQ(d->find_class("breeder"), 0);
  auto mask = d->action_mask(0);
  EXPECT_EQ(std::vector<uint8_t>(mask.begin(), mask.end()),
            (std::vector<uint8_t>{1, 0, 1, 0, 0, 0, 0}));
  auto all = d->action_mask(kAllActions);
  EXPECT_EQ(std::count(all.begin(), all.end(), 1), 7);
}

TEST(Task, FindsInstancesByName) {
  Result<Domain> d = Domain::compile(horse_breeder_000_def());
  ASSERT_TRUE(d.ok());
  Task task{std::move(d).value(), {}};
  EXPECT_EQ(task.find_instance("morning"), nullptr);
  task.instances.push_back(Instance{"morning", {0, 0, 0}, {2, 0, 2}, kAllActions});
  task.instances.push_back(Instance{"noon", {2, 0, 0}, {2, 0, 2}, kAllActions});
  task.instances.push_back(Instance{"morning", {1, 0, 0}, {2, 0, 2}, kAllActions});
  ASSERT_NE(task.find_instance("noon"), nullptr);
  EXPECT_EQ(task.find_instance("noon")->init, (std::vector<ValueId>{2, 0, 0}));
  EXPECT_EQ(task.find_instance("morning"), &task.instances[0]);  // the first of that name
  EXPECT_EQ(task.find_instance_index("morning"), 0);
  EXPECT_EQ(task.find_instance_index("noon"), 1);
  EXPECT_EQ(task.find_instance_index("Noon"), std::nullopt);
  EXPECT_EQ(task.find_instance(""), nullptr);
}

TEST(Domain, NonUnaryActionsAreRepresentable) {
  DomainDef def = horse_breeder_000_def();
  def.actions.push_back({"Reset", 3, {{0, kUndefined, 0}, {2, 2, 0}}, {}});
  Result<Domain> d = Domain::compile(def);
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->all_unary());
  EXPECT_FALSE(d->is_unary(7));
  EXPECT_EQ(d->effects(7).size(), 2u);
}

struct BadDef {
  const char* what;
  void (*mutate)(DomainDef&);
  const char* message;
};

class DomainRejects : public ::testing::TestWithParam<BadDef> {};

TEST_P(DomainRejects, WithAClearMessage) {
  DomainDef def = horse_breeder_000_def();
  GetParam().mutate(def);
  Result<Domain> d = Domain::compile(def);
  ASSERT_FALSE(d.ok()) << GetParam().what;
  EXPECT_NE(d.error().message.find(GetParam().message), std::string::npos)
      << "got: " << d.error().message;
}

INSTANTIATE_TEST_SUITE_P(
    Model, DomainRejects,
    ::testing::Values(
        BadDef{"no variables", [](DomainDef& d) { d.variables.clear(); }, "no variables"},
        BadDef{"duplicate variable", [](DomainDef& d) { d.variables[1].name = "haystack"; },
               "duplicate variable name 'haystack'"},
        BadDef{"empty domain", [](DomainDef& d) { d.variables[1].values.clear(); },
               "'bucket' has no values"},
        BadDef{"duplicate value", [](DomainDef& d) { d.variables[0].values[2] = "none"; },
               "duplicate value name 'none'"},
        BadDef{"empty value name", [](DomainDef& d) { d.variables[0].values[1] = ""; },
               "empty name"},
        BadDef{"newline in a value name", [](DomainDef& d) { d.variables[0].values[1] = "a\nb"; },
               "control character"},
        BadDef{"NUL in an action name",
               [](DomainDef& d) { d.actions[0].name = std::string("a\0b", 3); },
               "control character"},
        BadDef{"duplicate action", [](DomainDef& d) { d.actions[1].name = "DropHaystack"; },
               "duplicate action name 'DropHaystack'"},
        BadDef{"negative cost", [](DomainDef& d) { d.actions[0].cost = -1; }, "negative cost"},
        BadDef{"huge cost", [](DomainDef& d) { d.actions[0].cost = kMaxCost + 1; },
               "above the limit"},
        BadDef{"no effect", [](DomainDef& d) { d.actions[0].effects.clear(); }, "no effect"},
        BadDef{"effect var out of range", [](DomainDef& d) { d.actions[0].effects[0].var = 9; },
               "unknown variable 9"},
        BadDef{"post out of range", [](DomainDef& d) { d.actions[0].effects[0].post = 3; },
               "post-condition value 3 out of range"},
        BadDef{"pre out of range", [](DomainDef& d) { d.actions[3].effects[0].pre = 2; },
               "pre-condition value 2 out of range"},
        BadDef{"prevail out of range", [](DomainDef& d) { d.actions[1].prevail[0].value = 7; },
               "prevail value 7 out of range"},
        BadDef{"prevail on effect var",
               [](DomainDef& d) {
                 d.actions[1].prevail.push_back({0, 0});
               },
               "appears twice"},
        BadDef{"two effects on a var",
               [](DomainDef& d) {
                 d.actions[0].effects.push_back({0, 1, 2});
               },
               "two effects on variable 'haystack'"},
        BadDef{"class with unknown action",
               [](DomainDef& d) {
                 d.classes = {{"c", {99}}};
               },
               "unknown action 99"},
        BadDef{"class lists an action twice",
               [](DomainDef& d) {
                 d.classes = {{"c", {1, 1}}};
               },
               "listed twice"},
        BadDef{"duplicate class",
               [](DomainDef& d) {
                 d.classes = {{"c", {}}, {"c", {}}};
               },
               "duplicate class name 'c'"}));

TEST(Domain, LargeDomainsCompileInLinearTime) {
  // 65,536 values: a quadratic duplicate check would take seconds here.
  DomainDef def;
  VariableDef var{"big", {}};
  for (int x = 0; x < kMaxDomainSize; ++x) var.values.push_back("x" + std::to_string(x));
  def.variables.push_back(var);
  def.actions.push_back({"a", 1, {{0, kUndefined, 0}}, {}});
  EXPECT_TRUE(Domain::compile(def).ok());
  def.variables[0].values.back() = "x7";
  Result<Domain> dup = Domain::compile(def);
  ASSERT_FALSE(dup.ok());
  EXPECT_NE(dup.error().message.find("duplicate value name 'x7'"), std::string::npos);
}

TEST(Domain, ChecksInstances) {
  Result<Domain> d = Domain::compile(horse_breeder_000_def());
  ASSERT_TRUE(d.ok());
  EXPECT_FALSE(d->check_instance(testing::make_instance({0, 0, 0}, {2, 0, 2})));
  EXPECT_FALSE(d->check_instance(testing::make_instance({0, 0, 0}, {2, kUndefined, kUndefined})));
  auto e = d->check_instance(testing::make_instance({0, 0}, {2, 0, 2}));
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("initial state has 2 values"), std::string::npos);
  e = d->check_instance(testing::make_instance({0, kUndefined, 0}, {2, 0, 2}));
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("must be total"), std::string::npos);
  e = d->check_instance(testing::make_instance({0, 0, 0}, {3, 0, 2}));
  ASSERT_TRUE(e);
  EXPECT_NE(e->message.find("goal value 3 out of range for variable 'haystack'"),
            std::string::npos);
  e = d->check_instance(testing::make_instance({0, 0, 0}, {2, 0, 2}, 4));
  ASSERT_TRUE(e);
}

TEST(Domain, FormatsStatesByName) {
  Result<Domain> d = Domain::compile(horse_breeder_000_def());
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(format_state(*d, std::vector<ValueId>{2, kUndefined, 1}),
            "⟨haystack=inFeeder, water=inBucket⟩");
}

}  // namespace
}  // namespace topoplan
