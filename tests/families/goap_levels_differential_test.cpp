// Differential test of ℙ and the default planner (`auto`: ℙ then bounded GOAP A*, A* first on tasks
// of at most 64 states) against the exact search on generated GOAP levels (tools/families.h). ℙ is
// also run on its own, since auto may answer a small task before asking it.
//
// TOPOPLAN_LEVEL_INSTANCES sets the number of instances (default: a CI sample of a few seconds,
// an eighth of it under a sanitizer; the long run uses 10^6), TOPOPLAN_LEVEL_SEED the first level
// seed, TOPOPLAN_LEVEL_MAX_LOCATIONS the largest level drawn (default 12, so that the exact oracle
// stays cheap). Asserted:
//   * every plan ℙ or auto returns is valid and of the exact optimal length (levels have unit
//     costs, so length = cost);
//   * neither says "unsolvable" when the exact search finds a plan;
//   * auto never answers wrongly and, on these sizes, never stops at its default limits.
// Counted and printed: instances, solvable, T1-solvable (some optimal plan uses each action at
// most once: decided exactly below), solved by ℙ, minimal, answered by ℙ, answered by auto, auto
// limit reached, and ℙ's share of the T1-solvable instances (asserted: all of them).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "env.h"
#include "random_domains.h"
#include "topoplan/runtime/topo.h"
#include "topoplan/runtime/validate.h"
#include "topoplan/tools/families.h"
#include "topoplan/tools/search.h"

namespace topoplan {
namespace {

using testing::env_int;

// Exact decision of "some plan of length `optimum` (the optimal length) uses each action at most
// once". Every prefix of an optimal plan reaches its state by a shortest path, and from there
// the goal is reached by a shortest path: so only edges s -> s' with g(s') = g(s) + 1 and
// g(s') + h(s') = optimum can be on such a plan (g: BFS distance from s0, h: distance to a goal
// state, both over the explicit reachable graph up to depth `optimum`). A depth-first search
// over those edges with the used actions as a bit mask, memoising failed (state, mask) pairs,
// decides it. Returns 1 (yes), 0 (no) or -1 (undecided: too many states or actions).
class T1Oracle {
 public:
  int decide(const Domain& d, const Instance& inst, int optimum) {
    const auto mask = d.action_mask(inst.npc_class);
    actions_.clear();
    for (ActionId a = 0; a < d.num_actions(); ++a)
      if (mask[static_cast<size_t>(a)]) actions_.push_back(a);
    if (actions_.size() > 64) return -1;
    // Mixed-radix key of a state.
    radix_.clear();
    uint64_t span = 1;
    for (VarId v = 0; v < d.num_variables(); ++v) {
      radix_.push_back(span);
      const auto n = static_cast<uint64_t>(d.domain_size(v));
      if (span > (uint64_t{1} << 62) / n) return -1;
      span *= n;
    }
    // BFS to depth `optimum`, keeping the explicit graph.
    ids_.clear();
    states_.clear();
    g_.clear();
    succ_.clear();
    std::deque<int32_t> queue;
    intern(inst.init, 0, queue);
    std::vector<ValueId> s, t;
    while (!queue.empty()) {
      const int32_t id = queue.front();
      queue.pop_front();
      if (g_[static_cast<size_t>(id)] >= optimum) continue;
      s = states_[static_cast<size_t>(id)];
      for (size_t k = 0; k < actions_.size(); ++k) {
        if (!apply(d, actions_[k], s, t)) continue;
        const int32_t to = intern(t, g_[static_cast<size_t>(id)] + 1, queue);
        if (to < 0) return -1;
        succ_.push_back({id, to, static_cast<int32_t>(k)});
      }
    }
    // h by backward relaxation from the goal states (edges sorted by depth: a DAG by layers is
    // not guaranteed, so iterate to a fixpoint; depths are small).
    const int32_t n = static_cast<int32_t>(states_.size());
    h_.assign(static_cast<size_t>(n), 1 << 20);
    for (int32_t i = 0; i < n; ++i)
      if (is_goal(inst, states_[static_cast<size_t>(i)])) h_[static_cast<size_t>(i)] = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (const Edge& e : succ_) {
        const int32_t via = h_[static_cast<size_t>(e.to)] + 1;
        if (via < h_[static_cast<size_t>(e.from)]) {
          h_[static_cast<size_t>(e.from)] = via;
          changed = true;
        }
      }
    }
    std::sort(succ_.begin(), succ_.end(),
              [](const Edge& x, const Edge& y) { return x.from < y.from; });
    first_.assign(static_cast<size_t>(n) + 1, 0);
    for (const Edge& e : succ_) ++first_[static_cast<size_t>(e.from) + 1];
    for (int32_t i = 0; i < n; ++i)
      first_[static_cast<size_t>(i) + 1] += first_[static_cast<size_t>(i)];
    failed_.clear();
    budget_ = 2'000'000;
    optimum_ = optimum;
    const int r = dfs(0, 0);
    return budget_ < 0 ? -1 : r;
  }

