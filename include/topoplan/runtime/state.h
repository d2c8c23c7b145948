// topoplan — bit-packed states.
//
// BitFields is the one bit-field layout of the library: one field per variable, packed into
// 64-bit words in variable order, never straddling a word (as Fast Downward's int_packer does),
// so get/set are one shift and one mask. Its users differ only in how many codes a field holds:
//   * StatePacker (the search planners' world states): the |D_v| values of v;
//   * CrowdLayout (crowd.h): the values plus an all-ones "free" code in goals;
//   * regressive A*'s subgoals (astar_back.cpp): value + 1, with 0 meaning "free".
// The Horse Breeder packs into one word; Western (29 variables, ≤ 5 values) into two.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "topoplan/runtime/domain.h"

namespace topoplan {

class BitFields {
 public:
  struct Field {
    int32_t word = 0;
    int32_t shift = 0;
    uint64_t mask = 0;  // unshifted: the field's width in low bits
  };

  BitFields() = default;
  // One field per variable of `domain`, wide enough for domain_size(v) + extra_codes codes
  // (at least one bit).
  BitFields(const Domain& domain, int32_t extra_codes);

  // 64-bit words the fields take (0 when there are none).
  [[nodiscard]] int32_t num_words() const { return num_words_; }
  [[nodiscard]] int32_t num_fields() const { return static_cast<int32_t>(fields_.size()); }
  [[nodiscard]] const Field& field(int32_t i) const { return fields_[static_cast<size_t>(i)]; }

  [[nodiscard]] uint64_t get(const uint64_t* packed, int32_t i) const {
    const Field& f = fields_[static_cast<size_t>(i)];
    return (packed[f.word] >> f.shift) & f.mask;
  }
  void set(uint64_t* packed, int32_t i, uint64_t code) const {
    const Field& f = fields_[static_cast<size_t>(i)];
    packed[f.word] = (packed[f.word] & ~(f.mask << f.shift)) | ((code & f.mask) << f.shift);
  }

 private:
  std::vector<Field> fields_;
  int32_t num_words_ = 0;
};

// World states: field v holds v's value.
class StatePacker {
 public:
  StatePacker() = default;
  explicit StatePacker(const Domain& domain) : fields_(domain, 0) {}

  [[nodiscard]] int32_t num_words() const { return fields_.num_words(); }
  [[nodiscard]] int32_t num_variables() const { return fields_.num_fields(); }

  [[nodiscard]] ValueId get(const uint64_t* packed, VarId v) const {
    return static_cast<ValueId>(fields_.get(packed, v));
  }
  void set(uint64_t* packed, VarId v, ValueId x) const {
    fields_.set(packed, v, static_cast<uint64_t>(x));
  }
  void pack(std::span<const ValueId> state, uint64_t* packed) const;
  void unpack(const uint64_t* packed, std::span<ValueId> state) const;

 private:
  BitFields fields_;
};

}  // namespace topoplan
