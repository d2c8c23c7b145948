/* The C API from C99, second part: built-in tasks, towns planned as crowd batches (every plan
 * checked by the validator), plan handles, a real GOAP domain's crowd, and the simulation (its
 * replay compared byte for byte with `topoplan sim --replay` when the CLI is given). Usage:
 * test_capi_more SOURCE_DIR [TOPOPLAN_CLI]. Exit 0 when every check passes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "town_fixture.h"

/* Unpacks NPC i of a batch and checks its crowd plan with the validator. */
static void check_npc(const topoplan_task* task, const topoplan_crowd_planner* planner,
                      const topoplan_crowd_batch* b, const int32_t* actions, const uint32_t* offset,
                      const uint16_t* length, int64_t i, int32_t words) {
  int32_t init[64], goal[64];
  const int32_t nv = topoplan_task_num_variables(task);
  topoplan_problem p;
  CHECK(nv <= 64);
  if (nv > 64) return;
  CHECK_STATUS(topoplan_crowd_unpack_state(planner, b->init + i * words, init, nv), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_crowd_unpack_goal(planner, b->goal + i * words, goal, nv), TOPOPLAN_OK);
  p.init = init;
  p.goal = goal;
  p.num_variables = nv;
  /* A domain without classes: crowd class 0 is every action. */
  p.npc_class = topoplan_task_num_classes(task) == 0 ? TOPOPLAN_ALL_ACTIONS : b->npc_class[i];
  CHECK_STATUS(topoplan_validate(task, &p, actions + offset[i], length[i], NULL, NULL, NULL, 0),
               TOPOPLAN_OK);
}

/* The GOAP-level town: every served NPC's plan valid; same seed, same town; churn rewrites. */
static void test_town(void) {
  enum { kNpcs = 3000 };
  topoplan_task* task = NULL;
  topoplan_crowd_planner* planner = NULL;
  topoplan_crowd* crowd = NULL;
  topoplan_town *town = NULL, *twin = NULL;
  topoplan_town_def def;
  topoplan_crowd_def cdef;
  topoplan_crowd_batch b, b2;
  topoplan_crowd_stats stats;
  topoplan_crowd_output out;
  static int32_t actions[kNpcs * 16];
  static uint32_t offset[kNpcs];
  static uint16_t length[kNpcs], status[kNpcs];
  static uint64_t before[kNpcs * 8];
  char error[512];
  int64_t i, solved = 0, open = 0, by_fallback = 0, solved_fallback = 0, no_plan = 0;
  int32_t words;
  size_t bytes;
  CHECK(topoplan_num_builtin_tasks() == 3);
  CHECK(strcmp(topoplan_builtin_task_name(2), "goap-level") == 0);
  CHECK(topoplan_builtin_task_name(3) == NULL);
  CHECK_STATUS(topoplan_task_builtin("nowhere", &task, error, sizeof error), TOPOPLAN_NOT_FOUND);
  CHECK(strstr(error, "goap-level") != NULL);
  CHECK_STATUS(topoplan_task_builtin("goap-level", &task, error, sizeof error), TOPOPLAN_OK);
  if (task == NULL) return;
  CHECK(topoplan_task_num_classes(task) >= 2);
  CHECK_STATUS(topoplan_crowd_planner_create(task, &planner, error, sizeof error), TOPOPLAN_OK);
  if (planner == NULL) return;
  words = topoplan_crowd_planner_words(planner);
  CHECK(words >= 1 && words <= 8);
  topoplan_town_def_init(&def);
  CHECK(def.npcs == 100000 && def.situations_per_class == 64 && def.seed == 1);
  def.npcs = 0;
  CHECK_STATUS(topoplan_town_create(planner, &def, &town, error, sizeof error),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK(town == NULL && strstr(error, "npcs") != NULL);
  def.npcs = kNpcs;
  def.seed = 7;
  CHECK_STATUS(topoplan_town_create(planner, &def, &town, error, sizeof error), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_town_create(planner, &def, &twin, error, sizeof error), TOPOPLAN_OK);
  if (town == NULL || twin == NULL) return;
  CHECK(topoplan_town_npcs(town) == kNpcs);
  CHECK(topoplan_town_distinct_situations(town) >= 2);
  CHECK_STATUS(topoplan_town_batch(town, &b), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_town_batch(twin, &b2), TOPOPLAN_OK);
  CHECK(b.count == kNpcs && b2.count == kNpcs);
  bytes = (size_t)kNpcs * (size_t)words * sizeof(uint64_t);
  CHECK(memcmp(b.init, b2.init, bytes) == 0 && memcmp(b.goal, b2.goal, bytes) == 0);

  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create(planner, &cdef, &crowd, error, sizeof error), TOPOPLAN_OK);
  out = crowd_output_over(actions, kNpcs * 16, offset, length, status);
  CHECK_STATUS(topoplan_crowd_plan(crowd, &b, &out, &stats), TOPOPLAN_OK);
  CHECK(stats.served == kNpcs && stats.complete == 1);
  for (i = 0; i < kNpcs; ++i) {
    if (status[i] & TOPOPLAN_CROWD_SOLVED) {
      ++solved;
      check_npc(task, planner, &b, actions, offset, length, i, words);
    } else {
      CHECK((status[i] & (TOPOPLAN_CROWD_UNSOLVABLE | TOPOPLAN_CROWD_NO_PLAN)) != 0);
      ++open;
    }
    /* The planner chain: the fallback's answers are marked, nothing stays pending after plan. */
    if (status[i] & TOPOPLAN_CROWD_FALLBACK) {
      ++by_fallback;
      CHECK((status[i] & (TOPOPLAN_CROWD_SOLVED | TOPOPLAN_CROWD_UNSOLVABLE)) != 0);
      if (status[i] & TOPOPLAN_CROWD_SOLVED) ++solved_fallback;
    }
    if (status[i] & TOPOPLAN_CROWD_NO_PLAN) ++no_plan;
    CHECK((status[i] & TOPOPLAN_CROWD_PENDING) == 0);
  }
  CHECK(solved == stats.solved && solved + open == kNpcs && solved > kNpcs / 2);
  CHECK(stats.solved_fallback == solved_fallback && stats.no_plan == no_plan && stats.pending == 0);
  /* ℙ answers every NPC of this town itself, its relaxed reachability proofs included
   * (docs/algorithm.md); the chain's answers are checked on castle-guard (test_chain).
   */
  CHECK(by_fallback == 0 && no_plan == 0);

  /* Churn: the arrays stay where they are and change; the twin does not. */
  memcpy(before, b.init, bytes);
  CHECK_STATUS(topoplan_town_churn(town, kNpcs / 2), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_town_batch(town, &b2), TOPOPLAN_OK);
  CHECK(b2.init == b.init);
  CHECK(memcmp(before, b.init, bytes) != 0);
  CHECK_STATUS(topoplan_town_churn(town, -1), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_town_batch(NULL, &b2), TOPOPLAN_INVALID_ARGUMENT);
  topoplan_crowd_free(crowd);
  topoplan_town_free(twin);
  topoplan_town_free(town);
  topoplan_town_free(NULL);
  topoplan_crowd_planner_free(planner);
  topoplan_task_free(task);
}

