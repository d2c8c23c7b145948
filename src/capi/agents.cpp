// The C API: agent worlds (agents.h) and the validator's small calls for engines.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "internal.h"
#include "topoplan/agents/agents.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/validate.h"

using namespace topoplan;          // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;    // NOLINT(google-build-using-namespace)
using namespace topoplan::agents;  // NOLINT(google-build-using-namespace)

struct topoplan_agents {
  const topoplan_crowd_planner* owner;
  std::unique_ptr<CrowdThreadPool> pool;  // before the world: the world's crowd uses it
  AgentWorld world;
};

static_assert(sizeof(Event) == sizeof(topoplan_agent_event) &&
              offsetof(Event, agent) == offsetof(topoplan_agent_event, agent) &&
              offsetof(Event, kind) == offsetof(topoplan_agent_event, kind) &&
              offsetof(Event, detail) == offsetof(topoplan_agent_event, detail) &&
              offsetof(Event, step) == offsetof(topoplan_agent_event, step) &&
              offsetof(Event, action) == offsetof(topoplan_agent_event, action) &&
              offsetof(Event, goal) == offsetof(topoplan_agent_event, goal) &&
              std::is_trivially_copyable_v<Event>);
static_assert(TOPOPLAN_REPLAN_PLAN_TOO_OLD == static_cast<int>(ReplanReason::kPlanTooOld) &&
              TOPOPLAN_REPLAN_CONDITION_BROKEN ==
                  static_cast<int>(ReplanReason::kConditionBroken) &&
              kNumReplanReasons == 8);
static_assert(TOPOPLAN_CURVE_LINEAR == static_cast<int>(udgoap::CurveType::kLinear) &&
              TOPOPLAN_CURVE_LOGIT == static_cast<int>(udgoap::CurveType::kLogit) &&
              TOPOPLAN_CURVE_SINE == static_cast<int>(udgoap::CurveType::kSine));
static_assert(TOPOPLAN_AGENT_NO_PLAN == static_cast<int>(EventKind::kNoPlan));

namespace {

bool agent_ok(const topoplan_agents* a, int32_t agent) {
  return a != nullptr && agent >= 0 && agent < a->world.num_agents();
}

const Domain& domain_of(const topoplan_agents* a) {
  return a->world.planner().domain();
}

// The C event of a C++ one: a NO_PLAN event's detail is its outcome's topoplan_status (the one
// mapping, from_outcome); the other fields are the same.
void to_c(topoplan_agent_event& e) {
  if (e.kind != TOPOPLAN_AGENT_NO_PLAN) return;
  const Event cxx{e.agent, EventKind::kNoPlan, e.detail, e.step, e.action, e.goal};
  e.detail = static_cast<uint8_t>(from_outcome(no_plan_outcome(cxx)));
}

// The C++ event of a C one (the inverse of to_c; the detail bits say what the status alone
// does not). False when a NO_PLAN event's status is none that to_c writes.
bool to_cxx(const topoplan_agent_event& c, Event& e) {
  e = Event{c.agent, static_cast<EventKind>(c.kind), c.detail, c.step, c.action, c.goal};
  if (c.kind != TOPOPLAN_AGENT_NO_PLAN) return true;
  for (const PlanStatus s : {PlanStatus::kUnsolvable, PlanStatus::kLimitReached,
                             PlanStatus::kGaveUp, PlanStatus::kBufferTooSmall}) {
    e.detail = static_cast<uint8_t>(s);
    if (from_outcome(no_plan_outcome(e)) == c.detail) return true;
  }
  return false;
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Small calls

topoplan_status topoplan_action_applies(const topoplan_task* task, int32_t action,
                                        const int32_t* state, int32_t num_variables,
                                        topoplan_condition* failed) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (task == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    const Domain& d = task->task.domain;
    if (action < 0 || action >= d.num_actions() || !state_fits(d, state, num_variables, false))
      return TOPOPLAN_INVALID_ARGUMENT;
    const FailedCondition f =
        failed_condition(d, action, std::span(state, static_cast<size_t>(num_variables)));
    if (failed != nullptr)
      *failed = topoplan_condition{static_cast<int32_t>(f.kind), f.var, f.required, f.actual};
    return f.holds() ? TOPOPLAN_OK : TOPOPLAN_INVALID_PLAN;
  });
}

