// The C API: crowds (docs/crowds.md) — the crowd planner, the plan cache, batches.
#include "internal.h"

#include <algorithm>
#include <climits>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "topoplan/runtime/limits.h"

using namespace topoplan;        // NOLINT(google-build-using-namespace)
using namespace topoplan::capi;  // NOLINT(google-build-using-namespace)

struct topoplan_plan_cache {
  const topoplan_crowd_planner* owner;
  std::unique_ptr<topoplan::PlanCache> cache;
};
struct topoplan_crowd {
  const topoplan_crowd_planner* owner;
  std::unique_ptr<topoplan::CrowdThreadPool> pool;  // the built-in pool (def.threads > 1)
  std::unique_ptr<topoplan::Crowd> crowd;
};

// The definitions below take C linkage from their declarations in topoplan.h.

// ------------------------------------------------------------------------------------------------
// Crowds

static_assert(TOPOPLAN_CROWD_SOLVED == kCrowdSolved &&
              TOPOPLAN_CROWD_UNSOLVABLE == kCrowdUnsolvable &&
              TOPOPLAN_CROWD_NO_PLAN == kCrowdNoPlan &&
              TOPOPLAN_CROWD_BUFFER_TOO_SMALL == kCrowdBufferTooSmall &&
              TOPOPLAN_CROWD_BAD_INPUT == kCrowdBadInput &&
              TOPOPLAN_CROWD_CACHE_HIT == kCrowdCacheHit &&
              TOPOPLAN_CROWD_PENDING == kCrowdPending && TOPOPLAN_CROWD_FALLBACK == kCrowdFallback);
static_assert(sizeof(ActionId) == sizeof(int32_t) && sizeof(CrowdStatus) == sizeof(uint16_t));
static_assert(sizeof(PlanHandle) == sizeof(topoplan_plan_handle) &&
              offsetof(PlanHandle, id) == offsetof(topoplan_plan_handle, id) &&
              offsetof(PlanHandle, epoch) == offsetof(topoplan_plan_handle, epoch) &&
              std::is_standard_layout_v<PlanHandle> && std::is_trivially_copyable_v<PlanHandle>);

topoplan_status topoplan_crowd_planner_create(const topoplan_task* task,
                                              topoplan_crowd_planner** out, char* error,
                                              size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (task == nullptr) return fail(TOPOPLAN_INVALID_ARGUMENT, "task is NULL", error, error_size);
    Result<CrowdPlanner> p = CrowdPlanner::create(task->task.domain);
    if (!p) return fail(TOPOPLAN_UNSUPPORTED, p.error().to_string(), error, error_size);
    *out = new topoplan_crowd_planner{task, std::move(p).value()};
    return ok(error, error_size);
  });
}

void topoplan_crowd_planner_free(topoplan_crowd_planner* planner) {
  delete planner;
}

int32_t topoplan_crowd_planner_words(const topoplan_crowd_planner* planner) {
  return planner == nullptr ? -1 : planner->planner.layout().words();
}

int32_t topoplan_crowd_planner_num_classes(const topoplan_crowd_planner* planner) {
  return planner == nullptr ? -1 : planner->planner.num_classes();
}

int32_t topoplan_crowd_planner_max_plan_length(const topoplan_crowd_planner* planner) {
  return planner == nullptr ? -1 : planner->planner.max_plan_length();
}

namespace {
// The four packing calls: the arguments checked, then the layout's PACK or UNPACK.
using PackFn = void (CrowdLayout::*)(std::span<const ValueId>, uint64_t*) const;
using UnpackFn = void (CrowdLayout::*)(const uint64_t*, std::span<ValueId>) const;

topoplan_status pack(const topoplan_crowd_planner* planner, const int32_t* values, int32_t n,
                     uint64_t* packed, bool partial, PackFn fn) {
  if (planner == nullptr || packed == nullptr ||
      !state_fits(planner->planner.domain(), values, n, partial))
    return TOPOPLAN_INVALID_ARGUMENT;
  (planner->planner.layout().*fn)(std::span<const ValueId>(values, static_cast<size_t>(n)), packed);
  return TOPOPLAN_OK;
}

topoplan_status unpack(const topoplan_crowd_planner* planner, const uint64_t* packed,
                       int32_t* values, int32_t n, UnpackFn fn) {
  if (planner == nullptr || packed == nullptr || values == nullptr ||
      n != planner->planner.domain().num_variables())
    return TOPOPLAN_INVALID_ARGUMENT;
  (planner->planner.layout().*fn)(packed, std::span<ValueId>(values, static_cast<size_t>(n)));
  return TOPOPLAN_OK;
}
}  // namespace

