// ℙ's fast path, phase 3: the sort of the chosen actions with the fused self-check. A header so
// that plan() (fast.cpp) inlines the instantiation without disjunctive requests, which most
// plans take; the other one runs out of line (order.cpp, order_loops).
#pragma once

#include <cassert>
#include <type_traits>

#include "orderings.h"

namespace topoplan {

namespace detail {

// The queue of ℙ's sort (Kahn's algorithm) and, with disjunctive requests (kLoops), the actions
// it defers: a record local to TopoPlanner::order whose address never escapes, so that its
// pointers and counters stay in registers as the sort's locals would. The queue is `out` itself:
// every action enters it once and fires when it leaves it, so the queue's order is the plan's.
template <bool kLoops>
struct SortQueue {
  // The records' types as FastOrderings holds them (they are TopoScratch's).
  using ActRec = std::remove_pointer_t<decltype(FastOrderings::act_rec)>;
  using ActSort = std::remove_const_t<std::remove_pointer_t<decltype(FastOrderings::act_sort)>>;
  using VarRec = std::remove_pointer_t<decltype(FastOrderings::var)>;

  decltype(FastOrderings::act) act;
  ActRec* act_rec;    // indeg
  ActSort* act_sort;  // state (kLoops)
  VarRec* var;        // loop_first, pending_disj (kLoops)
  ActionId* deferred;
  ActionId* queue;
  int32_t queue_head = 0;
  int32_t queue_tail = 0;
  int32_t deferred_head = 0;
  int32_t deferred_tail = 0;
  // !kLoops: the queue's first action is also kept in a register (front), so that an action
  // queued into an empty queue (a chain: most of a crowd plan) is fired without the store to
  // `out` and the load back on the sort's critical path.
  ActionId front = -1;

