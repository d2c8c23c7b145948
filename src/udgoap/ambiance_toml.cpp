// Smart ambiance scenario files (TOML, toml++). Reference: docs/udgoap.md, "Smart ambiance
// scenario files". Every name is resolved here so each error carries its line; unknown keys are
// errors. check() re-validates the result.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <map>

#include "table_reader.h"
#include "topoplan/udgoap/ambiance_scenario.h"

namespace topoplan::udgoap {
namespace {

using toml_detail::line_of;

class AmbianceReader : detail::TableReader {
 public:
  explicit AmbianceReader(std::string file) : TableReader(std::move(file)) {}
  Result<AmbianceScenario> read(std::string_view text);

 private:
  // An integer field on the limits table: refused in the table's words (a value of another
  // TOML type is named by its type).
  bool integer_of(const toml::node& n, const LimitSpec& spec, const std::string& where,
                  int64_t& out) {
    const auto v = n.value<int64_t>();
    if (!n.is_integer() || !v) {
      std::string message = limit_message(spec, 0.0);
      message.replace(message.rfind("found ") + 6, std::string::npos, toml_detail::type_name(n));
      return fail(line_of(n), where + ": " + message);
    }
    if (auto e = check_limit(spec, *v, where)) return fail(line_of(n), e->message);
    out = *v;
    return true;
  }

  bool cost_of(const toml::node& n, const std::string& where, int64_t& out) {
    return integer_of(n, limits::kAmbianceCost, "cost of " + where, out);
  }

  // A number on the limits table, when given (NaN and the infinities are out of every range).
  bool limited(const toml::table& t, const LimitSpec& spec, const std::string& where, double& out) {
    if (!number_of(t, spec.name, where, out, false)) return false;
    const toml::node* n = t.get(spec.name);
    if (n == nullptr) return true;
    if (auto e = check_limit(spec, out, where)) return fail(line_of(*n), e->message);
    return true;
  }

  bool unique(std::map<std::string, int32_t>& index, const std::string& name, int line,
              const std::string& kind) {
    if (!index.emplace(name, static_cast<int32_t>(index.size())).second)
      return fail(line, "duplicate " + kind + " " + quote(name));
    return true;
  }

  // The keys of a [[section]] table and its required, unique 'name'.
  bool named(const toml::table& t, std::initializer_list<std::string_view> allowed,
             const std::string& section, std::map<std::string, int32_t>& index,
             const std::string& kind, std::string& name) {
    return check_keys(t, allowed, section) && string_of(t, "name", section, true, name) &&
           unique(index, name, line_of(*t.get("name")), kind);
  }

  bool variable(const toml::node& key_node, std::string_view name, VarId& out) {
    const auto it = vars_.find(std::string(name));
    if (it == vars_.end()) return fail(line_of(key_node), "unknown variable " + quote(name));
    out = it->second;
    return true;
  }

  bool value(const toml::node& n, VarId v, const std::string& where, ValueId& out) {
    const auto& values = sc_.domain.variables[static_cast<size_t>(v)].values;
    if (!n.is_string())
      return fail(line_of(n), "value of " + where + " must be a string (a value name)");
    const std::string& s = n.as_string()->get();
    const auto it = std::find(values.begin(), values.end(), s);
    if (it == values.end())
      return fail(line_of(n), quote(s) + " is not a value of " +
                                  quote(sc_.domain.variables[static_cast<size_t>(v)].name));
    out = static_cast<ValueId>(it - values.begin());
    return true;
  }

  // { var = "value", ... } into a per-variable vector (kUndefined where absent).
  bool assignment(const toml::table& t, std::string_view key, const std::string& where,
                  bool required, bool total, std::vector<ValueId>& out) {
    out.assign(sc_.domain.variables.size(), kUndefined);
    const toml::node* n = t.get(key);
    if (!n) return !required || fail_missing(line_of(t), where, key);
    const toml::table* tab = n->as_table();
    if (!tab) return fail(line_of(*n), quote(key) + " of " + where + " must be { var = value }");
    for (auto&& [k, node] : *tab) {
      VarId v = 0;
      if (!variable(node, k.str(), v) ||
          !value(node, v, std::string(key) + " of " + where, out[static_cast<size_t>(v)]))
        return false;
    }
    if (total) {
      for (size_t v = 0; v < out.size(); ++v) {
        if (out[v] == kUndefined)
          return fail(line_of(*n), quote(key) + " of " + where + " must give every variable (" +
                                       quote(sc_.domain.variables[v].name) + " is missing)");
      }
    }
    return true;
  }

