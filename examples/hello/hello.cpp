// Hello topoplan: build the Horse Breeder of the IJCAI 2023 paper in code, plan his morning,
// and check the plan. Every number below is explained where it appears.
#include <topoplan/runtime/domain.h>
#include <topoplan/runtime/plan.h>
#include <topoplan/runtime/validate.h>

#include <cstdio>

int main() {
  using namespace topoplan;
  DomainDef def;
  def.name = "horse-breeder";
  // Three state variables with named values; value ids are the indices.
  def.variables = {{"haystack", {"none", "inHands", "inFeeder"}},
                   {"bucket", {"none", "inHands"}},
                   {"water", {"inSource", "inBucket", "inTrough"}}};
  // Each action: name, cost, effects {variable, pre (kUndefined = any), post}, prevail-conditions.
  def.actions = {
      {"DropHaystack", 1, {{0, 1, 0}}, {}},
      {"TakeHaystack", 1, {{0, 0, 1}}, {{1, 0}}},  // only with empty hands (bucket = none)
      {"FillHorseFeeder", 1, {{0, 1, 2}}, {}},
      {"DropBucket", 1, {{1, 1, 0}}, {}},
      {"PickUpBucket", 1, {{1, 0, 1}}, {{0, 0}}},  // only without the haystack
      {"FillBucketWithWater", 1, {{2, 0, 1}}, {{1, 1}}},
      {"FillHorseTrough", 1, {{2, 1, 2}}, {{1, 1}}},
  };
  Result<Domain> domain = Domain::compile(def);  // validated once, then immutable and flat
  if (!domain) {
    std::fprintf(stderr, "%s\n", domain.error().to_string().c_str());
    return 1;
  }
  Instance morning;
  morning.init = {0, 0, 0};  // empty hands, water in the source
  morning.goal = {2, 0, 2};  // feeder and trough filled, bucket put down

  // ℙ, then an optimal search when ℙ gives up (the exact search when topoplan::tools registered
  // it, else A*).
  const PlannerInfo* planner = find_planner("auto");
  PlanResult result = planner->plan(*domain, morning, PlannerOptions{});
  if (result.status != PlanStatus::kSolved) {
    std::fprintf(stderr, "no plan: %s\n", result.message.c_str());
    return 1;
  }
  for (ActionId a : result.actions) std::printf("(%s)\n", domain->action_name(a).c_str());
  const Validation check = validate_plan(*domain, morning, result.actions);
  std::printf("; %zu actions, %s by %s\n", result.actions.size(), check.valid ? "valid" : "INVALID",
              result.stats.engine.c_str());
  return check.valid ? 0 : 1;
}
