// The agent world (agents.h): its creation, its agents, what the engine writes into it, and the
// frame.
#include <algorithm>
#include <cassert>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "agents/world_impl.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/planner.h"

namespace topoplan::agents {

std::string_view to_string(ReplanReason reason) {
  switch (reason) {
    case ReplanReason::kNone:
      return "none";
    case ReplanReason::kNoPlan:
      return "no-plan";
    case ReplanReason::kPlanFinished:
      return "plan-finished";
    case ReplanReason::kActionFailed:
      return "action-failed";
    case ReplanReason::kConditionBroken:
      return "condition-broken";
    case ReplanReason::kBetterGoal:
      return "better-goal";
    case ReplanReason::kWorldChanged:
      return "world-changed";
    case ReplanReason::kPlanTooOld:
      return "plan-too-old";
  }
  return "?";
}

PlanOutcome no_plan_outcome(const Event& e) {
  return PlanOutcome{static_cast<PlanStatus>(e.detail), PlanDetail{e.step}, -1, -1, -1, {}};
}

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::kStartAction:
      return "start";
    case EventKind::kAbortAction:
      return "abort";
    case EventKind::kGoalChanged:
      return "goal";
    case EventKind::kPlanned:
      return "planned";
    case EventKind::kGoalReached:
      return "reached";
    case EventKind::kNoPlan:
      return "no-plan";
  }
  return "?";
}

AgentWorld::AgentWorld() = default;
AgentWorld::AgentWorld(AgentWorld&&) noexcept = default;
AgentWorld& AgentWorld::operator=(AgentWorld&&) noexcept = default;
AgentWorld::~AgentWorld() = default;

Result<AgentWorld> AgentWorld::create(const CrowdPlanner& planner, const AgentWorldDef& def) {
  auto bad = [](const std::string& what) { return Error{"AgentWorldDef: " + what, "", 0}; };
  // The table's ranges and words (limits.h), those of every door.
  const std::pair<const LimitSpec*, int64_t> fields[] = {
      {&limits::kAgentsCapacity, def.capacity},
      {&limits::kAgentsDecisionPeriod, def.decision_period},
      {&limits::kAgentsMaxPlanAge, def.max_plan_age},
      {&limits::kAgentsMaxPlansPerFrame, def.max_plans_per_frame},
      {&limits::kAgentsMinAgentsPerPart, def.min_agents_per_part},
      {&limits::kAgentsMaxPlanLength, def.max_plan_length}};
  for (const auto& field : fields)
    if (auto e = check_limit(*field.first, field.second, "AgentWorldDef")) return *e;
  const Domain& domain = planner.domain();
  if (domain.num_actions() > 0xFFFF) return bad("the domain has more than 65535 actions");
  if (!def.topo_first && def.crowd.fallback.empty())
    return bad("topo_first is false and crowd.fallback is empty: no planner would plan");

  AgentWorld world;
  world.impl_ = std::make_unique<Impl>();
  Impl& w = *world.impl_;
  w.planner = &planner;
  w.domain = &domain;
  w.def = def;
  w.words = std::max(1, planner.layout().words());
  w.max_len = std::min(def.max_plan_length, std::max(1, planner.max_plan_length()));
  if (def.topo_first) {
    CrowdDef crowd_def = def.crowd;
    if (def.use_cache) {
      auto cache = PlanCache::create(planner, def.cache);
      if (!cache) return cache.error();
      w.cache = std::move(cache.value());
      crowd_def.cache = w.cache.get();
    }
    auto crowd = Crowd::create(planner, crowd_def);
    if (!crowd) return crowd.error();
    w.crowd = std::make_unique<Crowd>(std::move(crowd.value()));
  } else if (auto e = w.make_chain()) {  // no crowd, no cache: the chain plans alone
    return *e;
  }
  w.compile_masks();
  w.class_list.assign(static_cast<size_t>(planner.num_classes()), -1);
  w.allocate();
  return world;
}

