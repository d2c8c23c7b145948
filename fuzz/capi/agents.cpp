// fuzz_capi: agent worlds: goals, lists, drives and drive lists, agents, senses, reports, frames,
// and each event described and (a NO_PLAN one) explained.
#include <cmath>

#include "session.h"

namespace fuzz_capi {
namespace {

// Goal and drive-list ids below this are tried (a pooled world's lists were made by earlier
// inputs).
constexpr int32_t kGoalLists = 8;

// One call (or a few) on the session's world, drawn from the input.
class AgentStep {
 public:
  explicit AgentStep(Session& session)
      : s_(session),
        in_(session.in),
        agents_(session.agents),
        m_(session.vars()),
        count_(topoplan_agents_count(session.agents)),
        state_(static_cast<size_t>(m_) + 2) {}

  void run() {
    switch (in_.ConsumeIntegralInRange<int>(0, 11)) {
      case 0:
        goal();
        break;
      case 1:
        add_agent();
        break;
      case 2:
        known(topoplan_agents_set_goal_list(agents_, agent(),
                                            in_.ConsumeIntegralInRange<int32_t>(-1, kGoalLists)));
        known(topoplan_agents_set_decision_period(agents_, agent(),
                                                  static_cast<int32_t>(s_.hostile_int(1, 4))));
        break;
      case 3:
        senses();
        break;
      case 4:
        for (int32_t v = 0; v < m_; ++v) state_[static_cast<size_t>(v)] = s_.value(v, false);
        known(topoplan_agents_set_state(agents_, agent(), state_.data(),
                                        in_.ConsumeBool() ? m_ : m_ + 1));
        break;
      case 5:
        reports();
        break;
      case 6:
        topoplan_agents_bump_world_version(agents_);
        break;
      case 7:
        declare_drives();
        break;
      case 8:
        drive_values();
        break;
      case 9:
        runs_to_end();
        break;
      default:
        frame();
    }
  }

 private:
  int32_t agent() { return in_.ConsumeIntegralInRange<int32_t>(-1, count_); }
  bool valid_agent(int32_t a) const { return a >= 0 && a < count_; }
  // A real drawn from a few valid values, or (one time in four) a hostile one.
  double real(std::initializer_list<double> valid) {
    if (in_.ConsumeIntegralInRange<int>(0, 3) == 0) return s_.hostile_real();
    return *(valid.begin() + in_.ConsumeIntegralInRange<size_t>(0, valid.size() - 1));
  }

  // A goal, then a list of goals, then a class's list.
  void goal() {
    for (int32_t v = 0; v < m_; ++v)
      state_[static_cast<size_t>(v)] = in_.ConsumeBool() ? TOPOPLAN_UNDEFINED : s_.value(v, true);
    const std::string name = in_.ConsumeRandomLengthString(8);
    int32_t id = -1;
    known(topoplan_agents_add_goal(agents_, in_.ConsumeBool() ? name.c_str() : nullptr,
                                   state_.data(), in_.ConsumeBool() ? m_ : m_ + 1, &id, s_.error,
                                   sizeof s_.error));
    if (id < 0) return;
    const int32_t goals[] = {id, in_.ConsumeIntegralInRange<int32_t>(-1, id + 1)};
    int32_t list = -1;
    known(topoplan_agents_add_goal_list(agents_, goals, in_.ConsumeIntegralInRange(-1, 2), &list,
                                        s_.error, sizeof s_.error));
    known(topoplan_agents_set_class_goals(agents_,
                                          in_.ConsumeIntegralInRange<int32_t>(-1, s_.num_classes()),
                                          in_.ConsumeIntegralInRange<int32_t>(-1, kGoalLists)));
  }

  void add_agent() {
    for (int32_t v = 0; v < m_; ++v) state_[static_cast<size_t>(v)] = s_.value(v, false);
    int32_t id = -1;
    known(topoplan_agents_add(agents_, in_.ConsumeIntegralInRange<int32_t>(-1, s_.num_classes()),
                              state_.data(), in_.ConsumeBool() ? m_ : m_ - 1, &id, s_.error,
                              sizeof s_.error));
  }

