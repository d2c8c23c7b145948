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
#include <string>

namespace topoplan::cli {

// Returns "" when `text` is an integer in [min, max], else the reason (no option name).
std::string check_integer(const std::string& text, int64_t min, int64_t max);
std::string check_unsigned(const std::string& text, uint64_t min, uint64_t max);
// Returns "" when `text` is a finite real number in [min, max], else the reason.
std::string check_real(const std::string& text, double min, double max);

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

}  // namespace topoplan::cli
