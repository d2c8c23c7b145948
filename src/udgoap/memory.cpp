// The agent's fact memory and its external drives (memory.h; Sloan 2015 §3.5.1-3.5.2).
#include "topoplan/udgoap/memory.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace topoplan::udgoap {
namespace {

Error err(std::string message) {
  return Error{std::move(message), "", 0};
}

}  // namespace

Result<SenseOutcome> sense(World& world, const Fact& percept) {
  if (percept.entity < 0 || static_cast<size_t>(percept.entity) >= world.entities.size())
    return err("sense: the percept's entity " + std::to_string(percept.entity) +
               " is not an entity of the world");
  if (percept.attribute < 0 || static_cast<size_t>(percept.attribute) >= world.attributes.size())
    return err("sense: the percept's attribute " + std::to_string(percept.attribute) +
               " is not an attribute of the world");
  const std::string what = world.entities[static_cast<size_t>(percept.entity)].name + "." +
                           world.attributes[static_cast<size_t>(percept.attribute)];
  if (!std::isfinite(percept.timestamp))
    return err("sense: " + what + ": the timestamp must be finite");
  if (percept.kind != FactKind::kSensed)
    return err("sense: " + what + ": a percept is a sensed fact (kind kSensed)");
  const SlotId s = world.slot(percept.entity, percept.attribute);
  if (s == kNoSlot) {
    world.set_fact(percept);
    return SenseOutcome::kAdded;
  }
  Fact& known = world.facts[static_cast<size_t>(s)];
  if (known.kind != FactKind::kSensed)
    return err("sense: " + what + " is a property or an implicit fact, not something sensed");
  if (known.timestamp > percept.timestamp) return SenseOutcome::kKeptFresher;
  const int32_t id = known.id;
  known = percept;
  known.id = id;  // the fact keeps its identity (file order) when its value is refreshed
  return SenseOutcome::kRefreshed;
}

Result<ForgetStats> forget(World& world, AgentState& agent, double now, double max_age) {
  if (!std::isfinite(now)) return err("forget: 'now' must be finite");
  if (!std::isfinite(max_age) || max_age < 0.0)
    return err("forget: 'max_age' must be finite and at least 0, found " + std::to_string(max_age));
  const double oldest = now - max_age;
  ForgetStats st;
  const size_t before = world.facts.size();
  std::erase_if(world.facts,
                [&](const Fact& f) { return f.kind == FactKind::kSensed && f.timestamp < oldest; });
  st.facts = static_cast<int32_t>(before - world.facts.size());
  if (st.facts == 0) return st;
  world.reindex();
  std::vector<uint8_t> known(world.entities.size(), 0);
  for (const Fact& f : world.facts)
    if (f.kind == FactKind::kSensed) known[static_cast<size_t>(f.entity)] = 1;
  const size_t goals = agent.goals.size();
  std::erase_if(agent.goals, [&](const Goal& g) {
    return g.target != kNoEntity && known[static_cast<size_t>(g.target)] == 0;
  });
  st.goals = static_cast<int32_t>(goals - agent.goals.size());
  return st;
}

Result<int32_t> add_external_drive(World& world, AgentState& agent, Drive drive) {
  if (drive.name.empty()) return err("add_external_drive: the drive needs a name");
  int32_t index = -1;
  for (size_t d = 0; d < world.drives.size(); ++d) {
    if (world.drives[d].name != drive.name) continue;
    const auto i = static_cast<int32_t>(d);
    if (std::find(agent.drives.begin(), agent.drives.end(), i) != agent.drives.end())
      return err("add_external_drive: the agent already has the drive " + drive.name);
    index = i;  // a retired drive of that name: the new order replaces it
  }
  Drive previous;
  if (index >= 0) {
    previous = std::exchange(world.drives[static_cast<size_t>(index)], std::move(drive));
  } else {
    world.drives.push_back(std::move(drive));
  }
  if (std::optional<Error> e = world.check()) {
    if (index >= 0) {
      world.drives[static_cast<size_t>(index)] = std::move(previous);
    } else {
      world.drives.pop_back();
    }
    return err("add_external_drive: " + e->message);
  }
  if (index < 0) index = static_cast<int32_t>(world.drives.size() - 1);
  agent.drives.push_back(index);
  return index;
}

}  // namespace topoplan::udgoap
