// ℙ's fast path, phase 3: the topological sort of the chosen actions with the fused self-check,
// and the one choice it makes (which deferred loop to fire). The orderings: orderings.h.
#include <cassert>

#include "orderings.h"

namespace topoplan {

using detail::kDeferred;
using detail::kDone;
using detail::kPending;
using detail::kQueued;
using detail::view;

void TopoPlanner::add_edge(TopoScratch& s, ActionId from, ActionId to) const {
  const int32_t e = s.num_edges_++;
  assert(e < static_cast<int32_t>(s.edge_to_.size()));
  s.edge_to_[e] = to;
  s.edge_next_[e] = s.act_[from].head;
  s.act_[from].head = e;
  ++s.act_[to].indeg;
}

// The self-check's goal test by a scan, for planners whose state code is not injective: every
// variable with a goal value holds it in the simulated state.
bool TopoPlanner::goal_reached(const TopoScratch& s, const ValueId* goal) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  for (VarId v = 0; v < m; ++v)
    if (goal[v] != kUndefined && s.slot_[static_cast<size_t>(slot(v, goal[v]))].sim != s.gen_)
      return false;
  return true;
}

// Chooses which deferred f_w (s.deferred_[first, last)) to fire when nothing else is ready.
// With one candidate, that one. With several, one pass over the not-yet-ordered actions labels
// each with the candidates it descends from (64-bit masks, the first 64 candidates); the first
// candidate whose waiting requesters all descend from it is free to fire (they could not run
// before it anyway). Else the first that does not send a requester reaching the restoring
// action late, else the oldest. A pass costs at most (chosen actions + their orderings); the
// passes of one plan share a budget of kPickBudget times that, after which the oldest candidate
// is taken (and an ordering failure is no longer a proof). docs/algorithm.md, "Complexity".
// Uses the scratch's queue_ as its work list.
ActionId TopoPlanner::pick_deferred(TopoScratch& s, const ValueId* s0, int32_t first,
                                    int32_t last) const {
  constexpr int32_t kMaxCandidates = 64;
  constexpr int64_t kPickBudget = 8;
  ActionId cand[kMaxCandidates];
  int32_t num_cand = 0;
  for (int32_t i = first; i < last && num_cand < kMaxCandidates; ++i) {
    const ActionId a = s.deferred_[i];
    if (s.act_[a].state != kDeferred || s.act_[a].indeg != 0) continue;
    bool dup = false;
    for (int32_t j = 0; j < num_cand; ++j) dup = dup || cand[j] == a;
    if (!dup) cand[num_cand++] = a;
  }
  if (num_cand <= 1) return cand[0];
  if (s.work_ < 0) {  // |chosen actions| + |their requests|: rare path, computed once
    int64_t requests = 0;
    for (int32_t i = 0; i < s.num_used_; ++i) {
      const ActInfo& ai = act_info_[static_cast<size_t>(s.used_[i])];
      requests += ai.prv_end - ai.prv_begin;
    }
    s.work_ = s.num_used_ + requests;
  }
  if (s.pick_work_ > kPickBudget * (s.work_ + s.num_edges_)) {
    s.pick_capped_ = true;
    return cand[0];
  }
  int64_t work = 0;
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = s.used_[i];
    s.tmp_indeg_[a] = s.act_[a].indeg;
    s.mask_[a] = 0;
  }
  int32_t tail = 0;
  for (int32_t j = 0; j < num_cand; ++j) {
    s.mask_[cand[j]] = uint64_t{1} << j;
    s.queue_[tail++] = cand[j];
  }
  const detail::FastOrderings orderings(*this, s);
  for (int32_t head = 0; head < tail; ++head) {
    const ActionId x = s.queue_[head];
    orderings.for_each_successor(
        x, true,
        [&](ActionId to) {
          ++work;
          s.mask_[to] |= s.mask_[x];
          if (--s.tmp_indeg_[to] == 0) s.queue_[tail++] = to;
        },
        [](VarId) {}, [](int32_t) {});
  }
  s.pick_work_ += s.num_used_ + work;
  // Free: every waiting requester descends from cand[j]. Bad: a waiting requester that is itself
  // a candidate reaches the action restoring s0[w], so sending it late closes a cycle.
  int32_t not_bad = -1;
  for (int32_t j = 0; j < num_cand; ++j) {
    const VarId w = act_info_[cand[j]].var;
    const ActionId restore = producer_[slot(w, s0[w])];
    bool free_to_fire = true;
    bool bad = false;
    for (int32_t k = s.var_[w].disj_head; k >= 0; k = s.disj_next_[k]) {
      const ActionId b = s.disj_action_[k];
      if (s.act_[b].state == kDone) continue;
      if ((s.mask_[b] >> j & 1u) == 0) free_to_fire = false;
      for (int32_t i = 0; i < num_cand; ++i)
        if (cand[i] == b && (s.mask_[restore] >> i & 1u) != 0) bad = true;
    }
    if (free_to_fire) return cand[j];
    if (!bad && not_bad < 0) not_bad = j;
  }
  return cand[not_bad >= 0 ? not_bad : 0];
}

