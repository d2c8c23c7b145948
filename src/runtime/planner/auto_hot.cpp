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
// whichever stage answers, the cost is the optimum; A* runs within the call's limits
// (kAutoSearchLimits unless the def or the call says otherwise). One exception, on the large
// unary sets of reach_pays() only: topo-reach's plan after an exhausted producer-choice search
// is optimal among the plans that use one producer per value, not proven globally optimal
// (docs/algorithm.md, "Producer choices"); there A*'s search is what does not pay.
#include <algorithm>
#include <array>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/astar/packed_astar.h"
#include "topoplan/runtime/planner.h"

namespace topoplan {

// ℙ over producer choices as a stage (src/runtime/reform/reach_hot.cpp).
Result<std::unique_ptr<HotPlanner>> create_topo_reach_stage(const CompiledActionSet& set,
                                                            const HotPlannerDef& def);

namespace {

// The stages of "auto", first to last.
constexpr std::array<std::string_view, 2> kAutoStages = {"topo", "astar"};
// On large unary sets with a few producers per value, ℙ over producer choices before A*
// (docs/benchmarks.md, "Where ℙ over producer choices pays"). Its plan is taken when the
// choices were exhausted within its budget (optimal among the plans with one producer per
// value); past the budget the task goes on to A*.
constexpr std::array<std::string_view, 3> kReachAutoStages = {"topo", "topo-reach", "astar"};
// The rule, measured with bench/reach_scale_bench.cpp (travel tasks: walk, or ride once the mount
// is fetched, to the places of k errands; callgrind instructions per plan): the choice search
// grows polynomially (n nodes, each linear in |A|) while A* grows with the 2^k subsets — n6-p2-k5
// (384 states, 18 actions): 50 k against 284 k; n10-p2-k9: 118 k against 12.0 M; n16-p2-k15:
// 274 k where A* stops at its 1 s limit. Below the rule A* costs less or the same (n4-p3-k3:
// 40 k against 23 k; n4-p2-k3: 26 k against 27 k). Every real-corpus class falls outside it (A*
// answers them in 0.3-10 µs): they are small, multi-effect (a reformulation per call), or have
// many producers per value (grounded counters: hundreds of choices). So: every action unary (an
// effect that keeps its value counts as a condition), some value with 2-3 producers and none
// with more, at least 16 actions, at least 2^8 states.
constexpr int64_t kReachMinStates = 256;
constexpr int32_t kReachMinActions = 16;
constexpr int32_t kReachMaxProducers = 3;
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

bool reach_pays(const CompiledActionSet& set) {
  const Domain& d = set.domain();
  if (static_cast<int32_t>(set.actions().size()) < kReachMinActions) return false;
  int64_t states = 1;
  std::vector<int32_t> off(static_cast<size_t>(d.num_variables()) + 1, 0);
  for (VarId v = 0; v < d.num_variables(); ++v) {
    states = std::min<int64_t>(states * d.domain_size(v), kReachMinStates);
    off[static_cast<size_t>(v) + 1] = off[static_cast<size_t>(v)] + d.domain_size(v);
  }
  if (states < kReachMinStates) return false;
  std::vector<int32_t> producers(static_cast<size_t>(off.back()), 0);
  int32_t most = 0;
  for (const ActionId a : set.actions()) {
    int32_t changes = 0;
    for (const Effect& e : d.effects(a)) {
      if (e.pre == e.post) continue;
      ++changes;
      most = std::max(most,
                      ++producers[static_cast<size_t>(off[static_cast<size_t>(e.var)] + e.post)]);
    }
    if (changes > 1) return false;
  }
  return most >= 2 && most <= kReachMaxProducers;
}

struct AutoScratch final : PlanScratch {
  std::vector<std::unique_ptr<PlanScratch>> stages;  // one per created stage
  std::vector<PlanOutcome> outcomes;                 // per stage, its outcome in the last call
  int32_t tried = 0;                                 // stages run by the last call
  // When the first stage is the one-word A*: its search's part of stages[0].
  detail::PackedAStarScratch* first_search = nullptr;
};

class AutoHotPlanner final : public HotPlanner {
 public:
  AutoHotPlanner(std::vector<std::unique_ptr<HotPlanner>> stages, std::string refused,
                 const SearchLimits& limits)
      : HotPlanner(limits), stages_(std::move(stages)), refused_(std::move(refused)) {
    for (const auto& s : stages_) {
      max_len_ = std::max(max_len_, s->max_plan_length());
      names_.push_back(s->name());
      optimal_in_choices_.push_back(s->name() == "topo-reach" ? 1 : 0);
    }
    first_search_ = detail::one_word_search(*stages_[0]);
  }