/* Plan handles (docs/crowds.md): a GOAP-level town planned by handle — cold, warm, a frame at a
 * time — gives every NPC the plan a crowd without handles copies (ℙ's and the fallback's alike);
 * handles go stale with an invalidation and resolve to nothing then. */
static town_run copied, by_handle;

/* The NPCs of `r` against the copied run: same answers; returns how many came by handle. */
static int64_t same_plans(const topoplan_crowd* crowd, const town_run* r, int64_t n) {
  int64_t i, handled = 0;
  const uint16_t hit = TOPOPLAN_CROWD_CACHE_HIT;
  for (i = 0; i < n; ++i) {
    const int32_t* plan = NULL;
    int32_t len = -1;
    CHECK((r->status[i] & ~hit) == (copied.status[i] & ~hit));
    CHECK(r->length[i] == copied.length[i]);
    if (!(copied.status[i] & TOPOPLAN_CROWD_SOLVED)) continue;
    if (r->handles[i].epoch == 0) {
      plan = &r->actions[r->offset[i]];
      len = r->length[i];
    } else {
      ++handled;
      CHECK_STATUS(topoplan_crowd_resolve(crowd, r->handles[i], &plan, &len), TOPOPLAN_OK);
    }
    CHECK(len == copied.length[i]);
    if (plan != NULL && len == copied.length[i] && len > 0)
      CHECK(memcmp(plan, &copied.actions[copied.offset[i]], sizeof(int32_t) * (size_t)len) == 0);
  }
  return handled;
}

