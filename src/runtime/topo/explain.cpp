// ℙ's failure explanations (cold): names of the failure reasons and the designer-facing
// sentence for each.
#include <string>

#include "topoplan/runtime/topo.h"

namespace topoplan {

std::string_view to_string(TopoFailure failure) {
  switch (failure) {
    case TopoFailure::kNone:
      return "none";
    case TopoFailure::kBadInput:
      return "bad input";
    case TopoFailure::kPartialGoal:
      return "partial goal";
    case TopoFailure::kBufferTooSmall:
      return "buffer too small";
    case TopoFailure::kGoalUnreachable:
      return "goal unreachable";
    case TopoFailure::kPrevailUnreachable:
      return "prevail unreachable";
    case TopoFailure::kNeedsRepeat:
      return "needs a repeated action";
    case TopoFailure::kOrderingCycle:
      return "ordering cycle";
    case TopoFailure::kSelfCheck:
      return "self-check failed";
    case TopoFailure::kUnprovenMinimal:
      return "unproven minimal";
    case TopoFailure::kBranching:
      return "branching walk";
    case TopoFailure::kRelaxedUnreachable:
      return "relaxed unreachable";
  }
  return "?";
}

std::string TopoPlanner::explain(const TopoScratch& s) const {
  return describe(*domain_, s.failure_info());
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

std::string describe(const Domain& d, const TopoFailureInfo& f) {
  const VarId v = f.var >= 0 && f.var < d.num_variables() ? f.var : -1;
  const ValueId x = v >= 0 && f.value >= 0 && f.value < d.domain_size(v) ? f.value : -1;
  const ActionId a = f.action >= 0 && f.action < d.num_actions() ? f.action : -1;
  const std::string fact =
      v < 0 ? std::string("?")
            : (x < 0 ? d.variable_name(v) : d.variable_name(v) + "=" + d.value_name(v, x));
  const std::string act = a >= 0 ? "'" + d.action_name(a) + "'" : std::string("?");
  const std::string by = a >= 0 ? " (needed by " + act + ")" : std::string();
  switch (f.reason) {
    case TopoFailure::kNone:
      return "";
    case TopoFailure::kBadInput:
      return "topo: the state or goal has the wrong size or a value out of range";
    case TopoFailure::kBufferTooSmall:
      return "topo: the output buffer is too small for the plan";
    case TopoFailure::kPartialGoal:
      return "topo: the goal leaves '" + (v >= 0 ? d.variable_name(v) : std::string("?")) +
             "' free but " + fact + " is requested" + by +
             "; ℙ could not place that visit (a goal value for it would let ℙ decide)";
    case TopoFailure::kGoalUnreachable:
      return "topo: no sequence of actions takes " + fact +
             " from its initial value: the goal cannot be reached (a plan does not exist); an "
             "action setting " +
             fact + " from a value that can be reached would change it";
    case TopoFailure::kPrevailUnreachable:
      return "topo: " + act + " needs " + fact +
             ", which no sequence of actions reaches on the way to the goal (a plan does not "
             "exist); an action setting " +
             fact + " from a reachable value would change it";
    case TopoFailure::kNeedsRepeat:
    case TopoFailure::kBranching: {
      const ActionId p = v >= 0 && x >= 0 ? producer_of(d, v, x) : -1;
      const std::string prod = p >= 0 ? "'" + d.action_name(p) + "'" : std::string("its producer");
      return "topo: visiting " + fact + " twice" + by + ": " + prod +
             " is needed twice; a plan with each action once does not exist (ℙ gives up; a "
             "search may find a plan that repeats it). A second way to reach " +
             fact + " (e.g. an action setting it with no pre-condition on '" +
             (v >= 0 ? d.variable_name(v) : std::string("?")) +
             "'), or a goal that does not need the second visit, would change it";
    }
    case TopoFailure::kOrderingCycle:
      if (a >= 0 && d.is_unary(a) && d.effects(a)[0].pre == kUndefined) {
        const Effect& e = d.effects(a)[0];
        const std::string place = d.variable_name(e.var) + "=" + d.value_name(e.var, e.post);
        return "topo: ℙ found no order of the needed actions that visits " + place +
               " only once: a plan may need " + act +
               " twice (ℙ plans each action once; a search may find a plan that repeats it). A "
               "second action reaching " +
               place + ", or fewer needs served at " + place + ", would change it";
      }
      return "topo: the needed actions cannot be put in one order: " + act +
             (v >= 0 ? " (on '" + d.variable_name(v) + "')" : std::string()) +
             " waits, directly or not, for itself; no plan with each action once was found "
             "(removing one of the pre-/prevail-conditions on that cycle would change it)";
    case TopoFailure::kUnprovenMinimal:
      return "topo: a plan returning to " + fact +
             " exists but ℙ cannot prove it minimal (several variables need a second visit "
             "of their initial value); ℙ gives up so that a search answers";
    case TopoFailure::kSelfCheck:
      return "topo: internal error: the plan failed re-simulation";
    case TopoFailure::kRelaxedUnreachable:
      return "topo: " + fact +
             " cannot be reached even if every value, once reached, stayed available (no action "
             "setting it has all its pre- and prevail-conditions reachable): the goal cannot be "
             "reached (a plan does not exist); an action setting " +
             fact + " from reachable values would change it";
  }
  return "";
}

}  // namespace topoplan
