#include "topoplan/state.h"

#include <bit>

namespace topoplan {

StatePacker::StatePacker(const Domain& domain) {
  int32_t word = 0;
  int32_t used = 0;  // bits used in the current word
  slots_.reserve(static_cast<size_t>(domain.num_variables()));
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const auto size = static_cast<uint32_t>(domain.domain_size(v));
    const int32_t bits = std::max(1, static_cast<int32_t>(std::bit_width(size - 1)));
    if (used + bits > 64) {
      ++word;
      used = 0;
    }
    slots_.push_back(Slot{word, used, (bits == 64) ? ~uint64_t{0} : ((uint64_t{1} << bits) - 1)});
    used += bits;
  }
  num_words_ = slots_.empty() ? 0 : word + 1;
}

void StatePacker::pack(std::span<const ValueId> state, uint64_t* packed) const {
  for (int32_t w = 0; w < num_words_; ++w) packed[w] = 0;
  for (VarId v = 0; v < num_variables(); ++v) set(packed, v, state[static_cast<size_t>(v)]);
}

void StatePacker::unpack(const uint64_t* packed, std::span<ValueId> state) const {
  for (VarId v = 0; v < num_variables(); ++v) state[static_cast<size_t>(v)] = get(packed, v);
}

}  // namespace topoplan
