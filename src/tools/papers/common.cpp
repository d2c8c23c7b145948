// The papers' planners' shared parts (common.h).
#include "tools/papers/common.h"

#include <bit>
#include <utility>

#include "topoplan/runtime/validate.h"

namespace topoplan::papers {

PairTable::PairTable(size_t max_entries) {
  const size_t capacity = std::bit_ceil(2 * max_entries + 2);
  slot_mask_ = capacity - 1;
  keys_.assign(capacity, kEmpty);
  values_.assign(capacity, kUndefined);
}

size_t count_prevails(const Domain& d, std::span<const uint8_t> mask) {
  size_t n = 0;
  for (ActionId a = 0; a < d.num_actions(); ++a)
    if (mask[static_cast<size_t>(a)] != 0) n += d.prevail(a).size();
  return n;
}

PairTable prevail_table(const Domain& d, std::span<const uint8_t> mask) {
  PairTable t(count_prevails(d, mask));
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    if (mask[static_cast<size_t>(a)] == 0) continue;
    for (const Fact& f : d.prevail(a)) t.set(a, f.var, f.value);
  }
  return t;
}

Ids::Ids(const Domain& d, std::span<const uint8_t> mask) {
  const int32_t m = d.num_variables();
  offset.assign(static_cast<size_t>(m) + 1, 0);
  for (VarId v = 0; v < m; ++v) offset[v + 1] = offset[v] + d.domain_size(v);
  producer.assign(size(), -1);
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    if (mask[static_cast<size_t>(a)] == 0) continue;
    const Effect& e = d.effects(a)[0];
    producer[slot(e.var, e.post)] = a;
  }
}

std::string fact(const Domain& d, VarId v, ValueId x) {
  return d.variable_name(v) + "=" + d.value_name(v, x);
}

Call::Call(std::string engine) : start(std::chrono::steady_clock::now()) {
  r.stats.engine = std::move(engine);
}

PlanResult Call::timed() {
  r.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return std::move(r);
}

PlanResult Call::refuse(PlanStatus status, std::string message) {
  r.status = status;
  r.message = std::move(message);
  return timed();
}

std::optional<PlanResult> Call::refuse_foreign(const Domain& domain, const Instance& instance) {
  if (auto err = domain.check_instance(instance))
    return refuse(PlanStatus::kUnsupported, err->to_string());
  return std::nullopt;
}

std::optional<PlanResult> Call::refuse_partial_goal(const Instance& instance) {
  for (const ValueId g : instance.goal) {
    if (g == kUndefined)
      return refuse(PlanStatus::kGaveUp,
                    r.stats.engine + ": the paper's goals are total; this one has a free entry");
  }
  return std::nullopt;
}

PlanResult Call::finish(const Domain& domain, const Instance& instance, bool ran,
                        const std::string& fail_message, std::vector<ActionId> plan,
                        std::atomic<int64_t>& invalid_plans) {
  if (!ran) return refuse(PlanStatus::kGaveUp, fail_message);
  const Validation v = validate_plan(domain, instance, plan);
  if (!v.valid) {
    invalid_plans.fetch_add(1);
    return refuse(PlanStatus::kGaveUp, "invalid plan: " + v.reason);
  }
  r.status = PlanStatus::kSolved;
  r.cost = plan_cost(domain, plan);
  r.actions = std::move(plan);
  return timed();
}

}  // namespace topoplan::papers