topoplan_status topoplan_action_apply(const topoplan_task* task, int32_t action, int32_t* state,
                                      int32_t num_variables) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (task == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    const Domain& d = task->task.domain;
    if (action < 0 || action >= d.num_actions() || !state_fits(d, state, num_variables, false))
      return TOPOPLAN_INVALID_ARGUMENT;
    apply_action(d, action, std::span(state, static_cast<size_t>(num_variables)));
    return TOPOPLAN_OK;
  });
}

int32_t topoplan_goal_holds(const topoplan_task* task, const int32_t* state, const int32_t* goal,
                            int32_t num_variables) {
  if (task == nullptr) return -1;
  const Domain& d = task->task.domain;
  if (!state_fits(d, state, num_variables, false) || !state_fits(d, goal, num_variables, true))
    return -1;
  const auto n = static_cast<size_t>(num_variables);
  return satisfies(std::span(state, n), std::span(goal, n)) ? 1 : 0;
}

topoplan_status topoplan_condition_describe(const topoplan_task* task,
                                            const topoplan_condition* failed, char* buffer,
                                            size_t capacity, size_t* size) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (task == nullptr || failed == nullptr || size == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    const Domain& d = task->task.domain;
    if (failed->kind == TOPOPLAN_CONDITION_NONE) return write_text("", buffer, capacity, size);
    if ((failed->kind != TOPOPLAN_CONDITION_PRE && failed->kind != TOPOPLAN_CONDITION_PREVAIL) ||
        failed->var < 0 || failed->var >= d.num_variables())
      return TOPOPLAN_INVALID_ARGUMENT;
    const int32_t size_v = d.domain_size(failed->var);
    if (failed->required < 0 || failed->required >= size_v || failed->actual < 0 ||
        failed->actual >= size_v)
      return TOPOPLAN_INVALID_ARGUMENT;
    const FailedCondition f{static_cast<ConditionKind>(failed->kind), failed->var, failed->required,
                            failed->actual};
    return write_text(describe(d, f), buffer, capacity, size);
  });
}

// ------------------------------------------------------------------------------------------------
// Agent worlds

void topoplan_agents_def_default(topoplan_agents_def* def) {
  if (def == nullptr) return;
  const AgentWorldDef d;
  *def = topoplan_agents_def{
      d.capacity, d.decision_period, d.max_plan_age,       d.max_plans_per_frame, d.max_plan_length,
      1,          d.cache.capacity,  d.min_agents_per_part};
}

topoplan_status topoplan_agents_create(const topoplan_crowd_planner* planner,
                                       const topoplan_agents_def* def, topoplan_agents** out,
                                       char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (out == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "out is NULL", error, error_size);
    *out = nullptr;
    if (planner == nullptr || def == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner or def is NULL", error, error_size);
    if (auto e = check_limit(limits::kAgentsThreads, int64_t{def->threads}, "AgentWorldDef"))
      return fail(TOPOPLAN_INVALID_ARGUMENT, e->message, error, error_size);
    if (def->cache_entries < 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "cache_entries must be >= 0", error, error_size);
    AgentWorldDef d;
    d.capacity = def->capacity;
    d.decision_period = def->decision_period;
    d.max_plan_age = def->max_plan_age;
    d.max_plans_per_frame = def->max_plans_per_frame;
    d.max_plan_length = def->max_plan_length;
    if (def->min_agents_per_part != 0) d.min_agents_per_part = def->min_agents_per_part;
    d.use_cache = def->cache_entries > 0;
    if (d.use_cache) d.cache.capacity = def->cache_entries;
    auto handle = std::make_unique<topoplan_agents>();
    handle->owner = planner;
    if (def->threads > 1) {
      handle->pool = std::make_unique<CrowdThreadPool>(def->threads);
      handle->pool->install(d.crowd);
    }
    Result<AgentWorld> w = AgentWorld::create(planner->planner, d);
    if (!w) return fail(TOPOPLAN_INVALID_ARGUMENT, w.error().to_string(), error, error_size);
    handle->world = std::move(w).value();
    *out = handle.release();
    return ok(error, error_size);
  });
}

