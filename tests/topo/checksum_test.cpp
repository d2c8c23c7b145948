// Checksum probe of ℙ's answers: one FNV-1a hash over the status, failure details, explanation
// and plan of every instance of Western, Western-PUS (per class), the synthetic families, GOAP
// levels and seeded random domains (with and without undefined pre-conditions and free goals).
// A refactoring of src/runtime/topo must leave the hash unchanged: run it before and after, and
// compare (TOPOPLAN_TOPO_CHECKSUM=<hex> makes the test assert the value). Not a correctness test on
// its own — the differential tests are — but it catches any change of plan, status or reason.
// Under a sanitizer it plans an eighth of the instances of every family (testing::sanitized_share),
// which reaches the same code for memory and undefined-behaviour errors at an eighth of the
// instrumented cost; that hash differs, so only a build without sanitizers compares it.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "random_domains.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/tools/families.h"

namespace topoplan {
namespace {

struct Probe {
  uint64_t hash = 0xcbf29ce484222325ull;
  int64_t instances = 0;
  int64_t solved = 0;

  void mix(uint64_t x) {
    for (int i = 0; i < 8; ++i) {
      hash ^= (x >> (8 * i)) & 0xffu;
      hash *= 0x100000001b3ull;
    }
  }
  void mix(const std::string& text) {
    mix(text.size());
    for (const char c : text) mix(static_cast<uint64_t>(static_cast<unsigned char>(c)));
  }

  // The hash keeps the codes it was first computed with (ℙ's failure reasons numbered 0-11, a
  // short buffer as status 2), so that a hash taken before a change of vocabulary still compares.
  static uint64_t hashed_status(PlanStatus st) {
    return st == PlanStatus::kBufferTooSmall ? 2 : static_cast<uint64_t>(st);
  }
  static uint64_t reason_code(PlanDetail f) {
    if ((f & kDetailBadInput) != 0) return 1;
    if ((f & kDetailRelaxedUnreachable) != 0) return 11;
    if ((f & kDetailGoalUnreachable) != 0) return 4;
    if ((f & kDetailPreconditionUnmet) != 0) return 5;
    if ((f & kDetailNeedsRepeat) != 0) return 6;
    if ((f & kDetailOrderingCycle) != 0) return 7;
    if ((f & kDetailSelfCheck) != 0) return 8;
    if ((f & kDetailUnprovenMinimal) != 0) return 9;
    if ((f & kDetailBranching) != 0) return 10;
    return 0;
  }

  // Plans every instance with one planner per NPC class; a class ℙ rejects hashes its message.
  void run(const Domain& d, const std::vector<Instance>& task_instances) {
    for (const Instance& inst : task_instances) {
      Result<TopoPlanner> planner = TopoPlanner::create(d, inst.npc_class);
      if (!planner.ok()) {
        mix(planner.error().to_string());
        continue;
      }
      plan(*planner, inst);
    }
  }
  void plan(const TopoPlanner& planner, const Instance& inst) {
    TopoScratch scratch = planner.make_scratch();
    std::vector<ActionId> out(static_cast<size_t>(planner.max_plan_length()) + 1, -1);
    int32_t len = 0;
    const PlanOutcome o = planner.plan(scratch, inst.init, inst.goal, out, &len);
    const PlanStatus st = o.status;
    ++instances;
    mix(static_cast<uint64_t>(hashed_status(st)));
    mix(static_cast<uint64_t>(len));
    if (st == PlanStatus::kSolved) {
      ++solved;
      for (int32_t i = 0; i < len; ++i) mix(static_cast<uint64_t>(out[static_cast<size_t>(i)]));
      return;
    }
    mix(static_cast<uint64_t>(reason_code(o.detail)));
    mix(static_cast<uint64_t>(o.var));
    mix(static_cast<uint64_t>(o.value));
    mix(static_cast<uint64_t>(o.action));
    mix(static_cast<uint64_t>(scratch.pick_budget_spent()));
    mix(planner.explain(o));
  }
  // Random instances of every class of `task` (besides its own instances).
  void run_task(const Task& task, uint64_t seed, int per_class) {
    run(task.domain, task.instances);
    testing::Rng rng(seed);
    for (ClassId c = -1; c < task.domain.num_classes(); ++c) {
      const ClassId cls = c < 0 ? kAllActions : c;
      Result<TopoPlanner> planner = TopoPlanner::create(task.domain, cls);
      if (!planner.ok()) {
        mix(planner.error().to_string());
        continue;
      }
      for (int k = 0; k < per_class; ++k) {
        Instance inst = testing::alternating_instance(task.domain, rng, k, k % 3 == 0 ? 0.3 : 0.0);
        inst.npc_class = cls;
        plan(*planner, inst);
      }
    }
  }
};

TEST(TopoChecksum, Probe) {
  Probe p;
  using testing::sanitized_share;
  p.run_task(western(), 11, static_cast<int>(sanitized_share(2000)));
  p.run_task(western_pus(), 12, static_cast<int>(sanitized_share(2000)));
  const int per_family_class = static_cast<int>(sanitized_share(200));
  for (int32_t m = 1; m <= 6; ++m) {
    p.run_task(multiprv_n_cycle(m, 3), 20 + static_cast<uint64_t>(m), per_family_class);
    p.run_task(multiprv_2_cycle(m), 30 + static_cast<uint64_t>(m), per_family_class);
    p.run_task(oneprv_5(m), 40 + static_cast<uint64_t>(m), per_family_class);
  }
  for (int32_t n = 1; n <= 12; ++n)
    p.run_task(goap_goto_chain(n), 50 + static_cast<uint64_t>(n),
               static_cast<int>(sanitized_share(50)));
  const auto levels = static_cast<uint64_t>(sanitized_share(400));
  for (uint64_t seed = 1; seed <= levels; ++seed) {
    const Task level = goap_level(goap_level_params(seed, 16));
    p.run_task(level, seed, static_cast<int>(sanitized_share(20)));
  }
  const double undefined[] = {0.0, 0.5};
  const auto random_domains = static_cast<uint64_t>(sanitized_share(3000));
  for (const double u : undefined) {
    for (uint64_t seed = 1; seed <= random_domains; ++seed) {
      const Domain d = testing::random_domain(seed, {.undefined_pre_probability = u});
      Result<TopoPlanner> planner = TopoPlanner::create(d);
      ASSERT_TRUE(planner.ok()) << planner.error().to_string();
      testing::Rng rng(seed ^ 0xC5EC5ull);
      for (int k = 0; k < 8; ++k) {
        p.plan(*planner, testing::alternating_instance(d, rng, k, k < 4 ? 0.0 : 0.4));
      }
    }
  }
  char hex[32];
  std::snprintf(hex, sizeof hex, "%016" PRIx64, p.hash);
  std::printf("topo checksum %s over %lld instances (%lld solved)\n", hex,
              static_cast<long long>(p.instances), static_cast<long long>(p.solved));
  const char* want = std::getenv("TOPOPLAN_TOPO_CHECKSUM");
  if (want != nullptr && *want != '\0' && !testing::kSanitized) {
    EXPECT_EQ(std::string(want), std::string(hex));
  }
}

}  // namespace
}  // namespace topoplan
