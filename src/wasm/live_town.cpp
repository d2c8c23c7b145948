// The WebAssembly binding, town part: a built-in town (topoplan_town_*, the towns of
// `topoplan crowd`) planned a frame at a time by a crowd with a plan cache, through the C API.
// The crowd's planner chain sends the NPCs ℙ leaves without a plan or a proof to its fallback
// (GOAP A*, a per-NPC budget; over it an NPC is pending and resumed by the next frame).
#include <algorithm>
#include <cstring>

#include "binding.h"

namespace topoplan::wasm {

std::string make_crowd_town(const char* town, int64_t npcs, uint64_t seed, int32_t cache_entries,
                            CrowdTownRun& r) {
  char error[1024];
  topoplan_task* t = nullptr;
  if (topoplan_task_builtin(town, &t, error, sizeof error) != TOPOPLAN_OK) return error;
  r.task.reset(t);
  topoplan_crowd_planner* p = nullptr;
  if (topoplan_crowd_planner_create(t, &p, error, sizeof error) != TOPOPLAN_OK) return error;
  r.planner.reset(p);
  topoplan_crowd_def def;
  topoplan_crowd_def_init(&def);
  if (cache_entries > 0) {
    topoplan_plan_cache* c = nullptr;
    if (topoplan_plan_cache_create(p, cache_entries, 16, &c, error, sizeof error) != TOPOPLAN_OK)
      return error;
    r.cache.reset(c);
    def.cache = c;
  }
  topoplan_crowd* crowd = nullptr;
  if (topoplan_crowd_create(p, &def, &crowd, error, sizeof error) != TOPOPLAN_OK) return error;
  r.crowd.reset(crowd);
  topoplan_town_def td;
  topoplan_town_def_init(&td);
  td.npcs = npcs;
  td.seed = seed;
  topoplan_town* tw = nullptr;
  if (topoplan_town_create(p, &td, &tw, error, sizeof error) != TOPOPLAN_OK) return error;
  r.town.reset(tw);
  (void)topoplan_town_batch(tw, &r.batch);
  const auto n = static_cast<size_t>(npcs);
  r.actions.resize(n * 12);
  r.offset.resize(n);
  r.length.resize(n);
  r.status.resize(n);
  return "";
}

namespace {

struct LiveTown {
  CrowdTownRun run;
  std::string name;
  int64_t cursor = 0;      // frame mode: where the current pass stands
  int64_t pending = 0;     // frame mode: NPCs the last frame left pending (the crowd retries them)
  bool churn_owed = true;  // frame mode: the current (or next) pass has not had its churn yet
  // Frame mode: whether the next frame starts a new pass. A cursor back at 0 is not enough: while
  // NPCs of the previous pass are pending, topoplan_crowd_plan_frame only retries them and leaves
  // the cursor at 0; the new pass starts once none is left.
  [[nodiscard]] bool pass_starts() const { return cursor == 0 && pending == 0; }
};
std::unique_ptr<LiveTown> g_town;

void write_town_info(JsonWriter& j, const LiveTown& t, double build_ms) {
  const topoplan_task* task = t.run.task.get();
  j.field("ok", true).field("town", t.name).field("npcs", topoplan_town_npcs(t.run.town.get()));
  j.field("build_ms", build_ms);
  j.field("bytes_per_npc", 2 + 16 * topoplan_crowd_planner_words(t.run.planner.get()));
  j.field("distinct_situations", topoplan_town_distinct_situations(t.run.town.get()));
  j.key("classes").begin_array();
  for (int32_t c = 0; c < topoplan_task_num_classes(task); ++c)
    j.value(topoplan_task_class_name(task, c));
  j.end_array().key("variables").begin_array();
  for (int32_t v = 0; v < topoplan_task_num_variables(task); ++v)
    j.value(topoplan_task_variable_name(task, v));
  j.end_array().key("values").begin_array();
  for (int32_t v = 0; v < topoplan_task_num_variables(task); ++v) {
    j.begin_array();
    for (int32_t x = 0; x < topoplan_task_domain_size(task, v); ++x)
      j.value(topoplan_task_value_name(task, v, x));
    j.end_array();
  }
  // Per action: its (single) effect and its prevail-conditions, [var, value] pairs.
  j.end_array().key("actions").begin_array();
  for (int32_t a = 0; a < topoplan_task_num_actions(task); ++a) {
    topoplan_effect e{};
    (void)topoplan_task_action_effect(task, a, 0, &e);
    j.begin_object().field("name", topoplan_task_action_name(task, a)).field("var", e.var);
    j.field("post", e.post).key("prevail").begin_array();
    topoplan_fact f{};
    for (int32_t i = 0; topoplan_task_action_prevail(task, a, i, &f) == TOPOPLAN_OK; ++i)
      j.begin_array().value(f.var).value(f.value).end_array();
    j.end_array().end_object();
  }
  j.end_array();
}

}  // namespace
}  // namespace topoplan::wasm

using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

