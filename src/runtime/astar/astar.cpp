// GOAP A*: see include/topoplan/runtime/astar.h for the design.
#include "topoplan/runtime/astar.h"

#include <algorithm>
#include <limits>

#include "runtime/astar/cold_plan.h"
#include "runtime/astar/planner_common.h"

namespace topoplan {

namespace {

constexpr int64_t kInf = kInfiniteCost;
// Full per-class distance tables are kept when they hold at most this many entries.
constexpr int64_t kMaxTableEntries = int64_t{1} << 20;

}  // namespace

AStarPlanner::AStarPlanner(const Domain& domain) : GoapSearchPlanner(domain), packer_(domain) {
  words_ = packer_.num_words();
  const int32_t m = domain.num_variables();
  const int32_t na = domain.num_actions();
  std::vector<uint64_t> mask(static_cast<size_t>(words_)), value(static_cast<size_t>(words_));
  std::vector<uint64_t> ones(static_cast<size_t>(words_));
  auto flush = [&](std::vector<int32_t>& offset, std::vector<Cond>& out) {
    for (int32_t w = 0; w < words_; ++w)
      if (mask[static_cast<size_t>(w)] != 0)
        out.push_back(Cond{w, mask[static_cast<size_t>(w)], value[static_cast<size_t>(w)]});
    offset.push_back(static_cast<int32_t>(out.size()));
  };
  // A mask with all bits of variable v set, in its word.
  auto var_bits = [&](VarId v, uint64_t* m_out) {
    std::fill(ones.begin(), ones.end(), 0);
    packer_.set(ones.data(), v, std::numeric_limits<ValueId>::max());
    for (int32_t w = 0; w < words_; ++w) m_out[w] |= ones[static_cast<size_t>(w)];
  };
  cond_offset_.push_back(0);
  eff_offset_.push_back(0);
  for (ActionId a = 0; a < na; ++a) {
    std::fill(mask.begin(), mask.end(), 0);
    std::fill(value.begin(), value.end(), 0);
    for (const Effect& e : domain.effects(a)) {
      if (e.pre == kUndefined) continue;
      var_bits(e.var, mask.data());
      packer_.set(value.data(), e.var, e.pre);
    }
    for (const Fact& f : domain.prevail(a)) {
      var_bits(f.var, mask.data());
      packer_.set(value.data(), f.var, f.value);
    }
    flush(cond_offset_, conds_);
    std::fill(mask.begin(), mask.end(), 0);
    std::fill(value.begin(), value.end(), 0);
    for (const Effect& e : domain.effects(a)) {
      var_bits(e.var, mask.data());
      packer_.set(value.data(), e.var, e.post);
    }
    flush(eff_offset_, effs_);
  }
  dist_offset_.resize(static_cast<size_t>(m) + 1, 0);
  for (VarId v = 0; v < m; ++v) {
    const int64_t n = domain.domain_size(v);
    dist_offset_[static_cast<size_t>(v) + 1] =
        dist_offset_[static_cast<size_t>(v)] + static_cast<int32_t>(n);
  }
  // Actions grouped by (variable, post value) for the backward Dijkstra.
  by_post_offset_.assign(static_cast<size_t>(dist_offset_.back()) + 1, 0);
  for (ActionId a = 0; a < na; ++a)
    for (const Effect& e : domain.effects(a))
      ++by_post_offset_[static_cast<size_t>(dist_offset_[static_cast<size_t>(e.var)] + e.post) + 1];
  for (size_t i = 1; i < by_post_offset_.size(); ++i) by_post_offset_[i] += by_post_offset_[i - 1];
  by_post_.resize(static_cast<size_t>(by_post_offset_.back()));
  {
    std::vector<int32_t> fill(by_post_offset_.begin(), by_post_offset_.end() - 1);
    for (ActionId a = 0; a < na; ++a)
      for (const Effect& e : domain.effects(a)) {
        const size_t slot = static_cast<size_t>(dist_offset_[static_cast<size_t>(e.var)] + e.post);
        by_post_[static_cast<size_t>(fill[slot]++)] = PostEdge{a, e.pre};
      }
  }
  int64_t table_entries = 0;
  for (VarId v = 0; v < m; ++v)
    table_entries += int64_t{domain.domain_size(v)} * domain.domain_size(v);
  use_tables_ = table_entries <= kMaxTableEntries;
  tables_.resize(static_cast<size_t>(domain.num_classes() + 1) * 2);
  goal_of_.assign(static_cast<size_t>(m), kUndefined);
  hgoal_.assign(static_cast<size_t>(dist_offset_.back()), 0);
  goal_mask_.assign(static_cast<size_t>(words_), 0);
  goal_value_.assign(static_cast<size_t>(words_), 0);
  scratch_.assign(static_cast<size_t>(words_), 0);
  search_ = std::make_unique<BestFirstSearch>(words_);
}

AStarPlanner::~AStarPlanner() = default;
AStarPlanner::AStarPlanner(AStarPlanner&&) noexcept = default;
AStarPlanner& AStarPlanner::operator=(AStarPlanner&&) noexcept = default;

// Backward Dijkstra in v's transition graph: out[x] = cheapest way from x to `target` using
// only the actions in `mask` (prevails ignored). O(n^2 + edges): domains are small.
void AStarPlanner::dist_to(VarId v, ValueId target, std::span<const uint8_t> mask,
                           Objective objective, int64_t* out) {
  const int32_t n = domain_->domain_size(v);
  const int32_t off = dist_offset_[static_cast<size_t>(v)];
  detail::value_dijkstra(n, target, done_, out, [&](ValueId y) {
    const size_t slot = static_cast<size_t>(off + y);
    for (int32_t i = by_post_offset_[slot]; i < by_post_offset_[slot + 1]; ++i) {
      const PostEdge& e = by_post_[static_cast<size_t>(i)];
      if (!mask[static_cast<size_t>(e.action)]) continue;
      const int64_t c =
          out[y] + (objective == Objective::kLength ? 1 : costs_[static_cast<size_t>(e.action)]);
      if (e.pre == kUndefined) {
        for (int32_t x = 0; x < n; ++x) out[x] = std::min(out[x], c);
      } else {
        out[e.pre] = std::min(out[e.pre], c);
      }
    }
  });
}

void AStarPlanner::prepare_heuristic(ClassId npc_class, Objective objective) {
  const Domain& d = *domain_;
  const auto mask = d.action_mask(npc_class);
  const int32_t m = d.num_variables();
  if (use_tables_) {
    DistTable& t = tables_[table_index(npc_class, objective)];
    uint8_t& built = table_built(npc_class, objective);
    if (!built) {
      int64_t total = 0;
      t.offset.assign(static_cast<size_t>(m) + 1, 0);
      for (VarId v = 0; v < m; ++v) {
        total += int64_t{d.domain_size(v)} * d.domain_size(v);
        t.offset[static_cast<size_t>(v) + 1] = total;
      }
      t.dist.assign(static_cast<size_t>(total), kInf);
      for (VarId v = 0; v < m; ++v) {
        const int32_t n = d.domain_size(v);
        for (ValueId y = 0; y < n; ++y)
          dist_to(v, y, mask, objective,
                  t.dist.data() + t.offset[static_cast<size_t>(v)] + int64_t{y} * n);
      }
      built = 1;
    }
    for (VarId v : goal_vars_) {
      const int32_t n = d.domain_size(v);
      const int64_t* src = t.dist.data() + t.offset[static_cast<size_t>(v)] +
                           int64_t{goal_of_[static_cast<size_t>(v)]} * n;
      std::copy(src, src + n, hgoal_.data() + dist_offset_[static_cast<size_t>(v)]);
    }
  } else {
    for (VarId v : goal_vars_)
      dist_to(v, goal_of_[static_cast<size_t>(v)], mask, objective,
              hgoal_.data() + dist_offset_[static_cast<size_t>(v)]);
  }
}

int64_t AStarPlanner::heuristic(const uint64_t* s) const {
  int64_t h = 0;
  if (domain_->all_unary()) {
    for (VarId v : goal_vars_) {
      const int64_t x =
          hgoal_[static_cast<size_t>(dist_offset_[static_cast<size_t>(v)] + packer_.get(s, v))];
      if (x >= kInf) return kInf;
      h += x;
    }
  } else {
    for (VarId v : goal_vars_)
      h = std::max(
          h, hgoal_[static_cast<size_t>(dist_offset_[static_cast<size_t>(v)] + packer_.get(s, v))]);
  }
  return h;
}

// The forward search's states: packed world states, successors by the precompiled word masks.
struct AStarPlanner::SearchPolicy {
  static constexpr TieBreak kTieBreak = TieBreak::kDeeperFirst;
  static constexpr bool kRootIsInitialState = true;

