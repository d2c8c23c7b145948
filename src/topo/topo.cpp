// ℙ for unary post-unique action sets: walks per variable, their closure under prevail requests,
// and a topological sort that resolves the one disjunctive case (a request for s0[v] on a variable
// whose walk loops back to s0[v]). docs/algorithm.md is the reference; the comments here say how.
#include <algorithm>
#include <cassert>
#include <string>
#include <utility>

#include "topoplan/topo.h"
#include "topoplan/validate.h"

namespace topoplan {

std::string_view to_string(TopoFailure failure) {
  switch (failure) {
    case TopoFailure::kNone:
      return "none";
    case TopoFailure::kBadInput:
      return "bad input";
    case TopoFailure::kPartialGoal:
      return "partial goal";
    case TopoFailure::kBufferTooSmall:
      return "buffer too small";
    case TopoFailure::kGoalUnreachable:
      return "goal unreachable";
    case TopoFailure::kPrevailUnreachable:
      return "prevail unreachable";
    case TopoFailure::kNeedsRepeat:
      return "needs a repeated action";
    case TopoFailure::kOrderingCycle:
      return "ordering cycle";
    case TopoFailure::kSelfCheck:
      return "self-check failed";
    case TopoFailure::kUnprovenMinimal:
      return "unproven minimal";
    case TopoFailure::kBranching:
      return "branching walk";
  }
  return "?";
}

namespace {
Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}

// Classes whose theorem (Prévost et al. 2023, IJCAI, Theorems 1 and 3; docs/references.md) we rely
// on to turn "no plan with each action once" into "no plan". Not C2*: its Theorem 4 is false
// (docs/algorithm.md, departure 5).
bool in_proven_class(StructuralClass c) {
  return c == StructuralClass::kC0 || c == StructuralClass::kC2S;
}
// Action states during the sort.
constexpr uint8_t kPending = 0;
constexpr uint8_t kQueued = 1;
constexpr uint8_t kDone = 2;
constexpr uint8_t kDeferred = 3;
}  // namespace

// ---------------------------------------------------------------------------------------------
// Construction (cold).

Result<TopoPlanner> TopoPlanner::create(const Domain& domain, std::span<const uint8_t> action_mask,
                                        StructuralClass structural_class) {
  if (static_cast<int32_t>(action_mask.size()) != domain.num_actions())
    return error_of("topo: action mask has " + std::to_string(action_mask.size()) +
                    " entries, the domain has " + std::to_string(domain.num_actions()) +
                    " actions");
  Result<CompiledActionSet> set = CompiledActionSet::create(domain, action_mask);
  if (!set.ok()) return set.error();
  return create(set.value(), structural_class);
}

Result<TopoPlanner> TopoPlanner::create(const CompiledActionSet& set,
                                        StructuralClass structural_class) {
  const Domain& domain = set.domain();
  const int32_t m = domain.num_variables();
  const int32_t na = domain.num_actions();
  // ℙ's class: unary and post-unique. The first offending action (ascending) is named.
  if (!set.all_unary() || !set.post_unique()) {
    for (const ActionId a : set.actions()) {
      const auto effects = domain.effects(a);
      if (effects.size() != 1)
        return error_of("topo: action '" + domain.action_name(a) + "' is not unary (" +
                        std::to_string(effects.size()) + " effects)");
      const Effect& e = effects[0];
      const ActionId first = set.producers(set.slot(e.var, e.post))[0];
      if (first != a)
        return error_of("topo: actions '" + domain.action_name(first) + "' and '" +
                        domain.action_name(a) + "' both set '" + domain.variable_name(e.var) +
                        "' to '" + domain.value_name(e.var, e.post) + "' (not post-unique)");
    }
  }
  TopoPlanner p;
  p.set_ = set;
  p.domain_ = &domain;
  p.class_ = structural_class;
  p.general_only_ = set.has_undefined_pre();  // the general path plans them
  p.num_available_ = set.num_available();
  p.value_offset_ = set.value_offsets();
  p.producer_ = set.sole_producers();
  p.slot_var_ = set.slot_variables();
  const CompiledActionSet::Csr prevails = set.prevail_index();
  const CompiledActionSet::Csr requesters = set.requester_index();
  p.prv_offset_ = prevails.offset;
  p.prv_slot_ = prevails.items;
  p.req_offset_ = requesters.offset;
  p.req_action_ = requesters.items;
  p.total_prevails_ = static_cast<int32_t>(prevails.items.size());
  const int32_t slots = set.num_slots();

  p.act_info_.assign(static_cast<size_t>(na), TopoPlanner::ActInfo{-1, -1, -1, 0, 0, 0, 0, 0, 0});
  for (ActionId a = 0; a < na; ++a) {
    TopoPlanner::ActInfo& ai = p.act_info_[static_cast<size_t>(a)];
    ai.prv_begin = p.prv_offset_[a];
    ai.prv_end = p.prv_offset_[a + 1];
    if (!set.available(a)) continue;
    const Effect& e = domain.effects(a)[0];
    ai.var = e.var;
    ai.pre = e.pre;
    ai.post = e.post;
    ai.pre_slot = ai.pre == kUndefined ? p.slot(ai.var, ai.post) : p.slot(ai.var, ai.pre);
    ai.post_slot = p.slot(ai.var, ai.post);
    ai.req_begin = p.req_offset_[ai.post_slot];
    ai.req_end = p.req_offset_[ai.post_slot + 1];
  }
  p.find_cycles(slots, m);
  return p;
}

