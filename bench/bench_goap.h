// The GOAP A* benchmark loop shared by the Google Benchmark programs: one planner object reused,
// as a game would, planning the family's instances in turn.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "topoplan/runtime/plan.h"
#include "topoplan/tools/families.h"

namespace topoplan::bench {

// One iteration plans one instance with a Planner (AStarPlanner or BackAStarPlanner) within a
// million expansions; counters: nodes expanded and generated per plan.
template <typename Planner>
void bm_goap_hot(benchmark::State& state, const Task& t, Objective objective) {
  Planner planner(t.domain);
  PlannerOptions options;
  options.objective = objective;
  options.limits.max_expansions = 1'000'000;
  std::vector<ActionId> out;
  size_t i = 0;
  double expanded = 0, generated = 0;
  for (auto _ : state) {
    if (planner.plan(t.instances[i], options, out) != PlanStatus::kSolved)
      return state.SkipWithError("no plan within the limit");
    expanded += static_cast<double>(planner.expanded());
    generated += static_cast<double>(planner.generated());
    benchmark::DoNotOptimize(out.data());
    if (++i == t.instances.size()) i = 0;
  }
  state.counters["expanded"] = benchmark::Counter(expanded, benchmark::Counter::kAvgIterations);
  state.counters["generated"] = benchmark::Counter(generated, benchmark::Counter::kAvgIterations);
  state.SetItemsProcessed(state.iterations());
}

}  // namespace topoplan::bench
