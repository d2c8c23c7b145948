// The WebAssembly binding, town part: a town (topoplan_town_*, the towns of `topoplan crowd`: a
// built-in one, or one made from a domain file's classes and instances) planned a frame at a time
// by a crowd with a plan cache, through the C API. The crowd's planner chain sends the NPCs ℙ
// leaves without a plan or a proof to its fallback (GOAP A*, a per-NPC budget; over it an NPC is
// pending and resumed by the next frame), so a domain that is not unary and post-unique runs too.
#include <algorithm>
#include <cctype>
#include <cstring>

#include "binding.h"

namespace topoplan::wasm {

namespace {

constexpr int32_t kLeastRoom = 12;  // actions per NPC at least, as `topoplan crowd`'s default

// The longest plan (from `least` up to 255) any NPC of the batch gets: one batch through a crowd
// with the default chain and a plan cache of its own, so each distinct situation is planned once
// and an NPC whose plan does not fit still reports its length. The action room per NPC, as
// `topoplan crowd` sizes it without --actions-per-npc: no NPC of the town is "buffer too small".
std::string town_action_room(const topoplan_crowd_planner* p, const topoplan_crowd_batch& batch,
                             int32_t least, int32_t* room) {
  char error[1024];
  topoplan_plan_cache* c = nullptr;
  if (topoplan_plan_cache_create(p, 1 << 14, 255, &c, error, sizeof error) != TOPOPLAN_OK)
    return error;
  const CachePtr cache(c);
  topoplan_crowd_def def;
  topoplan_crowd_def_init(&def);
  def.cache = c;
  topoplan_crowd* crowd = nullptr;
  if (topoplan_crowd_create(p, &def, &crowd, error, sizeof error) != TOPOPLAN_OK) return error;
  const CrowdPtr owned(crowd);
  const auto n = static_cast<size_t>(batch.count);
  std::vector<int32_t> actions(n * static_cast<size_t>(least));
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n), status(n);
  const topoplan_crowd_output out{actions.data(), static_cast<int64_t>(actions.size()),
                                  offset.data(), length.data(), status.data()};
  (void)topoplan_crowd_plan(crowd, &batch, &out, nullptr);
  int32_t longest = least;
  for (size_t i = 0; i < n; ++i)
    if (status[i] & (TOPOPLAN_CROWD_SOLVED | TOPOPLAN_CROWD_BUFFER_TOO_SMALL))
      longest = std::max<int32_t>(longest, length[i]);
  *room = std::min(longest, 255);
  return "";
}

}  // namespace

// Grows (or sets) the action room; the plans already written keep their offsets.
void CrowdTownRun::set_room(int32_t actions_per_npc) {
  room = actions_per_npc;
  actions.resize(static_cast<size_t>(batch.count) * static_cast<size_t>(room));
}

std::string make_crowd_town(TaskPtr task, int64_t npcs, uint64_t seed, int32_t cache_entries,
                            CrowdTownRun& r) {
  char error[1024];
  r.task = std::move(task);
  topoplan_crowd_planner* p = nullptr;
  if (topoplan_crowd_planner_create(r.task.get(), &p, error, sizeof error) != TOPOPLAN_OK)
    return error;
  r.planner.reset(p);
  topoplan_town_def td;
  topoplan_town_def_init(&td);
  td.npcs = npcs;
  td.seed = seed;
  topoplan_town* tw = nullptr;
  if (topoplan_town_create(p, &td, &tw, error, sizeof error) != TOPOPLAN_OK) return error;
  r.town.reset(tw);
  (void)topoplan_town_batch(tw, &r.batch);
  int32_t room = kLeastRoom;
  if (std::string e = town_action_room(p, r.batch, kLeastRoom, &room); !e.empty()) return e;
  topoplan_crowd_def def;
  topoplan_crowd_def_init(&def);
  if (cache_entries > 0) {
    topoplan_plan_cache* c = nullptr;
    if (topoplan_plan_cache_create(p, cache_entries, std::max(16, room), &c, error, sizeof error) !=
        TOPOPLAN_OK)
      return error;
    r.cache.reset(c);
    def.cache = c;
  }
  topoplan_crowd* crowd = nullptr;
  if (topoplan_crowd_create(p, &def, &crowd, error, sizeof error) != TOPOPLAN_OK) return error;
  r.crowd.reset(crowd);
  const auto n = static_cast<size_t>(npcs);
  r.set_room(room);
  r.offset.resize(n);
  r.length.resize(n);
  r.status.resize(n);
  return "";
}

