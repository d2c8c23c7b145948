// The frame's batch (agents.h): the queue's head planned as one crowd batch, its answers adopted
// as plans, in pieces over the crowd's task hook.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "agents/world_impl.h"

namespace topoplan::agents {

namespace {
// A crowd answer without an adoptable plan as the planner's outcome (the inverse, for no-plan
// answers, of the crowd's status bits): `too_long`, a plan longer than max_plan_length.
PlanOutcome crowd_answer(CrowdStatus st, bool too_long) {
  if ((st & kCrowdBufferTooSmall) != 0 || too_long) return PlanOutcome{PlanStatus::kBufferTooSmall};
  if ((st & kCrowdUnsolvable) != 0) return PlanOutcome{PlanStatus::kUnsolvable};
  if ((st & kCrowdBadInput) != 0) return PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput};
  if ((st & kCrowdPending) != 0) return PlanOutcome{PlanStatus::kLimitReached};
  return PlanOutcome{PlanStatus::kGaveUp};
}
}  // namespace

// Row k of the batch from agent batch_agent[k]: reads that agent, writes row k only.
void AgentWorld::Impl::gather(int32_t begin, int32_t end) {
  const auto w = static_cast<size_t>(words);
  for (int32_t k = begin; k < end; ++k) {
    const auto row = static_cast<size_t>(k);
    const int32_t i = batch_agent[row];
    const auto u = static_cast<size_t>(i);
    batch_class[row] = cls[u];
    const uint64_t* packed_goal = goals[static_cast<size_t>(goal[u])].packed.data();
    if (w == 1) {
      batch_init[row] = state_of(i)[0];
      batch_goal[row] = packed_goal[0];
    } else {
      std::memcpy(batch_init.data() + row * w, state_of(i), sizeof(uint64_t) * w);
      std::memcpy(batch_goal.data() + row * w, packed_goal, sizeof(uint64_t) * w);
    }
  }
}

void AgentWorld::Impl::run_gather(int32_t begin, int32_t end, int32_t /*worker*/, void* context) {
  auto* self = static_cast<Impl*>(context);
  for (int32_t k = begin; k < end; ++k) {
    const Part& p = self->rows[static_cast<size_t>(k)];
    self->gather(p.batch_begin, p.batch_end);
  }
}

// The answers of the part's rows, in row order. The agents of a batch are distinct (an agent is
// queued once), so parts touch disjoint agents; marking the shared bitmap is left to the caller.
void AgentWorld::Impl::adopt(Part& out) {
  for (int32_t k = out.batch_begin; k < out.batch_end; ++k) {
    const auto row = static_cast<size_t>(k);
    const int32_t i = batch_agent[row];
    const auto u = static_cast<size_t>(i);
    const CrowdStatus st = out_status[row];
    const auto why = static_cast<ReplanReason>(queued_reason[u]);
    const int32_t l = out_length[row];
    if ((st & kCrowdSolved) == 0 || l > max_len) {
      const PlanOutcome np = hook != nullptr ? hook_outcome[row] : crowd_answer(st, l > max_len);
      abort_running(out, i, why);
      drop_plan(i);
      flags[u] |= kBlocked;
      plan_version[u] = version;
      emit(out, i, EventKind::kNoPlan, static_cast<uint8_t>(np.status), -1, goal[u],
           static_cast<uint16_t>(np.detail));
      continue;
    }
    const ActionId* p = out_actions.data() + out_offset[row];
    const bool keep = (flags[u] & kRunning) != 0 && l > 0 && plan_of(i)[step[u]] == p[0];
    if (!keep) abort_running(out, i, why);
    uint16_t* dst = plan_of(i);
    for (int32_t j = 0; j < l; ++j) dst[j] = static_cast<uint16_t>(p[j]);
    len[u] = static_cast<uint8_t>(l);
    step[u] = 0;
    flags[u] |= kHasPlan;
    plan_frame[u] = static_cast<uint32_t>(frame);
    plan_version[u] = version;
    emit(out, i, EventKind::kPlanned, static_cast<uint8_t>(why), l, goal[u]);
    if (l == 0) {
      // The goal already holds: the next update picks the next goal. An agent the hook plans
      // without a goal waits for a change instead of asking the hook every frame.
      if (goal[u] != kNoGoal)
        out.marks.push_back(i);  // the goal already holds: the next update picks the next goal
    } else if (!keep) {
      start(out, i);
    }
  }
}

