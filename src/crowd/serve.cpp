// Crowd: the batch loop. Blocks of NPCs are claimed from an atomic counter by whichever worker
// is free; each block writes only its own slice of the output, so the result does not depend on
// who ran it. The frame budget is checked after each block (every npcs_per_block NPCs).
#include <algorithm>
#include <cassert>
#include <cstring>

#include "crowd/internal.h"

namespace topoplan {

using crowd_detail::memo_slot;
using crowd_detail::nonzero_fields;
using crowd_detail::now_ns;
using crowd_detail::project_key;
using crowd_detail::unpack_projected;

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
        hash = project_key<kOneWord>(
            c, s, g, key_masks + static_cast<size_t>(c) * static_cast<size_t>(words), words, key);
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
        // Unpack only the class's variables, straight from the packed words.
        const ClassHot& h = hot[c];
        const int32_t nv = h.num_vars;
        unpack_projected<kOneWord>(h.fields, nv, s, g, s0_vals, goal_vals);
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
