// Reader of simulation scenario files, the house (docs/sim.md): drives, spots, activities, and
// the UDGOAP world generated from them. The rest of the reader is scenario_toml.cpp.
#include <cmath>

#include "scenario_reader.h"
#include "topoplan/udgoap/scenario.h"

namespace topoplan::sim::scenario_detail {

namespace {

int32_t index_of(const std::vector<std::string>& v, const std::string& n) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] == n) return static_cast<int32_t>(i);
  }
  return -1;
}

}  // namespace

bool Reader::read_house(const toml::table& root, HouseConfig& c) {
  if (!check_keys(root, {"scenario", "house", "drive", "spot", "action", "goap", "udgoap"},
                  "the file")) {
    return false;
  }
  std::string start;
  int start_line = line_of(root);
  if (!read_house_table(root, c, start, start_line) || !read_drives(root, c)) return false;
  if (!read_spots(root, c.spots, c.width, c.height)) return false;
  c.start_spot = -1;
  for (size_t i = 0; i < c.spots.size(); ++i) {
    if (c.spots[i].name == start) c.start_spot = static_cast<int32_t>(i);
  }
  if (c.start_spot < 0)
    return fail(start_line, "'start' of [house] names no [[spot]]: " + quote(start));
  std::vector<const toml::table*> ts;
  if (!array_of_tables(root, "action", ts)) return false;
  for (const toml::table* t : ts) {
    HouseActivity a;
    if (!read_activity(*t, c, a)) return false;
    c.activities.push_back(std::move(a));
  }
  bool ok = true;
  section(root, "goap", "[goap]", {"switch_margin"},
          {{limits::kHouseSwitchMargin, &c.switch_margin}}, ok);
  if (!ok) return false;
  c.loop.better_margin = c.switch_margin;
  int ul = line_of(root);
  if (const toml::table* t =
          section(root, "udgoap", "[udgoap]", {"max_expansions"},
                  {{limits::kSimUdgoapMaxExpansions, &c.udgoap_max_expansions}}, ok)) {
    ul = line_of(*t);
  }
  return ok && house_udgoap(c, ul);
}

// [house]: the room, the walking speed, the drives' target, the start spot and the items.
bool Reader::read_house_table(const toml::table& root, HouseConfig& c, std::string& start,
                              int& start_line) {
  bool ok = true;
  const std::string where = "[house]";
  const toml::table* t = section(
      root, "house", where,
      {"width", "height", "speed", "target", "activity_energy", "start", "goto_cost", "items"},
      {{limits::kSimWidth, &c.width},
       {limits::kSimHeight, &c.height},
       {limits::kHouseSpeed, &c.speed},
       {limits::kHouseTarget, &c.target},
       {limits::kHouseActivityEnergy, &c.activity_energy},
       {limits::kHouseGotoCost, &c.goto_cost}},
      ok);
  if (t == nullptr) return ok && fail(line_of(root), "a house needs a [house] table");
  if (!get_string(*t, "start", where, true, Empty::kReject, start, &start_line)) return false;
  std::vector<int> lines;
  if (!get_strings(*t, "items", where, Empty::kAllow, c.items, &lines)) return false;
  for (size_t i = 0; i < c.items.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (c.items[i] == c.items[j]) return fail(lines[i], "duplicate item " + quote(c.items[i]));
    }
  }
  return true;
}

bool Reader::read_drives(const toml::table& root, HouseConfig& c) {
  std::vector<const toml::table*> ts;
  if (!array_of_tables(root, "drive", ts)) return false;
  if (ts.size() > static_cast<size_t>(kMaxHouseDrives))
    return fail(line_of(*ts[kMaxHouseDrives]),
                "too many [[drive]] tables: at most " + std::to_string(kMaxHouseDrives));
  for (const toml::table* t : ts) {
    if (!check_keys(*t, {"name", "decay", "initial"}, "[[drive]]")) return false;
    std::string name;
    int nl = 0;
    if (!get_string(*t, "name", "[[drive]]", true, Empty::kReject, name, &nl)) return false;
    if (index_of(c.drives, name) >= 0) return fail(nl, "duplicate drive " + quote(name));
    double decay = 0.0, initial = 0.0;
    if (!fields(*t, "[[drive]]",
                {{limits::kHouseDecay, &decay}, {limits::kHouseInitial, &initial}})) {
      return false;
    }
    c.drives.push_back(name);
    c.decay.push_back(decay);
    c.initial.push_back(initial);
  }
  if (c.drives.empty()) return fail(line_of(root), "a house needs at least one [[drive]]");
  return true;
}

