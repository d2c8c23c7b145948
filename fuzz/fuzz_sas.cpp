// libFuzzer harness: the Fast Downward SAS reader. Any bytes: an Error or a Task; an accepted
// task writes back (write_fd_sas) to text the reader accepts again, with the same domain.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "refusal.h"
#include "topoplan/io/formats.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace topoplan;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Task> task = parse_fd_sas(text, "fuzz.sas");
  if (!topoplan_fuzz::accepted(task)) return 0;
  if (task->instances.size() != 1) std::abort();  // an FD task carries exactly one instance
  const std::string written = write_fd_sas(task->domain, task->instances.front());
  Result<Task> again = parse_fd_sas(written, "fuzz.sas");
  if (!again) std::abort();
  if (again->domain.num_variables() != task->domain.num_variables() ||
      again->domain.num_actions() != task->domain.num_actions() ||
      again->instances.front().init != task->instances.front().init ||
      again->instances.front().goal != task->instances.front().goal)
    std::abort();
  return 0;
}
