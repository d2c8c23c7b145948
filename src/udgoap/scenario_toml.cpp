// UDGOAP scenario files (TOML, parsed by toml++). Reference: docs/udgoap.md.
//
// Every name is resolved here so each error carries the line of the offending value; World::check
// then re-validates the model as the single source of truth. Unknown keys are errors.
#include <algorithm>
#include <cmath>

#include "io/toml_reader.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::udgoap {
namespace {

using toml_detail::Empty;
using toml_detail::line_of;

class Reader : toml_detail::TomlReader {
 public:
  explicit Reader(std::string file) : TomlReader(std::move(file), toml_detail::quote_verbatim) {}
  Result<Scenario> read(std::string_view text);

 private:
  bool string_of(const toml::table& t, std::string_view key, const std::string& where,
                 bool required, std::string& out) {
    return get_string(t, key, where, required, Empty::kReject, out);
  }

  // Bounds may be infinite.
  bool number_of(const toml::table& t, std::string_view key, const std::string& where,
                 double& out) {
    return get_number(t, key, where, key != "max" && key != "min", out);
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

bool Reader::read_scenario(const toml::table& root) {
  const toml::node* n = root.get("scenario");
  if (!n || !n->is_table()) return fail(n ? line_of(*n) : 1, "the file needs a [scenario] table");
  const toml::table& t = *n->as_table();
  if (!check_keys(t, {"name", "agent", "utility", "death_drive", "death_attribute"}, "[scenario]"))
    return false;
  std::string utility = "weighted_mean";
  if (!string_of(t, "name", "[scenario]", false, world_.name) ||
      !string_of(t, "agent", "[scenario]", true, agent_name_) ||
      !string_of(t, "utility", "[scenario]", false, utility) ||
      !string_of(t, "death_drive", "[scenario]", false, death_drive_) ||
      !string_of(t, "death_attribute", "[scenario]", false, death_attribute_))
    return false;
  agent_line_ = line_of(*t.get("agent"));
  if (utility == "weighted_mean") {
    world_.utility.kind = TopLevelKind::kWeightedMean;
  } else if (utility == "linear_with_bad_death") {
    world_.utility.kind = TopLevelKind::kLinearWithBadDeath;
    if (death_drive_.empty())
      return fail(line_of(*t.get("utility")), "linear_with_bad_death needs 'death_drive'");
    death_drive_line_ = line_of(*t.get("death_drive"));
  } else {
    return fail(line_of(*t.get("utility")),
                "unknown utility " + quote(utility) + " (weighted_mean, linear_with_bad_death)");
  }
  if (!death_attribute_.empty()) world_.death_attribute = world_.intern_attribute(death_attribute_);
  return true;
}

bool Reader::read_entities(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "entity", items)) return false;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"name", "tags", "supplies", "consumes", "properties"}, "[[entity]]"))
      return false;
    Entity e;
    if (!string_of(*t, "name", "[[entity]]", true, e.name)) return false;
    if (e.name.find('.') != std::string::npos)
      return fail(line_of(*t->get("name")), "entity names cannot contain '.'");
    if (world_.find_entity(e.name) || e.name == "consumer" || e.name == "self" ||
        e.name == "supplier" || e.name == "target")
      return fail(line_of(*t->get("name")), "duplicate or reserved entity name " + quote(e.name));
    std::vector<std::string> supplies, consumes;
    std::vector<int> supply_lines, consume_lines;
    if (!get_strings(*t, "tags", "[[entity]]", Empty::kAllow, e.tags) ||
        !get_strings(*t, "supplies", "[[entity]]", Empty::kAllow, supplies, &supply_lines) ||
        !get_strings(*t, "consumes", "[[entity]]", Empty::kAllow, consumes, &consume_lines))
      return false;
    const size_t index = world_.entities.size();
    for (size_t i = 0; i < supplies.size(); ++i)
      pending_actions_.push_back({index, supplies[i], supply_lines[i], true});
    for (size_t i = 0; i < consumes.size(); ++i)
      pending_actions_.push_back({index, consumes[i], consume_lines[i], false});
    world_.entities.push_back(std::move(e));
    if (const toml::node* p = t->get("properties")) {
      const toml::table* props = p->as_table();
      if (!props) return fail(line_of(*p), "'properties' must be a table such as { mana = 40 }");
      for (auto&& [key, node] : *props) {
        Fact f;
        f.entity = static_cast<EntityId>(index);
        f.attribute = world_.intern_attribute(key.str());
        f.kind = FactKind::kProperty;
        f.min = -std::numeric_limits<double>::infinity();
        if (!value_of(node, "property " + quote(key.str()), f.value)) return false;
        world_.set_fact(f);
      }
    }
  }
  return true;
}

