// Class analysis on the papers' benchmark families (include/topoplan/tools/families.h), worked out
// by hand from their definitions.
#include <gtest/gtest.h>

#include "topoplan/runtime/analysis.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

// Every variable's actions form an n-cycle and the action setting ⌊n/2⌋ on v_1..v_{m-1} is
// requested by the actions of lower variables: a requestable action on a cycle of n actions.
TEST(AnalysisFamilies, MultiPrvNCycleIsNoneForLongCycles) {
  const Task t = multiprv_n_cycle(4, 5);
  const ClassReport r = analyze(t.domain);
  EXPECT_TRUE(r.unary);
  EXPECT_TRUE(r.post_unique);
  EXPECT_TRUE(r.single_valued);
  EXPECT_EQ(r.requestable.size(), 3u);
  for (const VariableReport& v : r.variables) {
    ASSERT_EQ(v.cycles.size(), 1u);
    EXPECT_EQ(v.cycles[0].actions.size(), 5u);
  }
  EXPECT_EQ(r.structural_class, StructuralClass::kNone);
  EXPECT_EQ(r.violations.size(), 3u);
  for (const ClassViolation& cv : r.violations)
    EXPECT_EQ(cv.kind, ClassViolation::Kind::kLongCycle);
}

// n = 2: Bäckström's tunnel of lights. Each 2-cycle holds one requestable action (the one
// setting 1): C2S. With one variable nothing is requested: C0.
TEST(AnalysisFamilies, MultiPrv2CycleIsC2S) {
  EXPECT_EQ(analyze(multiprv_2_cycle(6).domain).structural_class, StructuralClass::kC2S);
  EXPECT_EQ(analyze(multiprv_2_cycle(1).domain).structural_class, StructuralClass::kC0);
}

// Chains 0 → 1 → 2 → 3 → 4 per variable: no cycle at all.
TEST(AnalysisFamilies, OnePrv5IsC0) {
  const ClassReport r = analyze(oneprv_5(7).domain);
  EXPECT_EQ(r.structural_class, StructuralClass::kC0);
  for (const VariableReport& v : r.variables) {
    EXPECT_TRUE(v.cycles.empty());
    EXPECT_EQ(v.ghost_values, (std::vector<ValueId>{0}));
  }
}

// Western: every NPC class is unary and post-unique and at most C2* (the Horse Breeder's bucket is
// the paper's On/Off cycle with two requestable actions).
TEST(AnalysisFamilies, WesternClassesAreAtMostC2Star) {
  const Task t = western();
  bool some_c2star = false;
  for (ClassId c = 0; c < t.domain.num_classes(); ++c) {
    const ClassReport r = analyze(t.domain, c);
    EXPECT_TRUE(r.unary) << t.domain.class_name(c);
    EXPECT_TRUE(r.post_unique) << t.domain.class_name(c);
    EXPECT_NE(r.structural_class, StructuralClass::kNone)
        << t.domain.class_name(c) << ": " << r.why_not;
    some_c2star = some_c2star || r.structural_class == StructuralClass::kC2Star;
  }
  EXPECT_TRUE(some_c2star);
  for (ClassId c = 0; c < western_pus().domain.num_classes(); ++c)
    EXPECT_TRUE(analyze(western_pus().domain, c).single_valued);
}

}  // namespace
}  // namespace topoplan