void topoplan_agents_free(topoplan_agents* agents) {
  delete agents;
}

topoplan_status topoplan_agents_add_goal(topoplan_agents* agents, const char* name,
                                         const int32_t* goal, int32_t num_variables, int32_t* id,
                                         char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (agents == nullptr || name == nullptr || goal == nullptr || id == nullptr ||
        num_variables < 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL argument", error, error_size);
    Result<GoalId> g =
        agents->world.add_goal(name, std::span(goal, static_cast<size_t>(num_variables)));
    if (!g) return fail(TOPOPLAN_INVALID_ARGUMENT, g.error().to_string(), error, error_size);
    *id = g.value();
    return ok(error, error_size);
  });
}

topoplan_status topoplan_agents_add_goal_list(topoplan_agents* agents, const int32_t* goals,
                                              int32_t count, int32_t* id, char* error,
                                              size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (agents == nullptr || (goals == nullptr && count > 0) || id == nullptr || count < 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL argument or negative count", error, error_size);
    Result<int32_t> l = agents->world.add_goal_list(std::span(goals, static_cast<size_t>(count)));
    if (!l) return fail(TOPOPLAN_INVALID_ARGUMENT, l.error().to_string(), error, error_size);
    *id = l.value();
    return ok(error, error_size);
  });
}

topoplan_status topoplan_agents_set_class_goals(topoplan_agents* agents, int32_t npc_class,
                                                int32_t goal_list) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (agents == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    return agents->world.set_class_goals(npc_class, goal_list) ? TOPOPLAN_INVALID_ARGUMENT
                                                               : TOPOPLAN_OK;
  });
}

topoplan_status topoplan_agents_add_drive(topoplan_agents* agents, const char* name, double min,
                                          double max, double rate, double initial, int32_t* id,
                                          char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (agents == nullptr || name == nullptr || id == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL argument", error, error_size);
    Result<DriveId> d = agents->world.add_drive(DriveDef{name, min, max, rate, initial});
    if (!d) return fail(TOPOPLAN_INVALID_ARGUMENT, d.error().to_string(), error, error_size);
    *id = d.value();
    return ok(error, error_size);
  });
}

topoplan_status topoplan_agents_add_drive_list(topoplan_agents* agents,
                                               const topoplan_drive_goal* entries, int32_t count,
                                               double margin, int32_t* id, char* error,
                                               size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (agents == nullptr || (entries == nullptr && count > 0) || id == nullptr || count < 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL argument or negative count", error, error_size);
    std::vector<DriveGoal> list;
    list.reserve(static_cast<size_t>(count));
    for (int32_t k = 0; k < count; ++k) {
      const topoplan_drive_goal& e = entries[k];
      if (e.curve < TOPOPLAN_CURVE_LINEAR || e.curve > TOPOPLAN_CURVE_SINE)
        return fail(TOPOPLAN_INVALID_ARGUMENT,
                    "entries[" + std::to_string(k) + "].curve " + std::to_string(e.curve) +
                        " is not a TOPOPLAN_CURVE_*",
                    error, error_size);
      const udgoap::Curve curve{static_cast<udgoap::CurveType>(e.curve), e.slope, e.exponent,
                                e.x_shift, e.y_shift};
      list.push_back(DriveGoal{e.goal, e.drive, curve, e.weight});
    }
    Result<int32_t> l = agents->world.add_drive_list(list, margin);
    if (!l) return fail(TOPOPLAN_INVALID_ARGUMENT, l.error().to_string(), error, error_size);
    *id = l.value();
    return ok(error, error_size);
  });
}

topoplan_status topoplan_agents_set_action_drive(topoplan_agents* agents, int32_t action,
                                                 int32_t drive, double delta) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (agents == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    return agents->world.set_action_drive_effect(action, drive, delta) ? TOPOPLAN_INVALID_ARGUMENT
                                                                       : TOPOPLAN_OK;
  });
}

