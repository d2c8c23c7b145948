// CompiledActionSet: its indexes equal a brute-force scan of the domain, per class and mask, and
// the cost overlay shares the indexes without touching the domain.
#include "topoplan/runtime/compiled.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "horse_breeder.h"
#include "random_domains.h"

namespace topoplan {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace)

std::vector<ActionId> to_vector(std::span<const ActionId> s) {
  return {s.begin(), s.end()};
}

void expect_indexes_match(const Domain& d, const CompiledActionSet& set,
                          std::span<const uint8_t> mask) {
  for (VarId v = 0; v < d.num_variables(); ++v) {
    for (ValueId x = 0; x < d.domain_size(v); ++x) {
      std::vector<ActionId> prod, req, cons;
      for (ActionId a = 0; a < d.num_actions(); ++a) {
        if (mask[static_cast<size_t>(a)] == 0) continue;
        for (const Effect& e : d.effects(a)) {
          if (e.var == v && e.post == x) prod.push_back(a);
          if (e.var == v && e.pre == x) cons.push_back(a);
        }
        for (const Fact& f : d.prevail(a)) {
          if (f.var == v && f.value == x) req.push_back(a);
        }
      }
      const int32_t s = set.slot(v, x);
      EXPECT_EQ(set.slot_variable(s), v);
      EXPECT_EQ(to_vector(set.producers(s)), prod) << "v=" << v << " x=" << x;
      EXPECT_EQ(to_vector(set.requesters(s)), req) << "v=" << v << " x=" << x;
      EXPECT_EQ(to_vector(set.consumers(s)), cons) << "v=" << v << " x=" << x;
    }
  }
  int32_t available = 0;
  for (const uint8_t m : mask) available += m != 0 ? 1 : 0;
  EXPECT_EQ(set.num_available(), available);
}

TEST(CompiledActionSet, IndexesMatchBruteForceOnRandomDomains) {
  RandomDomainOptions options;
  options.undefined_pre_probability = 0.3;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Result<Domain> d = Domain::compile(random_domain_def(seed, options));
    ASSERT_TRUE(d.ok()) << d.error().to_string();
    Result<CompiledActionSet> all = CompiledActionSet::create(*d);
    ASSERT_TRUE(all.ok());
    expect_indexes_match(*d, *all, d->action_mask(kAllActions));
    EXPECT_TRUE(all->all_unary());
    EXPECT_TRUE(all->post_unique());
    // Every other action.
    std::vector<uint8_t> mask(static_cast<size_t>(d->num_actions()));
    for (size_t a = 0; a < mask.size(); ++a) mask[a] = a % 2 == 0 ? 1 : 0;
    Result<CompiledActionSet> half = CompiledActionSet::create(*d, mask);
    ASSERT_TRUE(half.ok());
    expect_indexes_match(*d, *half, mask);
  }
}

TEST(CompiledActionSet, ClassesAndFlags) {
  DomainDef def = horse_breeder_003_def();
  // Two producers of the same value: not post-unique.
  def.actions.push_back(def.actions[0]);
  def.actions.back().name = "Again";
  def.classes.push_back({"first", {0}});
  Result<Domain> d = Domain::compile(def);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  Result<CompiledActionSet> all = CompiledActionSet::create(*d);
  ASSERT_TRUE(all.ok());
  EXPECT_FALSE(all->post_unique());
  Result<CompiledActionSet> first = CompiledActionSet::create(*d, ClassId{0});
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first->post_unique());
  EXPECT_EQ(first->npc_class(), 0);
  EXPECT_EQ(first->num_available(), 1);
  expect_indexes_match(*d, *first, d->action_mask(0));
  EXPECT_FALSE(CompiledActionSet::create(*d, ClassId{1}).ok());
  EXPECT_FALSE(CompiledActionSet::create(*d, ClassId{-2}).ok());
  const std::vector<uint8_t> short_mask(2, 1);
  EXPECT_FALSE(CompiledActionSet::create(*d, short_mask).ok());
}

TEST(CompiledActionSet, CostOverlaySharesIndexesAndChecksRange) {
  Result<Domain> d = Domain::compile(horse_breeder_003_def());
  ASSERT_TRUE(d.ok());
  Result<CompiledActionSet> set = CompiledActionSet::create(*d);
  ASSERT_TRUE(set.ok());
  EXPECT_TRUE(set->unit_cost());
  std::vector<int64_t> costs(static_cast<size_t>(d->num_actions()), 1);
  costs[2] = 7;
  Result<CompiledActionSet> costed = set->with_costs(costs);
  ASSERT_TRUE(costed.ok());
  EXPECT_EQ(costed->cost(2), 7);
  EXPECT_FALSE(costed->unit_cost());
  EXPECT_EQ(set->cost(2), d->cost(2));                               // the original keeps its costs
  EXPECT_EQ(costed->producers(0).data(), set->producers(0).data());  // shared index
  costs[1] = -1;
  EXPECT_FALSE(set->with_costs(costs).ok());
  costs[1] = kMaxCost + 1;
  EXPECT_FALSE(set->with_costs(costs).ok());
  costs.pop_back();
  EXPECT_FALSE(set->with_costs(costs).ok());
}

}  // namespace
}  // namespace topoplan
