// Crowd internals shared by crowd.cpp (create, plan, plan_frame, run), the batch loops (serve.h;
// serve.cpp, cold.cpp, memo.cpp) and pending.cpp (the fallback chain and the retries of pending
// NPCs): the per-worker state, the job a batch hands to the workers, and the key hashes of the plan
// cache.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/planner.h"

namespace topoplan {

// Worker memos (crowd.h, CrowdDef::worker_memo_entries): 2-way set-associative (memo_hash
// below), tagged by the class (kEmptyTag: empty; the memos are off for 65535 classes
// or more). Two kinds, both filled from the answers of the shared cache or ℙ and dropped with
// them: copying batches use MemoEntry (the plan itself), handle batches HandleMemoEntry (the
// output handle, no plan: half a line).
inline constexpr uint16_t kEmptyTag = 0xFFFF;
// The projected s0 of an empty entry: never the key of class kEmptyTag (a class id without
// variables, whose projected s0 is 0), so the memo loop needs no class range check.
inline constexpr uint64_t kEmptyS0 = ~uint64_t{0};
inline constexpr int32_t kMemoPlan = 10;

namespace crowd_detail {

// The crowd's status bits (crowd.h) for one planner answer: every path that plans (ℙ inline,
// the cold loop, the fallback chain, a pending NPC's retry) writes its NPC's status through this
// function, so that the bits mean one thing whoever answered. `fits`: a solved plan is in the
// output slice or, by handle, in the plan table (else the output is too small and the length
// says how many actions it needs). `fallback`: the fallback chain answered (kCrowdFallback on a
// plan or a proof). `may_pend`: a chain stopped by its per-NPC budget is retried later
// (kCrowdPending); at the last retry level it is no plan. Inline: on the hot path the status is
// known at the call and the call folds to a constant.
[[gnu::always_inline]] constexpr CrowdStatus crowd_status(PlanStatus ps, PlanDetail detail,
                                                          bool fits, bool fallback, bool may_pend) {
  const CrowdStatus by = fallback ? kCrowdFallback : CrowdStatus{0};
  if (ps == PlanStatus::kSolved)
    return static_cast<CrowdStatus>((fits ? kCrowdSolved : kCrowdBufferTooSmall) | by);
  if (ps == PlanStatus::kUnsolvable) return static_cast<CrowdStatus>(kCrowdUnsolvable | by);
  if ((detail & kDetailBadInput) != 0) return kCrowdBadInput;
  if (ps == PlanStatus::kLimitReached && may_pend) return kCrowdPending;
  return kCrowdNoPlan;
}
// An answer as the plan cache and the memos hold it: a plan that did not fit one output is
// still a plan (the next output may have room).
constexpr CrowdStatus cached_status(CrowdStatus st) {
  return (st & kCrowdBufferTooSmall)
             ? static_cast<CrowdStatus>(kCrowdSolved | (st & kCrowdFallback))
             : st;
}
// A held answer output where its plan does not fit: "too small", keeping where it came from.
constexpr CrowdStatus too_small_status(CrowdStatus held) {
  return static_cast<CrowdStatus>(kCrowdBufferTooSmall |
                                  (held & (kCrowdFallback | kCrowdCacheHit)));
}

}  // namespace crowd_detail

// What a memo hit adds to the batch's counters (CrowdStats), by the status it outputs.
enum MemoKind : uint16_t { kKindSolved, kKindSolvedFallback, kKindNoPlan, kKindOther, kKinds };
inline uint16_t memo_kind(CrowdStatus st) {
  if (st & kCrowdSolved) return (st & kCrowdFallback) ? kKindSolvedFallback : kKindSolved;
  return (st & kCrowdNoPlan) ? kKindNoPlan : kKindOther;
}
struct alignas(64) MemoEntry {
  uint64_t s0 = kEmptyS0;      // projected initial state
  uint64_t goal = 0;           // projected goal
  uint16_t tag = kEmptyTag;    // the class
  uint16_t kind = kKindOther;  // memo_kind(status)
  uint8_t length = 0;          // <= kMemoPlan
  uint8_t status = 0;          // CrowdStatus bits 0-7, kCrowdCacheHit included
  uint16_t unused = 0;
  ActionId plan[kMemoPlan] = {};
};
static_assert(sizeof(MemoEntry) == 64);

// An answer that needs no copy: a solved NPC's plan handle, or a status without a plan.
struct alignas(32) HandleMemoEntry {
  uint64_t s0 = kEmptyS0;
  uint64_t goal = 0;
  PlanHandle handle;  // as output: {id, epoch} when solved, else empty
  uint16_t tag = kEmptyTag;
  uint16_t length = 0;
  CrowdStatus status = 0;      // as output on a hit: kCrowdCacheHit included
  uint16_t kind = kKindOther;  // memo_kind(status)
};
static_assert(sizeof(HandleMemoEntry) == 32);

namespace crowd_detail {

// The AVX2 unpacking of a cold NPC's class variables (cold.cpp, unpack_avx2), eight variables a
// group: lane k of the group takes a 32-bit window of the packed word — bits [0, 32), [16, 48)
// or [32, 64), the one that holds the whole field (any field of at most 16 bits fits one) — from
// a vector of the state's and the goal's windows (`s_window`, `g_window`: lanes of that vector),
// shifts it right by `shift` and masks it with `mask` (0 in the lanes past the class's
// variables).
struct alignas(32) ColdGroup {
  int32_t s_window[8];
  int32_t g_window[8];
  int32_t shift[8];
  int32_t mask[8];
};
// The groups of a class with fields `fields` (every field at most 16 bits wide).
std::vector<ColdGroup> cold_groups(std::span<const CrowdLayout::Field> fields);
// The AVX2 cold loop is used: the CPU has AVX2, and TOPOPLAN_CROWD_SIMD is not "0" (the tests
// run the scalar loop that way).
bool cold_avx2_allowed();

// Per worker and class, what a cold NPC of a one-word batch needs (cold.cpp, cold_plan_group), in
// one line: its address is the class id shifted.
struct alignas(64) ColdClass {
  const TopoPlanner* planner = nullptr;
  TopoScratch* scratch = nullptr;              // the worker's (w.scratch never grows after create)
  const CrowdLayout::Field* fields = nullptr;  // per projected variable
  const ColdGroup* groups = nullptr;           // ceil(num_vars / 8), when the worker's cold_avx2
  uint64_t other = 0;                          // word 0: every bit outside the class's fields
  uint64_t other_high = 0;  // word 0: the top bit of each field of the other variables
  int32_t num_vars = 0;
  int32_t max_len = 0;  // ℙ's max_plan_length()
};
static_assert(sizeof(ColdClass) == 64);

// The cold loop serves NPCs in groups of up to kColdGroupNpcs (cold.cpp, serve_block_cold), in
// two passes. Pass 1 runs ℙ for the group's NPCs sorted by class, and within a class by the hash
// of their projected s0 and goal (a counting sort into buckets: the class's low bits, at most 6,
// then the hash's top bits; n/2 to n buckets for n NPCs, at most 2^kColdBucketBits): ℙ's
// branches depend on the class's actions and on the situation, so interleaved classes and
// situations cost mispredictions. Each solved plan goes to the worker's stage. Pass 2 walks the
// group in NPC order and writes each answer exactly as the one-NPC-at-a-time loop did (the plan
// copied to the block's slice, offset, length, status); what it cannot answer inline (bad class,
// a goal the class cannot reach, ℙ gave up or found no plan, no room, no room in the stage) goes
// out of line, in NPC order.
inline constexpr int32_t kColdGroupNpcs = 4096;
inline constexpr int32_t kColdBucketBits = 12;
// The stage's plans start before this action (a class's longest plan and kColdStageSlack fit
// after it): ~128 KB per worker whatever the domain's plan lengths (an NPC that finds the stage
// full is served out of line; Western's 4,096 plans take ~20,000 actions).
inline constexpr uint32_t kColdStageActions = uint32_t{1} << 15;
// A group's NPC in bucket order: its input, copied in the counting sort so that pass 1 reads it
// in order (`j`: its index in the group).
struct ColdNpc {
  uint64_t s;
  uint64_t g;
  uint32_t c;
  uint32_t j;
};
// Where pass 1 left NPC j's answer: `at` into the stage (solved: its plan is stage[at, at +
// len)), or kColdUnsolvable (ℙ's proof; len as ℙ left it), or kColdOther (anything else: served
// out of line, ℙ again included).
struct ColdStaged {
  uint32_t at;
  int32_t len;
};
inline constexpr uint32_t kColdUnsolvable = 0xFFFFFFFF;
inline constexpr uint32_t kColdOther = 0xFFFFFFFE;
// Actions after the stage's last plan slot: pass 2's AVX2 copy loads 8 at a time.
inline constexpr int32_t kColdStageSlack = 8;

// The two passes' pointers (cold.cpp, cold_plan_group and cold_emit), set once per call of
// serve_block_cold; the slice (`pos`, `slice_end`) is the current block's.
struct ColdPass {
  const uint16_t* npc_class;
  const uint64_t* init;
  const uint64_t* goal;
  ValueId* s0_vals;
  ValueId* goal_vals;
  const ColdClass* cold;
  uint32_t num_classes;
  uint64_t low, high;        // word 0: the fields' low bits but their top bit, and top bits
  const uint64_t* key_mask;  // the worker's cold_key_mask
  int32_t class_bits;        // of a bucket
  ColdNpc* sorted;           // the worker's cold_sorted
  ColdStaged* staged;        // the worker's cold_staged (index: NPC - the group's first)
  ActionId* stage;           // the worker's cold_stage
  uint32_t* offsets;
  uint16_t* lengths;
  CrowdStatus* statuses;
  ActionId* actions;
  int64_t slice_end;
  int64_t pos;
  int64_t unsolvable;  // NPCs ℙ proved unsolvable (answered by pass 2)
};

// Every value of the packed state `s` below its variable's domain size, and every value of the
// packed goal `g` too or free (the all-ones field). Out of line: only answers that would be a
// proof about a variable outside the class, and pending NPCs retried (pending.cpp), read it.
[[gnu::noinline, gnu::cold]] inline bool packed_in_range(const CrowdPlanner& planner,
                                                         const uint64_t* s, const uint64_t* g) {
  const Domain& d = planner.domain();
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const CrowdLayout::Field& f = planner.layout().field(v);
    const auto size = static_cast<uint64_t>(d.domain_size(v));
    const uint64_t x = (s[f.word] >> f.shift) & f.mask;
    const uint64_t y = (g[f.word] >> f.shift) & f.mask;
    if (x >= size || (y >= size && y != f.mask)) return false;
  }
  return true;
}

}  // namespace crowd_detail

