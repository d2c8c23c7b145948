// topoplan — crowds: plans for many NPCs per call (batch, host threads, plan cache, frame budget).
//
// Design
// ------
// The papers' headline (Prévost et al. 2023 §6: 3,000,000 plans in 1.67 ms on 8 cores; Prévost et
// al., SAS as Topological Sorting: about two million NPCs per millisecond) is about throughput, not
// about one plan. docs/crowds.md says what those figures mean per core and where ours stand. The
// pieces, split by lifetime:
//   * CrowdLayout — the fixed bit layout of an NPC's initial state and goal: one field of
//     bit_width(|D_v|) bits per variable (fields never straddle a 64-bit word), so that an all-ones
//     field can mean "free" in a goal. Western: 1 word per state, 18 bytes of input per NPC.
//   * CrowdPlanner — immutable, one per Domain: per NPC class a TopoPlanner (ℙ) over the
//     *projection* of the domain on the variables that class can change or read. The plan ℙ finds
//     on the projection is the plan it finds on the whole domain (same actions, same order; tests/
//     crowd checks it), and a projected key makes NPCs that differ only in variables their class
//     never touches share one cache entry. Share it between threads.
//   * PlanCache — bounded memo of (class, projected s0, projected goal) → (status, plan), 2-way
//     set-associative with a victim bit per set; lock-free reads (a seqlock per entry), try-lock
//     writes (a busy entry is simply not filled). Thread-safe: several Crowds may share one.
//     A planner stamp invalidates it when the domain changes.
//   * Crowd — per calling thread: per-worker scratch (one TopoScratch per class), created up front;
//     plan() and plan_frame() allocate nothing while ℙ answers (the fallback chain below may).
//     Threads come from the host through enqueue/finish callbacks (Box2D's enqueueTask/finishTask);
//     CrowdThreadPool is a built-in default the user creates. Without callbacks everything runs on
//     the calling thread.
// References: docs/references.md.
//
// Planner chain. Every NPC goes through ℙ first (the hot path above). An NPC ℙ gives up on
// (kGaveUp: outside ℙ's reach, e.g. a partial goal a prevail reads elsewhere, or an action
// needed twice) goes to its class's chain — CrowdDef::class_fallback by class name, else
// CrowdDef::fallback — a list of hot planners by registry name (planner.h; default: "astar"),
// each created per class on the class's projected domain. Each fallback
// search first runs with a per-NPC budget of CrowdDef::fallback_budget expansions. When every
// fallback hits that budget, the NPC is PENDING (kCrowdPending, length 0), and is retried once,
// with budgets growing ×4 per slice (fallback_budget·4, ·16, ... up to CrowdDef::fallback_limits),
// by the next plan_frame() calls (before the cursor moves on, on the calling thread; a slice starts
// only if its expansions, at the rate measured on earlier slices, fit in what is left of the
// frame, and the first slice of a call always runs), or by plan() itself before it returns.
// Its plan then goes after the plans of its block, in its block's slice (retries run in NPC
// order). A* is deterministic and optimal, so a retried search returns the plan an unbounded one
// would: the output stays identical for any thread count, and plan() never leaves an NPC pending.
// An NPC still unanswered under fallback_limits is kCrowdNoPlan (no plan, no proof). The fallback
// limits carry no time limit (time would make the output depend on load).
//
// Plan handles. With CrowdOutput::handles (and a cache), a solved NPC gets a PlanHandle — an id
// into the PlanCache's plan table, plus the cache epoch — instead of a copy of its plan: a warm
// NPC costs a lookup and stores of its handle, length and status (not its offset). Every solved
// plan the crowd meets (cache hit, ℙ or fallback answer, retried pending NPC) is put in the table
// once; cache entries and worker memos keep its id. Lifetime rule: the table is immutable and
// append-only within an epoch; a handle stays valid, and PlanCache::resolve / Crowd::resolve return
// its plan, until the cache is invalidated (invalidate(), or a batch with a planner of another
// stamp). Afterwards resolve returns nullopt (stale: the epoch differs). resolve may run
// concurrently with batches (their new plans go to fresh table space) but not with an invalidation.
// When the table is full, a new plan gets no handle (epoch 0) and is copied to `actions` as without
// handles.
//
// Work is cut into blocks of CrowdDef::npcs_per_block NPCs (in priority order). Block b owns the
// slice [⌊C·first/N⌋, ⌊C·end/N⌋) of the caller's action buffer of capacity C, and packs the plans
// of its NPCs there in order. Block boundaries do not depend on the thread count, so the output —
// offsets included — is identical for any number of threads, with or without the cache.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/result.h"
#include "topoplan/runtime/state.h"
#include "topoplan/runtime/topo.h"

