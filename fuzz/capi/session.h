// fuzz_capi's shared part: the checks, the pools of objects kept across inputs and the Session
// an input drives; each area's calls are in fuzz/capi/<area>.cpp, the entry point in
// fuzz/fuzz_capi.cpp.
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
#pragma once

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

namespace fuzz_capi {

inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_capi: %s\n", what);
    std::abort();
  }
}

// A status is one of the documented ones.
inline void known(topoplan_status s) {
  require(std::string(topoplan_status_string(s)) != "unknown status", "unknown status");
  require(s != TOPOPLAN_INTERNAL_ERROR, "internal error (an exception escaped into the C API)");
}

constexpr int kMaxUses = 64;
// Expansions a search may take: enough for every planner to find the built-in tasks' short plans
// and to stop on a limit, few enough that no search dominates an input.
constexpr int64_t kExpansions = 64;
// Calls per input. The pools carry objects from input to input, so a sequence goes on in later
// inputs; an input of 8 calls costs a third of one of 24 (0.46 against 1.37 ms of CPU under ASan +
// UBSan, bench/results/2026-11-27-doors.md), and a mutation of its bytes changes fewer calls.
constexpr int kSteps = 8;

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
inline void free_topo_pair(TopoPair* p) {
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
  Pool<topoplan_crowd, topoplan_crowd_free> crowds{96, 4 * kMaxUses};
  Pool<topoplan_agents, topoplan_agents_free> agents{16, kMaxUses};
  Pool<topoplan_town, topoplan_town_free> towns{16, 4 * kMaxUses};
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

// The built-in task `index`, its crowd planner and pools (made on first use, kept for the process).
Shared& builtin(int32_t index);

// An object an input works on: pooled (its pool frees it), or the input's own (a hostile def the
// create call accepted anyway), freed when dropped.
template <class T, void (*Free)(T*)>
struct Held {
  T* object = nullptr;
  bool own = false;

  Held() = default;
  Held(const Held&) = delete;
  Held& operator=(const Held&) = delete;
  ~Held() { drop(); }
  operator T*() const { return object; }  // NOLINT(google-explicit-constructor): a C handle
  // A pooled object (or nullptr).
  Held& operator=(T* pooled) {
    object = pooled;
    return *this;
  }
  void drop() {
    if (own) Free(object);
    object = nullptr;
    own = false;
  }
  // A create call's answer (nullptr: refused): kept in `pool` under `key`, or the input's own
  // when its def was hostile. False when refused.
  bool take(T* made, bool hostile, Pool<T, Free>& pool, const Key& key) {
    if (made == nullptr) return false;
    object = made;
    if (hostile) {
      own = true;
    } else {
      pool.keep(key.bytes, made);
    }
    return true;
  }
};

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
  // The objects this input works on, freed in reverse order: a crowd before the cache it may
  // point to.
  Held<topoplan_plan_cache, topoplan_plan_cache_free> cache;
  Held<topoplan_town, topoplan_town_free> town;
  Held<topoplan_crowd, topoplan_crowd_free> crowd;
  Held<topoplan_agents, topoplan_agents_free> agents;
  int creates = 0;  // create calls that may build (capped per input: each costs milliseconds)
  int sim_runs = 0;
  std::vector<topoplan_plan_handle> handles;  // given by batches (some stale by now)
  char error[256] = {};

  void drop_cache() {
    cache.drop();
    handles.clear();
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

  // A name the task has, or random bytes (a NUL among them ends the name the C API sees, so
  // names found are compared as C strings).
  std::string some_name(const char* known_name) {
    if (known_name != nullptr && in.ConsumeBool()) return known_name;
    return in.ConsumeRandomLengthString(10);
  }

  // The task: plans, validation, the engine, names, text, ℙ, prepared planners, analyses
  // (task.cpp).
  void plan();
  void validate_random();
  // The engine calls: whether an action applies where the validator says it does, its effects
  // where the validator's final state has them, goals judged as the validator judges them.
  void engine();
  // Names, sizes and lookups with ids in and out of range: NULL / -1 exactly when out of range,
  // and a name found by a lookup is the name asked for.
  void introspect();
  void introspect_classes(int32_t var);
  // States as text: formatted with any capacity, parsed back (or random text parsed).
  void state_text();
  // ℙ handles: made per class (pooled), a scratch each, plans validated, explanations.
  void topo();
  // Prepared planners by name and class (pooled): plans within small limits, validated.
  void planner_handle();
  // Class analyses (pooled per class) queried with ids in and out of range; `check` itself.
  void analysis();
  // The task written back (any format and capacity), a plan cache's counters, a task file that
  // is not one.
  void misc();

  // Crowds: caches, crowds and chains, batches, handles, towns (crowd.cpp).
  // A plan cache: one of a few presets (capacity, plan length, plan table: -1 the default
  // table of 2^19 slots, 2 MiB to clear), each field sometimes hostile.
  void make_cache();
  // A crowd: a def preset (workers, threads, NPCs per block, memo entries) with or without the
  // input's cache, and the default chain or a chain preset; any field sometimes hostile, and
  // sometimes a chain of random or malformed names.
  void make_crowd();
  void batch();
  // Plans a batch through the crowd (copying or by handle, whole or framed) and validates every
  // NPC it calls solved.
  void run_batch(const topoplan_crowd_batch& b);
  void resolve();
  void pending();
  void pack_unpack();
  void make_town();
  // A town's NPCs: churned, counted, and planned as a batch by the crowd.
  void town_batch();

  // Agent worlds (agents.cpp).
  // An agent world: goals, lists, agents, senses, reports and frames, with hostile ids and
  // sizes; every plan an agent holds is made of the domain's actions.
  void make_agents();
  void agent_world();

  // UDGOAP and the simulations (sim.cpp).
  // The UDGOAP wizard (one world and agent per process, loaded again after kMaxUses uses): facts
  // set and read with names in and out of the world and hostile values, updates, plans within
  // small limits whose steps name the world's actions and entities.
  void udgoap();
  // Scenarios: text that is (mostly) not one, and the built-in ones (one handle per file and
  // process, loaded again after kMaxUses uses) run for a few simulated seconds, their replays
  // copied into buffers of any size.
  void sim();
};

}  // namespace fuzz_capi
