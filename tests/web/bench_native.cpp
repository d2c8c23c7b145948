// The WebAssembly binding's benchmarks (src/wasm/bench.cpp, on the C API) compiled natively: the
// same sources and method on both sides of the WebAssembly-vs-native comparison of
// tests/web/bench_wasm.py (docs/web.md). Prints one JSON object: the wall-clock answers of the two
// benchmarks, and the process CPU time of fixed-work calls (the script measures the same calls in
// the browser).
#include <time.h>

#include <cstdio>

extern "C" const char* tp_bench_western(double min_seconds, int reps, int fixed_batch);
extern "C" const char* tp_bench_crowd(int npcs, int reps, int frames);

namespace {

double cpu_s() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

template <typename F>
double cpu_of(F f) {
  const double t0 = cpu_s();
  f();
  return cpu_s() - t0;
}

}  // namespace

int main() {
  std::printf("{\"western\": %s, ", tp_bench_western(0.2, 5, 0));
  std::printf("\"crowd\": %s, ", tp_bench_crowd(100000, 5, 10));
  // Fixed work, as tests/web/bench_wasm.py runs it in the page.
  const double western = cpu_of([] { tp_bench_western(0, 5, 1000000); });
  const double build = cpu_of([] { tp_bench_crowd(100000, 0, 0); });
  const double cold = cpu_of([] { tp_bench_crowd(100000, 20, 0); });
  const double warm1 = cpu_of([] { tp_bench_crowd(100000, 0, 1); });
  const double warm = cpu_of([] { tp_bench_crowd(100000, 0, 201); });
  std::printf(
      "\"cpu\": {\"western_s\": %.6f, \"build_s\": %.6f, \"cold_s\": %.6f, "
      "\"warm1_s\": %.6f, \"warm_s\": %.6f}}\n",
      western, build, cold, warm1, warm);
  return 0;
}
