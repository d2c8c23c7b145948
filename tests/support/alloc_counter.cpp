// Replaces the global operator new/delete to count allocations (see alloc_counter.h).
// GCC 12 flags free() in a replaced operator delete as mismatched once inlined (false positive).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

#include "alloc_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace {
std::atomic<int64_t> g_allocations{0};
}

namespace topoplan::testing {
int64_t allocation_count() {
  return g_allocations.load();
}
}  // namespace topoplan::testing

void* operator new(std::size_t size) {
  ++g_allocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t size) {
  return operator new(size);
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete[](void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  std::free(p);
}