  // { var = "value" | ["v1", "v2"], ... }
  bool conditions(const toml::table& t, std::string_view key, const std::string& where,
                  std::vector<StateCondition>& out) {
    const toml::node* n = t.get(key);
    if (!n) return true;
    const toml::table* tab = n->as_table();
    if (!tab) return fail(line_of(*n), quote(key) + " of " + where + " must be { var = value(s) }");
    for (auto&& [k, node] : *tab) {
      StateCondition c;
      if (!variable(node, k.str(), c.var)) return false;
      const std::string w = quote(key) + " of " + where;
      if (const toml::array* arr = node.as_array()) {
        if (arr->empty()) return fail(line_of(node), w + ": empty list of values");
        for (const toml::node& e : *arr) {
          ValueId x = 0;
          if (!value(e, c.var, w, x)) return false;
          c.values.push_back(x);
        }
      } else {
        ValueId x = 0;
        if (!value(node, c.var, w, x)) return false;
        c.values.push_back(x);
      }
      out.push_back(std::move(c));
    }
    return true;
  }

  bool modifier_refs(const toml::table& t, std::string_view key, const std::string& where,
                     std::vector<int32_t>& out) {
    std::vector<std::string> names;
    if (!strings_of(t, key, where, names)) return false;
    for (const std::string& name : names) {
      const auto it = mods_.find(name);
      if (it == mods_.end())
        return fail(line_of(*t.get(key)),
                    quote(key) + " of " + where + ": unknown modifier " + quote(name));
      out.push_back(it->second);
    }
    return true;
  }

  bool cost_modifier(const toml::table& t, std::string_view key, const std::string& where,
                     bool required, const std::vector<std::string>* default_annotations,
                     CostModifier& out, bool& present) {
    const toml::node* n = t.get(key);
    present = n != nullptr;
    if (!n) return !required || fail_missing(line_of(t), where, key);
    const toml::table* m = n->as_table();
    const std::string w = quote(key) + " of " + where;
    if (!m) return fail(line_of(*n), w + " must be a table");
    if (!check_keys(*m, {"amount", "rate", "delay", "duration", "annotations"}, w)) return false;
    if (!m->get("amount")) return fail_missing(line_of(*m), w, "amount");
    if (!limited(*m, limits::kAmbianceAmount, w, out.amount) ||
        !limited(*m, limits::kAmbianceDelay, w, out.start) ||
        !limited(*m, limits::kAmbianceDuration, w, out.duration))
      return false;
    std::string rate = "instantaneous";
    if (!string_of(*m, "rate", w, false, rate)) return false;
    if (rate == "instantaneous") {
      out.rate = Rate::kInstantaneous;
    } else if (rate == "linear") {
      out.rate = Rate::kLinear;
      if (!(out.duration > 0.0)) return fail(line_of(*m), w + ": a linear rate needs duration > 0");
    } else {
      return fail(line_of(*m->get("rate")), w + ": 'rate' must be \"instantaneous\" or \"linear\"");
    }
    if (!strings_of(*m, "annotations", w, out.annotations)) return false;
    if (out.annotations.empty()) {
      if (!default_annotations) return fail(line_of(*m), w + " needs 'annotations'");
      out.annotations = *default_annotations;
    }
    return true;
  }

  bool read_scenario(const toml::table& root);
  bool read_variables(const std::vector<const toml::table*>& ts);
  bool read_actions(const std::vector<const toml::table*>& ts);
  bool read_modifiers(const std::vector<const toml::table*>& ts);
  bool resolve_action_events();
  bool read_areas(const std::vector<const toml::table*>& ts);
  bool read_objects(const std::vector<const toml::table*>& ts);
  bool read_types(const std::vector<const toml::table*>& ts);
  bool read_npcs(const std::vector<const toml::table*>& ts);

