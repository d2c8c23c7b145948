// topoplan — agents files: a native domain file with agent sections, and the scripted engine
// that plays them (library topoplan::io). `topoplan agents` and the WebAssembly Town page both
// read and play a file through this header, so the same file, agent count and seed give the
// same event stream in both (their events hashes are equal; tests/web/test_town_agents.py).
//
// The sections, cut out of the text before the native reader sees it (their lines left blank,
// so that every line number stays the file's):
//   [agents]   decision_period, max_plan_age, action_frames (frames an action takes)
//   [[goal]]   name, class (a name or a list; omitted: every class), facts = { var = "value" }
//              — in priority order, the first most important
//   [[event]]  frame, class (omitted: every class), share (of those agents, default 1),
//              set = { var = "value" } — what the agents sense at that frame
// Without [[goal]] tables, each instance is a goal of its class, restricted to the variables
// the class's actions change (a routine says what the class is for).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/agents/agents.h"
#include "topoplan/io/formats.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/random.h"
#include "topoplan/runtime/result.h"

namespace topoplan {

struct AgentsFile {
  Task task;
  struct Goal {
    std::string name;
    std::vector<ValueId> values;   // one per variable, kUndefined: free
    std::vector<ClassId> classes;  // empty: every class
  };
  struct SensedEvent {
    int64_t frame = 0;
    ClassId npc_class = kAllActions;  // kAllActions: every class
    double share = 1.0;
    std::vector<Fact> set;
    int line = 0;  // seeds the event's coin (ScriptedEngine)
  };
  std::vector<Goal> goals;          // never empty once read
  std::vector<SensedEvent> events;  // by frame, then file order
  int32_t decision_period = 30;
  int64_t max_plan_age = 0;
  int32_t action_frames = 3;
  // Per class (one class when the domain has none): the variables its actions change, and the
  // state its agents start from (its first instance's, else the first class-free instance's,
  // else every variable at its first value).
  std::vector<std::vector<VarId>> changes;
  std::vector<std::vector<ValueId>> start;

  [[nodiscard]] int32_t num_classes() const { return static_cast<int32_t>(start.size()); }
};

// The two texts of one file, line for line: the domain's (agent sections blanked) and the
// agent sections' (the rest blanked).
struct AgentsFileText {
  std::string domain;
  std::string agents;
};
[[nodiscard]] AgentsFileText split_agents_file(std::string_view text);

// Reads the whole file. Errors read "file:line: message"; a file without [[goal]] tables and
// without instances is an error ("no goals").
[[nodiscard]] Result<AgentsFile> parse_agents_file(std::string_view text,
                                                   const std::string& filename);
[[nodiscard]] Result<AgentsFile> load_agents_file(const std::string& path,
                                                  const ReadLimits& limits = {});

// Fills an agent world from the file: its goals, each class's goal list, and `agents` agents,
// classes in turn, each at its class's start state. The world's capacity must hold them.
[[nodiscard]] std::optional<Error> populate_agents(const AgentsFile& file, int32_t agents,
                                                   agents::AgentWorld& world);

// The engine a file's agents live in, frame by frame around the world's update():
//   before_update  the effects of the actions that finish this frame (an action takes
//                  action_frames frames) are sensed by their agents, then the file's events of
//                  this frame (each agent of the event's class with probability `share`, by a
//                  coin of (seed + the event's line, frame, agent)), then `sense` × agents random
//                  senses (an agent, one of the variables its class changes, a value) from
//                  SplitMix64(seed);
//   observe        each event update() wrote: hashed (FNV-1a over agent, kind, detail, step,
//                  action, goal) and, for a started action, its finish scheduled;
//   end_frame      the next frame.
class ScriptedEngine {
 public:
  // What the engine reads and writes of the agents (an AgentWorld, or the C API's handle).
  class World {
   public:
    virtual ~World() = default;
    [[nodiscard]] virtual ClassId npc_class(int32_t agent) const = 0;
    [[nodiscard]] virtual ActionId running_action(int32_t agent) const = 0;
    virtual void set_fact(int32_t agent, VarId var, ValueId value) = 0;
  };

  ScriptedEngine(const AgentsFile& file, int32_t agents, uint64_t seed);

  // `scripted` false skips the file's events of this frame (they are still consumed).
  void before_update(World& world, double sense, bool scripted = true);
  void observe(const agents::Event& e);
  void end_frame() { ++frame_; }

  [[nodiscard]] int64_t frame() const { return frame_; }
  [[nodiscard]] uint64_t hash() const { return hash_; }
  // "%016llx" of hash(), as `topoplan agents --json` prints it.
  [[nodiscard]] std::string hash_text() const;

 private:
  const AgentsFile& file_;
  int32_t agents_;
  uint64_t seed_;
  SplitMix64 rng_;
  std::vector<std::vector<std::pair<int32_t, ActionId>>> wheel_;  // finishing, by frame % span
  size_t next_event_ = 0;
  int64_t frame_ = 0;
  uint64_t hash_ = 1469598103934665603ull;
};

// ScriptedEngine::World over an AgentWorld.
class AgentWorldAccess final : public ScriptedEngine::World {
 public:
  explicit AgentWorldAccess(agents::AgentWorld& w) : w_(w) {}
  [[nodiscard]] ClassId npc_class(int32_t agent) const override { return w_.npc_class(agent); }
  [[nodiscard]] ActionId running_action(int32_t agent) const override {
    return w_.running_action(agent);
  }
  void set_fact(int32_t agent, VarId var, ValueId value) override {
    w_.set_fact(agent, var, value);
  }

 private:
  agents::AgentWorld& w_;
};

}  // namespace topoplan
