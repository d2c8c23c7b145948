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

/* Prints the tally; the exit code: 0 when every check passed. */
static inline int checks_done(void) {
  printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}

/* The main of a test program of one test function, called with the source folder (argv[1]). */
#define CHECK_MAIN(test)            \
  int main(int argc, char** argv) { \
    test(argc > 1 ? argv[1] : "."); \
    return checks_done();           \
  }

/* DIR/REL, for a test's files below the source folder (one buffer: valid until the next call). */
static inline const char* source_path(const char* dir, const char* rel) {
  static char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, rel);
  return path;
}

/* The id of the action named `name` (a check that it is found). */
static inline int32_t action_id(const topoplan_task* task, const char* name) {
  int32_t id = -1;
  CHECK_STATUS(topoplan_task_find_action(task, name, &id), TOPOPLAN_OK);
  return id;
}

#endif
