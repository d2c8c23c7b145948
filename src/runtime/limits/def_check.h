// Range checks of the numeric fields of the public *Def / options / config structs (not
// installed; shared by src/udgoap and src/sim). Each check gives a one-line Error naming the
// struct, the field and the accepted range; NaN is outside every range. The API edges (create
// functions, planners, episode runners) report it; their callers assert it in debug builds.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "topoplan/runtime/limits.h"
#include "topoplan/runtime/result.h"

namespace topoplan::def_check {

inline std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// nullopt when lo <= v <= hi.
inline std::optional<Error> range(std::string_view where, std::string_view field, double v,
                                  double lo, double hi) {
  if (v >= lo && v <= hi) return std::nullopt;
  return Error{std::string(where) + ": '" + std::string(field) + "' must be in [" + number(lo) +
                   ", " + number(hi) + "], found " + number(v),
               "", 0};
}

inline std::optional<Error> range(std::string_view where, std::string_view field, int64_t v,
                                  int64_t lo, int64_t hi) {
  if (v >= lo && v <= hi) return std::nullopt;
  return Error{std::string(where) + ": '" + std::string(field) + "' must be in [" +
                   std::to_string(lo) + ", " + std::to_string(hi) + "], found " + std::to_string(v),
               "", 0};
}

// A field of a struct and its accepted range, for checking a struct as a table of fields.
struct Field {
  std::string_view name;
  double value, lo, hi;
};
struct IntField {
  std::string_view name;
  int64_t value, lo, hi;
};

// A field on the limits table (topoplan/runtime/limits.h) and its value: refused in the table's
// words, the ones the scenario reader uses for the same field.
struct Limited {
  const LimitSpec* spec;
  double value;
};
inline std::optional<Error> first_outside(std::string_view where, std::span<const Limited> fields) {
  for (const Limited& f : fields)
    if (auto e = check_limit(*f.spec, f.value, where)) return e;
  return std::nullopt;
}

// The Error of the first field outside its range, in table order; nullopt when all hold.
template <typename F>
std::optional<Error> first_out_of_range(std::string_view where, std::span<const F> fields) {
  for (const F& f : fields)
    if (auto e = range(where, f.name, f.value, f.lo, f.hi)) return e;
  return std::nullopt;
}
inline std::optional<Error> first_out_of_range(std::string_view where,
                                               std::span<const Field> fields) {
  return first_out_of_range<Field>(where, fields);
}
inline std::optional<Error> first_out_of_range(std::string_view where,
                                               std::span<const IntField> fields) {
  return first_out_of_range<IntField>(where, fields);
}

}  // namespace topoplan::def_check
