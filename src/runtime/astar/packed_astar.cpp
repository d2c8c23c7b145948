// GOAP A* over one 64-bit word: see packed_astar.h for the design.
#include "runtime/astar/packed_astar.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <type_traits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "runtime/astar/planner_common.h"

namespace topoplan::detail {

namespace {

constexpr int64_t kInf = kInfiniteCost;
// Distance tables of at most this many entries (sum of n^2 over the variables); a domain that
// fits one word but has a variable of thousands of values takes the general search.
constexpr int64_t kMaxTableEntries = int64_t{1} << 16;
// The general search's memory accounting for one-word states (best_first.h: packed state, node,
// two hash slots, heap entry), so both stop at the same node count.
constexpr int64_t kBytesPerNode = 8 + 32 + 8 + 24;

int32_t bits_for(int32_t n) {
  return n <= 1 ? 0 : std::bit_width(static_cast<uint32_t>(n - 1));
}

uint64_t low_bits(int32_t bits) {
  return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// The slot of a state in a table of 2^k slots (Fibonacci hashing: the high bits of the product).
size_t slot_of(uint64_t state, size_t mask) {
  return static_cast<size_t>((state * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
}

struct HeapAfter {  // best_first.h's order: the std heap's max is the entry to pop first
  bool operator()(const PackedAStarScratch::HeapEntry& a,
                  const PackedAStarScratch::HeapEntry& b) const {
    return a.f != b.f ? a.f > b.f : a.tie < b.tie;
  }
  bool operator()(const PackedAStarScratch::CompactEntry& a,
                  const PackedAStarScratch::CompactEntry& b) const {
    return a.key > b.key;
  }
};

PackedAStarScratch::HeapEntry heap_entry(const PackedAStarScratch::HeapEntry*, int64_t f, int64_t g,
                                         int32_t node) {
  return {f, g, node};
}
PackedAStarScratch::CompactEntry heap_entry(const PackedAStarScratch::CompactEntry*, int64_t f,
                                            int64_t g, int32_t node) {
  return {(static_cast<uint64_t>(f) << 32) | (0xFFFFFFFFu - static_cast<uint64_t>(g)), node};
}
int64_t entry_f(const PackedAStarScratch::HeapEntry& e) {
  return e.f;
}
int64_t entry_f(const PackedAStarScratch::CompactEntry& e) {
  return static_cast<int64_t>(e.key >> 32);
}

// Doubles the duplicate table and re-enters this call's first `num_nodes` nodes (out of line:
// the search's loop stays small).
[[gnu::noinline]] void grow_table(PackedAStarScratch& s, size_t num_nodes) {
  s.slots.assign(s.slots.size() * 2, PackedAStarScratch::Slot{0, 0});
  s.nodes.resize(s.slots.size() / 2);
  const size_t mask = s.slots.size() - 1;
  for (size_t i = 0; i < num_nodes; ++i) {
    size_t k = slot_of(s.nodes[i].state, mask);
    while (s.slots[k].stamp == s.stamp) k = (k + 1) & mask;
    s.slots[k] = {s.stamp, static_cast<int32_t>(i)};
  }
}

template <typename Entry>
[[gnu::noinline]] void grow_heap(std::vector<Entry>& heap, size_t& capacity) {
  heap.resize(heap.size() * 2);
  capacity = heap.size();
}

}  // namespace

PackedAStarScratch::PackedAStarScratch(size_t num_variables) {
  nodes.resize(256);  // slots.size() / 2: a node is entered only while the table has room
  slots.assign(512, Slot{0, 0});
  heap.resize(256);
  heap_capacity = heap.size();
  compact_heap.resize(256);
  compact_capacity = compact_heap.size();
  terms.resize(num_variables);
}

bool PackedAStar::fits(const Domain& domain) {
  int32_t bits = 0;
  int64_t entries = 0;
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const int32_t n = domain.domain_size(v);
    bits += bits_for(n);
    entries += int64_t{n} * n;
    if (bits > 64 || entries > kMaxTableEntries) return false;
  }
  return true;
}

namespace {

// The cost of one step of action a: 1 when the objective is the plan's length.
int64_t step_cost(Objective objective, std::span<const int64_t> costs, ActionId a) {
  return objective == Objective::kLength ? int64_t{1} : costs[static_cast<size_t>(a)];
}

// Variable v's distances (n values) to every target value y: table[y * n + x] is the cheapest
// cost from x to y in v's own transition graph over the class's actions (`mask`; prevails
// ignored), by backward Dijkstra, as astar.cpp computes it.
void distance_table(const Domain& d, std::span<const uint8_t> mask, std::span<const int64_t> costs,
                    Objective objective, VarId v, int32_t n, std::vector<uint8_t>& done,
                    int64_t* table) {
  // The class's actions that set v, grouped by their post value.
  std::vector<std::vector<std::pair<ValueId, int64_t>>> into(static_cast<size_t>(n));
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    if (!mask[static_cast<size_t>(a)]) continue;
    for (const Effect& e : d.effects(a))
      if (e.var == v)
        into[static_cast<size_t>(e.post)].emplace_back(e.pre, step_cost(objective, costs, a));
  }
  for (ValueId y = 0; y < n; ++y) {
    int64_t* out = table + int64_t{y} * n;
    value_dijkstra(n, y, done, out, [&](ValueId z) {
      for (const auto& [pre, cost] : into[static_cast<size_t>(z)]) {
        const int64_t c = out[z] + cost;
        if (pre == kUndefined) {
          for (int32_t w = 0; w < n; ++w) out[w] = std::min(out[w], c);
        } else {
          out[pre] = std::min(out[pre], c);
        }
      }
    });
  }
}

// Whether every f and g of a one-bit search over m < 32 variables fits 32 bits (compact heap
// keys): a node's g is the cost of a path without repeated states (at most 2^m - 1 actions of
// at most max_step each; every step cost >= 0), its h at most the finite flip costs' sum.
bool compact_keys_fit(int32_t m, bool steps_nonnegative, uint64_t max_step,
                      const std::vector<int64_t>& flip_on, const std::vector<int64_t>& flip_off) {
  constexpr uint64_t kMax = 0xFFFFFFFFu;
  bool fits = steps_nonnegative;
  uint64_t h_max = 0;
  for (size_t v = 0; v < flip_on.size(); ++v)
    for (const int64_t x : {flip_on[v], flip_off[v]}) {
      if (x >= kInf) continue;
      fits = fits && static_cast<uint64_t>(x) <= kMax;
      h_max += std::min(static_cast<uint64_t>(x), kMax);  // at most 62 terms of 32 bits
    }
  const uint64_t path = (uint64_t{1} << m) - 1;
  return fits && max_step <= kMax && h_max <= kMax &&
         (max_step == 0 || path <= (kMax - h_max) / max_step);
}

}  // namespace

PackedAStar::PackedAStar(const CompiledActionSet& set, Objective objective) {
  const Domain& d = set.domain();
  const int32_t m = d.num_variables();
  sum_ = d.all_unary();
  one_bit_ = m > 0;
  for (VarId v = 0; v < m; ++v) one_bit_ = one_bit_ && d.domain_size(v) == 2;
  int32_t shift = 0;
  int64_t offset = 0;
  for (VarId v = 0; v < m; ++v) {
    const int32_t n = d.domain_size(v);
    // A one-value variable takes no bits (shift 0: never a shift by 64 past a full word).
    vars_.push_back(Var{low_bits(bits_for(n)), bits_for(n) == 0 ? 0 : shift, n, offset});
    shift += bits_for(n);
    offset += int64_t{n} * n;
  }
  auto field = [&](VarId v) {
    const Var& x = vars_[static_cast<size_t>(v)];
    return x.field << x.shift;
  };
  auto value = [&](VarId v, ValueId y) {
    return static_cast<uint64_t>(y) << vars_[static_cast<size_t>(v)].shift;
  };
  const std::span<const int64_t> costs = set.costs();
  std::vector<ActionId> ids;
  available_actions(d, set.npc_class(), ids);
  bool steps_nonnegative = true;
  uint64_t max_step = 0;
  for (ActionId a : ids) {
    Action act{0, 0, 0, 0, step_cost(objective, costs, a), a};
    for (const Effect& e : d.effects(a)) {
      if (e.pre != kUndefined) {
        act.pre_mask |= field(e.var);
        act.pre_value |= value(e.var, e.pre);
      }
      act.eff_mask |= field(e.var);
      act.eff_value |= value(e.var, e.post);
    }
    for (const Fact& f : d.prevail(a)) {
      act.pre_mask |= field(f.var);
      act.pre_value |= value(f.var, f.value);
    }
    steps_nonnegative = steps_nonnegative && act.cost >= 0;
    max_step = std::max(max_step, static_cast<uint64_t>(std::max<int64_t>(act.cost, 0)));
    actions_.push_back(act);
  }
  dist_.assign(static_cast<size_t>(offset), kInf);
  std::vector<uint8_t> done;
  for (VarId v = 0; v < m; ++v) {
    const Var& x = vars_[static_cast<size_t>(v)];
    distance_table(d, set.action_mask(), costs, objective, v, x.size, done,
                   dist_.data() + x.offset);
  }
  if (one_bit_) {
    for (VarId v = 0; v < m; ++v) {
      const int64_t* table = dist_.data() + vars_[static_cast<size_t>(v)].offset;
      flip_on_.push_back(table[1 * 2 + 0]);   // 0 -> 1
      flip_off_.push_back(table[0 * 2 + 1]);  // 1 -> 0
    }
  }
  if (one_bit_ && m < 32)
    compact_ = compact_keys_fit(m, steps_nonnegative, max_step, flip_on_, flip_off_);
}

namespace {

// The one-bit layout's root and goal words from m values each; false when a value is out of
// range (s0: 0 or 1; goal: kUndefined, 0 or 1). Branch-free, four values at a time where SSE2
// is there: this is most of a small task's fixed cost per call.
[[gnu::always_inline]] inline bool pack_one_bit(const ValueId* s0, const ValueId* goal, size_t m,
                                                uint64_t& root, uint64_t& goal_mask,
                                                uint64_t& goal_value) {
  size_t v = 0;
  uint32_t bad = 0;
#if defined(__SSE2__)
  const __m128i one = _mm_set1_epi32(1);
  const __m128i none = _mm_set1_epi32(kUndefined);
  const __m128i three = _mm_set1_epi32(3);
  __m128i bad4 = _mm_setzero_si128();
  for (; v + 4 <= m; v += 4) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s0 + v));
    const __m128i g = _mm_loadu_si128(reinterpret_cast<const __m128i*>(goal + v));
    const __m128i g1 = _mm_sub_epi32(g, none);               // 0 free, 1 false, 2 true
    bad4 = _mm_or_si128(bad4, _mm_andnot_si128(one, a));     // a > 1
    bad4 = _mm_or_si128(bad4, _mm_andnot_si128(three, g1));  // g1 > 3
    bad4 = _mm_or_si128(bad4, _mm_cmpeq_epi32(g1, three));   // g1 = 3
    const auto bits = [](__m128i lanes) {
      return static_cast<uint64_t>(_mm_movemask_ps(_mm_castsi128_ps(lanes)));
    };
    root |= bits(_mm_cmpeq_epi32(a, one)) << v;
    goal_mask |= (bits(_mm_cmpeq_epi32(g, none)) ^ 0xF) << v;
    goal_value |= bits(_mm_cmpeq_epi32(g, one)) << v;
  }
  bad =
      static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi32(bad4, _mm_setzero_si128())) ^ 0xFFFF);