// Fires the deferred loop `f` of variable w: its requesters of s0[w] still waiting go late
// (after the action restoring s0[w], before σ1's first action).
void TopoPlanner::send_requests_late(TopoScratch& s, const ValueId* s0, ActionId f) const {
  const VarId w = act_info_[f].var;
  const ActionId restore = producer_[slot(w, s0[w])];
  const ActionId sigma_first = s.var_[w].sigma_first;
  for (int32_t k = s.var_[w].disj_head; k >= 0; k = s.disj_next_[k]) {
    const ActionId b = s.disj_action_[k];
    if (s.act_[b].state == kDone) continue;
    if (s.act_[b].state == kQueued) s.act_[b].state = kPending;  // (cannot happen: queue empty)
    add_edge(s, restore, b);
    if (sigma_first >= 0) add_edge(s, b, sigma_first);
  }
  s.var_[w].pending_disj = 0;
}

// Kahn's algorithm with one rule for the disjunctive requests (b needs w = s0[w], w loops back
// to s0[w]): f_w, the action that first leaves s0[w], is deferred while some such b has not run,
// and fired only when nothing else is ready; the b still waiting then go to the second epoch of
// s0[w] (after the action restoring s0[w], before the walk leaves it again).
//
// The self-check is fused into the sort: each action is re-simulated on value slots when it is
// emitted (the slot's sim == gen_ when the variable holds that value; phase 1 set s0), reading
// only the action tables and the simulated state — not the walks, marks or edges the ordering
// used. The goal test: `goal_diff` starts as the goal's state code minus s0's (TopoPlanner::
// state_code_; phase 1 computes it), and each action subtracts its change of the code, so it is 0
// at the end exactly when the simulated state is the goal — one subtraction per action. Planners
// whose state code is not injective scan the goal at the end instead. Any failed condition or an
// unmet goal at the end makes the plan kGaveUp / kSelfCheck, never a plan. The hot loop of ℙ:
// pointers and counters are locals (see FastOrderings). kLoops = false when no request is
// disjunctive (most crowd plans): nothing is ever deferred, no late edge exists, and an action is
// done exactly when its in-degree reached 0, so the states are not kept.
template <bool kLoops>
PlanStatus TopoPlanner::order(TopoScratch& s, const ValueId* s0, const ValueId* goal,
                              uint32_t goal_diff, ActionId* out) const {
  if constexpr (kLoops) {  // the pick budget and the late edges (loops only)
    s.num_edges_ = 0;
    s.pick_work_ = 0;
    s.work_ = -1;  // computed by the first pick_deferred pass that needs it
  }
  const uint32_t gen = s.gen_;
  const detail::FastOrderings orderings(*this, s);
  const ActInfo* const act = act_info_.data();
  const auto sim = view<&TopoScratch::SlotRec::sim>(s.slot_.data());
  const auto indeg = view<&TopoScratch::ActRec::indeg>(s.act_.data());
  const auto state = view<&TopoScratch::ActRec::state>(s.act_.data());
  const auto loop_first = view<&TopoScratch::VarRec::loop_first>(s.var_.data());
  const auto pending = view<&TopoScratch::VarRec::pending_disj>(s.var_.data());
  ActionId* const deferred = s.deferred_.data();
  const ActionId* const used = s.used_.data();
  // The queue is `out` itself: every action enters it once and fires when it leaves it, so
  // the queue's order is the plan's order.
  ActionId* const queue = out;
  const int32_t num_used = s.num_used_;
  int32_t queue_head = 0;
  int32_t queue_tail = 0;
  int32_t deferred_head = 0;
  int32_t deferred_tail = 0;
  // Deferred: f_v (the action leaving the first epoch of s0[v] on a looping walk) while some
  // request for s0[v] is pending.
  auto make_ready = [&](ActionId a) {
    if constexpr (!kLoops) {
      queue[queue_tail++] = a;
      return;
    }
    const VarId v = act[a].var;
    if (a == loop_first[v] && pending[v] > 0) {
      state[a] = kDeferred;
      deferred[deferred_tail++] = a;
    } else {
      state[a] = kQueued;
      queue[queue_tail++] = a;
    }
  };
  auto succ = [&](ActionId to) {
    if (--indeg[to] == 0) make_ready(to);
  };
  // x ran in the first epoch of s0[w]: one request less holds w's loop back.
  auto disj = [&](VarId w) {
    assert(kLoops);
    const ActionId f = loop_first[w];
    if (state[f] != kDone && --pending[w] == 0 && state[f] == kDeferred && indeg[f] == 0) {
      state[f] = kQueued;
      queue[queue_tail++] = f;
    }
  };

  for (int32_t i = 0; i < num_used; ++i) {
    const ActionId a = used[i];
    if (indeg[a] == 0)
      make_ready(a);
    else if constexpr (kLoops)
      state[a] = kPending;
  }
  // Late edges exist only after a deferred loop was picked: the heads are reset then, once.
  bool late_edges = false;
  while (true) {
    if (queue_head == queue_tail) {
      if constexpr (!kLoops) break;
      // Nothing ready: fire a deferred f_w (pick_deferred says which).
      while (deferred_head < deferred_tail &&
             (state[deferred[deferred_head]] != kDeferred || indeg[deferred[deferred_head]] != 0))
        ++deferred_head;
      if (deferred_head == deferred_tail) break;
      if (!late_edges) {
        late_edges = true;
        for (int32_t i = 0; i < num_used; ++i) s.act_[used[i]].head = -1;
      }
      const ActionId f = pick_deferred(s, s0, deferred_head, deferred_tail);
      send_requests_late(s, s0, f);
      state[f] = kQueued;  // fired next (the queue is empty)
      queue[queue_tail++] = f;
    }
    const ActionId x = queue[queue_head++];
    if constexpr (kLoops) {
      assert(state[x] == kQueued);
      state[x] = kDone;
    }
    const ActInfo& ax = act[x];
    uint32_t bad = sim[ax.pre_slot] ^ gen;  // self-check: 0 while every condition holds
    orderings.for_each_successor<kLoops>(x, late_edges, succ, disj,
                                         [&](int32_t ps) { bad |= sim[ps] ^ gen; });
    if (bad != 0) [[unlikely]] {
      fail(s, TopoFailure::kSelfCheck, ax.var, -1, x);
      return PlanStatus::kGaveUp;
    }
    sim[ax.pre_slot] = 0;
    sim[ax.post_slot] = gen;
    goal_diff -= ax.code_delta;
  }
  if (queue_tail != num_used) {
    // Name one action left in a cycle.
    ActionId stuck = -1;
    for (int32_t i = 0; i < num_used && stuck < 0; ++i)
      if (kLoops ? state[used[i]] != kDone : indeg[used[i]] != 0) stuck = used[i];
    fail(s, TopoFailure::kOrderingCycle, stuck >= 0 ? act[stuck].var : -1, -1, stuck);
    return PlanStatus::kGaveUp;
  }
  if (state_code_ ? goal_diff != 0 : !goal_reached(s, goal)) [[unlikely]] {
    fail(s, TopoFailure::kSelfCheck, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  return PlanStatus::kSolved;
}

template PlanStatus TopoPlanner::order<false>(TopoScratch&, const ValueId*, const ValueId*,
                                              uint32_t, ActionId*) const;
template PlanStatus TopoPlanner::order<true>(TopoScratch&, const ValueId*, const ValueId*, uint32_t,
                                             ActionId*) const;

}  // namespace topoplan
