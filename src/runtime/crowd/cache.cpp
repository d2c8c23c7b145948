// PlanCache: 2-way set-associative table of fixed-size entries, one seqlock per entry.
//
// Entry words: [0] sequence (odd while a writer fills it), [1] meta = epoch << 32 | class << 16 |
// length << 8 | status, [2] the plan's id in the plan table (kNoHandle: none), [3, 3 + 2W) the
// projected s0 and goal, then the plan as 16-bit action ids, four per word. Readers never write the
// entry: they copy it and re-read the sequence; a torn read is a miss. Writers take the entry with
// one CAS on the sequence and give up if it is busy.
//
// Every word is a std::atomic, and the ordering is carried by the accesses themselves, not by
// fences (ThreadSanitizer does not model std::atomic_thread_fence, and GCC refuses it under
// -fsanitize=thread): the writer stores each word with release, so a reader whose acquire load
// sees any new word also sees the odd sequence the writer set before it, and its final re-read
// of the sequence fails; the reader's acquire loads keep that re-read after the copy. On x86
// acquire loads and release stores are plain moves, so this costs nothing over relaxed.
#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <string>

#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/limits.h"

namespace topoplan {

namespace {
constexpr int32_t kKey = 3;  // first key word of an entry
}  // namespace

Result<std::unique_ptr<PlanCache>> PlanCache::create(const CrowdPlanner& planner,
                                                     const PlanCacheDef& def) {
  // The table of limits (limits.h): the C API and Python report these words.
  if (auto e = check_limit(limits::kCacheCapacity, int64_t{def.capacity}, "plan cache")) return *e;
  if (auto e = check_limit(limits::kCacheMaxPlanLength, int64_t{def.max_plan_length}, "plan cache"))
    return *e;
  if (auto e = check_limit(limits::kCacheTableActions, int64_t{def.table_actions}, "plan cache"))
    return *e;
  return std::make_unique<PlanCache>(planner, def);
}

// The set of a hash: its top bits (the bits of a product that depend on every input bit).
inline uint64_t PlanCache::set_of(uint64_t hash) const {
  return ((hash >> 32) * (set_mask_ + 1)) >> 32;
}

PlanCache::PlanCache(const CrowdPlanner& planner, const PlanCacheDef& def) {
  assert(def.capacity >= 0 && def.max_plan_length >= 0 && def.max_plan_length <= 255);
  assert(def.table_actions >= 0 && def.table_actions <= (1 << 30));
  const auto entries = std::bit_ceil(static_cast<uint64_t>(std::clamp(def.capacity, 2, 1 << 30)));
  set_mask_ = entries / 2 - 1;
  max_len_ = std::clamp(def.max_plan_length, 0, 255);
  table_capacity_ = static_cast<uint32_t>(std::clamp(def.table_actions, 0, 1 << 30));
  if (table_capacity_ > 0) {
    table_ = std::make_unique<ActionId[]>(table_capacity_);
    table_[0] = 0;  // the empty plan
    starts_ = std::make_unique<std::atomic<uint64_t>[]>((table_capacity_ + 63) / 64);
    starts_[0].store(1, std::memory_order_relaxed);
  }
  victim_ = std::make_unique<std::atomic<uint8_t>[]>(entries / 2);
  // Sized for the layout on first bind(); keep the request to allocate then.
  num_words_ = 0;
  key_words_ = 0;
  entry_words_ = 0;
  requested_entries_ = entries;
  bind(planner);
}

void PlanCache::bind(const CrowdPlanner& planner) {
  if (planner.stamp() == stamp_) return;
  const int32_t key_words = 2 * planner.layout().words();
  const int32_t plan_words = (max_len_ + 3) / 4;
  const int32_t entry_words = kKey + key_words + plan_words;
  if (entry_words != entry_words_) {
    entry_words_ = entry_words;
    key_words_ = key_words;
    num_words_ = requested_entries_ * static_cast<size_t>(entry_words);
    words_ = std::make_unique<std::atomic<uint64_t>[]>(num_words_);  // value-initialised: 0
  }
  enabled_ = planner.domain().num_actions() <= 65536;
  stamp_ = planner.stamp();
  invalidate();
}

void PlanCache::invalidate() {
  if (++epoch_ == 0) {  // wrap-around: entries of epoch 0 are never valid; clear them for real
    for (size_t i = 0; i < num_words_; ++i) words_[i].store(0, std::memory_order_relaxed);
    epoch_ = 1;
  }
  if (table_capacity_ > 0) {
    // Only the words the last epoch used: invalidation stays proportional to what was stored.
    const uint32_t used = std::min(table_next_.load(std::memory_order_relaxed), table_capacity_);
    for (uint32_t w = 0; w < (used + 63) / 64; ++w) starts_[w].store(0, std::memory_order_relaxed);
    starts_[0].store(1, std::memory_order_relaxed);  // the empty plan
  }
  table_next_.store(1, std::memory_order_relaxed);
  ++invalidations_;
}

uint32_t PlanCache::store(const ActionId* plan, int32_t len) {
  if (len == 0) return table_capacity_ > 0 ? 0 : kNoHandle;
  const auto need = static_cast<uint32_t>(len) + 1;
  uint32_t at = table_next_.load(std::memory_order_relaxed);
  do {
    if (need > table_capacity_ || at > table_capacity_ - need) return kNoHandle;
  } while (!table_next_.compare_exchange_weak(at, at + need, std::memory_order_relaxed));
  ActionId* t = table_.get() + at;
  t[0] = static_cast<ActionId>(len);
  std::copy(plan, plan + len, t + 1);
  starts_[at / 64].fetch_or(uint64_t{1} << (at % 64), std::memory_order_release);
  return at;
}

std::optional<std::span<const ActionId>> PlanCache::resolve(PlanHandle handle) const {
  if (handle.epoch != epoch_ || handle.epoch == 0 || table_capacity_ == 0) return std::nullopt;
  const uint32_t next = std::min(table_next_.load(std::memory_order_relaxed), table_capacity_);
  if (handle.id >= next) return std::nullopt;
  // The table's own record: the id must be where a stored plan starts, and that plan must end
  // inside the used part of the table.
  if ((starts_[handle.id / 64].load(std::memory_order_acquire) >> (handle.id % 64) & 1u) == 0)
    return std::nullopt;
  const ActionId* t = table_.get() + handle.id;
  const auto len = static_cast<uint32_t>(t[0]);
  if (len >= next - handle.id) return std::nullopt;
  return std::span<const ActionId>(t + 1, static_cast<size_t>(len));
}

PlanCacheStats PlanCache::stats() const {
  PlanCacheStats s;
  s.hits = hits_.load(std::memory_order_relaxed);
  s.misses = misses_.load(std::memory_order_relaxed);
  s.inserts = inserts_.load(std::memory_order_relaxed);
  s.evictions = evictions_.load(std::memory_order_relaxed);
  s.invalidations = invalidations_;
  s.capacity = static_cast<int64_t>(requested_entries_);
  s.bytes = static_cast<int64_t>(num_words_ * sizeof(uint64_t) + requested_entries_ / 2 +
                                 table_capacity_ * sizeof(ActionId));
  s.table_used = table_capacity_ > 0 ? table_next_.load(std::memory_order_relaxed) : 0;
  s.table_capacity = table_capacity_;
  return s;
}

void PlanCache::add_stats(int64_t hits, int64_t misses, int64_t inserts, int64_t evictions) {
  hits_.fetch_add(hits, std::memory_order_relaxed);
  misses_.fetch_add(misses, std::memory_order_relaxed);
  inserts_.fetch_add(inserts, std::memory_order_relaxed);
  evictions_.fetch_add(evictions, std::memory_order_relaxed);
}

bool PlanCache::lookup(uint64_t hash, int32_t npc_class, const uint64_t* key, ActionId* dst,
                       int32_t capacity, int32_t* len, CrowdStatus* status, bool want_handle,
                       uint32_t* handle) {
  if (!enabled_ || max_len_ == 0) return false;
  const uint64_t set = set_of(hash);
  for (uint64_t way = 0; way < 2; ++way) {
    std::atomic<uint64_t>* e = &words_[(set * 2 + way) * static_cast<uint64_t>(entry_words_)];
    const uint64_t seq = e[0].load(std::memory_order_acquire);
    if (seq & 1u) continue;
    const uint64_t meta = e[1].load(std::memory_order_acquire);
    if ((meta >> 32) != epoch_ || ((meta >> 16) & 0xFFFFu) != static_cast<uint64_t>(npc_class))
      continue;
    bool same = true;
    for (int32_t k = 0; k < key_words_; ++k)
      same &= e[kKey + k].load(std::memory_order_acquire) == key[k];
    if (!same) continue;
    const auto n = static_cast<int32_t>((meta >> 8) & 0xFFu);
    const auto id = static_cast<uint32_t>(e[2].load(std::memory_order_acquire));
    if (n <= capacity && (!want_handle || id == kNoHandle)) {
      const std::atomic<uint64_t>* p = e + kKey + key_words_;
      for (int32_t j = 0; j < n; j += 4) {
        const uint64_t w = p[j / 4].load(std::memory_order_acquire);
        for (int32_t t = 0; t < 4 && j + t < n; ++t)
          dst[j + t] = static_cast<ActionId>((w >> (16 * t)) & 0xFFFFu);
      }
    }
    // The acquire loads above keep this re-read after them: torn means a writer was here.
    if (e[0].load(std::memory_order_relaxed) != seq) return false;
    *len = n;
    *status = static_cast<CrowdStatus>(meta & 0xFFu);
    *handle = id;
    if (victim_[set].load(std::memory_order_relaxed) == way)
      victim_[set].store(static_cast<uint8_t>(way ^ 1u), std::memory_order_relaxed);
    return true;
  }
  return false;
}

int32_t PlanCache::insert(uint64_t hash, int32_t npc_class, const uint64_t* key,
                          const ActionId* plan, int32_t len, CrowdStatus status, uint32_t handle) {
  if (!enabled_ || len > max_len_ || max_len_ == 0) return 0;
  const uint64_t set = set_of(hash);
  auto entry = [&](uint64_t way) {
    return &words_[(set * 2 + way) * static_cast<uint64_t>(entry_words_)];
  };
  auto live = [&](uint64_t way) {
    return (entry(way)[1].load(std::memory_order_relaxed) >> 32) == epoch_;
  };
  uint64_t way = victim_[set].load(std::memory_order_relaxed);
  if (!live(0))
    way = 0;
  else if (!live(1))
    way = 1;
  const bool evicting = live(way);
  std::atomic<uint64_t>* e = entry(way);
  uint64_t seq = e[0].load(std::memory_order_relaxed);
  if ((seq & 1u) != 0 || !e[0].compare_exchange_strong(seq, seq + 1, std::memory_order_acquire,
                                                       std::memory_order_relaxed))
    return 0;  // another writer holds it: skip, the next miss will try again
  // Release stores from here on: whoever sees one of them also sees the odd sequence above.
  const uint64_t meta = (static_cast<uint64_t>(epoch_) << 32) |
                        (static_cast<uint64_t>(npc_class) << 16) |
                        (static_cast<uint64_t>(len) << 8) | status;
  e[1].store(meta, std::memory_order_release);
  // The table slot was written before: a reader that sees this id sees the plan.
  e[2].store(handle, std::memory_order_release);
  for (int32_t k = 0; k < key_words_; ++k) e[kKey + k].store(key[k], std::memory_order_release);
  std::atomic<uint64_t>* p = e + kKey + key_words_;
  for (int32_t j = 0; j < len; j += 4) {
    uint64_t w = 0;
    for (int32_t t = 0; t < 4 && j + t < len; ++t)
      w |= static_cast<uint64_t>(static_cast<uint16_t>(plan[j + t])) << (16 * t);
    p[j / 4].store(w, std::memory_order_release);
  }
  e[0].store(seq + 2, std::memory_order_release);
  victim_[set].store(static_cast<uint8_t>(way ^ 1u), std::memory_order_relaxed);
  return evicting ? 2 : 1;
}

}  // namespace topoplan