#endif
  for (; v < m; ++v) {
    const auto a = static_cast<uint32_t>(s0[v]);
    const uint32_t g1 = static_cast<uint32_t>(goal[v]) + 1;  // 0 free, 1 false, 2 true
    bad |= (a >> 1) | (g1 >> 2) | (g1 & (g1 >> 1));
    root |= static_cast<uint64_t>(a & 1) << v;
    goal_mask |= static_cast<uint64_t>((g1 | (g1 >> 1)) & 1) << v;
    goal_value |= static_cast<uint64_t>((g1 >> 1) & 1) << v;
  }
  return bad == 0;
}

}  // namespace

// The goal variables' distances summed (or their maximum); kInf when one is unreachable.
// One-bit layout: only the goal variables whose bit differs from the goal count (a variable at
// its goal value adds dist(y -> y) = 0), one lookup per differing bit.
template <bool kOneBit>
[[gnu::always_inline]] inline int64_t PackedAStar::heuristic(const PackedAStarScratch& s,
                                                             uint64_t state, uint64_t goal_mask,
                                                             uint64_t goal_value) const {
  int64_t h = 0;
  if constexpr (kOneBit) {
    const uint64_t differ = (state ^ goal_value) & goal_mask;
    uint64_t on = differ & goal_value;  // to be set to 1
    uint64_t off = differ & ~goal_value;
    if (sum_) {
      for (; on != 0; on &= on - 1) {
        const int64_t x = flip_on_[static_cast<size_t>(std::countr_zero(on))];
        if (x >= kInf) return kInf;
        h += x;
      }
      for (; off != 0; off &= off - 1) {
        const int64_t x = flip_off_[static_cast<size_t>(std::countr_zero(off))];
        if (x >= kInf) return kInf;
        h += x;
      }
    } else {
      for (; on != 0; on &= on - 1)
        h = std::max(h, flip_on_[static_cast<size_t>(std::countr_zero(on))]);
      for (; off != 0; off &= off - 1)
        h = std::max(h, flip_off_[static_cast<size_t>(std::countr_zero(off))]);
    }
  } else if (sum_) {
    for (size_t i = 0; i < s.num_terms; ++i) {
      const PackedAStarScratch::GoalTerm& t = s.terms[i];
      const int64_t x = t.row[(state >> t.shift) & t.mask];
      if (x >= kInf) return kInf;
      h += x;
    }
  } else {
    for (size_t i = 0; i < s.num_terms; ++i) {
      const PackedAStarScratch::GoalTerm& t = s.terms[i];
      h = std::max(h, t.row[(state >> t.shift) & t.mask]);
    }
  }
  return h;
}

