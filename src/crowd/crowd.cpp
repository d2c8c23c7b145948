// Crowd: the batch loop. Blocks of NPCs are claimed from an atomic counter by whichever worker
// is free; each block writes only its own slice of the output, so the result does not depend on
// who ran it. The frame budget is checked after each block (every npcs_per_block NPCs).
#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>

#include "topoplan/crowd.h"
#include "topoplan/planner.h"

namespace topoplan {

// One entry of a worker's memo: a copy of a PlanCache answer for a one-word layout, one line.
inline constexpr int32_t kMemoPlan = 10;
struct alignas(64) MemoEntry {
  uint64_t s0 = 0;                         // projected initial state
  uint64_t goal = 0;                       // projected goal
  uint32_t handle = PlanCache::kNoHandle;  // the plan's id in the cache's plan table
  uint16_t tag = 0;                        // class + 1 (classes < 65535); 0 = empty
  uint8_t length = 0;                      // <= kMemoPlan
  uint8_t status = 0;                      // CrowdStatus bits 0-7
  ActionId plan[kMemoPlan] = {};
};
static_assert(sizeof(MemoEntry) == 64);

struct alignas(64) Crowd::Worker {
  std::vector<TopoScratch> scratch;       // per class
  std::vector<ValueId> s0;                // projected initial state
  std::vector<ValueId> goal;              // projected goal
  std::vector<uint64_t> key;              // projected s0 and goal words
  std::vector<ActionId> plan;             // a plan that may not fit the output slice
  std::vector<MemoEntry> memo;            // empty: no memo
  const PlanCache* memo_cache = nullptr;  // the memo copies this cache's entries of
  uint64_t memo_stamp = 0;                // ... this stamp
  uint32_t memo_epoch = 0;                // ... and this epoch
  // Keeps the next worker's heap blocks off this worker's cache lines (see create()).
  std::unique_ptr<std::byte[]> guard;
  // Fallback chain (cold path, grows on first use): per class and stage the budgeted planners'
  // scratch, the plan buffer, and the NPCs this worker left pending in the current run.
  std::vector<std::unique_ptr<PlanScratch>> fallback_scratch;
  std::vector<ActionId> fallback_plan;
  std::vector<Pending> pending;
  CrowdStats stats;
  int64_t misses = 0;
  int64_t inserts = 0;
  int64_t evictions = 0;
};

// Per class, the pointers and sizes an NPC that goes through ℙ needs, in one record (no
// unique_ptr and vector headers to chase per NPC).
struct Crowd::ClassHot {
  const TopoPlanner* planner = nullptr;
  const CrowdLayout::Field* fields = nullptr;  // per projected variable
  const ActionId* to_global = nullptr;         // projected action → domain action
  int32_t num_vars = 0;
  int32_t max_len = 0;  // ℙ's max_plan_length()
};

struct Crowd::Job {
  Crowd* crowd = nullptr;
  const CrowdBatch* batch = nullptr;
  const CrowdOutput* out = nullptr;
  int64_t npcs = 0;
  int64_t blocks = 0;
  int64_t chunk = 1;        // blocks claimed at once (1 with a deadline)
  int64_t deadline_ns = 0;  // 0: none
  bool one_word = false;
  bool memo = false;                               // the workers' memos are in use
  alignas(64) std::atomic<int64_t> next_block{0};  // own line: claims do not evict the rest
};

namespace {
int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Top bit of every field of x that is not zero (fields given by their low bits and top bits).
inline uint64_t nonzero_fields(uint64_t x, uint64_t low, uint64_t high) {
  return (((x & low) + low) | x) & high;
}

inline uint64_t hash_key(int32_t npc_class, const uint64_t* key, int32_t n) {
  uint64_t h = 0x9E3779B97F4A7C15ull * (static_cast<uint64_t>(npc_class) + 1);
  for (int32_t k = 0; k < n; ++k) {
    h ^= key[k];
    h *= 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  return h;
}

// The key of a one-word layout (projected s0, projected goal): two independent multiplies. The
// cache and the memo index with the top bits, which depend on every bit of both words. (One
// multiply of s0 ^ rotl(goal, r), indexed by low bits, missed 13 % of lookups on the town.)
inline uint64_t hash_one_word(uint32_t npc_class, uint64_t s0, uint64_t goal) {
  return ((s0 + npc_class) * 0x9E3779B97F4A7C15ull) ^ (goal * 0xC2B2AE3D27D4EB4Full);
}

// The memo slot of a hash (the top bits, as PlanCache::set_of).
inline uint64_t memo_slot(uint64_t hash, uint64_t entries) {
  return ((hash >> 32) * entries) >> 32;
}

Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}

constexpr int64_t kMaxWorkers = 4096;
}  // namespace

Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;
Crowd::~Crowd() = default;

Result<Crowd> Crowd::create(const CrowdPlanner& planner, const CrowdDef& def) {
  // Every numeric field: its range, in one line naming the field (issue 14).
  auto range = [](const char* field, int64_t value, int64_t lo, int64_t hi) -> std::string {
    if (value >= lo && value <= hi) return {};
    return std::string("crowd: ") + field + " must be in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "], got " + std::to_string(value);
  };
  for (const std::string& bad :
       {range("worker_count", def.worker_count, 1, kMaxWorkers),
        range("npcs_per_block", def.npcs_per_block, 1, 1 << 20),
        // Negative used to become a 2^32-entry memo through the unsigned cast below.
        range("worker_memo_entries", def.worker_memo_entries, 0, 1 << 24),
        range("fallback_budget", def.fallback_budget, 1, int64_t{1} << 40),
        range("fallback_limits.max_expansions", def.fallback_limits.max_expansions, 1,
              int64_t{1} << 40),
        range("fallback_limits.max_memory_bytes", def.fallback_limits.max_memory_bytes, 1,
              int64_t{1} << 50)})
    if (!bad.empty()) return error_of(bad);
  // NaN passed the old `max_seconds < 0` test; an infinite limit is no limit: say 0.
  if (!std::isfinite(def.fallback_limits.max_seconds) || def.fallback_limits.max_seconds < 0)
    return error_of(
        "crowd: fallback_limits.max_seconds must be finite and >= 0 (0: no limit), got " +
        std::to_string(def.fallback_limits.max_seconds));
  if ((def.enqueue_task == nullptr) != (def.finish_task == nullptr))
    return error_of("crowd: set both enqueue_task and finish_task, or neither");
  for (const std::string& name : def.fallback)
    if (name.empty()) return error_of("crowd: fallback: an empty planner name");
  Crowd crowd;
  // The fallback chain: per class and stage, a budgeted planner (first attempt, inside
  // serve_block) and a full one (the retry of a pending NPC), on the class's projection.
  // Per class its chain: CrowdDef::class_fallback by class name, else `fallback`.
  const int32_t num_classes = planner.num_classes();
  std::vector<const std::vector<std::string>*> chains(static_cast<size_t>(num_classes),
                                                      &def.fallback);
  for (const auto& [class_name, chain] : def.class_fallback) {
    int32_t found = -1;
    for (int32_t c = 0; c < num_classes; ++c)
      if (planner.domain().num_classes() > 0 && planner.domain().class_name(c) == class_name)
        found = c;
    if (found < 0) return error_of("crowd: class_fallback: no NPC class '" + class_name + "'");
    for (const std::string& name : chain)
      if (name.empty()) return error_of("crowd: class_fallback: an empty planner name");
    chains[static_cast<size_t>(found)] = &chain;
  }
  crowd.chain_begin_.push_back(0);
  for (const auto* chain : chains)
    crowd.chain_begin_.push_back(crowd.chain_begin_.back() + static_cast<int32_t>(chain->size()));
  HotPlannerDef quick_def;
  quick_def.limits = def.fallback_limits;
  quick_def.limits.max_expansions =
      std::min(def.fallback_budget, def.fallback_limits.max_expansions);
  // Retry levels: fallback_budget·4, ·16, ... up to fallback_limits.max_expansions (the last).
  const int64_t max_expansions = def.fallback_limits.max_expansions;
  for (int64_t x = quick_def.limits.max_expansions;
       crowd.retry_budget_.empty() || x < max_expansions;) {
    x = x > max_expansions / 4 ? max_expansions : 4 * x;
    crowd.retry_budget_.push_back(x);
  }
  for (size_t c = 0; c < planner.classes_.size(); ++c) {
    const auto& cp = planner.classes_[c];
    for (const std::string& name : *chains[c]) {
      Result<std::unique_ptr<HotPlanner>> quick = create_hot_planner(name, cp->set, quick_def);
      if (!quick.ok()) return error_of("crowd: fallback: " + quick.error().message);
      crowd.quick_.push_back(std::move(quick).value());
      for (const int64_t budget : crowd.retry_budget_) {
        HotPlannerDef retry_def;
        retry_def.limits = def.fallback_limits;
        retry_def.limits.max_expansions = budget;
        Result<std::unique_ptr<HotPlanner>> retry = create_hot_planner(name, cp->set, retry_def);
        if (!retry.ok()) return error_of("crowd: fallback: " + retry.error().message);
        crowd.retry_.push_back(std::move(retry).value());
      }
    }
  }
  const size_t fallback_slots = crowd.quick_.size();
  const auto fallback_plan = static_cast<size_t>(std::max(planner.max_plan_length_, 64)) + 1;
  crowd.resume_scratch_.resize(crowd.retry_.size());
  crowd.resume_plan_.assign(fallback_plan, 0);
  crowd.resume_s0_.assign(static_cast<size_t>(planner.max_class_vars_), 0);
  crowd.resume_goal_.assign(static_cast<size_t>(planner.max_class_vars_), 0);
  crowd.planner_ = &planner;
  crowd.def_ = def;
  crowd.workers_.resize(static_cast<size_t>(def.worker_count));
  const auto words = static_cast<size_t>(planner.layout().words());
  for (Worker& w : crowd.workers_) {
    // Every worker writes its scratch on every NPC it plans. Allocated one worker after the other
    // (no reallocation holes: reserve first), with a 4 KB block after each worker, the small
    // heap blocks of two workers do not share cache lines (measured: with 2 threads the cold
    // CPU time per NPC rose by ~40 % without the guard; two 1-thread processes do not).
    w.scratch.reserve(planner.classes_.size());
    for (const auto& cp : planner.classes_) w.scratch.push_back(cp->planner.make_scratch());
    w.s0.assign(static_cast<size_t>(planner.max_class_vars_), 0);
    w.goal.assign(static_cast<size_t>(planner.max_class_vars_), 0);
    w.key.assign(2 * words, 0);
    w.plan.assign(static_cast<size_t>(planner.max_plan_length_) + 1, 0);
    if (def.cache != nullptr && words == 1 && def.worker_memo_entries > 0) {
      const auto entries = std::bit_ceil(static_cast<uint32_t>(def.worker_memo_entries));
      w.memo.resize(entries);
    }
    w.fallback_scratch.resize(fallback_slots);
    if (fallback_slots > 0) w.fallback_plan.assign(fallback_plan, 0);
    w.guard = std::make_unique<std::byte[]>(4096);
  }
  for (const auto& cp : planner.classes_) {
    crowd.hot_.push_back(ClassHot{&cp->planner, cp->fields.data(), cp->to_global.data(),
                                  static_cast<int32_t>(cp->vars.size()),
                                  cp->planner.max_plan_length()});
    crowd.key_mask_.insert(crowd.key_mask_.end(), cp->key_mask.begin(), cp->key_mask.end());
    crowd.other_high_.insert(crowd.other_high_.end(), cp->other_high.begin(), cp->other_high.end());
  }
  return crowd;
}

