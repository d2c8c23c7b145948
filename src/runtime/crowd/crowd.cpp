// Crowd: creation (the def's ranges, the fallback chain, per-worker scratch), plan(),
// plan_frame() and run(), which hands a batch's blocks to the workers (serve.cpp) and gathers
// their counters and pending NPCs (pending.cpp retries those).
#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <memory>
#include <string>

#include "runtime/crowd/internal.h"
#include "topoplan/runtime/limits.h"

namespace topoplan {

using crowd_detail::now_ns;

namespace {
Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}

// The buffer of a fallback plan (a worker's, the retries'): actions.
size_t fallback_plan_size(int32_t max_plan_length) {
  return static_cast<size_t>(std::max(max_plan_length, 64)) + 1;
}

// The def's fields that do not depend on the planner: "" or a one-line message.
std::string check_def(const CrowdDef& def) {
  // Every numeric field against the table of limits, so bad input is refused here in the words
  // of every door and never reaches a cast or an allocation (a negative worker_memo_entries
  // would become 2^32 entries). An infinite max_seconds is no limit: that is spelled 0.
  using namespace limits;  // NOLINT(google-build-using-namespace)
  const std::pair<const LimitSpec*, int64_t> ints[] = {
      {&kCrowdWorkerCount, def.worker_count},
      {&kCrowdNpcsPerBlock, def.npcs_per_block},
      {&kCrowdWorkerMemoEntries, def.worker_memo_entries},
      {&kCrowdFallbackBudget, def.fallback_budget},
      {&kCrowdFallbackMaxExpansions, def.fallback_limits.max_expansions},
      {&kCrowdFallbackMaxMemoryBytes, def.fallback_limits.max_memory_bytes}};
  for (const auto& [spec, value] : ints)
    if (auto e = check_limit(*spec, value, "crowd")) return e->message;
  if (auto e = check_limit(kCrowdFallbackMaxSeconds, def.fallback_limits.max_seconds, "crowd"))
    return e->message;
  if ((def.enqueue_task == nullptr) != (def.finish_task == nullptr))
    return "crowd: set both enqueue_task and finish_task, or neither";
  for (const std::string& name : def.fallback)
    if (name.empty()) return "crowd: fallback: an empty planner name";
  return {};
}
}  // namespace

Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;
Crowd::~Crowd() = default;

Result<Crowd> Crowd::create(const CrowdPlanner& planner, const CrowdDef& def) {
  if (std::string bad = check_def(def); !bad.empty()) return error_of(bad);
  Crowd crowd;
  if (std::string bad = crowd.make_fallbacks(planner, def); !bad.empty()) return error_of(bad);
  crowd.planner_ = &planner;
  crowd.def_ = def;
  crowd.workers_.resize(static_cast<size_t>(def.worker_count));
  for (Worker& w : crowd.workers_) crowd.make_worker(w);
  for (const auto& cp : planner.classes_) {
    crowd.hot_.push_back(ClassHot{&cp->planner, cp->fields.data(), cp->to_global.data(),
                                  static_cast<int32_t>(cp->vars.size()),
                                  cp->planner.max_plan_length()});
    crowd.key_mask_.insert(crowd.key_mask_.end(), cp->key_mask.begin(), cp->key_mask.end());
    crowd.other_high_.insert(crowd.other_high_.end(), cp->other_high.begin(), cp->other_high.end());
    crowd.topo_part_.push_back(cp->topo_part ? 1 : 0);
  }
  if (!crowd.workers_.empty() && !crowd.workers_[0].memo.empty()) {
    crowd.memo_mask_.assign(size_t{1} << 16, 0);
    std::copy(crowd.key_mask_.begin(), crowd.key_mask_.end(), crowd.memo_mask_.begin());
  }
  crowd.make_cold_classes();
  return crowd;
}

