// What the papers' planners (topo_ijcai.cpp, topo_sas.cpp) share: the constant-time prv(a)[v]
// their procedures assume, the IDs with their producers, Procedure 2 (DFSTopo), which both papers
// write alike but for the pre-condition edge it skips, and a call's refusals and end (validate the
// emitted plan, fill the result). Internal to topoplan::tools.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"

namespace topoplan::papers {

// A map from pairs of ids to values, kUndefined when absent, in expected O(1) per operation: open
// addressing over a table sized once for at most `max_entries` pairs (kept at most half full).
// The papers' tables indexed by two ids (prv(a)[v], the Flag matrix) are used through it, so a
// call costs what the procedures touch, not a scan of a list or an m × m initialisation.
class PairTable {
 public:
  explicit PairTable(size_t max_entries);

  [[nodiscard]] ValueId get(int32_t a, int32_t b) const {
    const uint64_t key = pack(a, b);
    for (uint64_t i = hash(key) & slot_mask_;; i = (i + 1) & slot_mask_) {
      if (keys_[i] == key) return values_[i];
      if (keys_[i] == kEmpty) return kUndefined;
    }
  }
  void set(int32_t a, int32_t b, ValueId x) {
    const uint64_t key = pack(a, b);
    uint64_t i = hash(key) & slot_mask_;
    while (keys_[i] != kEmpty && keys_[i] != key) i = (i + 1) & slot_mask_;
    keys_[i] = key;
    values_[i] = x;
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  [[nodiscard]] static uint64_t pack(int32_t a, int32_t b) {
    return (static_cast<uint64_t>(static_cast<uint32_t>(a)) << 32) | static_cast<uint32_t>(b);
  }
  [[nodiscard]] static uint64_t hash(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdULL;
    return key ^ (key >> 33);
  }

  uint64_t slot_mask_ = 0;
  std::vector<uint64_t> keys_;
  std::vector<ValueId> values_;
};

// Σ|prv(a)| over the actions of `mask`.
[[nodiscard]] size_t count_prevails(const Domain& d, std::span<const uint8_t> mask);

// prv(a)[v] for the actions of `mask` (get(a, v); kUndefined when a has no prevail on v), built in
// O(Σ|prv(a)|). The papers count this lookup as one step and their bounds rest on it; a scan of
// a's prevail list would make the figures measure list lengths instead of the algorithms.
[[nodiscard]] PairTable prevail_table(const Domain& d, std::span<const uint8_t> mask);

// The IDs of both papers: one slot per (variable, value), and a^x_v, the action of the mask
// producing v = x (-1: a ghost, no action produces it).
struct Ids {
  Ids(const Domain& d, std::span<const uint8_t> mask);
  [[nodiscard]] int32_t slot(VarId v, ValueId x) const { return offset[v] + x; }
  [[nodiscard]] size_t size() const { return static_cast<size_t>(offset.back()); }
  std::vector<int32_t> offset;     // per variable, its first slot; one past the last at the end
  std::vector<ActionId> producer;  // per slot
};

// "v=x", as the fail messages name a fact.
[[nodiscard]] std::string fact(const Domain& d, VarId v, ValueId x);

// The colours of Procedures 1-3: white (not in the plan), yellow (in the plan, not emitted), blue
// (on DFSTopo's stack), green (emitted).
enum class Color : uint8_t { kWhite, kYellow, kBlue, kGreen };

// Procedure 2, DFSTopo(a): emits a after its yellow predecessors `preds[a]` (2.2-2.11). The edge
// from the producer of a's pre-condition is skipped (2.3) when skips_pre(a) says so, each paper by
// its own rule. A blue predecessor b is a cycle (2.4): returns on_cycle(b, a), the paper's fail.
template <class SkipsPre, class OnCycle>
bool dfs_topo(const Domain& d, const Ids& ids, const std::vector<std::vector<ActionId>>& preds,
              std::vector<Color>& color, ActionId a, const SkipsPre& skips_pre,
              const OnCycle& on_cycle, std::vector<ActionId>& plan) {
  color[a] = Color::kBlue;  // (2.1)
  const Effect& ea = d.effects(a)[0];
  const ActionId pre_producer = ids.producer[ids.slot(ea.var, ea.pre)];
  const bool skip = skips_pre(a);
  for (const ActionId b : preds[static_cast<size_t>(a)]) {  // (2.2)
    if (skip && b == pre_producer) continue;                // (2.3)
    if (color[b] == Color::kBlue) return on_cycle(b, a);    // (2.4)
    if (color[b] == Color::kYellow && !dfs_topo(d, ids, preds, color, b, skips_pre, on_cycle, plan))
      return false;  // (2.6-2.7)
  }
  color[a] = Color::kGreen;  // (2.11)
  plan.push_back(a);
  return true;
}

// One call of a papers' planner: its clock, its result under the engine's name, the refusals
// before the procedures run and the end of the call, all timed from the start.
struct Call {
  explicit Call(std::string engine);

  std::chrono::steady_clock::time_point start;
  PlanResult r;

  // r with `status` and `message`: a refusal.
  [[nodiscard]] PlanResult refuse(PlanStatus status, std::string message);
  // kUnsupported (check_instance's words) when `instance` is not one of `domain`'s.
  [[nodiscard]] std::optional<PlanResult> refuse_foreign(const Domain& domain,
                                                         const Instance& instance);
  // kGaveUp when the goal has a free entry: the papers' goals are total.
  [[nodiscard]] std::optional<PlanResult> refuse_partial_goal(const Instance& instance);
  // The end: when `ran` is false, kGaveUp with `fail_message` (the paper's "fail"); otherwise the
  // emitted plan is validated, and an invalid one becomes kGaveUp "invalid plan: ..." and is
  // counted in `invalid_plans`, a valid one kSolved with its cost.
  [[nodiscard]] PlanResult finish(const Domain& domain, const Instance& instance, bool ran,
                                  const std::string& fail_message, std::vector<ActionId> plan,
                                  std::atomic<int64_t>& invalid_plans);

 private:
  PlanResult timed();
};

}  // namespace topoplan::papers
