// CrowdLayout: one field of bit_width(|D_v|) bits per variable, never straddling a word, so that
// the all-ones field is free to mean "no requirement" in a goal.
#include <bit>
#include <cassert>

#include "topoplan/crowd.h"

namespace topoplan {

CrowdLayout::CrowdLayout(const Domain& domain) {
  const int32_t m = domain.num_variables();
  fields_.resize(static_cast<size_t>(m));
  int32_t word = 0;
  int32_t shift = 0;
  for (VarId v = 0; v < m; ++v) {
    const auto width =
        static_cast<int32_t>(std::bit_width(static_cast<uint32_t>(domain.domain_size(v))));
    if (shift + width > 64) {
      ++word;
      shift = 0;
    }
    fields_[static_cast<size_t>(v)] = Field{word, shift, (uint64_t{1} << width) - 1};
    shift += width;
  }
  words_ = m == 0 ? 1 : word + 1;
}

void CrowdLayout::pack_state(std::span<const ValueId> state, uint64_t* packed) const {
  assert(state.size() == fields_.size());
  for (int32_t w = 0; w < words_; ++w) packed[w] = 0;
  for (size_t v = 0; v < fields_.size(); ++v) {
    const Field& f = fields_[v];
    assert(state[v] >= 0 && static_cast<uint64_t>(state[v]) < f.mask);
    packed[f.word] |= (static_cast<uint64_t>(state[v]) & f.mask) << f.shift;
  }
}

void CrowdLayout::pack_goal(std::span<const ValueId> goal, uint64_t* packed) const {
  assert(goal.size() == fields_.size());
  for (int32_t w = 0; w < words_; ++w) packed[w] = 0;
  for (size_t v = 0; v < fields_.size(); ++v) {
    const Field& f = fields_[v];
    assert(goal[v] >= kUndefined && (goal[v] < 0 || static_cast<uint64_t>(goal[v]) < f.mask));
    const uint64_t x = goal[v] == kUndefined ? f.mask : static_cast<uint64_t>(goal[v]);
    packed[f.word] |= (x & f.mask) << f.shift;
  }
}

void CrowdLayout::unpack_state(const uint64_t* packed, std::span<ValueId> state) const {
  assert(state.size() == fields_.size());
  for (size_t v = 0; v < fields_.size(); ++v) {
    const Field& f = fields_[v];
    state[v] = static_cast<ValueId>((packed[f.word] >> f.shift) & f.mask);
  }
}

void CrowdLayout::unpack_goal(const uint64_t* packed, std::span<ValueId> goal) const {
  assert(goal.size() == fields_.size());
  for (size_t v = 0; v < fields_.size(); ++v) {
    const Field& f = fields_[v];
    const uint64_t x = (packed[f.word] >> f.shift) & f.mask;
    goal[v] = x == f.mask ? kUndefined : static_cast<ValueId>(x);
  }
}

}  // namespace topoplan
