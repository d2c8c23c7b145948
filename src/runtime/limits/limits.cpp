// The table of limits (limits.h): one message for every door.
#include "topoplan/runtime/limits.h"

#include <cmath>
#include <cstdio>

namespace topoplan {

namespace {
std::string number(double v, bool integer) {
  char buf[40];
  if (integer && v >= limits::kInt64Max) return "9223372036854775807";
  // A non-integer found in an integer field is shown as it is ("found 1.5", not "found 1").
  if (integer && std::isfinite(v) && std::fabs(v) < 9.2e18 && std::trunc(v) == v)
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
  else
    std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}
}  // namespace

std::string limit_message(const LimitSpec& spec, double value) {
  return "'" + std::string(spec.name) + "' (" + std::string(spec.words) + ") must be " +
         (spec.integer ? "an integer" : "a number") + " in [" + number(spec.lo, spec.integer) +
         ", " + number(spec.hi, spec.integer) + "], found " + number(value, spec.integer);
}

std::optional<Error> check_limit(const LimitSpec& spec, double value, std::string_view where) {
  const bool in =
      value >= spec.lo && value <= spec.hi && (!spec.integer || std::trunc(value) == value);
  if (in) return std::nullopt;
  return Error{std::string(where) + ": " + limit_message(spec, value), "", 0};
}

std::optional<Error> check_limit(const LimitSpec& spec, int64_t value, std::string_view where) {
  // Compared as integers where the range allows it (INT64_MAX is not exact as a double).
  const bool above = spec.hi >= limits::kInt64Max ? false : static_cast<double>(value) > spec.hi;
  if (static_cast<double>(value) >= spec.lo && !above) return std::nullopt;
  std::string found = std::to_string(value);
  std::string msg = limit_message(spec, 0.0);
  msg.replace(msg.rfind("found ") + 6, std::string::npos, found);
  return Error{std::string(where) + ": " + msg, "", 0};
}

std::string limit_field(const LimitSpec& spec, LimitDoor door) {
  switch (door) {
    case LimitDoor::kCxx:
      if (!spec.cxx.empty()) return std::string(spec.cxx);
      break;
    case LimitDoor::kC:
      if (!spec.c.empty()) return std::string(spec.c);
      break;
    case LimitDoor::kPython:
      return std::string(spec.name) + "=";  // Python's keyword arguments keep the table's names
    case LimitDoor::kCli:
      if (!spec.flag.empty()) return std::string(spec.flag);
      break;
  }
  return std::string(spec.name);
}

std::string raise_limits(std::span<const LimitSpec* const> specs) {
  std::string out = "raise";
  for (size_t i = 0; i < specs.size(); ++i) {
    out += i == 0 ? " " : i + 1 == specs.size() ? " or " : ", ";
    out += limit_field(*specs[i], LimitDoor::kCxx);
  }
  return out;
}

std::string limit_words_for(std::string message, LimitDoor door) {
  if (door == LimitDoor::kCxx) return message;
  for (const LimitSpec& spec : limits::kAll) {
    if (spec.cxx.empty()) continue;
    const std::string to = limit_field(spec, door);
    for (size_t at = message.find(spec.cxx); at != std::string::npos;
         at = message.find(spec.cxx, at + to.size()))
      message.replace(at, spec.cxx.size(), to);
  }
  return message;
}

}  // namespace topoplan