std::optional<std::span<const ActionId>> Crowd::resolve(PlanHandle handle) const {
  if (def_.cache == nullptr) return std::nullopt;
  return def_.cache->resolve(handle);
}

CrowdStats Crowd::plan(const CrowdBatch& batch, const CrowdOutput& out) {
  pending_.clear();
  CrowdStats stats = run(batch, out, 0, 0);
  if (!pending_.empty()) resume_pending(batch, out, 0, stats);
  stats.pending = 0;
  stats.complete = true;
  return stats;
}

CrowdStats Crowd::plan_frame(const CrowdBatch& batch, const CrowdOutput& out, CrowdCursor* cursor,
                             double budget_seconds) {
  // NaN or negative: no time (one block); at most a day (the cast stays defined).
  const double budget = budget_seconds > 0 ? std::min(budget_seconds, 86400.0) : 0.0;
  const int64_t deadline = std::max<int64_t>(now_ns() + static_cast<int64_t>(budget * 1e9), 1);
  const int64_t block = def_.npcs_per_block;
  const auto n = static_cast<int64_t>(batch.npc_class.size());
  assert(cursor->next % block == 0 || cursor->next == n);
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
                    !workers_.empty() && !workers_[0].memo.empty();
  for (Worker& w : workers_) {
    w.stats = CrowdStats{};
    w.misses = w.inserts = w.evictions = 0;
    if (memo &&
        (w.memo_cache != cache || w.memo_stamp != cache->stamp_ || w.memo_epoch != cache->epoch_)) {
      std::fill(w.memo.begin(), w.memo.end(), MemoEntry{});
      w.memo_cache = cache;
      w.memo_stamp = cache->stamp_;
      w.memo_epoch = cache->epoch_;
    }
  }
  Job job;
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
  job.next_block.store(first_block, std::memory_order_relaxed);
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
  for (Worker& w : workers_) {
    pending_.insert(pending_.end(), w.pending.begin(), w.pending.end());
    w.pending.clear();
  }
  std::sort(pending_.begin(), pending_.end(),
            [](const Pending& a, const Pending& b) { return a.npc < b.npc; });
  total.pending = static_cast<int64_t>(pending_.size());
  total.complete = first_block * def_.npcs_per_block + total.served >= n && pending_.empty();
  return total;
}

