// Crowd: the cold loop — a one-word batch without cache (serve_block_cold), every NPC through ℙ.
// Its claim's NPCs go in groups of up to kColdGroupNpcs (internal.h) in two passes: pass 1
// (cold_plan_group) sorts a group by class and situation and runs ℙ into the worker's stage, pass 2
// (cold_emit) writes the answers in NPC order; with AVX2 (cold_avx2_allowed) the class's variables
// are unpacked eight at a time (cold_groups, unpack_avx2) and short plans copied with one store.
// What the passes do not answer goes to serve_npc (serve.h), out of line.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "runtime/crowd/serve.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TOPOPLAN_CROWD_AVX2 1
#include <immintrin.h>
#endif

namespace topoplan {

using crowd_detail::nonzero_fields;

std::vector<crowd_detail::ColdGroup> crowd_detail::cold_groups(
    std::span<const CrowdLayout::Field> fields) {
  std::vector<ColdGroup> groups((fields.size() + 7) / 8);
  for (ColdGroup& group : groups) {
    for (int32_t lane = 0; lane < 8; ++lane) {
      group.s_window[lane] = 0;
      group.g_window[lane] = 2;
      group.shift[lane] = 0;
      group.mask[lane] = 0;
    }
  }
  for (size_t k = 0; k < fields.size(); ++k) {
    ColdGroup& group = groups[k / 8];
    const size_t lane = k % 8;
    const CrowdLayout::Field& f = fields[k];
    const int32_t width = static_cast<int32_t>(std::bit_width(f.mask));
    assert(f.word == 0 && width <= 16);
    // The window vector (unpack_avx2): lanes 0, 1 = the state's bits [0, 32), [32, 64); 2, 3 =
    // the goal's; 4 = the state's [16, 48), 6 = the goal's.
    int32_t window = 0, base = 0;
    if (f.shift + width > 32) {
      window = f.shift >= 32 ? 1 : 4;
      base = f.shift >= 32 ? 32 : 16;
    }
    group.s_window[lane] = window;
    group.g_window[lane] = window + 2;
    group.shift[lane] = f.shift - base;
    group.mask[lane] = static_cast<int32_t>(f.mask);
  }
  return groups;
}

bool crowd_detail::cold_avx2_allowed() {
  const char* simd = std::getenv("TOPOPLAN_CROWD_SIMD");
  if (simd != nullptr && std::string_view(simd) == "0") return false;
#ifdef TOPOPLAN_CROWD_AVX2
  return __builtin_cpu_supports("avx2");
#else
  return false;
#endif
}

namespace {

using crowd_detail::ColdClass;
using crowd_detail::ColdGroup;
using crowd_detail::ColdPass;
using crowd_detail::ColdStaged;

#ifdef TOPOPLAN_CROWD_AVX2
// One group of 8 variables (ColdGroup) from `windows` (unpack_avx2) into s0[0, 8), goal[0, 8).
[[gnu::target("avx2"), gnu::always_inline]] inline void unpack_group(const ColdGroup& group,
                                                                     __m256i windows, ValueId* s0,
                                                                     ValueId* goal) {
  const auto* lanes = reinterpret_cast<const __m256i*>(&group);
  const __m256i shift = _mm256_load_si256(lanes + 2);
  const __m256i mask = _mm256_load_si256(lanes + 3);
  const __m256i sv = _mm256_and_si256(
      _mm256_srlv_epi32(_mm256_permutevar8x32_epi32(windows, _mm256_load_si256(lanes)), shift),
      mask);
  __m256i gv = _mm256_and_si256(
      _mm256_srlv_epi32(_mm256_permutevar8x32_epi32(windows, _mm256_load_si256(lanes + 1)), shift),
      mask);
  gv = _mm256_or_si256(gv, _mm256_cmpeq_epi32(gv, mask));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(s0), sv);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(goal), gv);
}

