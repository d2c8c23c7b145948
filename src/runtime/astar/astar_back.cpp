// Regressive GOAP A*: see include/topoplan/runtime/astar_back.h for the design.
//
// Admissibility (and consistency) of the heuristic
// ------------------------------------------------
// A node is a subgoal G; the cost still to pay from G is h*(G) = the cheapest plan leading
// the initial state s0 to some state satisfying G (the regression chain from G down to a
// subgoal s0 satisfies is exactly such a plan, read forward). Take any such plan π and a
// variable v defined in G. The actions of π that change v, in order, form a walk in v's
// domain-transition graph from s0[v] to G[v]: an action with pre p on v moves p -> post (and
// p is the current value, or the action would not apply); an action with pre u moves any
// value -> post. Dropping prevail-conditions only adds walks. So, with non-negative costs,
//   cost(π) ≥ cost(actions of π changing v) ≥ d_v(s0[v], G[v]),
// hence h_max(G) = max_v d_v(s0[v], G[v]) ≤ h*(G). When every action is unary, the sets of
// actions changing different variables are disjoint, so cost(π) ≥ Σ_v d_v(s0[v], G[v]) and
// the sum is admissible too. With several effects per action the sum could count one action
// twice, so the max is used then.
// Consistency: let G' be the regression of G through a. A variable defined in G and not
// changed by a keeps its value in G' (a prevail on it must agree). An effect variable v with
// G[v] = post gets G'[v] = pre, and d_v(s0[v], post) ≤ d_v(s0[v], pre) + c(a) (a is an edge
// pre -> post), or ≤ c(a) when pre = u (a is an edge s0[v] -> post). G' may define more
// variables, which only adds non-negative terms. So h(G) ≤ c(a) + h(G') for max, and for the
// sum when a is unary (one term changes). A* therefore never needs to reopen a closed node;
// the search still handles a cheaper path to a known node (re-push, lazy deletion).
#include "topoplan/runtime/astar_back.h"

#include <algorithm>
#include <limits>
#include <string>

#include "runtime/astar/cold_plan.h"
#include "runtime/astar/planner_common.h"

