// The loops shared by the Google Benchmark programs: one iteration plans one instance, the
// family's instances in turn, with one planner object reused as a game would.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <vector>

#include "topoplan/runtime/plan.h"
#include "topoplan/tools/families.h"

namespace topoplan::bench {

// Calls plan(i) for instance i of t in turn, once per iteration; plan says whether it solved the
// instance, and the first one it does not solve ends the run with `error`.
template <class Plan>
void plan_in_turn(benchmark::State& state, const Task& t, const char* error, Plan&& plan) {
  size_t i = 0;
  for (auto _ : state) {
    if (!plan(i)) return state.SkipWithError(error);
    if (++i == t.instances.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
}

// A GOAP A* (AStarPlanner or BackAStarPlanner) within a million expansions; counters: nodes
// expanded and generated per plan.
template <typename Planner>
void bm_goap_hot(benchmark::State& state, const Task& t, Objective objective) {
  Planner planner(t.domain);
  PlannerOptions options;
  options.objective = objective;
  options.limits.max_expansions = 1'000'000;
  std::vector<ActionId> out;
  double expanded = 0, generated = 0;
  plan_in_turn(state, t, "no plan within the limit", [&](size_t i) {
    if (planner.plan(t.instances[i], options, out) != PlanStatus::kSolved) return false;
    expanded += static_cast<double>(planner.expanded());
    generated += static_cast<double>(planner.generated());
    benchmark::DoNotOptimize(out.data());
    return true;
  });
  state.counters["expanded"] = benchmark::Counter(expanded, benchmark::Counter::kAvgIterations);
  state.counters["generated"] = benchmark::Counter(generated, benchmark::Counter::kAvgIterations);
}

}  // namespace topoplan::bench
