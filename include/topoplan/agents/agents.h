// topoplan::agents — NPCs that live by their plans: sense, choose a goal, act, replan.
//
// Design
// ------
// A planner answers "which plan"; a game needs the loop around it: keep what each NPC believes,
// pick its goal, hand its actions to the engine one at a time, notice when the plan broke, and
// plan again — for a handful of NPCs or a million, inside a frame. AgentWorld is that loop over
// one CrowdPlanner (crowd.h). Decisions, in the order they matter:
//   * Struct of arrays. Agent i is an index: its class, its believed state (packed in the crowd
//     layout, so a batch reads it without conversion), its goal list, its plan (action ids of
//     16 bits, at most AgentWorldDef::max_plan_length), the step it runs and its flags, each in
//     an array of its own. Everything is allocated by create() for `capacity` agents; update()
//     allocates nothing while ℙ (or the cache) answers.
//   * The engine owns the world; the runtime owns beliefs. The engine writes what an agent senses
//     (set_fact, set_state) and, when it runs actions over time, reports them finished or failed.
//     An action whose effects all hold in the believed state counts as finished without a report,
//     so an engine that only writes sensed facts needs no other call.
//   * Only changed or due agents cost. An agent is examined in a frame when a fact of it changed,
//     the engine reported on its action, or its decision period (frames, per agent: a
//     level-of-detail rate) came round. Others cost one compare of their due frame.
//   * Replan rules, each with its reason (ReplanReason): no plan yet; plan finished (next goal);
//     the engine reported the running action failed; a sensed fact broke the rest of the plan —
//     checked by validating the remaining actions from the believed state (pre- and
//     prevail-conditions, then the goal), which is exact where watching "the next action's
//     conditions" is not (a fact a later step needs can break too); a goal of higher priority is
//     no longer satisfied; the world version moved on (bump_world_version: the level changed);
//     the plan is older than max_plan_age frames. The last two are checked on due frames only,
//     so a version bump spreads the replans over one decision period instead of one frame.
//   * Goals are partial states with names, in lists (a list per class, or per agent) of one of
//     two kinds. A priority list: the agent pursues the first goal that does not hold. A drive
//     list (UDGOAP's goal selection, udgoap/goal_selection.h): each entry answers a drive — a
//     per-agent value that changes at a rate per second and by what finished actions add — and
//     scores weight · (1 − curve(normalised drive)) with udgoap's response curves; the agent
//     pursues the entry of highest score whose goal does not hold. It keeps its goal until
//     another scores more than the score it had when chosen plus the list's margin (commitment:
//     a goal being satisfied loses its score as it progresses, and must not lose the agent).
//     Drives change between examinations without costing anything: a value and its time are
//     stored, and the rate is applied when the agent is next examined or read.
//   * One batch per frame. Every agent that needs a plan is queued (FIFO, once); update() plans
//     up to max_plans_per_frame of the queue as one crowd batch (ℙ, the class's planner chain,
//     the plan cache). The rest waits for the next frame. The budget is a count, not a time:
//     the events of a frame then depend on the inputs only — identical for any thread count and
//     any machine load (a time budget would make them depend on the load).
//   * Events out, in a caller-owned array, in agent-examination order then batch order: start an
//     action, abort the running one, goal changed, plan adopted (with its replan reason), goal
//     reached, no plan (with the reason). A new plan whose first action is the one already
//     running keeps it running: no abort/start pair for a replan that changes nothing now.
//   * Threads come from the crowd's task hook (CrowdDef::enqueue_task) for every phase that grows
//     with the agents: the examination, in parts of whole 64-agent words (at least
//     min_agents_per_part agents each); the batch's gathering and the adoption of its answers, in
//     pieces of at least min_agents_per_part / 8 rows. Each piece writes its events and queue
//     requests into buffers of its own, copied (in parallel) to their places in piece order. The
//     queue and the events are then those of one thread, whatever the number of threads or their
//     timing.
//
// For engines that execute plans themselves, validate.h has the three small calls this loop is
// built on: failed_condition (does action a apply in s, and which condition fails), apply_action,
// satisfies (does goal g hold in s). docs/agents.md shows how an engine wires the loop.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "topoplan/runtime/crowd.h"
#include "topoplan/runtime/domain.h"
#include "topoplan/runtime/plan.h"
#include "topoplan/runtime/result.h"
#include "topoplan/udgoap/model.h"