PlanStatus Crowd::run_fallback(std::vector<std::unique_ptr<PlanScratch>>& scratch, uint32_t c,
                               int32_t level, std::span<const ValueId> s0,
                               std::span<const ValueId> goal, std::vector<ActionId>& plan,
                               int32_t* len) const {
  const size_t levels = retry_budget_.size();
  bool limited = false;
  for (int32_t k = chain_begin_[c]; k < chain_begin_[c + 1]; ++k) {
    auto slot = static_cast<size_t>(k);
    if (level >= 0) slot = slot * levels + static_cast<size_t>(level);
    const HotPlanner& p = level < 0 ? *quick_[slot] : *retry_[slot];
    if (scratch[slot] == nullptr) scratch[slot] = p.make_scratch();
    PlanOutcome o = p.plan(*scratch[slot], s0, goal, plan, len);
    if (o.status == PlanStatus::kBufferTooSmall && *len > static_cast<int32_t>(plan.size())) {
      plan.resize(static_cast<size_t>(*len));
      o = p.plan(*scratch[slot], s0, goal, plan, len);
    }
    switch (o.status) {
      case PlanStatus::kSolved: {
        const ActionId* to_global = hot_[c].to_global;
        for (int32_t j = 0; j < *len; ++j)
          plan[static_cast<size_t>(j)] = to_global[plan[static_cast<size_t>(j)]];
        return PlanStatus::kSolved;
      }
      case PlanStatus::kUnsolvable:
        return PlanStatus::kUnsolvable;
      case PlanStatus::kLimitReached:
        limited = true;
        break;
      default:
        break;
    }
  }
  *len = 0;
  return limited ? PlanStatus::kLimitReached : PlanStatus::kGaveUp;
}

