// Crowd: the batch loop. Blocks of NPCs are claimed from an atomic counter by whichever worker
// is free; each block writes only its own slice of the output, so the result does not depend on
// who ran it. The frame budget is checked after each block (every npcs_per_block NPCs).
#include <algorithm>
#include <cassert>
#include <chrono>

#include "topoplan/crowd.h"

namespace topoplan {

struct alignas(64) Crowd::Worker {
  std::vector<TopoScratch> scratch;  // per class
  std::vector<ValueId> s0;           // projected initial state
  std::vector<ValueId> goal;         // projected goal
  std::vector<uint64_t> key;         // projected s0 and goal words
  std::vector<ActionId> plan;        // a plan that may not fit the output slice
  CrowdStats stats;
  int64_t misses = 0;
  int64_t inserts = 0;
  int64_t evictions = 0;
};

struct Crowd::Job {
  Crowd* crowd = nullptr;
  const CrowdBatch* batch = nullptr;
  const CrowdOutput* out = nullptr;
  int64_t npcs = 0;
  int64_t blocks = 0;
  int64_t deadline_ns = 0;  // 0: none
  std::atomic<int64_t> next_block{0};
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

Error error_of(std::string message) {
  return Error{std::move(message), {}, 0};
}
}  // namespace

Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;
Crowd::~Crowd() = default;

Result<Crowd> Crowd::create(const CrowdPlanner& planner, const CrowdDef& def) {
  if (def.worker_count < 1) return error_of("crowd: worker_count must be at least 1");
  if (def.npcs_per_block < 1) return error_of("crowd: npcs_per_block must be at least 1");
  if ((def.enqueue_task == nullptr) != (def.finish_task == nullptr))
    return error_of("crowd: set both enqueue_task and finish_task, or neither");
  Crowd crowd;
  crowd.planner_ = &planner;
  crowd.def_ = def;
  crowd.workers_.resize(static_cast<size_t>(def.worker_count));
  const auto words = static_cast<size_t>(planner.layout().words());
  for (Worker& w : crowd.workers_) {
    for (const auto& cp : planner.classes_) w.scratch.push_back(cp->planner.make_scratch());
    w.s0.assign(static_cast<size_t>(planner.max_class_vars_), 0);
    w.goal.assign(static_cast<size_t>(planner.max_class_vars_), 0);
    w.key.assign(2 * words, 0);
    w.plan.assign(static_cast<size_t>(planner.max_plan_length_) + 1, 0);
  }
  return crowd;
}

CrowdStats Crowd::plan(const CrowdBatch& batch, const CrowdOutput& out) {
  return run(batch, out, 0, 0);
}

CrowdStats Crowd::plan_frame(const CrowdBatch& batch, const CrowdOutput& out, CrowdCursor* cursor,
                             double budget_seconds) {
  const int64_t deadline = now_ns() + static_cast<int64_t>(budget_seconds * 1e9);
  const int64_t block = def_.npcs_per_block;
  assert(cursor->next % block == 0 || cursor->next == static_cast<int64_t>(batch.npc_class.size()));
  CrowdStats stats = run(batch, out, cursor->next / block, std::max<int64_t>(deadline, 1));
  cursor->next =
      std::min<int64_t>(cursor->next + stats.served, static_cast<int64_t>(batch.npc_class.size()));
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
  if (def_.cache != nullptr) def_.cache->bind(*planner_);
  for (Worker& w : workers_) {
    w.stats = CrowdStats{};
    w.misses = w.inserts = w.evictions = 0;
  }
  Job job;
  job.crowd = this;
  job.batch = &batch;
  job.out = &out;
  job.npcs = n;
  job.blocks = (n + def_.npcs_per_block - 1) / def_.npcs_per_block;
  job.deadline_ns = deadline;
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
    misses += w.misses;
    inserts += w.inserts;
    evictions += w.evictions;
  }
  if (def_.cache != nullptr) def_.cache->add_stats(total.cache_hits, misses, inserts, evictions);
  total.complete = first_block * def_.npcs_per_block + total.served >= n;
  return total;
}

void Crowd::task_entry(int32_t /*begin*/, int32_t /*end*/, int32_t worker, void* context) {
  Job& job = *static_cast<Job*>(context);
  Crowd& self = *job.crowd;
  assert(worker >= 0 && worker < self.def_.worker_count);
  Worker& w = self.workers_[static_cast<size_t>(worker)];
  while (true) {
    const int64_t b = job.next_block.fetch_add(1, std::memory_order_relaxed);
    if (b >= job.blocks) break;
    self.serve_block(w, job, b);
    if (job.deadline_ns != 0 && now_ns() >= job.deadline_ns) break;
  }
}

