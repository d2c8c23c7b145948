// topoplan::agents — the agent loop (agents.h). Hot data is struct-of-arrays; conditions, effects
// and goals are compiled once into masks over the crowd layout's words, so that the checks of an
// examined agent are a few AND/XOR per word and a batch reads believed states as they are.
#include <algorithm>
#include <bit>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/validate.h"

namespace topoplan::agents {

std::string_view to_string(ReplanReason reason) {
  switch (reason) {
    case ReplanReason::kNone:
      return "none";
    case ReplanReason::kNoPlan:
      return "no-plan";
    case ReplanReason::kPlanFinished:
      return "plan-finished";
    case ReplanReason::kActionFailed:
      return "action-failed";
    case ReplanReason::kConditionBroken:
      return "condition-broken";
    case ReplanReason::kBetterGoal:
      return "better-goal";
    case ReplanReason::kWorldChanged:
      return "world-changed";
    case ReplanReason::kPlanTooOld:
      return "plan-too-old";
  }
  return "?";
}

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

PlanOutcome no_plan_outcome(const Event& e) {
  return PlanOutcome{static_cast<PlanStatus>(e.detail), PlanDetail{e.step}, -1, -1, -1, {}};
}

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::kStartAction:
      return "start";
    case EventKind::kAbortAction:
      return "abort";
    case EventKind::kGoalChanged:
      return "goal";
    case EventKind::kPlanned:
      return "planned";
    case EventKind::kGoalReached:
      return "reached";
    case EventKind::kNoPlan:
      return "no-plan";
  }
  return "?";
}

namespace {

// Per-agent flags.
constexpr uint8_t kHasPlan = 1;       // plan[0, len) is the agent's plan
constexpr uint8_t kRunning = 2;       // plan[step] runs
constexpr uint8_t kReportDone = 4;    // the engine reported the running action finished
constexpr uint8_t kReportFailed = 8;  // ... failed
constexpr uint8_t kQueued = 16;       // waiting for a plan
constexpr uint8_t kBlocked = 32;      // no plan for its goal; waits for a change

struct Goal {
  std::string name;
  std::vector<ValueId> values;
  std::vector<uint64_t> mask, value;  // per word: the goal's fields and their values
  std::vector<uint64_t> packed;       // crowd goal layout (free fields all ones)
};

// Where a piece of the frame's work writes — the examination of a range of agents, or the adoption
// of a range of the batch's answers: events go straight into the caller's array when one piece
// runs alone, into the piece's own buffer when pieces run in parallel; the buffers are then copied
// in piece order (in parallel too: each piece's place in the array is known from the counts before
// it), so the events are the same for any number of threads.
struct Part {
  int32_t word_begin = 0, word_end = 0;    // examination: the part's 64-agent words
  int32_t batch_begin = 0, batch_end = 0;  // adoption: the part's rows of the batch
  std::span<Event> direct;    // one part: the caller's array (from its next free entry)
  std::vector<Event> buffer;  // parallel parts: copied after the phase
  bool buffered = false;
  int64_t written = 0, dropped = 0;
  size_t offset = 0, copy = 0;    // where its buffer goes in the caller's array, and how many fit
  std::vector<int32_t> enqueued;  // agents that asked for a plan, in examination order
  std::vector<int32_t> marks;     // adoption: agents to examine again next frame
  std::array<int64_t, kNumReplanReasons> replans{};
  int64_t examined = 0;
  std::vector<uint64_t> scratch;  // one state

  // Built in place: an Event assembled on the stack and then copied whole stalls on store
  // forwarding, and there are several hundred thousand events per frame at 10^6 agents.
  [[gnu::always_inline]] inline void put(AgentId a, EventKind kind, uint8_t detail, uint16_t at,
                                         ActionId action, GoalId g) {
    if (buffered) {
      buffer.push_back(Event{a, kind, detail, at, action, g});
    } else if (written < static_cast<int64_t>(direct.size())) {
      direct[static_cast<size_t>(written++)] = Event{a, kind, detail, at, action, g};
    } else {
      ++dropped;
    }
  }
  void reset(std::span<Event> out, bool parallel) {
    buffered = parallel;
    direct = out;
    buffer.clear();
    written = dropped = examined = 0;
    offset = copy = 0;
    enqueued.clear();
    marks.clear();
    replans = {};
  }
};

// Adoption pieces hold at least min_agents_per_part / 8 rows of the batch (64 at least): adopting
// a plan costs several times what examining an agent does on average (most examined words hold no
// due or changed agent), and below that a piece's copy and hand-over cost more than it saves.
int32_t min_rows_per_part(const AgentWorldDef& def) {
  return std::max(64, def.min_agents_per_part / 8);
}

}  // namespace

struct AgentWorld::Impl {
  const CrowdPlanner* planner = nullptr;
  const Domain* domain = nullptr;
  AgentWorldDef def;
  int32_t words = 0;  // per believed state
  int32_t max_len = 0;
  std::unique_ptr<PlanCache> cache;
  std::unique_ptr<Crowd> crowd;  // by pointer: Crowd's default constructor needs its internals

  // Per action, per word: condition (pre + prevail) and effect masks and values.
  std::vector<uint64_t> cond_mask, cond_value, eff_mask, eff_value;
  std::vector<Goal> goals;
  std::vector<int32_t> list_offset{0};
  std::vector<GoalId> list_goals;
  std::vector<int32_t> class_list;  // per class: its goal list (-1: none)
  // Drive lists: per list, whether it is one and its margin; per entry (parallel to list_goals),
  // its drive, curve and weight.
  std::vector<uint8_t> list_by_drives;
  std::vector<double> list_margin;
  std::vector<DriveId> entry_drive;
  std::vector<udgoap::Curve> entry_curve;
  std::vector<double> entry_weight;
  std::vector<DriveDef> drives;
  std::vector<double> action_drive;  // per action, per drive: what finishing it adds
  std::vector<uint8_t> action_moves_drives;

