// The binding of the simulations (docs/sim.md): one episode of a scenario (bindings.h).
#include "bindings.h"

#include "topoplan/sim/arena.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace topoplan_py {

void bind_sim(py::module_& m) {
  using Counters = sim::LoopCounters;  // the agent loop's counters, both kinds of episode
  // Simulations (docs/sim.md): one episode of the wizard arena of Sloan (2015), ch. 6.
  m.def(
      "simulate",
      [](const std::string& path, const std::string& selector, uint64_t seed) {
        const sim::SimScenario s = unwrap(sim::load_sim_scenario(path));
        sim::SelectorKind kind = sim::SelectorKind::kUdgoap;
        if (selector == "fsm")
          kind = sim::SelectorKind::kFsm;
        else if (selector == "goap")
          kind = sim::SelectorKind::kGoap;
        else if (selector != "udgoap")
          throw py::value_error("selector: fsm, goap or udgoap");
        py::dict d;
        if (s.kind == sim::ScenarioKind::kHouse) {
          // The Sims house of Sloan (2015), ch. 5: deterministic, no seed.
          const sim::HouseConfig& c = s.house;
          if (kind == sim::SelectorKind::kFsm)
            throw py::value_error("the house has no FSM selector (GOAP and UDGOAP only)");
          if (kind == sim::SelectorKind::kUdgoap && !c.has_udgoap)
            throw py::value_error(path + ": the scenario has no UDGOAP world");
          sim::HouseRun r;
          {
            py::gil_scoped_release release;  // the run reads only its own copy of the scenario
            r = sim::run_house(c, kind);
          }
          py::dict drives;
          for (size_t i = 0; i < c.drives.size() && i < r.final_drives.size(); ++i)
            drives[py::str(c.drives[i])] = r.final_drives[i];
          py::list steps;
          for (const sim::HouseRecord& h : r.steps) {
            const bool go = h.action < 0;
            const auto i = static_cast<size_t>(go ? h.target : h.action);
            const std::string what = go ? (i < c.spots.size() ? "goto_" + c.spots[i].name : "goto")
                                        : (i < c.activities.size() ? c.activities[i].name : "?");
            steps.append(py::make_tuple(h.t, what, h.done));
          }
          using R = sim::HouseRun;
          d["kind"] = "house";
          put_fields(d, r, "time", &R::time, "reached", &R::reached, "ticks", &R::ticks);
          d["final_drives"] = drives;
          d["steps"] = steps;
          put_fields(d, r.counters, "decisions", &Counters::decisions, "plans", &Counters::plans,
                     "plan_failures", &Counters::plan_failures);
          return d;
        }
        if (s.kind != sim::ScenarioKind::kArena)
          throw py::value_error(path + ": only arena and house scenarios can be simulated here");
        if (kind == sim::SelectorKind::kUdgoap && !s.arena.has_udgoap)
          throw py::value_error(path + ": the scenario has no UDGOAP template (selector udgoap)");
        sim::ArenaEpisode e;
        {
          py::gil_scoped_release release;  // the episode reads only its own copy of the scenario
          e = sim::run_arena_episode(s.arena, kind, seed);
        }
        using E = sim::ArenaEpisode;
        d["kind"] = "arena";
        put_fields(d, e, "lifespan", &E::lifespan, "censored", &E::censored, "ticks", &E::ticks,
                   "kills", &E::kills, "spawned", &E::spawned, "potions_taken", &E::potions_taken);
        put_fields(d, e.counters, "decisions", &Counters::decisions, "steps_done",
                   &Counters::steps_done, "steps_failed", &Counters::steps_failed, "plans",
                   &Counters::plans, "plan_failures", &Counters::plan_failures);
        return d;
      },
      py::arg("path"), py::arg("selector") = "udgoap", py::arg("seed") = 1,
      "Runs one episode of a simulation scenario (domains/sim/*.toml): the wizard arena with the "
      "FSM, GOAP or UDGOAP selector (the same seed gives the same episode), or the Sims house "
      "with GOAP or UDGOAP (deterministic).");
}

}  // namespace topoplan_py
