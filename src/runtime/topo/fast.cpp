// ℙ's fast path for unary post-unique action sets with defined pre-conditions and total goals:
// walks per variable (phase 1), their closure under prevail requests (phase 2), then the sort
// (order.cpp). docs/algorithm.md is the reference; the comments here say how.
#include <cassert>

#include "internal.h"
#include "order_impl.h"
#include "orderings.h"

namespace topoplan {

using detail::Chooser;
using detail::view;

namespace {
// Classes whose theorem (Prévost et al. 2023, IJCAI, Theorems 1 and 3; docs/references.md) we rely
// on to turn "no plan with each action once" into "no plan". Not C2*: its Theorem 4 is false
// (docs/algorithm.md, departure 5).
bool in_proven_class(StructuralClass c) {
  return c == StructuralClass::kC0 || c == StructuralClass::kC2S;
}
}  // namespace

static_assert(kDetailRelaxedUnreachable <= 0xFFFF, "TopoScratch::failure_ holds ℙ's detail bits");

bool TopoPlanner::fail(TopoScratch& s, PlanDetail f, VarId v, ValueId x, ActionId a) const {
  assert(f <= 0xFFFF);
  s.failure_ = static_cast<uint16_t>(f);
  s.failure_var_ = v;
  s.failure_value_ = x;
  s.failure_action_ = a;
  return false;
}

PlanStatus TopoPlanner::no_plan(const TopoScratch& s, bool proof) const {
  return proof || (in_proven_class(class_) && !s.pick_capped_) ? PlanStatus::kUnsolvable
                                                               : PlanStatus::kGaveUp;
}

// True when a walk of v can go from `from` to `to`: `from` is an ancestor of `to` following
// parents (producer pre-conditions), cycles included.
[[gnu::always_inline]] inline bool TopoPlanner::reaches(VarId v, ValueId from, ValueId to) const {
  ValueId y = to;
  const int32_t size = value_offset_[v + 1] - value_offset_[v];
  for (int32_t steps = 0; steps <= size; ++steps) {
    if (y == from) return true;
    const ActionId a = producer_[slot(v, y)];
    if (a < 0) return false;
    y = act_info_[a].pre;
  }
  return false;
}

// Prefixes the walk of v with the cycle through s0 (σ2 of Prévost et al. 2023, §3): s0 → c1 →
// ... → s0.
[[gnu::always_inline]] inline void TopoPlanner::make_long(TopoScratch& s, VarId v,
                                                          ValueId s0) const {
  const int32_t base = value_offset_[v];
  const ActionId* const producer = producer_.data() + base;
  const ValueId* const cycle_next = cycle_next_.data() + base;
  const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data() + base);
  const auto leave = view<&TopoScratch::SlotRec::leave>(s.slot_.data() + base);
  Chooser<TopoScratch::ActRec> c{s.act_.data(), s.used_.data(), s.gen_, s.num_used_};
  TopoScratch::VarRec& r = s.var_[v];
  const ActionId sigma_first = r.sigma_first;
  ValueId x = cycle_next[s0];
  r.loop_first = producer[x];  // f_v, leaves the first epoch of s0; the walk is now long
  c.use(producer[x], 0);
  while (x != s0) {
    const ValueId y = cycle_next[x];
    const ActionId a = producer[y];
    c.use(a, 1);
    mark[x] = c.gen;
    leave[x] = a;
    x = y;
  }
  s.num_used_ = c.n;
  if (sigma_first >= 0) ++c.act[sigma_first].indeg;  // restore → σ1's first action
}

PlanOutcome TopoPlanner::failed(const TopoScratch& s, PlanStatus status) {
  // The variable / value / action are those of the recorded failure; a status without one
  // (kBufferTooSmall) has none.
  if (s.failure_ == kDetailNone) return PlanOutcome{status};
  return PlanOutcome{status, s.failure_, s.failure_var_, s.failure_value_, s.failure_action_};
}

