// topoplan — CompiledActionSet: the actions one NPC may use, indexed once for every planner.
//
// Design
// ------
// Every planner starts from the same question: which available action sets v = x (its
// producers), which ones need v = x to hold (its requesters), which ones leave v = x (its
// consumers), and what does each action cost. ℙ, Bäckström's 𝒫, the class analysis and the
// searches all need those indexes, so a CompiledActionSet builds them once per (Domain, NPC
// class or action mask) and every planner is created from it
// (planner.h, "one hot-planner contract").
//   * Value slots: one per (variable, value); slot(v, x) = offset(v) + x, as in Domain.
//   * Indexes are CSR arrays over slots listing available actions in ascending id.
//   * Costs are an overlay: with_costs() gives a set that shares the indexes (no recompilation)
//     and carries other costs — what ambiance (Sloan 2015, smart ambiance) changes per decision.
// Immutable after create(); copies are cheap (the indexes are shared); read it from any thread.
// The Domain must outlive every set made from it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

class CompiledActionSet {
 public:
  // The actions of `npc_class` (kAllActions: every action). Fails on a class id out of range.
  [[nodiscard]] static Result<CompiledActionSet> create(const Domain& domain,
                                                        ClassId npc_class = kAllActions);
  // The actions whose `action_mask` entry is non-zero (size num_actions()).
  [[nodiscard]] static Result<CompiledActionSet> create(const Domain& domain,
                                                        std::span<const uint8_t> action_mask);

  CompiledActionSet() = default;

  [[nodiscard]] const Domain& domain() const { return *domain_; }
  // The class the set was made for; kAllActions for every action or an explicit mask.
  [[nodiscard]] ClassId npc_class() const { return index_->npc_class; }
  // 0/1 per domain action.
  [[nodiscard]] std::span<const uint8_t> action_mask() const { return index_->mask; }
  [[nodiscard]] bool available(ActionId a) const {
    return index_->mask[static_cast<size_t>(a)] != 0;
  }
  // The available actions, ascending.
  [[nodiscard]] std::span<const ActionId> actions() const { return index_->actions; }
  [[nodiscard]] int32_t num_available() const {
    return static_cast<int32_t>(index_->actions.size());
  }
  // Every available action has exactly one effect.
  [[nodiscard]] bool all_unary() const { return index_->all_unary; }
  // No two available actions set the same variable to the same value.
  [[nodiscard]] bool post_unique() const { return index_->post_unique; }
  // Some available action has an effect with an undefined pre-condition.
  [[nodiscard]] bool has_undefined_pre() const { return index_->undefined_pre; }

  // Value slots.
  [[nodiscard]] int32_t num_slots() const { return index_->value_offset.back(); }
  [[nodiscard]] int32_t slot(VarId v, ValueId x) const {
    return index_->value_offset[static_cast<size_t>(v)] + x;
  }
  [[nodiscard]] std::span<const int32_t> value_offsets() const { return index_->value_offset; }
  [[nodiscard]] VarId slot_variable(int32_t slot) const {
    return index_->slot_var[static_cast<size_t>(slot)];
  }
  // Available actions with an effect setting the slot (post = x). At most one when
  // post_unique().
  [[nodiscard]] std::span<const ActionId> producers(int32_t slot) const {
    return row(index_->producer_offset, index_->producers, slot);
  }
  // Available actions with a prevail-condition on the slot.
  [[nodiscard]] std::span<const ActionId> requesters(int32_t slot) const {
    return row(index_->requester_offset, index_->requesters, slot);
  }
  // Available actions with an effect whose pre-condition is the slot (pre = x).
  [[nodiscard]] std::span<const ActionId> consumers(int32_t slot) const {
    return row(index_->consumer_offset, index_->consumers, slot);
  }
  // Per slot: its variable (slot_variable() for every slot at once).
  [[nodiscard]] std::span<const VarId> slot_variables() const { return index_->slot_var; }
  // Per slot: the only available action setting it, or -1 when none or several do. One load
  // per lookup, for hot loops that follow producers (post-unique planners).
  [[nodiscard]] std::span<const ActionId> sole_producers() const { return index_->sole_producer; }
  // The prevail-conditions of an action as value slots, in the domain's order (empty for an
  // unavailable action).
  [[nodiscard]] std::span<const int32_t> prevail_slots(ActionId a) const {
    return row(index_->prevail_offset, index_->prevail_slots, a);
  }
  // The CSR arrays behind requesters() (rows: slots) and prevail_slots() (rows: domain
  // actions), for hot loops that keep row offsets: row r is items[offset[r] .. offset[r + 1]).
  struct Csr {
    std::span<const int32_t> offset;
    std::span<const int32_t> items;
  };
  [[nodiscard]] Csr requester_index() const {
    return {index_->requester_offset, index_->requesters};
  }
  [[nodiscard]] Csr prevail_index() const {
    return {index_->prevail_offset, index_->prevail_slots};
  }

  // Costs (the overlay; the domain's costs unless with_costs() replaced them).
  [[nodiscard]] std::span<const int64_t> costs() const { return *costs_; }
  [[nodiscard]] int64_t cost(ActionId a) const { return (*costs_)[static_cast<size_t>(a)]; }
  // True when every available action costs 1.
  [[nodiscard]] bool unit_cost() const { return unit_cost_; }
  // The same set with `costs` (one per domain action, 0 .. kMaxCost). Shares the indexes.
  [[nodiscard]] Result<CompiledActionSet> with_costs(std::span<const int64_t> costs) const;

 private:
  struct Index {
    ClassId npc_class = kAllActions;
    std::vector<uint8_t> mask;
    std::vector<ActionId> actions;
    bool all_unary = true;
    bool post_unique = true;
    bool undefined_pre = false;
    std::vector<int32_t> value_offset;  // size m + 1
    std::vector<VarId> slot_var;
    std::vector<int32_t> producer_offset, requester_offset, consumer_offset;  // size slots + 1
    std::vector<ActionId> producers, requesters, consumers;
    std::vector<ActionId> sole_producer;  // per slot
    std::vector<int32_t> prevail_offset;  // size num_actions() + 1
    std::vector<int32_t> prevail_slots;
  };
  static std::span<const ActionId> row(const std::vector<int32_t>& offset,
                                       const std::vector<ActionId>& items, int32_t slot) {
    const auto s = static_cast<size_t>(slot);
    return {items.data() + offset[s], static_cast<size_t>(offset[s + 1] - offset[s])};
  }
  static Result<CompiledActionSet> build(const Domain& domain, std::span<const uint8_t> mask,
                                         ClassId npc_class);

  const Domain* domain_ = nullptr;
  std::shared_ptr<const Index> index_;
  std::shared_ptr<const std::vector<int64_t>> costs_;
  bool unit_cost_ = true;
};

}  // namespace topoplan