extern "C" {

// Builds the built-in town `town` ("western", "western-pus", "goap-level") of `npcs` NPCs (seed
// `seed`) with a plan cache of `cache_entries` entries.
TP_EXPORT const char* tp_town_create(const char* town, int npcs, int seed, int cache_entries) {
  g_town.reset();
  if (npcs < 1 || npcs > 4'000'000) return answer_error("npcs must be in [1, 4000000]");
  const double t0 = now_ms();
  auto t = std::make_unique<LiveTown>();
  t->name = town;
  const std::string e = make_crowd_town(town, npcs, static_cast<uint64_t>(seed),
                                        cache_entries > 0 ? cache_entries : 1 << 14, t->run);
  if (!e.empty()) return answer_error(e);
  g_town = std::move(t);
  JsonWriter j;
  j.begin_object();
  write_town_info(j, *g_town, now_ms() - t0);
  return answer(j.end_object().take());
}

// One frame of the town. First `churn` (a fraction) of the NPCs get a new situation, then
// mode 0 plans the whole town in one batch; mode 1 plans from where the last frame stopped for
// `budget_ms` (topoplan_crowd_plan_frame) and churns once per pass over the town: at the first
// frame of the pass with no NPC pending. Not in the frames that, at cursor 0, only retry the
// previous pass's pending NPCs: churning there would change the town once per such frame, not
// once per pass, and rewrite the situations of NPCs whose answers the retries still owe. (The
// call whose retries finish may start the new pass at once; that pass then churns at its next
// frame, with nothing pending.)
TP_EXPORT const char* tp_town_frame(double churn, int mode, double budget_ms) {
  if (!g_town) return answer_error("no town");
  LiveTown& t = *g_town;
  const int64_t n = t.run.batch.count;
  const bool churn_now = mode == 0 || (t.churn_owed && t.pending == 0);
  if (mode == 1 && churn_now) t.churn_owed = false;
  if (churn_now)
    (void)topoplan_town_churn(t.run.town.get(), static_cast<int64_t>(std::clamp(churn, 0.0, 1.0) *
                                                                     static_cast<double>(n)));
  const topoplan_crowd_output out = t.run.output();
  topoplan_plan_cache_stats before{}, after{};
  (void)topoplan_plan_cache_stats_get(t.run.cache.get(), &before);
  const int64_t first = mode == 0 ? 0 : t.cursor;
  topoplan_crowd_stats s{};
  const double t0 = now_ms();
  if (mode == 0)
    (void)topoplan_crowd_plan(t.run.crowd.get(), &t.run.batch, &out, &s);
  else
    (void)topoplan_crowd_plan_frame(t.run.crowd.get(), &t.run.batch, &out, &t.cursor,
                                    budget_ms * 1e-3, &s);
  const double ms = now_ms() - t0;
  (void)topoplan_plan_cache_stats_get(t.run.cache.get(), &after);
  t.pending = mode == 0 ? 0 : s.pending;  // a whole batch (plan) leaves none pending
  if (mode == 1 && t.cursor >= n) {       // the pass is served: back to the start
    t.cursor = 0;
    t.churn_owed = true;
  }
  // Untimed: what the served NPCs got (status bits), by ℙ or by the fallback.
  int64_t unsolvable = 0, unsolvable_fallback = 0;
  for (int64_t i = first; i < first + s.served && i < n; ++i) {
    const uint16_t st = t.run.status[static_cast<size_t>(i)];
    if (st & TOPOPLAN_CROWD_UNSOLVABLE) {
      ++unsolvable;
      if (st & TOPOPLAN_CROWD_FALLBACK) ++unsolvable_fallback;
    }
  }
  const int64_t hits = after.hits - before.hits, lookups = hits + (after.misses - before.misses);
  JsonWriter j;
  j.begin_object().field("ok", true).field("ms", ms).field("npcs", n).field("first", first);
  j.field("served", s.served).field("planned", s.planned).field("cache_hits", s.cache_hits);
  j.field("solved", s.solved).field("solved_fallback", s.solved_fallback);
  j.field("unsolvable", unsolvable).field("unsolvable_fallback", unsolvable_fallback);
  j.field("no_plan", s.no_plan).field("pending", s.pending).field("resumed", s.resumed);
  j.field("hit_rate", lookups > 0 ? static_cast<double>(hits) / static_cast<double>(lookups) : 0.0);
  j.field("pass_complete", mode == 0 || t.pass_starts());
  return answer(j.end_object().take());
}

// `count` NPCs spread evenly over the town: {i, class, status, plan: [action ids]}.
TP_EXPORT const char* tp_town_sample(int count) {
  JsonWriter j;
  j.begin_array();
  if (g_town && count > 0) {
    const CrowdTownRun& r = g_town->run;
    const int64_t n = r.batch.count;
    const int64_t k = std::min<int64_t>(count, n);
    for (int64_t s = 0; s < k; ++s) {
      const auto i = static_cast<size_t>(s * n / k);
      j.begin_object().field("i", static_cast<int64_t>(i));
      j.field("class", static_cast<int32_t>(r.batch.npc_class[i]));
      j.field("status", static_cast<int32_t>(r.status[i]));
      j.key("plan").begin_array();
      if (r.status[i] & TOPOPLAN_CROWD_SOLVED)
        for (uint32_t a = 0; a < r.length[i]; ++a) j.value(r.actions[r.offset[i] + a]);
      j.end_array().end_object();
    }
  }
  j.end_array();
  return answer(j.take());
}

}  // extern "C"