// The fallback chain (create): per class and stage its planners, the retry levels, the retries'
// buffers. "" or the error.
std::string Crowd::make_fallbacks(const CrowdPlanner& planner, const CrowdDef& def) {
  // The fallback chain: per class and stage one planner on the class's projection, run within
  // the per-NPC budget (first attempt, inside serve_block) or a retry level's (run_fallback).
  // Per class its chain: CrowdDef::class_fallback by class name, else `fallback`.
  const int32_t num_classes = planner.num_classes();
  std::vector<const std::vector<std::string>*> chains(static_cast<size_t>(num_classes),
                                                      &def.fallback);
  for (const auto& [class_name, chain] : def.class_fallback) {
    int32_t found = -1;
    for (int32_t c = 0; c < num_classes; ++c)
      if (planner.domain().num_classes() > 0 && planner.domain().class_name(c) == class_name)
        found = c;
    if (found < 0) return "crowd: class_fallback: no NPC class '" + class_name + "'";
    for (const std::string& name : chain)
      if (name.empty()) return "crowd: class_fallback: an empty planner name";
    chains[static_cast<size_t>(found)] = &chain;
  }
  chain_begin_.push_back(0);
  for (const auto* chain : chains)
    chain_begin_.push_back(chain_begin_.back() + static_cast<int32_t>(chain->size()));
  HotPlannerDef quick_def;
  quick_def.limits = def.fallback_limits;
  quick_def.limits.max_expansions =
      std::min(def.fallback_budget, def.fallback_limits.max_expansions);
  // Retry levels: fallback_budget·4, ·16, ... up to fallback_limits.max_expansions (the last).
  const int64_t max_expansions = def.fallback_limits.max_expansions;
  for (int64_t x = quick_def.limits.max_expansions; retry_budget_.empty() || x < max_expansions;) {
    x = x > max_expansions / 4 ? max_expansions : 4 * x;
    retry_budget_.push_back(x);
  }
  for (size_t c = 0; c < planner.classes_.size(); ++c) {
    const auto& cp = planner.classes_[c];
    for (const std::string& name : *chains[c]) {
      Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(name, cp->set, quick_def);
      if (!p.ok()) return "crowd: fallback: " + p.error().message;
      fallback_.push_back(std::move(p).value());
    }
  }
  resume_scratch_.resize(fallback_.size());
  const size_t fallback_plan = fallback_plan_size(planner.max_plan_length_);
  resume_plan_.assign(fallback_plan, 0);
  resume_s0_.assign(static_cast<size_t>(planner.max_class_vars_), 0);
  resume_goal_.assign(static_cast<size_t>(planner.max_class_vars_), 0);
  return {};
}

// One worker's buffers (create; planner_ and def_ set, the fallback chain made).
void Crowd::make_worker(Worker& w) const {
  const auto words = static_cast<size_t>(planner_->layout().words());
  // Every worker writes its scratch on every NPC it plans. Allocated one worker after the other
  // (no reallocation holes: reserve first), with a 4 KB block after each worker, the small
  // heap blocks of two workers do not share cache lines (measured: with 2 threads the cold
  // CPU time per NPC rose by ~40 % without the guard; two 1-thread processes do not).
  w.scratch.reserve(planner_->classes_.size());
  for (const auto& cp : planner_->classes_) w.scratch.push_back(cp->planner.make_scratch());
  // Whole groups of 8: the AVX2 cold loop writes 8 values a group.
  const size_t vals = (static_cast<size_t>(planner_->max_class_vars_) + 7) / 8 * 8;
  w.s0.assign(vals, 0);
  w.goal.assign(vals, 0);
  w.key.assign(2 * words, 0);
  w.plan.assign(static_cast<size_t>(planner_->max_plan_length_) + 1, 0);
  if (def_.cache != nullptr && words == 1 && def_.worker_memo_entries > 0) {
    // At least 2 sets of 2: the set is hash >> memo_shift, a shift by 64 is undefined.
    const auto entries =
        std::max(4u, std::bit_ceil(static_cast<uint32_t>(def_.worker_memo_entries)));
    w.memo.resize(entries);
    w.handle_memo.resize(entries);
    w.memo_shift = 64 - (std::countr_zero(entries) - 1);
  }
  w.fallback_scratch.resize(fallback_.size());
  if (!fallback_.empty()) w.fallback_plan.assign(fallback_plan_size(planner_->max_plan_length_), 0);
  if (words == 1 && def_.cache == nullptr) {
    // The cold loop's groups (cold.cpp, serve_block_cold): per group NPC its input in bucket
    // order and its answer, every plan of the group, and the classes' key masks.
    const auto group = static_cast<size_t>(crowd_detail::kColdGroupNpcs);
    w.cold_sorted.resize(group);
    w.cold_staged.resize(group);
    w.cold_stage.assign(crowd_detail::kColdStageActions +
                            static_cast<size_t>(planner_->max_plan_length_) +
                            static_cast<size_t>(crowd_detail::kColdStageSlack),
                        0);
    for (const auto& cp : planner_->classes_) w.cold_key_mask.push_back(cp->key_mask[0]);
    w.cold_key_mask.push_back(0);
  }
  w.guard = std::make_unique<std::byte[]>(4096);
}

