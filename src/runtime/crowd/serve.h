// Crowd: what the batch loops share — serve.cpp (task_entry, serve_block), cold.cpp (the cold
// loop, serve_block_cold) and memo.cpp (the warm memo loop, serve_block_memo): the per-block
// record (Block), its setup and wrap-up (begin_block, set_range, end_block), and serve_npc, one NPC
// on every path (bad input, the worker memo, the shared cache, ℙ, the fallback chain), with its
// pieces (write_answer, plan_npc, answer_topo, serve_fallback, fill_memo). The loops inline them:
// they are defined here, in every file that runs a loop.
#pragma once

#include <algorithm>
#include <cstring>

#include "runtime/crowd/internal.h"

namespace topoplan {

// Per block: the pointers serve_npc reads (hoisted once per block) and what the block's NPCs
// change (the slice position, the counters, added to the worker once per block).
// begin_block sets every field without an initializer (no memset of the whole record per block).
struct Crowd::Block {
  int64_t first, end;  // the block's NPCs
  int64_t pos;         // next free action of the block's slice [C·first/N, C·end/N)
  int64_t slice_end;
  const uint16_t* npc_class;
  const uint64_t* init;
  const uint64_t* goal;
  ActionId* actions;
  uint32_t* offsets;
  uint16_t* lengths;
  CrowdStatus* statuses;
  PlanHandle* handles;
  const uint64_t* low;
  const uint64_t* high;
  const uint64_t* key_masks;
  const uint64_t* other_highs;
  const ClassHot* hot;
  uint32_t num_classes;
  int32_t words;
  PlanCache* cache;
  uint32_t epoch;
  int32_t table_max;  // longest plan put in the plan table
  uint64_t* key;
  ValueId* s0_vals;
  ValueId* goal_vals;
  ActionId* spare;
  TopoScratch* scratches;
  size_t pending_before;
  MemoEntry* memo = nullptr;  // null: no memo
  HandleMemoEntry* handle_memo = nullptr;
  int32_t memo_shift = 63;
  int32_t memo_max = 0;  // longest plan a MemoEntry holds
  int64_t hits = 0, misses = 0, planned = 0, solved = 0, too_small = 0, inserts = 0, evictions = 0;
  int64_t fallback_solved = 0, no_plan = 0;
};

namespace crowd_detail {

// memo_shift of the default memo (CrowdDef::worker_memo_entries = 2048: 1024 sets).
inline constexpr int32_t kDefaultMemoShift = 64 - 10;

}  // namespace crowd_detail

// Internal linkage (a copy per file, out of line, as when one file held it).
namespace {

// Puts an answer (status as the cache holds it) in way 0 of its memo set (`me` or `he`: the
// set of the memo in use; way 0 moves to way 1), when it fits: a handle entry takes an answer
// without a plan or with a handle; a copy entry a plan of at most memo_max actions.
[[maybe_unused]] void fill_memo(MemoEntry* me, HandleMemoEntry* he, const uint64_t* key,
                                uint32_t epoch, int32_t memo_max, uint32_t c, int32_t len,
                                CrowdStatus st, uint32_t id, const ActionId* plan) {
  const bool solved = (st & kCrowdSolved) != 0;
  if (he != nullptr && (!solved || id != PlanCache::kNoHandle) && len <= 65535) {
    he[1] = he[0];
    he->s0 = key[0];
    he->goal = key[1];
    he->handle = solved ? PlanHandle{id, epoch} : PlanHandle{};
    he->tag = static_cast<uint16_t>(c);
    he->length = static_cast<uint16_t>(len);
    he->status = st | kCrowdCacheHit;
    he->kind = memo_kind(st);
  }
  if (me != nullptr && len <= memo_max && plan != nullptr) {
    me[1] = me[0];
    me->s0 = key[0];
    me->goal = key[1];
    me->tag = static_cast<uint16_t>(c);
    me->length = static_cast<uint8_t>(len);
    me->status = static_cast<uint8_t>(st | kCrowdCacheHit);
    me->kind = memo_kind(st);
    std::memcpy(me->plan, plan, sizeof(ActionId) * static_cast<size_t>(len));
  }
}

}  // namespace

template <bool kOneWord, bool kCache, bool kHandles>
[[gnu::always_inline]] inline void Crowd::begin_block(Worker& w, const Job& job, int64_t block,
                                                      Block& b) const {
  static_assert(kCache || !kHandles);
  const CrowdPlanner& planner = *planner_;
  const CrowdBatch& batch = *job.batch;
  const CrowdOutput& out = *job.out;
  PlanCache* cache = kCache ? def_.cache : nullptr;
  set_range(w, job, block, b);
  b.npc_class = batch.npc_class.data();
  b.init = batch.init.data();
  b.goal = batch.goal.data();
  b.actions = out.actions.data();
  b.offsets = out.offset.data();
  b.lengths = out.length.data();
  b.statuses = out.status.data();
  b.handles = kHandles ? out.handles.data() : nullptr;
  b.low = planner.field_low_.data();
  b.high = planner.field_high_.data();
  b.key_masks = key_mask_.data();
  b.other_highs = other_high_.data();
  b.hot = hot_.data();
  b.num_classes = static_cast<uint32_t>(hot_.size());
  b.words = kOneWord ? 1 : planner.layout().words();
  b.cache = cache;
  b.epoch = kHandles ? cache->epoch_ : 0;
  b.table_max = kCache ? (kHandles ? 65535 : cache->max_len_) : 0;
  b.key = w.key.data();
  b.s0_vals = w.s0.data();
  b.goal_vals = w.goal.data();
  b.spare = w.plan.data();
  b.scratches = w.scratch.data();
  if (kOneWord && kCache && job.memo) {
    b.memo = w.memo.data();
    b.handle_memo = w.handle_memo.data();
    b.memo_shift = w.memo_shift;
    b.memo_max = std::min(kMemoPlan, cache->max_len_);
  }
}

// The NPCs of block `block` and its slice of the action buffer: [C·first/N, C·end/N).
[[gnu::always_inline]] inline void Crowd::set_range(const Worker& w, const Job& job, int64_t block,
                                                    Block& b) const {
  const int64_t n = job.npcs;
  b.first = block * def_.npcs_per_block;
  b.end = std::min<int64_t>(b.first + def_.npcs_per_block, n);
  const auto capacity = static_cast<int64_t>(job.out->actions.size());
  b.pos = capacity * b.first / n;
  b.slice_end = capacity * b.end / n;
  b.pending_before = w.pending.size();
}

[[gnu::always_inline]] inline void Crowd::end_block(Worker& w, const Block& b,
                                                    int64_t served) const {
  // The retries of this block's pending NPCs write after its last plan.
  for (size_t k = b.pending_before; k < w.pending.size(); ++k) w.pending[k].tail = b.pos;
  w.stats.served += served;
  w.stats.planned += b.planned;
  w.stats.cache_hits += b.hits;
  w.stats.solved += b.solved;
  w.stats.buffer_too_small += b.too_small;
  w.stats.solved_fallback += b.fallback_solved;
  w.stats.no_plan += b.no_plan;
  w.misses += b.misses;
  w.inserts += b.inserts;
  w.evictions += b.evictions;
}

// One NPC on every path. Inline in serve_block; in serve_block_memo, the miss path.
template <bool kOneWord, bool kCache, bool kHandles>
[[gnu::always_inline]] inline void Crowd::serve_npc(Worker& w, Block& b, int64_t i) const {
  const int32_t words = kOneWord ? 1 : b.words;
  PlanCache* cache = b.cache;
  ActionId* actions = b.actions;
  uint64_t* key = b.key;
  const int64_t pos = b.pos;
  const uint32_t c = b.npc_class[i];
  int32_t len = 0;
  CrowdStatus st = 0;
  uint32_t id = PlanCache::kNoHandle;  // the plan's table id (kCache)
  const auto room = static_cast<int32_t>(std::min<int64_t>(b.slice_end - pos, INT32_MAX));
  if (c >= b.num_classes) {
    st = kCrowdBadInput;
  } else {
    const uint64_t* s = b.init + i * words;
    const uint64_t* g = b.goal + i * words;
    const uint64_t* other_high =
        b.other_highs + static_cast<size_t>(c) * static_cast<size_t>(words);
    uint64_t other_change = 0;
    for (int32_t k = 0; k < words; ++k) {
      const uint64_t differs = crowd_detail::nonzero_fields(s[k] ^ g[k], b.low[k], b.high[k]);
      const uint64_t required = crowd_detail::nonzero_fields(~g[k], b.low[k], b.high[k]);
      other_change |= differs & required & other_high[k];
    }
    uint64_t hash = 0;
    bool hit = false;
    MemoEntry* me = nullptr;
    HandleMemoEntry* he = nullptr;
    if (other_change != 0) {
      // The goal changes a variable the class cannot touch: ℙ fails there in phase 1 (proof),
      // provided both values are values of the variable; otherwise the input is bad.
      st = crowd_detail::packed_in_range(*planner_, s, g) ? kCrowdUnsolvable : kCrowdBadInput;
    } else if constexpr (kCache) {
      hash = crowd_detail::project_key<kOneWord>(
          c, s, g, b.key_masks + static_cast<size_t>(c) * static_cast<size_t>(words), words, key);
      // The memo set to probe, then (on a miss) to fill.
      if (kOneWord && kHandles && b.handle_memo != nullptr) {
        he = b.handle_memo +
             2 * crowd_detail::memo_set(crowd_detail::memo_hash(c, key[0], key[1]), b.memo_shift);
        if (const HandleMemoEntry* e = crowd_detail::memo_find(he, c, key[0], key[1])) {
          hit = true;
          len = e->length;
          st = e->status;
          id = e->handle.empty() ? PlanCache::kNoHandle : e->handle.id;
        }
      } else if (kOneWord && b.memo != nullptr) {
        me = b.memo +
             2 * crowd_detail::memo_set(crowd_detail::memo_hash(c, key[0], key[1]), b.memo_shift);
        if (const MemoEntry* e = crowd_detail::memo_find(me, c, key[0], key[1])) {
          hit = true;
          len = e->length;
          st = e->status;
          if (st & kCrowdSolved) {
            if (len > room)
              st = crowd_detail::too_small_status(st);
            else if (room >= kMemoPlan)  // fixed size: one unrolled copy; the rest of the
              std::memcpy(actions + pos, e->plan, sizeof e->plan);  // slice is ours
            else
              std::memcpy(actions + pos, e->plan, sizeof(ActionId) * static_cast<size_t>(len));
          }
        }
      }
      if (!hit) {
        hit = cache->lookup(hash, static_cast<int32_t>(c), key, actions + pos, room, &len, &st,
                            kHandles, &id);
        if (hit) {
          const bool by_handle = kHandles && id != PlanCache::kNoHandle;
          if ((st & kCrowdSolved) && len > room && !by_handle)
            st = crowd_detail::too_small_status(st);
          else
            fill_memo(me, he, key, b.epoch, b.memo_max, c, len, st, id,
                      by_handle ? nullptr : actions + pos);
        } else {
          ++b.misses;
        }
      }
      if (hit) {
        ++b.hits;
        st |= kCrowdCacheHit;
      }
    }
    if (other_change == 0 && !hit) {
      const ActionId* dst = nullptr;  // the plan (in the slice, or a worker's buffer)
      st = plan_npc<kOneWord, kCache, kHandles>(w, b, i, c, s, g, room, &len, &id, &dst);
      if constexpr (kCache) {
        const CrowdStatus cached = crowd_detail::cached_status(st);
        const int32_t r = st == kCrowdPending ? 0
                                              : cache->insert(hash, static_cast<int32_t>(c), key,
                                                              dst, len, cached, id);
        b.inserts += r > 0;
        b.evictions += r > 1;
        if (st != kCrowdPending)
          fill_memo(me, he, key, b.epoch, b.memo_max, c, len, cached, id, dst);
      }
    }
  }
  write_answer<kHandles>(b, i, st, len, id);
}

// NPC i's output (its offset: the block's slice position) and the block's counters.
template <bool kHandles>
[[gnu::always_inline]] inline void Crowd::write_answer(Block& b, int64_t i, CrowdStatus st,
                                                       int32_t len, uint32_t id) const {
  b.offsets[i] = static_cast<uint32_t>(b.pos);
  b.lengths[i] = static_cast<uint16_t>(len);
  b.statuses[i] = st;
  int32_t used = len;  // actions written to the slice
  if constexpr (kHandles) {
    const bool by_handle = (st & kCrowdSolved) && id != PlanCache::kNoHandle;
    b.handles[i] = by_handle ? PlanHandle{id, b.epoch} : PlanHandle{};
    if (by_handle) used = 0;
  }
  if (st & kCrowdSolved) {
    b.pos += used;
    ++b.solved;
    b.fallback_solved += (st & kCrowdFallback) != 0;
  } else if (st & kCrowdBufferTooSmall) {
    ++b.too_small;
  } else if (st & kCrowdNoPlan) {
    ++b.no_plan;
  }
}

// ℙ, then the class's fallback chain, for an NPC the caches did not answer: its status, the
// plan (*len actions at *plan; in the slice unless by handle or too long), its table id.
template <bool kOneWord, bool kCache, bool kHandles>
[[gnu::always_inline]] inline CrowdStatus Crowd::plan_npc(Worker& w, Block& b, int64_t i,
                                                          uint32_t c, const uint64_t* s,
                                                          const uint64_t* g, int32_t room,
                                                          int32_t* len, uint32_t* id,
                                                          const ActionId** plan_out) const {
  ActionId* const actions = b.actions;
  const int64_t pos = b.pos;
  // Unpack only the class's variables, straight from the packed words.
  const ClassHot& h = b.hot[c];
  const int32_t nv = h.num_vars;
  crowd_detail::unpack_projected<kOneWord>(h.fields, nv, s, g, b.s0_vals, b.goal_vals);
  const std::span<const ValueId> s0_vals(b.s0_vals, static_cast<size_t>(nv));
  const std::span<const ValueId> goal_vals(b.goal_vals, static_cast<size_t>(nv));
  // Plan in place when any plan fits, else into the worker's buffer: "too small" then
  // means exactly "a plan exists and is longer than the room left", with or without cache.
  TopoScratch& scratch = b.scratches[c];
  const int32_t max_len = h.max_len;
  const bool in_place = room >= max_len;
  ActionId* plan = in_place ? actions + pos : b.spare;
  *plan_out = plan;
  const PlanOutcome po = h.planner->plan(
      scratch, s0_vals, goal_vals, std::span<ActionId>(plan, static_cast<size_t>(max_len)), len);
  ++b.planned;
  return answer_topo<kCache, kHandles>(w, b, i, c, po, plan, in_place, room, s0_vals, goal_vals,
                                       len, id, plan_out);
}

template <bool kCache, bool kHandles>
[[gnu::always_inline]] inline CrowdStatus Crowd::answer_topo(
    Worker& w, Block& b, int64_t i, uint32_t c, const PlanOutcome& po, ActionId* plan,
    bool in_place, int32_t room, std::span<const ValueId> s0_vals,
    std::span<const ValueId> goal_vals, int32_t* len, uint32_t* id,
    const ActionId** plan_out) const {
  ActionId* const actions = b.actions;
  const int64_t pos = b.pos;
  const PlanStatus ps = po.status;
  if (ps == PlanStatus::kSolved) {
    // ℙ wrote domain action ids (planner.cpp: `wide`)
    bool fits = true;
    if constexpr (kCache) {
      if (*len <= b.table_max) *id = b.cache->store(plan, *len);
    }
    if (kHandles && *id != PlanCache::kNoHandle) {
      // in the table: nothing written to the output
    } else if (!in_place) {
      fits = *len <= room;
      if (fits) std::copy(plan, plan + *len, actions + pos);
    }
    return crowd_detail::crowd_status(ps, po.detail, fits, false, false);
  }
  // On part of the class's actions (CrowdPlanner::topo_part) ℙ's proof is no proof: the chain,
  // as when ℙ gives up, unless the input is bad or the class has no chain.
  const bool part = ps == PlanStatus::kUnsolvable && topo_part_[c] != 0;
  const PlanStatus topo = part ? PlanStatus::kGaveUp : ps;
  if (topo != PlanStatus::kGaveUp || (po.detail & kDetailBadInput) != 0 ||
      chain_begin_[c] == chain_begin_[c + 1])
    return crowd_detail::crowd_status(topo, po.detail, false, false, false);
  const CrowdStatus st =
      serve_fallback<kCache, kHandles>(w, i, c, s0_vals, goal_vals, actions + pos, room, len, id);
  *plan_out = w.fallback_plan.data();  // after: the chain may have grown the buffer
  return st;
}

// Outside ℙ's reach: the fallback chain, with the per-NPC budget (cold path, out of line; the
// block's record is not passed, so that it does not escape from serve_block).
template <bool kCache, bool kHandles>
[[gnu::noinline]] CrowdStatus Crowd::serve_fallback(Worker& w, int64_t i, uint32_t c,
                                                    std::span<const ValueId> s0,
                                                    std::span<const ValueId> goal, ActionId* slot,
                                                    int32_t room, int32_t* len,
                                                    uint32_t* id) const {
  const PlanStatus fs = run_fallback(w.fallback_scratch, c, -1, s0, goal, w.fallback_plan, len);
  const ActionId* plan = w.fallback_plan.data();
  if constexpr (kCache) {
    const int32_t table_max = kHandles ? 65535 : def_.cache->max_len_;
    if (fs == PlanStatus::kSolved && *len <= table_max) *id = def_.cache->store(plan, *len);
  }
  const bool by_handle = kHandles && *id != PlanCache::kNoHandle;
  const bool fits = by_handle || (*len <= room && *len <= 65535);
  const CrowdStatus st = crowd_detail::crowd_status(fs, kDetailNone, fits, true, true);
  if (fs == PlanStatus::kSolved && fits && !by_handle) std::copy(plan, plan + *len, slot);
  if (st == kCrowdPending) {
    *len = 0;
    w.pending.push_back(Pending{i, 0});  // its block's tail is recorded after the block
  }
  return st;
}

}  // namespace topoplan
