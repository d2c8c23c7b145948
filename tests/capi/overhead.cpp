// The cost of the C API's door, next to the C++ call it wraps (not a test: a measurement tool,
// built on demand with `--target capi_overhead`; examples/python/overhead.py runs it and adds
// the Python figures in the same run).
//
//   capi_overhead TASK INSTANCE [BATCH_PREFIX N]
//
// Prints one JSON object: ns per call of ℙ on the hot path (C++ TopoPlanner::plan vs
// topoplan_topo_plan), of the cold registry path (find_planner("topo")->plan vs topoplan_plan),
// and, with a batch (BATCH_PREFIX.class = N uint16, .init / .goal = N * words uint64, as written
// by overhead.py), ns per NPC of a one-thread cold crowd batch (Crowd::plan vs
// topoplan_crowd_plan). Thread CPU time, medians over repetitions, C++ and C interleaved.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "topoplan/c/topoplan_c.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/topo.h"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// CPU time of the calling thread: what the call costs, whatever else the machine runs (the
// shared CI machine's load average is often far above its core count). Every measured call runs
// on this thread (the crowds below have one worker and no pool).
double thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e9 + static_cast<double>(ts.tv_nsec);
}

template <class F>
double ns_per_call(int64_t calls, F&& f) {
  const double t0 = thread_cpu_ns();
  for (int64_t i = 0; i < calls; ++i) f();
  return (thread_cpu_ns() - t0) / static_cast<double>(calls);
}

template <class T>
std::vector<T> read_file(const std::string& path, size_t count) {
  std::vector<T> v(count);
  std::ifstream in(path, std::ios::binary);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(count * sizeof(T)));
  if (!in) {
    std::fprintf(stderr, "cannot read %zu items from %s\n", count, path.c_str());
    std::exit(2);
  }
  return v;
}

// ℙ through the C++ and the C door, hot path (planner + scratch) and registry, interleaved; prints
// the JSON object's first fields. 1 if the planner cannot be made.
int measure_topo(const std::string& path, const std::string& instance_name,
                 const topoplan::Task& task, const topoplan::Instance& inst, topoplan_task* ctask,
                 const topoplan_problem& problem, int64_t& sink) {
  using namespace topoplan;
  Result<TopoPlanner> planner = TopoPlanner::create(task.domain, inst.npc_class);
  if (!planner) return 1;
  TopoScratch scratch = planner->make_scratch();
  std::vector<ActionId> out(static_cast<size_t>(planner->max_plan_length()) + 1);
  topoplan_topo* ctopo = nullptr;
  topoplan_scratch* cscratch = nullptr;
  topoplan_topo_create(ctask, inst.npc_class, &ctopo, nullptr, 0);
  topoplan_scratch_create(ctopo, &cscratch);
  const auto m = static_cast<int32_t>(inst.init.size());
  int32_t len = 0;
  std::vector<double> cpp_hot, c_hot, cpp_cold, c_cold;
  const int64_t hot_calls = 200'000, cold_calls = 20'000;
  for (int rep = 0; rep < 7; ++rep) {
    cpp_hot.push_back(ns_per_call(hot_calls, [&] {
      sink +=
          static_cast<int>(planner->plan(scratch, inst.init, inst.goal, out, &len).status) + len;
    }));
    c_hot.push_back(ns_per_call(hot_calls, [&] {
      sink += topoplan_topo_plan(ctopo, cscratch, problem.init, problem.goal, m, out.data(),
                                 static_cast<int32_t>(out.size()), &len) +
              len;
    }));
    const PlannerInfo* topo = find_planner("topo");
    cpp_cold.push_back(ns_per_call(cold_calls, [&] {
      sink += static_cast<int64_t>(topo->plan(task.domain, inst, PlannerOptions{}).actions.size());
    }));
    c_cold.push_back(ns_per_call(cold_calls, [&] {
      topoplan_plan_stats stats;
      sink += topoplan_plan(ctask, "topo", &problem, nullptr, out.data(),
                            static_cast<int32_t>(out.size()), &stats, nullptr, 0) +
              stats.length;
    }));
  }
  std::printf("{\"task\": \"%s\", \"instance\": \"%s\", \"plan_length\": %d,\n", path.c_str(),
              instance_name.c_str(), len);
  std::printf(" \"topo_hot_ns\": {\"cpp\": %.1f, \"c\": %.1f},\n", median(cpp_hot), median(c_hot));
  std::printf(" \"topo_registry_ns\": {\"cpp\": %.1f, \"c\": %.1f}", median(cpp_cold),
              median(c_cold));
  topoplan_scratch_free(cscratch);
  topoplan_topo_free(ctopo);
  return 0;
}