// The cold loop's class records (create; one-word layouts; cold.cpp, serve_block_cold).
void Crowd::make_cold_classes() {
  bool avx2 = crowd_detail::cold_avx2_allowed();
  for (const auto& cp : planner_->classes_)
    for (const CrowdLayout::Field& f : cp->fields) avx2 = avx2 && std::bit_width(f.mask) <= 16;
  for (Worker& w : workers_) {
    std::vector<size_t> first_group;
    for (const auto& cp : planner_->classes_) {
      first_group.push_back(w.cold_groups.size());
      if (!avx2) continue;
      const std::vector<crowd_detail::ColdGroup> groups = crowd_detail::cold_groups(cp->fields);
      w.cold_groups.insert(w.cold_groups.end(), groups.begin(), groups.end());
    }
    for (size_t c = 0; c < planner_->classes_.size(); ++c) {
      const CrowdPlanner::ClassPlan& cp = *planner_->classes_[c];
      crowd_detail::ColdClass cold;
      cold.planner = &cp.planner;
      cold.scratch = &w.scratch[c];
      cold.fields = cp.fields.data();
      cold.groups = avx2 ? w.cold_groups.data() + first_group[c] : nullptr;
      cold.other = ~cp.key_mask[0];
      cold.other_high = cp.other_high[0];
      if (cp.topo_part) {
        // ℙ's proofs on part of the class are none: pass 1 leaves every NPC whose goal asks for
        // a change to serve_npc (which goes on to the chain), as if every variable were another
        // class's; an NPC already at its goal gets ℙ's empty plan there.
        cold.other = ~uint64_t{0};
        cold.other_high = planner_->field_high_[0];
      }
      cold.num_vars = static_cast<int32_t>(cp.vars.size());
      cold.max_len = cp.planner.max_plan_length();
      w.cold.push_back(cold);
    }
    w.cold_avx2 = avx2;
  }
}

std::optional<std::span<const ActionId>> Crowd::resolve(PlanHandle handle) const {
  if (def_.cache == nullptr) return std::nullopt;
  return def_.cache->resolve(handle);
}

namespace {
// An output without action room may come with a null `actions` (an empty span, a C caller's
// NULL): the serving loops copy zero-length plans into it, which memcpy may not be given.
CrowdOutput with_room_pointer(const CrowdOutput& given) {
  static ActionId no_room[1];
  CrowdOutput out = given;
  if (out.actions.data() == nullptr) out.actions = std::span<ActionId>(no_room).first(0);
  return out;
}
}  // namespace

CrowdStats Crowd::plan(const CrowdBatch& batch, const CrowdOutput& given) {
  const CrowdOutput out = with_room_pointer(given);
  pending_.clear();
  CrowdStats stats = run(batch, out, 0, 0);
  if (!pending_.empty()) resume_pending(batch, out, 0, stats);
  stats.pending = 0;
  stats.complete = true;
  return stats;
}

CrowdStats Crowd::plan_frame(const CrowdBatch& batch, const CrowdOutput& given, CrowdCursor* cursor,
                             double budget_seconds) {
  const CrowdOutput out = with_room_pointer(given);
  // NaN or negative: no time (one block); at most a day (the cast stays defined).
  const double budget = budget_seconds > 0 ? std::min(budget_seconds, 86400.0) : 0.0;
  const int64_t deadline = std::max<int64_t>(now_ns() + static_cast<int64_t>(budget * 1e9), 1);
  const int64_t block = def_.npcs_per_block;
  const auto n = static_cast<int64_t>(batch.npc_class.size());
  assert(cursor->next % block == 0 || cursor->next == n);
  // Pending NPCs are indices into their pass's batch: another batch size cannot be theirs.
  if (!pending_.empty() && n != pending_batch_size_) pending_.clear();
  CrowdStats resumed;
  const bool retried = !pending_.empty();  // a retry slice ran: the call made progress
  if (retried) resume_pending(batch, out, deadline, resumed);
  // A cursor at 0 while NPCs of the previous pass are still pending: the new pass waits for
  // them (serving block 0 again now would mix two passes' pending NPCs).
  const bool wait = cursor->next == 0 && !pending_.empty();
  CrowdStats stats;
  if (!wait && cursor->next < n && (!retried || now_ns() < deadline)) {
    stats = run(batch, out, cursor->next / block, deadline);
    cursor->next = std::min<int64_t>(cursor->next + stats.served, n);
  }
  stats.resumed += resumed.resumed;
  stats.retry_slices += resumed.retry_slices;
  stats.solved += resumed.solved;
  stats.solved_fallback += resumed.solved_fallback;
  stats.buffer_too_small += resumed.buffer_too_small;
  stats.no_plan += resumed.no_plan;
  stats.unsolvable += resumed.unsolvable;
  stats.pending = static_cast<int64_t>(pending_.size());
  stats.complete = cursor->next >= n && pending_.empty();
  return stats;
}