namespace topoplan {

// ---------------------------------------------------------------------------------------------
// Per-NPC status: detail bits, as Detour's dtStatus. 0 means "not served" (budget ran out).
using CrowdStatus = uint16_t;
inline constexpr CrowdStatus kCrowdSolved = 1u << 0;  // actions[offset, offset+length) is a plan
inline constexpr CrowdStatus kCrowdUnsolvable = 1u << 1;      // ℙ proved no plan exists
inline constexpr CrowdStatus kCrowdNoPlan = 1u << 2;          // no plan, no proof (ℙ gave up)
inline constexpr CrowdStatus kCrowdBufferTooSmall = 1u << 3;  // length = actions needed; raise
                                                              // the action buffer's capacity
// Class id out of range, or a value out of range on a variable the crowd reads for this NPC:
// one its class's actions change, or one its goal asks to change. The other fields of a packed
// state are not read, so not checked: a state packed by CrowdLayout::pack_state is in range.
inline constexpr CrowdStatus kCrowdBadInput = 1u << 4;
inline constexpr CrowdStatus kCrowdCacheHit = 1u << 5;  // answered from the PlanCache
inline constexpr CrowdStatus kCrowdPending = 1u << 6;   // fallback over its per-NPC budget: retried
                                                        // by the next plan_frame()
inline constexpr CrowdStatus kCrowdFallback = 1u << 7;  // with kCrowdSolved / kCrowdUnsolvable:
                                                        // answered by a fallback planner, not ℙ

// ---------------------------------------------------------------------------------------------
// Fixed packed layout of states and goals.
class CrowdLayout {
 public:
  CrowdLayout() = default;
  explicit CrowdLayout(const Domain& domain);

  // 64-bit words per packed state, and per packed goal (the same layout).
  [[nodiscard]] int32_t words() const { return words_; }
  [[nodiscard]] int32_t num_variables() const { return fields_.num_fields(); }
  // Bytes of batch input per NPC: class id + state + goal.
  [[nodiscard]] int32_t bytes_per_npc() const {
    return static_cast<int32_t>(sizeof(uint16_t)) + 16 * words_;
  }

  // `state` total (values in range, asserted); writes words() words.
  void pack_state(std::span<const ValueId> state, uint64_t* packed) const;
  // `goal` partial: kUndefined is stored as the all-ones field.
  void pack_goal(std::span<const ValueId> goal, uint64_t* packed) const;
  void unpack_state(const uint64_t* packed, std::span<ValueId> state) const;
  void unpack_goal(const uint64_t* packed, std::span<ValueId> goal) const;

  using Field = BitFields::Field;  // mask: unshifted; all ones = free (goals)
  [[nodiscard]] const Field& field(VarId v) const { return fields_.field(v); }

 private:
  BitFields fields_;  // |D_v| + 1 codes per variable
  int32_t words_ = 0;
};

// ---------------------------------------------------------------------------------------------
// The compiled, immutable crowd planner of one Domain.
class CrowdPlanner {
 public:
  // NPC class ids of a batch: the domain's classes 0 .. num_classes()-1, or, for a domain
  // without classes, the single class 0 = every action. Any domain: a class whose actions are
  // not all unary and post-unique (ℙ's requirement) gets ℙ on a part of them (topo_part), and
  // the Crowd's planner chain answers what ℙ does not.
  [[nodiscard]] static Result<CrowdPlanner> create(const Domain& domain);

