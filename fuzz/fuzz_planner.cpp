// libFuzzer harness: random domains from bytes → Domain::compile → every registered planner →
// every plan validated; differential against the exact search (which is complete on these
// small domains): no planner may claim "unsolvable" for a task the exact search solves, the
// exact search may not claim it for a task another planner solved with a valid plan, `auto`
// and `exact` agree on the optimal cost, and a plan of ℙ is as short as the shortest plan
// unless that shortest plan repeats an action (ℙ's plans use each action at most once).
//
// Byte layout (all values reduced modulo their range, so every input is a domain attempt):
//   variables 1-6, each with 2-4 values; actions 0-14, each with a cost (sometimes negative or
//   above kMaxCost, which compile must refuse), 1-2 effects (pre may be undefined) and 0-2
//   prevail-conditions (repeated variables are possible: compile must refuse them); optional NPC
//   classes; then the initial state and a partial goal.
#include <cstdint>
#include <cstdlib>
#include <set>
#include <string>

#include "refusal.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/validate.h"

namespace {

using namespace topoplan;

class Bytes {
 public:
  Bytes(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t next() { return pos_ < size_ ? data_[pos_++] : 0; }
  int32_t below(int32_t n) { return static_cast<int32_t>(next() % static_cast<uint32_t>(n)); }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

bool repeats_an_action(const std::vector<ActionId>& plan) {
  return std::set<ActionId>(plan.begin(), plan.end()).size() != plan.size();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Bytes in(data, size);
  DomainDef def;
  const int32_t vars = 1 + in.below(6);
  for (int32_t v = 0; v < vars; ++v) {
    VariableDef var{"v" + std::to_string(v), {}};
    const int32_t values = 2 + in.below(3);
    for (int32_t x = 0; x < values; ++x) var.values.push_back("x" + std::to_string(x));
    def.variables.push_back(std::move(var));
  }
  const int32_t actions = in.below(15);
  for (int32_t a = 0; a < actions; ++a) {
    ActionDef act;
    act.name = "a" + std::to_string(a);
    const uint8_t c = in.next();
    act.cost = c == 255 ? kMaxCost + 1 : c == 254 ? -1 : c == 253 ? kMaxCost : 1 + c % 4;
    const int32_t effects = 1 + in.below(2);
    for (int32_t e = 0; e < effects; ++e) {
      const VarId var = in.below(vars);
      const int32_t dom =
          static_cast<int32_t>(def.variables[static_cast<size_t>(var)].values.size());
      const int32_t pre = in.below(dom + 1);
      act.effects.push_back(Effect{var, pre == dom ? kUndefined : pre, in.below(dom)});
    }
    const int32_t prevails = in.below(3);
    for (int32_t p = 0; p < prevails; ++p) {
      const VarId var = in.below(vars);
      const int32_t dom =
          static_cast<int32_t>(def.variables[static_cast<size_t>(var)].values.size());
      act.prevail.push_back(Fact{var, in.below(dom)});
    }
    def.actions.push_back(std::move(act));
  }
  const int32_t classes = in.below(3);
  for (int32_t c = 0; c < classes && actions > 0; ++c) {
    NpcClassDef cls{"c" + std::to_string(c), {}};
    for (ActionId a = 0; a < actions; ++a)
      if (in.next() & 1) cls.actions.push_back(a);
    def.classes.push_back(std::move(cls));
  }
  Result<Domain> compiled = Domain::compile(def);
  if (!topoplan_fuzz::accepted(compiled)) return 0;
  const Domain& d = *compiled;
  if (d.to_def() != def) std::abort();  // compile keeps what it accepts
  Instance inst;
  for (VarId v = 0; v < vars; ++v) inst.init.push_back(in.below(d.domain_size(v)));
  for (VarId v = 0; v < vars; ++v) {
    const int32_t g = in.below(d.domain_size(v) + 1);
    inst.goal.push_back(g == d.domain_size(v) ? kUndefined : g);
  }
  const auto made = static_cast<int32_t>(def.classes.size());
  if (made > 0 && (in.next() & 1)) inst.npc_class = in.below(made);
  if (d.check_instance(inst)) std::abort();  // built in range: must be accepted

  PlannerOptions options;
  options.limits.max_expansions = 200'000;
  options.limits.max_memory_bytes = int64_t{64} << 20;
  const PlanResult exact = find_planner("exact")->plan(d, inst, options);
  PlannerOptions by_length = options;
  by_length.objective = Objective::kLength;
  const PlanResult shortest = find_planner("exact")->plan(d, inst, by_length);
  if (exact.status == PlanStatus::kLimitReached || shortest.status == PlanStatus::kLimitReached)
    return 0;  // cannot happen on ≤ 4^6 states; no oracle if it did
  if ((exact.status == PlanStatus::kSolved) != (shortest.status == PlanStatus::kSolved))
    std::abort();
  for (const PlannerInfo& p : planners()) {
    const PlanResult r = p.plan(d, inst, options);
    if (r.status == PlanStatus::kSolved) {
      const Validation v = validate_plan(d, inst, r.actions);
      if (!v.valid || v.cost != r.cost) std::abort();
      if (exact.status == PlanStatus::kUnsolvable) std::abort();   // a false proof by exact
      if (r.cost < exact.cost) std::abort();                       // exact is not optimal
      if (p.name == "auto" && r.cost != exact.cost) std::abort();  // auto promises optimality
      if (p.name == "topo" && r.actions.size() > shortest.actions.size() &&
          !repeats_an_action(shortest.actions))
        std::abort();
      if (p.name == "topo" && repeats_an_action(r.actions)) std::abort();
    } else if (r.status == PlanStatus::kUnsolvable) {
      if (exact.status == PlanStatus::kSolved) std::abort();  // a false proof
    } else if (r.message.empty()) {
      std::abort();  // every non-answer says why
    }
  }
  return 0;
}
