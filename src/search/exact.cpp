// Uniform-cost search over bit-packed states: the oracle.
//
// Kept deliberately simple so that it is obviously right: Dijkstra with a binary heap and lazy
// deletion, a goal test at expansion (so the first goal expanded is optimal), successors by a
// scan over the available actions. States live in one contiguous word pool; a linear-probing
// hash table maps packed states to ids. Memory is accounted for as it grows and a limit stops
// the search with kLimitReached — never with a wrong "unsolvable".
#include <algorithm>
#include <chrono>
#include <cstring>
#include <queue>

#include "search/state_table.h"
#include "topoplan/search.h"
#include "topoplan/state.h"
#include "topoplan/validate.h"

namespace topoplan {
namespace {

struct OpenEntry {
  int64_t g;
  int64_t order;  // insertion order: FIFO among equal g, for determinism
  int32_t state;
  bool operator>(const OpenEntry& o) const { return g != o.g ? g > o.g : order > o.order; }
};

// Flat conditions and effects of the available actions, in action-id order.
struct Operators {
  std::vector<ActionId> ids;
  std::vector<int32_t> cond_offset{0};
  std::vector<Fact> conds;  // pre-conditions (defined ones) and prevail-conditions
  std::vector<int32_t> eff_offset{0};
  std::vector<Fact> effs;  // (var, post)
  std::vector<int64_t> step_cost;

  Operators(const Domain& d, std::span<const uint8_t> mask, Objective objective) {
    for (ActionId a = 0; a < d.num_actions(); ++a) {
      if (!mask[static_cast<size_t>(a)]) continue;
      ids.push_back(a);
      for (const Effect& e : d.effects(a)) {
        if (e.pre != kUndefined) conds.push_back({e.var, e.pre});
        effs.push_back({e.var, e.post});
      }
      for (const Fact& f : d.prevail(a)) conds.push_back(f);
      cond_offset.push_back(static_cast<int32_t>(conds.size()));
      eff_offset.push_back(static_cast<int32_t>(effs.size()));
      step_cost.push_back(objective == Objective::kLength ? 1 : d.cost(a));
    }
  }
};

}  // namespace

PlanResult plan_exact(const Domain& domain, const Instance& instance,
                      const PlannerOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  PlanResult result;
  result.stats.engine = "exact";
  auto finish = [&](PlanStatus status, std::string message) {
    result.status = status;
    result.message = std::move(message);
    result.stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return result;
  };
  if (auto err = domain.check_instance(instance))
    return finish(PlanStatus::kGaveUp, "invalid instance: " + err->message);

  const StatePacker packer(domain);
  const Operators ops(domain, domain.action_mask(instance.npc_class), options.objective);
  StateTable table(packer.num_words());

  struct Node {
    int64_t g;
    int32_t parent;
    int32_t op;  // index into ops.ids; -1 for the root
    bool closed;
  };
  std::vector<Node> nodes;
  std::priority_queue<OpenEntry, std::vector<OpenEntry>, std::greater<>> open;
  int64_t order = 0;

  const auto words = static_cast<size_t>(packer.num_words());
  std::vector<uint64_t> buffer(words);
  packer.pack(instance.init, buffer.data());
  table.insert(buffer.data());
  nodes.push_back(Node{0, -1, -1, false});
  open.push(OpenEntry{0, order++, 0});

  const std::span<const ValueId> goal(instance.goal);
  const SearchLimits& limits = options.limits;
  auto memory_used = [&] {
    return static_cast<int64_t>(table.memory_bytes() + nodes.capacity() * sizeof(Node) +
                                open.size() * sizeof(OpenEntry));
  };

  while (!open.empty()) {
    const OpenEntry top = open.top();
    open.pop();
    Node& node = nodes[static_cast<size_t>(top.state)];
    if (node.closed || top.g > node.g) continue;  // stale entry
    node.closed = true;
    const uint64_t* state = table.state(top.state);

    bool is_goal = true;
    for (VarId v = 0; v < domain.num_variables(); ++v)
      if (goal[static_cast<size_t>(v)] != kUndefined &&
          packer.get(state, v) != goal[static_cast<size_t>(v)]) {
        is_goal = false;
        break;
      }
    if (is_goal) {
      for (int32_t s = top.state; nodes[static_cast<size_t>(s)].parent >= 0;
           s = nodes[static_cast<size_t>(s)].parent)
        result.actions.push_back(ops.ids[static_cast<size_t>(nodes[static_cast<size_t>(s)].op)]);
      std::reverse(result.actions.begin(), result.actions.end());
      result.cost = plan_cost(domain, result.actions);
      return finish(PlanStatus::kSolved, {});
    }

    if (result.stats.expanded >= limits.max_expansions)
      return finish(PlanStatus::kLimitReached, "node limit reached (" +
                                                   std::to_string(limits.max_expansions) +
                                                   " expansions); raise --max-expansions");
    ++result.stats.expanded;
    if (limits.max_seconds > 0 && (result.stats.expanded & 1023) == 0 &&
        std::chrono::duration<double>(Clock::now() - start).count() > limits.max_seconds)
      return finish(PlanStatus::kLimitReached, "time limit reached");

    std::memcpy(buffer.data(), state, words * sizeof(uint64_t));
    for (size_t o = 0; o < ops.ids.size(); ++o) {
      bool ok = true;
      for (int32_t c = ops.cond_offset[o]; c < ops.cond_offset[o + 1]; ++c) {
        const Fact& f = ops.conds[static_cast<size_t>(c)];
        if (packer.get(buffer.data(), f.var) != f.value) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      // Apply into a copy of the parent (the parent's storage may move on insert).
      std::vector<uint64_t>& child = table.scratch();
      std::memcpy(child.data(), buffer.data(), words * sizeof(uint64_t));
      for (int32_t e = ops.eff_offset[o]; e < ops.eff_offset[o + 1]; ++e) {
        const Fact& f = ops.effs[static_cast<size_t>(e)];
        packer.set(child.data(), f.var, f.value);
      }
      ++result.stats.generated;
      const int64_t g = top.g + ops.step_cost[o];
      const auto [id, inserted] = table.insert(child.data());
      if (inserted) {
        nodes.push_back(Node{g, top.state, static_cast<int32_t>(o), false});
        open.push(OpenEntry{g, order++, id});
      } else {
        Node& other = nodes[static_cast<size_t>(id)];
        if (!other.closed && g < other.g) {
          other = Node{g, top.state, static_cast<int32_t>(o), false};
          open.push(OpenEntry{g, order++, id});
        }
      }
    }
    if (memory_used() > limits.max_memory_bytes)
      return finish(PlanStatus::kLimitReached,
                    "memory limit reached (" + std::to_string(limits.max_memory_bytes) +
                        " bytes) after " + std::to_string(table.size()) + " states");
  }
  return finish(PlanStatus::kUnsolvable,
                "no plan: all " + std::to_string(table.size()) + " reachable states explored");
}

}  // namespace topoplan