// One [[action]] of a house: its spot, the drive it runs until, the items it needs and gives, and
// its gain per second on each drive.
bool Reader::read_activity(const toml::table& t, const HouseConfig& c, HouseActivity& a) {
  const std::string where = "[[action]]";
  if (!check_keys(t, {"name", "cost", "at", "duration", "until", "gain", "needs", "gives"},
                  where)) {
    return false;
  }
  int nl = 0;
  if (!get_string(t, "name", where, true, Empty::kReject, a.name, &nl)) return false;
  if (a.name == "goto") return fail(nl, "'goto' is built in (one per spot, cost goto_cost)");
  for (const HouseActivity& o : c.activities) {
    if (o.name == a.name) return fail(nl, "duplicate action " + quote(a.name));
  }
  if (!integer(t, "cost", where, limits::kHouseCost, a.cost)) return false;
  if (t.get("duration") == nullptr) return fail_missing(line_of(t), where, "duration");
  if (!num(t, "duration", where, limits::kHouseDuration, a.duration)) return false;
  std::string ref;
  int rl = 0;
  if (!get_string(t, "at", where, false, Empty::kReject, ref, &rl)) return false;
  if (!ref.empty()) {
    for (size_t i = 0; i < c.spots.size(); ++i) {
      if (c.spots[i].name == ref) a.spot = static_cast<int32_t>(i);
    }
    if (a.spot < 0)
      return fail(rl, "'at' of action " + quote(a.name) + " names no spot: " + quote(ref));
  }
  // until names a drive; needs and gives name items.
  struct Named {
    const char* key;
    const char* what;
    const std::vector<std::string>& names;
    int32_t& out;
  };
  for (const Named& n :
       {Named{"until", "drive", c.drives, a.until}, Named{"needs", "item", c.items, a.needs},
        Named{"gives", "item", c.items, a.gives}}) {
    ref.clear();
    if (!get_string(t, n.key, where, false, Empty::kReject, ref, &rl)) return false;
    if (!ref.empty() && (n.out = index_of(n.names, ref)) < 0) {
      return fail(rl, "'" + std::string(n.key) + "' of action " + quote(a.name) + " names no " +
                          n.what + ": " + quote(ref));
    }
  }
  a.gain.assign(c.drives.size(), 0.0);
  bool ok = true;
  if (const toml::table* g = table(t, "gain", ok)) {
    for (const auto& [k, v] : *g) {
      const int32_t d = index_of(c.drives, std::string(k.str()));
      if (d < 0)
        return fail(line_of(k.source()),
                    "'gain' of action " + quote(a.name) + " names no drive: " + quote(k.str()));
      if (!v.is_number()) return fail(line_of(v), "a gain must be a number (per second)");
      const double x = v.value<double>().value_or(0.0);
      if (!limit(line_of(v), k.str(), "gain of action " + quote(a.name), limits::kHouseGain, x))
        return false;
      a.gain[static_cast<size_t>(d)] = x;
    }
  }
  return ok;
}