PlanStatus TopoPlanner::run(TopoScratch& s, std::span<const ValueId> s0,
                            std::span<const ValueId> goal, std::span<ActionId> out,
                            int32_t* out_len) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  // *out_len: 0 on every return without a plan (set there; the general path sets its own).
  s.failure_ = kDetailNone;  // the details are read only with a reason (topo.h)
  s.pick_capped_ = 0;        // (next to failure_: one store)
  if (static_cast<int32_t>(s0.size()) != m || static_cast<int32_t>(goal.size()) != m ||
      s.shape_ != shape_) {  // a scratch made for another planner
    *out_len = 0;
    fail(s, kDetailBadInput, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  if (general_only_) [[unlikely]] {
    const PlanStatus st = plan_general(s, s0, goal, out, out_len);
    return st == PlanStatus::kGaveUp ? gave_up(s, s0.data(), goal.data()) : st;
  }
  s.gen_ += 2;
  if (s.gen_ < 2 || s.gen_ > UINT32_MAX - 2) {  // stamp wrap-around: clear once every 2^31 plans
    for (TopoScratch::ActRec& r : s.act_) r.stamp = 0;
    for (TopoScratch::SlotRec& r : s.slot_) r.mark = 0;
    for (uint32_t& r : s.sim_) r = 0;
    s.gen_ = 2;
  }
  // num_used_ and the other counters: set by the phase that fills them

  uint32_t goal_diff = 0;
  if (const uint8_t r = start_walks(s, s0.data(), goal.data(), &goal_diff); r != detail::kExtended)
      [[unlikely]] {
    *out_len = 0;
    const auto st = static_cast<PlanStatus>(r);
    return st == PlanStatus::kGaveUp ? gave_up(s, s0.data(), goal.data()) : st;
  }
  const uint8_t closed = close_requests(s, s0.data(), goal.data());
  if (closed != detail::kExtended && closed != detail::kLoops) [[unlikely]] {
    PlanStatus st = static_cast<PlanStatus>(closed);
    if (closed == detail::kToGeneral)
      st = plan_general(s, s0, goal, out, out_len);  // sets *out_len
    else
      *out_len = 0;
    return st == PlanStatus::kGaveUp ? gave_up(s, s0.data(), goal.data()) : st;
  }
  if (s.num_used_ > static_cast<int32_t>(out.size())) {
    *out_len = s.num_used_;
    return PlanStatus::kBufferTooSmall;
  }

  // Phase 3: sort and self-check.
  const PlanStatus st = closed == detail::kLoops
                            ? order_loops(s, s0.data(), goal.data(), goal_diff, out.data())
                            : order<false>(s, s0.data(), goal.data(), goal_diff, out.data());
  if (st == PlanStatus::kSolved) {
    *out_len = s.num_used_;
    return st;
  }
  *out_len = 0;
  const PlanStatus no =
      s.failure_ == kDetailOrderingCycle ? no_plan(s, false) : PlanStatus::kGaveUp;
  return no == PlanStatus::kGaveUp ? gave_up(s, s0.data(), goal.data()) : no;
}

// Phase 1: σ1 for every variable whose goal differs from s0. `goal_diff` receives the goal's
// state code minus s0's (the self-check's goal test, order.cpp; a free variable counts as
// staying at s0, which the fast path never moves it from). The per-variable state is reset here
// too (no separate fill: for the 4-9 variables of a crowd class a memset call costs more than
// the loop). One loop: it checks the input, resets and marks s0 and walks the variable (two
// loops, the second over a list of the variables to walk, cost 15 instructions per plan more on
// the Western crowd: the list and the reloads of each variable's values). A bad input found
// after a walk failed still wins over the walk's failure (goal_unreachable). Returns
// detail::kExtended to go on, or the status that ends the plan.
[[gnu::always_inline]] inline uint8_t TopoPlanner::start_walks(TopoScratch& s, const ValueId* s0,
                                                               const ValueId* goal,
                                                               uint32_t* goal_diff) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  const uint32_t gen = s.gen_;
  const VarInfo* const vinfo = var_info_.data();
  const ValueId* const init = s0;
  const ValueId* const target = goal;
  TopoScratch::SlotRec* const slot = s.slot_.data();
  uint32_t* const sim = s.sim_.data();
  TopoScratch::VarRec* const var = s.var_.data();
  const WalkStep* const step = walk_step_.data();
  Chooser<TopoScratch::ActRec> c{s.act_.data(), s.used_.data(), gen, 0};
  uint32_t diff = code_start_;
  for (VarId v = 0; v < m; ++v) {
    var[v] = TopoScratch::VarRec{-1, 0, -1, -1};  // one 16-byte store
    const ValueId x0 = init[v];
    const ValueId g = target[v];
    const int32_t base = vinfo[v].base;
    const uint32_t size = vinfo[v].size;
    if ((static_cast<uint32_t>(x0) >= size) | (static_cast<uint32_t>(g) + 1u > size))
        [[unlikely]] {  // kUndefined = -1 passes as 0
      s.num_used_ = c.n;
      fail(s, kDetailBadInput, v, x0, -1);
      return static_cast<uint8_t>(PlanStatus::kGaveUp);
    }
    TopoScratch::SlotRec* const vslot = slot + base;
    vslot[x0].mark = gen + 1;
    vslot[x0].leave = -1;  // σ1's first action, set below when v walks
    sim[base + x0] = gen;
    if (g == kUndefined || g == x0) continue;
    // The unique simple path s0 → g (σ1), g ≠ s0: follow producers back from g. Marks its
    // values (except s0) as on the walk and records which action leaves each of them. Every
    // value visited is marked, so a walk that loops without meeting s0 is caught by the mark
    // test before it outgrows the domain. No path at all is a proof.
    diff += (static_cast<uint32_t>(g) - static_cast<uint32_t>(x0)) * vinfo[v].weight;
    vslot[g].mark = gen;
    vslot[g].leave = -1;
    ValueId y = g;
    while (true) {
      const WalkStep st = step[base + y];  // one load on the walk's chain
      const ActionId a = st.producer;
      if (a < 0) [[unlikely]] {
        s.num_used_ = c.n;
        return static_cast<uint8_t>(goal_unreachable(s, init, target, v, g, a));
      }
      const ValueId x = st.parent;
      if (x == x0) {
        c.use(a, 0);
        var[v].sigma_first = a;
        vslot[x0].leave = a;
        break;
      }
      if (vslot[x].mark == gen) [[unlikely]] {  // looped without meeting s0
        s.num_used_ = c.n;
        return static_cast<uint8_t>(goal_unreachable(s, init, target, v, g, a));
      }
      c.use(a, 1);
      vslot[x].mark = gen;
      vslot[x].leave = a;
      y = x;
    }
  }
  s.num_used_ = c.n;
  *goal_diff = diff;
  return detail::kExtended;
}

