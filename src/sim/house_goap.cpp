// The Sims house's GOAP and UDGOAP on the agent runtime (agents.h). The house is the engine: it
// runs the step the runtime starts, reports it finished or failed, and writes what the NPC senses
// — its drives, its place, the item in its hands, which places are open — on its decision ticks
// and after each report. An AgentWorld of one agent keeps the beliefs and the replan rules; for
// UDGOAP it has no goal list and its planner hook is UDGOAP's planner (house.cpp), whose steps
// are this domain's actions (a walk to each place, each activity that changes something). For
// GOAP it picks the goal and plans it:
//   * the goal is "raise the lowest drive" (Sloan 2015, §5.1.1.1): a drive list with one entry
//     per drive, weight 100 and the linear curve, so an entry scores 100 − drive, the lowest
//     drive scores most, and the house's switch margin is the list's margin;
//   * the domain (place, item, open places, which drives an action raised) is planned by A*
//     alone (topo_first false): ℙ would take its unary part and answer valid plans that are not
//     the cheapest on Table 5.1's costs;
//   * the `raised_*` flags belong to one plan: the house writes them false again after the
//     update that applied a finished action, so the next choice sees every drive as unraised;
//   * activities run to their end (set_action_runs_to_end): a better goal waits for them, and
//     only a walk is abandoned for it, as in the thesis's loop;
//   * a walk abandoned halfway leaves the NPC between places: `at` takes the value "walking",
//     so the next plan starts with a walk.
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "sim/house_world.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/crowd.h"

namespace topoplan::sim::house_detail {

namespace {

Replan replan_of(agents::ReplanReason r) {
  switch (r) {
    case agents::ReplanReason::kNone:
      return Replan::kNone;
    case agents::ReplanReason::kNoPlan:
      return Replan::kNoPlan;
    case agents::ReplanReason::kPlanFinished:
      return Replan::kPlanDone;
    case agents::ReplanReason::kActionFailed:
      return Replan::kFailed;
    case agents::ReplanReason::kConditionBroken:
      return Replan::kBroken;
    case agents::ReplanReason::kBetterGoal:
      return Replan::kBetterGoal;
    case agents::ReplanReason::kWorldChanged:
      return Replan::kWorldChanged;
    case agents::ReplanReason::kPlanTooOld:
      return Replan::kPeriodic;
  }
  return Replan::kNone;
}

}  // namespace

struct HouseAgent::Impl {
  House& h;
  bool udgoap = false;
  std::unique_ptr<agents::AgentPlanner> hook;
  std::unique_ptr<Domain> domain;
  std::unique_ptr<CrowdPlanner> planner;
  agents::AgentWorld world;
  std::vector<Step> steps;  // SAS+ action → house step
  int32_t open_var = 0, raised_var = 0, walking = 0;
  std::vector<agents::Event> events = std::vector<agents::Event>(64);
  Plan plan;
  int32_t next = 0;       // the plan's step running or next
  ActionId running = -1;  // the step the runtime started (-1: none)
  bool begun = false;     // the house began it
  // A failure went in: the NPC senses before the next update (which replans: from what is true).
  // A finish went in: it senses after the next update (which applies the action's effects: the
  // sensors then correct what the effects got wrong, a stolen item) and the raised_* flags go
  // false.
  bool sense_before = false, sense_after = false;
  bool lower_flags = false;
  LoopCounters counters;

