// Shared helpers for the io tests.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "source_path.h"
#include "topoplan/io/formats.h"

namespace topoplan::test {

inline std::string domain_path(const std::string& file) {
  return testing::source_path("domains/") + file;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A malformed-input case: the reader must fail at `line` with `phrase` in the message.
struct BadCase {
  const char* name;
  std::string text;
  int line;
  const char* phrase;
};

inline void PrintTo(const BadCase& c, std::ostream* os) {
  *os << c.name;
}

template <typename Parse>
void expect_error(const BadCase& c, Parse parse, const std::string& file) {
  auto r = parse(c.text, file);
  ASSERT_FALSE(r.ok()) << c.name << ": accepted\n" << c.text;
  EXPECT_EQ(r.error().file, file) << c.name;
  EXPECT_EQ(r.error().line, c.line) << c.name << ": " << r.error().to_string();
  EXPECT_NE(r.error().message.find(c.phrase), std::string::npos)
      << c.name << ": message '" << r.error().message << "' lacks '" << c.phrase << "'";
}

// Every case fails as expected (at least `min_cases` of them, so a shrunken table is noticed);
// with TOPOPLAN_PRINT_ERRORS set, prints each message, to read them as a user would.
template <typename Parse>
void expect_errors(const std::vector<BadCase>& cases, Parse parse, const std::string& file,
                   size_t min_cases) {
  EXPECT_GE(cases.size(), min_cases);
  for (const BadCase& c : cases) expect_error(c, parse, file);
  if (std::getenv("TOPOPLAN_PRINT_ERRORS"))
    for (const BadCase& c : cases)
      std::printf("%s\n", parse(c.text, file).error().to_string().c_str());
}

}  // namespace topoplan::test