topoplan_status topoplan_crowd_pack_state(const topoplan_crowd_planner* planner,
                                          const int32_t* state, int32_t num_variables,
                                          uint64_t* packed) {
  return pack(planner, state, num_variables, packed, false, &CrowdLayout::pack_state);
}

topoplan_status topoplan_crowd_pack_goal(const topoplan_crowd_planner* planner, const int32_t* goal,
                                         int32_t num_variables, uint64_t* packed) {
  return pack(planner, goal, num_variables, packed, true, &CrowdLayout::pack_goal);
}

topoplan_status topoplan_crowd_unpack_state(const topoplan_crowd_planner* planner,
                                            const uint64_t* packed, int32_t* state,
                                            int32_t num_variables) {
  return unpack(planner, packed, state, num_variables, &CrowdLayout::unpack_state);
}

topoplan_status topoplan_crowd_unpack_goal(const topoplan_crowd_planner* planner,
                                           const uint64_t* packed, int32_t* goal,
                                           int32_t num_variables) {
  return unpack(planner, packed, goal, num_variables, &CrowdLayout::unpack_goal);
}

namespace {
topoplan_status plan_cache_create(const topoplan_crowd_planner* planner, int32_t capacity,
                                  int32_t max_plan_length, int32_t table_actions,
                                  topoplan_plan_cache** out, char* error, size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (planner == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner is NULL", error, error_size);
    PlanCacheDef def;
    def.capacity = capacity;
    def.max_plan_length = max_plan_length;
    def.table_actions = table_actions;
    // PlanCache::create checks the def against the table of limits (limits.h).
    Result<std::unique_ptr<PlanCache>> cache = PlanCache::create(planner->planner, def);
    if (!cache) return fail(TOPOPLAN_INVALID_ARGUMENT, cache.error().message, error, error_size);
    *out = new topoplan_plan_cache{planner, std::move(cache).value()};
    return ok(error, error_size);
  });
}
}  // namespace

topoplan_status topoplan_plan_cache_create(const topoplan_crowd_planner* planner, int32_t capacity,
                                           int32_t max_plan_length, topoplan_plan_cache** out,
                                           char* error, size_t error_size) {
  return plan_cache_create(planner, capacity, max_plan_length, PlanCacheDef{}.table_actions, out,
                           error, error_size);
}

topoplan_status topoplan_plan_cache_create_with_table(const topoplan_crowd_planner* planner,
                                                      int32_t capacity, int32_t max_plan_length,
                                                      int32_t table_actions,
                                                      topoplan_plan_cache** out, char* error,
                                                      size_t error_size) {
  return plan_cache_create(planner, capacity, max_plan_length, table_actions, out, error,
                           error_size);
}

void topoplan_plan_cache_free(topoplan_plan_cache* cache) {
  delete cache;
}

void topoplan_plan_cache_invalidate(topoplan_plan_cache* cache) {
  if (cache != nullptr) cache->cache->invalidate();
}