  CrowdPlanner() = default;
  CrowdPlanner(CrowdPlanner&&) noexcept = default;
  CrowdPlanner& operator=(CrowdPlanner&&) noexcept = default;

  [[nodiscard]] const Domain& domain() const { return *domain_; }
  [[nodiscard]] const CrowdLayout& layout() const { return layout_; }
  [[nodiscard]] int32_t num_classes() const { return static_cast<int32_t>(classes_.size()); }
  // Longest plan any class can return (actions available to the class).
  [[nodiscard]] int32_t max_plan_length() const { return max_plan_length_; }
  // Variables class `c` can change or read (the projection).
  [[nodiscard]] std::span<const VarId> class_variables(int32_t c) const {
    return classes_[static_cast<size_t>(c)]->vars;
  }
  // ℙ takes only part of class `c`: its unary actions, and of several that set one variable to
  // one value only the cheapest (lowest id among equals). ℙ's plans there use those actions
  // only (valid plans, not always the cheapest of the class), and its failures are no proofs: the
  // NPCs it does not solve go to the class's chain (CrowdDef::fallback).
  [[nodiscard]] bool topo_part(int32_t c) const {
    return classes_[static_cast<size_t>(c)]->topo_part;
  }
  // Unique per created planner: a cache filled for another stamp is invalidated.
  [[nodiscard]] uint64_t stamp() const { return stamp_; }

 private:
  friend class Crowd;
  struct ClassPlan {
    Domain projected;                 // the projection (variables and actions renumbered)
    Domain wide;                      // its variables, every domain action at its own id
    TopoPlanner planner;              // ℙ on `wide`, masked to the class (structural class: full)
    std::vector<VarId> vars;          // projected var → domain var
    std::vector<ActionId> to_global;  // projected action → domain action
    std::vector<CrowdLayout::Field> fields;  // projected var → its field in the packed layout
    std::vector<uint64_t> key_mask;          // per word: bits of the class's variables
    std::vector<uint64_t> other_high;  // per word: top bit of each field of the other variables
    CompiledActionSet set;             // every action of `projected` (the fallback chain's)
    bool topo_part = false;            // ℙ has part of the class's actions (topo_part())
  };
  const Domain* domain_ = nullptr;
  CrowdLayout layout_;
  std::vector<std::unique_ptr<ClassPlan>> classes_;  // stable addresses (planner → projected)
  std::vector<uint64_t> field_low_;   // per word: the low bits of every field but its top bit
  std::vector<uint64_t> field_high_;  // per word: the top bit of every field
  int32_t max_plan_length_ = 0;
  int32_t max_class_vars_ = 0;
  uint64_t stamp_ = 0;
};

// ---------------------------------------------------------------------------------------------
// A plan in a PlanCache's plan table (see "Plan handles" above). epoch 0: no handle.
struct PlanHandle {
  uint32_t id = 0;     // position of the plan in the table
  uint32_t epoch = 0;  // the cache epoch the plan belongs to
  [[nodiscard]] bool empty() const { return epoch == 0; }
  friend bool operator==(const PlanHandle&, const PlanHandle&) = default;
};

// Bounded, thread-safe plan memo.
struct PlanCacheDef {
  int32_t capacity = 1 << 16;    // entries (rounded up to a power of two, at least 2)
  int32_t max_plan_length = 16;  // longer plans are not cached (at most 255)
  // Action ids (plus one per plan) the plan table holds per epoch, in [0, 2^30]; 0: no table
  // (no handles are given).
  int32_t table_actions = 1 << 19;
};

struct PlanCacheStats {
  int64_t hits = 0;
  int64_t misses = 0;
  int64_t inserts = 0;
  int64_t evictions = 0;      // an occupied entry of the current stamp was replaced
  int64_t invalidations = 0;  // whole-cache invalidations (stamp change or invalidate())
  int64_t capacity = 0;       // entries
  int64_t bytes = 0;          // memory held
  int64_t table_used = 0;     // plan table slots used in this epoch
  int64_t table_capacity = 0;
};

class PlanCache {
 public:
  // Allocates the entries, sized for `planner`'s layout, up front. A planner with a larger
  // layout bound later (a new domain) makes the first batch reallocate them.
  explicit PlanCache(const CrowdPlanner& planner, const PlanCacheDef& def = {});
  PlanCache(const PlanCache&) = delete;
  PlanCache& operator=(const PlanCache&) = delete;

