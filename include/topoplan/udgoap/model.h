// topoplan::udgoap — the UDGOAP model (Sloan 2015, chapter 3): facts, smart objects, actions,
// world effects, drives, goals and utility.
// References: docs/references.md.
//
// Design
// ------
// A World is what one planning NPC (the agent) knows and can do:
//   * entities (smart objects and NPCs) with tags, the actions each one supplies and consumes;
//   * facts (entity, attribute, value, timestamp) with the bounds [min, max] used to normalise
//     them; entity properties are read-only design constants (damage, ranges, potion strength);
//     every entity has an implicit `exists` fact (1) that effects may clear;
//   * actions with graded preconditions and effects written against roles (consumer = the agent,
//     supplier = the smart object the action is applied to); their keys (role × attribute ×
//     increase|decrease|change) are derived from the operation, as in the thesis's
//     `supplier_health_decrease`;
//   * world-effect generators: triggers + effects, optionally instantiated for every entity with
//     a tag (`target`), applied to equilibrium after an action during simulation;
//   * drives with goal generators (trigger → goal template), removal triggers and a weight; goals
//     with conditions evaluated by response curves; a top-level utility over drive satisfactions.
// Everything is plain data with integer ids; names are kept for traces and files. The model is
// a cold path (tools, one agent at a time): it allocates freely but never throws.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "topoplan/runtime/result.h"

namespace topoplan::udgoap {

using EntityId = int32_t;
using AttributeId = int32_t;
using ActionIndex = int32_t;
using SlotId = int32_t;  // index of a fact in World::facts (and in every simulated state)

inline constexpr EntityId kNoEntity = -1;
inline constexpr SlotId kNoSlot = -1;

// ---------------------------------------------------------------------------------------------
// Values: a number, or a 3-vector (positions).
struct Value {
  double x = 0.0;
  double y = 0.0;
  double z = 0.0;
  bool is_vector = false;

  static Value number(double v) { return Value{v, 0.0, 0.0, false}; }
  static Value vec3(double a, double b, double c) { return Value{a, b, c, true}; }
  friend bool operator==(const Value&, const Value&) = default;
};
// Euclidean distance; numbers are points on a line.
[[nodiscard]] double distance(const Value& a, const Value& b);
[[nodiscard]] std::string format_value(const Value& v);

// ---------------------------------------------------------------------------------------------
// Response curves (Alexander 2002; the thesis names them but gives no formulas). Input x is a
// normalised value in [0, 1]; the output is clamped to [0, 1]. With slope m, exponent k,
// x-shift c and y-shift b:
//   linear      m·(x−c) + b
//   polynomial  m·(x−c)^k + b        (x−c clamped at 0 when k is not an integer)
//   logistic    k / (1 + e^(−m·(x−c))) + b
//   logit       b + ln(z / (1−z)) / m,   z = clamp(x−c, 1e-6, 1−1e-6)
//   normal      m·e^(−k·(x−c)²) + b
//   sine        m·sin(π·k·(x−c)) + b
// The thesis's `linear` is linear with m=1 (identity); `inverse_linear` is m=−1, b=1.
enum class CurveType : uint8_t { kLinear, kPolynomial, kLogistic, kLogit, kNormal, kSine };

struct Curve {
  CurveType type = CurveType::kLinear;
  double slope = 1.0;
  double exponent = 1.0;
  double x_shift = 0.0;
  double y_shift = 0.0;

