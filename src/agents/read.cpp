// Reading an agent world (agents.h): an agent's beliefs, goal and plan, and events in the
// designer's words.
#include <algorithm>
#include <string>
#include <vector>

#include "agents/world_impl.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"

namespace topoplan::agents {

ValueId AgentWorld::fact(AgentId agent, VarId var) const {
  const Impl& w = *impl_;
  const CrowdLayout::Field& fl = w.planner->layout().field(var);
  return static_cast<ValueId>((w.state_of(agent)[fl.word] >> fl.shift) & fl.mask);
}

void AgentWorld::state(AgentId agent, std::span<ValueId> out) const {
  const Impl& w = *impl_;
  if (w.planner->layout().words() > 0) w.planner->layout().unpack_state(w.state_of(agent), out);
}

int32_t AgentWorld::npc_class(AgentId agent) const {
  return impl_->cls[static_cast<size_t>(agent)];
}
GoalId AgentWorld::goal(AgentId agent) const {
  return impl_->goal[static_cast<size_t>(agent)];
}

int32_t AgentWorld::plan(AgentId agent, std::span<ActionId> out) const {
  const Impl& w = *impl_;
  const int32_t l = plan_length(agent);
  const uint16_t* p = w.plan_of(agent);
  for (int32_t k = 0; k < l && k < static_cast<int32_t>(out.size()); ++k)
    out[static_cast<size_t>(k)] = p[k];
  return l;
}

int32_t AgentWorld::plan_length(AgentId agent) const {
  const Impl& w = *impl_;
  return (w.flags[static_cast<size_t>(agent)] & kHasPlan) != 0 ? w.len[static_cast<size_t>(agent)]
                                                               : 0;
}
int32_t AgentWorld::step(AgentId agent) const {
  return impl_->step[static_cast<size_t>(agent)];
}

ActionId AgentWorld::running_action(AgentId agent) const {
  const Impl& w = *impl_;
  const auto u = static_cast<size_t>(agent);
  return (w.flags[u] & kRunning) != 0 ? ActionId{w.plan_of(agent)[w.step[u]]} : ActionId{-1};
}

double AgentWorld::progress(AgentId agent) const {
  const Impl& w = *impl_;
  const auto u = static_cast<size_t>(agent);
  return (w.flags[u] & kRunning) != 0 ? w.time - w.start_time[u] : 0.0;
}

ReplanReason AgentWorld::last_replan(AgentId agent) const {
  return static_cast<ReplanReason>(impl_->last_reason[static_cast<size_t>(agent)]);
}
int64_t AgentWorld::frame() const {
  return impl_->frame;
}
const CrowdPlanner& AgentWorld::planner() const {
  return *impl_->planner;
}

std::string AgentWorld::describe(const Event& e) const {
  const Impl& w = *impl_;
  const Domain& d = *w.domain;
  std::string who = "agent " + std::to_string(e.agent);
  if (d.num_classes() > 0) who += " (" + d.class_name(npc_class(e.agent)) + ")";
  auto goal_text = [&](GoalId g) {
    return g == kNoGoal ? std::string("none") : "'" + goal_name(g) + "'";
  };
  switch (e.kind) {
    case EventKind::kStartAction:
      return who + ": start '" + d.action_name(e.action) + "'";
    case EventKind::kAbortAction:
      return who + ": abort '" + d.action_name(e.action) + "' (" +
             std::string(to_string(static_cast<ReplanReason>(e.detail))) + ")";
    case EventKind::kGoalChanged:
      return who + ": goal " + goal_text(e.goal);
    case EventKind::kPlanned:
      return who + ": plan of " + std::to_string(e.action) + " actions for " + goal_text(e.goal) +
             " (" + std::string(to_string(static_cast<ReplanReason>(e.detail))) + ")";
    case EventKind::kGoalReached:
      return who + ": reached " + goal_text(e.goal);
    case EventKind::kNoPlan: {
      const PlanOutcome o = no_plan_outcome(e);
      const std::string bits = topoplan::describe(o.detail);
      return who + ": no plan for " + goal_text(e.goal) + " (" + std::string(to_string(o.status)) +
             (bits.empty() ? "" : ": " + bits) + ")";
    }
  }
  return who;
}

std::string AgentWorld::explain(const Event& e) const {
  if (e.kind != EventKind::kNoPlan) return "";
  const Impl& w = *impl_;
  const Domain& d = *w.domain;
  PlanOutcome o = no_plan_outcome(e);
  const bool ask = (o.status == PlanStatus::kUnsolvable || o.status == PlanStatus::kGaveUp) &&
                   (o.detail & kDetailBadInput) == 0 && e.goal >= 0 && e.goal < num_goals();
  if (ask) {
    const int32_t c = npc_class(e.agent);
    Result<CompiledActionSet> set =
        CompiledActionSet::create(d, d.num_classes() > 0 ? c : kAllActions);
    Result<std::unique_ptr<HotPlanner>> topo =
        set ? create_hot_planner("topo", *set) : Result<std::unique_ptr<HotPlanner>>(set.error());
    if (topo) {
      std::vector<ValueId> s0(static_cast<size_t>(d.num_variables()));
      state(e.agent, s0);
      std::vector<ActionId> plan(static_cast<size_t>(std::max((*topo)->max_plan_length(), 1)));
      int32_t len = 0;
      std::unique_ptr<PlanScratch> scratch = (*topo)->make_scratch();
      const PlanOutcome again =
          (*topo)->plan(*scratch, s0, w.goals[static_cast<size_t>(e.goal)].values, plan, &len);
      if (again.status == o.status) o = again;
    }
  }
  return topoplan::explain(d, o);
}

}  // namespace topoplan::agents