  // Agents (struct of arrays, `capacity` entries).
  int32_t n = 0;
  std::vector<uint16_t> cls, list;
  std::vector<uint64_t> state;  // n * words
  std::vector<GoalId> goal;
  std::vector<uint16_t> plan;  // n * max_len
  std::vector<uint8_t> len, step, flags, last_reason, queued_reason;
  std::vector<uint32_t> next_due, period, plan_frame, plan_version;
  std::vector<double> start_time;
  std::vector<double> drive_value;    // n * drives.size(), as of drive_time
  std::vector<double> drive_time;     // per agent: when its drives were last brought up to date
  std::vector<double> goal_score;     // per agent: its goal's score when chosen from a drive list
  std::vector<uint64_t> sensed, due;  // bitmaps
  std::vector<int32_t> queue;         // ring of agents waiting for a plan
  int64_t queue_head = 0, queue_size = 0;

  // The batch (max_plans_per_frame entries).
  int32_t batch_cap = 0;
  std::vector<int32_t> batch_agent;
  std::vector<uint16_t> batch_class;
  std::vector<uint64_t> batch_init, batch_goal;
  std::vector<ActionId> out_actions;
  std::vector<uint32_t> out_offset;
  std::vector<uint16_t> out_length;
  std::vector<CrowdStatus> out_status;
  std::vector<uint64_t> scratch;         // one state
  std::vector<Part> parts;               // the examination's pieces
  std::vector<Part> rows;                // the adoption's pieces
  std::vector<Part>* copying = nullptr;  // the pieces run_copy copies into `copy_to`
  std::span<Event> copy_to;

  int64_t frame = 0;
  uint32_t version = 0;
  double time = 0;

  [[gnu::always_inline]] static void emit(Part& out, AgentId a, EventKind kind, uint8_t detail,
                                          ActionId action, GoalId g, uint16_t at = 0) {
    out.put(a, kind, detail, at, action, g);
  }
  uint64_t* state_of(int32_t i) { return state.data() + static_cast<size_t>(i) * words; }
  const uint64_t* state_of(int32_t i) const {
    return state.data() + static_cast<size_t>(i) * words;
  }
  uint16_t* plan_of(int32_t i) { return plan.data() + static_cast<size_t>(i) * max_len; }
  const uint16_t* plan_of(int32_t i) const {
    return plan.data() + static_cast<size_t>(i) * max_len;
  }
  void mark(int32_t i) { sensed[static_cast<size_t>(i) >> 6] |= uint64_t{1} << (i & 63); }