// Cycles of the functional graphs x → parent(x) = pre(producer(x)): every value has at most one
// parent, so each weakly connected part holds at most one cycle. Colour walk per variable.
void TopoPlanner::find_cycles(int32_t slots, int32_t m) {
  const Domain& domain = *domain_;
  TopoPlanner& p = *this;
  p.on_cycle_.assign(static_cast<size_t>(slots), 0);
  p.cycle_id_.assign(static_cast<size_t>(slots), -1);
  p.cycle_next_.assign(static_cast<size_t>(slots), -1);
  auto pre_of = [&](ActionId a) { return p.act_info_[static_cast<size_t>(a)].pre; };
  std::vector<int32_t> mark(static_cast<size_t>(slots), 0);  // 0 new, k>0 visited in walk k
  int32_t walk_id = 0;
  for (VarId v = 0; v < m; ++v) {
    for (ValueId x0 = 0; x0 < domain.domain_size(v); ++x0) {
      if (mark[p.slot(v, x0)] != 0) continue;
      ++walk_id;
      ValueId x = x0;
      while (true) {
        mark[p.slot(v, x)] = walk_id;
        const ActionId a = p.producer_[p.slot(v, x)];
        if (a < 0) break;
        const ValueId parent = pre_of(a);
        if (parent == kUndefined) break;  // reached from anywhere: a root, never on a cycle
        const int32_t ps = p.slot(v, parent);
        if (mark[ps] == walk_id) {  // closed a new cycle: parent → ... → x → parent
          ValueId y = parent;
          do {
            p.on_cycle_[p.slot(v, y)] = 1;
            p.cycle_id_[p.slot(v, y)] = walk_id;
            y = pre_of(p.producer_[p.slot(v, y)]);
          } while (y != parent);
          // Successors: for each cycle value z, parent(z) is on the cycle; cycle_next[parent]=z.
          ValueId z = parent;
          do {
            const ValueId pz = pre_of(p.producer_[p.slot(v, z)]);
            p.cycle_next_[p.slot(v, pz)] = z;
            z = pz;
          } while (z != parent);
          break;
        }
        if (mark[ps] != 0) break;  // joined an earlier walk
        x = parent;
      }
    }
  }
}