namespace {

// The duplicate table of one search: the scratch's arrays and node count as locals of the
// search (a local record whose address never escapes stays in registers), written back by the
// caller. Room for one more node is in the table and within the memory limit.
struct NodeTable {
  PackedAStarScratch::Node* nodes;
  PackedAStarScratch::Slot* slots;
  size_t slot_mask;
  uint32_t stamp;
  size_t num_nodes;
  int64_t max_nodes;
  int64_t room;  // nodes that fit before the table must grow (or the memory limit stops)

  // Grows the table for one more node (false: the memory limit is reached).
  bool make_room(PackedAStarScratch& s) {
    if (static_cast<int64_t>(num_nodes) + 1 > max_nodes) return false;
    grow_table(s, num_nodes);
    nodes = s.nodes.data();
    slots = s.slots.data();
    slot_mask = s.slots.size() - 1;
    room = std::min(static_cast<int64_t>(s.nodes.size()), max_nodes);
    return true;
  }

  // The node of `state`, new (inserted = true; the caller sets all its fields) or found; the
  // table has room for one more (make_room).
  [[gnu::always_inline]] int32_t intern(uint64_t state, bool& inserted) {
    for (size_t k = slot_of(state, slot_mask);; k = (k + 1) & slot_mask) {
      PackedAStarScratch::Slot& slot = slots[k];
      if (slot.stamp != stamp) {
        const auto id = static_cast<int32_t>(num_nodes++);
        slot = {stamp, id};
        inserted = true;
        return id;
      }
      if (nodes[static_cast<size_t>(slot.node)].state == state) {
        inserted = false;
        return slot.node;
      }
    }
  }
};

// A new generation of the scratch's duplicate table (every slot of an earlier call is now
// free), empty.
[[gnu::always_inline]] inline NodeTable start_table(PackedAStarScratch& s, int64_t max_nodes) {
  if (++s.stamp == 0) {
    std::fill(s.slots.begin(), s.slots.end(), PackedAStarScratch::Slot{0, 0});
    s.stamp = 1;
  }
  return NodeTable{s.nodes.data(),
                   s.slots.data(),
                   s.slots.size() - 1,
                   s.stamp,
                   0,
                   max_nodes,
                   std::min(static_cast<int64_t>(s.nodes.size()), max_nodes)};
}

// The open list of one search over the scratch's heap vector (kept as locals, like NodeTable).
template <typename Entry>
struct OpenList {
  std::vector<Entry>& vector;
  size_t& stored_capacity;
  Entry* heap;
  size_t size;
  size_t capacity;

