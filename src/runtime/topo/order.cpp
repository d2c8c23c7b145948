// ℙ's fast path, phase 3: the topological sort of the chosen actions with the fused self-check,
// and the one choice it makes (which deferred loop to fire). The orderings: orderings.h.
#include <cassert>

#include "order_impl.h"

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
  s.edge_next_[e] = s.act_sort_[from].head;
  s.act_sort_[from].head = e;
  ++s.act_[to].indeg;
}

// The self-check's goal test by a scan, for planners whose state code is not injective: every
// variable with a goal value holds it in the simulated state.
bool TopoPlanner::goal_reached(const TopoScratch& s, const ValueId* goal) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  for (VarId v = 0; v < m; ++v)
    if (goal[v] != kUndefined && s.sim_[static_cast<size_t>(slot(v, goal[v]))] != s.gen_)
      return false;
  return true;
}

// The self-check's replay: simulates plan[0, n) from s0 on the value slots with the stamp
// gen_ + 1 (the sort's simulation used gen_ and 0; the next plan starts at gen_ + 2) and returns
// the first action whose pre-condition or a prevail-condition does not hold (-1: none).
ActionId TopoPlanner::first_unsound(TopoScratch& s, const ValueId* s0, const ActionId* plan,
                                    int32_t n) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  const uint32_t stamp = s.gen_ + 1;
  uint32_t* const sim = s.sim_.data();
  for (VarId v = 0; v < m; ++v) sim[slot(v, s0[v])] = stamp;
  for (int32_t i = 0; i < n; ++i) {
    const ActInfo& ax = act_info_[static_cast<size_t>(plan[i])];
    bool ok = sim[ax.pre_slot] == stamp;
    for (int32_t p = ax.prv_begin; p < ax.prv_end; ++p) ok = ok && sim[prv_slot_[p]] == stamp;
    if (!ok) return plan[i];
    sim[ax.pre_slot] = 0;
    sim[ax.post_slot] = stamp;
  }
  return -1;
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
    if (s.act_sort_[a].state != kDeferred || s.act_[a].indeg != 0) continue;
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
    s.pick_capped_ = 1;
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
      if (s.act_sort_[b].state == kDone) continue;
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
    if (s.act_sort_[b].state == kDone) continue;
    if (s.act_sort_[b].state == kQueued)
      s.act_sort_[b].state = kPending;  // (cannot happen: queue empty)
    add_edge(s, restore, b);
    if (sigma_first >= 0) add_edge(s, b, sigma_first);
  }
  s.var_[w].pending_disj = 0;
}

// The requesters of s0[w] of every looping walk w (the disjunctive requests), listed per
// variable (var_[w].disj_head, linked through disj_next_) in the order phase 2 met them, last
// first: phase 2 only counts them (most plans have none on a looping walk, and then the sort
// never reads the lists). After phase 2 a slot marked gen_ + 1 is s0 of its variable.
void TopoPlanner::list_disjunctive(TopoScratch& s) const {
  const uint32_t s0_mark = s.gen_ + 1;
  TopoScratch::VarRec* const var = s.var_.data();
  for (int32_t k = 0; k < s.num_s0_req_vars_; ++k) var[s.s0_req_vars_[k]].disj_head = -1;
  int32_t num_disj = 0;
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = s.used_[i];
    const ActInfo& ai = act_info_[static_cast<size_t>(a)];
    for (int32_t p = ai.prv_begin; p < ai.prv_end; ++p) {
      const int32_t ps = prv_slot_[p];
      if (s.slot_[ps].mark != s0_mark) continue;
      TopoScratch::VarRec& r = var[slot_var_[ps]];
      if (r.loop_first < 0) continue;  // short walk: an edge, counted by phase 2
      s.disj_action_[num_disj] = a;
      s.disj_next_[num_disj] = r.disj_head;
      r.disj_head = num_disj++;
    }
  }
  s.num_disj_ = num_disj;
}

PlanStatus TopoPlanner::order_loops(TopoScratch& s, const ValueId* s0, const ValueId* goal,
                                    uint32_t goal_diff, ActionId* out) const {
  list_disjunctive(s);
  return order<true>(s, s0, goal, goal_diff, out);
}

}  // namespace topoplan
