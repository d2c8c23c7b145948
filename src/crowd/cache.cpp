// PlanCache: 2-way set-associative table of fixed-size entries, one seqlock per entry.
//
// Entry words: [0] sequence (odd while a writer fills it), [1] meta = epoch << 32 | class << 16 |
// length << 8 | status, [2, 2 + 2W) the projected s0 and goal, then the plan as 16-bit action ids,
// four per word. Readers never write the entry: they copy it and re-read the sequence; a torn read
// is a miss. Writers take the entry with one CAS on the sequence and give up if it is busy.
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

#include "topoplan/crowd.h"

namespace topoplan {

// The set of a hash: its top bits (the bits of a product that depend on every input bit).
inline uint64_t PlanCache::set_of(uint64_t hash) const {
  return ((hash >> 32) * (set_mask_ + 1)) >> 32;
}

PlanCache::PlanCache(const CrowdPlanner& planner, const PlanCacheDef& def) {
  assert(def.capacity >= 0 && def.max_plan_length >= 0 && def.max_plan_length <= 255);
  const auto entries = std::bit_ceil(static_cast<uint64_t>(std::max(def.capacity, 2)));
  set_mask_ = entries / 2 - 1;
  max_len_ = std::clamp(def.max_plan_length, 0, 255);
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
  const int32_t entry_words = 2 + key_words + plan_words;
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
  ++invalidations_;
}

PlanCacheStats PlanCache::stats() const {
  PlanCacheStats s;
  s.hits = hits_.load(std::memory_order_relaxed);
  s.misses = misses_.load(std::memory_order_relaxed);
  s.inserts = inserts_.load(std::memory_order_relaxed);
  s.evictions = evictions_.load(std::memory_order_relaxed);
  s.invalidations = invalidations_;
  s.capacity = static_cast<int64_t>(requested_entries_);
  s.bytes = static_cast<int64_t>(num_words_ * sizeof(uint64_t) + requested_entries_ / 2);
  return s;
}

void PlanCache::add_stats(int64_t hits, int64_t misses, int64_t inserts, int64_t evictions) {
  hits_.fetch_add(hits, std::memory_order_relaxed);
  misses_.fetch_add(misses, std::memory_order_relaxed);
  inserts_.fetch_add(inserts, std::memory_order_relaxed);
  evictions_.fetch_add(evictions, std::memory_order_relaxed);
}

bool PlanCache::lookup(uint64_t hash, int32_t npc_class, const uint64_t* key, ActionId* dst,
                       int32_t capacity, int32_t* len, CrowdStatus* status) {
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
      same &= e[2 + k].load(std::memory_order_acquire) == key[k];
    if (!same) continue;
    const auto n = static_cast<int32_t>((meta >> 8) & 0xFFu);
    if (n <= capacity) {
      const std::atomic<uint64_t>* p = e + 2 + key_words_;
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
    if (victim_[set].load(std::memory_order_relaxed) == way)
      victim_[set].store(static_cast<uint8_t>(way ^ 1u), std::memory_order_relaxed);
    return true;
  }
  return false;
}

int32_t PlanCache::insert(uint64_t hash, int32_t npc_class, const uint64_t* key,
                          const ActionId* plan, int32_t len, CrowdStatus status) {
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
  for (int32_t k = 0; k < key_words_; ++k) e[2 + k].store(key[k], std::memory_order_release);
  std::atomic<uint64_t>* p = e + 2 + key_words_;
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