 private:
  struct Edge {
    int32_t from, to, action;  // action: index into actions_
  };
  static bool apply(const Domain& d, ActionId a, const std::vector<ValueId>& s,
                    std::vector<ValueId>& t) {
    for (const Fact& f : d.prevail(a))
      if (s[static_cast<size_t>(f.var)] != f.value) return false;
    for (const Effect& e : d.effects(a))
      if (e.pre != kUndefined && s[static_cast<size_t>(e.var)] != e.pre) return false;
    t = s;
    for (const Effect& e : d.effects(a)) t[static_cast<size_t>(e.var)] = e.post;
    return true;
  }
  static bool is_goal(const Instance& inst, const std::vector<ValueId>& s) {
    for (size_t v = 0; v < s.size(); ++v)
      if (inst.goal[v] != kUndefined && inst.goal[v] != s[v]) return false;
    return true;
  }
  int32_t intern(const std::vector<ValueId>& s, int32_t g, std::deque<int32_t>& queue) {
    uint64_t key = 0;
    for (size_t v = 0; v < s.size(); ++v) key += radix_[v] * static_cast<uint64_t>(s[v]);
    auto [it, fresh] = ids_.emplace(key, static_cast<int32_t>(states_.size()));
    if (fresh) {
      if (states_.size() >= 4'000'000) return -1;
      states_.push_back(s);
      g_.push_back(g);
      queue.push_back(it->second);
    }
    return it->second;
  }
  int dfs(int32_t id, uint64_t used) {
    const auto i = static_cast<size_t>(id);
    if (h_[i] == 0 && g_[i] == optimum_) return 1;
    if (--budget_ < 0) return 0;
    const Visit key{id, used};
    if (failed_.count(key) != 0) return 0;
    for (int32_t k = first_[i]; k < first_[i + 1]; ++k) {
      const Edge& e = succ_[static_cast<size_t>(k)];
      const auto j = static_cast<size_t>(e.to);
      if (g_[j] != g_[i] + 1 || g_[j] + h_[j] != optimum_) continue;
      const uint64_t bit = uint64_t{1} << e.action;
      if ((used & bit) != 0) continue;
      if (dfs(e.to, used | bit) == 1) return 1;
    }
    failed_.insert(key);
    return 0;
  }

  std::vector<ActionId> actions_;
  std::vector<uint64_t> radix_;
  std::unordered_map<uint64_t, int32_t> ids_;
  std::vector<std::vector<ValueId>> states_;
  std::vector<int32_t> g_, h_, first_;
  std::vector<Edge> succ_;
  struct Visit {
    int32_t id;
    uint64_t used;
    bool operator==(const Visit&) const = default;
  };
  struct VisitHash {
    size_t operator()(const Visit& v) const {
      return std::hash<uint64_t>{}(v.used ^
                                   (static_cast<uint64_t>(v.id) * 0x9E37'79B9'7F4A'7C15ull));
    }
  };
  std::unordered_set<Visit, VisitHash> failed_;
  int64_t budget_ = 0;
  int optimum_ = 0;
};

struct Figures {
  int64_t instances = 0, solvable = 0, t1 = 0, t1_undecided = 0, exact_limit = 0;
  int64_t topo_solved = 0, topo_minimal = 0, topo_unsolvable = 0, topo_wrong = 0;
  int64_t topo_missed_t1 = 0;  // T1-solvable, ℙ did not solve it
  int64_t auto_answered = 0, auto_minimal = 0, auto_limit = 0, auto_wrong = 0, invalid = 0;
};

// Each instance's answers of ℙ and auto against the exact search, counted in `f`; the first 20
// disagreements are reported with the level seed and the states.
class Checker {
 public:
  Checker(const PlannerInfo& topo, const PlannerInfo& automatic)
      : topo_(topo), automatic_(automatic) {
    exact_opts_.objective = Objective::kLength;
    exact_opts_.limits.max_expansions = 2'000'000;
  }