void Crowd::serve_block(Worker& w, const Job& job, int64_t block) const {
  const CrowdPlanner& planner = *planner_;
  const CrowdBatch& batch = *job.batch;
  const CrowdOutput& out = *job.out;
  PlanCache* cache = def_.cache;
  const int32_t words = planner.layout().words();
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
  const auto num_classes = static_cast<uint32_t>(planner.classes_.size());
  uint64_t* key = w.key.data();

  for (int64_t i = first; i < end; ++i) {
    const uint32_t c = batch.npc_class[static_cast<size_t>(i)];
    int32_t len = 0;
    CrowdStatus st = 0;
    const auto room = static_cast<int32_t>(std::min<int64_t>(slice_end - pos, INT32_MAX));
    if (c >= num_classes) {
      st = kCrowdBadInput;
    } else {
      const CrowdPlanner::ClassPlan& cp = *planner.classes_[c];
      const uint64_t* s = batch.init.data() + i * words;
      const uint64_t* g = batch.goal.data() + i * words;
      uint64_t other_change = 0;
      for (int32_t k = 0; k < words; ++k) {
        const uint64_t differs = nonzero_fields(s[k] ^ g[k], low[k], high[k]);
        const uint64_t required = nonzero_fields(~g[k], low[k], high[k]);
        other_change |= differs & required & cp.other_high[static_cast<size_t>(k)];
        key[k] = s[k] & cp.key_mask[static_cast<size_t>(k)];
        key[words + k] = g[k] & cp.key_mask[static_cast<size_t>(k)];
      }
      uint64_t hash = 0;
      bool hit = false;
      if (other_change != 0) {
        // The goal changes a variable the class cannot touch: ℙ fails there in phase 1 (proof).
        st = kCrowdUnsolvable;
      } else if (cache != nullptr) {
        hash = hash_key(static_cast<int32_t>(c), key, 2 * words);
        hit = cache->lookup(hash, static_cast<int32_t>(c), key, actions + pos, room, &len, &st);
        if (hit) {
          ++w.stats.cache_hits;
          if ((st & kCrowdSolved) && len > room) st = kCrowdBufferTooSmall;
          st |= kCrowdCacheHit;
        } else {
          ++w.misses;
        }
      }
      if (other_change == 0 && !hit) {
        const auto nv = static_cast<int32_t>(cp.vars.size());
        const CrowdLayout& layout = planner.layout();
        for (int32_t k = 0; k < nv; ++k) {
          const CrowdLayout::Field& f = layout.field(cp.vars[static_cast<size_t>(k)]);
          w.s0[static_cast<size_t>(k)] = static_cast<ValueId>((s[f.word] >> f.shift) & f.mask);
          const uint64_t x = (g[f.word] >> f.shift) & f.mask;
          w.goal[static_cast<size_t>(k)] = x == f.mask ? kUndefined : static_cast<ValueId>(x);
        }
        // Plan in place when any plan fits, else into the worker's buffer: "too small" then
        // means exactly "a plan exists and is longer than the room left", with or without cache.
        TopoScratch& scratch = w.scratch[c];
        const bool in_place = room >= cp.planner.max_plan_length();
        ActionId* dst = in_place ? actions + pos : w.plan.data();
        const PlanStatus ps = cp.planner.plan(
            scratch, std::span<const ValueId>(w.s0.data(), static_cast<size_t>(nv)),
            std::span<const ValueId>(w.goal.data(), static_cast<size_t>(nv)),
            std::span<ActionId>(dst, static_cast<size_t>(cp.planner.max_plan_length())), &len);
        ++w.stats.planned;
        switch (ps) {
          case PlanStatus::kSolved:
            st = kCrowdSolved;
            for (int32_t j = 0; j < len; ++j) dst[j] = cp.to_global[static_cast<size_t>(dst[j])];
            if (!in_place) {
              if (len <= room)
                std::copy(dst, dst + len, actions + pos);
              else
                st = kCrowdBufferTooSmall;
            }
            break;
          case PlanStatus::kUnsolvable:
            st = kCrowdUnsolvable;
            break;
          default:
            st = scratch.failure() == TopoFailure::kBadInput ? kCrowdBadInput : kCrowdNoPlan;
            break;
        }
        if (cache != nullptr) {
          const CrowdStatus cached = st == kCrowdBufferTooSmall ? kCrowdSolved : st;
          const int32_t r = cache->insert(hash, static_cast<int32_t>(c), key, dst, len, cached);
          w.inserts += r > 0;
          w.evictions += r > 1;
        }
      }
    }
    out.offset[static_cast<size_t>(i)] = static_cast<uint32_t>(pos);
    out.length[static_cast<size_t>(i)] = static_cast<uint16_t>(len);
    out.status[static_cast<size_t>(i)] = st;
    if (st & kCrowdSolved) {
      pos += len;
      ++w.stats.solved;
    }
    w.stats.buffer_too_small += (st & kCrowdBufferTooSmall) != 0;
  }
  w.stats.served += end - first;
}

}  // namespace topoplan
