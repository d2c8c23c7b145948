// topoplan — one hot-path contract for every planner.
//
// Design
// ------
// The crowd's fallback chains and the benchmark runner (`topoplan bench`) plan through this
// interface, whatever the planner: ℙ, GOAP A*, regressive A*, the exact search, Bäckström's 𝒫,
// or one a user brings. (The simulations and smart ambiance call AStarPlanner directly, for its
// cost overlay; one-shot callers use the registry's cold PlanFn, plan.h.)
//   * A HotPlanner is created once from a CompiledActionSet (compiled.h) and a HotPlannerDef;
//     it is immutable: share it between threads.
//   * make_scratch() allocates the per-thread working memory (do it once per thread);
//     plan(scratch, ...) then plans into a caller-owned span — the planner chooses whether it
//     allocates there (ℙ never does; the searches only grow their arrays).
//   * plan() returns a PlanOutcome: a code, detail bits saying why, and the variable / value /
//     action at fault (-1 when not applicable). explain() turns it into words (cold path).
// Cold errors (bad definitions, unsupported domains) are Result / Error (result.h), one type.
// A planner becomes pluggable by registering a HotPlannerFactory (declared in plan.h) in its
// PlannerInfo.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

// Why a plan() call ended without kSolved — bits, several may be set.
using PlanDetail = uint32_t;
inline constexpr PlanDetail kDetailNone = 0;
inline constexpr PlanDetail kDetailGoalUnreachable = 1u << 0;    // a goal value cannot be produced
inline constexpr PlanDetail kDetailPreconditionUnmet = 1u << 1;  // a needed pre/prevail cannot hold
inline constexpr PlanDetail kDetailOrderingCycle = 1u << 2;      // chosen actions cannot be ordered
inline constexpr PlanDetail kDetailOutsideClass = 1u << 3;  // the task leaves the planner's class
inline constexpr PlanDetail kDetailExpansionLimit = 1u
                                                    << 4;  // HotPlannerDef::limits.max_expansions
inline constexpr PlanDetail kDetailMemoryLimit = 1u << 5;  // ... max_memory_bytes
inline constexpr PlanDetail kDetailTimeLimit = 1u << 6;    // ... max_seconds
inline constexpr PlanDetail kDetailSelfCheck = 1u << 7;    // the emitted plan failed re-simulation
inline constexpr PlanDetail kDetailBadInput = 1u << 8;     // s0 / goal size or value out of range
inline constexpr PlanDetail kDetailExhausted = 1u << 9;    // every reachable state was searched

struct PlanOutcome {
  // kSolved: out[0, *len) is a plan. kBufferTooSmall: *len = the length needed. kUnsolvable:
  // proven. kGaveUp / kLimitReached: no plan, no proof. kUnsupported: the planner cannot take
  // this task (a HotPlanner created for a set normally rejects it in create()).
  PlanStatus status = PlanStatus::kGaveUp;
  PlanDetail detail = kDetailNone;
  VarId var = -1;
  ValueId value = -1;
  ActionId action = -1;

  [[nodiscard]] bool solved() const { return status == PlanStatus::kSolved; }
};

// What every planner's create() takes. Planners ignore what does not apply to them.
struct HotPlannerDef {
  Objective objective = Objective::kCost;   // searches; ℙ's plans are minimal in length
  SearchLimits limits = kAutoSearchLimits;  // per plan() call, for the searches
};

// Per-thread working memory of one planner (each planner derives its own).
class PlanScratch {
 public:
  PlanScratch() = default;
  PlanScratch(const PlanScratch&) = delete;
  PlanScratch& operator=(const PlanScratch&) = delete;
  virtual ~PlanScratch() = default;

  // Statistics of the last plan() call (0 for planners that do not search).
  int64_t expanded = 0;
  int64_t generated = 0;
};

class HotPlanner {
 public:
  HotPlanner() = default;
  HotPlanner(const HotPlanner&) = delete;
  HotPlanner& operator=(const HotPlanner&) = delete;
  virtual ~HotPlanner() = default;

  // The registry name of the planner ("topo", "astar", ...).
  [[nodiscard]] virtual std::string_view name() const = 0;
  [[nodiscard]] virtual std::unique_ptr<PlanScratch> make_scratch() const = 0;
  // `s0`: total state; `goal`: one entry per variable, kUndefined = free. Both of the set's
  // domain. Writes the plan to `out` and its length to *len.
  virtual PlanOutcome plan(PlanScratch& scratch, std::span<const ValueId> s0,
                           std::span<const ValueId> goal, std::span<ActionId> out,
                           int32_t* len) const = 0;
  // Upper bound on the length of a returned plan (size `out` to it to never see
  // kBufferTooSmall).
  [[nodiscard]] virtual int32_t max_plan_length() const = 0;
  // The outcome of the last plan() on `scratch` in words, with names (cold path).
  [[nodiscard]] virtual std::string explain(const PlanScratch& scratch,
                                            const PlanOutcome& outcome) const;
};

// The hot planner registered as `name` (plan.h's registry), created for `set`; an Error when
// the name is unknown, the planner has no hot factory, or it rejects the set.
[[nodiscard]] Result<std::unique_ptr<HotPlanner>> create_hot_planner(std::string_view name,
                                                                     const CompiledActionSet& set,
                                                                     const HotPlannerDef& def = {});

// Words for the detail bits ("goal unreachable, ordering cycle"); "" for kDetailNone.
[[nodiscard]] std::string describe(PlanDetail detail);

}  // namespace topoplan
