// The bindings of crowds: CrowdPlanner, PlanCache and Crowd over NumPy arrays, viewed in place
// (bindings.h).
#include "bindings.h"

#include <algorithm>
#include <bit>
#include <climits>
#include <cstddef>
#include <mutex>
#include <optional>
#include <type_traits>

#include "topoplan/runtime/limits.h"

#include "topoplan/runtime/crowd.h"

namespace topoplan_py {
namespace {

struct PyCrowdPlanner {
  TaskPtr task;
  CrowdPlanner planner;
};

struct PyPlanCache {
  std::shared_ptr<PyCrowdPlanner> owner;
  std::unique_ptr<PlanCache> cache;
};

struct PyCrowd {
  std::mutex busy;  // one batch at a time per crowd (the GIL is released while it runs)
  std::shared_ptr<PyCrowdPlanner> owner;
  std::shared_ptr<PyPlanCache> cache;
  std::unique_ptr<CrowdThreadPool> pool;
  std::unique_ptr<Crowd> crowd;
};

static_assert(sizeof(PlanHandle) == sizeof(uint64_t) && offsetof(PlanHandle, epoch) == 4 &&
              std::endian::native == std::endian::little &&
              std::is_trivially_copyable_v<PlanHandle>);

PlanHandle handle_of(uint64_t h) {
  return PlanHandle{static_cast<uint32_t>(h), static_cast<uint32_t>(h >> 32)};
}

// A resolved plan as a new int32 array; None for an empty or stale handle.
py::object plan_array(std::optional<std::span<const ActionId>> plan) {
  if (!plan) return py::none();
  CArray<int32_t> a(static_cast<py::ssize_t>(plan->size()));
  std::copy(plan->begin(), plan->end(), a.mutable_data());
  return py::object(std::move(a));
}

py::dict stats_dict(const CrowdStats& s) {
  using S = CrowdStats;
  return dict_of(s, "served", &S::served, "planned", &S::planned, "cache_hits", &S::cache_hits,
                 "solved", &S::solved, "buffer_too_small", &S::buffer_too_small, "complete",
                 &S::complete, "solved_fallback", &S::solved_fallback, "resumed", &S::resumed,
                 "no_plan", &S::no_plan, "pending", &S::pending, "retry_slices", &S::retry_slices);
}

// Runs a batch: inputs and outputs are NumPy arrays, viewed in place.
// `handles` (None, or a uint64 array of N written in place: id | epoch << 32, 0 = no handle)
// answers solved NPCs by plan handle (crowd.h, "Plan handles"); it needs the crowd's cache.
py::tuple run_crowd(PyCrowd& c, const py::handle& npc_class, const py::handle& init,
                    const py::handle& goal, py::object actions, py::object offset,
                    py::object length, py::object status, const py::object& handles,
                    int64_t* cursor, double budget) {
  const CrowdLayout& layout = c.owner->planner.layout();
  auto cls = exact<uint16_t>(npc_class, "npc_class");
  auto in = exact<uint64_t>(init, "init");
  auto gl = exact<uint64_t>(goal, "goal");
  const auto n = static_cast<size_t>(cls.size());
  const auto words = static_cast<size_t>(layout.words());
  if (cls.ndim() != 1) throw py::value_error("npc_class: expected a 1-d array");
  if (n > static_cast<size_t>(INT32_MAX)) throw py::value_error("at most 2^31 - 1 NPCs per batch");
  if (static_cast<size_t>(in.size()) != n * words || static_cast<size_t>(gl.size()) != n * words)
    throw py::value_error("init and goal: expected len(npc_class) * words = " +
                          std::to_string(n * words) + " words each");
  // Outputs: given (written in place) or allocated here.
  if (actions.is_none())
    actions = CArray<int32_t>(static_cast<py::ssize_t>(
        n * static_cast<size_t>(std::max(1, std::min(c.owner->planner.max_plan_length(), 16)))));
  if (offset.is_none()) offset = CArray<uint32_t>(static_cast<py::ssize_t>(n));
  if (length.is_none()) length = CArray<uint16_t>(static_cast<py::ssize_t>(n));
  if (status.is_none()) status = CArray<uint16_t>(static_cast<py::ssize_t>(n));
  auto act = exact<int32_t>(actions, "actions");
  auto off = exact<uint32_t>(offset, "offset");
  auto len = exact<uint16_t>(length, "length");
  auto st = exact<uint16_t>(status, "status");
  if (!act.writeable() || !off.writeable() || !len.writeable() || !st.writeable())
    throw py::value_error("output arrays must be writeable");
  if (static_cast<size_t>(off.size()) != n || static_cast<size_t>(len.size()) != n ||
      static_cast<size_t>(st.size()) != n)
    throw py::value_error("offset, length and status: expected len(npc_class) entries each");
  if (static_cast<uint64_t>(act.size()) > 0xFFFFFFFFull)
    throw py::value_error("actions: at most 2^32 - 1 entries");
  // No output may share memory with another output or with an input: the batch writes
  // outputs while it reads inputs, on several threads.
  {
    struct Span {
      const char* name;
      const py::array* a;
      bool output;
    };
    const py::array* h_arr = nullptr;
    py::array h_view;
    if (!handles.is_none()) {
      h_view = exact<uint64_t>(handles, "handles");
      h_arr = &h_view;
    }
    const Span all[] = {{"npc_class", &cls, false}, {"init", &in, false},    {"goal", &gl, false},
                        {"actions", &act, true},    {"offset", &off, true},  {"length", &len, true},
                        {"status", &st, true},      {"handles", h_arr, true}};
    auto range = [](const py::array& a) {
      const auto* b = static_cast<const char*>(a.data());
      return std::pair{b, b + a.nbytes()};
    };
    for (const Span& x : all) {
      if (x.a == nullptr || !x.output || x.a->nbytes() == 0) continue;
      for (const Span& y : all) {
        if (y.a == nullptr || &x == &y || y.a->nbytes() == 0 || (y.output && &y < &x)) continue;
        const auto [xb, xe] = range(*x.a);
        const auto [yb, ye] = range(*y.a);
        if (xb < ye && yb < xe)
          throw py::value_error(std::string(x.name) + " and " + y.name +
                                " share memory: give each output its own array");
      }
    }
  }
  const CrowdBatch batch{{cls.data(), n}, {in.data(), n * words}, {gl.data(), n * words}};
  CrowdOutput out{{act.mutable_data(), static_cast<size_t>(act.size())},
                  {off.mutable_data(), n},
                  {len.mutable_data(), n},
                  {st.mutable_data(), n}};
  if (!handles.is_none()) {
    auto h = exact<uint64_t>(handles, "handles");
    if (!c.cache) throw py::value_error("handles: the Crowd needs a PlanCache");
    if (!h.writeable() || static_cast<size_t>(h.size()) != n)
      throw py::value_error("handles: expected a writeable array of len(npc_class) entries");
    // The same 8 bytes (PlanHandle: id, then epoch; little-endian: id | epoch << 32).
    out.handles = {reinterpret_cast<PlanHandle*>(h.mutable_data()), n};
  }
  std::unique_lock<std::mutex> lock(c.busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw std::runtime_error(
        "this Crowd is planning a batch in another thread: use one Crowd "
        "per thread (they may share the CrowdPlanner and the PlanCache)");
  CrowdStats stats;
  {
    py::gil_scoped_release release;
    if (cursor == nullptr) {
      stats = c.crowd->plan(batch, out);
    } else {
      CrowdCursor cur{*cursor};
      stats = c.crowd->plan_frame(batch, out, &cur, budget);
      *cursor = cur.next;
    }
  }
  return py::make_tuple(actions, offset, length, status, stats_dict(stats));
}

// States as a (N, num_variables) int32 array → (N, words) uint64.
CArray<uint64_t> pack(const PyCrowdPlanner& p, const py::handle& states, bool goal) {
  auto s = exact<int32_t>(states, goal ? "goals" : "states");
  const Domain& d = p.planner.domain();
  const auto m = static_cast<size_t>(d.num_variables());
  if (s.ndim() != 2 || static_cast<size_t>(s.shape(1)) != m)
    throw py::value_error("expected an int32 array of shape (N, " + std::to_string(m) + ")");
  const auto n = static_cast<size_t>(s.shape(0));
  const auto words = static_cast<size_t>(p.planner.layout().words());
  CArray<uint64_t> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(words)});
  const int32_t* src = s.data();
  uint64_t* dst = out.mutable_data();
  for (size_t i = 0; i < n; ++i) {
    const int32_t* row = src + i * m;
    for (size_t v = 0; v < m; ++v) {
      const int32_t x = row[v];
      if (!((x >= 0 && x < d.domain_size(static_cast<VarId>(v))) || (goal && x == kUndefined)))
        throw py::value_error("row " + std::to_string(i) + ": value " + std::to_string(x) + " of " +
                              d.variable_name(static_cast<VarId>(v)) + " out of range");
    }
    const std::span<const ValueId> view(row, m);
    if (goal)
      p.planner.layout().pack_goal(view, dst + i * words);
    else
      p.planner.layout().pack_state(view, dst + i * words);
  }
  return out;
}

CArray<int32_t> unpack(const PyCrowdPlanner& p, const py::handle& packed, bool goal) {
  auto s = exact<uint64_t>(packed, "packed");
  const auto m = static_cast<size_t>(p.planner.domain().num_variables());
  const auto words = static_cast<size_t>(p.planner.layout().words());
  // (N, words) as pack_states returns, or one row of N * words words.
  if (!((s.ndim() == 2 && static_cast<size_t>(s.shape(1)) == words) ||
        (s.ndim() == 1 && static_cast<size_t>(s.size()) % words == 0)))
    throw py::value_error("packed: expected a uint64 array of shape (N, " + std::to_string(words) +
                          ") or (N * " + std::to_string(words) + ",)");
  const size_t n = static_cast<size_t>(s.size()) / words;
  const Domain& d = p.planner.domain();
  CArray<int32_t> out({static_cast<py::ssize_t>(n), static_cast<py::ssize_t>(m)});
  for (size_t i = 0; i < n; ++i) {
    const std::span<ValueId> row(out.mutable_data() + i * m, m);
    if (goal)
      p.planner.layout().unpack_goal(s.data() + i * words, row);
    else
      p.planner.layout().unpack_state(s.data() + i * words, row);
    for (size_t v = 0; v < m; ++v) {
      const ValueId x = row[v];
      if (!((x >= 0 && x < d.domain_size(static_cast<VarId>(v))) || (goal && x == kUndefined)))
        throw py::value_error("packed: row " + std::to_string(i) + ": code " + std::to_string(x) +
                              " of " + d.variable_name(static_cast<VarId>(v)) +
                              " is not a value of it");
    }
  }
  return out;
}

// A planner chain argument: a list of registry names, or one comma-separated string ("astar-back,
// astar"); "none" and [] mean ℙ only (the CLI's --fallback syntax); "" or ",," is refused.
std::vector<std::string> chain_of(const py::handle& h, const std::string& what) {
  std::vector<std::string> names;
  if (py::isinstance<py::str>(h)) return parse_planner_chain(h.cast<std::string>());
  if (!py::isinstance<py::sequence>(h))
    throw py::type_error(what + ": expected a list of planner names or a comma-separated str");
  for (py::handle name : py::reinterpret_borrow<py::sequence>(h))
    names.push_back(str_of(name, what.c_str()));
  return names;
}

// The Crowd constructor's chain keywords into `def` (None keeps CrowdDef's default); the ranges
// and names are Crowd::create's to check (ValueError with its message).
void set_chain(CrowdDef& def, const py::object& fallback, const py::object& class_fallback,
               std::optional<int64_t> budget, std::optional<int64_t> max_expansions,
               std::optional<int64_t> max_memory_bytes, std::optional<double> max_seconds) {
  if (!fallback.is_none()) def.fallback = chain_of(fallback, "fallback");
  if (!class_fallback.is_none()) {
    if (!py::isinstance<py::dict>(class_fallback))
      throw py::type_error("class_fallback: expected a dict {class name: planner chain}");
    for (auto [name, chain] : py::reinterpret_borrow<py::dict>(class_fallback)) {
      std::string class_name = str_of(name, "class_fallback");
      def.class_fallback.emplace_back(class_name,
                                      chain_of(chain, "class_fallback['" + class_name + "']"));
    }
  }
  if (budget) def.fallback_budget = *budget;
  if (max_expansions) def.fallback_limits.max_expansions = *max_expansions;
  if (max_memory_bytes) def.fallback_limits.max_memory_bytes = *max_memory_bytes;
  if (max_seconds) def.fallback_limits.max_seconds = *max_seconds;
}

// CrowdPlanner: ℙ per NPC class and the packed layout of states and goals.
void bind_crowd_planner(py::module_& m) {
  py::class_<PyCrowdPlanner, std::shared_ptr<PyCrowdPlanner>>(m, "CrowdPlanner")
      .def(py::init([](TaskPtr t) {
             required(t, "task");
             auto p = std::make_shared<PyCrowdPlanner>();
             p->task = t;
             p->planner = unwrap(CrowdPlanner::create(t->domain));
             return p;
           }),
           py::arg("task"))
      .def_property_readonly("words",
                             [](const PyCrowdPlanner& p) { return p.planner.layout().words(); })
      .def_property_readonly("num_classes",
                             [](const PyCrowdPlanner& p) { return p.planner.num_classes(); })
      .def_property_readonly("max_plan_length",
                             [](const PyCrowdPlanner& p) { return p.planner.max_plan_length(); })
      .def(
          "pack_states",
          [](const PyCrowdPlanner& p, const py::handle& s) { return pack(p, s, false); },
          py::arg("states"))
      .def(
          "pack_goals",
          [](const PyCrowdPlanner& p, const py::handle& s) { return pack(p, s, true); },
          py::arg("goals"))
      .def(
          "unpack_states",
          [](const PyCrowdPlanner& p, const py::handle& s) { return unpack(p, s, false); },
          py::arg("packed"))
      .def(
          "unpack_goals",
          [](const PyCrowdPlanner& p, const py::handle& s) { return unpack(p, s, true); },
          py::arg("packed"));
}

// PlanCache: plans shared by crowds, and their handles.
void bind_plan_cache(py::module_& m) {
  py::class_<PyPlanCache, std::shared_ptr<PyPlanCache>>(m, "PlanCache")
      .def(py::init([](std::shared_ptr<PyCrowdPlanner> p, int32_t capacity, int32_t max_plan_length,
                       int32_t table_actions) {
             required(p, "planner");
             auto c = std::make_shared<PyPlanCache>();
             c->owner = p;
             // table_actions: PlanCache::create's range ([0, 2^30]; 0: no plan table, no handles).
             c->cache = unwrap(PlanCache::create(
                 p->planner, PlanCacheDef{capacity, max_plan_length, table_actions}));
             return c;
           }),
           py::arg("planner"), py::arg("capacity") = 1 << 16, py::arg("max_plan_length") = 16,
           py::arg("table_actions") = PlanCacheDef{}.table_actions)
      .def("invalidate", [](PyPlanCache& c) { c.cache->invalidate(); })
      .def(
          "resolve",
          [](const PyPlanCache& c, uint64_t handle) {
            return plan_array(c.cache->resolve(handle_of(handle)));
          },
          py::arg("handle"), "As Crowd.resolve.")
      .def("stats", [](const PyPlanCache& c) {
        using S = PlanCacheStats;  // table_*: the plan table of plan handles (crowd.h)
        return dict_of(c.cache->stats(), "hits", &S::hits, "misses", &S::misses, "inserts",
                       &S::inserts, "evictions", &S::evictions, "invalidations", &S::invalidations,
                       "capacity", &S::capacity, "bytes", &S::bytes, "table_used", &S::table_used,
                       "table_capacity", &S::table_capacity);
      });
}

// Crowd: batches, frames, the planner chain; the status bits.
void bind_crowd_class(py::module_& m) {
  py::class_<PyCrowd, std::shared_ptr<PyCrowd>>(m, "Crowd")
      .def(py::init([](std::shared_ptr<PyCrowdPlanner> p, int32_t threads,
                       std::shared_ptr<PyPlanCache> cache, int32_t npcs_per_block,
                       int32_t worker_memo_entries, const py::object& fallback,
                       const py::object& class_fallback, std::optional<int64_t> fallback_budget,
                       std::optional<int64_t> fallback_max_expansions,
                       std::optional<int64_t> fallback_max_memory_bytes,
                       std::optional<double> fallback_max_seconds) {
             required(p, "planner");
             // The table of limits; Crowd::create checks the def's other fields in its words.
             if (auto e = check_limit(limits::kCrowdThreads, int64_t{threads}, "Crowd"))
               throw py::value_error(e->message);
             if (cache && cache->owner != p)
               throw py::value_error("the cache was made for another CrowdPlanner");
             auto c = std::make_shared<PyCrowd>();
             c->owner = p;
             c->cache = cache;
             CrowdDef def;
             def.npcs_per_block = npcs_per_block;
             def.worker_memo_entries = worker_memo_entries;
             def.cache = cache ? cache->cache.get() : nullptr;
             set_chain(def, fallback, class_fallback, fallback_budget, fallback_max_expansions,
                       fallback_max_memory_bytes, fallback_max_seconds);
             if (threads > 1) {
               c->pool = std::make_unique<CrowdThreadPool>(threads);
               c->pool->install(def);
             }
             c->crowd = std::make_unique<Crowd>(unwrap(Crowd::create(p->planner, def)));
             return c;
           }),
           py::arg("planner"), py::arg("threads") = 1, py::arg("cache") = nullptr,
           py::arg("npcs_per_block") = 64, py::arg("worker_memo_entries") = 2048, py::kw_only(),
           py::arg("fallback") = py::none(), py::arg("class_fallback") = py::none(),
           py::arg("fallback_budget") = py::none(), py::arg("fallback_max_expansions") = py::none(),
           py::arg("fallback_max_memory_bytes") = py::none(),
           py::arg("fallback_max_seconds") = py::none(),
           "fallback: the planner chain after ℙ (registry names, a list or 'a,b'; default "
           "['astar']; 'none' or []: ℙ only); class_fallback: {class name: chain} for some "
           "classes; fallback_budget: expansions per NPC in the first attempt (default 2000); "
           "fallback_max_*: the retries' limits (500000 expansions, 256 MiB, 0 s = no time limit). "
           "None keeps the default; a bad name or range is a ValueError.")
      .def(
          "plan",
          [](PyCrowd& c, const py::handle& npc_class, const py::handle& init,
             const py::handle& goal, py::object actions, py::object offset, py::object length,
             py::object status, const py::object& handles) {
            return run_crowd(c, npc_class, init, goal, std::move(actions), std::move(offset),
                             std::move(length), std::move(status), handles, nullptr, 0.0);
          },
          py::arg("npc_class"), py::arg("init"), py::arg("goal"), py::arg("actions") = py::none(),
          py::arg("offset") = py::none(), py::arg("length") = py::none(),
          py::arg("status") = py::none(), py::arg("handles") = py::none())
      .def(
          "plan_frame",
          [](PyCrowd& c, const py::handle& npc_class, const py::handle& init,
             const py::handle& goal, int64_t cursor, double budget_seconds, py::object actions,
             py::object offset, py::object length, py::object status, const py::object& handles) {
            if (cursor < 0 ||
                static_cast<uint64_t>(cursor) > static_cast<uint64_t>(py::len(npc_class)) ||
                !(budget_seconds >= 0.0))
              throw py::value_error("cursor in [0, N], budget_seconds >= 0");
            // A cursor is 0 or what a call returned: a block's first NPC, or N.
            if (cursor % c.crowd->def().npcs_per_block != 0 &&
                static_cast<uint64_t>(cursor) != static_cast<uint64_t>(py::len(npc_class)))
              throw py::value_error(
                  "cursor must be 0 or a value plan_frame returned (a multiple of "
                  "npcs_per_block, or N)");
            py::tuple r =
                run_crowd(c, npc_class, init, goal, std::move(actions), std::move(offset),
                          std::move(length), std::move(status), handles, &cursor, budget_seconds);
            return py::make_tuple(r[0], r[1], r[2], r[3], r[4], cursor);
          },
          py::arg("npc_class"), py::arg("init"), py::arg("goal"), py::arg("cursor"),
          py::arg("budget_seconds") = 1.67e-3, py::arg("actions") = py::none(),
          py::arg("offset") = py::none(), py::arg("length") = py::none(),
          py::arg("status") = py::none(), py::arg("handles") = py::none())
      .def(
          "resolve",
          [](const PyCrowd& c, uint64_t handle) {
            return plan_array(c.crowd->resolve(handle_of(handle)));
          },
          py::arg("handle"),
          "The plan of a handle (an entry of the handles array) as an int32 array; None when it "
          "is empty (0) or stale (the cache was invalidated since).");

  m.attr("CROWD_SOLVED") = kCrowdSolved;
  m.attr("CROWD_UNSOLVABLE") = kCrowdUnsolvable;
  m.attr("CROWD_NO_PLAN") = kCrowdNoPlan;
  m.attr("CROWD_BUFFER_TOO_SMALL") = kCrowdBufferTooSmall;
  m.attr("CROWD_BAD_INPUT") = kCrowdBadInput;
  m.attr("CROWD_CACHE_HIT") = kCrowdCacheHit;
}

}  // namespace

void bind_crowd(py::module_& m) {
  bind_crowd_planner(m);
  bind_plan_cache(m);
  bind_crowd_class(m);
}

}  // namespace topoplan_py
