// Response curves, normalisation and the utility functions of the UDGOAP model.
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "runtime/limits/def_check.h"
#include "topoplan/udgoap/model.h"

namespace topoplan::udgoap {
namespace {

double clamp01(double v) {
  if (std::isnan(v)) return 0.0;
  return std::clamp(v, 0.0, 1.0);
}

}  // namespace

std::optional<Error> check(const Curve& c, std::string_view where) {
  const double lim = kCurveParamLimit;
  const std::string w = std::string(where) + " curve";
  if (auto e = def_check::range(w, "slope", c.slope, -lim, lim)) return e;
  if (auto e = def_check::range(w, "exponent", c.exponent, -lim, lim)) return e;
  if (auto e = def_check::range(w, "x_shift", c.x_shift, -lim, lim)) return e;
  return def_check::range(w, "y_shift", c.y_shift, -lim, lim);
}

double evaluate(const Curve& c, double x) {
  const double d = x - c.x_shift;
  double y = 0.0;
  switch (c.type) {
    case CurveType::kLinear:
      y = c.slope * d + c.y_shift;
      break;
    case CurveType::kPolynomial: {
      // A negative base with a fractional exponent has no real power: clamp it at 0.
      const bool integral = std::floor(c.exponent) == c.exponent;
      const double base = integral ? d : std::max(d, 0.0);
      y = c.slope * std::pow(base, c.exponent) + c.y_shift;
      break;
    }
    case CurveType::kLogistic:
      y = c.exponent / (1.0 + std::exp(-c.slope * d)) + c.y_shift;
      break;
    case CurveType::kLogit: {
      const double z = std::clamp(d, 1e-6, 1.0 - 1e-6);
      y = c.slope == 0.0 ? c.y_shift : c.y_shift + std::log(z / (1.0 - z)) / c.slope;
      break;
    }
    case CurveType::kNormal:
      y = c.slope * std::exp(-c.exponent * d * d) + c.y_shift;
      break;
    case CurveType::kSine:
      y = c.slope * std::sin(std::numbers::pi * c.exponent * d) + c.y_shift;
      break;
  }
  return clamp01(y);
}

std::string_view to_string(CurveType type) {
  // In the enum's order, one name per enumerator.
  static constexpr std::array<std::string_view, 6> kNames = {"linear", "polynomial", "logistic",
                                                             "logit",  "normal",     "sine"};
  static_assert(kNames.size() == static_cast<size_t>(CurveType::kSine) + 1);
  const auto i = static_cast<size_t>(type);
  return i < kNames.size() ? kNames[i] : "?";
}

std::optional<CurveType> parse_curve_type(std::string_view name) {
  for (CurveType t : {CurveType::kLinear, CurveType::kPolynomial, CurveType::kLogistic,
                      CurveType::kLogit, CurveType::kNormal, CurveType::kSine}) {
    if (to_string(t) == name) return t;
  }
  return std::nullopt;
}

double normalise(double v, double lo, double hi) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || !(hi > lo)) return 0.0;
  return clamp01((v - lo) / (hi - lo));
}

double drive_satisfaction(std::span<const Weighted> goals) {
  double sum = 0.0;
  double weights = 0.0;
  for (const Weighted& g : goals) {
    sum += g.weight * g.value;
    weights += g.weight;
  }
  if (!(weights > 0.0)) return 1.0;
  return clamp01(sum / weights);
}

double top_level_utility(const TopLevelUtility& fn, std::span<const Weighted> drives) {
  if (fn.kind == TopLevelKind::kLinearWithBadDeath && fn.death_drive >= 0 &&
      static_cast<size_t>(fn.death_drive) < drives.size() &&
      drives[static_cast<size_t>(fn.death_drive)].value <= 0.0) {
    return 0.0;
  }
  return drive_satisfaction(drives);
}

}  // namespace topoplan::udgoap
