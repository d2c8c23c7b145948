// topoplan — SplitMix64, the one seeded generator of the project (towns, random domains, tests):
// 64-bit state, a full period, statistically good enough for test data and benchmarks, and the
// same sequence on every platform (std:: distributions are not).
#pragma once

#include <cstdint>

namespace topoplan {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, n) (modulo bias below 2^-32 for n < 2^32). Precondition: n > 0.
  int32_t below(int32_t n) { return static_cast<int32_t>(next() % static_cast<uint64_t>(n)); }
  // Uniform in [0, 1) with 53 random bits.
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t state_;
};

}  // namespace topoplan
