// The agent world's internals (agents.h), shared by the files of src/agents/: the per-agent
// arrays, the compiled masks, and the pieces a frame's work is cut into. Hot data is
// struct-of-arrays; conditions, effects and goals are compiled once into masks over the crowd
// layout's words, so that the checks of an examined agent are a few AND/XOR per word and a batch
// reads believed states as they are.
#pragma once

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
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/planner.h"

namespace topoplan::agents {

// Per-agent flags.
constexpr uint8_t kHasPlan = 1;       // plan[0, len) is the agent's plan
constexpr uint8_t kRunning = 2;       // plan[step] runs
constexpr uint8_t kReportDone = 4;    // the engine reported the running action finished
constexpr uint8_t kReportFailed = 8;  // ... failed
constexpr uint8_t kQueued = 16;       // waiting for a plan
constexpr uint8_t kBlocked = 32;      // no plan for its goal; waits for a change

namespace detail {

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
inline int32_t min_rows_per_part(const AgentWorldDef& def) {
  return std::max(64, def.min_agents_per_part / 8);
}

}  // namespace detail

using detail::Goal;
using detail::min_rows_per_part;
using detail::Part;

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
  std::vector<uint8_t> runs_to_end;  // per action (set_action_runs_to_end)

  // Without ℙ (AgentWorldDef::topo_first false): per class, the chain's planners over the class's
  // actions (domain ids), one scratch each; the unpacked state, goal and plan of the agent planned.
  struct ChainClass {
    std::unique_ptr<CompiledActionSet> set;
    std::vector<std::unique_ptr<HotPlanner>> planners;
    std::vector<std::unique_ptr<PlanScratch>> scratches;
  };
  std::vector<ChainClass> chain;
  AgentPlanner* hook = nullptr;           // set_planner: plans instead of the crowd
  std::vector<PlanOutcome> hook_outcome;  // per batch row: the hook's answer
  std::vector<ValueId> chain_s0;
  std::vector<ActionId> chain_plan;

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
  // Planned with goal kNoGoal: the hook decides what an agent without a goal list pursues.
  [[nodiscard]] bool hook_decides(int32_t i) const {
    return hook != nullptr && list[static_cast<size_t>(i)] == 0xFFFF;
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
    const GoalId g = goal[static_cast<size_t>(i)];
    return g == kNoGoal || goal_holds(s, g) ? -1 : l;
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
  // The batch's m rows planned by the chain alone (topo_first false), answers as the crowd's.
  void plan_chain(int32_t m);
  // The same by the hook (set_planner).
  void plan_hook(int32_t m);
  // create(), in parts: the masks of conditions and effects, the agents' and the batch's arrays,
  // the chain's planners (topo_first false).
  void compile_masks();
  void allocate();
  [[nodiscard]] std::optional<Error> make_chain();
};

}  // namespace topoplan::agents