topoplan_status topoplan_plan_cache_stats_get(const topoplan_plan_cache* cache,
                                              topoplan_plan_cache_stats* stats) {
  if (cache == nullptr || stats == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const PlanCacheStats s = cache->cache->stats();
  *stats = topoplan_plan_cache_stats{s.hits,          s.misses,   s.inserts, s.evictions,
                                     s.invalidations, s.capacity, s.bytes};
  return TOPOPLAN_OK;
}

void topoplan_crowd_def_init(topoplan_crowd_def* def) {
  if (def == nullptr) return;
  const CrowdDef d;
  *def = topoplan_crowd_def{};
  def->worker_count = d.worker_count;
  def->threads = 1;
  def->npcs_per_block = d.npcs_per_block;
  def->worker_memo_entries = d.worker_memo_entries;
}

namespace {
// The C chain into the CrowdDef (ranges and names are Crowd::create's to check); the reason
// when the C struct itself is malformed.
std::optional<std::string> set_chain(const topoplan_crowd_chain& c, CrowdDef& d) {
  if (c.num_class_fallback < 0 || (c.num_class_fallback > 0 && c.class_fallback == nullptr))
    return "num_class_fallback must be >= 0, with class_fallback not NULL when > 0";
  if (c.fallback != nullptr) d.fallback = parse_planner_chain(c.fallback);
  for (int32_t i = 0; i < c.num_class_fallback; ++i) {
    const topoplan_crowd_class_chain& e = c.class_fallback[i];
    if (e.npc_class == nullptr || e.planners == nullptr)
      return "class_fallback[" + std::to_string(i) + "]: npc_class or planners is NULL";
    d.class_fallback.emplace_back(e.npc_class, parse_planner_chain(e.planners));
  }
  d.fallback_budget = c.fallback_budget;
  d.fallback_limits = SearchLimits{c.max_expansions, c.max_memory_bytes, c.max_seconds};
  return std::nullopt;
}

topoplan_status crowd_create(const topoplan_crowd_planner* planner, const topoplan_crowd_def* def,
                             const topoplan_crowd_chain* chain, topoplan_crowd** out, char* error,
                             size_t error_size) {
  return creating(out, error, error_size, [&]() -> topoplan_status {
    if (planner == nullptr || def == nullptr)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "planner or def is NULL", error, error_size);
    if ((def->enqueue_task == nullptr) != (def->finish_task == nullptr))
      return fail(TOPOPLAN_INVALID_ARGUMENT, "enqueue_task and finish_task go together", error,
                  error_size);
    // The table of limits (limits.h), in its words; Crowd::create checks the other fields.
    if (auto e = check_limit(limits::kCrowdThreads, int64_t{def->threads}, "crowd def"))
      return fail(TOPOPLAN_INVALID_ARGUMENT, e->message, error, error_size);
    if (auto e = check_limit(limits::kCrowdWorkerCount, int64_t{def->worker_count}, "crowd def"))
      return fail(TOPOPLAN_INVALID_ARGUMENT, e->message, error, error_size);
    if (def->cache != nullptr && def->cache->owner != planner)
      return fail(TOPOPLAN_INVALID_ARGUMENT, "the cache was made for another crowd planner", error,
                  error_size);
    auto crowd = std::make_unique<topoplan_crowd>();
    crowd->owner = planner;
    CrowdDef d;
    d.worker_count = def->worker_count;
    d.npcs_per_block = def->npcs_per_block;
    d.worker_memo_entries = def->worker_memo_entries;
    d.cache = def->cache == nullptr ? nullptr : def->cache->cache.get();
    if (chain != nullptr)
      if (std::optional<std::string> bad = set_chain(*chain, d))
        return fail(TOPOPLAN_INVALID_ARGUMENT, *bad, error, error_size);
    if (def->enqueue_task != nullptr) {
      // The C and C++ callback types have the same signature (C language linkage aside).
      d.enqueue_task = reinterpret_cast<CrowdEnqueueFn*>(def->enqueue_task);
      d.finish_task = reinterpret_cast<CrowdFinishFn*>(def->finish_task);
      d.user_task_context = def->user_task_context;
    } else if (def->threads > 1) {
      crowd->pool = std::make_unique<CrowdThreadPool>(def->threads);
      crowd->pool->install(d);
    }
    Result<Crowd> c = Crowd::create(planner->planner, d);
    if (!c) return fail(TOPOPLAN_INVALID_ARGUMENT, c.error().to_string(), error, error_size);
    crowd->crowd = std::make_unique<Crowd>(std::move(c).value());
    *out = crowd.release();
    return ok(error, error_size);
  });
}
}  // namespace

void topoplan_crowd_chain_init(topoplan_crowd_chain* chain) {
  if (chain == nullptr) return;
  const CrowdDef d;
  *chain = topoplan_crowd_chain{};
  chain->fallback_budget = d.fallback_budget;
  chain->max_expansions = d.fallback_limits.max_expansions;
  chain->max_memory_bytes = d.fallback_limits.max_memory_bytes;
  chain->max_seconds = d.fallback_limits.max_seconds;
}

topoplan_status topoplan_crowd_create(const topoplan_crowd_planner* planner,
                                      const topoplan_crowd_def* def, topoplan_crowd** out,
                                      char* error, size_t error_size) {
  return crowd_create(planner, def, nullptr, out, error, error_size);
}