bool Reader::read_facts(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "fact", items)) return false;
  int32_t id = 0;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"entity", "attribute", "value", "min", "max", "timestamp"}, "[[fact]]"))
      return false;
    std::string entity, attribute;
    if (!string_of(*t, "entity", "[[fact]]", true, entity) ||
        !string_of(*t, "attribute", "[[fact]]", true, attribute))
      return false;
    auto e = world_.find_entity(entity);
    if (!e) return fail(line_of(*t->get("entity")), "unknown entity " + quote(entity));
    Fact f;
    f.id = ++id;
    f.entity = *e;
    f.attribute = world_.intern_attribute(attribute);
    const toml::node* v = t->get("value");
    if (!v) return fail_missing(line_of(*t), "[[fact]]", "value");
    if (!value_of(*v, "fact value", f.value)) return false;
    if (!number_of(*t, "min", "[[fact]]", f.min) || !number_of(*t, "max", "[[fact]]", f.max) ||
        !number_of(*t, "timestamp", "[[fact]]", f.timestamp))
      return false;
    if (f.min > f.max) return fail(line_of(*t), "fact " + entity + "." + attribute + ": min > max");
    if (!f.value.is_vector && (f.value.x < f.min || f.value.x > f.max))
      return fail(line_of(*v), "fact " + entity + "." + attribute + ": value outside [min, max]");
    if (world_.slot(f.entity, f.attribute) != kNoSlot)
      return fail(line_of(*t), "duplicate fact (or property) " + entity + "." + attribute);
    world_.set_fact(f);
  }
  return true;
}

bool Reader::read_actions(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "action", items)) return false;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"name", "preconditions", "effects", "world_effects"}, "[[action]]"))
      return false;
    Action a;
    if (!string_of(*t, "name", "[[action]]", true, a.name)) return false;
    if (world_.find_action(a.name))
      return fail(line_of(*t->get("name")), "duplicate action " + quote(a.name));
    const std::string where = "action " + quote(a.name);
    if (!conditions_of(*t, "preconditions", where, a.preconditions) ||
        !effects_of(*t, where, a.effects))
      return false;
    if (a.effects.empty()) return fail(line_of(*t), where + " has no effect");
    std::vector<std::string> wes;
    std::vector<int> lines;
    if (!get_strings(*t, "world_effects", where, Empty::kAllow, wes, &lines)) return false;
    for (size_t i = 0; i < wes.size(); ++i)
      pending_effects_.push_back({world_.actions.size(), wes[i], lines[i]});
    world_.actions.push_back(std::move(a));
  }
  return true;
}

bool Reader::read_world_effects(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "world_effect", items)) return false;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"name", "for_each", "always", "triggers", "effects"}, "[[world_effect]]"))
      return false;
    WorldEffect w;
    if (!string_of(*t, "name", "[[world_effect]]", true, w.name) ||
        !string_of(*t, "for_each", "[[world_effect]]", false, w.for_each) ||
        !get_bool(*t, "always", "[[world_effect]]", w.always))
      return false;
    for (const WorldEffect& other : world_.world_effects)
      if (other.name == w.name)
        return fail(line_of(*t->get("name")), "duplicate world effect " + quote(w.name));
    const std::string where = "world effect " + quote(w.name);
    if (!conditions_of(*t, "triggers", where, w.triggers) || !effects_of(*t, where, w.effects))
      return false;
    world_.world_effects.push_back(std::move(w));
  }
  return true;
}

