// The ranges of HospitalConfig's numeric fields (include/topoplan/sim/hospital.h): the same as
// the scenario file's (src/sim/scenario_toml.cpp). run_hospital asserts them in debug builds.
#include <array>
#include <span>

#include "runtime/limits/def_check.h"
#include "topoplan/sim/hospital.h"

namespace topoplan::sim {

using def_check::Limited;

std::optional<Error> check(const HospitalConfig& c) {
  constexpr std::string_view kWhere = "HospitalConfig";
  const std::array fields = {
      Limited{&limits::kSimDt, c.dt},
      Limited{&limits::kHospitalSeconds, c.seconds},
      Limited{&limits::kHospitalMedDecay, c.med_decay},
      Limited{&limits::kHospitalFoodDecay, c.food_decay},
      Limited{&limits::kHospitalCompanyDecay, c.company_decay},
      Limited{&limits::kHospitalRestDecay, c.rest_decay},
      Limited{&limits::kHospitalAdminRate, c.admin_rate},
      Limited{&limits::kHospitalChartRate, c.chart_rate},
      Limited{&limits::kHospitalThreshold, c.threshold},
      Limited{&limits::kHospitalTGoto, c.t_goto},
      Limited{&limits::kHospitalTGet, c.t_get},
      Limited{&limits::kHospitalTMedicate, c.t_medicate},
      Limited{&limits::kHospitalTFeed, c.t_feed},
      Limited{&limits::kHospitalTBreak, c.t_break},
      Limited{&limits::kHospitalTAdmin, c.t_admin},
      Limited{&limits::kHospitalTChart, c.t_chart},
      Limited{&limits::kHospitalTChat, c.t_chat},
      Limited{&limits::kHospitalWMed, c.w_med},
      Limited{&limits::kHospitalWFood, c.w_food},
      Limited{&limits::kHospitalWRest, c.w_rest},
      Limited{&limits::kHospitalWAdmin, c.w_admin},
      Limited{&limits::kHospitalWChart, c.w_chart},
      Limited{&limits::kHospitalWChat, c.w_chat},
      Limited{&limits::kHospitalCrowdSeconds, c.crowd_seconds},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(fields))) return e;
  const std::array ints = {
      Limited{&limits::kLoopDecisionTicks, static_cast<double>(c.decision_ticks)},
      Limited{&limits::kHospitalNurses, static_cast<double>(c.nurses)},
      Limited{&limits::kHospitalDoctors, static_cast<double>(c.doctors)},
      Limited{&limits::kHospitalVisitors, static_cast<double>(c.visitors)},
      Limited{&limits::kHospitalThreads, static_cast<double>(c.threads)},
      Limited{&limits::kHospitalNpcs, static_cast<double>(c.npcs)},
  };
  if (auto e = def_check::first_outside(kWhere, std::span<const Limited>(ints))) return e;
  if (c.nurses + c.doctors + c.visitors < 1)
    return Error{"HospitalConfig: the mix (nurses + doctors + visitors) needs at least one NPC", "",
                 0};
  for (int64_t n : c.crowd_npcs)
    if (auto e = check_limit(limits::kHospitalCrowdNpcs, n, kWhere)) return e;
  return std::nullopt;
}

}  // namespace topoplan::sim