  static Curve linear() { return {}; }
  static Curve inverse_linear() { return {CurveType::kLinear, -1.0, 1.0, 0.0, 1.0}; }
  friend bool operator==(const Curve&, const Curve&) = default;
};
[[nodiscard]] double evaluate(const Curve& curve, double x);
// A curve's parameters are finite and within [-1e6, 1e6] (kCurveParamLimit); the Error names
// `where` and the parameter.
inline constexpr double kCurveParamLimit = 1e6;
[[nodiscard]] std::optional<Error> check(const Curve& curve, std::string_view where);
[[nodiscard]] std::string_view to_string(CurveType type);
[[nodiscard]] std::optional<CurveType> parse_curve_type(std::string_view name);
// (v − lo) / (hi − lo) clamped to [0, 1]; 0 when the range is empty or not finite.
[[nodiscard]] double normalise(double v, double lo, double hi);

// ---------------------------------------------------------------------------------------------
// Utility: goal completeness → drive satisfaction → state utility.
struct Weighted {
  double value = 0.0;   // completeness of a goal, or satisfaction of a drive, in [0, 1]
  double weight = 1.0;  // non-negative
};
// Normalised weighted completeness Σ w·c / Σ w. A drive without goals (or with zero total
// weight) has nothing left to want: satisfaction 1.
[[nodiscard]] double drive_satisfaction(std::span<const Weighted> goals);

enum class TopLevelKind : uint8_t {
  kWeightedMean,        // Σ w·s / Σ w over drives (1 when there are none)
  kLinearWithBadDeath,  // the weighted mean, but 0 when the death drive's satisfaction is 0
};
struct TopLevelUtility {
  TopLevelKind kind = TopLevelKind::kWeightedMean;
  int32_t death_drive = -1;  // index into the drive list passed in (kLinearWithBadDeath)
};
[[nodiscard]] double top_level_utility(const TopLevelUtility& fn, std::span<const Weighted> drives);

// ---------------------------------------------------------------------------------------------
// References, conditions, effects.
enum class Role : uint8_t {
  kConsumer,  // the agent (consumer of every action it plans; "self" in goal templates)
  kSupplier,  // the smart object the action is applied to
  kTarget,    // the entity a goal generator or world-effect generator was instantiated for
  kEntity,    // a named entity
};
struct Ref {
  Role role = Role::kConsumer;
  EntityId entity = kNoEntity;  // for Role::kEntity
  AttributeId attribute = 0;
  friend bool operator==(const Ref&, const Ref&) = default;
};
struct Operand {
  bool is_ref = false;
  Ref ref;
  Value literal;
};
enum class Direction : uint8_t { kIncrease, kDecrease, kChange };
[[nodiscard]] std::string_view to_string(Direction d);

enum class CompareOp : uint8_t {
  kLess,
  kLessEqual,
  kGreater,
  kGreaterEqual,
  kEqual,
  kNotEqual,
  kKnown,     // the fact exists
  kBelowMax,  // value < the fact's max
  kAboveMin,  // value > the fact's min
};

// A predicate with a satisfaction in [0, 1]; satisfied means 1. `fact OP rhs` on numbers is
// graded for ≥, > (how far from min toward the threshold) and ≤, < (how far from max toward it);
// every other form is 0 or 1. With `is_distance`, the left side is distance(fact, other) and
// the result is 0 or 1.
struct Condition {
  CompareOp op = CompareOp::kGreaterEqual;
  Ref fact;
  bool is_distance = false;
  Ref other;
  Operand rhs;
};
// The key direction a condition asks for: increase for ≥ > below_max known, decrease for ≤ <
// above_min, change otherwise (and for distances).
[[nodiscard]] Direction key_direction(const Condition& c);

enum class EffectOp : uint8_t { kAdd, kSubtract, kSet };
struct Effect {
  Ref target;
  EffectOp op = EffectOp::kSet;
  Operand amount;
};
[[nodiscard]] Direction key_direction(const Effect& e);

// ---------------------------------------------------------------------------------------------
// Smart objects and actions.
struct Action {
  std::string name;
  std::vector<Condition> preconditions;
  std::vector<Effect> effects;
  std::vector<int32_t> world_effects;  // indices into World::world_effects
};

struct WorldEffect {
  std::string name;
  std::string for_each;  // tag: one instance per entity carrying it (Role::kTarget); "" = once
  std::vector<Condition> triggers;  // all must hold (satisfaction 1)
  std::vector<Effect> effects;
  bool always = false;  // runs after every action, not only the actions that list it
};

struct Entity {
  std::string name;
  std::vector<std::string> tags;
  std::vector<ActionIndex> supplies;
  std::vector<ActionIndex> consumes;
  [[nodiscard]] bool has_tag(std::string_view tag) const;
};

enum class FactKind : uint8_t { kSensed, kProperty, kImplicit };
struct Fact {
  int32_t id = 0;  // 1-based, file order, for sensed facts; 0 otherwise
  EntityId entity = 0;
  AttributeId attribute = 0;
  Value value;
  double min = 0.0;
  double max = std::numeric_limits<double>::infinity();
  double timestamp = 0.0;
  FactKind kind = FactKind::kSensed;
};

// ---------------------------------------------------------------------------------------------
// Drives and goals.
struct GoalCondition {
  Ref fact;
  Direction direction = Direction::kIncrease;  // the key's change (for matching actions)
  Curve curve;
};
enum class Combine : uint8_t { kMean, kMin, kProduct };

struct GoalTemplate {
  std::string name;
  double weight = 1.0;
  std::vector<GoalCondition> conditions;  // at least one
  Combine combine = Combine::kMean;
  std::vector<Condition> removal;  // all must hold to remove the goal; empty = never
};
struct GoalGenerator {
  std::string name;
  std::string for_each;             // tag; "" = one goal without target
  std::vector<Condition> triggers;  // all must hold
  GoalTemplate goal;
};
struct Drive {
  std::string name;
  double weight = 1.0;
  std::vector<GoalGenerator> generators;
  std::vector<Condition> removal;  // all must hold to remove the drive; empty = never
};

// ---------------------------------------------------------------------------------------------
// Who a role refers to while evaluating a condition or applying an effect.
struct Binding {
  EntityId consumer = kNoEntity;
  EntityId supplier = kNoEntity;
  EntityId target = kNoEntity;
};

struct World {
  std::string name;
  std::vector<std::string> attributes;
  std::vector<Entity> entities;
  std::vector<Fact> facts;  // unique per (entity, attribute)
  std::vector<Action> actions;
  std::vector<WorldEffect> world_effects;
  std::vector<Drive> drives;
  TopLevelUtility utility;
  EntityId agent = kNoEntity;
  AttributeId death_attribute = -1;  // agent dead when this fact is ≤ its min; -1 = immortal

