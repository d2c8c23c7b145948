// The ranges of HospitalConfig's numeric fields (include/topoplan/sim/hospital.h): the same as
// the scenario file's (src/sim/scenario_toml.cpp). run_hospital asserts them in debug builds.
#include <array>
#include <span>

#include "runtime/limits/def_check.h"
#include "topoplan/sim/hospital.h"

namespace topoplan::sim {

using def_check::Field;
using def_check::IntField;

std::optional<Error> check(const HospitalConfig& c) {
  constexpr std::string_view kWhere = "HospitalConfig";
  const std::array fields = {
      Field{"dt", c.dt, 1e-3, 1.0},
      Field{"seconds", c.seconds, 0.0, 1e7},
      Field{"med_decay", c.med_decay, 0.0, 1e3},
      Field{"food_decay", c.food_decay, 0.0, 1e3},
      Field{"company_decay", c.company_decay, 0.0, 1e3},
      Field{"rest_decay", c.rest_decay, 0.0, 1e3},
      Field{"admin_rate", c.admin_rate, 0.0, 1e3},
      Field{"chart_rate", c.chart_rate, 0.0, 1e3},
      Field{"threshold", c.threshold, 0.0, 100.0},
      Field{"t_goto", c.t_goto, 0.0, 1e4},
      Field{"t_get", c.t_get, 0.0, 1e4},
      Field{"t_medicate", c.t_medicate, 0.0, 1e4},
      Field{"t_feed", c.t_feed, 0.0, 1e4},
      Field{"t_break", c.t_break, 0.0, 1e4},
      Field{"t_admin", c.t_admin, 0.0, 1e4},
      Field{"t_chart", c.t_chart, 0.0, 1e4},
      Field{"t_chat", c.t_chat, 0.0, 1e4},
      Field{"w_med", c.w_med, 0.0, 1e3},
      Field{"w_food", c.w_food, 0.0, 1e3},
      Field{"w_rest", c.w_rest, 0.0, 1e3},
      Field{"w_admin", c.w_admin, 0.0, 1e3},
      Field{"w_chart", c.w_chart, 0.0, 1e3},
      Field{"w_chat", c.w_chat, 0.0, 1e3},
      Field{"crowd_seconds", c.crowd_seconds, 0.0, 1e5},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const Field>(fields))) return e;
  const std::array ints = {
      IntField{"decision_ticks", c.decision_ticks, 1, 1'000'000},
      IntField{"nurses", c.nurses, 0, 10'000},
      IntField{"doctors", c.doctors, 0, 10'000},
      IntField{"visitors", c.visitors, 0, 10'000},
      IntField{"threads", c.threads, 1, 256},
      IntField{"npcs", c.npcs, 1, 1'000'000},
  };
  if (auto e = def_check::first_out_of_range(kWhere, std::span<const IntField>(ints))) return e;
  if (c.nurses + c.doctors + c.visitors < 1)
    return Error{"HospitalConfig: the mix (nurses + doctors + visitors) needs at least one NPC", "",
                 0};
  for (int64_t n : c.crowd_npcs)
    if (auto e = def_check::range(kWhere, "crowd_npcs", n, 1, 10'000'000)) return e;
  return std::nullopt;
}

}  // namespace topoplan::sim
