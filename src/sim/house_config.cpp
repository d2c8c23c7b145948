// The ranges of HouseConfig's numeric fields (include/topoplan/sim/house.h): the same as the
// scenario file's (src/sim/scenario_toml.cpp). HouseSim asserts them in debug builds.
#include <array>
#include <cmath>
#include <span>

#include "runtime/limits/def_check.h"
#include "topoplan/sim/arena.h"
#include "topoplan/sim/house.h"

namespace topoplan::sim {

using def_check::Field;
using def_check::IntField;
namespace {

std::optional<Error> index(std::string_view where, std::string_view field, int32_t v, int32_t lo,
                           size_t size) {
  return def_check::range(where, field, int64_t{v}, int64_t{lo}, static_cast<int64_t>(size) - 1);
}

}  // namespace

std::optional<Error> check(const HouseConfig& c) {
  constexpr std::string_view kWhere = "HouseConfig";
  const std::array fields = {
      Field{"dt", c.dt, 1e-3, 1.0},
      Field{"max_seconds", c.max_seconds, 0.0, 1e7},
      Field{"width", c.width, 1.0, 1e5},
      Field{"height", c.height, 1.0, 1e5},
      Field{"speed", c.speed, 1e-3, 1e3},
      Field{"target", c.target, 0.0, 99.999},
      Field{"activity_energy", c.activity_energy, 0.0, 1e3},
      Field{"switch_margin", c.switch_margin, 0.0, 100.0},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const Field>(fields))) return e;
  const std::array ints = {
      IntField{"goto_cost", c.goto_cost, 0, 1'000'000},
      IntField{"udgoap_max_expansions", c.udgoap_max_expansions, 1, 10'000'000},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const IntField>(ints))) return e;
  // Every decision scores every drive: the count bounds the cost of a decision.
  if (auto e = def_check::range(kWhere, "drives (count)", static_cast<int64_t>(c.drives.size()), 0,
                                kMaxHouseDrives))
    return e;
  if (c.decay.size() != c.drives.size() || c.initial.size() != c.drives.size())
    return Error{"HouseConfig: 'decay' and 'initial' need one value per drive", "", 0};
  for (size_t d = 0; d < c.drives.size(); ++d) {
    const std::string where = "HouseConfig drive '" + c.drives[d] + "'";
    if (auto e = def_check::range(where, "decay", c.decay[d], 0.0, 1e3)) return e;
    if (auto e = def_check::range(where, "initial", c.initial[d], 0.0, 100.0)) return e;
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
    if (auto e = def_check::range(where, "cost", a.cost, 0, 1'000'000)) return e;
    if (auto e = def_check::range(where, "duration", a.duration, 1e-3, 1e5)) return e;
    if (auto e = index(where, "spot", a.spot, -1, c.spots.size())) return e;
    if (auto e = index(where, "until", a.until, -1, c.drives.size())) return e;
    if (auto e = index(where, "needs", a.needs, -1, c.items.size())) return e;
    if (auto e = index(where, "gives", a.gives, -1, c.items.size())) return e;
    if (a.gain.size() != c.drives.size())
      return Error{where + ": 'gain' needs one value per drive", "", 0};
    for (double g : a.gain)
      if (auto e = def_check::range(where, "gain", g, -1e4, 1e4)) return e;
  }
  return check(c.loop);
}

}  // namespace topoplan::sim
