#include "topoplan/runtime/validate.h"

#include <string>

namespace topoplan {

bool satisfies(std::span<const ValueId> state, std::span<const ValueId> goal) {
  for (size_t v = 0; v < goal.size(); ++v)
    if (goal[v] != kUndefined && state[v] != goal[v]) return false;
  return true;
}

FailedCondition failed_condition(const Domain& domain, ActionId a, std::span<const ValueId> state) {
  for (const Effect& e : domain.effects(a)) {
    const ValueId now = state[static_cast<size_t>(e.var)];
    if (e.pre != kUndefined && now != e.pre) return {ConditionKind::kPre, e.var, e.pre, now};
  }
  for (const Fact& f : domain.prevail(a)) {
    const ValueId now = state[static_cast<size_t>(f.var)];
    if (now != f.value) return {ConditionKind::kPrevail, f.var, f.value, now};
  }
  return {};
}

bool applicable(const Domain& domain, ActionId a, std::span<const ValueId> state) {
  return failed_condition(domain, a, state).holds();
}

void apply_action(const Domain& domain, ActionId a, std::span<ValueId> state) {
  for (const Effect& e : domain.effects(a)) state[static_cast<size_t>(e.var)] = e.post;
}

namespace {
std::string quoted_fact(const Domain& domain, VarId v, ValueId x) {
  return "'" + domain.variable_name(v) + "=" + domain.value_name(v, x) + "'";
}
}  // namespace

std::string describe(const Domain& domain, const FailedCondition& failed) {
  if (failed.holds()) return "";
  return std::string(failed.kind == ConditionKind::kPre ? "pre-condition " : "prevail-condition ") +
         quoted_fact(domain, failed.var, failed.required) + " does not hold (it is " +
         quoted_fact(domain, failed.var, failed.actual) + ")";
}

Validation validate_plan(const Domain& domain, const Instance& instance,
                         std::span<const ActionId> plan) {
  Validation out;
  if (auto err = domain.check_instance(instance)) {
    out.reason = "invalid instance: " + err->message;
    return out;
  }
  std::vector<ValueId>& state = out.final_state;
  state = instance.init;
  const auto mask = domain.action_mask(instance.npc_class);
  auto value = [&](VarId v, ValueId x) { return quoted_fact(domain, v, x); };
  for (size_t i = 0; i < plan.size(); ++i) {
    const ActionId a = plan[i];
    const std::string step =
        "step " + std::to_string(i + 1) + " (" +
        (a >= 0 && a < domain.num_actions() ? domain.action_name(a) : std::to_string(a)) + ")";
    out.failed_step = static_cast<int32_t>(i);
    if (a < 0 || a >= domain.num_actions()) {
      out.reason = step + ": no such action";
      return out;
    }
    if (!mask[static_cast<size_t>(a)]) {
      out.reason = step + ": the action is not available to NPC class '" +
                   domain.class_name(instance.npc_class) + "'";
      return out;
    }
    if (const FailedCondition failed = failed_condition(domain, a, state); !failed.holds()) {
      out.reason = step + ": " + describe(domain, failed);
      return out;
    }
    apply_action(domain, a, state);
    out.cost += domain.cost(a);
  }
  out.failed_step = -1;
  for (VarId v = 0; v < domain.num_variables(); ++v) {
    const ValueId g = instance.goal[static_cast<size_t>(v)];
    if (g != kUndefined && state[static_cast<size_t>(v)] != g) {
      out.reason = "the goal is not reached: " + value(v, g) + " is required, the plan ends with " +
                   value(v, state[static_cast<size_t>(v)]);
      return out;
    }
  }
  out.valid = true;
  return out;
}

}  // namespace topoplan