  // Senses, one and many.
  void senses() {
    const int32_t v = in_.ConsumeIntegralInRange<int32_t>(-1, m_);
    known(topoplan_agents_set_fact(agents_, agent(), v, v >= 0 && v < m_ ? s_.value(v, false) : 0));
    std::vector<topoplan_agent_fact> facts(in_.ConsumeIntegralInRange<size_t>(0, 4));
    for (topoplan_agent_fact& f : facts) {
      f.agent = agent();
      f.var = in_.ConsumeIntegralInRange<int32_t>(-1, m_);
      f.value = f.var >= 0 && f.var < m_ ? s_.value(f.var, false) : -1;
    }
    known(topoplan_agents_set_facts(agents_, facts.data(), static_cast<int32_t>(facts.size())));
  }

  // Whether an action runs to its end: the setter's status and the getter's answer agree with
  // the id's and the flag's validity, and the getter reads back what was set.
  void runs_to_end() {
    const int32_t a = in_.ConsumeIntegralInRange<int32_t>(-1, s_.num_actions());
    const int32_t flag = in_.ConsumeIntegralInRange<int32_t>(-1, 2);
    const bool valid_action = a >= 0 && a < s_.num_actions();
    const int32_t before = topoplan_agents_action_runs_to_end(agents_, a);
    require(before == (valid_action ? before : -1) && before >= -1 && before <= 1,
            "action_runs_to_end: not 1, 0 or -1, or not -1 on a bad id");
    const topoplan_status st = topoplan_agents_set_action_runs_to_end(agents_, a, flag);
    known(st);
    const bool accepted = valid_action && (flag == 0 || flag == 1);
    require((st == TOPOPLAN_OK) == accepted, "set_action_runs_to_end: status disagrees");
    const int32_t after = topoplan_agents_action_runs_to_end(agents_, a);
    require(after == (accepted ? flag : before), "action_runs_to_end: not what was set");
  }

  // Reports, one and many.
  void reports() {
    known(in_.ConsumeBool() ? topoplan_agents_action_finished(agents_, agent())
                            : topoplan_agents_action_failed(agents_, agent()));
    std::vector<topoplan_agent_report> reports(in_.ConsumeIntegralInRange<size_t>(0, 4));
    for (topoplan_agent_report& r : reports) {
      r.agent = agent();
      r.action = in_.ConsumeIntegralInRange<int32_t>(-1, s_.num_actions());
      r.outcome = in_.ConsumeIntegralInRange<int32_t>(-1, 2);
    }
    int32_t applied = -1;
    known(topoplan_agents_report(agents_, reports.data(), static_cast<int32_t>(reports.size()),
                                 &applied));
  }

  // Drives (refused once the world has agents), drive lists over the world's goals, and what
  // finishing an action adds to a drive: valid and hostile names, ranges, curves and weights.
  void declare_drives() {
    const int32_t drives = topoplan_agents_num_drives(agents_);
    require(drives >= 0 && drives <= 64, "num_drives outside [0, 64]");
    switch (in_.ConsumeIntegralInRange<int>(0, 2)) {
      case 0: {
        const std::string name =
            in_.ConsumeBool() ? "drive" + std::to_string(drives) : in_.ConsumeRandomLengthString(6);
        const double min = real({0.0, -1.0}), max = real({100.0, 1.0});
        int32_t id = -1;
        const topoplan_status st = topoplan_agents_add_drive(
            agents_, in_.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : name.c_str(), min, max,
            real({-1.0, 0.0, 2.5}), real({50.0, 0.0, 200.0}), &id, s_.error, sizeof s_.error);
        known(st);
        if (st == TOPOPLAN_OK)
          require(id == drives && topoplan_agents_num_drives(agents_) == drives + 1,
                  "add_drive: an id that is not the next drive's");
        break;
      }
      case 1: {
        std::vector<topoplan_drive_goal> entries(in_.ConsumeIntegralInRange<size_t>(0, 3));
        for (topoplan_drive_goal& e : entries) {
          e.goal = in_.ConsumeIntegralInRange<int32_t>(-1, kGoalLists);
          e.drive = in_.ConsumeIntegralInRange<int32_t>(-1, drives);
          e.curve = in_.ConsumeIntegralInRange<int32_t>(-1, TOPOPLAN_CURVE_SINE + 1);
          e.slope = real({1.0, -2.0});
          e.exponent = real({1.0, 2.0});
          e.x_shift = real({0.0, 0.5});
          e.y_shift = real({0.0, 1.0});
          e.weight = real({1.0, 0.5});
        }
        const auto count = static_cast<int32_t>(entries.size());
        int32_t id = -1;
        known(topoplan_agents_add_drive_list(
            agents_, entries.empty() && in_.ConsumeBool() ? nullptr : entries.data(),
            in_.ConsumeIntegralInRange<int>(0, 7) == 0 ? count - 1 : count, real({0.0, 0.1}), &id,
            s_.error, sizeof s_.error));
        break;
      }
      default:
        known(topoplan_agents_set_action_drive(
            agents_, in_.ConsumeIntegralInRange<int32_t>(-1, s_.num_actions()),
            in_.ConsumeIntegralInRange<int32_t>(-1, drives), real({10.0, -5.0})));
    }
  }

