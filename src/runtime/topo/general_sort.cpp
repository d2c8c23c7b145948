// ℙ's general path, second half of an attempt: Kahn's algorithm with windows and the fused
// self-check, and, when it gets stuck, which retry might help. docs/algorithm.md, "Windows".
#include "general.h"

namespace topoplan::detail {

namespace {
// Closability trials that fail are paid from this many times the size of the plan.
constexpr int64_t kCheckBudget = 8;
}  // namespace

void GeneralAttempt::make_ready(ActionId a) {
  GVarRec& r = gvar[info(a).var];
  if (info(a).pre == kUndefined) {  // a jump waits for its variable's window to close
    if (act_sort[a].state != kGeneralHeld) {
      act_sort[a].state = kGeneralHeld;
      gact[a].rprev = -1;
      gact[a].rnext = r.rhead;
      if (r.rhead >= 0) gact[r.rhead].rprev = a;
      r.rhead = a;
    }
    return;
  }
  if (a == r.e1 && r.reentry >= 0 && r.s0pend > 0 && !r.released) {
    act_sort[a].state = kGeneralHeld;
    r.held_e1 = 1;
    return;
  }
  act_sort[a].state = kGeneralQueued;
  queue[queue_tail++] = a;
}

void GeneralAttempt::release_e1(GVarRec& r) {
  if (!r.held_e1) return;
  r.held_e1 = 0;
  if (act[r.e1].indeg == 0) {
    act_sort[r.e1].state = kGeneralQueued;
    queue[queue_tail++] = r.e1;
  } else {
    act_sort[r.e1].state = kGeneralPending;
  }
}

// w's current window is closed (and, in its first epoch of s0, no request waits for it).
bool GeneralAttempt::is_free(VarId w) const {
  const GVarRec& r = gvar[w];
  if (pending[r.cur] != 0) return false;
  return r.cur != num_actions + w || r.reentry < 0 || r.s0pend == 0 || r.released;
}

bool GeneralAttempt::eligible(VarId w, ActionId jump) const {
  const GVarRec& r = gvar[w];
  return act_sort[jump].state == kGeneralHeld && act[jump].indeg == 0 &&
         (jump != r.goalwin || r.nwin_left == 1);
}

// The window of `jump` is closable when a trial run of the sort from its jump alone (other
// jumps and held first epochs stay closed; relaxed: jumps of other free variables open) completes
// every member: its segment and the requesters of its values. Opening a closable window first
// is always safe (docs/algorithm.md, "Windows"). Trials are paid from trial_budget.
bool GeneralAttempt::closable(VarId w, ActionId jump, bool relaxed) {
  if (trial_spent > trial_budget) return false;
  if (s.trial_ >= UINT32_MAX - 4) {
    for (uint32_t& t : s.trial_mark_) t = 0;
    s.trial_ = 0;
  }
  s.trial_ += 2;
  const uint32_t seen = s.trial_;
  const uint32_t fired = seen + 1;
  ActionId* const stack = s.deferred_.data();
  int32_t sp = 0;
  trial_mark[jump] = fired;
  stack[sp++] = jump;
  while (sp > 0) {
    const ActionId x = stack[--sp];
    ++trial_spent;
    for (int32_t e = act_sort[x].head; e >= 0; e = edge_next[e]) {
      ++trial_spent;
      const ActionId to = edge_to[e];
      if (trial_mark[to] != seen && trial_mark[to] != fired) {
        trial_mark[to] = seen;
        trial_indeg[to] = act[to].indeg;
      }
      if (trial_mark[to] != seen || --trial_indeg[to] != 0) continue;
      const VarId tv = info(to).var;
      if (info(to).pre == kUndefined && (!relaxed || tv == w || !is_free(tv))) continue;
      const GVarRec& rb = gvar[tv];
      if (to == rb.e1 && rb.reentry >= 0 && !rb.released && rb.s0pend > 0) continue;
      trial_mark[to] = fired;
      stack[sp++] = to;
    }
  }
  const ValueId x0 = s0_of(w);
  const GVarRec& r = gvar[w];
  int32_t steps = 0;
  for (ActionId a = jump; a >= 0 && steps <= r.nact; ++steps) {
    if (trial_mark[a] != fired) return false;
    const ValueId y = info(a).post;
    const int32_t slot = off[w] + y;
    for (const ActionId b : planner.set_.requesters(slot)) {
      ++trial_spent;
      if (act[b].stamp == gen && act_sort[b].state != kGeneralDone && trial_mark[b] != fired)
        return false;
    }
    a = y == x0 ? r.e2 : slot_rec[slot].leave;
  }
  return true;
}

void GeneralAttempt::open_window(VarId w, ActionId jump) {
  GVarRec& r = gvar[w];
  if (gact[jump].rprev < 0)
    r.rhead = gact[jump].rnext;
  else
    gact[gact[jump].rprev].rnext = gact[jump].rnext;
  if (gact[jump].rnext >= 0) gact[gact[jump].rnext].rprev = gact[jump].rprev;
  r.cur = jump;
  --r.nwin_left;
  act_sort[jump].state = kGeneralQueued;
  queue[queue_tail++] = jump;
}

// When an action waits for one more ordering only, the unopened windows it needs (its own, and
// those of the values it requests) are worth a trial first. Each action gives hints at most
// twice (its in-degree passes 1; late edges may raise it once more).
void GeneralAttempt::hint(ActionId to) {
  auto push = [&](ActionId window) {
    if (window < 0 || window >= num_actions || act_sort[window].state != kGeneralHeld) return;
    if (s.num_hints_ >= static_cast<int32_t>(s.hint_win_.size())) return;
    GVarRec& r = gvar[info(window).var];
    const int32_t h = s.num_hints_++;
    s.hint_win_[h] = window;
    s.hint_next_[h] = r.hint_head;
    r.hint_head = h;
  };
  push(gact[to].win);
  for (int32_t k = prv_offset[to]; k < prv_offset[to + 1]; ++k) {
    const int32_t ps = prv_slot[k];
    const VarId w = slot_var[ps];
    if (ps - off[w] != s0_of(w))
      push(gslot[ps].win);
    else if (gvar[w].released)
      push(gvar[w].win2);
  }
}

// Closes the first epoch of s0[w] with requests left: they go after the return to s0.
void GeneralAttempt::release_first_epoch(VarId w) {
  GVarRec& r = gvar[w];
  r.released = 1;
  r.s0pend = 0;
  for (int32_t d = r.s0head; d >= 0; d = s.disj_next_[d]) {
    const ActionId b = s.disj_action_[d];
    if (act_sort[b].state == kGeneralDone) continue;
    if (act_sort[b].state == kGeneralQueued) act_sort[b].state = kGeneralPending;  // (queue empty)
    add_edge(r.reentry, b);
    if (r.e2 >= 0) {
      add_edge(b, r.e2);
      ++gact[r.e2].ireq;
    } else {
      ++pending[r.win2];
    }
  }
  release_e1(r);
}

// Emits every ready action (the hot loop of the general path), re-simulating each one. False:
// the self-check failed (recorded).
bool GeneralAttempt::emit_ready() {
  while (queue_head < queue_tail) {
    const ActionId x = queue[queue_head++];
    const TopoPlanner::ActInfo& ax = info(x);
    GVarRec& rv = gvar[ax.var];
    const ValueId before = rv.simval;
    act_sort[x].state = kGeneralDone;
    out[static_cast<size_t>(emitted++)] = x;
    bool bad = ax.pre != kUndefined && rv.simval != ax.pre;
    for (int32_t k = ax.prv_begin; k < ax.prv_end; ++k) {
      const int32_t ps = prv_slot[k];
      const VarId w = slot_var[ps];
      const ValueId q = ps - off[w];
      GVarRec& rw = gvar[w];
      bad |= rw.simval != q;
      if (q != s0_of(w)) {
        if (slot_rec[ps].leave < 0) --pending[gslot[ps].win];
      } else if (rw.reentry < 0) {
        if (rw.e1 < 0) --pending[num_actions + w];
      } else if (!rw.released) {
        if (--rw.s0pend == 0) release_e1(rw);
      } else if (rw.e2 < 0) {
        --pending[rw.win2];
      }
    }
    if (bad) [[unlikely]] {
      planner.fail(s, kDetailSelfCheck, ax.var, -1, x);
      return false;
    }
    rv.simval = ax.post;
    const ValueId g = goal_of(ax.var);
    unmet += (g == before) - (g == ax.post);
    --pending[gact[x].win];
    for (int32_t e = act_sort[x].head; e >= 0; e = edge_next[e]) {
      const int32_t d = --act[edge_to[e]].indeg;
      if (d == 0) make_ready(edge_to[e]);
      if (d == 1 && s.num_jvars_ > 0) hint(edge_to[e]);
    }
  }
  return true;
}

// Nothing ready: opens a window, or closes a first epoch of s0 with requests left. First the
// hinted windows of free variables (a failed or stale hint is dropped), then every eligible
// window while the trial budget lasts, then one that closes if other free variables open theirs
// too, then a first epoch to release, then the oldest eligible window (the last three are
// guesses). False: stuck.
bool GeneralAttempt::open_next_window() {
  for (int32_t k = 0; k < s.num_jvars_; ++k) {
    const VarId w = s.jvars_[k];
    if (!is_free(w)) continue;
    GVarRec& r = gvar[w];
    while (r.hint_head >= 0) {
      const ActionId jump = s.hint_win_[r.hint_head];
      r.hint_head = s.hint_next_[r.hint_head];
      if (eligible(w, jump) && closable(w, jump, false)) {
        open_window(w, jump);
        return true;
      }
    }
  }
  int32_t candidates = 0;
  VarId pick_var = -1;
  ActionId pick_jump = -1;
  for (int32_t k = 0; k < s.num_jvars_; ++k) {
    const VarId w = s.jvars_[k];
    if (!is_free(w)) continue;
    for (ActionId jump = gvar[w].rhead; jump >= 0; jump = gact[jump].rnext) {
      if (!eligible(w, jump)) continue;
      ++candidates;
      if (pick_jump < 0) {
        pick_var = w;
        pick_jump = jump;
      }
      if (closable(w, jump, false)) {
        open_window(w, jump);
        return true;
      }
    }
  }
  for (int32_t k = 0; k < s.num_jvars_ && candidates > 0; ++k) {
    const VarId w = s.jvars_[k];
    if (!is_free(w)) continue;
    for (ActionId jump = gvar[w].rhead; jump >= 0; jump = gact[jump].rnext) {
      if (eligible(w, jump) && closable(w, jump, true)) {
        s.gheuristic_ = true;
        open_window(w, jump);
        return true;
      }
    }
  }
  VarId release = -1;
  int32_t releasable = 0;
  for (int32_t k = 0; k < s.num_jvars_; ++k) {
    const VarId w = s.jvars_[k];
    const GVarRec& r = gvar[w];
    if (r.reentry < 0 || r.released || r.s0pend == 0 || r.cur != num_actions + w) continue;
    bool first_epoch_ready = false;
    if (r.e1 >= 0) {
      first_epoch_ready = r.held_e1 && act[r.e1].indeg == 0;
    } else if (pending[num_actions + w] == 0) {
      for (ActionId jump = r.rhead; jump >= 0 && !first_epoch_ready; jump = gact[jump].rnext)
        first_epoch_ready = eligible(w, jump);
    }
    if (!first_epoch_ready) continue;
    ++releasable;
    if (release < 0) release = w;
  }
  if (release >= 0) {
    if (releasable > 1 || candidates > 0) s.gheuristic_ = true;
    release_first_epoch(release);
    return true;
  }
  if (pick_jump >= 0) {
    if (candidates > 1) s.gheuristic_ = true;
    open_window(pick_var, pick_jump);
    return true;
  }
  return false;
}

PlanStatus GeneralAttempt::sort(int32_t* out_len, VarId* retry_var) {
  queue = s.queue_.data();
  trial_budget = kCheckBudget * (work + s.gnum_edges_) + 64;
  trial_mark = s.trial_mark_.data();
  trial_indeg = s.tmp_indeg_.data();
  for (int32_t i = 0; i < s.num_used_; ++i) {
    if (act[used[i]].indeg == 0) make_ready(used[i]);
    if (act[used[i]].indeg <= 1 && s.num_jvars_ > 0) hint(used[i]);
  }
  while (true) {
    if (!emit_ready()) return PlanStatus::kGaveUp;
    if (emitted == s.num_used_ || !open_next_window()) break;
  }
  if (emitted != s.num_used_) return diagnose_stuck(retry_var);
  if (unmet != 0) [[unlikely]] {
    planner.fail(s, kDetailSelfCheck, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  *out_len = emitted;
  return PlanStatus::kSolved;
}

// ---- Why the sort got stuck -------------------------------------------------------------------

// A return to s0[w] with each action once follows the producer chain above s0[w] to a root or to
// s0[w]; it is impossible if that chain meets a value nothing enters, w's goal value (the walk
// ends there), or a visited value that the walk leaves by another action.
bool GeneralAttempt::can_return(VarId w) const {
  const ValueId x0 = s0_of(w);
  ActionId a = producer[off[w] + x0];
  const int32_t limit = off[w + 1] - off[w];
  for (int32_t steps = 0; a >= 0 && steps <= limit; ++steps) {
    const ValueId y = info(a).pre;
    if (y == kUndefined || y == x0) return true;
    const int32_t slot = off[w] + y;
    if (slot_rec[slot].mark == gen &&
        (y == goal_of(w) || (slot_rec[slot].leave >= 0 && slot_rec[slot].leave != a)))
      return false;
    a = producer[slot];
  }
  return false;
}

// Records the ordering failure and, when a variable w without a second visit of s0[w] is stuck
// in its first window — a request for s0[w], or the segment below s0[w], waits for one of w's
// later windows — asks for a retry with the return to s0[w] added (in the second case s0's
// child goes after it).
PlanStatus GeneralAttempt::diagnose_stuck(VarId* retry_var) {
  for (VarId w = 0; w < num_vars; ++w)
    gvar[w].can_back = static_cast<uint8_t>(gvar[w].reentry < 0 && can_return(w));
  int32_t stuck_vars = 0;
  VarId retry = -1;
  bool late = false;
  for (VarId w = 0; w < num_vars; ++w) {
    const GVarRec& r = gvar[w];
    // (A variable that never moves keeps s0[w]: its requests wait for something else.)
    if (r.reentry >= 0 || r.nact == 0 || !r.can_back) continue;
    bool waiting = false;
    for (int32_t d = r.s0head; d >= 0 && !waiting; d = s.disj_next_[d])
      waiting = act_sort[s.disj_action_[d]].state != kGeneralDone;
    const bool segment = !waiting && r.e1 >= 0 && r.cur == num_actions + w && r.nwin_left > 0 &&
                         pending[num_actions + w] > 0;
    if (!waiting && !segment) continue;
    ++stuck_vars;
    if (retry < 0) {
      retry = w;
      late = segment;
    }
  }
  if (stuck_vars > 1) s.gheuristic_ = true;
  if (retry >= 0 && gvar[retry].force != s.gplan_) {
    *retry_var = retry;
    if (late) gvar[retry].force_late = s.gplan_;
  } else if (retry < 0) {
    // A forced return whose first epoch still holds s0's child and is stuck there: the same
    // actions with that child after the return (a flip, no action added).
    for (VarId w = 0; w < num_vars && retry < 0; ++w) {
      const GVarRec& r = gvar[w];
      if (r.force == s.gplan_ && r.force_late != s.gplan_ && r.e1 >= 0 && r.e2 < 0 &&
          r.loop_child < 0 && r.cur == num_actions + w && pending[num_actions + w] > 0) {
        retry = w;
        gvar[w].force_late = s.gplan_;
        *retry_var = -2 - w;
      }
    }
  }
  // Name a jump left waiting if there is one (its place would be needed twice), else any
  // action left.
  ActionId stuck = -1;
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = used[i];
    if (act_sort[a].state == kGeneralDone) continue;
    if (stuck < 0 || (info(a).pre == kUndefined && info(stuck).pre != kUndefined)) stuck = a;
  }
  planner.fail(s, kDetailOrderingCycle, stuck >= 0 ? info(stuck).var : -1, -1, stuck);
  return PlanStatus::kGaveUp;
}

}  // namespace topoplan::detail
