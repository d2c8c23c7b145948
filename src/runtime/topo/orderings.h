// The orderings of ℙ's fast path, written once.
//
// They are not stored: every edge is implied by the walks and by the prevail lists, so the
// out-edges of a chosen action x are enumerated on demand:
//   * chain: x → the action leaving post(x) on its walk; when post(x) is s0 of a looping walk
//     (x restores s0), x → σ1's first action;
//   * produced value: x → every chosen action requesting post(x) (the set's requester index,
//     filtered by the chosen stamp), unless post(x) is s0;
//   * requested values: for each prevail w = q of x, x → the action leaving q; when q = s0[w],
//     x → σ1's first action on a short walk, and on a looping walk the request is disjunctive
//     (no edge: x runs in either epoch of s0[w]; the sort decides, order.cpp);
//   * late edges of disjunctive requests the sort resolved (stored: the head field, edge_*).
// Phase 2 (fast.cpp) counts the in-degrees with the same rules. This replaces an edge list of
// O(|E_A|) entries that each plan would write and chase through memory.
#pragma once

#include "internal.h"

namespace topoplan::detail {

// Raw pointers into the planner and the scratch, taken once per plan: the sort's uint8_t and
// int32_t stores may alias anything, which would otherwise reload every vector's data pointer
// after each store.
struct FastOrderings {
  FastOrderings(const TopoPlanner& p, TopoScratch& s)
      : s0_mark(s.gen_ + 1),
        chosen(s.gen_),
        act(p.act_info_.data()),
        prv_slot(p.prv_slot_.data()),
        requester(p.req_action_.data()),
        slot_var(p.slot_var_.data()),
        slot(s.slot_.data()),
        var(s.var_.data()),
        act_rec(s.act_.data()),
        act_sort(s.act_sort_.data()),
        edge_next(s.edge_next_.data()),
        edge_to(s.edge_to_.data()) {}

  // Calls on_succ(y) for every out-edge x → y, on_disj(w) for every disjunctive request of x
  // (for s0[w] of a looping walk), and on_prevail(slot) for every prevail slot of x (the sort's
  // self-check). Late edges only when `late_edges` (before, the heads are stale). kLoops =
  // false: the plan has no disjunctive request, so a request for s0[w] is one on a short walk.
  template <bool kLoops = true, class OnSucc, class OnDisj, class OnPrevail>
  [[gnu::always_inline]] void for_each_successor(ActionId x, bool late_edges, OnSucc&& on_succ,
                                                 OnDisj&& on_disj, OnPrevail&& on_prevail) const {
    const TopoPlanner::ActInfo& ax = act[x];
    const int32_t post = ax.post_slot;
    if constexpr (!kLoops) {
      // No disjunctive request: s0[w]'s leave is σ1's first action of w (phase 1), so a request
      // for s0[w] and a restore of s0[w] need no mark test; no chosen action requests s0[w] of a
      // looping walk, so the requesters of a restored s0 are all filtered out by the stamp.
      if (const ActionId l = slot[post].leave; l >= 0) on_succ(l);
      for (int32_t r = ax.req_begin; r < ax.req_end; ++r)
        if (act_rec[requester[r]].stamp == chosen) on_succ(requester[r]);
      for (int32_t i = ax.prv_begin; i < ax.prv_end; ++i) {
        const int32_t ps = prv_slot[i];
        on_prevail(ps);
        if (const ActionId l = slot[ps].leave; l >= 0) on_succ(l);
      }
      return;
    }
    if (slot[post].mark == s0_mark) {  // x restores s0[v]: the walk is long
      if (var[ax.var].sigma_first >= 0) on_succ(var[ax.var].sigma_first);
    } else {
      if (slot[post].leave >= 0) on_succ(slot[post].leave);
      for (int32_t r = ax.req_begin; r < ax.req_end; ++r)
        if (act_rec[requester[r]].stamp == chosen) on_succ(requester[r]);
    }
    for (int32_t i = ax.prv_begin; i < ax.prv_end; ++i) {
      const int32_t ps = prv_slot[i];
      on_prevail(ps);
      if (slot[ps].mark != s0_mark) {
        if (slot[ps].leave >= 0) on_succ(slot[ps].leave);
      } else {
        const VarId w = slot_var[ps];
        if (kLoops && var[w].loop_first >= 0)
          on_disj(w);
        else if (var[w].sigma_first >= 0)
          on_succ(var[w].sigma_first);
      }
    }
    if (late_edges)
      for (int32_t e = act_sort[x].head; e >= 0; e = edge_next[e]) on_succ(edge_to[e]);
  }

  const uint32_t s0_mark;  // slot mark of s0 values (walk values: s0_mark - 1)
  const uint32_t chosen;   // action stamp of chosen actions
  const TopoPlanner::ActInfo* const act;
  const int32_t* const prv_slot;
  const ActionId* const requester;
  const VarId* const slot_var;
  TopoScratch::SlotRec* const slot;
  TopoScratch::VarRec* const var;
  TopoScratch::ActRec* const act_rec;
  const TopoScratch::ActSort* const act_sort;
  const int32_t* const edge_next;
  const ActionId* const edge_to;
};

}  // namespace topoplan::detail
