#include "topoplan/runtime/state.h"

#include <algorithm>
#include <bit>

namespace topoplan {

BitFields::BitFields(const Domain& domain, int32_t extra_codes) {
  int32_t word = 0;
  int32_t used = 0;  // bits used in the current word
  fields_.reserve(static_cast<size_t>(domain.num_variables()));
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const auto largest_code = static_cast<uint32_t>(domain.domain_size(v) + extra_codes - 1);
    const int32_t bits = std::max(1, static_cast<int32_t>(std::bit_width(largest_code)));
    if (used + bits > 64) {
      ++word;
      used = 0;
    }
    fields_.push_back(Field{word, used, (bits == 64) ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1)});
    used += bits;
  }
  num_words_ = fields_.empty() ? 0 : word + 1;
}

void StatePacker::pack(std::span<const ValueId> state, uint64_t* packed) const {
  std::fill(packed, packed + num_words(), uint64_t{0});
  for (VarId v = 0; v < num_variables(); ++v) set(packed, v, state[static_cast<size_t>(v)]);
}

void StatePacker::unpack(const uint64_t* packed, std::span<ValueId> state) const {
  for (VarId v = 0; v < num_variables(); ++v) state[static_cast<size_t>(v)] = get(packed, v);
}

}  // namespace topoplan
