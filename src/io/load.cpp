// load_task: reads a file and picks the reader (by extension, else by content).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "text.h"
#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Fast Downward files start with "begin_version" (after blank lines).
bool looks_like_fd(std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // byte-order mark
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = io_detail::trim(text.substr(pos, end - pos));
    if (!line.empty() && line.back() == '\r')
      line = io_detail::trim(line.substr(0, line.size() - 1));
    if (!line.empty()) return line == "begin_version";
    pos = end + 1;
  }
  return false;
}

}  // namespace

Result<Task> load_task(const std::string& path, FileFormat format) {
  return load_task(path, format, ReadLimits{});
}

Result<Task> load_task(const std::string& path, FileFormat format, const ReadLimits& limits) {
  Result<std::string> read = read_input_file(path, limits);
  if (!read) return read.error();
  const std::string text = std::move(read).value();
  if (format == FileFormat::kAuto) {
    if (ends_with(path, ".sas"))
      format = FileFormat::kFastDownward;
    else if (ends_with(path, ".toml"))
      format = FileFormat::kNative;
    else
      format = looks_like_fd(text) ? FileFormat::kFastDownward : FileFormat::kNative;
  }
  return format == FileFormat::kFastDownward ? parse_fd_sas(text, path) : parse_native(text, path);
}

}  // namespace topoplan

namespace topoplan {

Result<std::vector<ActionId>> load_plan(const Domain& domain, const std::string& path,
                                        const ReadLimits& limits) {
  Result<std::string> text = read_input_file(path, limits);
  if (!text) return text.error();
  return parse_plan(domain, text.value(), path);
}

}  // namespace topoplan
