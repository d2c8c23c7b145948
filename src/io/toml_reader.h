// Internal base of the TOML readers (native domains, UDGOAP and ambiance scenarios; not
// installed). It holds the file name and the first error, and the getters every reader needs, so
// that all of them word their errors alike: "file:line: 'key' of <where> must be ..., found ...".
// Lines point at the offending key or value; for a missing key, at the header of its table.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "topoplan/runtime/result.h"

namespace topoplan::toml_detail {

int line_of(const toml::source_region& r);
int line_of(const toml::node& n);

// "a table", "an integer", ... for "found ..." in messages.
std::string type_name(const toml::node& n);

// "'s'", verbatim (the UDGOAP readers' quoting; topoplan::io shortens and escapes instead).
std::string quote_verbatim(std::string_view s);

// Reads a whole file of at most max_size bytes (read_input_file of topoplan/io/formats.h).
Result<std::string> read_text_file(const std::string& path, std::uintmax_t max_size);

// The file at `path` (at most `max_size` bytes) as `parse(text, path)` reads it, or why it could
// not be read.
template <class T>
Result<T> load_text_file(const std::string& path, std::uintmax_t max_size,
                         Result<T> (*parse)(std::string_view, const std::string&)) {
  auto text = read_text_file(path, max_size);
  if (!text) return text.error();
  return parse(text.value(), path);
}

enum class Empty { kAllow, kReject };

class TomlReader {
 public:
  using QuoteFn = std::string (*)(std::string_view);

 protected:
  TomlReader(std::string file, QuoteFn quote_fn) : file_(std::move(file)), quote_(quote_fn) {}

  // Records the first error only; always returns false.
  bool fail(int line, std::string message);
  bool fail_missing(int line, const std::string& where, std::string_view key);

  // Parses `text` into `root`; false (error recorded) on a syntax error.
  bool parse(std::string_view text, toml::table& root);

  // Unknown keys are errors: "unknown key 'x' in <where> (allowed: a, b)".
  bool check_keys(const toml::table& t, std::initializer_list<std::string_view> allowed,
                  const std::string& where);

  // The tables of `key` (written [[key]]); absent: none.
  bool array_of_tables(const toml::table& t, std::string_view key,
                       std::vector<const toml::table*>& out);

  // Optional getters leave `out` untouched when the key is absent. `line` (when given) gets the
  // line of the value, or of the table when the key is absent.
  bool get_string(const toml::table& t, std::string_view key, const std::string& where,
                  bool required, Empty empty, std::string& out, int* line = nullptr);
  // Integers or floats; inf and nan are refused unless `finite` is false.
  bool get_number(const toml::table& t, std::string_view key, const std::string& where, bool finite,
                  double& out);
  bool get_bool(const toml::table& t, std::string_view key, const std::string& where, bool& out);
  // An array of strings; `lines` (when given) gets the line of each element.
  bool get_strings(const toml::table& t, std::string_view key, const std::string& where,
                   Empty empty, std::vector<std::string>& out, std::vector<int>* lines = nullptr);

  std::string quote(std::string_view s) const { return quote_(s); }

  // Lines in the file of a node of the document being read: a reader that parses the file a
  // piece at a time sets line_offset_ to the number of lines before the piece.
  int line_of(const toml::source_region& r) const { return toml_detail::line_of(r) + line_offset_; }
  int line_of(const toml::node& n) const { return line_of(n.source()); }

  std::string file_;
  Error err_;
  int line_offset_ = 0;

 private:
  QuoteFn quote_;
};

}  // namespace topoplan::toml_detail