// The UDGOAP world of a house, written as a docs/udgoap.md scenario and read by its reader: the
// NPC (position, drives, items), one smart object per spot supplying goto and the actions done
// there, "hands" supplying the actions done anywhere; an action adds its gain over its duration.
bool Reader::house_udgoap(HouseConfig& c, int line) {
  std::string t;
  auto q = [](const std::string& s) { return "\"" + s + "\""; };
  auto num_s = [](double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return std::string(buf);
  };
  t += "[scenario]\nagent = \"npc\"\nutility = \"weighted_mean\"\n";
  std::string consumes = q("goto");
  for (const HouseActivity& a : c.activities) consumes += ", " + q(a.name);
  t += "[[entity]]\nname = \"npc\"\nconsumes = [" + consumes + "]\n";
  std::string anywhere;
  for (const HouseActivity& a : c.activities) {
    if (a.spot < 0) anywhere += (anywhere.empty() ? "" : ", ") + q(a.name);
  }
  if (!anywhere.empty()) t += "[[entity]]\nname = \"hands\"\nsupplies = [" + anywhere + "]\n";
  for (size_t s = 0; s < c.spots.size(); ++s) {
    std::string sup = q("goto");
    for (const HouseActivity& a : c.activities) {
      if (a.spot == static_cast<int32_t>(s)) sup += ", " + q(a.name);
    }
    t += "[[entity]]\nname = " + q(c.spots[s].name) + "\nsupplies = [" + sup + "]\n";
    t += "[[fact]]\nentity = " + q(c.spots[s].name) + "\nattribute = \"position\"\nvalue = [" +
         num_s(c.spots[s].pos.x) + ", " + num_s(c.spots[s].pos.y) + ", 0]\n";
  }
  const NamedSpot& st = c.spots[static_cast<size_t>(c.start_spot)];
  t += "[[fact]]\nentity = \"npc\"\nattribute = \"position\"\nvalue = [" + num_s(st.pos.x) + ", " +
       num_s(st.pos.y) + ", 0]\n";
  for (const std::string& d : c.drives) {
    t += "[[fact]]\nentity = \"npc\"\nattribute = " + q(d) + "\nvalue = 0\nmax = 100\n";
  }
  for (const std::string& i : c.items) {
    t += "[[fact]]\nentity = \"npc\"\nattribute = " + q(i) + "\nvalue = 0\nmax = 1\n";
  }
  t += "[[action]]\nname = \"goto\"\neffects = [{ target = \"consumer.position\", set = "
       "\"supplier.position\" }]\n";
  const int32_t energy = [&] {
    for (size_t d = 0; d < c.drives.size(); ++d) {
      if (c.drives[d] == "energy") return static_cast<int32_t>(d);
    }
    return -1;
  }();
  for (const HouseActivity& a : c.activities) {
    std::string pre, eff;
    if (a.spot >= 0) {
      pre +=
          "{ distance = [\"consumer.position\", \"supplier.position\"], op = \"<=\", value = "
          "0.5 }";
    }
    if (a.needs >= 0) {
      pre += std::string(pre.empty() ? "" : ", ") +
             "{ fact = " + q("consumer." + c.items[static_cast<size_t>(a.needs)]) +
             ", op = \">=\", value = 1 }";
      eff += "{ target = " + q("consumer." + c.items[static_cast<size_t>(a.needs)]) +
             ", subtract = 1 }";
    }
    if (a.gives >= 0) {
      eff += std::string(eff.empty() ? "" : ", ") +
             "{ target = " + q("consumer." + c.items[static_cast<size_t>(a.gives)]) + ", add = 1 }";
    }
    for (size_t d = 0; d < c.drives.size(); ++d) {
      double g = a.gain[d];
      if (static_cast<int32_t>(d) == energy && g <= 0.0) g -= c.activity_energy;
      if (g == 0.0) continue;
      const double total = g * a.duration;
      eff += std::string(eff.empty() ? "" : ", ") + "{ target = " + q("consumer." + c.drives[d]) +
             (total > 0 ? ", add = " : ", subtract = ") + num_s(std::fabs(total)) + " }";
    }
    if (eff.empty()) continue;
    t += "[[action]]\nname = " + q(a.name) + "\n";
    if (!pre.empty()) t += "preconditions = [" + pre + "]\n";
    t += "effects = [" + eff + "]\n";
  }
  for (const std::string& d : c.drives) {
    t += "[[drive]]\nname = " + q(d) +
         "\nweight = 1\n[[drive.generator]]\nname = " + q("raise_" + d) +
         "\ntriggers = [{ fact = " + q("self." + d) +
         ", op = \"known\" }]\ngoal = { name = " + q("raise_" + d) +
         ", weight = 1.0, conditions = [{ fact = " + q("self." + d) +
         ", direction = \"increase\", eval = \"linear\" }] }\n";
  }
  Result<udgoap::Scenario> s = udgoap::parse_scenario(t, file_ + " (generated UDGOAP world)");
  if (!s) return fail(line, "cannot build the UDGOAP world: " + s.error().to_string());
  c.udgoap_world = std::move(s.value().world);
  c.has_udgoap = true;
  return true;
}
}  // namespace topoplan::sim::scenario_detail
