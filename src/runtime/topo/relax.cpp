// ℙ's relaxed reachability proof (docs/algorithm.md, "Relaxed reachability proofs"):
// run only where plan() would give up (kGaveUp). In the delete relaxation a value is reachable
// when s0 holds it or some available action sets it and all of that action's pre- and
// prevail-conditions are reachable; if some goal value is not, no plan exists (every plan is a
// relaxed plan). One pass of counters over the compiled action set, O(|A| + Σ|conditions| +
// slots), on the scratch's preallocated arrays (no allocation).
#include "internal.h"

namespace topoplan {

PlanStatus TopoPlanner::relaxed_proof(TopoScratch& s, const ValueId* s0,
                                      const ValueId* goal) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  int32_t* const count = s.relax_count_.data();
  uint8_t* const reached = s.relax_reached_.data();
  int32_t* const queue = s.relax_queue_.data();
  const int32_t slots = value_offset_[m];
  for (int32_t k = 0; k < slots; ++k) reached[k] = 0;
  int32_t head = 0;
  int32_t tail = 0;
  auto reach = [&](int32_t k) {
    if (reached[k] != 0) return;
    reached[k] = 1;
    queue[tail++] = k;
  };
  for (VarId v = 0; v < m; ++v) {
    const ValueId x = s0[v];
    if (static_cast<uint32_t>(x) >= static_cast<uint32_t>(value_offset_[v + 1] - value_offset_[v]))
      return PlanStatus::kGaveUp;  // (bad input is reported before; defensive)
    reach(slot(v, x));
  }
  for (const ActionId a : set_.actions()) {
    const ActInfo& ai = act_info_[static_cast<size_t>(a)];
    count[a] = (ai.pre != kUndefined ? 1 : 0) + (ai.prv_end - ai.prv_begin);
    if (count[a] == 0) reach(ai.post_slot);  // no condition: reachable from any state
  }
  auto release = [&](std::span<const ActionId> actions) {
    for (const ActionId a : actions)
      if (--count[a] == 0) reach(act_info_[static_cast<size_t>(a)].post_slot);
  };
  while (head < tail) {
    const int32_t k = queue[head++];
    release(set_.consumers(k));
    release(set_.requesters(k));
  }
  for (VarId v = 0; v < m; ++v) {
    const ValueId g = goal[v];
    if (g == kUndefined || reached[slot(v, g)] != 0) continue;
    fail(s, kDetailGoalUnreachable | kDetailRelaxedUnreachable, v, g, -1);
    return PlanStatus::kUnsolvable;
  }
  return PlanStatus::kGaveUp;
}

// *out_len is already 0 on every path that gets here. Bad input and a failed self-check (a bug
// that must stay visible) keep their kGaveUp.
PlanStatus TopoPlanner::gave_up(TopoScratch& s, const ValueId* s0, const ValueId* goal) const {
  if ((s.failure_ & (kDetailBadInput | kDetailSelfCheck)) != 0) return PlanStatus::kGaveUp;
  return relaxed_proof(s, s0, goal);
}

}  // namespace topoplan
