/* topoplan — the C API, agent part (C99): NPCs that live by their plans (docs/agents.md), and the
 * small calls an engine that executes plans itself needs. Part of the C API of
 * topoplan/c/topoplan_c.h, which includes it: include either; the conventions (handles, statuses,
 * error buffers, thread safety) are those stated at the top of topoplan_c.h.
 *
 * Wiring, per frame: write what the agents sense (topoplan_agents_set_fact / _set_state), report
 * actions the engine finished or could not run, call topoplan_agents_update with an event array,
 * and act on the events: start an action, abort one, show a goal, log a missing plan. */
#ifndef TOPOPLAN_TOPOPLAN_C_AGENTS_H_
#define TOPOPLAN_TOPOPLAN_C_AGENTS_H_

#include "topoplan/c/topoplan_c.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Small calls for engines that execute plans themselves (the validator's own check). */

#define TOPOPLAN_CONDITION_NONE 0    /* every condition holds */
#define TOPOPLAN_CONDITION_PRE 1     /* an effect's pre-condition */
#define TOPOPLAN_CONDITION_PREVAIL 2 /* a prevail-condition */
typedef struct topoplan_condition {
  int32_t kind; /* TOPOPLAN_CONDITION_* */
  int32_t var;
  int32_t required;
  int32_t actual;
} topoplan_condition;

/* Does `action` apply in the total `state` (num_variables values)? TOPOPLAN_OK when it does;
 * TOPOPLAN_INVALID_PLAN when a condition fails, the first one (pre-conditions, then prevails) in
 * *failed (may be NULL); TOPOPLAN_INVALID_ARGUMENT on a bad id, size or value. Any thread. */
TOPOPLAN_API topoplan_status topoplan_action_applies(const topoplan_task* task, int32_t action,
                                                     const int32_t* state, int32_t num_variables,
                                                     topoplan_condition* failed);
/* Writes the effects of `action` into `state` (conditions unchecked). Any thread. */
TOPOPLAN_API topoplan_status topoplan_action_apply(const topoplan_task* task, int32_t action,
                                                   int32_t* state, int32_t num_variables);
/* 1 when `state` satisfies the partial `goal` (TOPOPLAN_UNDEFINED: free), 0 when not, -1 on bad
 * arguments. Any thread. */
TOPOPLAN_API int32_t topoplan_goal_holds(const topoplan_task* task, const int32_t* state,
                                         const int32_t* goal, int32_t num_variables);
/* "pre-condition 'door=open' does not hold (it is 'door=closed')" into buffer (as
 * topoplan_task_write: *size = bytes needed with the NUL). Any thread. */
TOPOPLAN_API topoplan_status topoplan_condition_describe(const topoplan_task* task,
                                                         const topoplan_condition* failed,
                                                         char* buffer, size_t capacity,
                                                         size_t* size);

/* ------------------------------------------------------------------------------------------ */
/* Agent worlds. One thread per handle; the crowd planner (and its task) must outlive it. */
typedef struct topoplan_agents topoplan_agents;

typedef struct topoplan_agents_def {
  int32_t capacity;            /* agents topoplan_agents_add may create */
  int32_t decision_period;     /* frames between due examinations (default for each agent) */
  int64_t max_plan_age;        /* frames; 0: plans never grow old */
  int32_t max_plans_per_frame; /* agents planned per update; the rest waits (deterministic) */
  int32_t max_plan_length;     /* actions stored per agent, at most 255 */
  int32_t threads;             /* a built-in pool of this many threads for the batch; 1: none */
  int32_t cache_entries;       /* plan cache entries; 0: no cache */
  int32_t min_agents_per_part; /* with threads > 1: the agents' examination is cut into parts of
                                  at least this many agents (>= 64, whole 64-agent words); 0: the
                                  default (16384) */
} topoplan_agents_def;
/* The defaults (agents.h's AgentWorldDef). Any thread. */
TOPOPLAN_API void topoplan_agents_def_default(topoplan_agents_def* def);

TOPOPLAN_API topoplan_status topoplan_agents_create(const topoplan_crowd_planner* planner,
                                                    const topoplan_agents_def* def,
                                                    topoplan_agents** out, char* error,
                                                    size_t error_size);
TOPOPLAN_API void topoplan_agents_free(topoplan_agents* agents);

/* Goals: a named partial state (num_variables values, TOPOPLAN_UNDEFINED: free); *id its id. */
TOPOPLAN_API topoplan_status topoplan_agents_add_goal(topoplan_agents* agents, const char* name,
                                                      const int32_t* goal, int32_t num_variables,
                                                      int32_t* id, char* error, size_t error_size);
