// fuzz_capi: the UDGOAP wizard and the simulations.
#include "session.h"

namespace fuzz_capi {

// The UDGOAP wizard (one world and agent per process, loaded again after kMaxUses uses): facts
// set and read with names in and out of the world and hostile values, updates, plans within
// small limits whose steps name the world's actions and entities.
void Session::udgoap() {
  struct World {
    topoplan_udgoap_world* world = nullptr;
    topoplan_udgoap_agent* agent = nullptr;
    int uses = 0;
  };
  static auto* w = new World;
  if (w->world != nullptr && ++w->uses > kMaxUses) {
    topoplan_udgoap_agent_free(w->agent);
    topoplan_udgoap_world_free(w->world);
    *w = World{};
  }
  if (w->world == nullptr) {
    if (!may_create()) return;
    known(topoplan_udgoap_load(TOPOPLAN_SOURCE_DIR "/domains/udgoap/wizard.toml", &w->world,
                               &w->agent, error, sizeof error));
    require(w->world != nullptr && w->agent != nullptr, "the wizard scenario does not load");
  }
  topoplan_udgoap_world* world = w->world;
  topoplan_udgoap_agent* agent = w->agent;
  std::unique_ptr<topoplan_udgoap_agent, void (*)(topoplan_udgoap_agent*)> own(
      nullptr, topoplan_udgoap_agent_free);
  if (in.ConsumeIntegralInRange<int>(0, 15) == 0 && may_create()) {
    topoplan_udgoap_agent* made = nullptr;
    known(topoplan_udgoap_agent_create(world, &made));
    own.reset(made);
    if (made != nullptr) agent = made;
  }
  const int32_t entities = topoplan_udgoap_num_entities(world);
  const int32_t actions = topoplan_udgoap_num_actions(world);
  const int32_t e = in.ConsumeIntegralInRange<int32_t>(-1, entities);
  const char* entity_name = topoplan_udgoap_entity_name(world, e);
  require((entity_name != nullptr) == (e >= 0 && e < entities), "udgoap entity_name");
  const int32_t a = in.ConsumeIntegralInRange<int32_t>(-1, actions);
  require((topoplan_udgoap_action_name(world, a) != nullptr) == (a >= 0 && a < actions),
          "udgoap action_name");
  std::string entity = some_name(entity_name);
  int32_t id = -2;
  const topoplan_status found = topoplan_udgoap_find_entity(world, entity.c_str(), &id);
  known(found);
  if (found == TOPOPLAN_OK)
    require(std::strcmp(entity.c_str(), topoplan_udgoap_entity_name(world, id)) == 0,
            "find_entity: another's name");
  static const char* const kAttributes[] = {"position", "health", "mana"};
  const int which = in.ConsumeIntegralInRange<int>(0, 3);
  const std::string attribute = which < 3 ? kAttributes[which] : in.ConsumeRandomLengthString(10);
  if (in.ConsumeBool()) {
    const double v =
        in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(-10, 200) : hostile_real();
    known(topoplan_udgoap_set_fact(world, entity.c_str(), attribute.c_str(), v));
  }
  double value = 0;
  const topoplan_status got =
      topoplan_udgoap_get_fact(world, entity.c_str(), attribute.c_str(), &value);
  known(got);
  if (got == TOPOPLAN_OK) require(std::isfinite(value), "a fact that is not a finite number");
  if (in.ConsumeBool()) known(topoplan_udgoap_agent_update(world, agent));
  require(topoplan_udgoap_agent_num_goals(agent) >= 0, "udgoap num_goals");
  topoplan_udgoap_limits limits;
  topoplan_udgoap_limits_init(&limits);
  bool hostile = false;
  limits.max_expansions = field({1, 16, 64}, int64_t{1} << 40, hostile);
  limits.max_generated = field({10, 100, 1000}, int64_t{1} << 40, hostile);
  limits.max_plan_length = static_cast<int32_t>(field({1, 4, 16}, 64, hostile));
  const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 32);
  std::vector<topoplan_udgoap_step> steps(static_cast<size_t>(std::max(capacity, 0)) + 1);
  int32_t length = -1;
  double utility = 0;
  const topoplan_status s = topoplan_udgoap_plan(
      world, agent, in.ConsumeIntegralInRange<int>(0, 31) == 0 ? nullptr : &limits, steps.data(),
      capacity, &length, in.ConsumeBool() ? &utility : nullptr, error, sizeof error);
  known(s);
  if (s == TOPOPLAN_OK) {
    require(length >= 0 && length <= capacity, "udgoap plan: its length");
    for (int32_t i = 0; i < length; ++i) {
      const topoplan_udgoap_step& step = steps[static_cast<size_t>(i)];
      require(step.action >= 0 && step.action < actions, "a step's action outside the world");
      require(step.supplier >= -1 && step.supplier < entities, "a step's supplier");
    }
  }
}

