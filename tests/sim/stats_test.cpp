// The experiment statistics against hand-computed examples.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "topoplan/sim/stats.h"

namespace topoplan::sim {
namespace {

TEST(Stats, SummaryOfSmallSample) {
  const std::vector<double> xs = {2, 4, 4, 4, 5, 5, 7, 9};
  const Summary s = summarize(xs);
  EXPECT_EQ(s.n, 8);
  EXPECT_DOUBLE_EQ(s.mean, 5.0);
  // Σ(x − 5)² = 32; sample variance 32 / 7.
  EXPECT_NEAR(s.stddev, std::sqrt(32.0 / 7.0), 1e-12);
  EXPECT_DOUBLE_EQ(s.median, 4.5);
  EXPECT_DOUBLE_EQ(s.min, 2.0);
  EXPECT_DOUBLE_EQ(s.max, 9.0);
}

TEST(Stats, ChiSquareTailMatchesClosedForms) {
  // df = 2: e^(−x/2). df = 1: erfc(√(x/2)). df = 4: e^(−x/2)(1 + x/2).
  for (double x : {0.1, 1.0, 3.0, 7.2, 20.0}) {
    EXPECT_NEAR(chi_square_sf(x, 2), std::exp(-x / 2), 1e-12) << x;
    EXPECT_NEAR(chi_square_sf(x, 1), std::erfc(std::sqrt(x / 2)), 1e-10) << x;
    EXPECT_NEAR(chi_square_sf(x, 4), std::exp(-x / 2) * (1 + x / 2), 1e-10) << x;
  }
  EXPECT_NEAR(normal_sf(1.959963984540054), 0.025, 1e-12);
}

TEST(Stats, KruskalWallisWithoutTies) {
  // Ranks are the values: R = 6, 15, 24; H = 12/90 · (36 + 225 + 576)/3 − 30 = 7.2.
  const std::vector<std::vector<double>> g = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  const KruskalWallis kw = kruskal_wallis(g);
  EXPECT_NEAR(kw.h, 7.2, 1e-12);
  EXPECT_EQ(kw.df, 2);
  EXPECT_NEAR(kw.p, std::exp(-3.6), 1e-12);  // 0.02732
  EXPECT_NEAR(kw.mean_ranks[0], 2.0, 1e-12);
  EXPECT_NEAR(kw.mean_ranks[2], 8.0, 1e-12);
}

TEST(Stats, KruskalWallisCorrectsForTies) {
  // Pooled 1,2,2,2,3,4 → ranks 1,3,3,3,5,6; R = 7 and 14; H = 12/42 · (49 + 196)/3 − 21 = 7/3;
  // correction 1 − (27 − 3)/(216 − 6) = 31/35; H' = (7/3)/(31/35) = 245/93.
  const std::vector<std::vector<double>> g = {{1, 2, 2}, {2, 3, 4}};
  const KruskalWallis kw = kruskal_wallis(g);
  EXPECT_NEAR(kw.h, 245.0 / 93.0, 1e-12);
  EXPECT_EQ(kw.df, 1);
  EXPECT_NEAR(kw.p, std::erfc(std::sqrt(245.0 / 93.0 / 2)), 1e-10);
}

TEST(Stats, HochbergStepUp) {
  // Sorted descending 0.04 (×1), 0.03 (×2 = 0.06 → min with 0.04 = 0.04), 0.01 (×3 = 0.03).
  const std::vector<double> p = {0.03, 0.01, 0.04};
  const std::vector<double> adj = hochberg(p);
  EXPECT_NEAR(adj[0], 0.04, 1e-12);
  EXPECT_NEAR(adj[1], 0.03, 1e-12);
  EXPECT_NEAR(adj[2], 0.04, 1e-12);
  const std::vector<double> big = {0.5, 0.9};
  EXPECT_NEAR(hochberg(big)[0], 0.9, 1e-12);  // min(2·0.5, 0.9)
}

TEST(Stats, DunnPairsByHand) {
  // Mean ranks 2, 5, 8; σ = √(9·10/12 · (1/3 + 1/3)) = √5.
  const std::vector<std::vector<double>> g = {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}};
  const std::vector<DunnPair> d = dunn_test(g);
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].a, 0);
  EXPECT_EQ(d[0].b, 1);
  EXPECT_NEAR(d[0].z, -3.0 / std::sqrt(5.0), 1e-12);
  EXPECT_NEAR(d[1].z, -6.0 / std::sqrt(5.0), 1e-12);
  const double p01 = std::erfc(3.0 / std::sqrt(5.0) / std::sqrt(2.0));
  const double p02 = std::erfc(6.0 / std::sqrt(5.0) / std::sqrt(2.0));
  EXPECT_NEAR(d[0].p, p01, 1e-12);  // 0.1797
  EXPECT_NEAR(d[1].p, p02, 1e-12);  // 0.00729
  EXPECT_NEAR(d[1].p_adjusted, 3 * p02, 1e-12);
  EXPECT_NEAR(d[0].p_adjusted, p01, 1e-12);
  EXPECT_NEAR(d[2].p_adjusted, p01, 1e-12);
}

TEST(Stats, HistogramHasOnePanelPerSeries) {
  const std::vector<std::string> names = {"a", "b"};
  const std::vector<std::vector<double>> s = {{1, 2, 3}, {4, 5}};
  const std::string svg = histogram_svg(names, s, 5, "t", "x");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  EXPECT_NE(svg.find("a (n = 3)"), std::string::npos);
  EXPECT_NE(svg.find("b (n = 2)"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace topoplan::sim
