/* The loop of Samples~/Village/VillageDirector.cs in C, call for call: the same agents, scripted
 * senses, random senses and engine reports (one topoplan_agents_report and one
 * topoplan_agents_set_facts call per frame), so the same event hash. test.sh compares the hashes;
 * bench.sh times both. Prints "c agents NS" (thread CPU time in topoplan_agents_update per agent
 * per frame), "c agents-frame NS" (the whole frame, the engine's calls included) and
 * "c agents-checksum HASH EVENTS".
 * The first WARMUP frames (default 0) are not timed.
 *   village DOMAIN AGENTS FRAMES SENSE SEED [THREADS] [WARMUP] */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <topoplan/c/topoplan_c.h>

/* The file's domain part, as examples/agents/village.c reads it. */
#include "../../../examples/agents/domain_part.h"

#define ACTION_FRAMES 4
#define FAIL_EVERY 16
#define DAY_FRAMES 200

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t mix(uint64_t* x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

static int32_t below(uint64_t* x, int32_t n) {
  return (int32_t)(((mix(x) >> 32) * (uint64_t)n) >> 32);
}

static int chosen(uint64_t seed, int32_t frame, int32_t agent, int32_t salt, double share) {
  uint64_t x;
  if (share >= 1.0) return 1;
  x = seed ^ ((uint64_t)frame * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)agent << 20) ^
      ((uint64_t)salt << 52);
  return (double)(mix(&x) >> 11) * (1.0 / 9007199254740992.0) < share;
}

typedef struct sensed {
  int32_t frame, npc_class, var, value;
  double share;
} sensed;

static topoplan_task* task;

static int32_t id_of(const char* var, const char* value, int32_t* var_id) {
  int32_t v = -1, x = -1;
  if (topoplan_task_find_variable(task, var, &v) || topoplan_task_find_value(task, v, value, &x)) {
    fprintf(stderr, "village: no %s=%s\n", var, value);
    exit(1);
  }
  *var_id = v;
  return x;
}

static sensed sense_of(int32_t frame, int32_t npc_class, double share, const char* var,
                       const char* value) {
  sensed s;
  s.frame = frame;
  s.npc_class = npc_class;
  s.share = share;
  s.value = id_of(var, value, &s.var);
  return s;
}

static void check(topoplan_status s, const char* what, const char* error) {
  if (s != TOPOPLAN_OK) {
    fprintf(stderr, "village: %s: %s %s\n", what, topoplan_status_string(s), error ? error : "");
    exit(1);
  }
}

/* The frame's facts, for one topoplan_agents_set_facts call. */
static topoplan_agent_fact* facts;
static int32_t n_facts, facts_cap;

static void add_fact(int32_t agent, int32_t var, int32_t value) {
  if (n_facts == facts_cap) facts = realloc(facts, (size_t)(facts_cap *= 2) * sizeof *facts);
  facts[n_facts].agent = agent;
  facts[n_facts].var = var;
  facts[n_facts].value = value;
  ++n_facts;
}

/* A goal of one fact: var = value. */
static int32_t add_goal(topoplan_agents* world, int32_t* goal, int32_t n, const char* name,
                        const char* var, const char* value) {
  char error[512] = "";
  int32_t v, x, id = -1;
  for (v = 0; v < n; ++v) goal[v] = TOPOPLAN_UNDEFINED;
  x = id_of(var, value, &v);
  goal[v] = x;
  check(topoplan_agents_add_goal(world, name, goal, n, &id, error, sizeof error), name, error);
  return id;
}

