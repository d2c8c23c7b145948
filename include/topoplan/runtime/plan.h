// topoplan — what every planner returns, and the registry of planners by name.
//
// The cold-path interface: a planner takes a compiled Domain and an Instance and returns a
// PlanResult. Hot paths (ℙ for crowds) have their own allocation-free entry points; this one
// is for tools, tests and the CLI, where one vector per plan is fine.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <memory>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

enum class PlanStatus : uint8_t {
  kSolved,          // `actions` is a plan
  kUnsolvable,      // proven: no plan exists
  kLimitReached,    // a node, memory or time limit stopped the search: no plan, no proof
  kGaveUp,          // the planner cannot decide this instance (e.g. outside its class)
  kUnsupported,     // the planner refuses the domain (e.g. non-unary actions for ℙ)
  kBufferTooSmall,  // the caller's buffer is shorter than the plan (the length needed is reported)
};

[[nodiscard]] std::string_view to_string(PlanStatus status);

// Why a plan ended without kSolved — bits, several may be set. Every planner's answer (the hot
// contract, planner.h; ℙ's native entry, topo.h; the crowd's fallback) carries these, so that
// one function (explain below) turns any of them into words.
using PlanDetail = uint32_t;
inline constexpr PlanDetail kDetailNone = 0;
inline constexpr PlanDetail kDetailGoalUnreachable = 1u << 0;    // a goal value cannot be produced
inline constexpr PlanDetail kDetailPreconditionUnmet = 1u << 1;  // a needed pre/prevail cannot hold
inline constexpr PlanDetail kDetailOrderingCycle = 1u << 2;      // chosen actions cannot be ordered
inline constexpr PlanDetail kDetailOutsideClass = 1u << 3;    // the task leaves the planner's class
inline constexpr PlanDetail kDetailExpansionLimit = 1u << 4;  // SearchLimits::max_expansions
inline constexpr PlanDetail kDetailMemoryLimit = 1u << 5;     // ... max_memory_bytes
inline constexpr PlanDetail kDetailTimeLimit = 1u << 6;       // ... max_seconds
inline constexpr PlanDetail kDetailSelfCheck = 1u << 7;  // the emitted plan failed re-simulation
inline constexpr PlanDetail kDetailBadInput = 1u << 8;   // s0 / goal size or value out of range
inline constexpr PlanDetail kDetailExhausted = 1u << 9;  // every reachable state was searched
// On kSolved: a valid plan that the planner does not prove optimal ("topo-reach" after a
// producer choice); "auto" passes such a task on to its next stage.
inline constexpr PlanDetail kDetailNotProvenOptimal = 1u << 10;
// Which part of ℙ's class the task leaves (set with kDetailOutsideClass, so that a caller that
// only asks "outside the class?" reads one bit): a free goal variable whose value a prevail
// requests elsewhere; a value visited twice by one action; two needed actions leaving one
// value; a return to s0 whose minimality ℙ cannot prove.
inline constexpr PlanDetail kDetailPartialGoal = 1u << 11;
inline constexpr PlanDetail kDetailNeedsRepeat = 1u << 12;
inline constexpr PlanDetail kDetailBranching = 1u << 13;
inline constexpr PlanDetail kDetailUnprovenMinimal = 1u << 14;
// With kDetailGoalUnreachable: the proof is the delete relaxation (the value is unreachable even
// if every value, once reached, stayed available).
inline constexpr PlanDetail kDetailRelaxedUnreachable = 1u << 15;

// One plan's answer: a code, the detail bits saying why, and the variable / value / action at
// fault (-1 when not applicable).
struct PlanOutcome {
  // kSolved: out[0, *len) is a plan. kBufferTooSmall: *len = the length needed. kUnsolvable:
  // proven. kGaveUp / kLimitReached: no plan, no proof. kUnsupported: the planner cannot take
  // this task (a HotPlanner created for a set normally rejects it in create()).
  PlanStatus status = PlanStatus::kGaveUp;
  PlanDetail detail = kDetailNone;
  VarId var = -1;
  ValueId value = -1;
  ActionId action = -1;
  // The registry name of the planner that answered, set by planners that delegate ("auto": its
  // stage); empty when the planner called answered itself.
  std::string_view planner = {};

  [[nodiscard]] bool solved() const { return status == PlanStatus::kSolved; }
};

// Words for the detail bits ("goal unreachable, ordering cycle"); "" for kDetailNone.
[[nodiscard]] std::string describe(PlanDetail detail);

// The designer's words for `outcome` on `domain`: what the task needs that the planner could
// not give, with the names of the variable, value and action at fault, and what would change it
// (e.g. "visiting location=armory twice: 'WalkPostToArmory' is needed twice; ..."). "" for
// kSolved. Cold path (allocates).
[[nodiscard]] std::string explain(const Domain& domain, const PlanOutcome& outcome);