  void check(uint64_t seed, const Domain& d, const Instance& inst) {
    ++f.instances;
    const PlanResult ex = plan_exact(d, inst, exact_opts_);
    if (ex.status == PlanStatus::kLimitReached) {
      ++f.exact_limit;
      return;
    }
    const bool solvable = ex.status == PlanStatus::kSolved;
    const auto optimum = static_cast<int>(ex.actions.size());
    int t1 = 0;
    if (solvable) {
      ++f.solvable;
      const bool once =
          std::set<ActionId>(ex.actions.begin(), ex.actions.end()).size() == ex.actions.size();
      t1 = once ? 1 : oracle_.decide(d, inst, optimum);
      f.t1 += t1 == 1;
      f.t1_undecided += t1 < 0;
    }
    const At at{seed, d, inst};
    const bool topo_solved = check_topo(at, solvable, optimum);
    if (t1 == 1 && !topo_solved) ++f.topo_missed_t1;
    check_auto(at, solvable, optimum);
  }

  Figures f;

 private:
  struct At {
    uint64_t seed;
    const Domain& d;
    const Instance& inst;
  };

  void report(const At& at, const std::string& why) {
    if (++reported_ > 20) return;
    ADD_FAILURE() << "level seed " << at.seed << " instance " << at.inst.name << ": " << why
                  << "\n  init " << format_state(at.d, at.inst.init) << "\n  goal "
                  << format_state(at.d, at.inst.goal);
  }

  // ℙ on its own (auto may answer a small task with A* before ℙ is asked): a minimal plan using
  // each action at most once, or a right proof. Returns whether ℙ solved the instance.
  bool check_topo(const At& at, bool solvable, int optimum) {
    const PlanResult tp = topo_.plan(at.d, at.inst, PlannerOptions{});
    if (tp.status == PlanStatus::kSolved) {
      ++f.topo_solved;
      const Validation v = validate_plan(at.d, at.inst, tp.actions);
      const bool minimal = v.valid && solvable && static_cast<int>(tp.actions.size()) == optimum;
      f.topo_minimal += minimal;
      if (!minimal) report(at, "topo: an invalid or longer plan: " + v.reason);
      if (std::set<ActionId>(tp.actions.begin(), tp.actions.end()).size() != tp.actions.size())
        report(at, "topo used an action twice");
    } else if (tp.status == PlanStatus::kUnsolvable) {
      ++f.topo_unsolvable;
      if (solvable) {
        ++f.topo_wrong;
        report(at, "topo: wrong unsolvable: " + tp.message);
      }
    }
    return tp.status == PlanStatus::kSolved;
  }

  // auto: a valid minimal plan or a right proof, within its default limits.
  void check_auto(const At& at, bool solvable, int optimum) {
    const PlanResult au = automatic_.plan(at.d, at.inst, PlannerOptions{});
    if (au.status == PlanStatus::kSolved) {
      ++f.auto_answered;
      const Validation v = validate_plan(at.d, at.inst, au.actions);
      if (!v.valid) {
        ++f.invalid;
        report(at, au.stats.engine + " returned an invalid plan: " + v.reason);
      } else if (!solvable || static_cast<int>(au.actions.size()) != optimum) {
        ++f.auto_wrong;
        report(at, au.stats.engine + " plan of length " + std::to_string(au.actions.size()) +
                       " vs exact " + std::to_string(optimum));
      } else {
        ++f.auto_minimal;
      }
    } else if (au.status == PlanStatus::kUnsolvable) {
      ++f.auto_answered;
      if (solvable) {
        ++f.auto_wrong;
        report(at, au.stats.engine + ": wrong unsolvable: " + au.message);
      } else {
        ++f.auto_minimal;  // a right answer
      }
    } else if (au.status == PlanStatus::kLimitReached) {
      ++f.auto_limit;
    } else {
      report(at, "auto: " + std::string(to_string(au.status)) + ": " + au.message);
    }
  }

