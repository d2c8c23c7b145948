// ℙ's answers against the exact search's, judged by the promises of
// include/topoplan/runtime/topo.h; shared by the differential tests on random domains and on GOAP
// levels.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"

namespace topoplan::testing {

// The tally of ℙ's answers.
struct Figures {
  int64_t instances = 0;
  int64_t exact_solved = 0;      // solvable (exact search found a plan)
  int64_t exact_t1 = 0;          // ... and its optimal plan uses each action once
  int64_t exact_limit = 0;       // exact search hit its limit (skipped)
  int64_t solved = 0;            // ℙ returned a plan
  int64_t minimal = 0;           // ... of the exact optimal length
  int64_t invalid = 0;           // ... rejected by the validator or repeating an action (must be 0)
  int64_t unsolvable = 0;        // ℙ said unsolvable
  int64_t wrong_unsolvable = 0;  // ... but the exact search found a plan (must be 0)
  int64_t gave_up = 0;
  int64_t missed = 0;  // solvable by a plan with each action once, ℙ did not solve it
  int64_t longer = 0;  // solved, longer than the exact optimum, which repeats an action
};

// What ℙ promises on the instances of a sweep.
struct Sweep {
  // A missed T1 instance is a failure. On the general path (undefined pre-conditions, partial
  // goals) the window order is not always found (docs/algorithm.md, "Windows": what is proven):
  // random sweeps count and print those misses.
  bool misses_fail = true;
  // ℙ answers like the exact search (solved or unsolvable): C0 and C2S with total goals and
  // defined pre-conditions, where the theorems of Prévost et al. (2023) hold. Not C2*, whose
  // Theorem 4 is false (docs/algorithm.md).
  bool decides = false;
};

// What one answer of ℙ says against the exact search: bad when it breaks a promise of topo.h;
// `why` also holds the words of a counted miss.
struct Verdict {
  bool bad = false;
  std::string why;
};

// Tallies ℙ's answer `o` (its plan: `plan`) to `inst` into f, against the exact answer ex.
inline Verdict judge(const TopoPlanner& planner, const Domain& d, const Instance& inst,
                     const PlanOutcome& o, const std::vector<ActionId>& plan, const PlanResult& ex,
                     const Sweep& sweep, Figures& f) {
  const PlanStatus st = o.status;
  const bool solvable = ex.status == PlanStatus::kSolved;
  const bool t1 = solvable && std::set<ActionId>(ex.actions.begin(), ex.actions.end()).size() ==
                                  ex.actions.size();
  f.exact_solved += solvable;
  f.exact_t1 += t1;
  Verdict v;
  if (st == PlanStatus::kSolved) {
    ++f.solved;
    const Validation val = validate_plan(d, inst, plan);
    if (!val.valid || std::set<ActionId>(plan.begin(), plan.end()).size() != plan.size()) {
      ++f.invalid;
      v = {true, "invalid plan: " + val.reason};
    } else if (solvable && !t1 && plan.size() > ex.actions.size()) {
      ++f.longer;  // minimal among plans with each action once is all ℙ promises here
    } else if (!solvable || plan.size() != ex.actions.size()) {
      v = {true, "length " + std::to_string(plan.size()) + " vs exact " +
                     std::to_string(ex.actions.size())};
    } else {
      ++f.minimal;
    }
  } else if (st == PlanStatus::kUnsolvable) {
    ++f.unsolvable;
    if (solvable) {
      ++f.wrong_unsolvable;
      v = {true, "wrong unsolvable: " + planner.explain(o)};
    }
  } else {
    ++f.gave_up;
  }
  if (st != PlanStatus::kSolved && t1) {
    ++f.missed;
    v.bad = sweep.misses_fail;
    v.why = "missed a T1 instance: " + std::string(to_string(st)) + ": " + planner.explain(o);
  }
  if (sweep.decides && st != (solvable ? PlanStatus::kSolved : PlanStatus::kUnsolvable)) {
    v.bad = true;
    if (v.why.empty()) v.why = "C0/C2S instance not decided like the exact search";
  }
  return v;
}

}  // namespace topoplan::testing
