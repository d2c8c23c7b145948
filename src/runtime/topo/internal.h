// ℙ's private helpers shared by the files of src/runtime/topo: record views, the chooser of the
// fast path, action states, and the ordering rules of the fast path, written once.
#pragma once

#include <cassert>
#include <cstdint>

#include "topoplan/runtime/topo.h"

namespace topoplan::detail {

// Action states of the fast path's sort.
inline constexpr uint8_t kPending = 0;
inline constexpr uint8_t kQueued = 1;
inline constexpr uint8_t kDone = 2;
inline constexpr uint8_t kDeferred = 3;  // a loop's first action waiting for requests of s0

// TopoPlanner::extend_walk's answers besides a PlanStatus that ends the plan.
inline constexpr uint8_t kExtended = 0xFF;   // the walk now loops through s0: go on
inline constexpr uint8_t kToGeneral = 0xFE;  // a free variable is visited: the general path plans
inline constexpr uint8_t kLoops = 0xFD;      // phase 2 done, some request is disjunctive

// One field of a record array, indexed like a plain array (all views of one array share its
// base pointer, hence one register).
template <auto Member, class Rec>
struct View {
  Rec* p;
  decltype(auto) operator[](int32_t i) const { return (p[i].*Member); }
};
template <auto Member, class Rec>
View<Member, Rec> view(Rec* p) {
  return View<Member, Rec>{p};
}

// Chooses actions (stamp, chain in-degree, list of chosen actions) with the scratch's pointers
// and counter held in registers; the int32_t stores would otherwise force reloading them from
// the scratch after every store. The state is set by the sort, the head only once a late edge
// exists.
template <class Rec>
struct Chooser {
  Rec* act;
  ActionId* used;
  uint32_t gen;
  int32_t n;
  // Chooses a; `chain_in` is its chain in-degree (1 unless it leaves the first epoch of s0).
  void use(ActionId a, int32_t chain_in) {
    assert(act[a].stamp != gen);
    act[a] = Rec{gen, chain_in};  // one 8-byte store
    used[n++] = a;
  }
};

}  // namespace topoplan::detail
