// Replays streamed to a file (replay_file.h).
#include "replay_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include "topoplan/io/formats.h"

namespace topoplan::cli {
namespace {

using namespace topoplan::sim;

// A replay written as the simulation produces it (ReplayWriter's sink), never held whole. The
// output goes through OutputFile (checked against the inputs, renamed into place at the end).
// With `header_last` (the arena's header lists the antlions, known once the episode is over) the
// lines go first to an unlinked temporary file beside the output, then after the header.
class StreamedReplay {
 public:
  bool open(const std::string& path, bool header_last, std::span<const std::string> inputs) {
    if (auto e = out_.open(path, inputs)) return report(*e);
    if (header_last) {
      const auto slash = path.rfind('/');
      std::string tmp = (slash == std::string::npos ? std::string(".") : path.substr(0, slash)) +
                        "/.topoplan-replay-XXXXXX";
      const int fd = ::mkstemp(tmp.data());
      if (fd >= 0) {
        ::unlink(tmp.c_str());
        if ((body_ = ::fdopen(fd, "w+")) == nullptr) ::close(fd);
      }
      // No room beside it (a device such as /dev/null, a read-only folder): the system's.
      if (body_ == nullptr) body_ = std::tmpfile();
      if (body_ == nullptr)
        return report(
            Error{std::string("cannot create a temporary file: ") + std::strerror(errno), path, 0});
    }
    writer_ = ReplayWriter(&buffer_, 1);
    return true;
  }
  // The writer for the simulation (one tick in `every`), streaming into the output.
  ReplayWriter* writer(int32_t every) {
    writer_ = ReplayWriter(&buffer_, every);
    writer_.set_sink([this](std::string_view lines) { put(lines); });
    return &writer_;
  }
  std::string& buffer() { return buffer_; }
  // `header` first (header_last: now), then every line, then commit.
  bool finish(const std::string& header) {
    put(buffer_);
    buffer_.clear();
    if (body_ != nullptr) {
      if (!error_ && (std::fflush(body_) != 0 || std::fseek(body_, 0, SEEK_SET) != 0))
        error_ =
            Error{std::string("cannot write a temporary file: ") + std::strerror(errno), "", 0};
      if (!error_) {
        if (auto e = out_.write(header)) error_ = e;
      }
      std::vector<char> chunk(size_t{1} << 20);
      while (!error_) {
        const size_t n = std::fread(chunk.data(), 1, chunk.size(), body_);
        if (n > 0) {
          if (auto e = out_.write(std::string_view(chunk.data(), n))) error_ = e;
        }
        if (n < chunk.size()) break;
      }
      std::fclose(body_);
      body_ = nullptr;
    }
    if (!error_) {
      if (auto e = out_.commit()) error_ = e;
    }
    return error_ ? report(*error_) : true;
  }
  // For a header known up front (before any line).
  bool begin(const std::string& header) {
    if (auto e = out_.write(header)) error_ = e;
    return !error_ || report(*error_);
  }
  ~StreamedReplay() {
    if (body_ != nullptr) std::fclose(body_);
  }

 private:
  void put(std::string_view lines) {
    if (error_ || lines.empty()) return;
    if (body_ != nullptr) {
      if (std::fwrite(lines.data(), 1, lines.size(), body_) != lines.size())
        error_ =
            Error{std::string("cannot write a temporary file: ") + std::strerror(errno), "", 0};
    } else if (auto e = out_.write(lines)) {
      error_ = e;
    }
  }
  static bool report(const Error& e) {
    std::fprintf(stderr, "topoplan sim: %s\n", e.to_string().c_str());
    return false;
  }
  OutputFile out_;
  std::FILE* body_ = nullptr;
  std::string buffer_;
  ReplayWriter writer_{nullptr};
  std::optional<Error> error_;
};

}  // namespace

std::optional<EpisodeRun> run_recorded(const SimScenario& sc, const EpisodeOptions& eo,
                                       LoopObserver* observer, const std::string& path,
                                       int32_t every, std::span<const std::string> inputs) {
  if (path.empty()) return run_episode(sc, eo, nullptr, observer);
  StreamedReplay replay;
  const bool header_last = replay_header_needs_run(sc);
  if (!replay.open(path, header_last, inputs)) return std::nullopt;
  if (!header_last && !replay.begin(replay_header(sc, eo, nullptr))) return std::nullopt;
  EpisodeRun run = run_episode(sc, eo, replay.writer(every), observer);
  replay.buffer() += run.end;
  if (!replay.finish(header_last ? replay_header(sc, eo, &run) : "")) return std::nullopt;
  return run;
}

}  // namespace topoplan::cli
