// make_goal_town (town.h): the seeded goal-selection input of `topoplan goals`.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "topoplan/runtime/random.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/town.h"

namespace topoplan {
namespace {

// The generator as `topoplan goals` wrote it before it moved into the library: the library's
// town must draw the same NPCs for the same seed (the command's figures stay comparable).
GoalTown reference_town(const Domain& domain, int64_t n, int32_t f, uint64_t seed) {
  SplitMix64 rng(seed);
  const auto next = [&rng] { return rng.next(); };
  GoalTown t;
  t.npc_class.resize(static_cast<size_t>(n));
  t.facts.assign(static_cast<size_t>(n) * static_cast<size_t>(f), 0.0f);
  for (int64_t i = 0; i < n; ++i) {
    t.npc_class[static_cast<size_t>(i)] =
        static_cast<uint16_t>(next() % static_cast<uint64_t>(domain.num_classes()));
    for (int32_t k = domain.num_variables(); k < f; ++k)
      t.facts[static_cast<size_t>(k) * static_cast<size_t>(n) + static_cast<size_t>(i)] =
          static_cast<float>(next() % 101);
    if (next() % 4 == 0) {
      const VarId v = static_cast<VarId>(next() % static_cast<uint64_t>(domain.num_variables()));
      t.facts[static_cast<size_t>(v) * static_cast<size_t>(n) + static_cast<size_t>(i)] =
          static_cast<float>(next() % static_cast<uint64_t>(domain.domain_size(v)));
    }
  }
  return t;
}

TEST(GoalTown, MatchesTheCommandsFormerGenerator) {
  const Task task = western();
  const Domain& d = task.domain;
  for (const uint64_t seed : {uint64_t{0}, uint64_t{1}, uint64_t{42}}) {
    for (const int32_t f : {d.num_variables(), d.num_variables() + 7}) {
      const GoalTown got = make_goal_town(d, 1000, f, seed);
      const GoalTown want = reference_town(d, 1000, f, seed);
      EXPECT_EQ(got.npc_class, want.npc_class) << seed;
      EXPECT_EQ(got.facts, want.facts) << seed;
    }
  }
}

TEST(GoalTown, ShapeAndRanges) {
  const Task task = western();
  const Domain& d = task.domain;
  const int64_t n = 4000;
  const int32_t f = d.num_variables() + 5;
  const GoalTown t = make_goal_town(d, n, f, 7);
  ASSERT_EQ(t.npc_class.size(), static_cast<size_t>(n));
  ASSERT_EQ(t.facts.size(), static_cast<size_t>(n) * static_cast<size_t>(f));
  std::vector<int64_t> per_class(static_cast<size_t>(d.num_classes()), 0);
  int64_t moved = 0;
  for (int64_t i = 0; i < n; ++i) {
    const auto c = t.npc_class[static_cast<size_t>(i)];
    ASSERT_LT(c, d.num_classes());
    ++per_class[c];
    int32_t off_dawn = 0;
    for (int32_t k = 0; k < f; ++k) {
      const float x =
          t.facts[static_cast<size_t>(k) * static_cast<size_t>(n) + static_cast<size_t>(i)];
      ASSERT_EQ(x, static_cast<float>(static_cast<int32_t>(x)));  // whole numbers
      if (k < d.num_variables()) {
        ASSERT_GE(x, 0.0f);
        ASSERT_LT(x, static_cast<float>(d.domain_size(k)));
        off_dawn += x != 0.0f;
      } else {
        ASSERT_GE(x, 0.0f);
        ASSERT_LE(x, 100.0f);
      }
    }
    ASSERT_LE(off_dawn, 1);  // at most one variable moved off dawn
    moved += off_dawn;
  }
  // About a quarter draw a move, and some of those land on value 0 again.
  EXPECT_GT(moved, n / 10);
  EXPECT_LT(moved, n / 4 + n / 20);
  for (const int64_t k : per_class) EXPECT_GT(k, n / d.num_classes() / 2);  // uniform classes
  // Seeded: the same arguments give the same town, another seed another one.
  const GoalTown again = make_goal_town(d, n, f, 7);
  EXPECT_EQ(again.npc_class, t.npc_class);
  EXPECT_EQ(again.facts, t.facts);
  EXPECT_NE(make_goal_town(d, n, f, 8).npc_class, t.npc_class);
}

}  // namespace
}  // namespace topoplan
