// ns per plan on every instance of a folder of domain files (default: domains/real/), all in one
// run: the prepared planners "auto", "topo-reach", "topo" and "astar" (one HotPlanner and scratch
// per instance's class, created before timing) and the cold "topo-reach" (the registry's PlanFn:
// reformulation and tables per call). Every plan is validated against the original domain and
// its cost compared with the exact search; a wrong answer exits 1.
//
// Usage: topoplan_bench_reach [FOLDER] [--min-ms N] > results.csv
// Columns: file, instance, exact cost, then per planner its ns per plan and what it answered
// ("opt": the exact optimum; "+k": k above it; "unsolv"; "-": no answer; "refused": not created).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "topoplan/io/formats.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/search.h"

#include "bench_timing.h"

namespace {

using namespace topoplan;
using topoplan::bench::time_ns;

struct Cell {
  double ns = -1;
  std::string what;
};

std::string judge(const Domain& d, const Instance& inst, const PlanResult& ex, PlanStatus st,
                  const std::vector<ActionId>& plan, bool* wrong) {
  if (st == PlanStatus::kUnsolvable) {
    if (ex.status == PlanStatus::kSolved) *wrong = true;
    return "unsolv";
  }
  if (st != PlanStatus::kSolved) return "-";
  const Validation v = validate_plan(d, inst, plan);
  if (!v.valid || ex.status == PlanStatus::kUnsolvable) {
    *wrong = true;
    return "INVALID";
  }
  if (ex.status != PlanStatus::kSolved) return "cost " + std::to_string(v.cost);
  if (v.cost < ex.cost) *wrong = true;
  return v.cost == ex.cost ? "opt" : "+" + std::to_string(v.cost - ex.cost);
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir = std::filesystem::path(TOPOPLAN_SOURCE_DIR) / "domains/real";
  double min_ms = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--min-ms" && i + 1 < argc) {
      min_ms = std::atof(argv[++i]);
      if (!(min_ms > 0)) {
        std::fprintf(stderr, "topoplan_bench_reach: --min-ms: expected a positive number\n");
        return 2;
      }
    } else {
      dir = a;
    }
  }
  if (!std::filesystem::is_directory(dir)) {
    std::fprintf(stderr, "topoplan_bench_reach: %s: not a folder\n", dir.c_str());
    return 2;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".toml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  const std::vector<std::string> hot = {"auto", "topo-reach", "topo", "astar"};
  std::printf("file,instance,exact_cost");
  for (const auto& h : hot) std::printf(",%s_ns,%s", h.c_str(), h.c_str());
  std::printf(",topo-reach-cold_ns,topo-reach-cold\n");
  bool wrong = false;
  for (const auto& path : files) {
    Result<Task> task = load_task(path.string());
    if (!task) {
      std::fprintf(stderr, "%s\n", task.error().to_string().c_str());
      return 2;
    }
    const Domain& d = task->domain;
    for (const Instance& inst : task->instances) {
      PlannerOptions eo;
      eo.limits.max_expansions = 5'000'000;
      const PlanResult ex = plan_exact(d, inst, eo);
      std::vector<Cell> cells;
      Result<CompiledActionSet> set = CompiledActionSet::create(d, inst.npc_class);
      if (!set) return 2;
      for (const auto& h : hot) {
        Cell c;
        Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(h, *set);
        if (!p) {
          c.what = "refused";
          cells.push_back(c);
          continue;
        }
        auto scratch = (*p)->make_scratch();
        std::vector<ActionId> out(static_cast<size_t>((*p)->max_plan_length()));
        int32_t len = 0;
        PlanOutcome o;
        c.ns = time_ns([&] { o = (*p)->plan(*scratch, inst.init, inst.goal, out, &len); }, min_ms);
        std::vector<ActionId> plan(out.begin(), out.begin() + (o.solved() ? len : 0));
        c.what = judge(d, inst, ex, o.status, plan, &wrong);
        if (o.solved() && (o.detail & kDetailNotProvenOptimal) != 0) c.what += " (unproven)";
        cells.push_back(c);
      }
      Cell cold;
      PlanResult r;
      const PlannerInfo* info = find_planner("topo-reach");
      cold.ns = time_ns([&] { r = info->plan(d, inst, PlannerOptions{}); }, min_ms);
      cold.what = judge(d, inst, ex, r.status, r.actions, &wrong);
      cells.push_back(cold);
      std::printf("%s,%s,%s", path.filename().c_str(), inst.name.c_str(),
                  ex.status == PlanStatus::kSolved       ? std::to_string(ex.cost).c_str()
                  : ex.status == PlanStatus::kUnsolvable ? "unsolv"
                                                         : "?");
      for (const Cell& c : cells) {
        if (c.ns < 0)
          std::printf(",,%s", c.what.c_str());
        else
          std::printf(",%.0f,%s", c.ns, c.what.c_str());
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  if (wrong) std::fprintf(stderr, "topoplan_bench_reach: a wrong answer (see the table)\n");
  return wrong ? 1 : 0;
}
