// Internal helpers shared by the file readers and writers of topoplan::io (not installed).
//
// Name rules for files (both formats, plans and --init/--goal): a name is non-empty valid UTF-8
// without control characters and without leading or trailing white space. Domain::compile only
// asks for non-empty, distinct names; the stricter file rules keep every name writable as one
// line of a Fast Downward file and one "(name)" of a plan.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topoplan::io_detail {

inline bool is_blank_char(char c) {
  return c == ' ' || c == '\t';
}

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank_char(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank_char(s.back())) s.remove_suffix(1);
  return s;
}

// True when `s` is well-formed UTF-8 (no overlong forms, no surrogates, at most U+10FFFF).
inline bool valid_utf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      n = 1;
      cp = c & 0x1Fu;
    } else if ((c & 0xF0) == 0xE0) {
      n = 2;
      cp = c & 0x0Fu;
    } else if ((c & 0xF8) == 0xF0) {
      n = 3;
      cp = c & 0x07u;
    } else {
      return false;
    }
    if (s.size() - i <= n) return false;
    for (size_t k = 1; k <= n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3Fu);
    }
    if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n + 1;
  }
  return true;
}

inline bool is_control(unsigned char c) {
  return c < 0x20 || c == 0x7F;
}

// The lines of a text, numbered from 1, each without its '\n' nor the '\r' of a CRLF ending.
class Lines {
 public:
  explicit Lines(std::string_view text) : text_(text) {}
  // The next line into `line`; false at the end of the text.
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++number_;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return true;
  }
  // The number of the line `next` gave last (0 before the first).
  [[nodiscard]] int number() const { return number_; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int number_ = 0;
};

// The first control character of `line` other than a tab, or nullptr when it has none.
inline const char* first_control(std::string_view line) {
  for (const char& c : line)
    if (is_control(static_cast<unsigned char>(c)) && c != '\t') return &c;
  return nullptr;
}

// Checks the file name rules; returns why a name is not acceptable, or nullopt.
inline std::optional<std::string> name_problem(std::string_view name) {
  if (name.empty()) return "is empty";
  for (char c : name)
    if (is_control(static_cast<unsigned char>(c))) return "contains a control character";
  if (is_blank_char(name.front()) || is_blank_char(name.back()))
    return "has leading or trailing white space";
  if (!valid_utf8(name)) return "is not valid UTF-8";
  return std::nullopt;
}

// "'name'", shortened and made printable for messages about arbitrary input.
inline std::string quote(std::string_view s) {
  constexpr size_t kMax = 60;
  std::string out = "'";
  for (size_t i = 0; i < s.size() && i < kMax; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (is_control(c)) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > kMax) out += "...";
  out += "'";
  return out;
}

// " (valid: 'a', 'b')" when the list is short, else "".
inline std::string list_if_short(const std::vector<std::string_view>& names, size_t max = 10) {
  if (names.empty() || names.size() > max) return {};
  std::string out = " (valid: ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += ", ";
    out += quote(names[i]);
  }
  return out + ")";
}

// Saturating sum for plan costs (a plan cost never wraps).
inline int64_t add_saturating(int64_t a, int64_t b) {
  if (b > 0 && a > INT64_MAX - b) return INT64_MAX;
  return a + b;
}

}  // namespace topoplan::io_detail