static void test_handles(const char* dir) {
  town_fixture f;
  topoplan_crowd_planner* planner;
  topoplan_plan_cache* cache = NULL;
  topoplan_crowd *plain = NULL, *crowd = NULL;
  topoplan_crowd_def cdef;
  topoplan_crowd_batch b;
  topoplan_crowd_output out;
  topoplan_crowd_stats stats;
  topoplan_plan_handle kept, empty = {0, 0};
  const int32_t* plan = NULL;
  const int32_t* again = NULL;
  int32_t len = -1, len2 = -1;
  uint32_t epoch = 0, epoch2 = 0;
  int64_t i, used = -1, capacity = -1, cursor = 0, frames = 0, fallback = 0;
  char error[512];
  /* A town where ℙ gives up on some NPCs (not the goap-level town: ℙ's relaxed reachability
   * proofs answer all its NPCs, docs/algorithm.md). */
  if (!town_open(&f, dir, "domains/goap/castle-guard.toml", 3000, 11)) return;
  planner = f.planner;
  b = f.batch;
  CHECK_STATUS(topoplan_plan_cache_create(planner, 4096, 16, &cache, error, sizeof error),
               TOPOPLAN_OK);
  if (cache == NULL) return;
  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create(planner, &cdef, &plain, error, sizeof error), TOPOPLAN_OK);
  cdef.cache = cache;
  CHECK_STATUS(topoplan_crowd_create(planner, &cdef, &crowd, error, sizeof error), TOPOPLAN_OK);

  /* The reference: plans copied, no cache. */
  out = run_output(&copied);
  CHECK_STATUS(topoplan_crowd_plan(plain, &b, &out, &stats), TOPOPLAN_OK);
  for (i = 0; i < b.count; ++i) fallback += (copied.status[i] & TOPOPLAN_CROWD_FALLBACK) != 0;
  CHECK(fallback > 0 && stats.solved > b.count / 2);

  /* Cold (ℙ, fallback and empty plans go to the table), then warm (cache hits by handle). */
  out = run_output(&by_handle);
  CHECK_STATUS(topoplan_crowd_plan_handles(crowd, &b, &out, by_handle.handles, &stats),
               TOPOPLAN_OK);
  CHECK(stats.served == b.count && stats.complete == 1);
  CHECK(same_plans(crowd, &by_handle, b.count) == stats.solved);
  memset(&by_handle, 0, sizeof by_handle);
  CHECK_STATUS(topoplan_crowd_plan_handles(crowd, &b, &out, by_handle.handles, &stats),
               TOPOPLAN_OK);
  CHECK(stats.cache_hits > b.count / 2);
  CHECK(same_plans(crowd, &by_handle, b.count) == stats.solved);
  /* A frame at a time (zero budget: a block per call). */
  memset(&by_handle, 0, sizeof by_handle);
  do {
    CHECK_STATUS(
        topoplan_crowd_plan_frame_handles(crowd, &b, &out, by_handle.handles, &cursor, 0.0, &stats),
        TOPOPLAN_OK);
    ++frames;
  } while (!stats.complete && frames < b.count);
  CHECK(cursor == b.count && frames > 1);
  CHECK(same_plans(crowd, &by_handle, b.count) > b.count / 2);

  /* The table; the crowd's and the cache's resolve agree; invalidation makes handles stale. */
  CHECK_STATUS(topoplan_plan_cache_table(cache, &epoch, &used, &capacity), TOPOPLAN_OK);
  CHECK(epoch != 0 && used > 1 && capacity == (int64_t)1 << 19);
  CHECK_STATUS(topoplan_plan_cache_table(cache, NULL, NULL, NULL), TOPOPLAN_OK);
  for (i = 0; i < b.count && by_handle.handles[i].epoch == 0; ++i) continue;
  CHECK(i < b.count);
  if (i == b.count) return;
  kept = by_handle.handles[i];
  CHECK(kept.epoch == epoch);
  CHECK_STATUS(topoplan_crowd_resolve(crowd, kept, &plan, &len), TOPOPLAN_OK);
  CHECK_STATUS(topoplan_plan_cache_resolve(cache, kept, &again, &len2), TOPOPLAN_OK);
  CHECK(plan == again && len == len2 && len == copied.length[i]);
  topoplan_plan_cache_invalidate(cache);
  CHECK_STATUS(topoplan_plan_cache_table(cache, &epoch2, &used, NULL), TOPOPLAN_OK);
  CHECK(epoch2 != epoch && used <= 1);
  CHECK_STATUS(topoplan_crowd_resolve(crowd, kept, &plan, &len), TOPOPLAN_NOT_FOUND);
  CHECK(plan == NULL && len == 0);
  CHECK_STATUS(topoplan_plan_cache_resolve(cache, empty, &plan, &len), TOPOPLAN_NOT_FOUND);

  /* Bad calls: no cache, no handle array, NULL pointers. */
  CHECK_STATUS(topoplan_crowd_plan_handles(plain, &b, &out, by_handle.handles, &stats),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_plan_handles(crowd, &b, &out, NULL, &stats),
               TOPOPLAN_INVALID_ARGUMENT);
  cursor = 0;
  CHECK_STATUS(topoplan_crowd_plan_frame_handles(crowd, &b, &out, NULL, &cursor, 0.0, &stats),
               TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_resolve(plain, kept, &plan, &len), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_crowd_resolve(crowd, kept, NULL, &len), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_plan_cache_resolve(NULL, kept, &plan, &len), TOPOPLAN_INVALID_ARGUMENT);
  CHECK_STATUS(topoplan_plan_cache_table(NULL, &epoch, NULL, NULL), TOPOPLAN_INVALID_ARGUMENT);

  topoplan_crowd_free(crowd);
  topoplan_crowd_free(plain);
  topoplan_plan_cache_free(cache);
  town_close(&f);
}

