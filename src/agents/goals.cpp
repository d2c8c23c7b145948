// Goals, goal lists, drives and drive lists of an agent world (agents.h).
#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "agents/world_impl.h"

namespace topoplan::agents {

Result<GoalId> AgentWorld::add_goal(std::string name, std::span<const ValueId> values) {
  Impl& w = *impl_;
  const Domain& d = *w.domain;
  if (name.empty()) return Error{"add_goal: the goal needs a name", "", 0};
  if (static_cast<int32_t>(values.size()) != d.num_variables())
    return Error{"add_goal '" + name + "': " + std::to_string(values.size()) +
                     " values for a domain of " + std::to_string(d.num_variables()) + " variables",
                 "", 0};
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = values[static_cast<size_t>(v)];
    if (x != kUndefined && (x < 0 || x >= d.domain_size(v)))
      return Error{"add_goal '" + name + "': value " + std::to_string(x) + " of '" +
                       d.variable_name(v) + "' is out of range",
                   "", 0};
  }
  Goal g;
  g.name = std::move(name);
  g.values.assign(values.begin(), values.end());
  const auto words = static_cast<size_t>(w.words);
  g.mask.assign(words, 0);
  g.value.assign(words, 0);
  g.packed.assign(words, 0);
  const CrowdLayout& layout = w.planner->layout();
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = values[static_cast<size_t>(v)];
    if (x == kUndefined) continue;
    const CrowdLayout::Field& fl = layout.field(v);
    g.mask[static_cast<size_t>(fl.word)] |= fl.mask << fl.shift;
    g.value[static_cast<size_t>(fl.word)] |= static_cast<uint64_t>(x) << fl.shift;
  }
  if (layout.words() > 0) layout.pack_goal(values, g.packed.data());
  w.goals.push_back(std::move(g));
  return static_cast<GoalId>(w.goals.size() - 1);
}

Result<int32_t> AgentWorld::add_goal_list(std::span<const GoalId> list) {
  Impl& w = *impl_;
  for (GoalId g : list)
    if (g < 0 || g >= static_cast<GoalId>(w.goals.size()))
      return Error{"add_goal_list: no goal " + std::to_string(g), "", 0};
  if (w.list_offset.size() > 0xFFFF) return Error{"add_goal_list: too many lists", "", 0};
  w.list_goals.insert(w.list_goals.end(), list.begin(), list.end());
  w.entry_drive.resize(w.list_goals.size(), 0);
  w.entry_curve.resize(w.list_goals.size());
  w.entry_weight.resize(w.list_goals.size(), 0.0);
  w.list_offset.push_back(static_cast<int32_t>(w.list_goals.size()));
  w.list_by_drives.push_back(0);
  w.list_margin.push_back(0.0);
  return static_cast<int32_t>(w.list_offset.size() - 2);
}

Result<DriveId> AgentWorld::add_drive(const DriveDef& drive) {
  Impl& w = *impl_;
  const std::string where = "add_drive '" + drive.name + "': ";
  if (drive.name.empty()) return Error{"add_drive: the drive needs a name", "", 0};
  if (w.n > 0) return Error{where + "drives are declared before the first agent", "", 0};
  if (static_cast<int32_t>(w.drives.size()) >= kMaxDrives)
    return Error{where + "more than " + std::to_string(kMaxDrives) + " drives", "", 0};
  if (!std::isfinite(drive.min) || !std::isfinite(drive.max) || !(drive.min < drive.max))
    return Error{where + "the range [min, max] must be finite with min < max", "", 0};
  if (!std::isfinite(drive.rate)) return Error{where + "rate must be finite", "", 0};
  if (!std::isfinite(drive.initial)) return Error{where + "initial must be finite", "", 0};
  const size_t old_count = w.drives.size(), count = old_count + 1;
  const auto actions = static_cast<size_t>(w.domain->num_actions());
  std::vector<double> effects(actions * count, 0.0);
  for (size_t a = 0; a < actions; ++a)
    for (size_t d = 0; d < old_count; ++d)
      effects[a * count + d] = w.action_drive[a * old_count + d];
  w.action_drive = std::move(effects);
  w.action_moves_drives.resize(actions, 0);
  w.drives.push_back(drive);
  const auto cap = static_cast<size_t>(w.def.capacity);
  w.drive_value.assign(cap * count, 0.0);
  w.drive_time.assign(cap, 0.0);
  w.goal_score.assign(cap, 0.0);
  return static_cast<DriveId>(old_count);
}

