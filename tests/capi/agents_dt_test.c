/* A frame's dt from C99: outside [0, 1e9] (the limits table's AgentWorld dt: infinite, NaN,
 * negative, huge) the update is refused and the world's time does not move, so a drive with a
 * rate stays a finite value in its range (an infinite dt made it NaN). */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "topoplan/c/topoplan_c.h"
#include "village.h"

int main(void) {
  char error[256];
  village v;
  topoplan_agents* agents = NULL;
  topoplan_agents_def def;
  topoplan_agent_event events[16];
  int32_t state[3] = {0, 0, 0};
  int32_t hunger = -1, villager = -1;
  const double bad[] = {INFINITY, -INFINITY, NAN, -1.0, 1e9 * 1.5, 1e300};
  size_t k;
  double d;

  if (!village_open(&v)) return 1;
  topoplan_agents_def_default(&def);
  def.capacity = 2;
  agents = village_world(v.planner, &def);
  if (agents == NULL) return 1;
  CHECK_STATUS(
      topoplan_agents_add_drive(agents, "hunger", 0, 100, -1, 50, &hunger, error, sizeof error),
      TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_add(agents, 0, state, 3, &villager, error, sizeof error),
               TOPOPLAN_OK);
  CHECK_STATUS(topoplan_agents_update(agents, 0.5, events, 16, NULL), TOPOPLAN_OK);
  CHECK(topoplan_agents_drive(agents, villager, hunger) == 49.5);
  for (k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
    CHECK_STATUS(topoplan_agents_update(agents, bad[k], events, 16, NULL),
                 TOPOPLAN_INVALID_ARGUMENT);
    d = topoplan_agents_drive(agents, villager, hunger);
    CHECK(isfinite(d) && d == 49.5);
  }
  /* The largest dt is a frame like any other: the drive meets its floor. */
  CHECK_STATUS(topoplan_agents_update(agents, 1e9, events, 16, NULL), TOPOPLAN_OK);
  CHECK(topoplan_agents_drive(agents, villager, hunger) == 0.0);
  CHECK_STATUS(topoplan_agents_update(agents, 0.0, events, 16, NULL), TOPOPLAN_OK);
  CHECK(topoplan_agents_drive(agents, villager, hunger) == 0.0);

  topoplan_agents_free(agents);
  village_close(&v);
  return checks_done();
}