void AgentWorld::Impl::compile_masks() {
  const CrowdLayout& layout = planner->layout();
  const auto w = static_cast<size_t>(words);
  const auto actions = static_cast<size_t>(domain->num_actions());
  for (auto* v : {&cond_mask, &cond_value, &eff_mask, &eff_value}) v->assign(actions * w, 0);
  auto put = [&](std::vector<uint64_t>& mask, std::vector<uint64_t>& value, size_t base, VarId v,
                 ValueId x) {
    const CrowdLayout::Field& fl = layout.field(v);
    mask[base + static_cast<size_t>(fl.word)] |= fl.mask << fl.shift;
    value[base + static_cast<size_t>(fl.word)] |= static_cast<uint64_t>(x) << fl.shift;
  };
  for (ActionId a = 0; a < domain->num_actions(); ++a) {
    const size_t base = static_cast<size_t>(a) * w;
    for (const Effect& e : domain->effects(a)) {
      if (e.pre != kUndefined) put(cond_mask, cond_value, base, e.var, e.pre);
      put(eff_mask, eff_value, base, e.var, e.post);
    }
    for (const Fact& p : domain->prevail(a)) put(cond_mask, cond_value, base, p.var, p.value);
  }
  runs_to_end.assign(actions, 0);
}

void AgentWorld::Impl::allocate() {
  const auto w = static_cast<size_t>(words);
  const auto cap = static_cast<size_t>(def.capacity);
  cls.assign(cap, 0);
  list.assign(cap, 0xFFFF);
  state.assign(cap * w, 0);
  goal.assign(cap, kNoGoal);
  plan.assign(cap * static_cast<size_t>(max_len), 0);
  for (auto* v : {&len, &step, &flags, &last_reason, &queued_reason}) v->assign(cap, 0);
  for (auto* v : {&next_due, &period, &plan_frame, &plan_version}) v->assign(cap, 0);
  start_time.assign(cap, 0.0);
  sensed.assign(cap / 64 + 1, 0);
  due.assign(cap / 64 + 1, 0);
  queue.assign(cap, 0);
  batch_cap = std::min(def.max_plans_per_frame, def.capacity);
  const auto b = static_cast<size_t>(batch_cap);
  batch_agent.assign(b, 0);
  batch_class.assign(b, 0);
  batch_init.assign(b * w, 0);
  batch_goal.assign(b * w, 0);
  out_actions.assign(b * static_cast<size_t>(max_len), 0);
  out_offset.assign(b, 0);
  out_length.assign(b, 0);
  out_status.assign(b, 0);
  scratch.assign(w, 0);
  // Parts: one per worker and a few more to even out the load (only with a task hook).
  const int32_t workers =
      def.crowd.enqueue_task != nullptr ? std::max(1, def.crowd.worker_count) : 1;
  const int32_t part_count =
      std::clamp(4 * workers, 1, std::max<int32_t>(1, static_cast<int32_t>(cap / 64 + 1)));
  parts.resize(workers > 1 ? static_cast<size_t>(part_count) : 1);
  for (Part& p : parts) {
    p.scratch.assign(w, 0);
    p.enqueued.reserve(parts.size() > 1 ? cap / parts.size() + 64 : cap);
    if (parts.size() > 1) p.buffer.reserve(cap / parts.size() / 2 + 64);
  }
  rows.resize(parts.size());
  for (Part& p : rows) {
    p.marks.reserve(64);
    if (rows.size() > 1) p.buffer.reserve(2 * b / rows.size() + 64);
  }
}

std::optional<Error> AgentWorld::Impl::make_chain() {
  const int32_t classes = planner->num_classes();
  chain.resize(static_cast<size_t>(classes));
  for (int32_t c = 0; c < classes; ++c) {
    ChainClass& cc = chain[static_cast<size_t>(c)];
    Result<CompiledActionSet> set =
        CompiledActionSet::create(*domain, domain->num_classes() > 0 ? c : kAllActions);
    if (!set) return set.error();
    cc.set = std::make_unique<CompiledActionSet>(std::move(set.value()));
    for (const std::string& name : def.crowd.fallback) {
      Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(name, *cc.set);
      if (!p) return Error{"AgentWorldDef: crowd.fallback: " + p.error().message, "", 0};
      cc.scratches.push_back((*p)->make_scratch());
      cc.planners.push_back(std::move(p.value()));
    }
  }
  chain_s0.assign(static_cast<size_t>(domain->num_variables()), 0);
  // Room for the plans the world stores: a longer one is kBufferTooSmall (the search's bound on
  // a plan's length can be the number of states).
  chain_plan.assign(static_cast<size_t>(max_len), 0);
  return std::nullopt;
}

