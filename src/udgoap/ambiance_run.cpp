// Smart ambiance scenarios: cross-reference checks and the deterministic simulation
// (include/topoplan/udgoap/ambiance_scenario.h). Cold path: one NPC decision at a time.
#include <algorithm>
#include <cassert>
#include <cstdio>

#include "runtime/limits/def_check.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/udgoap/ambiance_scenario.h"

namespace topoplan::udgoap {
namespace {

bool holds(const std::vector<StateCondition>& conditions, const std::vector<ValueId>& s) {
  return std::all_of(conditions.begin(), conditions.end(), [&](const StateCondition& c) {
    return std::find(c.values.begin(), c.values.end(), s[static_cast<size_t>(c.var)]) !=
           c.values.end();
  });
}

bool goal_holds(const std::vector<ValueId>& goal, const std::vector<ValueId>& s) {
  for (size_t v = 0; v < goal.size(); ++v) {
    if (goal[v] != kUndefined && goal[v] != s[v]) return false;
  }
  return true;
}

// The template `m` attached at time t: its starts become absolute.
AmbianceModifier attached(const AmbianceModifier& m, double t) {
  AmbianceModifier out = m;
  out.booster.start += t;
  out.dampener.start += t;
  return out;
}

std::string label(const AmbianceModifier& m) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "@%g", m.booster.start);
  return m.name + buf;
}

bool shares(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&](const std::string& x) {
    return std::find(b.begin(), b.end(), x) != b.end();
  });
}

std::optional<Error> bad(std::string message) {
  return Error{std::move(message), "", 0};
}

bool in_range(int32_t i, size_t n) {
  return i >= 0 && static_cast<size_t>(i) < n;
}

}  // namespace

std::optional<Error> check(const AmbianceScenario& sc) {
  for (const ActionDef& a : sc.domain.actions)
    if (auto e = check_limit(limits::kAmbianceCost, a.cost, "action '" + a.name + "'")) return e;
  Result<Domain> domain = Domain::compile(sc.domain);
  if (!domain) return domain.error();
  const size_t num_actions = sc.domain.actions.size();
  if (sc.annotations.size() != num_actions || sc.action_events.size() != num_actions)
    return bad("annotations and ambiance effects must be given per action");
  const auto check_mods = [&](const std::vector<int32_t>& mods) {
    return std::all_of(mods.begin(), mods.end(),
                       [&](int32_t m) { return in_range(m, sc.modifiers.size()); });
  };
  for (const auto& ev : sc.action_events) {
    if (!check_mods(ev)) return bad("ambiance effect names no modifier");
  }
  const auto check_conds = [&](const std::vector<StateCondition>& cs) {
    return std::all_of(cs.begin(), cs.end(), [&](const StateCondition& c) {
      return in_range(c.var, sc.domain.variables.size()) &&
             std::all_of(c.values.begin(), c.values.end(), [&](ValueId x) {
               return in_range(x, sc.domain.variables[static_cast<size_t>(c.var)].values.size());
             });
    });
  };
  for (const AmbianceArea& a : sc.areas) {
    if (!check_mods(a.modifiers) || !check_conds(a.inside))
      return bad("area '" + a.name + "': bad modifier or condition");
  }
  for (const AmbianceObject& o : sc.objects) {
    if (!check_mods(o.modifiers) || !check_conds(o.range))
      return bad("object '" + o.name + "': bad modifier or condition");
  }
  for (const AmbianceNpcType& t : sc.types) {
    if (t.costs.size() != num_actions) return bad("type '" + t.name + "': one cost per action");
    for (size_t a = 0; a < num_actions; ++a)
      if (auto e = check_limit(limits::kAmbianceCost, t.costs[a],
                               "type '" + t.name + "' action '" + sc.domain.actions[a].name + "'"))
        return e;
  }
  for (const AmbianceNpc& n : sc.npcs) {
    if (!in_range(n.type, sc.types.size())) return bad("npc '" + n.name + "': no such type");
    Instance inst;
    inst.init = n.init;
    inst.goal = n.goal;
    if (auto e = domain->check_instance(inst)) {
      return bad("npc '" + n.name + "': " + e->message);
    }
  }
  for (const AmbianceModifier& m : sc.modifiers) {
    if (auto e = check(m)) return e;
  }
  constexpr std::string_view kWhere = "AmbianceScenario";
  if (auto e = check_limit(limits::kAmbianceActionTime, sc.action_time, kWhere)) return e;
  return check_limit(limits::kAmbianceMaxSteps, int64_t{sc.max_steps}, kWhere);
}

