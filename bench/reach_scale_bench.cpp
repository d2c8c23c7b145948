// Where ℙ over producer choices pays against A*: ns per plan of the prepared "topo-reach",
// "astar" and "auto" on travel tasks that grow, every plan validated and its cost compared with
// the exact search where that search finishes (a wrong answer exits 1).
//
// The travel family (unary, several producers per value, as GOAP "walk or ride there" domains):
//   * `location` ∈ {place-0 … place-(n-1)}, the NPC at place-0;
//   * ways of travel 0 … p-1: Walk-X (way 0, cost 3, from anywhere) and Ride<j>-X (cost 3 - j,
//     needs mount-j, fetched by Get-mount-j at place-j, cost 1): location = X has p producers;
//   * k errands, errand i done at place-(1 + i mod (n-1)) (cost 1); the goal: every errand done,
//     the location free.
// A* sees 2^k · n · 2^(p-1) states and a heuristic blind to travel; the choice search branches on
// the places every plan must reach, one child per way.
// Then generated GOAP levels (families.h, 4-32 places, two seeds, four instances each) with a
// Ride-X beside every GoTo-X (level_with_rides): doors, keys, items and needs as designers write
// them, partial goals of 1-3 facts.
//
// Usage: topoplan_bench_reach_scale [--min-ms N] > results.csv
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "topoplan/runtime/compiled.h"
#include "topoplan/runtime/planner.h"
#include "topoplan/runtime/reform.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

#include "bench_timing.h"