  [[gnu::always_inline]] void push(int64_t f, int64_t g, int32_t node) {
    if (size == capacity) [[unlikely]] {
      grow_heap(vector, stored_capacity);
      heap = vector.data();
      capacity = stored_capacity;
    }
    heap[size++] = heap_entry(heap, f, g, node);
    std::push_heap(heap, heap + size, HeapAfter{});
  }
  [[gnu::always_inline]] Entry pop() {
    std::pop_heap(heap, heap + size, HeapAfter{});
    return heap[--size];
  }
};

// The scratch's heap of the one-bit layout (compact keys) or of the other, empty.
template <bool kOneBit>
[[gnu::always_inline]] inline auto open_list(PackedAStarScratch& s) {
  if constexpr (kOneBit)
    return OpenList<PackedAStarScratch::CompactEntry>{s.compact_heap, s.compact_capacity,
                                                      s.compact_heap.data(), 0, s.compact_capacity};
  else
    return OpenList<PackedAStarScratch::HeapEntry>{s.heap, s.heap_capacity, s.heap.data(), 0,
                                                   s.heap_capacity};
}

// The plan to node `goal`, read back through the parents into out: *len its length, false when
// it does not fit.
[[gnu::always_inline]] inline bool write_plan(const PackedAStarScratch::Node* nodes, int32_t goal,
                                              std::span<ActionId> out, int32_t* len) {
  int32_t n = 0;
  for (int32_t i = goal; nodes[static_cast<size_t>(i)].parent >= 0;
       i = nodes[static_cast<size_t>(i)].parent)
    ++n;
  *len = n;
  if (static_cast<size_t>(n) > out.size()) return false;
  for (int32_t i = goal, k = n; nodes[static_cast<size_t>(i)].parent >= 0;
       i = nodes[static_cast<size_t>(i)].parent)
    out[static_cast<size_t>(--k)] = nodes[static_cast<size_t>(i)].action;
  return true;
}

// True when the search has run longer than limits.max_seconds. The clock is read as in
// best_first.h: after 1024 expansions (`start`), then every 1024.
[[gnu::always_inline]] inline bool out_of_time(int64_t expanded, const SearchLimits& limits,
                                               std::chrono::steady_clock::time_point& start) {
  if ((expanded & 1023) != 0 || expanded == 0 || limits.max_seconds <= 0) return false;
  const auto now = std::chrono::steady_clock::now();
  if (expanded == 1024) start = now;
  return std::chrono::duration<double>(now - start).count() > limits.max_seconds;
}

}  // namespace

