// A minimal hand-written SVG line chart for `topoplan bench --plot` (no plotting library in
// Debian fits a single static chart well). Log-scale y like the papers' figures; log-scale x
// for the NPC sweep.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_run.h"

namespace topoplan::cli {
namespace {

constexpr double kWidth = 760, kHeight = 480;
constexpr double kLeft = 90, kRight = 170, kTop = 50, kBottom = 60;
const char* const kColors[] = {"#2ca02c", "#d62728", "#1f77b4", "#ff7f0e", "#9467bd"};
// ℙ in green squares, 𝒫 in red disks, as in the papers; A* in blue triangles.
const char* color_of(const std::string& planner, size_t i) {
  if (planner == "topo") return kColors[0];
  if (planner == "backstrom") return kColors[1];
  if (planner == "astar") return kColors[2];
  return kColors[3 + i % 2];
}
const char* label_of(const std::string& planner) {
  if (planner == "topo") return "\xe2\x84\x99 (topo)";
  if (planner == "backstrom") return "\xf0\x9d\x92\xab (backstrom)";
  if (planner == "astar") return "GOAP A*";
  return planner.c_str();
}

std::string num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string tick_label(double v) {
  char buf[64];
  if (v >= 1e6 || v < 1e-2)
    std::snprintf(buf, sizeof buf, "1e%d", static_cast<int>(std::lround(std::log10(v))));
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out += c;
  }
  return out;
}

}  // namespace

namespace {

// The plot area and its scales: log y in decades [ly0, ly1]; x log (in decades) or linear.
struct Axes {
  bool game = false;  // Figure 3 plots ms per run, the others ns per plan
  bool log_x = false;
  double x0 = 0, x1 = 1, ly0 = 0, ly1 = 1;
  double pw = kWidth - kLeft - kRight, ph = kHeight - kTop - kBottom;