struct alignas(64) Crowd::Worker {
  std::vector<TopoScratch> scratch;          // per class
  std::vector<ValueId> s0;                   // projected initial state
  std::vector<ValueId> goal;                 // projected goal
  std::vector<uint64_t> key;                 // projected s0 and goal words
  std::vector<ActionId> plan;                // a plan that may not fit the output slice
  std::vector<MemoEntry> memo;               // empty: no memo
  std::vector<HandleMemoEntry> handle_memo;  // as many entries as `memo`
  int32_t memo_shift = 63;                   // set = memo_hash >> memo_shift (sets of 2 entries)
  const PlanCache* memo_cache = nullptr;     // the memo copies this cache's entries of
  uint64_t memo_stamp = 0;                   // ... this stamp
  uint32_t memo_epoch = 0;                   // ... and this epoch
  // The memo loop runs its partial-goal instance (memo.cpp, serve_block_memo).
  bool memo_partial = false;
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
  // The cold loop (cold.cpp, serve_block_cold): per class its record, the AVX2 unpacking's groups.
  std::vector<crowd_detail::ColdClass> cold;         // per class (points into `scratch`)
  std::vector<crowd_detail::ColdGroup> cold_groups;  // every class's, in class order
  bool cold_avx2 = false;  // the cold loop unpacks with AVX2 (every class's fields fit ColdGroup)
  // The cold loop's groups (cold.cpp, serve_block_cold; one-word layouts without cache, else
  // empty): kColdGroupNpcs records each, the projections' key masks, and the plans of a group
  // (kColdStageActions, then the longest plan of any class and kColdStageSlack).
  std::vector<crowd_detail::ColdNpc> cold_sorted;
  std::vector<uint64_t> cold_key_mask;  // per class its key mask, then 0 (any bad class id)
  std::vector<crowd_detail::ColdStaged> cold_staged;
  std::vector<ActionId> cold_stage;
};

