// topoplan::udgoap — smart ambiance (Sloan 2015, chapter 7): areas, events and objects that make
// contextually appropriate actions cheaper for the GOAP planners by changing action costs.
// References: docs/references.md.
//
// A CostModifier changes the cost of every action carrying one of its annotations by `amount`,
// reached from `start` at a rate (instantaneous or linear over `duration` seconds). An
// AmbianceModifier pairs a booster with an optional dampener that brings the cost back; it stops
// once both are complete. ambiance_costs() writes the costs an NPC sees at time t: base cost +
// Σ modifications of the active modifiers whose annotations the NPC is susceptible to, rounded
// to the nearest integer and clamped to [0, kMaxCost]. Any planner then plans with those costs
// through its cost overlay (the thesis uses GOAP A*: AStarPlanner::set_costs), no domain copied.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"

namespace topoplan::udgoap {

enum class Rate : uint8_t {
  kInstantaneous,  // the full amount from `start`
  kLinear,         // 0 at `start`, the full amount at `start + duration`
};

// The ranges check() holds a modifier to (the scenario files' too, docs/udgoap.md).
inline constexpr double kMaxModifierAmount = 1e12;  // |amount|; costs stop at kMaxCost ~ 1.1e12
inline constexpr double kMaxModifierSeconds = 1e9;  // start (a template's delay), duration

struct CostModifier {
  double start = 0.0;     // seconds; a template's (AmbianceScenario) is a delay: [0, 1e9]
  double amount = 0.0;    // cost units added (negative: cheaper): [-1e12, 1e12]
  double duration = 0.0;  // seconds, for Rate::kLinear: (0, 1e9]; otherwise [0, 1e9]
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

// The costs `npc` sees at time t: out[a] = base[a] + cost_change(npc, annotations[a], t),
// rounded, clamped to [0, kMaxCost] (a NaN sum counts as kMaxCost, never as free); actions
// without annotations keep their base cost. `out` has base's size. No allocation.
void ambiance_costs(std::span<const int64_t> base, const ActionAnnotations& annotations,
                    const AmbianceInfo& npc, double t, std::span<int64_t> out);

// `def` with every action's cost changed as `npc` sees it at time t (ambiance_costs on a copy).
[[nodiscard]] DomainDef apply_ambiance(const DomainDef& def, const ActionAnnotations& annotations,
                                       const AmbianceInfo& npc, double t);

// The ranges above (NaN is outside every range), the rate one of the enum, a linear rate with
// duration > 0, a booster with annotations. `where` names the modifier in the message.
[[nodiscard]] std::optional<Error> check(const CostModifier& m, std::string_view where);
[[nodiscard]] std::optional<Error> check(const AmbianceModifier& m);

// Drops the modifiers that should stop at time t.
void expire(AmbianceInfo& npc, double t);

}  // namespace topoplan::udgoap