  const AStarPlanner& planner;
  bool length;  // Objective::kLength: every step costs 1

  bool is_goal(const uint64_t* s) const {
    for (size_t w = 0; w < planner.goal_mask_.size(); ++w)
      if ((s[w] & planner.goal_mask_[w]) != planner.goal_value_[w]) return false;
    return true;
  }
  int64_t heuristic(const uint64_t* s) const { return planner.heuristic(s); }

  template <typename Emit>
  bool expand(const uint64_t* s, uint64_t* child, Emit& emit) const {
    const AStarPlanner& p = planner;
    for (ActionId a : p.actions_) {
      bool applicable = true;
      for (int32_t i = p.cond_offset_[static_cast<size_t>(a)];
           i < p.cond_offset_[static_cast<size_t>(a) + 1]; ++i) {
        const Cond& c = p.conds_[static_cast<size_t>(i)];
        if ((s[c.word] & c.mask) != c.value) {
          applicable = false;
          break;
        }
      }
      if (!applicable) continue;
      std::copy(s, s + p.words_, child);
      for (int32_t i = p.eff_offset_[static_cast<size_t>(a)];
           i < p.eff_offset_[static_cast<size_t>(a) + 1]; ++i) {
        const Cond& e = p.effs_[static_cast<size_t>(i)];
        child[e.word] = (child[e.word] & ~e.mask) | e.value;
      }
      if (!emit(a, length ? 1 : p.costs_[static_cast<size_t>(a)])) return false;
    }
    return true;
  }
};

PlanStatus AStarPlanner::plan(std::span<const ValueId> init, std::span<const ValueId> goal,
                              ClassId npc_class, const PlannerOptions& options,
                              std::vector<ActionId>& out) {
  const Domain& d = *domain_;
  const auto W = static_cast<size_t>(words_);
  out.clear();
  last_ = {};

  // Goal: per-word masks for the test, the goal variables for the heuristic.
  goal_vars_.clear();
  std::fill(goal_mask_.begin(), goal_mask_.end(), 0);
  std::fill(goal_value_.begin(), goal_value_.end(), 0);
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId g = goal[static_cast<size_t>(v)];
    goal_of_[static_cast<size_t>(v)] = g;
    if (g == kUndefined) continue;
    goal_vars_.push_back(v);
    std::fill(scratch_.begin(), scratch_.end(), 0);
    packer_.set(scratch_.data(), v, std::numeric_limits<ValueId>::max());
    for (size_t w = 0; w < W; ++w) goal_mask_[w] |= scratch_[w];
    packer_.set(goal_value_.data(), v, g);
  }
  prepare_heuristic(npc_class, options.objective);

  // The class's actions (kept while the class stays the same: a planner serves one class).
  if (npc_class != actions_class_) {
    detail::available_actions(d, npc_class, actions_);
    actions_class_ = npc_class;
  }

  packer_.pack(init, scratch_.data());
  const SearchPolicy policy{*this, options.objective == Objective::kLength};
  return detail::run_search(*search_, policy, scratch_.data(), options.limits, out, last_);
}

PlanResult plan_astar(const Domain& domain, const Instance& instance,
                      const PlannerOptions& options) {
  return detail::plan_once<AStarPlanner>(domain, instance, options, "astar", "A*",
                                         "A* exhausted the reachable states: no plan exists");
}

}  // namespace topoplan