  // Name tables.
  AttributeId intern_attribute(std::string_view name);
  [[nodiscard]] std::optional<AttributeId> find_attribute(std::string_view name) const;
  [[nodiscard]] std::optional<EntityId> find_entity(std::string_view name) const;
  [[nodiscard]] std::optional<ActionIndex> find_action(std::string_view name) const;

  // Adds or replaces the fact (entity, attribute); returns its slot. Call reindex() after
  // editing `facts` directly.
  SlotId set_fact(const Fact& fact);
  void reindex();
  // Adds the implicit `exists` fact to entities without one; call once after building.
  void add_implicit_facts();
  [[nodiscard]] SlotId slot(EntityId e, AttributeId a) const;
  [[nodiscard]] SlotId resolve(const Ref& ref, const Binding& b) const;

  // Checks ids and ranges (every reference in range, agent set, weights ≥ 0).
  [[nodiscard]] std::optional<Error> check() const;

  // Initial values of every slot, in slot order.
  [[nodiscard]] std::vector<Value> initial_state() const;

  // Evaluation against a state (one Value per slot).
  [[nodiscard]] double satisfaction(const Condition& c, std::span<const Value> state,
                                    const Binding& b) const;
  [[nodiscard]] bool holds_all(std::span<const Condition> cs, std::span<const Value> state,
                               const Binding& b) const;
  // Applies an effect (clamped to the fact's bounds). Unknown targets are ignored.
  void apply(const Effect& e, std::span<Value> state, const Binding& b) const;
  // True when the agent is dead in `state`.
  [[nodiscard]] bool agent_dead(std::span<const Value> state) const;

  // Human-readable forms for traces: "consumer.mana >= 20", "consumer_mana_increase".
  [[nodiscard]] std::string format_ref(const Ref& r) const;
  [[nodiscard]] std::string format_condition(const Condition& c) const;
  [[nodiscard]] std::string key(Role role, AttributeId a, Direction d) const;

 private:
  std::unordered_map<uint64_t, SlotId> slot_index_;
};

}  // namespace topoplan::udgoap