topoplan_status topoplan_crowd_create_with_chain(const topoplan_crowd_planner* planner,
                                                 const topoplan_crowd_def* def,
                                                 const topoplan_crowd_chain* chain,
                                                 topoplan_crowd** out, char* error,
                                                 size_t error_size) {
  return crowd_create(planner, def, chain, out, error, error_size);
}

void topoplan_crowd_free(topoplan_crowd* crowd) {
  delete crowd;
}

namespace {
// Checks the batch and output against the crowd's layout; fills the C++ views.
bool crowd_views(const topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                 const topoplan_crowd_output* output, CrowdBatch& b, CrowdOutput& o) {
  if (crowd == nullptr || batch == nullptr || output == nullptr) return false;
  const int64_t n = batch->count;
  if (n < 0 || n > INT32_MAX) return false;
  if (n > 0 &&
      (batch->npc_class == nullptr || batch->init == nullptr || batch->goal == nullptr ||
       output->offset == nullptr || output->length == nullptr || output->status == nullptr))
    return false;
  if (output->capacity < 0 || output->capacity > int64_t{0xFFFFFFFF} ||
      (output->actions == nullptr && output->capacity > 0))
    return false;
  const auto count = static_cast<size_t>(n);
  const auto words =
      static_cast<size_t>(crowd->owner->planner.layout().words()) * static_cast<size_t>(n);
  b.npc_class = {batch->npc_class, count};
  b.init = {batch->init, words};
  b.goal = {batch->goal, words};
  o.actions = {output->actions, static_cast<size_t>(output->capacity)};
  o.offset = {output->offset, count};
  o.length = {output->length, count};
  o.status = {output->status, count};
  return true;
}

// The caller's handle array as the output's (nothing when !with_handles); false when it cannot
// be: NULL for a non-empty batch, or a crowd without a cache.
bool handle_view(const topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                 topoplan_plan_handle* handles, bool with_handles, CrowdOutput& o) {
  if (!with_handles) return true;
  if (crowd->crowd->def().cache == nullptr || (handles == nullptr && batch->count > 0))
    return false;
  // The same 8 bytes: id then epoch (checked above the definitions); the crowd writes them.
  o.handles = {reinterpret_cast<PlanHandle*>(handles), static_cast<size_t>(batch->count)};
  return true;
}

void copy_stats(const CrowdStats& s, topoplan_crowd_stats* out) {
  if (out == nullptr) return;
  *out = topoplan_crowd_stats{s.served,
                              s.planned,
                              s.cache_hits,
                              s.solved,
                              s.buffer_too_small,
                              s.complete ? 1 : 0,
                              static_cast<int32_t>(s.unsolvable),  // at most count, below 2^31
                              s.solved_fallback,
                              s.resumed,
                              s.no_plan,
                              s.pending};
}
}  // namespace

namespace {
// The batch calls with or without handles (`handles` NULL: copies only).
topoplan_status crowd_plan(topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                           const topoplan_crowd_output* output, topoplan_plan_handle* handles,
                           bool with_handles, topoplan_crowd_stats* stats) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    CrowdBatch b;
    CrowdOutput o;
    if (!crowd_views(crowd, batch, output, b, o) ||
        !handle_view(crowd, batch, handles, with_handles, o))
      return TOPOPLAN_INVALID_ARGUMENT;
    copy_stats(crowd->crowd->plan(b, o), stats);
    return TOPOPLAN_OK;
  });
}

topoplan_status crowd_plan_frame(topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                                 const topoplan_crowd_output* output, topoplan_plan_handle* handles,
                                 bool with_handles, int64_t* cursor, double budget_seconds,
                                 topoplan_crowd_stats* stats) {
  return guarded(nullptr, 0, [&]() -> topoplan_status {
    CrowdBatch b;
    CrowdOutput o;
    if (!crowd_views(crowd, batch, output, b, o) ||
        !handle_view(crowd, batch, handles, with_handles, o) || cursor == nullptr || *cursor < 0 ||
        *cursor > batch->count || !(budget_seconds >= 0.0))
      return TOPOPLAN_INVALID_ARGUMENT;
    // A cursor is 0 or what a call wrote: a block's first NPC, or the batch's end.
    if (*cursor % crowd->crowd->def().npcs_per_block != 0 && *cursor != batch->count)
      return TOPOPLAN_INVALID_ARGUMENT;
    // Pending NPCs are indices into the batch of their pass: another batch size is not theirs.
    if (crowd->crowd->pending() > 0 && crowd->crowd->pending_batch_size() != batch->count)
      return TOPOPLAN_INVALID_ARGUMENT;
    CrowdCursor c{*cursor};
    copy_stats(crowd->crowd->plan_frame(b, o, &c, budget_seconds), stats);
    *cursor = c.next;
    return TOPOPLAN_OK;
  });
}

