// The WebAssembly binding, simulation part: a scenario from text (domains/sim/*.toml, docs/sim.md)
// run to its end in the page through topoplan_sim_*, with the replay of `topoplan sim --replay`.
// In the module, the scenarios' relative paths (the UDGOAP template) resolve in /sim, where the
// build embeds domains/sim/.
#include <cstring>

#include "binding.h"

using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

namespace {
SimPtr g_sim;
}  // namespace

extern "C" {

// Reads a scenario. Answers {ok, kind, name, selectors} or {ok: false, error}.
TP_EXPORT const char* tp_sim_load(const char* text, const char* filename, const char* dir) {
  char error[1024];
  topoplan_sim* s = nullptr;
  const topoplan_status st =
      topoplan_sim_parse(text, std::strlen(text), filename, dir, &s, error, sizeof error);
  g_sim.reset(s);
  if (st != TOPOPLAN_OK) return answer_error(error);
  JsonWriter j;
  j.begin_object().field("ok", true).field("kind", topoplan_sim_kind(s));
  j.field("name", topoplan_sim_name(s)).key("selectors").begin_array();
  for (int32_t i = 0; i < topoplan_sim_num_selectors(s); ++i)
    j.value(topoplan_sim_selector_name(s, i));
  j.end_array();
  return answer(j.end_object().take());
}

// Runs episode 0 of `seed` with `selector` ("" = the scenario's first), keeping one tick in
// `every` in the replay, cut at `max_seconds` (0: the file's). Answers {ok, ms, result, bytes}.
TP_EXPORT const char* tp_sim_run(const char* selector, double seed, int every, double max_seconds) {
  if (!g_sim) return answer_error("no scenario loaded");
  topoplan_sim_options o;
  topoplan_sim_options_init(&o);
  o.selector = *selector ? selector : nullptr;
  o.seed = static_cast<uint64_t>(seed);
  o.replay_every = every;
  o.max_seconds = max_seconds;
  topoplan_sim_result r{};
  char error[1024];
  const double t0 = now_ms();
  if (topoplan_sim_run(g_sim.get(), &o, &r, error, sizeof error) != TOPOPLAN_OK)
    return answer_error(error);
  const double ms = now_ms() - t0;
  size_t bytes = 0;
  (void)topoplan_sim_replay(g_sim.get(), nullptr, 0, &bytes);
  JsonWriter j;
  j.begin_object().field("ok", true).field("ms", ms).field("bytes", static_cast<int64_t>(bytes));
  j.key("result").begin_object().field("ticks", r.ticks).field("seconds", r.seconds);
  j.field("censored", r.censored != 0).field("kills", r.kills).field("decisions", r.decisions);
  j.field("plans", r.plans).field("plan_failures", r.plan_failures);
  j.field("steps_done", r.steps_done).end_object();
  return answer(j.end_object().take());
}

// The last run's replay text (JSON Lines), "" before any run.
TP_EXPORT const char* tp_sim_replay() {
  size_t size = 0;
  (void)topoplan_sim_replay(g_sim.get(), nullptr, 0, &size);
  std::string text(size, '\0');
  if (!g_sim || topoplan_sim_replay(g_sim.get(), text.data(), text.size(), &size) != TOPOPLAN_OK)
    return answer("");
  text.resize(size - 1);
  return answer(std::move(text));
}

}  // extern "C"