void Crowd::resume_pending(const CrowdBatch& batch, const CrowdOutput& out, int64_t deadline_ns,
                           CrowdStats& stats) {
  const int32_t words = planner_->layout().words();
  PlanCache* cache = def_.cache;
  std::vector<uint64_t>& key = workers_[0].key;  // no task runs now: worker 0's is free
  const auto n = static_cast<int64_t>(batch.npc_class.size());
  const auto capacity = static_cast<int64_t>(out.actions.size());
  const int64_t block = def_.npcs_per_block;
  const bool handles = !out.handles.empty() && cache != nullptr;
  const auto levels = static_cast<int32_t>(retry_budget_.size());
  int64_t cur_block = -1, tail = 0;  // the free part of the current block's slice
  bool worked = false;               // a slice ran in this call
  size_t done = 0;
  while (done < pending_.size()) {
    Pending& p = pending_[done];
    // The first slice of a call always runs (a pass always ends); a later one only if its
    // expansions, at the measured rate, fit in what is left of the frame.
    if (worked && deadline_ns != 0) {
      const int64_t now = now_ns();
      const uint32_t pc = batch.npc_class[static_cast<size_t>(p.npc)];
      const double need = ns_per_expansion_ * static_cast<double>(stages(pc)) *
                          static_cast<double>(retry_budget_[static_cast<size_t>(p.level)]);
      if (now >= deadline_ns || static_cast<double>(now) + need > static_cast<double>(deadline_ns))
        break;
    }
    const int64_t i = p.npc;
    if (i / block != cur_block) {
      cur_block = i / block;
      tail = p.tail;
    }
    const int64_t slice_end = capacity * std::min(n, (cur_block + 1) * block) / n;
    const uint32_t c = batch.npc_class[static_cast<size_t>(i)];
    const ClassHot& h = hot_[c];
    const uint64_t* s = batch.init.data() + i * words;
    const uint64_t* g = batch.goal.data() + i * words;
    for (int32_t k = 0; k < h.num_vars; ++k) {
      const CrowdLayout::Field f = h.fields[k];
      resume_s0_[static_cast<size_t>(k)] = static_cast<ValueId>((s[f.word] >> f.shift) & f.mask);
      const uint64_t x = (g[f.word] >> f.shift) & f.mask;
      resume_goal_[static_cast<size_t>(k)] = x == f.mask ? kUndefined : static_cast<ValueId>(x);
    }
    const auto nv = static_cast<size_t>(h.num_vars);
    int32_t len = 0;
    const int64_t t0 = deadline_ns != 0 ? now_ns() : 0;
    const PlanStatus ps =
        run_fallback(resume_scratch_, c, p.level, std::span<const ValueId>(resume_s0_.data(), nv),
                     std::span<const ValueId>(resume_goal_.data(), nv), resume_plan_, &len);
    worked = true;
    ++stats.retry_slices;
    if (ps == PlanStatus::kLimitReached && p.level + 1 < levels) {
      if (deadline_ns != 0) {  // every stage spent its budget: a rate per expansion
        const double spent = static_cast<double>(now_ns() - t0) /
                             (static_cast<double>(stages(c)) *
                              static_cast<double>(retry_budget_[static_cast<size_t>(p.level)]));
        ns_per_expansion_ = std::max(spent, 0.5 * ns_per_expansion_);
      }
      ++p.level;  // the same NPC, a larger slice (now, if it fits, else next frame)
      continue;
    }
    const auto idx = static_cast<size_t>(i);
    const int64_t room = slice_end - tail;
    out.offset[idx] = static_cast<uint32_t>(tail);
    CrowdStatus st = kCrowdNoPlan;
    uint32_t id = PlanCache::kNoHandle;
    if (ps == PlanStatus::kSolved && cache != nullptr && len <= 65535 &&
        (handles || len <= cache->max_len_))
      id = cache->store(resume_plan_.data(), len);
    if (handles)
      out.handles[idx] = id != PlanCache::kNoHandle ? PlanHandle{id, cache->epoch_} : PlanHandle{};
    if (ps == PlanStatus::kSolved) {
      st = kCrowdSolved | kCrowdFallback;
      if (handles && id != PlanCache::kNoHandle) {
        ++stats.solved;
        ++stats.solved_fallback;
      } else if (len <= room && len <= 65535) {
        std::copy(resume_plan_.begin(), resume_plan_.begin() + len, out.actions.begin() + tail);
        tail += len;
        ++stats.solved;
        ++stats.solved_fallback;
      } else {
        st = kCrowdBufferTooSmall | kCrowdFallback;
        ++stats.buffer_too_small;
      }
    } else if (ps == PlanStatus::kUnsolvable) {
      st = kCrowdUnsolvable | kCrowdFallback;
    } else {
      ++stats.no_plan;
    }
    out.status[idx] = st;
    out.length[idx] = static_cast<uint16_t>(std::min<int32_t>(len, 65535));
    ++stats.resumed;
    ++done;
    if (cache != nullptr && ps != PlanStatus::kLimitReached) {
      const uint64_t* key_mask =
          key_mask_.data() + static_cast<size_t>(c) * static_cast<size_t>(words);
      for (int32_t k = 0; k < words; ++k) {
        key[static_cast<size_t>(k)] = s[k] & key_mask[k];
        key[static_cast<size_t>(words + k)] = g[k] & key_mask[k];
      }
      const uint64_t hash = words == 1 ? hash_one_word(c, key[0], key[1])
                                       : hash_key(static_cast<int32_t>(c), key.data(), 2 * words);
      const CrowdStatus cached = (st & kCrowdBufferTooSmall) ? (kCrowdSolved | kCrowdFallback) : st;
      (void)cache->insert(hash, static_cast<int32_t>(c), key.data(), resume_plan_.data(), len,
                          cached, id);
    }
  }
  // The rest of the current block's pending NPCs write after what this call added.
  for (size_t k = done; k < pending_.size() && pending_[k].npc / block == cur_block; ++k)
    pending_[k].tail = tail;
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(done));
}

