// ℙ's general path: undefined pre-conditions (an action reaching its value from anywhere) and
// partial goals (free variables). docs/algorithm.md, "Windows", is the reference; in short:
//
//   * Closure. A needed value q ≠ s0[v] is entered by its unique producer, whose pre-condition
//     is needed just before, and so on up the chain of producers until s0[v] (q hangs below the
//     initial value) or a *root*: a value whose producer has no pre-condition on v (a jump, "go
//     there from anywhere"). Every action of these chains is in every plan (forced). Goals,
//     prevails of chosen actions and forced returns to s0 (two chosen actions leave s0, or the
//     goal is s0 and v moves) are closed this way; a chain that ends nowhere is a proof.
//   * Walk structure. With each action once, every value but s0 is entered and left at most once,
//     so the chosen actions of v form *segments*: paths down from s0 (first epoch; a second one
//     after the return to s0) and from each root. A segment visited from its jump until the next
//     jump of v is a *window*; requests of a value happen inside its window.
//   * Sort. Kahn's algorithm on the orderings inside segments and of requests (explicit edges)
//     where the jumps of v are held until v's current window is closed (all its actions and
//     requesters of its last value done), the goal's window opens last, and a window is opened
//     only when nothing else can run. Which window: one whose members wait only for each other
//     ("closable": opening it first is always safe, an exchange argument), else the oldest.
//     Requests for s0[v] run in the first epoch when they can; when v has a return to s0 they
//     may go to the second visit (decided lazily, as the fast path's deferred loops).
//   * A request for s0[v] that cannot run in the first epoch and has no return to s0 is
//     retried once with the return chain of s0[v] added (GoTo back to where you started).
//
// Every plan is re-simulated as it is emitted; failures are kGaveUp except the closure's proofs.
#include <cassert>

#include "topoplan/topo.h"

namespace topoplan {

namespace {
constexpr uint8_t kPending = 0;
constexpr uint8_t kQueued = 1;
constexpr uint8_t kDone = 2;
constexpr uint8_t kHeld = 3;
constexpr int32_t kMaxRetries = 2;
constexpr int64_t kCheckBudget = 8;
}  // namespace

PlanStatus TopoPlanner::plan_general(TopoScratch& s, std::span<const ValueId> s0,
                                     std::span<const ValueId> goal, std::span<ActionId> out,
                                     int32_t* out_len) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  *out_len = 0;
  for (VarId v = 0; v < m; ++v) {
    const auto size = static_cast<uint32_t>(value_offset_[v + 1] - value_offset_[v]);
    const ValueId x = s0[static_cast<size_t>(v)];
    const ValueId g = goal[static_cast<size_t>(v)];
    if ((static_cast<uint32_t>(x) >= size) | (static_cast<uint32_t>(g) + 1u > size)) {
      fail(s, TopoFailure::kBadInput, v, x, -1);
      return PlanStatus::kGaveUp;
    }
  }
  if (++s.gplan_ == 0) {  // wrap-around: clear the retry stamps
    for (TopoScratch::GVarRec& r : s.gvar_) r.force = 0;
    s.gplan_ = 1;
  }
  bool proven = true;
  for (int32_t retries = 0;; ++retries) {
    VarId retry = -1;
    const PlanStatus st = general_attempt(s, s0, goal, out, out_len, &retry);
    if (st == PlanStatus::kSolved) {
      if (retries > 0 && !proven) {
        *out_len = 0;
        fail(s, TopoFailure::kUnprovenMinimal, s.failure_var_, s.failure_value_, -1);
        return PlanStatus::kGaveUp;
      }
      return st;
    }
    if (retry == -1 || retries >= kMaxRetries) return st;
    if (retry <= -2) continue;  // a flip of s0's child after a forced return: same actions
    // The return to s0[retry] is needed by every plan with each action once only if nothing
    // else could have helped: no order choice was guessed, and no other variable x could come
    // back to s0[x] with each action once and gain from it — it has no requests for s0[x],
    // and no first-epoch segment that a return through fresh values could postpone (a return
    // chain through a value the walk already visits would visit it twice, or is x's own loop,
    // which keeps that segment first). docs/algorithm.md, "Windows".
    if (s.gheuristic_ || retries > 0) proven = false;
    for (VarId x = 0; x < m && proven; ++x) {
      const TopoScratch::GVarRec& r = s.gvar_[x];
      const ActionId back = producer_[value_offset_[x] + s0[static_cast<size_t>(x)]];
      if (x == retry || r.reentry >= 0 || back < 0 || r.nact == 0) continue;
      if (!r.can_back) continue;
      if (r.s0head >= 0) {
        proven = false;
      } else if (r.e1 >= 0) {
        bool touches = false;
        ValueId y = act_info_[back].pre;
        const int32_t limit = value_offset_[x + 1] - value_offset_[x];
        for (int32_t steps = 0; y != kUndefined && !touches && steps <= limit; ++steps) {
          if (y == s0[static_cast<size_t>(x)]) break;
          const int32_t sl = value_offset_[x] + y;
          touches = s.slot_[sl].mark == s.gen_;
          if (producer_[sl] < 0) {  // a value nothing enters: the return is impossible
            touches = true;
            break;
          }
          y = act_info_[producer_[sl]].pre;
        }
        if (!touches) proven = false;
      }
    }
    s.gvar_[retry].force = s.gplan_;
  }
}