struct PlanStats {
  std::string engine;     // which planner produced the answer (the default planner chains)
  int64_t expanded = 0;   // search nodes expanded (0 for non-search planners)
  int64_t generated = 0;  // search nodes generated
  double seconds = 0.0;   // wall-clock time of the call
  std::string reason;     // the default planner: why the engine before this one did not answer
};

struct PlanResult {
  PlanStatus status = PlanStatus::kGaveUp;
  std::vector<ActionId> actions;  // the plan, in execution order, when kSolved
  int64_t cost = 0;               // sum of action costs, when kSolved
  std::string message;            // why, for every status other than kSolved
  PlanStats stats;
};

// Limits shared by search-based planners. A limit that is hit yields kLimitReached, never a
// wrong kUnsolvable.
struct SearchLimits {
  int64_t max_expansions = 20'000'000;
  int64_t max_memory_bytes = int64_t{4} << 30;  // bytes of states + bookkeeping
  double max_seconds = 0.0;                     // 0: no time limit
};

// What the planner minimises. The papers' ℙ returns plans of minimal length (number of
// actions); Fast Downward-style search minimises cost.
enum class Objective : uint8_t { kCost, kLength };

// The bounded limits of the default planner's search stage (`auto`: ℙ, then GOAP A*): no
// instance of the GOAP level generator runs past them without kLimitReached (docs/goap.md,
// "The default planner").
inline constexpr SearchLimits kAutoSearchLimits{500'000, int64_t{256} << 20, 1.0};

struct PlannerOptions {
  SearchLimits limits;                           // search planners called by name
  SearchLimits auto_limits = kAutoSearchLimits;  // `auto`'s A* stage; raise to search longer
  Objective objective = Objective::kCost;
};

using PlanFn = PlanResult (*)(const Domain&, const Instance&, const PlannerOptions&);

// The accepted ranges of PlannerOptions, for `limits` and `auto_limits` alike: max_expansions and
// max_memory_bytes in [0, 2^63 - 1] (0 stops at once), max_seconds in [0, 1e9] (0: no time
// limit; NaN and infinity are refused), objective kCost or kLength. nullopt when they hold, else
// a one-line Error naming the field and its range.
[[nodiscard]] std::optional<Error> check(const PlannerOptions& options);

// A registered planner's cold entry (PlannerInfo::plan). Calling it checks the options once, at
// the registry's entrance, whatever the planner: options out of range (check() above) give
// kUnsupported with check()'s message, and the planner does not run. Built implicitly from a
// PlanFn, so registering stays `PlannerInfo{"name", "description", &plan_fn}`.
class RegisteredPlanFn {
 public:
  constexpr RegisteredPlanFn(PlanFn fn = nullptr)
      : fn_(fn) {}  // NOLINT(google-explicit-constructor)
  PlanResult operator()(const Domain& domain, const Instance& instance,
                        const PlannerOptions& options) const;
  // The planner's own function, unchecked.
  [[nodiscard]] constexpr PlanFn get() const { return fn_; }
  constexpr explicit operator bool() const { return fn_ != nullptr; }

 private:
  PlanFn fn_;
};

class CompiledActionSet;  // compiled.h
class HotPlanner;         // planner.h
struct HotPlannerDef;     // planner.h
using HotPlannerFactory = Result<std::unique_ptr<HotPlanner>> (*)(const CompiledActionSet& set,
                                                                  const HotPlannerDef& def);

struct PlannerInfo {
  std::string_view name;         // e.g. "exact", "topo", "astar"
  std::string_view description;  // one line for --help
  RegisteredPlanFn plan;         // cold path: one call, one vector; checks the options
  // Hot path (planner.h): creates the planner once for an action set; nullptr when the planner
  // has none yet.
  HotPlannerFactory create_hot = nullptr;
};

// Every planner of the registry: the runtime's ("auto", "astar", "astar-back", "topo"), then
// those registered, in registration order. The span is invalidated by register_planner().
[[nodiscard]] std::span<const PlannerInfo> planners();
// The planner called `name`, or nullptr.
[[nodiscard]] const PlannerInfo* find_planner(std::string_view name);
// Adds a planner to the registry, or replaces the one of the same name. For libraries built on
// the runtime (topoplan::tools registers "exact" and "backstrom", topoplan/tools/tools.h) and for
// programs that bring their own. Not thread-safe: register before planning starts.
void register_planner(const PlannerInfo& info);

// Sum of the costs of `actions`.
[[nodiscard]] int64_t plan_cost(const Domain& domain, std::span<const ActionId> actions);

}  // namespace topoplan