  // Most domains pack a believed state into one word (Western does): that case is one AND/XOR,
  // without the loop's bookkeeping, on the examination's hottest line.
  [[nodiscard]] bool holds(const uint64_t* s, const uint64_t* mask, const uint64_t* value) const {
    if (words == 1) return ((s[0] ^ value[0]) & mask[0]) == 0;
    uint64_t diff = 0;
    for (int32_t w = 0; w < words; ++w) diff |= (s[w] ^ value[w]) & mask[w];
    return diff == 0;
  }
  [[nodiscard]] bool applies(const uint64_t* s, ActionId a) const {
    const size_t o = static_cast<size_t>(a) * words;
    return holds(s, cond_mask.data() + o, cond_value.data() + o);
  }
  [[nodiscard]] bool effects_hold(const uint64_t* s, ActionId a) const {
    const size_t o = static_cast<size_t>(a) * words;
    return holds(s, eff_mask.data() + o, eff_value.data() + o);
  }
  void apply(uint64_t* s, ActionId a) const {
    const size_t o = static_cast<size_t>(a) * words;
    if (words == 1) {
      s[0] = (s[0] & ~eff_mask[o]) | eff_value[o];
      return;
    }
    for (int32_t w = 0; w < words; ++w)
      s[w] = (s[w] & ~eff_mask[o + w]) | eff_value[o + static_cast<size_t>(w)];
  }
  [[nodiscard]] bool goal_holds(const uint64_t* s, GoalId g) const {
    const Goal& goal_rec = goals[static_cast<size_t>(g)];
    return holds(s, goal_rec.mask.data(), goal_rec.value.data());
  }
  double* drives_of(int32_t i) {
    return drive_value.data() + static_cast<size_t>(i) * drives.size();
  }
  const double* drives_of(int32_t i) const {
    return drive_value.data() + static_cast<size_t>(i) * drives.size();
  }
  [[nodiscard]] double drive_now(int32_t i, DriveId d) const {
    const DriveDef& dd = drives[static_cast<size_t>(d)];
    const double v = drives_of(i)[d];
    const double elapsed = time - drive_time[static_cast<size_t>(i)];
    if (dd.rate == 0.0 || elapsed == 0.0) return v;
    return std::clamp(v + dd.rate * elapsed, dd.min, dd.max);
  }
  // Brings the agent's drives up to the world's time (the rates since they were last settled).
  void settle(int32_t i) {
    if (drives.empty()) return;
    const auto u = static_cast<size_t>(i);
    if (drive_time[u] == time) return;
    double* v = drives_of(i);
    for (size_t d = 0; d < drives.size(); ++d) v[d] = drive_now(i, static_cast<DriveId>(d));
    drive_time[u] = time;
  }
  void add_drive_effects(int32_t i, ActionId a) {
    if (drives.empty() || action_moves_drives[static_cast<size_t>(a)] == 0) return;
    double* v = drives_of(i);
    const double* delta = action_drive.data() + static_cast<size_t>(a) * drives.size();
    for (size_t d = 0; d < drives.size(); ++d)
      v[d] = std::clamp(v[d] + delta[d], drives[d].min, drives[d].max);
  }
  // udgoap's utility gain of entry k for agent i (drives settled).
  [[nodiscard]] double entry_score(int32_t i, int32_t k) const {
    const auto e = static_cast<size_t>(k);
    const DriveId d = entry_drive[e];
    const DriveDef& dd = drives[static_cast<size_t>(d)];
    const double x = udgoap::normalise(drives_of(i)[d], dd.min, dd.max);
    return entry_weight[e] * (1.0 - udgoap::evaluate(entry_curve[e], x));
  }
  // The entry of highest score whose goal does not hold (ties: the first), unless the current
  // goal still has something to gain and the best does not beat its score when chosen by more
  // than the margin. No goal when every score is 0.
  [[nodiscard]] GoalId choose_by_drives(int32_t i, uint16_t l, double& score) const {
    const auto u = static_cast<size_t>(i);
    const uint64_t* s = state_of(i);
    const GoalId current = goal[u];
    GoalId best = kNoGoal;
    double best_score = 0.0, current_now = 0.0;
    for (int32_t k = list_offset[l]; k < list_offset[l + 1u]; ++k) {
      const GoalId g = list_goals[static_cast<size_t>(k)];
      if (goal_holds(s, g)) continue;
      const double sc = entry_score(i, k);
      if (g == current) current_now = std::max(current_now, sc);
      if (sc > best_score) {
        best = g;
        best_score = sc;
      }
    }
    if (current != kNoGoal && current != best && current_now > 0.0 &&
        !(best_score > goal_score[u] + list_margin[l])) {
      score = goal_score[u];
      return current;
    }
    score = best_score;
    return best;
  }
  // The agent's goal: by its list's kind; `score` is the drive score of the goal (0 for a
  // priority list).
  [[nodiscard]] GoalId choose(int32_t i, double& score) const {
    score = 0.0;
    const uint16_t l = list[static_cast<size_t>(i)];
    if (l == 0xFFFF) return kNoGoal;
    if (list_by_drives[l] != 0) return choose_by_drives(i, l, score);
    const uint64_t* s = state_of(i);
    for (int32_t k = list_offset[l]; k < list_offset[l + 1u]; ++k)
      if (!goal_holds(s, list_goals[static_cast<size_t>(k)]))
        return list_goals[static_cast<size_t>(k)];
    return kNoGoal;
  }
  // Validates plan[from, len) and then the goal from the believed state: the first step that
  // fails, len when only the goal fails, -1 when the rest is a plan.
  [[nodiscard]] int32_t first_broken(Part& out, int32_t i, int32_t from) {
    uint64_t* s = out.scratch.data();
    if (words == 1)
      s[0] = state_of(i)[0];
    else
      std::memcpy(s, state_of(i), sizeof(uint64_t) * static_cast<size_t>(words));
    const uint16_t* p = plan_of(i);
    const int32_t l = len[static_cast<size_t>(i)];
    for (int32_t k = from; k < l; ++k) {
      if (!applies(s, p[k])) return k;
      apply(s, p[k]);
    }
    return goal_holds(s, goal[static_cast<size_t>(i)]) ? -1 : l;
  }
  // Marks the agent queued; the part's list goes into the queue after the examination phase.
  void enqueue(Part& out, int32_t i, ReplanReason reason) {
    uint8_t& f = flags[static_cast<size_t>(i)];
    if ((f & kQueued) != 0) return;
    f |= kQueued;
    queued_reason[static_cast<size_t>(i)] = static_cast<uint8_t>(reason);
    ++out.replans[static_cast<size_t>(reason)];
    out.enqueued.push_back(i);
  }
  void start(Part& out, int32_t i) {
    const auto u = static_cast<size_t>(i);
    flags[u] |= kRunning;
    start_time[u] = time;
    emit(out, i, EventKind::kStartAction, 0, plan_of(i)[step[u]], goal[u], step[u]);
  }
  void abort_running(Part& out, int32_t i, ReplanReason why) {
    const auto u = static_cast<size_t>(i);
    if ((flags[u] & kRunning) == 0) return;
    emit(out, i, EventKind::kAbortAction, static_cast<uint8_t>(why), plan_of(i)[step[u]], goal[u],
         step[u]);
    flags[u] &= static_cast<uint8_t>(~kRunning);
  }
  void drop_plan(int32_t i) {
    flags[static_cast<size_t>(i)] &= static_cast<uint8_t>(~(kHasPlan | kRunning));
    len[static_cast<size_t>(i)] = 0;
    step[static_cast<size_t>(i)] = 0;
  }

  void examine(Part& out, int32_t i, bool was_sensed, bool was_due);
  void examine_part(Part& out);
  void gather(int32_t begin, int32_t end);
  void adopt(Part& out);
  static void run_parts(int32_t begin, int32_t end, int32_t worker, void* context);
  static void run_gather(int32_t begin, int32_t end, int32_t worker, void* context);
  static void run_adopt(int32_t begin, int32_t end, int32_t worker, void* context);
  static void run_copy(int32_t begin, int32_t end, int32_t worker, void* context);
  // Runs task(k, k + 1) for k in [0, count) on the crowd's task hook (here when count is 1).
  void run(CrowdTaskFn* task, int32_t count);
  // The buffers of pieces[0, count) go to events[written, ...) in piece order: offsets from the
  // counts, then the copies in parallel. Those past the array's end are counted as dropped.
  void copy_out(std::vector<Part>& pieces, int32_t count, std::span<Event> events, int64_t& written,
                int64_t& dropped);
  void plan_batch(std::span<Event> events, int64_t& written, int64_t& dropped, UpdateStats& stats);
};

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
  const GoalId g = choose(i, score);
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
  if (g == kNoGoal) return;
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
      const PlanOutcome np = crowd_answer(st, l > max_len);
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

