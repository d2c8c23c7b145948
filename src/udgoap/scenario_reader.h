// The reader of UDGOAP scenario files (not installed): shared by scenario_toml.cpp (scenario,
// entities, facts, actions, world effects, names, the entry points) and scenario_drives.cpp
// (drives, goal generators, the planner limits). Reference: docs/udgoap.md.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "table_reader.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::udgoap::scenario_detail {

using toml_detail::Empty;
using toml_detail::line_of;

class Reader : detail::TableReader {
 public:
  explicit Reader(std::string file) : TableReader(std::move(file)) {}
  Result<Scenario> read(std::string_view text);

 private:
  // Bounds may be infinite.
  bool number_of(const toml::table& t, std::string_view key, const std::string& where,
                 double& out) {
    return TableReader::number_of(t, key, where, out, key != "max" && key != "min");
  }

  // "consumer.mana", "self.mana", "supplier.position", "target.health", "goblin.health".
  bool ref_of(std::string_view text, int line, Ref& out) {
    const size_t dot = text.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == text.size() ||
        text.find('.', dot + 1) != std::string_view::npos)
      return fail(line,
                  "expected 'role.attribute' (role: consumer, self, supplier, target or an "
                  "entity name), found " +
                      quote(text));
    const std::string_view who = text.substr(0, dot);
    out = Ref{};
    if (who == "consumer" || who == "self") {
      out.role = Role::kConsumer;
    } else if (who == "supplier") {
      out.role = Role::kSupplier;
    } else if (who == "target") {
      out.role = Role::kTarget;
    } else if (auto e = world_.find_entity(who)) {
      out.role = Role::kEntity;
      out.entity = *e;
    } else {
      return fail(line, "unknown entity or role " + quote(who) + " in " + quote(text));
    }
    out.attribute = world_.intern_attribute(text.substr(dot + 1));
    refs_.push_back({out.attribute, line, std::string(text)});
    return true;
  }

  bool value_of(const toml::node& n, const std::string& where, Value& out) {
    if (n.is_integer() || n.is_floating_point()) {
      const double v = n.value<double>().value_or(0.0);
      if (!std::isfinite(v)) return fail(line_of(n), where + " must be finite");
      out = Value::number(v);
      return true;
    }
    if (n.is_boolean()) {
      out = Value::number(n.as_boolean()->get() ? 1.0 : 0.0);
      return true;
    }
    if (const toml::array* arr = n.as_array(); arr && arr->size() == 3) {
      double c[3] = {0, 0, 0};
      for (size_t i = 0; i < 3; ++i) {
        const toml::node& el = *arr->get(i);
        if (!el.is_integer() && !el.is_floating_point())
          return fail(line_of(el), where + ": vector components must be numbers");
        c[i] = el.value<double>().value_or(0.0);
        if (!std::isfinite(c[i])) return fail(line_of(el), where + " must be finite");
      }
      out = Value::vec3(c[0], c[1], c[2]);
      return true;
    }
    return fail(line_of(n), where + " must be a number, a boolean or [x, y, z]");
  }

  bool operand_of(const toml::node& n, const std::string& where, Operand& out) {
    out = Operand{};
    if (n.is_string()) {
      out.is_ref = true;
      return ref_of(n.as_string()->get(), line_of(n), out.ref);
    }
    return value_of(n, where, out.literal);
  }

  bool condition_of(const toml::node& node, const std::string& where, Condition& c) {
    const toml::table* t = node.as_table();
    if (!t)
      return fail(line_of(node), where +
                                     ": a condition must be a table such as "
                                     "{ fact = \"consumer.mana\", op = \">=\", value = 20 }");
    if (!check_keys(*t, {"fact", "distance", "op", "value"}, where)) return false;
    c = Condition{};
    const toml::node* fact = t->get("fact");
    const toml::node* dist = t->get("distance");
    if ((fact == nullptr) == (dist == nullptr))
      return fail(line_of(*t), where + ": give exactly one of 'fact' and 'distance'");
    if (fact) {
      if (!fact->is_string()) return fail(line_of(*fact), where + ": 'fact' must be a string");
      if (!ref_of(fact->as_string()->get(), line_of(*fact), c.fact)) return false;
    } else {
      const toml::array* arr = dist->as_array();
      if (!arr || arr->size() != 2 || !arr->get(0)->is_string() || !arr->get(1)->is_string())
        return fail(line_of(*dist), where + ": 'distance' must be [\"role.attr\", \"role.attr\"]");
      c.is_distance = true;
      if (!ref_of(arr->get(0)->as_string()->get(), line_of(*dist), c.fact) ||
          !ref_of(arr->get(1)->as_string()->get(), line_of(*dist), c.other))
        return false;
    }
    std::string op;
    if (!string_of(*t, "op", where, true, op)) return false;
    static constexpr std::pair<std::string_view, CompareOp> kOps[] = {
        {"<", CompareOp::kLess},
        {"<=", CompareOp::kLessEqual},
        {">", CompareOp::kGreater},
        {">=", CompareOp::kGreaterEqual},
        {"==", CompareOp::kEqual},
        {"!=", CompareOp::kNotEqual},
        {"known", CompareOp::kKnown},
        {"below_max", CompareOp::kBelowMax},
        {"above_min", CompareOp::kAboveMin}};
    const auto* it = std::find_if(std::begin(kOps), std::end(kOps),
                                  [&](const auto& p) { return p.first == op; });
    if (it == std::end(kOps))
      return fail(line_of(*t->get("op")),
                  where + ": unknown op " + quote(op) +
                      " (one of < <= > >= == != known below_max above_min)");
    c.op = it->second;
    const bool unary =
        c.op == CompareOp::kKnown || c.op == CompareOp::kBelowMax || c.op == CompareOp::kAboveMin;
    const toml::node* value = t->get("value");
    if (unary && c.is_distance)
      return fail(line_of(*t), where + ": " + quote(op) + " needs 'fact'");
    if (unary && value)
      return fail(line_of(*value), where + ": " + quote(op) + " takes no 'value'");
    if (!unary && !value) return fail(line_of(*t), where + ": " + quote(op) + " needs a 'value'");
    if (value && !operand_of(*value, where + " value", c.rhs)) return false;
    return true;
  }

  bool conditions_of(const toml::table& t, std::string_view key, const std::string& where,
                     std::vector<Condition>& out) {
    const toml::node* n = t.get(key);
    if (!n) return true;
    const toml::array* arr = n->as_array();
    if (!arr)
      return fail(line_of(*n), quote(key) + " of " + where + " must be an array of conditions");
    for (const toml::node& el : *arr) {
      Condition c;
      if (!condition_of(el, where, c)) return false;
      out.push_back(c);
    }
    return true;
  }

  bool effects_of(const toml::table& t, const std::string& where, std::vector<Effect>& out) {
    const toml::node* n = t.get("effects");
    if (!n) return true;
    const toml::array* arr = n->as_array();
    if (!arr) return fail(line_of(*n), "'effects' of " + where + " must be an array");
    for (const toml::node& el : *arr) {
      const toml::table* e = el.as_table();
      if (!e)
        return fail(line_of(el), where +
                                     ": an effect must be a table such as "
                                     "{ target = \"supplier.health\", subtract = 30 }");
      if (!check_keys(*e, {"target", "add", "subtract", "set"}, where + " effect")) return false;
      Effect effect;
      std::string target;
      if (!string_of(*e, "target", where + " effect", true, target)) return false;
      if (!ref_of(target, line_of(*e->get("target")), effect.target)) return false;
      int ops = 0;
      for (auto [name, op] :
           {std::pair{"add", EffectOp::kAdd}, std::pair{"subtract", EffectOp::kSubtract},
            std::pair{"set", EffectOp::kSet}}) {
        const toml::node* v = e->get(name);
        if (!v) continue;
        ++ops;
        effect.op = op;
        if (!operand_of(*v, where + " effect " + name, effect.amount)) return false;
      }
      if (ops != 1)
        return fail(line_of(*e), where + ": an effect needs exactly one of add, subtract, set");
      out.push_back(effect);
    }
    return true;
  }

  bool curve_of(const toml::node& n, const std::string& where, Curve& out) {
    if (n.is_string()) {
      const std::string name = n.as_string()->get();
      if (name == "linear")
        out = Curve::linear();
      else if (name == "inverse_linear")
        out = Curve::inverse_linear();
      else
        return fail(line_of(n), where + ": unknown evaluation function " + quote(name) +
                                    " (linear, inverse_linear, or a table { curve = ... })");
      return true;
    }
    const toml::table* t = n.as_table();
    if (!t) return fail(line_of(n), where + ": 'eval' must be a string or a table");
    if (!check_keys(*t, {"curve", "slope", "exponent", "x_shift", "y_shift"}, where + " eval"))
      return false;
    std::string type;
    if (!string_of(*t, "curve", where + " eval", true, type)) return false;
    auto ct = parse_curve_type(type);
    if (!ct)
      return fail(line_of(*t->get("curve")),
                  where + ": unknown curve " + quote(type) +
                      " (linear, polynomial, logistic, logit, normal, sine)");
    out = Curve{};
    out.type = *ct;
    if (!number_of(*t, "slope", where, out.slope) ||
        !number_of(*t, "exponent", where, out.exponent) ||
        !number_of(*t, "x_shift", where, out.x_shift) ||
        !number_of(*t, "y_shift", where, out.y_shift))
      return false;
    if (auto bad = check(out, where)) return fail(line_of(*t), bad->message);
    return true;
  }

  bool read_scenario(const toml::table& root);
  bool read_entities(const toml::table& root);
  bool read_facts(const toml::table& root);
  bool read_actions(const toml::table& root);
  bool read_world_effects(const toml::table& root);
  bool read_drives(const toml::table& root);
  bool read_planner(const toml::table& root);
  bool resolve_names();

  World world_;
  UdgoapLimits limits_;
  std::string agent_name_, death_drive_, death_attribute_;
  // Every 'role.attribute' read, checked at the end against the attributes of facts and
  // properties: a misspelled attribute ("consumer.manna") is an error, not a new empty fact.
  struct RefUse {
    AttributeId attribute;
    int line;
    std::string text;
  };
  std::vector<RefUse> refs_;
  bool check_attributes();
  int agent_line_ = 0, death_drive_line_ = 0;
  // Names to resolve once everything is read: (entity, action name, line, supplies?).
  struct PendingAction {
    size_t entity;
    std::string action;
    int line;
    bool supplies;
  };
  std::vector<PendingAction> pending_actions_;
  struct PendingEffect {
    size_t action;
    std::string name;
    int line;
  };
  std::vector<PendingEffect> pending_effects_;
};

}  // namespace topoplan::udgoap::scenario_detail
