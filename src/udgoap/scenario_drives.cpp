// UDGOAP scenario files, the drives: goal generators with their goals, triggers and removal
// conditions, and the [planner] limits. The rest of the reader is scenario_toml.cpp.
#include "scenario_reader.h"

namespace topoplan::udgoap::scenario_detail {

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
}  // namespace topoplan::udgoap::scenario_detail
