// topoplan — bit-packed states.
//
// Each variable takes ceil(log2(|D_v|)) bits (at least 1); variables never straddle a 64-bit
// word (as Fast Downward's int_packer does), so get/set are one shift and one mask. The Horse
// Breeder packs into one word; Western (29 variables, ≤ 5 values) into two.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "topoplan/domain.h"

namespace topoplan {

class StatePacker {
 public:
  StatePacker() = default;
  explicit StatePacker(const Domain& domain);

  [[nodiscard]] int32_t num_words() const { return num_words_; }
  [[nodiscard]] int32_t num_variables() const { return static_cast<int32_t>(slots_.size()); }

  [[nodiscard]] ValueId get(const uint64_t* packed, VarId v) const {
    const Slot& s = slots_[static_cast<size_t>(v)];
    return static_cast<ValueId>((packed[s.word] >> s.shift) & s.mask);
  }
  void set(uint64_t* packed, VarId v, ValueId x) const {
    const Slot& s = slots_[static_cast<size_t>(v)];
    packed[s.word] =
        (packed[s.word] & ~(s.mask << s.shift)) | ((static_cast<uint64_t>(x) & s.mask) << s.shift);
  }
  void pack(std::span<const ValueId> state, uint64_t* packed) const;
  void unpack(const uint64_t* packed, std::span<ValueId> state) const;

 private:
  struct Slot {
    int32_t word = 0;
    int32_t shift = 0;
    uint64_t mask = 0;
  };
  std::vector<Slot> slots_;
  int32_t num_words_ = 0;
};

}  // namespace topoplan