static char* read_all(const char* path, size_t* size) {
  FILE* f = fopen(path, "rb");
  char* text;
  long n;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  text = (char*)malloc((size_t)n + 1);
  if (text != NULL) {
    *size = fread(text, 1, (size_t)n, f);
    text[*size] = '\0';
  }
  fclose(f);
  return text;
}

/* One episode through the C API; with the CLI, its replay equals `topoplan sim --replay`'s. */
static void run_scenario(const char* dir, const char* cli, const char* file, const char* selector,
                         int32_t every) {
  topoplan_sim* sim = NULL;
  topoplan_sim_options o;
  topoplan_sim_result r;
  char error[512], command[8192], out_path[64];
  char* replay;
  char* expected;
  size_t size = 0, expected_size = 0;
  CHECK_STATUS(topoplan_sim_load(source_path(dir, file), &sim, error, sizeof error), TOPOPLAN_OK);
  if (sim == NULL) return;
  topoplan_sim_options_init(&o);
  o.selector = selector;
  o.seed = 3;
  o.replay_every = every;
  CHECK_STATUS(topoplan_sim_run(sim, &o, &r, error, sizeof error), TOPOPLAN_OK);
  CHECK(r.ticks > 0 && r.seconds > 0 && r.decisions > 0 && r.plans > 0);
  CHECK_STATUS(topoplan_sim_replay(sim, NULL, 0, &size), TOPOPLAN_BUFFER_TOO_SMALL);
  replay = (char*)malloc(size);
  if (replay == NULL) return;
  CHECK_STATUS(topoplan_sim_replay(sim, replay, size, &size), TOPOPLAN_OK);
  CHECK(strncmp(replay, "{\"type\":\"header\",\"version\":1,", 29) == 0);
  CHECK(strstr(replay, "{\"type\":\"end\"") != NULL && replay[size - 2] == '\n');
  if (cli != NULL) {
    snprintf(out_path, sizeof out_path, "capi_replay_%s.jsonl", selector);
    snprintf(
        command, sizeof command,
        "\"%s\" sim \"%s\" --selector %s --seed 3 --replay %s --replay-every %d --quiet >/dev/null",
        cli, source_path(dir, file), selector, out_path, (int)every);
    CHECK(system(command) == 0);
    expected = read_all(out_path, &expected_size);
    CHECK(expected != NULL);
    if (expected != NULL) {
      CHECK(expected_size + 1 == size && memcmp(expected, replay, expected_size) == 0);
      free(expected);
    }
    remove(out_path);
  }
  free(replay);
  topoplan_sim_free(sim);
}

