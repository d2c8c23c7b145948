// The ranges of HouseConfig's numeric fields (include/topoplan/sim/house.h): the same as the
// scenario file's (src/sim/scenario_toml.cpp). HouseSim asserts them in debug builds.
#include <array>
#include <cmath>
#include <span>

#include "runtime/limits/def_check.h"
#include "topoplan/sim/arena.h"
#include "topoplan/sim/house.h"

namespace topoplan::sim {

using def_check::Limited;
namespace {

std::optional<Error> index(std::string_view where, std::string_view field, int32_t v, int32_t lo,
                           size_t size) {
  return def_check::range(where, field, int64_t{v}, int64_t{lo}, static_cast<int64_t>(size) - 1);
}

}  // namespace

std::optional<Error> check(const HouseConfig& c) {
  constexpr std::string_view kWhere = "HouseConfig";
  const std::array fields = {
      Limited{&limits::kSimDt, c.dt},
      Limited{&limits::kSimMaxSeconds, c.max_seconds},
      Limited{&limits::kSimWidth, c.width},
      Limited{&limits::kSimHeight, c.height},
      Limited{&limits::kHouseSpeed, c.speed},
      Limited{&limits::kHouseTarget, c.target},
      Limited{&limits::kHouseActivityEnergy, c.activity_energy},
      Limited{&limits::kHouseSwitchMargin, c.switch_margin},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(fields))) return e;
  const std::array ints = {
      Limited{&limits::kHouseGotoCost, static_cast<double>(c.goto_cost)},
      Limited{&limits::kSimUdgoapMaxExpansions, static_cast<double>(c.udgoap_max_expansions)},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(ints))) return e;
  // Every decision scores every drive: the count bounds the cost of a decision.
  if (auto e = def_check::range(kWhere, "drives (count)", static_cast<int64_t>(c.drives.size()), 0,
                                kMaxHouseDrives))
    return e;
  if (c.decay.size() != c.drives.size() || c.initial.size() != c.drives.size())
    return Error{"HouseConfig: 'decay' and 'initial' need one value per drive", "", 0};
  for (size_t d = 0; d < c.drives.size(); ++d) {
    const std::string where = "HouseConfig drive '" + c.drives[d] + "'";
    if (auto e = check_limit(limits::kHouseDecay, c.decay[d], where)) return e;
    if (auto e = check_limit(limits::kHouseInitial, c.initial[d], where)) return e;
  }
  if (c.spots.empty()) return Error{"HouseConfig: 'spots' must not be empty", "", 0};
  for (const NamedSpot& s : c.spots)  // the house is centred on (0, 0)
    if (!(std::abs(s.pos.x) <= c.width / 2 && std::abs(s.pos.y) <= c.height / 2))
      return Error{"HouseConfig: spot '" + s.name +
                       "' must lie in [-width/2, width/2] x [-height/2, height/2]",
                   "", 0};
  if (auto e = index(kWhere, "start_spot", c.start_spot, 0, c.spots.size())) return e;
  for (const HouseActivity& a : c.activities) {
    const std::string where = "HouseConfig activity '" + a.name + "'";
    if (auto e = check_limit(limits::kHouseCost, a.cost, where)) return e;
    if (auto e = check_limit(limits::kHouseDuration, a.duration, where)) return e;
    if (auto e = index(where, "spot", a.spot, -1, c.spots.size())) return e;
    if (auto e = index(where, "until", a.until, -1, c.drives.size())) return e;
    if (auto e = index(where, "needs", a.needs, -1, c.items.size())) return e;
    if (auto e = index(where, "gives", a.gives, -1, c.items.size())) return e;
    if (a.gain.size() != c.drives.size())
      return Error{where + ": 'gain' needs one value per drive", "", 0};
    for (double g : a.gain)
      if (auto e = check_limit(limits::kHouseGain, g, where)) return e;
  }
  return check(c.loop);
}

}  // namespace topoplan::sim