std::optional<Error> AgentWorld::set_action_runs_to_end(ActionId a, bool runs_to_end) {
  Impl& w = *impl_;
  if (a < 0 || a >= w.domain->num_actions())
    return Error{"set_action_runs_to_end: no action " + std::to_string(a), "", 0};
  w.runs_to_end[static_cast<size_t>(a)] = runs_to_end ? 1 : 0;
  return std::nullopt;
}

void AgentWorld::set_planner(AgentPlanner* hook) {
  Impl& w = *impl_;
  w.hook = hook;
  w.chain_s0.resize(static_cast<size_t>(w.domain->num_variables()), 0);
  w.chain_plan.resize(static_cast<size_t>(w.max_len), 0);
  w.hook_outcome.resize(static_cast<size_t>(w.batch_cap));
}

bool AgentWorld::action_runs_to_end(ActionId a) const {
  return impl_->runs_to_end[static_cast<size_t>(a)] != 0;
}

Result<AgentId> AgentWorld::add_agent(int32_t npc_class, std::span<const ValueId> values) {
  Impl& w = *impl_;
  const Domain& d = *w.domain;
  if (w.n >= w.def.capacity)
    return Error{"add_agent: the world is full (capacity " + std::to_string(w.def.capacity) + ")",
                 "", 0};
  if (npc_class < 0 || npc_class >= static_cast<int32_t>(w.class_list.size()))
    return Error{"add_agent: no class " + std::to_string(npc_class), "", 0};
  if (static_cast<int32_t>(values.size()) != d.num_variables())
    return Error{"add_agent: the state has " + std::to_string(values.size()) +
                     " values for a domain of " + std::to_string(d.num_variables()) + " variables",
                 "", 0};
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = values[static_cast<size_t>(v)];
    if (x < 0 || x >= d.domain_size(v))
      return Error{"add_agent: value " + std::to_string(x) + " of '" + d.variable_name(v) +
                       "' is out of range",
                   "", 0};
  }
  const int32_t i = w.n++;
  const auto u = static_cast<size_t>(i);
  w.cls[u] = static_cast<uint16_t>(npc_class);
  const int32_t l = w.class_list[static_cast<size_t>(npc_class)];
  w.list[u] = l < 0 ? uint16_t{0xFFFF} : static_cast<uint16_t>(l);
  if (w.planner->layout().words() > 0) w.planner->layout().pack_state(values, w.state_of(i));
  w.period[u] = static_cast<uint32_t>(w.def.decision_period);
  // Due frames spread over the period: a world filled in one frame would otherwise examine every
  // agent in the same frames (at 10^6 agents, one frame in `period` several times the others).
  w.next_due[u] = static_cast<uint32_t>(w.frame + i % w.def.decision_period);
  if (!w.drives.empty()) {
    double* v = w.drives_of(i);
    for (size_t k = 0; k < w.drives.size(); ++k)
      v[k] = std::clamp(w.drives[k].initial, w.drives[k].min, w.drives[k].max);
    w.drive_time[u] = w.time;
    w.goal_score[u] = 0.0;
  }
  w.mark(i);
  return i;
}

int32_t AgentWorld::num_agents() const {
  return impl_->n;
}

void AgentWorld::set_goal_list(AgentId agent, int32_t goal_list) {
  Impl& w = *impl_;
  assert(goal_list + 1 < static_cast<int32_t>(w.list_offset.size()));
  w.list[static_cast<size_t>(agent)] = static_cast<uint16_t>(goal_list);
  w.mark(agent);
}

void AgentWorld::set_decision_period(AgentId agent, int32_t period) {
  Impl& w = *impl_;
  assert(period >= 1);
  w.period[static_cast<size_t>(agent)] = static_cast<uint32_t>(period);
  w.next_due[static_cast<size_t>(agent)] = static_cast<uint32_t>(w.frame + period);
}