void AgentWorld::Impl::run_adopt(int32_t begin, int32_t end, int32_t /*worker*/, void* context) {
  auto* self = static_cast<Impl*>(context);
  for (int32_t k = begin; k < end; ++k) self->adopt(self->rows[static_cast<size_t>(k)]);
}

// Row by row, in batch order: the class's planners in chain order until one answers (a plan or a
// proof); the answers are written as the crowd writes them, so adopt() reads both alike.
void AgentWorld::Impl::plan_chain(int32_t m) {
  const CrowdLayout& layout = planner->layout();
  for (int32_t k = 0; k < m; ++k) {
    const auto row = static_cast<size_t>(k);
    const int32_t i = batch_agent[row];
    ChainClass& cc = chain[batch_class[row]];
    if (layout.words() > 0) layout.unpack_state(state_of(i), chain_s0);
    const std::vector<ValueId>& g = goals[static_cast<size_t>(goal[static_cast<size_t>(i)])].values;
    CrowdStatus st = kCrowdNoPlan;
    int32_t length = 0;
    for (size_t p = 0; p < cc.planners.size(); ++p) {
      const PlanOutcome o = cc.planners[p]->plan(*cc.scratches[p], chain_s0, g, chain_plan, &length,
                                                 def.crowd.fallback_limits);
      if (o.status == PlanStatus::kSolved) {
        st = kCrowdSolved | kCrowdFallback;
        break;
      }
      if (o.status == PlanStatus::kBufferTooSmall) {
        st = kCrowdBufferTooSmall;
        break;
      }
      if (o.status == PlanStatus::kUnsolvable) {
        st = kCrowdUnsolvable | kCrowdFallback;
        break;
      }
      if ((o.detail & kDetailBadInput) != 0) {
        st = kCrowdNoPlan | kCrowdBadInput;
        break;
      }
    }
    const bool solved = (st & kCrowdSolved) != 0;
    out_offset[row] = static_cast<uint32_t>(row * static_cast<size_t>(max_len));
    out_length[row] = static_cast<uint16_t>(solved ? std::min(length, 0xFFFF) : 0);
    out_status[row] = st;
    if (solved && length <= max_len)
      std::copy(chain_plan.begin(), chain_plan.begin() + length,
                out_actions.begin() + out_offset[row]);
  }
}

// Row by row, in batch order, on this thread: the hook's answer written as the crowd writes one.
void AgentWorld::Impl::plan_hook(int32_t m) {
  const CrowdLayout& layout = planner->layout();
  const ActionId num_actions = domain->num_actions();
  for (int32_t k = 0; k < m; ++k) {
    const auto row = static_cast<size_t>(k);
    const int32_t i = batch_agent[row];
    if (layout.words() > 0) layout.unpack_state(state_of(i), chain_s0);
    int32_t length = 0;
    PlanOutcome o = hook->plan(i, goal[static_cast<size_t>(i)], chain_s0, chain_plan, &length);
    if (o.status == PlanStatus::kSolved) {
      if (length < 0 || length > max_len) {
        o = PlanOutcome{PlanStatus::kBufferTooSmall};
      } else {
        for (int32_t j = 0; j < length; ++j)
          if (chain_plan[static_cast<size_t>(j)] < 0 ||
              chain_plan[static_cast<size_t>(j)] >= num_actions)
            o = PlanOutcome{PlanStatus::kGaveUp, kDetailBadInput};
      }
    }
    CrowdStatus st = kCrowdNoPlan;
    if (o.status == PlanStatus::kSolved)
      st = kCrowdSolved;
    else if (o.status == PlanStatus::kBufferTooSmall)
      st = kCrowdBufferTooSmall;
    else if (o.status == PlanStatus::kUnsolvable)
      st = kCrowdUnsolvable;
    else if ((o.detail & kDetailBadInput) != 0)
      st = kCrowdNoPlan | kCrowdBadInput;
    else if (o.status == PlanStatus::kLimitReached)
      st = kCrowdNoPlan | kCrowdPending;
    const bool solved = st == kCrowdSolved;
    hook_outcome[row] = PlanOutcome{o.status, o.detail};
    out_offset[row] = static_cast<uint32_t>(row * static_cast<size_t>(max_len));
    out_length[row] = static_cast<uint16_t>(solved ? length : 0);
    out_status[row] = st;
    if (solved)
      std::copy(chain_plan.begin(), chain_plan.begin() + length,
                out_actions.begin() + out_offset[row]);
  }
}

