// topoplan — the planning model.
//
// Design
// ------
// A planning domain in the SAS+ formalism (Bäckström 1992; Prévost et al. 2023 §3; Prévost et al.,
// SAS as Topological Sorting §2.1):
//   * state variables v_0 .. v_{m-1}, each with a finite domain of named values 0 .. |D_v|-1;
//   * actions with a name, a non-negative integer cost, one or more effects (var, pre, post) —
//     `pre` may be kUndefined as in SAS+ — and prevail-conditions on other variables;
//   * NPC classes: named subsets of the actions (a horse breeder and a blacksmith share one world
//     but not one action set).
// An Instance adds a total initial state, a goal (a partial state; total in the papers) and the
// NPC class that plans (or kAllActions).
// References: docs/references.md.
//
// A DomainDef is the editable, name-carrying description (what file readers produce and
// writers consume). Domain::compile() validates it once and produces an immutable Domain: flat
// contiguous arrays indexed by integer ids (CSR for effects, prevails and class members), which
// every planner reads without allocating. Unary actions (one effect) are the papers' case;
// actions with several effects are representable so that search-based planners run on any
// SAS+ task — they simply fall outside the SAS-PU classes.
#pragma once

#include <cassert>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "topoplan/runtime/result.h"

namespace topoplan {

using VarId = int32_t;
using ValueId = int32_t;
using ActionId = int32_t;
using ClassId = int32_t;

// "u" in the papers: no requirement (in a pre-condition, prevail or partial goal).
inline constexpr ValueId kUndefined = -1;
// Instance::npc_class value meaning "every action of the domain is available".
inline constexpr ClassId kAllActions = -1;

// Upper limits enforced by Domain::compile (and therefore by every reader). They bound the
// memory a file can make us allocate and keep ids in 32 bits.
inline constexpr int32_t kMaxVariables = 1 << 20;
inline constexpr int32_t kMaxDomainSize = 1 << 16;
inline constexpr int32_t kMaxActions = 1 << 24;
inline constexpr int64_t kMaxCost = int64_t{1} << 40;

struct Fact {
  VarId var = 0;
  ValueId value = 0;
  friend bool operator==(const Fact&, const Fact&) = default;
};

// One effect of an action: v[var] goes from `pre` (kUndefined: any value) to `post`.
struct Effect {
  VarId var = 0;
  ValueId pre = kUndefined;
  ValueId post = 0;
  friend bool operator==(const Effect&, const Effect&) = default;
};

struct VariableDef {
  std::string name;
  std::vector<std::string> values;  // value id = index
  friend bool operator==(const VariableDef&, const VariableDef&) = default;
};

struct ActionDef {
  std::string name;
  int64_t cost = 1;             // non-negative, at most kMaxCost
  std::vector<Effect> effects;  // at least one; distinct variables
  std::vector<Fact> prevail;    // distinct variables, none of them an effect variable
  friend bool operator==(const ActionDef&, const ActionDef&) = default;
};

struct NpcClassDef {
  std::string name;
  std::vector<ActionId> actions;  // distinct, in range
  friend bool operator==(const NpcClassDef&, const NpcClassDef&) = default;
};

struct DomainDef {
  std::string name;
  std::vector<VariableDef> variables;
  std::vector<ActionDef> actions;
  std::vector<NpcClassDef> classes;
  friend bool operator==(const DomainDef&, const DomainDef&) = default;
};

// A problem instance for one NPC: total initial state, partial goal, and its action set.
struct Instance {
  std::string name;                 // optional, for files that carry several instances
  std::vector<ValueId> init;        // one value per variable
  std::vector<ValueId> goal;        // one entry per variable, kUndefined = don't care
  ClassId npc_class = kAllActions;  // whose actions may be used
  friend bool operator==(const Instance&, const Instance&) = default;
};

// The compiled, immutable domain. Cheap to read from many threads at once.
class Domain {
 public:
  // Validates `def` (names, ranges, duplicates, limits) and compiles it. Errors name the
  // offending variable, value, action or class.
  static Result<Domain> compile(const DomainDef& def);

  Domain() = default;

  [[nodiscard]] const std::string& name() const { return name_; }

  // Variables and values.
  [[nodiscard]] int32_t num_variables() const { return static_cast<int32_t>(var_names_.size()); }
  [[nodiscard]] const std::string& variable_name(VarId v) const { return var_names_[check_var(v)]; }
  [[nodiscard]] int32_t domain_size(VarId v) const {
    return value_offset_[check_var(v) + 1] - value_offset_[v];
  }
  [[nodiscard]] const std::string& value_name(VarId v, ValueId x) const;
  [[nodiscard]] int32_t max_domain_size() const { return max_domain_size_; }

