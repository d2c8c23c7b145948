// fuzz_capi: crowds: plan caches, crowds with defs and chains, batches (copying, framed, by
// handle), handles resolved, pending NPCs, packing, towns.
#include "session.h"

namespace fuzz_capi {

namespace {

// Five times in sixteen, a chain a door may refuse (and `hostile` set): a malformed or unknown
// fallback, a class that is not one, a count that does not match its entries, a time limit drawn
// from hostile_real (a valid one makes a crowd that is the input's own).
void malformed_chain(Session& s, topoplan_crowd_chain& chain, std::string& fallback,
                     std::string& class_name, const topoplan_crowd_class_chain& per_class,
                     bool& hostile) {
  switch (s.in.ConsumeIntegralInRange<int>(0, 15)) {  // malformed chains
    case 0: {
      static const char* const kBad[] = {"", ",,,", "bogus", "astar,,none", "exact,"};
      fallback = kBad[s.in.ConsumeIntegralInRange<int>(0, 4)];
      chain.fallback = fallback.c_str();
      hostile = true;
      break;
    }
    case 1:
      fallback = s.in.ConsumeRandomLengthString(16);
      chain.fallback = fallback.c_str();
      hostile = true;
      break;
    case 2:
      class_name = s.in.ConsumeRandomLengthString(8);
      chain.class_fallback = &per_class;
      chain.num_class_fallback = 1;
      hostile = true;
      break;
    case 3:
      // A negative count, or entries promised and none given (never a count past the
      // array: that is the caller's own overflow).
      if (s.in.ConsumeBool()) {
        chain.class_fallback = &per_class;
        chain.num_class_fallback = -1;
      } else {
        chain.class_fallback = nullptr;
        chain.num_class_fallback = 1;
      }
      hostile = true;
      break;
    case 4:
      chain.max_seconds = s.hostile_real();
      hostile = true;
      break;
    default:
      break;
  }
}

}  // namespace

// A plan cache: one of a few presets (capacity, plan length, plan table: -1 the default
// table of 2^19 slots, 2 MiB to clear), each field sometimes hostile.
void Session::make_cache() {
  crowd.drop();  // it may point to the cache
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
  if (!may_create()) return;
  topoplan_plan_cache* made = nullptr;
  known(default_table
            ? topoplan_plan_cache_create(planner, capacity, max_len, &made, error, sizeof error)
            : topoplan_plan_cache_create_with_table(planner, capacity, max_len, table, &made, error,
                                                    sizeof error));
  cache.take(made, hostile, pools.caches, key);
}

// A crowd: a def preset (workers, threads, NPCs per block, memo entries) with or without the
// input's cache, and the default chain or a chain preset; any field sometimes hostile, and
// sometimes a chain of random or malformed names.
void Session::make_crowd() {
  if (!ensure_planner()) return;
  crowd.drop();
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
  hostile = hostile || (def.cache != nullptr && cache.own);
  // Chains: 0 the default (topoplan_crowd_create); then fallback, class 0's own chain,
  // first-attempt budget, retry expansions, retry memory.
  struct ChainPreset {
    const char* fallback;
    bool class_chain;
    int64_t budget, expansions, memory;
  };
  static constexpr ChainPreset kChains[] = {{nullptr, false, 0, 0, 0},
                                            {"none", false, 16, 64, 1 << 24},
                                            {"astar", false, 1, 1, 1 << 20},
                                            {"topo,astar", false, 8, 64, 1 << 24},
                                            {"astar-back", true, 8, 64, 1 << 24},
                                            {nullptr, true, 16, 64, 1 << 24}};
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
    malformed_chain(*this, chain, fallback, class_name, per_class, hostile);
  }
  Key key;
  key << def.cache << int64_t{def.worker_count} << int64_t{def.threads}
      << int64_t{def.npcs_per_block} << int64_t{def.worker_memo_entries} << int64_t{which};
  if (!hostile && (crowd = pools.crowds.find(key.bytes)) != nullptr) {
    known(topoplan_crowd_discard_pending(crowd));  // as a fresh crowd: nothing pending
    return;
  }
  if (!may_create()) return;
  topoplan_crowd* made = nullptr;
  known(which == 0
            ? topoplan_crowd_create(planner, &def, &made, error, sizeof error)
            : topoplan_crowd_create_with_chain(planner, &def, &chain, &made, error, sizeof error));
  crowd.take(made, hostile, pools.crowds, key);
}

void Session::batch() {
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
      g[static_cast<size_t>(v)] = in.ConsumeBool() ? TOPOPLAN_UNDEFINED
                                                   : in.ConsumeIntegralInRange<int32_t>(
                                                         0, topoplan_task_domain_size(task, v) - 1);
    }
    require(topoplan_crowd_pack_state(planner, s.data(), m, pi) == TOPOPLAN_OK, "pack_state");
    require(topoplan_crowd_pack_goal(planner, g.data(), m, pg) == TOPOPLAN_OK, "pack_goal");
  }
  const topoplan_crowd_batch b{n, cls.data(), init.data(), goal.data()};
  run_batch(b);
}

// Plans a batch through the crowd (copying or by handle, whole or framed) and validates every
// NPC it calls solved.
void Session::run_batch(const topoplan_crowd_batch& b) {
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
  int64_t cursor =
      in.ConsumeIntegralInRange<int>(0, 7) == 0 ? in.ConsumeIntegralInRange<int64_t>(-2, n + 2) : 0;
  const double budget = in.ConsumeBool() ? 1.0 : hostile_real();
  topoplan_crowd_stats stats;
  topoplan_status st;
  if (by_handle)
    st = framed ? topoplan_crowd_plan_frame_handles(crowd, &b, &out, given.data(), &cursor, budget,
                                                    &stats)
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

void Session::resolve() {
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

void Session::pending() {
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

void Session::pack_unpack() {
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

void Session::make_town() {
  if (!ensure_planner()) return;
  town.drop();
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
  if (!may_create()) return;
  topoplan_town* made = nullptr;
  known(topoplan_town_create(planner, &def, &made, error, sizeof error));
  if (!town.take(made, hostile, pools.towns, key)) return;
  require(topoplan_town_npcs(town) <= 8, "a town larger than asked");
}

// A town's NPCs: churned, counted, and planned as a batch by the crowd.
void Session::town_batch() {
  if (town == nullptr) return;
  known(topoplan_town_churn(town, in.ConsumeIntegralInRange<int64_t>(-1, 8)));
  const int64_t distinct = topoplan_town_distinct_situations(town);
  require(distinct >= 0, "a town's distinct situations are negative");
  topoplan_crowd_batch b{};
  known(topoplan_town_batch(town, in.ConsumeIntegralInRange<int>(0, 15) == 0 ? nullptr : &b));
  if (crowd != nullptr && b.init != nullptr) run_batch(b);
}

}  // namespace fuzz_capi