PlanStatus TopoPlanner::general_attempt(TopoScratch& s, std::span<const ValueId> s0,
                                        std::span<const ValueId> goal, std::span<ActionId> out,
                                        int32_t* out_len, VarId* retry_var) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  const int32_t na = static_cast<int32_t>(act_info_.size());
  const int32_t* const off = value_offset_.data();
  s.failure_ = TopoFailure::kNone;
  s.failure_var_ = s.failure_value_ = s.failure_action_ = -1;
  s.gen_ += 2;
  if (s.gen_ < 2 || s.gen_ > UINT32_MAX - 2) {
    for (TopoScratch::ActRec& r : s.act_) r.stamp = 0;
    for (TopoScratch::SlotRec& r : s.slot_) r.mark = r.sim = 0;
    s.gen_ = 2;
  }
  const uint32_t gen = s.gen_;
  s.num_used_ = 0;
  s.num_disj_ = 0;
  s.gnum_edges_ = 0;
  s.num_jvars_ = 0;
  s.gheuristic_ = false;
  s.num_hints_ = 0;
  TopoScratch::ActRec* const act = s.act_.data();
  TopoScratch::GActRec* const gact = s.gact_.data();
  TopoScratch::SlotRec* const slot_rec = s.slot_.data();
  TopoScratch::GSlotRec* const gslot = s.gslot_.data();
  TopoScratch::GVarRec* const gvar = s.gvar_.data();
  int32_t* const pending = s.gwin_pending_.data();
  ActionId* const used = s.used_.data();
  VarId* const reentry_work = s.jvars_.data();  // worklist of returns to s0 (≤ 3 per variable)
  int32_t num_reentry_work = 0;
  bool any_forced = false;  // a retry: the added return may bring actions no plan needs
  for (VarId v = 0; v < m; ++v) {
    TopoScratch::GVarRec& r = gvar[v];
    r.e1 = r.e2 = r.reentry = r.loop_child = r.goal_child = -1;
    r.nact = r.nroots = r.nwin_left = r.s0pend = 0;
    r.s0head = r.rhead = r.goalwin = r.win2 = -1;
    r.cur = na + v;
    r.simval = s0[static_cast<size_t>(v)];
    r.released = r.held_e1 = 0;
    r.hint_head = -1;
    pending[na + v] = 0;
    if (r.force == s.gplan_) {
      reentry_work[num_reentry_work++] = v;
      any_forced = true;
    }
  }

  // ---- Closure -------------------------------------------------------------------------------
  auto choose = [&](ActionId a) {
    if (act[a].stamp == gen) return;
    act[a].stamp = gen;
    act[a].indeg = 0;
    act[a].head = -1;
    act[a].state = kPending;
    gact[a] = TopoScratch::GActRec{-1, 0, -1, -1};
    used[s.num_used_++] = a;
    const VarId v = act_info_[a].var;
    const ValueId g = goal[static_cast<size_t>(v)];
    TopoScratch::GVarRec& r = gvar[v];
    if (++r.nact == 1 && g == s0[static_cast<size_t>(v)])  // must come back to s0
      reentry_work[num_reentry_work++] = v;
    // A jump window and a goal below s0: the goal's branch must follow the jumps, so v comes
    // back to s0 in between.
    if (act_info_[a].pre == kUndefined && ++r.nroots == 1 && r.goal_child >= 0)
      reentry_work[num_reentry_work++] = v;
  };
  // Records c as a chosen action leaving s0[v]; a second one forces the return to s0.
  auto add_child_s0 = [&](VarId v, ActionId c) -> bool {
    TopoScratch::GVarRec& r = gvar[v];
    if (r.e1 == c || r.e2 == c) return true;
    if (r.e1 < 0) {
      r.e1 = c;
      return true;
    }
    if (r.e2 < 0) {
      r.e2 = c;
      reentry_work[num_reentry_work++] = v;
      return true;
    }
    fail(s, TopoFailure::kBranching, v, s0[static_cast<size_t>(v)], c);
    return false;
  };
  // Marks q (≠ s0[v]) and the chain of producers above it; `below` is the chosen action leaving
  // q (-1: none yet), `by` the requester (-1: the goal). 0 ok, 1 proof of unsolvability, 2 no
  // plan with each action once (or not decided here).
  auto need = [&](VarId v, ValueId q, ActionId below, ActionId by) -> int {
    const ValueId x0 = s0[static_cast<size_t>(v)];
    if (++s.gwalk_ == 0) {
      for (TopoScratch::GSlotRec& r : s.gslot_) r.walk = 0;
      s.gwalk_ = 1;
    }
    const uint32_t walk = s.gwalk_;
    ValueId x = q;
    while (true) {
      if (x == x0) return below < 0 || add_child_s0(v, below) ? 0 : 2;
      const int32_t sl = off[v] + x;
      if (slot_rec[sl].mark == gen) {
        if (gslot[sl].walk == walk) {  // the chain loops without meeting s0 or a root
          fail(s, by < 0 ? TopoFailure::kGoalUnreachable : TopoFailure::kPrevailUnreachable, v, q,
               by);
          return 1;
        }
        ActionId& l = slot_rec[sl].leave;
        if (below >= 0) {
          if (l < 0) {
            l = below;
          } else if (l != below) {  // two chosen actions leave x: x visited twice
            fail(s, TopoFailure::kBranching, v, x, below);
            return 2;
          }
        }
        return 0;
      }
      slot_rec[sl].mark = gen;
      slot_rec[sl].leave = below;
      gslot[sl].walk = walk;
      gslot[sl].win = -1;
      const ActionId a = producer_[sl];
      if (a < 0) {  // nothing enters x
        fail(s, by < 0 ? TopoFailure::kGoalUnreachable : TopoFailure::kPrevailUnreachable, v, q,
             by);
        return 1;
      }
      choose(a);
      if (act_info_[a].pre == kUndefined) return 0;  // a root: entered by a jump
      below = a;
      x = act_info_[a].pre;
    }
  };
  auto status_of = [&](int r) {
    return r == 1 && !any_forced ? PlanStatus::kUnsolvable : PlanStatus::kGaveUp;
  };

  int32_t unmet = 0;
  for (VarId v = 0; v < m; ++v) {
    const ValueId g = goal[static_cast<size_t>(v)];
    if (g == kUndefined || g == s0[static_cast<size_t>(v)]) continue;
    ++unmet;
    if (const int r = need(v, g, -1, -1); r != 0) return status_of(r);
    if (gvar[v].e1 >= 0) gvar[v].goal_child = gvar[v].e1;  // the goal hangs below s0
    if (gvar[v].goal_child >= 0 && gvar[v].nroots > 0) reentry_work[num_reentry_work++] = v;
  }
  int64_t work = 0;
  for (int32_t i = 0;;) {
    for (; i < s.num_used_; ++i) {
      const ActionId a = used[i];
      const int32_t pb = prv_offset_[a];
      const int32_t pe = prv_offset_[a + 1];
      work += 1 + (pe - pb);
      for (int32_t k = pb; k < pe; ++k) {
        const int32_t ps = prv_slot_[k];
        const VarId w = slot_var_[ps];
        const ValueId q = ps - off[w];
        if (q == s0[static_cast<size_t>(w)]) {
          const int32_t d = s.num_disj_++;
          s.disj_action_[d] = a;
          s.disj_next_[d] = gvar[w].s0head;
          gvar[w].s0head = d;
        } else if (const int r = need(w, q, -1, a); r != 0) {
          return status_of(r);
        }
      }
    }
    if (num_reentry_work == 0) break;
    const VarId v = reentry_work[--num_reentry_work];
    TopoScratch::GVarRec& r = gvar[v];
    if (r.reentry >= 0) continue;
    const ValueId x0 = s0[static_cast<size_t>(v)];
    const ActionId a = producer_[off[v] + x0];
    const bool optional = r.force == s.gplan_ && r.e2 < 0 &&
                          goal[static_cast<size_t>(v)] != x0;  // a retry, not forced here
    if (a < 0) {  // s0 must be visited twice and nothing enters it: no plan at all
      fail(s, TopoFailure::kPrevailUnreachable, v, x0, r.e2 >= 0 ? r.e2 : -1);
      return optional || any_forced ? PlanStatus::kGaveUp : PlanStatus::kUnsolvable;
    }
    r.reentry = a;
    choose(a);
    if (act_info_[a].pre != kUndefined) {
      if (const int res = need(v, act_info_[a].pre, a, -1); res != 0)
        return optional ? PlanStatus::kGaveUp : status_of(res);
    }
  }

  // ---- Walk structure: epochs of s0, segments, windows ----------------------------------------
  // The child of s0 on the chain above value y (-1: the chain starts at a root).
  auto s0_child_above = [&](VarId v, ValueId y) -> ActionId {
    const ValueId x0 = s0[static_cast<size_t>(v)];
    const int32_t limit = off[v + 1] - off[v];
    for (int32_t steps = 0; steps <= limit; ++steps) {
      const ActionId a = producer_[off[v] + y];
      if (a < 0 || act_info_[a].pre == kUndefined) return -1;
      if (act_info_[a].pre == x0) return a;
      y = act_info_[a].pre;
    }
    return -1;
  };
  int32_t covered = 0;
  // Walks the segment of window `wid` from `first`, assigning windows; returns false if the
  // segment is not a simple walk (cannot happen after the closure's checks; kept as a guard).
  auto walk_segment = [&](VarId v, int32_t wid, ActionId first) {
    const ValueId x0 = s0[static_cast<size_t>(v)];
    TopoScratch::GVarRec& r = gvar[v];
    int32_t steps = 0;
    for (ActionId a = first; a >= 0 && steps <= r.nact; ++steps) {
      gact[a].win = wid;
      ++covered;
      ++pending[wid];
      const ValueId y = act_info_[a].post;
      if (y == x0) {  // the return to s0: the walk goes on with the second-epoch child
        r.win2 = wid;
        a = r.e2;
        continue;
      }
      gslot[off[v] + y].win = wid;
      a = slot_rec[off[v] + y].leave;
    }
  };
  for (VarId v = 0; v < m; ++v) {
    TopoScratch::GVarRec& r = gvar[v];
    if (r.nact == 0) continue;
    const ValueId x0 = s0[static_cast<size_t>(v)];
    const ValueId g = goal[static_cast<size_t>(v)];
    if (r.reentry >= 0) {
      if (act_info_[r.reentry].pre != kUndefined)
        r.loop_child = s0_child_above(v, act_info_[r.reentry].pre);
      if (g != kUndefined && g != x0 && r.goal_child < 0) r.goal_child = s0_child_above(v, g);
      ActionId first = r.e1;
      ActionId second = r.e2;
      if (r.loop_child >= 0) {  // the return chain starts below s0: that child goes first
        if (r.goal_child == r.loop_child) {
          fail(s, TopoFailure::kNeedsRepeat, v, g, r.loop_child);
          return PlanStatus::kGaveUp;
        }
        first = r.loop_child;
        second = first == r.e1 ? r.e2 : r.e1;
      } else if (g == x0) {
        if (r.e2 >= 0) {  // three visits of s0
          fail(s, TopoFailure::kBranching, v, x0, r.e2);
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
    }
    walk_segment(v, na + v, r.e1);
  }
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = used[i];
    if (act_info_[a].pre != kUndefined) continue;
    const VarId v = act_info_[a].var;
    pending[a] = 0;
    ++gvar[v].nwin_left;
    walk_segment(v, a, a);
  }
  if (covered != s.num_used_) {  // a chosen action outside every segment (guard)
    fail(s, TopoFailure::kOrderingCycle, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  for (VarId v = 0; v < m; ++v) {
    TopoScratch::GVarRec& r = gvar[v];
    const ValueId x0 = s0[static_cast<size_t>(v)];
    const ValueId g = goal[static_cast<size_t>(v)];
    if (r.nwin_left > 0 || (r.reentry >= 0 && r.s0head >= 0)) s.jvars_[s.num_jvars_++] = v;
    if (g == kUndefined || r.nact == 0) continue;
    if (g == x0) {
      r.goalwin = r.win2;
    } else {
      const int32_t sl = off[v] + g;
      if (slot_rec[sl].leave >= 0) {  // the walk goes on past the goal and never comes back
        fail(s, TopoFailure::kNeedsRepeat, v, g, slot_rec[sl].leave);
        return PlanStatus::kGaveUp;
      }
      r.goalwin = gslot[sl].win;
    }
    if (r.goalwin == na + v && r.nwin_left > 0) {  // the goal lies in the first window
      fail(s, TopoFailure::kNeedsRepeat, v, g, -1);
      return PlanStatus::kGaveUp;
    }
  }

  // ---- Orderings (explicit edges) ---------------------------------------------------------------
  int32_t* const edge_next = s.gedge_next_.data();
  ActionId* const edge_to = s.gedge_to_.data();
  auto add_edge = [&](ActionId from, ActionId to) {
    const int32_t e = s.gnum_edges_++;
    assert(e < static_cast<int32_t>(s.gedge_to_.size()));
    edge_to[e] = to;
    edge_next[e] = act[from].head;
    act[from].head = e;
    ++act[to].indeg;
  };
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = used[i];
    const VarId v = act_info_[a].var;
    const ValueId p = act_info_[a].pre;
    if (p != kUndefined) {
      if (p != s0[static_cast<size_t>(v)]) {
        add_edge(producer_[off[v] + p], a);
      } else if (a == gvar[v].e2) {
        add_edge(gvar[v].reentry, a);
      } else if (a != gvar[v].e1) {  // guard: a child of s0 in no epoch
        fail(s, TopoFailure::kBranching, v, p, a);
        return PlanStatus::kGaveUp;
      }
    }
    for (int32_t k = prv_offset_[a]; k < prv_offset_[a + 1]; ++k) {
      const int32_t ps = prv_slot_[k];
      const VarId w = slot_var_[ps];
      if (ps - off[w] == s0[static_cast<size_t>(w)]) continue;  // below
      add_edge(producer_[ps], a);
      const ActionId l = slot_rec[ps].leave;
      if (l >= 0) {
        add_edge(a, l);
        ++gact[l].ireq;
      } else {
        ++pending[gslot[ps].win];  // a requester of the window's last value
      }
    }
  }
  for (VarId w = 0; w < m; ++w) {
    TopoScratch::GVarRec& r = gvar[w];
    if (r.s0head < 0) continue;
    for (int32_t d = r.s0head; d >= 0; d = s.disj_next_[d]) {
      if (r.reentry >= 0) {
        ++r.s0pend;  // first epoch if it can, else after the return (decided in the sort)
      } else if (r.e1 >= 0) {
        add_edge(s.disj_action_[d], r.e1);
        ++gact[r.e1].ireq;
      } else {
        ++pending[na + w];
      }
    }
  }
  if (s.num_used_ > static_cast<int32_t>(out.size())) {
    *out_len = s.num_used_;
    fail(s, TopoFailure::kBufferTooSmall, -1, -1, -1);
    return PlanStatus::kLimitReached;
  }

  // ---- Sort with windows, fused self-check ------------------------------------------------------
  ActionId* const queue = s.queue_.data();
  int32_t qh = 0;
  int32_t qt = 0;
  int32_t emitted = 0;
  auto make_ready = [&](ActionId a) {
    const VarId v = act_info_[a].var;
    TopoScratch::GVarRec& r = gvar[v];
    if (act_info_[a].pre == kUndefined) {  // a jump waits for its variable's window to close
      if (act[a].state != kHeld) {
        act[a].state = kHeld;
        gact[a].rprev = -1;
        gact[a].rnext = r.rhead;
        if (r.rhead >= 0) gact[r.rhead].rprev = a;
        r.rhead = a;
      }
      return;
    }
    if (a == r.e1 && r.reentry >= 0 && r.s0pend > 0 && !r.released) {
      act[a].state = kHeld;
      r.held_e1 = 1;
      return;
    }
    act[a].state = kQueued;
    queue[qt++] = a;
  };
  auto release_e1 = [&](TopoScratch::GVarRec& r) {
    if (!r.held_e1) return;
    r.held_e1 = 0;
    if (act[r.e1].indeg == 0) {
      act[r.e1].state = kQueued;
      queue[qt++] = r.e1;
    } else {
      act[r.e1].state = kPending;
    }
  };
  auto is_free = [&](VarId w) {
    const TopoScratch::GVarRec& r = gvar[w];
    if (pending[r.cur] != 0) return false;
    return r.cur != na + w || r.reentry < 0 || r.s0pend == 0 || r.released;
  };
  auto eligible = [&](VarId w, ActionId j) {
    const TopoScratch::GVarRec& r = gvar[w];
    return act[j].state == kHeld && act[j].indeg == 0 && (j != r.goalwin || r.nwin_left == 1);
  };
  // Window j is closable when a trial run of the sort from its jump alone (other jumps and held
  // first epochs stay closed) completes every member: its segment and the requesters of its
  // values. Opening a closable window first is always safe (docs/algorithm.md, "Windows").
  // Trials that fail are paid from a budget proportional to the plan's size.
  const int64_t budget = kCheckBudget * (work + s.gnum_edges_) + 64;
  int64_t spent = 0;
  uint32_t* const trial_mark = s.trial_mark_.data();
  int32_t* const tmp = s.tmp_indeg_.data();
  auto closable = [&](VarId w, ActionId j, bool relaxed) {
    if (spent > budget) return false;
    if (s.trial_ >= UINT32_MAX - 4) {
      for (uint32_t& t : s.trial_mark_) t = 0;
      s.trial_ = 0;
    }
    s.trial_ += 2;
    const uint32_t seen = s.trial_;
    const uint32_t fired = seen + 1;
    ActionId* const stack = s.deferred_.data();
    int32_t sp = 0;
    trial_mark[j] = fired;
    stack[sp++] = j;
    while (sp > 0) {
      const ActionId x = stack[--sp];
      ++spent;
      for (int32_t e = act[x].head; e >= 0; e = edge_next[e]) {
        ++spent;
        const ActionId to = edge_to[e];
        if (trial_mark[to] != seen && trial_mark[to] != fired) {
          trial_mark[to] = seen;
          tmp[to] = act[to].indeg;
        }
        if (trial_mark[to] != seen || --tmp[to] != 0) continue;
        // Another jump stays closed in the trial; relaxed: unless its variable is free now.
        if (act_info_[to].pre == kUndefined &&
            (!relaxed || act_info_[to].var == w || !is_free(act_info_[to].var)))
          continue;
        const TopoScratch::GVarRec& rb = gvar[act_info_[to].var];
        if (to == rb.e1 && rb.reentry >= 0 && !rb.released && rb.s0pend > 0) continue;
        trial_mark[to] = fired;
        stack[sp++] = to;
      }
    }
    const ValueId x0 = s0[static_cast<size_t>(w)];
    const TopoScratch::GVarRec& r = gvar[w];
    int32_t steps = 0;
    for (ActionId a = j; a >= 0 && steps <= r.nact; ++steps) {
      if (trial_mark[a] != fired) return false;
      const ValueId y = act_info_[a].post;
      const int32_t sl = off[w] + y;
      for (int32_t k = req_offset_[sl]; k < req_offset_[sl + 1]; ++k) {
        const ActionId b = req_action_[k];
        ++spent;
        if (act[b].stamp == gen && act[b].state != kDone && trial_mark[b] != fired) return false;
      }
      a = y == x0 ? r.e2 : slot_rec[sl].leave;
    }
    return true;
  };
  auto open_window = [&](VarId w, ActionId j) {
    TopoScratch::GVarRec& r = gvar[w];
    if (gact[j].rprev < 0)
      r.rhead = gact[j].rnext;
    else
      gact[gact[j].rprev].rnext = gact[j].rnext;
    if (gact[j].rnext >= 0) gact[gact[j].rnext].rprev = gact[j].rprev;
    r.cur = j;
    --r.nwin_left;
    act[j].state = kQueued;
    queue[qt++] = j;
  };
  // Hints: when an action waits for one more ordering only, the unopened windows it needs
  // (its own, and those of the values it requests) are worth a trial first. Each action gives
  // hints at most twice (its in-degree passes 1; late edges may raise it once more).
  auto hint = [&](ActionId to) {
    auto push = [&](ActionId win) {
      if (win < 0 || win >= na || act[win].state != kHeld) return;
      if (s.num_hints_ >= static_cast<int32_t>(s.hint_win_.size())) return;
      TopoScratch::GVarRec& r = gvar[act_info_[win].var];
      const int32_t h = s.num_hints_++;
      s.hint_win_[h] = win;
      s.hint_next_[h] = r.hint_head;
      r.hint_head = h;
    };
    push(gact[to].win);
    for (int32_t k = prv_offset_[to]; k < prv_offset_[to + 1]; ++k) {
      const int32_t ps = prv_slot_[k];
      const VarId w = slot_var_[ps];
      if (ps - off[w] != s0[static_cast<size_t>(w)])
        push(gslot[ps].win);
      else if (gvar[w].released)
        push(gvar[w].win2);
    }
  };
  auto release_first_epoch = [&](VarId w) {
    TopoScratch::GVarRec& r = gvar[w];
    r.released = 1;
    r.s0pend = 0;
    for (int32_t d = r.s0head; d >= 0; d = s.disj_next_[d]) {
      const ActionId b = s.disj_action_[d];
      if (act[b].state == kDone) continue;
      if (act[b].state == kQueued) act[b].state = kPending;  // (queue is empty: cannot happen)
      add_edge(r.reentry, b);
      if (r.e2 >= 0) {
        add_edge(b, r.e2);
        ++gact[r.e2].ireq;
      } else {
        ++pending[r.win2];
      }
    }
    release_e1(r);
  };

  for (int32_t i = 0; i < s.num_used_; ++i) {
    if (act[used[i]].indeg == 0) make_ready(used[i]);
    if (act[used[i]].indeg <= 1 && s.num_jvars_ > 0) hint(used[i]);
  }
  const ActInfo* const info = act_info_.data();
  while (true) {
    while (qh < qt) {
      const ActionId x = queue[qh++];
      const ActInfo& ax = info[x];
      TopoScratch::GVarRec& rv = gvar[ax.var];
      const ValueId before = rv.simval;
      act[x].state = kDone;
      out[emitted++] = x;
      bool bad = ax.pre != kUndefined && rv.simval != ax.pre;
      for (int32_t k = ax.prv_begin; k < ax.prv_end; ++k) {
        const int32_t ps = prv_slot_[k];
        const VarId w = slot_var_[ps];
        const ValueId q = ps - off[w];
        TopoScratch::GVarRec& rw = gvar[w];
        bad |= rw.simval != q;
        if (q != s0[static_cast<size_t>(w)]) {
          if (slot_rec[ps].leave < 0) --pending[gslot[ps].win];
        } else if (rw.reentry < 0) {
          if (rw.e1 < 0) --pending[na + w];
        } else if (!rw.released) {
          if (--rw.s0pend == 0) release_e1(rw);
        } else if (rw.e2 < 0) {
          --pending[rw.win2];
        }
      }
      if (bad) [[unlikely]] {
        fail(s, TopoFailure::kSelfCheck, ax.var, -1, x);
        return PlanStatus::kGaveUp;
      }
      rv.simval = ax.post;
      const ValueId g = goal[static_cast<size_t>(ax.var)];
      unmet += (g == before) - (g == ax.post);
      --pending[gact[x].win];
      for (int32_t e = act[x].head; e >= 0; e = edge_next[e]) {
        const int32_t d = --act[edge_to[e]].indeg;
        if (d == 0) make_ready(edge_to[e]);
        if (d == 1 && s.num_jvars_ > 0) hint(edge_to[e]);
      }
    }
    if (emitted == s.num_used_) break;
    // Nothing ready: open a window, or close a first epoch of s0 with requests left.
    // First the hinted windows of free variables (a failed or stale hint is dropped), then
    // every eligible window while the trial budget lasts.
    bool picked = false;
    for (int32_t k = 0; k < s.num_jvars_ && !picked; ++k) {
      const VarId w = s.jvars_[k];
      if (!is_free(w)) continue;
      TopoScratch::GVarRec& r = gvar[w];
      while (r.hint_head >= 0 && !picked) {
        const ActionId j = s.hint_win_[r.hint_head];
        r.hint_head = s.hint_next_[r.hint_head];
        if (eligible(w, j) && closable(w, j, false)) {
          open_window(w, j);
          picked = true;
        }
      }
    }
    if (picked) continue;
    int32_t candidates = 0;
    VarId pick_w = -1;
    ActionId pick_j = -1;
    for (int32_t k = 0; k < s.num_jvars_ && !picked; ++k) {
      const VarId w = s.jvars_[k];
      if (!is_free(w)) continue;
      for (ActionId j = gvar[w].rhead; j >= 0; j = gact[j].rnext) {
        if (!eligible(w, j)) continue;
        ++candidates;
        if (pick_j < 0) {
          pick_w = w;
          pick_j = j;
        }
        if (closable(w, j, false)) {
          open_window(w, j);
          picked = true;
          break;
        }
      }
    }
    if (picked) continue;
    // A window that closes if other free variables open theirs too (a guess, not a proof).
    for (int32_t k = 0; k < s.num_jvars_ && !picked && candidates > 0; ++k) {
      const VarId w = s.jvars_[k];
      if (!is_free(w)) continue;
      for (ActionId j = gvar[w].rhead; j >= 0; j = gact[j].rnext) {
        if (eligible(w, j) && closable(w, j, true)) {
          s.gheuristic_ = true;
          open_window(w, j);
          picked = true;
          break;
        }
      }
    }
    if (picked) continue;
    VarId release = -1;
    int32_t releasable = 0;
    for (int32_t k = 0; k < s.num_jvars_; ++k) {
      const VarId w = s.jvars_[k];
      const TopoScratch::GVarRec& r = gvar[w];
      if (r.reentry < 0 || r.released || r.s0pend == 0 || r.cur != na + w) continue;
      bool d1_ready = false;
      if (r.e1 >= 0) {
        d1_ready = r.held_e1 && act[r.e1].indeg == 0;
      } else if (pending[na + w] == 0) {
        for (ActionId j = r.rhead; j >= 0 && !d1_ready; j = gact[j].rnext)
          d1_ready = eligible(w, j);
      }
      if (!d1_ready) continue;
      ++releasable;
      if (release < 0) release = w;
    }
    if (release >= 0) {
      if (releasable > 1 || candidates > 0) s.gheuristic_ = true;
      release_first_epoch(release);
      continue;
    }
    if (pick_j >= 0) {
      if (candidates > 1) s.gheuristic_ = true;
      open_window(pick_w, pick_j);
      continue;
    }
    break;  // stuck
  }
  if (emitted != s.num_used_) {
    // A return to s0[w] with each action once follows the producer chain above s0[w] to a root
    // or to s0[w]; it is impossible if that chain meets a value nothing enters, w's goal value
    // (the walk ends there), or a visited value that the walk leaves by another action.
    auto can_return = [&](VarId w) {
      const ValueId x0 = s0[static_cast<size_t>(w)];
      ActionId a = producer_[off[w] + x0];
      const int32_t limit = off[w + 1] - off[w];
      for (int32_t steps = 0; a >= 0 && steps <= limit; ++steps) {
        const ValueId y = act_info_[a].pre;
        if (y == kUndefined || y == x0) return true;
        const int32_t sl = off[w] + y;
        if (slot_rec[sl].mark == gen && (y == goal[static_cast<size_t>(w)] ||
                                         (slot_rec[sl].leave >= 0 && slot_rec[sl].leave != a)))
          return false;
        a = producer_[sl];
      }
      return false;
    };
    for (VarId w = 0; w < m; ++w)
      gvar[w].can_back = static_cast<uint8_t>(gvar[w].reentry < 0 && can_return(w));
    // A variable w without a second visit of s0[w] stuck in its first window — a request for
    // s0[w], or the segment below s0[w], waits for one of w's later windows: retry with the
    // return to s0[w] (its producer chain) added; in the second case s0's child goes after it.
    int32_t stuck_vars = 0;
    VarId retry = -1;
    bool late = false;
    for (VarId w = 0; w < m; ++w) {
      const TopoScratch::GVarRec& r = gvar[w];
      // (A variable that never moves keeps s0[w]: its requests wait for something else.)
      if (r.reentry >= 0 || r.nact == 0 || !r.can_back) continue;
      bool waiting = false;
      for (int32_t d = r.s0head; d >= 0 && !waiting; d = s.disj_next_[d])
        waiting = act[s.disj_action_[d]].state != kDone;
      const bool segment =
          !waiting && r.e1 >= 0 && r.cur == na + w && r.nwin_left > 0 && pending[na + w] > 0;
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
      for (VarId w = 0; w < m && retry < 0; ++w) {
        const TopoScratch::GVarRec& r = gvar[w];
        if (r.force == s.gplan_ && r.force_late != s.gplan_ && r.e1 >= 0 && r.e2 < 0 &&
            r.loop_child < 0 && r.cur == na + w && pending[na + w] > 0) {
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
      if (act[a].state == kDone) continue;
      if (stuck < 0 || (act_info_[a].pre == kUndefined && act_info_[stuck].pre != kUndefined))
        stuck = a;
    }
    fail(s, TopoFailure::kOrderingCycle, stuck >= 0 ? act_info_[stuck].var : -1, -1, stuck);
    return PlanStatus::kGaveUp;
  }
  if (unmet != 0) [[unlikely]] {
    fail(s, TopoFailure::kSelfCheck, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  *out_len = emitted;
  return PlanStatus::kSolved;
}

}  // namespace topoplan
