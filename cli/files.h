// Files of the command line: the input cap every reader gets (--max-input-mib, an option of
// the tool that every subcommand accepts) and outputs written safely (topoplan::write_output_file:
// temporary file + rename, never over an input; a failed write is exit 33 with the reason).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "topoplan/io/formats.h"

namespace topoplan::cli {

// Adds --max-input-mib to the tool (subcommands fall through to it).
void add_input_limit_option(CLI::App& app);
// The limits every reader of the tool uses.
ReadLimits input_limits();

// Writes `text` to `path` ("" or "-": standard output). Prints "command: path: cannot write the
// file: reason" and returns false on failure.
bool write_output(const char* command, const std::string& path, std::string_view text,
                  std::span<const std::string> inputs);

// Flushes standard output; false (after a message) when it could not be written (/dev/full).
bool flush_stdout();

// "1 NPC class", "3 NPC classes".
std::string counted(long long n, const char* one, const char* many);

}  // namespace topoplan::cli
