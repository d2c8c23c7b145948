// topoplan::sim — statistics of experiment samples: summary, Kruskal-Wallis H test (Kruskal &
// Wallis 1952), Dunn's post hoc test (Dunn 1964) with Hochberg's step-up adjustment (Hochberg
// 1988), as Sloan (2015) §6.2 uses them, and an SVG histogram. Written here (no dependency);
// tests/sim/stats_test.cpp checks them against hand-computed examples.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace topoplan::sim {

struct Summary {
  int64_t n = 0;
  double mean = 0.0;
  double stddev = 0.0;  // sample standard deviation (n − 1)
  double median = 0.0;
  double min = 0.0;
  double max = 0.0;
};
[[nodiscard]] Summary summarize(std::span<const double> xs);

struct KruskalWallis {
  double h = 0.0;  // tie-corrected
  int32_t df = 0;
  double p = 1.0;
  std::vector<double> mean_ranks;  // per group
};
// Groups must be non-empty; at least two groups.
[[nodiscard]] KruskalWallis kruskal_wallis(std::span<const std::vector<double>> groups);

struct DunnPair {
  int32_t a = 0;
  int32_t b = 0;
  double z = 0.0;           // (mean rank a − mean rank b) / σ
  double p = 1.0;           // two-sided, unadjusted
  double p_adjusted = 1.0;  // Hochberg
};
[[nodiscard]] std::vector<DunnPair> dunn_test(std::span<const std::vector<double>> groups);

// Hochberg's step-up adjustment of m p-values (order kept).
[[nodiscard]] std::vector<double> hochberg(std::span<const double> p);

// Upper tail of the chi-square distribution with `df` degrees of freedom.
[[nodiscard]] double chi_square_sf(double x, int32_t df);
// Upper tail of the standard normal.
[[nodiscard]] double normal_sf(double z);

// One panel per series, shared bins over [0, max]. `names` and `series` have the same size.
[[nodiscard]] std::string histogram_svg(std::span<const std::string> names,
                                        std::span<const std::vector<double>> series, int32_t bins,
                                        const std::string& title, const std::string& x_label);

}  // namespace topoplan::sim
