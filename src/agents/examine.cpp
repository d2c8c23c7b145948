// The examination of a frame (agents.h): which agents are looked at, the replan rules, and the
// pieces it runs in over the crowd's task hook.
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "agents/world_impl.h"

namespace topoplan::agents {

void AgentWorld::Impl::examine(Part& out, int32_t i, bool was_sensed, bool was_due) {
  const auto u = static_cast<size_t>(i);
  uint8_t f = flags[u];
  uint64_t* s = state_of(i);
  ReplanReason reason = ReplanReason::kNone;
  bool advanced = false;
  const bool running = (f & kRunning) != 0;
  settle(i);
  if ((f & kReportFailed) != 0 && running) {
    reason = ReplanReason::kActionFailed;
    f &= static_cast<uint8_t>(~kRunning);
  } else if (running && ((f & kReportDone) != 0 || effects_hold(s, plan_of(i)[step[u]]))) {
    apply(s, plan_of(i)[step[u]]);  // a no-op when the engine wrote the effects itself
    add_drive_effects(i, plan_of(i)[step[u]]);
    ++step[u];
    f &= static_cast<uint8_t>(~kRunning);
    advanced = true;
  }
  f &= static_cast<uint8_t>(~(kReportDone | kReportFailed));
  if (was_sensed || (was_due && plan_version[u] != version)) f &= static_cast<uint8_t>(~kBlocked);
  flags[u] = f;
  if (reason == ReplanReason::kActionFailed) drop_plan(i);

  // The goal: by the agent's list (the first that does not hold, or the best scored).
  const GoalId old_goal = goal[u];
  double score = 0.0;
  GoalId g = choose(i, score);
  // An action that runs to its end keeps its goal until it finishes (a better goal only).
  if (g != old_goal && reason == ReplanReason::kNone && old_goal != kNoGoal &&
      (flags[u] & kRunning) != 0 && runs_to_end[plan_of(i)[step[u]]] != 0 &&
      !goal_holds(s, old_goal))
    g = old_goal;
  if (g != old_goal) {
    if (!drives.empty()) goal_score[u] = score;
    const bool reached = old_goal != kNoGoal && goal_holds(s, old_goal);
    if (reached) {
      emit(out, i, EventKind::kGoalReached, 0, -1, old_goal);
      if (reason == ReplanReason::kNone) reason = ReplanReason::kPlanFinished;
    } else if (old_goal != kNoGoal && reason == ReplanReason::kNone) {
      reason = ReplanReason::kBetterGoal;
    }
    abort_running(out, i, reason == ReplanReason::kNone ? ReplanReason::kNoPlan : reason);
    drop_plan(i);
    flags[u] &= static_cast<uint8_t>(~kBlocked);
    goal[u] = g;
    emit(out, i, EventKind::kGoalChanged, 0, -1, g);
  }
  if (g == kNoGoal && !hook_decides(i)) return;
  f = flags[u];
  if (reason == ReplanReason::kNone) {
    if ((f & kHasPlan) == 0) {
      if ((f & kBlocked) == 0) reason = ReplanReason::kNoPlan;
    } else if (step[u] >= len[u]) {
      reason = ReplanReason::kPlanFinished;  // the goal still does not hold
    } else if (was_sensed || advanced) {
      const int32_t broken = first_broken(out, i, step[u]);
      if (broken >= 0) {
        reason = ReplanReason::kConditionBroken;
        if (broken == step[u]) abort_running(out, i, reason);
      }
    }
    if (reason == ReplanReason::kNone && was_due && (f & kHasPlan) != 0) {
      if (plan_version[u] != version)
        reason = ReplanReason::kWorldChanged;
      else if (def.max_plan_age > 0 &&
               frame - static_cast<int64_t>(plan_frame[u]) > def.max_plan_age)
        reason = ReplanReason::kPlanTooOld;
    }
  }
  if (reason != ReplanReason::kNone) {
    last_reason[u] = static_cast<uint8_t>(reason);
    enqueue(out, i, reason);
  } else if (advanced && (flags[u] & kQueued) == 0) {
    start(out, i);
  }
}

// The agents of the part's words that changed or are due, in agent order. Touches only these
// agents' entries (and the part's own outputs), so parts may run on different threads.
void AgentWorld::Impl::examine_part(Part& out) {
  const auto now = static_cast<uint32_t>(frame);
  const int32_t count = n;
  for (int32_t word = out.word_begin; word < out.word_end; ++word) {
    const int32_t base = word * 64;
    const int32_t end = std::min(count, base + 64);
    uint64_t due_bits = 0;
    for (int32_t i = base; i < end; ++i)
      due_bits |= static_cast<uint64_t>(next_due[static_cast<size_t>(i)] <= now) << (i - base);
    const uint64_t sensed_bits = sensed[static_cast<size_t>(word)];
    uint64_t bits = sensed_bits | due_bits;
    if (bits == 0) continue;
    sensed[static_cast<size_t>(word)] = 0;
    while (bits != 0) {
      const int bit = std::countr_zero(bits);
      bits &= bits - 1;
      const int32_t i = base + bit;
      const bool is_due = ((due_bits >> bit) & 1) != 0;
      if (is_due) next_due[static_cast<size_t>(i)] = now + period[static_cast<size_t>(i)];
      ++out.examined;
      examine(out, i, ((sensed_bits >> bit) & 1) != 0, is_due);
    }
  }
}

void AgentWorld::Impl::run_parts(int32_t begin, int32_t end, int32_t /*worker*/, void* context) {
  auto* self = static_cast<Impl*>(context);
  for (int32_t k = begin; k < end; ++k) self->examine_part(self->parts[static_cast<size_t>(k)]);
}

void AgentWorld::Impl::run(CrowdTaskFn* task, int32_t count) {
  const CrowdDef& cd = def.crowd;
  if (count <= 1 || cd.enqueue_task == nullptr) {
    task(0, count, 0, this);
    return;
  }
  void* handle = cd.enqueue_task(task, count, 1, this, cd.user_task_context);
  if (handle != nullptr) cd.finish_task(handle, cd.user_task_context);
}

void AgentWorld::Impl::run_copy(int32_t begin, int32_t end, int32_t /*worker*/, void* context) {
  auto* self = static_cast<Impl*>(context);
  for (int32_t k = begin; k < end; ++k) {
    const Part& p = (*self->copying)[static_cast<size_t>(k)];
    if (p.copy > 0)
      std::memcpy(self->copy_to.data() + p.offset, p.buffer.data(), sizeof(Event) * p.copy);
  }
}

void AgentWorld::Impl::copy_out(std::vector<Part>& pieces, int32_t count, std::span<Event> events,
                                int64_t& written, int64_t& dropped) {
  for (int32_t k = 0; k < count; ++k) {
    Part& p = pieces[static_cast<size_t>(k)];
    const auto room = static_cast<size_t>(static_cast<int64_t>(events.size()) - written);
    p.offset = static_cast<size_t>(written);
    p.copy = std::min(p.buffer.size(), room);
    written += static_cast<int64_t>(p.copy);
    dropped += static_cast<int64_t>(p.buffer.size() - p.copy);
  }
  copying = &pieces;
  copy_to = events;
  run(&Impl::run_copy, count);
}

}  // namespace topoplan::agents