TopoScratch TopoPlanner::make_scratch() const {
  TopoScratch s;
  const auto na = static_cast<size_t>(domain_->num_actions());
  const auto m = static_cast<size_t>(domain_->num_variables());
  const auto slots = static_cast<size_t>(value_offset_.back());
  // Stored edges: only the late edges of disjunctive requests, two per request.
  const size_t edge_cap = 2 * static_cast<size_t>(total_prevails_) + 1;
  s.act_.assign(na, TopoScratch::ActRec{0, 0, -1, kPending});
  s.tmp_indeg_.assign(na, 0);
  s.mask_.assign(na, 0);
  s.slot_.assign(slots, TopoScratch::SlotRec{0, -1, 0});
  s.var_.assign(m, TopoScratch::VarRec{-1, 0, -1, -1});
  s.s0_req_vars_.assign(m, -1);
  s.edge_next_.assign(edge_cap, -1);
  s.edge_to_.assign(edge_cap, -1);
  s.disj_action_.assign(static_cast<size_t>(total_prevails_) + 1, -1);
  s.disj_next_.assign(static_cast<size_t>(total_prevails_) + 1, -1);
  s.used_.assign(static_cast<size_t>(num_available_) + 1, -1);
  s.queue_.assign(static_cast<size_t>(num_available_) + 1, -1);
  s.deferred_.assign(static_cast<size_t>(num_available_) + edge_cap, -1);
  // General path.
  s.gact_.assign(na, TopoScratch::GActRec{-1, 0, -1, -1});
  s.hint_win_.assign(2 * na + 2 * static_cast<size_t>(total_prevails_) + 16, -1);
  s.hint_next_.assign(s.hint_win_.size(), -1);
  s.trial_mark_.assign(na, 0);
  s.gslot_.assign(slots, TopoScratch::GSlotRec{0, -1});
  s.gvar_.assign(m, TopoScratch::GVarRec{});
  s.gwin_pending_.assign(na + m, 0);
  const size_t gedge_cap = 2 * na + 4 * static_cast<size_t>(total_prevails_) + 16;
  s.gedge_next_.assign(gedge_cap, -1);
  s.gedge_to_.assign(gedge_cap, -1);
  s.jvars_.assign(3 * m + 3, -1);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Planning (hot, allocation-free).
//
// Orderings are not stored. Every edge of the ordering graph is implied by the walks and by the
// prevail lists, so the out-edges of an action x are enumerated on demand (for_each_succ):
//   * chain: x → the action leaving post(x) on its walk (to σ1's first action when post(x) is
//     s0 of a looping walk);
//   * produced value: x → every chosen action requesting post(x) (the static reverse index
//     req_*, filtered by the used stamp), unless post(x) is s0;
//   * requested values: for each prevail w = q of x, x → the action leaving q (σ1's first
//     action when q = s0[w] on a short walk; q = s0[w] on a looping walk is disjunctive);
//   * late edges of disjunctive requests (stored in the head field / edge_*).
// In-degrees are counted while the walks are closed, with the same rules. This removes the
// edge list of O(|E_A|) entries that each plan used to write and chase through memory.

bool TopoPlanner::fail(TopoScratch& s, TopoFailure f, VarId v, ValueId x, ActionId a) const {
  s.failure_ = f;
  s.failure_var_ = v;
  s.failure_value_ = x;
  s.failure_action_ = a;
  return false;
}

namespace {
// Chooses actions (stamp, chain in-degree, list of chosen actions) with the scratch's pointers
// and counter held in registers; the int32_t stores would otherwise force reloading them from
// the scratch after every store. the state is set by the sort, the head only once a late edge
// exists.
template <class Rec>
struct Chooser {
  Rec* act;
  ActionId* used;
  uint32_t gen;
  int32_t n;
  // Chooses a; `chain_in` is its chain in-degree (1 unless it leaves the first epoch of s0).
  void use(ActionId a, int32_t chain_in) {
    assert(act[a].stamp != gen);
    act[a].stamp = gen;
    act[a].indeg = chain_in;
    used[n++] = a;
  }
};

// One field of a record array, indexed like a plain array (all views of one array share its
// base pointer, hence one register).
template <auto Member, class Rec>
struct View {
  Rec* p;
  decltype(auto) operator[](int32_t i) const { return (p[i].*Member); }
};
template <auto Member, class Rec>
View<Member, Rec> view(Rec* p) {
  return View<Member, Rec>{p};
}
}  // namespace

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

// The unique simple path s0 → g (σ1), g ≠ s0: follow producers back from g. Marks its values
// (except s0) as on the walk and records which action leaves each of them.
[[gnu::always_inline]] inline bool TopoPlanner::build_walk(TopoScratch& s, VarId v, ValueId s0,
                                                           ValueId g) const {
  const int32_t base = value_offset_[v];
  const int32_t limit = value_offset_[v + 1] - base;
  const ActionId* const producer = producer_.data() + base;
  const ActInfo* const act_info = act_info_.data();
  const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data() + base);
  const auto leave = view<&TopoScratch::SlotRec::leave>(s.slot_.data() + base);
  Chooser<TopoScratch::ActRec> c{s.act_.data(), s.used_.data(), s.gen_, s.num_used_};
  const uint32_t gen = c.gen;
  ValueId y = g;
  mark[g] = gen;
  leave[g] = -1;
  for (int32_t steps = 0;; ++steps) {
    const ActionId a = producer[y];
    if (a < 0 || steps >= limit) return fail(s, TopoFailure::kGoalUnreachable, v, g, a);
    const ValueId x = act_info[a].pre;
    if (x == s0) {
      c.use(a, 0);
      s.num_used_ = c.n;
      s.var_[v].sigma_first = a;
      return true;
    }
    if (mark[x] == gen) {  // looped without meeting s0
      s.num_used_ = c.n;
      return fail(s, TopoFailure::kGoalUnreachable, v, g, a);
    }
    c.use(a, 1);
    mark[x] = gen;
    leave[x] = a;
    y = x;
  }
}

// Prefixes the walk of v with the cycle through s0 (σ2 of Prévost et al. 2023, §3): s0 → c1 → ... →
// s0.
[[gnu::always_inline]] inline bool TopoPlanner::make_long(TopoScratch& s, VarId v,
                                                          ValueId s0) const {
  const int32_t base = value_offset_[v];
  const ActionId* const producer = producer_.data() + base;
  const ValueId* const cycle_next = cycle_next_.data() + base;
  const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data() + base);
  const auto leave = view<&TopoScratch::SlotRec::leave>(s.slot_.data() + base);
  Chooser<TopoScratch::ActRec> c{s.act_.data(), s.used_.data(), s.gen_, s.num_used_};
  ValueId x = cycle_next[s0];
  s.var_[v].fw = producer[x];  // f_v, leaves the first epoch of s0; the walk is now long
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
  const ActionId sf = s.var_[v].sigma_first;
  if (sf >= 0) ++c.act[sf].indeg;  // restore → σ1's first action
  return true;
}

void TopoPlanner::add_edge(TopoScratch& s, ActionId from, ActionId to) const {
  const int32_t e = s.num_edges_++;
  assert(e < static_cast<int32_t>(s.edge_to_.size()));
  s.edge_to_[e] = to;
  s.edge_next_[e] = s.act_[from].head;
  s.act_[from].head = e;
  ++s.act_[to].indeg;
}