// Phase 1 found no walk of v to its goal g (a proof), unless a later variable's input is out of
// range: the range check of every variable comes first, as in a separate pass. Cold.
PlanStatus TopoPlanner::goal_unreachable(TopoScratch& s, const ValueId* s0, const ValueId* goal,
                                         VarId v, ValueId g, ActionId a) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  for (VarId u = v + 1; u < m; ++u) {
    const auto size = static_cast<uint32_t>(value_offset_[u + 1] - value_offset_[u]);
    if ((static_cast<uint32_t>(s0[u]) >= size) | (static_cast<uint32_t>(goal[u]) + 1u > size)) {
      fail(s, kDetailBadInput, u, s0[u], -1);
      return PlanStatus::kGaveUp;
    }
  }
  fail(s, kDetailGoalUnreachable, v, g, a);
  return PlanStatus::kUnsolvable;
}

// Action a requests slot ps, off the walk of its variable w: the walk must loop through the
// cycle of s0[w] first (make_long), or no plan with each action once exists. Returns kExtended,
// kToGeneral (a free variable visited off s0: the general path's windows), or the status that
// ends the plan (a proof or a give-up).
uint8_t TopoPlanner::extend_walk(TopoScratch& s, const ValueId* s0, const ValueId* goal, ActionId a,
                                 int32_t ps) const {
  const VarId w = slot_var_[ps];
  const int32_t base = value_offset_[w];
  const ValueId q = ps - base;
  const ValueId s0w = s0[w];
  const ValueId gw = goal[w];
  // q on the cycle through s0[w]: s0[w] reaches q, and q reaches the goal through s0[w] (phase
  // 1 built σ1), so both walks below would succeed.
  const bool s0_cycle = cycle_id_[ps] >= 0 && cycle_id_[ps] == cycle_id_[base + s0w];
  if (!s0_cycle && !reaches(w, s0w, q)) {
    fail(s, kDetailPreconditionUnmet, w, q, a);
    return static_cast<uint8_t>(PlanStatus::kUnsolvable);
  }
  if (gw == kUndefined) [[unlikely]]
    return detail::kToGeneral;
  if (!s0_cycle && !reaches(w, q, gw)) {
    fail(s, kDetailPreconditionUnmet, w, q, a);
    return static_cast<uint8_t>(PlanStatus::kUnsolvable);
  }
  const TopoScratch::VarRec& r = s.var_[w];
  // Reaching q both ways, q and s0[w] both on a cycle means the same cycle (a cycle value's
  // ancestors are the cycle's values), so "both on a cycle" is s0_cycle here.
  const bool can_loop = s0_cycle && r.loop_first < 0 &&
                        (r.sigma_first < 0 || cycle_id_[base + act_info_[r.sigma_first].post] < 0);
  if (!can_loop) {
    fail(s, kDetailOutsideClass | kDetailNeedsRepeat, w, q, a);
    return static_cast<uint8_t>(no_plan(s, false));
  }
  make_long(s, w, s0w);
  return detail::kExtended;
}

