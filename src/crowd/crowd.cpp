// Crowd: the batch loop. Blocks of NPCs are claimed from an atomic counter by whichever worker
// is free; each block writes only its own slice of the output, so the result does not depend on
// who ran it. The frame budget is checked after each block (every npcs_per_block NPCs).
#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <cstring>
#include <memory>

#include "topoplan/crowd.h"
#include "topoplan/planner.h"

namespace topoplan {

// One entry of a worker's memo: a copy of a PlanCache answer for a one-word layout, one line.
inline constexpr int32_t kMemoPlan = 10;
struct alignas(64) MemoEntry {
  uint64_t s0 = 0;    // projected initial state
  uint64_t goal = 0;  // projected goal
  uint32_t tag = 0;   // class + 1; 0 = empty
  uint16_t length = 0;
  CrowdStatus status = 0;
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
}  // namespace

Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;
Crowd::~Crowd() = default;

Result<Crowd> Crowd::create(const CrowdPlanner& planner, const CrowdDef& def) {
  if (def.worker_count < 1) return error_of("crowd: worker_count must be at least 1");
  if (def.npcs_per_block < 1 || def.npcs_per_block > (1 << 20))
    return error_of("crowd: npcs_per_block must be in [1, 1048576]");
  // Negative used to become a 2^32-entry memo through the unsigned cast below.
  if (def.worker_memo_entries < 0 || def.worker_memo_entries > (1 << 24))
    return error_of("crowd: worker_memo_entries must be in [0, 16777216]");
  if ((def.enqueue_task == nullptr) != (def.finish_task == nullptr))
    return error_of("crowd: set both enqueue_task and finish_task, or neither");
  if (def.fallback_budget < 1) return error_of("crowd: fallback_budget must be at least 1");
  if (def.fallback_limits.max_expansions < 1 || def.fallback_limits.max_memory_bytes < 1 ||
      def.fallback_limits.max_seconds < 0)
    return error_of("crowd: fallback_limits must be positive");
  Crowd crowd;
  // The fallback chain: per class and stage, a budgeted planner (first attempt, inside
  // serve_block) and a full one (the retry of a pending NPC), on the class's projection.
  crowd.stages_ = static_cast<int32_t>(def.fallback.size());
  HotPlannerDef quick_def;
  quick_def.limits = def.fallback_limits;
  quick_def.limits.max_expansions =
      std::min(def.fallback_budget, def.fallback_limits.max_expansions);
  HotPlannerDef full_def;
  full_def.limits = def.fallback_limits;
  for (const auto& cp : planner.classes_) {
    for (const std::string& name : def.fallback) {
      Result<std::unique_ptr<HotPlanner>> quick = create_hot_planner(name, cp->set, quick_def);
      if (!quick.ok()) return error_of("crowd: fallback: " + quick.error().message);
      Result<std::unique_ptr<HotPlanner>> full = create_hot_planner(name, cp->set, full_def);
      if (!full.ok()) return error_of("crowd: fallback: " + full.error().message);
      crowd.quick_.push_back(std::move(quick).value());
      crowd.full_.push_back(std::move(full).value());
    }
  }
  const size_t fallback_slots = crowd.quick_.size();
  const auto fallback_plan = static_cast<size_t>(std::max(planner.max_plan_length_, 64)) + 1;
  crowd.resume_scratch_.resize(fallback_slots);
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
  const int64_t deadline =
      std::max<int64_t>(now_ns() + static_cast<int64_t>(budget_seconds * 1e9), 1);
  const int64_t block = def_.npcs_per_block;
  const auto n = static_cast<int64_t>(batch.npc_class.size());
  assert(cursor->next % block == 0 || cursor->next == n);
  if (cursor->next == 0) pending_.clear();  // a new pass over the batch
  CrowdStats resumed;
  if (!pending_.empty()) resume_pending(batch, out, deadline, resumed);
  CrowdStats stats;
  if (cursor->next < n && (resumed.resumed == 0 || now_ns() < deadline)) {
    stats = run(batch, out, cursor->next / block, deadline);
    cursor->next = std::min<int64_t>(cursor->next + stats.served, n);
  }
  stats.resumed += resumed.resumed;
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
                               bool full, std::span<const ValueId> s0,
                               std::span<const ValueId> goal, std::vector<ActionId>& plan,
                               int32_t* len) const {
  const std::vector<std::unique_ptr<HotPlanner>>& planners = full ? full_ : quick_;
  bool limited = false;
  for (int32_t k = 0; k < stages_; ++k) {
    const size_t slot =
        static_cast<size_t>(c) * static_cast<size_t>(stages_) + static_cast<size_t>(k);
    const HotPlanner& p = *planners[slot];
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
  int64_t cur_block = -1, tail = 0;  // the free part of the current block's slice
  size_t done = 0;
  for (; done < pending_.size(); ++done) {
    // At least one retry per call, so that a pass always ends.
    if (done > 0 && deadline_ns != 0 && now_ns() >= deadline_ns) break;
    const int64_t i = pending_[done].npc;
    if (i / block != cur_block) {
      cur_block = i / block;
      tail = pending_[done].tail;
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
    const PlanStatus ps =
        run_fallback(resume_scratch_, c, true, std::span<const ValueId>(resume_s0_.data(), nv),
                     std::span<const ValueId>(resume_goal_.data(), nv), resume_plan_, &len);
    const auto idx = static_cast<size_t>(i);
    const int64_t room = slice_end - tail;
    out.offset[idx] = static_cast<uint32_t>(tail);
    CrowdStatus st = kCrowdNoPlan;
    if (ps == PlanStatus::kSolved) {
      st = kCrowdSolved | kCrowdFallback;
      if (len <= room && len <= 65535) {
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
                          cached);
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
      if (job.one_word && cache)
        self.serve_block<true, true>(w, job, b);
      else if (job.one_word)
        self.serve_block<true, false>(w, job, b);
      else if (cache)
        self.serve_block<false, true>(w, job, b);
      else
        self.serve_block<false, false>(w, job, b);
    }
    if (job.deadline_ns != 0 && now_ns() >= job.deadline_ns) break;
  }
}

template <bool kOneWord, bool kCache>
void Crowd::serve_block(Worker& w, const Job& job, int64_t block) const {
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
            if (st & kCrowdSolved) {
              if (len > room)
                st = kCrowdBufferTooSmall | (st & kCrowdFallback);
              else if (room >= kMemoPlan)  // fixed size: one unrolled copy; the rest of the
                std::memcpy(actions + pos, me->plan, sizeof me->plan);  // slice is ours
              else
                std::memcpy(actions + pos, me->plan, sizeof(ActionId) * static_cast<size_t>(len));
            }
          }
        }
        if (!hit) {
          hit = cache->lookup(hash, static_cast<int32_t>(c), key, actions + pos, room, &len, &st);
          if (hit) {
            if ((st & kCrowdSolved) && len > room)
              st = kCrowdBufferTooSmall | (st & kCrowdFallback);
            else if (me != nullptr && len <= memo_max) {
              me->s0 = key[0];
              me->goal = key[1];
              me->tag = c + 1;
              me->length = static_cast<uint16_t>(len);
              me->status = st;
              std::memcpy(me->plan, actions + pos, sizeof(ActionId) * static_cast<size_t>(len));
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
          if (!in_place) {
            if (len <= room)
              std::copy(dst, dst + len, actions + pos);
            else
              st = kCrowdBufferTooSmall;
          }
        } else if (ps == PlanStatus::kUnsolvable) {
          st = kCrowdUnsolvable;
        } else if (scratch.failure() == TopoFailure::kBadInput) {
          st = kCrowdBadInput;
        } else if (ps != PlanStatus::kGaveUp || stages_ == 0) {
          st = kCrowdNoPlan;
        } else {
          // Outside ℙ's reach: the fallback chain, with the per-NPC budget (cold path).
          const PlanStatus fs = run_fallback(
              w.fallback_scratch, c, false,
              std::span<const ValueId>(s0_vals, static_cast<size_t>(nv)),
              std::span<const ValueId>(goal_vals, static_cast<size_t>(nv)), w.fallback_plan, &len);
          dst = w.fallback_plan.data();
          if (fs == PlanStatus::kSolved) {
            st = kCrowdSolved | kCrowdFallback;
            if (len <= room && len <= 65535)
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
                                                                dst, len, cached);
          inserts += r > 0;
          evictions += r > 1;
          if (me != nullptr && len <= memo_max && st != kCrowdPending) {
            me->s0 = key[0];
            me->goal = key[1];
            me->tag = c + 1;
            me->length = static_cast<uint16_t>(len);
            me->status = cached;
            std::memcpy(me->plan, dst, sizeof(ActionId) * static_cast<size_t>(len));
          }
        }
      }
    }
    offsets[i] = static_cast<uint32_t>(pos);
    lengths[i] = static_cast<uint16_t>(len);
    statuses[i] = st;
    if (st & kCrowdSolved) {
      pos += len;
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