Result<int32_t> AgentWorld::add_drive_list(std::span<const DriveGoal> entries, double margin) {
  Impl& w = *impl_;
  if (!std::isfinite(margin) || margin < 0.0)
    return Error{"add_drive_list: margin must be finite and >= 0", "", 0};
  for (size_t k = 0; k < entries.size(); ++k) {
    const DriveGoal& e = entries[k];
    const std::string where = "add_drive_list: entry " + std::to_string(k) + ": ";
    if (e.goal < 0 || e.goal >= static_cast<GoalId>(w.goals.size()))
      return Error{where + "no goal " + std::to_string(e.goal), "", 0};
    if (e.drive < 0 || e.drive >= static_cast<DriveId>(w.drives.size()))
      return Error{where + "no drive " + std::to_string(e.drive), "", 0};
    if (!std::isfinite(e.weight) || e.weight < 0.0)
      return Error{where + "weight must be finite and >= 0", "", 0};
    if (auto bad = udgoap::check(e.curve, where + "curve")) return *bad;
  }
  if (w.list_offset.size() > 0xFFFF) return Error{"add_drive_list: too many lists", "", 0};
  for (const DriveGoal& e : entries) {
    w.list_goals.push_back(e.goal);
    w.entry_drive.push_back(e.drive);
    w.entry_curve.push_back(e.curve);
    w.entry_weight.push_back(e.weight);
  }
  w.list_offset.push_back(static_cast<int32_t>(w.list_goals.size()));
  w.list_by_drives.push_back(1);
  w.list_margin.push_back(margin);
  return static_cast<int32_t>(w.list_offset.size() - 2);
}

std::optional<Error> AgentWorld::set_action_drive_effect(ActionId a, DriveId d, double delta) {
  Impl& w = *impl_;
  if (a < 0 || a >= w.domain->num_actions())
    return Error{"set_action_drive_effect: no action " + std::to_string(a), "", 0};
  if (d < 0 || d >= static_cast<DriveId>(w.drives.size()))
    return Error{"set_action_drive_effect: no drive " + std::to_string(d), "", 0};
  if (!std::isfinite(delta)) return Error{"set_action_drive_effect: delta must be finite", "", 0};
  const size_t count = w.drives.size();
  w.action_drive[static_cast<size_t>(a) * count + static_cast<size_t>(d)] = delta;
  uint8_t moves = 0;
  for (size_t k = 0; k < count; ++k)
    moves |= static_cast<uint8_t>(w.action_drive[static_cast<size_t>(a) * count + k] != 0.0);
  w.action_moves_drives[static_cast<size_t>(a)] = moves;
  return std::nullopt;
}

int32_t AgentWorld::num_drives() const {
  return static_cast<int32_t>(impl_->drives.size());
}
const DriveDef& AgentWorld::drive_def(DriveId d) const {
  return impl_->drives[static_cast<size_t>(d)];
}

void AgentWorld::set_drive(AgentId agent, DriveId d, double value) {
  Impl& w = *impl_;
  assert(agent >= 0 && agent < w.n);
  assert(d >= 0 && d < static_cast<DriveId>(w.drives.size()));
  w.settle(agent);
  const DriveDef& dd = w.drives[static_cast<size_t>(d)];
  double& v = w.drives_of(agent)[d];
  const double next = std::clamp(value, dd.min, dd.max);
  if (next == v) return;
  v = next;
  w.mark(agent);
}

double AgentWorld::drive(AgentId agent, DriveId d) const {
  return impl_->drive_now(agent, d);
}
double AgentWorld::goal_score(AgentId agent) const {
  const Impl& w = *impl_;
  return w.drives.empty() ? 0.0 : w.goal_score[static_cast<size_t>(agent)];
}

std::optional<Error> AgentWorld::set_class_goals(int32_t npc_class, int32_t goal_list) {
  Impl& w = *impl_;
  if (npc_class < 0 || npc_class >= static_cast<int32_t>(w.class_list.size()))
    return Error{"set_class_goals: no class " + std::to_string(npc_class), "", 0};
  if (goal_list < 0 || goal_list + 1 >= static_cast<int32_t>(w.list_offset.size()))
    return Error{"set_class_goals: no goal list " + std::to_string(goal_list), "", 0};
  w.class_list[static_cast<size_t>(npc_class)] = goal_list;
  return std::nullopt;
}

const std::string& AgentWorld::goal_name(GoalId g) const {
  return impl_->goals[static_cast<size_t>(g)].name;
}
bool AgentWorld::has_goal_list(int32_t goal_list) const {
  return goal_list >= 0 && goal_list + 1 < static_cast<int32_t>(impl_->list_offset.size());
}
int32_t AgentWorld::num_goals() const {
  return static_cast<int32_t>(impl_->goals.size());
}

}  // namespace topoplan::agents