int main(int argc, char** argv) {
  char error[512] = "";
  topoplan_crowd_planner* planner = NULL;
  topoplan_agents* world = NULL;
  topoplan_agents_def def;
  topoplan_agents_stats st;
  topoplan_problem morning;
  int32_t agents, frames, threads, n, v, i, k, f, villager = -1, thief = -1, eat, rest, steal;
  int32_t list[2], id, index = -1;
  int32_t *goal, *domain_size, *cls, *wheel[ACTION_FRAMES + 1], wheel_count[ACTION_FRAMES + 1];
  int64_t wheel_cap[ACTION_FRAMES + 1], events_total = 0, sensing;
  double sense, update_s = 0, frame_s = 0, t0, t1;
  uint64_t seed, rng, hash = 1469598103934665603ull;
  topoplan_agent_event* events;
  int32_t events_cap;
  sensed script[8];
  int32_t warmup;
  char* text;
  size_t text_size = 0;
  topoplan_agent_report* reports;
  int32_t n_reports, reports_cap, applied = 0;

  if (argc < 6) {
    fprintf(stderr, "usage: village DOMAIN AGENTS FRAMES SENSE SEED [THREADS] [WARMUP]\n");
    return 2;
  }
  agents = atoi(argv[2]);
  frames = atoi(argv[3]);
  sense = atof(argv[4]);
  seed = strtoull(argv[5], NULL, 10);
  threads = argc > 6 ? atoi(argv[6]) : 1;
  warmup = argc > 7 ? atoi(argv[7]) : 0;
  if (agents < 1 || frames < 1 || threads < 1 || warmup < 0 || warmup >= frames || sense < 0 ||
      sense > 1) {
    fprintf(stderr,
            "village: AGENTS, FRAMES, THREADS >= 1, WARMUP in [0, FRAMES), SENSE in [0, 1]\n");
    return 2;
  }
  rng = seed;
  text = agents_domain_part(argv[1], &text_size);
  if (text == NULL) {
    fprintf(stderr, "village: cannot read '%s'\n", argv[1]);
    exit(1);
  }
  check(topoplan_task_parse(text, text_size, TOPOPLAN_FORMAT_NATIVE, argv[1], &task, error,
                            sizeof error),
        argv[1], error);
  free(text);
  check(topoplan_crowd_planner_create(task, &planner, error, sizeof error), "planner", error);
  topoplan_agents_def_default(&def);
  def.capacity = agents;
  def.decision_period = 20;
  def.max_plan_age = 600;
  def.max_plans_per_frame = agents;
  def.threads = threads;
  check(topoplan_agents_create(planner, &def, &world, error, sizeof error), "agents", error);

  n = topoplan_task_num_variables(task);
  domain_size = malloc((size_t)n * sizeof *domain_size);
  goal = malloc((size_t)n * sizeof *goal);
  for (v = 0; v < n; ++v) domain_size[v] = topoplan_task_domain_size(task, v);
  check(topoplan_task_find_class(task, "Villager", &villager), "Villager", NULL);
  check(topoplan_task_find_class(task, "Thief", &thief), "Thief", NULL);
  eat = add_goal(world, goal, n, "eat", "hunger", "fed");
  rest = add_goal(world, goal, n, "rest", "energy", "rested");
  steal = add_goal(world, goal, n, "steal", "loot", "sold");
  list[0] = eat;
  list[1] = rest;
  check(topoplan_agents_add_goal_list(world, list, 2, &id, error, sizeof error), "list", error);
  check(topoplan_agents_set_class_goals(world, villager, id), "class goals", NULL);
  list[0] = rest;
  list[1] = steal;
  check(topoplan_agents_add_goal_list(world, list, 2, &id, error, sizeof error), "list", error);
  check(topoplan_agents_set_class_goals(world, thief, id), "class goals", NULL);
  script[0] = sense_of(6, villager, 0.5, "bakeryDoor", "closed");
  script[1] = sense_of(8, thief, 1.0, "guard", "away");
  script[2] = sense_of(10, villager, 0.25, "bread", "stolen");
  script[3] = sense_of(14, thief, 0.33, "guard", "near");
  script[4] = sense_of(40, thief, 1.0, "guard", "away");
  script[5] = sense_of(60, villager, 1.0, "bread", "onShelf");
  script[6] = sense_of(120, -1, 1.0, "hunger", "hungry");
  script[7] = sense_of(120, -1, 1.0, "energy", "tired");
  check(topoplan_task_find_instance(task, "morning", &index), "morning", NULL);
  check(topoplan_task_instance(task, index, &morning), "morning", NULL);
  cls = malloc((size_t)agents * sizeof *cls);
  for (i = 0; i < agents; ++i) {
    cls[i] = i % 2 == 0 ? villager : thief;
    check(topoplan_agents_add(world, cls[i], morning.init, n, &id, error, sizeof error), "add",
          error);
  }
  reports_cap = agents > 16 ? agents : 16;
  reports = malloc((size_t)reports_cap * sizeof *reports);
  facts_cap = 2 * agents + 16;
  facts = malloc((size_t)facts_cap * sizeof *facts);
  events_cap = 4 * agents + 64;
  events = malloc((size_t)events_cap * sizeof *events);
  for (k = 0; k <= ACTION_FRAMES; ++k) {
    wheel_cap[k] = 2 * (agents / 2 > 16 ? agents / 2 : 16);
    wheel[k] = malloc((size_t)wheel_cap[k] * sizeof *wheel[k]);
    wheel_count[k] = 0;
  }

  for (f = 0; f < frames; ++f) {
    const int32_t slot = f % (ACTION_FRAMES + 1), time_of_day = f % DAY_FRAMES;
    const int32_t next = (f + ACTION_FRAMES) % (ACTION_FRAMES + 1);
    int32_t e;
    t0 = cpu_seconds();
    n_reports = 0;
    for (k = 0; k < wheel_count[slot]; k += 2) {
      const int fails = chosen(seed, f, wheel[slot][k], 15, 1.0 / FAIL_EVERY);
      if (n_reports == reports_cap)
        reports = realloc(reports, (size_t)(reports_cap *= 2) * sizeof *reports);
      reports[n_reports].agent = wheel[slot][k];
      reports[n_reports].action = wheel[slot][k + 1];
      reports[n_reports].outcome = fails ? TOPOPLAN_AGENT_FAILED : TOPOPLAN_AGENT_FINISHED;
      ++n_reports;
    }
    wheel_count[slot] = 0;
    check(topoplan_agents_report(world, reports, n_reports, &applied), "report", NULL);
    n_facts = 0;
    for (e = 0; e < 8; ++e) {
      if (script[e].frame != time_of_day) continue;
      for (i = 0; i < agents; ++i)
        if ((script[e].npc_class < 0 || cls[i] == script[e].npc_class) &&
            chosen(seed, f, i, e, script[e].share))
          add_fact(i, script[e].var, script[e].value);
    }
    sensing = (int64_t)(sense * agents);
    for (k = 0; k < sensing; ++k) {
      const int32_t a = below(&rng, agents);
      const int32_t var = below(&rng, n);
      add_fact(a, var, below(&rng, domain_size[var]));
    }
    check(topoplan_agents_set_facts(world, facts, n_facts), "facts", NULL);
    t1 = cpu_seconds();
    check(topoplan_agents_update(world, 1.0 / 60, events, events_cap, &st), "update", NULL);
    if (f >= warmup) update_s += cpu_seconds() - t1;
    for (k = 0; k < (int32_t)st.events; ++k) {
      const topoplan_agent_event* x = &events[k];
      hash = (hash ^ (uint32_t)x->agent) * 1099511628211ull;
      hash = (hash ^ x->kind) * 1099511628211ull;
      hash = (hash ^ x->detail) * 1099511628211ull;
      hash = (hash ^ x->step) * 1099511628211ull;
      hash = (hash ^ (uint32_t)x->action) * 1099511628211ull;
      hash = (hash ^ (uint32_t)x->goal) * 1099511628211ull;
      if (x->kind == TOPOPLAN_AGENT_START) {
        if (wheel_count[next] + 2 > wheel_cap[next]) {
          wheel_cap[next] *= 2;
          wheel[next] = realloc(wheel[next], (size_t)wheel_cap[next] * sizeof *wheel[next]);
        }
        wheel[next][wheel_count[next]++] = x->agent;
        wheel[next][wheel_count[next]++] = x->action;
      }
    }
    events_total += st.events;
    if (f >= warmup) frame_s += cpu_seconds() - t0;
  }
  printf("c agents %.1f\nc agents-frame %.1f\nc agents-checksum %016llx %lld\n",
         update_s * 1e9 / ((double)(frames - warmup) * agents),
         frame_s * 1e9 / ((double)(frames - warmup) * agents), (unsigned long long)hash,
         (long long)events_total);
  topoplan_agents_free(world);
  topoplan_crowd_planner_free(planner);
  topoplan_task_free(task);
  for (k = 0; k <= ACTION_FRAMES; ++k) free(wheel[k]);
  free(events);
  free(reports);
  free(facts);
  free(cls);
  free(goal);
  free(domain_size);
  return 0;
}