// The out-edges of chosen action x (see the comment above fail()). on_disj(w) is called for
// each prevail of x on s0[w] of a looping walk w (a disjunctive request, no edge).
template <class OnSucc, class OnDisj>
[[gnu::always_inline]] inline void TopoPlanner::for_each_succ(const TopoScratch& s, ActionId x,
                                                              OnSucc&& on_succ,
                                                              OnDisj&& on_disj) const {
  // Raw pointers: the callbacks store through int32_t, which would otherwise force the vectors'
  // data pointers to be reloaded after every edge.
  const uint32_t s0_mark = s.gen_ + 1;
  const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data());
  const auto leave = view<&TopoScratch::SlotRec::leave>(s.slot_.data());
  const auto sigma_first = view<&TopoScratch::VarRec::sigma_first>(s.var_.data());
  const VarId v = act_info_[x].var;
  const int32_t ys = value_offset_[v] + act_info_[x].post;
  if (mark[ys] == s0_mark) {  // x restores s0[v]: the walk is long
    if (sigma_first[v] >= 0) on_succ(sigma_first[v]);
  } else {
    if (leave[ys] >= 0) on_succ(leave[ys]);
    const auto used = view<&TopoScratch::ActRec::stamp>(s.act_.data());
    const uint32_t gen = s.gen_;
    const ActionId* r = req_action_.data() + req_offset_[ys];
    const ActionId* const r_end = req_action_.data() + req_offset_[ys + 1];
    for (; r != r_end; ++r)
      if (used[*r] == gen) on_succ(*r);
  }
  const int32_t* ps = prv_slot_.data() + prv_offset_[x];
  const int32_t* const ps_end = prv_slot_.data() + prv_offset_[x + 1];
  for (; ps != ps_end; ++ps) {
    if (mark[*ps] != s0_mark) {
      if (leave[*ps] >= 0) on_succ(leave[*ps]);
    } else {
      const VarId w = slot_var_[*ps];
      if (s.var_[w].fw >= 0)
        on_disj(w);
      else if (sigma_first[w] >= 0)
        on_succ(sigma_first[w]);
    }
  }
  for (int32_t e = s.act_[x].head; e >= 0; e = s.edge_next_[e]) on_succ(s.edge_to_[e]);
}

