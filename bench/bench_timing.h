// Wall-clock timing shared by the stand-alone benchmarks (those without Google Benchmark).
#pragma once

#include <chrono>
#include <cstdint>

namespace topoplan::bench {

// Calls `f` once to warm caches, then repeats it until `min_ms` have passed and at least three
// calls were made; returns the mean wall-clock nanoseconds per call.
template <class F>
double time_ns(F&& f, double min_ms) {
  using Clock = std::chrono::steady_clock;
  f();
  int64_t n = 0;
  const auto start = Clock::now();
  double ms = 0;
  while (n < 3 || ms < min_ms) {
    f();
    ++n;
    ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  }
  return ms * 1e6 / static_cast<double>(n);
}

}  // namespace topoplan::bench
