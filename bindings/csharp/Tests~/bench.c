/* The C side of bench.sh: the same batch and the same calls as Bench.cs, timed in thread CPU
 * time. Prints "c crowd NS_PER_NPC", "c topo NS_PER_PLAN", "c plan NS_PER_PLAN" and a checksum
 * (solved NPCs, plan lengths) that Bench.cs must print too. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <topoplan/c/topoplan_c.h>

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t lcg(uint64_t* x) {
  *x = *x * 6364136223846793005ull + 1442695040888963407ull;
  return *x >> 33;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench DOMAIN NPCS\n");
    return 2;
  }
  char error[512];
  topoplan_task* task = NULL;
  topoplan_crowd_planner* planner = NULL;
  topoplan_crowd* crowd = NULL;
  if (topoplan_task_load(argv[1], TOPOPLAN_FORMAT_AUTO, &task, error, sizeof error) ||
      topoplan_crowd_planner_create(task, &planner, error, sizeof error)) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  topoplan_crowd_def def;
  topoplan_crowd_def_init(&def);
  if (topoplan_crowd_create(planner, &def, &crowd, error, sizeof error)) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  const int64_t n = atoll(argv[2]);
  const int32_t words = topoplan_crowd_planner_words(planner);
  const int32_t vars = topoplan_task_num_variables(task);
  const int32_t instances = topoplan_task_num_instances(task);
  uint16_t* cls = malloc((size_t)n * sizeof *cls);
  uint64_t* init = malloc((size_t)(n * words) * sizeof *init);
  uint64_t* goal = malloc((size_t)(n * words) * sizeof *goal);
  int32_t* state = malloc((size_t)vars * sizeof *state);
  const int64_t capacity = n * topoplan_crowd_planner_max_plan_length(planner);
  int32_t* actions = malloc((size_t)capacity * sizeof *actions);
  uint32_t* offset = malloc((size_t)n * sizeof *offset);
  uint16_t* length = malloc((size_t)n * sizeof *length);
  uint16_t* status = malloc((size_t)n * sizeof *status);
  uint64_t x = 1;
  for (int64_t i = 0; i < n; ++i) { /* an instance, then 0-2 random changes to its state */
    topoplan_problem p;
    topoplan_task_instance(task, (int32_t)(lcg(&x) % (uint64_t)instances), &p);
    for (int32_t v = 0; v < vars; ++v) state[v] = p.init[v];
    const int changes = (int)(lcg(&x) % 3);
    for (int k = 0; k < changes; ++k) {
      const int32_t v = (int32_t)(lcg(&x) % (uint64_t)vars);
      state[v] = (int32_t)(lcg(&x) % (uint64_t)topoplan_task_domain_size(task, v));
    }
    cls[i] = (uint16_t)p.npc_class;
    topoplan_crowd_pack_state(planner, state, vars, init + i * words);
    topoplan_crowd_pack_goal(planner, p.goal, vars, goal + i * words);
  }
  topoplan_crowd_batch batch = {n, cls, init, goal};
  topoplan_crowd_output out = {actions, capacity, offset, length, status};
  topoplan_crowd_stats stats;
  topoplan_crowd_plan(crowd, &batch, &out, &stats); /* warm-up */
  const int reps = 3;
  double t0 = cpu_seconds();
  for (int r = 0; r < reps; ++r) topoplan_crowd_plan(crowd, &batch, &out, &stats);
  const double crowd_ns = (cpu_seconds() - t0) * 1e9 / (double)(reps * n);
  const int64_t solved = stats.solved;
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += (status[i] & TOPOPLAN_CROWD_SOLVED) ? length[i] : 0;

  /* The door alone: a batch of one NPC (the first), many times. */
  topoplan_crowd_batch one = {1, cls, init, goal};
  const int calls = 200000;
  for (int i = 0; i < 1000; ++i) topoplan_crowd_plan(crowd, &one, &out, &stats);
  t0 = cpu_seconds();
  for (int i = 0; i < calls; ++i) topoplan_crowd_plan(crowd, &one, &out, &stats);
  const double call_ns = (cpu_seconds() - t0) * 1e9 / calls;

  /* One plan: the first instance, through ℙ's hot path and through the registry by name. */
  topoplan_problem p;
  topoplan_task_instance(task, 0, &p);
  topoplan_topo* topo = NULL;
  topoplan_scratch* scratch = NULL;
  topoplan_topo_create(task, p.npc_class, &topo, NULL, 0);
  topoplan_scratch_create(topo, &scratch);
  int32_t plan[256];
  int32_t len = 0;
  const int hot = 200000, named = 20000;
  for (int i = 0; i < 1000; ++i)
    topoplan_topo_plan(topo, scratch, p.init, p.goal, vars, plan, 256, &len);
  t0 = cpu_seconds();
  for (int i = 0; i < hot; ++i)
    topoplan_topo_plan(topo, scratch, p.init, p.goal, vars, plan, 256, &len);
  const double topo_ns = (cpu_seconds() - t0) * 1e9 / hot;
  topoplan_plan_stats ps;
  for (int i = 0; i < 100; ++i) topoplan_plan(task, "topo", &p, NULL, plan, 256, &ps, NULL, 0);
  t0 = cpu_seconds();
  for (int i = 0; i < named; ++i) topoplan_plan(task, "topo", &p, NULL, plan, 256, &ps, NULL, 0);
  const double plan_ns = (cpu_seconds() - t0) * 1e9 / named;
  printf("c call %.1f\nc crowd %.1f\nc topo %.1f\nc plan %.1f\nc checksum %lld %lld %d\n", call_ns,
         crowd_ns, topo_ns, plan_ns, (long long)solved, (long long)sum, len);
  topoplan_scratch_free(scratch);
  topoplan_topo_free(topo);
  topoplan_crowd_free(crowd);
  topoplan_crowd_planner_free(planner);
  topoplan_task_free(task);
  free(cls);
  free(init);
  free(goal);
  free(state);
  free(actions);
  free(offset);
  free(length);
  free(status);
  return 0;
}