// The class's variables of a one-word NPC, 8 a group: the windows of s and g in one vector, then
// per group one permute, one variable shift and one and; a goal lane equal to its mask (the
// all-ones field: free) becomes -1 (kUndefined) by or-ing in the compare. Writes whole groups
// (the buffers are rounded up to 8).
[[gnu::target("avx2")]] inline void unpack_avx2(const ColdGroup* group, int32_t num_vars,
                                                uint64_t s, uint64_t g, ValueId* s0,
                                                ValueId* goal) {
  static_assert(kUndefined == -1);
  const __m128i words = _mm_set_epi64x(static_cast<long long>(g), static_cast<long long>(s));
  const __m256i windows =
      _mm256_inserti128_si256(_mm256_castsi128_si256(words), _mm_srli_epi64(words, 16), 1);
  // A projection has variables: the first group always, at constant offsets; more groups only
  // for a class of more than 8 variables.
  unpack_group(group[0], windows, s0, goal);
  for (int32_t k = 8; k < num_vars; k += 8) unpack_group(group[k / 8], windows, s0 + k, goal + k);
}
#endif

// Pass 1 of the cold loop (internal.h, kColdGroupNpcs) for the group's NPCs [g0, g1): a counting
// sort by bucket (internal.h, kColdBucketBits: the class, then the hash of the projected s0 and
// goal; the buckets' starts, then each NPC's input copied to its place: no branch on the class),
// then per NPC in that order the class check, the check that the goal leaves the class's other
// variables as they are (one and; the full test only if a bit differs there), the unpacking of
// the class's variables and ℙ into the stage. Each NPC's answer goes to r.staged (ColdStaged).
// No call but ℙ, so the pointers stay in registers or on this function's stack.
template <bool kAvx2>
[[gnu::always_inline]] inline void cold_plan_group(ColdPass& r, const int64_t g0,
                                                   const int64_t g1) {
  const uint16_t* const npc_class = r.npc_class + g0;
  const uint64_t* const init = r.init + g0;
  const uint64_t* const goal = r.goal + g0;
  const auto n = static_cast<uint32_t>(g1 - g0);
  crowd_detail::ColdNpc* const sorted = r.sorted;
  ColdStaged* const staged = r.staged;
  ActionId* const stage = r.stage;
  ValueId* const s0_vals = r.s0_vals;
  ValueId* const goal_vals = r.goal_vals;
  const ColdClass* const cold = r.cold;
  const uint32_t num_classes = r.num_classes;
  {
    // The bucket of each NPC: the class's low bits, then the top bits of the projected key's
    // hash (a class id past the classes projects with the mask 0); at most as many buckets as
    // NPCs, so that a small group (a frame's claim) does not sum many empty ones. start[k + 1]:
    // NPCs of bucket k, then (prefix sums) start[k]: bucket k's first place.
    const uint64_t* const key_mask = r.key_mask;
    const int32_t class_bits = r.class_bits;
    const int32_t bits = std::clamp(static_cast<int32_t>(std::bit_width(n)) - 1, class_bits + 1,
                                    crowd_detail::kColdBucketBits);
    const uint32_t buckets = uint32_t{1} << bits;
    const uint32_t class_mask = (uint32_t{1} << class_bits) - 1;
    const int32_t hash_shift = 64 - (bits - class_bits);
    uint16_t bucket[crowd_detail::kColdGroupNpcs];
    uint32_t start[(uint32_t{1} << crowd_detail::kColdBucketBits) + 1];
    std::fill_n(start, buckets + 1, 0u);
    for (uint32_t j = 0; j < n; ++j) {
      const uint32_t c = npc_class[j];
      const uint64_t mask = key_mask[std::min(c, num_classes)];
      const uint64_t h = crowd_detail::hash_one_word(0, init[j] & mask, goal[j] & mask);
      const auto k = static_cast<uint16_t>(((c & class_mask) << (bits - class_bits)) |
                                           static_cast<uint32_t>(h >> hash_shift));
      bucket[j] = k;
      ++start[k + 1];
    }
    for (uint32_t k = 1; k <= buckets; ++k) start[k] += start[k - 1];
    for (uint32_t j = 0; j < n; ++j)
      sorted[start[bucket[j]]++] = crowd_detail::ColdNpc{init[j], goal[j], npc_class[j], j};
  }
  uint32_t at = 0;  // the stage's next free action
  for (uint32_t k = 0; k < n; ++k) {
    const crowd_detail::ColdNpc npc = sorted[k];
    const uint32_t c = npc.c;
    const uint64_t s = npc.s;
    const uint64_t g = npc.g;
    ColdStaged& answer = staged[npc.j];
    if (c >= num_classes) [[unlikely]] {
      answer = ColdStaged{crowd_detail::kColdOther, 0};
      continue;
    }
    const ColdClass& h = cold[c];
    if (((s ^ g) & h.other) != 0) [[unlikely]] {
      // A field outside the class's differs: unsolvable unless the goal leaves it free.
      if ((nonzero_fields(s ^ g, r.low, r.high) & nonzero_fields(~g, r.low, r.high) &
           h.other_high) != 0) {
        answer = ColdStaged{crowd_detail::kColdOther, 0};
        continue;
      }
    }
    if (at >= crowd_detail::kColdStageActions) [[unlikely]] {  // the stage is full
      answer = ColdStaged{crowd_detail::kColdOther, 0};
      continue;
    }
    const int32_t nv = h.num_vars;
#ifdef TOPOPLAN_CROWD_AVX2
    if constexpr (kAvx2)
      unpack_avx2(h.groups, nv, s, g, s0_vals, goal_vals);
    else
#endif
      crowd_detail::unpack_one_word(h.fields, nv, s, g, s0_vals, goal_vals);
    int32_t len = 0;
    const PlanStatus ps =
        h.planner
            ->plan(*h.scratch, std::span<const ValueId>(s0_vals, static_cast<size_t>(nv)),
                   std::span<const ValueId>(goal_vals, static_cast<size_t>(nv)),
                   std::span<ActionId>(stage + at, static_cast<size_t>(h.max_len)), &len)
            .status;
    if (ps == PlanStatus::kSolved) [[likely]] {
      answer = ColdStaged{at, len};
      at += static_cast<uint32_t>(len);
    } else {
      answer = ColdStaged{
          ps == PlanStatus::kUnsolvable ? crowd_detail::kColdUnsolvable : crowd_detail::kColdOther,
          len};
    }
  }
}

