// ℙ's general path, first half of an attempt: the closure (which actions every plan needs), the
// walk structure (epochs of s0, segments, windows) and the explicit orderings.
// docs/algorithm.md, "Windows".
#include <cassert>

#include "general.h"

namespace topoplan::detail {

GeneralAttempt::GeneralAttempt(const TopoPlanner& planner_in, TopoScratch& scratch,
                               std::span<const ValueId> s0_in, std::span<const ValueId> goal_in,
                               std::span<ActionId> out_in)
    : planner(planner_in),
      s(scratch),
      s0(s0_in),
      goal(goal_in),
      out(out_in),
      num_vars(static_cast<int32_t>(planner_in.value_offset_.size()) - 1),
      num_actions(static_cast<int32_t>(planner_in.act_info_.size())),
      off(planner_in.value_offset_.data()),
      producer(planner_in.producer_.data()),
      slot_var(planner_in.slot_var_.data()),
      prv_offset(planner_in.prv_offset_.data()),
      prv_slot(planner_in.prv_slot_.data()),
      act_info(planner_in.act_info_.data()) {}

PlanStatus GeneralAttempt::run(int32_t* out_len, VarId* retry_var) {
  s.failure_ = kDetailNone;
  s.failure_var_ = s.failure_value_ = s.failure_action_ = -1;
  s.gen_ += 2;
  if (s.gen_ < 2 || s.gen_ > UINT32_MAX - 2) {
    for (ActRec& r : s.act_) r.stamp = 0;
    for (SlotRec& r : s.slot_) r.mark = 0;
    for (uint32_t& r : s.sim_) r = 0;
    s.gen_ = 2;
  }
  gen = s.gen_;
  s.num_used_ = 0;
  s.num_disj_ = 0;
  s.gnum_edges_ = 0;
  s.num_jvars_ = 0;
  s.gheuristic_ = false;
  s.num_hints_ = 0;
  act = s.act_.data();
  act_sort = s.act_sort_.data();
  gact = s.gact_.data();
  slot_rec = s.slot_.data();
  gslot = s.gslot_.data();
  gvar = s.gvar_.data();
  pending = s.gwin_pending_.data();
  used = s.used_.data();
  reentry_work = s.jvars_.data();
  reset_variables();
  if (const PlanStatus st = close_goals_and_requests(); st != PlanStatus::kSolved) return st;
  if (const PlanStatus st = lay_out_windows(); st != PlanStatus::kSolved) return st;
  if (const PlanStatus st = add_orderings(); st != PlanStatus::kSolved) return st;
  if (s.num_used_ > static_cast<int32_t>(out.size())) {
    *out_len = s.num_used_;
    return PlanStatus::kBufferTooSmall;
  }
  return sort(out_len, retry_var);
}

void GeneralAttempt::reset_variables() {
  for (VarId v = 0; v < num_vars; ++v) {
    GVarRec& r = gvar[v];
    r.e1 = r.e2 = r.reentry = r.loop_child = r.goal_child = -1;
    r.nact = r.nroots = r.nwin_left = r.s0pend = 0;
    r.s0head = r.rhead = r.goalwin = r.win2 = -1;
    r.cur = num_actions + v;
    r.simval = s0_of(v);
    r.released = r.held_e1 = 0;
    r.hint_head = -1;
    pending[num_actions + v] = 0;
    if (r.force == s.gplan_) {
      reentry_work[num_reentry_work++] = v;
      any_forced = true;
    }
  }
}

// ---- Closure ---------------------------------------------------------------------------------

void GeneralAttempt::choose(ActionId a) {
  if (act[a].stamp == gen) return;
  act[a].stamp = gen;
  act[a].indeg = 0;
  act_sort[a].head = -1;
  act_sort[a].state = kGeneralPending;
  gact[a] = GActRec{-1, 0, -1, -1};
  used[s.num_used_++] = a;
  const VarId v = info(a).var;
  GVarRec& r = gvar[v];
  if (++r.nact == 1 && goal_of(v) == s0_of(v))  // must come back to s0
    reentry_work[num_reentry_work++] = v;
  // A jump window and a goal below s0: the goal's branch must follow the jumps, so v comes
  // back to s0 in between.
  if (info(a).pre == kUndefined && ++r.nroots == 1 && r.goal_child >= 0)
    reentry_work[num_reentry_work++] = v;
}

// Records `child` as a chosen action leaving s0[v]; a second one forces the return to s0.
bool GeneralAttempt::add_child_s0(VarId v, ActionId child) {
  GVarRec& r = gvar[v];
  if (r.e1 == child || r.e2 == child) return true;
  if (r.e1 < 0) {
    r.e1 = child;
    return true;
  }
  if (r.e2 < 0) {
    r.e2 = child;
    reentry_work[num_reentry_work++] = v;
    return true;
  }
  planner.fail(s, kDetailOutsideClass | kDetailBranching, v, s0_of(v), child);
  return false;
}

// Marks q (≠ s0[v]) and the chain of producers above it; `below` is the chosen action leaving
// q (-1: none yet), `by` the requester (-1: the goal). 0 ok, 1 proof of unsolvability, 2 no
// plan with each action once (or not decided here).
int GeneralAttempt::need(VarId v, ValueId q, ActionId below, ActionId by) {
  const ValueId x0 = s0_of(v);
  if (++s.gwalk_ == 0) {
    for (GSlotRec& r : s.gslot_) r.walk = 0;
    s.gwalk_ = 1;
  }
  const uint32_t walk = s.gwalk_;
  const PlanDetail unreachable = by < 0 ? kDetailGoalUnreachable : kDetailPreconditionUnmet;
  ValueId x = q;
  while (true) {
    if (x == x0) return below < 0 || add_child_s0(v, below) ? 0 : 2;
    const int32_t slot = off[v] + x;
    if (slot_rec[slot].mark == gen) {
      if (gslot[slot].walk == walk) {  // the chain loops without meeting s0 or a root
        planner.fail(s, unreachable, v, q, by);
        return 1;
      }
      ActionId& leave = slot_rec[slot].leave;
      if (below >= 0) {
        if (leave < 0) {
          leave = below;
        } else if (leave != below) {  // two chosen actions leave x: x visited twice
          planner.fail(s, kDetailOutsideClass | kDetailBranching, v, x, below);
          return 2;
        }
      }
      return 0;
    }
    slot_rec[slot].mark = gen;
    slot_rec[slot].leave = below;
    gslot[slot].walk = walk;
    gslot[slot].win = -1;
    const ActionId a = producer[slot];
    if (a < 0) {  // nothing enters x
      planner.fail(s, unreachable, v, q, by);
      return 1;
    }
    choose(a);
    if (info(a).pre == kUndefined) return 0;  // a root: entered by a jump
    below = a;
    x = info(a).pre;
  }
}

PlanStatus GeneralAttempt::status_of(int need_result) const {
  return need_result == 1 && !any_forced ? PlanStatus::kUnsolvable : PlanStatus::kGaveUp;
}

// Goals, then the requests of every chosen action and the forced returns to s0, until nothing
// is added.
PlanStatus GeneralAttempt::close_goals_and_requests() {
  for (VarId v = 0; v < num_vars; ++v) {
    const ValueId g = goal_of(v);
    if (g == kUndefined || g == s0_of(v)) continue;
    ++unmet;
    if (const int r = need(v, g, -1, -1); r != 0) return status_of(r);
    if (gvar[v].e1 >= 0) gvar[v].goal_child = gvar[v].e1;  // the goal hangs below s0
    if (gvar[v].goal_child >= 0 && gvar[v].nroots > 0) reentry_work[num_reentry_work++] = v;
  }
  for (int32_t i = 0;;) {
    for (; i < s.num_used_; ++i) {
      const ActionId a = used[i];
      const int32_t begin = prv_offset[a];
      const int32_t end = prv_offset[a + 1];
      work += 1 + (end - begin);
      for (int32_t k = begin; k < end; ++k) {
        const int32_t ps = prv_slot[k];
        const VarId w = slot_var[ps];
        const ValueId q = ps - off[w];
        if (q == s0_of(w)) {
          const int32_t d = s.num_disj_++;
          s.disj_action_[d] = a;
          s.disj_next_[d] = gvar[w].s0head;
          gvar[w].s0head = d;
        } else if (const int r = need(w, q, -1, a); r != 0) {
          return status_of(r);
        }
      }
    }
    if (num_reentry_work == 0) return PlanStatus::kSolved;
    if (const PlanStatus st = close_reentries(); st != PlanStatus::kSolved) return st;
  }
}

// One return to s0 from the worklist: its producer and the chain above it.
PlanStatus GeneralAttempt::close_reentries() {
  const VarId v = reentry_work[--num_reentry_work];
  GVarRec& r = gvar[v];
  if (r.reentry >= 0) return PlanStatus::kSolved;
  const ValueId x0 = s0_of(v);
  const ActionId a = producer[off[v] + x0];
  const bool optional = r.force == s.gplan_ && r.e2 < 0 && goal_of(v) != x0;  // a retry
  if (a < 0) {  // s0 must be visited twice and nothing enters it: no plan at all
    planner.fail(s, kDetailPreconditionUnmet, v, x0, r.e2 >= 0 ? r.e2 : -1);
    return optional || any_forced ? PlanStatus::kGaveUp : PlanStatus::kUnsolvable;
  }
  r.reentry = a;
  choose(a);
  if (info(a).pre != kUndefined) {
    if (const int res = need(v, info(a).pre, a, -1); res != 0)
      return optional ? PlanStatus::kGaveUp : status_of(res);
  }
  return PlanStatus::kSolved;
}

// ---- Walk structure: epochs of s0, segments, windows ----------------------------------------

// The child of s0 on the chain above value y (-1: the chain starts at a root).
ActionId GeneralAttempt::s0_child_above(VarId v, ValueId y) const {
  const ValueId x0 = s0_of(v);
  const int32_t limit = off[v + 1] - off[v];
  for (int32_t steps = 0; steps <= limit; ++steps) {
    const ActionId a = producer[off[v] + y];
    if (a < 0 || info(a).pre == kUndefined) return -1;
    if (info(a).pre == x0) return a;
    y = info(a).pre;
  }
  return -1;
}

// Walks the segment of `window` from `first`, assigning windows (bounded: the closure's checks
// make it a simple walk).
void GeneralAttempt::walk_segment(VarId v, int32_t window, ActionId first) {
  const ValueId x0 = s0_of(v);
  GVarRec& r = gvar[v];
  int32_t steps = 0;
  for (ActionId a = first; a >= 0 && steps <= r.nact; ++steps) {
    gact[a].win = window;
    ++covered;
    ++pending[window];
    const ValueId y = info(a).post;
    if (y == x0) {  // the return to s0: the walk goes on with the second-epoch child
      r.win2 = window;
      a = r.e2;
      continue;
    }
    gslot[off[v] + y].win = window;
    a = slot_rec[off[v] + y].leave;
  }
}

// Which child of s0 starts the first epoch (e1) and which the second (e2), for a variable
// that returns to s0.
PlanStatus GeneralAttempt::order_epochs(VarId v) {
  GVarRec& r = gvar[v];
  const ValueId x0 = s0_of(v);
  const ValueId g = goal_of(v);
  if (info(r.reentry).pre != kUndefined) r.loop_child = s0_child_above(v, info(r.reentry).pre);
  if (g != kUndefined && g != x0 && r.goal_child < 0) r.goal_child = s0_child_above(v, g);
  ActionId first = r.e1;
  ActionId second = r.e2;
  if (r.loop_child >= 0) {  // the return chain starts below s0: that child goes first
    if (r.goal_child == r.loop_child) {
      planner.fail(s, kDetailOutsideClass | kDetailNeedsRepeat, v, g, r.loop_child);
      return PlanStatus::kGaveUp;
    }
    first = r.loop_child;
    second = first == r.e1 ? r.e2 : r.e1;
  } else if (g == x0) {
    if (r.e2 >= 0) {  // three visits of s0
      planner.fail(s, kDetailOutsideClass | kDetailBranching, v, x0, r.e2);
      return PlanStatus::kGaveUp;
    }
  } else if (r.goal_child >= 0) {  // the goal's branch goes last
    second = r.goal_child;
    first = second == r.e1 ? r.e2 : r.e1;
  } else if (r.e2 >= 0) {
    s.gheuristic_ = true;  // which branch of s0 comes first is a guess
  } else if (r.force_late == s.gplan_) {
    first = -1;  // the retry: the segment below s0 waited for a later window
    second = r.e1;
  }
  r.e1 = first;
  r.e2 = second;
  return PlanStatus::kSolved;
}

PlanStatus GeneralAttempt::lay_out_windows() {
  for (VarId v = 0; v < num_vars; ++v) {
    GVarRec& r = gvar[v];
    if (r.nact == 0) continue;
    if (r.reentry >= 0) {
      if (const PlanStatus st = order_epochs(v); st != PlanStatus::kSolved) return st;
    }
    walk_segment(v, num_actions + v, r.e1);
  }
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = used[i];
    if (info(a).pre != kUndefined) continue;
    const VarId v = info(a).var;
    pending[a] = 0;
    ++gvar[v].nwin_left;
    walk_segment(v, a, a);
  }
  if (covered != s.num_used_) {  // a chosen action outside every segment (guard)
    planner.fail(s, kDetailOrderingCycle, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  for (VarId v = 0; v < num_vars; ++v) {
    GVarRec& r = gvar[v];
    const ValueId x0 = s0_of(v);
    const ValueId g = goal_of(v);
    if (r.nwin_left > 0 || (r.reentry >= 0 && r.s0head >= 0)) s.jvars_[s.num_jvars_++] = v;
    if (g == kUndefined || r.nact == 0) continue;
    if (g == x0) {
      r.goalwin = r.win2;
    } else {
      const int32_t slot = off[v] + g;
      if (slot_rec[slot].leave >= 0) {  // the walk goes on past the goal and never comes back
        planner.fail(s, kDetailOutsideClass | kDetailNeedsRepeat, v, g, slot_rec[slot].leave);
        return PlanStatus::kGaveUp;
      }
      r.goalwin = gslot[slot].win;
    }
    if (r.goalwin == num_actions + v && r.nwin_left > 0) {  // the goal lies in the first window
      planner.fail(s, kDetailOutsideClass | kDetailNeedsRepeat, v, g, -1);
      return PlanStatus::kGaveUp;
    }
  }
  return PlanStatus::kSolved;
}

// ---- Orderings (explicit edges) ---------------------------------------------------------------

void GeneralAttempt::add_edge(ActionId from, ActionId to) {
  const int32_t e = s.gnum_edges_++;
  assert(e < static_cast<int32_t>(s.gedge_to_.size()));
  edge_to[e] = to;
  edge_next[e] = act_sort[from].head;
  act_sort[from].head = e;
  ++act[to].indeg;
}

PlanStatus GeneralAttempt::add_orderings() {
  edge_next = s.gedge_next_.data();
  edge_to = s.gedge_to_.data();
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = used[i];
    const VarId v = info(a).var;
    const ValueId p = info(a).pre;
    if (p != kUndefined) {
      if (p != s0_of(v)) {
        add_edge(producer[off[v] + p], a);
      } else if (a == gvar[v].e2) {
        add_edge(gvar[v].reentry, a);
      } else if (a != gvar[v].e1) {  // guard: a child of s0 in no epoch
        planner.fail(s, kDetailOutsideClass | kDetailBranching, v, p, a);
        return PlanStatus::kGaveUp;
      }
    }
    for (int32_t k = prv_offset[a]; k < prv_offset[a + 1]; ++k) {
      const int32_t ps = prv_slot[k];
      const VarId w = slot_var[ps];
      if (ps - off[w] == s0_of(w)) continue;  // below
      add_edge(producer[ps], a);
      const ActionId leave = slot_rec[ps].leave;
      if (leave >= 0) {
        add_edge(a, leave);
        ++gact[leave].ireq;
      } else {
        ++pending[gslot[ps].win];  // a requester of the window's last value
      }
    }
  }
  for (VarId w = 0; w < num_vars; ++w) {
    GVarRec& r = gvar[w];
    for (int32_t d = r.s0head; d >= 0; d = s.disj_next_[d]) {
      if (r.reentry >= 0) {
        ++r.s0pend;  // first epoch if it can, else after the return (decided in the sort)
      } else if (r.e1 >= 0) {
        add_edge(s.disj_action_[d], r.e1);
        ++gact[r.e1].ireq;
      } else {
        ++pending[num_actions + w];
      }
    }
  }
  return PlanStatus::kSolved;
}

}  // namespace topoplan::detail