void Crowd::task_entry(int32_t /*begin*/, int32_t /*end*/, int32_t worker, void* context) {
  Job& job = *static_cast<Job*>(context);
  Crowd& self = *job.crowd;
  assert(worker >= 0 && worker < self.def_.worker_count);
  Worker& w = self.workers_[static_cast<size_t>(worker)];
  while (true) {
    const int64_t b0 = job.next_block.fetch_add(job.chunk, std::memory_order_relaxed);
    if (b0 >= job.blocks) break;
    const int64_t b1 = std::min(b0 + job.chunk, job.blocks);
    for (int64_t b = b0; b < b1; ++b) {
      const bool cache = self.def_.cache != nullptr;
      const bool handles = cache && !job.out->handles.empty();
      if (job.one_word && handles)
        self.serve_block<true, true, true>(w, job, b);
      else if (job.one_word && cache)
        self.serve_block<true, true, false>(w, job, b);
      else if (job.one_word)
        self.serve_block<true, false, false>(w, job, b);
      else if (handles)
        self.serve_block<false, true, true>(w, job, b);
      else if (cache)
        self.serve_block<false, true, false>(w, job, b);
      else
        self.serve_block<false, false, false>(w, job, b);
    }
    if (job.deadline_ns != 0 && now_ns() >= job.deadline_ns) break;
  }
}

