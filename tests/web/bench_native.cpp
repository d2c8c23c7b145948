// The WebAssembly binding's two benchmarks (src/wasm/binding.cpp), compiled natively: the same
// source and method on both sides of the WebAssembly-vs-native comparison of
// tests/web/bench_wasm.py (docs/web.md). Prints one JSON object.
#include <cstdio>

extern "C" const char* tp_bench_western(double min_seconds, int reps);
extern "C" const char* tp_bench_crowd(int npcs, int reps, int frames);

int main() {
  std::printf("{\"western\": %s, ", tp_bench_western(0.2, 5));
  std::printf("\"crowd\": %s}\n", tp_bench_crowd(100000, 5, 10));
  return 0;
}
