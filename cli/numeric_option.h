// Numeric command-line options, checked in one place: every numeric option of every command is
// added through add_number(), which rejects what is not a number of the option's type (NaN,
// infinities, trailing text, values that overflow the type) and what lies outside [min, max],
// with a one-line message naming the option and the accepted range, e.g.
//   topoplan crowd: --situations: must be an integer in [1, 10000], got '0'
// (CLI11 prefixes the option name; main() prints it as one line and exits with code 2).
#pragma once

#include <CLI/CLI.hpp>
#include <concepts>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "topoplan/runtime/limits.h"

namespace topoplan::cli {

// Returns "" when `text` is an integer in [min, max], else the reason (no option name).
std::string check_integer(const std::string& text, int64_t min, int64_t max);
std::string check_unsigned(const std::string& text, uint64_t min, uint64_t max);
// Returns "" when `text` is a finite real number in [min, max], else the reason.
std::string check_real(const std::string& text, double min, double max);

// For options naming an output file: an empty name is an error (exit 2), never standard output.
inline CLI::Validator non_empty_file() {
  return CLI::Validator(
      [](std::string& s) { return s.empty() ? std::string("empty file name") : std::string(); },
      "FILE");
}

// Adds option `name` bound to `value`, accepted only in [min, max].
template <class T>
CLI::Option* add_number(CLI::App& cmd, const std::string& name, T& value, T min, T max,
                        const std::string& help) {
  std::function<std::string(std::string&)> check;
  if constexpr (std::floating_point<T>) {
    check = [min, max](std::string& s) {
      return check_real(s, static_cast<double>(min), static_cast<double>(max));
    };
  } else if constexpr (std::unsigned_integral<T>) {
    check = [min, max](std::string& s) {
      return check_unsigned(s, static_cast<uint64_t>(min), static_cast<uint64_t>(max));
    };
  } else {
    static_assert(std::signed_integral<T>);
    check = [min, max](std::string& s) {
      return check_integer(s, static_cast<int64_t>(min), static_cast<int64_t>(max));
    };
  }
  return cmd.add_option(name, value, help)->check(CLI::Validator(std::move(check), "", ""));
}

// Adds the option of a limit of the table (limits.h): its range comes from the table, so the CLI
// accepts what the C++, C and Python doors accept and words the range the same way ("must be an
// integer in [1, 10000]"). `names`: the option's names (default: the table's flag).
template <class T>
CLI::Option* add_limit(CLI::App& cmd, const LimitSpec& spec, T& value, const std::string& help,
                       std::string names = "") {
  if (names.empty()) names = std::string(spec.flag);
  const T lo = static_cast<T>(spec.lo);
  const T hi = spec.hi >= static_cast<double>(std::numeric_limits<T>::max())
                   ? std::numeric_limits<T>::max()
                   : static_cast<T>(spec.hi);
  return add_number(cmd, names, value, lo, hi, help);
}

}  // namespace topoplan::cli