topoplan_status topoplan_agents_set_action_runs_to_end(topoplan_agents* agents, int32_t action,
                                                       int32_t runs_to_end) {
  if (agents == nullptr || (runs_to_end != 0 && runs_to_end != 1)) return TOPOPLAN_INVALID_ARGUMENT;
  return agents->world.set_action_runs_to_end(action, runs_to_end == 1) ? TOPOPLAN_INVALID_ARGUMENT
                                                                        : TOPOPLAN_OK;
}

int32_t topoplan_agents_action_runs_to_end(const topoplan_agents* agents, int32_t action) {
  if (agents == nullptr || action < 0 || action >= domain_of(agents).num_actions()) return -1;
  return agents->world.action_runs_to_end(action) ? 1 : 0;
}

topoplan_status topoplan_agents_add(topoplan_agents* agents, int32_t npc_class,
                                    const int32_t* state, int32_t num_variables, int32_t* id,
                                    char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (agents == nullptr || state == nullptr || id == nullptr || num_variables < 0)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL argument", error, error_size);
    Result<AgentId> a =
        agents->world.add_agent(npc_class, std::span(state, static_cast<size_t>(num_variables)));
    if (!a) return fail(TOPOPLAN_INVALID_ARGUMENT, a.error().to_string(), error, error_size);
    *id = a.value();
    return ok(error, error_size);
  });
}

int32_t topoplan_agents_count(const topoplan_agents* agents) {
  return agents == nullptr ? -1 : agents->world.num_agents();
}

