// topoplan::sim — the simulation runtime: a fixed-step clock, seeded randomness, 2D positions,
// and the agent loop every NPC runs (sense → choose a goal → plan → execute step by step,
// replanning when the plan fails, breaks, is beaten by a better goal, or grows old).
//
// Design
// ------
// * A scenario (arena, Sims house, hospital) owns its world and implements `Environment`: whether
//   a plan step can start now (its pre/prevail-conditions), starting it, advancing it by dt, and
//   a version number that changes with the world (spawns, deaths, pickups).
// * A behaviour selector (`Selector`) chooses a goal and writes a plan of at most kMaxPlanSteps
//   steps. FSM schedules, GOAP A*, UDGOAP and crowd-planned GOAP all sit behind it.
// * `AgentLoop` holds the plan being executed and decides when to replan. Decisions are queried
//   on a period (200 ms of simulated time, Sloan 2015 §4.2), counted in ticks so that the same
//   seed gives the same run bit for bit.
// * Nothing here allocates after construction: plans are fixed arrays, counters are plain ints.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace topoplan::sim {

// ---------------------------------------------------------------------------------------------
// Seeded randomness: xoshiro256** seeded through splitmix64. Same seed → same sequence on every
// platform (integer arithmetic only; doubles are built from the top 53 bits).
class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }
  void reseed(uint64_t seed);
  uint64_t next();
  double uniform();                      // [0, 1)
  double uniform(double lo, double hi);  // [lo, hi)
  int32_t below(int32_t n);              // [0, n), n > 0
  bool chance(double p) { return uniform() < p; }

 private:
  uint64_t s_[4] = {};
};
// An independent stream for (seed, index): episodes seeded this way give the same results for
// any number of threads.
[[nodiscard]] uint64_t stream_seed(uint64_t seed, uint64_t index);

// ---------------------------------------------------------------------------------------------
struct Vec2 {
  double x = 0.0;
  double y = 0.0;
};
[[nodiscard]] inline double distance(Vec2 a, Vec2 b) {
  return std::hypot(a.x - b.x, a.y - b.y);
}
// Moves `from` toward `to` by at most `step`; returns the new position.
[[nodiscard]] Vec2 move_toward(Vec2 from, Vec2 to, double step);

// ---------------------------------------------------------------------------------------------
// Plans.
struct Step {
  int32_t action = -1;  // scenario action id
  int32_t target = -1;  // scenario object id (-1: none)
  friend bool operator==(const Step&, const Step&) = default;
};
inline constexpr int32_t kMaxPlanSteps = 16;
struct Plan {
  std::array<Step, kMaxPlanSteps> steps{};
  int32_t length = 0;
  void clear() { length = 0; }
  bool push(Step s) {
    if (length >= kMaxPlanSteps) return false;
    steps[static_cast<size_t>(length++)] = s;
    return true;
  }
};

// What a selector wants now. `score` orders goals (priority for GOAP, utility for UDGOAP);
// goal -1 means "nothing to do".
struct GoalChoice {
  int32_t goal = -1;
  int32_t target = -1;
  double score = 0.0;
  [[nodiscard]] bool same(const GoalChoice& o) const {
    return goal == o.goal && target == o.target;
  }
};

enum class StepStatus : uint8_t { kRunning, kDone, kFailed };

// Why the loop (re)planned.
enum class Replan : uint8_t {
  kNone,
  kNoPlan,        // nothing to execute (start, or the last plan was empty)
  kPlanDone,      // the plan finished
  kFailed,        // a step failed (interrupted, missed, target gone) or a failure flag fired
  kBroken,        // the next step's pre/prevail-condition no longer holds
  kBetterGoal,    // the selector now prefers another goal
  kWorldChanged,  // spawns, deaths or pickups (selectors that ask for it)
  kPeriodic,      // the plan is older than the replan period
};
inline constexpr int32_t kNumReplanReasons = 8;
[[nodiscard]] std::string_view to_string(Replan r);

class Environment {
 public:
  virtual ~Environment() = default;
  // The step's pre- and prevail-conditions hold now.
  [[nodiscard]] virtual bool applicable(int32_t npc, const Step& s) const = 0;
  virtual void begin(int32_t npc, const Step& s) = 0;
  virtual StepStatus advance(int32_t npc, const Step& s, double dt) = 0;
  // Abandoning the running step for a new plan is allowed (moves: yes; activities: no).
  [[nodiscard]] virtual bool interruptible(int32_t npc, const Step& s) const = 0;
  virtual void abort(int32_t /*npc*/, const Step& /*s*/) {}
  [[nodiscard]] virtual uint64_t world_version() const = 0;
};

