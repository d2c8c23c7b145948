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
  // Where a C++ and a C caller set it, as a message names it ("SearchLimits::max_expansions",
  // "topoplan_plan_options.max_expansions"); "" for fields whose limit never stops a planner.
  std::string_view cxx = {};
  std::string_view c = {};
};

namespace limits {
inline constexpr double kInt64Max = 9223372036854775807.0;
// Search limits (SearchLimits, topoplan_plan_options, plan(), the crowd's fallback_limits).
inline constexpr LimitSpec kMaxExpansions{"max_expansions",
                                          "--max-expansions",
                                          1,
                                          kInt64Max,
                                          true,
                                          "search nodes expanded",
                                          "SearchLimits::max_expansions",
                                          "topoplan_plan_options.max_expansions"};
// The CLI's --max-memory counts MiB.
inline constexpr LimitSpec kMaxMemoryBytes{"max_memory_bytes",
                                           "--max-memory",
                                           1,
                                           kInt64Max,
                                           true,
                                           "bytes of search memory",
                                           "SearchLimits::max_memory_bytes",
                                           "topoplan_plan_options.max_memory_bytes"};
inline constexpr LimitSpec kMaxSeconds{"max_seconds",
                                       "--max-seconds",
                                       0,
                                       1e9,
                                       false,
                                       "seconds of search; 0: none",
                                       "SearchLimits::max_seconds",
                                       "topoplan_plan_options.max_seconds"};
// UDGOAP (UdgoapLimits).
inline constexpr LimitSpec kUdgoapMaxExpansions{"max_expansions",
                                                "--max-expansions",
                                                1,
                                                1e12,
                                                true,
                                                "UDGOAP nodes expanded",
                                                "UdgoapLimits::max_expansions",
                                                "topoplan_udgoap_limits.max_expansions"};
inline constexpr LimitSpec kUdgoapMaxGenerated{"max_generated",
                                               "",
                                               0,
                                               1e12,
                                               true,
                                               "UDGOAP nodes generated",
                                               "UdgoapLimits::max_generated",
                                               "topoplan_udgoap_limits.max_generated"};
inline constexpr LimitSpec kUdgoapMaxPlanLength{"max_plan_length",
                                                "--max-plan-length",
                                                1,
                                                10000,
                                                true,
                                                "actions in a UDGOAP plan",
                                                "UdgoapLimits::max_plan_length",
                                                "topoplan_udgoap_limits.max_plan_length"};
// Plan cache (PlanCacheDef).
inline constexpr LimitSpec kCacheCapacity{
    "capacity", "", 1, 1 << 28, true, "cache entries, rounded up to a power of two"};
inline constexpr LimitSpec kCacheMaxPlanLength{"max_plan_length",         "", 0, 255, true,
                                               "actions of a cached plan"};
inline constexpr LimitSpec kCacheTableActions{"table_actions", "",   0,
                                              1 << 30,         true, "plan table slots"};
// Crowds (CrowdDef, topoplan_crowd_def, topoplan_crowd_chain, Python's Crowd). The fallback
// limits are the retries' (CrowdDef::fallback_limits; the C chain's and Python's fallback_*).
inline constexpr LimitSpec kCrowdWorkerCount{
    "worker_count", "", 1, 4096, true, "distinct worker indices of a crowd"};
inline constexpr LimitSpec kCrowdThreads{
    "threads", "--threads", 1, 1024, true, "threads of a crowd's built-in pool"};
inline constexpr LimitSpec kCrowdNpcsPerBlock{"npcs_per_block", "",   1,
                                              1 << 20,          true, "NPCs per unit of work"};
inline constexpr LimitSpec kCrowdWorkerMemoEntries{
    "worker_memo_entries", "", 0, 1 << 24, true, "memo entries per worker; 0: none"};
inline constexpr LimitSpec kCrowdFallbackBudget{
    "fallback_budget", "", 1, 1099511627776.0, true, "first-attempt expansions per NPC"};
inline constexpr LimitSpec kCrowdFallbackMaxExpansions{
    "fallback_limits.max_expansions", "", 1, 1099511627776.0, true, "retry expansions per NPC"};
inline constexpr LimitSpec kCrowdFallbackMaxMemoryBytes{
    "fallback_limits.max_memory_bytes", "", 1, 1125899906842624.0, true,
    "retry search memory in bytes"};
inline constexpr LimitSpec kCrowdFallbackMaxSeconds{
    "fallback_limits.max_seconds", "", 0, 1e9, false, "retry seconds per NPC; 0: none"};
// Crowd towns (TownDef, topoplan_town_def).
inline constexpr LimitSpec kTownNpcs{"npcs", "--npcs", 1, 10'000'000, true, "NPCs"};
inline constexpr LimitSpec kTownSituations{
    "situations_per_class", "--situations", 1, 10'000, true, "situations per NPC class"};
inline constexpr LimitSpec kTownBackgrounds{"backgrounds", "", 1, 65536, true, "background states"};

// Every entry, for documentation and the test that walks the doors.
inline constexpr LimitSpec kAll[] = {kMaxExpansions,
                                     kMaxMemoryBytes,
                                     kMaxSeconds,
                                     kUdgoapMaxExpansions,
                                     kUdgoapMaxGenerated,
                                     kUdgoapMaxPlanLength,
                                     kCacheCapacity,
                                     kCacheMaxPlanLength,
                                     kCacheTableActions,
                                     kCrowdWorkerCount,
                                     kCrowdThreads,
                                     kCrowdNpcsPerBlock,
                                     kCrowdWorkerMemoEntries,
                                     kCrowdFallbackBudget,
                                     kCrowdFallbackMaxExpansions,
                                     kCrowdFallbackMaxMemoryBytes,
                                     kCrowdFallbackMaxSeconds,
                                     kTownNpcs,
                                     kTownSituations,
                                     kTownBackgrounds};
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

// A limit that stops a planner is named in its message the way the caller's door sets it. The
// library words the message for C++ callers and every other door rewrites it with
// limit_words_for, so "raise SearchLimits::max_expansions" reaches a C caller as "raise
// topoplan_plan_options.max_expansions", Python as "raise max_expansions=" and the CLI as "raise
// --max-expansions".
enum class LimitDoor { kCxx, kC, kPython, kCli };
// How `door` names the field (the table's name where the door has no spelling of its own).
[[nodiscard]] std::string limit_field(const LimitSpec& spec, LimitDoor door);
// "raise A, B or C" with the C++ spellings of `specs`: the clause of a LIMIT_REACHED message.
[[nodiscard]] std::string raise_limits(std::span<const LimitSpec* const> specs);
// `message` with every C++ spelling of a limit of the table replaced by `door`'s.
[[nodiscard]] std::string limit_words_for(std::string message, LimitDoor door);

}  // namespace topoplan
