// Statistics for the experiments (Kruskal-Wallis, Dunn, Hochberg) and an SVG histogram.
#include "topoplan/sim/stats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace topoplan::sim {

Summary summarize(std::span<const double> xs) {
  Summary s;
  s.n = static_cast<int64_t>(xs.size());
  if (xs.empty()) return s;
  double sum = 0.0;
  for (double x : xs) sum += x;
  s.mean = sum / static_cast<double>(xs.size());
  double ss = 0.0;
  for (double x : xs) ss += (x - s.mean) * (x - s.mean);
  s.stddev = xs.size() > 1 ? std::sqrt(ss / static_cast<double>(xs.size() - 1)) : 0.0;
  std::vector<double> v(xs.begin(), xs.end());
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const size_t n = v.size();
  s.median = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  return s;
}

namespace {

// Regularized upper incomplete gamma Q(a, x): series for x < a + 1, continued fraction
// otherwise (the textbook split; Lentz's method for the fraction).
double gamma_q(double a, double x) {
  if (x <= 0.0) return 1.0;
  const double lg = std::lgamma(a);
  if (x < a + 1.0) {
    double sum = 1.0 / a;
    double term = sum;
    for (int n = 1; n < 1000; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * 1e-16) break;
    }
    return 1.0 - sum * std::exp(-x + a * std::log(x) - lg);
  }
  const double tiny = 1e-300;
  double b = x + 1.0 - a;
  double c = 1.0 / tiny;
  double d = 1.0 / b;
  double h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2.0;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1.0 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1.0) < 1e-16) break;
  }
  return std::exp(-x + a * std::log(x) - lg) * h;
}

struct Ranked {
  std::vector<double> rank_sum;  // per group
  double tie_term = 0.0;         // Σ (t³ − t) over tie groups
  int64_t n = 0;
};

Ranked rank_groups(std::span<const std::vector<double>> groups) {
  struct Item {
    double v;
    int32_t g;
  };
  std::vector<Item> all;
  for (size_t g = 0; g < groups.size(); ++g) {
    for (double v : groups[g]) all.push_back({v, static_cast<int32_t>(g)});
  }
  std::stable_sort(all.begin(), all.end(), [](const Item& a, const Item& b) { return a.v < b.v; });
  Ranked r;
  r.rank_sum.assign(groups.size(), 0.0);
  r.n = static_cast<int64_t>(all.size());
  size_t i = 0;
  while (i < all.size()) {
    size_t j = i;
    while (j < all.size() && all[j].v == all[i].v) ++j;
    const double avg = 0.5 * (static_cast<double>(i + 1) + static_cast<double>(j));
    const double t = static_cast<double>(j - i);
    r.tie_term += t * t * t - t;
    for (size_t k = i; k < j; ++k) r.rank_sum[static_cast<size_t>(all[k].g)] += avg;
    i = j;
  }
  return r;
}

}  // namespace

double chi_square_sf(double x, int32_t df) {
  if (df <= 0) return 1.0;
  return gamma_q(0.5 * df, 0.5 * x);
}

double normal_sf(double z) {
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

KruskalWallis kruskal_wallis(std::span<const std::vector<double>> groups) {
  KruskalWallis kw;
  const Ranked r = rank_groups(groups);
  const double n = static_cast<double>(r.n);
  double sum = 0.0;
  for (size_t g = 0; g < groups.size(); ++g) {
    const double ng = static_cast<double>(groups[g].size());
    kw.mean_ranks.push_back(ng > 0 ? r.rank_sum[g] / ng : 0.0);
    if (ng > 0) sum += r.rank_sum[g] * r.rank_sum[g] / ng;
  }
  double h = 12.0 / (n * (n + 1.0)) * sum - 3.0 * (n + 1.0);
  const double correction = 1.0 - r.tie_term / (n * n * n - n);
  if (correction > 0.0) h /= correction;
  kw.h = h;
  kw.df = static_cast<int32_t>(groups.size()) - 1;
  kw.p = chi_square_sf(h, kw.df);
  return kw;
}

std::vector<double> hochberg(std::span<const double> p) {
  const size_t m = p.size();
  std::vector<size_t> order(m);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return p[a] > p[b]; });
  std::vector<double> adj(m, 1.0);
  double running = 1.0;
  for (size_t k = 0; k < m; ++k) {  // k = 0 is the largest p (multiplier 1)
    const size_t i = order[k];
    running = std::min(running, static_cast<double>(k + 1) * p[i]);
    adj[i] = std::min(1.0, running);
  }
  return adj;
}

