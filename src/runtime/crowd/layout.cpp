// CrowdLayout: one field of bit_width(|D_v|) bits per variable (BitFields with one code beyond the
// values), never straddling a word, so that the all-ones field is free to mean "no requirement"
// in a goal.
#include <algorithm>
#include <cassert>

#include "topoplan/runtime/crowd.h"

namespace topoplan {

CrowdLayout::CrowdLayout(const Domain& domain)
    : fields_(domain, 1), words_(std::max(1, fields_.num_words())) {}

void CrowdLayout::pack_state(std::span<const ValueId> state, uint64_t* packed) const {
  assert(state.size() == static_cast<size_t>(fields_.num_fields()));
  for (int32_t w = 0; w < words_; ++w) packed[w] = 0;
  for (VarId v = 0; v < fields_.num_fields(); ++v) {
    const ValueId x = state[static_cast<size_t>(v)];
    assert(x >= 0 && static_cast<uint64_t>(x) < fields_.field(v).mask);
    fields_.set(packed, v, static_cast<uint64_t>(x));
  }
}

void CrowdLayout::pack_goal(std::span<const ValueId> goal, uint64_t* packed) const {
  assert(goal.size() == static_cast<size_t>(fields_.num_fields()));
  for (int32_t w = 0; w < words_; ++w) packed[w] = 0;
  for (VarId v = 0; v < fields_.num_fields(); ++v) {
    const ValueId x = goal[static_cast<size_t>(v)];
    const uint64_t free = fields_.field(v).mask;
    assert(x >= kUndefined && (x < 0 || static_cast<uint64_t>(x) < free));
    fields_.set(packed, v, x == kUndefined ? free : static_cast<uint64_t>(x));
  }
}

void CrowdLayout::unpack_state(const uint64_t* packed, std::span<ValueId> state) const {
  assert(state.size() == static_cast<size_t>(fields_.num_fields()));
  for (VarId v = 0; v < fields_.num_fields(); ++v)
    state[static_cast<size_t>(v)] = static_cast<ValueId>(fields_.get(packed, v));
}

void CrowdLayout::unpack_goal(const uint64_t* packed, std::span<ValueId> goal) const {
  assert(goal.size() == static_cast<size_t>(fields_.num_fields()));
  for (VarId v = 0; v < fields_.num_fields(); ++v) {
    const uint64_t x = fields_.get(packed, v);
    goal[static_cast<size_t>(v)] =
        x == fields_.field(v).mask ? kUndefined : static_cast<ValueId>(x);
  }
}

}  // namespace topoplan