void AgentWorld::Impl::plan_batch(std::span<Event> events, int64_t& written, int64_t& dropped,
                                  UpdateStats& stats) {
  const int64_t take = std::min<int64_t>(queue_size, batch_cap);
  int32_t m = 0;
  for (int64_t k = 0; k < take; ++k) {
    const int32_t i = queue[static_cast<size_t>(queue_head)];
    if (++queue_head == def.capacity) queue_head = 0;
    const auto u = static_cast<size_t>(i);
    flags[u] &= static_cast<uint8_t>(~kQueued);
    if (goal[u] == kNoGoal) continue;
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
  run(&Impl::run_gather, count);
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
  const CrowdStats planned = crowd->plan(batch, answers);
  stats.cache_hits += planned.cache_hits;
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

AgentWorld::AgentWorld() = default;
AgentWorld::AgentWorld(AgentWorld&&) noexcept = default;
AgentWorld& AgentWorld::operator=(AgentWorld&&) noexcept = default;
AgentWorld::~AgentWorld() = default;

Result<AgentWorld> AgentWorld::create(const CrowdPlanner& planner, const AgentWorldDef& def) {
  auto bad = [](const std::string& what) { return Error{"AgentWorldDef: " + what, "", 0}; };
  // The table's ranges and words (limits.h), those of every door.
  const std::pair<const LimitSpec*, int64_t> fields[] = {
      {&limits::kAgentsCapacity, def.capacity},
      {&limits::kAgentsDecisionPeriod, def.decision_period},
      {&limits::kAgentsMaxPlanAge, def.max_plan_age},
      {&limits::kAgentsMaxPlansPerFrame, def.max_plans_per_frame},
      {&limits::kAgentsMinAgentsPerPart, def.min_agents_per_part},
      {&limits::kAgentsMaxPlanLength, def.max_plan_length}};
  for (const auto& field : fields)
    if (auto e = check_limit(*field.first, field.second, "AgentWorldDef")) return *e;
  const Domain& domain = planner.domain();
  if (domain.num_actions() > 0xFFFF) return bad("the domain has more than 65535 actions");

  AgentWorld world;
  world.impl_ = std::make_unique<Impl>();
  Impl& w = *world.impl_;
  w.planner = &planner;
  w.domain = &domain;
  w.def = def;
  w.words = std::max(1, planner.layout().words());
  w.max_len = std::min(def.max_plan_length, std::max(1, planner.max_plan_length()));
  CrowdDef crowd_def = def.crowd;
  if (def.use_cache) {
    auto cache = PlanCache::create(planner, def.cache);
    if (!cache) return cache.error();
    w.cache = std::move(cache.value());
    crowd_def.cache = w.cache.get();
  }
  auto crowd = Crowd::create(planner, crowd_def);
  if (!crowd) return crowd.error();
  w.crowd = std::make_unique<Crowd>(std::move(crowd.value()));

  const CrowdLayout& layout = planner.layout();
  const auto words = static_cast<size_t>(w.words);
  const auto actions = static_cast<size_t>(domain.num_actions());
  for (auto* v : {&w.cond_mask, &w.cond_value, &w.eff_mask, &w.eff_value})
    v->assign(actions * words, 0);
  auto put = [&](std::vector<uint64_t>& mask, std::vector<uint64_t>& value, size_t base, VarId v,
                 ValueId x) {
    const CrowdLayout::Field& fl = layout.field(v);
    mask[base + static_cast<size_t>(fl.word)] |= fl.mask << fl.shift;
    value[base + static_cast<size_t>(fl.word)] |= static_cast<uint64_t>(x) << fl.shift;
  };
  for (ActionId a = 0; a < domain.num_actions(); ++a) {
    const size_t base = static_cast<size_t>(a) * words;
    for (const Effect& e : domain.effects(a)) {
      if (e.pre != kUndefined) put(w.cond_mask, w.cond_value, base, e.var, e.pre);
      put(w.eff_mask, w.eff_value, base, e.var, e.post);
    }
    for (const Fact& p : domain.prevail(a)) put(w.cond_mask, w.cond_value, base, p.var, p.value);
  }
  w.class_list.assign(static_cast<size_t>(planner.num_classes()), -1);

  const auto cap = static_cast<size_t>(def.capacity);
  w.cls.assign(cap, 0);
  w.list.assign(cap, 0xFFFF);
  w.state.assign(cap * words, 0);
  w.goal.assign(cap, kNoGoal);
  w.plan.assign(cap * static_cast<size_t>(w.max_len), 0);
  for (auto* v : {&w.len, &w.step, &w.flags, &w.last_reason, &w.queued_reason}) v->assign(cap, 0);
  for (auto* v : {&w.next_due, &w.period, &w.plan_frame, &w.plan_version}) v->assign(cap, 0);
  w.start_time.assign(cap, 0.0);
  w.sensed.assign(cap / 64 + 1, 0);
  w.due.assign(cap / 64 + 1, 0);
  w.queue.assign(cap, 0);
  w.batch_cap = std::min(def.max_plans_per_frame, def.capacity);
  const auto b = static_cast<size_t>(w.batch_cap);
  w.batch_agent.assign(b, 0);
  w.batch_class.assign(b, 0);
  w.batch_init.assign(b * words, 0);
  w.batch_goal.assign(b * words, 0);
  w.out_actions.assign(b * static_cast<size_t>(w.max_len), 0);
  w.out_offset.assign(b, 0);
  w.out_length.assign(b, 0);
  w.out_status.assign(b, 0);
  w.scratch.assign(words, 0);
  // Parts: one per worker and a few more to even out the load (only with a task hook).
  const int32_t workers =
      def.crowd.enqueue_task != nullptr ? std::max(1, def.crowd.worker_count) : 1;
  const int32_t part_count =
      std::clamp(4 * workers, 1, std::max<int32_t>(1, static_cast<int32_t>(cap / 64 + 1)));
  w.parts.resize(workers > 1 ? static_cast<size_t>(part_count) : 1);
  for (Part& p : w.parts) {
    p.scratch.assign(words, 0);
    p.enqueued.reserve(w.parts.size() > 1 ? cap / w.parts.size() + 64 : cap);
    if (w.parts.size() > 1) p.buffer.reserve(cap / w.parts.size() / 2 + 64);
  }
  w.rows.resize(w.parts.size());
  for (Part& p : w.rows) {
    p.marks.reserve(64);
    if (w.rows.size() > 1) p.buffer.reserve(2 * b / w.rows.size() + 64);
  }
  return world;
}

Result<GoalId> AgentWorld::add_goal(std::string name, std::span<const ValueId> values) {
  Impl& w = *impl_;
  const Domain& d = *w.domain;
  if (name.empty()) return Error{"add_goal: the goal needs a name", "", 0};
  if (static_cast<int32_t>(values.size()) != d.num_variables())
    return Error{"add_goal '" + name + "': " + std::to_string(values.size()) +
                     " values for a domain of " + std::to_string(d.num_variables()) + " variables",
                 "", 0};
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = values[static_cast<size_t>(v)];
    if (x != kUndefined && (x < 0 || x >= d.domain_size(v)))
      return Error{"add_goal '" + name + "': value " + std::to_string(x) + " of '" +
                       d.variable_name(v) + "' is out of range",
                   "", 0};
  }
  Goal g;
  g.name = std::move(name);
  g.values.assign(values.begin(), values.end());
  const auto words = static_cast<size_t>(w.words);
  g.mask.assign(words, 0);
  g.value.assign(words, 0);
  g.packed.assign(words, 0);
  const CrowdLayout& layout = w.planner->layout();
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = values[static_cast<size_t>(v)];
    if (x == kUndefined) continue;
    const CrowdLayout::Field& fl = layout.field(v);
    g.mask[static_cast<size_t>(fl.word)] |= fl.mask << fl.shift;
    g.value[static_cast<size_t>(fl.word)] |= static_cast<uint64_t>(x) << fl.shift;
  }
  if (layout.words() > 0) layout.pack_goal(values, g.packed.data());
  w.goals.push_back(std::move(g));
  return static_cast<GoalId>(w.goals.size() - 1);
}