namespace topoplan {

namespace {

constexpr int64_t kInf = kInfiniteCost;
constexpr int64_t kMaxTableEntries = int64_t{1} << 20;

// Top bit of each field of x set iff the field is non-zero. `lo` holds the bits below each
// field's top bit, `hi` the top bits. SWAR: adding `lo` to the low bits carries into the top
// bit iff one of them is set, and never out of the field.
uint64_t nonzero(uint64_t x, uint64_t lo, uint64_t hi) {
  return (((x & lo) + lo) | x) & hi;
}

}  // namespace

BackAStarPlanner::BackAStarPlanner(const Domain& domain) : GoapSearchPlanner(domain) {
  const int32_t m = domain.num_variables();
  const int32_t na = domain.num_actions();
  // Fields of bit_width(n) bits hold 0 (free) .. n (value n - 1); none straddles a word.
  fields_ = BitFields(domain, 1);
  words_ = std::max(1, fields_.num_words());
  const auto W = static_cast<size_t>(words_);
  low_.assign(W, 0);
  high_.assign(W, 0);
  for (VarId v = 0; v < m; ++v) {
    const BitFields::Field& s = fields_.field(v);
    const uint64_t top = (s.mask >> 1) + 1;  // the field's top bit, unshifted
    high_[static_cast<size_t>(s.word)] |= top << s.shift;
    low_[static_cast<size_t>(s.word)] |= (top - 1) << s.shift;
  }

  // Regression ops per action, one per word it touches.
  std::vector<Op> per_word(W);
  op_offset_.push_back(0);
  for (ActionId a = 0; a < na; ++a) {
    for (size_t w = 0; w < W; ++w) per_word[w] = Op{static_cast<int32_t>(w), 0, 0, 0, 0};
    auto put = [&](VarId v, uint64_t need, uint64_t next, bool effect) {
      const BitFields::Field& s = fields_.field(v);
      Op& op = per_word[static_cast<size_t>(s.word)];
      op.touched |= s.mask << s.shift;
      op.need |= need << s.shift;
      op.next |= next << s.shift;
      if (effect) op.effect |= s.mask << s.shift;
    };
    for (const Effect& e : domain.effects(a))
      put(e.var, static_cast<uint64_t>(e.post) + 1,
          e.pre == kUndefined ? 0 : static_cast<uint64_t>(e.pre) + 1, true);
    for (const Fact& f : domain.prevail(a))
      put(f.var, static_cast<uint64_t>(f.value) + 1, static_cast<uint64_t>(f.value) + 1, false);
    for (const Op& op : per_word)
      if (op.touched != 0) ops_.push_back(op);
    op_offset_.push_back(static_cast<int32_t>(ops_.size()));
  }

  // Domain-transition graphs, and where each variable's heuristic terms live.
  dtg_offset_.assign(static_cast<size_t>(m) + 1, 0);
  for (ActionId a = 0; a < na; ++a)
    for (const Effect& e : domain.effects(a)) ++dtg_offset_[static_cast<size_t>(e.var) + 1];
  for (size_t i = 1; i < dtg_offset_.size(); ++i) dtg_offset_[i] += dtg_offset_[i - 1];
  dtg_.resize(static_cast<size_t>(dtg_offset_.back()));
  {
    std::vector<int32_t> fill(dtg_offset_.begin(), dtg_offset_.end() - 1);
    for (ActionId a = 0; a < na; ++a)
      for (const Effect& e : domain.effects(a))
        dtg_[static_cast<size_t>(fill[static_cast<size_t>(e.var)]++)] = DtgEdge{a, e.pre, e.post};
  }
  table_offset_.assign(static_cast<size_t>(m) + 1, 0);
  field_offset_.assign(static_cast<size_t>(m) + 1, 0);
  for (VarId v = 0; v < m; ++v) {
    const int64_t n = domain.domain_size(v);
    table_offset_[static_cast<size_t>(v) + 1] = table_offset_[static_cast<size_t>(v)] + n * n;
    field_offset_[static_cast<size_t>(v) + 1] =
        field_offset_[static_cast<size_t>(v)] + static_cast<int32_t>(n) + 1;
  }
  use_tables_ = table_offset_.back() <= kMaxTableEntries;
  tables_.resize(static_cast<size_t>(domain.num_classes() + 1) * 2);
  hfield_.assign(static_cast<size_t>(field_offset_.back()), 0);
  init_.assign(W, 0);
  scratch_.assign(W, 0);
  search_ = std::make_unique<BestFirstSearch>(words_);
}

BackAStarPlanner::~BackAStarPlanner() = default;
BackAStarPlanner::BackAStarPlanner(BackAStarPlanner&&) noexcept = default;
BackAStarPlanner& BackAStarPlanner::operator=(BackAStarPlanner&&) noexcept = default;

// Forward Dijkstra in v's transition graph: out[y] = cheapest way from `source` to y with the
// actions in `mask` (prevails ignored). O(n^2 + edges): domains are small.
void BackAStarPlanner::dist_from(VarId v, ValueId source, std::span<const uint8_t> mask,
                                 Objective objective, int64_t* out) {
  detail::value_dijkstra(domain_->domain_size(v), source, done_, out, [&](ValueId y) {
    for (int32_t i = dtg_offset_[static_cast<size_t>(v)];
         i < dtg_offset_[static_cast<size_t>(v) + 1]; ++i) {
      const DtgEdge& e = dtg_[static_cast<size_t>(i)];
      if (!mask[static_cast<size_t>(e.action)] || (e.pre != kUndefined && e.pre != y)) continue;
      const int64_t c =
          out[y] + (objective == Objective::kLength ? 1 : costs_[static_cast<size_t>(e.action)]);
      out[e.post] = std::min(out[e.post], c);
    }
  });
}

void BackAStarPlanner::prepare_heuristic(std::span<const ValueId> init, ClassId npc_class,
                                         Objective objective) {
  const Domain& d = *domain_;
  const auto mask = d.action_mask(npc_class);
  const int32_t m = d.num_variables();
  for (VarId v = 0; v < m; ++v) {
    const int32_t n = d.domain_size(v);
    int64_t* dst = hfield_.data() + field_offset_[static_cast<size_t>(v)];
    dst[0] = 0;  // free field
    const ValueId x = init[static_cast<size_t>(v)];
    if (use_tables_) {
      DistTable& t = tables_[table_index(npc_class, objective)];
      uint8_t& built = table_built(npc_class, objective);
      if (!built) {
        t.dist.assign(static_cast<size_t>(table_offset_.back()), kInf);
        for (VarId u = 0; u < m; ++u) {
          const int32_t nu = d.domain_size(u);
          for (ValueId s = 0; s < nu; ++s)
            dist_from(u, s, mask, objective,
                      t.dist.data() + table_offset_[static_cast<size_t>(u)] + int64_t{s} * nu);
        }
        built = 1;
      }
      const int64_t* src = t.dist.data() + table_offset_[static_cast<size_t>(v)] + int64_t{x} * n;
      std::copy(src, src + n, dst + 1);
    } else {
      dist_from(v, x, mask, objective, dst + 1);
    }
  }
}

int64_t BackAStarPlanner::heuristic(const uint64_t* g) const {
  const int32_t m = domain_->num_variables();
  int64_t h = 0;
  const bool sum = domain_->all_unary();
  for (VarId v = 0; v < m; ++v) {
    const auto f = static_cast<int32_t>(fields_.get(g, v));
    const int64_t x = hfield_[static_cast<size_t>(field_offset_[static_cast<size_t>(v)] + f)];
    if (x >= kInf) return kInf;
    h = sum ? h + x : std::max(h, x);
  }
  return h;
}

// The regression's states: packed subgoals, predecessors by the precompiled SWAR word ops.
struct BackAStarPlanner::SearchPolicy {
  static constexpr TieBreak kTieBreak = TieBreak::kDeeperFirst;
  static constexpr bool kRootIsInitialState = false;  // the root is the goal

