#include "topoplan/runtime/domain.h"

#include <algorithm>
#include <cassert>
#include <unordered_set>

namespace topoplan {
namespace {

Error fail(std::string message) {
  return Error{std::move(message), {}, 0};
}

std::string quote(std::string_view s) {
  return "'" + std::string(s) + "'";
}

// Names end up on lines of their own in files and plans: no control characters (newlines,
// NUL, tabs...). Bytes >= 0x80 (UTF-8) are fine.
bool printable(std::string_view s) {
  for (char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7F) return false;
  }
  return true;
}

}  // namespace

const std::string& Domain::value_name(VarId v, ValueId x) const {
  check_var(v);
  assert(x >= 0 && x < domain_size(v));
  return value_names_[static_cast<size_t>(value_offset_[v] + x)];
}

std::span<const uint8_t> Domain::action_mask(ClassId c) const {
  assert(c == kAllActions || (c >= 0 && c < num_classes()));
  const size_t n = static_cast<size_t>(num_actions());
  return {masks_.data() + static_cast<size_t>(c + 1) * n, n};
}

std::optional<VarId> Domain::find_variable(std::string_view name) const {
  auto it = var_index_.find(std::string(name));
  if (it == var_index_.end()) return std::nullopt;
  return it->second;
}

std::optional<ValueId> Domain::find_value(VarId v, std::string_view name) const {
  check_var(v);
  for (ValueId x = 0; x < domain_size(v); ++x)
    if (value_names_[static_cast<size_t>(value_offset_[v] + x)] == name) return x;
  return std::nullopt;
}

std::optional<ActionId> Domain::find_action(std::string_view name) const {
  auto it = action_index_.find(std::string(name));
  if (it == action_index_.end()) return std::nullopt;
  return it->second;
}

std::optional<ClassId> Domain::find_class(std::string_view name) const {
  auto it = class_index_.find(std::string(name));
  if (it == class_index_.end()) return std::nullopt;
  return it->second;
}

