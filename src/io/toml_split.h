// Splitting a TOML document at its top-level table headers (not installed), so that a large
// native domain file is parsed a piece at a time instead of as one toml++ tree (about 14 times
// the file's size). Used by the native reader (native.cpp); tests and fuzz harnesses reach the
// splitter and the chunked reader directly through this header.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/io/formats.h"

namespace topoplan::io_detail {

// One top-level table of the document and what follows it up to the next top-level header:
// `[name]` or `[[name]]` with a single bare key, plus any sub-table headers (`[name.x]`,
// `[[name.x]]`) of that same key, which belong to it.
struct TomlSection {
  std::string key;     // the header's key, e.g. "action"
  bool array = false;  // [[key]] (true) or [key]
  size_t begin = 0;    // byte offset of the header's line
  size_t end = 0;      // byte offset of the next section's line, or the text's size
  int line = 0;        // 1-based line of the header
};

// The sections of `text`, in order, after a first section with key "" that holds whatever
// precedes the first header (comments, a byte-order mark, root keys). The lexer follows TOML's
// strings (basic, literal, both multi-line), comments and nesting of arrays and inline tables,
// so a '[' inside a string or an array never starts a section. nullopt when the document has a
// header this splitter does not model (a quoted or non-bare key, or a sub-table of a key other
// than the current section's): the caller then parses the document whole.
std::optional<std::vector<TomlSection>> split_toml_sections(std::string_view text);

// parse_native with an explicit chunk size: consecutive sections of one kind are parsed together
// up to about `chunk_bytes` bytes (1 = every section alone); 0 parses the whole file as one
// document (the reader before streaming, kept as the fallback and as a differential oracle).
// `whole` (when given) tells whether the text was read as one document after all.
Result<Task> parse_native_chunked(std::string_view text, const std::string& filename,
                                  size_t chunk_bytes, bool* whole = nullptr);

// The chunk size parse_native uses.
inline constexpr size_t kNativeChunkBytes = size_t{1} << 20;

}  // namespace topoplan::io_detail
