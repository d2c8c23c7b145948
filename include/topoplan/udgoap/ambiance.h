// topoplan::udgoap — smart ambiance (Sloan 2015, chapter 7): areas, events and objects that make
// contextually appropriate actions cheaper for the GOAP planners by changing action costs.
// References: docs/references.md.
//
// A CostModifier changes the cost of every action carrying one of its annotations by `amount`,
// reached from `start` at a rate (instantaneous or linear over `duration` seconds). An
// AmbianceModifier pairs a booster with an optional dampener that brings the cost back; it stops
// once both are complete. apply_ambiance() returns a copy of a DomainDef with the costs an NPC
// sees at time t: base cost + Σ modifications of the active modifiers whose annotations the NPC
// is susceptible to, rounded to the nearest integer and clamped at 0. Any planner then plans
// with those costs (the thesis uses GOAP A*).
#pragma once

#include <string>
#include <vector>

#include "topoplan/domain.h"

namespace topoplan::udgoap {

enum class Rate : uint8_t {
  kInstantaneous,  // the full amount from `start`
  kLinear,         // 0 at `start`, the full amount at `start + duration`
};

struct CostModifier {
  double start = 0.0;     // seconds
  double amount = 0.0;    // cost units added (negative: cheaper)
  double duration = 0.0;  // seconds, for Rate::kLinear
  Rate rate = Rate::kInstantaneous;
  std::vector<std::string> annotations;  // e.g. "loud", "nervous", "suspicious"

  [[nodiscard]] double value(double t) const;
  [[nodiscard]] bool complete(double t) const;
};

struct AmbianceModifier {
  std::string name;
  CostModifier booster;
  bool has_dampener = false;
  CostModifier dampener;  // its amount is subtracted: amount = booster.amount undoes it

  // booster(t) − dampener(t)
  [[nodiscard]] double total(double t) const;
  // Both complete (a booster alone never stops: location ambiance lasts while the NPC is inside).
  [[nodiscard]] bool should_stop(double t) const;
  [[nodiscard]] bool applies_to(const std::vector<std::string>& annotations) const;
};

// An NPC's ambiance info: what it is susceptible to and the modifiers active on it now.
struct AmbianceInfo {
  std::vector<std::string> susceptible;  // applicable ambiance annotations
  std::vector<AmbianceModifier> active;
};

// Per action (by ActionId) the ambiance annotations of that action.
using ActionAnnotations = std::vector<std::vector<std::string>>;

// Cost change of action `annotations` for `npc` at time t.
[[nodiscard]] double cost_change(const AmbianceInfo& npc,
                                 const std::vector<std::string>& annotations, double t);

// `def` with every action's cost changed as `npc` sees it at time t.
[[nodiscard]] DomainDef apply_ambiance(const DomainDef& def, const ActionAnnotations& annotations,
                                       const AmbianceInfo& npc, double t);

// Drops the modifiers that should stop at time t.
void expire(AmbianceInfo& npc, double t);

}  // namespace topoplan::udgoap