namespace topoplan::agents {

using AgentId = int32_t;
using GoalId = int32_t;
using DriveId = int32_t;
inline constexpr GoalId kNoGoal = -1;
inline constexpr int32_t kMaxDrives = 64;  // drives per world

// A drive: a per-agent value in [min, max] that moves by `rate` per second of update dt
// (negative: it decays) and by what finished actions add (set_action_drive_effect).
struct DriveDef {
  std::string name;
  double min = 0.0;
  double max = 100.0;
  double rate = 0.0;
  double initial = 0.0;  // the value of agents added after the drive
};

// An entry of a drive list: pursuing `goal` answers `drive`. Its score is
// weight · (1 − curve(normalise(value, min, max))): the utility gain of udgoap's goal selection,
// the curve giving the goal's completeness (udgoap::Curve::linear: a full drive is complete).
struct DriveGoal {
  GoalId goal = kNoGoal;
  DriveId drive = 0;
  udgoap::Curve curve = udgoap::Curve::linear();
  double weight = 1.0;  // >= 0
};

enum class ReplanReason : uint8_t {
  kNone = 0,
  kNoPlan,           // the agent had no plan for its goal
  kPlanFinished,     // the plan ran to its end (the next goal, or the goal did not hold)
  kActionFailed,     // the engine reported the running action failed
  kConditionBroken,  // a sensed fact broke a pre- or prevail-condition of the rest, or the goal
  kBetterGoal,       // a goal of higher priority stopped holding, or one scored higher (drives)
  kWorldChanged,     // bump_world_version() since the plan was made
  kPlanTooOld,       // older than AgentWorldDef::max_plan_age frames
};
inline constexpr int32_t kNumReplanReasons = 8;
[[nodiscard]] std::string_view to_string(ReplanReason reason);

enum class EventKind : uint8_t {
  kStartAction = 0,  // action: start it (step: its index in the plan)
  kAbortAction,      // action: stop it (detail: the ReplanReason that made it obsolete)
  kGoalChanged,      // goal: the new goal (kNoGoal: every goal of the list holds)
  kPlanned,          // a plan was adopted for goal; detail: ReplanReason; action: plan length
  kGoalReached,      // goal holds at the end of the plan
  kNoPlan,           // goal has no plan; detail: PlanStatus, step: PlanDetail (no_plan_outcome)
};
[[nodiscard]] std::string_view to_string(EventKind kind);

struct Event {
  AgentId agent = 0;
  EventKind kind = EventKind::kStartAction;
  uint8_t detail = 0;  // kAbortAction, kPlanned: ReplanReason; kNoPlan: PlanStatus
  uint16_t step = 0;   // kStartAction: index of the action in the plan; kNoPlan: PlanDetail
  ActionId action = -1;
  GoalId goal = kNoGoal;
  friend bool operator==(const Event&, const Event&) = default;
};

// The planner's answer a kNoPlan event carries: kUnsolvable (proved: no plan reaches the goal
// from the believed state), kGaveUp / kLimitReached (the planner chain found no plan and no
// proof; with kDetailBadInput: the crowd refused the input, a value out of range),
// kBufferTooSmall (the plan is longer than AgentWorldDef::max_plan_length), and its detail bits.
// The variable / value / action at fault are -1 here: AgentWorld::explain finds them.
[[nodiscard]] PlanOutcome no_plan_outcome(const Event& event);
static_assert(kDetailRelaxedUnreachable <= 0xFFFF, "a kNoPlan event's step holds every PlanDetail");

// A planner of the game's own (AgentWorld::set_planner): it plans, instead of the crowd, every
// agent the world queues for a plan. The replan rules stay the world's: it is asked when an agent
// has no plan, finished it, had its action fail, saw a condition of the rest break, changed goal,
// or its plan grew old or the world version moved on. Called on the thread that calls update(),
// in queue order (the order the agents asked, as events are written), one agent at a time.
class AgentPlanner {
 public:
  AgentPlanner() = default;
  AgentPlanner(const AgentPlanner&) = delete;
  AgentPlanner& operator=(const AgentPlanner&) = delete;
  virtual ~AgentPlanner() = default;
  // `state`: the agent's believed state (one value per variable of the world's domain); `goal`:
  // the goal its list chose, or kNoGoal for an agent without a goal list (the planner decides
  // what it pursues). Writes domain action ids to `out` (sized max_plan_length) and their number
  // to *len; returns the outcome as a HotPlanner does (planner.h). Anything but kSolved becomes a
  // kNoPlan event carrying it; action ids out of range give kGaveUp + kDetailBadInput. An empty
  // plan for kNoGoal leaves the agent idle until a fact changes or it is due.
  virtual PlanOutcome plan(AgentId agent, GoalId goal, std::span<const ValueId> state,
                           std::span<ActionId> out, int32_t* len) = 0;
};

struct AgentWorldDef {
  int32_t capacity = 1024;                // agents add_agent may create
  int32_t decision_period = 30;           // frames between two due examinations (default per agent)
  int64_t max_plan_age = 0;               // frames; 0: plans never grow old
  int32_t max_plans_per_frame = 1 << 16;  // agents planned per update (the rest waits)
  int32_t max_plan_length = 32;           // actions stored per agent (at most 255)
  int32_t min_agents_per_part = 16384;    // examination split over threads (>= 64; whole words);
                                          // the batch's adoption in pieces of a 1/8 of it
  CrowdDef crowd;                         // threads, planner chain, budgets of the batch
  // ℙ first (the crowd batch: ℙ, then crowd.fallback where ℙ gives up), or false: crowd.fallback
  // alone plans every agent, one after the other on the calling thread, within
  // crowd.fallback_limits; no Crowd and no plan cache are made (crowd's threads still serve the
  // examination and the adoption). For domains where ℙ takes part of a class
  // (CrowdPlanner::topo_part) and its valid plans are not the cheapest the chain would find (a
  // GOAP domain planned by cost with A*).
  bool topo_first = true;
  PlanCacheDef cache;  // the world's plan cache
  bool use_cache = true;
};

struct UpdateStats {
  int64_t frame = 0;           // the frame this update ran (0 for the first)
  int64_t events = 0;          // events written
  int64_t events_dropped = 0;  // events that did not fit in the caller's array
  int64_t examined = 0;        // agents examined (changed, reported or due)
  int64_t planned = 0;         // agents planned in this frame's batch
  int64_t waiting = 0;         // agents queued for a plan after this update
  int64_t plan_ns = 0;         // wall time of the batch
  int64_t cache_hits = 0;      // agents of the batch the plan cache answered
  std::array<int64_t, kNumReplanReasons> replans{};  // plans asked for, by ReplanReason
};

class AgentWorld {
 public:
  // `planner` (and its domain) must outlive the world. Fails on def values out of range or a
  // domain with more than 65535 actions.
  [[nodiscard]] static Result<AgentWorld> create(const CrowdPlanner& planner,
                                                 const AgentWorldDef& def = {});
  AgentWorld();
  AgentWorld(AgentWorld&&) noexcept;
  AgentWorld& operator=(AgentWorld&&) noexcept;
  ~AgentWorld();