// Per class, the pointers and sizes an NPC that goes through ℙ needs, in one record (no
// unique_ptr and vector headers to chase per NPC).
struct Crowd::ClassHot {
  const TopoPlanner* planner = nullptr;
  const CrowdLayout::Field* fields = nullptr;  // per projected variable
  const ActionId* to_global = nullptr;         // projected action → domain action (fallbacks)
  int32_t num_vars = 0;
  int32_t max_len = 0;  // ℙ's max_plan_length()
};

struct Crowd::Job {
  Crowd* crowd = nullptr;
  const CrowdBatch* batch = nullptr;
  const CrowdOutput* out = nullptr;
  int64_t npcs = 0;
  int64_t blocks = 0;
  int64_t chunk = 1;  // blocks claimed at once (with a deadline: the first claim, see task_entry)
  int64_t deadline_ns = 0;  // 0: none
  bool one_word = false;
  bool memo = false;  // the workers' memos are in use
  // With `memo`: the cache's stamp and epoch the memos must hold; a worker whose memo holds
  // others clears it before its first claim (in parallel, while the pool threads wake up; on the
  // caller's thread before enqueue it cost 25-50 µs per batch after an invalidation).
  uint64_t memo_stamp = 0;
  uint32_t memo_epoch = 0;
  // The blocks to serve, split into `ranges` contiguous ranges, each claimed from its own counter
  // (on its own line). Worker w claims from range w % ranges first, then from the others, so its
  // consecutive claims are adjacent blocks: with one shared counter they interleaved with the
  // other workers' and each worker served blocks 2-5 % slower than one thread alone (warm, 2
  // threads; bench/results/2026-11-24-crowd-two-threads.md). With a deadline there is one range, so
  // the served blocks stay a prefix.
  static constexpr int32_t kMaxRanges = 16;
  struct alignas(64) Range {
    std::atomic<int64_t> next{0};  // the next block to claim (past `end`: exhausted)
    int64_t end = 0;
  };
  int32_t ranges = 1;
  Range range[kMaxRanges];
};