  AmbianceScenario sc_;
  std::map<std::string, int32_t> vars_, actions_, mods_, types_, areas_, objects_, npcs_;
  std::vector<std::pair<const toml::table*, std::vector<std::string>>> pending_events_;
};

bool AmbianceReader::read_scenario(const toml::table& root) {
  const toml::node* n = root.get("scenario");
  if (!n) return true;
  const toml::table* t = n->as_table();
  if (!t) return fail(line_of(*n), "'scenario' must be a table [scenario]");
  if (!check_keys(*t, {"name", "action_time", "max_steps"}, "[scenario]") ||
      !string_of(*t, "name", "[scenario]", false, sc_.name) ||
      !limited(*t, limits::kAmbianceActionTime, "[scenario]", sc_.action_time))
    return false;
  if (const toml::node* m = t->get("max_steps")) {
    int64_t v = 0;
    if (!integer_of(*m, limits::kAmbianceMaxSteps, "[scenario]", v)) return false;
    sc_.max_steps = static_cast<int32_t>(v);
  }
  return true;
}

bool AmbianceReader::read_variables(const std::vector<const toml::table*>& ts) {
  if (ts.empty()) return fail(0, "no [[variable]]");
  for (const toml::table* t : ts) {
    VariableDef v;
    if (!named(*t, {"name", "values"}, "[[variable]]", vars_, "variable", v.name)) return false;
    const std::string w = "variable " + quote(v.name);
    if (!strings_of(*t, "values", w, v.values)) return false;
    if (v.values.size() < 2) return fail(line_of(*t), w + " needs at least two 'values'");
    for (size_t i = 0; i < v.values.size(); ++i) {
      if (std::find(v.values.begin(), v.values.begin() + static_cast<std::ptrdiff_t>(i),
                    v.values[i]) != v.values.begin() + static_cast<std::ptrdiff_t>(i))
        return fail(line_of(*t->get("values")), w + ": duplicate value " + quote(v.values[i]));
    }
    sc_.domain.variables.push_back(std::move(v));
  }
  return true;
}

bool AmbianceReader::read_actions(const std::vector<const toml::table*>& ts) {
  if (ts.empty()) return fail(0, "no [[action]]");
  for (const toml::table* t : ts) {
    ActionDef a;
    if (!named(*t, {"name", "cost", "effects", "prevail", "annotations", "ambiance_effects"},
               "[[action]]", actions_, "action", a.name))
      return false;
    const std::string w = "action " + quote(a.name);
    if (const toml::node* c = t->get("cost"); c && !cost_of(*c, w, a.cost)) return false;
    const toml::node* en = t->get("effects");
    if (!en || !en->as_array() || en->as_array()->empty())
      return fail(en ? line_of(*en) : line_of(*t),
                  w + " needs 'effects' = [{ var = ..., from = ..., to = ... }, ...]");
    for (const toml::node& e : *en->as_array()) {
      const toml::table* et = e.as_table();
      if (!et) return fail(line_of(e), "effects of " + w + " must be tables");
      if (!check_keys(*et, {"var", "from", "to"}, "an effect of " + w)) return false;
      std::string var;
      if (!string_of(*et, "var", "an effect of " + w, true, var)) return false;
      Effect eff;
      if (!variable(*et->get("var"), var, eff.var)) return false;
      if (const toml::node* from = et->get("from");
          from && !value(*from, eff.var, "'from' of " + w, eff.pre))
        return false;
      if (!et->get("to")) return fail_missing(line_of(*et), "an effect of " + w, "to");
      if (!value(*et->get("to"), eff.var, "'to' of " + w, eff.post)) return false;
      a.effects.push_back(eff);
    }
    std::vector<ValueId> prevail;
    if (!assignment(*t, "prevail", w, false, false, prevail)) return false;
    for (size_t v = 0; v < prevail.size(); ++v) {
      if (prevail[v] != kUndefined) a.prevail.push_back({static_cast<VarId>(v), prevail[v]});
    }
    std::vector<std::string> ann, events;
    if (!strings_of(*t, "annotations", w, ann) || !strings_of(*t, "ambiance_effects", w, events))
      return false;
    sc_.annotations.push_back(std::move(ann));
    pending_events_.emplace_back(t, std::move(events));
    sc_.domain.actions.push_back(std::move(a));
  }
  return true;
}

bool AmbianceReader::read_modifiers(const std::vector<const toml::table*>& ts) {
  for (const toml::table* t : ts) {
    AmbianceModifier m;
    if (!named(*t, {"name", "booster", "dampener"}, "[[modifier]]", mods_, "modifier", m.name))
      return false;
    const std::string w = "modifier " + quote(m.name);
    bool present = false;
    if (!cost_modifier(*t, "booster", w, true, nullptr, m.booster, present) ||
        !cost_modifier(*t, "dampener", w, false, &m.booster.annotations, m.dampener,
                       m.has_dampener))
      return false;
    sc_.modifiers.push_back(std::move(m));
  }
  return true;
}

bool AmbianceReader::resolve_action_events() {
  for (const auto& [t, names] : pending_events_) {
    std::vector<int32_t> ids;
    for (const std::string& name : names) {
      const auto it = mods_.find(name);
      if (it == mods_.end())
        return fail(line_of(*t->get("ambiance_effects")),
                    "'ambiance_effects': unknown modifier " + quote(name));
      ids.push_back(it->second);
    }
    sc_.action_events.push_back(std::move(ids));
  }
  return true;
}

bool AmbianceReader::read_areas(const std::vector<const toml::table*>& ts) {
  for (const toml::table* t : ts) {
    AmbianceArea a;
    if (!named(*t, {"name", "inside", "modifiers"}, "[[area]]", areas_, "area", a.name))
      return false;
    const std::string w = "area " + quote(a.name);
    if (!conditions(*t, "inside", w, a.inside) || !modifier_refs(*t, "modifiers", w, a.modifiers))
      return false;
    sc_.areas.push_back(std::move(a));
  }
  return true;
}

bool AmbianceReader::read_objects(const std::vector<const toml::table*>& ts) {
  for (const toml::table* t : ts) {
    AmbianceObject o;
    if (!named(*t, {"name", "range", "modifiers"}, "[[object]]", objects_, "object", o.name))
      return false;
    const std::string w = "object " + quote(o.name);
    if (!conditions(*t, "range", w, o.range) || !modifier_refs(*t, "modifiers", w, o.modifiers))
      return false;
    if (o.modifiers.empty()) return fail(line_of(*t), w + " has no 'modifiers'");
    sc_.objects.push_back(std::move(o));
  }
  return true;
}

bool AmbianceReader::read_types(const std::vector<const toml::table*>& ts) {
  if (ts.empty()) return fail(0, "no [[npc_type]]");
  for (const toml::table* t : ts) {
    AmbianceNpcType ty;
    if (!named(*t, {"name", "susceptible", "costs"}, "[[npc_type]]", types_, "npc type", ty.name))
      return false;
    const std::string w = "npc type " + quote(ty.name);
    if (!strings_of(*t, "susceptible", w, ty.susceptible)) return false;
    for (const ActionDef& a : sc_.domain.actions) ty.costs.push_back(a.cost);
    if (const toml::node* c = t->get("costs")) {
      const toml::table* ct = c->as_table();
      if (!ct) return fail(line_of(*c), "'costs' of " + w + " must be { action = cost }");
      for (auto&& [k, node] : *ct) {
        const auto it = actions_.find(std::string(k.str()));
        if (it == actions_.end())
          return fail(line_of(node), "'costs' of " + w + ": unknown action " + quote(k.str()));
        if (!cost_of(node, "action " + quote(k.str()) + " for " + w,
                     ty.costs[static_cast<size_t>(it->second)]))
          return false;
      }
    }
    sc_.types.push_back(std::move(ty));
  }
  return true;
}

bool AmbianceReader::read_npcs(const std::vector<const toml::table*>& ts) {
  if (ts.empty()) return fail(0, "no [[npc]]");
  for (const toml::table* t : ts) {
    AmbianceNpc n;
    if (!named(*t, {"name", "type", "init", "goal", "replan"}, "[[npc]]", npcs_, "npc", n.name))
      return false;
    const std::string w = "npc " + quote(n.name);
    std::string type;
    if (!string_of(*t, "type", w, true, type)) return false;
    const auto it = types_.find(type);
    if (it == types_.end())
      return fail(line_of(*t->get("type")), w + ": unknown type " + quote(type));
    n.type = it->second;
    if (!assignment(*t, "init", w, true, true, n.init) ||
        !assignment(*t, "goal", w, true, false, n.goal))
      return false;
    if (!get_bool(*t, "replan", w, n.replan)) return false;
    sc_.npcs.push_back(std::move(n));
  }
  return true;
}

Result<AmbianceScenario> AmbianceReader::read(std::string_view text) {
  toml::table root;
  if (!parse(text, root) ||
      !check_keys(
          root, {"scenario", "variable", "action", "modifier", "area", "object", "npc_type", "npc"},
          "the file"))
    return err_;
  std::vector<const toml::table*> vars, acts, mods, areas, objs, types, npcs;
  if (!array_of_tables(root, "variable", vars) || !array_of_tables(root, "action", acts) ||
      !array_of_tables(root, "modifier", mods) || !array_of_tables(root, "area", areas) ||
      !array_of_tables(root, "object", objs) || !array_of_tables(root, "npc_type", types) ||
      !array_of_tables(root, "npc", npcs))
    return err_;
  if (!read_scenario(root) || !read_variables(vars) || !read_actions(acts) ||
      !read_modifiers(mods) || !resolve_action_events() || !read_areas(areas) ||
      !read_objects(objs) || !read_types(types) || !read_npcs(npcs))
    return err_;
  if (sc_.name.empty()) sc_.name = std::filesystem::path(file_).stem().string();
  sc_.domain.name = sc_.name;
  if (auto e = check(sc_)) return Error{e->message, file_, 0};
  return std::move(sc_);
}

}  // namespace

Result<AmbianceScenario> parse_ambiance_scenario(std::string_view text,
                                                 const std::string& filename) {
  return AmbianceReader(filename).read(text);
}

Result<AmbianceScenario> load_ambiance_scenario(const std::string& path, int64_t max_bytes) {
  return toml_detail::load_text_file(path, static_cast<std::uintmax_t>(max_bytes),
                                     parse_ambiance_scenario);
}

}  // namespace topoplan::udgoap
