// A set of bit-packed states with dense ids: the closed/seen list of the search planners.
// States are stored back to back in one word pool; a linear-probing table of ids indexes them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace topoplan {

class StateTable {
 public:
  explicit StateTable(int32_t words_per_state)
      : words_(static_cast<size_t>(words_per_state)), slots_(1024, -1) {}

  // Inserts a copy of `state` if absent. Returns its id and whether it was new.
  std::pair<int32_t, bool> insert(const uint64_t* state) {
    if ((size_ + 1) * 4 > slots_.size() * 3) grow();
    size_t i = hash(state) & (slots_.size() - 1);
    while (slots_[i] >= 0) {
      if (equal(this->state(slots_[i]), state)) return {slots_[i], false};
      i = (i + 1) & (slots_.size() - 1);
    }
    const auto id = static_cast<int32_t>(size_);
    pool_.insert(pool_.end(), state, state + words_);
    slots_[i] = id;
    slot_of_.push_back(static_cast<int32_t>(i));
    ++size_;
    return {id, true};
  }

  // Looks `state` up without inserting; -1 when absent.
  [[nodiscard]] int32_t find(const uint64_t* state) const {
    size_t i = hash(state) & (slots_.size() - 1);
    while (slots_[i] >= 0) {
      if (equal(this->state(slots_[i]), state)) return slots_[i];
      i = (i + 1) & (slots_.size() - 1);
    }
    return -1;
  }

  [[nodiscard]] const uint64_t* state(int32_t id) const {
    return pool_.data() + static_cast<size_t>(id) * words_;
  }
  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] size_t memory_bytes() const {
    return pool_.capacity() * sizeof(uint64_t) +
           (slots_.capacity() + slot_of_.capacity()) * sizeof(int32_t);
  }
  // Frees only the slots in use when they are few: a search of a few nodes after a large one
  // (the table keeps its size) costs its own nodes, not the table's size.
  void clear() {
    if (size_ * 8 < slots_.size()) {
      for (const int32_t slot : slot_of_) slots_[static_cast<size_t>(slot)] = -1;
    } else {
      std::fill(slots_.begin(), slots_.end(), -1);
    }
    pool_.clear();
    slot_of_.clear();
    size_ = 0;
  }

 private:
  // A word loop rather than memcmp: states are one to a few words, below a library call's cost.
  [[nodiscard]] bool equal(const uint64_t* a, const uint64_t* b) const {
    for (size_t w = 0; w < words_; ++w)
      if (a[w] != b[w]) return false;
    return true;
  }
  [[nodiscard]] uint64_t hash(const uint64_t* state) const {
    uint64_t h = 0x9E3779B97F4A7C15ull ^ words_;
    for (size_t w = 0; w < words_; ++w) {
      uint64_t x = state[w] + 0x9E3779B97F4A7C15ull * (w + 1);
      x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
      x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
      h = (h ^ (x ^ (x >> 31))) * 0x100000001B3ull;
    }
    return h ^ (h >> 29);
  }

  void grow() {
    std::vector<int32_t> bigger(slots_.size() * 2, -1);
    for (int32_t id = 0; static_cast<size_t>(id) < size_; ++id) {
      size_t i = hash(state(id)) & (bigger.size() - 1);
      while (bigger[i] >= 0) i = (i + 1) & (bigger.size() - 1);
      bigger[i] = id;
      slot_of_[static_cast<size_t>(id)] = static_cast<int32_t>(i);
    }
    slots_.swap(bigger);
  }

  size_t words_;
  std::vector<uint64_t> pool_;
  std::vector<int32_t> slots_;
  std::vector<int32_t> slot_of_;  // per id, its slot
  size_t size_ = 0;
};

}  // namespace topoplan