Result<int32_t> AgentWorld::add_goal_list(std::span<const GoalId> list) {
  Impl& w = *impl_;
  for (GoalId g : list)
    if (g < 0 || g >= static_cast<GoalId>(w.goals.size()))
      return Error{"add_goal_list: no goal " + std::to_string(g), "", 0};
  if (w.list_offset.size() > 0xFFFF) return Error{"add_goal_list: too many lists", "", 0};
  w.list_goals.insert(w.list_goals.end(), list.begin(), list.end());
  w.entry_drive.resize(w.list_goals.size(), 0);
  w.entry_curve.resize(w.list_goals.size());
  w.entry_weight.resize(w.list_goals.size(), 0.0);
  w.list_offset.push_back(static_cast<int32_t>(w.list_goals.size()));
  w.list_by_drives.push_back(0);
  w.list_margin.push_back(0.0);
  return static_cast<int32_t>(w.list_offset.size() - 2);
}

Result<DriveId> AgentWorld::add_drive(const DriveDef& drive) {
  Impl& w = *impl_;
  const std::string where = "add_drive '" + drive.name + "': ";
  if (drive.name.empty()) return Error{"add_drive: the drive needs a name", "", 0};
  if (w.n > 0) return Error{where + "drives are declared before the first agent", "", 0};
  if (static_cast<int32_t>(w.drives.size()) >= kMaxDrives)
    return Error{where + "more than " + std::to_string(kMaxDrives) + " drives", "", 0};
  if (!std::isfinite(drive.min) || !std::isfinite(drive.max) || !(drive.min < drive.max))
    return Error{where + "the range [min, max] must be finite with min < max", "", 0};
  if (!std::isfinite(drive.rate)) return Error{where + "rate must be finite", "", 0};
  if (!std::isfinite(drive.initial)) return Error{where + "initial must be finite", "", 0};
  const size_t old_count = w.drives.size(), count = old_count + 1;
  const auto actions = static_cast<size_t>(w.domain->num_actions());
  std::vector<double> effects(actions * count, 0.0);
  for (size_t a = 0; a < actions; ++a)
    for (size_t d = 0; d < old_count; ++d)
      effects[a * count + d] = w.action_drive[a * old_count + d];
  w.action_drive = std::move(effects);
  w.action_moves_drives.resize(actions, 0);
  w.drives.push_back(drive);
  const auto cap = static_cast<size_t>(w.def.capacity);
  w.drive_value.assign(cap * count, 0.0);
  w.drive_time.assign(cap, 0.0);
  w.goal_score.assign(cap, 0.0);
  return static_cast<DriveId>(old_count);
}