#ifdef TOPOPLAN_CROWD_AVX2
// A plan of `len` <= 8 actions from `src` (the stage) to `dst` (the slice, with room for 8), and
// nothing else written: one store that writes the slice's next actions back as they were (the
// slice is the block's alone; the stage has 8 actions after any plan, kColdStageSlack).
[[gnu::target("avx2")]] inline void copy_plan_avx2(ActionId* dst, const ActionId* src,
                                                   int32_t len) {
  static_assert(sizeof(ActionId) == 4);
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i take = _mm256_cmpgt_epi32(_mm256_set1_epi32(len), lane);
  const __m256i plan = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
  const __m256i old = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(dst));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst), _mm256_blendv_epi8(old, plan, take));
}
#endif

// Pass 2 of the cold loop for the group that starts at g0, from NPC i on, in NPC order: a plan
// that fits the slice is copied there, a proof answered, each with the three output stores, as
// the one-NPC loop wrote them. Stops at the first NPC that needs anything else (kColdOther, a
// plan longer than the room left; with AVX2 also a plan of more than 8 actions or less room than
// 8) and returns it, or `end`.
template <bool kAvx2>
[[gnu::always_inline]] inline int64_t cold_emit(ColdPass& r, const int64_t g0, int64_t i,
                                                const int64_t end) {
  const ColdStaged* const staged = r.staged - g0;
  const ActionId* const stage = r.stage;
  uint32_t* const offsets = r.offsets;
  uint16_t* const lengths = r.lengths;
  CrowdStatus* const statuses = r.statuses;
  ActionId* const actions = r.actions;
  const int64_t slice_end = r.slice_end;
  const int64_t last8 = slice_end - 8;  // the last position with room for 8 actions
  int64_t pos = r.pos;
  for (; i < end; ++i) {
    const ColdStaged answer = staged[i];
    const int32_t len = answer.len;
    // With AVX2, a plan of at most 8 actions and room for 8 (so it fits); the others out of line
    // (no call in this loop).
    const bool fits = kAvx2 ? len <= 8 && pos <= last8 : len <= slice_end - pos;
    if (answer.at < crowd_detail::kColdOther && fits) [[likely]] {
#ifdef TOPOPLAN_CROWD_AVX2
      if constexpr (kAvx2)
        copy_plan_avx2(actions + pos, stage + answer.at, len);
      else
#endif
        std::memcpy(actions + pos, stage + answer.at, sizeof(ActionId) * static_cast<size_t>(len));
      offsets[i] = static_cast<uint32_t>(pos);
      lengths[i] = static_cast<uint16_t>(len);
      statuses[i] =
          crowd_detail::crowd_status(PlanStatus::kSolved, kDetailNone, true, false, false);
      pos += len;
    } else if (answer.at == crowd_detail::kColdUnsolvable) {  // a proof (4 % of Western's NPCs)
      offsets[i] = static_cast<uint32_t>(pos);
      lengths[i] = static_cast<uint16_t>(len);  // as ℙ left it, as write_answer writes it
      statuses[i] =
          crowd_detail::crowd_status(PlanStatus::kUnsolvable, kDetailNone, false, false, false);
      ++r.unsolvable;
    } else {
      break;
    }
  }
  r.pos = pos;
  return i;
}

