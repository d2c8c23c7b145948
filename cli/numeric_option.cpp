#include "numeric_option.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace topoplan::cli {
namespace {

// The value as the user gave it, cut short: a 300-digit number is not echoed whole.
std::string shown(const std::string& text) {
  constexpr size_t kMax = 24;
  return "'" + (text.size() <= kMax ? text : text.substr(0, kMax) + "...") + "'";
}

std::string number(double x) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, x);  // shortest exact form: 0.05, 1e+18
  return std::string(buf, r.ptr);
}

template <class T>
std::string check_int(const std::string& text, T min, T max, const char* kind) {
  const std::string range = std::string("must be ") + kind + " in [" + std::to_string(min) + ", " +
                            std::to_string(max) + "], got " + shown(text);
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (first != last && *first == '+') ++first;
  T value{};
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) return range;
  if (ec != std::errc{} || ptr != last || first == last) return range;
  if (value < min || value > max) return range;
  return "";
}

}  // namespace

std::string check_integer(const std::string& text, int64_t min, int64_t max) {
  return check_int<int64_t>(text, min, max, "an integer");
}

std::string check_unsigned(const std::string& text, uint64_t min, uint64_t max) {
  if (!text.empty() && text[0] == '-') {  // from_chars would refuse it too; say why plainly
    return "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) +
           "], got " + shown(text);
  }
  return check_int<uint64_t>(text, min, max, "an integer");
}

std::string check_real(const std::string& text, double min, double max) {
  const std::string range =
      "must be a number in [" + number(min) + ", " + number(max) + "], got " + shown(text);
  if (text.empty()) return range;
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size() || errno == ERANGE || !std::isfinite(value)) return range;
  if (!(value >= min && value <= max)) return range;
  return "";
}

}  // namespace topoplan::cli