Result<int32_t> AgentWorld::add_drive_list(std::span<const DriveGoal> entries, double margin) {
  Impl& w = *impl_;
  if (!std::isfinite(margin) || margin < 0.0)
    return Error{"add_drive_list: margin must be finite and >= 0", "", 0};
  for (size_t k = 0; k < entries.size(); ++k) {
    const DriveGoal& e = entries[k];
    const std::string where = "add_drive_list: entry " + std::to_string(k) + ": ";
    if (e.goal < 0 || e.goal >= static_cast<GoalId>(w.goals.size()))
      return Error{where + "no goal " + std::to_string(e.goal), "", 0};
    if (e.drive < 0 || e.drive >= static_cast<DriveId>(w.drives.size()))
      return Error{where + "no drive " + std::to_string(e.drive), "", 0};
    if (!std::isfinite(e.weight) || e.weight < 0.0)
      return Error{where + "weight must be finite and >= 0", "", 0};
    if (auto bad = udgoap::check(e.curve, where + "curve")) return *bad;
  }
  if (w.list_offset.size() > 0xFFFF) return Error{"add_drive_list: too many lists", "", 0};
  for (const DriveGoal& e : entries) {
    w.list_goals.push_back(e.goal);
    w.entry_drive.push_back(e.drive);
    w.entry_curve.push_back(e.curve);
    w.entry_weight.push_back(e.weight);
  }
  w.list_offset.push_back(static_cast<int32_t>(w.list_goals.size()));
  w.list_by_drives.push_back(1);
  w.list_margin.push_back(margin);
  return static_cast<int32_t>(w.list_offset.size() - 2);
}

std::optional<Error> AgentWorld::set_action_drive_effect(ActionId a, DriveId d, double delta) {
  Impl& w = *impl_;
  if (a < 0 || a >= w.domain->num_actions())
    return Error{"set_action_drive_effect: no action " + std::to_string(a), "", 0};
  if (d < 0 || d >= static_cast<DriveId>(w.drives.size()))
    return Error{"set_action_drive_effect: no drive " + std::to_string(d), "", 0};
  if (!std::isfinite(delta)) return Error{"set_action_drive_effect: delta must be finite", "", 0};
  const size_t count = w.drives.size();
  w.action_drive[static_cast<size_t>(a) * count + static_cast<size_t>(d)] = delta;
  uint8_t moves = 0;
  for (size_t k = 0; k < count; ++k)
    moves |= static_cast<uint8_t>(w.action_drive[static_cast<size_t>(a) * count + k] != 0.0);
  w.action_moves_drives[static_cast<size_t>(a)] = moves;
  return std::nullopt;
}

int32_t AgentWorld::num_drives() const {
  return static_cast<int32_t>(impl_->drives.size());
}
const DriveDef& AgentWorld::drive_def(DriveId d) const {
  return impl_->drives[static_cast<size_t>(d)];
}

void AgentWorld::set_drive(AgentId agent, DriveId d, double value) {
  Impl& w = *impl_;
  assert(agent >= 0 && agent < w.n);
  assert(d >= 0 && d < static_cast<DriveId>(w.drives.size()));
  w.settle(agent);
  const DriveDef& dd = w.drives[static_cast<size_t>(d)];
  double& v = w.drives_of(agent)[d];
  const double next = std::clamp(value, dd.min, dd.max);
  if (next == v) return;
  v = next;
  w.mark(agent);
}

double AgentWorld::drive(AgentId agent, DriveId d) const {
  return impl_->drive_now(agent, d);
}
double AgentWorld::goal_score(AgentId agent) const {
  const Impl& w = *impl_;
  return w.drives.empty() ? 0.0 : w.goal_score[static_cast<size_t>(agent)];
}

std::optional<Error> AgentWorld::set_class_goals(int32_t npc_class, int32_t goal_list) {
  Impl& w = *impl_;
  if (npc_class < 0 || npc_class >= static_cast<int32_t>(w.class_list.size()))
    return Error{"set_class_goals: no class " + std::to_string(npc_class), "", 0};
  if (goal_list < 0 || goal_list + 1 >= static_cast<int32_t>(w.list_offset.size()))
    return Error{"set_class_goals: no goal list " + std::to_string(goal_list), "", 0};
  w.class_list[static_cast<size_t>(npc_class)] = goal_list;
  return std::nullopt;
}

const std::string& AgentWorld::goal_name(GoalId g) const {
  return impl_->goals[static_cast<size_t>(g)].name;
}
bool AgentWorld::has_goal_list(int32_t goal_list) const {
  return goal_list >= 0 && goal_list + 1 < static_cast<int32_t>(impl_->list_offset.size());
}
int32_t AgentWorld::num_goals() const {
  return static_cast<int32_t>(impl_->goals.size());
}

Result<AgentId> AgentWorld::add_agent(int32_t npc_class, std::span<const ValueId> values) {
  Impl& w = *impl_;
  const Domain& d = *w.domain;
  if (w.n >= w.def.capacity)
    return Error{"add_agent: the world is full (capacity " + std::to_string(w.def.capacity) + ")",
                 "", 0};
  if (npc_class < 0 || npc_class >= static_cast<int32_t>(w.class_list.size()))
    return Error{"add_agent: no class " + std::to_string(npc_class), "", 0};
  if (static_cast<int32_t>(values.size()) != d.num_variables())
    return Error{"add_agent: the state has " + std::to_string(values.size()) +
                     " values for a domain of " + std::to_string(d.num_variables()) + " variables",
                 "", 0};
  for (VarId v = 0; v < d.num_variables(); ++v) {
    const ValueId x = values[static_cast<size_t>(v)];
    if (x < 0 || x >= d.domain_size(v))
      return Error{"add_agent: value " + std::to_string(x) + " of '" + d.variable_name(v) +
                       "' is out of range",
                   "", 0};
  }
  const int32_t i = w.n++;
  const auto u = static_cast<size_t>(i);
  w.cls[u] = static_cast<uint16_t>(npc_class);
  const int32_t l = w.class_list[static_cast<size_t>(npc_class)];
  w.list[u] = l < 0 ? uint16_t{0xFFFF} : static_cast<uint16_t>(l);
  if (w.planner->layout().words() > 0) w.planner->layout().pack_state(values, w.state_of(i));
  w.period[u] = static_cast<uint32_t>(w.def.decision_period);
  // Due frames spread over the period: a world filled in one frame would otherwise examine every
  // agent in the same frames (at 10^6 agents, one frame in `period` several times the others).
  w.next_due[u] = static_cast<uint32_t>(w.frame + i % w.def.decision_period);
  if (!w.drives.empty()) {
    double* v = w.drives_of(i);
    for (size_t k = 0; k < w.drives.size(); ++k)
      v[k] = std::clamp(w.drives[k].initial, w.drives[k].min, w.drives[k].max);
    w.drive_time[u] = w.time;
    w.goal_score[u] = 0.0;
  }
  w.mark(i);
  return i;
}

