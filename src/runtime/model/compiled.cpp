// topoplan — CompiledActionSet (include/topoplan/runtime/compiled.h).
#include "topoplan/runtime/compiled.h"

#include <string>
#include <utility>

namespace topoplan {

namespace {

// Builds a CSR (offset of size slots + 1, items) from (slot, action) pairs produced in
// ascending action order by `for_each_pair(emit)`; items stay in ascending action order.
template <class ForEachPair>
void build_csr(int32_t num_slots, ForEachPair&& for_each_pair, std::vector<int32_t>& offset,
               std::vector<ActionId>& items) {
  offset.assign(static_cast<size_t>(num_slots) + 1, 0);
  for_each_pair([&](int32_t slot, ActionId) { ++offset[static_cast<size_t>(slot) + 1]; });
  for (size_t s = 1; s < offset.size(); ++s) offset[s] += offset[s - 1];
  items.assign(static_cast<size_t>(offset.back()), 0);
  std::vector<int32_t> next(offset.begin(), offset.end() - 1);
  for_each_pair([&](int32_t slot, ActionId a) {
    items[static_cast<size_t>(next[static_cast<size_t>(slot)]++)] = a;
  });
}

}  // namespace

Result<CompiledActionSet> CompiledActionSet::create(const Domain& domain, ClassId npc_class) {
  if (npc_class != kAllActions && (npc_class < 0 || npc_class >= domain.num_classes())) {
    return Error{"NPC class " + std::to_string(npc_class) + " out of range (the domain has " +
                     std::to_string(domain.num_classes()) + " classes)",
                 {},
                 0};
  }
  return build(domain, domain.action_mask(npc_class), npc_class);
}

Result<CompiledActionSet> CompiledActionSet::create(const Domain& domain,
                                                    std::span<const uint8_t> action_mask) {
  if (std::cmp_not_equal(action_mask.size(), domain.num_actions())) {
    return Error{"action mask has " + std::to_string(action_mask.size()) +
                     " entries, the domain has " + std::to_string(domain.num_actions()) +
                     " actions",
                 {},
                 0};
  }
  return build(domain, action_mask, kAllActions);
}

Result<CompiledActionSet> CompiledActionSet::build(const Domain& domain,
                                                   std::span<const uint8_t> mask,
                                                   ClassId npc_class) {
  auto index = std::make_shared<Index>();
  index->npc_class = npc_class;
  index->mask.reserve(mask.size());
  for (const uint8_t m : mask) index->mask.push_back(m != 0 ? 1 : 0);
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (index->mask[static_cast<size_t>(a)] != 0) index->actions.push_back(a);
  }

  const int32_t m = domain.num_variables();
  index->value_offset.assign(static_cast<size_t>(m) + 1, 0);
  for (VarId v = 0; v < m; ++v) {
    index->value_offset[static_cast<size_t>(v) + 1] =
        index->value_offset[static_cast<size_t>(v)] + domain.domain_size(v);
  }
  const int32_t slots = index->value_offset.back();
  index->slot_var.resize(static_cast<size_t>(slots));
  for (VarId v = 0; v < m; ++v) {
    for (ValueId x = 0; x < domain.domain_size(v); ++x) {
      index->slot_var[static_cast<size_t>(index->value_offset[static_cast<size_t>(v)] + x)] = v;
    }
  }
  const auto slot_of = [&](VarId v, ValueId x) {
    return index->value_offset[static_cast<size_t>(v)] + x;
  };

  for (const ActionId a : index->actions) {
    const auto effects = domain.effects(a);
    if (effects.size() != 1) index->all_unary = false;
    for (const Effect& e : effects) {
      if (e.pre == kUndefined) index->undefined_pre = true;
    }
  }
  build_csr(
      slots,
      [&](auto&& emit) {
        for (const ActionId a : index->actions) {
          for (const Effect& e : domain.effects(a)) emit(slot_of(e.var, e.post), a);
        }
      },
      index->producer_offset, index->producers);
  build_csr(
      slots,
      [&](auto&& emit) {
        for (const ActionId a : index->actions) {
          for (const Fact& f : domain.prevail(a)) emit(slot_of(f.var, f.value), a);
        }
      },
      index->requester_offset, index->requesters);
  build_csr(
      slots,
      [&](auto&& emit) {
        for (const ActionId a : index->actions) {
          for (const Effect& e : domain.effects(a)) {
            if (e.pre != kUndefined) emit(slot_of(e.var, e.pre), a);
          }
        }
      },
      index->consumer_offset, index->consumers);
  index->sole_producer.assign(static_cast<size_t>(slots), -1);
  for (int32_t s = 0; s < slots; ++s) {
    const auto s_idx = static_cast<size_t>(s);
    const int32_t count = index->producer_offset[s_idx + 1] - index->producer_offset[s_idx];
    if (count > 1) index->post_unique = false;
    if (count == 1)
      index->sole_producer[s_idx] =
          index->producers[static_cast<size_t>(index->producer_offset[s_idx])];
  }
  index->prevail_offset.assign(static_cast<size_t>(domain.num_actions()) + 1, 0);
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    if (index->mask[static_cast<size_t>(a)] != 0) {
      for (const Fact& f : domain.prevail(a))
        index->prevail_slots.push_back(slot_of(f.var, f.value));
    }
    index->prevail_offset[static_cast<size_t>(a) + 1] =
        static_cast<int32_t>(index->prevail_slots.size());
  }

  CompiledActionSet set;
  set.domain_ = &domain;
  set.index_ = std::move(index);
  std::vector<int64_t> costs(static_cast<size_t>(domain.num_actions()));
  for (ActionId a = 0; a < domain.num_actions(); ++a)
    costs[static_cast<size_t>(a)] = domain.cost(a);
  Result<CompiledActionSet> costed = set.with_costs(costs);
  return costed;
}

Result<CompiledActionSet> CompiledActionSet::with_costs(std::span<const int64_t> costs) const {
  if (std::cmp_not_equal(costs.size(), domain_->num_actions())) {
    return Error{"cost overlay has " + std::to_string(costs.size()) + " entries, the domain has " +
                     std::to_string(domain_->num_actions()) + " actions",
                 {},
                 0};
  }
  for (size_t a = 0; a < costs.size(); ++a) {
    if (costs[a] < 0 || costs[a] > kMaxCost) {
      return Error{"cost of action '" + domain_->action_name(static_cast<ActionId>(a)) + "' is " +
                       std::to_string(costs[a]) + ", outside 0 .. " + std::to_string(kMaxCost),
                   {},
                   0};
    }
  }
  CompiledActionSet set = *this;
  set.costs_ = std::make_shared<const std::vector<int64_t>>(costs.begin(), costs.end());
  set.unit_cost_ = true;
  for (const ActionId a : index_->actions) {
    if (costs[static_cast<size_t>(a)] != 1) {
      set.unit_cost_ = false;
      break;
    }
  }
  return set;
}

}  // namespace topoplan
