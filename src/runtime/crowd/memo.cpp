// Crowd: the warm memo loop. A warm one-word batch with the worker memos goes through
// serve_block_memo: its loop answers a memo hit inline — a class check, a check that the goal
// leaves the class's other variables as they are (or, in the loop's partial-goal instance, free),
// the projected key, one hash, one memo entry, the output stores — and calls serve_npc (serve.h,
// out of line: serve_memo_miss) for everything else.
// task_entry (serve.cpp) calls the four instances below.
#include <algorithm>
#include <cstring>

#include "runtime/crowd/serve.h"

namespace topoplan {

using crowd_detail::kDefaultMemoShift;
using crowd_detail::memo_hash;
using crowd_detail::memo_set;

// Out of line: keeps the memo loop's registers free of serve_npc's. First, a goal the loop's
// instance does not key — a partial goal (the class's other variables free: GOAP goals name only
// what they want) in the total-goal instance, or one that frees some other variables and keeps
// the rest — is probed here with the projected goal itself, the key the memo was filled with,
// once the other fields are checked free or equal to s0's (as serve_npc checks them). One
// instance of the loop per goal kind, not a second probe inside it: the probe cost total goals
// 10-14 % more instructions per warm NPC on the Western town (register allocation).
template <bool kHandles>
[[gnu::noinline]] void Crowd::serve_memo_miss(Worker& w, Block& b, int64_t i) const {
  const uint32_t c = b.npc_class[i];
  const uint64_t s = b.init[i];
  const uint64_t g = b.goal[i];
  if (c < b.num_classes) {
    const uint64_t km = b.key_masks[c];
    const uint64_t other = (s ^ g) & ~km;
    if (other != 0 && (crowd_detail::nonzero_fields(s ^ g, b.low[0], b.high[0]) &
                       crowd_detail::nonzero_fields(~g, b.low[0], b.high[0]) & ~km) == 0) {
      const uint64_t ks = s & km;
      const uint64_t kg = g & km;
      const uint64_t set = 2 * memo_set(memo_hash(c, ks, kg), b.memo_shift);
      if constexpr (kHandles) {
        if (const HandleMemoEntry* e = crowd_detail::memo_find(b.handle_memo + set, c, ks, kg)) {
          ++b.hits;
          write_answer<true>(b, i, e->status, e->length,
                             e->handle.empty() ? PlanCache::kNoHandle : e->handle.id);
          return;
        }
      } else if (const MemoEntry* e = crowd_detail::memo_find(b.memo + set, c, ks, kg)) {
        const int32_t len = e->length;
        CrowdStatus st = e->status;
        if ((st & kCrowdSolved) && len > b.slice_end - b.pos)
          st = crowd_detail::too_small_status(st);
        else if ((st & kCrowdSolved) && b.slice_end - b.pos >= kMemoPlan)
          std::memcpy(b.actions + b.pos, e->plan, sizeof e->plan);  // fixed size: the slice is ours
        else if (st & kCrowdSolved)
          std::memcpy(b.actions + b.pos, e->plan, sizeof(ActionId) * static_cast<size_t>(len));
        ++b.hits;
        write_answer<false>(b, i, st, len, PlanCache::kNoHandle);
        return;
      }
    }
  }
  serve_npc<true, true, kHandles>(w, b, i);
}

// The documented hot loop of a warm batch (see the top of this file). A handle batch writes
// handle, status and length of a memo hit (its offset is unused: crowd.h, CrowdOutput); a
// copying batch copies the memo's plan to the slice as serve_npc would.
// hot loop: kept whole. One piece on purpose: the hits' loop (serve_hits) is a lambda over this
// function's locals, and the claim's loops below and the counters' sum at the end share them, so
// that the pointers and the slice position stay in registers across a run of hits (the
// per-kind counts on this frame) and are saved around the miss calls only. Out-of-line pieces would
// take them through a record whose address escapes to serve_memo_miss (re-read per NPC, as Block's
// fields would be); inlined ones would only spread one register-tuned loop
// (bench/results/2026-11-23-crowd-warm-memo.md) over several functions.
template <bool kHandles, int32_t kShift>
void Crowd::serve_block_memo(Worker& w, const Job& job, int64_t first_block,
                             int64_t end_block_) const {
  Block b;
  begin_block<true, true, kHandles>(w, job, first_block, b);
  // Locals, not b's fields (b's address goes to serve_memo_miss, so its fields would be re-read
  // for every NPC); the hits are served by an inner loop without calls, so that these stay in
  // registers there and are saved around the miss calls only.
  const uint16_t* const npc_class = b.npc_class;
  const uint64_t* const init = b.init;
  const uint64_t* const goal = b.goal;
  const uint64_t* const key_masks = memo_mask_.data();  // one word per 16-bit class id
  const uint64_t fields = b.low[0] | b.high[0];         // every field's bits (word 0)
  // The default memo's shift is an immediate: a variable one needs %cl, one more register.
  const int32_t shift = kShift != 0 ? kShift : b.memo_shift;
  uint16_t* const lengths = b.lengths;
  CrowdStatus* const statuses = b.statuses;
  PlanHandle* const handles = b.handles;
  const HandleMemoEntry* const handle_memo = b.handle_memo;
  const MemoEntry* const memo = b.memo;
  uint32_t* const offsets = b.offsets;
  ActionId* const actions = b.actions;
  int64_t slice_end = b.slice_end;
  int64_t pos = b.pos;
  int64_t too_small[kKinds] = {};  // memo hits of a kind answered "too small" (copying)
  // Hits per MemoKind: on the stack, one add per NPC (no register, no chain of tests).
  int64_t kinds[kKinds] = {};
  // Serves NPCs from i on while they are memo hits; returns the first that is not (or end).
  // Indexed from the end (k < 0 up to 0): one induction variable and no end compare. No class
  // range check: memo_mask_ has a mask for every 16-bit id (0 beyond the classes), and no entry
  // has such a tag (an empty one has tag kEmptyTag and s0 kEmptyS0, never a masked s0 of 0).
  //
  // Two instances: kPartial = false keys a goal that leaves the class's other variables as they
  // are (t below), kPartial = true one that leaves them free (GOAP goals name only what they
  // want). Which one runs follows the goal of the last NPC that missed (`partial`, below): each
  // instance has one key and no second probe, so a run of either kind costs what the other does.
  auto serve_hits = [&]<bool kPartial>(int64_t i, int64_t end) __attribute__((always_inline))
                        ->int64_t {
    const uint16_t* const cls_e = npc_class + end;
    const uint64_t* const init_e = init + end;
    const uint64_t* const goal_e = goal + end;
    int64_t k = i - end;
    if constexpr (kHandles) {
      // Two NPCs per step (one loop test), each answered as soon as found (probing both first
      // kept more registers live: a spilled class, a null test; 31.45 vs 30.91 instructions per
      // NPC); a miss goes to the one-NPC loop below, which stops at it.
      auto find = [&](int64_t j) __attribute__((always_inline))->const HandleMemoEntry* {
        const uint32_t c = cls_e[j];
        const uint64_t s = init_e[j];
        const uint64_t km = key_masks[c];
        const uint64_t ks = s & km;
        const uint64_t t = kPartial ? goal_e[j] ^ km ^ fields : goal_e[j] ^ s ^ ks;
        const HandleMemoEntry* way = handle_memo + 2 * memo_set(memo_hash(c, ks, t), shift);
        if (way->s0 == ks && way->goal == t && way->tag == c) [[likely]]
          return way;
        ++way;
        return way->s0 == ks && way->goal == t && way->tag == c ? way : nullptr;
      };
      for (; k <= -2; k += 2) {
        const HandleMemoEntry* const e0 = find(k);
        if (e0 == nullptr) [[unlikely]]
          break;
        handles[end + k] = e0->handle;
        statuses[end + k] = e0->status;
        lengths[end + k] = e0->length;
        ++kinds[e0->kind];
        const HandleMemoEntry* const e1 = find(k + 1);
        if (e1 == nullptr) [[unlikely]] {
          ++k;
          break;
        }
        handles[end + k + 1] = e1->handle;
        statuses[end + k + 1] = e1->status;
        lengths[end + k + 1] = e1->length;
        ++kinds[e1->kind];
      }
    }
    for (; k != 0; ++k) {
      const uint32_t c = cls_e[k];
      const uint64_t s = init_e[k];
      // The projected key (ks, kg = g & key_mask) and, in one word, the check that the goal
      // leaves every other variable as it is: t = g ^ (s & ~key_mask) equals kg exactly when
      // (s ^ g) has no bit outside the class's fields. A memo goal has none there, so t equals
      // it only in that case (else serve_npc makes the full check); t serves as kg for the hash.
      // Partial: t = g ^ (fields & ~key_mask) (key_mask is made of field bits) equals kg exactly
      // when every other field of g is all ones (free) and its bits outside fields are 0.
      const uint64_t km = key_masks[c];
      const uint64_t ks = s & km;
      const uint64_t t = kPartial ? goal_e[k] ^ km ^ fields : goal_e[k] ^ s ^ ks;
      const uint64_t set = memo_set(memo_hash(c, ks, t), shift);
      if constexpr (kHandles) {
        const HandleMemoEntry* way = handle_memo + 2 * set;
        if (way->s0 != ks || way->goal != t || way->tag != c) [[unlikely]] {
          ++way;
          if (way->s0 != ks || way->goal != t || way->tag != c) break;
        }
        handles[end + k] = way->handle;
        statuses[end + k] = way->status;
        lengths[end + k] = way->length;
        ++kinds[way->kind];
      } else {
        const MemoEntry* way = memo + 2 * set;
        if (way->s0 != ks || way->goal != t || way->tag != c) [[unlikely]] {
          ++way;
          if (way->s0 != ks || way->goal != t || way->tag != c) break;
        }
        const MemoEntry& e = *way;
        const int32_t len = e.length;
        CrowdStatus st = e.status;
        offsets[end + k] = static_cast<uint32_t>(pos);
        lengths[end + k] = static_cast<uint16_t>(len);
        ++kinds[e.kind];
        if (st & kCrowdSolved) {
          const int64_t room = slice_end - pos;
          if (len > room) [[unlikely]] {
            st = crowd_detail::too_small_status(st);
            ++too_small[e.kind];  // counted as a hit, not as solved (below)
          } else {
            if (room >= kMemoPlan)  // fixed size: one unrolled copy; the slice is ours
              std::memcpy(actions + pos, e.plan, sizeof e.plan);
            else
              std::memcpy(actions + pos, e.plan, sizeof(ActionId) * static_cast<size_t>(len));
            pos += len;
          }
        }
        statuses[end + k] = st;
      }
    }
    return end + k;
  };
  // The hit loop's instance: the goal of the last NPC that missed frees every other field (its
  // bits outside the class's fields are those of `fields`), kept from the worker's last claim.
  bool partial = w.memo_partial;
  auto partial_goal = [&](int64_t i) {
    return ((goal[i] ^ fields) & ~key_masks[npc_class[i]]) == 0;
  };
  // The claimed blocks in one call (the record set up once).
  int64_t served = 0;
  if constexpr (kHandles) {
    // A hit writes nothing to the slices: the claim's NPCs are served in one run, and a block's
    // range and slice are set up only when one of its NPCs misses (`b` describes block `at`).
    const int64_t per_block = def_.npcs_per_block;
    const int64_t claim_end = std::min(end_block_ * per_block, job.npcs);
    int64_t at = first_block;
    for (int64_t i = b.first;; ++i) {
      i = partial ? serve_hits.template operator()<true>(i, claim_end)
                  : serve_hits.template operator()<false>(i, claim_end);
      if (i >= claim_end) break;
      if (const int64_t block = i / per_block; block != at) {
        // The retries of the previous block's pending NPCs write after its last plan.
        for (size_t k = b.pending_before; k < w.pending.size(); ++k) w.pending[k].tail = pos;
        set_range(w, job, block, b);
        pos = b.pos;
        at = block;
      }
      b.pos = pos;
      serve_memo_miss<kHandles>(w, b, i);
      pos = b.pos;
      partial = partial_goal(i);
    }
    served = claim_end - first_block * per_block;
  } else {
    // Per block its range and slice (a hit copies its plan to the slice).
    for (int64_t block = first_block; block < end_block_; ++block) {
      if (block != first_block) {
        // The retries of the previous block's pending NPCs write after its last plan.
        for (size_t k = b.pending_before; k < w.pending.size(); ++k) w.pending[k].tail = pos;
        set_range(w, job, block, b);
        pos = b.pos;
        slice_end = b.slice_end;
      }
      for (int64_t i = b.first;; ++i) {
        i = partial ? serve_hits.template operator()<true>(i, b.end)
                    : serve_hits.template operator()<false>(i, b.end);
        if (i >= b.end) break;
        b.pos = pos;
        serve_memo_miss<kHandles>(w, b, i);
        pos = b.pos;
        partial = partial_goal(i);
      }
      served += b.end - b.first;
    }
  }
  b.pos = pos;
  w.memo_partial = partial;
  b.hits +=
      kinds[kKindSolved] + kinds[kKindSolvedFallback] + kinds[kKindNoPlan] + kinds[kKindOther];
  const int64_t too_small_solved = too_small[kKindSolved] + too_small[kKindSolvedFallback];
  b.solved += kinds[kKindSolved] + kinds[kKindSolvedFallback] - too_small_solved;
  b.fallback_solved += kinds[kKindSolvedFallback] - too_small[kKindSolvedFallback];
  b.too_small += too_small_solved;
  b.no_plan += kinds[kKindNoPlan];
  end_block(w, b, served);
}

// The instances task_entry (serve.cpp) calls: handles or copying, the default memo or another.
template void Crowd::serve_block_memo<true, kDefaultMemoShift>(Worker& w, const Job& job,
                                                               int64_t first_block,
                                                               int64_t end_block) const;
template void Crowd::serve_block_memo<true, 0>(Worker& w, const Job& job, int64_t first_block,
                                               int64_t end_block) const;
template void Crowd::serve_block_memo<false, kDefaultMemoShift>(Worker& w, const Job& job,
                                                                int64_t first_block,
                                                                int64_t end_block) const;
template void Crowd::serve_block_memo<false, 0>(Worker& w, const Job& job, int64_t first_block,
                                                int64_t end_block) const;

}  // namespace topoplan
