// UDGOAP scenario files (TOML, parsed by toml++). Reference: docs/udgoap.md.
//
// Every name is resolved here so each error carries the line of the offending value; World::check
// then re-validates the model as the single source of truth. Unknown keys are errors.
#include <algorithm>
#include <cmath>

#include "scenario_reader.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::udgoap {
namespace scenario_detail {

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

}  // namespace scenario_detail

using scenario_detail::Reader;

Result<Scenario> parse_scenario(std::string_view text, const std::string& filename) {
  return Reader(filename).read(text);
}

Result<Scenario> load_scenario(const std::string& path, int64_t max_bytes) {
  return toml_detail::load_text_file(path, static_cast<std::uintmax_t>(max_bytes), parse_scenario);
}

}  // namespace topoplan::udgoap