namespace {

// The sizes, and each variable's name and values: non-empty, printable, unique.
std::optional<Error> check_variables(const DomainDef& def) {
  if (def.variables.empty()) return fail("the domain has no variables");
  if (def.variables.size() > static_cast<size_t>(kMaxVariables))
    return fail("too many variables (" + std::to_string(def.variables.size()) + ", limit " +
                std::to_string(kMaxVariables) + ")");
  if (def.actions.size() > static_cast<size_t>(kMaxActions))
    return fail("too many actions (" + std::to_string(def.actions.size()) + ", limit " +
                std::to_string(kMaxActions) + ")");
  std::unordered_set<std::string_view> var_seen, value_seen;
  for (size_t i = 0; i < def.variables.size(); ++i) {
    const VariableDef& var = def.variables[i];
    if (var.name.empty()) return fail("variable " + std::to_string(i) + " has an empty name");
    if (!printable(var.name))
      return fail("variable " + std::to_string(i) + " has a control character in its name");
    if (!var_seen.insert(var.name).second)
      return fail("duplicate variable name " + quote(var.name));
    if (var.values.empty()) return fail("variable " + quote(var.name) + " has no values");
    if (var.values.size() > static_cast<size_t>(kMaxDomainSize))
      return fail("variable " + quote(var.name) + " has too many values (" +
                  std::to_string(var.values.size()) + ", limit " + std::to_string(kMaxDomainSize) +
                  ")");
    value_seen.clear();
    for (size_t x = 0; x < var.values.size(); ++x) {
      if (var.values[x].empty())
        return fail("variable " + quote(var.name) + ": value " + std::to_string(x) +
                    " has an empty name");
      if (!printable(var.values[x]))
        return fail("variable " + quote(var.name) + ": value " + std::to_string(x) +
                    " has a control character in its name");
      if (!value_seen.insert(var.values[x]).second)
        return fail("variable " + quote(var.name) + ": duplicate value name " +
                    quote(var.values[x]));
    }
  }
  return std::nullopt;
}

// Action i's effects and prevail-conditions: known variables, values in range, each variable
// at most once (`seen`: per variable the last action that touched it).
std::optional<Error> check_conditions(const DomainDef& def, size_t i, const std::string& who,
                                      std::vector<int32_t>& seen) {
  const ActionDef& act = def.actions[i];
  const auto a = static_cast<int32_t>(i);
  auto var_ok = [&](VarId v) { return v >= 0 && static_cast<size_t>(v) < def.variables.size(); };
  auto value_ok = [&](VarId v, ValueId x) {
    return x >= 0 && static_cast<size_t>(x) < def.variables[static_cast<size_t>(v)].values.size();
  };
  for (const Effect& e : act.effects) {
    if (!var_ok(e.var)) return fail(who + ": effect on unknown variable " + std::to_string(e.var));
    const std::string& vn = def.variables[static_cast<size_t>(e.var)].name;
    if (seen[static_cast<size_t>(e.var)] == a)
      return fail(who + ": two effects on variable " + quote(vn));
    seen[static_cast<size_t>(e.var)] = a;
    if (e.pre != kUndefined && !value_ok(e.var, e.pre))
      return fail(who + ": pre-condition value " + std::to_string(e.pre) +
                  " out of range for variable " + quote(vn));
    if (!value_ok(e.var, e.post))
      return fail(who + ": post-condition value " + std::to_string(e.post) +
                  " out of range for variable " + quote(vn));
  }
  for (const Fact& f : act.prevail) {
    if (!var_ok(f.var))
      return fail(who + ": prevail-condition on unknown variable " + std::to_string(f.var));
    const std::string& vn = def.variables[static_cast<size_t>(f.var)].name;
    if (seen[static_cast<size_t>(f.var)] == a)
      return fail(who + ": variable " + quote(vn) +
                  " appears twice among its effects and prevail-conditions");
    seen[static_cast<size_t>(f.var)] = a;
    if (!value_ok(f.var, f.value))
      return fail(who + ": prevail value " + std::to_string(f.value) +
                  " out of range for variable " + quote(vn));
  }
  return std::nullopt;
}

// Each action's name (non-empty, printable, unique), cost and conditions.
std::optional<Error> check_actions(const DomainDef& def) {
  std::unordered_set<std::string_view> names;
  std::vector<int32_t> seen(def.variables.size(), -1);
  for (size_t i = 0; i < def.actions.size(); ++i) {
    const ActionDef& act = def.actions[i];
    const std::string who = "action " + (act.name.empty() ? std::to_string(i) : quote(act.name));
    if (act.name.empty()) return fail(who + " has an empty name");
    if (!printable(act.name))
      return fail("action " + std::to_string(i) + " has a control character in its name");
    if (!names.insert(act.name).second) return fail("duplicate action name " + quote(act.name));
    if (act.cost < 0) return fail(who + " has a negative cost");
    if (act.cost > kMaxCost)
      return fail(who + " has a cost above the limit " + std::to_string(kMaxCost));
    if (act.effects.empty()) return fail(who + " has no effect");
    if (auto e = check_conditions(def, i, who, seen)) return e;
  }
  return std::nullopt;
}

// Each class's name (non-empty, printable, unique) and actions (known, listed once).
std::optional<Error> check_classes(const DomainDef& def) {
  std::unordered_set<std::string_view> names;
  std::vector<uint8_t> listed(def.actions.size());
  for (size_t c = 0; c < def.classes.size(); ++c) {
    const NpcClassDef& cls = def.classes[c];
    if (cls.name.empty()) return fail("class " + std::to_string(c) + " has an empty name");
    if (!printable(cls.name))
      return fail("class " + std::to_string(c) + " has a control character in its name");
    if (!names.insert(cls.name).second) return fail("duplicate class name " + quote(cls.name));
    std::fill(listed.begin(), listed.end(), uint8_t{0});
    for (ActionId a : cls.actions) {
      if (a < 0 || static_cast<size_t>(a) >= def.actions.size())
        return fail("class " + quote(cls.name) + ": unknown action " + std::to_string(a));
      if (listed[static_cast<size_t>(a)])
        return fail("class " + quote(cls.name) + ": action " +
                    quote(def.actions[static_cast<size_t>(a)].name) + " listed twice");
      listed[static_cast<size_t>(a)] = 1;
    }
  }
  return std::nullopt;
}

}  // namespace