PlanStatus TopoPlanner::plan(TopoScratch& s, std::span<const ValueId> s0,
                             std::span<const ValueId> goal, std::span<ActionId> out,
                             int32_t* out_len) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  *out_len = 0;
  s.failure_ = TopoFailure::kNone;
  s.failure_var_ = s.failure_value_ = s.failure_action_ = -1;
  if (static_cast<int32_t>(s0.size()) != m || static_cast<int32_t>(goal.size()) != m ||
      s.act_.size() != act_info_.size() || s.slot_.size() != producer_.size()) {
    fail(s, TopoFailure::kBadInput, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  if (general_only_) [[unlikely]]
    return plan_general(s, s0, goal, out, out_len);
  s.gen_ += 2;
  if (s.gen_ < 2 || s.gen_ > UINT32_MAX - 2) {  // stamp wrap-around: clear once every 2^31 plans
    for (TopoScratch::ActRec& r : s.act_) r.stamp = 0;
    for (TopoScratch::SlotRec& r : s.slot_) r.mark = r.sim = 0;
    s.gen_ = 2;
  }
  const uint32_t gen = s.gen_;
  s.num_used_ = s.num_edges_ = s.num_disj_ = s.num_s0_req_vars_ = 0;
  s.pick_work_ = 0;
  s.pick_capped_ = false;
  const bool proven_class = in_proven_class(class_);
  auto failed = [&](bool proof) {
    return proof || (proven_class && !s.pick_capped_) ? PlanStatus::kUnsolvable
                                                      : PlanStatus::kGaveUp;
  };

  // Phase 1: σ1 for every variable whose goal differs from s0. `unmet` counts goal facts s0
  // does not satisfy (the self-check tracks it along the plan). The per-variable state is reset
  // here too (no separate fill: for the 4-9 variables of a crowd class a memset call costs more
  // than the loop).
  int32_t unmet = 0;
  {
    const int32_t* const off = value_offset_.data();
    const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data());
    const auto sim = view<&TopoScratch::SlotRec::sim>(s.slot_.data());
    const auto fwv = view<&TopoScratch::VarRec::fw>(s.var_.data());
    const auto sigma_first = view<&TopoScratch::VarRec::sigma_first>(s.var_.data());
    const auto pending = view<&TopoScratch::VarRec::pending_disj>(s.var_.data());
    for (VarId v = 0; v < m; ++v) {
      fwv[v] = -1;
      sigma_first[v] = -1;
      pending[v] = 0;
      const ValueId x = s0[static_cast<size_t>(v)];
      const ValueId g = goal[static_cast<size_t>(v)];
      const int32_t base = off[v];
      const auto size = static_cast<uint32_t>(off[v + 1] - base);
      if ((static_cast<uint32_t>(x) >= size) | (static_cast<uint32_t>(g) + 1u > size))
          [[unlikely]] {  // kUndefined = -1 passes as 0
        fail(s, TopoFailure::kBadInput, v, x, -1);
        return PlanStatus::kGaveUp;
      }
      if (g != kUndefined && g != x) {
        ++unmet;
        if (!build_walk(s, v, x, g)) {  // no path at all: a proof, unless the input is bad
          for (VarId u = v + 1; u < m; ++u) {
            const auto su = static_cast<uint32_t>(off[u + 1] - off[u]);
            if (static_cast<uint32_t>(s0[static_cast<size_t>(u)]) >= su ||
                static_cast<uint32_t>(goal[static_cast<size_t>(u)]) + 1u > su) {
              fail(s, TopoFailure::kBadInput, u, s0[static_cast<size_t>(u)], -1);
              return PlanStatus::kGaveUp;
            }
          }
          return PlanStatus::kUnsolvable;
        }
      }
      mark[base + x] = gen + 1;
      sim[base + x] = gen;
    }
  }

  // Phase 2: close the action set under prevail requests, counting in-degrees on the way.
  // Every action added is in every plan (docs/algorithm.md, "Minimality"), so a request nothing
  // can satisfy is a proof, and a request only a repeated action can satisfy rules out T1 plans.
  // A value on a walk keeps its leaving action once set (make_long adds only values off σ1), so
  // the edge a → leave(q) can be counted as soon as q is on the walk. Requests for s0[w] are
  // listed per variable and counted once the walks are final.
  const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data());
  const auto leave = view<&TopoScratch::SlotRec::leave>(s.slot_.data());
  const auto indeg = view<&TopoScratch::ActRec::indeg>(s.act_.data());
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = s.used_[static_cast<size_t>(i)];
    const int32_t* const pb = prv_slot_.data() + prv_offset_[a];
    const int32_t* const pe = prv_slot_.data() + prv_offset_[a + 1];
    int32_t produced_in = 0;
    for (const int32_t* p = pb; p != pe; ++p) {
      const int32_t ps = *p;
      uint32_t mk = mark[ps];
      if (mk != gen && mk != gen + 1) [[unlikely]] {  // q is not on the walk of w (yet)
        const VarId w = slot_var_[ps];
        const ValueId q = ps - value_offset_[w];
        const ValueId s0w = s0[static_cast<size_t>(w)];
        const ValueId gw = goal[static_cast<size_t>(w)];
        const int32_t base = value_offset_[w];
        // q on the cycle through s0[w]: s0[w] reaches q, and q reaches the goal through s0[w]
        // (phase 1 built σ1), so both walks below would succeed.
        const bool s0_cycle = cycle_id_[ps] >= 0 && cycle_id_[ps] == cycle_id_[base + s0w];
        if (!s0_cycle && !reaches(w, s0w, q)) {
          fail(s, TopoFailure::kPrevailUnreachable, w, q, a);
          return PlanStatus::kUnsolvable;
        }
        if (gw == kUndefined) [[unlikely]]  // a free variable visited off s0: windows
          return plan_general(s, s0, goal, out, out_len);
        if (!s0_cycle && !reaches(w, q, gw)) {
          fail(s, TopoFailure::kPrevailUnreachable, w, q, a);
          return PlanStatus::kUnsolvable;
        }
        const bool can_loop =
            on_cycle_[ps] && on_cycle_[base + s0w] && s.var_[w].fw < 0 &&
            (s.var_[w].sigma_first < 0 || !on_cycle_[base + act_info_[s.var_[w].sigma_first].post]);
        if (!can_loop) {
          fail(s, TopoFailure::kNeedsRepeat, w, q, a);
          return failed(false);
        }
        make_long(s, w, s0w);
        mk = gen;
      }
      if (mk == gen) [[likely]] {  // producer(q) → a, a → leave(q)
        ++produced_in;
        const ActionId l = leave[ps];
        if (l >= 0) ++indeg[l];
      } else {  // a needs s0[w]
        const VarId w = slot_var_[ps];
        if (s.var_[w].pending_disj == 0) {
          s.s0_req_vars_[s.num_s0_req_vars_++] = w;
          s.var_[w].disj_head = -1;
        }
        ++s.var_[w].pending_disj;
        const int32_t d = s.num_disj_++;
        s.disj_action_[d] = a;
        s.disj_next_[d] = s.var_[w].disj_head;
        s.var_[w].disj_head = d;
      }
    }
    indeg[a] += produced_in;
  }
  // Requests for s0[w]: on a short walk, before σ1's first action (an edge); on a looping walk,
  // disjunctive (pending_disj counts them; resolved during the sort).
  for (int32_t k = 0; k < s.num_s0_req_vars_; ++k) {
    const VarId w = s.s0_req_vars_[k];
    if (s.var_[w].fw >= 0) continue;
    if (s.var_[w].sigma_first >= 0) s.act_[s.var_[w].sigma_first].indeg += s.var_[w].pending_disj;
    s.var_[w].pending_disj = 0;
  }
  s.work_ = -1;  // computed by the first pick_deferred pass that needs it
  if (s.num_used_ > static_cast<int32_t>(out.size())) {
    *out_len = s.num_used_;
    fail(s, TopoFailure::kBufferTooSmall, -1, -1, -1);
    return PlanStatus::kLimitReached;
  }

  // Phase 3: sort and self-check.
  const PlanStatus st = order(s, s0, goal, unmet, out);
  if (st == PlanStatus::kSolved) {
    *out_len = s.num_used_;
    return st;
  }
  return s.failure_ == TopoFailure::kOrderingCycle ? failed(false) : PlanStatus::kGaveUp;
}

