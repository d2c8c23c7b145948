// The agent's drive and goal bookkeeping (thesis §3.5.2) and the utility of a state.
#include <algorithm>

#include "topoplan/udgoap/planner.h"

namespace topoplan::udgoap {
namespace {

const GoalTemplate& goal_template(const World& world, const Goal& goal) {
  return world.drives[static_cast<size_t>(goal.drive)]
      .generators[static_cast<size_t>(goal.generator)]
      .goal;
}

Binding goal_binding(const World& world, EntityId target) {
  Binding b;
  b.consumer = world.agent;
  b.target = target;
  return b;
}

}  // namespace

AgentState make_agent_state(const World& world) {
  AgentState agent;
  for (size_t d = 0; d < world.drives.size(); ++d) agent.drives.push_back(static_cast<int32_t>(d));
  return agent;
}

double goal_completeness(const World& world, const Goal& goal, std::span<const Value> state) {
  const GoalTemplate& t = goal_template(world, goal);
  const Binding b = goal_binding(world, goal.target);
  double result = t.combine == Combine::kMean ? 0.0 : 1.0;
  for (const GoalCondition& c : t.conditions) {
    const SlotId s = world.resolve(c.fact, b);
    double v = 0.0;
    if (s != kNoSlot && !state[static_cast<size_t>(s)].is_vector) {
      const Fact& f = world.facts[static_cast<size_t>(s)];
      v = evaluate(c.curve, normalise(state[static_cast<size_t>(s)].x, f.min, f.max));
    }
    switch (t.combine) {
      case Combine::kMean:
        result += v;
        break;
      case Combine::kMin:
        result = std::min(result, v);
        break;
      case Combine::kProduct:
        result *= v;
        break;
    }
  }
  if (t.combine == Combine::kMean) {
    result = t.conditions.empty() ? 0.0 : result / static_cast<double>(t.conditions.size());
  }
  return result;
}

void update_agent(const World& world, std::span<const Value> state, AgentState& agent) {
  const Binding self = goal_binding(world, kNoEntity);
  // 1. Drives whose removal triggers hold go, with their goals.
  std::erase_if(agent.drives, [&](int32_t d) {
    const Drive& drive = world.drives[static_cast<size_t>(d)];
    const bool remove = !drive.removal.empty() && world.holds_all(drive.removal, state, self);
    if (remove) std::erase_if(agent.goals, [d](const Goal& g) { return g.drive == d; });
    return remove;
  });
  // 2. New goals, once per (drive, generator, target).
  for (int32_t d : agent.drives) {
    const Drive& drive = world.drives[static_cast<size_t>(d)];
    for (size_t gi = 0; gi < drive.generators.size(); ++gi) {
      const GoalGenerator& gen = drive.generators[gi];
      auto consider = [&](EntityId target) {
        const bool exists = std::any_of(agent.goals.begin(), agent.goals.end(), [&](const Goal& g) {
          return g.drive == d && g.generator == static_cast<int32_t>(gi) && g.target == target;
        });
        if (exists) return;
        if (!world.holds_all(gen.triggers, state, goal_binding(world, target))) return;
        Goal goal;
        goal.id = agent.next_goal_id++;
        goal.drive = d;
        goal.generator = static_cast<int32_t>(gi);
        goal.target = target;
        agent.goals.push_back(goal);
      };
      if (gen.for_each.empty()) {
        consider(kNoEntity);
      } else {
        for (size_t e = 0; e < world.entities.size(); ++e)
          if (world.entities[e].has_tag(gen.for_each)) consider(static_cast<EntityId>(e));
      }
    }
  }
  // 3. Completeness, then 4. removal of goals whose removal triggers hold.
  for (Goal& g : agent.goals) g.completeness = goal_completeness(world, g, state);
  std::erase_if(agent.goals, [&](const Goal& g) {
    const GoalTemplate& t = goal_template(world, g);
    return !t.removal.empty() && world.holds_all(t.removal, state, goal_binding(world, g.target));
  });
}

double state_utility(const World& world, const AgentState& agent, std::span<const Value> state,
                     std::vector<double>* drive_satisfactions) {
  std::vector<Weighted> drives;
  std::vector<Weighted> goals;
  TopLevelUtility fn = world.utility;
  fn.death_drive = -1;
  for (size_t i = 0; i < agent.drives.size(); ++i) {
    const int32_t d = agent.drives[i];
    if (d == world.utility.death_drive) fn.death_drive = static_cast<int32_t>(i);
    goals.clear();
    for (const Goal& g : agent.goals) {
      if (g.drive != d) continue;
      goals.push_back({goal_completeness(world, g, state), goal_template(world, g).weight});
    }
    drives.push_back({drive_satisfaction(goals), world.drives[static_cast<size_t>(d)].weight});
  }
  if (drive_satisfactions != nullptr) {
    drive_satisfactions->clear();
    for (const Weighted& w : drives) drive_satisfactions->push_back(w.value);
  }
  return top_level_utility(fn, drives);
}

}  // namespace topoplan::udgoap
