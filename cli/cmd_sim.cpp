// topoplan sim FILE [--selector fsm|goap|udgoap] [--episodes N] [--seed S] [--threads N]
//                   [--json] [--replay FILE] [--replay-every K] [--trace] [--quiet]
//                   [--histogram FILE.svg]
//
// Runs a simulation scenario (docs/sim.md): the wizard arena of Sloan (2015) ch. 6 — episodes
// per selector, lifespans, Kruskal-Wallis and Dunn tests. Episodes run on --threads threads;
// each episode's randomness depends only on (seed, episode), so the output is the same for any
// thread count. Progress goes to stderr unless --quiet (or --json with stdout not a terminal).
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "commands.h"
#include "files.h"
#include "numeric_option.h"
#include "replay_file.h"
#include "topoplan/io/formats.h"
#include "topoplan/sim/episode.h"
#include "topoplan/sim/scenario.h"
#include "topoplan/sim/stats.h"

namespace topoplan::cli {
namespace {

using namespace topoplan::sim;

struct SimOptions {
  std::string path;
  std::string selector;  // empty: every selector the scenario has
  int64_t episodes = -1;
  uint64_t seed = 1;
  int32_t threads = 1;
  bool json = false;
  std::string replay;
  int32_t replay_every = 1;
  bool trace = false;
  bool quiet = false;
  std::string histogram;
  bool given_episodes = false, given_replay = false, given_replay_every = false,
       given_histogram = false;
};

class Progress {
 public:
  Progress(bool on, std::string label, int64_t total)
      : on_(on), label_(std::move(label)), total_(total), start_(wall_ns()), last_(start_) {}
  void update(int64_t done) {
    if (!on_) return;
    const int64_t now = wall_ns();
    if (done < total_ && now - last_ < 1'000'000'000) return;
    last_ = now;
    const double secs = static_cast<double>(now - start_) * 1e-9;
    const double rate = secs > 0 ? static_cast<double>(done) / secs : 0.0;
    const double left = rate > 0 ? static_cast<double>(total_ - done) / rate : 0.0;
    std::fprintf(stderr, "\r%s: %lld/%lld episodes, %.1f/s, ~%.0f s left   ", label_.c_str(),
                 static_cast<long long>(done), static_cast<long long>(total_), rate, left);
    if (done >= total_) std::fputc('\n', stderr);
  }

 private:
  bool on_;
  std::string label_;
  int64_t total_;
  int64_t start_;
  int64_t last_;
};

class TracePrinter final : public LoopObserver {
 public:
  explicit TracePrinter(double dt) : dt_(dt) {}
  void replanned(int32_t npc, int64_t tick, Replan why, const GoalChoice& g, const Plan& plan,
                 bool ok) override {
    std::string steps;
    for (int32_t i = 0; i < plan.length; ++i) {
      steps += (i ? ", " : "") + arena_step_name(plan.steps[static_cast<size_t>(i)]);
    }
    std::printf("; t=%8.2f npc %d replan (%s): goal %d target %d -> %s\n",
                static_cast<double>(tick) * dt_, npc, std::string(to_string(why)).c_str(), g.goal,
                g.target, ok ? ("[" + steps + "]").c_str() : "no plan");
  }
  void step_ended(int32_t npc, int64_t tick, const Step& s, StepStatus st) override {
    std::printf("; t=%8.2f npc %d %s %s\n", static_cast<double>(tick) * dt_, npc,
                arena_step_name(s).c_str(), st == StepStatus::kDone ? "done" : "FAILED");
  }

