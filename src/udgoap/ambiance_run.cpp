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

namespace {

// What a run shares across its NPCs (one after the other): the scenario, one compiled domain
// and one planner (a decision changes only the costs: AStarPlanner's cost overlay, set_costs,
// re-derives its cost tables, nothing else, and no domain definition is copied), the clock and
// the event modifiers each area holds (absolute starts).
struct AmbianceSim {
  const AmbianceScenario& sc;
  bool with_ambiance;
  const Domain& domain;
  AStarPlanner astar;
  double t = 0.0;
  std::vector<std::vector<AmbianceModifier>> area_events;

  AmbianceSim(const AmbianceScenario& scenario, bool ambiance, const Domain& d)
      : sc(scenario), with_ambiance(ambiance), domain(d), astar(d), area_events(sc.areas.size()) {}

  AmbianceNpcRun run(const AmbianceNpc& npc);

 private:
  // One NPC's walk: its state, since when it is in each area and in each object's range (-1
  // while it is not), and its current decision's costs and active modifiers.
  struct Walk {
    std::vector<ValueId> s;
    std::vector<double> area_entry, object_entry;
    std::vector<int64_t> costs;
    AmbianceInfo info;
  };
  bool enter(Walk& w, const std::vector<StateCondition>& condition, double& entry,
             const std::vector<int32_t>& mods) const;
  void find_active(Walk& w) const;
  AmbianceDecision decide(Walk& w, const AmbianceNpc& npc, const AmbianceNpcType& type);
  void execute(Walk& w, const AmbianceNpc& npc, const std::vector<ActionId>& plan,
               AmbianceNpcRun& out);
};

// An area's or an object's modifiers are active while its condition holds, attached at the time
// it began to hold (`entry`, -1 while it does not).
bool AmbianceSim::enter(Walk& w, const std::vector<StateCondition>& condition, double& entry,
                        const std::vector<int32_t>& mods) const {
  if (!holds(condition, w.s)) {
    entry = -1.0;
    return false;
  }
  if (entry < 0.0) entry = t;
  for (int32_t m : mods)
    w.info.active.push_back(attached(sc.modifiers[static_cast<size_t>(m)], entry));
  return true;
}

// Who is inside what, and since when: the modifiers active now (none without ambiance).
void AmbianceSim::find_active(Walk& w) const {
  w.info.active.clear();
  for (size_t a = 0; a < sc.areas.size(); ++a)
    if (enter(w, sc.areas[a].inside, w.area_entry[a], sc.areas[a].modifiers))
      w.info.active.insert(w.info.active.end(), area_events[a].begin(), area_events[a].end());
  for (size_t o = 0; o < sc.objects.size(); ++o)
    (void)enter(w, sc.objects[o].range, w.object_entry[o], sc.objects[o].modifiers);
  if (!with_ambiance) w.info.active.clear();
}

// One decision: the costs the active modifiers give now, and A*'s plan under them (validated).
AmbianceDecision AmbianceSim::decide(Walk& w, const AmbianceNpc& npc, const AmbianceNpcType& type) {
  AmbianceDecision d;
  d.time = t;
  d.state = w.s;
  for (const AmbianceModifier& m : w.info.active) {
    if (shares(m.booster.annotations, w.info.susceptible)) d.active.push_back(label(m));
  }
  ambiance_costs(type.costs, sc.annotations, w.info, t, w.costs);
  d.base_cost = type.costs;
  d.cost = w.costs;
  Instance inst;
  inst.init = w.s;
  inst.goal = npc.goal;
  d.status = astar.plan(inst.init, inst.goal, inst.npc_class, w.costs, PlannerOptions{}, d.plan);
  if (d.status == PlanStatus::kSolved) {
    // Validity does not depend on costs; the cost is the one this decision saw.
    const Validation v = validate_plan(domain, inst, d.plan);
    d.valid = v.valid;
    d.plan_cost = 0;
    for (ActionId a : d.plan) d.plan_cost += w.costs[static_cast<size_t>(a)];
  }
  return d;
}

// Performs the plan's first action (an NPC that replans) or all of it, then drops the area
// events that have stopped.
void AmbianceSim::execute(Walk& w, const AmbianceNpc& npc, const std::vector<ActionId>& plan,
                          AmbianceNpcRun& out) {
  const size_t n = npc.replan ? 1 : plan.size();
  for (size_t i = 0; i < n; ++i) {
    const ActionId a = plan[i];
    // Ambiance effects go to the areas the NPC performs the action in.
    for (size_t ar = 0; ar < sc.areas.size(); ++ar) {
      if (!holds(sc.areas[ar].inside, w.s)) continue;
      for (int32_t m : sc.action_events[static_cast<size_t>(a)]) {
        area_events[ar].push_back(attached(sc.modifiers[static_cast<size_t>(m)], t));
      }
    }
    for (const Effect& e : sc.domain.actions[static_cast<size_t>(a)].effects) {
      w.s[static_cast<size_t>(e.var)] = e.post;
    }
    out.executed.push_back(a);
    out.cost += w.costs[static_cast<size_t>(a)];
    t += sc.action_time;
  }
  for (auto& events : area_events) {
    const double now = t;
    std::erase_if(events, [now](const AmbianceModifier& m) { return m.should_stop(now); });
  }
}

AmbianceNpcRun AmbianceSim::run(const AmbianceNpc& npc) {
  const AmbianceNpcType& type = sc.types[static_cast<size_t>(npc.type)];
  AmbianceNpcRun out;
  out.name = npc.name;
  Walk w{npc.init, std::vector<double>(sc.areas.size(), -1.0),
         std::vector<double>(sc.objects.size(), -1.0),
         std::vector<int64_t>(type.costs.size()),  // this decision's, by ambiance_costs
         AmbianceInfo{type.susceptible, {}}};
  for (int32_t step = 0;; ++step) {
    if (goal_holds(npc.goal, w.s)) break;
    if (step >= sc.max_steps) {
      out.status = PlanStatus::kLimitReached;
      break;
    }
    find_active(w);
    AmbianceDecision d = decide(w, npc, type);
    const std::vector<ActionId> plan = d.plan;
    const PlanStatus status = d.status;
    const bool valid = d.valid;
    out.decisions.push_back(std::move(d));
    if (status != PlanStatus::kSolved || !valid || plan.empty()) {
      out.status = status == PlanStatus::kSolved ? PlanStatus::kGaveUp : status;
      break;
    }
    execute(w, npc, plan, out);
  }
  return out;
}

}  // namespace

AmbianceRun run_ambiance(const AmbianceScenario& sc, bool with_ambiance) {
  assert(!check(sc));
  Result<Domain> domain = Domain::compile(sc.domain);
  assert(domain.ok());  // check() held
  AmbianceSim sim(sc, with_ambiance, domain.value());
  AmbianceRun run;
  for (const AmbianceNpc& npc : sc.npcs) {
    AmbianceNpcRun out = sim.run(npc);
    if (out.status != PlanStatus::kSolved) run.all_solved = false;
    run.npcs.push_back(std::move(out));
  }
  return run;
}

}  // namespace topoplan::udgoap