/* A priority list of goals (first = most important); *id its id. */
TOPOPLAN_API topoplan_status topoplan_agents_add_goal_list(topoplan_agents* agents,
                                                           const int32_t* goals, int32_t count,
                                                           int32_t* id, char* error,
                                                           size_t error_size);
/* The list agents of a class get when added. */
TOPOPLAN_API topoplan_status topoplan_agents_set_class_goals(topoplan_agents* agents,
                                                             int32_t npc_class, int32_t goal_list);

/* Drives (docs/agents.md, "Drives"): per-agent values in [min, max] that move by `rate` per
 * second of update dt and by what finished actions add; declared before the first agent. A drive
 * list is a goal list whose entries are scored by their drive, weight * (1 - curve(normalised
 * value)), the agent pursuing the best whose goal does not hold; it keeps its goal until another
 * scores more than `margin` above the score it was chosen with. */
TOPOPLAN_API topoplan_status topoplan_agents_add_drive(topoplan_agents* agents, const char* name,
                                                       double min, double max, double rate,
                                                       double initial, int32_t* id, char* error,
                                                       size_t error_size);
/* Response curves (udgoap's, docs/udgoap.md): x in [0, 1] to a completeness in [0, 1]. */
#define TOPOPLAN_CURVE_LINEAR 0     /* slope * (x - x_shift) + y_shift */
#define TOPOPLAN_CURVE_POLYNOMIAL 1 /* slope * (x - x_shift)^exponent + y_shift */
#define TOPOPLAN_CURVE_LOGISTIC 2   /* exponent / (1 + e^(-slope * (x - x_shift))) + y_shift */
#define TOPOPLAN_CURVE_LOGIT 3      /* y_shift + ln(z / (1 - z)) / slope, z = x - x_shift */
#define TOPOPLAN_CURVE_NORMAL 4     /* slope * e^(-exponent * (x - x_shift)^2) + y_shift */
#define TOPOPLAN_CURVE_SINE 5       /* slope * sin(pi * exponent * (x - x_shift)) + y_shift */
typedef struct topoplan_drive_goal {
  int32_t goal;  /* topoplan_agents_add_goal's id */
  int32_t drive; /* topoplan_agents_add_drive's id */
  int32_t curve; /* TOPOPLAN_CURVE_*; {LINEAR, 1, 1, 0, 0}: a full drive is a complete goal */
  double slope, exponent, x_shift, y_shift;
  double weight; /* >= 0 */
} topoplan_drive_goal;
/* A drive list; *id its id, a goal list id (topoplan_agents_set_class_goals, _set_goal_list). */
TOPOPLAN_API topoplan_status topoplan_agents_add_drive_list(topoplan_agents* agents,
                                                            const topoplan_drive_goal* entries,
                                                            int32_t count, double margin,
                                                            int32_t* id, char* error,
                                                            size_t error_size);
/* What finishing `action` adds to `drive` (clamped to its range). */
TOPOPLAN_API topoplan_status topoplan_agents_set_action_drive(topoplan_agents* agents,
                                                              int32_t action, int32_t drive,
                                                              double delta);
/* Whether `action` runs to its end once started (runs_to_end: 0 or 1; default 0): a better goal
 * does not abort it, the goal changes when it finishes; a failure report, a broken condition, a
 * new world version or an old plan still stop it. TOPOPLAN_INVALID_ARGUMENT on a bad id. */
TOPOPLAN_API topoplan_status topoplan_agents_set_action_runs_to_end(topoplan_agents* agents,
                                                                    int32_t action,
                                                                    int32_t runs_to_end);
/* 1 when `action` runs to its end, 0 when not, -1 on a bad id. */
TOPOPLAN_API int32_t topoplan_agents_action_runs_to_end(const topoplan_agents* agents,
                                                        int32_t action);

/* A new agent with a total believed state; *id its id. */
TOPOPLAN_API topoplan_status topoplan_agents_add(topoplan_agents* agents, int32_t npc_class,
                                                 const int32_t* state, int32_t num_variables,
                                                 int32_t* id, char* error, size_t error_size);
TOPOPLAN_API int32_t topoplan_agents_count(const topoplan_agents* agents);
TOPOPLAN_API topoplan_status topoplan_agents_set_goal_list(topoplan_agents* agents, int32_t agent,
                                                           int32_t goal_list);
TOPOPLAN_API topoplan_status topoplan_agents_set_decision_period(topoplan_agents* agents,
                                                                 int32_t agent, int32_t period);