// A resolved plan (or nullopt) into the caller's pointers.
topoplan_status resolved(std::optional<std::span<const ActionId>> plan, const int32_t** actions,
                         int32_t* length) {
  *actions = plan ? plan->data() : nullptr;
  *length = plan ? static_cast<int32_t>(plan->size()) : 0;
  return plan ? TOPOPLAN_OK : TOPOPLAN_NOT_FOUND;
}
}  // namespace

topoplan_status topoplan_crowd_plan(topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                                    const topoplan_crowd_output* output,
                                    topoplan_crowd_stats* stats) {
  return crowd_plan(crowd, batch, output, nullptr, false, stats);
}

topoplan_status topoplan_crowd_plan_frame(topoplan_crowd* crowd, const topoplan_crowd_batch* batch,
                                          const topoplan_crowd_output* output, int64_t* cursor,
                                          double budget_seconds, topoplan_crowd_stats* stats) {
  return crowd_plan_frame(crowd, batch, output, nullptr, false, cursor, budget_seconds, stats);
}

topoplan_status topoplan_crowd_plan_handles(topoplan_crowd* crowd,
                                            const topoplan_crowd_batch* batch,
                                            const topoplan_crowd_output* output,
                                            topoplan_plan_handle* handles,
                                            topoplan_crowd_stats* stats) {
  return crowd_plan(crowd, batch, output, handles, true, stats);
}

topoplan_status topoplan_crowd_plan_frame_handles(topoplan_crowd* crowd,
                                                  const topoplan_crowd_batch* batch,
                                                  const topoplan_crowd_output* output,
                                                  topoplan_plan_handle* handles, int64_t* cursor,
                                                  double budget_seconds,
                                                  topoplan_crowd_stats* stats) {
  return crowd_plan_frame(crowd, batch, output, handles, true, cursor, budget_seconds, stats);
}

topoplan_status topoplan_crowd_pending(const topoplan_crowd* crowd, int64_t* npcs, int64_t capacity,
                                       int64_t* count) {
  if (crowd == nullptr || count == nullptr || capacity < 0 || (npcs == nullptr && capacity > 0))
    return TOPOPLAN_INVALID_ARGUMENT;
  const int64_t n = crowd->crowd->pending();
  *count = n;
  for (int64_t k = 0; k < std::min(n, capacity); ++k) npcs[k] = crowd->crowd->pending_npc(k);
  return capacity < n ? TOPOPLAN_BUFFER_TOO_SMALL : TOPOPLAN_OK;
}

topoplan_status topoplan_crowd_discard_pending(topoplan_crowd* crowd) {
  if (crowd == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  crowd->crowd->discard_pending();
  return TOPOPLAN_OK;
}

topoplan_status topoplan_crowd_resolve(const topoplan_crowd* crowd, topoplan_plan_handle handle,
                                       const int32_t** actions, int32_t* length) {
  if (crowd == nullptr || actions == nullptr || length == nullptr ||
      crowd->crowd->def().cache == nullptr)
    return TOPOPLAN_INVALID_ARGUMENT;
  return resolved(crowd->crowd->resolve(PlanHandle{handle.id, handle.epoch}), actions, length);
}

topoplan_status topoplan_plan_cache_resolve(const topoplan_plan_cache* cache,
                                            topoplan_plan_handle handle, const int32_t** actions,
                                            int32_t* length) {
  if (cache == nullptr || actions == nullptr || length == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  return resolved(cache->cache->resolve(PlanHandle{handle.id, handle.epoch}), actions, length);
}

topoplan_status topoplan_plan_cache_table(const topoplan_plan_cache* cache, uint32_t* epoch,
                                          int64_t* used, int64_t* capacity) {
  if (cache == nullptr) return TOPOPLAN_INVALID_ARGUMENT;
  const PlanCacheStats s = cache->cache->stats();
  if (epoch != nullptr) *epoch = cache->cache->epoch();
  if (used != nullptr) *used = s.table_used;
  if (capacity != nullptr) *capacity = s.table_capacity;
  return TOPOPLAN_OK;
}