static void test_sim(const char* dir, const char* cli) {
  topoplan_sim* sim = NULL;
  topoplan_sim_options o;
  char error[512];
  size_t size = 0;
  static const char bad[] = "[scenario]\nkind = \"arena\"\n\n[world]\nwidth = -3\n";
  CHECK_STATUS(
      topoplan_sim_load(source_path(dir, "domains/sim/arena.toml"), &sim, error, sizeof error),
      TOPOPLAN_OK);
  if (sim == NULL) return;
  CHECK(strcmp(topoplan_sim_kind(sim), "arena") == 0);
  CHECK(topoplan_sim_num_selectors(sim) == 3);
  CHECK(strcmp(topoplan_sim_selector_name(sim, 0), "fsm") == 0);
  CHECK(strcmp(topoplan_sim_selector_name(sim, 2), "udgoap") == 0);
  CHECK(topoplan_sim_selector_name(sim, 3) == NULL);
  CHECK_STATUS(topoplan_sim_replay(sim, NULL, 0, &size), TOPOPLAN_BUFFER_TOO_SMALL);
  CHECK(size == 1); /* nothing run yet: "" */
  topoplan_sim_options_init(&o);
  o.selector = "astar";
  CHECK_STATUS(topoplan_sim_run(sim, &o, NULL, error, sizeof error), TOPOPLAN_NOT_FOUND);
  CHECK(strstr(error, "fsm, goap, udgoap") != NULL);
  o.selector = NULL;
  o.replay_every = -1;
  CHECK_STATUS(topoplan_sim_run(sim, &o, NULL, error, sizeof error), TOPOPLAN_INVALID_ARGUMENT);
  topoplan_sim_free(sim);
  sim = NULL;

  CHECK_STATUS(topoplan_sim_parse(bad, sizeof bad - 1, "bad.toml", NULL, &sim, error, sizeof error),
               TOPOPLAN_INPUT_ERROR);
  CHECK(sim == NULL && strncmp(error, "bad.toml:5:", 11) == 0);
  CHECK_STATUS(
      topoplan_sim_load(source_path(dir, "domains/sim/hospital.toml"), &sim, error, sizeof error),
      TOPOPLAN_OK);
  if (sim != NULL) {
    CHECK(topoplan_sim_num_selectors(sim) == 0);
    CHECK_STATUS(topoplan_sim_run(sim, NULL, NULL, error, sizeof error), TOPOPLAN_UNSUPPORTED);
    topoplan_sim_free(sim);
  }
  run_scenario(dir, cli, "domains/sim/arena.toml", "udgoap", 20);
  run_scenario(dir, cli, "domains/sim/arena.toml", "fsm", 7);
  run_scenario(dir, cli, "domains/sim/sims-house.toml", "goap", 50);
}

/* A domain ℙ takes only part of (multi-effect actions, several producers of one value: a real
 * GOAP domain) makes a crowd whose chain answers every NPC ℙ does not: each NPC solved or proved
 * unsolvable, each plan valid, some answered by the fallback. */
static void test_real_domain(const char* dir) {
  enum { kNpcs = 2000 };
  town_fixture f;
  topoplan_crowd* crowd = NULL;
  topoplan_crowd_def cdef;
  topoplan_crowd_stats stats;
  topoplan_crowd_output out;
  static int32_t actions[kNpcs * 64];
  static uint32_t offset[kNpcs];
  static uint16_t length[kNpcs], status[kNpcs];
  char error[512];
  int64_t i, solved = 0, by_fallback = 0;
  int32_t words;
  /* The town's default seed (topoplan_town_def_init). */
  if (!town_open(&f, dir, "domains/real/gpgoap-soldier.toml", kNpcs, 1)) return;
  words = topoplan_crowd_planner_words(f.planner);
  topoplan_crowd_def_init(&cdef);
  CHECK_STATUS(topoplan_crowd_create(f.planner, &cdef, &crowd, error, sizeof error), TOPOPLAN_OK);
  out = crowd_output_over(actions, kNpcs * 64, offset, length, status);
  CHECK_STATUS(topoplan_crowd_plan(crowd, &f.batch, &out, &stats), TOPOPLAN_OK);
  CHECK(stats.served == kNpcs && stats.complete == 1 && stats.no_plan == 0);
  for (i = 0; i < kNpcs; ++i) {
    CHECK((status[i] & (TOPOPLAN_CROWD_SOLVED | TOPOPLAN_CROWD_UNSOLVABLE)) != 0);
    if (status[i] & TOPOPLAN_CROWD_SOLVED) {
      ++solved;
      check_npc(f.task, f.planner, &f.batch, actions, offset, length, i, words);
    }
    if (status[i] & TOPOPLAN_CROWD_FALLBACK) ++by_fallback;
  }
  CHECK(solved > 0 && by_fallback > 0);
  topoplan_crowd_free(crowd);
  town_close(&f);
}

int main(int argc, char** argv) {
  const char* dir = argc > 1 ? argv[1] : ".";
  const char* cli = argc > 2 ? argv[2] : NULL;
  test_town();
  test_handles(dir);
  test_real_domain(dir);
  test_sim(dir, cli);
  printf("%d checks, %d failed%s\n", checks, failures,
         cli == NULL ? " (no CLI: replays not compared)" : "");
  return failures == 0 ? 0 : 1;
}
