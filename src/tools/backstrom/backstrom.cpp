// 𝒫: Bäckström's SAS+-PUS planner. See include/topoplan/tools/backstrom.h for the design.
#include "topoplan/tools/backstrom.h"

#include <algorithm>
#include <chrono>
#include <span>
#include <utility>

namespace topoplan {

Result<BackstromPlanner> BackstromPlanner::create(const Domain& domain, ClassId npc_class) {
  Result<CompiledActionSet> set = CompiledActionSet::create(domain, npc_class);
  if (!set.ok()) return set.error();
  return create(set.value());
}

Result<BackstromPlanner> BackstromPlanner::create(const CompiledActionSet& set) {
  const Domain& domain = set.domain();
  BackstromPlanner p;
  p.set_ = set;
  p.m_ = domain.num_variables();
  const auto m = static_cast<size_t>(p.m_);
  const auto slots = static_cast<size_t>(set.num_slots());
  const auto na = static_cast<size_t>(domain.num_actions());
  p.prevail_.assign(na * m, kUndefined);
  // SAS+-PUS, checked action by action (ascending) so the first offence is the one reported.
  std::vector<ValueId> single(m, kUndefined);
  std::vector<ActionId> single_by(m, -1);
  for (const ActionId a : set.actions()) {
    if (!domain.is_unary(a))
      return Error{"backstrom: action '" + domain.action_name(a) +
                       "' is not unary; 𝒫 needs SAS+-PUS (unary, post-unique, single-valued)",
                   {},
                   0};
    const Effect& e = domain.effects(a)[0];
    const ActionId prod = set.producers(set.slot(e.var, e.post)).front();  // the smallest id
    if (prod != a)
      return Error{"backstrom: actions '" + domain.action_name(prod) + "' and '" +
                       domain.action_name(a) + "' both set " + domain.variable_name(e.var) +
                       " to " + domain.value_name(e.var, e.post) +
                       " (not post-unique); 𝒫 needs SAS+-PUS",
                   {},
                   0};
    for (const Fact& f : domain.prevail(a)) {
      const auto w = static_cast<size_t>(f.var);
      if (single[w] != kUndefined && single[w] != f.value)
        return Error{"backstrom: " + domain.variable_name(f.var) + " is required at " +
                         domain.value_name(f.var, single[w]) + " by '" +
                         domain.action_name(single_by[w]) + "' and at " +
                         domain.value_name(f.var, f.value) + " by '" + domain.action_name(a) +
                         "' (not single-valued); 𝒫 needs SAS+-PUS",
                     {},
                     0};
      single[w] = f.value;
      single_by[w] = a;
      p.prevail_[static_cast<size_t>(a) * m + w] = f.value;
    }
  }
  p.request_.assign(m, kUndefined);
  p.seq_begin_.assign(m, 0);
  p.seq_len_.assign(m, 0);
  p.visit_pos_.assign(m, 0);
  for (VarId v = 0; v < p.m_; ++v) p.seq_begin_[static_cast<size_t>(v)] = 2 * set.slot(v, 0);
  p.seq_.assign(2 * slots, -1);
  p.scanned_.assign(na, 0);
  p.inst_base_.assign(m + 1, 0);
  return p;
}

bool BackstromPlanner::fail(std::string why) {
  message_ = std::move(why);
  return false;
}

// Walks back from `to` through the unique producers until the value `stop` (or an action whose
// pre-condition is undefined) and leaves the actions in execution order in walk_.
bool BackstromPlanner::walk(VarId v, ValueId stop, ValueId to) {
  walk_.clear();
  const Domain& d = set_.domain();
  const int32_t off = set_.slot(v, 0);
  const int32_t n = d.domain_size(v);
  ValueId y = to;
  while (y != stop) {
    const std::span<const ActionId> producers = set_.producers(off + y);  // P: at most one
    if (producers.empty())
      return fail("no action sets " + d.variable_name(v) + " to " + d.value_name(v, y));
    if (static_cast<int32_t>(walk_.size()) >= n)
      return fail("the chain of " + d.variable_name(v) + " towards " + d.value_name(v, to) +
                  " loops without reaching " + d.value_name(v, stop));
    const ActionId a = producers.front();
    walk_.push_back(a);
    y = d.effects(a)[0].pre;
    if (y == kUndefined) break;
  }
  std::reverse(walk_.begin(), walk_.end());
  return true;
}

// (Re)builds the chain of v from s0 through its requested value (if any) to its goal, and
// scans the prevail rows of the actions not scanned yet (phase 2).
bool BackstromPlanner::build(VarId v, std::span<const ValueId> init,
                             std::span<const ValueId> goal) {
  const auto vi = static_cast<size_t>(v);
  const ValueId s0 = init[vi], x = request_[vi], g = goal[vi];
  int32_t len = 0;
  ActionId* seq = seq_.data() + seq_begin_[vi];
  auto append = [&] {
    for (ActionId a : walk_) seq[len++] = a;
  };
  failed_var_ = v;
  if (x == kUndefined || x == s0) {
    if (g != kUndefined && g != s0) {
      failure_ = kDetailGoalUnreachable;
      if (!walk(v, s0, g)) return false;
      append();
    }
    visit_pos_[vi] = 0;
  } else {
    failure_ = kDetailPreconditionUnmet;
    if (!walk(v, s0, x)) return false;  // s0 → x
    append();
    visit_pos_[vi] = len;
    if (g != kUndefined && g != x) {  // x → goal
      failure_ = kDetailGoalUnreachable;
      if (!walk(v, x, g)) return false;
      append();
    }
  }
  seq_len_[vi] = len;
  failure_ = kDetailNone;
  failed_var_ = -1;
  const auto m = static_cast<size_t>(m_);
  for (int32_t k = 0; k < len; ++k) {
    const ActionId a = seq[k];
    if (scanned_[static_cast<size_t>(a)] == stamp_) continue;
    scanned_[static_cast<size_t>(a)] = stamp_;
    const ValueId* row = prevail_.data() + static_cast<size_t>(a) * m;
    for (size_t w = 0; w < m; ++w) {  // dense: all m variables, as 𝒫 does
      const ValueId want = row[w];
      if (want == kUndefined || request_[w] != kUndefined) continue;
      request_[w] = want;
      if (want != init[w]) worklist_.push_back(static_cast<VarId>(w));
    }
  }
  return true;
}

PlanStatus BackstromPlanner::plan(std::span<const ValueId> init, std::span<const ValueId> goal,
                                  std::vector<ActionId>& out) {
  out.clear();
  message_.clear();
  failure_ = kDetailNone;
  failed_var_ = -1;
  const auto m = static_cast<size_t>(m_);
  if (++stamp_ == 0) {
    std::fill(scanned_.begin(), scanned_.end(), 0);
    stamp_ = 1;
  }
  std::fill(request_.begin(), request_.end(), kUndefined);
  std::fill(seq_len_.begin(), seq_len_.end(), 0);
  std::fill(visit_pos_.begin(), visit_pos_.end(), 0);
  worklist_.clear();
  // Phase 1: the goal chains (which also start phase 2 through their prevail rows).
  for (VarId v = 0; v < m_; ++v) {
    const ValueId g = goal[static_cast<size_t>(v)];
    if (g != kUndefined && g != init[static_cast<size_t>(v)])
      if (!build(v, init, goal)) return PlanStatus::kUnsolvable;
  }
  // Phase 2: requested values the chains do not visit yet.
  while (!worklist_.empty()) {
    const VarId w = worklist_.back();
    worklist_.pop_back();
    if (!build(w, init, goal)) return PlanStatus::kUnsolvable;
  }
  // Phase 3: instances, orderings, topological sort.
  int32_t count = 0;
  for (size_t v = 0; v < m; ++v) {
    inst_base_[v] = count;
    count += seq_len_[v];
  }
  inst_base_[m] = count;
  if (count == 0) return PlanStatus::kSolved;
  inst_action_.resize(static_cast<size_t>(count));
  for (size_t v = 0; v < m; ++v)
    for (int32_t k = 0; k < seq_len_[v]; ++k)
      inst_action_[static_cast<size_t>(inst_base_[v] + k)] =
          seq_[static_cast<size_t>(seq_begin_[v] + k)];
  head_.assign(static_cast<size_t>(count), -1);
  indeg_.assign(static_cast<size_t>(count), 0);
  next_.clear();
  to_.clear();
  auto edge = [&](int32_t from, int32_t to) {
    next_.push_back(head_[static_cast<size_t>(from)]);
    to_.push_back(to);
    head_[static_cast<size_t>(from)] = static_cast<int32_t>(to_.size()) - 1;
    ++indeg_[static_cast<size_t>(to)];
  };
  for (size_t v = 0; v < m; ++v)
    for (int32_t k = 1; k < seq_len_[v]; ++k) edge(inst_base_[v] + k - 1, inst_base_[v] + k);
  for (int32_t b = 0; b < count; ++b) {
    const ValueId* row =
        prevail_.data() + static_cast<size_t>(inst_action_[static_cast<size_t>(b)]) * m;
    for (size_t w = 0; w < m; ++w) {  // dense again
      if (row[w] == kUndefined) continue;
      const int32_t pos = visit_pos_[w];
      if (pos > 0) edge(inst_base_[w] + pos - 1, b);        // after w becomes x
      if (pos < seq_len_[w]) edge(b, inst_base_[w] + pos);  // before w leaves x
    }
  }
  queue_.clear();
  for (int32_t i = 0; i < count; ++i)
    if (indeg_[static_cast<size_t>(i)] == 0) queue_.push_back(i);
  for (size_t q = 0; q < queue_.size(); ++q) {
    const int32_t i = queue_[q];
    out.push_back(inst_action_[static_cast<size_t>(i)]);
    for (int32_t e = head_[static_cast<size_t>(i)]; e >= 0; e = next_[static_cast<size_t>(e)])
      if (--indeg_[static_cast<size_t>(to_[static_cast<size_t>(e)])] == 0)
        queue_.push_back(to_[static_cast<size_t>(e)]);
  }
  if (static_cast<int32_t>(out.size()) != count) {
    out.clear();
    failure_ = kDetailOrderingCycle;
    message_ = "the chains cannot be ordered (cycle between prevail-conditions)";
    return PlanStatus::kUnsolvable;
  }
  return PlanStatus::kSolved;
}

PlanResult plan_backstrom(const Domain& domain, const Instance& instance,
                          const PlannerOptions& options) {
  (void)options;
  const auto start = std::chrono::steady_clock::now();
  PlanResult result;
  result.stats.engine = "backstrom";
  if (auto err = domain.check_instance(instance)) {
    result.status = PlanStatus::kGaveUp;
    result.message = err->to_string();
    return result;
  }
  auto planner = BackstromPlanner::create(domain, instance.npc_class);
  if (!planner.ok()) {
    result.status = PlanStatus::kUnsupported;
    result.message = planner.error().to_string();
    return result;
  }
  result.status = planner->plan(instance.init, instance.goal, result.actions);
  if (result.status == PlanStatus::kSolved)
    result.cost = plan_cost(domain, result.actions);
  else
    result.message = "backstrom: " + planner->message();
  result.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace topoplan
