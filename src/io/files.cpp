// Reading inputs under a byte cap, and writing outputs through a temporary file and a rename.
//
// Inputs: regular files are sized first (refused before reading when over the cap) and read into
// one buffer of exactly their size; pipes, character devices and sockets are read in chunks up
// to the same cap, waiting at most ReadLimits::idle_seconds for each chunk (a named pipe with
// no writer is an error, not a hang); directories and block devices are refused.
//
// Outputs: written next to the target as a temporary file, flushed to disk, then renamed over
// it, so a failed write leaves the old file as it was; targets that are not regular files
// (/dev/null, /dev/full, a terminal, a pipe) are written in place and every write is checked.
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "topoplan/io/formats.h"

namespace topoplan {
namespace {

std::string mib_text(int64_t bytes) {
  if (bytes % (int64_t{1} << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes) + " bytes";
}

std::string too_large(int64_t limit) {
  return "the file is larger than the input limit of " + mib_text(limit) +
         " (raise it with --max-input-mib)";
}

const char* kind_of(mode_t mode) {
  if (S_ISFIFO(mode)) return "a pipe";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISDIR(mode)) return "a directory";
  return "not a regular file";
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

Result<std::string> read_stream(int fd, const std::string& path, const ReadLimits& limits,
                                mode_t mode) {
  std::string text;
  char buffer[1 << 16];
  const int timeout_ms =
      limits.idle_seconds <= 0 ? -1 : static_cast<int>(limits.idle_seconds * 1000.0);
  bool any = false;
  while (true) {
    pollfd p{fd, POLLIN, 0};
    const int ready = ::poll(&p, 1, timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      return Error{std::string("cannot read: ") + std::strerror(errno), path, 0};
    }
    if (ready == 0) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%g", limits.idle_seconds);
      return Error{std::string(any ? "no more data from " : "no data from ") + kind_of(mode) +
                       " within " + seconds + " s" +
                       (S_ISFIFO(mode) && !any ? " (a named pipe with no writer?)" : ""),
                   path, 0};
    }
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return Error{std::string("cannot read: ") + std::strerror(errno), path, 0};
    }
    if (n == 0) {
      // A FIFO opened without blocking reads end-of-file while no writer has come yet: wait.
      if (S_ISFIFO(mode) && !any && (p.revents & POLLHUP) == 0) {
        ::usleep(10'000);
        continue;
      }
      return text;
    }
    any = true;
    if (static_cast<int64_t>(text.size()) + n > limits.max_bytes)
      return Error{too_large(limits.max_bytes), path, 0};
    text.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace

Result<std::string> read_input_file(const std::string& path, const ReadLimits& limits) {
  // The system sees a path only up to its first NUL: "a.toml\0junk" would open a.toml.
  if (path.find('\0') != std::string::npos)
    return Error{"the file name holds a NUL byte", path.substr(0, path.find('\0')), 0};
  Fd f;
  // Without O_NONBLOCK opening a named pipe blocks until a writer comes, possibly forever.
  f.fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (f.fd < 0) return Error{std::string("cannot open the file: ") + std::strerror(errno), path, 0};
  struct stat st {};
  if (::fstat(f.fd, &st) != 0)
    return Error{std::string("cannot open the file: ") + std::strerror(errno), path, 0};
  if (S_ISDIR(st.st_mode)) return Error{"is a directory, not a file", path, 0};
  if (S_ISBLK(st.st_mode)) return Error{"is a block device, not a file", path, 0};
  if (!S_ISREG(st.st_mode)) return read_stream(f.fd, path, limits, st.st_mode);

  const int flags = ::fcntl(f.fd, F_GETFL);
  if (flags >= 0) (void)::fcntl(f.fd, F_SETFL, flags & ~O_NONBLOCK);
  if (st.st_size > limits.max_bytes) return Error{too_large(limits.max_bytes), path, 0};
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(f.fd, text.data() + got, text.size() - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{std::string("cannot read: ") + std::strerror(errno), path, 0};
    }
    if (n == 0) break;  // shrank since fstat
    got += static_cast<size_t>(n);
  }
  text.resize(got);
  // It may have grown since fstat: what follows goes through the same cap.
  char buffer[1 << 12];
  while (true) {
    const ssize_t n = ::read(f.fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{std::string("cannot read: ") + std::strerror(errno), path, 0};
    }
    if (n == 0) break;
    if (static_cast<int64_t>(text.size()) + n > limits.max_bytes)
      return Error{too_large(limits.max_bytes), path, 0};
    text.append(buffer, static_cast<size_t>(n));
  }
  return text;
}

std::optional<Error> write_output_file(const std::string& path, std::string_view content,
                                       std::span<const std::string> inputs) {
  OutputFile out;
  if (auto err = out.open(path, inputs)) return err;
  if (auto err = out.write(content)) return err;
  return out.commit();
}

OutputFile::~OutputFile() {
  abandon();
}

void OutputFile::abandon() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
}

std::optional<Error> OutputFile::fail(const std::string& what) {
  abandon();
  return Error{"cannot write the file: " + what, path_, 0};
}

std::optional<Error> OutputFile::open(const std::string& path,
                                      std::span<const std::string> inputs) {
  abandon();
  path_ = path;
  if (path.find('\0') != std::string::npos)
    return Error{"cannot write the file: its name holds a NUL byte",
                 path.substr(0, path.find('\0')), 0};
  struct stat target {};
  const bool exists = ::stat(path.c_str(), &target) == 0;
  if (exists) {
    for (const std::string& in : inputs) {
      struct stat st {};
      if (::stat(in.c_str(), &st) == 0 && st.st_dev == target.st_dev && st.st_ino == target.st_ino)
        return Error{"refusing to write the output over the input file " + in, path, 0};
    }
    if (S_ISDIR(target.st_mode)) return fail("it is a directory");
  }
  if (exists && !S_ISREG(target.st_mode)) {  // a device, a pipe, a terminal: write in place
    fd_ = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) return fail(std::strerror(errno));
    return std::nullopt;
  }
  // The temporary file lives in the target's directory (rename is atomic within a file system).
  // A symbolic link is followed: the file it points to is replaced, the link stays.
  real_ = path;
  if (exists) {
    if (char* r = ::realpath(path.c_str(), nullptr)) {
      real_ = r;
      std::free(r);
    }
  }
  std::string tmp = real_ + ".tmp-XXXXXX";
  fd_ = ::mkstemp(tmp.data());
  if (fd_ < 0) return fail(std::string("cannot create a temporary file: ") + std::strerror(errno));
  tmp_ = tmp;
  // mkstemp makes the file 0600: give it the old file's mode, or what a new file would get.
  mode_t mode = 0;
  if (exists) {
    mode = target.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  (void)::fchmod(fd_, mode);
  return std::nullopt;
}

std::optional<Error> OutputFile::write(std::string_view content) {
  if (fd_ < 0) return Error{"cannot write the file: not open", path_, 0};
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd_, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail(std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  return std::nullopt;
}

std::optional<Error> OutputFile::commit() {
  if (fd_ < 0) return Error{"cannot write the file: not open", path_, 0};
  if (tmp_.empty()) {  // written in place
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return fail(std::strerror(errno));
    return std::nullopt;
  }
  if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) return fail(std::strerror(errno));
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return fail(std::strerror(errno));
  if (::rename(tmp_.c_str(), real_.c_str()) != 0) return fail(std::strerror(errno));
  tmp_.clear();
  return std::nullopt;
}

}  // namespace topoplan
