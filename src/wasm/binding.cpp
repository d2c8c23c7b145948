// The WebAssembly binding of topoplan: C functions that take text and numbers and answer JSON
// text, wrapped for JavaScript by web/topoplan.js. One loaded task and one live town per module
// instance (a page). Every answer is built on a cold path; the town's frame calls the crowd's
// allocation-free batch planner. docs/web.md describes the JavaScript API built on top.
//
// Returned strings live in a buffer owned here until the next call that returns a string.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json_writer.h"
#include "topoplan/analysis.h"
#include "topoplan/crowd.h"
#include "topoplan/families.h"
#include "topoplan/io.h"
#include "topoplan/plan.h"
#include "topoplan/topo.h"
#include "topoplan/validate.h"
#include "town.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define TP_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define TP_EXPORT
#endif

namespace topoplan::wasm {
namespace {

std::string g_answer;        // the last answer handed to JavaScript
std::optional<Task> g_task;  // the domain loaded in the playground
std::unique_ptr<LiveTown> g_town;

const char* answer(std::string s) {
  g_answer = std::move(s);
  return g_answer.c_str();
}

double now_ms() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now();
#else
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
#endif
}

void write_error(JsonWriter& j, const Error& e) {
  j.key("error").begin_object();
  j.field("message", e.message).field("file", e.file).field("line", e.line);
  j.field("text", e.to_string());
  j.end_object();
}

// Fast Downward files start with "begin_version"; anything else is read as native TOML.
bool looks_like_sas(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
  return text.substr(i, 13) == "begin_version";
}

void write_ids(JsonWriter& j, std::span<const ActionId> ids) {
  j.begin_array();
  for (ActionId a : ids) j.value(a);
  j.end_array();
}

void write_edges(JsonWriter& j, std::span<const ActionEdge> es) {
  j.begin_array();
  for (const ActionEdge& e : es) j.begin_array().value(e.from).value(e.to).end_array();
  j.end_array();
}

std::string names(const Domain& d, std::span<const ActionId> as) {
  std::string s;
  for (size_t i = 0; i < as.size(); ++i) s += (i ? ", " : "") + d.action_name(as[i]);
  return s.empty() ? "-" : s;
}

// The class analysis "in words": every restriction that fails, with its offenders, then why the
// next smaller class does not hold (the lines of `topoplan check`).
std::vector<std::string> report_words(const Domain& d, const ClassReport& r) {
  std::vector<std::string> w;
  for (ActionId a : r.non_unary)
    w.push_back("not unary: " + d.action_name(a) + " has " + std::to_string(d.effects(a).size()) +
                " effects");
  for (const PostConflict& pc : r.post_conflicts)
    w.push_back("not post-unique: " + d.variable_name(pc.var) + "=" +
                d.value_name(pc.var, pc.post) + " is set by " + names(d, pc.actions));
  for (const PrevailConflict& pc : r.prevail_conflicts) {
    std::string s;
    for (size_t i = 0; i < pc.values.size(); ++i)
      s += std::string(i ? ", " : "") + d.value_name(pc.var, pc.values[i]) + " (" +
           d.action_name(pc.witnesses[i]) + ")";
    w.push_back("not single-valued: " + d.variable_name(pc.var) + " is required at " + s);
  }
  if (!r.undefined_pre.empty())
    w.push_back("undefined pre-conditions: " + names(d, r.undefined_pre));
  if (!r.why_not.empty()) w.push_back("why not smaller: " + r.why_not);
  for (const ClassViolation& v : r.violations)
    if (v.message != r.why_not) w.push_back(v.message);
  return w;
}

void write_report(JsonWriter& j, const Domain& d, const ClassReport& r) {
  j.begin_object();
  j.field("scope", r.npc_class == kAllActions ? std::string("all actions")
                                              : "class " + d.class_name(r.npc_class));
  j.field("actions", r.num_analysed);
  j.field("unary", r.unary).field("post_unique", r.post_unique);
  j.field("single_valued", r.single_valued).field("pre_defined", r.pre_defined);
  j.field("class", std::string(to_string(r.structural_class)));
  j.field("why_not", r.why_not);
  j.key("words").begin_array();
  for (const std::string& s : report_words(d, r)) j.value(s);
  j.end_array();
  std::vector<ActionId> analysed, on_cycle;
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    if (r.analysed[static_cast<size_t>(a)]) analysed.push_back(a);
    if (r.on_cycle[static_cast<size_t>(a)]) on_cycle.push_back(a);
  }
  j.key("analysed");
  write_ids(j, analysed);
  j.key("requestable");
  write_ids(j, r.requestable);
  j.key("on_cycle");
  write_ids(j, on_cycle);
  j.key("pre_edges");
  write_edges(j, r.pre_edges);
  j.key("prv_edges");
  write_edges(j, r.prv_edges);
  j.key("variables").begin_array();
  for (const VariableReport& vr : r.variables) {
    j.begin_object();
    j.field("var", vr.var).field("components", vr.components);
    j.key("actions");
    write_ids(j, vr.actions);
    j.key("edges");
    write_edges(j, vr.edges);
    j.key("requestable");
    write_ids(j, vr.requestable);
    j.key("ghost_values").begin_array();
    for (ValueId x : vr.ghost_values) j.value(x);
    j.end_array();
    j.key("cycles").begin_array();
    for (const DomainCycle& c : vr.cycles) {
      j.begin_object().field("simple", c.simple).key("actions");
      write_ids(j, c.actions);
      j.key("requestable");
      write_ids(j, c.requestable);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

void write_domain(JsonWriter& j, const Task& task) {
  const Domain& d = task.domain;
  j.key("domain").begin_object();
  j.field("name", d.name());
  j.key("variables").begin_array();
  for (VarId v = 0; v < d.num_variables(); ++v) {
    j.begin_object().field("name", d.variable_name(v)).key("values").begin_array();
    for (ValueId x = 0; x < d.domain_size(v); ++x) j.value(d.value_name(v, x));
    j.end_array().end_object();
  }
  j.end_array();
  j.key("actions").begin_array();
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    j.begin_object().field("name", d.action_name(a)).field("cost", d.cost(a));
    j.key("effects").begin_array();
    for (const Effect& e : d.effects(a))
      j.begin_object().field("var", e.var).field("pre", e.pre).field("post", e.post).end_object();
    j.end_array();
    j.key("prevail").begin_array();
    for (const Fact& f : d.prevail(a))
      j.begin_object().field("var", f.var).field("value", f.value).end_object();
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("classes").begin_array();
  for (ClassId c = 0; c < d.num_classes(); ++c) {
    j.begin_object().field("name", d.class_name(c)).key("actions");
    write_ids(j, d.class_actions(c));
    j.end_object();
  }
  j.end_array();
  j.key("instances").begin_array();
  for (const Instance& inst : task.instances) {
    j.begin_object().field("name", inst.name).field("class", inst.npc_class);
    j.field("init", format_state(d, inst.init)).field("goal", format_state(d, inst.goal));
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

double min_of(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

}  // namespace
}  // namespace topoplan::wasm

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::wasm;  // NOLINT(google-build-using-namespace)

extern "C" {

// [{name, description}] of every planner linked in.
TP_EXPORT const char* tp_planners() {
  JsonWriter j;
  j.begin_array();
  for (const PlannerInfo& p : planners())
    j.begin_object().field("name", p.name).field("description", p.description).end_object();
  j.end_array();
  return answer(j.take());
}

// Loads a task from text. format: 0 by content ("begin_version" = Fast Downward SAS), 1 native
// TOML, 2 SAS. Answers {ok, format, domain} or {ok: false, error: {message, file, line, text}}.
TP_EXPORT const char* tp_load(const char* text, int format) {
  const std::string_view t(text);
  const bool sas = format == 2 || (format == 0 && looks_like_sas(t));
  Result<Task> r = sas ? parse_fd_sas(t, "domain.sas") : parse_native(t, "domain.toml");
  JsonWriter j;
  j.begin_object().field("ok", r.ok()).field("format", sas ? "sas" : "native");
  if (r.ok()) {
    g_task = std::move(r).value();
    write_domain(j, *g_task);
  } else {
    g_task.reset();
    write_error(j, r.error());
  }
  j.end_object();
  return answer(j.take());
}

// Class analysis of NPC class `npc_class` of the loaded task (-1: every action), with one
// summary line per class when every action is analysed.
TP_EXPORT const char* tp_check(int npc_class) {
  JsonWriter j;
  j.begin_object();
  if (!g_task) {
    j.field("ok", false);
    write_error(j, Error{"no domain loaded", "", 0});
    return answer(j.end_object().take());
  }
  const Domain& d = g_task->domain;
  if (npc_class < -1 || npc_class >= d.num_classes()) {
    j.field("ok", false);
    write_error(j, Error{"no NPC class " + std::to_string(npc_class), "", 0});
    return answer(j.end_object().take());
  }
  j.field("ok", true);
  const ClassId scope = npc_class < 0 ? kAllActions : npc_class;
  j.key("report");
  write_report(j, d, analyze(d, scope));
  j.key("classes").begin_array();
  if (scope == kAllActions) {
    for (ClassId c = 0; c < d.num_classes(); ++c) {
      const ClassReport r = analyze(d, c);
      j.begin_object().field("name", d.class_name(c));
      j.field("class", std::string(to_string(r.structural_class)));
      j.field("post_unique", r.post_unique).field("why_not", r.why_not).end_object();
    }
  }
  j.end_array();
  return answer(j.end_object().take());
}

// Plans instance `instance` of the loaded task with planner `planner` (a name of tp_planners()).
// Non-empty `init` / `goal` ("var=value,...") replace the instance's. The answer carries the
// plan, its cost, the engine, and the validator's verdict on it.
TP_EXPORT const char* tp_plan(const char* planner, int instance, const char* init,
                              const char* goal) {
  JsonWriter j;
  j.begin_object();
  auto fail = [&](const std::string& message) {
    j.field("ok", false);
    write_error(j, Error{message, "", 0});
    return answer(j.end_object().take());
  };
  if (!g_task) return fail("no domain loaded");
  const PlannerInfo* p = find_planner(planner);
  if (p == nullptr) return fail("unknown planner '" + std::string(planner) + "'");
  const Domain& d = g_task->domain;
  Instance inst;
  if (instance >= 0 && instance < static_cast<int>(g_task->instances.size())) {
    inst = g_task->instances[static_cast<size_t>(instance)];
  } else {
    inst.init.assign(static_cast<size_t>(d.num_variables()), 0);
    inst.goal.assign(static_cast<size_t>(d.num_variables()), kUndefined);
  }
  if (*init) {
    Result<std::vector<ValueId>> s = parse_state_by_names(d, init);
    if (!s.ok()) return fail("init: " + s.error().message);
    for (size_t v = 0; v < s->size(); ++v)
      if ((*s)[v] != kUndefined) inst.init[v] = (*s)[v];
  }
  if (*goal) {
    Result<std::vector<ValueId>> s = parse_state_by_names(d, goal);
    if (!s.ok()) return fail("goal: " + s.error().message);
    inst.goal = std::move(s).value();
  }
  if (std::optional<Error> e = d.check_instance(inst)) return fail(e->message);
  PlannerOptions opts;
  opts.limits.max_expansions = 2'000'000;
  opts.limits.max_memory_bytes = int64_t{256} << 20;
  opts.limits.max_seconds = 10.0;
  const PlanResult r = p->plan(d, inst, opts);
  j.field("ok", true).field("planner", p->name);
  j.field("status", std::string(to_string(r.status))).field("message", r.message);
  j.field("engine", r.stats.engine).field("seconds", r.stats.seconds);
  j.field("expanded", r.stats.expanded).field("generated", r.stats.generated);
  j.field("init", format_state(d, inst.init)).field("goal", format_state(d, inst.goal));
  // What the goal asks to change, "var: from → to" (the states themselves can be long).
  j.key("changes").begin_array();
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId g = inst.goal[static_cast<size_t>(v)];
    const ValueId x = inst.init[static_cast<size_t>(v)];
    if (g != kUndefined && g != x)
      j.value(d.variable_name(v) + ": " + d.value_name(v, x) + " → " + d.value_name(v, g));
  }
  j.end_array();
  if (r.status == PlanStatus::kSolved) {
    j.field("cost", r.cost);
    j.key("actions").begin_array();
    for (ActionId a : r.actions)
      j.begin_object().field("id", a).field("name", d.action_name(a)).end_object();
    j.end_array();
    j.field("text", write_plan(d, r.actions));
    const Validation v = validate_plan(d, inst, r.actions);
    j.key("validation").begin_object();
    j.field("valid", v.valid).field("failed_step", v.failed_step).field("reason", v.reason);
    j.field("cost", v.cost).end_object();
  }
  return answer(j.end_object().take());
}

// ---------------------------------------------------------------------------------------------
// The live town (Western).

// Builds a town of `npcs` NPCs (seed `seed`) with a plan cache of `cache_entries` entries.
TP_EXPORT const char* tp_town_create(int npcs, int seed, int cache_entries) {
  JsonWriter j;
  j.begin_object();
  g_town.reset();
  if (npcs < 1 || npcs > 4'000'000) {
    j.field("ok", false);
    write_error(j, Error{"npcs must be in [1, 4000000]", "", 0});
    return answer(j.end_object().take());
  }
  const double t0 = now_ms();
  auto t = std::make_unique<LiveTown>();
  t->task = western();
  t->planner = std::make_unique<CrowdPlanner>(CrowdPlanner::create(t->task.domain).value());
  PlanCacheDef cd;
  cd.capacity = cache_entries > 0 ? cache_entries : 1 << 14;
  t->cache = std::make_unique<PlanCache>(*t->planner, cd);
  CrowdDef def;
  def.cache = t->cache.get();
  t->crowd = std::make_unique<Crowd>(Crowd::create(*t->planner, def).value());
  t->rng = Rng(static_cast<uint64_t>(seed));
  t->town = build_town(t->task, *t->planner, npcs, 64, t->rng);
  const auto n = static_cast<size_t>(npcs);
  t->actions.resize(n * 12);
  t->offset.resize(n);
  t->length.resize(n);
  t->status.resize(n);
  g_town = std::move(t);
  const Domain& d = g_town->task.domain;
  j.field("ok", true).field("npcs", npcs).field("build_ms", now_ms() - t0);
  j.field("bytes_per_npc", g_town->planner->layout().bytes_per_npc());
  j.key("classes").begin_array();
  for (ClassId c = 0; c < d.num_classes(); ++c) j.value(d.class_name(c));
  j.end_array();
  j.key("variables").begin_array();
  for (VarId v = 0; v < d.num_variables(); ++v) j.value(d.variable_name(v));
  j.end_array();
  j.key("actions").begin_array();
  for (ActionId a = 0; a < d.num_actions(); ++a)
    j.begin_object().field("name", d.action_name(a)).field("var", d.effects(a)[0].var).end_object();
  j.end_array();
  return answer(j.end_object().take());
}

// One frame of the town. First `churn` (a fraction) of the NPCs get a new situation, then
// mode 0 plans the whole town in one batch; mode 1 plans from where the last frame stopped for
// `budget_ms` (Crowd::plan_frame), churning only when a pass over the town starts. NPCs that ℙ
// leaves without a plan or a proof go to the fallback (GOAP A*), at most 64 per frame.
TP_EXPORT const char* tp_town_frame(double churn, int mode, double budget_ms) {
  JsonWriter j;
  j.begin_object();
  if (!g_town) {
    j.field("ok", false);
    write_error(j, Error{"no town", "", 0});
    return answer(j.end_object().take());
  }
  LiveTown& t = *g_town;
  const int64_t n = t.town.size();
  if (mode == 0 || t.cursor.next == 0) {
    const auto churned = static_cast<int64_t>(std::clamp(churn, 0.0, 1.0) * static_cast<double>(n));
    for (int64_t k = 0; k < churned; ++k)
      t.town.assign(t.rng.below(static_cast<int32_t>(n)), t.rng);
  }
  const CrowdBatch batch{t.town.npc_class, t.town.init, t.town.goal};
  const CrowdOutput out{t.actions, t.offset, t.length, t.status};
  const PlanCacheStats before = t.cache->stats();
  const int64_t first = mode == 0 ? 0 : t.cursor.next;
  const double t0 = now_ms();
  const CrowdStats s = mode == 0 ? t.crowd->plan(batch, out)
                                 : t.crowd->plan_frame(batch, out, &t.cursor, budget_ms * 1e-3);
  const double ms = now_ms() - t0;
  const PlanCacheStats after = t.cache->stats();
  const int64_t end = first + s.served;
  if (mode == 1 && t.cursor.next >= n) t.cursor.next = 0;  // the next frame starts a new pass
  // Untimed: what the served NPCs got, and the fallback for those ℙ left open.
  int64_t unsolvable = 0, no_plan = 0, fallback_solved = 0, fallback_run = 0;
  const Domain& d = t.task.domain;
  const PlannerInfo* astar = find_planner("astar");
  for (int64_t i = first; i < end; ++i) {
    const CrowdStatus st = t.status[static_cast<size_t>(i)];
    if (st & kCrowdUnsolvable) ++unsolvable;
    if (st & kCrowdNoPlan) {
      ++no_plan;
      if (fallback_run < 64 && astar != nullptr) {
        ++fallback_run;
        Instance inst;
        inst.init.resize(static_cast<size_t>(d.num_variables()));
        inst.goal.resize(static_cast<size_t>(d.num_variables()));
        const auto words = static_cast<size_t>(t.town.words);
        t.planner->layout().unpack_state(&t.town.init[static_cast<size_t>(i) * words], inst.init);
        t.planner->layout().unpack_goal(&t.town.goal[static_cast<size_t>(i) * words], inst.goal);
        inst.npc_class = t.town.npc_class[static_cast<size_t>(i)];
        PlannerOptions o;
        o.limits.max_expansions = 100'000;
        if (astar->plan(d, inst, o).status == PlanStatus::kSolved) ++fallback_solved;
      }
    }
  }
  const int64_t lookups = (after.hits - before.hits) + (after.misses - before.misses);
  j.field("ok", true).field("ms", ms).field("npcs", n).field("first", first);
  j.field("served", s.served).field("planned", s.planned).field("cache_hits", s.cache_hits);
  j.field("solved", s.solved).field("unsolvable", unsolvable).field("no_plan", no_plan);
  j.field("fallback_run", fallback_run).field("fallback_solved", fallback_solved);
  j.field("hit_rate",
          lookups > 0 ? static_cast<double>(after.hits - before.hits) / static_cast<double>(lookups)
                      : 0.0);
  j.field("pass_complete", mode == 0 || t.cursor.next == 0);
  return answer(j.end_object().take());
}

// `count` NPCs spread evenly over the town: {i, class, status, plan: [action ids]}.
TP_EXPORT const char* tp_town_sample(int count) {
  JsonWriter j;
  j.begin_array();
  if (g_town && count > 0) {
    const LiveTown& t = *g_town;
    const int64_t n = t.town.size();
    const int64_t k = std::min<int64_t>(count, n);
    for (int64_t s = 0; s < k; ++s) {
      const auto i = static_cast<size_t>(s * n / k);
      j.begin_object().field("i", static_cast<int64_t>(i));
      j.field("class", static_cast<int32_t>(t.town.npc_class[i]));
      j.field("status", static_cast<int32_t>(t.status[i]));
      j.key("plan").begin_array();
      if (t.status[i] & kCrowdSolved)
        for (uint32_t a = 0; a < t.length[i]; ++a) j.value(t.actions[t.offset[i] + a]);
      j.end_array().end_object();
    }
  }
  j.end_array();
  return answer(j.take());
}

// ---------------------------------------------------------------------------------------------
// Benchmarks (the CLI's methods, single-threaded), to compare WebAssembly with native.

// ℙ on Western's instances, cycled, as `topoplan bench western`: median ns per plan over `reps`
// repetitions of at least `min_seconds` each — or, when `fixed_batch` > 0, of exactly that many
// plans (the same work on every machine, for CPU-time comparisons).
TP_EXPORT const char* tp_bench_western(double min_seconds, int reps, int fixed_batch) {
  const Task task = western();
  std::vector<TopoPlanner> planners;
  std::vector<TopoScratch> scratch;
  std::vector<size_t> which;
  std::vector<ClassId> classes;
  for (const Instance& inst : task.instances) {
    auto it = std::find(classes.begin(), classes.end(), inst.npc_class);
    if (it == classes.end()) {
      classes.push_back(inst.npc_class);
      planners.push_back(TopoPlanner::create(task.domain, inst.npc_class).value());
      scratch.push_back(planners.back().make_scratch());
      it = classes.end() - 1;
    }
    which.push_back(static_cast<size_t>(it - classes.begin()));
  }
  std::vector<ActionId> out(static_cast<size_t>(task.domain.num_actions()) + 1);
  int64_t solved = 0;
  auto run = [&](size_t i) {
    const Instance& inst = task.instances[i];
    int32_t len = 0;
    solved += planners[which[i]].plan(scratch[which[i]], inst.init, inst.goal, out, &len) ==
              PlanStatus::kSolved;
  };
  const size_t m = task.instances.size();
  int64_t batch = fixed_batch > 0 ? fixed_batch : 1;
  while (fixed_batch <= 0) {
    const double t0 = now_ms();
    for (int64_t k = 0; k < batch; ++k) run(static_cast<size_t>(k) % m);
    const double s = (now_ms() - t0) * 1e-3;
    if (s >= min_seconds || batch >= (int64_t{1} << 34)) break;
    batch = s <= 0 ? batch * 10
                   : std::max<int64_t>(batch + 1,
                                       static_cast<int64_t>(static_cast<double>(batch) *
                                                            std::min(10.0, 1.2 * min_seconds / s)));
  }
  std::vector<double> samples;
  solved = 0;
  for (int r = 0; r < std::max(1, reps); ++r) {
    const double t0 = now_ms();
    for (int64_t k = 0; k < batch; ++k) run(static_cast<size_t>(k) % m);
    samples.push_back((now_ms() - t0) * 1e6 / static_cast<double>(batch));
  }
  JsonWriter j;
  j.begin_object().field("ns_per_plan", median(samples));
  j.field("ns_per_plan_min", min_of(samples));
  j.field("plans_per_rep", batch);
  j.field("instances", static_cast<int64_t>(m));
  j.field("all_solved", solved == batch * std::max(1, reps));
  return answer(j.end_object().take());
}

// The crowd benchmark of `topoplan crowd --threads 1`: cold (no cache, every NPC through ℙ,
// median of `reps` batches) and warm (cache of 2^14 entries, median of `frames` batches after
// one filling batch, 5 % churn between frames), in ns per NPC. reps = 0 or frames = 0 skips that
// part (the town is always built).
TP_EXPORT const char* tp_bench_crowd(int npcs, int reps, int frames) {
  const Task task = western();
  const CrowdPlanner planner = CrowdPlanner::create(task.domain).value();
  Rng rng(1);
  Town town = build_town(task, planner, npcs, 64, rng);
  const auto n = static_cast<size_t>(npcs);
  std::vector<ActionId> actions(n * 12);
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n);
  std::vector<CrowdStatus> status(n);
  const CrowdOutput out{actions, offset, length, status};
  const CrowdBatch batch{town.npc_class, town.init, town.goal};
  Crowd cold = Crowd::create(planner, CrowdDef{}).value();
  std::vector<double> t;
  int64_t solved = 0;
  for (int r = 0; r < reps; ++r) {
    const double t0 = now_ms();
    solved = cold.plan(batch, out).solved;
    t.push_back(now_ms() - t0);
  }
  const double cold_ms = median(t);
  const double cold_min_ms = min_of(t);
  t.clear();
  PlanCacheDef cache_def;
  cache_def.capacity = 1 << 14;
  PlanCache cache(planner, cache_def);
  CrowdDef warm_def;
  warm_def.cache = &cache;
  Crowd warm = Crowd::create(planner, warm_def).value();
  if (frames > 0) (void)warm.plan(batch, out);
  Rng churn(1 * 31 + 7);
  const auto churned = static_cast<int64_t>(0.05 * static_cast<double>(n));
  const PlanCacheStats before = cache.stats();
  for (int f = 0; f < frames; ++f) {
    for (int64_t k = 0; k < churned; ++k)
      town.assign(churn.below(static_cast<int32_t>(npcs)), churn);
    const double t0 = now_ms();
    (void)warm.plan(batch, out);
    t.push_back(now_ms() - t0);
  }
  const PlanCacheStats after = cache.stats();
  const double warm_ms = median(t);
  const double warm_min_ms = min_of(t);
  const auto lookups =
      static_cast<double>((after.hits - before.hits) + (after.misses - before.misses));
  JsonWriter j;
  j.begin_object().field("npcs", npcs);
  j.field("cold_ns_per_npc", cold_ms * 1e6 / static_cast<double>(n));
  j.field("warm_ns_per_npc", warm_ms * 1e6 / static_cast<double>(n));
  j.field("cold_ns_per_npc_min", cold_min_ms * 1e6 / static_cast<double>(n));
  j.field("warm_ns_per_npc_min", warm_min_ms * 1e6 / static_cast<double>(n));
  j.field("solved_fraction", static_cast<double>(solved) / static_cast<double>(n));
  j.field("hit_rate", lookups > 0 ? static_cast<double>(after.hits - before.hits) / lookups : 0.0);
  return answer(j.end_object().take());
}

}  // extern "C"