// Phase 2: close the action set under prevail requests, counting in-degrees on the way (the
// rules of orderings.h, seen from the requester: a request for q on the walk of w gives the
// edges producer(q) → a and a → leave(q)). Every action added is in every plan
// (docs/algorithm.md, "Minimality"), so a request nothing can satisfy is a proof, and a request
// only a repeated action can satisfy rules out T1 plans. A value on a walk keeps its leaving
// action once set (make_long adds only values off σ1), so the edge a → leave(q) can be counted
// as soon as q is on the walk. Requests for s0[w] are counted per variable and resolved once the
// walks are final. Returns detail::kExtended to go on (detail::kLoops: with disjunctive
// requests, the sort of order_loops), detail::kToGeneral (plan() hands the plan
// to the general path), or the status that ends the plan — a byte, not a std::optional, so that
// plan() keeps no copy of its spans for the general path's call.
[[gnu::always_inline]] inline uint8_t TopoPlanner::close_requests(TopoScratch& s, const ValueId* s0,
                                                                  const ValueId* goal) const {
  // Pointers and counters in locals: the int32_t stores below may alias the scratch's members,
  // which would otherwise be reloaded after each one. Except on the path of a request for s0[w]
  // (about one per plan): it reads the slot's variable and the list of such variables through
  // the planner and the scratch, so that the request loop keeps three values fewer live (fewer
  // spills around it: −5 instructions per plan).
  const uint32_t gen = s.gen_;
  TopoScratch::SlotRec* const slot = s.slot_.data();
  TopoScratch::ActRec* const act = s.act_.data();
  TopoScratch::VarRec* const var = s.var_.data();
  const ActionId* const used = s.used_.data();
  const ActInfo* const info = act_info_.data();
  const int32_t* const prv = prv_slot_.data();
  int32_t num_used = s.num_used_;
  s.num_s0_req_vars_ = 0;
  for (int32_t i = 0; i < num_used; ++i) {
    const ActionId a = used[i];
    const int32_t prv_end = info[a].prv_end;
    int32_t p = info[a].prv_begin;
    if (p == prv_end) continue;  // no requests (about half the crowd's actions)
    int32_t produced_in = 0;
    for (; p < prv_end; ++p) {
      const int32_t ps = prv[p];
      uint32_t slot_mark = slot[ps].mark;
      if (slot_mark != gen && slot_mark != gen + 1) [[unlikely]] {  // q not on w's walk (yet)
        const uint8_t r = extend_walk(s, s0, goal, a, ps);
        if (r != detail::kExtended) [[unlikely]]
          return r;
        num_used = s.num_used_;
        slot_mark = gen;
      }
      if (slot_mark == gen) [[likely]] {  // producer(q) → a, a → leave(q)
        ++produced_in;
        const ActionId l = slot[ps].leave;
        if (l >= 0) ++act[l].indeg;
      } else {  // a needs s0[w]
        const VarId w = slot_var_[static_cast<size_t>(ps)];
        TopoScratch::VarRec& r = var[w];
        if (r.pending_disj == 0) s.s0_req_vars_[static_cast<size_t>(s.num_s0_req_vars_++)] = w;
        ++r.pending_disj;  // their list: list_disjunctive, only when the sort needs it
      }
    }
    act[a].indeg += produced_in;
  }
  const VarId* const req_vars = s.s0_req_vars_.data();
  const int32_t num_req_vars = s.num_s0_req_vars_;
  // Requests for s0[w]: on a short walk, before σ1's first action (an edge); on a looping walk,
  // disjunctive (pending_disj counts them; resolved during the sort).
  int32_t disj_vars = 0;
  for (int32_t k = 0; k < num_req_vars; ++k) {
    TopoScratch::VarRec& r = var[req_vars[k]];
    if (r.loop_first >= 0) {
      ++disj_vars;
      continue;
    }
    if (r.sigma_first >= 0) act[r.sigma_first].indeg += r.pending_disj;
    r.pending_disj = 0;
  }
  return disj_vars > 0 ? detail::kLoops : detail::kExtended;
}

}  // namespace topoplan
