// GOAP-style levels: the tasks game designers write (see include/topoplan/tools/families.h and
// docs/domains.md, "GOAP levels").
//
// Every choice is drawn from one SplitMix64 stream seeded by the parameters, with integer
// arithmetic only, so a seed gives the same level on every platform and standard library.
#include <algorithm>
#include <array>
#include <cassert>
#include <string>
#include <utility>

#include "topoplan/tools/families.h"

namespace topoplan {

namespace {

class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed ^ 0x60A9'1E7E'15C0'FFEEull) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9E37'79B9'7F4A'7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58'476D'1CE4'E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D0'49BB'1331'11EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi] (hi - lo small: the modulo bias is negligible and platform-independent).
  int32_t range(int32_t lo, int32_t hi) {
    assert(lo <= hi);
    return lo + static_cast<int32_t>(next() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool percent(int32_t p) { return range(0, 99) < p; }

 private:
  uint64_t state_;
};

constexpr std::array kPlaceNames = {
    "gate",   "armory",    "barracks", "kitchen",  "well",      "tower",  "chapel",    "stable",
    "forge",  "cellar",    "library",  "garden",   "courtyard", "hall",   "throne",    "dungeon",
    "bridge", "market",    "tavern",   "mill",     "granary",   "kennel", "bakery",    "bathhouse",
    "camp",   "dock",      "farm",     "field",    "graveyard", "harbor", "inn",       "keep",
    "lake",   "mine",      "orchard",  "pantry",   "quarry",    "roof",   "shrine",    "smithy",
    "square", "storeroom", "study",    "treasury", "vault",     "wall",   "watchpost", "workshop",
    "yard",   "post"};
constexpr std::array kItemNames = {"food",  "water", "torch", "rope",   "letter", "sword",
                                   "bread", "wood",  "coin",  "potion", "book",   "bucket"};
constexpr std::array kNeedNames = {"hunger", "thirst", "rest", "fun", "hygiene", "social"};
constexpr std::array kClassNames = {"guard", "soldier", "villager", "merchant",
                                    "thief", "cook",    "child",    "priest"};

class LevelBuilder {
 public:
  explicit LevelBuilder(const GoapLevelParams& p) : p_(p), rng_(p.seed) {}

  Task build() {
    def_.name = "goap-level-s" + std::to_string(p_.seed);
    make_locations();
    make_doors();
    make_items();
    make_needs();
    finish_location_actions();
    make_classes();
    auto domain = Domain::compile(def_);
    assert(domain.ok());
    Task task{std::move(domain).value(), {}};
    for (int32_t i = 0; i < p_.instances; ++i) task.instances.push_back(make_instance(i));
    return task;
  }

 private:
  // How a location is entered: by GoTo (no pre-condition on the location) or by the patrol
  // step from `from`. `door`: the door that must be open to enter (-1: none).
  struct Entry {
    bool go_to = true;
    ValueId from = -1;
    int32_t door = -1;
  };
  struct Item {
    VarId var;
    ValueId spot;      // where it lies (picked up there)
    ValueId use_spot;  // where it is used (-1: never used, only held)
    bool key = false;  // opens a door
  };

  VarId add_var(std::string name, std::vector<std::string> values) {
    def_.variables.push_back(VariableDef{std::move(name), std::move(values)});
    return static_cast<VarId>(def_.variables.size() - 1);
  }
  void add_action(std::string name, Effect e, std::vector<Fact> prevail) {
    std::sort(prevail.begin(), prevail.end(),
              [](const Fact& x, const Fact& y) { return x.var < y.var; });
    ActionDef a;
    a.name = std::move(name);
    a.effects.push_back(e);
    a.prevail = std::move(prevail);
    def_.actions.push_back(std::move(a));
  }
  const std::string& place(ValueId x) const {
    return def_.variables[static_cast<size_t>(location_)].values[static_cast<size_t>(x)];
  }

  void make_locations() {
    // Distinct place names in a seeded order.
    std::vector<int32_t> order(kPlaceNames.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
    for (size_t i = order.size() - 1; i > 0; --i)
      std::swap(order[i], order[static_cast<size_t>(rng_.range(0, static_cast<int32_t>(i)))]);
    std::vector<std::string> names;
    for (int32_t i = 0; i < p_.locations; ++i)
      names.emplace_back(kPlaceNames[static_cast<size_t>(order[static_cast<size_t>(i)])]);
    location_ = add_var("location", std::move(names));
    entry_.assign(static_cast<size_t>(p_.locations), Entry{});
    // One-way patrol routes: a head entered by GoTo (or, for a closed ring, by the last step of
    // the ring), then one defined step per location.
    for (int32_t i = 1; i < p_.locations;) {
      if (!rng_.percent(p_.patrol_percent) || i + 1 >= p_.locations) {
        ++i;
        continue;
      }
      const int32_t len = std::min(rng_.range(2, 4), p_.locations - i);
      for (int32_t k = 1; k < len; ++k)
        entry_[static_cast<size_t>(i + k)] = Entry{false, i + k - 1, -1};
      if (rng_.percent(20)) entry_[static_cast<size_t>(i)] = Entry{false, i + len - 1, -1};
      i += len;
    }
  }

  void make_doors() {
    const int32_t n = std::min(p_.doors, p_.locations - 1);
    std::vector<ValueId> behind;
    for (ValueId x = 1; x < p_.locations; ++x) behind.push_back(x);
    for (int32_t d = 0; d < n; ++d) {
      const auto k = static_cast<size_t>(rng_.range(d, static_cast<int32_t>(behind.size()) - 1));
      std::swap(behind[static_cast<size_t>(d)], behind[k]);
      const ValueId room = behind[static_cast<size_t>(d)];
      ValueId spot = rng_.range(0, p_.locations - 2);
      if (spot >= room) ++spot;
      const VarId v = add_var("door-" + place(room), {"closed", "open"});
      entry_[static_cast<size_t>(room)].door = static_cast<int32_t>(doors_.size());
      doors_.push_back(v);
      std::vector<Fact> prv{{location_, spot}};
      if (rng_.percent(p_.key_percent)) {
        ValueId key_spot = rng_.range(0, p_.locations - 1);
        const VarId key = add_var("key-" + place(room), {"there", "held", "used"});
        items_.push_back(Item{key, key_spot, -1, true});
        add_action("PickUp-key-" + place(room), Effect{key, 0, 1}, {{location_, key_spot}});
        prv.push_back({key, 1});
      }
      add_action("Open-door-" + place(room), Effect{v, 0, 1}, prv);
      if (rng_.percent(25))
        add_action("Close-door-" + place(room), Effect{v, 1, 0}, {{location_, spot}});
    }
  }

  void make_items() {
    const int32_t n = std::min<int32_t>(p_.items, static_cast<int32_t>(kItemNames.size()));
    for (int32_t i = 0; i < n; ++i) {
      const std::string name = kItemNames[static_cast<size_t>(i)];
      const VarId v = add_var(name, {"there", "held", "used"});
      const ValueId spot = rng_.range(0, p_.locations - 1);
      ValueId use = -1;
      if (rng_.percent(60)) {
        use = rng_.range(0, p_.locations - 2);
        if (use >= spot) ++use;
      }
      items_.push_back(Item{v, spot, use, false});
      tools_.push_back(static_cast<int32_t>(items_.size() - 1));
      add_action("PickUp-" + name, Effect{v, 0, 1}, {{location_, spot}});
      if (use >= 0)
        add_action("Use-" + name + "-at-" + place(use), Effect{v, 1, 2}, {{location_, use}});
    }
  }

  void make_needs() {
    const int32_t n = std::min<int32_t>(p_.needs, static_cast<int32_t>(kNeedNames.size()));
    for (int32_t i = 0; i < n; ++i) {
      const std::string name = kNeedNames[static_cast<size_t>(i)];
      const VarId v = add_var(name, {"unmet", "met"});
      needs_.push_back(v);
      const ValueId spot = rng_.range(0, p_.locations - 1);
      std::vector<Fact> prv{{location_, spot}};
      if (!tools_.empty() && rng_.percent(70)) {
        const Item& it = items_[static_cast<size_t>(
            tools_[static_cast<size_t>(rng_.range(0, static_cast<int32_t>(tools_.size()) - 1))])];
        prv.push_back({it.var, 1});
      }
      add_action("Satisfy-" + name + "-at-" + place(spot), Effect{v, 0, 1}, std::move(prv));
    }
  }

  void finish_location_actions() {
    for (ValueId x = 0; x < p_.locations; ++x) {
      const Entry& e = entry_[static_cast<size_t>(x)];
      std::vector<Fact> prv;
      if (e.door >= 0) prv.push_back({doors_[static_cast<size_t>(e.door)], 1});
      if (e.go_to)
        add_action("GoTo-" + place(x), Effect{location_, kUndefined, x}, std::move(prv));
      else
        add_action("Patrol-" + place(e.from) + "-to-" + place(x), Effect{location_, e.from, x},
                   std::move(prv));
    }
  }

  void make_classes() {
    const int32_t n = std::clamp<int32_t>(p_.classes, 1, static_cast<int32_t>(kClassNames.size()));
    const auto num_actions = static_cast<ActionId>(def_.actions.size());
    for (int32_t c = 0; c < n; ++c) {
      NpcClassDef cls;
      cls.name = kClassNames[static_cast<size_t>(c)];
      for (ActionId a = 0; a < num_actions; ++a)
        if (c == 0 || rng_.percent(85)) cls.actions.push_back(a);
      def_.classes.push_back(std::move(cls));
    }
  }

  Instance make_instance(int32_t index) {
    const size_t m = def_.variables.size();
    Instance inst;
    inst.name = "i" + std::to_string(index);
    inst.init.assign(m, 0);
    inst.goal.assign(m, kUndefined);
    inst.init[static_cast<size_t>(location_)] = rng_.range(0, p_.locations - 1);
    for (const Item& it : items_)
      if (rng_.percent(10)) inst.init[static_cast<size_t>(it.var)] = 1;
    for (VarId d : doors_)
      if (rng_.percent(20)) inst.init[static_cast<size_t>(d)] = 1;
    for (VarId v : needs_)
      if (rng_.percent(15)) inst.init[static_cast<size_t>(v)] = 1;
    inst.npc_class = rng_.range(0, static_cast<int32_t>(def_.classes.size()) - 1);
    // Candidate goal facts, most of them not already true.
    std::vector<Fact> candidates;
    for (ValueId x = 0; x < p_.locations; ++x) candidates.push_back({location_, x});
    for (VarId d : doors_) candidates.push_back({d, 1});
    for (const Item& it : items_) candidates.push_back({it.var, it.use_spot >= 0 ? 2 : 1});
    for (VarId v : needs_) candidates.push_back({v, 1});
    // Locations are many: weigh the other goals up so that 1-3 fact goals mix them.
    const int32_t facts = rng_.range(1, 3);
    for (int32_t tries = 0, placed = 0; placed < facts && tries < 32; ++tries) {
      const bool want_location = rng_.percent(30) || candidates.size() == size_t(p_.locations);
      const int32_t lo = want_location ? 0 : p_.locations;
      const int32_t hi =
          want_location ? p_.locations - 1 : static_cast<int32_t>(candidates.size()) - 1;
      const Fact f = candidates[static_cast<size_t>(rng_.range(lo, hi))];
      const auto v = static_cast<size_t>(f.var);
      if (inst.goal[v] != kUndefined) continue;
      if (inst.init[v] == f.value && tries < 16) continue;
      inst.goal[v] = f.value;
      ++placed;
    }
    return inst;
  }

  const GoapLevelParams& p_;
  Rng rng_;
  DomainDef def_;
  VarId location_ = 0;
  std::vector<Entry> entry_;
  std::vector<VarId> doors_;
  std::vector<Item> items_;
  std::vector<int32_t> tools_;  // indices into items_ of the non-key items
  std::vector<VarId> needs_;
};

}  // namespace

Task goap_level(const GoapLevelParams& params) {
  assert(params.locations >= 3 && params.locations <= kMaxGoapLocations);
  assert(params.items >= 0 && params.doors >= 0 && params.needs >= 0 && params.classes >= 1);
  assert(params.instances >= 1);
  return LevelBuilder(params).build();
}

GoapLevelParams goap_level_params(uint64_t seed, int32_t max_locations) {
  assert(max_locations >= 3 && max_locations <= kMaxGoapLocations);
  Rng rng(seed * 0x2545'F491'4F6C'DD1Dull + 7);
  GoapLevelParams p;
  p.seed = seed;
  p.locations = rng.range(3, max_locations);
  p.items = rng.range(0, 4);
  p.doors = rng.range(0, 3);
  p.needs = rng.range(0, 3);
  p.classes = rng.range(1, 3);
  p.patrol_percent = rng.range(0, 4) * 10;
  p.key_percent = 50;
  return p;
}

Task goap_goto_chain(int32_t n) {
  assert(n >= 1 && n <= kMaxDomainSize && 2 * int64_t{n} <= kMaxActions);
  DomainDef def;
  def.name = "goap-goto-chain-n" + std::to_string(n);
  VariableDef loc{"location", {}};
  for (int32_t i = 0; i < n; ++i) loc.values.push_back("spot" + std::to_string(i));
  def.variables.push_back(std::move(loc));
  for (int32_t i = 0; i < n; ++i)
    def.variables.push_back(VariableDef{"task" + std::to_string(i), {"todo", "done"}});
  for (int32_t i = 0; i < n; ++i) {
    ActionDef go;
    go.name = "GoTo-spot" + std::to_string(i);
    go.effects.push_back(Effect{0, kUndefined, i});
    def.actions.push_back(std::move(go));
  }
  for (int32_t i = 0; i < n; ++i) {
    ActionDef work;
    work.name = "Do-task" + std::to_string(i);
    work.effects.push_back(Effect{i + 1, 0, 1});
    work.prevail.push_back(Fact{0, i});
    if (i > 0) work.prevail.push_back(Fact{i, 1});  // task i-1 first
    def.actions.push_back(std::move(work));
  }
  auto domain = Domain::compile(def);
  assert(domain.ok());
  Task task{std::move(domain).value(), {}};
  Instance inst;
  inst.name = "all-tasks";
  inst.init.assign(static_cast<size_t>(n) + 1, 0);
  inst.init[0] = n - 1;
  inst.goal.assign(static_cast<size_t>(n) + 1, 1);
  inst.goal[0] = kUndefined;
  task.instances.push_back(std::move(inst));
  return task;
}

}  // namespace topoplan
