// libFuzzer harness: bytes → a sequence of C API calls, as a host program (or a hostile one)
// would make them: a task (built-in, or parsed from the input's bytes), plans by registry name
// with valid and out-of-range options and problems, validation of random plans, crowd planners,
// plan caches (with and without a plan table), crowds with random defs, batches with random
// classes, packed states and buffer sizes (copying, framed, by handle), handles resolved (given
// ones, stale ones after an invalidation, forged ones of the current epoch), packing and
// unpacking, towns with random defs, and the frees. Under ASan + UBSan every call must return a
// status (never crash, read out of bounds or leak), and what it returns is checked: a solved
// plan validates, a batch's solved NPCs have valid plans, a resolved handle gives action ids of
// the domain and no longer than the longest plan.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "topoplan/c/topoplan_c.h"
#include "topoplan/c/topoplan_c_agents.h"
#include "topoplan/c/topoplan_c_crowd.h"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_capi: %s\n", what);
    std::abort();
  }
}

// A status is one of the documented ones.
void known(topoplan_status s) {
  require(std::string(topoplan_status_string(s)) != "unknown status", "unknown status");
  require(s != TOPOPLAN_INTERNAL_ERROR, "internal error (an exception escaped into the C API)");
}

// The built-in tasks and their crowd planners, made once and shared by every input: making them
// (generating goap-level, compiling a planner) cost far more than the calls an input makes, and
// the C API takes both as const once made, so an input cannot change what the next one sees.
struct Builtin {
  topoplan_task* task = nullptr;
  topoplan_crowd_planner* planner = nullptr;
  bool planner_tried = false;
};
Builtin& builtin(int32_t index) {
  // Never destroyed: still reachable when LeakSanitizer looks, after static destructors.
  static auto* made = new std::vector<Builtin>(static_cast<size_t>(topoplan_num_builtin_tasks()));
  Builtin& b = (*made)[static_cast<size_t>(index)];
  if (b.task == nullptr) {
    char error[256] = {};
    known(topoplan_task_builtin(topoplan_builtin_task_name(index), &b.task, error, sizeof error));
    require(b.task != nullptr, "a built-in task does not load");
  }
  return b;
}

struct Session {
  explicit Session(FuzzedDataProvider& data) : in(data) {}
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  FuzzedDataProvider& in;
  topoplan_task* task = nullptr;
  topoplan_crowd_planner* planner = nullptr;
  topoplan_plan_cache* cache = nullptr;
  topoplan_crowd* crowd = nullptr;
  topoplan_town* town = nullptr;
  topoplan_agents* agents = nullptr;
  int32_t goal_lists = 0;  // lists made in `agents` (ids 0..goal_lists-1)
  // Objects made per input, each capped: making them (a crowd's workers and fallback planner, a
  // cache's table, a pool's threads) costs far more than the calls on them, and what a second
  // one of a kind would reach, the first already does.
  int crowds_made = 0, caches_made = 0, towns_made = 0, agents_made = 0;
  Builtin* shared = nullptr;  // task and planner are the built-in's (not freed here)
  std::vector<topoplan_plan_handle> handles;  // given by batches (some stale by now)
  char error[256] = {};

  ~Session() {
    topoplan_agents_free(agents);
    topoplan_crowd_free(crowd);
    topoplan_town_free(town);
    topoplan_plan_cache_free(cache);
    if (shared == nullptr) {
      topoplan_crowd_planner_free(planner);
      topoplan_task_free(task);
    }
  }

  int32_t vars() const { return topoplan_task_num_variables(task); }

  // A value: usually valid for the variable, sometimes hostile.
  int32_t value(int32_t var, bool goal) {
    switch (in.ConsumeIntegralInRange<int>(0, 9)) {
      case 0:
        return in.ConsumeIntegral<int32_t>();
      case 1:
        return topoplan_task_domain_size(task, var);  // one past the last
      case 2:
        return goal ? TOPOPLAN_UNDEFINED : -1;
      default:
        return in.ConsumeIntegralInRange<int32_t>(0, topoplan_task_domain_size(task, var) - 1);
    }
  }

  double hostile_real() {
    switch (in.ConsumeIntegralInRange<int>(0, 6)) {
      case 0:
        return std::numeric_limits<double>::infinity();
      case 1:
        return std::numeric_limits<double>::quiet_NaN();
      case 2:
        return -1.0;
      case 3:
        return 1e300;
      default:
        return in.ConsumeFloatingPointInRange<double>(0.0, 0.01);
    }
  }