void AgentWorld::Impl::plan_batch(std::span<Event> events, int64_t& written, int64_t& dropped,
                                  UpdateStats& stats) {
  const int64_t take = std::min<int64_t>(queue_size, batch_cap);
  int32_t m = 0;
  for (int64_t k = 0; k < take; ++k) {
    const int32_t i = queue[static_cast<size_t>(queue_head)];
    if (++queue_head == def.capacity) queue_head = 0;
    const auto u = static_cast<size_t>(i);
    flags[u] &= static_cast<uint8_t>(~kQueued);
    if (goal[u] == kNoGoal && !hook_decides(i)) continue;
    batch_agent[static_cast<size_t>(m++)] = i;
  }
  queue_size -= take;
  if (m == 0) return;
  // Pieces of whole rows, at least min_rows_per_part each; several only when the host gave threads.
  int32_t count = 1;
  if (def.crowd.enqueue_task != nullptr && rows.size() > 1)
    count = std::clamp(m / min_rows_per_part(def), 1, static_cast<int32_t>(rows.size()));
  for (int32_t k = 0; k < count; ++k) {
    Part& p = rows[static_cast<size_t>(k)];
    p.reset(events.subspan(static_cast<size_t>(written)), count > 1);
    p.batch_begin = static_cast<int32_t>(static_cast<int64_t>(m) * k / count);
    p.batch_end = static_cast<int32_t>(static_cast<int64_t>(m) * (k + 1) / count);
  }
  if (hook == nullptr) run(&Impl::run_gather, count);
  const auto mm = static_cast<size_t>(m);
  const auto w = static_cast<size_t>(words);
  const CrowdBatch batch{std::span<const uint16_t>(batch_class.data(), mm),
                         std::span<const uint64_t>(batch_init.data(), mm * w),
                         std::span<const uint64_t>(batch_goal.data(), mm * w)};
  const CrowdOutput answers{
      std::span<ActionId>(out_actions.data(), mm * static_cast<size_t>(max_len)),
      std::span<uint32_t>(out_offset.data(), mm), std::span<uint16_t>(out_length.data(), mm),
      std::span<CrowdStatus>(out_status.data(), mm)};
  const auto t0 = std::chrono::steady_clock::now();
  if (hook != nullptr) {
    plan_hook(m);
  } else if (def.topo_first) {
    const CrowdStats planned = crowd->plan(batch, answers);
    stats.cache_hits += planned.cache_hits;
  } else {
    plan_chain(m);
  }
  stats.plan_ns +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  stats.planned += m;
  run(&Impl::run_adopt, count);
  if (count == 1) {
    written += rows[0].written;
    dropped += rows[0].dropped;
  } else {
    copy_out(rows, count, events, written, dropped);
  }
  for (int32_t k = 0; k < count; ++k)
    for (const int32_t i : rows[static_cast<size_t>(k)].marks) mark(i);
}

}  // namespace topoplan::agents
