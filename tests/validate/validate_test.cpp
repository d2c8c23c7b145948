#include "topoplan/runtime/validate.h"

#include <gtest/gtest.h>

#include "../support/horse_breeder.h"

namespace topoplan {
namespace {

using testing::make_instance;

class ValidateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DomainDef def = testing::horse_breeder_000_def();
    def.classes = {{"feeder-only", {0, 1, 2}}};
    def.actions[2].cost = 4;
    domain_ = std::move(Domain::compile(def)).value();
  }
  Domain domain_;
};

TEST_F(ValidateTest, AcceptsThePapersPlan) {
  // Δ = ⟨a5, a6, a7, a4, a2, a3⟩ (Prévost et al. 2023 §3), ids shifted by one.
  // References: docs/references.md.
  const std::vector<ActionId> plan = {4, 5, 6, 3, 1, 2};
  Validation v = validate_plan(domain_, make_instance({0, 0, 0}, {2, 0, 2}), plan);
  EXPECT_TRUE(v.valid) << v.reason;
  EXPECT_EQ(v.failed_step, -1);
  EXPECT_EQ(v.cost, 9);
  EXPECT_EQ(v.final_state, (std::vector<ValueId>{2, 0, 2}));
}

TEST_F(ValidateTest, NamesTheFailingPrevailCondition) {
  // TakeHaystack first, then PickUpBucket: its prevail haystack=none no longer holds. The
  // contract of validate.h: failed_step is 0-based (1), the message counts from 1 ("step 2").
  const std::vector<ActionId> plan = {1, 4};
  Validation v = validate_plan(domain_, make_instance({0, 0, 0}, {2, 0, 2}), plan);
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.failed_step, 1);
  EXPECT_EQ(v.reason,
            "step 2 (PickUpBucket): prevail-condition 'haystack=none' does not hold (it is "
            "'haystack=inHands')");
}

TEST_F(ValidateTest, NamesTheFailingPreCondition) {
  const std::vector<ActionId> plan = {3};
  Validation v = validate_plan(domain_, make_instance({0, 0, 0}, {2, 0, 2}), plan);
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.failed_step, 0);
  EXPECT_NE(v.reason.find("pre-condition 'bucket=inHands' does not hold (it is 'bucket=none')"),
            std::string::npos);
}

TEST_F(ValidateTest, ReportsAnUnreachedGoal) {
  const std::vector<ActionId> plan = {1, 2};
  Validation v = validate_plan(domain_, make_instance({0, 0, 0}, {2, 0, 2}), plan);
  EXPECT_FALSE(v.valid);
  EXPECT_EQ(v.failed_step, -1);
  EXPECT_NE(v.reason.find("goal is not reached: 'water=inTrough' is required"), std::string::npos);
  // The same plan satisfies a partial goal.
  EXPECT_TRUE(
      validate_plan(domain_, make_instance({0, 0, 0}, {2, kUndefined, kUndefined}), plan).valid);
}

TEST_F(ValidateTest, RejectsActionsOutsideTheNpcClass) {
  const std::vector<ActionId> plan = {4};
  Validation v =
      validate_plan(domain_, make_instance({0, 0, 0}, {kUndefined, 1, kUndefined}, 0), plan);
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.reason.find("not available to NPC class 'feeder-only'"), std::string::npos);
}

TEST_F(ValidateTest, RejectsUnknownActionIds) {
  const std::vector<ActionId> plan = {42};
  Validation v = validate_plan(domain_, make_instance({0, 0, 0}, {2, 0, 2}), plan);
  EXPECT_FALSE(v.valid);
  EXPECT_NE(v.reason.find("no such action"), std::string::npos);
}

TEST_F(ValidateTest, EmptyPlanIsValidWhenInitSatisfiesGoal) {
  EXPECT_TRUE(validate_plan(domain_, make_instance({2, 0, 2}, {2, 0, 2}), {}).valid);
  EXPECT_FALSE(validate_plan(domain_, make_instance({0, 0, 0}, {2, 0, 2}), {}).valid);
}

TEST_F(ValidateTest, UndefinedPreConditionMatchesAnyValue) {
  DomainDef def = testing::horse_breeder_000_def();
  def.actions.push_back({"Teleport", 1, {{2, kUndefined, 2}}, {}});
  Domain d = std::move(Domain::compile(def)).value();
  const std::vector<ActionId> plan = {7};
  EXPECT_TRUE(validate_plan(d, make_instance({0, 0, 1}, {kUndefined, kUndefined, 2}), plan).valid);
}

}  // namespace
}  // namespace topoplan