// Scenarios: text that is (mostly) not one, and the built-in ones (one handle per file and
// process, loaded again after kMaxUses uses) run for a few simulated seconds, their replays
// copied into buffers of any size.
void Session::sim() {
  if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
    const std::string text = in.ConsumeRandomLengthString(256);
    topoplan_sim* parsed = nullptr;
    known(topoplan_sim_parse(text.data(), text.size(), in.ConsumeBool() ? "fuzz.toml" : nullptr,
                             in.ConsumeBool() ? "/nonexistent" : nullptr, &parsed, error,
                             sizeof error));
    topoplan_sim_free(parsed);
    return;
  }
  static const char* const kFiles[] = {"arena.toml", "sims-house.toml", "hospital.toml",
                                       "arena-tuned.toml"};
  struct Loaded {
    topoplan_sim* sim = nullptr;
    int uses = 0;
  };
  static auto* loaded = new Loaded[4];
  const int f = in.ConsumeIntegralInRange<int>(0, 3);
  Loaded& l = loaded[f];
  if (l.sim != nullptr && ++l.uses > kMaxUses) {
    topoplan_sim_free(l.sim);
    l = Loaded{};
  }
  if (l.sim == nullptr) {
    if (!may_create()) return;
    const std::string path = std::string(TOPOPLAN_SOURCE_DIR "/domains/sim/") + kFiles[f];
    known(topoplan_sim_load(path.c_str(), &l.sim, error, sizeof error));
    if (l.sim == nullptr) std::fprintf(stderr, "%s: %s\n", path.c_str(), error);
    require(l.sim != nullptr, "a scenario of domains/sim does not load");
  }
  require(topoplan_sim_kind(l.sim) != nullptr && topoplan_sim_name(l.sim) != nullptr,
          "sim kind and name");
  const int32_t selectors = topoplan_sim_num_selectors(l.sim);
  const int32_t k = in.ConsumeIntegralInRange<int32_t>(-1, std::max(selectors, 0));
  const char* selector = topoplan_sim_selector_name(l.sim, k);
  require((selector != nullptr) == (k >= 0 && k < selectors), "sim selector_name");
  if (sim_runs++ > 0) return;  // one episode per input: it costs milliseconds
  topoplan_sim_options options;
  topoplan_sim_options_init(&options);
  const std::string random_selector = in.ConsumeRandomLengthString(8);
  options.selector = in.ConsumeBool() ? selector : random_selector.c_str();
  options.seed = in.ConsumeIntegralInRange<uint64_t>(1, 3);
  bool hostile = false;
  options.replay_every = static_cast<int32_t>(field({0, 1, 50}, 1 << 30, hostile));
  // Never 0 (the file's own end: minutes of simulated time) and never infinite.
  options.max_seconds = in.ConsumeBool() ? 0.2 : (in.ConsumeBool() ? 0.5 : -1.0);
  topoplan_sim_result result{};
  const topoplan_status s =
      topoplan_sim_run(l.sim, &options, in.ConsumeBool() ? &result : nullptr, error, sizeof error);
  known(s);
  std::string buffer(in.ConsumeIntegralInRange<size_t>(0, 4096), 'x');
  size_t size = 0;
  const topoplan_status r =
      topoplan_sim_replay(l.sim, buffer.empty() ? nullptr : buffer.data(), buffer.size(), &size);
  known(r);
  if (r == TOPOPLAN_OK)
    require(size >= 1 && size <= buffer.size() && buffer[size - 1] == '\0', "sim_replay: size");
}

}  // namespace fuzz_capi