  Impl(House& house, SelectorKind kind) : h(house), udgoap(kind == SelectorKind::kUdgoap) {}
  DomainDef domain_def();
  void make_world();
  void sense();
  void read_events(int64_t tick, int64_t count, LoopObserver* observer);
  void run_step(int64_t tick, double dt, LoopObserver* observer);
};

// Variables: at (the places, and "walking"), item ("none" and the items), open_<place>,
// raised_<drive>. A walk sets `at` and needs its place open; an activity needs its place (and
// it open), swaps the item it needs for the one it gives, and raises the drives it feeds.
DomainDef HouseAgent::Impl::domain_def() {
  const HouseConfig& c = h.cfg();
  const auto ns = static_cast<int32_t>(c.spots.size());
  const auto nd = static_cast<int32_t>(c.drives.size());
  DomainDef d;
  d.name = "house-goap";
  VariableDef at{"at", {}};
  for (const NamedSpot& s : c.spots) at.values.push_back(s.name);
  at.values.push_back("walking");
  walking = ns;
  d.variables.push_back(at);
  VariableDef item{"item", {"none"}};
  for (const std::string& i : c.items) item.values.push_back(i);
  d.variables.push_back(item);
  open_var = 2;
  for (const NamedSpot& s : c.spots) d.variables.push_back({"open_" + s.name, {"closed", "open"}});
  raised_var = open_var + ns;
  for (const std::string& n : c.drives) d.variables.push_back({"raised_" + n, {"no", "yes"}});
  for (int32_t s = 0; s < ns; ++s) {
    d.actions.push_back({"goto_" + c.spots[static_cast<size_t>(s)].name,
                         c.goto_cost,
                         {{0, kUndefined, s}},
                         {{open_var + s, 1}}});
    steps.push_back({kHouseGoto, s});
  }
  for (size_t a = 0; a < c.activities.size(); ++a) {
    const HouseActivity& act = c.activities[a];
    ActionDef ad{act.name, act.cost, {}, {}};
    if (act.spot >= 0) ad.prevail = {{0, act.spot}, {open_var + act.spot, 1}};
    if (act.needs >= 0) {
      ad.effects.push_back({1, act.needs + 1, act.gives >= 0 ? act.gives + 1 : 0});
    } else if (act.gives >= 0) {
      ad.effects.push_back({1, 0, act.gives + 1});
    }
    for (int32_t dv = 0; dv < nd; ++dv) {
      if (act.gain[static_cast<size_t>(dv)] > 0.0)
        ad.effects.push_back({raised_var + dv, kUndefined, 1});
    }
    if (ad.effects.empty()) continue;
    d.actions.push_back(std::move(ad));
    steps.push_back({static_cast<int32_t>(a), -1});
  }
  return d;
}

void HouseAgent::Impl::make_world() {
  const HouseConfig& c = h.cfg();
  domain = std::make_unique<Domain>(Domain::compile(domain_def()).value());
  planner = std::make_unique<CrowdPlanner>(CrowdPlanner::create(*domain).value());
  agents::AgentWorldDef def;
  def.capacity = 1;
  def.decision_period = 1 << 20;  // examined when a belief changes or a report comes in
  def.max_plans_per_frame = 1;
  def.max_plan_length = kMaxPlanSteps;
  def.topo_first = false;  // the chain alone plans (no crowd, no plan cache is made)
  def.crowd.fallback = {"astar"};
  world = agents::AgentWorld::create(*planner, def).value();
  std::vector<ValueId> values(static_cast<size_t>(domain->num_variables()), kUndefined);
  std::vector<agents::DriveGoal> entries;
  for (size_t d = 0; d < c.drives.size(); ++d) {
    const double initial = d < c.initial.size() ? c.initial[d] : 0.0;
    const agents::DriveId id = world.add_drive({c.drives[d], 0.0, 100.0, 0.0, initial}).value();
    std::fill(values.begin(), values.end(), kUndefined);
    values[static_cast<size_t>(raised_var) + d] = 1;
    const agents::GoalId g = world.add_goal("raise_" + c.drives[d], values).value();
    entries.push_back({g, id, udgoap::Curve::linear(), 100.0});
  }
  if (udgoap) {
    hook = make_house_udgoap(h, world, steps);
    world.set_planner(hook.get());
  } else {
    const int32_t list = world.add_drive_list(entries, c.switch_margin).value();
    (void)world.set_class_goals(0, list);
  }
  for (ActionId a = 0; a < domain->num_actions(); ++a)
    if (steps[static_cast<size_t>(a)].action != kHouseGoto)
      (void)world.set_action_runs_to_end(a, true);
  std::fill(values.begin(), values.end(), 0);
  values[0] = h.at() >= 0 ? h.at() : walking;
  values[1] = h.item() + 1;
  for (size_t s = 0; s < c.spots.size(); ++s)
    values[static_cast<size_t>(open_var) + s] = h.blocked(static_cast<int32_t>(s)) ? 0 : 1;
  (void)world.add_agent(0, values).value();
}

void HouseAgent::Impl::sense() {
  const HouseConfig& c = h.cfg();
  for (size_t d = 0; d < c.drives.size(); ++d)
    world.set_drive(0, static_cast<agents::DriveId>(d), h.drive(static_cast<int32_t>(d)));
  world.set_fact(0, 0, h.at() >= 0 ? h.at() : walking);
  // The item an activity consumes stays in its hands until the activity ends (the house takes it
  // at the start): the runtime applies the effect at the end.
  int32_t item = h.item();
  if (begun && running >= 0 && steps[static_cast<size_t>(running)].action != kHouseGoto)
    item = std::max(
        item,
        h.cfg().activities[static_cast<size_t>(steps[static_cast<size_t>(running)].action)].needs);
  world.set_fact(0, 1, item + 1);
  for (size_t s = 0; s < c.spots.size(); ++s)
    world.set_fact(0, open_var + static_cast<VarId>(s), h.blocked(static_cast<int32_t>(s)) ? 0 : 1);
}

void HouseAgent::Impl::read_events(int64_t tick, int64_t count, LoopObserver* observer) {
  for (int64_t k = 0; k < count; ++k) {
    const agents::Event& e = events[static_cast<size_t>(k)];
    switch (e.kind) {
      case agents::EventKind::kStartAction:
        running = e.action;
        next = e.step;
        begun = false;
        break;
      // A walk left for a better goal, or a step whose condition broke (activities run to their
      // end otherwise): the NPC senses where it stopped (between places, after a walk).
      case agents::EventKind::kAbortAction:
        running = -1;
        begun = false;
        sense();
        break;
      case agents::EventKind::kPlanned: {
        std::array<ActionId, kMaxPlanSteps> actions{};
        const int32_t len = world.plan(0, actions);
        plan.clear();
        for (int32_t i = 0; i < len; ++i)
          plan.push(steps[static_cast<size_t>(actions[static_cast<size_t>(i)])]);
        next = 0;
        if (observer != nullptr)
          observer->replanned(0, tick, replan_of(world.last_replan(0)),
                              GoalChoice{udgoap ? 0 : e.goal, -1, world.goal_score(0)}, plan, true);
        break;
      }
      case agents::EventKind::kNoPlan:
        ++counters.plan_failures;
        plan.clear();
        next = 0;
        if (observer != nullptr)
          observer->replanned(0, tick, replan_of(world.last_replan(0)),
                              GoalChoice{udgoap ? 0 : e.goal, -1, world.goal_score(0)}, plan,
                              false);
        break;
      case agents::EventKind::kGoalChanged:
      case agents::EventKind::kGoalReached:
        break;
    }
  }
}

// The step the runtime started: begun when it applies (else reported failed), advanced by dt,
// reported when it ends.
void HouseAgent::Impl::run_step(int64_t tick, double dt, LoopObserver* observer) {
  if (running < 0) return;
  const Step& s = steps[static_cast<size_t>(running)];
  if (!begun) {
    if (!h.applicable(0, s)) {
      running = -1;
      sense_before = true;
      world.action_failed(0);
      return;
    }
    h.begin(0, s);
    begun = true;
  }
  const StepStatus st = h.advance(0, s, dt);
  if (st == StepStatus::kRunning) return;
  if (observer != nullptr) observer->step_ended(0, tick, s, st);
  running = -1;
  begun = false;
  if (st == StepStatus::kDone) {
    ++counters.steps_done;
    ++next;
    lower_flags = true;
    sense_after = true;
    world.action_finished(0);
  } else {
    ++counters.steps_failed;
    sense_before = true;
    world.action_failed(0);
  }
}

HouseAgent::HouseAgent(House& house, SelectorKind kind)
    : impl_(std::make_unique<Impl>(house, kind)) {
  impl_->make_world();
}
HouseAgent::~HouseAgent() = default;

void HouseAgent::tick(int64_t tick, double dt, const LoopConfig& loop, LoopObserver* observer,
                      bool timing) {
  Impl& m = *impl_;
  const bool decide = tick % std::max(1, loop.decision_ticks) == 0;
  if (decide) ++m.counters.decisions;
  if (decide || m.sense_before) m.sense();
  m.sense_before = false;
  const int64_t t0 = timing ? thread_cpu_ns() : 0;
  const agents::UpdateStats s = m.world.update(dt, m.events);
  if (timing) m.counters.decision_ns += thread_cpu_ns() - t0;
  m.counters.planning_ns += s.plan_ns;
  m.counters.plans += s.planned;
  for (size_t r = 0; r < s.replans.size(); ++r)
    m.counters.replans[static_cast<size_t>(replan_of(static_cast<agents::ReplanReason>(r)))] +=
        s.replans[r];
  if (m.lower_flags) {
    for (size_t d = 0; d < m.h.cfg().drives.size(); ++d)
      m.world.set_fact(0, m.raised_var + static_cast<VarId>(d), 0);
    m.lower_flags = false;
  }
  if (m.sense_after) {
    m.sense();
    m.sense_after = false;
  }
  m.read_events(tick, s.events, observer);
  m.run_step(tick, dt, observer);
}

const Plan& HouseAgent::plan() const {
  return impl_->plan;
}
const Step* HouseAgent::current() const {
  const Impl& m = *impl_;
  return m.next < m.plan.length ? &m.plan.steps[static_cast<size_t>(m.next)] : nullptr;
}
bool HouseAgent::running() const {
  return impl_->begun;
}
int32_t HouseAgent::goal() const {
  if (impl_->udgoap) return impl_->counters.plans > 0 ? 0 : -1;
  return impl_->world.goal(0);
}
Replan HouseAgent::last_reason() const {
  return replan_of(impl_->world.last_replan(0));
}
const LoopCounters& HouseAgent::counters() const {
  return impl_->counters;
}

}  // namespace topoplan::sim::house_detail
