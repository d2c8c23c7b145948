// The simulation runtime's shared pieces: randomness, geometry, the agent loop, replay helpers.
#include <array>
#include <cinttypes>
#include <cstdio>
#include <ctime>

#include "topoplan/sim/core.h"

namespace topoplan::sim {

namespace {
uint64_t splitmix64(uint64_t& x) {
  uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
uint64_t rotl(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}
}  // namespace

void Rng::reseed(uint64_t seed) {
  uint64_t x = seed;
  for (uint64_t& s : s_) s = splitmix64(x);
}

uint64_t Rng::next() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double Rng::uniform(double lo, double hi) {
  return lo + (hi - lo) * uniform();
}

int32_t Rng::below(int32_t n) {
  return static_cast<int32_t>((next() >> 33) % static_cast<uint64_t>(n));
}

uint64_t stream_seed(uint64_t seed, uint64_t index) {
  uint64_t x = seed ^ (index * 0xD1B54A32D192ED03ull);
  splitmix64(x);
  return splitmix64(x);
}

Vec2 move_toward(Vec2 from, Vec2 to, double step) {
  const double d = distance(from, to);
  if (d <= step || d <= 0.0) return to;
  const double f = step / d;
  return {from.x + (to.x - from.x) * f, from.y + (to.y - from.y) * f};
}

std::string_view to_string(Replan r) {
  // In the enum's order, one name per enumerator.
  static constexpr std::array<std::string_view, 8> kNames = {
      "none",   "no_plan",     "plan_done",     "failed",
      "broken", "better_goal", "world_changed", "periodic"};
  static_assert(kNames.size() == static_cast<size_t>(Replan::kPeriodic) + 1);
  const auto i = static_cast<size_t>(r);
  return i < kNames.size() ? kNames[i] : "?";
}

int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

int64_t wall_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// ---------------------------------------------------------------------------------------------
void AgentLoop::reset(int32_t phase) {
  plan_.clear();
  next_ = 0;
  started_ = false;
  goal_ = {};
  pending_ = Replan::kNoPlan;
  last_reason_ = Replan::kNone;
  planned_at_ = 0;
  version_ = 0;
  phase_ = phase;
  counters = {};
}

void AgentLoop::replan(Environment& env, Selector& sel, int32_t npc, int64_t tick, Replan why,
                       const GoalChoice& g, LoopObserver* observer, bool timing) {
  const Step* running = started_ ? current() : nullptr;
  const Step old = running != nullptr ? *running : Step{};
  const int64_t t0 = timing ? thread_cpu_ns() : 0;
  const bool ok = g.goal >= 0 && sel.plan(npc, g, plan_);
  if (timing) {
    const int64_t dt = thread_cpu_ns() - t0;
    counters.planning_ns += dt;
    counters.decision_ns += dt;
  }
  ++counters.plans;
  ++counters.replans[static_cast<size_t>(why)];
  if (!ok) {
    plan_.clear();
    if (g.goal >= 0) ++counters.plan_failures;
  }
  next_ = 0;
  // A new plan that starts with the step already running continues it.
  if (running != nullptr) {
    if (plan_.length > 0 && plan_.steps[0] == old) {
      started_ = true;
    } else {
      env.abort(npc, old);
      started_ = false;
    }
  }
  goal_ = g;
  planned_at_ = tick;
  version_ = env.world_version();
  last_reason_ = why;
  pending_ = plan_.length == 0 ? Replan::kNoPlan : Replan::kNone;
  if (observer != nullptr) observer->replanned(npc, tick, why, g, plan_, ok);
}

void AgentLoop::tick(Environment& env, Selector& sel, int32_t npc, int64_t tick, double dt,
                     const LoopConfig& cfg, LoopObserver* observer, bool timing) {
  const int32_t period = cfg.decision_ticks < 1 ? 1 : cfg.decision_ticks;
  if ((tick + phase_) % period == 0) {
    ++counters.decisions;
    const int64_t t0 = timing ? thread_cpu_ns() : 0;
    const GoalChoice g = sel.choose_goal(npc);
    if (timing) counters.decision_ns += thread_cpu_ns() - t0;
    Replan why = pending_;
    const Step* step = current();
    const bool can_switch = !started_ || (step != nullptr && env.interruptible(npc, *step));
    if (why == Replan::kNone && sel.interrupted(npc)) why = Replan::kFailed;
    if (why == Replan::kNone && step != nullptr && !started_ && !env.applicable(npc, *step)) {
      why = Replan::kBroken;
    }
    if (why == Replan::kNone && can_switch && sel.preempts() && !g.same(goal_) &&
        g.score > goal_.score + cfg.better_margin) {
      why = Replan::kBetterGoal;
    }
    if (why == Replan::kNone && can_switch && sel.replans_on_world_change() &&
        env.world_version() != version_) {
      why = Replan::kWorldChanged;
    }
    if (why == Replan::kNone && can_switch && cfg.replan_ticks > 0 &&
        tick - planned_at_ >= cfg.replan_ticks) {
      why = Replan::kPeriodic;
    }
    // Nothing to do and nothing new to want: do not call the planner again.
    if (why == Replan::kNoPlan && g.goal < 0 && goal_.goal < 0 && counters.plans > 0) {
      why = Replan::kNone;
    }
    if (why != Replan::kNone) replan(env, sel, npc, tick, why, g, observer, timing);
  }

  const Step* step = current();
  if (step == nullptr) return;
  if (!started_) {
    if (!env.applicable(npc, *step)) {
      pending_ = Replan::kBroken;
      return;
    }
    env.begin(npc, *step);
    started_ = true;
  }
  const StepStatus st = env.advance(npc, *step, dt);
  if (st == StepStatus::kRunning) return;
  if (observer != nullptr) observer->step_ended(npc, tick, *step, st);
  started_ = false;
  if (st == StepStatus::kDone) {
    ++counters.steps_done;
    ++next_;
    if (next_ >= plan_.length) {
      plan_.clear();
      next_ = 0;
      pending_ = Replan::kPlanDone;
    }
  } else {
    ++counters.steps_failed;
    plan_.clear();
    next_ = 0;
    pending_ = Replan::kFailed;
  }
}

// ---------------------------------------------------------------------------------------------
void ReplayWriter::append_string(std::string& s, std::string_view text) {
  s += '"';
  for (char c : text) {
    switch (c) {
      case '"':
        s += "\\\"";
        break;
      case '\\':
        s += "\\\\";
        break;
      case '\n':
        s += "\\n";
        break;
      case '\t':
        s += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          s += buf;
        } else {
          s += c;
        }
    }
  }
  s += '"';
}

void ReplayWriter::append_number(std::string& s, double v) {
  if (!std::isfinite(v)) {
    s += "null";
    return;
  }
  char buf[32];
  // Rounded to 1e-4: enough for a viewer, and identical output for identical runs.
  const double r = std::round(v * 1e4) / 1e4;
  std::snprintf(buf, sizeof buf, "%.10g", r == 0.0 ? 0.0 : r);
  s += buf;
}

uint64_t fnv1a(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

}  // namespace topoplan::sim