// Chooses which deferred f_w to fire when nothing else is ready. With one candidate, that one.
// With several, one pass over the not-yet-ordered actions labels each with the candidates it
// descends from (64-bit masks, the first 64 candidates); the first candidate whose waiting
// requesters all descend from it is free to fire (they could not run before it anyway). Else
// the first that does not send a requester reaching the restoring action late, else the oldest.
// A pass costs at most (chosen actions + their orderings); the passes of one plan share a budget
// of kPickBudget times that, after which the oldest candidate is taken (and an ordering failure
// is no longer a proof). docs/algorithm.md, "Complexity".
ActionId TopoPlanner::pick_deferred(TopoScratch& s, std::span<const ValueId> s0, int32_t dh,
                                    int32_t dt, int32_t qt) const {
  constexpr int32_t kMaxCandidates = 64;
  constexpr int64_t kPickBudget = 8;
  ActionId cand[kMaxCandidates];
  int32_t nc = 0;
  for (int32_t i = dh; i < dt && nc < kMaxCandidates; ++i) {
    const ActionId a = s.deferred_[i];
    if (s.act_[a].state != kDeferred || s.act_[a].indeg != 0) continue;
    bool dup = false;
    for (int32_t j = 0; j < nc; ++j) dup = dup || cand[j] == a;
    if (!dup) cand[nc++] = a;
  }
  if (nc <= 1) return cand[0];
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
  int32_t t = qt;
  for (int32_t j = 0; j < nc; ++j) {
    s.mask_[cand[j]] = uint64_t{1} << j;
    s.queue_[t++] = cand[j];
  }
  for (int32_t h = qt; h < t; ++h) {
    const ActionId x = s.queue_[h];
    for_each_succ(
        s, x,
        [&](ActionId to) {
          ++work;
          s.mask_[to] |= s.mask_[x];
          if (--s.tmp_indeg_[to] == 0) s.queue_[t++] = to;
        },
        [](VarId) {});
  }
  s.pick_work_ += s.num_used_ + work;
  // Free: every waiting requester descends from cand[j]. Bad: a waiting requester that is itself
  // a candidate reaches the action restoring s0[w], so sending it late closes a cycle.
  int32_t not_bad = -1;
  for (int32_t j = 0; j < nc; ++j) {
    const VarId w = act_info_[cand[j]].var;
    const ActionId restore = producer_[slot(w, s0[w])];
    bool free_to_fire = true;
    bool bad = false;
    for (int32_t k = s.var_[w].disj_head; k >= 0; k = s.disj_next_[k]) {
      const ActionId b = s.disj_action_[k];
      if (s.act_[b].state == kDone) continue;
      if ((s.mask_[b] >> j & 1u) == 0) free_to_fire = false;
      for (int32_t i = 0; i < nc; ++i)
        if (cand[i] == b && (s.mask_[restore] >> i & 1u) != 0) bad = true;
    }
    if (free_to_fire) return cand[j];
    if (!bad && not_bad < 0) not_bad = j;
  }
  return cand[not_bad >= 0 ? not_bad : 0];
}