  // Checks the def (one-line Error naming the field and its range), then constructs.
  [[nodiscard]] static Result<std::unique_ptr<PlanCache>> create(const CrowdPlanner& planner,
                                                                 const PlanCacheDef& def = {});

  // Drops every entry and the plan table in O(1) (an epoch bump): every handle given before is
  // stale. Not concurrent with batches using the cache, nor with resolve().
  void invalidate();
  [[nodiscard]] PlanCacheStats stats() const;
  // The current epoch (handles of another epoch are stale).
  [[nodiscard]] uint32_t epoch() const { return epoch_; }
  // The plan of a handle of this epoch; nullopt for an empty or stale handle, and for any id
  // that is not the start of a plan stored in this epoch (a forged handle).
  [[nodiscard]] std::optional<std::span<const ActionId>> resolve(PlanHandle handle) const;

  static constexpr uint32_t kNoHandle = 0xFFFFFFFFu;  // internal: "no table id"

 private:
  friend class Crowd;
  // Ensures entries belong to `planner` (invalidates on a new stamp) and sizes the entries.
  void bind(const CrowdPlanner& planner);
  // On a hit returns true, the entry's table id in *handle (kNoHandle: none) and, unless
  // `want_handle` and the entry has one, writes the plan to dst when it fits in `capacity`.
  bool lookup(uint64_t hash, int32_t npc_class, const uint64_t* key, ActionId* dst,
              int32_t capacity, int32_t* len, CrowdStatus* status, bool want_handle,
              uint32_t* handle);
  // 0: not stored (too long, or the entry was busy), 1: stored, 2: stored over a live entry.
  int32_t insert(uint64_t hash, int32_t npc_class, const uint64_t* key, const ActionId* plan,
                 int32_t len, CrowdStatus status, uint32_t handle);
  // Appends a plan to the table: its id, or kNoHandle when the table is full. Thread-safe.
  uint32_t store(const ActionId* plan, int32_t len);
  void add_stats(int64_t hits, int64_t misses, int64_t inserts, int64_t evictions);
  [[nodiscard]] uint64_t set_of(uint64_t hash) const;

