// ℙ's construction (cold): the checks of its class, the views of the compiled set's indexes,
// the cycles of the domain-action graphs, and scratch sizing.
#include <cassert>
#include <string>
#include <utility>

#include "internal.h"

namespace topoplan {

namespace {
Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}
}  // namespace

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
  p.init(set, structural_class);
  return p;
}

// The tables of ℙ over `set` (unary; post-unique unless the producers are replaced by
// restrict_to): everything but the class checks.
void TopoPlanner::init(const CompiledActionSet& set, StructuralClass structural_class) {
  const Domain& domain = set.domain();
  const int32_t m = domain.num_variables();
  const int32_t na = domain.num_actions();
  TopoPlanner& p = *this;
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

  // Mixed-radix weights of the state code (the self-check's goal test): injective on states when
  // the product of the domain sizes stays within 2^31.
  p.var_weight_.assign(static_cast<size_t>(m), 0);
  uint64_t product = 1;
  p.state_code_ = true;
  for (VarId v = 0; v < m; ++v) {
    p.var_weight_[static_cast<size_t>(v)] = static_cast<uint32_t>(product);
    product *= static_cast<uint64_t>(domain.domain_size(v));
    if (product > (uint64_t{1} << 31)) {
      p.state_code_ = false;
      product = 1;  // weights are unused then; keep the product bounded
    }
  }
  // Without an injective code the difference starts at 1 and never moves (weights 0), so the
  // sort's one test of "anything wrong" sends every plan to the goal scan.
  p.code_start_ = p.state_code_ ? 0 : 1;
  if (!p.state_code_) p.var_weight_.assign(static_cast<size_t>(m), 0);
  p.act_info_.assign(static_cast<size_t>(na),
                     TopoPlanner::ActInfo{-1, -1, -1, 0, 0, 0, 0, 0, 0, 0});
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
    // Undefined pre-conditions never reach the fast path's sort (general_only_).
    if (ai.pre != kUndefined)
      ai.code_delta = (static_cast<uint32_t>(ai.post) - static_cast<uint32_t>(ai.pre)) *
                      p.var_weight_[static_cast<size_t>(ai.var)];
  }
  p.find_cycles(slots, m);
  p.var_info_.assign(static_cast<size_t>(m), TopoPlanner::VarInfo{0, 0, 0, 0});
  for (VarId v = 0; v < m; ++v)
    p.var_info_[static_cast<size_t>(v)] = {
        p.value_offset_[v], static_cast<uint32_t>(p.value_offset_[v + 1] - p.value_offset_[v]),
        p.var_weight_[static_cast<size_t>(v)], 0};
  p.walk_step_.assign(static_cast<size_t>(slots), TopoPlanner::WalkStep{-1, -1});
  for (int32_t k = 0; k < slots; ++k) {
    const ActionId a = p.producer_[k];
    if (a >= 0) p.walk_step_[static_cast<size_t>(k)] = {a, p.act_info_[static_cast<size_t>(a)].pre};
  }
  p.shape_ = static_cast<uint64_t>(na) << 32 | static_cast<uint32_t>(slots);
}

Result<TopoPlanner> TopoPlanner::create_restrictable(const CompiledActionSet& set) {
  const Domain& domain = set.domain();
  for (const ActionId a : set.actions())
    if (domain.effects(a).size() != 1)
      return error_of("topo: action '" + domain.action_name(a) + "' is not unary (" +
                      std::to_string(domain.effects(a).size()) + " effects)");
  TopoPlanner p;
  p.init(set, StructuralClass::kNone);
  // No subset chosen yet: no producers (restrict_to sets them).
  p.own_producer_.assign(static_cast<size_t>(set.num_slots()), -1);
  p.producer_ = p.own_producer_;
  p.walk_step_.assign(p.walk_step_.size(), TopoPlanner::WalkStep{-1, -1});
  p.find_cycles(set.num_slots(), domain.num_variables());
  return p;
}

bool TopoPlanner::restrict_to(std::span<const uint8_t> action_mask) {
  const int32_t slots = value_offset_.back();
  own_producer_.assign(static_cast<size_t>(slots), -1);
  producer_ = own_producer_;  // (a copy's span still names the original's table)
  bool undefined_pre = false;
  bool post_unique = true;
  for (const ActionId a : set_.actions()) {
    if (action_mask[static_cast<size_t>(a)] == 0) continue;
    const ActInfo& ai = act_info_[static_cast<size_t>(a)];
    ActionId& prod = own_producer_[static_cast<size_t>(ai.post_slot)];
    post_unique = post_unique && prod < 0;
    prod = a;
    undefined_pre = undefined_pre || ai.pre == kUndefined;
  }
  if (!post_unique) own_producer_.assign(static_cast<size_t>(slots), -1);
  general_only_ = undefined_pre;
  for (int32_t k = 0; k < slots; ++k) {
    const ActionId a = own_producer_[static_cast<size_t>(k)];
    walk_step_[static_cast<size_t>(k)] =
        a >= 0 ? WalkStep{a, act_info_[static_cast<size_t>(a)].pre} : WalkStep{-1, -1};
  }
  find_cycles(slots, static_cast<int32_t>(value_offset_.size()) - 1);
  return post_unique;
}

// Cycles of the functional graphs x → parent(x) = pre(producer(x)): every value has at most one
// parent, so each weakly connected part holds at most one cycle. Colour walk per variable.
void TopoPlanner::find_cycles(int32_t slots, int32_t m) {
  const Domain& domain = *domain_;
  TopoPlanner& p = *this;
  p.cycle_id_.assign(static_cast<size_t>(slots), -1);
  p.cycle_next_.assign(static_cast<size_t>(slots), -1);
  auto pre_of = [&](ActionId a) { return p.act_info_[static_cast<size_t>(a)].pre; };
  std::vector<int32_t>& mark = p.cycle_mark_;  // 0 new, k>0 visited in walk k
  mark.assign(static_cast<size_t>(slots), 0);
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
  s.shape_ = static_cast<uint64_t>(na) << 32 | static_cast<uint32_t>(slots);
  assert(s.shape_ == shape_);
  s.act_.assign(na, TopoScratch::ActRec{0, 0});
  s.act_sort_.assign(na, TopoScratch::ActSort{-1, detail::kPending});
  s.tmp_indeg_.assign(na, 0);
  s.mask_.assign(na, 0);
  s.slot_.assign(slots, TopoScratch::SlotRec{0, -1});
  s.sim_.assign(slots, 0);
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
  // Relaxed reachability proof (relax.cpp).
  s.relax_count_.assign(na, 0);
  s.relax_reached_.assign(slots, 0);
  s.relax_queue_.assign(slots, -1);
  return s;
}

}  // namespace topoplan
