// Smart ambiance: cost modifiers and their application to a domain's action costs.
#include "topoplan/udgoap/ambiance.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "runtime/limits/def_check.h"

namespace topoplan::udgoap {
namespace {

bool shares(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& x) {
    return std::find(b.begin(), b.end(), x) != b.end();
  });
}

}  // namespace

double CostModifier::value(double t) const {
  if (t < start) return 0.0;
  if (rate == Rate::kInstantaneous || !(duration > 0.0)) return amount;
  return amount * std::min(1.0, (t - start) / duration);
}

bool CostModifier::complete(double t) const {
  return t >= start + (rate == Rate::kLinear ? std::max(duration, 0.0) : 0.0);
}

double AmbianceModifier::total(double t) const {
  return booster.value(t) - (has_dampener ? dampener.value(t) : 0.0);
}

bool AmbianceModifier::should_stop(double t) const {
  return has_dampener && booster.complete(t) && dampener.complete(t);
}

bool AmbianceModifier::applies_to(const std::vector<std::string>& annotations) const {
  return shares(booster.annotations, annotations);
}

double cost_change(const AmbianceInfo& npc, const std::vector<std::string>& annotations, double t) {
  double change = 0.0;
  for (const AmbianceModifier& m : npc.active) {
    if (!m.applies_to(annotations) || !shares(m.booster.annotations, npc.susceptible)) continue;
    change += m.total(t);
  }
  return change;
}

namespace {

// Clamp before rounding: llround of a double beyond int64 (a 1e19 penalty) is undefined and gave
// LLONG_MIN, i.e. cost 0 — a huge penalty made the action free. NaN (opposite infinities) counts
// as the largest cost, never as free.
int64_t saturated_cost(double cost) {
  if (std::isnan(cost) || cost >= static_cast<double>(kMaxCost)) return kMaxCost;
  if (cost <= 0) return 0;
  return std::llround(cost);
}

}  // namespace

void ambiance_costs(std::span<const int64_t> base, const ActionAnnotations& annotations,
                    const AmbianceInfo& npc, double t, std::span<int64_t> out) {
  assert(out.size() == base.size());
  for (size_t a = 0; a < base.size(); ++a) {
    out[a] =
        a < annotations.size()
            ? saturated_cost(static_cast<double>(base[a]) + cost_change(npc, annotations[a], t))
            : base[a];
  }
}

DomainDef apply_ambiance(const DomainDef& def, const ActionAnnotations& annotations,
                         const AmbianceInfo& npc, double t) {
  DomainDef out = def;
  for (size_t a = 0; a < out.actions.size() && a < annotations.size(); ++a) {
    out.actions[a].cost = saturated_cost(static_cast<double>(out.actions[a].cost) +
                                         cost_change(npc, annotations[a], t));
  }
  return out;
}

std::optional<Error> check(const CostModifier& m, std::string_view where) {
  const def_check::Limited fields[] = {{&limits::kAmbianceAmount, m.amount},
                                       {&limits::kAmbianceDelay, m.start},
                                       {&limits::kAmbianceDuration, m.duration}};
  if (auto e = def_check::first_outside(where, fields)) return e;
  if (m.rate != Rate::kInstantaneous && m.rate != Rate::kLinear) {
    return Error{std::string(where) + ": 'rate' must be kInstantaneous or kLinear, found " +
                     std::to_string(static_cast<int>(m.rate)),
                 "", 0};
  }
  if (m.rate == Rate::kLinear && !(m.duration > 0.0))
    return Error{std::string(where) + ": a linear rate needs 'duration' > 0", "", 0};
  return std::nullopt;
}

std::optional<Error> check(const AmbianceModifier& m) {
  const std::string where = "modifier '" + m.name + "'";
  if (m.booster.annotations.empty())
    return Error{where + " booster: 'annotations' must not be empty", "", 0};
  if (auto e = check(m.booster, where + " booster")) return e;
  if (m.has_dampener) return check(m.dampener, where + " dampener");
  return std::nullopt;
}

void expire(AmbianceInfo& npc, double t) {
  std::erase_if(npc.active, [t](const AmbianceModifier& m) { return m.should_stop(t); });
}

}  // namespace topoplan::udgoap
