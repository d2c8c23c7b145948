// The resource figures of Sloan (2015): memory per NPC and CPU per decision in the hospital
// (ch. 4: FSM, GOAP, the utility system) and UDGOAP against GOAP in the Sims house (ch. 5; the
// thesis: UDGOAP +23 % CPU, +37 % memory). docs/sim.md, "Resources".
//
// Memory is the heap: this program replaces the global operator new/delete and tracks the live
// and peak bytes (malloc_usable_size, what the allocator really handed out). A run's memory is
// its peak live bytes above those live before it started; the hospital's memory per NPC is the
// slope between two crowd sizes (what one more NPC costs), its fixed part the rest. The thesis
// counted static bytes of data members by reading the code (Khoo & Zubek 2002); a heap peak also
// counts the planners' scratch arrays, which is what a game would have to reserve.
//
// usage: topoplan_sim_resources [ROOT]   (ROOT: the source tree, for domains/sim/*.toml)
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include "topoplan/sim/hospital.h"
#include "topoplan/sim/house.h"
#include "topoplan/sim/scenario.h"

namespace {
std::atomic<int64_t> g_live{0}, g_peak{0};

void* counted(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  const auto b = static_cast<int64_t>(malloc_usable_size(p));
  const int64_t live = g_live.fetch_add(b) + b;
  int64_t peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  return p;
}
void uncounted(void* p) {
  if (p == nullptr) return;
  g_live.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
}

// Peak live bytes of `f` above the live bytes before it.
template <typename F>
int64_t peak_of(F&& f) {
  const int64_t base = g_live.load();
  g_peak.store(base);
  f();
  return g_peak.load() - base;
}
}  // namespace

void* operator new(size_t n) {
  return counted(n);
}
void* operator new[](size_t n) {
  return counted(n);
}
void operator delete(void* p) noexcept {
  uncounted(p);
}
void operator delete[](void* p) noexcept {
  uncounted(p);
}
void operator delete(void* p, size_t) noexcept {
  uncounted(p);
}
void operator delete[](void* p, size_t) noexcept {
  uncounted(p);
}

int main(int argc, char** argv) {
  using namespace topoplan::sim;
  const std::string root = argc > 1 ? argv[1] : ".";
  auto load = [&](const char* name) {
    auto r = load_sim_scenario(root + "/domains/sim/" + name);
    if (!r.ok()) {
      std::fprintf(stderr, "topoplan_sim_resources: %s\n", r.error().to_string().c_str());
      std::exit(2);
    }
    return std::move(r.value());
  };
  const SimScenario hospital = load("hospital.toml");
  const SimScenario house = load("sims-house.toml");

  std::printf("# hospital (Sloan 2015 ch. 4): %g simulated s, decisions every 200 ms\n",
              hospital.hospital.seconds);
  std::printf("%-8s %14s %14s %16s %14s\n", "selector", "CPU us/decision", "bytes at 32",
              "bytes per NPC", "fixed bytes");
  for (HospitalSelector sel :
       {HospitalSelector::kFsm, HospitalSelector::kGoap, HospitalSelector::kUtility}) {
    HospitalRun r32;
    const int64_t m32 = peak_of([&] { r32 = run_hospital(hospital.hospital, sel, 32, 1, true); });
    const int64_t m256 =
        peak_of([&] { (void)run_hospital(hospital.hospital, sel, 256, 1, false); });
    const double per = static_cast<double>(m256 - m32) / (256 - 32);
    std::printf("%-8s %14.3f %14lld %16.1f %14.0f\n", std::string(to_string(sel)).c_str(),
                static_cast<double>(r32.decision_cpu_ns) / 1e3 /
                    static_cast<double>(std::max<int64_t>(1, r32.decisions)),
                static_cast<long long>(m32), per, static_cast<double>(m32) - 32 * per);
  }

  std::printf("\n# Sims house (Sloan 2015 ch. 5): one NPC until every drive is above %g\n",
              house.house.target);
  std::printf("%-8s %14s %14s %10s %14s\n", "selector", "CPU us/decision", "CPU us/plan", "plans",
              "peak bytes");
  double cpu[2] = {0, 0}, mem[2] = {0, 0};
  int i = 0;
  for (SelectorKind k : {SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    // The median of 5 runs (each the same deterministic run) for the CPU figures.
    double us[5], plan_us[5];
    int64_t bytes = 0, plans = 0;
    for (int rep = 0; rep < 5; ++rep) {
      HouseRun r;
      const int64_t b = peak_of([&] { r = run_house(house.house, k, nullptr, nullptr, true); });
      bytes = std::max(bytes, b);
      plans = r.counters.plans;
      us[rep] = static_cast<double>(r.counters.decision_ns) / 1e3 /
                static_cast<double>(std::max<int64_t>(1, r.counters.decisions));
      plan_us[rep] = static_cast<double>(r.counters.planning_ns) / 1e3 /
                     static_cast<double>(std::max<int64_t>(1, r.counters.plans));
    }
    std::sort(us, us + 5);
    std::sort(plan_us, plan_us + 5);
    cpu[i] = us[2];
    mem[i] = static_cast<double>(bytes);
    std::printf("%-8s %14.3f %14.3f %10lld %14lld\n", std::string(to_string(k)).c_str(), us[2],
                plan_us[2], static_cast<long long>(plans), static_cast<long long>(bytes));
    ++i;
  }
  std::printf(
      "UDGOAP / GOAP: CPU per decision %+.0f %%, memory %+.0f %% (thesis: +23 %%, +37 %%)\n",
      (cpu[1] / cpu[0] - 1) * 100, (mem[1] / mem[0] - 1) * 100);
  return 0;
}
