// Fuzz-ish robustness: truncations at every byte and seeded random byte flips of valid files.
// Each reader must return either a task or an Error carrying the file name and a line number;
// whatever it accepts must survive a write/read round trip.
#include <random>

#include <gtest/gtest.h>

#include "test_util.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

using Parser = Result<Task> (*)(std::string_view, const std::string&);

void check_one(Parser parse, const std::string& text, const char* what) {
  auto r = parse(text, "fuzz.in");
  if (!r.ok()) {
    ASSERT_EQ(r.error().file, "fuzz.in") << what;
    ASSERT_GE(r.error().line, 1) << what << ": " << r.error().to_string();
    return;
  }
  // Accepted input is a consistent task: both writers produce files that read back.
  for (const Instance& inst : r->instances) ASSERT_FALSE(r->domain.check_instance(inst));
  auto native = parse_native(write_native(*r), "w.toml");
  ASSERT_TRUE(native.ok()) << what << ": " << native.error().to_string();
  for (const Instance& inst : r->instances) {
    auto fd = parse_fd_sas(write_fd_sas(r->domain, inst), "w.sas");
    ASSERT_TRUE(fd.ok()) << what << ": " << fd.error().to_string();
  }
}

void fuzz(Parser parse, const std::string& valid, uint32_t seed) {
  ASSERT_TRUE(parse(valid, "fuzz.in").ok());
  for (size_t cut = 0; cut < valid.size(); ++cut) {
    check_one(parse, valid.substr(0, cut), "truncation");
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "cut at " << cut;
      return;
    }
  }
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> pos(0, valid.size() - 1);
  std::uniform_int_distribution<int> byte(0, 255);
  // Bytes that matter to the grammars are over-represented.
  static constexpr char kSpecials[] = "\n\r\t\0 -=\"[]{},.#01239\xff";
  const std::string specials(kSpecials, sizeof kSpecials - 1);
  std::uniform_int_distribution<size_t> special(0, specials.size() - 1);
  for (int round = 0; round < 1500; ++round) {
    std::string text = valid;
    const int flips = 1 + round % 3;
    for (int f = 0; f < flips; ++f)
      text[pos(rng)] = (round & 1) ? specials[special(rng)] : static_cast<char>(byte(rng));
    check_one(parse, text, "flip");
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "round " << round << ":\n" << text;
      return;
    }
  }
}

TEST(Fuzz, NativeHorseBreeder) {
  fuzz(parse_native, test::read_text(test::domain_path("horse-breeder-003.toml")), 1);
}

TEST(Fuzz, FastDownwardHorseBreeder) {
  fuzz(parse_fd_sas, test::read_text(test::domain_path("horse-breeder.sas")), 2);
}

TEST(Fuzz, FastDownwardWithMutexesCostsAndMultiEffects) {
  const std::string text =
      "begin_version\n3\nend_version\nbegin_metric\n1\nend_metric\n2\n"
      "begin_variable\nvar0\n-1\n2\nAtom a(x, y)\nNegatedAtom a(x, y)\nend_variable\n"
      "begin_variable\nvar1\n-1\n3\nv0\nv1\nv2\nend_variable\n"
      "1\nbegin_mutex_group\n2\n0 0\n1 1\nend_mutex_group\n"
      "begin_state\n0\n2\nend_state\nbegin_goal\n1\n1 0\nend_goal\n"
      "2\nbegin_operator\nmove a b\n1\n0 0\n1\n0 1 -1 1\n5\nend_operator\n"
      "begin_operator\nswap\n0\n2\n0 0 0 1\n0 1 2 0\n0\nend_operator\n0\n";
  fuzz(parse_fd_sas, text, 3);
}

TEST(Fuzz, PlanParserNeverCrashes) {
  auto t = parse_native(test::read_text(test::domain_path("horse-breeder.toml")), "h.toml");
  ASSERT_TRUE(t.ok());
  const std::string valid = "(TakeHaystack)\n; c\n(FillHorseFeeder)\r\n\n(PickUpBucket)\n";
  std::mt19937 rng(4);
  for (int round = 0; round < 2000; ++round) {
    std::string text = valid.substr(0, static_cast<size_t>(round) % (valid.size() + 1));
    if (!text.empty()) text[rng() % text.size()] = static_cast<char>(rng());
    auto r = parse_plan(t->domain, text, "p");
    if (!r.ok()) {
      ASSERT_GE(r.error().line, 1) << r.error().to_string();
    } else {
      for (ActionId a : *r) ASSERT_TRUE(a >= 0 && a < t->domain.num_actions());
    }
    (void)parse_state_by_names(t->domain, text);
  }
}

}  // namespace
}  // namespace topoplan

namespace topoplan {
namespace {

TEST(Pathological, DeepNestingLongLinesAndHugeClaims) {
  const std::string deep = "a = " + std::string(100000, '[');
  auto r1 = parse_native(deep, "deep.toml");
  ASSERT_FALSE(r1.ok());
  EXPECT_EQ(r1.error().line, 1);
  const std::string inline_deep = "a = " + std::string(100000, '{');
  EXPECT_FALSE(parse_native(inline_deep, "deep.toml").ok());
  auto r2 = parse_fd_sas(std::string(1 << 20, 'x'), "long.sas");
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().line, 1);
  // A number line with a million tokens is rejected at the second token.
  auto r3 = parse_fd_sas("begin_version\n" + std::string(1 << 20, '3') + "\n", "n.sas");
  ASSERT_FALSE(r3.ok());
  EXPECT_EQ(r3.error().line, 2);
  std::string many = "begin_version\n3\nend_version\nbegin_metric\n0\nend_metric\n";
  for (int i = 0; i < 100000; ++i) many += "3 3 3 3 3 3 3 3\n";
  auto r4 = parse_fd_sas(many, "m.sas");
  ASSERT_FALSE(r4.ok());
  EXPECT_EQ(r4.error().line, 7);
}

}  // namespace
}  // namespace topoplan
