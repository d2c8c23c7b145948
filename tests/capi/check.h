/* The checks of the C API's tests (C99): count, report file:line, go on. */
#ifndef TOPOPLAN_TESTS_CAPI_CHECK_H_
#define TOPOPLAN_TESTS_CAPI_CHECK_H_

#include <stdio.h>

#include "topoplan/c/topoplan_c.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond)                                                            \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_STATUS(expr, expected)                                                     \
  do {                                                                                   \
    topoplan_status got_ = (expr);                                                       \
    ++checks;                                                                            \
    if (got_ != (expected)) {                                                            \
      ++failures;                                                                        \
      fprintf(stderr, "%s:%d: %s returned %s, expected %s\n", __FILE__, __LINE__, #expr, \
              topoplan_status_string(got_), topoplan_status_string(expected));           \
    }                                                                                    \
  } while (0)

#endif
