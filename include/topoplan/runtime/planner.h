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
#include <vector>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

// What every planner's create() takes. Planners ignore what does not apply to them.
struct HotPlannerDef {
  Objective objective = Objective::kCost;  // searches; ℙ's plans are minimal in length
  // The searches' limits of a plan() call that names none; a call may pass its own.
  SearchLimits limits = kAutoSearchLimits;
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

// True when `limits` are usable per call (see HotPlanner::plan with limits). The time limit
// takes the limits table's range (limits::kMaxSeconds, [0, 1e9]): an infinite or NaN one is
// refused, as it is in every other door.
[[nodiscard]] inline bool limits_in_range(const SearchLimits& limits) {
  return limits.max_expansions >= 0 && limits.max_memory_bytes >= 0 && limits.max_seconds >= 0 &&
         limits.max_seconds <= limits::kMaxSeconds.hi;
}

// The contract: two non-virtual entries (the def's limits, or a call's own) over the one
// virtual a planner implements, plan_within().
class HotPlanner {
 public:
  HotPlanner(const HotPlanner&) = delete;
  HotPlanner& operator=(const HotPlanner&) = delete;
  virtual ~HotPlanner() = default;

  // The registry name of the planner ("topo", "astar", ...).
  [[nodiscard]] virtual std::string_view name() const = 0;
  [[nodiscard]] virtual std::unique_ptr<PlanScratch> make_scratch() const = 0;
  // `s0`: total state; `goal`: one entry per variable, kUndefined = free. Both of the set's
  // domain. Writes the plan to `out` and its length to *len. Within the def's limits
  // (HotPlannerDef::limits, as create() received them).
  PlanOutcome plan(PlanScratch& scratch, std::span<const ValueId> s0, std::span<const ValueId> goal,
                   std::span<ActionId> out, int32_t* len) const {
    return plan_within(limits_, scratch, s0, goal, out, len);
  }
  // The same within `limits` instead of the def's: one planner serves every budget (a crowd's
  // quick attempt and its retries). Planners without limits (ℙ) ignore them. Limits out of range
  // (max_expansions or max_memory_bytes < 0, max_seconds outside [0, 1e9] or NaN) give kGaveUp +
  // kDetailBadInput, *len = 0, for every planner.
  PlanOutcome plan(PlanScratch& scratch, std::span<const ValueId> s0, std::span<const ValueId> goal,
                   std::span<ActionId> out, int32_t* len, const SearchLimits& limits) const {
    if (!limits_in_range(limits)) [[unlikely]] {
      *len = 0;
      return PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput};
    }
    return plan_within(limits, scratch, s0, goal, out, len);
  }
  // The def's limits, which plan() without limits applies.
  [[nodiscard]] const SearchLimits& limits() const { return limits_; }
  // Upper bound on the length of a returned plan (size `out` to it to never see
  // kBufferTooSmall).
  [[nodiscard]] virtual int32_t max_plan_length() const = 0;
  // The outcome of the last plan() on `scratch` in words, with names (cold path).
  [[nodiscard]] virtual std::string explain(const PlanScratch& scratch,
                                            const PlanOutcome& outcome) const;
  // Planners that delegate ("auto"): why the stages before the one that answered the last
  // plan() on `scratch` did not answer ("topo unsupported: ..."); "" otherwise (cold path).
  [[nodiscard]] virtual std::string explain_earlier_stages(const PlanScratch& /*scratch*/) const {
    return {};
  }

 protected:
  // `limits`: the def's, applied by plan() without limits (planners without limits: any).
  explicit HotPlanner(const SearchLimits& limits = kAutoSearchLimits) : limits_(limits) {}

  // The one virtual every planner implements: plan() within `limits` (in range: both entries
  // above have checked or chosen them). Planners without limits ignore them.
  virtual PlanOutcome plan_within(const SearchLimits& limits, PlanScratch& scratch,
                                  std::span<const ValueId> s0, std::span<const ValueId> goal,
                                  std::span<ActionId> out, int32_t* len) const = 0;

 private:
  SearchLimits limits_;
};

// The hot planner registered as `name` (plan.h's registry), created for `set`; an Error when
// the name is unknown, the planner has no hot factory, or it rejects the set.
[[nodiscard]] Result<std::unique_ptr<HotPlanner>> create_hot_planner(std::string_view name,
                                                                     const CompiledActionSet& set,
                                                                     const HotPlannerDef& def = {});

// A planner prepared for one domain and NPC class: the action set compiled once, the planner
// created once, one scratch; then any number of tasks of that domain, each answered as a
// PlanResult (the plan, its cost, which planner answered, why not). Nothing is recompiled per
// call; the PlanResult's vector is the only allocation of a call once the buffers have grown.
// Not thread-safe (one scratch): one PreparedPlanner per thread, or share its hot() planner and
// give each thread a scratch. The Domain must outlive it.
class PreparedPlanner {
 public:
  // Compiles the actions of `npc_class` (kAllActions: every action) and creates the planner
  // registered as `name` (create_hot_planner).
  [[nodiscard]] static Result<PreparedPlanner> create(const Domain& domain,
                                                      std::string_view name = "auto",
                                                      ClassId npc_class = kAllActions,
                                                      const HotPlannerDef& def = {});
  // Plans `instance` (its npc_class must be the planner's) within the def's limits, or within
  // `limits`. A bad instance is kGaveUp with Domain::check_instance's message.
  [[nodiscard]] PlanResult plan(const Instance& instance);
  [[nodiscard]] PlanResult plan(const Instance& instance, const SearchLimits& limits);

  [[nodiscard]] const HotPlanner& hot() const { return *planner_; }
  [[nodiscard]] const CompiledActionSet& set() const { return set_; }

 private:
  PreparedPlanner() = default;
  const Domain* domain_ = nullptr;
  CompiledActionSet set_;
  SearchLimits limits_;
  std::unique_ptr<HotPlanner> planner_;
  std::unique_ptr<PlanScratch> scratch_;
  std::vector<ActionId> buffer_;
};

// The cold path ("plan this task once") of every planner with a hot factory, as the registry
// runs it: compile the instance's class, create the planner `name` with options.objective,
// plan within options.limits ("auto": options.auto_limits), report as a PlanResult. A set the
// planner refuses is kUnsupported with its reason.
[[nodiscard]] PlanResult plan_prepared(std::string_view name, const Domain& domain,
                                       const Instance& instance, const PlannerOptions& options);

}  // namespace topoplan
