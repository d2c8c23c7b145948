// The table of numeric limits: every bounded field of the public option and Def structs that
// callers reach through more than one door (C++ create/plan functions, the C API, Python, the
// CLI), with its accepted range and what it counts. Every door checks a value against the same
// entry and reports it with the same words — "'max_seconds' (seconds of search; 0: none) must be
// in [0, 1e+09], found inf" — prefixed by where the value came from (a struct, an argument, a
// flag). NaN is outside every range.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "topoplan/runtime/result.h"

namespace topoplan {

struct LimitSpec {
  std::string_view name;   // the field's name in the C++ and C structs and in Python
  std::string_view flag;   // the CLI option that sets it ("" when the CLI has none)
  double lo, hi;           // accepted range, both ends included (integers are exact below 2^53)
  bool integer;            // an integer field
  std::string_view words;  // what it counts, for the message
};

namespace limits {
inline constexpr double kInt64Max = 9223372036854775807.0;
// Search limits (SearchLimits, topoplan_plan_options, plan(), the crowd's fallback_limits).
inline constexpr LimitSpec kMaxExpansions{
    "max_expansions", "--max-expansions", 1, kInt64Max, true, "search nodes expanded"};
inline constexpr LimitSpec kMaxMemoryBytes{"max_memory_bytes", "",   1,
                                           kInt64Max,          true, "bytes of search memory"};
inline constexpr LimitSpec kMaxSeconds{
    "max_seconds", "--max-seconds", 0, 1e9, false, "seconds of search; 0: none"};
// UDGOAP (UdgoapLimits).
inline constexpr LimitSpec kUdgoapMaxExpansions{
    "max_expansions", "--max-expansions", 1, 1e12, true, "UDGOAP nodes expanded"};
inline constexpr LimitSpec kUdgoapMaxGenerated{"max_generated",         "", 0, 1e12, true,
                                               "UDGOAP nodes generated"};
inline constexpr LimitSpec kUdgoapMaxPlanLength{
    "max_plan_length", "--max-plan-length", 1, 10000, true, "actions in a UDGOAP plan"};
// Plan cache (PlanCacheDef).
inline constexpr LimitSpec kCacheCapacity{
    "capacity", "", 1, 1 << 28, true, "cache entries, rounded up to a power of two"};
inline constexpr LimitSpec kCacheMaxPlanLength{"max_plan_length",         "", 0, 255, true,
                                               "actions of a cached plan"};
inline constexpr LimitSpec kCacheTableActions{"table_actions", "",   0,
                                              1 << 30,         true, "plan table slots"};
// Crowd towns (TownDef, topoplan_town_def).
inline constexpr LimitSpec kTownNpcs{"npcs", "--npcs", 1, 10'000'000, true, "NPCs"};
inline constexpr LimitSpec kTownSituations{
    "situations_per_class", "--situations", 1, 10'000, true, "situations per NPC class"};
inline constexpr LimitSpec kTownBackgrounds{"backgrounds", "", 1, 65536, true, "background states"};

// Every entry, for documentation and the test that walks the doors.
inline constexpr LimitSpec kAll[] = {kMaxExpansions,      kMaxMemoryBytes,
                                     kMaxSeconds,         kUdgoapMaxExpansions,
                                     kUdgoapMaxGenerated, kUdgoapMaxPlanLength,
                                     kCacheCapacity,      kCacheMaxPlanLength,
                                     kCacheTableActions,  kTownNpcs,
                                     kTownSituations,     kTownBackgrounds};
}  // namespace limits

// "'name' (words) must be an integer in [lo, hi], found v" (reals: "must be a number in") — the
// words every door uses; the CLI's range clause is the same ("--npcs: must be an integer in
// [1, 10000000], got '0'").
[[nodiscard]] std::string limit_message(const LimitSpec& spec, double value);
// nullopt when `value` is in range (and an integer for integer fields); else an Error whose
// message is `where` + ": " + limit_message(...).
[[nodiscard]] std::optional<Error> check_limit(const LimitSpec& spec, double value,
                                               std::string_view where);
[[nodiscard]] std::optional<Error> check_limit(const LimitSpec& spec, int64_t value,
                                               std::string_view where);

}  // namespace topoplan