int32_t AgentWorld::num_agents() const {
  return impl_->n;
}

void AgentWorld::set_goal_list(AgentId agent, int32_t goal_list) {
  Impl& w = *impl_;
  assert(goal_list + 1 < static_cast<int32_t>(w.list_offset.size()));
  w.list[static_cast<size_t>(agent)] = static_cast<uint16_t>(goal_list);
  w.mark(agent);
}

void AgentWorld::set_decision_period(AgentId agent, int32_t period) {
  Impl& w = *impl_;
  assert(period >= 1);
  w.period[static_cast<size_t>(agent)] = static_cast<uint32_t>(period);
  w.next_due[static_cast<size_t>(agent)] = static_cast<uint32_t>(w.frame + period);
}

void AgentWorld::set_fact(AgentId agent, VarId var, ValueId value) {
  Impl& w = *impl_;
  assert(agent >= 0 && agent < w.n);
  assert(value >= 0 && value < w.domain->domain_size(var));
  const CrowdLayout::Field& fl = w.planner->layout().field(var);
  uint64_t& word = w.state_of(agent)[fl.word];
  const uint64_t next =
      (word & ~(fl.mask << fl.shift)) | (static_cast<uint64_t>(value) << fl.shift);
  if (next == word) return;
  word = next;
  w.mark(agent);
}

void AgentWorld::set_state(AgentId agent, std::span<const ValueId> values) {
  Impl& w = *impl_;
  std::vector<uint64_t>& tmp = w.scratch;
  w.planner->layout().pack_state(values, tmp.data());
  set_packed_state(agent, tmp.data());
}

void AgentWorld::set_packed_state(AgentId agent, const uint64_t* packed) {
  Impl& w = *impl_;
  uint64_t* s = w.state_of(agent);
  if (std::memcmp(s, packed, sizeof(uint64_t) * static_cast<size_t>(w.words)) == 0) return;
  std::memmove(s, packed, sizeof(uint64_t) * static_cast<size_t>(w.words));
  w.mark(agent);
}

void AgentWorld::action_finished(AgentId agent) {
  Impl& w = *impl_;
  if ((w.flags[static_cast<size_t>(agent)] & kRunning) == 0) return;
  w.flags[static_cast<size_t>(agent)] |= kReportDone;
  w.mark(agent);
}

void AgentWorld::action_failed(AgentId agent) {
  Impl& w = *impl_;
  if ((w.flags[static_cast<size_t>(agent)] & kRunning) == 0) return;
  w.flags[static_cast<size_t>(agent)] |= kReportFailed;
  w.mark(agent);
}

void AgentWorld::bump_world_version() {
  ++impl_->version;
}

UpdateStats AgentWorld::update(double dt, std::span<Event> events) {
  Impl& w = *impl_;
  UpdateStats stats;
  stats.frame = w.frame;
  w.time += dt;
  const int32_t words_used = (w.n + 63) / 64;
  // Parts of whole 64-agent words, at least min_agents_per_part agents each; several only when
  // the host gave threads.
  int32_t count = 1;
  if (w.def.crowd.enqueue_task != nullptr && w.parts.size() > 1)
    count = std::clamp(words_used / std::max(1, w.def.min_agents_per_part / 64), 1,
                       static_cast<int32_t>(w.parts.size()));
  for (int32_t k = 0; k < count; ++k) {
    Part& p = w.parts[static_cast<size_t>(k)];
    p.reset(events, count > 1);
    p.word_begin = static_cast<int32_t>(static_cast<int64_t>(words_used) * k / count);
    p.word_end = static_cast<int32_t>(static_cast<int64_t>(words_used) * (k + 1) / count);
  }
  w.run(&Impl::run_parts, count);
  // Merge in part order: the events, the queue and the counts.
  int64_t written = 0, dropped = 0;
  if (count == 1) {
    written = w.parts[0].written;
    dropped = w.parts[0].dropped;
  } else {
    w.copy_out(w.parts, count, events, written, dropped);
  }
  const auto cap = static_cast<int64_t>(w.def.capacity);
  for (int32_t k = 0; k < count; ++k) {
    const Part& p = w.parts[static_cast<size_t>(k)];
    // The queue is a ring: the part's requests go in at most two copies.
    const auto n = static_cast<int64_t>(p.enqueued.size());
    int64_t at = (w.queue_head + w.queue_size) % cap;
    const int64_t first = std::min(n, cap - at);
    if (first > 0)
      std::memcpy(w.queue.data() + at, p.enqueued.data(),
                  sizeof(int32_t) * static_cast<size_t>(first));
    if (n > first)
      std::memcpy(w.queue.data(), p.enqueued.data() + first,
                  sizeof(int32_t) * static_cast<size_t>(n - first));
    w.queue_size += n;
    for (size_t r = 0; r < stats.replans.size(); ++r) stats.replans[r] += p.replans[r];
    stats.examined += p.examined;
  }
  w.plan_batch(events, written, dropped, stats);
  stats.events = written;
  stats.events_dropped = dropped;
  stats.waiting = w.queue_size;
  ++w.frame;
  return stats;
}

