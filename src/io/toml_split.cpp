// Splits a TOML document at its top-level table headers (toml_split.h). A small lexer: it needs
// to know only where strings, comments, arrays and inline tables begin and end, since a header
// is a line whose first non-blank character is '[' outside all of them.
#include "toml_split.h"

namespace topoplan::io_detail {
namespace {

constexpr size_t kNone = std::string_view::npos;

bool blank(char c) {
  return c == ' ' || c == '\t';
}

bool bare_key_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

// Reads the header at text[i] == '[': `[a.b]` or `[[a.b]]` with bare keys and blanks around
// them. Returns the offset just past it, kNone for anything else (quoted keys, malformed).
size_t read_header(std::string_view text, size_t i, bool& array,
                   std::vector<std::string_view>& parts) {
  const size_t n = text.size();
  array = i + 1 < n && text[i + 1] == '[';
  size_t j = i + (array ? 2 : 1);
  parts.clear();
  for (;;) {
    while (j < n && blank(text[j])) ++j;
    const size_t start = j;
    while (j < n && bare_key_char(text[j])) ++j;
    if (j == start) return kNone;
    parts.push_back(text.substr(start, j - start));
    while (j < n && blank(text[j])) ++j;
    if (j < n && text[j] == '.') {
      ++j;
      continue;
    }
    break;
  }
  if (j >= n || text[j] != ']') return kNone;
  ++j;
  if (array) {
    if (j >= n || text[j] != ']') return kNone;
    ++j;
  }
  return j;
}

// Skips the string that starts at text[i] (a quote); counts the newlines it spans into `line`.
// An unterminated string ends at the end of its line (single-line) or of the text (multi-line):
// the parser reports it, the splitter only has to stay in step.
size_t skip_string(std::string_view text, size_t i, int& line) {
  const size_t n = text.size();
  const char q = text[i];
  const bool escapes = q == '"';
  if (text.substr(i, 3) == std::string_view(q == '"' ? "\"\"\"" : "'''")) {
    i += 3;
    while (i < n) {
      const char c = text[i];
      if (escapes && c == '\\') {
        if (i + 1 < n && text[i + 1] == '\n') ++line;
        i += 2;
        continue;
      }
      if (c == '\n') ++line;
      if (c == q && i + 2 < n && text[i + 1] == q && text[i + 2] == q) {
        i += 3;
        // Up to two more quotes belong to the content ("""a""""" ends with a"").
        for (int extra = 0; extra < 2 && i < n && text[i] == q; ++extra) ++i;
        return i;
      }
      ++i;
    }
    return n;
  }
  ++i;
  while (i < n && text[i] != q && text[i] != '\n') {
    if (escapes && text[i] == '\\' && i + 1 < n && text[i + 1] != '\n') ++i;
    ++i;
  }
  return i < n && text[i] == q ? i + 1 : i;
}

}  // namespace

std::optional<std::vector<TomlSection>> split_toml_sections(std::string_view text) {
  const size_t n = text.size();
  std::vector<TomlSection> out;
  out.push_back(TomlSection{"", false, 0, n, 1});
  size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  int line = 1;
  int depth = 0;  // open arrays and inline tables
  bool line_start = true;
  std::vector<std::string_view> parts;
  while (i < n) {
    if (line_start) {
      line_start = false;
      const size_t line_begin = i;
      while (i < n && blank(text[i])) ++i;
      if (i < n && text[i] == '[' && depth == 0) {
        bool array = false;
        const size_t after = read_header(text, i, array, parts);
        if (after == kNone) return std::nullopt;
        if (parts.size() == 1) {
          out.back().end = line_begin;
          out.push_back(TomlSection{std::string(parts[0]), array, line_begin, n, line});
        } else if (out.size() == 1 || parts[0] != out.back().key) {
          return std::nullopt;  // a sub-table of another key: not a self-contained section
        }
        i = after;
      }
      continue;
    }
    switch (text[i]) {
      case '\n':
        ++line;
        line_start = true;
        ++i;
        break;
      case '#':
        while (i < n && text[i] != '\n') ++i;
        break;
      case '"':
      case '\'':
        i = skip_string(text, i, line);
        break;
      case '[':
      case '{':
        ++depth;
        ++i;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        ++i;
        break;
      default:
        ++i;
    }
  }
  return out;
}

}  // namespace topoplan::io_detail