  const BackAStarPlanner& planner;
  bool length;  // Objective::kLength: every step costs 1

  // s0 satisfies g: every non-zero field of g equals s0's.
  bool is_goal(const uint64_t* g) const {
    const BackAStarPlanner& p = planner;
    for (size_t w = 0; w < p.init_.size(); ++w)
      if ((nonzero(g[w], p.low_[w], p.high_[w]) &
           nonzero(g[w] ^ p.init_[w], p.low_[w], p.high_[w])) != 0)
        return false;
    return true;
  }
  int64_t heuristic(const uint64_t* g) const { return planner.heuristic(g); }

  template <typename Emit>
  bool expand(const uint64_t* g, uint64_t* child, Emit& emit) const {
    const BackAStarPlanner& p = planner;
    for (ActionId a : p.actions_) {
      const int32_t first = p.op_offset_[static_cast<size_t>(a)];
      const int32_t last = p.op_offset_[static_cast<size_t>(a) + 1];
      bool relevant = false, consistent = true;
      for (int32_t i = first; i < last; ++i) {
        const Op& op = p.ops_[static_cast<size_t>(i)];
        const uint64_t lo = p.low_[static_cast<size_t>(op.word)];
        const uint64_t hi = p.high_[static_cast<size_t>(op.word)];
        // A defined field that differs from the needed value: an effect would destroy an open
        // fact, or a prevail would ask for a second value.
        if ((nonzero(g[op.word] & op.touched, lo, hi) &
             nonzero((g[op.word] ^ op.need) & op.touched, lo, hi)) != 0) {
          consistent = false;
          break;
        }
        relevant |= (g[op.word] & op.effect) != 0;  // a defined effect field equals post + 1
      }
      if (!consistent || !relevant) continue;
      std::copy(g, g + p.words_, child);
      for (int32_t i = first; i < last; ++i) {
        const Op& op = p.ops_[static_cast<size_t>(i)];
        child[op.word] = (child[op.word] & ~op.touched) | op.next;
      }
      if (!emit(a, length ? 1 : p.costs_[static_cast<size_t>(a)])) return false;
    }
    return true;
  }
};

PlanStatus BackAStarPlanner::plan(std::span<const ValueId> init, std::span<const ValueId> goal,
                                  ClassId npc_class, const PlannerOptions& options,
                                  std::vector<ActionId>& out) {
  const Domain& d = *domain_;
  const int32_t m = d.num_variables();
  out.clear();
  last_ = {};

  prepare_heuristic(init, npc_class, options.objective);
  detail::available_actions(d, npc_class, actions_);
  std::fill(init_.begin(), init_.end(), 0);
  std::fill(scratch_.begin(), scratch_.end(), 0);
  for (VarId v = 0; v < m; ++v) {
    fields_.set(init_.data(), v, static_cast<uint64_t>(init[static_cast<size_t>(v)]) + 1);
    if (goal[static_cast<size_t>(v)] != kUndefined)
      fields_.set(scratch_.data(), v, static_cast<uint64_t>(goal[static_cast<size_t>(v)]) + 1);
  }

  // The chain from the subgoal s0 satisfies up to the goal is the plan in execution order.
  const SearchPolicy policy{*this, options.objective == Objective::kLength};
  return detail::run_search(*search_, policy, scratch_.data(), options.limits, out, last_);
}

PlanResult plan_astar_back(const Domain& domain, const Instance& instance,
                           const PlannerOptions& options) {
  return detail::plan_once<BackAStarPlanner>(
      domain, instance, options, "astar-back", "backward A*",
      "backward A* exhausted the subgoals regressable from the goal: no plan");
}

}  // namespace topoplan
