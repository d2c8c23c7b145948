// World: name tables, fact slots, condition evaluation and effect application.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

#include "runtime/limits/def_check.h"
#include "topoplan/udgoap/model.h"

namespace topoplan::udgoap {
namespace {

uint64_t slot_key(EntityId e, AttributeId a) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(e)) << 32) | static_cast<uint32_t>(a);
}

// How far `v` has come toward `threshold` from the far end of [lo, hi]: 1 at the threshold.
double graded_up(double v, double threshold, double lo) {
  if (v >= threshold) return 1.0;
  if (!std::isfinite(lo) || !(threshold > lo)) return 0.0;
  return std::clamp((v - lo) / (threshold - lo), 0.0, 1.0);
}
double graded_down(double v, double threshold, double hi) {
  if (v <= threshold) return 1.0;
  if (!std::isfinite(hi) || !(hi > threshold)) return 0.0;
  return std::clamp((hi - v) / (hi - threshold), 0.0, 1.0);
}

Error err(std::string message) {
  return Error{std::move(message), "", 0};
}

}  // namespace

double distance(const Value& a, const Value& b) {
  const double dx = a.x - b.x;
  const double dy = a.y - b.y;
  const double dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

std::string format_value(const Value& v) {
  char buf[96];
  if (v.is_vector) {
    std::snprintf(buf, sizeof buf, "(%g, %g, %g)", v.x, v.y, v.z);
  } else {
    std::snprintf(buf, sizeof buf, "%g", v.x);
  }
  return buf;
}

std::string_view to_string(Direction d) {
  // In the enum's order, one name per enumerator.
  static constexpr std::array<std::string_view, 3> kNames = {"increase", "decrease", "change"};
  static_assert(kNames.size() == static_cast<size_t>(Direction::kChange) + 1);
  const auto i = static_cast<size_t>(d);
  return i < kNames.size() ? kNames[i] : "?";
}

Direction key_direction(const Condition& c) {
  if (c.is_distance) return Direction::kChange;
  switch (c.op) {
    case CompareOp::kGreater:
    case CompareOp::kGreaterEqual:
    case CompareOp::kBelowMax:
    case CompareOp::kKnown:
      return Direction::kIncrease;
    case CompareOp::kLess:
    case CompareOp::kLessEqual:
    case CompareOp::kAboveMin:
      return Direction::kDecrease;
    case CompareOp::kEqual:
    case CompareOp::kNotEqual:
      return Direction::kChange;
  }
  return Direction::kChange;
}

Direction key_direction(const Effect& e) {
  switch (e.op) {
    case EffectOp::kAdd:
      return Direction::kIncrease;
    case EffectOp::kSubtract:
      return Direction::kDecrease;
    case EffectOp::kSet:
      return Direction::kChange;
  }
  return Direction::kChange;
}

bool Entity::has_tag(std::string_view tag) const {
  return std::find(tags.begin(), tags.end(), tag) != tags.end();
}

AttributeId World::intern_attribute(std::string_view n) {
  if (auto a = find_attribute(n)) return *a;
  attributes.emplace_back(n);
  return static_cast<AttributeId>(attributes.size() - 1);
}

std::optional<AttributeId> World::find_attribute(std::string_view n) const {
  for (size_t i = 0; i < attributes.size(); ++i)
    if (attributes[i] == n) return static_cast<AttributeId>(i);
  return std::nullopt;
}

std::optional<EntityId> World::find_entity(std::string_view n) const {
  for (size_t i = 0; i < entities.size(); ++i)
    if (entities[i].name == n) return static_cast<EntityId>(i);
  return std::nullopt;
}

std::optional<ActionIndex> World::find_action(std::string_view n) const {
  for (size_t i = 0; i < actions.size(); ++i)
    if (actions[i].name == n) return static_cast<ActionIndex>(i);
  return std::nullopt;
}

SlotId World::set_fact(const Fact& fact) {
  const SlotId existing = slot(fact.entity, fact.attribute);
  if (existing != kNoSlot) {
    facts[static_cast<size_t>(existing)] = fact;
    return existing;
  }
  facts.push_back(fact);
  const auto s = static_cast<SlotId>(facts.size() - 1);
  slot_index_[slot_key(fact.entity, fact.attribute)] = s;
  return s;
}

void World::reindex() {
  slot_index_.clear();
  for (size_t i = 0; i < facts.size(); ++i)
    slot_index_[slot_key(facts[i].entity, facts[i].attribute)] = static_cast<SlotId>(i);
}

void World::add_implicit_facts() {
  const AttributeId exists = intern_attribute("exists");
  for (size_t e = 0; e < entities.size(); ++e) {
    if (slot(static_cast<EntityId>(e), exists) != kNoSlot) continue;
    Fact f;
    f.entity = static_cast<EntityId>(e);
    f.attribute = exists;
    f.value = Value::number(1.0);
    f.min = 0.0;
    f.max = 1.0;
    f.kind = FactKind::kImplicit;
    set_fact(f);
  }
}

SlotId World::slot(EntityId e, AttributeId a) const {
  auto it = slot_index_.find(slot_key(e, a));
  return it == slot_index_.end() ? kNoSlot : it->second;
}

SlotId World::resolve(const Ref& ref, const Binding& b) const {
  EntityId e = kNoEntity;
  switch (ref.role) {
    case Role::kConsumer:
      e = b.consumer;
      break;
    case Role::kSupplier:
      e = b.supplier;
      break;
    case Role::kTarget:
      e = b.target;
      break;
    case Role::kEntity:
      e = ref.entity;
      break;
  }
  if (e == kNoEntity) return kNoSlot;
  return slot(e, ref.attribute);
}

std::optional<Error> World::check() const {
  const auto n_entities = static_cast<EntityId>(entities.size());
  const auto n_attributes = static_cast<AttributeId>(attributes.size());
  if (agent < 0 || agent >= n_entities) return err("the agent is not an entity of the world");
  auto bad_ref = [&](const Ref& r) {
    return r.attribute < 0 || r.attribute >= n_attributes ||
           (r.role == Role::kEntity && (r.entity < 0 || r.entity >= n_entities));
  };
  auto bad_condition = [&](const Condition& c) {
    return bad_ref(c.fact) || (c.is_distance && bad_ref(c.other)) ||
           (c.rhs.is_ref && bad_ref(c.rhs.ref));
  };
  auto bad_effect = [&](const Effect& e) {
    return bad_ref(e.target) || (e.amount.is_ref && bad_ref(e.amount.ref));
  };
  for (const Fact& f : facts) {
    if (f.entity < 0 || f.entity >= n_entities || f.attribute < 0 || f.attribute >= n_attributes)
      return err("a fact refers to an unknown entity or attribute");
    if (f.min > f.max)
      return err("fact " + entities[static_cast<size_t>(f.entity)].name + "." +
                 attributes[static_cast<size_t>(f.attribute)] + " has min > max");
  }
  for (const Entity& e : entities) {
    for (ActionIndex a : e.supplies)
      if (a < 0 || static_cast<size_t>(a) >= actions.size())
        return err("entity " + e.name + " supplies an unknown action");
    for (ActionIndex a : e.consumes)
      if (a < 0 || static_cast<size_t>(a) >= actions.size())
        return err("entity " + e.name + " consumes an unknown action");
  }
  for (const Action& a : actions) {
    for (const Condition& c : a.preconditions)
      if (bad_condition(c)) return err("action " + a.name + ": bad precondition reference");
    for (const Effect& e : a.effects)
      if (bad_effect(e)) return err("action " + a.name + ": bad effect reference");
    for (int32_t w : a.world_effects)
      if (w < 0 || static_cast<size_t>(w) >= world_effects.size())
        return err("action " + a.name + ": unknown world effect");
  }
  for (const WorldEffect& w : world_effects) {
    for (const Condition& c : w.triggers)
      if (bad_condition(c)) return err("world effect " + w.name + ": bad trigger reference");
    for (const Effect& e : w.effects)
      if (bad_effect(e)) return err("world effect " + w.name + ": bad effect reference");
  }
  for (const Drive& d : drives) {
    if (!(d.weight >= 0.0 && d.weight <= 1e9))
      return err("drive " + d.name + ": 'weight' must be in [0, 1e9], found " +
                 def_check::number(d.weight));
    for (const Condition& c : d.removal)
      if (bad_condition(c)) return err("drive " + d.name + ": bad removal reference");
    for (const GoalGenerator& g : d.generators) {
      if (!(g.goal.weight >= 0.0 && g.goal.weight <= 1e9))
        return err("goal " + g.goal.name + ": 'weight' must be in [0, 1e9], found " +
                   def_check::number(g.goal.weight));
      for (const GoalCondition& c : g.goal.conditions)
        if (auto e = udgoap::check(c.curve, "goal " + g.goal.name)) return err(e->message);
      if (g.goal.conditions.empty()) return err("goal " + g.goal.name + ": no condition");
      for (const GoalCondition& c : g.goal.conditions)
        if (bad_ref(c.fact)) return err("goal " + g.goal.name + ": bad condition reference");
      for (const Condition& c : g.triggers)
        if (bad_condition(c)) return err("generator " + g.name + ": bad trigger reference");
      for (const Condition& c : g.goal.removal)
        if (bad_condition(c)) return err("goal " + g.goal.name + ": bad removal reference");
    }
  }
  if (utility.kind == TopLevelKind::kLinearWithBadDeath &&
      (utility.death_drive < 0 || static_cast<size_t>(utility.death_drive) >= drives.size()))
    return err("linear_with_bad_death needs a death drive");
  if (death_attribute >= n_attributes) return err("unknown death attribute");
  return std::nullopt;
}

std::vector<Value> World::initial_state() const {
  std::vector<Value> state;
  state.reserve(facts.size());
  for (const Fact& f : facts) state.push_back(f.value);
  return state;
}

double World::satisfaction(const Condition& c, std::span<const Value> state,
                           const Binding& b) const {
  const SlotId s = resolve(c.fact, b);
  if (c.op == CompareOp::kKnown) return s == kNoSlot ? 0.0 : 1.0;
  if (s == kNoSlot) return 0.0;
  const Fact& fact = facts[static_cast<size_t>(s)];
  const Value& v = state[static_cast<size_t>(s)];
  if (c.op == CompareOp::kBelowMax) return !v.is_vector && v.x < fact.max ? 1.0 : 0.0;
  if (c.op == CompareOp::kAboveMin) return !v.is_vector && v.x > fact.min ? 1.0 : 0.0;

  Value rhs = c.rhs.literal;
  if (c.rhs.is_ref) {
    const SlotId r = resolve(c.rhs.ref, b);
    if (r == kNoSlot) return 0.0;
    rhs = state[static_cast<size_t>(r)];
  }
  double lhs = v.x;
  bool graded = true;
  if (c.is_distance) {
    const SlotId o = resolve(c.other, b);
    if (o == kNoSlot) return 0.0;
    lhs = distance(v, state[static_cast<size_t>(o)]);
    graded = false;
  } else if (v.is_vector || rhs.is_vector) {
    if (c.op == CompareOp::kEqual) return v == rhs ? 1.0 : 0.0;
    if (c.op == CompareOp::kNotEqual) return v == rhs ? 0.0 : 1.0;
    return 0.0;
  }
  const double t = rhs.x;
  switch (c.op) {
    case CompareOp::kGreaterEqual:
      return graded ? graded_up(lhs, t, fact.min) : (lhs >= t ? 1.0 : 0.0);
    case CompareOp::kGreater:
      if (lhs > t) return 1.0;
      return graded ? std::min(graded_up(lhs, t, fact.min), 1.0 - 1e-9) : 0.0;
    case CompareOp::kLessEqual:
      return graded ? graded_down(lhs, t, fact.max) : (lhs <= t ? 1.0 : 0.0);
    case CompareOp::kLess:
      if (lhs < t) return 1.0;
      return graded ? std::min(graded_down(lhs, t, fact.max), 1.0 - 1e-9) : 0.0;
    case CompareOp::kEqual:
      return lhs == t ? 1.0 : 0.0;
    case CompareOp::kNotEqual:
      return lhs != t ? 1.0 : 0.0;
    default:
      return 0.0;
  }
}

bool World::holds_all(std::span<const Condition> cs, std::span<const Value> state,
                      const Binding& b) const {
  for (const Condition& c : cs)
    if (satisfaction(c, state, b) < 1.0) return false;
  return true;
}

void World::apply(const Effect& e, std::span<Value> state, const Binding& b) const {
  const SlotId s = resolve(e.target, b);
  if (s == kNoSlot) return;
  Value amount = e.amount.literal;
  if (e.amount.is_ref) {
    const SlotId r = resolve(e.amount.ref, b);
    if (r == kNoSlot) return;
    amount = state[static_cast<size_t>(r)];
  }
  const Fact& fact = facts[static_cast<size_t>(s)];
  Value& v = state[static_cast<size_t>(s)];
  const double sign = e.op == EffectOp::kSubtract ? -1.0 : 1.0;
  switch (e.op) {
    case EffectOp::kSet:
      v = amount;
      break;
    case EffectOp::kAdd:
    case EffectOp::kSubtract:
      if (v.is_vector && amount.is_vector) {
        v.x += sign * amount.x;
        v.y += sign * amount.y;
        v.z += sign * amount.z;
      } else if (!v.is_vector && !amount.is_vector) {
        v.x += sign * amount.x;
      }
      break;
  }
  if (!v.is_vector) v.x = std::clamp(v.x, fact.min, std::max(fact.min, fact.max));
}

bool World::agent_dead(std::span<const Value> state) const {
  if (death_attribute < 0) return false;
  const SlotId s = slot(agent, death_attribute);
  if (s == kNoSlot) return false;
  return state[static_cast<size_t>(s)].x <= facts[static_cast<size_t>(s)].min;
}

std::string World::format_ref(const Ref& r) const {
  std::string who;
  switch (r.role) {
    case Role::kConsumer:
      who = "consumer";
      break;
    case Role::kSupplier:
      who = "supplier";
      break;
    case Role::kTarget:
      who = "target";
      break;
    case Role::kEntity:
      who = r.entity >= 0 && static_cast<size_t>(r.entity) < entities.size()
                ? entities[static_cast<size_t>(r.entity)].name
                : "?";
      break;
  }
  return who + "." + attributes[static_cast<size_t>(r.attribute)];
}

std::string World::format_condition(const Condition& c) const {
  static constexpr std::string_view kOps[] = {
      "<", "<=", ">", ">=", "==", "!=", "known", "below_max", "above_min"};
  std::string lhs = c.is_distance
                        ? "distance(" + format_ref(c.fact) + ", " + format_ref(c.other) + ")"
                        : format_ref(c.fact);
  const std::string_view op = kOps[static_cast<size_t>(c.op)];
  if (c.op == CompareOp::kKnown || c.op == CompareOp::kBelowMax || c.op == CompareOp::kAboveMin)
    return lhs + " " + std::string(op);
  const std::string rhs = c.rhs.is_ref ? format_ref(c.rhs.ref) : format_value(c.rhs.literal);
  return lhs + " " + std::string(op) + " " + rhs;
}

std::string World::key(Role role, AttributeId a, Direction d) const {
  std::string r = role == Role::kConsumer   ? "consumer"
                  : role == Role::kSupplier ? "supplier"
                  : role == Role::kTarget   ? "target"
                                            : "entity";
  return r + "_" + attributes[static_cast<size_t>(a)] + "_" + std::string(to_string(d));
}

}  // namespace topoplan::udgoap
