#include "files.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "numeric_option.h"

namespace topoplan::cli {
namespace {

int64_t g_max_input_mib = kDefaultMaxInputBytes >> 20;

}  // namespace

void add_input_limit_option(CLI::App& app) {
  app.fallthrough();
  add_number(app, "--max-input-mib", g_max_input_mib, int64_t{1}, int64_t{1} << 16,
             "largest input file read, in MiB")
      ->capture_default_str();
}

ReadLimits input_limits() {
  ReadLimits limits;
  limits.max_bytes = g_max_input_mib << 20;
  return limits;
}

bool write_output(const char* command, const std::string& path, std::string_view text,
                  std::span<const std::string> inputs) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return flush_stdout();
  }
  if (std::optional<Error> err = write_output_file(path, text, inputs)) {
    std::fprintf(stderr, "topoplan %s: %s\n", command, err->to_string().c_str());
    return false;
  }
  return true;
}

bool flush_stdout() {
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) {
    std::fprintf(stderr, "topoplan: cannot write to standard output: %s\n",
                 errno != 0 ? std::strerror(errno) : "write error");
    return false;
  }
  return true;
}

std::string counted(long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace topoplan::cli
