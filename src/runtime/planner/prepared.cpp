// PreparedPlanner and plan_prepared (include/topoplan/runtime/planner.h): the cold path of every
// planner with a hot factory is compile -> create -> plan through the contract, written once.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include "topoplan/runtime/planner.h"

namespace topoplan {

Result<PreparedPlanner> PreparedPlanner::create(const Domain& domain, std::string_view name,
                                                ClassId npc_class, const HotPlannerDef& def) {
  Result<CompiledActionSet> set = CompiledActionSet::create(domain, npc_class);
  if (!set.ok()) return set.error();
  Result<std::unique_ptr<HotPlanner>> planner = create_hot_planner(name, set.value(), def);
  if (!planner.ok()) return planner.error();
  PreparedPlanner p;
  p.domain_ = &domain;
  p.set_ = std::move(set).value();
  p.limits_ = def.limits;
  p.planner_ = std::move(planner).value();
  p.scratch_ = p.planner_->make_scratch();
  // Grows to the longest plan seen (kBufferTooSmall says how long).
  p.buffer_.resize(static_cast<size_t>(std::clamp(p.planner_->max_plan_length(), 0, 256)));
  return p;
}

PlanResult PreparedPlanner::plan(const Instance& instance) {
  return plan(instance, limits_);
}

PlanResult PreparedPlanner::plan(const Instance& instance, const SearchLimits& limits) {
  const auto start = std::chrono::steady_clock::now();
  PlanResult r;
  r.stats.engine = planner_->name();
  auto finish = [&] {
    r.stats.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::move(r);
  };
  if (auto err = domain_->check_instance(instance)) {
    r.status = PlanStatus::kGaveUp;
    r.message = err->to_string();
    return finish();
  }
  if (instance.npc_class != set_.npc_class()) {
    r.status = PlanStatus::kUnsupported;
    r.message = "the planner was prepared for NPC class " + std::to_string(set_.npc_class()) +
                ", the instance is of class " + std::to_string(instance.npc_class);
    return finish();
  }
  int32_t len = 0;
  PlanOutcome o = planner_->plan(*scratch_, instance.init, instance.goal, buffer_, &len, limits);
  if (o.status == PlanStatus::kBufferTooSmall && len > static_cast<int32_t>(buffer_.size())) {
    buffer_.resize(static_cast<size_t>(len));
    o = planner_->plan(*scratch_, instance.init, instance.goal, buffer_, &len, limits);
  }
  r.status = o.status;
  if (!o.planner.empty()) r.stats.engine = o.planner;
  r.stats.expanded = scratch_->expanded;
  r.stats.generated = scratch_->generated;
  r.stats.reason = planner_->explain_earlier_stages(*scratch_);
  if (o.solved()) {
    r.actions.assign(buffer_.begin(), buffer_.begin() + len);
    r.cost = plan_cost(*domain_, r.actions);
  } else {
    r.message = planner_->explain(*scratch_, o);
  }
  return finish();
}

PlanResult plan_prepared(std::string_view name, const Domain& domain, const Instance& instance,
                         const PlannerOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const bool is_auto = name == "auto";
  HotPlannerDef def;
  def.objective = options.objective;
  const SearchLimits& limits = is_auto ? options.auto_limits : options.limits;
  PlanResult r;
  if (auto err = domain.check_instance(instance)) {
    r.status = PlanStatus::kGaveUp;
    r.message = err->to_string();
    r.stats.engine = name;
    return r;
  }
  Result<PreparedPlanner> p = PreparedPlanner::create(domain, name, instance.npc_class, def);
  if (!p.ok()) {
    r.status = PlanStatus::kUnsupported;
    r.message = p.error().to_string();
    r.stats.engine = name;
  } else {
    r = p->plan(instance, limits);
  }
  if (is_auto && r.status == PlanStatus::kLimitReached) {
    char words[160];
    std::snprintf(words, sizeof words, "%lld expansions, %lld MiB, %g s",
                  static_cast<long long>(limits.max_expansions),
                  static_cast<long long>(limits.max_memory_bytes >> 20), limits.max_seconds);
    r.message = "no plan within the default planner's limits (" + std::string(words) + "; " +
                std::to_string(r.stats.expanded) + " A* expansions): " + r.message +
                "; or plan with the planner 'exact'";
  }
  r.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace topoplan