Result<Domain> Domain::compile(const DomainDef& def) {
  if (auto e = check_variables(def)) return *e;
  if (auto e = check_actions(def)) return *e;
  if (auto e = check_classes(def)) return *e;
  Domain d;
  d.name_ = def.name;
  d.var_names_.reserve(def.variables.size());
  for (size_t i = 0; i < def.variables.size(); ++i) {
    const VariableDef& var = def.variables[i];
    d.var_index_.emplace(var.name, static_cast<VarId>(i));
    d.var_names_.push_back(var.name);
    d.value_names_.insert(d.value_names_.end(), var.values.begin(), var.values.end());
    d.value_offset_.push_back(static_cast<int32_t>(d.value_names_.size()));
    d.max_domain_size_ = std::max(d.max_domain_size_, static_cast<int32_t>(var.values.size()));
  }
  for (size_t i = 0; i < def.actions.size(); ++i) {
    const ActionDef& act = def.actions[i];
    d.action_index_.emplace(act.name, static_cast<ActionId>(i));
    d.action_names_.push_back(act.name);
    d.costs_.push_back(act.cost);
    d.effects_.insert(d.effects_.end(), act.effects.begin(), act.effects.end());
    d.effect_offset_.push_back(static_cast<int32_t>(d.effects_.size()));
    d.prevails_.insert(d.prevails_.end(), act.prevail.begin(), act.prevail.end());
    d.prevail_offset_.push_back(static_cast<int32_t>(d.prevails_.size()));
    if (act.effects.size() != 1) d.all_unary_ = false;
    if (act.cost != 1) d.unit_cost_ = false;
  }
  // NPC classes and action masks (row 0: every action).
  const size_t n = def.actions.size();
  d.masks_.assign((def.classes.size() + 1) * n, 0);
  std::fill_n(d.masks_.begin(), n, uint8_t{1});
  for (size_t c = 0; c < def.classes.size(); ++c) {
    const NpcClassDef& cls = def.classes[c];
    d.class_index_.emplace(cls.name, static_cast<ClassId>(c));
    for (ActionId a : cls.actions) d.masks_[(c + 1) * n + static_cast<size_t>(a)] = 1;
    d.class_names_.push_back(cls.name);
    d.class_members_.insert(d.class_members_.end(), cls.actions.begin(), cls.actions.end());
    d.class_offset_.push_back(static_cast<int32_t>(d.class_members_.size()));
  }
  return d;
}

std::optional<Error> Domain::check_instance(const Instance& instance) const {
  const auto m = static_cast<size_t>(num_variables());
  if (instance.init.size() != m)
    return fail("the initial state has " + std::to_string(instance.init.size()) +
                " values, the domain has " + std::to_string(m) + " variables");
  if (instance.goal.size() != m)
    return fail("the goal has " + std::to_string(instance.goal.size()) +
                " entries, the domain has " + std::to_string(m) + " variables");
  for (VarId v = 0; v < num_variables(); ++v) {
    const ValueId x = instance.init[static_cast<size_t>(v)];
    if (x == kUndefined)
      return fail("the initial state leaves variable '" + variable_name(v) +
                  "' undefined (it must be total)");
    if (x < 0 || x >= domain_size(v))
      return fail("initial value " + std::to_string(x) + " out of range for variable '" +
                  variable_name(v) + "'");
    const ValueId g = instance.goal[static_cast<size_t>(v)];
    if (g != kUndefined && (g < 0 || g >= domain_size(v)))
      return fail("goal value " + std::to_string(g) + " out of range for variable '" +
                  variable_name(v) + "'");
  }
  if (instance.npc_class != kAllActions &&
      (instance.npc_class < 0 || instance.npc_class >= num_classes()))
    return fail("unknown NPC class " + std::to_string(instance.npc_class));
  return std::nullopt;
}

DomainDef Domain::to_def() const {
  DomainDef def;
  def.name = name_;
  for (VarId v = 0; v < num_variables(); ++v) {
    VariableDef var{var_names_[static_cast<size_t>(v)], {}};
    for (ValueId x = 0; x < domain_size(v); ++x) var.values.push_back(value_name(v, x));
    def.variables.push_back(std::move(var));
  }
  for (ActionId a = 0; a < num_actions(); ++a) {
    auto e = effects(a);
    auto p = prevail(a);
    def.actions.push_back(ActionDef{action_names_[static_cast<size_t>(a)], cost(a),
                                    std::vector<Effect>(e.begin(), e.end()),
                                    std::vector<Fact>(p.begin(), p.end())});
  }
  for (ClassId c = 0; c < num_classes(); ++c) {
    auto members = class_actions(c);
    def.classes.push_back(
        NpcClassDef{class_names_[static_cast<size_t>(c)], {members.begin(), members.end()}});
  }
  return def;
}

std::optional<int32_t> Task::find_instance_index(std::string_view name) const {
  for (size_t i = 0; i < instances.size(); ++i)
    if (instances[i].name == name) return static_cast<int32_t>(i);
  return std::nullopt;
}

const Instance* Task::find_instance(std::string_view name) const {
  const std::optional<int32_t> i = find_instance_index(name);
  return i ? &instances[static_cast<size_t>(*i)] : nullptr;
}

std::string format_state(const Domain& domain, std::span<const ValueId> state) {
  std::string out = "⟨";
  bool first = true;
  for (VarId v = 0; v < domain.num_variables() && static_cast<size_t>(v) < state.size(); ++v) {
    const ValueId x = state[static_cast<size_t>(v)];
    if (x == kUndefined) continue;
    if (!first) out += ", ";
    first = false;
    out += domain.variable_name(v);
    out += '=';
    out += (x >= 0 && x < domain.domain_size(v)) ? domain.value_name(v, x) : std::to_string(x);
  }
  out += "⟩";
  return out;
}

}  // namespace topoplan
