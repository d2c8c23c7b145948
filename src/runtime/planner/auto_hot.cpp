// The default planner behind the hot-planner contract (planner.h): a chain of registered hot
// planners, tried in order on each call until one answers (a plan, a proof of unsolvability, or
// a buffer too small for its plan). One scratch holds every stage's scratch; the outcome names
// the stage that answered (PlanOutcome::planner).
//
// Why a list of names: a stage is any registered hot planner, so a stronger ℙ variant goes first
// by adding its name. A stage that refuses the action set at create (ℙ on a set that is not
// unary or not post-unique) is left out of this planner; the planner exists as long as one stage
// accepts the set, and explain() still gives the refused stage's reason.
//
// Why it stays optimal: ℙ's plans are minimal (every action it picks is in every plan), a stage's
// plan marked kDetailNotProvenOptimal is passed over, and A*'s heuristic is admissible, so
// whichever stage answers, the cost is the optimum; A* runs within
// the call's limits (kAutoSearchLimits unless the def or the call says otherwise).
#include <algorithm>
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/planner.h"

namespace topoplan {

namespace {

// The stages of "auto", first to last.
// "topo-reach" is not a stage: prepared, it costs 10-1000x A* on the real GOAP corpus
// (docs/benchmarks.md, "ℙ's reach, prepared"): its search over producer choices narrows and
// bounds every node, which costs more than the one-word A*'s whole search on these tasks.
constexpr std::array<std::string_view, 2> kAutoStages = {"topo", "astar"};
// Tasks whose whole state space has at most this many states take A* first: it expands at most
// that many nodes, which costs less than ℙ's fixed work per call (docs/benchmarks.md, "Small
// GOAP tasks": 3 boolean variables, 1.5 k instructions for A* against 4.6 k for ℙ).
constexpr int64_t kTinyStates = 64;
constexpr std::array<std::string_view, 2> kTinyAutoStages = {"astar", "topo"};

bool tiny(const Domain& d) {
  int64_t states = 1;
  for (VarId v = 0; v < d.num_variables(); ++v) {
    states *= d.domain_size(v);
    if (states > kTinyStates) return false;
  }
  return true;
}

struct AutoScratch final : PlanScratch {
  std::vector<std::unique_ptr<PlanScratch>> stages;  // one per created stage
  std::vector<PlanOutcome> outcomes;                 // per stage, its outcome in the last call
  int32_t tried = 0;                                 // stages run by the last call
};

class AutoHotPlanner final : public HotPlanner {
 public:
  AutoHotPlanner(std::vector<std::unique_ptr<HotPlanner>> stages, std::string refused,
                 const SearchLimits& limits)
      : HotPlanner(limits), stages_(std::move(stages)), refused_(std::move(refused)) {
    for (const auto& s : stages_) {
      max_len_ = std::max(max_len_, s->max_plan_length());
      names_.push_back(s->name());
    }
  }

