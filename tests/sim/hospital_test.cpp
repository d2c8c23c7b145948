// The hospital: every selector keeps the patients' needs mostly met, the crowd-planned GOAP
// serves every request, runs are deterministic, and nothing allocates per tick (a run twice as
// long allocates exactly as much).
#include <gtest/gtest.h>

#include <string>

#include "alloc_counter.h"
#include "scenarios.h"
#include "topoplan/sim/hospital.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {
namespace {

const HospitalConfig& hospital() {
  return testing::shipped_scenario("hospital.toml").hospital;
}

TEST(Hospital, EverySelectorCares) {
  for (HospitalSelector k : {HospitalSelector::kFsm, HospitalSelector::kGoap,
                             HospitalSelector::kUtility, HospitalSelector::kCrowd}) {
    const HospitalRun r = run_hospital(hospital(), k, 64, 1, false);
    EXPECT_EQ(r.decisions, 64 * static_cast<int64_t>(240 / 0.2)) << to_string(k);
    EXPECT_GT(r.plans, 64) << to_string(k);
    EXPECT_EQ(r.plan_failures, 0) << to_string(k);
    EXPECT_LT(r.mean_unmet, 0.2) << to_string(k);
  }
}

TEST(Hospital, CrowdOnTheAgentRuntimeIsTheSameOnAnyThreadCount) {
  // The crowd's NPCs live on the agent runtime: its events, and so the run, do not depend on the
  // threads of the batch and of the examination.
  HospitalConfig c = hospital();
  c.seconds = 30;
  c.threads = 1;
  const HospitalRun one = run_hospital(c, HospitalSelector::kCrowd, 5000, 4, false);
  c.threads = 2;
  const HospitalRun two = run_hospital(c, HospitalSelector::kCrowd, 5000, 4, false);
  EXPECT_GT(one.plans, 4000);
  EXPECT_EQ(one.plans, two.plans);
  EXPECT_EQ(one.actions_done, two.actions_done);
  // (Not the cache hits: two workers may both miss a plan the cache then holds once.)
  EXPECT_DOUBLE_EQ(one.mean_unmet, two.mean_unmet);
}

TEST(Hospital, CrowdAndAStarCareAlike) {
  // The crowd (ℙ on the agent runtime, which reacts to a sensed change at once) and GOAP with A*
  // (the sim's loop, which waits for the NPC's next decision) pursue the same goals with plans of
  // the same length: the share of unmet needs differs by little.
  const HospitalRun a = run_hospital(hospital(), HospitalSelector::kGoap, 320, 4, false);
  const HospitalRun c = run_hospital(hospital(), HospitalSelector::kCrowd, 320, 4, false);
  EXPECT_EQ(c.plan_failures, 0);
  EXPECT_NEAR(a.mean_unmet, c.mean_unmet, 0.01);
  EXPECT_NEAR(static_cast<double>(a.actions_done), static_cast<double>(c.actions_done),
              0.05 * static_cast<double>(a.actions_done));
}

TEST(Hospital, NoAllocationPerTick) {
  for (HospitalSelector k : {HospitalSelector::kFsm, HospitalSelector::kGoap,
                             HospitalSelector::kUtility, HospitalSelector::kCrowd}) {
    HospitalConfig c = hospital();
    c.seconds = 60;
    // A first run fills the process's one-time statics (the planner registry the crowd's
    // fallback chain looks names up in); only what a run allocates per tick is compared.
    (void)run_hospital(c, k, 200, 2, false);
    int64_t before = testing::allocation_count();
    (void)run_hospital(c, k, 200, 2, false);
    const int64_t short_run = testing::allocation_count() - before;
    c.seconds = 120;
    before = testing::allocation_count();
    (void)run_hospital(c, k, 200, 2, false);
    const int64_t long_run = testing::allocation_count() - before;
    EXPECT_EQ(short_run, long_run) << to_string(k);
  }
}

}  // namespace
}  // namespace topoplan::sim