bool Reader::read_drives(const toml::table& root) {
  std::vector<const toml::table*> items;
  if (!array_of_tables(root, "drive", items)) return false;
  for (const toml::table* t : items) {
    if (!check_keys(*t, {"name", "weight", "removal", "generator"}, "[[drive]]")) return false;
    Drive d;
    if (!string_of(*t, "name", "[[drive]]", true, d.name) ||
        !number_of(*t, "weight", "[[drive]]", d.weight))
      return false;
    const std::string where = "drive " + quote(d.name);
    for (const Drive& other : world_.drives)
      if (other.name == d.name) return fail(line_of(*t->get("name")), "duplicate " + where);
    if (d.weight < 0.0) return fail(line_of(*t->get("weight")), where + ": weight must be >= 0");
    if (!conditions_of(*t, "removal", where, d.removal)) return false;
    std::vector<const toml::table*> gens;
    if (!array_of_tables(*t, "generator", gens)) return false;
    for (const toml::table* g : gens) {
      if (!check_keys(*g, {"name", "for_each", "triggers", "goal"}, where + " generator"))
        return false;
      GoalGenerator gen;
      if (!string_of(*g, "name", where + " generator", true, gen.name) ||
          !string_of(*g, "for_each", where + " generator", false, gen.for_each) ||
          !conditions_of(*g, "triggers", "generator " + quote(gen.name), gen.triggers))
        return false;
      const toml::node* gn = g->get("goal");
      if (!gn || !gn->is_table())
        return fail(gn ? line_of(*gn) : line_of(*g),
                    "generator " + quote(gen.name) + " needs a goal table");
      const toml::table& gt = *gn->as_table();
      const std::string gw = "goal of generator " + quote(gen.name);
      if (!check_keys(gt, {"name", "weight", "conditions", "combine", "removal"}, gw)) return false;
      std::string combine = "mean";
      if (!string_of(gt, "name", gw, true, gen.goal.name) ||
          !number_of(gt, "weight", gw, gen.goal.weight) ||
          !string_of(gt, "combine", gw, false, combine) ||
          !conditions_of(gt, "removal", gw, gen.goal.removal))
        return false;
      if (gen.goal.weight < 0.0)
        return fail(line_of(*gt.get("weight")), gw + ": weight must be >= 0");
      if (combine == "mean")
        gen.goal.combine = Combine::kMean;
      else if (combine == "min")
        gen.goal.combine = Combine::kMin;
      else if (combine == "product")
        gen.goal.combine = Combine::kProduct;
      else
        return fail(line_of(*gt.get("combine")), gw + ": combine must be mean, min or product");
      std::vector<const toml::table*> conds;
      const toml::node* cn = gt.get("conditions");
      if (!cn) return fail(line_of(gt), gw + " needs 'conditions'");
      const toml::array* carr = cn->as_array();
      if (!carr || carr->empty())
        return fail(line_of(*cn), gw + ": 'conditions' must be a non-empty array");
      for (const toml::node& el : *carr) {
        const toml::table* c = el.as_table();
        if (!c) return fail(line_of(el), gw + ": a condition must be a table");
        if (!check_keys(*c, {"fact", "direction", "eval"}, gw + " condition")) return false;
        GoalCondition gc;
        std::string fact, dir = "increase";
        if (!string_of(*c, "fact", gw + " condition", true, fact) ||
            !ref_of(fact, line_of(*c->get("fact")), gc.fact) ||
            !string_of(*c, "direction", gw + " condition", false, dir))
          return false;
        if (gc.fact.role == Role::kSupplier)
          return fail(line_of(*c->get("fact")),
                      gw + ": goals have no supplier (use self, target or an entity)");
        if (dir == "increase")
          gc.direction = Direction::kIncrease;
        else if (dir == "decrease")
          gc.direction = Direction::kDecrease;
        else if (dir == "change")
          gc.direction = Direction::kChange;
        else
          return fail(line_of(*c->get("direction")),
                      gw + ": direction must be increase, decrease or change");
        if (const toml::node* ev = c->get("eval")) {
          if (!curve_of(*ev, gw, gc.curve)) return false;
        }
        gen.goal.conditions.push_back(gc);
      }
      d.generators.push_back(std::move(gen));
    }
    world_.drives.push_back(std::move(d));
  }
  return true;
}

bool Reader::read_planner(const toml::table& root) {
  const toml::node* n = root.get("planner");
  if (!n) return true;
  const toml::table* t = n->as_table();
  if (!t) return fail(line_of(*n), "'planner' must be a table");
  if (!check_keys(*t, {"max_expansions", "max_generated", "max_plan_length"}, "[planner]"))
    return false;
  for (auto [key, out] :
       {std::pair<std::string_view, int64_t*>{"max_expansions", &limits_.max_expansions},
        {"max_generated", &limits_.max_generated}}) {
    if (const toml::node* v = t->get(key)) {
      if (!v->is_integer() || v->as_integer()->get() < 1 ||
          v->as_integer()->get() > 1'000'000'000'000)
        return fail(line_of(*v), quote(key) + " of [planner] must be an integer in [1, 10^12]");
      *out = v->as_integer()->get();
    }
  }
  if (const toml::node* v = t->get("max_plan_length")) {
    if (!v->is_integer() || v->as_integer()->get() < 1 || v->as_integer()->get() > 1000)
      return fail(line_of(*v), "'max_plan_length' must be an integer in [1, 1000]");
    limits_.max_plan_length = static_cast<int32_t>(v->as_integer()->get());
  }
  return true;
}