template <bool kOneWord, bool kCache, bool kHandles>
void Crowd::serve_block(Worker& w, const Job& job, int64_t block) const {
  static_assert(kCache || !kHandles);
  const CrowdPlanner& planner = *planner_;
  const CrowdBatch& batch = *job.batch;
  const CrowdOutput& out = *job.out;
  PlanCache* cache = kCache ? def_.cache : nullptr;
  const int32_t words = kOneWord ? 1 : planner.layout().words();
  const int64_t n = job.npcs;
  const int64_t first = block * def_.npcs_per_block;
  const int64_t end = std::min<int64_t>(first + def_.npcs_per_block, n);
  const auto capacity = static_cast<int64_t>(out.actions.size());
  // This block's slice of the action buffer: [C·first/N, C·end/N).
  int64_t pos = capacity * first / n;
  const int64_t slice_end = capacity * end / n;
  ActionId* actions = out.actions.data();
  const uint64_t* low = planner.field_low_.data();
  const uint64_t* high = planner.field_high_.data();
  const uint64_t* key_masks = key_mask_.data();
  const uint64_t* other_highs = other_high_.data();
  const ClassHot* hot = hot_.data();
  const auto num_classes = static_cast<uint32_t>(hot_.size());
  const uint16_t* npc_class = batch.npc_class.data();
  const uint64_t* init = batch.init.data();
  const uint64_t* goal = batch.goal.data();
  uint32_t* offsets = out.offset.data();
  uint16_t* lengths = out.length.data();
  CrowdStatus* statuses = out.status.data();
  PlanHandle* handles = kHandles ? out.handles.data() : nullptr;
  const uint32_t epoch = kHandles ? cache->epoch_ : 0;
  const int32_t table_max = kCache ? (kHandles ? 65535 : cache->max_len_) : 0;
  uint64_t* key = w.key.data();
  ValueId* s0_vals = w.s0.data();
  ValueId* goal_vals = w.goal.data();
  ActionId* spare = w.plan.data();
  TopoScratch* scratches = w.scratch.data();
  MemoEntry* memo = kCache && job.memo ? w.memo.data() : nullptr;
  const uint64_t memo_entries = w.memo.size();
  const int32_t memo_max = kCache ? std::min(kMemoPlan, cache->max_len_) : 0;
  // Counters in registers, added to the worker once per block.
  int64_t hits = 0, misses = 0, planned = 0, solved = 0, too_small = 0, inserts = 0, evictions = 0;
  int64_t fallback_solved = 0, no_plan = 0;
  const size_t pending_before = w.pending.size();

  for (int64_t i = first; i < end; ++i) {
    const uint32_t c = npc_class[i];
    int32_t len = 0;
    CrowdStatus st = 0;
    uint32_t id = PlanCache::kNoHandle;  // the plan's table id (kCache)
    const auto room = static_cast<int32_t>(std::min<int64_t>(slice_end - pos, INT32_MAX));
    if (c >= num_classes) {
      st = kCrowdBadInput;
    } else {
      const uint64_t* s = init + i * words;
      const uint64_t* g = goal + i * words;
      const uint64_t* other_high =
          other_highs + static_cast<size_t>(c) * static_cast<size_t>(words);
      uint64_t other_change = 0;
      for (int32_t k = 0; k < words; ++k) {
        const uint64_t differs = nonzero_fields(s[k] ^ g[k], low[k], high[k]);
        const uint64_t required = nonzero_fields(~g[k], low[k], high[k]);
        other_change |= differs & required & other_high[k];
      }
      uint64_t hash = 0;
      bool hit = false;
      MemoEntry* me = nullptr;
      if (other_change != 0) {
        // The goal changes a variable the class cannot touch: ℙ fails there in phase 1 (proof).
        st = kCrowdUnsolvable;
      } else if constexpr (kCache) {
        const uint64_t* key_mask = key_masks + static_cast<size_t>(c) * static_cast<size_t>(words);
        for (int32_t k = 0; k < words; ++k) {
          key[k] = s[k] & key_mask[k];
          key[words + k] = g[k] & key_mask[k];
        }
        hash = kOneWord ? hash_one_word(c, key[0], key[1])
                        : hash_key(static_cast<int32_t>(c), key, 2 * words);
        if (kOneWord && memo != nullptr) {
          me = &memo[memo_slot(hash, memo_entries)];
          if (me->tag == c + 1 && me->s0 == key[0] && me->goal == key[1]) {
            hit = true;
            len = me->length;
            st = me->status;
            id = me->handle;
            if (st & kCrowdSolved) {
              if (kHandles && id != PlanCache::kNoHandle) {
                // the handle is the answer: nothing to copy
              } else if (len > room)
                st = kCrowdBufferTooSmall | (st & kCrowdFallback);
              else if (room >= kMemoPlan)  // fixed size: one unrolled copy; the rest of the
                std::memcpy(actions + pos, me->plan, sizeof me->plan);  // slice is ours
              else
                std::memcpy(actions + pos, me->plan, sizeof(ActionId) * static_cast<size_t>(len));
            }
          }
        }
        if (!hit) {
          hit = cache->lookup(hash, static_cast<int32_t>(c), key, actions + pos, room, &len, &st,
                              kHandles, &id);
          if (hit) {
            const bool by_handle = kHandles && id != PlanCache::kNoHandle;
            if ((st & kCrowdSolved) && len > room && !by_handle)
              st = kCrowdBufferTooSmall | (st & kCrowdFallback);
            else if (me != nullptr && len <= memo_max) {
              me->s0 = key[0];
              me->goal = key[1];
              me->tag = static_cast<uint16_t>(c + 1);
              me->length = static_cast<uint8_t>(len);
              me->status = static_cast<uint8_t>(st);
              me->handle = id;
              // A plan answered by handle was not copied out: take it from the table (the
              // acquire load of the entry's id made it visible).
              const ActionId* from = by_handle ? cache->table_.get() + id + 1 : actions + pos;
              std::memcpy(me->plan, from, sizeof(ActionId) * static_cast<size_t>(len));
            }
          } else {
            ++misses;
          }
        }
        if (hit) {
          ++hits;
          st |= kCrowdCacheHit;
        }
      }
      if (other_change == 0 && !hit) {
        // Unpack only the class's variables, straight from the packed words (a goal field of all
        // ones = free).
        const ClassHot& h = hot[c];
        const CrowdLayout::Field* fields = h.fields;
        const int32_t nv = h.num_vars;
        const uint64_t s_word = s[0];
        const uint64_t g_word = g[0];
        for (int32_t k = 0; k < nv; ++k) {
          const CrowdLayout::Field f = fields[k];
          const uint64_t sw = kOneWord ? s_word : s[f.word];
          const uint64_t gw = kOneWord ? g_word : g[f.word];
          s0_vals[k] = static_cast<ValueId>((sw >> f.shift) & f.mask);
          const uint64_t x = (gw >> f.shift) & f.mask;
          goal_vals[k] = x == f.mask ? kUndefined : static_cast<ValueId>(x);
        }
        // Plan in place when any plan fits, else into the worker's buffer: "too small" then
        // means exactly "a plan exists and is longer than the room left", with or without cache.
        TopoScratch& scratch = scratches[c];
        const int32_t max_len = h.max_len;
        const bool in_place = room >= max_len;
        const ActionId* dst = in_place ? actions + pos : spare;
        const PlanStatus ps = h.planner->plan(
            scratch, std::span<const ValueId>(s0_vals, static_cast<size_t>(nv)),
            std::span<const ValueId>(goal_vals, static_cast<size_t>(nv)),
            std::span<ActionId>(in_place ? actions + pos : spare, static_cast<size_t>(max_len)),
            &len);
        ++planned;
        if (ps == PlanStatus::kSolved) {
          st = kCrowdSolved;
          const ActionId* to_global = h.to_global;
          ActionId* plan = in_place ? actions + pos : spare;
          for (int32_t j = 0; j < len; ++j) plan[j] = to_global[plan[j]];
          if constexpr (kCache) {
            if (len <= table_max) id = cache->store(plan, len);
          }
          if (kHandles && id != PlanCache::kNoHandle) {
            // in the table: nothing written to the output
          } else if (!in_place) {
            if (len <= room)
              std::copy(dst, dst + len, actions + pos);
            else
              st = kCrowdBufferTooSmall;
          }
        } else if (ps == PlanStatus::kUnsolvable) {
          st = kCrowdUnsolvable;
        } else if (scratch.failure() == TopoFailure::kBadInput) {
          st = kCrowdBadInput;
        } else if (ps != PlanStatus::kGaveUp || chain_begin_[c] == chain_begin_[c + 1]) {
          st = kCrowdNoPlan;
        } else {
          // Outside ℙ's reach: the fallback chain, with the per-NPC budget (cold path).
          const PlanStatus fs = run_fallback(
              w.fallback_scratch, c, -1, std::span<const ValueId>(s0_vals, static_cast<size_t>(nv)),
              std::span<const ValueId>(goal_vals, static_cast<size_t>(nv)), w.fallback_plan, &len);
          dst = w.fallback_plan.data();
          if constexpr (kCache) {
            if (fs == PlanStatus::kSolved && len <= table_max) id = cache->store(dst, len);
          }
          if (fs == PlanStatus::kSolved) {
            st = kCrowdSolved | kCrowdFallback;
            if (kHandles && id != PlanCache::kNoHandle)
              ;  // in the table
            else if (len <= room && len <= 65535)
              std::copy(dst, dst + len, actions + pos);
            else
              st = kCrowdBufferTooSmall | kCrowdFallback;
          } else if (fs == PlanStatus::kUnsolvable) {
            st = kCrowdUnsolvable | kCrowdFallback;
          } else if (fs == PlanStatus::kLimitReached) {
            st = kCrowdPending;  // its block's tail is recorded after the block
            len = 0;
            w.pending.push_back(Pending{i, 0});
          } else {
            st = kCrowdNoPlan;
          }
        }
        if constexpr (kCache) {
          const CrowdStatus cached =
              (st & kCrowdBufferTooSmall) ? (kCrowdSolved | (st & kCrowdFallback)) : st;
          const int32_t r = st == kCrowdPending ? 0
                                                : cache->insert(hash, static_cast<int32_t>(c), key,
                                                                dst, len, cached, id);
          inserts += r > 0;
          evictions += r > 1;
          if (me != nullptr && len <= memo_max && st != kCrowdPending) {
            me->s0 = key[0];
            me->goal = key[1];
            me->tag = static_cast<uint16_t>(c + 1);
            me->length = static_cast<uint8_t>(len);
            me->status = static_cast<uint8_t>(cached);
            me->handle = id;
            std::memcpy(me->plan, dst, sizeof(ActionId) * static_cast<size_t>(len));
          }
        }
      }
    }
    offsets[i] = static_cast<uint32_t>(pos);
    lengths[i] = static_cast<uint16_t>(len);
    statuses[i] = st;
    int32_t used = len;  // actions written to the slice
    if constexpr (kHandles) {
      const bool by_handle = (st & kCrowdSolved) && id != PlanCache::kNoHandle;
      handles[i] = by_handle ? PlanHandle{id, epoch} : PlanHandle{};
      if (by_handle) used = 0;
    }
    if (st & kCrowdSolved) {
      pos += used;
      ++solved;
      fallback_solved += (st & kCrowdFallback) != 0;
    } else if (st & kCrowdBufferTooSmall) {
      ++too_small;
    } else if (st & kCrowdNoPlan) {
      ++no_plan;
    }
  }
  // The retries of this block's pending NPCs write after its last plan.
  for (size_t k = pending_before; k < w.pending.size(); ++k) w.pending[k].tail = pos;
  w.stats.served += end - first;
  w.stats.planned += planned;
  w.stats.cache_hits += hits;
  w.stats.solved += solved;
  w.stats.buffer_too_small += too_small;
  w.stats.solved_fallback += fallback_solved;
  w.stats.no_plan += no_plan;
  w.misses += misses;
  w.inserts += inserts;
  w.evictions += evictions;
}

}  // namespace topoplan
