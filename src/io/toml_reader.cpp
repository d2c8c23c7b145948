#include "toml_reader.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "topoplan/io/formats.h"

namespace topoplan::toml_detail {

int line_of(const toml::source_region& r) {
  return static_cast<int>(r.begin.line);
}

int line_of(const toml::node& n) {
  return line_of(n.source());
}

std::string type_name(const toml::node& n) {
  // By toml::node_type, in its order (none first).
  static constexpr std::array<std::string_view, 10> kNames = {
      "nothing", "a table",   "an array", "a string", "an integer",
      "a float", "a boolean", "a date",   "a time",   "a date-time"};
  static_assert(static_cast<size_t>(toml::node_type::date_time) + 1 == kNames.size());
  const auto i = static_cast<size_t>(n.type());
  return std::string(i < kNames.size() ? kNames[i] : kNames[0]);
}

std::string quote_verbatim(std::string_view s) {
  return "'" + std::string(s) + "'";
}

Result<std::string> read_text_file(const std::string& path, std::uintmax_t max_size) {
  ReadLimits limits;
  limits.max_bytes = static_cast<int64_t>(std::min<std::uintmax_t>(max_size, INT64_MAX));
  return read_input_file(path, limits);
}

bool TomlReader::fail(int line, std::string message) {
  if (err_.message.empty()) err_ = Error{std::move(message), file_, line};
  return false;
}

bool TomlReader::fail_missing(int line, const std::string& where, std::string_view key) {
  return fail(line, where + " is missing the key " + quote(key));
}

bool TomlReader::parse(std::string_view text, toml::table& root) {
  try {
    root = toml::parse(text, file_);
  } catch (const toml::parse_error& e) {
    return fail(line_of(e.source()), std::string(e.description()));
  } catch (const std::exception& e) {
    return fail(0, std::string("cannot parse the file: ") + e.what());
  }
  return true;
}

bool TomlReader::check_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                            const std::string& where) {
  for (auto&& [key, node] : t) {
    (void)node;
    if (std::find(allowed.begin(), allowed.end(), key.str()) != allowed.end()) continue;
    std::string list;
    for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return fail(line_of(key.source()),
                "unknown key " + quote(key.str()) + " in " + where + " (allowed: " + list + ")");
  }
  return true;
}

bool TomlReader::array_of_tables(const toml::table& t, std::string_view key,
                                 std::vector<const toml::table*>& out) {
  const toml::node* n = t.get(key);
  if (!n) return true;
  const toml::array* arr = n->as_array();
  if (!arr)
    return fail(line_of(*n), quote(key) + " must be an array of tables (write [[" +
                                 std::string(key) + "]]), found " + type_name(*n));
  for (const toml::node& el : *arr) {
    if (!el.is_table())
      return fail(line_of(el),
                  "every element of " + quote(key) + " must be a table, found " + type_name(el));
    out.push_back(el.as_table());
  }
  return true;
}

bool TomlReader::get_string(const toml::table& t, std::string_view key, const std::string& where,
                            bool required, Empty empty, std::string& out, int* line) {
  const toml::node* n = t.get(key);
  if (line) *line = line_of(n ? *n : t);
  if (!n) return !required || fail_missing(line_of(t), where, key);
  if (!n->is_string())
    return fail(line_of(*n),
                quote(key) + " of " + where + " must be a string, found " + type_name(*n));
  if (empty == Empty::kReject && n->as_string()->get().empty())
    return fail(line_of(*n), quote(key) + " of " + where + " must not be empty");
  out = n->as_string()->get();
  return true;
}

bool TomlReader::get_number(const toml::table& t, std::string_view key, const std::string& where,
                            bool finite, double& out) {
  const toml::node* n = t.get(key);
  if (!n) return true;
  const auto v = n->value<double>();
  if (!v || !(n->is_integer() || n->is_floating_point()))
    return fail(line_of(*n),
                quote(key) + " of " + where + " must be a number, found " + type_name(*n));
  if (finite && !std::isfinite(*v))
    return fail(line_of(*n), quote(key) + " of " + where + " must be finite");
  out = *v;
  return true;
}

bool TomlReader::get_bool(const toml::table& t, std::string_view key, const std::string& where,
                          bool& out) {
  const toml::node* n = t.get(key);
  if (!n) return true;
  if (!n->is_boolean())
    return fail(line_of(*n),
                quote(key) + " of " + where + " must be true or false, found " + type_name(*n));
  out = n->as_boolean()->get();
  return true;
}

bool TomlReader::get_strings(const toml::table& t, std::string_view key, const std::string& where,
                             Empty empty, std::vector<std::string>& out, std::vector<int>* lines) {
  const toml::node* n = t.get(key);
  if (!n) return true;
  const toml::array* arr = n->as_array();
  if (!arr)
    return fail(line_of(*n), quote(key) + " of " + where + " must be an array of strings, found " +
                                 type_name(*n));
  for (const toml::node& el : *arr) {
    if (!el.is_string())
      return fail(line_of(el),
                  quote(key) + " of " + where + " must hold strings, found " + type_name(el));
    if (empty == Empty::kReject && el.as_string()->get().empty())
      return fail(line_of(el), quote(key) + " of " + where + " must hold non-empty strings");
    out.push_back(el.as_string()->get());
    if (lines) lines->push_back(line_of(el));
  }
  return true;
}

}  // namespace topoplan::toml_detail