CrowdStats Crowd::run(const CrowdBatch& batch, const CrowdOutput& out, int64_t first_block,
                      int64_t deadline) {
  const auto n = static_cast<int64_t>(batch.npc_class.size());
  const auto words = static_cast<size_t>(planner_->layout().words());
  assert(batch.init.size() == static_cast<size_t>(n) * words);
  assert(batch.goal.size() == static_cast<size_t>(n) * words);
  assert(out.offset.size() == static_cast<size_t>(n) && out.length.size() == out.offset.size() &&
         out.status.size() == out.offset.size());
  assert(out.actions.size() <= 0xFFFFFFFFull);
  assert(out.handles.empty() || (out.handles.size() == out.offset.size() && def_.cache != nullptr));
  (void)words;
  PlanCache* cache = def_.cache;
  if (cache != nullptr) cache->bind(*planner_);
  const bool memo = cache != nullptr && cache->enabled_ && cache->max_len_ > 0 &&
                    !workers_.empty() && !workers_[0].memo.empty() && hot_.size() < kEmptyTag &&
                    !memo_mask_.empty();
  for (Worker& w : workers_) {
    w.stats = CrowdStats{};
    w.misses = w.inserts = w.evictions = 0;
  }
  Job job;
  if (memo) {  // each worker drops a stale memo itself, in its task (task_entry)
    job.memo_stamp = cache->stamp_;
    job.memo_epoch = cache->epoch_;
  }
  job.crowd = this;
  job.batch = &batch;
  job.out = &out;
  job.npcs = n;
  job.blocks = (n + def_.npcs_per_block - 1) / def_.npcs_per_block;
  job.deadline_ns = deadline;
  // Without a deadline, claim several blocks at once: fewer contended atomic adds and fewer
  // output cache lines shared by two workers, still >= 64 claims per worker for balance.
  job.chunk = deadline != 0 ? 1 : std::clamp<int64_t>(job.blocks / (64 * def_.worker_count), 1, 64);
  job.one_word = planner_->layout().words() == 1;
  job.memo = memo;
  // Without a deadline, one range per worker (up to Job::kMaxRanges; range k is the home of
  // workers k, k + kMaxRanges, ..., sized by their number); with one, a single range (a prefix).
  const int64_t workers = def_.enqueue_task == nullptr ? 1 : def_.worker_count;
  job.ranges =
      deadline != 0 ? 1 : static_cast<int32_t>(std::min<int64_t>(workers, Job::kMaxRanges));
  int64_t homes_before = 0;  // workers whose home is a range before k
  const int64_t left = std::max<int64_t>(job.blocks - first_block, 0);
  for (int32_t k = 0; k < job.ranges; ++k) {
    const int64_t homes = (workers - k + job.ranges - 1) / job.ranges;
    job.range[k].next.store(first_block + left * homes_before / workers, std::memory_order_relaxed);
    homes_before += homes;
    job.range[k].end = first_block + left * homes_before / workers;
  }
  if (first_block < job.blocks) {
    if (def_.enqueue_task == nullptr) {
      task_entry(0, 1, 0, &job);
    } else {
      void* handle =
          def_.enqueue_task(&task_entry, def_.worker_count, 1, &job, def_.user_task_context);
      if (handle != nullptr) def_.finish_task(handle, def_.user_task_context);
    }
  }
  CrowdStats total;
  int64_t misses = 0;
  int64_t inserts = 0;
  int64_t evictions = 0;
  for (const Worker& w : workers_) {
    total.served += w.stats.served;
    total.planned += w.stats.planned;
    total.cache_hits += w.stats.cache_hits;
    total.solved += w.stats.solved;
    total.buffer_too_small += w.stats.buffer_too_small;
    total.solved_fallback += w.stats.solved_fallback;
    total.no_plan += w.stats.no_plan;
    misses += w.misses;
    inserts += w.inserts;
    evictions += w.evictions;
  }
  if (def_.cache != nullptr) def_.cache->add_stats(total.cache_hits, misses, inserts, evictions);
  // Unsolvable answers, read off the status words of the NPCs served (contiguous from the first
  // block; a pending NPC is not unsolvable yet): one pass over 2 bytes per NPC instead of a
  // counter in every serving path.
  const int64_t first = first_block * def_.npcs_per_block;
  const int64_t last = std::min(n, first + total.served);
  for (int64_t i = first; i < last; ++i)
    if ((out.status[static_cast<size_t>(i)] & kCrowdUnsolvable) != 0) ++total.unsolvable;
  for (Worker& w : workers_) {
    pending_.insert(pending_.end(), w.pending.begin(), w.pending.end());
    w.pending.clear();
  }
  std::sort(pending_.begin(), pending_.end(),
            [](const Pending& a, const Pending& b) { return a.npc < b.npc; });
  if (!pending_.empty()) pending_batch_size_ = n;
  total.pending = static_cast<int64_t>(pending_.size());
  total.complete = first_block * def_.npcs_per_block + total.served >= n && pending_.empty();
  return total;
}

}  // namespace topoplan
