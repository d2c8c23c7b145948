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
  }
  return "?";
}

namespace {
Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}

// Classes whose theorem (seed 000) we rely on to turn "no plan with each action once" into
// "no plan". Not C2*: its Theorem 4 is false (docs/algorithm.md, departure 5).
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
  const int32_t m = domain.num_variables();
  const int32_t na = domain.num_actions();
  if (static_cast<int32_t>(action_mask.size()) != na)
    return error_of("topo: action mask has " + std::to_string(action_mask.size()) +
                    " entries, the domain has " + std::to_string(na) + " actions");
  TopoPlanner p;
  p.domain_ = &domain;
  p.class_ = structural_class;
  p.value_offset_.assign(static_cast<size_t>(m) + 1, 0);
  for (VarId v = 0; v < m; ++v) p.value_offset_[v + 1] = p.value_offset_[v] + domain.domain_size(v);
  const int32_t slots = p.value_offset_[m];
  p.producer_.assign(static_cast<size_t>(slots), -1);
  p.on_cycle_.assign(static_cast<size_t>(slots), 0);
  p.cycle_next_.assign(static_cast<size_t>(slots), -1);
  p.act_var_.assign(static_cast<size_t>(na), -1);
  p.act_pre_.assign(static_cast<size_t>(na), kUndefined);
  p.act_post_.assign(static_cast<size_t>(na), kUndefined);

  for (ActionId a = 0; a < na; ++a) {
    if (!action_mask[a]) continue;
    const auto effects = domain.effects(a);
    if (effects.size() != 1)
      return error_of("topo: action '" + domain.action_name(a) + "' is not unary (" +
                      std::to_string(effects.size()) + " effects)");
    const Effect& e = effects[0];
    if (e.pre == kUndefined)
      return error_of("topo: action '" + domain.action_name(a) + "' has no pre-condition on '" +
                      domain.variable_name(e.var) + "' (SAS requires one)");
    const int32_t s = p.slot(e.var, e.post);
    if (p.producer_[s] >= 0)
      return error_of("topo: actions '" + domain.action_name(p.producer_[s]) + "' and '" +
                      domain.action_name(a) + "' both set '" + domain.variable_name(e.var) +
                      "' to '" + domain.value_name(e.var, e.post) + "' (not post-unique)");
    p.producer_[s] = a;
    p.act_var_[a] = e.var;
    p.act_pre_[a] = e.pre;
    p.act_post_[a] = e.post;
    ++p.num_available_;
    p.max_prevails_ += static_cast<int32_t>(domain.prevail(a).size());
  }

  // Cycles of the functional graphs x → parent(x) = pre(producer(x)): every value has at most one
  // parent, so each weakly connected part holds at most one cycle. Colour walk per variable.
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
        const ValueId parent = p.act_pre_[a];
        const int32_t ps = p.slot(v, parent);
        if (mark[ps] == walk_id) {  // closed a new cycle: parent → ... → x → parent
          ValueId y = parent;
          do {
            p.on_cycle_[p.slot(v, y)] = 1;
            // y's cycle successor: the cycle value whose parent is y. Walk from x backwards.
            y = p.act_pre_[p.producer_[p.slot(v, y)]];
          } while (y != parent);
          // Successors: for each cycle value z, parent(z) is on the cycle; cycle_next[parent]=z.
          ValueId z = parent;
          do {
            const ValueId pz = p.act_pre_[p.producer_[p.slot(v, z)]];
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
  return p;
}

TopoScratch TopoPlanner::make_scratch() const {
  TopoScratch s;
  const auto na = static_cast<size_t>(domain_->num_actions());
  const auto m = static_cast<size_t>(domain_->num_variables());
  const auto slots = static_cast<size_t>(value_offset_.back());
  // Edges: one chain edge per used action, two per prevail request, two more per late request.
  const size_t edge_cap =
      static_cast<size_t>(num_available_) + 4 * static_cast<size_t>(max_prevails_) + 1;
  s.used_stamp_.assign(na, 0);
  s.indeg_.assign(na, 0);
  s.tmp_indeg_.assign(na, 0);
  s.mask_.assign(na, 0);
  s.head_.assign(na, -1);
  s.state_.assign(na, kPending);
  s.walk_stamp_.assign(slots, 0);
  s.leave_.assign(slots, -1);
  s.long_walk_.assign(m, 0);
  s.sigma_first_.assign(m, -1);
  s.pending_disj_.assign(m, 0);
  s.disj_head_.assign(m, -1);
  s.sim_.assign(m, 0);
  s.edge_next_.assign(edge_cap, -1);
  s.edge_to_.assign(edge_cap, -1);
  s.disj_action_.assign(static_cast<size_t>(max_prevails_) + 1, -1);
  s.disj_next_.assign(static_cast<size_t>(max_prevails_) + 1, -1);
  s.used_.assign(static_cast<size_t>(num_available_) + 1, -1);
  s.queue_.assign(static_cast<size_t>(num_available_) + 1, -1);
  s.deferred_.assign(static_cast<size_t>(num_available_) + edge_cap, -1);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Planning (hot, allocation-free).

bool TopoPlanner::fail(TopoScratch& s, TopoFailure f, VarId v, ValueId x, ActionId a) const {
  s.failure_ = f;
  s.failure_var_ = v;
  s.failure_value_ = x;
  s.failure_action_ = a;
  return false;
}

void TopoPlanner::use(TopoScratch& s, ActionId a) const {
  assert(s.used_stamp_[a] != s.gen_);
  s.used_stamp_[a] = s.gen_;
  s.indeg_[a] = 0;
  s.head_[a] = -1;
  s.state_[a] = kPending;
  s.used_[s.num_used_++] = a;
}

// True when a walk of v can go from `from` to `to`: `from` is an ancestor of `to` following
// parents (producer pre-conditions), cycles included.
bool TopoPlanner::reaches(VarId v, ValueId from, ValueId to) const {
  ValueId y = to;
  for (int32_t steps = 0; steps <= domain_->domain_size(v); ++steps) {
    if (y == from) return true;
    const ActionId a = producer_[slot(v, y)];
    if (a < 0) return false;
    y = act_pre_[a];
  }
  return false;
}

// The unique simple path s0 → g (σ1): follow producers back from g. Marks its values as on the
// walk and records which action leaves each of them.
bool TopoPlanner::build_walk(TopoScratch& s, VarId v, ValueId s0, ValueId g) const {
  ValueId y = g;
  s.walk_stamp_[slot(v, g)] = s.gen_;
  s.leave_[slot(v, g)] = -1;
  const int32_t limit = domain_->domain_size(v);
  for (int32_t steps = 0; y != s0; ++steps) {
    const ActionId a = producer_[slot(v, y)];
    if (a < 0 || steps >= limit) return fail(s, TopoFailure::kGoalUnreachable, v, g, a);
    const ValueId x = act_pre_[a];
    if (x != s0 && s.walk_stamp_[slot(v, x)] == s.gen_)  // looped without meeting s0
      return fail(s, TopoFailure::kGoalUnreachable, v, g, a);
    use(s, a);
    s.walk_stamp_[slot(v, x)] = s.gen_;
    s.leave_[slot(v, x)] = a;
    if (x == s0) s.sigma_first_[v] = a;
    y = x;
  }
  return true;
}

// Prefixes the walk of v with the cycle through s0 (σ2 of seed 000): s0 → c1 → ... → s0.
bool TopoPlanner::make_long(TopoScratch& s, VarId v, ValueId s0) const {
  s.long_walk_[v] = 1;
  ValueId x = cycle_next_[slot(v, s0)];
  use(s, producer_[slot(v, x)]);  // f_v, leaves the first epoch of s0
  while (x != s0) {
    const ValueId y = cycle_next_[slot(v, x)];
    const ActionId a = producer_[slot(v, y)];
    use(s, a);
    s.walk_stamp_[slot(v, x)] = s.gen_;
    s.leave_[slot(v, x)] = a;
    x = y;
  }
  return true;
}

void TopoPlanner::add_edge(TopoScratch& s, ActionId from, ActionId to) const {
  const int32_t e = s.num_edges_++;
  assert(e < static_cast<int32_t>(s.edge_to_.size()));
  s.edge_to_[e] = to;
  s.edge_next_[e] = s.head_[from];
  s.head_[from] = e;
  ++s.indeg_[to];
}

PlanStatus TopoPlanner::plan(TopoScratch& s, std::span<const ValueId> s0,
                             std::span<const ValueId> goal, std::span<ActionId> out,
                             int32_t* out_len) const {
  const Domain& d = *domain_;
  const int32_t m = d.num_variables();
  *out_len = 0;
  s.failure_ = TopoFailure::kNone;
  s.failure_var_ = s.failure_value_ = s.failure_action_ = -1;
  if (static_cast<int32_t>(s0.size()) != m || static_cast<int32_t>(goal.size()) != m ||
      s.used_stamp_.size() != static_cast<size_t>(d.num_actions())) {
    fail(s, TopoFailure::kBadInput, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  for (VarId v = 0; v < m; ++v) {
    if (s0[v] < 0 || s0[v] >= d.domain_size(v) || goal[v] < kUndefined ||
        goal[v] >= d.domain_size(v)) {
      fail(s, TopoFailure::kBadInput, v, s0[v], -1);
      return PlanStatus::kGaveUp;
    }
  }
  if (++s.gen_ == 0) {  // stamp wrap-around: clear once every 2^32 plans
    std::fill(s.used_stamp_.begin(), s.used_stamp_.end(), 0u);
    std::fill(s.walk_stamp_.begin(), s.walk_stamp_.end(), 0u);
    s.gen_ = 1;
  }
  s.num_used_ = s.num_edges_ = s.num_disj_ = 0;
  const bool proven_class = in_proven_class(class_);
  auto failed = [&](bool proof) {
    return proof || proven_class ? PlanStatus::kUnsolvable : PlanStatus::kGaveUp;
  };

  // Phase 1: σ1 for every variable whose goal differs from s0.
  for (VarId v = 0; v < m; ++v) {
    s.long_walk_[v] = 0;
    s.sigma_first_[v] = -1;
    s.pending_disj_[v] = 0;
    s.disj_head_[v] = -1;
    s.walk_stamp_[slot(v, s0[v])] = s.gen_;
    s.leave_[slot(v, s0[v])] = -1;
    if (goal[v] != kUndefined && goal[v] != s0[v] && !build_walk(s, v, s0[v], goal[v]))
      return PlanStatus::kUnsolvable;  // no path at all: a proof
  }

  // Phase 2a: close the action set under prevail requests. Every action added is in every plan
  // (docs/algorithm.md, "Minimality"), so a request nothing can satisfy is a proof, and a request
  // only a repeated action can satisfy rules out T1 plans.
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = s.used_[i];
    for (const Fact& f : d.prevail(a)) {
      const VarId w = f.var;
      const ValueId q = f.value;
      if (s.walk_stamp_[slot(w, q)] == s.gen_) continue;
      if (!reaches(w, s0[w], q)) {
        fail(s, TopoFailure::kPrevailUnreachable, w, q, a);
        return PlanStatus::kUnsolvable;
      }
      if (goal[w] == kUndefined) {
        fail(s, TopoFailure::kPartialGoal, w, q, a);
        return PlanStatus::kGaveUp;
      }
      if (!reaches(w, q, goal[w])) {
        fail(s, TopoFailure::kPrevailUnreachable, w, q, a);
        return PlanStatus::kUnsolvable;
      }
      const bool can_loop =
          on_cycle_[slot(w, q)] && on_cycle_[slot(w, s0[w])] && !s.long_walk_[w] &&
          (s.sigma_first_[w] < 0 || !on_cycle_[slot(w, act_post_[s.sigma_first_[w]])]);
      if (!can_loop) {
        fail(s, TopoFailure::kNeedsRepeat, w, q, a);
        return failed(false);
      }
      make_long(s, w, s0[w]);
    }
  }
  if (s.num_used_ > static_cast<int32_t>(out.size())) {
    *out_len = s.num_used_;
    fail(s, TopoFailure::kBufferTooSmall, -1, -1, -1);
    return PlanStatus::kLimitReached;
  }

  // Phase 2b: orderings. Chain edges along each walk; for each request (a needs w = q) the
  // producer of q's epoch before a and the action leaving it after a. A request for s0[w] on a
  // looping walk has two epochs: it is resolved during the sort.
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = s.used_[i];
    const VarId v = act_var_[a];
    const ValueId pre = act_pre_[a];
    if (pre != s0[v]) {
      add_edge(s, producer_[slot(v, pre)], a);
    } else if (s.long_walk_[v] && a == s.sigma_first_[v]) {
      add_edge(s, producer_[slot(v, s0[v])], a);
    }
    for (const Fact& f : d.prevail(a)) {
      const VarId w = f.var;
      const ValueId q = f.value;
      if (q != s0[w]) {
        add_edge(s, producer_[slot(w, q)], a);
        const ActionId leave = s.leave_[slot(w, q)];
        if (leave >= 0) add_edge(s, a, leave);
      } else if (!s.long_walk_[w]) {
        if (s.sigma_first_[w] >= 0) add_edge(s, a, s.sigma_first_[w]);
      } else {
        const int32_t k = s.num_disj_++;
        s.disj_action_[k] = a;
        s.disj_next_[k] = s.disj_head_[w];
        s.disj_head_[w] = k;
        ++s.pending_disj_[w];
      }
    }
  }

  // Phase 3.
  if (!order(s, s0, out)) return failed(false);
  *out_len = s.num_used_;
  if (!self_check(s, s0, goal, out.first(static_cast<size_t>(s.num_used_)))) {
    *out_len = 0;
    fail(s, TopoFailure::kSelfCheck, -1, -1, -1);
    return PlanStatus::kGaveUp;
  }
  return PlanStatus::kSolved;
}

// Chooses which deferred f_w to fire when nothing else is ready. With one candidate, that one.
// With several, one pass over the not-yet-ordered actions labels each with the candidates it
// descends from (64-bit masks, the first 64 candidates); the first candidate whose waiting
// requesters all descend from it is free to fire (they could not run before it anyway). Else the
// oldest. Cost O(|A| + |E|) per call; calls happen at most once per looping variable.
ActionId TopoPlanner::pick_deferred(TopoScratch& s, std::span<const ValueId> s0, int32_t dh,
                                    int32_t dt, int32_t qt) const {
  constexpr int32_t kMaxCandidates = 64;
  ActionId cand[kMaxCandidates];
  int32_t nc = 0;
  for (int32_t i = dh; i < dt && nc < kMaxCandidates; ++i) {
    const ActionId a = s.deferred_[i];
    if (s.state_[a] != kDeferred || s.indeg_[a] != 0) continue;
    bool dup = false;
    for (int32_t j = 0; j < nc; ++j) dup = dup || cand[j] == a;
    if (!dup) cand[nc++] = a;
  }
  if (nc <= 1) return cand[0];
  for (int32_t i = 0; i < s.num_used_; ++i) {
    const ActionId a = s.used_[i];
    s.tmp_indeg_[a] = s.indeg_[a];
    s.mask_[a] = 0;
  }
  int32_t t = qt;
  for (int32_t j = 0; j < nc; ++j) {
    s.mask_[cand[j]] = uint64_t{1} << j;
    s.queue_[t++] = cand[j];
  }
  for (int32_t h = qt; h < t; ++h) {
    const ActionId x = s.queue_[h];
    for (int32_t e = s.head_[x]; e >= 0; e = s.edge_next_[e]) {
      const ActionId to = s.edge_to_[e];
      s.mask_[to] |= s.mask_[x];
      if (--s.tmp_indeg_[to] == 0) s.queue_[t++] = to;
    }
  }
  // Free: every waiting requester descends from cand[j]. Bad: a waiting requester that is itself
  // a candidate reaches the action restoring s0[w], so sending it late closes a cycle.
  int32_t not_bad = -1;
  for (int32_t j = 0; j < nc; ++j) {
    const VarId w = act_var_[cand[j]];
    const ActionId restore = producer_[slot(w, s0[w])];
    bool free_to_fire = true;
    bool bad = false;
    for (int32_t k = s.disj_head_[w]; k >= 0; k = s.disj_next_[k]) {
      const ActionId b = s.disj_action_[k];
      if (s.state_[b] == kDone) continue;
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
bool TopoPlanner::order(TopoScratch& s, std::span<const ValueId> s0,
                        std::span<ActionId> out) const {
  const Domain& d = *domain_;
  int32_t qh = 0;
  int32_t qt = 0;
  int32_t dh = 0;
  int32_t dt = 0;
  int32_t n = 0;
  // f_w of v when `a` leaves the first epoch of s0[v] on a looping walk.
  auto first_of_long = [&](ActionId a) -> VarId {
    const VarId v = act_var_[a];
    return s.long_walk_[v] && act_pre_[a] == s0[v] && a != s.sigma_first_[v] ? v : -1;
  };
  auto make_ready = [&](ActionId a) {
    const VarId v = first_of_long(a);
    if (v >= 0 && s.pending_disj_[v] > 0) {
      s.state_[a] = kDeferred;
      s.deferred_[dt++] = a;
    } else {
      s.state_[a] = kQueued;
      s.queue_[qt++] = a;
    }
  };
  auto fire = [&](ActionId a) {
    s.state_[a] = kDone;
    out[n++] = a;
    for (int32_t e = s.head_[a]; e >= 0; e = s.edge_next_[e]) {
      const ActionId to = s.edge_to_[e];
      if (--s.indeg_[to] == 0) make_ready(to);
    }
    for (const Fact& f : d.prevail(a)) {  // a ran in the first epoch of s0[w]
      const VarId w = f.var;
      if (!s.long_walk_[w] || f.value != s0[w]) continue;
      const ActionId fw = producer_[slot(w, cycle_next_[slot(w, s0[w])])];
      if (s.state_[fw] == kDone) continue;
      if (--s.pending_disj_[w] == 0 && s.state_[fw] == kDeferred && s.indeg_[fw] == 0) {
        s.state_[fw] = kQueued;
        s.queue_[qt++] = fw;
      }
    }
  };

  for (int32_t i = 0; i < s.num_used_; ++i)
    if (s.indeg_[s.used_[i]] == 0) make_ready(s.used_[i]);
  while (true) {
    if (qh < qt) {
      const ActionId a = s.queue_[qh++];
      if (s.state_[a] == kQueued) fire(a);
      continue;
    }
    // Nothing ready: fire a deferred f_w; its waiting requesters go late (after the action
    // restoring s0[w]). Prefer an f_w all of whose waiting requesters descend from f_w anyway.
    while (dh < dt && (s.state_[s.deferred_[dh]] != kDeferred || s.indeg_[s.deferred_[dh]] != 0))
      ++dh;
    if (dh == dt) break;
    const ActionId f = pick_deferred(s, s0, dh, dt, qt);
    const VarId w = act_var_[f];
    const ActionId restore = producer_[slot(w, s0[w])];
    for (int32_t k = s.disj_head_[w]; k >= 0; k = s.disj_next_[k]) {
      const ActionId b = s.disj_action_[k];
      if (s.state_[b] == kDone) continue;
      if (s.state_[b] == kQueued) s.state_[b] = kPending;  // (cannot happen: queue is empty)
      add_edge(s, restore, b);
      if (s.sigma_first_[w] >= 0) add_edge(s, b, s.sigma_first_[w]);
    }
    s.pending_disj_[w] = 0;
    fire(f);
  }
  if (n != s.num_used_) {
    // Name one action left in a cycle.
    ActionId stuck = -1;
    for (int32_t i = 0; i < s.num_used_ && stuck < 0; ++i)
      if (s.state_[s.used_[i]] != kDone) stuck = s.used_[i];
    return fail(s, TopoFailure::kOrderingCycle, stuck >= 0 ? act_var_[stuck] : -1, -1, stuck);
  }
  return true;
}

bool TopoPlanner::self_check(TopoScratch& s, std::span<const ValueId> s0,
                             std::span<const ValueId> goal, std::span<const ActionId> plan) const {
  const Domain& d = *domain_;
  std::copy(s0.begin(), s0.end(), s.sim_.begin());
  for (const ActionId a : plan) {
    if (s.sim_[act_var_[a]] != act_pre_[a]) return false;
    for (const Fact& f : d.prevail(a))
      if (s.sim_[f.var] != f.value) return false;
    s.sim_[act_var_[a]] = act_post_[a];
  }
  for (size_t v = 0; v < goal.size(); ++v)
    if (goal[v] != kUndefined && s.sim_[v] != goal[v]) return false;
  return true;
}

std::string TopoPlanner::explain(const TopoScratch& s) const {
  const Domain& d = *domain_;
  const VarId v = s.failure_var();
  const ValueId x = s.failure_value();
  const ActionId a = s.failure_action();
  auto var_value = [&]() {
    if (v < 0) return std::string("?");
    if (x < 0 || x >= d.domain_size(v)) return d.variable_name(v);
    return d.variable_name(v) + "=" + d.value_name(v, x);
  };
  auto by = [&]() { return a >= 0 ? " (needed by '" + d.action_name(a) + "')" : std::string(); };
  switch (s.failure()) {
    case TopoFailure::kNone:
      return "";
    case TopoFailure::kBadInput:
      return "topo: state size or value out of range";
    case TopoFailure::kBufferTooSmall:
      return "topo: output buffer too small";
    case TopoFailure::kPartialGoal:
      return "topo: the goal leaves '" + d.variable_name(v) + "' free but " + var_value() +
             " is requested" + by() + "; ℙ needs a total goal here";
    case TopoFailure::kGoalUnreachable:
      return "topo: no sequence of actions takes " + var_value() + " from its initial value";
    case TopoFailure::kPrevailUnreachable:
      return "topo: " + var_value() + by() + " cannot be reached on the way to the goal";
    case TopoFailure::kNeedsRepeat:
      return "topo: reaching " + var_value() + by() +
             " needs an action twice (no plan with each action once)";
    case TopoFailure::kOrderingCycle:
      return "topo: the needed actions cannot be ordered (cycle through '" +
             (a >= 0 ? d.action_name(a) : std::string("?")) + "')";
    case TopoFailure::kSelfCheck:
      return "topo: internal error: the plan failed re-simulation";
  }
  return "";
}

}  // namespace topoplan