std::vector<DunnPair> dunn_test(std::span<const std::vector<double>> groups) {
  const Ranked r = rank_groups(groups);
  const double n = static_cast<double>(r.n);
  const double var = n * (n + 1.0) / 12.0 - r.tie_term / (12.0 * (n - 1.0));
  std::vector<DunnPair> out;
  for (size_t a = 0; a < groups.size(); ++a) {
    for (size_t b = a + 1; b < groups.size(); ++b) {
      const double na = static_cast<double>(groups[a].size());
      const double nb = static_cast<double>(groups[b].size());
      DunnPair d;
      d.a = static_cast<int32_t>(a);
      d.b = static_cast<int32_t>(b);
      const double sigma = std::sqrt(var * (1.0 / na + 1.0 / nb));
      d.z = sigma > 0.0 ? (r.rank_sum[a] / na - r.rank_sum[b] / nb) / sigma : 0.0;
      d.p = std::min(1.0, 2.0 * normal_sf(std::fabs(d.z)));
      out.push_back(d);
    }
  }
  std::vector<double> ps;
  for (const DunnPair& d : out) ps.push_back(d.p);
  const std::vector<double> adj = hochberg(ps);
  for (size_t i = 0; i < out.size(); ++i) out[i].p_adjusted = adj[i];
  return out;
}

std::string histogram_svg(std::span<const std::string> names,
                          std::span<const std::vector<double>> series, int32_t bins,
                          const std::string& title, const std::string& x_label) {
  if (bins < 1) bins = 1;
  double hi = 0.0;
  for (const auto& s : series) {
    for (double v : s) hi = std::max(hi, v);
  }
  if (hi <= 0.0) hi = 1.0;
  const double width = hi / bins;
  std::vector<std::vector<int64_t>> counts(series.size(),
                                           std::vector<int64_t>(static_cast<size_t>(bins), 0));
  int64_t top = 1;
  for (size_t k = 0; k < series.size(); ++k) {
    for (double v : series[k]) {
      auto b = static_cast<int64_t>(v / width);
      if (b >= bins) b = bins - 1;
      if (b < 0) b = 0;
      top = std::max(top, ++counts[k][static_cast<size_t>(b)]);
    }
  }
  const int panel_h = 160;
  const int left = 60;
  const int plot_w = 600;
  const int total_h = 40 + static_cast<int>(series.size()) * (panel_h + 40) + 20;
  std::string svg;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" "
                "height=\"100%%\" fill=\"white\"/>\n<text x=\"%d\" y=\"24\" font-size=\"15\">",
                left + plot_w + 30, total_h, left);
  svg += buf;
  svg += title + "</text>\n";
  const char* colors[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2"};
  for (size_t k = 0; k < series.size(); ++k) {
    const int y0 = 40 + static_cast<int>(k) * (panel_h + 40);
    std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\">%s (n = %zu)</text>\n", left, y0 + 12,
                  names[k].c_str(), series[k].size());
    svg += buf;
    const int base = y0 + 20 + panel_h - 20;
    for (int32_t b = 0; b < bins; ++b) {
      const double c = static_cast<double>(counts[k][static_cast<size_t>(b)]);
      const double h = (panel_h - 30) * c / static_cast<double>(top);
      const double x = left + static_cast<double>(plot_w) * b / bins;
      std::snprintf(buf, sizeof buf,
                    "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n", x,
                    base - h, static_cast<double>(plot_w) / bins - 1.0, h, colors[k % 5]);
      svg += buf;
    }
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n"
                  "<text x=\"%d\" y=\"%d\">0</text><text x=\"%d\" y=\"%d\" "
                  "text-anchor=\"end\">%.0f</text>\n<text x=\"%d\" y=\"%d\" "
                  "text-anchor=\"end\">%lld</text>\n",
                  left, base, left + plot_w, base, left, base + 14, left + plot_w, base + 14, hi,
                  left - 4, base - (panel_h - 30) + 4, static_cast<long long>(top));
    svg += buf;
  }
  std::snprintf(buf, sizeof buf, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">",
                left + plot_w / 2, total_h - 6);
  svg += buf;
  svg += x_label + "</text>\n</svg>\n";
  return svg;
}

}  // namespace topoplan::sim