// The search keeps the scratch's arrays and counters in locals (registers: NodeTable, OpenList)
// and writes the counters back on return: stored through the scratch, every node and heap write
// could alias them, and each would be reloaded after every store.
template <bool kOneBit>
[[gnu::always_inline]] inline PlanOutcome PackedAStar::search(
    PackedAStarScratch& s, uint64_t root, uint64_t goal_mask, uint64_t goal_value,
    const SearchLimits& limits, std::span<ActionId> out, int32_t* len) const {
  using Node = PackedAStarScratch::Node;
  using HeapEntry =
      std::conditional_t<kOneBit, PackedAStarScratch::CompactEntry, PackedAStarScratch::HeapEntry>;
  PlanOutcome outcome;
  const int64_t h0 = heuristic<kOneBit>(s, root, goal_mask, goal_value);
  if (h0 >= kInf) {  // a goal value unreachable in its own transition graph
    outcome.status = PlanStatus::kUnsolvable;
    outcome.detail = kDetailExhausted;
    return outcome;
  }
  // best_first.h stops at max(1, M / kBytesPerNode) nodes; with the root entered, that is
  // (nodes + 1) * kBytesPerNode > M, i.e. nodes + 1 > floor(M / kBytesPerNode).
  const int64_t max_nodes = limits.max_memory_bytes / kBytesPerNode;
  NodeTable table = start_table(s, max_nodes);
  OpenList<HeapEntry> open = open_list<kOneBit>(s);
  int64_t expanded = 0, generated = 0;
  // Every return passes `outcome` itself (no copy of it: a copy right after its fields are
  // written stalls on store forwarding).
  const auto sync = [&] {
    s.expanded = expanded;
    s.generated = generated;
    s.num_nodes = table.num_nodes;
  };
  bool inserted = false;
  (void)table.intern(root, inserted);  // (a scratch holds at least 256 nodes)
  table.nodes[0] = {root, 0, h0, -1, -1};
  std::chrono::steady_clock::time_point start{};
  // The root is the first entry popped: taken without the heap (pushed to the empty heap and
  // popped at once, as the general search does, it leaves the heap as it found it).
  HeapEntry top = heap_entry(open.heap, h0, 0, 0);
  for (bool root_entry = true;; root_entry = false) {
    if (!root_entry) {
      if (open.size == 0) break;
      top = open.pop();
    }
    const Node node = table.nodes[static_cast<size_t>(top.node)];
    if (entry_f(top) != node.g + node.h) continue;  // stale: reached more cheaply since
    if ((node.state & goal_mask) == goal_value) {
      outcome.status = write_plan(table.nodes, top.node, out, len) ? PlanStatus::kSolved
                                                                   : PlanStatus::kBufferTooSmall;
      sync();
      return outcome;
    }
    if (expanded >= limits.max_expansions || out_of_time(expanded, limits, start)) {
      outcome.status = PlanStatus::kLimitReached;
      outcome.detail = expanded >= limits.max_expansions ? kDetailExpansionLimit : kDetailTimeLimit;
      sync();
      return outcome;
    }
    ++expanded;
    for (const Action& a : actions_) {
      if ((node.state & a.pre_mask) != a.pre_value) continue;
      ++generated;
      if (static_cast<int64_t>(table.num_nodes) + 1 > table.room && !table.make_room(s))
          [[unlikely]] {
        outcome.status = PlanStatus::kLimitReached;
        outcome.detail = kDetailMemoryLimit;
        sync();
        return outcome;
      }
      const uint64_t child = (node.state & ~a.eff_mask) | a.eff_value;
      const int64_t g = node.g + a.cost;
      const int32_t id = table.intern(child, inserted);
      Node& known = table.nodes[static_cast<size_t>(id)];
      if (inserted) {
        const int64_t h = heuristic<kOneBit>(s, child, goal_mask, goal_value);
        known = {child, g, h, top.node, a.id};
        if (h < kInf) open.push(g + h, g, id);  // a dead end is never pushed
      } else if (g < known.g && known.h < kInf) {
        known.g = g;
        known.parent = top.node;
        known.action = a.id;
        open.push(g + known.h, g, id);
      }
    }
  }
  outcome.status = PlanStatus::kUnsolvable;
  outcome.detail = kDetailExhausted;
  sync();
  return outcome;
}