// Kahn's algorithm with one rule for the disjunctive requests (b needs w = s0[w], w loops back
// to s0[w]): f_w, the action that first leaves s0[w], is deferred while some such b has not run,
// and fired only when nothing else is ready; the b still waiting then go to the second epoch of
// s0[w] (after the action restoring s0[w], before the walk leaves it again).
//
// The self-check is fused into the sort: each action is re-simulated on value slots when it is
// emitted (the slot's sim == gen_ when the variable holds that value; phase 1 set s0), reading
// only the action tables and the simulated state — not the walks, marks or edges the ordering
// used. `unmet` goal facts start unsatisfied; each action updates the count. Any failed
// condition or an unmet goal at the end makes the plan kGaveUp / kSelfCheck, never a plan.
//
// The successors of a fired action are those of for_each_succ (written out here: one call site,
// locals in registers). Pointers are taken once: the uint8_t stores to the state may alias
// anything, which would otherwise reload every vector's data pointer after each store.
PlanStatus TopoPlanner::order(TopoScratch& s, std::span<const ValueId> s0,
                              std::span<const ValueId> goal, int32_t unmet,
                              std::span<ActionId> out) const {
  const uint32_t gen = s.gen_;
  const uint32_t s0_mark = gen + 1;
  const ActInfo* const act = act_info_.data();
  const int32_t* const prv = prv_slot_.data();
  const ActionId* const req = req_action_.data();
  const VarId* const slot_var = slot_var_.data();
  const ActionId* const producer = producer_.data();
  const int32_t* const off = value_offset_.data();
  const auto mark = view<&TopoScratch::SlotRec::mark>(s.slot_.data());
  const auto leave = view<&TopoScratch::SlotRec::leave>(s.slot_.data());
  const auto sim = view<&TopoScratch::SlotRec::sim>(s.slot_.data());
  const auto used_stamp = view<&TopoScratch::ActRec::stamp>(s.act_.data());
  const auto indeg = view<&TopoScratch::ActRec::indeg>(s.act_.data());
  const auto state = view<&TopoScratch::ActRec::state>(s.act_.data());
  ActionId* const deferred = s.deferred_.data();
  const auto sigma_first = view<&TopoScratch::VarRec::sigma_first>(s.var_.data());
  const auto fwv = view<&TopoScratch::VarRec::fw>(s.var_.data());
  const auto pending = view<&TopoScratch::VarRec::pending_disj>(s.var_.data());
  const auto head = view<&TopoScratch::ActRec::head>(s.act_.data());
  const int32_t* const edge_next = s.edge_next_.data();
  const ActionId* const edge_to = s.edge_to_.data();
  const ActionId* const used = s.used_.data();
  const ValueId* const gl = goal.data();
  // The queue is `out` itself: every action enters it once and fires when it leaves it, so
  // the queue's order is the plan's order.
  ActionId* const queue = out.data();
  const int32_t num_used = s.num_used_;
  int32_t qh = 0;
  int32_t qt = 0;
  int32_t dh = 0;
  int32_t dt = 0;
  // Deferred: f_v (the action leaving the first epoch of s0[v] on a looping walk) while some
  // request for s0[v] is pending.
  auto make_ready = [&](ActionId a) {
    const ActInfo& ai = act[a];
    const VarId v = ai.var;
    if (a == fwv[v] && pending[v] > 0) {
      state[a] = kDeferred;
      deferred[dt++] = a;
    } else {
      state[a] = kQueued;
      queue[qt++] = a;
    }
  };
  auto succ = [&](ActionId to) {
    if (--indeg[to] == 0) make_ready(to);
  };

  for (int32_t i = 0; i < num_used; ++i) {
    const ActionId a = used[i];
    if (indeg[a] == 0)
      make_ready(a);
    else
      state[a] = kPending;
  }
  // Late edges exist only after a deferred loop was picked: the heads are reset then, once.
  bool late_edges = false;
  while (true) {
    if (qh == qt) {
      // Nothing ready: fire a deferred f_w; its waiting requesters go late (after the action
      // restoring s0[w]). Prefer an f_w all of whose waiting requesters descend from f_w anyway.
      while (dh < dt && (state[deferred[dh]] != kDeferred || indeg[deferred[dh]] != 0)) ++dh;
      if (dh == dt) break;
      if (!late_edges) {
        late_edges = true;
        for (int32_t i = 0; i < num_used; ++i) s.act_[used[i]].head = -1;
      }
      const ActionId f = pick_deferred(s, s0, dh, dt, 0);  // scratch queue_ as its work list
      const VarId w = act[f].var;
      const ActionId restore = producer[off[w] + s0[static_cast<size_t>(w)]];
      for (int32_t k = s.var_[w].disj_head; k >= 0; k = s.disj_next_[k]) {
        const ActionId b = s.disj_action_[k];
        if (state[b] == kDone) continue;
        if (state[b] == kQueued) state[b] = kPending;  // (cannot happen: queue is empty)
        add_edge(s, restore, b);
        if (sigma_first[w] >= 0) add_edge(s, b, sigma_first[w]);
      }
      pending[w] = 0;
      state[f] = kQueued;  // fired next (the queue is empty)
      queue[qt++] = f;
    }
    const ActionId x = queue[qh++];
    assert(state[x] == kQueued);
    state[x] = kDone;
    const ActInfo& ax = act[x];
    const VarId v = ax.var;
    uint32_t bad = sim[ax.pre_slot] ^ gen;  // self-check: 0 while every condition holds
    const int32_t ys = ax.post_slot;
    if (mark[ys] == s0_mark) {  // x restores s0[v]: the walk is long
      if (sigma_first[v] >= 0) succ(sigma_first[v]);
    } else {
      if (leave[ys] >= 0) succ(leave[ys]);
      for (int32_t r = ax.req_begin; r < ax.req_end; ++r)
        if (used_stamp[req[r]] == gen) succ(req[r]);
    }
    for (int32_t i = ax.prv_begin; i < ax.prv_end; ++i) {
      const int32_t ps = prv[i];
      bad |= sim[ps] ^ gen;
      if (mark[ps] != s0_mark) {
        if (leave[ps] >= 0) succ(leave[ps]);
      } else {
        const VarId w = slot_var[ps];
        const ActionId fw = fwv[w];
        if (fw < 0) {
          if (sigma_first[w] >= 0) succ(sigma_first[w]);
        } else {  // disjunctive: x ran in the first epoch of s0[w]
          if (state[fw] != kDone && --pending[w] == 0 && state[fw] == kDeferred && indeg[fw] == 0) {
            state[fw] = kQueued;
            queue[qt++] = fw;
          }
        }
      }
    }
    if (late_edges)
      for (int32_t e = head[x]; e >= 0; e = edge_next[e]) succ(edge_to[e]);
    if (bad != 0) [[unlikely]] {
      fail(s, TopoFailure::kSelfCheck, v, -1, x);
      return PlanStatus::kGaveUp;
    }
    sim[ax.pre_slot] = 0;
    sim[ys] = gen;
    const ValueId g = gl[v];
    unmet += (g == ax.pre) - (g == ax.post);  // kUndefined never equals a value
  }
  if (qt != num_used) {
    // Name one action left in a cycle.
    ActionId stuck = -1;
    for (int32_t i = 0; i < num_used && stuck < 0; ++i)
      if (state[used[i]] != kDone) stuck = used[i];
    fail(s, TopoFailure::kOrderingCycle, stuck >= 0 ? act[stuck].var : -1, -1, stuck);
    return PlanStatus::kGaveUp;
  }
  if (unmet != 0) [[unlikely]] {
    fail(s, TopoFailure::kSelfCheck, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  return PlanStatus::kSolved;
}

std::string TopoPlanner::explain(const TopoScratch& s) const {
  return describe(*domain_, s.failure_info());
}

namespace {
// The first action setting v = x (ℙ's domains are post-unique per NPC class; cold path).
ActionId producer_of(const Domain& d, VarId v, ValueId x) {
  for (ActionId a = 0; a < d.num_actions(); ++a)
    for (const Effect& e : d.effects(a))
      if (e.var == v && e.post == x) return a;
  return -1;
}
}  // namespace

std::string describe(const Domain& d, const TopoFailureInfo& f) {
  const VarId v = f.var >= 0 && f.var < d.num_variables() ? f.var : -1;
  const ValueId x = v >= 0 && f.value >= 0 && f.value < d.domain_size(v) ? f.value : -1;
  const ActionId a = f.action >= 0 && f.action < d.num_actions() ? f.action : -1;
  const std::string fact =
      v < 0 ? std::string("?")
            : (x < 0 ? d.variable_name(v) : d.variable_name(v) + "=" + d.value_name(v, x));
  const std::string act = a >= 0 ? "'" + d.action_name(a) + "'" : std::string("?");
  const std::string by = a >= 0 ? " (needed by " + act + ")" : std::string();
  switch (f.reason) {
    case TopoFailure::kNone:
      return "";
    case TopoFailure::kBadInput:
      return "topo: the state or goal has the wrong size or a value out of range";
    case TopoFailure::kBufferTooSmall:
      return "topo: the output buffer is too small for the plan";
    case TopoFailure::kPartialGoal:
      return "topo: the goal leaves '" + (v >= 0 ? d.variable_name(v) : std::string("?")) +
             "' free but " + fact + " is requested" + by +
             "; ℙ could not place that visit (a goal value for it would let ℙ decide)";
    case TopoFailure::kGoalUnreachable:
      return "topo: no sequence of actions takes " + fact +
             " from its initial value: the goal cannot be reached (a plan does not exist); an "
             "action setting " +
             fact + " from a value that can be reached would change it";
    case TopoFailure::kPrevailUnreachable:
      return "topo: " + act + " needs " + fact +
             ", which no sequence of actions reaches on the way to the goal (a plan does not "
             "exist); an action setting " +
             fact + " from a reachable value would change it";
    case TopoFailure::kNeedsRepeat:
    case TopoFailure::kBranching: {
      const ActionId p = v >= 0 && x >= 0 ? producer_of(d, v, x) : -1;
      const std::string prod = p >= 0 ? "'" + d.action_name(p) + "'" : std::string("its producer");
      return "topo: visiting " + fact + " twice" + by + ": " + prod +
             " is needed twice; a plan with each action once does not exist (ℙ gives up; a "
             "search may find a plan that repeats it). A second way to reach " +
             fact + " (e.g. an action setting it with no pre-condition on '" +
             (v >= 0 ? d.variable_name(v) : std::string("?")) +
             "'), or a goal that does not need the second visit, would change it";
    }
    case TopoFailure::kOrderingCycle:
      if (a >= 0 && d.is_unary(a) && d.effects(a)[0].pre == kUndefined) {
        const Effect& e = d.effects(a)[0];
        const std::string place = d.variable_name(e.var) + "=" + d.value_name(e.var, e.post);
        return "topo: ℙ found no order of the needed actions that visits " + place +
               " only once: a plan may need " + act +
               " twice (ℙ plans each action once; a search may find a plan that repeats it). A "
               "second action reaching " +
               place + ", or fewer needs served at " + place + ", would change it";
      }
      return "topo: the needed actions cannot be put in one order: " + act +
             (v >= 0 ? " (on '" + d.variable_name(v) + "')" : std::string()) +
             " waits, directly or not, for itself; no plan with each action once was found "
             "(removing one of the pre-/prevail-conditions on that cycle would change it)";
    case TopoFailure::kUnprovenMinimal:
      return "topo: a plan returning to " + fact +
             " exists but ℙ cannot prove it minimal (several variables need a second visit "
             "of their initial value); ℙ gives up so that a search answers";
    case TopoFailure::kSelfCheck:
      return "topo: internal error: the plan failed re-simulation";
  }
  return "";
}

}  // namespace topoplan
