// Response curves, normalisation, drive satisfaction and top-level utility against values
// computed by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "topoplan/udgoap/model.h"

namespace topoplan::udgoap {
namespace {

Curve curve(CurveType t, double m, double k, double c, double b) {
  return Curve{t, m, k, c, b};
}

TEST(Curves, LinearAndInverseLinear) {
  EXPECT_DOUBLE_EQ(evaluate(Curve::linear(), 0.3), 0.3);
  EXPECT_DOUBLE_EQ(evaluate(Curve::inverse_linear(), 0.3), 0.7);
  EXPECT_DOUBLE_EQ(evaluate(Curve::inverse_linear(), 1.0), 0.0);
  // 2·(0.5 − 0.25) + 0.1
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLinear, 2, 1, 0.25, 0.1), 0.5), 0.6);
  // Clamped to [0, 1] on both sides.
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLinear, 2, 1, 0, 0), 1.0), 1.0);
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLinear, 1, 1, 0.5, 0), 0.2), 0.0);
}

TEST(Curves, Polynomial) {
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kPolynomial, 1, 2, 0, 0), 0.5), 0.25);
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kPolynomial, 1, 3, 0.5, 0), 1.0), 0.125);
  // (0.25 − 0.5)³ < 0 → clamped to 0; with y-shift 0.5: 0.5 − 0.015625.
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kPolynomial, 1, 3, 0.5, 0), 0.25), 0.0);
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kPolynomial, 1, 3, 0.5, 0.5), 0.25), 0.484375);
  // Fractional exponent: √0.25; a negative base is clamped to 0 first.
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kPolynomial, 1, 0.5, 0, 0), 0.25), 0.5);
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kPolynomial, 1, 0.5, 0.5, 0.2), 0.25), 0.2);
}

TEST(Curves, Logistic) {
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLogistic, 10, 1, 0.5, 0), 0.5), 0.5);
  // 1 / (1 + e^−1)
  EXPECT_NEAR(evaluate(curve(CurveType::kLogistic, 10, 1, 0.5, 0), 0.6), 0.7310585786300049, 1e-12);
  // Height k = 0.5: 0.25 at the midpoint.
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLogistic, 10, 0.5, 0.5, 0), 0.5), 0.25);
}

TEST(Curves, Logit) {
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLogit, 10, 1, 0, 0.5), 0.5), 0.5);
  // 0.5 + ln(3)/10
  EXPECT_NEAR(evaluate(curve(CurveType::kLogit, 10, 1, 0, 0.5), 0.75), 0.6098612288668110, 1e-12);
  EXPECT_NEAR(evaluate(curve(CurveType::kLogit, 10, 1, 0, 0.5), 0.25), 0.3901387711331890, 1e-12);
  // Ends are finite (z clamped away from 0 and 1), then clamped to [0, 1].
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLogit, 1, 1, 0, 0.5), 1.0), 1.0);
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kLogit, 1, 1, 0, 0.5), 0.0), 0.0);
}

TEST(Curves, Normal) {
  EXPECT_DOUBLE_EQ(evaluate(curve(CurveType::kNormal, 1, 10, 0.5, 0), 0.5), 1.0);
  // e^(−10·0.2²) = e^−0.4
  EXPECT_NEAR(evaluate(curve(CurveType::kNormal, 1, 10, 0.5, 0), 0.7), 0.6703200460356393, 1e-12);
  EXPECT_NEAR(evaluate(curve(CurveType::kNormal, 0.5, 10, 0.5, 0.1), 0.3),
              0.5 * 0.6703200460356393 + 0.1, 1e-12);
}