AmbianceRun run_ambiance(const AmbianceScenario& sc, bool with_ambiance) {
  AmbianceRun run;
  double t = 0.0;
  assert(!check(sc));
  // One compiled domain and one planner for the whole run: a decision changes only the costs
  // (AStarPlanner's cost overlay, set_costs), so the planner re-derives its cost tables, nothing
  // else, and no domain definition is copied.
  Result<Domain> domain = Domain::compile(sc.domain);
  assert(domain.ok());  // check() held
  AStarPlanner astar(domain.value());
  // Event modifiers each area holds (absolute starts).
  std::vector<std::vector<AmbianceModifier>> area_events(sc.areas.size());
  for (const AmbianceNpc& npc : sc.npcs) {
    const AmbianceNpcType& type = sc.types[static_cast<size_t>(npc.type)];
    AmbianceNpcRun out;
    out.name = npc.name;
    std::vector<ValueId> s = npc.init;
    std::vector<double> area_entry(sc.areas.size(), -1.0), object_entry(sc.objects.size(), -1.0);
    std::vector<int64_t> costs(type.costs.size());  // this decision's, by ambiance_costs
    AmbianceInfo info{type.susceptible, {}};
    for (int32_t step = 0;; ++step) {
      if (goal_holds(npc.goal, s)) break;
      if (step >= sc.max_steps) {
        out.status = PlanStatus::kLimitReached;
        break;
      }
      // Who is inside what, and since when.
      info.active.clear();
      // An area's or an object's modifiers are active while its condition holds, attached at
      // the time it began to hold (`entry`, -1 while it does not).
      auto enter = [&](const auto& condition, double& entry, const std::vector<int32_t>& mods) {
        if (!holds(condition, s)) {
          entry = -1.0;
          return false;
        }
        if (entry < 0.0) entry = t;
        for (int32_t m : mods)
          info.active.push_back(attached(sc.modifiers[static_cast<size_t>(m)], entry));
        return true;
      };
      for (size_t a = 0; a < sc.areas.size(); ++a)
        if (enter(sc.areas[a].inside, area_entry[a], sc.areas[a].modifiers))
          info.active.insert(info.active.end(), area_events[a].begin(), area_events[a].end());
      for (size_t o = 0; o < sc.objects.size(); ++o)
        (void)enter(sc.objects[o].range, object_entry[o], sc.objects[o].modifiers);
      if (!with_ambiance) info.active.clear();
      AmbianceDecision d;
      d.time = t;
      d.state = s;
      for (const AmbianceModifier& m : info.active) {
        if (shares(m.booster.annotations, info.susceptible)) d.active.push_back(label(m));
      }
      ambiance_costs(type.costs, sc.annotations, info, t, costs);
      d.base_cost = type.costs;
      d.cost = costs;
      Instance inst;
      inst.init = s;
      inst.goal = npc.goal;
      d.status = astar.plan(inst.init, inst.goal, inst.npc_class, costs, PlannerOptions{}, d.plan);
      if (d.status == PlanStatus::kSolved) {
        // Validity does not depend on costs; the cost is the one this decision saw.
        const Validation v = validate_plan(domain.value(), inst, d.plan);
        d.valid = v.valid;
        d.plan_cost = 0;
        for (ActionId a : d.plan) d.plan_cost += costs[static_cast<size_t>(a)];
      }
      const std::vector<ActionId> plan = d.plan;
      const PlanStatus status = d.status;
      const bool valid = d.valid;
      out.decisions.push_back(std::move(d));
      if (status != PlanStatus::kSolved || !valid || plan.empty()) {
        out.status = status == PlanStatus::kSolved ? PlanStatus::kGaveUp : status;
        break;
      }
      const size_t n = npc.replan ? 1 : plan.size();
      for (size_t i = 0; i < n; ++i) {
        const ActionId a = plan[i];
        // Ambiance effects go to the areas the NPC performs the action in.
        for (size_t ar = 0; ar < sc.areas.size(); ++ar) {
          if (!holds(sc.areas[ar].inside, s)) continue;
          for (int32_t m : sc.action_events[static_cast<size_t>(a)]) {
            area_events[ar].push_back(attached(sc.modifiers[static_cast<size_t>(m)], t));
          }
        }
        for (const Effect& e : sc.domain.actions[static_cast<size_t>(a)].effects) {
          s[static_cast<size_t>(e.var)] = e.post;
        }
        out.executed.push_back(a);
        out.cost += costs[static_cast<size_t>(a)];
        t += sc.action_time;
      }
      for (auto& events : area_events) {
        std::erase_if(events, [t](const AmbianceModifier& m) { return m.should_stop(t); });
      }
    }
    if (out.status != PlanStatus::kSolved) run.all_solved = false;
    run.npcs.push_back(std::move(out));
  }
  return run;
}

}  // namespace topoplan::udgoap