bool Reader::resolve_names() {
  for (const PendingAction& p : pending_actions_) {
    auto a = world_.find_action(p.action);
    if (!a) return fail(p.line, "unknown action " + quote(p.action));
    Entity& e = world_.entities[p.entity];
    auto& list = p.supplies ? e.supplies : e.consumes;
    if (std::find(list.begin(), list.end(), *a) != list.end())
      return fail(p.line, "action " + quote(p.action) + " listed twice");
    list.push_back(*a);
  }
  for (const PendingEffect& p : pending_effects_) {
    auto it = std::find_if(world_.world_effects.begin(), world_.world_effects.end(),
                           [&](const WorldEffect& w) { return w.name == p.name; });
    if (it == world_.world_effects.end())
      return fail(p.line, "unknown world effect " + quote(p.name));
    world_.actions[p.action].world_effects.push_back(
        static_cast<int32_t>(it - world_.world_effects.begin()));
  }
  auto agent = world_.find_entity(agent_name_);
  if (!agent) return fail(agent_line_, "the agent " + quote(agent_name_) + " is not an [[entity]]");
  world_.agent = *agent;
  if (!death_drive_.empty()) {
    auto it = std::find_if(world_.drives.begin(), world_.drives.end(),
                           [&](const Drive& d) { return d.name == death_drive_; });
    if (it == world_.drives.end())
      return fail(death_drive_line_, "unknown death drive " + quote(death_drive_));
    world_.utility.death_drive = static_cast<int32_t>(it - world_.drives.begin());
  }
  return true;
}

bool Reader::check_attributes() {
  std::vector<bool> known(world_.attributes.size(), false);
  for (const Fact& f : world_.facts) known[static_cast<size_t>(f.attribute)] = true;
  if (auto exists = world_.find_attribute("exists")) known[static_cast<size_t>(*exists)] = true;
  std::string names;
  for (size_t a = 0; a < known.size(); ++a)
    if (known[a] && world_.attributes[a] != "exists")
      names += (names.empty() ? "" : ", ") + world_.attributes[a];
  for (const RefUse& r : refs_)
    if (!known[static_cast<size_t>(r.attribute)])
      return fail(r.line, "unknown attribute " +
                              quote(world_.attributes[static_cast<size_t>(r.attribute)]) + " in " +
                              quote(r.text) + ": no fact or property has it (known: " + names +
                              ", exists)");
  if (world_.death_attribute >= 0 && !known[static_cast<size_t>(world_.death_attribute)])
    return fail(
        0, "unknown death_attribute " + quote(death_attribute_) + ": no fact or property has it");
  return true;
}

Result<Scenario> Reader::read(std::string_view text) {
  toml::table root;
  if (!parse(text, root) ||
      !check_keys(root,
                  {"scenario", "entity", "fact", "action", "world_effect", "drive", "planner"},
                  "the file"))
    return err_;
  // Entities first (refs name them), then the rest; action names resolve at the end.
  if (!read_scenario(root) || !read_entities(root) || !read_facts(root) ||
      !read_world_effects(root) || !read_actions(root) || !read_drives(root) ||
      !read_planner(root) || !resolve_names() || !check_attributes())
    return err_;
  world_.add_implicit_facts();
  if (auto bad = world_.check()) return Error{bad->message, file_, 0};
  Scenario s;
  s.world = std::move(world_);
  s.limits = limits_;
  s.agent = make_agent_state(s.world);
  const std::vector<Value> init = s.world.initial_state();
  update_agent(s.world, init, s.agent);
  return s;
}

}  // namespace

Result<Scenario> parse_scenario(std::string_view text, const std::string& filename) {
  return Reader(filename).read(text);
}

Result<Scenario> load_scenario(const std::string& path, int64_t max_bytes) {
  auto text = toml_detail::read_text_file(path, static_cast<std::uintmax_t>(max_bytes));
  if (!text) return text.error();
  return parse_scenario(text.value(), path);
}

}  // namespace topoplan::udgoap
