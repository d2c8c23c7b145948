// Smart ambiance scenario files (TOML, toml++). Reference: docs/udgoap.md, "Smart ambiance
// scenario files". Every name is resolved here so each error carries its line; unknown keys are
// errors. check() re-validates the result.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>

#include <toml++/toml.h>

#include "topoplan/udgoap/ambiance_scenario.h"

namespace topoplan::udgoap {
namespace {

constexpr std::uintmax_t kMaxFileSize = std::uintmax_t{16} << 20;

int line_of(const toml::node& n) {
  return static_cast<int>(n.source().begin.line);
}

std::string quote(std::string_view s) {
  return "'" + std::string(s) + "'";
}

class AmbianceReader {
 public:
  explicit AmbianceReader(std::string file) : file_(std::move(file)) {}
  Result<AmbianceScenario> read(std::string_view text);

 private:
  bool fail(int line, std::string message) {
    if (err_.message.empty()) err_ = Error{std::move(message), file_, line};
    return false;
  }

  bool keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
            const std::string& where) {
    for (auto&& [key, node] : t) {
      (void)node;
      if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
      std::string list;
      for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
      return fail(static_cast<int>(key.source().begin.line),
                  "unknown key " + quote(key.str()) + " in " + where + " (allowed: " + list + ")");
    }
    return true;
  }

  bool string_of(const toml::table& t, std::string_view key, const std::string& where,
                 bool required, std::string& out) {
    const toml::node* n = t.get(key);
    if (!n) return !required || fail(line_of(t), where + " is missing " + quote(key));
    if (!n->is_string() || n->as_string()->get().empty())
      return fail(line_of(*n), quote(key) + " of " + where + " must be a non-empty string");
    out = n->as_string()->get();
    return true;
  }

  bool number_of(const toml::table& t, std::string_view key, const std::string& where,
                 double& out) {
    const toml::node* n = t.get(key);
    if (!n) return true;
    const auto v = n->value<double>();
    if (!v || !(n->is_integer() || n->is_floating_point()) || !std::isfinite(*v))
      return fail(line_of(*n), quote(key) + " of " + where + " must be a finite number");
    out = *v;
    return true;
  }

  bool cost_of(const toml::node& n, const std::string& where, int64_t& out) {
    const auto v = n.value<int64_t>();
    if (!n.is_integer() || !v || *v < 0 || *v > kMaxCost)
      return fail(line_of(n), "cost of " + where + " must be an integer in [0, 2^40]");
    out = *v;
    return true;
  }

  bool strings_of(const toml::table& t, std::string_view key, const std::string& where,
                  std::vector<std::string>& out) {
    const toml::node* n = t.get(key);
    if (!n) return true;
    const toml::array* arr = n->as_array();
    if (!arr) return fail(line_of(*n), quote(key) + " of " + where + " must be an array");
    for (const toml::node& e : *arr) {
      if (!e.is_string() || e.as_string()->get().empty())
        return fail(line_of(e), quote(key) + " of " + where + " must hold non-empty strings");
      out.push_back(e.as_string()->get());
    }
    return true;
  }

  // The [[name]] tables of the file (absent: none).
  bool tables(const toml::table& root, std::string_view name,
              std::vector<const toml::table*>& out) {
    const toml::node* n = root.get(name);
    if (!n) return true;
    const toml::array* arr = n->as_array();
    if (!arr)
      return fail(line_of(*n),
                  quote(name) + " must be an array of tables [[" + std::string(name) + "]]");
    for (const toml::node& e : *arr) {
      if (!e.is_table()) return fail(line_of(e), "[[" + std::string(name) + "]] must be tables");
      out.push_back(e.as_table());
    }
    return true;
  }