/* Senses and reports (between updates). */
TOPOPLAN_API topoplan_status topoplan_agents_set_fact(topoplan_agents* agents, int32_t agent,
                                                      int32_t var, int32_t value);
TOPOPLAN_API topoplan_status topoplan_agents_set_state(topoplan_agents* agents, int32_t agent,
                                                       const int32_t* state, int32_t num_variables);
TOPOPLAN_API topoplan_status topoplan_agents_action_finished(topoplan_agents* agents,
                                                             int32_t agent);
TOPOPLAN_API topoplan_status topoplan_agents_action_failed(topoplan_agents* agents, int32_t agent);
TOPOPLAN_API void topoplan_agents_bump_world_version(topoplan_agents* agents);

/* The same, many at a time: one call per frame instead of one per fact or report (a call across
 * a foreign-function boundary — C#, Python — costs more than the work of one). */
typedef struct topoplan_agent_fact {
  int32_t agent;
  int32_t var;
  int32_t value;
} topoplan_agent_fact;
/* topoplan_agents_set_fact for each entry, in order. Every entry is checked first: on a bad one
 * nothing is applied and TOPOPLAN_INVALID_ARGUMENT is returned. */
TOPOPLAN_API topoplan_status topoplan_agents_set_facts(topoplan_agents* agents,
                                                       const topoplan_agent_fact* facts,
                                                       int32_t count);
/* Sets an agent's drive (clamped to its range); a changed value examines the agent. */
TOPOPLAN_API topoplan_status topoplan_agents_set_drive(topoplan_agents* agents, int32_t agent,
                                                       int32_t drive, double value);
typedef struct topoplan_agent_drive {
  int32_t agent;
  int32_t drive;
  double value;
} topoplan_agent_drive;
/* topoplan_agents_set_drive for each entry, in order; every entry is checked first (a bad agent
 * or drive id, a value that is not finite: nothing applied, TOPOPLAN_INVALID_ARGUMENT). */
TOPOPLAN_API topoplan_status topoplan_agents_set_drives(topoplan_agents* agents,
                                                        const topoplan_agent_drive* drives,
                                                        int32_t count);
#define TOPOPLAN_AGENT_FINISHED 0 /* topoplan_agents_action_finished */
#define TOPOPLAN_AGENT_FAILED 1   /* topoplan_agents_action_failed */
typedef struct topoplan_agent_report {
  int32_t agent;
  int32_t action;  /* the action the engine ran (the START event's) */
  int32_t outcome; /* TOPOPLAN_AGENT_FINISHED or TOPOPLAN_AGENT_FAILED */
} topoplan_agent_report;
/* Reports, in order. A report applies only while `action` is still the agent's running action:
 * one about an action the runtime has since aborted or replaced is stale and skipped. *applied
 * (may be NULL) counts the reports applied. Every entry is checked first: on a bad agent id or
 * outcome nothing is applied and TOPOPLAN_INVALID_ARGUMENT is returned. */
TOPOPLAN_API topoplan_status topoplan_agents_report(topoplan_agents* agents,
                                                    const topoplan_agent_report* reports,
                                                    int32_t count, int32_t* applied);

/* Events (agents.h's Event, same layout). */
#define TOPOPLAN_AGENT_START 0   /* action: start it; step: its index in the plan */
#define TOPOPLAN_AGENT_ABORT 1   /* action: stop it; detail: TOPOPLAN_REPLAN_* */
#define TOPOPLAN_AGENT_GOAL 2    /* goal: the new goal (-1: every goal holds) */
#define TOPOPLAN_AGENT_PLANNED 3 /* a plan adopted; detail: TOPOPLAN_REPLAN_*; action: length */
#define TOPOPLAN_AGENT_REACHED 4 /* goal holds */
/* No plan for goal. detail: the planner's answer as a topoplan_status (UNSOLVABLE: proved;
 * GAVE_UP / LIMIT_REACHED: no plan, no proof; BUFFER_TOO_SMALL: longer than max_plan_length;
 * INVALID_ARGUMENT: the agent's class or state out of range); step: the planner's detail bits
 * (C++ plan.h, PlanDetail); topoplan_agents_explain gives the words. */
