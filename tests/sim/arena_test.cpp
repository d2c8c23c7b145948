// The arena: determinism (same seed → same replay, any thread count), replanning, the loop.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "scenarios.h"
#include "source_path.h"
#include "topoplan/sim/arena.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim {
namespace {

const SimScenario& arena() {
  return testing::shipped_scenario("arena.toml");
}

std::string replay_of(SelectorKind kind, uint64_t seed) {
  std::string text;
  ReplayWriter w(&text, 1);
  (void)run_arena_episode(arena().arena, kind, seed, &w);
  return text;
}

TEST(Arena, SameSeedSameReplay) {
  for (SelectorKind k : {SelectorKind::kFsm, SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    const std::string a = replay_of(k, 7);
    const std::string b = replay_of(k, 7);
    ASSERT_GT(a.size(), 1000u);
    EXPECT_EQ(fnv1a(a), fnv1a(b)) << to_string(k);
    EXPECT_NE(fnv1a(a), fnv1a(replay_of(k, 8))) << "the seed must matter";
  }
}

TEST(Arena, EpisodesIndependentOfThreadCount) {
  const int n = 6;
  std::vector<double> one(n), two(n);
  for (int i = 0; i < n; ++i) {
    one[static_cast<size_t>(i)] = run_arena_episode(arena().arena, SelectorKind::kGoap,
                                                    stream_seed(3, static_cast<uint64_t>(i)))
                                      .lifespan;
  }
  std::thread t([&] {
    for (int i = 0; i < n; i += 2) {
      two[static_cast<size_t>(i)] = run_arena_episode(arena().arena, SelectorKind::kGoap,
                                                      stream_seed(3, static_cast<uint64_t>(i)))
                                        .lifespan;
    }
  });
  for (int i = 1; i < n; i += 2) {
    two[static_cast<size_t>(i)] = run_arena_episode(arena().arena, SelectorKind::kGoap,
                                                    stream_seed(3, static_cast<uint64_t>(i)))
                                      .lifespan;
  }
  t.join();
  EXPECT_EQ(one, two);
}

TEST(Arena, ReplayLinesFollowTheFormat) {
  const std::string r = replay_of(SelectorKind::kFsm, 1);
  EXPECT_NE(r.find("{\"type\":\"state\",\"tick\":0,\"t\":0,\"npc\":0,\"x\":0,\"y\":0,"),
            std::string::npos);
  EXPECT_NE(r.find("\"type\":\"event\""), std::string::npos);
  EXPECT_NE(r.find("spawned at "), std::string::npos);
  EXPECT_NE(r.find("\"drives\":{\"health\":"), std::string::npos);
}

// Every selector replans for several reasons during an episode, and the wizard dies (the
// episode is not cut) under the calibrated arena.
TEST(Arena, SelectorsReplanAndEpisodesEnd) {
  for (SelectorKind k : {SelectorKind::kFsm, SelectorKind::kGoap, SelectorKind::kUdgoap}) {
    const ArenaEpisode e = run_arena_episode(arena().arena, k, 11);
    EXPECT_FALSE(e.censored) << to_string(k);
    EXPECT_GT(e.kills, 0) << to_string(k);
    EXPECT_GT(e.counters.plans, 10) << to_string(k);
    EXPECT_GT(e.counters.replans[static_cast<size_t>(Replan::kPlanDone)], 0) << to_string(k);
    EXPECT_GT(e.counters.steps_failed, 0) << to_string(k);  // misses, interrupted spells
  }
}

// The thesis's GOAP regresses from the goal ([goap] planner = "astar-back"): the selector plans
// with BackAStarPlanner, whose plans are cost-optimal like forward A*'s (tests/runtime); ties
// between equal-cost plans could be settled differently, but this scenario has none.
TEST(Arena, BackwardGoapPlansAndEpisodesEnd) {
  ArenaConfig c = arena().arena;
  ASSERT_FALSE(c.goap_backward);  // forward A* unless the file says otherwise
  c.goap_backward = true;
  int64_t plans = 0;
  for (uint64_t seed : {11u, 12u, 13u}) {
    const ArenaEpisode e = run_arena_episode(c, SelectorKind::kGoap, seed);
    EXPECT_FALSE(e.censored);
    EXPECT_GT(e.kills, 0);
    EXPECT_EQ(e.counters.plan_failures, 0);
    EXPECT_EQ(e.lifespan, run_arena_episode(c, SelectorKind::kGoap, seed).lifespan);
    // With Table 6.1's costs every decision's optimal plan is unique, so both searches play
    // the same episode (over 300 episodes too: docs/sim.md).
    EXPECT_EQ(e.lifespan, run_arena_episode(arena().arena, SelectorKind::kGoap, seed).lifespan);
    plans += e.counters.plans;
  }
  EXPECT_GT(plans, 30);
}

TEST(Arena, GoapPlannerKeyIsReadAndChecked) {
  const std::string dir = testing::source_path("domains/sim");
  std::string text;
  {
    Result<SimScenario> r = load_sim_scenario(dir + "/arena.toml");
    ASSERT_TRUE(r.ok());
  }
  FILE* f = std::fopen((dir + "/arena.toml").c_str(), "rb");
  ASSERT_NE(f, nullptr);
  char buf[4096];
  for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) text.append(buf, n);
  std::fclose(f);
  const size_t at = text.find("[goap]\n");
  ASSERT_NE(at, std::string::npos);
  std::string back = text;
  back.insert(at + 7, "planner = \"astar-back\"\n");
  Result<SimScenario> ok = parse_sim_scenario(back, "back.toml", dir);
  ASSERT_TRUE(ok.ok()) << ok.error().to_string();
  EXPECT_TRUE(ok->arena.goap_backward);
  std::string bad = text;
  bad.insert(at + 7, "planner = \"dijkstra\"\n");
  Result<SimScenario> no = parse_sim_scenario(bad, "bad.toml", dir);
  ASSERT_FALSE(no.ok());
  EXPECT_NE(no.error().to_string().find("bad.toml:"), std::string::npos) << no.error().to_string();
  EXPECT_NE(
      no.error().to_string().find("'planner' of [goap] must be \"astar\" or \"astar-back\", found"),
      std::string::npos)
      << no.error().to_string();
  EXPECT_NE(no.error().to_string().find("dijkstra"), std::string::npos);
}

}  // namespace
}  // namespace topoplan::sim
