/* topoplan — forwarding header: the C API's crowd part is include/topoplan/c/topoplan_c_crowd.h. */
#ifndef TOPOPLAN_TOPOPLAN_CROWD_FORWARD_H_
#define TOPOPLAN_TOPOPLAN_CROWD_FORWARD_H_
#include "topoplan/c/topoplan_c_crowd.h"
#endif
