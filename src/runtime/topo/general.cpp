// ℙ's general path: undefined pre-conditions (an action reaching its value from anywhere) and
// partial goals (free variables). docs/algorithm.md, "Windows", is the reference; in short:
//
//   * Closure. A needed value q ≠ s0[v] is entered by its unique producer, whose pre-condition
//     is needed just before, and so on up the chain of producers until s0[v] (q hangs below the
//     initial value) or a *root*: a value whose producer has no pre-condition on v (a jump, "go
//     there from anywhere"). Every action of these chains is in every plan (forced). Goals,
//     prevails of chosen actions and forced returns to s0 (two chosen actions leave s0, or the
//     goal is s0 and v moves) are closed this way; a chain that ends nowhere is a proof.
//   * Walk structure. With each action once, every value but s0 is entered and left at most once,
//     so the chosen actions of v form *segments*: paths down from s0 (first epoch; a second one
//     after the return to s0) and from each root. A segment visited from its jump until the next
//     jump of v is a *window*; requests of a value happen inside its window.
//   * Sort. Kahn's algorithm on the orderings inside segments and of requests (explicit edges)
//     where the jumps of v are held until v's current window is closed (all its actions and
//     requesters of its last value done), the goal's window opens last, and a window is opened
//     only when nothing else can run. Which window: one whose members wait only for each other
//     ("closable": opening it first is always safe, an exchange argument), else the oldest.
//     Requests for s0[v] run in the first epoch when they can; when v has a return to s0 they
//     may go to the second visit (decided lazily, as the fast path's deferred loops).
//   * A request for s0[v] that cannot run in the first epoch and has no return to s0 is
//     retried once with the return chain of s0[v] added (GoTo back to where you started).
//
// Every plan is re-simulated as it is emitted; failures are kGaveUp except the closure's proofs.
#include "general.h"

namespace topoplan {

namespace {
constexpr int32_t kMaxRetries = 2;
}  // namespace

PlanStatus TopoPlanner::plan_general(TopoScratch& s, std::span<const ValueId> s0,
                                     std::span<const ValueId> goal, std::span<ActionId> out,
                                     int32_t* out_len) const {
  const int32_t m = static_cast<int32_t>(value_offset_.size()) - 1;
  *out_len = 0;
  for (VarId v = 0; v < m; ++v) {
    const auto size = static_cast<uint32_t>(value_offset_[v + 1] - value_offset_[v]);
    const ValueId x = s0[static_cast<size_t>(v)];
    const ValueId g = goal[static_cast<size_t>(v)];
    if ((static_cast<uint32_t>(x) >= size) | (static_cast<uint32_t>(g) + 1u > size)) {
      fail(s, kDetailBadInput, v, x, -1);
      return PlanStatus::kGaveUp;
    }
  }
  if (++s.gplan_ == 0) {  // wrap-around: clear the retry stamps
    for (TopoScratch::GVarRec& r : s.gvar_) r.force = 0;
    s.gplan_ = 1;
  }
  bool proven = true;
  for (int32_t retries = 0;; ++retries) {
    VarId retry = -1;
    detail::GeneralAttempt attempt(*this, s, s0, goal, out);
    const PlanStatus st = attempt.run(out_len, &retry);
    if (st == PlanStatus::kSolved) {
      if (retries > 0 && !proven) {
        *out_len = 0;
        fail(s, kDetailOutsideClass | kDetailUnprovenMinimal, s.failure_var_, s.failure_value_, -1);
        return PlanStatus::kGaveUp;
      }
      return st;
    }
    if (retry == -1 || retries >= kMaxRetries) return st;
    if (retry <= -2) continue;  // a flip of s0's child after a forced return: same actions
    if (s.gheuristic_ || retries > 0) proven = false;
    if (proven) proven = attempt.only_return_is(retry);
    s.gvar_[retry].force = s.gplan_;
  }
}

namespace detail {

// The return to s0[retry] is needed by every plan with each action once only if nothing else
// could have helped: no order choice was guessed (the caller checks), and no other variable x
// could come back to s0[x] with each action once and gain from it — it has no requests for
// s0[x], and no first-epoch segment that a return through fresh values could postpone (a return
// chain through a value the walk already visits would visit it twice, or is x's own loop, which
// keeps that segment first). docs/algorithm.md, "Windows".
bool GeneralAttempt::only_return_is(VarId retry) const {
  for (VarId x = 0; x < num_vars; ++x) {
    const GVarRec& r = gvar[x];
    const ActionId back = producer[off[x] + s0_of(x)];
    if (x == retry || r.reentry >= 0 || back < 0 || r.nact == 0) continue;
    if (!r.can_back) continue;
    if (r.s0head >= 0) return false;
    if (r.e1 < 0) continue;
    bool touches = false;
    ValueId y = info(back).pre;
    const int32_t limit = off[x + 1] - off[x];
    for (int32_t steps = 0; y != kUndefined && !touches && steps <= limit; ++steps) {
      if (y == s0_of(x)) break;
      const int32_t slot = off[x] + y;
      touches = slot_rec[slot].mark == gen;
      if (producer[slot] < 0) {  // a value nothing enters: the return is impossible
        touches = true;
        break;
      }
      y = info(producer[slot]).pre;
    }
    if (!touches) return false;
  }
  return true;
}

}  // namespace detail

}  // namespace topoplan
