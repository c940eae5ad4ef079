/*
** check.h: the minimal test harness shared by the C unit tests.
**
** Each CHECK counts one passed or failed assertion; SKIP counts a check that
** could not run here (for instance the real corpus in ../shared is absent).
** check_done() prints "RESULT passed=N failed=N skipped=N", which
** test/run.sh adds up into the suite's closing "N passed, N failed" line, and
** returns the exit status.
*/
#ifndef LEVELSQL_CHECK_H
#define LEVELSQL_CHECK_H

#include <stdio.h>
#include <stdlib.h>

static int check_passed, check_failed, check_skipped;

#define CHECK(cond, ...)                                              \
  do {                                                                \
    if (cond) {                                                       \
      check_passed++;                                                 \
    } else {                                                          \
      check_failed++;                                                 \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      printf(__VA_ARGS__);                                            \
      putchar('\n');                                                  \
    }                                                                 \
  } while (0)

#define SKIP(...)                 \
  do {                            \
    check_skipped++;              \
    printf("SKIP ");              \
    printf(__VA_ARGS__);          \
    putchar('\n');                \
  } while (0)

/* The real corpus folder (../shared/corpus seen from the project root), or
** NULL when it is absent: test/run.sh exports LEVELSQL_CORPUS. */
static inline const char *check_corpus_dir(void) {
  const char *d = getenv("LEVELSQL_CORPUS");
  return (d && *d) ? d : NULL;
}

static inline int check_done(void) {
  printf("RESULT passed=%d failed=%d skipped=%d\n", check_passed, check_failed, check_skipped);
  return check_failed ? 1 : 0;
}

#endif