namespace crowd_detail {

inline int64_t now_ns() {
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

// The worker memos are 2-way set-associative: a set is two adjacent entries, way 0 the most
// recently filled (a fill moves way 0 to way 1). Their hash is their own (not the shared
// cache's): s0 times a 31-bit constant (an immediate), xor goal and class, times a 64-bit
// constant (one register in the memo loop); the set is its top bits, which depend on every
// input bit; memo_shift = 64 - log2(sets).
inline uint64_t memo_hash(uint32_t npc_class, uint64_t s0, uint64_t goal) {
  return ((s0 * 0x27D4EB2Full) ^ goal ^ npc_class) * 0x9E3779B97F4A7C15ull;
}
inline uint64_t memo_set(uint64_t hash, int32_t memo_shift) {
  return hash >> memo_shift;
}
// The way of `set` (two entries) holding the key, or nullptr.
template <class Entry>
inline Entry* memo_find(Entry* set, uint32_t npc_class, uint64_t s0, uint64_t goal) {
  for (int32_t way = 0; way < 2; ++way)
    if (set[way].s0 == s0 && set[way].goal == goal && set[way].tag == npc_class) return &set[way];
  return nullptr;
}

// The cache key of an NPC of class c — its s0 and goal words masked to the class's variables
// (`key_mask`, per word) — into key[0, 2 words), and the key's hash.
template <bool kOneWord>
inline uint64_t project_key(uint32_t c, const uint64_t* s, const uint64_t* g,
                            const uint64_t* key_mask, int32_t words, uint64_t* key) {
  if constexpr (kOneWord) {
    key[0] = s[0] & key_mask[0];
    key[1] = g[0] & key_mask[0];
    return hash_one_word(c, key[0], key[1]);
  } else {
    for (int32_t k = 0; k < words; ++k) {
      key[k] = s[k] & key_mask[k];
      key[words + k] = g[k] & key_mask[k];
    }
    return words == 1 ? hash_one_word(c, key[0], key[1])
                      : hash_key(static_cast<int32_t>(c), key, 2 * words);
  }
}

// The class's variables of an NPC, straight from its packed words (`fields`: per projected
// variable; a goal field of all ones = free, kUndefined).
template <bool kOneWord>
inline void unpack_projected(const CrowdLayout::Field* fields, int32_t num_vars, const uint64_t* s,
                             const uint64_t* g, ValueId* s0, ValueId* goal) {
  const uint64_t s_word = s[0];
  const uint64_t g_word = g[0];
#pragma GCC unroll 2
  for (int32_t k = 0; k < num_vars; ++k) {
    const CrowdLayout::Field f = fields[k];
    const uint64_t sw = kOneWord ? s_word : s[f.word];
    const uint64_t gw = kOneWord ? g_word : g[f.word];
    s0[k] = static_cast<ValueId>((sw >> f.shift) & f.mask);
    // The goal field plus one, masked, minus one: all ones (free) wraps to 0, then -1 =
    // kUndefined; any other value comes back unchanged (no compare and select).
    static_assert(kUndefined == -1);
    goal[k] = static_cast<ValueId>(((gw >> f.shift) + 1) & f.mask) - 1;
  }
}

// unpack_projected for one word, unrolled: no loop counter per variable (a jump into a run of
// eight, after runs of eight for a class of more variables), constant offsets from three
// pointers.
[[gnu::always_inline]] inline void unpack_one_word(const CrowdLayout::Field* f, int32_t num_vars,
                                                   uint64_t s, uint64_t g, ValueId* s0,
                                                   ValueId* goal) {
  static_assert(kUndefined == -1);
  auto one = [&](int32_t k) __attribute__((always_inline)) {
    const int32_t sh = f[k].shift;
    const uint64_t mask = f[k].mask;
    s0[k] = static_cast<ValueId>((s >> sh) & mask);
    goal[k] = static_cast<ValueId>(((g >> sh) + 1) & mask) - 1;  // all ones (free): -1
  };
  for (; num_vars > 8; num_vars -= 8, f += 8, s0 += 8, goal += 8)
    for (int32_t k = 0; k < 8; ++k) one(k);
  switch (num_vars) {
    case 8:
      one(7);
      [[fallthrough]];
    case 7:
      one(6);
      [[fallthrough]];
    case 6:
      one(5);
      [[fallthrough]];
    case 5:
      one(4);
      [[fallthrough]];
    case 4:
      one(3);
      [[fallthrough]];
    case 3:
      one(2);
      [[fallthrough]];
    case 2:
      one(1);
      [[fallthrough]];
    case 1:
      one(0);
      [[fallthrough]];
    default:
      break;
  }
}

}  // namespace crowd_detail
}  // namespace topoplan
