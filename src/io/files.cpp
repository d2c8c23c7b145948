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
  auto fail = [&](const std::string& what) {
    return Error{"cannot write the file: " + what, path, 0};
  };
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
  auto write_all = [&](int fd) -> std::optional<std::string> {
    size_t done = 0;
    while (done < content.size()) {
      const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        return std::string(std::strerror(errno));
      }
      done += static_cast<size_t>(n);
    }
    return std::nullopt;
  };

  if (exists && !S_ISREG(target.st_mode)) {  // a device, a pipe, a terminal: write in place
    Fd f;
    f.fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    if (f.fd < 0) return fail(std::strerror(errno));
    if (auto err = write_all(f.fd)) return fail(*err);
    const int fd = f.fd;
    f.fd = -1;
    if (::close(fd) != 0) return fail(std::strerror(errno));
    return std::nullopt;
  }

  // The temporary file lives in the target's directory (rename is atomic within a file system).
  // A symbolic link is followed: the file it points to is replaced, the link stays.
  std::string real = path;
  if (exists) {
    if (char* r = ::realpath(path.c_str(), nullptr)) {
      real = r;
      std::free(r);
    }
  }
  std::string tmp = real + ".tmp-XXXXXX";
  Fd f;
  f.fd = ::mkstemp(tmp.data());
  if (f.fd < 0) return fail(std::string("cannot create a temporary file: ") + std::strerror(errno));
  auto abandon = [&](const std::string& why) {
    ::unlink(tmp.c_str());
    return fail(why);
  };
  // mkstemp makes the file 0600: give it the old file's mode, or what a new file would get.
  mode_t mode = 0;
  if (exists) {
    mode = target.st_mode & 07777;
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  (void)::fchmod(f.fd, mode);
  if (auto err = write_all(f.fd)) return abandon(*err);
  if (::fsync(f.fd) != 0 && errno != EINVAL && errno != EROFS) return abandon(std::strerror(errno));
  const int fd = f.fd;
  f.fd = -1;
  if (::close(fd) != 0) return abandon(std::strerror(errno));
  if (::rename(tmp.c_str(), real.c_str()) != 0) return abandon(std::strerror(errno));
  return std::nullopt;
}

}  // namespace topoplan
