// libFuzzer harness: bytes → a sequence of C API calls, as a host program (or a hostile one)
// would make them: a task (built-in, or parsed from the input's bytes), its names and lookups,
// states as text, plans by registry name with valid and out-of-range options and problems,
// prepared planners and ℙ handles, class analyses, validation of random plans, crowd planners,
// plan caches (with and without a plan table), crowds with random defs and planner chains,
// batches with random classes, packed states and buffer sizes (copying, framed, by handle),
// handles resolved (given ones, stale ones after an invalidation, forged ones of the current
// epoch), packing and unpacking, towns, agent worlds, a UDGOAP world, simulations, and the frees.
// Under ASan + UBSan every call must return a status (never crash, read out of bounds or leak),
// and what it returns is checked: a solved plan validates, a batch's solved NPCs have valid
// plans, a resolved handle gives action ids of the domain and no longer than the longest plan,
// the engine calls agree with the validator, a name found is the name asked for.
//
// Cost. A made object (a crowd's per-worker scratch and fallback planners, a plan table, an
// agent world, a town, a prepared planner, an analysis) costs 1-20 ms under ASan + UBSan where a
// call on it costs microseconds, and most corpus inputs make some: with objects made per input
// the harness ran at 5-100 exec/s. So every object of a built-in task whose def is drawn from a
// few valid values is kept in a pool and handed to later inputs with the same def; it is freed
// and made again after kMaxUses uses, or when its pool is full (least recently used first), so
// creation and free stay on the fuzzed paths and what an object accumulates (an agent world's
// goals) stays bounded. A def with a hostile value goes to the create call every time (it is
// refused before anything is allocated); if one is accepted anyway, its object is freed with the
// input. A parsed task's objects are all freed with the input. Replayed alone, an input meets
// empty pools, so a crash artifact runs on fresh objects; one that does not crash alone depended
// on an object an earlier input left (at most kMaxUses inputs back).
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "topoplan/c/topoplan_c.h"
#include "topoplan/c/topoplan_c_agents.h"
#include "topoplan/c/topoplan_c_crowd.h"

#ifndef TOPOPLAN_SOURCE_DIR
#define TOPOPLAN_SOURCE_DIR "."
#endif

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

constexpr int kMaxUses = 64;

// Objects kept by def (a byte string of the def's fields), see "Cost" above.
template <class T, void (*Free)(T*)>
class Pool {
 public:
  Pool(size_t capacity, int max_uses) : capacity_(capacity), max_uses_(max_uses) {}
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    for (auto& kv : entries_) Free(kv.second.object);
  }
  // The object kept for `key`, or nullptr: none yet, or it had served its uses (freed now).
  T* find(const std::string& key) {
    auto it = entries_.find(key);
    if (it == entries_.end()) return nullptr;
    if (++it->second.uses > max_uses_) {
      Free(it->second.object);
      entries_.erase(it);
      return nullptr;
    }
    it->second.last_use = ++clock_;
    return it->second.object;
  }
  void keep(const std::string& key, T* object) {
    if (entries_.size() >= capacity_) {
      auto oldest = entries_.begin();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->second.last_use < oldest->second.last_use) oldest = it;
      Free(oldest->second.object);
      entries_.erase(oldest);
    }
    entries_[key] = Entry{object, ++clock_, 1};
  }

 private:
  struct Entry {
    T* object;
    uint64_t last_use;
    int uses;
  };
  std::map<std::string, Entry> entries_;
  size_t capacity_;
  int max_uses_;
  uint64_t clock_ = 0;
};

// A ℙ planner and one scratch made for it (kept and freed together: a scratch is sized for its
// planner).
struct TopoPair {
  topoplan_topo* topo = nullptr;
  topoplan_scratch* scratch = nullptr;
};
void free_topo_pair(TopoPair* p) {
  topoplan_scratch_free(p->scratch);
  topoplan_topo_free(p->topo);
  delete p;
}

// A def as a pool key.
struct Key {
  std::string bytes;
  Key& operator<<(int64_t v) {
    bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  Key& operator<<(double v) {
    bytes.append(reinterpret_cast<const char*>(&v), sizeof v);
    return *this;
  }
  Key& operator<<(const void* p) {
    return *this << static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
  }
  Key& operator<<(const std::string& s) {
    bytes += s;
    bytes.push_back('\0');
    return *this;
  }
};

// The objects made on one task's crowd planner, by def. Destroyed in reverse order: the crowds
// before the caches they point to.
struct Pools {
  // Caches are never evicted: pooled crowds point to them.
  Pool<topoplan_plan_cache, topoplan_plan_cache_free> caches{1 << 20,
                                                             std::numeric_limits<int>::max()};
  Pool<topoplan_crowd, topoplan_crowd_free> crowds{96, kMaxUses};
  Pool<topoplan_agents, topoplan_agents_free> agents{16, kMaxUses};
  Pool<topoplan_town, topoplan_town_free> towns{16, kMaxUses};
  Pool<topoplan_planner, topoplan_planner_free> planners{64, 4 * kMaxUses};
  Pool<TopoPair, free_topo_pair> topos{64, 4 * kMaxUses};
  Pool<topoplan_analysis, topoplan_analysis_free> analyses{64, 4 * kMaxUses};
};

// A task, its crowd planner (made on first use) and the objects made on them. The built-in
// tasks' are made once and never freed (still reachable when LeakSanitizer looks); a parsed
// task's live for its input.
struct Shared {
  bool builtin = false;
  topoplan_task* task = nullptr;
  topoplan_crowd_planner* planner = nullptr;
  bool planner_tried = false;
  std::unique_ptr<Pools> pools = std::make_unique<Pools>();

  Shared() = default;
  Shared(const Shared&) = delete;
  Shared& operator=(const Shared&) = delete;
  ~Shared() {
    pools.reset();
    topoplan_crowd_planner_free(planner);
    topoplan_task_free(task);
  }
};

Shared& builtin(int32_t index) {
  static auto* made = new std::vector<Shared*>(static_cast<size_t>(topoplan_num_builtin_tasks()));
  Shared*& b = (*made)[static_cast<size_t>(index)];
  if (b == nullptr) {
    b = new Shared;
    b->builtin = true;
    char error[256] = {};
    known(topoplan_task_builtin(topoplan_builtin_task_name(index), &b->task, error, sizeof error));
    require(b->task != nullptr, "a built-in task does not load");
  }
  return *b;
}

struct Session {
  Session(FuzzedDataProvider& data, Shared& shared_objects)
      : in(data), shared(shared_objects), pools(*shared_objects.pools), task(shared_objects.task) {}
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  FuzzedDataProvider& in;
  Shared& shared;
  Pools& pools;
  topoplan_task* task;
  topoplan_crowd_planner* planner = nullptr;
  // The objects this input works on: pooled, or (a hostile def accepted) its own, freed with it.
  topoplan_plan_cache* cache = nullptr;
  topoplan_crowd* crowd = nullptr;
  topoplan_town* town = nullptr;
  topoplan_agents* agents = nullptr;
  bool own_cache = false, own_crowd = false, own_town = false, own_agents = false;
  int creates = 0;  // create calls that may build (capped per input: each costs milliseconds)
  int sim_runs = 0;
  std::vector<topoplan_plan_handle> handles;  // given by batches (some stale by now)
  char error[256] = {};