[[gnu::noinline]] void cold_plan_group_scalar(ColdPass& r, int64_t g0, int64_t g1) {
  cold_plan_group<false>(r, g0, g1);
}
[[gnu::noinline]] int64_t cold_emit_scalar(ColdPass& r, int64_t g0, int64_t i, int64_t end) {
  return cold_emit<false>(r, g0, i, end);
}

#ifdef TOPOPLAN_CROWD_AVX2
[[gnu::noinline, gnu::target("avx2"), gnu::flatten]] void cold_plan_group_avx2(ColdPass& r,
                                                                               int64_t g0,
                                                                               int64_t g1) {
  cold_plan_group<true>(r, g0, g1);
}
[[gnu::noinline, gnu::target("avx2"), gnu::flatten]] int64_t cold_emit_avx2(ColdPass& r, int64_t g0,
                                                                            int64_t i,
                                                                            int64_t end) {
  return cold_emit<true>(r, g0, i, end);
}
#endif

}  // namespace

// Blocks [first_block, last_block_end) of a one-word batch without cache, in groups of up to
// kColdGroupNpcs NPCs (a group may span blocks): pass 1 (cold_plan_group), then pass 2
// (cold_emit) block by block, and out of line, in NPC order, what pass 2 stops at — serve_npc
// for kColdOther (ℙ runs again there: the fallback chain needs its failure and the projected
// state), "too small" for a plan longer than the room left. serve_npc keeps its own counters in
// `b`; this loop counts the rest.
void Crowd::serve_block_cold(Worker& w, const Job& job, int64_t first_block,
                             int64_t last_block_end) const {
  Block b;
  begin_block<true, false, false>(w, job, first_block, b);
  ColdPass r;
  r.npc_class = b.npc_class;
  r.init = b.init;
  r.goal = b.goal;
  r.s0_vals = b.s0_vals;
  r.goal_vals = b.goal_vals;
  r.cold = w.cold.data();
  r.num_classes = b.num_classes;
  r.low = b.low[0];
  r.high = b.high[0];
  r.key_mask = w.cold_key_mask.data();
  // The buckets: the class's low bits (as many as needed, at most 6), the key's hash the rest.
  r.class_bits = std::min(static_cast<int32_t>(std::bit_width(std::max(b.num_classes, 1u) - 1)), 6);
  r.sorted = w.cold_sorted.data();
  r.staged = w.cold_staged.data();
  r.stage = w.cold_stage.data();
  r.offsets = b.offsets;
  r.lengths = b.lengths;
  r.statuses = b.statuses;
  r.actions = b.actions;
  r.slice_end = b.slice_end;
  r.pos = b.pos;
  r.unsolvable = 0;
  const int64_t npc_end = std::min(last_block_end * def_.npcs_per_block, job.npcs);
  int64_t block = first_block;
  int64_t before = 0;  // NPCs served by serve_npc (it counts them)
  int64_t after = 0;   // NPCs ℙ solved with a plan longer than the room left
  for (int64_t g0 = b.first; g0 < npc_end;) {
    const int64_t g1 = std::min<int64_t>(g0 + crowd_detail::kColdGroupNpcs, npc_end);
#ifdef TOPOPLAN_CROWD_AVX2
    if (w.cold_avx2)
      cold_plan_group_avx2(r, g0, g1);
    else
#endif
      cold_plan_group_scalar(r, g0, g1);
    for (int64_t i = g0;;) {
      const int64_t stop = std::min(g1, b.end);
#ifdef TOPOPLAN_CROWD_AVX2
      i = w.cold_avx2 ? cold_emit_avx2(r, g0, i, stop) : cold_emit_scalar(r, g0, i, stop);
#else
      i = cold_emit_scalar(r, g0, i, stop);
#endif
      if (i == stop) {
        if (i == b.end && i < npc_end) {
          // The retries of this block's pending NPCs write after its last plan.
          for (size_t k = b.pending_before; k < w.pending.size(); ++k) w.pending[k].tail = r.pos;
          set_range(w, job, ++block, b);
          r.pos = b.pos;
          r.slice_end = b.slice_end;
        }
        if (i == g1) break;
        continue;
      }
      const crowd_detail::ColdStaged answer = w.cold_staged[static_cast<size_t>(i - g0)];
      if (answer.at == crowd_detail::kColdOther) {
        ++before;
        b.pos = r.pos;
        serve_cold_other(w, b, i);
        r.pos = b.pos;
      } else if (answer.len <= b.slice_end - r.pos) {
        // Solved, a plan the AVX2 loop does not copy (more than 8 actions, or less room than 8).
        std::memcpy(b.actions + r.pos, w.cold_stage.data() + answer.at,
                    sizeof(ActionId) * static_cast<size_t>(answer.len));
        b.offsets[i] = static_cast<uint32_t>(r.pos);
        b.lengths[i] = static_cast<uint16_t>(answer.len);
        b.statuses[i] =
            crowd_detail::crowd_status(PlanStatus::kSolved, kDetailNone, true, false, false);
        r.pos += answer.len;
      } else {
        // Solved, longer than the room left: "too small" with the length needed.
        ++after;
        ++b.too_small;
        b.offsets[i] = static_cast<uint32_t>(r.pos);
        b.lengths[i] = static_cast<uint16_t>(answer.len);
        b.statuses[i] =
            crowd_detail::crowd_status(PlanStatus::kSolved, kDetailNone, false, false, false);
      }
      ++i;
    }
    g0 = g1;
  }
  b.pos = r.pos;
  const int64_t served = npc_end - first_block * def_.npcs_per_block;
  b.planned += served - before;
  b.solved += served - before - after - r.unsolvable;
  end_block(w, b, served);
}

// Out of line (as serve_block_cold always called it): an NPC the cold loop's passes leave to
// serve_npc.
[[gnu::noinline]] inline void Crowd::serve_cold_other(Worker& w, Block& b, int64_t i) const {
  serve_npc<true, false, false>(w, b, i);
}

}  // namespace topoplan