  int64_t hostile_int(int64_t valid_lo, int64_t valid_hi) {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
      case 0:
        return in.ConsumeIntegral<int64_t>();
      case 1:
        return -1;
      case 2:
        return 0;
      default:
        return in.ConsumeIntegralInRange<int64_t>(valid_lo, valid_hi);
    }
  }

  // A size whose valid range allocates memory in proportion (cache entries, table slots, memo
  // entries): valid and small, or a value every door must reject (past `limit_hi`, negative).
  // A valid request for gigabytes is the caller's to make, not a finding.
  int64_t hostile_size(int64_t valid_lo, int64_t valid_hi, int64_t limit_hi) {
    switch (in.ConsumeIntegralInRange<int>(0, 7)) {
      case 0:
        return limit_hi + 1;
      case 1:
        return std::numeric_limits<int32_t>::min();
      case 2:
        return -1;
      case 3:
        return valid_lo - 1;
      default:
        return in.ConsumeIntegralInRange<int64_t>(valid_lo, valid_hi);
    }
  }

  void plan() {
    const int32_t m = vars();
    std::vector<int32_t> init(static_cast<size_t>(m)), goal(static_cast<size_t>(m));
    topoplan_problem problem{};
    const bool from_instance = topoplan_task_num_instances(task) > 0 && in.ConsumeBool();
    if (from_instance) {
      known(topoplan_task_instance(task, in.ConsumeIntegralInRange<int32_t>(-1, 3), &problem));
      if (problem.init != nullptr) {
        std::copy(problem.init, problem.init + m, init.begin());
        std::copy(problem.goal, problem.goal + m, goal.begin());
      }
    } else {
      for (int32_t v = 0; v < m; ++v) {
        init[static_cast<size_t>(v)] = value(v, false);
        goal[static_cast<size_t>(v)] = value(v, true);
      }
      problem.npc_class = in.ConsumeIntegralInRange<int32_t>(-2, topoplan_task_num_classes(task));
    }
    problem.init = init.data();
    problem.goal = goal.data();
    problem.num_variables = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    topoplan_plan_options options;
    topoplan_plan_options_init(&options);
    if (in.ConsumeBool()) {
      options.max_expansions = hostile_int(1, 2000);
      options.max_memory_bytes = hostile_int(1 << 20, 1 << 26);
      options.max_seconds = hostile_real();
      options.objective = in.ConsumeIntegralInRange<int32_t>(-1, 2);
      // Out-of-range values stay; valid ones are kept small so a search ends soon.
      if (options.max_expansions > 2000) options.max_expansions = 2000;
    } else {
      options.max_expansions = 2000;
    }
    const int32_t n = topoplan_num_planners();
    std::string name =
        in.ConsumeBool()
            ? std::string(topoplan_planner_name(in.ConsumeIntegralInRange<int32_t>(0, n - 1)))
            : in.ConsumeRandomLengthString(12);
    if (name == "exact" || name == "backstrom") name = "astar";  // bounded by the options
    const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 64);
    std::vector<int32_t> actions(static_cast<size_t>(capacity > 0 ? capacity : 0));
    topoplan_plan_stats stats;
    const topoplan_status s = topoplan_plan(
        task, name.c_str(), &problem, in.ConsumeBool() ? &options : nullptr,
        actions.empty() ? nullptr : actions.data(), capacity, &stats, error, sizeof error);
    known(s);
    if (s == TOPOPLAN_OK) {
      int32_t failed = -2;
      int64_t cost = -1;
      known(topoplan_validate(task, &problem, actions.data(), stats.length, &failed, &cost, error,
                              sizeof error));
      require(failed == -1, "a solved plan does not validate");
      require(cost == stats.cost, "a solved plan's cost differs from the validator's");
    }
  }

  void validate_random() {
    const int32_t m = vars();
    std::vector<int32_t> init(static_cast<size_t>(m)), goal(static_cast<size_t>(m));
    for (int32_t v = 0; v < m; ++v) {
      init[static_cast<size_t>(v)] = value(v, false);
      goal[static_cast<size_t>(v)] = value(v, true);
    }
    const topoplan_problem problem{init.data(), goal.data(), m, TOPOPLAN_ALL_ACTIONS};
    std::vector<int32_t> plan(in.ConsumeIntegralInRange<size_t>(0, 8));
    for (int32_t& a : plan)
      a = in.ConsumeIntegralInRange<int32_t>(-1, topoplan_task_num_actions(task));
    int32_t failed = 0;
    int64_t cost = 0;
    known(topoplan_validate(task, &problem, plan.data(), static_cast<int32_t>(plan.size()), &failed,
                            &cost, error, sizeof error));
  }

  void make_crowd() {
    if (planner == nullptr && shared != nullptr && !shared->planner_tried) {
      shared->planner_tried = true;
      known(topoplan_crowd_planner_create(task, &shared->planner, error, sizeof error));
      planner = shared->planner;
    } else if (planner == nullptr && shared == nullptr) {
      known(topoplan_crowd_planner_create(task, &planner, error, sizeof error));
    }
    if (planner == nullptr || crowds_made == 3) return;
    ++crowds_made;
    topoplan_crowd_free(crowd);
    crowd = nullptr;
    if (in.ConsumeBool() && caches_made < 2) {
      ++caches_made;
      topoplan_plan_cache_free(cache);
      cache = nullptr;
      handles.clear();
      const auto capacity = static_cast<int32_t>(hostile_size(2, 256, 1 << 28));
      const auto max_len = static_cast<int32_t>(hostile_int(0, 255));
      const auto table = static_cast<int32_t>(hostile_size(0, 1 << 10, 1 << 30));
      // The default plan table (2^19 slots, 2 MiB to clear) once in eight.
      known(
          in.ConsumeIntegralInRange<int>(0, 7) == 0
              ? topoplan_plan_cache_create(planner, capacity, max_len, &cache, error, sizeof error)
              : topoplan_plan_cache_create_with_table(planner, capacity, max_len, table, &cache,
                                                      error, sizeof error));
    }
    topoplan_crowd_def def;
    topoplan_crowd_def_init(&def);
    def.cache = in.ConsumeBool() ? cache : nullptr;
    if (in.ConsumeBool()) {
      def.worker_count = static_cast<int32_t>(hostile_int(1, 2));
      def.threads = static_cast<int32_t>(hostile_int(1, 2));
      def.npcs_per_block = static_cast<int32_t>(hostile_size(1, 128, 1 << 20));
      def.worker_memo_entries = static_cast<int32_t>(hostile_size(0, 256, 1 << 24));
    } else if (in.ConsumeIntegralInRange<int>(0, 7) != 0) {
      def.worker_memo_entries = 64;  // the default's 2048 entries, once in eight
    }
    if (in.ConsumeBool()) {
      known(topoplan_crowd_create(planner, &def, &crowd, error, sizeof error));
      return;
    }
    // A planner chain: names valid, empty, repeated, unknown; budgets valid or out of range.
    topoplan_crowd_chain chain;
    topoplan_crowd_chain_init(&chain);
    static const char* const kChains[] = {"none",       "astar", "",           ",,,",
                                          "astar,none", "bogus", "topo,astar", "astar-back"};
    std::string fallback = in.ConsumeIntegralInRange<int>(0, 7) == 0
                               ? in.ConsumeRandomLengthString(16)
                               : kChains[in.ConsumeIntegralInRange<int>(0, 7)];
    chain.fallback = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : fallback.c_str();
    std::string class_name = topoplan_task_num_classes(task) > 0 && in.ConsumeBool()
                                 ? topoplan_task_class_name(task, 0)
                                 : in.ConsumeRandomLengthString(8);
    const topoplan_crowd_class_chain per_class{class_name.c_str(), "none"};
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
      chain.class_fallback = in.ConsumeBool() ? &per_class : nullptr;
      chain.num_class_fallback = in.ConsumeIntegralInRange<int32_t>(-1, 1);
    }
    if (in.ConsumeBool()) {
      chain.fallback_budget = hostile_int(1, 500);
      chain.max_expansions = hostile_int(1, 2000);
      chain.max_memory_bytes = hostile_int(1 << 20, 1 << 24);
      chain.max_seconds = hostile_real();
    }
    known(topoplan_crowd_create_with_chain(planner, &def, &chain, &crowd, error, sizeof error));
  }

  void batch() {
    if (crowd == nullptr) return;
    const int32_t words = topoplan_crowd_planner_words(planner);
    const int32_t classes = topoplan_crowd_planner_num_classes(planner);
    const int32_t m = vars();
    const auto n = in.ConsumeIntegralInRange<int64_t>(0, 48);
    std::vector<uint16_t> cls(static_cast<size_t>(n));
    std::vector<uint64_t> init(static_cast<size_t>(n * words)), goal(init.size());
    std::vector<int32_t> s(static_cast<size_t>(m)), g(static_cast<size_t>(m));
    for (int64_t i = 0; i < n; ++i) {
      cls[static_cast<size_t>(i)] =
          in.ConsumeIntegralInRange<uint16_t>(0, 9) == 0
              ? in.ConsumeIntegral<uint16_t>()
              : in.ConsumeIntegralInRange<uint16_t>(0, static_cast<uint16_t>(classes - 1));
      uint64_t* pi = init.data() + i * words;
      uint64_t* pg = goal.data() + i * words;
      if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {  // raw words: any code in any field
        for (int32_t w = 0; w < words; ++w) {
          pi[w] = in.ConsumeIntegral<uint64_t>();
          pg[w] = in.ConsumeIntegral<uint64_t>();
        }
        continue;
      }
      for (int32_t v = 0; v < m; ++v) {
        s[static_cast<size_t>(v)] =
            in.ConsumeIntegralInRange<int32_t>(0, topoplan_task_domain_size(task, v) - 1);
        g[static_cast<size_t>(v)] =
            in.ConsumeBool()
                ? TOPOPLAN_UNDEFINED
                : in.ConsumeIntegralInRange<int32_t>(0, topoplan_task_domain_size(task, v) - 1);
      }
      require(topoplan_crowd_pack_state(planner, s.data(), m, pi) == TOPOPLAN_OK, "pack_state");
      require(topoplan_crowd_pack_goal(planner, g.data(), m, pg) == TOPOPLAN_OK, "pack_goal");
    }
    const auto capacity = in.ConsumeIntegralInRange<int64_t>(0, 16 * (n + 1));
    std::vector<int32_t> actions(static_cast<size_t>(capacity));
    std::vector<uint32_t> offset(static_cast<size_t>(n));
    std::vector<uint16_t> length(static_cast<size_t>(n)), status(static_cast<size_t>(n));
    const topoplan_crowd_batch b{n, cls.data(), init.data(), goal.data()};
    const topoplan_crowd_output out{actions.data(), capacity, offset.data(), length.data(),
                                    status.data()};
    std::vector<topoplan_plan_handle> given(static_cast<size_t>(n));
    const bool by_handle = in.ConsumeBool();
    const bool framed = in.ConsumeBool();
    int64_t cursor = in.ConsumeIntegralInRange<int>(0, 7) == 0
                         ? in.ConsumeIntegralInRange<int64_t>(-2, n + 2)
                         : 0;
    const double budget = in.ConsumeBool() ? 1.0 : hostile_real();
    topoplan_crowd_stats stats;
    topoplan_status st;
    if (by_handle)
      st = framed ? topoplan_crowd_plan_frame_handles(crowd, &b, &out, given.data(), &cursor,
                                                      budget, &stats)
                  : topoplan_crowd_plan_handles(crowd, &b, &out, given.data(), &stats);
    else
      st = framed ? topoplan_crowd_plan_frame(crowd, &b, &out, &cursor, budget, &stats)
                  : topoplan_crowd_plan(crowd, &b, &out, &stats);
    known(st);
    if (st != TOPOPLAN_OK) return;
    // Every solved NPC's plan validates from its own state to its own goal.
    for (int64_t i = 0; i < n; ++i) {
      const auto k = static_cast<size_t>(i);
      if ((status[k] & TOPOPLAN_CROWD_SOLVED) == 0) continue;
      const int32_t* plan = actions.data() + offset[k];
      int32_t len = length[k];
      if (by_handle && given[k].epoch != 0) {
        handles.push_back(given[k]);
        require(topoplan_crowd_resolve(crowd, given[k], &plan, &len) == TOPOPLAN_OK,
                "a fresh handle does not resolve");
      } else {
        require(offset[k] + static_cast<uint64_t>(len) <= static_cast<uint64_t>(capacity),
                "a solved NPC's plan lies outside the action buffer");
      }
      require(
          topoplan_crowd_unpack_state(planner, init.data() + i * words, s.data(), m) == TOPOPLAN_OK,
          "unpack_state");
      require(
          topoplan_crowd_unpack_goal(planner, goal.data() + i * words, g.data(), m) == TOPOPLAN_OK,
          "unpack_goal");
      // Raw words may hold out-of-range codes in fields the crowd does not read for this NPC
      // (kCrowdBadInput's contract): the validator refuses such a state, so only in-range NPCs
      // are validated.
      bool in_range = true;
      for (int32_t v = 0; v < m; ++v) {
        const int32_t size = topoplan_task_domain_size(task, v);
        const auto x = static_cast<size_t>(v);
        in_range = in_range && s[x] >= 0 && s[x] < size &&
                   (g[x] == TOPOPLAN_UNDEFINED || (g[x] >= 0 && g[x] < size));
      }
      const topoplan_problem p{
          s.data(), g.data(), m,
          topoplan_task_num_classes(task) == 0 ? TOPOPLAN_ALL_ACTIONS : cls[k]};
      int32_t failed = -2;
      int64_t cost = 0;
      known(topoplan_validate(task, &p, plan, len, &failed, &cost, error, sizeof error));
      require(failed == -1 || (!in_range && failed == -2), "a crowd NPC's plan does not validate");
    }
  }

  void resolve() {
    if (cache == nullptr) return;
    uint32_t epoch = 0;
    int64_t used = 0, capacity = 0;
    require(topoplan_plan_cache_table(cache, &epoch, &used, &capacity) == TOPOPLAN_OK, "table");
    topoplan_plan_handle h{};
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        if (!handles.empty()) h = handles[in.ConsumeIntegralInRange<size_t>(0, handles.size() - 1)];
        break;
      case 1:  // forged: the current epoch, any id inside (or just past) the used part
        h = {in.ConsumeIntegralInRange<uint32_t>(0, static_cast<uint32_t>(used) + 2), epoch};
        break;
      case 2:
        h = {in.ConsumeIntegral<uint32_t>(), epoch};
        break;
      default:
        h = {in.ConsumeIntegral<uint32_t>(), in.ConsumeIntegral<uint32_t>()};
    }
    const int32_t* plan = nullptr;
    int32_t len = -1;
    const topoplan_status s = in.ConsumeBool() || crowd == nullptr
                                  ? topoplan_plan_cache_resolve(cache, h, &plan, &len)
                                  : topoplan_crowd_resolve(crowd, h, &plan, &len);
    known(s);
    if (s != TOPOPLAN_OK) return;
    require(len >= 0 && len <= topoplan_crowd_planner_max_plan_length(planner),
            "a resolved plan is longer than any plan");
    for (int32_t i = 0; i < len; ++i)
      require(plan[i] >= 0 && plan[i] < topoplan_task_num_actions(task),
              "a resolved plan holds an action id outside the domain");
  }

  void pack_unpack() {
    if (planner == nullptr) return;
    const int32_t m = vars();
    const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    std::vector<int32_t> s(static_cast<size_t>(m + 2));
    for (int32_t v = 0; v < m; ++v) s[static_cast<size_t>(v)] = value(v, in.ConsumeBool());
    std::vector<uint64_t> packed(static_cast<size_t>(topoplan_crowd_planner_words(planner)));
    for (uint64_t& w : packed) w = in.ConsumeIntegral<uint64_t>();
    known(in.ConsumeBool() ? topoplan_crowd_pack_state(planner, s.data(), n, packed.data())
                           : topoplan_crowd_pack_goal(planner, s.data(), n, packed.data()));
    known(in.ConsumeBool() ? topoplan_crowd_unpack_state(planner, packed.data(), s.data(), n)
                           : topoplan_crowd_unpack_goal(planner, packed.data(), s.data(), n));
  }

  void make_town() {
    if (planner == nullptr || towns_made == 2) return;
    ++towns_made;
    topoplan_town_free(town);
    town = nullptr;
    topoplan_town_def def;
    topoplan_town_def_init(&def);
    // Small valid towns, or values a town must refuse before it builds anything.
    const int64_t npcs[] = {-1, 0, 1, 40, 10'000'001, INT64_MAX};
    const int32_t situations[] = {0, 1, 8, 10'001, INT32_MAX};
    const int32_t backgrounds[] = {0, 1, 16, 65'537, INT32_MAX};
    def.npcs = npcs[in.ConsumeIntegralInRange<int>(0, 5)];
    def.situations_per_class = situations[in.ConsumeIntegralInRange<int>(0, 4)];
    def.backgrounds = backgrounds[in.ConsumeIntegralInRange<int>(0, 4)];
    def.errand_fraction = in.ConsumeBool() ? 0.15 : hostile_real();
    def.seed = in.ConsumeIntegral<uint64_t>();
    known(topoplan_town_create(planner, &def, &town, error, sizeof error));
    if (town != nullptr) {
      require(topoplan_town_npcs(town) <= 40, "a town larger than asked");
      known(topoplan_town_churn(town, in.ConsumeIntegralInRange<int64_t>(-1, 50)));
    }
  }

  // The pending NPCs of a framed pass: listed (with hostile capacities), then dropped.
  void pending() {
    if (crowd == nullptr) return;
    const auto capacity = in.ConsumeIntegralInRange<int64_t>(-1, 64);
    std::vector<int64_t> npcs(static_cast<size_t>(capacity > 0 ? capacity : 0));
    int64_t count = -1;
    const topoplan_status s =
        topoplan_crowd_pending(crowd, npcs.empty() ? nullptr : npcs.data(), capacity, &count);
    known(s);
    if (s == TOPOPLAN_OK)
      for (int64_t i = 0; i < std::min(count, capacity); ++i)
        require(npcs[static_cast<size_t>(i)] >= 0, "a pending NPC with a negative index");
    if (in.ConsumeBool()) known(topoplan_crowd_discard_pending(crowd));
  }

  // The engine calls: whether an action applies where the validator says it does, its effects
  // where the validator's final state has them, goals judged as the validator judges them.
  void engine() {
    const int32_t m = vars();
    const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    std::vector<int32_t> state(static_cast<size_t>(m) + 2), goal(static_cast<size_t>(m) + 2);
    bool in_range = true;
    for (int32_t v = 0; v < m; ++v) {
      const auto x = static_cast<size_t>(v);
      state[x] = value(v, false);
      goal[x] = value(v, true);
      const int32_t size = topoplan_task_domain_size(task, v);
      in_range = in_range && state[x] >= 0 && state[x] < size &&
                 (goal[x] == TOPOPLAN_UNDEFINED || (goal[x] >= 0 && goal[x] < size));
    }
    const int32_t action = in.ConsumeIntegralInRange<int32_t>(-1, topoplan_task_num_actions(task));
    topoplan_condition failed{};
    const topoplan_status s = topoplan_action_applies(task, action, state.data(), n, &failed);
    known(s);
    const int32_t holds = topoplan_goal_holds(task, state.data(), goal.data(), n);
    require(holds >= -1 && holds <= 1, "goal_holds outside {-1, 0, 1}");
    char text[160];
    size_t size = 0;
    known(topoplan_condition_describe(task, &failed, text,
                                      in.ConsumeIntegralInRange<size_t>(0, sizeof text), &size));
    if ((s != TOPOPLAN_OK && s != TOPOPLAN_INVALID_PLAN) || !in_range || n != m) return;
    require((s == TOPOPLAN_OK) == (failed.kind == TOPOPLAN_CONDITION_NONE),
            "action_applies: its status and its failed condition disagree");
    // The validator's verdict on the one-action plan from `state` must be the engine's.
    std::vector<int32_t> free(static_cast<size_t>(m), TOPOPLAN_UNDEFINED);
    const topoplan_problem p{state.data(), free.data(), m, TOPOPLAN_ALL_ACTIONS};
    int32_t step = -2;
    int64_t cost = 0;
    const topoplan_status one =
        topoplan_validate(task, &p, &action, 1, &step, &cost, error, sizeof error);
    known(one);
    require((failed.kind == TOPOPLAN_CONDITION_NONE) == (one == TOPOPLAN_OK),
            "action_applies and the validator disagree");
    const topoplan_problem g{state.data(), goal.data(), m, TOPOPLAN_ALL_ACTIONS};
    const topoplan_status none =
        topoplan_validate(task, &g, &action, 0, &step, &cost, error, sizeof error);
    known(none);
    require((holds == 1) == (none == TOPOPLAN_OK), "goal_holds and the validator disagree");
    if (failed.kind == TOPOPLAN_CONDITION_NONE) {
      known(topoplan_action_apply(task, action, state.data(), n));
      for (int32_t v = 0; v < m; ++v)
        require(state[static_cast<size_t>(v)] >= 0 &&
                    state[static_cast<size_t>(v)] < topoplan_task_domain_size(task, v),
                "apply_action wrote a value outside its variable's domain");
    }
  }

  // An agent world: goals, lists, agents, senses, reports and frames, with hostile ids and
  // sizes; every plan an agent holds is made of the domain's actions.
  void agent_world() {
    if (planner == nullptr) return;
    const int32_t m = vars();
    if (agents == nullptr || in.ConsumeIntegralInRange<int>(0, 7) == 0) {
      if (agents_made == 2) return;
      ++agents_made;
      topoplan_agents_free(agents);
      agents = nullptr;
      goal_lists = 0;
      topoplan_agents_def def;
      topoplan_agents_def_default(&def);
      def.capacity = static_cast<int32_t>(hostile_size(1, 32, 1 << 28));
      if (in.ConsumeBool()) {
        def.decision_period = static_cast<int32_t>(hostile_int(1, 8));
        def.max_plan_age = hostile_int(0, 100);
        def.max_plans_per_frame = static_cast<int32_t>(hostile_int(1, 16));
        def.max_plan_length = static_cast<int32_t>(hostile_int(1, 255));
        def.threads = static_cast<int32_t>(hostile_int(1, 1));
        def.cache_entries = in.ConsumeIntegralInRange<int>(0, 7) == 0
                                ? static_cast<int32_t>(hostile_size(0, 256, 1 << 28))
                                : 0;
      } else if (in.ConsumeIntegralInRange<int>(0, 7) != 0) {
        def.cache_entries = 0;  // a cache brings the default plan table: 2 MiB to clear
      }
      known(topoplan_agents_create(planner, &def, &agents, error, sizeof error));
      if (agents == nullptr) return;
    }
    for (int k = in.ConsumeIntegralInRange<int>(1, 6); k > 0 && in.remaining_bytes() > 0; --k) {
      std::vector<int32_t> s(static_cast<size_t>(m) + 2);
      const int32_t count = topoplan_agents_count(agents);
      const auto agent = [&] { return in.ConsumeIntegralInRange<int32_t>(-1, count); };
      switch (in.ConsumeIntegralInRange<int>(0, 9)) {
        case 0: {  // a goal, then a list of goals
          for (int32_t v = 0; v < m; ++v)
            s[static_cast<size_t>(v)] = in.ConsumeBool() ? TOPOPLAN_UNDEFINED : value(v, true);
          const std::string name = in.ConsumeRandomLengthString(8);
          int32_t id = -1;
          known(topoplan_agents_add_goal(agents, in.ConsumeBool() ? name.c_str() : nullptr,
                                         s.data(), in.ConsumeBool() ? m : m + 1, &id, error,
                                         sizeof error));
          if (id < 0) break;
          const int32_t goals[] = {id, in.ConsumeIntegralInRange<int32_t>(-1, id + 1)};
          int32_t list = -1;
          known(topoplan_agents_add_goal_list(agents, goals, in.ConsumeIntegralInRange(-1, 2),
                                              &list, error, sizeof error));
          if (list >= 0) goal_lists = list + 1;
          known(topoplan_agents_set_class_goals(
              agents, in.ConsumeIntegralInRange<int32_t>(-1, topoplan_task_num_classes(task)),
              in.ConsumeIntegralInRange<int32_t>(-1, goal_lists)));
          break;
        }
        case 1: {  // an agent
          for (int32_t v = 0; v < m; ++v) s[static_cast<size_t>(v)] = value(v, false);
          int32_t id = -1;
          known(topoplan_agents_add(
              agents, in.ConsumeIntegralInRange<int32_t>(-1, topoplan_task_num_classes(task)),
              s.data(), in.ConsumeBool() ? m : m - 1, &id, error, sizeof error));
          break;
        }
        case 2:
          known(topoplan_agents_set_goal_list(agents, agent(),
                                              in.ConsumeIntegralInRange<int32_t>(-1, goal_lists)));
          known(topoplan_agents_set_decision_period(agents, agent(),
                                                    static_cast<int32_t>(hostile_int(1, 4))));
          break;
        case 3: {  // senses, one and many
          const int32_t v = in.ConsumeIntegralInRange<int32_t>(-1, m);
          known(
              topoplan_agents_set_fact(agents, agent(), v, v >= 0 && v < m ? value(v, false) : 0));
          std::vector<topoplan_agent_fact> facts(in.ConsumeIntegralInRange<size_t>(0, 4));
          for (topoplan_agent_fact& f : facts) {
            f.agent = agent();
            f.var = in.ConsumeIntegralInRange<int32_t>(-1, m);
            f.value = f.var >= 0 && f.var < m ? value(f.var, false) : -1;
          }
          known(
              topoplan_agents_set_facts(agents, facts.data(), static_cast<int32_t>(facts.size())));
          break;
        }
        case 4:
          for (int32_t v = 0; v < m; ++v) s[static_cast<size_t>(v)] = value(v, false);
          known(topoplan_agents_set_state(agents, agent(), s.data(), in.ConsumeBool() ? m : m + 1));
          break;
        case 5: {  // reports, one and many
          known(in.ConsumeBool() ? topoplan_agents_action_finished(agents, agent())
                                 : topoplan_agents_action_failed(agents, agent()));
          std::vector<topoplan_agent_report> reports(in.ConsumeIntegralInRange<size_t>(0, 4));
          for (topoplan_agent_report& r : reports) {
            r.agent = agent();
            r.action = in.ConsumeIntegralInRange<int32_t>(-1, topoplan_task_num_actions(task));
            r.outcome = in.ConsumeIntegralInRange<int32_t>(-1, 2);
          }
          int32_t applied = -1;
          known(topoplan_agents_report(agents, reports.data(), static_cast<int32_t>(reports.size()),
                                       &applied));
          break;
        }
        case 6:
          topoplan_agents_bump_world_version(agents);
          break;
        default: {  // a frame, its events described
          std::vector<topoplan_agent_event> events(in.ConsumeIntegralInRange<size_t>(0, 16));
          topoplan_agents_stats stats;
          const double dt = in.ConsumeBool() ? 0.1 : hostile_real();
          const topoplan_status st = topoplan_agents_update(
              agents, dt, events.data(), static_cast<int32_t>(events.size()), &stats);
          known(st);
          if (st != TOPOPLAN_OK) break;
          char text[128];
          size_t size = 0;
          for (size_t i = 0; i < events.size() && i < static_cast<size_t>(stats.events); ++i)
            known(topoplan_agents_describe(agents, &events[i], text, sizeof text, &size));
          const int32_t a = agent();
          int32_t plan[256];
          int32_t length = -1;
          if (topoplan_agents_plan(agents, a, plan, in.ConsumeIntegralInRange(0, 256), &length) ==
              TOPOPLAN_OK) {
            for (int32_t i = 0; i < length; ++i)
              require(plan[i] >= 0 && plan[i] < topoplan_task_num_actions(task),
                      "an agent's plan holds an action id outside the domain");
          }
          known(topoplan_agents_state(agents, a, s.data(), in.ConsumeBool() ? m : m + 1));
          topoplan_agents_fact(agents, a, in.ConsumeIntegralInRange<int32_t>(-1, m));
          topoplan_agents_goal_name(agents, topoplan_agents_goal(agents, a));
          topoplan_agents_step(agents, a);
          topoplan_agents_running_action(agents, a);
          topoplan_agents_progress(agents, a);
          topoplan_agents_last_replan(agents, a);
        }
      }
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  Session s(in);
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {  // a task from the bytes themselves
    const std::string text = in.ConsumeRandomLengthString(2048);
    known(topoplan_task_parse(text.data(), text.size(), in.ConsumeIntegralInRange<int32_t>(-1, 3),
                              "fuzz", &s.task, s.error, sizeof s.error));
  } else {
    const int32_t n = topoplan_num_builtin_tasks();
    s.shared = &builtin(in.ConsumeIntegralInRange<int32_t>(0, n - 1));
    s.task = s.shared->task;
    s.planner = s.shared->planner;
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {  // a name that is (almost surely) not one
      const std::string name = in.ConsumeRandomLengthString(12);
      topoplan_task* t = nullptr;
      known(topoplan_task_builtin(name.c_str(), &t, s.error, sizeof s.error));
      topoplan_task_free(t);
    }
  }
  if (s.task == nullptr || topoplan_task_num_variables(s.task) > 64) return 0;
  for (int step = 0; step < 24 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange<int>(0, 11)) {
      case 0:
        s.plan();
        break;
      case 1:
        s.validate_random();
        break;
      case 2:
        s.make_crowd();
        break;
      case 3:
      case 4:
        s.batch();
        break;
      case 5:
        s.resolve();
        break;
      case 6:
        if (s.cache != nullptr) topoplan_plan_cache_invalidate(s.cache);
        break;
      case 7:
        s.pack_unpack();
        break;
      case 8:
        s.pending();
        break;
      case 9:
        s.engine();
        break;
      case 10:
        s.agent_world();
        break;
      default:
        s.make_town();
    }
  }
  return 0;
}
