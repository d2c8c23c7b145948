// The words of a plan's outcome (plan.h): the detail bits' names and the designer-facing
// sentence for the failure a planner recorded. One function for every planner, so that ℙ, the
// crowd, the C API and Python say the same thing for the same failure.
#include <array>
#include <string>
#include <utility>

#include "topoplan/runtime/plan.h"

namespace topoplan {

std::string describe(PlanDetail detail) {
  static constexpr std::array<std::pair<PlanDetail, const char*>, 15> kWords{{
      {kDetailGoalUnreachable, "goal unreachable"},
      {kDetailPreconditionUnmet, "pre-condition unmet"},
      {kDetailOrderingCycle, "ordering cycle"},
      {kDetailOutsideClass, "outside the planner's class"},
      {kDetailExpansionLimit, "expansion limit"},
      {kDetailMemoryLimit, "memory limit"},
      {kDetailTimeLimit, "time limit"},
      {kDetailSelfCheck, "self-check failed"},
      {kDetailBadInput, "bad input"},
      {kDetailExhausted, "state space exhausted"},
      {kDetailNotProvenOptimal, "not proven optimal"},
      {kDetailNeedsRepeat, "needs a repeated action"},
      {kDetailBranching, "branching walk"},
      {kDetailUnprovenMinimal, "unproven minimal"},
      {kDetailRelaxedUnreachable, "relaxed unreachable"},
  }};
  std::string out;
  for (const auto& [bit, words] : kWords) {
    if ((detail & bit) == 0) continue;
    if (!out.empty()) out += ", ";
    out += words;
  }
  return out;
}

namespace {
// The first action setting v = x (ℙ's domains are post-unique per NPC class; cold path).
ActionId producer_of(const Domain& d, VarId v, ValueId x) {
  for (ActionId a = 0; a < d.num_actions(); ++a)
    for (const Effect& e : d.effects(a))
      if (e.var == v && e.post == x) return a;
  return -1;
}
}  // namespace

std::string explain(const Domain& d, const PlanOutcome& o) {
  const VarId v = o.var >= 0 && o.var < d.num_variables() ? o.var : -1;
  const ValueId x = v >= 0 && o.value >= 0 && o.value < d.domain_size(v) ? o.value : -1;
  const ActionId a = o.action >= 0 && o.action < d.num_actions() ? o.action : -1;
  const std::string fact =
      v < 0 ? std::string("?")
            : (x < 0 ? d.variable_name(v) : d.variable_name(v) + "=" + d.value_name(v, x));
  const std::string act = a >= 0 ? "'" + d.action_name(a) + "'" : std::string("?");
  const std::string by = a >= 0 ? " (needed by " + act + ")" : std::string();
  const PlanDetail f = o.detail;
  if (o.status == PlanStatus::kSolved) return "";
  if (o.status == PlanStatus::kBufferTooSmall) return "the output buffer is too small for the plan";
  // The most specific bit first: ℙ sets kDetailOutsideClass with the part of its class the task
  // leaves, and kDetailGoalUnreachable with the relaxed proof.
  if ((f & kDetailBadInput) != 0)
    return "the state or goal has the wrong size or a value out of range";
  if ((f & kDetailRelaxedUnreachable) != 0)
    return fact +
           " cannot be reached even if every value, once reached, stayed available (no action "
           "setting it has all its pre- and prevail-conditions reachable): the goal cannot be "
           "reached (a plan does not exist); an action setting " +
           fact + " from reachable values would change it";
  if ((f & kDetailGoalUnreachable) != 0 && v >= 0)
    return "no sequence of actions takes " + fact +
           " from its initial value: the goal cannot be reached (a plan does not exist); an "
           "action setting " +
           fact + " from a value that can be reached would change it";
  if ((f & kDetailPreconditionUnmet) != 0 && v >= 0)
    return act + " needs " + fact +
           ", which no sequence of actions reaches on the way to the goal (a plan does not "
           "exist); an action setting " +
           fact + " from a reachable value would change it";
  if ((f & (kDetailNeedsRepeat | kDetailBranching)) != 0) {
    const ActionId p = v >= 0 && x >= 0 ? producer_of(d, v, x) : -1;
    const std::string prod = p >= 0 ? "'" + d.action_name(p) + "'" : std::string("its producer");
    return "visiting " + fact + " twice" + by + ": " + prod +
           " is needed twice; a plan with each action once does not exist (ℙ gives up; a "
           "search may find a plan that repeats it). A second way to reach " +
           fact + " (e.g. an action setting it with no pre-condition on '" +
           (v >= 0 ? d.variable_name(v) : std::string("?")) +
           "'), or a goal that does not need the second visit, would change it";
  }
  if ((f & kDetailOrderingCycle) != 0) {
    if (a >= 0 && d.is_unary(a) && d.effects(a)[0].pre == kUndefined) {
      const Effect& e = d.effects(a)[0];
      const std::string place = d.variable_name(e.var) + "=" + d.value_name(e.var, e.post);
      return "ℙ found no order of the needed actions that visits " + place +
             " only once: a plan may need " + act +
             " twice (ℙ plans each action once; a search may find a plan that repeats it). A "
             "second action reaching " +
             place + ", or fewer needs served at " + place + ", would change it";
    }
    return "the needed actions cannot be put in one order: " + act +
           (v >= 0 ? " (on '" + d.variable_name(v) + "')" : std::string()) +
           " waits, directly or not, for itself; no plan with each action once was found "
           "(removing one of the pre-/prevail-conditions on that cycle would change it)";
  }
  if ((f & kDetailUnprovenMinimal) != 0)
    return "a plan returning to " + fact +
           " exists but ℙ cannot prove it minimal (several variables need a second visit "
           "of their initial value); ℙ gives up so that a search answers";
  if ((f & kDetailSelfCheck) != 0) return "internal error: the plan failed re-simulation";
  // The searches' stops (limits, an exhausted space) and bits without a sentence: their names.
  std::string out = describe(f);
  if (out.empty()) out = std::string(to_string(o.status));
  if (v >= 0) out += " (at " + fact + ")";
  return out;
}

}  // namespace topoplan
