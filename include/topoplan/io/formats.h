// topoplan — files: the native domain format (TOML), Fast Downward's SAS format (version 3),
// plan files. Build-time tooling (library topoplan::io); a game ships compiled domains.
//
// Every reader reports bad input as an Error with file and line ("file:line: message"); no
// reader crashes, hangs, or allocates in proportion to a count the file merely claims.
// docs/formats.md is the reference of both formats.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

enum class FileFormat : uint8_t {
  kAuto,         // by extension (.sas → Fast Downward, .toml → native), else by content
  kNative,       // topoplan's TOML domain format
  kFastDownward  // Fast Downward SAS, version 3
};

// Reads a task file (domain + the instances it carries). `path` appears in error messages.
// Files from Fast Downward give one instance with npc_class = kAllActions; mutex groups are
// checked and dropped; conditional effects, derived variables and axioms are errors.
[[nodiscard]] Result<Task> load_task(const std::string& path,
                                     FileFormat format = FileFormat::kAuto);

// Parses text already in memory; `filename` is only used in error messages.
[[nodiscard]] Result<Task> parse_native(std::string_view text, const std::string& filename);
[[nodiscard]] Result<Task> parse_fd_sas(std::string_view text, const std::string& filename);

// Writers. The native writer keeps everything (classes, every instance, costs). The Fast
// Downward writer writes one instance (FD tasks carry exactly one) with the domain's actions;
// NPC classes have no FD equivalent: pass the instance's class to write only its actions.
[[nodiscard]] std::string write_native(const Task& task);
[[nodiscard]] std::string write_fd_sas(const Domain& domain, const Instance& instance);

// Parses "var=value,var=value" (names; spaces around tokens allowed) into a partial state of
// the domain's size (kUndefined where not given). Used for --init / --goal. Errors (no file or
// line) name the unknown variable or value; a variable given twice is an error.
[[nodiscard]] Result<std::vector<ValueId>> parse_state_by_names(const Domain& domain,
                                                                std::string_view text);

// Plan files in Fast Downward's form: one "(action name)" per line, ';' comment lines, blank
// lines ignored, LF or CRLF. Names match exactly; failing that, a case-insensitive match is taken
// when it is unique. write_plan ends with "; cost = N (unit cost)" or "(general cost)".
[[nodiscard]] Result<std::vector<ActionId>> parse_plan(const Domain& domain, std::string_view text,
                                                       const std::string& filename);
[[nodiscard]] std::string write_plan(const Domain& domain, std::span<const ActionId> plan);

// ---------------------------------------------------------------------------------------------
// Reading and writing files.

// Every reader (tasks, plans, scenarios, ambiances) reads at most this many bytes by default:
// 64 MiB, about 20 times the largest shipped domain (the CLI's --max-input-mib raises it).
inline constexpr int64_t kDefaultMaxInputBytes = int64_t{64} << 20;

struct ReadLimits {
  int64_t max_bytes = kDefaultMaxInputBytes;  // larger files are refused, before reading if sized
  double idle_seconds = 5;  // pipes and devices: give up when no data comes for this long
};

// Reads a whole file. Regular files over the cap are refused before reading; pipes, character
// devices and sockets are read through the same cap (a named pipe without a writer times out
// instead of hanging); directories and block devices are refused. Errors carry the path and
// the reason (strerror).
[[nodiscard]] Result<std::string> read_input_file(const std::string& path,
                                                  const ReadLimits& limits = {});
// The same readers as above with a cap: load_task reads through read_input_file.
[[nodiscard]] Result<Task> load_task(const std::string& path, FileFormat format,
                                     const ReadLimits& limits);
[[nodiscard]] Result<std::vector<ActionId>> load_plan(const Domain& domain, const std::string& path,
                                                      const ReadLimits& limits = {});

// Writes `content` to `path` through a temporary file in the same directory that is flushed and
// renamed over it: a failed write (full disk, no permission) returns the reason and leaves an
// existing file untouched. Non-regular targets (/dev/null, /dev/full, a terminal, a pipe) are
// written in place, every write checked. Refuses to write over any of `inputs` (same file,
// whatever the path that names it).
[[nodiscard]] std::optional<Error> write_output_file(const std::string& path,
                                                     std::string_view content,
                                                     std::span<const std::string> inputs = {});

// write_output_file in pieces, for outputs written as they are produced (replays): open() checks
// `path` against `inputs` and starts the temporary file, write() appends, commit() flushes and
// renames it over `path`. An OutputFile destroyed (or failed) before commit() leaves the target
// untouched and removes its temporary file.
class OutputFile {
 public:
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();
  [[nodiscard]] std::optional<Error> open(const std::string& path,
                                          std::span<const std::string> inputs = {});
  [[nodiscard]] std::optional<Error> write(std::string_view content);
  [[nodiscard]] std::optional<Error> commit();
  [[nodiscard]] bool is_open() const { return fd_ >= 0; }

 private:
  std::optional<Error> fail(const std::string& what);
  void abandon();
  std::string path_;  // as given (messages)
  std::string real_;  // the file renamed over (symbolic links followed)
  std::string tmp_;   // the temporary file; empty when writing in place
  int fd_ = -1;
};

}  // namespace topoplan
