// topoplan — the contract the forward and the regressive GOAP A* share (astar.h, astar_back.h).
//
// Both planners keep their search arrays and per-(NPC class, objective) heuristic tables inside
// the planner object and offer the same surface: plan from a state or an Instance, a cost
// overlay (set_costs / clear_costs / costs, and plan with the costs given at plan time), and the
// figures of the last call. GoapSearchPlanner<Derived> writes that surface once; a planner
// derives from it and provides
//     PlanStatus plan(std::span<const ValueId> init, std::span<const ValueId> goal,
//                     ClassId npc_class, const PlannerOptions& options,
//                     std::vector<ActionId>& out);
// (with `using GoapSearchPlanner<Derived>::plan;` so the overloads stay visible). The overloads
// reach it by a static cast (CRTP): no virtual call.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"

namespace topoplan {

// What the last plan() call of a search planner measured.
struct SearchFigures {
  int64_t cost = 0;       // objective value of the plan
  int64_t expanded = 0;   // nodes expanded
  int64_t generated = 0;  // nodes generated
};

template <class Derived>
class GoapSearchPlanner {
 public:
  [[nodiscard]] const Domain& domain() const { return *domain_; }

  // Plans `instance` (its init, goal and class) with the derived planner's plan().
  PlanStatus plan(const Instance& instance, const PlannerOptions& options,
                  std::vector<ActionId>& out) {
    return self().plan(instance.init, instance.goal, instance.npc_class, options, out);
  }

  // Cost overlay: plan with `costs` (one per action, each in [0, kMaxCost]) instead of the
  // Domain's costs until the next set_costs or clear_costs, without rebuilding the planner. When
  // the costs change, only the distance tables of Objective::kCost are re-derived, on the next
  // plan. Returns false, changing nothing, for a span of the wrong size or a cost out of range.
  // No allocation.
  bool set_costs(std::span<const int64_t> costs) {
    if (costs.size() != costs_.size()) return false;
    for (const int64_t c : costs)
      if (c < 0 || c > kMaxCost) return false;
    if (std::equal(costs.begin(), costs.end(), costs_.begin())) return true;
    std::copy(costs.begin(), costs.end(), costs_.begin());
    stale_cost_tables();
    return true;
  }
  // Back to the Domain's costs.
  void clear_costs() {
    bool changed = costs_.size() != static_cast<size_t>(domain_->num_actions());
    costs_.resize(static_cast<size_t>(domain_->num_actions()));
    for (ActionId a = 0; a < domain_->num_actions(); ++a) {
      changed |= costs_[static_cast<size_t>(a)] != domain_->cost(a);
      costs_[static_cast<size_t>(a)] = domain_->cost(a);
    }
    if (changed) stale_cost_tables();
  }
  [[nodiscard]] std::span<const int64_t> costs() const { return costs_; }
  // set_costs(costs), then plan; kGaveUp (and `out` cleared) when the costs are refused.
  PlanStatus plan(std::span<const ValueId> init, std::span<const ValueId> goal, ClassId npc_class,
                  std::span<const int64_t> costs, const PlannerOptions& options,
                  std::vector<ActionId>& out) {
    if (!set_costs(costs)) {
      out.clear();
      return PlanStatus::kGaveUp;
    }
    return self().plan(init, goal, npc_class, options, out);
  }

  // About the last call.
  [[nodiscard]] const SearchFigures& figures() const { return last_; }
  [[nodiscard]] int64_t last_cost() const { return last_.cost; }  // objective value of the plan
  [[nodiscard]] int64_t expanded() const { return last_.expanded; }
  [[nodiscard]] int64_t generated() const { return last_.generated; }

 protected:
  // Starts with the Domain's costs and no table built.
  explicit GoapSearchPlanner(const Domain& domain)
      : domain_(&domain), built_(static_cast<size_t>(domain.num_classes() + 1) * 2, 0) {
    clear_costs();
  }

  // Whether the heuristic table of (npc_class, objective) is built; clear_costs and set_costs
  // reset the Objective::kCost ones when the costs change.
  [[nodiscard]] uint8_t& table_built(ClassId npc_class, Objective objective) {
    return built_[table_index(npc_class, objective)];
  }
  [[nodiscard]] size_t num_tables() const { return built_.size(); }
  [[nodiscard]] static size_t table_index(ClassId npc_class, Objective objective) {
    return static_cast<size_t>(npc_class + 1) * 2 + (objective == Objective::kLength ? 1 : 0);
  }

  const Domain* domain_;
  std::vector<int64_t> costs_;  // per action: the overlay, or the Domain's costs
  SearchFigures last_;

 private:
  Derived& self() { return static_cast<Derived&>(*this); }
  void stale_cost_tables() {
    for (size_t i = 0; i < built_.size(); i += 2) built_[i] = 0;
  }

  std::vector<uint8_t> built_;  // per (class + 1) * 2 + is_length
};

}  // namespace topoplan