  [[nodiscard]] double y_of(const BenchPoint& p, size_t i) const {
    return game ? p.ms_total[i] : p.ns_per_plan[i];
  }
  [[nodiscard]] double sx(double x) const {
    const double t = log_x ? (std::log10(x) - x0) / (x1 - x0) : (x - x0) / (x1 - x0);
    return kLeft + t * pw;
  }
  [[nodiscard]] double sy(double y) const {
    return kTop + ph - (std::log10(y) - ly0) / (ly1 - ly0) * ph;
  }
};

Axes axes_of(const BenchReport& report) {
  Axes a;
  a.game = report.figure == "Figure 3";
  a.log_x = report.log_x;
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
  for (const BenchPoint& p : report.points)
    for (size_t i = 0; i < report.planners.size(); ++i) {
      const double y = a.y_of(p, i);
      if (y <= 0) continue;
      xmin = std::min(xmin, p.x);
      xmax = std::max(xmax, p.x);
      ymin = std::min(ymin, y);
      ymax = std::max(ymax, y);
    }
  if (xmin > xmax) xmin = 0, xmax = 1, ymin = 1, ymax = 10;
  a.ly0 = std::floor(std::log10(ymin));
  a.ly1 = std::max(a.ly0 + 1, std::ceil(std::log10(ymax)));
  a.x0 = xmin;
  a.x1 = xmax;
  if (report.log_x) {
    a.x0 = std::floor(std::log10(xmin));
    a.x1 = std::max(a.x0 + 1, std::ceil(std::log10(xmax)));
  } else {
    a.x0 = 0;
    if (a.x1 <= a.x0) a.x1 = a.x0 + 1;
  }
  return a;
}

// The grid, the ticks of both axes, the frame and the axis labels.
void draw_axes(std::string& s, const BenchReport& report, const Axes& a) {
  const double pw = a.pw, ph = a.ph;
  // Grid and y ticks (decades).
  for (double e = a.ly0; e <= a.ly1 + 1e-9; e += 1) {
    const double y = a.sy(std::pow(10.0, e));
    s += "<line x1=\"" + num(kLeft) + "\" y1=\"" + num(y) + "\" x2=\"" + num(kLeft + pw) +
         "\" y2=\"" + num(y) + "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + num(kLeft - 6) + "\" y=\"" + num(y + 4) + "\" text-anchor=\"end\">" +
         tick_label(std::pow(10.0, e)) + "</text>\n";
  }
  // x ticks.
  std::vector<double> xt;
  if (report.log_x) {
    for (double e = a.x0; e <= a.x1 + 1e-9; e += 1) xt.push_back(std::pow(10.0, e));
  } else {
    const double raw = (a.x1 - a.x0) / 8;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    const double step = raw / mag < 2 ? 2 * mag : raw / mag < 5 ? 5 * mag : 10 * mag;
    for (double v = 0; v <= a.x1 + 1e-9; v += step) xt.push_back(v);
  }
  for (double v : xt) {
    const double x = report.log_x ? a.sx(v) : kLeft + (v - a.x0) / (a.x1 - a.x0) * pw;
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(kTop) + "\" x2=\"" + num(x) + "\" y2=\"" +
         num(kTop + ph) + "\" stroke=\"#eee\"/>\n";
    s += "<text x=\"" + num(x) + "\" y=\"" + num(kTop + ph + 18) + "\" text-anchor=\"middle\">" +
         tick_label(v) + "</text>\n";
  }
  s += "<rect x=\"" + num(kLeft) + "\" y=\"" + num(kTop) + "\" width=\"" + num(pw) +
       "\" height=\"" + num(ph) + "\" fill=\"none\" stroke=\"black\"/>\n";
  s += "<text x=\"" + num(kLeft + pw / 2) + "\" y=\"" + num(kHeight - 15) +
       "\" text-anchor=\"middle\">" + escape(report.x_label) + (report.log_x ? " (log)" : "") +
       "</text>\n";
  s += "<text transform=\"translate(22," + num(kTop + ph / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + escape(report.y_label) + " (log)</text>\n";
}

// Planner i's line and marks, and its legend entry at legend_y (moved down past it).
void draw_series(std::string& s, const BenchReport& report, const Axes& a, size_t i,
                 double& legend_y) {
  const double pw = a.pw;
  const char* c = color_of(report.planners[i], i);
  std::string path;
  std::string marks;
  for (const BenchPoint& p : report.points) {
    const double y = a.y_of(p, i);
    if (y <= 0) continue;
    const double X = a.sx(p.x), Y = a.sy(y);
    path += (path.empty() ? "M" : " L") + num(X) + " " + num(Y);
    if (report.planners[i] == "topo")
      marks += "<rect x=\"" + num(X - 4) + "\" y=\"" + num(Y - 4) +
               "\" width=\"8\" height=\"8\" fill=\"" + c + "\"/>\n";
    else if (report.planners[i] == "backstrom")
      marks +=
          "<circle cx=\"" + num(X) + "\" cy=\"" + num(Y) + "\" r=\"4.5\" fill=\"" + c + "\"/>\n";
    else
      marks += "<path d=\"M" + num(X) + " " + num(Y - 5) + " L" + num(X + 5) + " " + num(Y + 4) +
               " L" + num(X - 5) + " " + num(Y + 4) + " Z\" fill=\"" + c + "\"/>\n";
  }
  if (!path.empty())
    s += "<path d=\"" + path + "\" fill=\"none\" stroke=\"" + c + "\" stroke-width=\"1.5\"/>\n";
  s += marks;
  // A planner that answered at no point (it refused the task or failed an instance: the
  // report's `skipped` says why) keeps its legend entry, marked, so the figure does not
  // promise a line it does not draw.
  const bool drawn = !path.empty();
  const double ly = legend_y;
  legend_y += drawn ? 22 : 34;  // room for the "no answer" line
  s += "<line x1=\"" + num(kLeft + pw + 15) + "\" y1=\"" + num(ly) + "\" x2=\"" +
       num(kLeft + pw + 40) + "\" y2=\"" + num(ly) + "\" stroke=\"" + c + "\" stroke-width=\"3\"" +
       (drawn ? "" : " stroke-dasharray=\"3 3\" opacity=\"0.5\"") + "/>\n";
  s += "<text x=\"" + num(kLeft + pw + 46) + "\" y=\"" + num(ly + 4) + "\"" +
       (drawn ? "" : " fill=\"#777\"") + ">" + escape(label_of(report.planners[i])) + "</text>\n";
  if (!drawn)
    s += "<text x=\"" + num(kLeft + pw + 46) + "\" y=\"" + num(ly + 16) +
         "\" font-size=\"10\" fill=\"#777\">no answer</text>\n";
}

}  // namespace

std::string bench_svg(const BenchReport& report) {
  const Axes a = axes_of(report);
  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kWidth) + "\" height=\"" +
       num(kHeight) + "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(kLeft) + "\" y=\"28\" font-size=\"15\">" +
       escape(report.figure + " \xe2\x80\x94 " + report.family) + "</text>\n";
  draw_axes(s, report, a);
  double legend_y = kTop + 20;
  for (size_t i = 0; i < report.planners.size(); ++i) draw_series(s, report, a, i, legend_y);
  s += "</svg>\n";
  return s;
}

}  // namespace topoplan::cli
