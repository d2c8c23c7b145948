// Smart ambiance: cost modifiers and their application to a domain's action costs.
#include "topoplan/udgoap/ambiance.h"

#include <algorithm>
#include <cmath>

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

DomainDef apply_ambiance(const DomainDef& def, const ActionAnnotations& annotations,
                         const AmbianceInfo& npc, double t) {
  DomainDef out = def;
  for (size_t a = 0; a < out.actions.size() && a < annotations.size(); ++a) {
    const double cost =
        static_cast<double>(out.actions[a].cost) + cost_change(npc, annotations[a], t);
    // Clamp before rounding: llround of a double beyond int64 (a 1e19 penalty) is undefined and
    // gave LLONG_MIN, i.e. cost 0 — a huge penalty made the action free. NaN (opposite
    // infinities) counts as the largest cost, never as free.
    if (std::isnan(cost) || cost >= static_cast<double>(kMaxCost))
      out.actions[a].cost = kMaxCost;
    else if (cost <= 0)
      out.actions[a].cost = 0;
    else
      out.actions[a].cost = std::llround(cost);
  }
  return out;
}

void expire(AmbianceInfo& npc, double t) {
  std::erase_if(npc.active, [t](const AmbianceModifier& m) { return m.should_stop(t); });
}

}  // namespace topoplan::udgoap