void AgentWorld::set_fact(AgentId agent, VarId var, ValueId value) {
  Impl& w = *impl_;
  assert(agent >= 0 && agent < w.n);
  assert(value >= 0 && value < w.domain->domain_size(var));
  const CrowdLayout::Field& fl = w.planner->layout().field(var);
  uint64_t& word = w.state_of(agent)[fl.word];
  const uint64_t next =
      (word & ~(fl.mask << fl.shift)) | (static_cast<uint64_t>(value) << fl.shift);
  if (next == word) return;
  word = next;
  w.mark(agent);
}

void AgentWorld::set_state(AgentId agent, std::span<const ValueId> values) {
  Impl& w = *impl_;
  std::vector<uint64_t>& tmp = w.scratch;
  w.planner->layout().pack_state(values, tmp.data());
  set_packed_state(agent, tmp.data());
}

void AgentWorld::set_packed_state(AgentId agent, const uint64_t* packed) {
  Impl& w = *impl_;
  uint64_t* s = w.state_of(agent);
  if (std::memcmp(s, packed, sizeof(uint64_t) * static_cast<size_t>(w.words)) == 0) return;
  std::memmove(s, packed, sizeof(uint64_t) * static_cast<size_t>(w.words));
  w.mark(agent);
}

void AgentWorld::action_finished(AgentId agent) {
  Impl& w = *impl_;
  if ((w.flags[static_cast<size_t>(agent)] & kRunning) == 0) return;
  w.flags[static_cast<size_t>(agent)] |= kReportDone;
  w.mark(agent);
}

void AgentWorld::action_failed(AgentId agent) {
  Impl& w = *impl_;
  if ((w.flags[static_cast<size_t>(agent)] & kRunning) == 0) return;
  w.flags[static_cast<size_t>(agent)] |= kReportFailed;
  w.mark(agent);
}

void AgentWorld::bump_world_version() {
  ++impl_->version;
}

UpdateStats AgentWorld::update(double dt, std::span<Event> events) {
  Impl& w = *impl_;
  UpdateStats stats;
  stats.frame = w.frame;
  w.time += dt;
  const int32_t words_used = (w.n + 63) / 64;
  // Parts of whole 64-agent words, at least min_agents_per_part agents each; several only when
  // the host gave threads.
  int32_t count = 1;
  if (w.def.crowd.enqueue_task != nullptr && w.parts.size() > 1)
    count = std::clamp(words_used / std::max(1, w.def.min_agents_per_part / 64), 1,
                       static_cast<int32_t>(w.parts.size()));
  for (int32_t k = 0; k < count; ++k) {
    Part& p = w.parts[static_cast<size_t>(k)];
    p.reset(events, count > 1);
    p.word_begin = static_cast<int32_t>(static_cast<int64_t>(words_used) * k / count);
    p.word_end = static_cast<int32_t>(static_cast<int64_t>(words_used) * (k + 1) / count);
  }
  w.run(&Impl::run_parts, count);
  // Merge in part order: the events, the queue and the counts.
  int64_t written = 0, dropped = 0;
  if (count == 1) {
    written = w.parts[0].written;
    dropped = w.parts[0].dropped;
  } else {
    w.copy_out(w.parts, count, events, written, dropped);
  }
  const auto cap = static_cast<int64_t>(w.def.capacity);
  for (int32_t k = 0; k < count; ++k) {
    const Part& p = w.parts[static_cast<size_t>(k)];
    // The queue is a ring: the part's requests go in at most two copies.
    const auto n = static_cast<int64_t>(p.enqueued.size());
    int64_t at = (w.queue_head + w.queue_size) % cap;
    const int64_t first = std::min(n, cap - at);
    if (first > 0)
      std::memcpy(w.queue.data() + at, p.enqueued.data(),
                  sizeof(int32_t) * static_cast<size_t>(first));
    if (n > first)
      std::memcpy(w.queue.data(), p.enqueued.data() + first,
                  sizeof(int32_t) * static_cast<size_t>(n - first));
    w.queue_size += n;
    for (size_t r = 0; r < stats.replans.size(); ++r) stats.replans[r] += p.replans[r];
    stats.examined += p.examined;
  }
  w.plan_batch(events, written, dropped, stats);
  stats.events = written;
  stats.events_dropped = dropped;
  stats.waiting = w.queue_size;
  ++w.frame;
  return stats;
}

}  // namespace topoplan::agents