// At a cache line's start: its loops' place in the instruction cache and decoders no longer
// depends on the code linked before it (which moved its time per plan by 10 % between builds).
[[gnu::aligned(64)]] PlanOutcome PackedAStar::plan(PackedAStarScratch& s,
                                                   std::span<const ValueId> s0,
                                                   std::span<const ValueId> goal,
                                                   const SearchLimits& limits,
                                                   std::span<ActionId> out, int32_t* len) const {
  *len = 0;
  s.expanded = s.generated = 0;
  const size_t m = vars_.size();
  if (s0.size() != m || goal.size() != m) return PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput};
  // The root, the goal's masks and its heuristic, checking values on the way.
  uint64_t root = 0, goal_mask = 0, goal_value = 0;
  static_assert(kUndefined == -1);  // g + 1 in [0, size]: free or in range
  if (compact_) {
    if (!pack_one_bit(s0.data(), goal.data(), m, root, goal_mask, goal_value))
      return PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput};
    return search<true>(s, root, goal_mask, goal_value, limits, out, len);
  }
  s.num_terms = 0;
  for (size_t v = 0; v < m; ++v) {
    const Var& x = vars_[v];
    const ValueId a = s0[v];
    const ValueId g = goal[v];
    if (static_cast<uint32_t>(a) >= static_cast<uint32_t>(x.size) ||
        static_cast<uint32_t>(g) + 1 > static_cast<uint32_t>(x.size))
      return PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput};
    root |= static_cast<uint64_t>(a) << x.shift;
    if (g == kUndefined) continue;
    goal_mask |= x.field << x.shift;
    goal_value |= static_cast<uint64_t>(g) << x.shift;
    s.terms[s.num_terms++] = {dist_.data() + x.offset + int64_t{g} * x.size, x.field, x.shift};
  }
  return search<false>(s, root, goal_mask, goal_value, limits, out, len);
}

}  // namespace topoplan::detail