  // Actions.
  [[nodiscard]] int32_t num_actions() const { return static_cast<int32_t>(action_names_.size()); }
  [[nodiscard]] const std::string& action_name(ActionId a) const {
    return action_names_[check_action(a)];
  }
  [[nodiscard]] int64_t cost(ActionId a) const { return costs_[check_action(a)]; }
  [[nodiscard]] std::span<const Effect> effects(ActionId a) const {
    check_action(a);
    return {effects_.data() + effect_offset_[a],
            static_cast<size_t>(effect_offset_[a + 1] - effect_offset_[a])};
  }
  [[nodiscard]] std::span<const Fact> prevail(ActionId a) const {
    check_action(a);
    return {prevails_.data() + prevail_offset_[a],
            static_cast<size_t>(prevail_offset_[a + 1] - prevail_offset_[a])};
  }
  [[nodiscard]] bool is_unary(ActionId a) const { return effects(a).size() == 1; }
  // True when every action is unary.
  [[nodiscard]] bool all_unary() const { return all_unary_; }
  // True when every action costs 1 (plans are then "unit cost" in Fast Downward's terms).
  [[nodiscard]] bool unit_cost() const { return unit_cost_; }

  // NPC classes.
  [[nodiscard]] int32_t num_classes() const { return static_cast<int32_t>(class_names_.size()); }
  [[nodiscard]] const std::string& class_name(ClassId c) const {
    return class_names_[check_class(c)];
  }
  [[nodiscard]] std::span<const ActionId> class_actions(ClassId c) const {
    check_class(c);
    return {class_members_.data() + class_offset_[c],
            static_cast<size_t>(class_offset_[c + 1] - class_offset_[c])};
  }
  // Actions available to class `c` (kAllActions: every action) as a 0/1 mask of size
  // num_actions(). Precomputed; no allocation.
  [[nodiscard]] std::span<const uint8_t> action_mask(ClassId c) const;

  // Name lookups (exact match). std::nullopt when absent.
  [[nodiscard]] std::optional<VarId> find_variable(std::string_view name) const;
  [[nodiscard]] std::optional<ValueId> find_value(VarId v, std::string_view name) const;
  [[nodiscard]] std::optional<ActionId> find_action(std::string_view name) const;
  [[nodiscard]] std::optional<ClassId> find_class(std::string_view name) const;

  // Checks an instance against this domain (sizes, ranges, class id). The message names the
  // variable and value at fault.
  [[nodiscard]] std::optional<Error> check_instance(const Instance& instance) const;

  // Rebuilds the editable description (for writers and round trips). compile(to_def()) is
  // equal to *this.
  [[nodiscard]] DomainDef to_def() const;

 private:
  // Programmer errors (ids out of range) are asserts, as in Box2D; inline so accessors stay
  // as cheap as an array index in release builds.
  VarId check_var(VarId v) const {
    assert(v >= 0 && v < num_variables());
    return v;
  }
  ActionId check_action(ActionId a) const {
    assert(a >= 0 && a < num_actions());
    return a;
  }
  ClassId check_class(ClassId c) const {
    assert(c >= 0 && c < num_classes());
    return c;
  }

  std::string name_;
  std::vector<std::string> var_names_;
  std::vector<int32_t> value_offset_{0};  // size m+1; values of v at [off[v], off[v+1])
  std::vector<std::string> value_names_;
  int32_t max_domain_size_ = 0;

  std::vector<std::string> action_names_;
  std::vector<int64_t> costs_;
  std::vector<int32_t> effect_offset_{0};
  std::vector<Effect> effects_;
  std::vector<int32_t> prevail_offset_{0};
  std::vector<Fact> prevails_;
  bool all_unary_ = true;
  bool unit_cost_ = true;

  std::vector<std::string> class_names_;
  std::vector<int32_t> class_offset_{0};
  std::vector<ActionId> class_members_;
  std::vector<uint8_t> masks_;  // (num_classes + 1) * num_actions; row 0 = all actions

  std::unordered_map<std::string, VarId> var_index_;
  std::unordered_map<std::string, ActionId> action_index_;
  std::unordered_map<std::string, ClassId> class_index_;
};

// A task: a domain plus the instances a file carried (possibly none).
struct Task {
  Domain domain;
  std::vector<Instance> instances;

  // The first instance called `name` (exact match), or nullptr.
  [[nodiscard]] const Instance* find_instance(std::string_view name) const;
  // Its index in `instances`, or std::nullopt.
  [[nodiscard]] std::optional<int32_t> find_instance_index(std::string_view name) const;
};

// Formats a state or partial state with value names: "⟨haystack=none, bucket=none, ...⟩"
// (undefined entries are skipped; "⟨⟩" when all are undefined).
std::string format_state(const Domain& domain, std::span<const ValueId> state);

}  // namespace topoplan