  // Deferred: f_v (the action leaving the first epoch of s0[v] on a looping walk) while some
  // request for s0[v] is pending.
  [[gnu::always_inline]] void make_ready(ActionId a) {
    if constexpr (!kLoops) {
      if (queue_head == queue_tail) front = a;
      queue[queue_tail++] = a;
      return;
    }
    const VarId v = act[a].var;
    if (a == var[v].loop_first && var[v].pending_disj > 0) {
      act_sort[a].state = kDeferred;
      deferred[deferred_tail++] = a;
    } else {
      act_sort[a].state = kQueued;
      queue[queue_tail++] = a;
    }
  }
  [[gnu::always_inline]] void succ(ActionId to) {
    if (--act_rec[to].indeg == 0) make_ready(to);
  }
  // x ran in the first epoch of s0[w]: one request less holds w's loop back.
  [[gnu::always_inline]] void disj(VarId w) {
    assert(kLoops);
    const ActionId f = var[w].loop_first;
    if (act_sort[f].state != kDone && --var[w].pending_disj == 0 &&
        act_sort[f].state == kDeferred && act_rec[f].indeg == 0) {
      act_sort[f].state = kQueued;
      queue[queue_tail++] = f;
    }
  }
  // The chosen actions without predecessors are ready; the others wait (kPending).
  [[gnu::always_inline]] void seed(const ActionId* used, int32_t num_used) {
    for (int32_t i = 0; i < num_used; ++i) {
      const ActionId a = used[i];
      if (act_rec[a].indeg == 0)
        make_ready(a);
      else if constexpr (kLoops)
        act_sort[a].state = kPending;
    }
  }
  // Skips the deferred actions fired since or not waiting any more (in-degree above 0); false
  // when none is left (kLoops).
  [[gnu::always_inline]] bool find_deferred() {
    while (deferred_head < deferred_tail && (act_sort[deferred[deferred_head]].state != kDeferred ||
                                             act_rec[deferred[deferred_head]].indeg != 0))
      ++deferred_head;
    return deferred_head != deferred_tail;
  }
  // f fires next (the queue is empty; kLoops).
  [[gnu::always_inline]] void fire_next(ActionId f) {
    act_sort[f].state = kQueued;
    queue[queue_tail++] = f;
  }
  // One chosen action left in a cycle (not fired), or -1.
  [[gnu::always_inline]] ActionId stuck(const ActionId* used, int32_t num_used) const {
    for (int32_t i = 0; i < num_used; ++i)
      if (kLoops ? act_sort[used[i]].state != kDone : act_rec[used[i]].indeg != 0) return used[i];
    return -1;
  }
  // The next action to fire (the queue is not empty).
  [[gnu::always_inline]] ActionId pop() {
    if constexpr (!kLoops) {
      const ActionId x = front;
      if (++queue_head != queue_tail) front = queue[queue_head];
      return x;
    } else {
      return queue[queue_head++];
    }
  }
};

}  // namespace detail

// Kahn's algorithm with one rule for the disjunctive requests (b needs w = s0[w], w loops back
// to s0[w]): f_w, the action that first leaves s0[w], is deferred while some such b has not run,
// and fired only when nothing else is ready; the b still waiting then go to the second epoch of
// s0[w] (after the action restoring s0[w], before the walk leaves it again).
//
// The self-check is fused into the sort: each action is re-simulated on value slots when it is
// emitted (the slot's sim == gen_ when the variable holds that value; phase 1 set s0), reading
// only the action tables and the simulated state — not the walks, marks or edges the ordering
// used; a failed condition is noted and reported after the loop. The goal test: `goal_diff` starts
// as the goal's state code minus s0's (TopoPlanner:: state_code_; phase 1 computes it), and each
// action subtracts its change of the code, so it is 0 at the end exactly when the simulated state
// is the goal — one subtraction per action. Planners whose state code is not injective scan the
// goal at the end instead. Any failed condition or an unmet goal at the end makes the plan kGaveUp
// / kSelfCheck, never a plan. The hot loop of ℙ: pointers and counters are locals (see
// FastOrderings). kLoops = false when no request is disjunctive (most crowd plans): nothing is ever
// deferred, no late edge exists, and an action is done exactly when its in-degree reached 0, so the
// states are not kept.
template <bool kLoops>
[[gnu::always_inline]] inline PlanStatus TopoPlanner::order(TopoScratch& s, const ValueId* s0,
                                                            const ValueId* goal, uint32_t goal_diff,
                                                            ActionId* out) const {
  using detail::kDone;
  using detail::kQueued;
  using detail::view;
  if constexpr (kLoops) {  // the pick budget and the late edges (loops only)
    s.num_edges_ = 0;
    s.pick_work_ = 0;
    s.work_ = -1;  // computed by the first pick_deferred pass that needs it
  }
  const uint32_t gen = s.gen_;
  const detail::FastOrderings orderings(*this, s);
  const ActInfo* const act = act_info_.data();
  uint32_t* const sim = s.sim_.data();
  detail::SortQueue<kLoops> q{orderings.act, orderings.act_rec,  s.act_sort_.data(),
                              orderings.var, s.deferred_.data(), out};
  const auto state = view<&TopoScratch::ActSort::state>(s.act_sort_.data());
  const ActionId* const used = s.used_.data();
  const int32_t num_used = s.num_used_;
  q.seed(used, num_used);
  // Late edges exist only after a deferred loop was picked: the heads are reset then, once.
  bool late_edges = false;
  // Self-check of the conditions: 0 while every condition of every emitted action held. Tested
  // once after the loop (an emitted action's failure does not change the order of the others);
  // then first_unsound names the first failing action by replaying the plan.
  uint32_t bad = 0;
  while (true) {
    if (q.queue_head == q.queue_tail) {
      if constexpr (!kLoops) break;
      // Nothing ready: fire a deferred f_w (pick_deferred says which).
      if (!q.find_deferred()) break;
      if (!late_edges) {
        late_edges = true;
        for (int32_t i = 0; i < num_used; ++i) s.act_sort_[used[i]].head = -1;
      }
      const ActionId f = pick_deferred(s, s0, q.deferred_head, q.deferred_tail);
      send_requests_late(s, s0, f);
      q.fire_next(f);
    }
    const ActionId x = q.pop();
    if constexpr (kLoops) {
      assert(state[x] == kQueued);
      state[x] = kDone;
    }
    const ActInfo& ax = act[x];
    bad |= sim[ax.pre_slot] ^ gen;
    orderings.for_each_successor<kLoops>(
        x, late_edges, [&](ActionId to) { q.succ(to); }, [&](VarId w) { q.disj(w); },
        [&](int32_t ps) { bad |= sim[ps] ^ gen; });
    sim[ax.pre_slot] = 0;
    sim[ax.post_slot] = gen;
    goal_diff -= ax.code_delta;
  }
  // One test for the three failures (and for every plan of a planner without state code, whose
  // difference stays 1), then the same checks in the same order as one by one.
  if ((bad | goal_diff | static_cast<uint32_t>(q.queue_tail ^ num_used)) == 0) [[likely]]
    return PlanStatus::kSolved;
  if (bad != 0) [[unlikely]] {
    const ActionId x = first_unsound(s, s0, out, q.queue_head);
    fail(s, kDetailSelfCheck, x >= 0 ? act[x].var : -1, -1, x);
    return PlanStatus::kGaveUp;
  }
  if (q.queue_tail != num_used) {
    const ActionId stuck = q.stuck(used, num_used);  // one action left in a cycle
    fail(s, kDetailOrderingCycle, stuck >= 0 ? act[stuck].var : -1, -1, stuck);
    return PlanStatus::kGaveUp;
  }
  if (state_code_ ? goal_diff != 0 : !goal_reached(s, goal)) [[unlikely]] {
    fail(s, kDetailSelfCheck, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  return PlanStatus::kSolved;
}

}  // namespace topoplan