  const PlannerInfo& topo_;
  const PlannerInfo& automatic_;
  PlannerOptions exact_opts_;
  T1Oracle oracle_;
  int reported_ = 0;
};

void print_figures(const Figures& f, int32_t max_locations, int32_t per_level,
                   uint64_t first_seed) {
  const auto pct = [](int64_t a, int64_t b) {
    return b == 0 ? 0.0 : 100.0 * static_cast<double>(a) / static_cast<double>(b);
  };
  std::printf("\nGOAP levels vs exact (max %d locations, %d instances per level, seeds %llu..)\n",
              max_locations, per_level, static_cast<unsigned long long>(first_seed));
  std::printf("%-28s %12lld\n", "instances", (long long)f.instances);
  std::printf("%-28s %12lld\n", "exact limit (skipped)", (long long)f.exact_limit);
  std::printf("%-28s %12lld (%.2f%%)\n", "solvable", (long long)f.solvable,
              pct(f.solvable, f.instances));
  std::printf("%-28s %12lld (%.2f%% of solvable)\n", "T1-solvable", (long long)f.t1,
              pct(f.t1, f.solvable));
  std::printf("%-28s %12lld\n", "T1 undecided", (long long)f.t1_undecided);
  std::printf("%-28s %12lld\n", "solved by topo", (long long)f.topo_solved);
  std::printf("%-28s %12lld\n", "  of them minimal", (long long)f.topo_minimal);
  std::printf("%-28s %12lld\n", "unsolvable by topo (proof)", (long long)f.topo_unsolvable);
  std::printf("%-28s %12lld (%.2f%% of instances)\n", "answered by topo",
              (long long)(f.topo_solved + f.topo_unsolvable),
              pct(f.topo_solved + f.topo_unsolvable, f.instances));
  std::printf("%-28s %12lld (%.2f%% of T1-solvable)\n", "T1-solvable solved by topo",
              (long long)(f.t1 - f.topo_missed_t1), pct(f.t1 - f.topo_missed_t1, f.t1));
  std::printf("%-28s %12lld (%.2f%%)\n", "answered by auto", (long long)f.auto_answered,
              pct(f.auto_answered, f.instances));
  std::printf("%-28s %12lld\n", "  right (minimal / proof)", (long long)f.auto_minimal);
  std::printf("%-28s %12lld\n", "auto limit reached", (long long)f.auto_limit);
  std::printf("%-28s %12lld\n", "wrong (auto / topo)", (long long)(f.auto_wrong + f.topo_wrong));
  std::printf("%-28s %12lld\n", "invalid plans", (long long)f.invalid);
  std::fflush(stdout);
}

TEST(GoapLevelsDifferential, AgainstTheExactSearch) {
  const int64_t instances = env_int("TOPOPLAN_LEVEL_INSTANCES", testing::sanitized_share(4000));
  const auto first_seed = static_cast<uint64_t>(env_int("TOPOPLAN_LEVEL_SEED", 1));
  const auto max_locations = static_cast<int32_t>(env_int("TOPOPLAN_LEVEL_MAX_LOCATIONS", 12));
  constexpr int32_t kPerLevel = 8;
  const PlannerInfo* automatic = find_planner("auto");
  const PlannerInfo* topo = find_planner("topo");
  ASSERT_NE(automatic, nullptr);
  ASSERT_NE(topo, nullptr);
  Checker checker(*topo, *automatic);
  for (int64_t i = 0; i < instances; i += kPerLevel) {
    const uint64_t seed = first_seed + static_cast<uint64_t>(i / kPerLevel);
    GoapLevelParams params = goap_level_params(seed, max_locations);
    params.instances = static_cast<int32_t>(std::min<int64_t>(kPerLevel, instances - i));
    const Task task = goap_level(params);
    for (const Instance& inst : task.instances) checker.check(seed, task.domain, inst);
  }
  const Figures& f = checker.f;
  print_figures(f, max_locations, kPerLevel, first_seed);
  EXPECT_EQ(f.invalid, 0);
  EXPECT_EQ(f.auto_wrong, 0);
  EXPECT_EQ(f.topo_wrong, 0);
  EXPECT_EQ(f.topo_minimal, f.topo_solved);
  EXPECT_EQ(f.exact_limit, 0);
  EXPECT_EQ(f.auto_limit, 0) << "the default limits stopped auto on a small level";
  EXPECT_EQ(f.auto_answered + f.auto_limit, f.instances - f.exact_limit);
  // The sample has both kinds of instances the levels are made of.
  EXPECT_GT(f.t1, 0);
  EXPECT_GT(f.solvable - f.t1 - f.t1_undecided, 0);
  EXPECT_EQ(f.t1_undecided, 0);
  // ℙ's general path (undefined pre-conditions, partial goals; docs/algorithm.md) solves every
  // instance that has an optimal plan using each action at most once.
  EXPECT_EQ(f.topo_missed_t1, 0);
}

}  // namespace
}  // namespace topoplan