  [[nodiscard]] std::string_view name() const override { return "auto"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    auto scratch = std::make_unique<AutoScratch>();
    for (const auto& s : stages_) scratch->stages.push_back(s->make_scratch());
    scratch->outcomes.resize(stages_.size());
    return scratch;
  }
  PlanOutcome plan_within(const SearchLimits& limits, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    if (stages_.size() == 1) return plan_one(limits, scratch, s0, goal, out, len);
    auto& s = static_cast<AutoScratch&>(scratch);
    const auto n = static_cast<int32_t>(stages_.size());
    s.expanded = s.generated = 0;
    PlanOutcome o;
    for (int32_t i = 0; i < n; ++i) {
      const HotPlanner& stage = *stages_[static_cast<size_t>(i)];
      PlanScratch& ss = *s.stages[static_cast<size_t>(i)];
      o = stage.plan(ss, s0, goal, out, len, limits);
      o.planner = names_[static_cast<size_t>(i)];
      s.tried = i + 1;
      s.expanded += ss.expanded;
      s.generated += ss.generated;
      // A plan not proven optimal is no answer here: a later stage finds the optimum.
      // Otherwise an answer, or a reason every later stage would share (bad input, a short
      // buffer), ends the chain.
      const bool unproven =
          o.status == PlanStatus::kSolved && (o.detail & kDetailNotProvenOptimal) != 0 && i + 1 < n;
      if (!unproven &&
          (o.status == PlanStatus::kSolved || o.status == PlanStatus::kUnsolvable ||
           o.status == PlanStatus::kBufferTooSmall || (o.detail & kDetailBadInput) != 0))
        return o;
      s.outcomes[static_cast<size_t>(i)] = o;  // for explain (the last stage's is its argument)
    }
    return o;
  }
  [[nodiscard]] int32_t max_plan_length() const override { return max_len_; }
  // The last stage's words, then why the stages before it did not answer.
  [[nodiscard]] std::string explain(const PlanScratch& scratch,
                                    const PlanOutcome& outcome) const override {
    const auto& s = static_cast<const AutoScratch&>(scratch);
    if (s.tried == 0) return HotPlanner::explain(scratch, outcome);
    const auto last = static_cast<size_t>(s.tried - 1);
    std::string out = stages_[last]->explain(*s.stages[last], outcome);
    const std::string earlier = explain_earlier_stages(scratch);
    if (!earlier.empty()) out += " (after " + earlier + ")";
    return out;
  }
  [[nodiscard]] std::string explain_earlier_stages(const PlanScratch& scratch) const override {
    const auto& s = static_cast<const AutoScratch&>(scratch);
    std::string out = refused_;
    for (int32_t i = 0; i + 1 < s.tried; ++i) {
      const auto k = static_cast<size_t>(i);
      if (!out.empty()) out += "; ";
      out +=
          std::string(stages_[k]->name()) + " " + stages_[k]->explain(*s.stages[k], s.outcomes[k]);
    }
    return out;
  }

 private:
  // One stage accepted the set (ℙ refuses most GOAP domains): no chain to walk.
  [[gnu::always_inline]] PlanOutcome plan_one(const SearchLimits& limits, PlanScratch& scratch,
                                              std::span<const ValueId> s0,
                                              std::span<const ValueId> goal,
                                              std::span<ActionId> out, int32_t* len) const {
    auto& s = static_cast<AutoScratch&>(scratch);
    PlanScratch& ss = *s.stages[0];
    PlanOutcome o = stages_[0]->plan(ss, s0, goal, out, len, limits);
    o.planner = names_[0];
    s.tried = 1;  // (explain reads the outcomes of the stages before the last only)
    s.expanded = ss.expanded;
    s.generated = ss.generated;
    return o;
  }

  std::vector<std::unique_ptr<HotPlanner>> stages_;
  std::vector<std::string_view> names_;  // per stage, its name()
  std::string refused_;  // the stages that refused the set, with their reasons ("" if none)
  int32_t max_len_ = 0;
};

}  // namespace

// The hot factory registered for "auto" (src/runtime/planner/registry.cpp).
Result<std::unique_ptr<HotPlanner>> create_auto_hot(const CompiledActionSet& set,
                                                    const HotPlannerDef& def) {
  if (!limits_in_range(def.limits)) return Error{"auto: limits must be positive", {}, 0};
  std::vector<std::unique_ptr<HotPlanner>> stages;
  std::string refused;
  for (const std::string_view name : tiny(set.domain()) ? kTinyAutoStages : kAutoStages) {
    Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(name, set, def);
    if (p.ok()) {
      stages.push_back(std::move(p).value());
      continue;
    }
    if (!refused.empty()) refused += "; ";
    refused += std::string(name) + " unsupported: " + p.error().message;
  }
  if (stages.empty()) return Error{"auto: every stage refused the action set: " + refused, {}, 0};
  return std::unique_ptr<HotPlanner>(
      std::make_unique<AutoHotPlanner>(std::move(stages), std::move(refused), def.limits));
}

}  // namespace topoplan