TEST(Curves, Sine) {
  EXPECT_NEAR(evaluate(curve(CurveType::kSine, 1, 1, 0, 0), 0.5), 1.0, 1e-12);
  EXPECT_NEAR(evaluate(curve(CurveType::kSine, 1, 1, 0, 0), 1.0 / 6.0), 0.5, 1e-12);
  // Half amplitude around 0.5, two periods: sin(2π·0.125) = √2/2.
  EXPECT_NEAR(evaluate(curve(CurveType::kSine, 0.5, 2, 0, 0.5), 0.125), 0.5 + 0.5 * std::sqrt(0.5),
              1e-12);
  EXPECT_NEAR(evaluate(curve(CurveType::kSine, 1, 1, 0, 0), 1.5), 0.0, 1e-12);  // −1 → 0
}

TEST(Curves, NamesRoundTrip) {
  for (CurveType t : {CurveType::kLinear, CurveType::kPolynomial, CurveType::kLogistic,
                      CurveType::kLogit, CurveType::kNormal, CurveType::kSine}) {
    EXPECT_EQ(parse_curve_type(to_string(t)), t);
  }
  EXPECT_FALSE(parse_curve_type("cubic").has_value());
}

TEST(Normalise, ClampsAndRejectsEmptyRanges) {
  EXPECT_DOUBLE_EQ(normalise(15, 0, 100), 0.15);
  EXPECT_DOUBLE_EQ(normalise(30, 0, 30), 1.0);
  EXPECT_DOUBLE_EQ(normalise(-5, 0, 30), 0.0);
  EXPECT_DOUBLE_EQ(normalise(50, 0, 30), 1.0);
  EXPECT_DOUBLE_EQ(normalise(5, 3, 3), 0.0);
  EXPECT_DOUBLE_EQ(normalise(5, 0, std::numeric_limits<double>::infinity()), 0.0);
}

TEST(Utility, DriveSatisfactionIsNormalisedWeightedCompleteness) {
  // The thesis's kill_all_enemies example: goblins at 0 and 50 of 100 health, weights 1.
  const Weighted two[] = {{1.0, 1.0}, {0.5, 1.0}};
  EXPECT_DOUBLE_EQ(drive_satisfaction(two), 0.75);
  // Weight 2 on the second goal: (1 + 2·0.5) / 3.
  const Weighted weighted[] = {{1.0, 1.0}, {0.5, 2.0}};
  EXPECT_DOUBLE_EQ(drive_satisfaction(weighted), 2.0 / 3.0);
  // Appendix A: kill_enemy weight 2, complete: 1.
  const Weighted kill[] = {{1.0, 2.0}};
  EXPECT_DOUBLE_EQ(drive_satisfaction(kill), 1.0);
  // No goals: nothing left to want.
  EXPECT_DOUBLE_EQ(drive_satisfaction({}), 1.0);
}

TEST(Utility, WeightedMean) {
  const TopLevelUtility mean{TopLevelKind::kWeightedMean, -1};
  const Weighted drives[] = {{1.0, 1.0}, {0.15, 1.0}, {0.0, 1.0}};
  EXPECT_NEAR(top_level_utility(mean, drives), 1.15 / 3.0, 1e-12);
  const Weighted skewed[] = {{1.0, 3.0}, {0.0, 1.0}};
  EXPECT_DOUBLE_EQ(top_level_utility(mean, skewed), 0.75);
}

TEST(Utility, LinearWithBadDeath) {
  const TopLevelUtility fn{TopLevelKind::kLinearWithBadDeath, 1};
  const Weighted alive[] = {{1.0, 1.0}, {0.15, 1.0}, {0.0, 1.0}};
  EXPECT_NEAR(top_level_utility(fn, alive), 1.15 / 3.0, 1e-12);  // Appendix A melee: 0.38
  const Weighted dead[] = {{1.0, 1.0}, {0.0, 1.0}, {1.0, 1.0}};
  EXPECT_DOUBLE_EQ(top_level_utility(fn, dead), 0.0);
  // The same numbers under the plain mean are not 0: the death rule is what zeroes them.
  EXPECT_NEAR(top_level_utility({TopLevelKind::kWeightedMean, 1}, dead), 2.0 / 3.0, 1e-12);
}

}  // namespace
}  // namespace topoplan::udgoap