  ~Session() {
    drop_agents();
    drop_crowd();
    drop_town();
    drop_cache();
  }
  void drop_crowd() {
    if (own_crowd) topoplan_crowd_free(crowd);
    crowd = nullptr;
    own_crowd = false;
  }
  void drop_cache() {
    if (own_cache) topoplan_plan_cache_free(cache);
    cache = nullptr;
    own_cache = false;
    handles.clear();
  }
  void drop_town() {
    if (own_town) topoplan_town_free(town);
    town = nullptr;
    own_town = false;
  }
  void drop_agents() {
    if (own_agents) topoplan_agents_free(agents);
    agents = nullptr;
    own_agents = false;
  }

  int32_t vars() const { return topoplan_task_num_variables(task); }
  int32_t num_actions() const { return topoplan_task_num_actions(task); }
  int32_t num_classes() const { return topoplan_task_num_classes(task); }

  bool ensure_planner() {
    if (shared.planner == nullptr && !shared.planner_tried) {
      shared.planner_tried = true;
      known(topoplan_crowd_planner_create(task, &shared.planner, error, sizeof error));
    }
    planner = shared.planner;
    return planner != nullptr;
  }

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

  // A def's field: one of a few valid values (so that equal defs recur and their objects are
  // pooled), or a value every door must refuse, which sets `hostile`. `limit_hi` is the
  // field's largest valid value.
  int64_t field(std::initializer_list<int64_t> valid, int64_t limit_hi, bool& hostile) {
    switch (in.ConsumeIntegralInRange<int>(0, 11)) {
      case 0:
        hostile = true;
        return limit_hi + 1;
      case 1:
        hostile = true;
        return std::numeric_limits<int32_t>::min();
      case 2:  // far past the limit (never a valid request for gigabytes)
        hostile = true;
        return limit_hi + 1 + in.ConsumeIntegralInRange<int64_t>(0, 1 << 30);
      case 3:
        hostile = true;
        return *valid.begin() - 1;
      default:
        return *(valid.begin() + in.ConsumeIntegralInRange<size_t>(0, valid.size() - 1));
    }
  }
  double real_field(std::initializer_list<double> valid, bool& hostile) {
    switch (in.ConsumeIntegralInRange<int>(0, 9)) {
      case 0:
        hostile = true;
        return std::numeric_limits<double>::infinity();
      case 1:
        hostile = true;
        return std::numeric_limits<double>::quiet_NaN();
      case 2:
        hostile = true;
        return -1.0;
      default:
        return *(valid.begin() + in.ConsumeIntegralInRange<size_t>(0, valid.size() - 1));
    }
  }
  // A preset's value, or (one time in twelve) a value every door must refuse, which sets
  // `hostile`; [lo, limit_hi] is the field's valid range.
  int64_t or_hostile(int64_t v, int64_t lo, int64_t limit_hi, bool& hostile) {
    if (in.ConsumeIntegralInRange<int>(0, 11) != 0) return v;
    hostile = true;
    switch (in.ConsumeIntegralInRange<int>(0, 3)) {
      case 0:
        return limit_hi + 1;
      case 1:
        return std::numeric_limits<int32_t>::min();
      case 2:
        return limit_hi + 1 + in.ConsumeIntegralInRange<int64_t>(0, 1 << 30);
      default:
        return lo - 1;
    }
  }
  // A create call that may build: at most 3 per input (1 on a parsed task, where nothing is
  // pooled), more would be the same paths again.
  bool may_create() { return creates++ < (shared.builtin ? 3 : 1); }

  // Validates a plan the library calls solved; `npc_class` as the problem's.
  void expect_valid(const int32_t* init, const int32_t* goal, int32_t npc_class,
                    const int32_t* plan, int32_t length, const char* what) {
    const topoplan_problem p{init, goal, vars(), npc_class};
    int32_t failed = -2;
    int64_t cost = 0;
    known(topoplan_validate(task, &p, plan, length, &failed, &cost, error, sizeof error));
    require(failed == -1, what);
  }

  // A problem drawn from the input: in range (mostly) or not; `in_range` says which.
  void draw_problem(std::vector<int32_t>& init, std::vector<int32_t>& goal, bool& in_range) {
    const int32_t m = vars();
    init.assign(static_cast<size_t>(m) + 2, 0);
    goal.assign(static_cast<size_t>(m) + 2, TOPOPLAN_UNDEFINED);
    in_range = true;
    for (int32_t v = 0; v < m; ++v) {
      const auto x = static_cast<size_t>(v);
      init[x] = value(v, false);
      goal[x] = in.ConsumeBool() ? TOPOPLAN_UNDEFINED : value(v, true);
      const int32_t size = topoplan_task_domain_size(task, v);
      in_range = in_range && init[x] >= 0 && init[x] < size &&
                 (goal[x] == TOPOPLAN_UNDEFINED || (goal[x] >= 0 && goal[x] < size));
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
      problem.npc_class = in.ConsumeIntegralInRange<int32_t>(-2, num_classes());
    }
    problem.init = init.data();
    problem.goal = goal.data();
    problem.num_variables = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    topoplan_plan_options options;
    topoplan_plan_options_init(&options);
    if (in.ConsumeBool()) {
      options.max_expansions = hostile_int(1, 200);
      options.max_memory_bytes = hostile_int(1 << 20, 1 << 26);
      options.max_seconds = hostile_real();
      options.objective = in.ConsumeIntegralInRange<int32_t>(-1, 2);
      // Out-of-range values stay; valid ones are kept small so a search ends soon.
      if (options.max_expansions > 200) options.max_expansions = 200;
    } else {
      options.max_expansions = 200;
    }
    const int32_t n = topoplan_num_planners();
    std::string name =
        in.ConsumeBool()
            ? std::string(topoplan_planner_name(in.ConsumeIntegralInRange<int32_t>(0, n - 1)))
            : in.ConsumeRandomLengthString(12);
    // Without options only ℙ (linear) and "auto" (its own bounded defaults) run unbounded.
    const bool with_options = name != "topo" || in.ConsumeBool();
    const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 64);
    std::vector<int32_t> actions(static_cast<size_t>(capacity > 0 ? capacity : 0));
    topoplan_plan_stats stats;
    const topoplan_status s = topoplan_plan(
        task, name.c_str(), &problem, with_options ? &options : nullptr,
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
    for (int32_t& a : plan) a = in.ConsumeIntegralInRange<int32_t>(-1, num_actions());
    int32_t failed = 0;
    int64_t cost = 0;
    known(topoplan_validate(task, &problem, plan.data(), static_cast<int32_t>(plan.size()), &failed,
                            &cost, error, sizeof error));
  }

