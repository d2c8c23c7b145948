/* topoplan — forwarding header: the C API is include/topoplan/c/topoplan_c.h (docs/c-api.md). */
#ifndef TOPOPLAN_TOPOPLAN_FORWARD_H_
#define TOPOPLAN_TOPOPLAN_FORWARD_H_
#include "topoplan/c/topoplan_c.h"
#endif
