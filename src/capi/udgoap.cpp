// The C API: UDGOAP (docs/udgoap.md).
#include "internal.h"

#include <cmath>
#include <vector>
#include "topoplan/runtime/limits.h"
#include "topoplan/udgoap/planner.h"
#include "topoplan/udgoap/scenario.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

struct topoplan_udgoap_world {
  topoplan::udgoap::World world;
  topoplan::udgoap::UdgoapLimits limits;
};
struct topoplan_udgoap_agent {
  const topoplan_udgoap_world* owner;
  topoplan::udgoap::AgentState state;
};

// The definitions below take C linkage from their declarations in topoplan.h.

// ------------------------------------------------------------------------------------------------
// UDGOAP

topoplan_status topoplan_udgoap_load(const char* path, topoplan_udgoap_world** world,
                                     topoplan_udgoap_agent** agent, char* error,
                                     size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (world == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "world is NULL", error, error_size);
    *world = nullptr;
    if (agent != nullptr) *agent = nullptr;
    if (path == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "path is NULL", error, error_size);
    Result<udgoap::Scenario> s = udgoap::load_scenario(path);
    if (!s) return fail(TOPOPLAN_INPUT_ERROR, s.error().to_string(), error, error_size);
    auto w = std::make_unique<topoplan_udgoap_world>();
    w->world = std::move(s->world);
    w->limits = s->limits;
    if (agent != nullptr) *agent = new topoplan_udgoap_agent{w.get(), std::move(s->agent)};
    *world = w.release();
    return ok(error, error_size);
  });
}

void topoplan_udgoap_world_free(topoplan_udgoap_world* world) {
  delete world;
}

void topoplan_udgoap_agent_free(topoplan_udgoap_agent* agent) {
  delete agent;
}

topoplan_status topoplan_udgoap_agent_create(const topoplan_udgoap_world* world,
                                             topoplan_udgoap_agent** out) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (out == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    *out = nullptr;
    if (world == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    auto a = std::make_unique<topoplan_udgoap_agent>();
    a->owner = world;
    a->state = udgoap::make_agent_state(world->world);
    const std::vector<udgoap::Value> state = world->world.initial_state();
    udgoap::update_agent(world->world, state, a->state);
    *out = a.release();
    return TOPOPLAN_OK;
  });
}

int32_t topoplan_udgoap_num_entities(const topoplan_udgoap_world* world) {
  return world == nullptr ? -1 : static_cast<int32_t>(world->world.entities.size());
}

const char* topoplan_udgoap_entity_name(const topoplan_udgoap_world* world, int32_t entity) {
  const auto* e = world == nullptr ? nullptr : at_index(world->world.entities, entity);
  return e == nullptr ? nullptr : e->name.c_str();
}

int32_t topoplan_udgoap_num_actions(const topoplan_udgoap_world* world) {
  return world == nullptr ? -1 : static_cast<int32_t>(world->world.actions.size());
}

const char* topoplan_udgoap_action_name(const topoplan_udgoap_world* world, int32_t action) {
  const auto* a = world == nullptr ? nullptr : at_index(world->world.actions, action);
  return a == nullptr ? nullptr : a->name.c_str();
}

topoplan_status topoplan_udgoap_find_entity(const topoplan_udgoap_world* world, const char* name,
                                            int32_t* id) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || name == nullptr || id == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
    const std::optional<udgoap::EntityId> e = world->world.find_entity(name);
    if (!e) return TOPOPLAN_NOT_FOUND;
    *id = *e;
    return TOPOPLAN_OK;
  });
}

namespace {
// The slot of the fact (entity, attribute), or kNoSlot.
udgoap::SlotId fact_slot(const udgoap::World& w, const char* entity, const char* attribute) {
  const std::optional<udgoap::EntityId> e = w.find_entity(entity);
  const std::optional<udgoap::AttributeId> a = w.find_attribute(attribute);
  if (!e || !a) return udgoap::kNoSlot;
  return w.slot(*e, *a);
}
}  // namespace