  // Drives set (one and many) and read back: a value for valid ids (clamped: finite), NaN for
  // any other; a bad agent's goal score is NaN.
  void drive_values() {
    const int32_t drives = topoplan_agents_num_drives(agents_);
    const auto drive = [&] { return in_.ConsumeIntegralInRange<int32_t>(-1, drives); };
    const int32_t a = agent(), d = drive();
    const double x =
        in_.ConsumeBool() ? in_.ConsumeFloatingPointInRange<double>(-50, 150) : s_.hostile_real();
    const bool ok = valid_agent(a) && d >= 0 && d < drives && std::isfinite(x);
    require((topoplan_agents_set_drive(agents_, a, d, x) == TOPOPLAN_OK) == ok,
            "set_drive: its status and its arguments disagree");
    std::vector<topoplan_agent_drive> many(in_.ConsumeIntegralInRange<size_t>(0, 4));
    for (topoplan_agent_drive& e : many) {
      e.agent = agent();
      e.drive = drive();
      e.value =
          in_.ConsumeBool() ? in_.ConsumeFloatingPointInRange<double>(-50, 150) : s_.hostile_real();
    }
    known(topoplan_agents_set_drives(
        agents_, many.empty() && in_.ConsumeBool() ? nullptr : many.data(),
        in_.ConsumeIntegralInRange<int>(0, 7) == 0 ? -1 : static_cast<int32_t>(many.size())));
    const int32_t b = agent(), e = drive();
    const double v = topoplan_agents_drive(agents_, b, e);
    require(std::isnan(v) == !(valid_agent(b) && e >= 0 && e < drives),
            "drive: NaN exactly on a bad id");
    require(std::isnan(v) || std::isfinite(v), "drive: a value that is not finite");
    require(!valid_agent(b) == std::isnan(topoplan_agents_goal_score(agents_, b)),
            "goal_score: NaN exactly on a bad agent");
  }

  // A frame, its events described and its NO_PLAN events explained (and a forged one), the
  // reading calls on one agent.
  void frame() {
    std::vector<topoplan_agent_event> events(in_.ConsumeIntegralInRange<size_t>(0, 16));
    topoplan_agents_stats stats;
    const double dt = in_.ConsumeBool() ? 0.1 : s_.hostile_real();
    const topoplan_status st = topoplan_agents_update(agents_, dt, events.data(),
                                                      static_cast<int32_t>(events.size()), &stats);
    known(st);
    if (st != TOPOPLAN_OK) return;
    char text[128];
    size_t size = 0;
    for (size_t i = 0; i < events.size() && i < static_cast<size_t>(stats.events); ++i) {
      known(topoplan_agents_describe(agents_, &events[i], text, sizeof text, &size));
      explain(events[i], true);
    }
    if (in_.ConsumeIntegralInRange<int>(0, 3) == 0) {
      topoplan_agent_event forged{agent(),
                                  in_.ConsumeIntegral<uint8_t>(),
                                  in_.ConsumeIntegral<uint8_t>(),
                                  in_.ConsumeIntegral<uint16_t>(),
                                  in_.ConsumeIntegralInRange<int32_t>(-1, s_.num_actions()),
                                  in_.ConsumeIntegralInRange<int32_t>(-1, kGoalLists)};
      if (in_.ConsumeBool()) forged.kind = TOPOPLAN_AGENT_NO_PLAN;
      explain(forged, false);
    }
    read_agent();
  }

  // An event explained into a buffer of any size: only a NO_PLAN event has words, and one the
  // world gave always has them; the size is the text's with its NUL.
  void explain(const topoplan_agent_event& event, bool from_world) {
    char text[256];
    size_t size = 0;
    const size_t capacity = in_.ConsumeIntegralInRange<size_t>(0, sizeof text);
    const bool given = in_.ConsumeIntegralInRange<int>(0, 15) != 0;
    const topoplan_status st = topoplan_agents_explain(
        agents_, given ? &event : nullptr, capacity == 0 ? nullptr : text, capacity, &size);
    known(st);
    if (st == TOPOPLAN_OK)
      require(size >= 1 && size <= capacity && text[size - 1] == '\0', "explain: its size");
    const bool words = st == TOPOPLAN_OK || st == TOPOPLAN_BUFFER_TOO_SMALL;
    if (words) require(event.kind == TOPOPLAN_AGENT_NO_PLAN, "explain: an event not NO_PLAN");
    if (from_world && given && event.kind == TOPOPLAN_AGENT_NO_PLAN)
      require(words, "explain: a NO_PLAN event of the world without words");
  }