ValueId AgentWorld::fact(AgentId agent, VarId var) const {
  const Impl& w = *impl_;
  const CrowdLayout::Field& fl = w.planner->layout().field(var);
  return static_cast<ValueId>((w.state_of(agent)[fl.word] >> fl.shift) & fl.mask);
}

void AgentWorld::state(AgentId agent, std::span<ValueId> out) const {
  const Impl& w = *impl_;
  if (w.planner->layout().words() > 0) w.planner->layout().unpack_state(w.state_of(agent), out);
}

int32_t AgentWorld::npc_class(AgentId agent) const {
  return impl_->cls[static_cast<size_t>(agent)];
}
GoalId AgentWorld::goal(AgentId agent) const {
  return impl_->goal[static_cast<size_t>(agent)];
}

int32_t AgentWorld::plan(AgentId agent, std::span<ActionId> out) const {
  const Impl& w = *impl_;
  const int32_t l = plan_length(agent);
  const uint16_t* p = w.plan_of(agent);
  for (int32_t k = 0; k < l && k < static_cast<int32_t>(out.size()); ++k)
    out[static_cast<size_t>(k)] = p[k];
  return l;
}

int32_t AgentWorld::plan_length(AgentId agent) const {
  const Impl& w = *impl_;
  return (w.flags[static_cast<size_t>(agent)] & kHasPlan) != 0 ? w.len[static_cast<size_t>(agent)]
                                                               : 0;
}
int32_t AgentWorld::step(AgentId agent) const {
  return impl_->step[static_cast<size_t>(agent)];
}

ActionId AgentWorld::running_action(AgentId agent) const {
  const Impl& w = *impl_;
  const auto u = static_cast<size_t>(agent);
  return (w.flags[u] & kRunning) != 0 ? ActionId{w.plan_of(agent)[w.step[u]]} : ActionId{-1};
}

double AgentWorld::progress(AgentId agent) const {
  const Impl& w = *impl_;
  const auto u = static_cast<size_t>(agent);
  return (w.flags[u] & kRunning) != 0 ? w.time - w.start_time[u] : 0.0;
}

ReplanReason AgentWorld::last_replan(AgentId agent) const {
  return static_cast<ReplanReason>(impl_->last_reason[static_cast<size_t>(agent)]);
}
int64_t AgentWorld::frame() const {
  return impl_->frame;
}
const CrowdPlanner& AgentWorld::planner() const {
  return *impl_->planner;
}

std::string AgentWorld::describe(const Event& e) const {
  const Impl& w = *impl_;
  const Domain& d = *w.domain;
  std::string who = "agent " + std::to_string(e.agent);
  if (d.num_classes() > 0) who += " (" + d.class_name(npc_class(e.agent)) + ")";
  auto goal_text = [&](GoalId g) {
    return g == kNoGoal ? std::string("none") : "'" + goal_name(g) + "'";
  };
  switch (e.kind) {
    case EventKind::kStartAction:
      return who + ": start '" + d.action_name(e.action) + "'";
    case EventKind::kAbortAction:
      return who + ": abort '" + d.action_name(e.action) + "' (" +
             std::string(to_string(static_cast<ReplanReason>(e.detail))) + ")";
    case EventKind::kGoalChanged:
      return who + ": goal " + goal_text(e.goal);
    case EventKind::kPlanned:
      return who + ": plan of " + std::to_string(e.action) + " actions for " + goal_text(e.goal) +
             " (" + std::string(to_string(static_cast<ReplanReason>(e.detail))) + ")";
    case EventKind::kGoalReached:
      return who + ": reached " + goal_text(e.goal);
    case EventKind::kNoPlan: {
      const PlanOutcome o = no_plan_outcome(e);
      const std::string bits = topoplan::describe(o.detail);
      return who + ": no plan for " + goal_text(e.goal) + " (" + std::string(to_string(o.status)) +
             (bits.empty() ? "" : ": " + bits) + ")";
    }
  }
  return who;
}

std::string AgentWorld::explain(const Event& e) const {
  if (e.kind != EventKind::kNoPlan) return "";
  const Impl& w = *impl_;
  const Domain& d = *w.domain;
  PlanOutcome o = no_plan_outcome(e);
  const bool ask = (o.status == PlanStatus::kUnsolvable || o.status == PlanStatus::kGaveUp) &&
                   (o.detail & kDetailBadInput) == 0 && e.goal >= 0 && e.goal < num_goals();
  if (ask) {
    const int32_t c = npc_class(e.agent);
    Result<CompiledActionSet> set =
        CompiledActionSet::create(d, d.num_classes() > 0 ? c : kAllActions);
    Result<std::unique_ptr<HotPlanner>> topo =
        set ? create_hot_planner("topo", *set) : Result<std::unique_ptr<HotPlanner>>(set.error());
    if (topo) {
      std::vector<ValueId> s0(static_cast<size_t>(d.num_variables()));
      state(e.agent, s0);
      std::vector<ActionId> plan(static_cast<size_t>(std::max((*topo)->max_plan_length(), 1)));
      int32_t len = 0;
      std::unique_ptr<PlanScratch> scratch = (*topo)->make_scratch();
      const PlanOutcome again =
          (*topo)->plan(*scratch, s0, w.goals[static_cast<size_t>(e.goal)].values, plan, &len);
      if (again.status == o.status) o = again;
    }
  }
  return topoplan::explain(d, o);
}

}  // namespace topoplan::agents
