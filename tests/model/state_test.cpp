#include "topoplan/runtime/state.h"

#include <gtest/gtest.h>

#include <random>

namespace topoplan {
namespace {

TEST(StatePacker, PacksAndUnpacksEveryValue) {
  // Domain sizes that exercise 1..17 bits and word boundaries.
  DomainDef def;
  std::vector<int> sizes = {1, 2, 3, 4, 5, 8, 9, 16, 17, 255, 256, 257, 1000, 65536, 2, 3};
  for (size_t i = 0; i < 5; ++i) sizes.insert(sizes.end(), sizes.begin(), sizes.begin() + 16);
  for (size_t v = 0; v < sizes.size(); ++v) {
    VariableDef var{"v" + std::to_string(v), {}};
    for (int x = 0; x < sizes[v]; ++x) var.values.push_back("x" + std::to_string(x));
    def.variables.push_back(std::move(var));
  }
  def.actions.push_back({"a", 1, {{0, kUndefined, 0}}, {}});
  Result<Domain> d = Domain::compile(def);
  ASSERT_TRUE(d.ok()) << d.error().to_string();
  StatePacker packer(*d);
  EXPECT_GT(packer.num_words(), 1);
  std::mt19937 rng(7);
  std::vector<uint64_t> words(static_cast<size_t>(packer.num_words()));
  for (int round = 0; round < 200; ++round) {
    std::vector<ValueId> state(sizes.size()), back(sizes.size());
    for (size_t v = 0; v < sizes.size(); ++v)
      state[v] = static_cast<ValueId>(rng() % static_cast<unsigned>(sizes[v]));
    packer.pack(state, words.data());
    packer.unpack(words.data(), back);
    ASSERT_EQ(state, back);
    // set() on one variable leaves the others alone.
    const auto v = static_cast<VarId>(rng() % sizes.size());
    const auto x =
        static_cast<ValueId>(rng() % static_cast<unsigned>(sizes[static_cast<size_t>(v)]));
    packer.set(words.data(), v, x);
    state[static_cast<size_t>(v)] = x;
    packer.unpack(words.data(), back);
    ASSERT_EQ(state, back);
  }
}

TEST(StatePacker, HorseBreederFitsOneWord) {
  DomainDef def;
  def.variables = {{"h", {"a", "b", "c"}}, {"b", {"a", "b"}}, {"w", {"a", "b", "c"}}};
  def.actions.push_back({"a", 1, {{0, kUndefined, 0}}, {}});
  Result<Domain> d = Domain::compile(def);
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(StatePacker(*d).num_words(), 1);
}

}  // namespace
}  // namespace topoplan
