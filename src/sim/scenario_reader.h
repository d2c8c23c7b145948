// The reader of simulation scenario files (not installed): shared by scenario_toml.cpp (the
// common table, the arena, the hospital, the entry points) and scenario_house.cpp (the house
// and its generated UDGOAP world). Errors are "file:line: message" (docs/sim.md).
#pragma once

#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "io/toml_reader.h"
#include "topoplan/runtime/limits.h"
#include "topoplan/sim/scenario.h"

namespace topoplan::sim::scenario_detail {

using toml_detail::Empty;
using toml_detail::line_of;

class Reader : toml_detail::TomlReader {
 public:
  Reader(std::string file, std::string dir)
      : TomlReader(std::move(file), toml_detail::quote_verbatim), dir_(std::move(dir)) {}
  Result<SimScenario> read(std::string_view text);

 private:
  // A sub-table (optional): nullptr when absent; error when not a table.
  const toml::table* table(const toml::table& t, std::string_view key, bool& ok) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return nullptr;
    if (!n->is_table()) {
      ok = fail(line_of(*n), quote(key) + " must be a table, found " + toml_detail::type_name(*n));
      return nullptr;
    }
    return n->as_table();
  }
  int line(const toml::table& t, std::string_view key) {
    const toml::node* n = t.get(key);
    return n != nullptr ? line_of(*n) : line_of(t);
  }
  // A number in [lo, hi] (when present).
  bool num(const toml::table& t, std::string_view key, const std::string& where, double lo,
           double hi, double& out) {
    double v = out;
    if (!get_number(t, key, where, true, v)) return false;
    if (v < lo || v > hi) {
      return fail(line(t, key), quote(key) + " of " + where + " must be in [" + fmt(lo) + ", " +
                                    fmt(hi) + "], found " + fmt(v));
    }
    out = v;
    return true;
  }
  // A value of the limits table (when present), refused in the table's words: "file:line: 'range'
  // of wizard.melee: 'melee_range' (metres of melee reach) must be a number in [0, 1000], found
  // 2000" — what check() of the config says after "ArenaConfig: ".
  bool limit(int at, std::string_view key, const std::string& where, const LimitSpec& spec,
             double v) {
    if (auto e = check_limit(spec, v, quote(key) + " of " + where)) return fail(at, e->message);
    return true;
  }
  bool num(const toml::table& t, std::string_view key, const std::string& where,
           const LimitSpec& spec, double& out) {
    double v = out;
    if (!get_number(t, key, where, true, v) || !limit(line(t, key), key, where, spec, v))
      return false;
    out = v;
    return true;
  }
  template <typename Int>
  bool integer(const toml::table& t, std::string_view key, const std::string& where,
               const LimitSpec& spec, Int& out) {
    double v = static_cast<double>(out);
    if (!get_number(t, key, where, true, v) || !limit(line(t, key), key, where, spec, v))
      return false;
    out = static_cast<Int>(v);
    return true;
  }
  bool integer(const toml::table& t, std::string_view key, const std::string& where, int32_t lo,
               int32_t hi, int32_t& out) {
    double v = out;
    if (!num(t, key, where, lo, hi, v)) return false;
    if (v != std::floor(v))
      return fail(line(t, key), quote(key) + " of " + where + " must be an integer");
    out = static_cast<int32_t>(v);
    return true;
  }
  // [lo, hi] pair of numbers, each on its entry of the limits table, lo <= hi.
  bool range(const toml::table& t, std::string_view key, const std::string& where,
             const LimitSpec& lo_spec, const LimitSpec& hi_spec, double& lo, double& hi) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    const toml::array* a = n->as_array();
    if (a == nullptr || a->size() != 2 || !(*a)[0].is_number() || !(*a)[1].is_number()) {
      return fail(line_of(*n), quote(key) + " of " + where + " must be [low, high]");
    }
    const double x = (*a)[0].value<double>().value_or(0.0);
    const double y = (*a)[1].value<double>().value_or(0.0);
    if (!limit(line_of(*n), key, where, lo_spec, x) || !limit(line_of(*n), key, where, hi_spec, y))
      return false;
    if (!(x <= y)) {
      return fail(line_of(*n), quote(key) + " of " + where + " must be [low, high] with low <= " +
                                   "high, found [" + fmt(x) + ", " + fmt(y) + "]");
    }
    lo = x;
    hi = y;
    return true;
  }
  bool point(const toml::table& t, std::string_view key, const std::string& where, Vec2& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    const toml::array* a = n->as_array();
    if (a == nullptr || a->size() != 2 || !(*a)[0].is_number() || !(*a)[1].is_number()) {
      return fail(line_of(*n), quote(key) + " of " + where + " must be [x, y]");
    }
    out = {(*a)[0].value<double>().value_or(0.0), (*a)[1].value<double>().value_or(0.0)};
    return true;
  }
  // One numeric field of a table: its row of the limits table, whose `file` ("table.key") names
  // its key, and where the value goes.
  struct Field {
    const LimitSpec& spec;
    std::variant<double*, int32_t*, int64_t*> out;
  };
  // The FIELDS present in T, in order; the first one outside its limits fails.
  bool fields(const toml::table& t, const std::string& where, std::initializer_list<Field> fs) {
    for (const Field& f : fs) {
      const std::string_view key = f.spec.file.substr(f.spec.file.rfind('.') + 1);
      const bool read = std::visit(
          [&](auto* out) {
            if constexpr (std::is_same_v<decltype(out), double*>)
              return num(t, key, where, f.spec, *out);
            else
              return integer(t, key, where, f.spec, *out);
          },
          f.out);
      if (!read) return false;
    }
    return true;
  }
  // Sub-table KEY of T (optional), its keys checked against ALLOWED and its FIELDS read: the
  // sub-table, or nullptr when absent or refused (then `ok` is false).
  const toml::table* section(const toml::table& t, std::string_view key, const std::string& where,
                             std::initializer_list<std::string_view> allowed,
                             std::initializer_list<Field> fs, bool& ok) {
    const toml::table* s = table(t, key, ok);
    if (s != nullptr && !(check_keys(*s, allowed, where) && fields(*s, where, fs))) {
      ok = false;
      return nullptr;
    }
    return s;
  }
  static std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }

  bool read_common(const toml::table& root, SimScenario& s, LoopConfig& loop, double& dt,
                   double& max_seconds);
  bool read_spots(const toml::table& root, std::vector<NamedSpot>& spots, double w, double h);
  bool read_arena(const toml::table& root, ArenaConfig& c);
  bool read_arena_spawning(const toml::table& root, ArenaConfig& c);
  bool read_wizard(const toml::table& root, ArenaConfig& c);
  bool read_antlion(const toml::table& root, ArenaConfig& c);
  bool read_arena_goap(const toml::table& root, ArenaConfig& c);
  bool read_arena_udgoap(const toml::table& root, ArenaConfig& c);
  bool read_house(const toml::table& root, HouseConfig& c);
  bool read_house_table(const toml::table& root, HouseConfig& c, std::string& start,
                        int& start_line);
  bool read_drives(const toml::table& root, HouseConfig& c);
  bool read_activity(const toml::table& t, const HouseConfig& c, HouseActivity& a);
  bool read_hospital(const toml::table& root, HospitalConfig& c);
  bool read_crowd(const toml::table& root, HospitalConfig& c);
  bool house_udgoap(HouseConfig& c, int line);

  std::string dir_;
};

}  // namespace topoplan::sim::scenario_detail
