// load_task: reads a file and picks the reader (by extension, else by content).
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "text.h"
#include "topoplan/io.h"

namespace topoplan {
namespace {

// Larger inputs are refused before reading: no planning domain needs a gigabyte of text.
constexpr std::uintmax_t kMaxFileSize = std::uintmax_t{1} << 30;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Fast Downward files start with "begin_version" (after blank lines).
bool looks_like_fd(std::string_view text) {
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
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    return Error{"cannot open the file: " + (ec ? ec.message() : std::string("no such file")), path,
                 0};
  if (std::filesystem::is_directory(status)) return Error{"is a directory, not a file", path, 0};
  if (std::filesystem::is_regular_file(status)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > kMaxFileSize)
      return Error{"the file is too large (" + std::to_string(size) + " bytes, limit 1 GiB)", path,
                   0};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{std::string("cannot open the file: ") + std::strerror(errno), path, 0};
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > kMaxFileSize) return Error{"the file is too large (limit 1 GiB)", path, 0};
  }
  if (in.bad()) return Error{"read error", path, 0};

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