// A one-thread cold crowd batch of the n NPCs written at `prefix` (overhead.py's files), C++ and
// C interleaved; prints the crowd's JSON fields. 1 if the crowd cannot be made.
int measure_crowd(const topoplan::Task& task, topoplan_task* ctask, const std::string& prefix,
                  size_t n) {
  using namespace topoplan;
  Result<CrowdPlanner> cp = CrowdPlanner::create(task.domain);
  if (!cp) return 1;
  const auto words = static_cast<size_t>(cp->layout().words());
  const auto cls = read_file<uint16_t>(prefix + ".class", n);
  const auto init = read_file<uint64_t>(prefix + ".init", n * words);
  const auto goal = read_file<uint64_t>(prefix + ".goal", n * words);
  std::vector<ActionId> actions(n * 16);
  std::vector<uint32_t> offset(n);
  std::vector<uint16_t> length(n), status(n);
  CrowdDef def;  // one thread, no cache: every NPC through ℙ
  Result<Crowd> crowd = Crowd::create(*cp, def);
  if (!crowd) return 1;
  topoplan_crowd_planner* ccp = nullptr;
  topoplan_crowd* ccrowd = nullptr;
  topoplan_crowd_planner_create(ctask, &ccp, nullptr, 0);
  topoplan_crowd_def cdef;
  topoplan_crowd_def_init(&cdef);
  topoplan_crowd_create(ccp, &cdef, &ccrowd, nullptr, 0);
  const CrowdBatch batch{cls, init, goal};
  const CrowdOutput output{actions, offset, length, status};
  const topoplan_crowd_batch cbatch{static_cast<int64_t>(n), cls.data(), init.data(), goal.data()};
  const topoplan_crowd_output coutput{actions.data(), static_cast<int64_t>(actions.size()),
                                      offset.data(), length.data(), status.data()};
  std::vector<double> cpp_crowd, c_crowd;
  int64_t solved = 0;
  for (int rep = 0; rep < 7; ++rep) {
    cpp_crowd.push_back(ns_per_call(1, [&] { solved = crowd->plan(batch, output).solved; }) /
                        static_cast<double>(n));
    c_crowd.push_back(ns_per_call(1,
                                  [&] {
                                    topoplan_crowd_stats s;
                                    topoplan_crowd_plan(ccrowd, &cbatch, &coutput, &s);
                                    solved = s.solved;
                                  }) /
                      static_cast<double>(n));
  }
  std::printf(",\n \"crowd_npcs\": %zu, \"crowd_solved\": %lld,\n", n,
              static_cast<long long>(solved));
  std::printf(" \"crowd_ns_per_npc\": {\"cpp\": %.2f, \"c\": %.2f}", median(cpp_crowd),
              median(c_crowd));
  topoplan_crowd_free(ccrowd);
  topoplan_crowd_planner_free(ccp);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace topoplan;
  if (argc != 3 && argc != 5) {
    std::fprintf(stderr, "usage: capi_overhead TASK INSTANCE [BATCH_PREFIX N]\n");
    return 2;
  }
  const std::string path = argv[1];
  const std::string instance_name = argv[2];
  Result<Task> task = load_task(path);
  if (!task) {
    std::fprintf(stderr, "%s\n", task.error().to_string().c_str());
    return 33;
  }
  const Instance* inst = task->find_instance(instance_name);
  if (inst == nullptr) {
    std::fprintf(stderr, "no instance %s\n", instance_name.c_str());
    return 2;
  }
  topoplan_task* ctask = nullptr;
  if (topoplan_task_load(path.c_str(), 0, &ctask, nullptr, 0) != TOPOPLAN_OK) return 33;
  int32_t index = -1;
  topoplan_task_find_instance(ctask, instance_name.c_str(), &index);
  topoplan_problem problem;
  topoplan_task_instance(ctask, index, &problem);

  int64_t sink = 0;
  if (measure_topo(path, instance_name, *task, *inst, ctask, problem, sink) != 0) return 1;
  if (argc == 5 &&
      measure_crowd(*task, ctask, argv[3], static_cast<size_t>(std::stoll(argv[4]))) != 0)
    return 1;
  std::printf(",\n \"sink\": %lld}\n", static_cast<long long>(sink % 1000));
  topoplan_task_free(ctask);
  return 0;
}