  // --- Goals (set up before the game loop; these allocate) ---
  // A named partial state (one entry per variable, kUndefined: free). Fails on a bad size,
  // a value out of range or an empty name.
  Result<GoalId> add_goal(std::string name, std::span<const ValueId> goal);
  // A goal list in priority order (first = most important); its id. Fails on unknown goals.
  Result<int32_t> add_goal_list(std::span<const GoalId> goals);
  // The list agents of class `npc_class` get from add_agent. Fails on ids out of range.
  std::optional<Error> set_class_goals(int32_t npc_class, int32_t goal_list);
  [[nodiscard]] const std::string& goal_name(GoalId g) const;
  [[nodiscard]] int32_t num_goals() const;
  [[nodiscard]] bool has_goal_list(int32_t goal_list) const;

  // --- Drives (set up before the first agent; these allocate) ---
  // A drive; its id. Fails once agents exist, past kMaxDrives, on an empty name, a range that
  // is not finite or empty, a rate or initial value that is not finite.
  Result<DriveId> add_drive(const DriveDef& drive);
  // A drive list (a goal list scored by drives; its id is a goal list id, for set_class_goals
  // and set_goal_list). `margin` >= 0: how much more than the current goal's score (when it was
  // chosen) another must score to replace it. Fails on unknown goals or drives, a curve, weight
  // or margin out of range (curves: udgoap::check).
  Result<int32_t> add_drive_list(std::span<const DriveGoal> entries, double margin = 0.0);
  // What finishing action `a` adds to drive `d` (clamped to its range). Fails on ids out of
  // range or a delta that is not finite.
  std::optional<Error> set_action_drive_effect(ActionId a, DriveId d, double delta);
  [[nodiscard]] int32_t num_drives() const;