class Selector {
 public:
  virtual ~Selector() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;
  // Senses the world and names the goal it would pursue now.
  virtual GoalChoice choose_goal(int32_t npc) = 0;
  // Writes a plan for `goal` (cleared first); false when there is none.
  virtual bool plan(int32_t npc, const GoalChoice& goal, Plan& out) = 0;
  // A failure flag of the running schedule fired (HL2-style FSMs).
  virtual bool interrupted(int32_t /*npc*/) { return false; }
  // A better goal may replace the current one (FSMs keep a schedule until it ends or fails).
  [[nodiscard]] virtual bool preempts() const { return true; }
  [[nodiscard]] virtual bool replans_on_world_change() const { return false; }
};

struct LoopConfig {
  int32_t decision_ticks = 4;   // decisions every this many ticks (0.2 s at dt = 0.05)
  int32_t replan_ticks = 40;    // periodic replan (0: never)
  double better_margin = 1e-9;  // a goal must score this much more to preempt
};

struct LoopCounters {
  int64_t decisions = 0;
  int64_t plans = 0;          // planner calls
  int64_t plan_failures = 0;  // planner calls without a plan
  std::array<int64_t, kNumReplanReasons> replans{};
  int64_t steps_done = 0;
  int64_t steps_failed = 0;
  int64_t decision_ns = 0;  // CPU time in choose_goal + plan (when timing is on)
  int64_t planning_ns = 0;  // ... in plan only
};

// Optional observer of decisions (the CLI's --trace).
class LoopObserver {
 public:
  virtual ~LoopObserver() = default;
  virtual void replanned(int32_t npc, int64_t tick, Replan why, const GoalChoice& goal,
                         const Plan& plan, bool ok) = 0;
  virtual void step_ended(int32_t npc, int64_t tick, const Step& step, StepStatus status) = 0;
};

class AgentLoop {
 public:
  // `phase`: the tick offset of this NPC's decisions (spreads crowds over ticks).
  void reset(int32_t phase = 0);
  // One tick at `tick` (time = tick · dt): decide when due, then advance the current step.
  void tick(Environment& env, Selector& sel, int32_t npc, int64_t tick, double dt,
            const LoopConfig& cfg, LoopObserver* observer = nullptr, bool timing = false);

  [[nodiscard]] const Plan& plan() const { return plan_; }
  [[nodiscard]] int32_t next_step() const { return next_; }
  [[nodiscard]] const Step* current() const {
    return next_ < plan_.length ? &plan_.steps[static_cast<size_t>(next_)] : nullptr;
  }
  [[nodiscard]] bool running() const { return started_; }
  [[nodiscard]] const GoalChoice& goal() const { return goal_; }
  [[nodiscard]] Replan last_reason() const { return last_reason_; }
  LoopCounters counters;

 private:
  void replan(Environment& env, Selector& sel, int32_t npc, int64_t tick, Replan why,
              const GoalChoice& g, LoopObserver* observer, bool timing);

  Plan plan_;
  int32_t next_ = 0;
  bool started_ = false;
  GoalChoice goal_;
  Replan pending_ = Replan::kNoPlan;
  Replan last_reason_ = Replan::kNone;
  int64_t planned_at_ = 0;
  uint64_t version_ = 0;
  int32_t phase_ = 0;
};

// CPU time of the calling thread in nanoseconds (CLOCK_THREAD_CPUTIME_ID).
[[nodiscard]] int64_t thread_cpu_ns();
// Monotonic wall clock in nanoseconds.
[[nodiscard]] int64_t wall_ns();

// ---------------------------------------------------------------------------------------------
// Replay files (JSON Lines; docs/sim.md). The writer appends to a caller-owned string so that a
// run can be hashed in tests and written by the tool.
class ReplayWriter {
 public:
  explicit ReplayWriter(std::string* out, int32_t every_ticks = 1)
      : out_(out), every_(every_ticks < 1 ? 1 : every_ticks) {}
  [[nodiscard]] bool due(int64_t tick) const { return out_ != nullptr && tick % every_ == 0; }
  [[nodiscard]] bool enabled() const { return out_ != nullptr; }
  std::string* out() { return out_; }
  // Streaming: with a sink, the simulators hand the lines written so far to it (and clear the
  // buffer) whenever the buffer passes `chunk` bytes, so a long replay is written as it is
  // produced instead of held whole. The caller hands the remainder over at the end.
  void set_sink(std::function<void(std::string_view)> sink, size_t chunk = size_t{1} << 20) {
    sink_ = std::move(sink);
    chunk_ = chunk;
  }
  void flush_if_large() {
    if (sink_ && out_ != nullptr && out_->size() >= chunk_) {
      sink_(*out_);
      out_->clear();
    }
  }

  // Low-level JSON helpers (append to the line being built).
  static void append_string(std::string& s, std::string_view text);  // quoted and escaped
  static void append_number(std::string& s, double v);               // shortest round-trip-ish

 private:
  std::string* out_;
  int32_t every_;
  std::function<void(std::string_view)> sink_;
  size_t chunk_ = 0;
};

// FNV-1a 64 of a byte string (replay hashes in tests and --json output).
[[nodiscard]] uint64_t fnv1a(std::string_view bytes);

}  // namespace topoplan::sim