#define TOPOPLAN_AGENT_NO_PLAN 5
#define TOPOPLAN_REPLAN_NO_PLAN 1
#define TOPOPLAN_REPLAN_PLAN_FINISHED 2
#define TOPOPLAN_REPLAN_ACTION_FAILED 3
#define TOPOPLAN_REPLAN_CONDITION_BROKEN 4
#define TOPOPLAN_REPLAN_BETTER_GOAL 5
#define TOPOPLAN_REPLAN_WORLD_CHANGED 6
#define TOPOPLAN_REPLAN_PLAN_TOO_OLD 7
typedef struct topoplan_agent_event {
  int32_t agent;
  uint8_t kind;   /* TOPOPLAN_AGENT_* */
  uint8_t detail; /* TOPOPLAN_REPLAN_* or (NO_PLAN) a topoplan_status, by kind */
  uint16_t step;  /* START: the action's index in the plan; NO_PLAN: the detail bits */
  int32_t action;
  int32_t goal;
} topoplan_agent_event;

typedef struct topoplan_agents_stats {
  int64_t frame, events, events_dropped, examined, planned, waiting, plan_ns;
  int64_t replans[8]; /* by TOPOPLAN_REPLAN_* */
} topoplan_agents_stats;

/* One frame: `dt` seconds since the last, in [0, 1e9] (else TOPOPLAN_INVALID_ARGUMENT); events
 * into events[0, capacity) (the rest counted in stats->events_dropped); stats may be NULL. */
TOPOPLAN_API topoplan_status topoplan_agents_update(topoplan_agents* agents, double dt,
                                                    topoplan_agent_event* events, int32_t capacity,
                                                    topoplan_agents_stats* stats);

/* Reading an agent (-1 on a bad id). */
TOPOPLAN_API int32_t topoplan_agents_fact(const topoplan_agents* agents, int32_t agent,
                                          int32_t var);
TOPOPLAN_API topoplan_status topoplan_agents_state(const topoplan_agents* agents, int32_t agent,
                                                   int32_t* state, int32_t num_variables);
TOPOPLAN_API int32_t topoplan_agents_goal(const topoplan_agents* agents, int32_t agent);
/* The plan: *length its length; TOPOPLAN_BUFFER_TOO_SMALL when capacity is smaller. */
TOPOPLAN_API topoplan_status topoplan_agents_plan(const topoplan_agents* agents, int32_t agent,
                                                  int32_t* actions, int32_t capacity,
                                                  int32_t* length);
/* A drive's value now (NaN on a bad id); the score of the agent's goal when it was chosen from a
 * drive list (0 otherwise; NaN on a bad id). */
TOPOPLAN_API double topoplan_agents_drive(const topoplan_agents* agents, int32_t agent,
                                          int32_t drive);
TOPOPLAN_API double topoplan_agents_goal_score(const topoplan_agents* agents, int32_t agent);
TOPOPLAN_API int32_t topoplan_agents_num_drives(const topoplan_agents* agents);
TOPOPLAN_API int32_t topoplan_agents_step(const topoplan_agents* agents, int32_t agent);
TOPOPLAN_API int32_t topoplan_agents_running_action(const topoplan_agents* agents, int32_t agent);
TOPOPLAN_API double topoplan_agents_progress(const topoplan_agents* agents, int32_t agent);
TOPOPLAN_API int32_t topoplan_agents_last_replan(const topoplan_agents* agents, int32_t agent);
/* A goal's name (NULL on a bad id); valid while the world lives. */
TOPOPLAN_API const char* topoplan_agents_goal_name(const topoplan_agents* agents, int32_t goal);
/* Static names: "condition-broken", "start", ... (a NO_PLAN event's detail:
 * topoplan_status_string). */
TOPOPLAN_API const char* topoplan_agents_replan_string(int32_t reason);
TOPOPLAN_API const char* topoplan_agents_event_string(int32_t kind);
/* One line for an event ("agent 3 (Thief): start 'PickLock'"), as topoplan_task_write. */
TOPOPLAN_API topoplan_status topoplan_agents_describe(const topoplan_agents* agents,
                                                      const topoplan_agent_event* event,
                                                      char* buffer, size_t capacity, size_t* size);
/* Why a NO_PLAN event's goal has no plan, in the designer's words, with the names of the
 * variable, value and action at fault (the planner asked again on the agent's current belief),
 * as topoplan_task_write. TOPOPLAN_INVALID_ARGUMENT for another kind of event. */
TOPOPLAN_API topoplan_status topoplan_agents_explain(const topoplan_agents* agents,
                                                     const topoplan_agent_event* event,
                                                     char* buffer, size_t capacity, size_t* size);

#ifdef __cplusplus
}
#endif

#endif /* TOPOPLAN_TOPOPLAN_C_AGENTS_H_ */
