// libFuzzer harness: the native (TOML) reader. Any bytes: an Error or a Task, never a crash,
// hang or unbounded allocation; reading in chunks (every section alone) and reading the whole
// document agree (both accept, with the same task, or both refuse); an accepted task writes back
// to text the reader accepts again and that compiles to the same domain (round trip).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "../src/io/toml_split.h"
#include "refusal.h"
#include "topoplan/io/formats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topoplan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Task> task = io_detail::parse_native_chunked(text, "fuzz.toml", 1);
  Result<Task> whole = io_detail::parse_native_chunked(text, "fuzz.toml", 0);
  if (task.ok() != whole.ok()) std::abort();  // the splitter changed the document's meaning
  if (!topoplan_fuzz::accepted(task)) return 0;
  if (whole->domain.to_def() != task->domain.to_def() || whole->instances != task->instances)
    std::abort();
  const std::string written = write_native(*task);
  Result<Task> again = parse_native(written, "again.toml");
  if (!again) std::abort();  // the writer wrote what the reader refuses
  if (again->domain.to_def() != task->domain.to_def() || again->instances != task->instances)
    std::abort();
  return 0;
}