  // A plan cache: one of a few presets (capacity, plan length, plan table: -1 the default
  // table of 2^19 slots, 2 MiB to clear), each field sometimes hostile.
  void make_cache() {
    drop_crowd();  // it may point to the cache
    drop_cache();
    static constexpr int32_t kPresets[][3] = {
        {16, 255, 1024}, {2, 8, 64}, {256, 0, 0}, {16, 255, -1}};
    const auto& p = kPresets[in.ConsumeIntegralInRange<int>(0, 3)];
    bool hostile = false;
    const auto capacity = static_cast<int32_t>(or_hostile(p[0], 1, 1 << 28, hostile));
    const auto max_len = static_cast<int32_t>(or_hostile(p[1], 0, 255, hostile));
    const bool default_table = p[2] < 0;
    const auto table =
        default_table ? -1 : static_cast<int32_t>(or_hostile(p[2], 0, 1 << 30, hostile));
    Key key;
    key << int64_t{capacity} << int64_t{max_len} << int64_t{table};
    if (!hostile && (cache = pools.caches.find(key.bytes)) != nullptr) return;
    if (!hostile && !may_create()) return;
    topoplan_plan_cache* made = nullptr;
    known(default_table
              ? topoplan_plan_cache_create(planner, capacity, max_len, &made, error, sizeof error)
              : topoplan_plan_cache_create_with_table(planner, capacity, max_len, table, &made,
                                                      error, sizeof error));
    if (made == nullptr) return;
    cache = made;
    if (hostile) {
      own_cache = true;
    } else {
      pools.caches.keep(key.bytes, made);
    }
  }

  // A crowd: a def preset (workers, threads, NPCs per block, memo entries) with or without the
  // input's cache, and the default chain or a chain preset; any field sometimes hostile, and
  // sometimes a chain of random or malformed names.
  void make_crowd() {
    if (!ensure_planner()) return;
    drop_crowd();
    if (in.ConsumeBool()) make_cache();
    bool hostile = false;
    topoplan_crowd_def def;
    topoplan_crowd_def_init(&def);
    def.cache = in.ConsumeBool() ? cache : nullptr;
    static constexpr int32_t kDefs[][4] = {{1, 1, 64, 64}, {2, 1, 3, 4}, {1, 2, 1, 0}};
    const auto& d = kDefs[in.ConsumeIntegralInRange<int>(0, 2)];
    def.worker_count = static_cast<int32_t>(or_hostile(d[0], 1, 4096, hostile));
    def.threads = static_cast<int32_t>(or_hostile(d[1], 1, 1024, hostile));
    def.npcs_per_block = static_cast<int32_t>(or_hostile(d[2], 1, 1 << 20, hostile));
    def.worker_memo_entries = static_cast<int32_t>(or_hostile(d[3], 0, 1 << 24, hostile));
    // A cache that is this input's own is freed with it: so must be the crowd pointing to it.
    hostile = hostile || (def.cache != nullptr && own_cache);
    // Chains: 0 the default (topoplan_crowd_create); then fallback, class 0's own chain,
    // first-attempt budget, retry expansions, retry memory.
    struct ChainPreset {
      const char* fallback;
      bool class_chain;
      int64_t budget, expansions, memory;
    };
    static constexpr ChainPreset kChains[] = {{nullptr, false, 0, 0, 0},
                                              {"none", false, 200, 500, 1 << 24},
                                              {"astar", false, 1, 1, 1 << 20},
                                              {"topo,astar", false, 20, 200, 1 << 24},
                                              {"astar-back", true, 20, 200, 1 << 24},
                                              {nullptr, true, 200, 500, 1 << 24}};
    const int which = in.ConsumeIntegralInRange<int>(0, 5);
    const ChainPreset& c = kChains[which];
    topoplan_crowd_chain chain;
    topoplan_crowd_chain_init(&chain);
    std::string fallback = c.fallback == nullptr ? "" : c.fallback;
    std::string class_name = num_classes() > 0 ? topoplan_task_class_name(task, 0) : "";
    const topoplan_crowd_class_chain per_class{class_name.c_str(), "none"};
    if (which > 0) {
      chain.fallback = c.fallback == nullptr ? nullptr : fallback.c_str();
      chain.class_fallback = c.class_chain ? &per_class : nullptr;
      chain.num_class_fallback = c.class_chain ? 1 : 0;
      chain.fallback_budget = or_hostile(c.budget, 1, int64_t{1} << 40, hostile);
      chain.max_expansions = or_hostile(c.expansions, 1, int64_t{1} << 40, hostile);
      chain.max_memory_bytes = or_hostile(c.memory, 1, int64_t{1} << 50, hostile);
      switch (in.ConsumeIntegralInRange<int>(0, 15)) {  // malformed chains
        case 0: {
          static const char* const kBad[] = {"", ",,,", "bogus", "astar,,none", "exact,"};
          fallback = kBad[in.ConsumeIntegralInRange<int>(0, 4)];
          chain.fallback = fallback.c_str();
          hostile = true;
          break;
        }
        case 1:
          fallback = in.ConsumeRandomLengthString(16);
          chain.fallback = fallback.c_str();
          hostile = true;
          break;
        case 2:
          class_name = in.ConsumeRandomLengthString(8);
          chain.class_fallback = &per_class;
          chain.num_class_fallback = 1;
          hostile = true;
          break;
        case 3:
          // A negative count, or entries promised and none given (never a count past the
          // array: that is the caller's own overflow).
          if (in.ConsumeBool()) {
            chain.class_fallback = &per_class;
            chain.num_class_fallback = -1;
          } else {
            chain.class_fallback = nullptr;
            chain.num_class_fallback = 1;
          }
          hostile = true;
          break;
        case 4:
          chain.max_seconds = hostile_real();
          hostile = true;
          break;
        default:
          break;
      }
    }
    Key key;
    key << def.cache << int64_t{def.worker_count} << int64_t{def.threads}
        << int64_t{def.npcs_per_block} << int64_t{def.worker_memo_entries} << int64_t{which};
    if (!hostile && (crowd = pools.crowds.find(key.bytes)) != nullptr) {
      known(topoplan_crowd_discard_pending(crowd));  // as a fresh crowd: nothing pending
      return;
    }
    if (!hostile && !may_create()) return;
    topoplan_crowd* made = nullptr;
    known(which == 0 ? topoplan_crowd_create(planner, &def, &made, error, sizeof error)
                     : topoplan_crowd_create_with_chain(planner, &def, &chain, &made, error,
                                                        sizeof error));
    if (made == nullptr) return;
    crowd = made;
    if (hostile) {
      own_crowd = true;
    } else {
      pools.crowds.keep(key.bytes, made);
    }
  }

  void batch() {
    if (crowd == nullptr) return;
    const int32_t words = topoplan_crowd_planner_words(planner);
    const int32_t classes = topoplan_crowd_planner_num_classes(planner);
    const int32_t m = vars();
    const auto n = in.ConsumeIntegralInRange<int64_t>(0, 12);
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
    const topoplan_crowd_batch b{n, cls.data(), init.data(), goal.data()};
    run_batch(b);
  }