std::string make_crowd_town(const char* town, int64_t npcs, uint64_t seed, int32_t cache_entries,
                            CrowdTownRun& r) {
  char error[1024];
  topoplan_task* t = nullptr;
  if (topoplan_task_builtin(town, &t, error, sizeof error) != TOPOPLAN_OK) return error;
  return make_crowd_town(TaskPtr(t), npcs, seed, cache_entries, r);
}

namespace {

struct LiveTown {
  CrowdTownRun run;
  std::string name;
  int64_t cursor = 0;       // frame mode: where the current pass stands
  int64_t pending = 0;      // frame mode: NPCs the last frame left pending (the crowd retries them)
  bool churn_owed = true;   // frame mode: the current (or next) pass has not had its churn yet
  int32_t room_needed = 0;  // frame mode: the longest plan of this pass that did not fit
  int64_t current = 0;      // NPCs [0, current) were answered since their situation last changed
  // Frame mode: whether the next frame starts a new pass. A cursor back at 0 is not enough: while
  // NPCs of the previous pass are pending, topoplan_crowd_plan_frame only retries them and leaves
  // the cursor at 0; the new pass starts once none is left.
  [[nodiscard]] bool pass_starts() const { return cursor == 0 && pending == 0; }
};
std::unique_ptr<LiveTown> g_town;

void write_town_info(JsonWriter& j, const LiveTown& t, double build_ms) {
  const topoplan_task* task = t.run.task.get();
  j.field("ok", true).field("town", t.name).field("domain", topoplan_task_name(task));
  j.field("npcs", topoplan_town_npcs(t.run.town.get())).field("build_ms", build_ms);
  j.field("bytes_per_npc", 2 + 16 * topoplan_crowd_planner_words(t.run.planner.get()));
  j.field("actions_per_npc", t.run.room);
  j.field("distinct_situations", topoplan_town_distinct_situations(t.run.town.get()));
  // The crowd's NPC classes: the domain's, or one class of every action when it has none. Per
  // class its structural class (C0, C2S, C2*; "none": ℙ takes part of it, the chain the rest)
  // and the reason a smaller class fails, as `topoplan check` words it.
  const int32_t classes = topoplan_task_num_classes(task);
  j.key("classes").begin_array();
  for (int32_t c = 0; c < std::max(classes, 1); ++c)
    j.value(classes > 0 ? topoplan_task_class_name(task, c) : "every action");
  j.end_array().key("class_analysis").begin_array();
  for (int32_t c = 0; c < std::max(classes, 1); ++c) {
    topoplan_class_report report{};
    char why[512] = "";
    const bool ok = topoplan_check(task, classes > 0 ? c : TOPOPLAN_ALL_ACTIONS, &report, why,
                                   sizeof why) == TOPOPLAN_OK;
    j.begin_object().field("class", ok ? structural_class_name(report.structural_class) : "none");
    j.field("unary", ok && report.unary != 0).field("post_unique", ok && report.post_unique != 0);
    j.field("why_not", why).end_object();
  }
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
  // Per action: its first effect (var, post), every effect as [var, pre, post] (pre: -1 for any
  // value), and its prevail-conditions as [var, value] pairs.
  j.end_array().key("actions").begin_array();
  for (int32_t a = 0; a < topoplan_task_num_actions(task); ++a) {
    topoplan_effect e{};
    (void)topoplan_task_action_effect(task, a, 0, &e);
    j.begin_object().field("name", topoplan_task_action_name(task, a)).field("var", e.var);
    j.field("post", e.post).key("effects").begin_array();
    for (int32_t i = 0; topoplan_task_action_effect(task, a, i, &e) == TOPOPLAN_OK; ++i)
      j.begin_array().value(e.var).value(e.pre).value(e.post).end_array();
    j.end_array().key("prevail").begin_array();
    topoplan_fact f{};
    for (int32_t i = 0; topoplan_task_action_prevail(task, a, i, &f) == TOPOPLAN_OK; ++i)
      j.begin_array().value(f.var).value(f.value).end_array();
    j.end_array().end_object();
  }
  j.end_array();
}

// Builds the town of `task` (named `name`) and answers its description.
const char* create_town(TaskPtr task, std::string name, int npcs, int seed, int cache_entries) {
  const double t0 = now_ms();
  auto t = std::make_unique<LiveTown>();
  t->name = std::move(name);
  const std::string e = make_crowd_town(std::move(task), npcs, static_cast<uint64_t>(seed),
                                        cache_entries > 0 ? cache_entries : 1 << 14, t->run);
  if (!e.empty()) return answer_error(e);
  g_town = std::move(t);
  JsonWriter j;
  j.begin_object();
  write_town_info(j, *g_town, now_ms() - t0);
  return answer(j.end_object().take());
}

// The longest plan among the served NPCs [first, end) that did not fit their slice (0: none).
int32_t longest_too_small(const CrowdTownRun& r, int64_t first, int64_t end) {
  int32_t longest = 0;
  for (int64_t i = first; i < end; ++i)
    if (r.status[static_cast<size_t>(i)] & TOPOPLAN_CROWD_BUFFER_TOO_SMALL)
      longest = std::max<int32_t>(longest, r.length[static_cast<size_t>(i)]);
  return longest;
}

}  // namespace
}  // namespace topoplan::wasm

