// The WebAssembly binding of topoplan (src/wasm/*.cpp): C functions that take text and numbers
// and answer JSON text, wrapped for JavaScript by web/topoplan.js (docs/web.md). They sit on the
// public C API (include/topoplan/c/topoplan_c.h) and nothing else; the JSON is written here.
//
// Returned strings live in a buffer owned here until the next call that returns a string.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "json_writer.h"
#include "topoplan/c/topoplan_c.h"

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define TP_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define TP_EXPORT
#endif

namespace topoplan::wasm {

// Hands `s` to JavaScript (valid until the next answer).
const char* answer(std::string s);
// Milliseconds of a monotonic clock (performance.now() in the browser).
double now_ms();

// {"ok": false, "error": {"message", "file", "line", "text"}} from a C API error text
// ("file:line: message" or a plain message).
const char* answer_error(std::string_view text);
void write_error(JsonWriter& j, std::string_view text);

// "C0", "C2S", "C2*" or "none": a TOPOPLAN_CLASS_* value as the pages show it.
const char* structural_class_name(int32_t structural);

// Owning pointers to C API handles.
template <class T, void (*Free)(T*)>
struct Freer {
  void operator()(T* p) const { Free(p); }
};
using TaskPtr = std::unique_ptr<topoplan_task, Freer<topoplan_task, topoplan_task_free>>;
using CrowdPlannerPtr = std::unique_ptr<topoplan_crowd_planner,
                                        Freer<topoplan_crowd_planner, topoplan_crowd_planner_free>>;
using CachePtr =
    std::unique_ptr<topoplan_plan_cache, Freer<topoplan_plan_cache, topoplan_plan_cache_free>>;
using CrowdPtr = std::unique_ptr<topoplan_crowd, Freer<topoplan_crowd, topoplan_crowd_free>>;
using TownPtr = std::unique_ptr<topoplan_town, Freer<topoplan_town, topoplan_town_free>>;
using TopoPtr = std::unique_ptr<topoplan_topo, Freer<topoplan_topo, topoplan_topo_free>>;
using ScratchPtr =
    std::unique_ptr<topoplan_scratch, Freer<topoplan_scratch, topoplan_scratch_free>>;
using AnalysisPtr =
    std::unique_ptr<topoplan_analysis, Freer<topoplan_analysis, topoplan_analysis_free>>;
using SimPtr = std::unique_ptr<topoplan_sim, Freer<topoplan_sim, topoplan_sim_free>>;

// A crowd over a town (built-in, or a domain file's): the task, its crowd planner, a plan cache
// (optional), the crowd and the town, and the output buffers of one batch: `room` actions per
// NPC, the longest plan of the town's first batch (at least 12), as `topoplan crowd` sizes it.
struct CrowdTownRun {
  TaskPtr task;
  CrowdPlannerPtr planner;
  CachePtr cache;
  CrowdPtr crowd;
  TownPtr town;
  topoplan_crowd_batch batch{};
  std::vector<int32_t> actions;
  std::vector<uint32_t> offset;
  std::vector<uint16_t> length, status;
  int32_t room = 12;
  void set_room(int32_t actions_per_npc);
  [[nodiscard]] topoplan_crowd_output output() {
    return topoplan_crowd_output{actions.data(), static_cast<int64_t>(actions.size()),
                                 offset.data(), length.data(), status.data()};
  }
};
// Builds it (cache_entries 0: no cache) for a built-in town or a task; the error text when it
// fails.
std::string make_crowd_town(const char* town, int64_t npcs, uint64_t seed, int32_t cache_entries,
                            CrowdTownRun& out);
std::string make_crowd_town(TaskPtr task, int64_t npcs, uint64_t seed, int32_t cache_entries,
                            CrowdTownRun& out);

double median(std::vector<double> v);
double min_of(const std::vector<double>& v);

}  // namespace topoplan::wasm