  // Plans a batch through the crowd (copying or by handle, whole or framed) and validates every
  // NPC it calls solved.
  void run_batch(const topoplan_crowd_batch& b) {
    const int32_t words = topoplan_crowd_planner_words(planner);
    const int32_t m = vars();
    const int64_t n = b.count;
    std::vector<int32_t> s(static_cast<size_t>(m)), g(static_cast<size_t>(m));
    const auto capacity = in.ConsumeIntegralInRange<int64_t>(0, 16 * (n + 1));
    std::vector<int32_t> actions(static_cast<size_t>(capacity));
    std::vector<uint32_t> offset(static_cast<size_t>(n));
    std::vector<uint16_t> length(static_cast<size_t>(n)), status(static_cast<size_t>(n));
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
      require(topoplan_crowd_unpack_state(planner, b.init + i * words, s.data(), m) == TOPOPLAN_OK,
              "unpack_state");
      require(topoplan_crowd_unpack_goal(planner, b.goal + i * words, g.data(), m) == TOPOPLAN_OK,
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
      const topoplan_problem p{s.data(), g.data(), m,
                               num_classes() == 0 ? TOPOPLAN_ALL_ACTIONS : b.npc_class[k]};
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

  void pack_unpack() {
    if (!ensure_planner()) return;
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
    if (!ensure_planner()) return;
    drop_town();
    topoplan_town_def def;
    topoplan_town_def_init(&def);
    // Small valid towns, or values a town must refuse before it builds anything.
    const int64_t npcs[] = {-1, 0, 1, 8, 10'000'001, INT64_MAX};
    const int32_t situations[] = {0, 1, 8, 10'001, INT32_MAX};
    const int32_t backgrounds[] = {0, 1, 16, 65'537, INT32_MAX};
    const int a = in.ConsumeIntegralInRange<int>(0, 5);
    const int b = in.ConsumeIntegralInRange<int>(0, 4);
    const int c = in.ConsumeIntegralInRange<int>(0, 4);
    def.npcs = npcs[a];
    def.situations_per_class = situations[b];
    def.backgrounds = backgrounds[c];
    bool hostile = a == 0 || a >= 4 || b >= 3 || c >= 3;
    def.errand_fraction = real_field({0.15}, hostile);
    def.seed = in.ConsumeIntegralInRange<int>(0, 7) == 0 ? 2 : 1;
    Key key;
    key << def.npcs << int64_t{def.situations_per_class} << int64_t{def.backgrounds}
        << def.errand_fraction << static_cast<int64_t>(def.seed);
    if (!hostile && (town = pools.towns.find(key.bytes)) != nullptr) return;
    if (!hostile && !may_create()) return;
    topoplan_town* made = nullptr;
    known(topoplan_town_create(planner, &def, &made, error, sizeof error));
    if (made == nullptr) return;
    town = made;
    if (hostile) {
      own_town = true;
    } else {
      pools.towns.keep(key.bytes, made);
    }
    require(topoplan_town_npcs(town) <= 8, "a town larger than asked");
  }

  // A town's NPCs: churned, counted, and planned as a batch by the crowd.
  void town_batch() {
    if (town == nullptr) return;
    known(topoplan_town_churn(town, in.ConsumeIntegralInRange<int64_t>(-1, 8)));
    const int64_t distinct = topoplan_town_distinct_situations(town);
    require(distinct >= 0, "a town's distinct situations are negative");
    topoplan_crowd_batch b{};
    known(topoplan_town_batch(town, in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : &b));
    if (crowd != nullptr && b.init != nullptr) run_batch(b);
  }
  // An agent world: goals, lists, agents, senses, reports and frames, with hostile ids and
  // sizes; every plan an agent holds is made of the domain's actions.
  void agent_world() {
    if (!ensure_planner()) return;
    const int32_t m = vars();
    if (agents == nullptr || in.ConsumeIntegralInRange<int>(0, 7) == 0) {
      drop_agents();
      bool hostile = false;
      topoplan_agents_def def;
      topoplan_agents_def_default(&def);
      def.capacity = static_cast<int32_t>(field({1, 8}, 1 << 28, hostile));
      if (in.ConsumeBool()) {
        // A few presets (so that worlds recur), each field sometimes replaced by a hostile
        // value: decision period, plan age, plans per frame, plan length, cache entries.
        static constexpr int32_t kPresets[][5] = {
            {1, 0, 16, 255, 0}, {4, 100, 1, 16, 0}, {1, 0, 16, 1, 64}, {2, 10, 4, 255, 0}};
        const auto& p = kPresets[in.ConsumeIntegralInRange<int>(0, 3)];
        def.decision_period = static_cast<int32_t>(or_hostile(p[0], 1, 1 << 20, hostile));
        def.max_plan_age = or_hostile(p[1], 0, int64_t{1} << 40, hostile);
        def.max_plans_per_frame = static_cast<int32_t>(or_hostile(p[2], 1, INT32_MAX, hostile));
        def.max_plan_length = static_cast<int32_t>(or_hostile(p[3], 1, 255, hostile));
        def.threads = static_cast<int32_t>(or_hostile(1, 1, 1 << 10, hostile));
        def.cache_entries = static_cast<int32_t>(or_hostile(p[4], 0, 1 << 28, hostile));
      } else if (in.ConsumeIntegralInRange<int>(0, 7) != 0) {
        def.cache_entries = 0;  // a cache brings the default plan table: 2 MiB to clear
      }
      Key key;
      key << int64_t{def.capacity} << int64_t{def.decision_period} << def.max_plan_age
          << int64_t{def.max_plans_per_frame} << int64_t{def.max_plan_length}
          << int64_t{def.threads} << int64_t{def.cache_entries};
      if (hostile || (agents = pools.agents.find(key.bytes)) == nullptr) {
        if (!hostile && !may_create()) return;
        topoplan_agents* made = nullptr;
        known(topoplan_agents_create(planner, &def, &made, error, sizeof error));
        if (made == nullptr) return;
        agents = made;
        if (hostile) {
          own_agents = true;
        } else {
          pools.agents.keep(key.bytes, made);
        }
      }
    }
    // Goal lists: ids below 8 are tried (a pooled world's lists were made by earlier inputs).
    const int32_t goal_lists = 8;
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

  // A name the task has, or random bytes (a NUL among them ends the name the C API sees, so
  // names found are compared as C strings).
  std::string some_name(const char* known_name) {
    if (known_name != nullptr && in.ConsumeBool()) return known_name;
    return in.ConsumeRandomLengthString(10);
  }

  // Names, sizes and lookups with ids in and out of range: NULL / -1 exactly when out of range,
  // and a name found by a lookup is the name asked for.
  void introspect() {
    const int32_t m = vars(), na = num_actions(), nc = num_classes();
    require(topoplan_task_name(task) != nullptr, "a task without a name");
    const int32_t var = in.ConsumeIntegralInRange<int32_t>(-1, m);
    const char* var_name = topoplan_task_variable_name(task, var);
    require((var_name != nullptr) == (var >= 0 && var < m), "variable_name: NULL iff out of range");
    int32_t id = -2;
    std::string name = some_name(var_name);
    topoplan_status s = topoplan_task_find_variable(task, name.c_str(), &id);
    known(s);
    if (s == TOPOPLAN_OK)
      require(std::strcmp(name.c_str(), topoplan_task_variable_name(task, id)) == 0,
              "find_variable: another's name");
    const int32_t size = topoplan_task_domain_size(task, var);
    require((size > 0) == (var >= 0 && var < m), "domain_size: -1 iff out of range");
    const int32_t val = in.ConsumeIntegralInRange<int32_t>(-1, std::max(size, 0));
    const char* value_name = topoplan_task_value_name(task, var, val);
    require((value_name != nullptr) == (val >= 0 && val < size), "value_name: NULL iff in range");
    name = some_name(value_name);
    s = topoplan_task_find_value(task, var, name.c_str(), &id);
    known(s);
    if (s == TOPOPLAN_OK)
      require(std::strcmp(name.c_str(), topoplan_task_value_name(task, var, id)) == 0,
              "find_value: another's name");

    const int32_t action = in.ConsumeIntegralInRange<int32_t>(-1, na);
    const bool valid_action = action >= 0 && action < na;
    const char* action_name = topoplan_task_action_name(task, action);
    require((action_name != nullptr) == valid_action, "action_name: NULL iff out of range");
    require((topoplan_task_action_cost(task, action) >= 0) == valid_action, "action_cost");
    name = some_name(action_name);
    s = topoplan_task_find_action(task, name.c_str(), &id);
    known(s);
    if (s == TOPOPLAN_OK)
      require(std::strcmp(name.c_str(), topoplan_task_action_name(task, id)) == 0,
              "find_action: another's name");
    const int32_t effects = topoplan_task_action_num_effects(task, action);
    require((effects >= 0) == valid_action, "action_num_effects");
    topoplan_effect e{};
    s = topoplan_task_action_effect(
        task, action, in.ConsumeIntegralInRange<int32_t>(-1, std::max(effects, 0)), &e);
    known(s);
    if (s == TOPOPLAN_OK) {
      require(e.var >= 0 && e.var < m, "an effect on a variable outside the task");
      const int32_t d = topoplan_task_domain_size(task, e.var);
      require(e.post >= 0 && e.post < d, "an effect's post outside its domain");
      require(e.pre == TOPOPLAN_UNDEFINED || (e.pre >= 0 && e.pre < d), "an effect's pre");
    }
    const int32_t prevails = topoplan_task_action_num_prevail(task, action);
    require((prevails >= 0) == valid_action, "action_num_prevail");
    topoplan_fact f{};
    s = topoplan_task_action_prevail(
        task, action, in.ConsumeIntegralInRange<int32_t>(-1, std::max(prevails, 0)), &f);
    known(s);
    if (s == TOPOPLAN_OK)
      require(f.var >= 0 && f.var < m && f.value >= 0 &&
                  f.value < topoplan_task_domain_size(task, f.var),
              "a prevail outside the task");

    const int32_t c = in.ConsumeIntegralInRange<int32_t>(-1, nc);
    const char* class_name = topoplan_task_class_name(task, c);
    require((class_name != nullptr) == (c >= 0 && c < nc), "class_name: NULL iff out of range");
    name = some_name(class_name);
    s = topoplan_task_find_class(task, name.c_str(), &id);
    known(s);
    if (s == TOPOPLAN_OK)
      require(std::strcmp(name.c_str(), topoplan_task_class_name(task, id)) == 0,
              "find_class: another's name");
    const int32_t class_actions = topoplan_task_class_num_actions(task, c);
    if (c >= 0 && c < nc) {
      require(class_actions >= 0 && class_actions <= na, "class_num_actions");
      int32_t last = -1;
      for (int32_t i = 0; i < class_actions && i < 64; ++i) {
        const int32_t a = topoplan_task_class_action(task, c, i);
        require(a > last && a < na, "class_action: not ascending ids of the task");
        last = a;
      }
    }
    topoplan_task_class_action(task, c, in.ConsumeIntegralInRange<int32_t>(-1, 1 << 20));

    const int32_t ni = topoplan_task_num_instances(task);
    const int32_t inst = in.ConsumeIntegralInRange<int32_t>(-1, ni);
    const char* instance_name = topoplan_task_instance_name(task, inst);
    require((instance_name != nullptr) == (inst >= 0 && inst < ni), "instance_name");
    name = some_name(instance_name);
    s = topoplan_task_find_instance(task, name.c_str(), &id);
    known(s);
    if (s == TOPOPLAN_OK)
      require(std::strcmp(name.c_str(), topoplan_task_instance_name(task, id)) == 0,
              "find_instance: another's name");

    // NULL arguments where a pointer is asked for.
    known(topoplan_task_find_variable(task, nullptr, &id));
    known(topoplan_task_find_action(task, name.c_str(), nullptr));
    known(topoplan_task_find_value(task, var, nullptr, &id));

    // The static strings.
    const int32_t np = topoplan_num_planners();
    const int32_t p = in.ConsumeIntegralInRange<int32_t>(-1, np);
    require((topoplan_planner_name(p) != nullptr) == (p >= 0 && p < np), "planner_name");
    require((topoplan_planner_description(p) != nullptr) == (p >= 0 && p < np),
            "planner_description");
    const int32_t b = in.ConsumeIntegralInRange<int32_t>(-1, topoplan_num_builtin_tasks());
    require(
        (topoplan_builtin_task_name(b) != nullptr) == (b >= 0 && b < topoplan_num_builtin_tasks()),
        "builtin_task_name");
    const auto code = in.ConsumeIntegral<int32_t>();
    require(topoplan_status_string(static_cast<topoplan_status>(code)) != nullptr, "status_string");
    require(topoplan_agents_replan_string(code) != nullptr, "replan_string");
    require(topoplan_agents_event_string(code) != nullptr, "event_string");
    require(topoplan_c_abi_version() == TOPOPLAN_C_ABI_VERSION, "abi version");
    require(topoplan_version() != nullptr && *topoplan_version() != '\0', "version");
  }

  // States as text: formatted with any capacity, parsed back (or random text parsed).
  void state_text() {
    const int32_t m = vars();
    std::vector<int32_t> state(static_cast<size_t>(m) + 2), back(static_cast<size_t>(m) + 2);
    bool in_range = true;
    for (int32_t v = 0; v < m; ++v) {
      const auto x = static_cast<size_t>(v);
      state[x] = in.ConsumeBool() ? TOPOPLAN_UNDEFINED : value(v, true);
      in_range = in_range && (state[x] == TOPOPLAN_UNDEFINED ||
                              (state[x] >= 0 && state[x] < topoplan_task_domain_size(task, v)));
    }
    const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    std::string buffer(in.ConsumeIntegralInRange<size_t>(0, 2048), 'x');
    size_t size = 0;
    const topoplan_status s = topoplan_task_format_state(
        task, state.data(), n, buffer.empty() ? nullptr : buffer.data(), buffer.size(), &size);
    known(s);
    if (s == TOPOPLAN_OK) {
      require(size >= 1 && size <= buffer.size() && buffer[size - 1] == '\0',
              "format_state: the size is not the text's with its NUL");
    }
    std::string text;
    if (s == TOPOPLAN_OK && in.ConsumeBool()) {
      text = buffer.c_str();
      // The CLI's form: "var=value, ..." without the brackets the formatter adds.
      if (text.rfind("\u27e8", 0) == 0 && text.size() >= 6) text = text.substr(3, text.size() - 6);
    } else {
      text = in.ConsumeRandomLengthString(64);
    }
    const int32_t nb = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    const topoplan_status p =
        topoplan_task_parse_state(task, text.c_str(), back.data(), nb, error, sizeof error);
    known(p);
    if (p != TOPOPLAN_OK) return;
    for (int32_t v = 0; v < nb && v < m; ++v) {
      const int32_t x = back[static_cast<size_t>(v)];
      require(x == TOPOPLAN_UNDEFINED || (x >= 0 && x < topoplan_task_domain_size(task, v)),
              "parse_state: a value outside its variable's domain");
    }
  }

  // ℙ handles: made per class (pooled), a scratch each, plans validated, explanations.
  void topo() {
    const int32_t nc = num_classes();
    const int32_t c = in.ConsumeIntegralInRange<int32_t>(-2, nc);
    const bool valid_class = c == TOPOPLAN_ALL_ACTIONS || (c >= 0 && c < nc);
    Key key;
    key << int64_t{c};
    TopoPair* pair = valid_class ? pools.topos.find(key.bytes) : nullptr;
    std::unique_ptr<TopoPair, void (*)(TopoPair*)> own(nullptr, free_topo_pair);
    if (pair == nullptr) {
      if (valid_class && !may_create()) return;
      own.reset(new TopoPair);
      known(topoplan_topo_create(task, c, &own->topo, error, sizeof error));
      if (own->topo == nullptr) return;
      known(topoplan_scratch_create(
          own->topo, in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : &own->scratch));
      if (own->scratch == nullptr) return;
      pair = own.get();
      if (valid_class) pools.topos.keep(key.bytes, own.release());
    }
    std::vector<int32_t> init, goal;
    bool in_range = true;
    draw_problem(init, goal, in_range);
    const int32_t m = vars();
    const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    const int32_t max_len = topoplan_topo_max_plan_length(pair->topo);
    require(max_len >= 0, "topo_max_plan_length");
    const int32_t capacity =
        in.ConsumeBool() ? max_len : in.ConsumeIntegralInRange<int32_t>(-1, 64);
    std::vector<int32_t> actions(static_cast<size_t>(std::max(capacity, 0)) + 1);
    int32_t length = -1;
    const topoplan_status s = topoplan_topo_plan(pair->topo, pair->scratch, init.data(),
                                                 goal.data(), n, actions.data(), capacity, &length);
    known(s);
    if (s == TOPOPLAN_OK) {
      require(length >= 0 && length <= capacity && length <= max_len, "topo_plan: its length");
      expect_valid(init.data(), goal.data(), c, actions.data(), length,
                   "a plan of ℙ does not validate");
    }
    std::string text(in.ConsumeIntegralInRange<size_t>(0, 256), 'x');
    known(topoplan_topo_explain(pair->topo, pair->scratch, text.empty() ? nullptr : text.data(),
                                text.size()));
  }

  // Prepared planners by name and class (pooled): plans within small limits, validated.
  void planner_handle() {
    static const char* const kNames[] = {"auto", "topo", "astar", "astar-back", "exact"};
    const int which = in.ConsumeIntegralInRange<int>(0, 5);
    const std::string name = which < 5 ? kNames[which] : in.ConsumeRandomLengthString(12);
    const int32_t nc = num_classes();
    const int32_t c = in.ConsumeIntegralInRange<int32_t>(-2, nc);
    const bool valid = which < 5 && (c == TOPOPLAN_ALL_ACTIONS || (c >= 0 && c < nc));
    Key key;
    key << name << int64_t{c};
    topoplan_planner* p = valid ? pools.planners.find(key.bytes) : nullptr;
    std::unique_ptr<topoplan_planner, void (*)(topoplan_planner*)> own(nullptr,
                                                                       topoplan_planner_free);
    if (p == nullptr) {
      if (valid && !may_create()) return;
      known(topoplan_planner_create(task, name.c_str(), c, &p, error, sizeof error));
      if (p == nullptr) return;
      if (valid) {
        pools.planners.keep(key.bytes, p);
      } else {
        own.reset(p);
      }
    }
    std::vector<int32_t> init, goal;
    bool in_range = true;
    draw_problem(init, goal, in_range);
    const int32_t m = vars();
    const int32_t n = in.ConsumeBool() ? m : in.ConsumeIntegralInRange<int32_t>(-1, m + 1);
    const int32_t max_len = topoplan_planner_max_plan_length(p);
    const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 64);
    std::vector<int32_t> actions(static_cast<size_t>(std::max(capacity, 0)) + 1);
    int32_t length = -1;
    topoplan_status s;
    if (name == "topo" && in.ConsumeBool()) {  // ℙ is linear: no limits needed
      s = topoplan_planner_plan(p, init.data(), goal.data(), n, actions.data(), capacity, &length);
    } else {
      bool hostile = false;
      const int64_t expansions = field({1, 50, 200}, int64_t{1} << 40, hostile);
      const int64_t memory = field({1 << 20, 1 << 24}, int64_t{1} << 50, hostile);
      const double seconds = real_field({0.0, 0.01}, hostile);
      s = topoplan_planner_plan_within(p, init.data(), goal.data(), n, expansions, memory, seconds,
                                       actions.data(), capacity, &length);
    }
    known(s);
    if (s == TOPOPLAN_OK) {
      require(length >= 0 && length <= capacity && (max_len < 0 || length <= max_len),
              "planner_plan: its length");
      expect_valid(init.data(), goal.data(), c, actions.data(), length,
                   "a prepared planner's plan does not validate");
    }
    require(topoplan_planner_answered_by(p) != nullptr, "answered_by");
    std::string text(in.ConsumeIntegralInRange<size_t>(0, 256), 'x');
    known(topoplan_planner_explain(p, text.empty() ? nullptr : text.data(), text.size()));
  }

  // Class analyses (pooled per class) queried with ids in and out of range; `check` itself.
  void analysis() {
    const int32_t nc = num_classes(), na = num_actions(), m = vars();
    const int32_t c = in.ConsumeIntegralInRange<int32_t>(-2, nc);
    const bool valid_class = c == TOPOPLAN_ALL_ACTIONS || (c >= 0 && c < nc);
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
      topoplan_class_report report{};
      std::string why(in.ConsumeIntegralInRange<size_t>(0, 128), 'x');
      known(topoplan_check(task, c, in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : &report,
                           why.empty() ? nullptr : why.data(), why.size()));
      return;
    }
    Key key;
    key << int64_t{c};
    topoplan_analysis* a = valid_class ? pools.analyses.find(key.bytes) : nullptr;
    std::unique_ptr<topoplan_analysis, void (*)(topoplan_analysis*)> own(nullptr,
                                                                         topoplan_analysis_free);
    if (a == nullptr) {
      if (valid_class && !may_create()) return;
      known(topoplan_analysis_create(task, c, &a));
      if (a == nullptr) return;
      if (valid_class) {
        pools.analyses.keep(key.bytes, a);
      } else {
        own.reset(a);
      }
    }
    topoplan_class_report report{};
    known(topoplan_analysis_report(a, &report));
    require(topoplan_analysis_why_not(a) != nullptr, "why_not");
    const int32_t lines = topoplan_analysis_num_lines(a);
    require(lines >= 0, "num_lines");
    const int32_t line = in.ConsumeIntegralInRange<int32_t>(-1, lines);
    require((topoplan_analysis_line(a, line) != nullptr) == (line < lines && line >= 0), "line");
    const int32_t action = in.ConsumeIntegralInRange<int32_t>(-1, na);
    require((topoplan_analysis_action_flags(a, action) >= 0) == (action >= 0 && action < na),
            "action_flags");
    const int32_t* pairs = nullptr;
    const int32_t kind = in.ConsumeIntegralInRange<int32_t>(-1, 2);
    const int32_t edges = topoplan_analysis_edges(a, kind, &pairs);
    for (int32_t i = 0; i < 2 * edges && i < 256; ++i)
      require(pairs[i] >= 0 && pairs[i] < na, "an edge between actions outside the task");
    const int32_t var = in.ConsumeIntegralInRange<int32_t>(-1, m);
    topoplan_variable_graph g{};
    const topoplan_status s = topoplan_analysis_variable(a, var, &g);
    known(s);
    if (s == TOPOPLAN_OK) {
      for (int32_t i = 0; i < g.num_actions; ++i)
        require(g.actions[i] >= 0 && g.actions[i] < na, "G(v) holds an action outside the task");
      topoplan_cycle cycle{};
      const int32_t index = in.ConsumeIntegralInRange<int32_t>(-1, g.num_cycles);
      const topoplan_status cs = topoplan_analysis_cycle(a, var, index, &cycle);
      known(cs);
      require((cs == TOPOPLAN_OK) == (index >= 0 && index < g.num_cycles), "cycle index");
      for (int32_t i = 0; i < cycle.num_actions && cs == TOPOPLAN_OK; ++i)
        require(cycle.actions[i] >= 0 && cycle.actions[i] < na, "a cycle's action");
    } else {
      known(topoplan_analysis_cycle(a, var, 0, nullptr));
    }
  }

  // The task written back (any format and capacity), a plan cache's counters, a task file that
  // is not one.
  void misc() {
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {  // the whole task as text: milliseconds
      std::string buffer(in.ConsumeIntegralInRange<size_t>(0, 4096), 'x');
      size_t size = 0;
      const topoplan_status s =
          topoplan_task_write(task, in.ConsumeIntegralInRange<int32_t>(-1, 3),
                              buffer.empty() ? nullptr : buffer.data(), buffer.size(), &size);
      known(s);
      if (s == TOPOPLAN_OK)
        require(size >= 1 && size <= buffer.size() && buffer[size - 1] == '\0', "task_write: size");
    }
    if (cache != nullptr) {
      topoplan_plan_cache_stats stats{};
      known(topoplan_plan_cache_stats_get(cache, in.ConsumeBool() ? &stats : nullptr));
    }
    if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {
      // Paths that are no task: missing, a directory, empty, random (never a real file here).
      static const char* const kPaths[] = {"", "/", "/nonexistent/task.toml", "fuzz.sas"};
      const int which = in.ConsumeIntegralInRange<int>(0, 4);
      const std::string path = which < 4 ? std::string("/nonexistent/") + kPaths[which]
                                         : "/nonexistent/" + in.ConsumeRandomLengthString(12);
      topoplan_task* t = nullptr;
      known(topoplan_task_load(which == 1 ? "/" : path.c_str(),
                               in.ConsumeIntegralInRange<int32_t>(-1, 3), &t, error, sizeof error));
      topoplan_task_free(t);
    }
  }

  // The UDGOAP wizard (one world and agent per process, loaded again after kMaxUses uses): facts
  // set and read with names in and out of the world and hostile values, updates, plans within
  // small limits whose steps name the world's actions and entities.
  void udgoap() {
    struct World {
      topoplan_udgoap_world* world = nullptr;
      topoplan_udgoap_agent* agent = nullptr;
      int uses = 0;
    };
    static auto* w = new World;
    if (w->world != nullptr && ++w->uses > kMaxUses) {
      topoplan_udgoap_agent_free(w->agent);
      topoplan_udgoap_world_free(w->world);
      *w = World{};
    }
    if (w->world == nullptr) {
      if (!may_create()) return;
      known(topoplan_udgoap_load(TOPOPLAN_SOURCE_DIR "/domains/udgoap/wizard.toml", &w->world,
                                 &w->agent, error, sizeof error));
      require(w->world != nullptr && w->agent != nullptr, "the wizard scenario does not load");
    }
    topoplan_udgoap_world* world = w->world;
    topoplan_udgoap_agent* agent = w->agent;
    std::unique_ptr<topoplan_udgoap_agent, void (*)(topoplan_udgoap_agent*)> own(
        nullptr, topoplan_udgoap_agent_free);
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0 && may_create()) {
      topoplan_udgoap_agent* made = nullptr;
      known(topoplan_udgoap_agent_create(world, &made));
      own.reset(made);
      if (made != nullptr) agent = made;
    }
    const int32_t entities = topoplan_udgoap_num_entities(world);
    const int32_t actions = topoplan_udgoap_num_actions(world);
    const int32_t e = in.ConsumeIntegralInRange<int32_t>(-1, entities);
    const char* entity_name = topoplan_udgoap_entity_name(world, e);
    require((entity_name != nullptr) == (e >= 0 && e < entities), "udgoap entity_name");
    const int32_t a = in.ConsumeIntegralInRange<int32_t>(-1, actions);
    require((topoplan_udgoap_action_name(world, a) != nullptr) == (a >= 0 && a < actions),
            "udgoap action_name");
    std::string entity = some_name(entity_name);
    int32_t id = -2;
    const topoplan_status found = topoplan_udgoap_find_entity(world, entity.c_str(), &id);
    known(found);
    if (found == TOPOPLAN_OK)
      require(std::strcmp(entity.c_str(), topoplan_udgoap_entity_name(world, id)) == 0,
              "find_entity: another's name");
    static const char* const kAttributes[] = {"position", "health", "mana"};
    const int which = in.ConsumeIntegralInRange<int>(0, 3);
    const std::string attribute = which < 3 ? kAttributes[which] : in.ConsumeRandomLengthString(10);
    if (in.ConsumeBool()) {
      const double v =
          in.ConsumeBool() ? in.ConsumeFloatingPointInRange<double>(-10, 200) : hostile_real();
      known(topoplan_udgoap_set_fact(world, entity.c_str(), attribute.c_str(), v));
    }
    double value = 0;
    const topoplan_status got =
        topoplan_udgoap_get_fact(world, entity.c_str(), attribute.c_str(), &value);
    known(got);
    if (got == TOPOPLAN_OK) require(std::isfinite(value), "a fact that is not a finite number");
    if (in.ConsumeBool()) known(topoplan_udgoap_agent_update(world, agent));
    require(topoplan_udgoap_agent_num_goals(agent) >= 0, "udgoap num_goals");
    topoplan_udgoap_limits limits;
    topoplan_udgoap_limits_init(&limits);
    bool hostile = false;
    limits.max_expansions = field({1, 100, 1000}, int64_t{1} << 40, hostile);
    limits.max_generated = field({10, 1000, 10000}, int64_t{1} << 40, hostile);
    limits.max_plan_length = static_cast<int32_t>(field({1, 4, 16}, 64, hostile));
    const int32_t capacity = in.ConsumeIntegralInRange<int32_t>(-1, 32);
    std::vector<topoplan_udgoap_step> steps(static_cast<size_t>(std::max(capacity, 0)) + 1);
    int32_t length = -1;
    double utility = 0;
    const topoplan_status s = topoplan_udgoap_plan(
        world, agent, in.ConsumeIntegralInRange<int>(0, 7) == 0 ? nullptr : &limits, steps.data(),
        capacity, &length, in.ConsumeBool() ? &utility : nullptr, error, sizeof error);
    known(s);
    if (s == TOPOPLAN_OK) {
      require(length >= 0 && length <= capacity, "udgoap plan: its length");
      for (int32_t i = 0; i < length; ++i) {
        const topoplan_udgoap_step& step = steps[static_cast<size_t>(i)];
        require(step.action >= 0 && step.action < actions, "a step's action outside the world");
        require(step.supplier >= -1 && step.supplier < entities, "a step's supplier");
      }
    }
  }

  // Scenarios: text that is (mostly) not one, and the built-in ones (one handle per file and
  // process, loaded again after kMaxUses uses) run for a few simulated seconds, their replays
  // copied into buffers of any size.
  void sim() {
    if (in.ConsumeIntegralInRange<int>(0, 3) == 0) {
      const std::string text = in.ConsumeRandomLengthString(256);
      topoplan_sim* parsed = nullptr;
      known(topoplan_sim_parse(text.data(), text.size(), in.ConsumeBool() ? "fuzz.toml" : nullptr,
                               in.ConsumeBool() ? "/nonexistent" : nullptr, &parsed, error,
                               sizeof error));
      topoplan_sim_free(parsed);
      return;
    }
    static const char* const kFiles[] = {"arena.toml", "sims-house.toml", "hospital.toml",
                                         "arena-tuned.toml"};
    struct Loaded {
      topoplan_sim* sim = nullptr;
      int uses = 0;
    };
    static auto* loaded = new Loaded[4];
    const int f = in.ConsumeIntegralInRange<int>(0, 3);
    Loaded& l = loaded[f];
    if (l.sim != nullptr && ++l.uses > kMaxUses) {
      topoplan_sim_free(l.sim);
      l = Loaded{};
    }
    if (l.sim == nullptr) {
      if (!may_create()) return;
      const std::string path = std::string(TOPOPLAN_SOURCE_DIR "/domains/sim/") + kFiles[f];
      known(topoplan_sim_load(path.c_str(), &l.sim, error, sizeof error));
      if (l.sim == nullptr) std::fprintf(stderr, "%s: %s\n", path.c_str(), error);
      require(l.sim != nullptr, "a scenario of domains/sim does not load");
    }
    require(topoplan_sim_kind(l.sim) != nullptr && topoplan_sim_name(l.sim) != nullptr,
            "sim kind and name");
    const int32_t selectors = topoplan_sim_num_selectors(l.sim);
    const int32_t k = in.ConsumeIntegralInRange<int32_t>(-1, std::max(selectors, 0));
    const char* selector = topoplan_sim_selector_name(l.sim, k);
    require((selector != nullptr) == (k >= 0 && k < selectors), "sim selector_name");
    if (sim_runs++ > 0) return;  // one episode per input: it costs milliseconds
    topoplan_sim_options options;
    topoplan_sim_options_init(&options);
    const std::string random_selector = in.ConsumeRandomLengthString(8);
    options.selector = in.ConsumeBool() ? selector : random_selector.c_str();
    options.seed = in.ConsumeIntegralInRange<uint64_t>(1, 3);
    bool hostile = false;
    options.replay_every = static_cast<int32_t>(field({0, 1, 50}, 1 << 30, hostile));
    // Never 0 (the file's own end: minutes of simulated time) and never infinite.
    options.max_seconds = in.ConsumeBool() ? 0.5 : (in.ConsumeBool() ? 2.0 : -1.0);
    topoplan_sim_result result{};
    const topoplan_status s = topoplan_sim_run(
        l.sim, &options, in.ConsumeBool() ? &result : nullptr, error, sizeof error);
    known(s);
    std::string buffer(in.ConsumeIntegralInRange<size_t>(0, 4096), 'x');
    size_t size = 0;
    const topoplan_status r =
        topoplan_sim_replay(l.sim, buffer.empty() ? nullptr : buffer.data(), buffer.size(), &size);
    known(r);
    if (r == TOPOPLAN_OK)
      require(size >= 1 && size <= buffer.size() && buffer[size - 1] == '\0', "sim_replay: size");
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  std::unique_ptr<Shared> parsed;
  Shared* shared = nullptr;
  if (in.ConsumeIntegralInRange<int>(0, 7) == 0) {  // a task from the bytes themselves
    parsed = std::make_unique<Shared>();
    const std::string text = in.ConsumeRandomLengthString(1024);
    char error[256];
    known(topoplan_task_parse(text.data(), text.size(), in.ConsumeIntegralInRange<int32_t>(-1, 3),
                              "fuzz", &parsed->task, error, sizeof error));
    shared = parsed.get();
  } else {
    const int32_t n = topoplan_num_builtin_tasks();
    shared = &builtin(in.ConsumeIntegralInRange<int32_t>(0, n - 1));
    if (in.ConsumeIntegralInRange<int>(0, 15) == 0) {  // a name that is (almost surely) not one
      const std::string name = in.ConsumeRandomLengthString(12);
      topoplan_task* t = nullptr;
      char error[256];
      known(topoplan_task_builtin(name.c_str(), &t, error, sizeof error));
      topoplan_task_free(t);
    }
  }
  if (shared->task == nullptr || topoplan_task_num_variables(shared->task) > 64) return 0;
  Session s(in, *shared);
  for (int step = 0; step < 24 && in.remaining_bytes() > 0; ++step) {
    switch (in.ConsumeIntegralInRange<int>(0, 19)) {
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
      case 11:
        s.make_town();
        break;
      case 12:
        s.town_batch();
        break;
      case 13:
        s.introspect();
        break;
      case 14:
        s.state_text();
        break;
      case 15:
        s.topo();
        break;
      case 16:
        s.planner_handle();
        break;
      case 17:
        s.analysis();
        break;
      case 18:
        s.misc();
        break;
      default:
        if (in.ConsumeBool()) {
          s.udgoap();
        } else {
          s.sim();
        }
    }
  }
  return 0;
}