topoplan_status topoplan_agents_set_goal_list(topoplan_agents* agents, int32_t agent,
                                              int32_t goal_list) {
  if (!agent_ok(agents, agent) || !agents->world.has_goal_list(goal_list))
    return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.set_goal_list(agent, goal_list);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_set_decision_period(topoplan_agents* agents, int32_t agent,
                                                    int32_t period) {
  if (!agent_ok(agents, agent) || period < 1 || period > (1 << 20))
    return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.set_decision_period(agent, period);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_set_fact(topoplan_agents* agents, int32_t agent, int32_t var,
                                         int32_t value) {
  if (!agent_ok(agents, agent)) return TOPOPLAN_INVALID_ARGUMENT;
  const Domain& d = domain_of(agents);
  if (var < 0 || var >= d.num_variables() || value < 0 || value >= d.domain_size(var))
    return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.set_fact(agent, var, value);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_set_state(topoplan_agents* agents, int32_t agent,
                                          const int32_t* state, int32_t num_variables) {
  if (!agent_ok(agents, agent) || !state_fits(domain_of(agents), state, num_variables, false))
    return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.set_state(agent, std::span(state, static_cast<size_t>(num_variables)));
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_set_drive(topoplan_agents* agents, int32_t agent, int32_t drive,
                                          double value) {
  if (!agent_ok(agents, agent) || drive < 0 || drive >= agents->world.num_drives() ||
      !std::isfinite(value))
    return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.set_drive(agent, drive, value);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_set_drives(topoplan_agents* agents,
                                           const topoplan_agent_drive* drives, int32_t count) {
  if (agents == nullptr || count < 0 || (drives == nullptr && count > 0))
    return TOPOPLAN_INVALID_ARGUMENT;
  for (int32_t k = 0; k < count; ++k) {
    const topoplan_agent_drive& x = drives[k];
    if (!agent_ok(agents, x.agent) || x.drive < 0 || x.drive >= agents->world.num_drives() ||
        !std::isfinite(x.value))
      return TOPOPLAN_INVALID_ARGUMENT;
  }
  for (int32_t k = 0; k < count; ++k)
    agents->world.set_drive(drives[k].agent, drives[k].drive, drives[k].value);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_action_finished(topoplan_agents* agents, int32_t agent) {
  if (!agent_ok(agents, agent)) return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.action_finished(agent);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_action_failed(topoplan_agents* agents, int32_t agent) {
  if (!agent_ok(agents, agent)) return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.action_failed(agent);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_set_facts(topoplan_agents* agents, const topoplan_agent_fact* facts,
                                          int32_t count) {
  if (agents == nullptr || count < 0 || (facts == nullptr && count > 0))
    return TOPOPLAN_INVALID_ARGUMENT;
  const Domain& d = domain_of(agents);
  const auto n = static_cast<size_t>(count);
  for (size_t k = 0; k < n; ++k) {
    const topoplan_agent_fact& f = facts[k];
    if (!agent_ok(agents, f.agent) || f.var < 0 || f.var >= d.num_variables() || f.value < 0 ||
        f.value >= d.domain_size(f.var))
      return TOPOPLAN_INVALID_ARGUMENT;
  }
  for (size_t k = 0; k < n; ++k)
    agents->world.set_fact(facts[k].agent, facts[k].var, facts[k].value);
  return TOPOPLAN_OK;
}

topoplan_status topoplan_agents_report(topoplan_agents* agents,
                                       const topoplan_agent_report* reports, int32_t count,
                                       int32_t* applied) {
  if (agents == nullptr || count < 0 || (reports == nullptr && count > 0))
    return TOPOPLAN_INVALID_ARGUMENT;
  const auto n = static_cast<size_t>(count);
  for (size_t k = 0; k < n; ++k)
    if (!agent_ok(agents, reports[k].agent) || (reports[k].outcome != TOPOPLAN_AGENT_FINISHED &&
                                                reports[k].outcome != TOPOPLAN_AGENT_FAILED))
      return TOPOPLAN_INVALID_ARGUMENT;
  int32_t done = 0;
  for (size_t k = 0; k < n; ++k) {
    const topoplan_agent_report& r = reports[k];
    if (r.action < 0 || agents->world.running_action(r.agent) != r.action) continue;
    if (r.outcome == TOPOPLAN_AGENT_FINISHED)
      agents->world.action_finished(r.agent);
    else
      agents->world.action_failed(r.agent);
    ++done;
  }
  if (applied != nullptr) *applied = done;
  return TOPOPLAN_OK;
}

void topoplan_agents_bump_world_version(topoplan_agents* agents) {
  if (agents != nullptr) agents->world.bump_world_version();
}

topoplan_status topoplan_agents_update(topoplan_agents* agents, double dt,
                                       topoplan_agent_event* events, int32_t capacity,
                                       topoplan_agents_stats* stats) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (agents == nullptr || capacity < 0 || (events == nullptr && capacity > 0) ||
        !(dt >= limits::kAgentsUpdateDt.lo && dt <= limits::kAgentsUpdateDt.hi))
      return TOPOPLAN_INVALID_ARGUMENT;
    const UpdateStats s = agents->world.update(
        dt, std::span(reinterpret_cast<Event*>(events), static_cast<size_t>(capacity)));
    for (int64_t k = 0; k < std::min<int64_t>(s.events, capacity); ++k) to_c(events[k]);
    if (stats != nullptr) {
      *stats = topoplan_agents_stats{s.frame,   s.events,  s.events_dropped, s.examined,
                                     s.planned, s.waiting, s.plan_ns,        {}};
      for (size_t r = 0; r < s.replans.size(); ++r) stats->replans[r] = s.replans[r];
    }
    return TOPOPLAN_OK;
  });
}

int32_t topoplan_agents_fact(const topoplan_agents* agents, int32_t agent, int32_t var) {
  if (!agent_ok(agents, agent) || var < 0 || var >= domain_of(agents).num_variables()) return -1;
  return agents->world.fact(agent, var);
}

topoplan_status topoplan_agents_state(const topoplan_agents* agents, int32_t agent, int32_t* state,
                                      int32_t num_variables) {
  if (!agent_ok(agents, agent) || state == nullptr ||
      num_variables != domain_of(agents).num_variables())
    return TOPOPLAN_INVALID_ARGUMENT;
  agents->world.state(agent, std::span(state, static_cast<size_t>(num_variables)));
  return TOPOPLAN_OK;
}

int32_t topoplan_agents_goal(const topoplan_agents* agents, int32_t agent) {
  return agent_ok(agents, agent) ? agents->world.goal(agent) : -1;
}

topoplan_status topoplan_agents_plan(const topoplan_agents* agents, int32_t agent, int32_t* actions,
                                     int32_t capacity, int32_t* length) {
  if (!agent_ok(agents, agent) || length == nullptr || capacity < 0 ||
      (actions == nullptr && capacity > 0))
    return TOPOPLAN_INVALID_ARGUMENT;
  *length = agents->world.plan_length(agent);
  if (*length > capacity) return TOPOPLAN_BUFFER_TOO_SMALL;
  (void)agents->world.plan(agent, std::span(actions, static_cast<size_t>(capacity)));
  return TOPOPLAN_OK;
}

double topoplan_agents_drive(const topoplan_agents* agents, int32_t agent, int32_t drive) {
  if (!agent_ok(agents, agent) || drive < 0 || drive >= agents->world.num_drives())
    return std::nan("");
  return agents->world.drive(agent, drive);
}

double topoplan_agents_goal_score(const topoplan_agents* agents, int32_t agent) {
  if (!agent_ok(agents, agent)) return std::nan("");
  return agents->world.goal_score(agent);
}

int32_t topoplan_agents_num_drives(const topoplan_agents* agents) {
  return agents == nullptr ? -1 : agents->world.num_drives();
}

int32_t topoplan_agents_step(const topoplan_agents* agents, int32_t agent) {
  return agent_ok(agents, agent) ? agents->world.step(agent) : -1;
}
int32_t topoplan_agents_running_action(const topoplan_agents* agents, int32_t agent) {
  return agent_ok(agents, agent) ? agents->world.running_action(agent) : -1;
}
double topoplan_agents_progress(const topoplan_agents* agents, int32_t agent) {
  return agent_ok(agents, agent) ? agents->world.progress(agent) : -1.0;
}
int32_t topoplan_agents_last_replan(const topoplan_agents* agents, int32_t agent) {
  return agent_ok(agents, agent) ? static_cast<int32_t>(agents->world.last_replan(agent)) : -1;
}

const char* topoplan_agents_goal_name(const topoplan_agents* agents, int32_t goal) {
  if (agents == nullptr || goal < 0 || goal >= agents->world.num_goals()) return nullptr;
  return agents->world.goal_name(goal).c_str();
}

const char* topoplan_agents_replan_string(int32_t reason) {
  if (reason < 0 || reason >= kNumReplanReasons) return "?";
  return to_string(static_cast<ReplanReason>(reason)).data();
}
const char* topoplan_agents_event_string(int32_t kind) {
  if (kind < 0 || kind > TOPOPLAN_AGENT_NO_PLAN) return "?";
  return to_string(static_cast<EventKind>(kind)).data();
}

topoplan_status topoplan_agents_describe(const topoplan_agents* agents,
                                         const topoplan_agent_event* event, char* buffer,
                                         size_t capacity, size_t* size) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (event == nullptr || size == nullptr || !agent_ok(agents, event->agent) ||
        event->kind > TOPOPLAN_AGENT_NO_PLAN)
      return TOPOPLAN_INVALID_ARGUMENT;
    const Domain& d = domain_of(agents);
    const bool has_action =
        event->kind == TOPOPLAN_AGENT_START || event->kind == TOPOPLAN_AGENT_ABORT;
    if (has_action && (event->action < 0 || event->action >= d.num_actions()))
      return TOPOPLAN_INVALID_ARGUMENT;
    if (event->goal < -1 || event->goal >= agents->world.num_goals())
      return TOPOPLAN_INVALID_ARGUMENT;
    Event e;
    if (!to_cxx(*event, e)) return TOPOPLAN_INVALID_ARGUMENT;
    return write_text(agents->world.describe(e), buffer, capacity, size);
  });
}

topoplan_status topoplan_agents_explain(const topoplan_agents* agents,
                                        const topoplan_agent_event* event, char* buffer,
                                        size_t capacity, size_t* size) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    Event e;
    if (event == nullptr || size == nullptr || !agent_ok(agents, event->agent) ||
        event->kind != TOPOPLAN_AGENT_NO_PLAN || !to_cxx(*event, e) || event->goal < 0 ||
        event->goal >= agents->world.num_goals())
      return TOPOPLAN_INVALID_ARGUMENT;
    return write_text(agents->world.explain(e), buffer, capacity, size);
  });
}