  // --- Actions ---
  // An action that runs to its end once started: a better goal (kBetterGoal) does not abort it —
  // the goal changes when it finishes; the engine's failure report, a broken condition, a new
  // world version or an old plan still do. Default: false (a better goal aborts at once). Fails
  // on an id out of range.
  std::optional<Error> set_action_runs_to_end(ActionId a, bool runs_to_end);
  [[nodiscard]] bool action_runs_to_end(ActionId a) const;
  [[nodiscard]] const DriveDef& drive_def(DriveId d) const;

  // --- The planner ---
  // `hook` plans every queued agent instead of the crowd (nullptr: the crowd again); it must
  // outlive its use. Agents without a goal list are then planned too, with goal kNoGoal: their
  // plan is whatever the hook answers. Allocates one state and one plan buffer once.
  void set_planner(AgentPlanner* hook);

  // --- Agents ---
  // A new agent with a total believed state; it is examined in the next update. Fails past
  // `capacity`, on a class out of range or a value out of range.
  Result<AgentId> add_agent(int32_t npc_class, std::span<const ValueId> state);
  [[nodiscard]] int32_t num_agents() const;
  // The agent's goal list (add_goal_list id); examined in the next update.
  void set_goal_list(AgentId agent, int32_t goal_list);
  // Frames between due examinations of the agent (>= 1); the next one is `period` frames away.
  void set_decision_period(AgentId agent, int32_t period);

  // --- Senses and reports (between updates) ---
  // Writes one believed fact; a changed value marks the agent for examination.
  void set_fact(AgentId agent, VarId var, ValueId value);
  // Writes the whole believed state (total).
  void set_state(AgentId agent, std::span<const ValueId> state);
  // The same in the crowd layout (planner.layout().words() words).
  void set_packed_state(AgentId agent, const uint64_t* packed);
  // Sets a drive of the agent (clamped to its range); a changed value marks the agent.
  void set_drive(AgentId agent, DriveId d, double value);
  // The engine finished the running action: its effects are applied to the believed state.
  void action_finished(AgentId agent);
  // The engine could not run the running action: the agent replans (kActionFailed).
  void action_failed(AgentId agent);
  // The level changed: every plan is replanned at its agent's next due frame (kWorldChanged).
  void bump_world_version();

  // --- The frame ---
  // Examines the agents that changed or are due, plans the queue's head in one crowd batch and
  // writes the events into `events` (those past its size are counted in events_dropped). `dt`:
  // seconds since the last update (progress() of running actions).
  UpdateStats update(double dt, std::span<Event> events);

  // --- Reading an agent ---
  [[nodiscard]] ValueId fact(AgentId agent, VarId var) const;
  // The drive's value now (its rate applied up to the world's time).
  [[nodiscard]] double drive(AgentId agent, DriveId d) const;
  // The score of the agent's goal when it was chosen from a drive list (0 otherwise).
  [[nodiscard]] double goal_score(AgentId agent) const;
  void state(AgentId agent, std::span<ValueId> out) const;
  [[nodiscard]] int32_t npc_class(AgentId agent) const;
  [[nodiscard]] GoalId goal(AgentId agent) const;
  // The current plan (empty: none) and the index of the running action in it.
  int32_t plan(AgentId agent, std::span<ActionId> out) const;  // returns the length
  [[nodiscard]] int32_t plan_length(AgentId agent) const;
  [[nodiscard]] int32_t step(AgentId agent) const;
  // The running action, or -1.
  [[nodiscard]] ActionId running_action(AgentId agent) const;
  // Seconds the running action has run (sum of update dt since its start).
  [[nodiscard]] double progress(AgentId agent) const;
  // Why the agent last asked for a plan.
  [[nodiscard]] ReplanReason last_replan(AgentId agent) const;
  [[nodiscard]] int64_t frame() const;
  [[nodiscard]] const CrowdPlanner& planner() const;
  // One line for an event, in the designer's terms ("agent 12 (Thief): start 'PickLock'").
  [[nodiscard]] std::string describe(const Event& event) const;
  // Why a kNoPlan event's goal has no plan, in the designer's words (topoplan::explain, plan.h):
  // ℙ is asked again for the agent's class on its current belief (the state it planned from,
  // unless a fact changed since), which names the variable, value and action at fault; where ℙ
  // does not take the class or now answers otherwise, the event's own outcome. Cold: allocates
  // and builds ℙ for the class. "" for another kind of event.
  [[nodiscard]] std::string explain(const Event& event) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace topoplan::agents
