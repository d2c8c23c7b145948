// Google Benchmark: regressive GOAP A* (astar-back) against forward A* (astar), hot APIs (one
// planner object reused, as a game would) and cold registry calls (planner built per plan).
// One iteration plans one instance (the family's instances in turn). Counters: nodes expanded
// and generated per plan.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_loop.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/astar_back.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

void bm_cold(benchmark::State& state, const Task& t, const PlanFn fn) {
  PlannerOptions options;
  options.objective = Objective::kLength;
  bench::plan_in_turn(state, t, "no plan", [&](size_t i) {
    const PlanResult r = fn(t.domain, t.instances[i], options);
    benchmark::DoNotOptimize(r.actions.data());
    return r.status == PlanStatus::kSolved;
  });
}

}  // namespace
}  // namespace topoplan

int main(int argc, char** argv) {
  using namespace topoplan;
  static std::vector<std::unique_ptr<Task>> tasks;
  tasks.push_back(std::make_unique<Task>(western()));
  tasks.push_back(std::make_unique<Task>(western_pus()));
  for (size_t k = 0; k < tasks.size(); ++k) {
    const Task* t = tasks[k].get();
    const std::string fam = k == 0 ? "western" : "western-pus";
    for (Objective obj : {Objective::kLength, Objective::kCost}) {
      const std::string o = obj == Objective::kLength ? "/length" : "/cost";
      benchmark::RegisterBenchmark(("astar/hot/" + fam + o).c_str(), [t, obj](benchmark::State& s) {
        bench::bm_goap_hot<AStarPlanner>(s, *t, obj);
      });
      benchmark::RegisterBenchmark(
          ("astar-back/hot/" + fam + o).c_str(),
          [t, obj](benchmark::State& s) { bench::bm_goap_hot<BackAStarPlanner>(s, *t, obj); });
    }
    benchmark::RegisterBenchmark(("astar/cold/" + fam).c_str(),
                                 [t](benchmark::State& s) { bm_cold(s, *t, &plan_astar); });
    benchmark::RegisterBenchmark(("astar-back/cold/" + fam).c_str(),
                                 [t](benchmark::State& s) { bm_cold(s, *t, &plan_astar_back); });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