  int32_t max_len_ = 0;
  int32_t key_words_ = 0;    // 2 * layout words (the class is in the meta word)
  int32_t entry_words_ = 0;  // seq, meta, key, plan (4 action ids of 16 bits per word)
  uint64_t set_mask_ = 0;    // sets - 1 (2 ways per set)
  size_t requested_entries_ = 0;
  bool enabled_ = false;  // false when action ids do not fit in 16 bits
  uint64_t stamp_ = 0;
  uint32_t epoch_ = 1;
  std::unique_ptr<std::atomic<uint64_t>[]> words_;
  std::unique_ptr<std::atomic<uint8_t>[]> victim_;  // per set: the way to replace next
  // The plan table: per plan its length then its action ids, appended from table_next_ (slot 0
  // is the empty plan). Plain memory: a plan is written once before its id is published (by a
  // release store into an entry, or through the batch's output), and never again in the epoch.
  std::unique_ptr<ActionId[]> table_;
  // One bit per table slot, set (release) once the plan starting there is written: resolve()
  // accepts only these ids, so a handle cannot point into the middle of a plan or past the end.
  std::unique_ptr<std::atomic<uint64_t>[]> starts_;
  uint32_t table_capacity_ = 0;
  std::atomic<uint32_t> table_next_{1};
  size_t num_words_ = 0;
  std::atomic<int64_t> hits_{0}, misses_{0}, inserts_{0}, evictions_{0};
  int64_t invalidations_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Task-system hook (Box2D's b2TaskCallback / enqueueTask / finishTask).
// The host runs task(begin, end, worker, task_context) for ranges covering [0, item_count),
// each range on one of its workers (0 <= worker < CrowdDef::worker_count, no two concurrent
// calls with the same worker index).
using CrowdTaskFn = void(int32_t begin, int32_t end, int32_t worker, void* task_context);
// Returns a handle passed to finish, or nullptr when it already ran the task to completion.
using CrowdEnqueueFn = void*(CrowdTaskFn* task, int32_t item_count, int32_t min_range,
                             void* task_context, void* user_context);
// Waits until every range of the task has run.
using CrowdFinishFn = void(void* user_task, void* user_context);

struct CrowdDef {
  int32_t worker_count = 1;                // distinct worker indices the host may use (>= 1)
  CrowdEnqueueFn* enqueue_task = nullptr;  // nullptr: run on the calling thread
  CrowdFinishFn* finish_task = nullptr;
  void* user_task_context = nullptr;  // passed back to enqueue_task / finish_task
  int32_t npcs_per_block = 64;        // unit of work and output slicing
  PlanCache* cache = nullptr;         // optional, shared, owned by the caller
  // With a cache and a one-word layout: per worker, 2-way set-associative memos of this many
  // entries (rounded up to a power of two, at least 4; 0: none) in front of the shared cache — one
  // of 64-byte entries for copying batches (plans of at most 10 actions), one of 32-byte entries
  // for handle batches (an answer without a plan, or a plan handle). They hold copies of the
  // cache's answers, need no atomics, and are dropped whenever the cache is invalidated. Only
  // touched entries occupy CPU cache lines.
  int32_t worker_memo_entries = 2048;
  // Planner chain after ℙ (registry names, planner.h), tried in order when ℙ gives up; empty:
  // ℙ only (an NPC ℙ gives up on is kCrowdNoPlan).
  std::vector<std::string> fallback = {"astar"};
  // Per NPC class (by the domain's class name) its own chain instead of `fallback`, for classes
  // whose searches need another planner or none; an empty chain: ℙ only for that class.
  // Classes not listed use `fallback`. An unknown class name fails create().
  std::vector<std::pair<std::string, std::vector<std::string>>> class_fallback;
  int64_t fallback_budget = 2000;  // expansions per NPC per fallback in the first attempt
  // The retry of a pending NPC (no time limit: see "Planner chain" above).
  SearchLimits fallback_limits{500'000, int64_t{256} << 20, 0.0};
};

// A planner chain written as text, the syntax the CLI (--fallback, --class-fallback), the C API
// (topoplan_crowd_chain) and Python share: registry names separated by commas ("astar-back,astar");
// "none" is the empty chain (ℙ only). Every name is kept, empty ones too ("" is {""}, ",," is
// {"", "", ""}), and checked by Crowd::create, which refuses an empty or unknown name.
[[nodiscard]] std::vector<std::string> parse_planner_chain(std::string_view text);

// Structure-of-arrays input for N NPCs, in priority order (most urgent first).
struct CrowdBatch {
  std::span<const uint16_t> npc_class;  // N class ids
  std::span<const uint64_t> init;       // N * layout().words(): packed total initial states
  std::span<const uint64_t> goal;       // N * layout().words(): packed (partial) goals
};

// Caller-owned output. Plans go into one flat buffer; NPC i's plan is
// actions[offset[i], offset[i] + length[i]) when status[i] has kCrowdSolved.
struct CrowdOutput {
  std::span<ActionId> actions;    // capacity C: NPC slices of C/N actions on average
  std::span<uint32_t> offset;     // N
  std::span<uint16_t> length;     // N (for kCrowdBufferTooSmall: the actions needed)
  std::span<CrowdStatus> status;  // N; 0 = not served (frame budget)
  // Optional (empty, or N; needs CrowdDef::cache): a solved NPC with a non-empty handle has its
  // plan in the cache's plan table (Crowd::resolve), not in `actions` (it uses no slice space).
  // An empty handle: the plan, if any, is in `actions` as above. With handles, offset[i] is
  // written only where it is meaningful — for an NPC solved with an empty handle — and may be
  // left as it was for the others (a warm NPC answered from the worker memo writes its handle,
  // length and status only).
  std::span<PlanHandle> handles = {};
};

struct CrowdStats {
  int64_t served = 0;   // NPCs answered by this call
  int64_t planned = 0;  // ... by running ℙ (the rest came from the cache)
  int64_t cache_hits = 0;
  int64_t solved = 0;
  int64_t buffer_too_small = 0;
  int64_t solved_fallback = 0;  // of `solved`: plans of a fallback planner (cache hits included)
  int64_t resumed = 0;          // pending NPCs retried by this call (counted in served before)
  int64_t no_plan = 0;          // NPCs answered kCrowdNoPlan by this call
  int64_t unsolvable = 0;       // NPCs answered kCrowdUnsolvable by this call (ℙ or a fallback)
  int64_t pending = 0;          // NPCs left pending at the end of the call (plan_frame only)
  int64_t retry_slices = 0;     // fallback searches run on pending NPCs by this call
  bool complete = false;        // every NPC of the batch has been served and none is pending
};

// Resumable position of plan_frame() in a batch.
struct CrowdCursor {
  int64_t next = 0;  // first NPC not yet served
};

class Crowd {
 public:
  // Creates the per-worker scratch (allocates; do it once). Fails on bad def values.
  [[nodiscard]] static Result<Crowd> create(const CrowdPlanner& planner, const CrowdDef& def = {});

  Crowd() = default;
  Crowd(Crowd&&) noexcept;
  Crowd& operator=(Crowd&&) noexcept;
  ~Crowd();

  // Plans every NPC of the batch. Sizes are asserted (programmer errors). No allocation.
  CrowdStats plan(const CrowdBatch& batch, const CrowdOutput& out);
  // Plans from cursor->next, in order, until `budget_seconds` have passed (checked after each
  // claim of blocks — one block, or as many as take about 10 µs at the rate measured, never more
  // than a quarter of the time left — and per retry slice) or the batch is done; advances the
  // cursor. Results equal plan()'s for the NPCs served (a pending NPC once retried). First retries
  // the NPCs left pending by the previous calls ("Pending NPCs" above). A cursor at 0 starts a new
  // pass only once no NPC of the previous pass is pending: until then the call only retries them
  // (their answers go to `out` as the previous pass's) and leaves the cursor at 0. One pass at a
  // time per Crowd. plan() starts afresh: it drops NPCs a plan_frame pass left pending (as
  // discard_pending()); so does plan_frame() given a batch of another size than the pass's
  // (pending_batch_size(): the pending NPCs are indices into that batch, and the C API and Python
  // refuse such a call instead). A pending NPC whose class or packed values the batch no longer
  // holds in range (the host rewrote it between frames) is answered kCrowdBadInput.
  CrowdStats plan_frame(const CrowdBatch& batch, const CrowdOutput& out, CrowdCursor* cursor,
                        double budget_seconds = 1.67e-3);
  // NPCs left pending (plan_frame), in NPC order; their status in the output is kCrowdPending.
  [[nodiscard]] int64_t pending() const { return static_cast<int64_t>(pending_.size()); }
  // The index-th pending NPC (index in [0, pending())).
  [[nodiscard]] int64_t pending_npc(int64_t index) const {
    return pending_[static_cast<size_t>(index)].npc;
  }
  // Forgets the pending NPCs (they stay kCrowdPending in the output they were served to).
  void discard_pending() { pending_.clear(); }
  // The size of the batch whose pass left the pending NPCs (meaningful while pending() > 0).
  [[nodiscard]] int64_t pending_batch_size() const { return pending_batch_size_; }

  [[nodiscard]] const CrowdDef& def() const { return def_; }
  // The plan of a handle from this crowd's cache (PlanCache::resolve); nullopt without a cache.
  [[nodiscard]] std::optional<std::span<const ActionId>> resolve(PlanHandle handle) const;

 private:
  struct Worker;
  struct Job;
  struct ClassHot;
  struct Block;
  // create(), in parts: the fallback chain ("" or the error), one worker's buffers, the cold
  // loop's class records.
  std::string make_fallbacks(const CrowdPlanner& planner, const CrowdDef& def);
  void make_worker(Worker& w) const;
  void make_cold_classes();
  CrowdStats run(const CrowdBatch& batch, const CrowdOutput& out, int64_t first, int64_t deadline);
  // Retries the pending NPCs in order, in slices of growing budget, until `deadline_ns` (0:
  // none; at least one slice runs); adds to `stats`.
  void resume_pending(const CrowdBatch& batch, const CrowdOutput& out, int64_t deadline_ns,
                      CrowdStats& stats);
  // The fallback chain for one NPC (projected s0 / goal); `level` < 0: the per-NPC budget, else
  // retry level `level` (retry_budget_). Returns kSolved (plan in `plan`, projected ids mapped
  // to the domain's), kUnsolvable, kLimitReached (every fallback over its limit) or kGaveUp.
  PlanStatus run_fallback(std::vector<std::unique_ptr<PlanScratch>>& scratch, uint32_t c,
                          int32_t level, std::span<const ValueId> s0, std::span<const ValueId> goal,
                          std::vector<ActionId>& plan, int32_t* len) const;
  static void task_entry(int32_t begin, int32_t end, int32_t worker, void* context);
  template <bool kOneWord, bool kCache, bool kHandles>
  void serve_block(Worker& w, const Job& job, int64_t block) const;
  // Blocks [first_block, end_block) of a one-word batch with the worker memos: the memo hits
  // inline, the rest through serve_npc.
  // kShift: the memo's set shift as a constant (the default memo size), 0: Block::memo_shift.
  template <bool kHandles, int32_t kShift>
  void serve_block_memo(Worker& w, const Job& job, int64_t first_block, int64_t end_block) const;
  template <bool kOneWord, bool kCache, bool kHandles>
  void begin_block(Worker& w, const Job& job, int64_t block, Block& b) const;
  void set_range(const Worker& w, const Job& job, int64_t block, Block& b) const;
  void end_block(Worker& w, const Block& b, int64_t served) const;
  // One NPC, every path (bad input, memo, shared cache, ℙ, the fallback chain).
  template <bool kOneWord, bool kCache, bool kHandles>
  void serve_npc(Worker& w, Block& b, int64_t i) const;
  template <bool kHandles>
  void serve_memo_miss(Worker& w, Block& b, int64_t i) const;
  // Blocks [first_block, end_block) of a one-word batch without cache: ℙ in loops of their own,
  // NPCs grouped by class; the rare cases out of line.
  void serve_block_cold(Worker& w, const Job& job, int64_t first_block,
                        int64_t last_block_end) const;
  // Out of line: an NPC the cold loop's passes leave to serve_npc<true, false, false>.
  void serve_cold_other(Worker& w, Block& b, int64_t i) const;
  template <bool kHandles>
  void write_answer(Block& b, int64_t i, CrowdStatus st, int32_t len, uint32_t id) const;
  template <bool kOneWord, bool kCache, bool kHandles>
  CrowdStatus plan_npc(Worker& w, Block& b, int64_t i, uint32_t c, const uint64_t* s,
                       const uint64_t* g, int32_t room, int32_t* len, uint32_t* id,
                       const ActionId** plan) const;
  // What ℙ's answer `po` becomes (plan_npc): the plan (at `plan`, in the slice when
  // `in_place`) copied or "too small", a proof, bad input, or the class's fallback chain.
  template <bool kCache, bool kHandles>
  CrowdStatus answer_topo(Worker& w, Block& b, int64_t i, uint32_t c, const PlanOutcome& po,
                          ActionId* plan, bool in_place, int32_t room, std::span<const ValueId> s0,
                          std::span<const ValueId> goal, int32_t* len, uint32_t* id,
                          const ActionId** plan_out) const;
  template <bool kCache, bool kHandles>
  CrowdStatus serve_fallback(Worker& w, int64_t i, uint32_t c, std::span<const ValueId> s0,
                             std::span<const ValueId> goal, ActionId* slot, int32_t room,
                             int32_t* len, uint32_t* id) const;

  const CrowdPlanner* planner_ = nullptr;
  CrowdDef def_;
  std::vector<Worker> workers_;
  std::vector<ClassHot> hot_;         // per class: what an NPC planned by ℙ needs, flat
  std::vector<uint64_t> key_mask_;    // per class, per word: bits of the class's variables
  std::vector<uint64_t> other_high_;  // per class, per word: top bits of the other variables
  std::vector<uint8_t> topo_part_;    // per class: CrowdPlanner::topo_part
  // With the worker memos (one-word layouts): key_mask_ for every 16-bit class id, 0 beyond the
  // classes, so that the memo loop needs no class range check (memo.cpp, serve_block_memo).
  std::vector<uint64_t> memo_mask_;
  // Fallback chain: per class, per stage (class-major), its planner; a first attempt runs it
  // within the per-NPC budget, a retry slice within its level's (limits per call, planner.h).
  std::vector<std::unique_ptr<HotPlanner>> fallback_;
  std::vector<int64_t> retry_budget_;  // per level: expansions, ×4 per level up to the limits'
  std::vector<int32_t> chain_begin_;   // per class + 1: its first fallback slot (class-major)
  [[nodiscard]] int32_t stages(uint32_t c) const { return chain_begin_[c + 1] - chain_begin_[c]; }
  double ns_per_expansion_ = 0;  // measured on retry slices that hit their budget (0: none yet)
  std::vector<std::unique_ptr<PlanScratch>> resume_scratch_;  // fallback_'s, created on first use
  std::vector<ActionId> resume_plan_;
  std::vector<ValueId> resume_s0_, resume_goal_;
  struct Pending {
    int64_t npc;
    int64_t tail;       // first free action of the NPC's block slice
    int32_t level = 0;  // the retry level of its next slice
  };
  std::vector<Pending> pending_;    // ascending NPC after each run
  int64_t pending_batch_size_ = 0;  // the batch size of the pass pending_ belongs to
};

// ---------------------------------------------------------------------------------------------
// A built-in task system: `threads` - 1 std::threads created here (the caller's thread is the
// last worker, in finish). Never created behind the user's back.
class CrowdThreadPool {
 public:
  explicit CrowdThreadPool(int32_t threads);
  ~CrowdThreadPool();
  CrowdThreadPool(const CrowdThreadPool&) = delete;
  CrowdThreadPool& operator=(const CrowdThreadPool&) = delete;

  [[nodiscard]] int32_t threads() const { return threads_; }
  // Sets worker_count, enqueue_task, finish_task and user_task_context of `def`.
  void install(CrowdDef& def);

 private:
  static void* enqueue(CrowdTaskFn* task, int32_t item_count, int32_t min_range, void* task_context,
                       void* user_context);
  static void finish(void* user_task, void* user_context);
  void worker_loop(int32_t index);
  void run_items(int32_t worker);

  int32_t threads_ = 1;
  std::vector<std::thread> pool_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  uint64_t generation_ = 0;  // bumped per task (guarded by mutex_)
  bool stop_ = false;
  CrowdTaskFn* task_ = nullptr;
  void* task_context_ = nullptr;
  int32_t item_count_ = 0;
  std::atomic<int32_t> next_item_{0};
  // Pool threads still inside the current task: set under mutex_, decremented under mutex_ (with
  // done_'s notify), read without it by finish()'s short spin.
  std::atomic<int32_t> running_{0};
};

}  // namespace topoplan