  void read_agent() {
    const int32_t a = agent();
    int32_t plan[256];
    int32_t length = -1;
    if (topoplan_agents_plan(agents_, a, plan, in_.ConsumeIntegralInRange(0, 256), &length) ==
        TOPOPLAN_OK) {
      for (int32_t i = 0; i < length; ++i)
        require(plan[i] >= 0 && plan[i] < s_.num_actions(),
                "an agent's plan holds an action id outside the domain");
    }
    known(topoplan_agents_state(agents_, a, state_.data(), in_.ConsumeBool() ? m_ : m_ + 1));
    topoplan_agents_fact(agents_, a, in_.ConsumeIntegralInRange<int32_t>(-1, m_));
    topoplan_agents_goal_name(agents_, topoplan_agents_goal(agents_, a));
    topoplan_agents_step(agents_, a);
    topoplan_agents_running_action(agents_, a);
    topoplan_agents_progress(agents_, a);
    topoplan_agents_last_replan(agents_, a);
  }

  Session& s_;
  FuzzedDataProvider& in_;
  topoplan_agents* agents_;
  int32_t m_, count_;
  std::vector<int32_t> state_;
};

}  // namespace

// A world: one of a few defs (pooled) or a hostile one (refused, or its own).
void Session::make_agents() {
  agents.drop();
  bool hostile = false;
  topoplan_agents_def def;
  topoplan_agents_def_default(&def);
  def.capacity = static_cast<int32_t>(field({1, 8}, 1 << 28, hostile));
  if (in.ConsumeBool()) {
    // A few presets (so that worlds recur), each field sometimes replaced by a hostile
    // value: decision period, plan age, plans per frame, plan length, cache entries.
    static constexpr int32_t kPresets[][5] = {
        {1, 0, 16, 255, 0}, {4, 100, 1, 16, 0}, {1, 0, 16, 1, 64}, {2, 10, 4, 255, 0}};
    const auto& p = kPresets[in.ConsumeIntegralInRange<int>(0, 3)];
    def.decision_period = static_cast<int32_t>(or_hostile(p[0], 1, 1 << 20, hostile));
    def.max_plan_age = or_hostile(p[1], 0, int64_t{1} << 40, hostile);
    def.max_plans_per_frame = static_cast<int32_t>(or_hostile(p[2], 1, INT32_MAX, hostile));
    def.max_plan_length = static_cast<int32_t>(or_hostile(p[3], 1, 255, hostile));
    def.threads = static_cast<int32_t>(or_hostile(1, 1, 1 << 10, hostile));
    def.cache_entries = static_cast<int32_t>(or_hostile(p[4], 0, 1 << 28, hostile));
  } else if (in.ConsumeIntegralInRange<int>(0, 7) != 0) {
    def.cache_entries = 0;  // a cache brings the default plan table: 2 MiB to clear
  }
  Key key;
  key << int64_t{def.capacity} << int64_t{def.decision_period} << def.max_plan_age
      << int64_t{def.max_plans_per_frame} << int64_t{def.max_plan_length} << int64_t{def.threads}
      << int64_t{def.cache_entries};
  if (hostile || (agents = pools.agents.find(key.bytes)) == nullptr) {
    if (!may_create()) return;
    topoplan_agents* made = nullptr;
    known(topoplan_agents_create(planner, &def, &made, error, sizeof error));
    agents.take(made, hostile, pools.agents, key);
  }
}

// An agent world: made (or taken from its pool) now and then, then 1-6 calls on it, with
// hostile ids and sizes; every plan an agent holds is made of the domain's actions.
void Session::agent_world() {
  if (!ensure_planner()) return;
  if (agents == nullptr || in.ConsumeIntegralInRange<int>(0, 7) == 0) make_agents();
  if (agents == nullptr) return;
  for (int k = in.ConsumeIntegralInRange<int>(1, 6); k > 0 && in.remaining_bytes() > 0; --k)
    AgentStep(*this).run();
}

}  // namespace fuzz_capi
