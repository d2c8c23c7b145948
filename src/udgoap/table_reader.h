// The table-reading preamble of the UDGOAP readers (not installed): the scenario reader
// (scenario_reader.h) and the ambiance reader (ambiance_toml.cpp) both read names, lists of names
// and numbers from TOML tables with the verbatim quoting of toml_detail, so their errors read
// alike: "file:line: 'key' of <where> must be ..., found ...".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "io/toml_reader.h"
#include "runtime/limits/def_check.h"

namespace topoplan::udgoap::detail {

class TableReader : protected toml_detail::TomlReader {
 protected:
  explicit TableReader(std::string file)
      : TomlReader(std::move(file), toml_detail::quote_verbatim) {}

  // A non-empty string.
  bool string_of(const toml::table& t, std::string_view key, const std::string& where,
                 bool required, std::string& out) {
    return get_string(t, key, where, required, toml_detail::Empty::kReject, out);
  }

  // A non-empty list of non-empty strings, when given.
  bool strings_of(const toml::table& t, std::string_view key, const std::string& where,
                  std::vector<std::string>& out) {
    return get_strings(t, key, where, toml_detail::Empty::kReject, out);
  }

  // A number, when given: finite unless `finite` is false.
  bool number_of(const toml::table& t, std::string_view key, const std::string& where, double& out,
                 bool finite = true) {
    return get_number(t, key, where, finite, out);
  }

  // A number in [lo, hi], when given: "file:line: <where>: 'key' must be in [lo, hi], found v".
  bool number_in(const toml::table& t, std::string_view key, const std::string& where, double lo,
                 double hi, double& out) {
    if (!number_of(t, key, where, out)) return false;
    const toml::node* n = t.get(key);
    if (n == nullptr) return true;
    if (auto e = def_check::range(where, key, out, lo, hi)) return fail(line_of(*n), e->message);
    return true;
  }
};

}  // namespace topoplan::udgoap::detail