  [[nodiscard]] std::string_view name() const override { return "auto"; }
  [[nodiscard]] std::unique_ptr<PlanScratch> make_scratch() const override {
    auto scratch = std::make_unique<AutoScratch>();
    for (const auto& s : stages_) scratch->stages.push_back(s->make_scratch());
    scratch->outcomes.resize(stages_.size());
    if (first_search_ != nullptr)
      scratch->first_search = &detail::one_word_scratch(*scratch->stages[0]);
    return scratch;
  }
  PlanOutcome plan_within(const SearchLimits& limits, PlanScratch& scratch,
                          std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::span<ActionId> out, int32_t* len) const override {
    if (first_search_ != nullptr) [[likely]]
      return plan_first_search(limits, static_cast<AutoScratch&>(scratch), s0, goal, out, len);
    if (stages_.size() == 1) return plan_one(limits, scratch, s0, goal, out, len);
    auto& s = static_cast<AutoScratch&>(scratch);
    s.expanded = s.generated = 0;
    return plan_from(0, limits, s, s0, goal, out, len);
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
  // The one-word A* first (ℙ refused the set, or the task is tiny): its search called directly,
  // as the stage would call it (limits in range: plan() checked them). One return of one named
  // outcome: it is built in the caller's slot, never copied (a copy right after its fields are
  // written stalls on store forwarding).
  [[gnu::always_inline]] PlanOutcome plan_first_search(const SearchLimits& limits, AutoScratch& s,
                                                       std::span<const ValueId> s0,
                                                       std::span<const ValueId> goal,
                                                       std::span<ActionId> out,
                                                       int32_t* len) const {
    PlanOutcome o = first_search_->plan(*s.first_search, s0, goal, limits, out, len);
    o.planner = names_[0];
    s.tried = 1;
    s.expanded = s.first_search->expanded;  // (explain reads no stage's statistics)
    s.generated = s.first_search->generated;
    // (The one-word A*'s plans are optimal: ends_chain without its kDetailNotProvenOptimal
    // test, the status byte read on its own.)
    const bool answered = o.status == PlanStatus::kSolved || o.status == PlanStatus::kUnsolvable ||
                          o.status == PlanStatus::kBufferTooSmall ||
                          (o.detail & kDetailBadInput) != 0;
    if (stages_.size() > 1 && !answered) [[unlikely]] {
      s.outcomes[0] = o;
      o = plan_from(1, limits, s, s0, goal, out, len);
    }
    return o;
  }

  // Whether stage i's outcome `o` is the call's answer: a plan not proven optimal is no answer
  // here (a later stage finds the optimum), except topo-reach's when its choices were exhausted
  // (optimal among one-producer plans; kDetailExpansionLimit: the budget was spent); otherwise an
  // answer, or a reason every later stage would share (bad input, a short buffer), ends the chain.
  [[nodiscard]] bool ends_chain(const PlanOutcome& o, int32_t next) const {
    const bool in_choices = optimal_in_choices_[static_cast<size_t>(next - 1)] != 0 &&
                            (o.detail & kDetailExpansionLimit) == 0;
    const bool unproven = o.status == PlanStatus::kSolved &&
                          (o.detail & kDetailNotProvenOptimal) != 0 && !in_choices &&
                          next < static_cast<int32_t>(stages_.size());
    return !unproven &&
           (o.status == PlanStatus::kSolved || o.status == PlanStatus::kUnsolvable ||
            o.status == PlanStatus::kBufferTooSmall || (o.detail & kDetailBadInput) != 0);
  }

  // The chain from stage `first` on; s.expanded and s.generated hold the earlier stages'.
  [[gnu::noinline]] PlanOutcome plan_from(int32_t first, const SearchLimits& limits, AutoScratch& s,
                                          std::span<const ValueId> s0,
                                          std::span<const ValueId> goal, std::span<ActionId> out,
                                          int32_t* len) const {
    const auto n = static_cast<int32_t>(stages_.size());
    PlanOutcome o;
    for (int32_t i = first; i < n; ++i) {
      const HotPlanner& stage = *stages_[static_cast<size_t>(i)];
      PlanScratch& ss = *s.stages[static_cast<size_t>(i)];
      o = stage.plan(ss, s0, goal, out, len, limits);
      o.planner = names_[static_cast<size_t>(i)];
      s.tried = i + 1;
      s.expanded += ss.expanded;
      s.generated += ss.generated;
      if (ends_chain(o, i + 1)) return o;
      s.outcomes[static_cast<size_t>(i)] = o;  // for explain (the last stage's is its argument)
    }
    return o;
  }

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
  std::vector<std::string_view> names_;      // per stage, its name()
  std::vector<uint8_t> optimal_in_choices_;  // per stage: its exhausted choice searches answer
  std::string refused_;  // the stages that refused the set, with their reasons ("" if none)
  // The first stage's search when that stage is the one-word A* (called without the stage).
  const detail::PackedAStar* first_search_ = nullptr;
  int32_t max_len_ = 0;
};

}  // namespace

// The hot factory registered for "auto" (src/runtime/planner/registry.cpp).
Result<std::unique_ptr<HotPlanner>> create_auto_hot(const CompiledActionSet& set,
                                                    const HotPlannerDef& def) {
  if (!limits_in_range(def.limits)) return Error{"auto: limits must be positive", {}, 0};
  std::vector<std::unique_ptr<HotPlanner>> stages;
  std::string refused;
  const std::span<const std::string_view> names =
      tiny(set.domain()) ? std::span<const std::string_view>(kTinyAutoStages)
      : reach_pays(set)  ? std::span<const std::string_view>(kReachAutoStages)
                         : std::span<const std::string_view>(kAutoStages);
  for (const std::string_view name : names) {
    Result<std::unique_ptr<HotPlanner>> p = name == "topo-reach"
                                                ? create_topo_reach_stage(set, def)
                                                : create_hot_planner(name, set, def);
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