 private:
  double dt_;
};

// Every file the command reads (the scenario and the files it names, such as the UDGOAP
// template): outputs never overwrite them.
std::vector<std::string> g_inputs;

bool write_file(const std::string& path, const std::string& text, const char*) {
  return write_output("sim", path, text, g_inputs);
}

// `episodes` episodes per selector on o.threads threads; episode i draws from seed stream i, so
// the results do not depend on the thread count.
std::vector<std::vector<ArenaEpisode>> run_arena_episodes(const SimOptions& o, const ArenaConfig& c,
                                                          const std::vector<SelectorKind>& kinds,
                                                          int64_t episodes, bool progress) {
  std::vector<std::vector<ArenaEpisode>> results(kinds.size());
  for (size_t k = 0; k < kinds.size(); ++k) {
    results[k].resize(static_cast<size_t>(episodes));
    Progress bar(progress, "arena " + std::string(to_string(kinds[k])), episodes);
    std::atomic<int64_t> next{0};
    std::atomic<int64_t> done{0};
    std::mutex mu;
    auto worker = [&]() {
      for (;;) {
        const int64_t i = next.fetch_add(1);
        if (i >= episodes) return;
        results[k][static_cast<size_t>(i)] = run_arena_episode(
            c, kinds[k], stream_seed(o.seed, static_cast<uint64_t>(i)), nullptr, nullptr, true);
        const int64_t d = done.fetch_add(1) + 1;
        std::lock_guard<std::mutex> lock(mu);
        bar.update(d);
      }
    };
    std::vector<std::thread> pool;
    for (int32_t t = 1; t < o.threads; ++t) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
  }

  return results;
}

// Per selector the lifespans' summary (printed unless --json), then the Kruskal-Wallis and
// Dunn tests across selectors; the same as JSON. Fills the selectors' names and lifespans.
nlohmann::json arena_report(const SimOptions& o, const SimScenario& sc,
                            const std::vector<SelectorKind>& kinds,
                            const std::vector<std::vector<ArenaEpisode>>& results, int64_t episodes,
                            std::vector<std::string>& names,
                            std::vector<std::vector<double>>& lifespans) {
  const ArenaConfig& c = sc.arena;
  lifespans.assign(kinds.size(), {});
  for (size_t k = 0; k < kinds.size(); ++k) {
    names.emplace_back(to_string(kinds[k]));
    for (const ArenaEpisode& e : results[k]) lifespans[k].push_back(e.lifespan);
  }
  const double thesis_mean[] = {233.62, 242.71, 381.98};
  const double thesis_sd[] = {203.52, 236.52, 639.41};
  nlohmann::json j;
  j["scenario"] = sc.name;
  j["episodes"] = episodes;
  j["seed"] = o.seed;
  if (!o.json) {
    std::printf("; %s: %lld episodes per selector, seed %llu, episodes cut at %.0f s\n",
                sc.name.c_str(), static_cast<long long>(episodes),
                static_cast<unsigned long long>(o.seed), c.max_seconds);
    std::printf("%-8s %10s %10s %10s %9s %9s %10s %12s %14s %12s\n", "selector", "mean_s", "std_s",
                "median_s", "censored", "kills/ep", "plans/ep", "us/decision", "thesis_mean_s",
                "thesis_sd_s");
  }
  for (size_t k = 0; k < kinds.size(); ++k) {
    const Summary s = summarize(lifespans[k]);
    int64_t censored = 0, kills = 0, plans = 0, decisions = 0, ns = 0;
    std::array<int64_t, kNumReplanReasons> why{};
    for (const ArenaEpisode& e : results[k]) {
      censored += e.censored ? 1 : 0;
      kills += e.kills;
      plans += e.counters.plans;
      decisions += e.counters.decisions;
      ns += e.counters.decision_ns;
      for (size_t r = 0; r < why.size(); ++r) why[r] += e.counters.replans[r];
    }
    const auto ti = static_cast<size_t>(kinds[k]);
    const double us =
        decisions > 0 ? static_cast<double>(ns) / 1e3 / static_cast<double>(decisions) : 0.0;
    const double n = static_cast<double>(episodes);
    if (!o.json) {
      std::printf("%-8s %10.2f %10.2f %10.2f %9lld %9.1f %10.1f %12.2f %14.2f %12.2f\n",
                  names[k].c_str(), s.mean, s.stddev, s.median, static_cast<long long>(censored),
                  static_cast<double>(kills) / n, static_cast<double>(plans) / n, us,
                  thesis_mean[ti], thesis_sd[ti]);
    }
    nlohmann::json r;
    r["selector"] = names[k];
    r["mean"] = s.mean;
    r["stddev"] = s.stddev;
    r["median"] = s.median;
    r["min"] = s.min;
    r["max"] = s.max;
    r["censored"] = censored;
    r["kills_per_episode"] = static_cast<double>(kills) / n;
    r["plans_per_episode"] = static_cast<double>(plans) / n;
    r["cpu_us_per_decision"] = us;
    r["thesis_mean"] = thesis_mean[ti];
    r["thesis_stddev"] = thesis_sd[ti];
    nlohmann::json reasons;
    for (size_t q = 1; q < why.size(); ++q)
      reasons[std::string(to_string(static_cast<Replan>(q)))] = why[q];
    r["replans"] = reasons;
    uint64_t h = 0xcbf29ce484222325ull;
    for (double v : lifespans[k])
      h = (h ^ static_cast<uint64_t>(std::llround(v * 1000))) * 0x100000001b3ull;
    r["lifespans_hash"] = h;
    j["selectors"].push_back(r);
  }
  if (kinds.size() >= 2) {
    const KruskalWallis kw = kruskal_wallis(lifespans);
    const std::vector<DunnPair> dunn = dunn_test(lifespans);
    j["kruskal_wallis"] = {{"h", kw.h}, {"df", kw.df}, {"p", kw.p}, {"thesis_p", 0.038}};
    if (!o.json) {
      std::printf("Kruskal-Wallis: H = %.3f, df = %d, p = %.3g (thesis: p = 0.038)\n", kw.h, kw.df,
                  kw.p);
      std::printf("Dunn (Hochberg-adjusted, two-sided):\n");
    }
    for (const DunnPair& d : dunn) {
      if (!o.json) {
        std::printf("  %-7s vs %-7s z = %7.3f  p = %.3g  p_adj = %.3g\n",
                    names[static_cast<size_t>(d.a)].c_str(),
                    names[static_cast<size_t>(d.b)].c_str(), d.z, d.p, d.p_adjusted);
      }
      j["dunn"].push_back({{"a", names[static_cast<size_t>(d.a)]},
                           {"b", names[static_cast<size_t>(d.b)]},
                           {"z", d.z},
                           {"p", d.p},
                           {"p_adjusted", d.p_adjusted}});
    }
    if (!o.json) {
      std::printf(
          "; thesis Table 6.4 (Dunn, Hochberg): fsm-goap 0.439, fsm-udgoap 0.0332, "
          "goap-udgoap 0.0337\n");
    }
  }
  return j;
}

int run_arena(const SimOptions& o, const SimScenario& sc) {
  const ArenaConfig& c = sc.arena;
  std::vector<SelectorKind> kinds;
  if (o.selector.empty()) {
    kinds = {SelectorKind::kFsm, SelectorKind::kGoap};
    if (c.has_udgoap) kinds.push_back(SelectorKind::kUdgoap);
  } else if (o.selector == "fsm") {
    kinds = {SelectorKind::kFsm};
  } else if (o.selector == "goap") {
    kinds = {SelectorKind::kGoap};
  } else {
    if (!c.has_udgoap) {
      std::fprintf(stderr, "%s: the scenario has no [udgoap] table: --selector udgoap needs one\n",
                   o.path.c_str());
      return kExitInputError;
    }
    kinds = {SelectorKind::kUdgoap};
  }
  const int64_t episodes = o.episodes > 0 ? o.episodes : 300;
  const bool progress = !o.quiet && !(o.json && isatty(STDOUT_FILENO) == 0);

  // Replay and trace: the first episode of the first selector.
  if (!o.replay.empty() || o.trace) {
    TracePrinter tracer(c.dt);
    const std::optional<EpisodeRun> run =
        run_recorded(sc, EpisodeOptions{kinds[0], o.seed, 0.0, false}, o.trace ? &tracer : nullptr,
                     o.replay, o.replay_every, g_inputs);
    if (!run) return kExitInputError;
    if (o.trace) {
      std::printf("; episode 0 (%s): lifespan %.2f s, %lld kills\n",
                  std::string(to_string(kinds[0])).c_str(), run->arena.lifespan,
                  static_cast<long long>(run->arena.kills));
    }
    if (o.episodes <= 0) return kExitOk;  // only the replay/trace was asked for
  }

  const std::vector<std::vector<ArenaEpisode>> results =
      run_arena_episodes(o, c, kinds, episodes, progress);
  std::vector<std::string> names;
  std::vector<std::vector<double>> lifespans;
  nlohmann::json j = arena_report(o, sc, kinds, results, episodes, names, lifespans);
  if (!o.histogram.empty() && !write_file(o.histogram,
                                          histogram_svg(names, lifespans, 30,
                                                        sc.name + ": wizard lifespan, " +
                                                            std::to_string(episodes) + " episodes",
                                                        "lifespan (simulated seconds)"),
                                          "histogram")) {
    return kExitInputError;
  }
  if (o.json) std::printf("%s\n", j.dump(2).c_str());
  return kExitOk;
}

class HouseTrace final : public LoopObserver {
 public:
  explicit HouseTrace(const HouseConfig& c) : c_(c) {}
  void replanned(int32_t, int64_t tick, Replan why, const GoalChoice& g, const Plan& plan,
                 bool ok) override {
    std::string steps;
    for (int32_t i = 0; i < plan.length; ++i) {
      steps += (i ? ", " : "") + house_step_name(c_, plan.steps[static_cast<size_t>(i)]);
    }
    std::printf("; t=%8.2f replan (%s): goal %s -> %s\n", static_cast<double>(tick) * c_.dt,
                std::string(to_string(why)).c_str(),
                g.goal < 0 ? "none"
                           : (g.target < 0 && g.score > 0
                                  ? ("raise " + c_.drives[static_cast<size_t>(g.goal)]).c_str()
                                  : "max utility"),
                ok ? ("[" + steps + "]").c_str() : "no plan");
  }
  void step_ended(int32_t, int64_t tick, const Step& s, StepStatus st) override {
    std::printf("; t=%8.2f %s %s\n", static_cast<double>(tick) * c_.dt,
                house_step_name(c_, s).c_str(), st == StepStatus::kDone ? "done" : "FAILED");
  }