using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

extern "C" {

// Builds the built-in town `town` ("western", "western-pus", "goap-level") of `npcs` NPCs (seed
// `seed`) with a plan cache of `cache_entries` entries.
TP_EXPORT const char* tp_town_create(const char* town, int npcs, int seed, int cache_entries) {
  if (npcs < 1 || npcs > 4'000'000) return answer_error("npcs must be in [1, 4000000]");
  char error[1024];
  topoplan_task* t = nullptr;
  if (topoplan_task_builtin(town, &t, error, sizeof error) != TOPOPLAN_OK)
    return answer_error(error);
  g_town.reset();  // before the new town is built: at most one in memory
  return create_town(TaskPtr(t), town, npcs, seed, cache_entries);
}

// Builds the town of a domain file given as text (`filename` names it in messages; native TOML,
// or Fast Downward SAS when it starts with "begin_version"), read by the C API's reader as
// `topoplan crowd --domain FILE` reads it: its NPC classes, its instances as the routines. A bad
// text answers the reader's "file:line: message" and leaves the current town as it was.
TP_EXPORT const char* tp_town_create_domain(const char* text, const char* filename, int npcs,
                                            int seed, int cache_entries) {
  if (npcs < 1 || npcs > 4'000'000) return answer_error("npcs must be in [1, 4000000]");
  const std::string_view body(text);
  size_t k = 0;
  while (k < body.size() && std::isspace(static_cast<unsigned char>(body[k]))) ++k;
  const bool sas = body.substr(k, 13) == "begin_version";
  char error[1024];
  topoplan_task* t = nullptr;
  if (topoplan_task_parse(text, body.size(), sas ? TOPOPLAN_FORMAT_SAS : TOPOPLAN_FORMAT_NATIVE,
                          filename, &t, error, sizeof error) != TOPOPLAN_OK)
    return answer_error(error);
  TaskPtr task(t);
  g_town.reset();
  return create_town(std::move(task), filename, npcs, seed, cache_entries);
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
  if (churn_now) t.current = 0;
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
  double ms = now_ms() - t0;
  // A plan longer than the room per NPC (a situation the churn drew that the town's first batch,
  // which sized the room, did not hold): the room grows to it. A whole batch is planned again at
  // once (its other NPCs are answered from the cache); a frame pass grows when it ends, and its
  // NPCs that did not fit get their plans in the next pass.
  if (mode == 0 && s.buffer_too_small > 0 && t.run.room < 255) {
    t.run.set_room(std::min(255, std::max(t.run.room, longest_too_small(t.run, 0, n))));
    const topoplan_crowd_output grown = t.run.output();
    (void)topoplan_plan_cache_stats_get(t.run.cache.get(), &before);
    const double t1 = now_ms();
    (void)topoplan_crowd_plan(t.run.crowd.get(), &t.run.batch, &grown, &s);
    ms += now_ms() - t1;
  } else if (mode == 1 && s.buffer_too_small > 0) {
    t.room_needed = std::max(t.room_needed, longest_too_small(t.run, 0, n));
  }
  (void)topoplan_plan_cache_stats_get(t.run.cache.get(), &after);
  t.pending = mode == 0 ? 0 : s.pending;  // a whole batch (plan) leaves none pending
  t.current = mode == 0 || t.cursor >= n ? n : t.cursor;
  if (mode == 1 && t.cursor >= n) {  // the pass is served: back to the start
    t.cursor = 0;
    t.churn_owed = true;
    if (t.room_needed > t.run.room) t.run.set_room(std::min(255, t.room_needed));
    t.room_needed = 0;
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
  j.field("buffer_too_small", s.buffer_too_small).field("actions_per_npc", t.run.room);
  j.field("hit_rate", lookups > 0 ? static_cast<double>(hits) / static_cast<double>(lookups) : 0.0);
  j.field("pass_complete", mode == 0 || t.pass_starts());
  return answer(j.end_object().take());
}

// `count` NPCs spread evenly over the town: {i, class, status, plan: [action ids]}, and for a
// plan answered since the NPC's situation last changed, "valid": the validator's verdict on it
// from the NPC's state to its goal with its class's actions (the page shows what the library
// answered; the tests check it).
TP_EXPORT const char* tp_town_sample(int count) {
  JsonWriter j;
  j.begin_array();
  if (g_town && count > 0) {
    const CrowdTownRun& r = g_town->run;
    const topoplan_task* task = r.task.get();
    const int32_t vars = topoplan_task_num_variables(task);
    const int32_t words = topoplan_crowd_planner_words(r.planner.get());
    const bool classes = topoplan_task_num_classes(task) > 0;
    std::vector<int32_t> init(static_cast<size_t>(vars)), goal(static_cast<size_t>(vars));
    const int64_t n = r.batch.count;
    const int64_t k = std::min<int64_t>(count, n);
    for (int64_t s = 0; s < k; ++s) {
      const auto i = static_cast<size_t>(s * n / k);
      const bool solved = (r.status[i] & TOPOPLAN_CROWD_SOLVED) != 0;
      j.begin_object().field("i", static_cast<int64_t>(i));
      j.field("class", static_cast<int32_t>(r.batch.npc_class[i]));
      j.field("status", static_cast<int32_t>(r.status[i]));
      j.key("plan").begin_array();
      if (solved)
        for (uint32_t a = 0; a < r.length[i]; ++a) j.value(r.actions[r.offset[i] + a]);
      j.end_array();
      if (solved && static_cast<int64_t>(i) < g_town->current) {
        const size_t at = i * static_cast<size_t>(words);
        (void)topoplan_crowd_unpack_state(r.planner.get(), r.batch.init + at, init.data(), vars);
        (void)topoplan_crowd_unpack_goal(r.planner.get(), r.batch.goal + at, goal.data(), vars);
        const topoplan_problem problem{init.data(), goal.data(), vars,
                                       classes ? r.batch.npc_class[i] : TOPOPLAN_ALL_ACTIONS};
        char why[256];
        const bool valid =
            topoplan_validate(task, &problem, r.actions.data() + r.offset[i], r.length[i], nullptr,
                              nullptr, why, sizeof why) == TOPOPLAN_OK;
        j.field("valid", valid);
        if (!valid) j.field("invalid", why);
      }
      j.end_object();
    }
  }
  j.end_array();
  return answer(j.take());
}

}  // extern "C"