  bool unique(std::map<std::string, int32_t>& index, const std::string& name, int line,
              const std::string& kind) {
    if (!index.emplace(name, static_cast<int32_t>(index.size())).second)
      return fail(line, "duplicate " + kind + " " + quote(name));
    return true;
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
    if (!n) return !required || fail(line_of(t), where + " is missing " + quote(key));
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
    if (!n) return !required || fail(line_of(t), where + " is missing " + quote(key));
    const toml::table* m = n->as_table();
    const std::string w = quote(key) + " of " + where;
    if (!m) return fail(line_of(*n), w + " must be a table");
    if (!keys(*m, {"amount", "rate", "delay", "duration", "annotations"}, w)) return false;
    if (!m->get("amount")) return fail(line_of(*m), w + " is missing 'amount'");
    if (!number_of(*m, "amount", w, out.amount) || !number_of(*m, "delay", w, out.start) ||
        !number_of(*m, "duration", w, out.duration))
      return false;
    if (out.start < 0.0) return fail(line_of(*m->get("delay")), w + ": 'delay' must be >= 0");
    if (out.duration < 0.0)
      return fail(line_of(*m->get("duration")), w + ": 'duration' must be >= 0");
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

  std::string file_;
  Error err_;
  AmbianceScenario sc_;
  std::map<std::string, int32_t> vars_, actions_, mods_, types_, areas_, objects_, npcs_;
  std::vector<std::pair<const toml::table*, std::vector<std::string>>> pending_events_;
};

bool AmbianceReader::read_scenario(const toml::table& root) {
  const toml::node* n = root.get("scenario");
  if (!n) return true;
  const toml::table* t = n->as_table();
  if (!t) return fail(line_of(*n), "'scenario' must be a table [scenario]");
  if (!keys(*t, {"name", "action_time", "max_steps"}, "[scenario]") ||
      !string_of(*t, "name", "[scenario]", false, sc_.name) ||
      !number_of(*t, "action_time", "[scenario]", sc_.action_time))
    return false;
  if (sc_.action_time < 0.0)
    return fail(line_of(*t->get("action_time")), "'action_time' must be >= 0");
  if (const toml::node* m = t->get("max_steps")) {
    const auto v = m->value<int64_t>();
    if (!m->is_integer() || !v || *v < 1 || *v > 1000000)
      return fail(line_of(*m), "'max_steps' must be an integer in [1, 1000000]");
    sc_.max_steps = static_cast<int32_t>(*v);
  }
  return true;
}

bool AmbianceReader::read_variables(const std::vector<const toml::table*>& ts) {
  if (ts.empty()) return fail(0, "no [[variable]]");
  for (const toml::table* t : ts) {
    VariableDef v;
    if (!keys(*t, {"name", "values"}, "[[variable]]") ||
        !string_of(*t, "name", "[[variable]]", true, v.name) ||
        !unique(vars_, v.name, line_of(*t->get("name")), "variable"))
      return false;
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
    if (!keys(*t, {"name", "cost", "effects", "prevail", "annotations", "ambiance_effects"},
              "[[action]]") ||
        !string_of(*t, "name", "[[action]]", true, a.name) ||
        !unique(actions_, a.name, line_of(*t->get("name")), "action"))
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
      if (!keys(*et, {"var", "from", "to"}, "an effect of " + w)) return false;
      std::string var;
      if (!string_of(*et, "var", "an effect of " + w, true, var)) return false;
      Effect eff;
      if (!variable(*et->get("var"), var, eff.var)) return false;
      if (const toml::node* from = et->get("from");
          from && !value(*from, eff.var, "'from' of " + w, eff.pre))
        return false;
      if (!et->get("to")) return fail(line_of(*et), "an effect of " + w + " is missing 'to'");
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
    if (!keys(*t, {"name", "booster", "dampener"}, "[[modifier]]") ||
        !string_of(*t, "name", "[[modifier]]", true, m.name) ||
        !unique(mods_, m.name, line_of(*t->get("name")), "modifier"))
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
    if (!keys(*t, {"name", "inside", "modifiers"}, "[[area]]") ||
        !string_of(*t, "name", "[[area]]", true, a.name) ||
        !unique(areas_, a.name, line_of(*t->get("name")), "area"))
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
    if (!keys(*t, {"name", "range", "modifiers"}, "[[object]]") ||
        !string_of(*t, "name", "[[object]]", true, o.name) ||
        !unique(objects_, o.name, line_of(*t->get("name")), "object"))
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
    if (!keys(*t, {"name", "susceptible", "costs"}, "[[npc_type]]") ||
        !string_of(*t, "name", "[[npc_type]]", true, ty.name) ||
        !unique(types_, ty.name, line_of(*t->get("name")), "npc type"))
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
    if (!keys(*t, {"name", "type", "init", "goal", "replan"}, "[[npc]]") ||
        !string_of(*t, "name", "[[npc]]", true, n.name) ||
        !unique(npcs_, n.name, line_of(*t->get("name")), "npc"))
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
    if (const toml::node* r = t->get("replan")) {
      if (!r->is_boolean()) return fail(line_of(*r), "'replan' of " + w + " must be true or false");
      n.replan = r->as_boolean()->get();
    }
    sc_.npcs.push_back(std::move(n));
  }
  return true;
}

Result<AmbianceScenario> AmbianceReader::read(std::string_view text) {
  toml::table root;
  try {
    root = toml::parse(text, file_);
  } catch (const toml::parse_error& e) {
    return Error{std::string(e.description()), file_, static_cast<int>(e.source().begin.line)};
  } catch (const std::exception& e) {
    return Error{std::string("cannot parse the file: ") + e.what(), file_, 0};
  }
  if (!keys(root,
            {"scenario", "variable", "action", "modifier", "area", "object", "npc_type", "npc"},
            "the file"))
    return err_;
  std::vector<const toml::table*> vars, acts, mods, areas, objs, types, npcs;
  if (!tables(root, "variable", vars) || !tables(root, "action", acts) ||
      !tables(root, "modifier", mods) || !tables(root, "area", areas) ||
      !tables(root, "object", objs) || !tables(root, "npc_type", types) ||
      !tables(root, "npc", npcs))
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

Result<AmbianceScenario> load_ambiance_scenario(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) return Error{"cannot open the file", path, 0};
  if (!std::filesystem::is_regular_file(status)) return Error{"not a regular file", path, 0};
  const auto size = std::filesystem::file_size(path, ec);
  if (ec || size > kMaxFileSize) return Error{"the file is too large (limit 16 MiB)", path, 0};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot open the file", path, 0};
  std::string text(static_cast<size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  text.resize(static_cast<size_t>(in.gcount()));
  return parse_ambiance_scenario(text, path);
}

}  // namespace topoplan::udgoap