namespace {

using namespace topoplan;
using topoplan::bench::time_ns;

Task travel(int32_t n, int32_t p, int32_t k) {
  DomainDef def;
  def.name = "travel";
  VariableDef loc{"location", {}};
  for (int32_t x = 0; x < n; ++x) loc.values.push_back("place-" + std::to_string(x));
  def.variables.push_back(loc);
  for (int32_t j = 1; j < p; ++j)
    def.variables.push_back({"mount-" + std::to_string(j), {"no", "yes"}});
  const auto errand0 = static_cast<VarId>(def.variables.size());
  for (int32_t i = 0; i < k; ++i)
    def.variables.push_back({"errand-" + std::to_string(i), {"todo", "done"}});
  for (int32_t x = 0; x < n; ++x)
    for (int32_t j = 0; j < p; ++j) {
      ActionDef a{(j == 0 ? "Walk-" : "Ride" + std::to_string(j) + "-") + std::to_string(x),
                  3 - j,
                  {Effect{0, kUndefined, x}},
                  {}};
      if (j > 0) a.prevail.push_back(Fact{j, 1});
      def.actions.push_back(a);
    }
  for (int32_t j = 1; j < p; ++j)
    def.actions.push_back(
        {"Get-mount-" + std::to_string(j), 1, {Effect{j, 0, 1}}, {Fact{0, j % n}}});
  for (int32_t i = 0; i < k; ++i)
    def.actions.push_back({"Errand-" + std::to_string(i),
                           1,
                           {Effect{errand0 + i, 0, 1}},
                           {Fact{0, 1 + i % (n - 1)}}});
  Result<Domain> d = Domain::compile(def);
  if (!d) {
    std::fprintf(stderr, "travel: %s\n", d.error().to_string().c_str());
    std::exit(2);
  }
  Instance inst;
  inst.name = "n" + std::to_string(n) + "-p" + std::to_string(p) + "-k" + std::to_string(k);
  inst.init.assign(def.variables.size(), 0);
  inst.goal.assign(def.variables.size(), kUndefined);
  for (int32_t i = 0; i < k; ++i) inst.goal[static_cast<size_t>(errand0 + i)] = 1;
  return Task{std::move(d).value(), {inst}};
}

// A generated GOAP level (families.h) with a second way to every place: each GoTo-X (location
// = X from anywhere) gets Ride-X, one cheaper, needing a mount fetched at the first place. Every
// instance starts without the mount; classes are dropped (every action available).
Task level_with_rides(int32_t locations, uint64_t seed) {
  GoapLevelParams lp;
  lp.locations = locations;
  lp.items = std::min(12, locations / 2);
  lp.doors = std::min(locations - 1, locations / 4);
  lp.needs = std::min(6, locations / 4);
  lp.classes = 1;
  lp.instances = 4;
  lp.seed = seed;
  const Task level = goap_level(lp);
  const Domain& d = level.domain;
  DomainDef def;
  def.name = "level-rides";
  for (VarId v = 0; v < d.num_variables(); ++v) {
    def.variables.push_back(VariableDef{d.variable_name(v), {}});
    for (ValueId x = 0; x < d.domain_size(v); ++x)
      def.variables.back().values.push_back(d.value_name(v, x));
  }
  const VarId loc = d.find_variable("location").value();
  const auto mount = static_cast<VarId>(def.variables.size());
  def.variables.push_back({"mount", {"no", "yes"}});
  for (ActionId a = 0; a < d.num_actions(); ++a) {
    const std::vector<Effect> eff(d.effects(a).begin(), d.effects(a).end());
    const std::vector<Fact> prv(d.prevail(a).begin(), d.prevail(a).end());
    def.actions.push_back({d.action_name(a), d.cost(a), eff, prv});
    if (eff.size() == 1 && eff[0].var == loc && eff[0].pre == kUndefined && prv.empty()) {
      std::vector<Fact> ride = prv;
      ride.push_back(Fact{mount, 1});
      def.actions.push_back({"Ride-" + d.value_name(loc, eff[0].post),
                             std::max<int64_t>(1, d.cost(a) - 1), eff, ride});
    }
  }
  def.actions.push_back({"Get-mount", 1, {Effect{mount, 0, 1}}, {Fact{loc, 0}}});
  Result<Domain> out = Domain::compile(def);
  if (!out) {
    std::fprintf(stderr, "level-rides: %s\n", out.error().to_string().c_str());
    std::exit(2);
  }
  Task t{std::move(out).value(), {}};
  for (const Instance& i : level.instances) {
    Instance inst = i;
    inst.name = "level-l" + std::to_string(locations) + "-s" + std::to_string(seed) + "-" + i.name;
    inst.npc_class = kAllActions;
    inst.init.push_back(0);
    inst.goal.push_back(kUndefined);
    t.instances.push_back(std::move(inst));
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  double min_ms = 20;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--min-ms" && i + 1 < argc && std::atof(argv[i + 1]) > 0) {
      min_ms = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: topoplan_bench_reach_scale [--min-ms N]\n");
      return 2;
    }
  }
  struct Size {
    int32_t n, p, k;
  };
  std::vector<Size> sizes;
  for (const int32_t p : {2, 3})
    for (const int32_t n : {3, 4, 6, 8, 10, 12, 14, 16}) sizes.push_back({n, p, n - 1});
  for (const int32_t p : {2, 3})
    for (const int32_t n : {8, 16, 32, 64}) sizes.push_back({n, p, 3});
  std::printf(
      "instance,log2_states,actions,max_producers,exact_cost,choices,pruned,reach_ns,reach,"
      "astar_ns,astar,auto_ns,auto\n");
  bool wrong = false;
  std::vector<Task> tasks;
  std::vector<int32_t> producers;
  for (const Size& z : sizes) {
    tasks.push_back(travel(z.n, z.p, z.k));
    producers.push_back(z.p);
  }
  for (const int32_t locations : {4, 8, 16, 32})
    for (const uint64_t seed : {1, 2}) {
      tasks.push_back(level_with_rides(locations, seed));
      producers.push_back(2);
    }
  for (size_t ti = 0; ti < tasks.size(); ++ti)
    for (const Instance& inst : tasks[ti].instances) {
      const Domain& d = tasks[ti].domain;
      PlannerOptions eo;
      eo.limits.max_expansions = 2'000'000;
      const PlanResult ex = plan_exact(d, inst, eo);
      const ReachResult rr = plan_reach(d, inst);
      double log2_states = 0;
      for (VarId v = 0; v < d.num_variables(); ++v) log2_states += std::log2(d.domain_size(v));
      Result<CompiledActionSet> set = CompiledActionSet::create(d);
      if (!set) return 2;
      std::printf("%s,%.1f,%d,%d,%s,%d,%d", inst.name.c_str(), log2_states, d.num_actions(),
                  producers[ti],
                  ex.status == PlanStatus::kSolved ? std::to_string(ex.cost).c_str() : "?",
                  rr.choices, rr.pruned);
      for (const char* name : {"topo-reach", "astar", "auto"}) {
        Result<std::unique_ptr<HotPlanner>> p = create_hot_planner(name, *set);
        if (!p) return 2;
        auto scratch = (*p)->make_scratch();
        std::vector<ActionId> out(static_cast<size_t>((*p)->max_plan_length()));
        int32_t len = 0;
        PlanOutcome o;
        const double ns =
            time_ns([&] { o = (*p)->plan(*scratch, inst.init, inst.goal, out, &len); }, min_ms);
        std::string what = "-";
        if (o.solved()) {
          const std::vector<ActionId> plan(out.begin(), out.begin() + len);
          const Validation v = validate_plan(d, inst, plan);
          if (!v.valid || (ex.status == PlanStatus::kSolved && v.cost < ex.cost)) wrong = true;
          what = !v.valid                           ? "INVALID"
                 : ex.status != PlanStatus::kSolved ? "cost " + std::to_string(v.cost)
                 : v.cost == ex.cost                ? "opt"
                                                    : "+" + std::to_string(v.cost - ex.cost);
          if ((o.detail & kDetailNotProvenOptimal) != 0) what += " (unproven)";
        } else if (o.status == PlanStatus::kUnsolvable) {
          what = "unsolv";
          if (ex.status == PlanStatus::kSolved) wrong = true;
        }
        std::printf(",%.0f,%s", ns, what.c_str());
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  if (wrong) std::fprintf(stderr, "topoplan_bench_reach_scale: a wrong answer (see the table)\n");
  return wrong ? 1 : 0;
}