 private:
  const HouseConfig& c_;
};

int run_house_scenario(const SimOptions& o, const SimScenario& sc) {
  const HouseConfig& c = sc.house;
  std::vector<SelectorKind> kinds;
  if (o.selector.empty()) {
    kinds = {SelectorKind::kGoap, SelectorKind::kUdgoap};
  } else if (o.selector == "goap") {
    kinds = {SelectorKind::kGoap};
  } else if (o.selector == "udgoap") {
    kinds = {SelectorKind::kUdgoap};
  } else {
    std::fprintf(stderr, "%s: the house has no FSM (the thesis compares GOAP and UDGOAP)\n",
                 o.path.c_str());
    return kExitUsage;
  }
  nlohmann::json j;
  j["scenario"] = sc.name;
  const double thesis[] = {0.0, 146.0, 118.0};
  std::vector<double> times;
  for (size_t k = 0; k < kinds.size(); ++k) {
    HouseTrace tracer(c);
    if (o.trace && !o.json) std::printf("; %s\n", std::string(to_string(kinds[k])).c_str());
    const std::optional<EpisodeRun> run = run_recorded(
        sc, EpisodeOptions{kinds[k], o.seed, 0.0, true}, o.trace && !o.json ? &tracer : nullptr,
        k == 0 ? o.replay : "", o.replay_every, g_inputs);
    if (!run) return kExitInputError;
    const HouseRun& r = run->house;
    times.push_back(r.time);
    const auto ti = static_cast<size_t>(kinds[k]);
    std::string seq;
    nlohmann::json steps = nlohmann::json::array();
    int64_t activities = 0;
    double activity_time = 0.0;
    for (size_t i = 0; i < r.steps.size(); ++i) {
      const HouseRecord& h = r.steps[i];
      const std::string n = h.action < 0
                                ? "goto(" + c.spots[static_cast<size_t>(h.target)].name + ")"
                                : c.activities[static_cast<size_t>(h.action)].name;
      if (h.action >= 0) {
        ++activities;
        const double end = i + 1 < r.steps.size() ? r.steps[i + 1].t : r.time;
        activity_time += end - h.t;
      }
      const bool last = i + 1 == r.steps.size();
      if (h.action >= 0) {
        seq += (seq.empty() ? "" : " ") + n + (h.done ? "" : last ? "(running)" : "!");
      }
      steps.push_back({{"t", h.t}, {"step", n}, {"done", h.done}});
    }
    const double us = r.counters.decisions > 0 ? static_cast<double>(r.counters.decision_ns) / 1e3 /
                                                     static_cast<double>(r.counters.decisions)
                                               : 0.0;
    if (!o.json) {
      std::printf(
          "%-7s time to all drives > %g: %s%.2f s (thesis %.0f s), %lld activities, "
          "%lld plans, %.1f us CPU per decision\n",
          std::string(to_string(kinds[k])).c_str(), c.target,
          r.reached ? "" : "not reached, cut at ", r.time, thesis[ti],
          static_cast<long long>(activities), static_cast<long long>(r.counters.plans), us);
      std::printf("  activities (! = failed): %s\n", seq.c_str());
    }
    nlohmann::json jr;
    jr["selector"] = std::string(to_string(kinds[k]));
    jr["time"] = r.time;
    jr["reached"] = r.reached;
    jr["thesis_time"] = thesis[ti];
    jr["activities"] = activities;
    jr["mean_activity_seconds"] =
        activities > 0 ? activity_time / static_cast<double>(activities) : 0.0;
    jr["plans"] = r.counters.plans;
    jr["cpu_us_per_decision"] = us;
    jr["final_drives"] = r.final_drives;
    jr["steps"] = steps;
    j["selectors"].push_back(jr);
  }
  if (times.size() == 2) {
    j["ratio_udgoap_over_goap"] = times[1] / times[0];
    if (!o.json) {
      std::printf("UDGOAP / GOAP = %.3f (thesis 118 / 146 = %.3f)\n", times[1] / times[0],
                  118.0 / 146.0);
    }
  }
  if (o.json) std::printf("%s\n", j.dump(2).c_str());
  return kExitOk;
}

int run_hospital_scenario(const SimOptions& o, const SimScenario& sc) {
  HospitalConfig c = sc.hospital;
  if (o.threads > 1) c.threads = o.threads;
  std::vector<HospitalSelector> kinds;
  if (o.selector.empty()) {
    kinds = {HospitalSelector::kFsm, HospitalSelector::kGoap, HospitalSelector::kUtility};
  } else if (o.selector == "fsm") {
    kinds = {HospitalSelector::kFsm};
  } else if (o.selector == "goap") {
    kinds = {HospitalSelector::kGoap};
  } else {
    kinds = {HospitalSelector::kUtility};
  }
  nlohmann::json j;
  j["scenario"] = sc.name;
  const bool progress = !o.quiet && !(o.json && isatty(STDOUT_FILENO) == 0);
  if (!o.json) {
    std::printf(
        "; %s: %lld NPCs, %g simulated s, decisions every %.0f ms (Sloan 2015 Table 4.1 "
        "method)\n",
        sc.name.c_str(), static_cast<long long>(c.npcs), c.seconds, c.decision_ticks * c.dt * 1e3);
    std::printf("%-8s %10s %8s %12s %10s %12s %12s %8s %14s\n", "selector", "decisions", "plans",
                "us/decision", "us/plan", "%CPU/NPC", "NPCs@10%CPU", "unmet", "thesis_ms/NPC");
  }
  const double thesis_ms[] = {5.0, 14.0, 10.0};
  for (HospitalSelector k : kinds) {
    const HospitalRun r = run_hospital(c, k, c.npcs, o.seed, true);
    const double us = r.decisions > 0 ? static_cast<double>(r.decision_cpu_ns) / 1e3 /
                                            static_cast<double>(r.decisions)
                                      : 0.0;
    const double period_us = c.decision_ticks * c.dt * 1e6;
    const double cpu = 100.0 * us / period_us;
    const double max_npcs = cpu > 0 ? 10.0 / cpu : 0.0;
    const auto ki = static_cast<size_t>(k);
    const double plan_us =
        r.plans > 0 ? static_cast<double>(r.plan_cpu_ns) / 1e3 / static_cast<double>(r.plans) : 0.0;
    if (!o.json) {
      std::printf("%-8s %10lld %8lld %12.3f %10.3f %12.5f %12.0f %8.3f %14.0f\n",
                  std::string(to_string(k)).c_str(), static_cast<long long>(r.decisions),
                  static_cast<long long>(r.plans), us, plan_us, cpu, max_npcs, r.mean_unmet,
                  thesis_ms[ki]);
    }
    j["selectors"].push_back({{"selector", std::string(to_string(k))},
                              {"decisions", r.decisions},
                              {"plans", r.plans},
                              {"plan_failures", r.plan_failures},
                              {"cpu_us_per_decision", us},
                              {"cpu_us_per_plan", plan_us},
                              {"cpu_percent_per_npc", cpu},
                              {"npcs_in_10_percent_cpu", max_npcs},
                              {"unmet_share", r.mean_unmet},
                              {"thesis_ms_per_npc", thesis_ms[ki]}});
  }
  if (o.selector.empty() || o.selector == "goap") {
    if (!o.json) {
      std::printf("; GOAP planned by the crowd API (ℙ, %s, %d thread(s)), %g simulated s:\n",
                  c.cache ? "plan cache on" : "no cache", c.threads, c.crowd_seconds);
      std::printf("%10s %10s %10s %14s %13s %12s %14s %12s %8s\n", "npcs", "wall_s", "cpu_s",
                  "sim_s/wall_s", "sim_s/cpu_s", "planning", "plans/sim_s", "cache_hits", "unmet");
    }
    HospitalConfig cc = c;
    cc.seconds = c.crowd_seconds;
    for (int64_t n : c.crowd_npcs) {
      if (progress)
        std::fprintf(stderr, "hospital crowd: %lld NPCs...\n", static_cast<long long>(n));
      const HospitalRun r = run_hospital(cc, HospitalSelector::kCrowd, n, o.seed, false);
      const double rate = r.wall_seconds > 0 ? r.sim_seconds / r.wall_seconds : 0.0;
      const double share = r.wall_seconds > 0 ? r.planning_wall_seconds / r.wall_seconds : 0.0;
      if (!o.json) {
        std::printf("%10lld %10.3f %10.3f %14.3f %13.3f %11.2f%% %14.0f %12lld %8.3f\n",
                    static_cast<long long>(n), r.wall_seconds, r.cpu_seconds, rate,
                    r.cpu_seconds > 0 ? r.sim_seconds / r.cpu_seconds : 0.0, 100.0 * share,
                    static_cast<double>(r.plans) / r.sim_seconds,
                    static_cast<long long>(r.cache_hits), r.mean_unmet);
      }
      j["crowd"].push_back({{"npcs", n},
                            {"sim_seconds", r.sim_seconds},
                            {"wall_seconds", r.wall_seconds},
                            {"cpu_seconds", r.cpu_seconds},
                            {"sim_seconds_per_wall_second", rate},
                            {"planning_share", share},
                            {"plans", r.plans},
                            {"plan_failures", r.plan_failures},
                            {"cache_hits", r.cache_hits},
                            {"unmet_share", r.mean_unmet}});
    }
  }
  if (o.json) std::printf("%s\n", j.dump(2).c_str());
  return kExitOk;
}

int run_sim_command(const SimOptions& o) {
  g_inputs = {o.path};
  Result<SimScenario> loaded = load_sim_scenario(o.path);
  if (!loaded) {
    std::fprintf(stderr, "%s\n", loaded.error().to_string().c_str());
    return kExitInputError;
  }
  const SimScenario& sc = loaded.value();
  if (!sc.arena.udgoap_template_path.empty()) g_inputs.push_back(sc.arena.udgoap_template_path);
  // Options a scenario kind has no use for are an error, never silently ignored.
  const char* kind = sc.kind == ScenarioKind::kArena   ? "an arena"
                     : sc.kind == ScenarioKind::kHouse ? "a house"
                                                       : "a hospital";
  auto refuse = [&](const char* option, const char* used_by) {
    std::fprintf(stderr, "topoplan sim: %s does not apply to %s scenario (%s)\n", option, kind,
                 used_by);
    return kExitUsage;
  };
  if (sc.kind != ScenarioKind::kArena) {
    if (o.given_episodes) return refuse("--episodes", "arena scenarios run episodes");
    if (!o.histogram.empty() || o.given_histogram)
      return refuse("--histogram", "arena scenarios draw lifespans");
  }
  if (sc.kind == ScenarioKind::kHospital) {
    if (o.given_replay) return refuse("--replay", "arena and house scenarios write replays");
    if (o.given_replay_every)
      return refuse("--replay-every", "arena and house scenarios write replays");
    if (o.trace) return refuse("--trace", "arena and house scenarios trace one run");
  }
  if (o.given_replay && o.replay.empty()) {
    std::fprintf(stderr, "topoplan sim: --replay: empty file name\n");
    return kExitUsage;
  }
  if (o.given_histogram && o.histogram.empty()) {
    std::fprintf(stderr, "topoplan sim: --histogram: empty file name\n");
    return kExitUsage;
  }
  if (o.given_replay_every && !o.given_replay) return refuse("--replay-every", "it needs --replay");
  if (!o.replay.empty() && o.replay == o.histogram) {
    std::fprintf(stderr, "topoplan sim: --replay and --histogram name the same file\n");
    return kExitUsage;
  }
  if (sc.kind == ScenarioKind::kArena) return run_arena(o, sc);
  if (sc.kind == ScenarioKind::kHouse) return run_house_scenario(o, sc);
  if (sc.kind == ScenarioKind::kHospital) return run_hospital_scenario(o, sc);
  return kExitInputError;
}

}  // namespace

void add_sim_command(CLI::App& app, int& exit_code) {
  auto [cmd, opt] = add_subcommand<SimOptions>(
      app, exit_code, "sim",
      "Run a simulation scenario: NPCs executing and replanning over time (docs/sim.md)",
      [](SimOptions& o, const CLI::App& given) {
        o.given_episodes = given.count("--episodes") > 0;
        o.given_replay = given.count("--replay") > 0;
        o.given_replay_every = given.count("--replay-every") > 0;
        o.given_histogram = given.count("--histogram") > 0;
        return run_sim_command(o);
      });
  cmd->add_option("FILE", opt->path, "Scenario file (domains/sim/*.toml)")->required();
  cmd->add_option("--selector", opt->selector, "Behaviour selector (default: every one)")
      ->check(CLI::IsMember({"fsm", "goap", "udgoap"}));
  add_number(*cmd, "--episodes", opt->episodes, int64_t{1}, int64_t{1'000'000},
             "Episodes per selector (arena default 300)");
  add_number(*cmd, "--seed", opt->seed, uint64_t{0}, UINT64_MAX,
             "Random seed (same seed, same run)");
  add_limit(*cmd, limits::kHospitalThreads, opt->threads,
            "Threads running episodes / planning crowds (results do not change)");
  cmd->add_flag("--json", opt->json, "Print the results as JSON");
  cmd->add_option("--replay", opt->replay, "Write the first episode as a JSON Lines replay")
      ->check(non_empty_file());
  add_number(*cmd, "--replay-every", opt->replay_every, 1, 1'000'000,
             "Record one tick in K (default 1)");
  cmd->add_flag("--trace", opt->trace, "Print the first episode's decisions");
  cmd->add_flag("--quiet", opt->quiet, "No progress on stderr");
  cmd->add_option("--histogram", opt->histogram, "Write an SVG histogram of the results")
      ->check(non_empty_file());
}

}  // namespace topoplan::cli
