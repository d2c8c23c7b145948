// Google Benchmark micro-benchmarks: each planner's hot API on each benchmark family. One
// benchmark iteration plans one instance (the family's instances in turn).
#include <benchmark/benchmark.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "bench_loop.h"
#include "topoplan/runtime/astar.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/tools/backstrom.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

struct Family {
  std::string name;
  std::function<Task()> make;
};

// Distinct classes of the instances and, per instance, the index of its class.
std::vector<ClassId> classes_of(const Task& t, std::vector<size_t>& which) {
  std::vector<ClassId> cs;
  for (const Instance& i : t.instances) {
    size_t k = 0;
    while (k < cs.size() && cs[k] != i.npc_class) ++k;
    if (k == cs.size()) cs.push_back(i.npc_class);
    which.push_back(k);
  }
  return cs;
}

void bm_topo(benchmark::State& state, const Task& t) {
  std::vector<size_t> which;
  std::vector<TopoPlanner> ps;
  std::vector<TopoScratch> ss;
  int32_t cap = 1;
  for (ClassId c : classes_of(t, which)) {
    auto p = TopoPlanner::create(t.domain, c);
    if (!p.ok()) return state.SkipWithError(p.error().message.c_str());
    ps.push_back(std::move(p).value());
    ss.push_back(ps.back().make_scratch());
    cap = std::max(cap, ps.back().max_plan_length());
  }
  std::vector<ActionId> out(static_cast<size_t>(cap));
  bench::plan_in_turn(state, t, "topo: no plan", [&](size_t i) {
    const Instance& inst = t.instances[i];
    int32_t len = 0;
    const PlanStatus s = ps[which[i]].plan(ss[which[i]], inst.init, inst.goal, out, &len).status;
    benchmark::DoNotOptimize(len);
    return s == PlanStatus::kSolved;
  });
}

void bm_backstrom(benchmark::State& state, const Task& t) {
  std::vector<size_t> which;
  std::vector<BackstromPlanner> ps;
  for (ClassId c : classes_of(t, which)) {
    auto p = BackstromPlanner::create(t.domain, c);
    if (!p.ok()) return state.SkipWithError(p.error().message.c_str());
    ps.push_back(std::move(p).value());
  }
  std::vector<ActionId> out;
  bench::plan_in_turn(state, t, "backstrom: no plan", [&](size_t i) {
    const Instance& inst = t.instances[i];
    const PlanStatus s = ps[which[i]].plan(inst.init, inst.goal, out);
    benchmark::DoNotOptimize(out.data());
    return s == PlanStatus::kSolved;
  });
}

}  // namespace
}  // namespace topoplan

int main(int argc, char** argv) {
  using namespace topoplan;
  static const std::vector<Family> families = {
      {"western", [] { return western(); }},
      {"western-pus", [] { return western_pus(); }},
      {"multiprv-2-cycle/m=100", [] { return multiprv_2_cycle(100); }},
      {"oneprv-5/m=100", [] { return oneprv_5(100); }},
      {"multiprv-n-cycle/m=10/n=32", [] { return multiprv_n_cycle(10, 32); }},
      {"multiprv-2-cycle/m=8", [] { return multiprv_2_cycle(8); }},
  };
  static std::vector<std::unique_ptr<Task>> tasks;
  for (const Family& f : families) {
    tasks.push_back(std::make_unique<Task>(f.make()));
    const Task* t = tasks.back().get();
    benchmark::RegisterBenchmark(("topo/" + f.name).c_str(),
                                 [t](benchmark::State& s) { bm_topo(s, *t); });
    benchmark::RegisterBenchmark(("backstrom/" + f.name).c_str(),
                                 [t](benchmark::State& s) { bm_backstrom(s, *t); });
    // A* is exponential on the synthetic families beyond a few variables.
    if (f.name.rfind("multiprv-2-cycle/m=100", 0) != 0 && f.name.rfind("oneprv", 0) != 0 &&
        f.name.rfind("multiprv-n", 0) != 0)
      benchmark::RegisterBenchmark(("astar/" + f.name).c_str(), [t](benchmark::State& s) {
        bench::bm_goap_hot<AStarPlanner>(s, *t, Objective::kLength);
      });
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