topoplan_status topoplan_udgoap_get_fact(const topoplan_udgoap_world* world, const char* entity,
                                         const char* attribute, double* value) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || entity == nullptr || attribute == nullptr || value == nullptr)
      return TOPOPLAN_INVALID_ARGUMENT;
    const udgoap::SlotId s = fact_slot(world->world, entity, attribute);
    if (s == udgoap::kNoSlot) return TOPOPLAN_NOT_FOUND;
    const udgoap::Fact& f = world->world.facts[static_cast<size_t>(s)];
    if (f.value.is_vector) return TOPOPLAN_INVALID_ARGUMENT;
    *value = f.value.x;
    return TOPOPLAN_OK;
  });
}

topoplan_status topoplan_udgoap_set_fact(topoplan_udgoap_world* world, const char* entity,
                                         const char* attribute, double value) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || entity == nullptr || attribute == nullptr || !std::isfinite(value))
      return TOPOPLAN_INVALID_ARGUMENT;
    const udgoap::SlotId s = fact_slot(world->world, entity, attribute);
    if (s == udgoap::kNoSlot) return TOPOPLAN_NOT_FOUND;
    udgoap::Fact& f = world->world.facts[static_cast<size_t>(s)];
    if (f.value.is_vector) return TOPOPLAN_INVALID_ARGUMENT;
    f.value.x = std::clamp(value, f.min, f.max);
    return TOPOPLAN_OK;
  });
}

topoplan_status topoplan_udgoap_agent_update(const topoplan_udgoap_world* world,
                                             topoplan_udgoap_agent* agent) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    if (world == nullptr || agent == nullptr || agent->owner != world)
      return TOPOPLAN_INVALID_ARGUMENT;
    const std::vector<udgoap::Value> state = world->world.initial_state();
    udgoap::update_agent(world->world, state, agent->state);
    return TOPOPLAN_OK;
  });
}

int32_t topoplan_udgoap_agent_num_goals(const topoplan_udgoap_agent* agent) {
  return agent == nullptr ? -1 : static_cast<int32_t>(agent->state.goals.size());
}

void topoplan_udgoap_limits_init(topoplan_udgoap_limits* limits) {
  if (limits == nullptr) return;
  const udgoap::UdgoapLimits d;
  *limits = topoplan_udgoap_limits{d.max_expansions, d.max_generated, d.max_plan_length, 0};
}

topoplan_status topoplan_udgoap_plan(const topoplan_udgoap_world* world,
                                     const topoplan_udgoap_agent* agent,
                                     const topoplan_udgoap_limits* limits,
                                     topoplan_udgoap_step* steps, int32_t capacity, int32_t* length,
                                     double* utility, char* error, size_t error_size) {
  return guarded(error, error_size, [&]() -> topoplan_status {
    if (world == nullptr || agent == nullptr || agent->owner != world || length == nullptr ||
        capacity < 0 || (steps == nullptr && capacity > 0))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "NULL or mismatched world/agent, or bad buffer", error,
                  error_size);
    udgoap::UdgoapOptions options;
    options.limits = world->limits;
    if (limits != nullptr) {
      options.limits.max_expansions = limits->max_expansions;
      options.limits.max_generated = limits->max_generated;
      options.limits.max_plan_length = limits->max_plan_length;
      // The table of limits: bad input (INVALID_ARGUMENT), not a planner that cannot run.
      if (auto e = udgoap::check(options.limits))
        return fail(TOPOPLAN_INVALID_ARGUMENT, e->message, error, error_size);
    }
    const udgoap::UdgoapResult r = udgoap::plan_udgoap(world->world, agent->state, options);
    *length = static_cast<int32_t>(r.plan.size());
    if (utility != nullptr) *utility = r.utility;
    if (r.status != PlanStatus::kSolved)
      return fail(from_plan_status(r.status), limit_words_for(r.message, LimitDoor::kC), error,
                  error_size);
    if (*length > capacity)
      return fail(TOPOPLAN_BUFFER_TOO_SMALL, "the plan has more steps than the buffer", error,
                  error_size);
    for (size_t i = 0; i < r.plan.size(); ++i)
      steps[i] = topoplan_udgoap_step{r.plan[i].action, r.plan[i].supplier};
    return ok(error, error_size);
  });
}
