/*
** check.h: the minimal test harness shared by the C unit tests.
**
** Each CHECK is one test case: it counts one passed or failed assertion;
** SKIP counts a case that could not run here (for instance the real corpus
** in ../shared is absent).  REQUIRE is a step a test needs to go on (a
** setup statement, a file copy): its failure counts as a failed case, its
** success counts nothing.  check_done() prints "RESULT passed=N failed=N
** skipped=N", which test/run.sh adds up into the suite's closing "N
** passed, N failed" line, and returns the exit status.
**
** A loop over many generated inputs (mutations, truncations, every byte
** value) is one case, not one per input: between check_loop_enter(&loop)
** and check_loop_leave() every CHECK and REQUIRE counts into the loop
** (its first failures are still printed), and check_loop_done(&loop, ...)
** counts the loop as one case, passed when none of its checks failed, and
** prints "INFO <what>: N inputs, N checks".
*/
#ifndef LEVELSQL_CHECK_H
#define LEVELSQL_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int check_passed, check_failed, check_skipped;

/* The checks of one loop (see above); inputs is the loop's to count. */
typedef struct check_loop {
  long inputs, passed, failed;
} check_loop;

static check_loop *check_loop_current;

/* One result: into the current loop when there is one.  A failure is
** printed, in a loop only its first 5. */
static inline int check_count(int ok, int counts_pass) {
  if (check_loop_current) {
    if (ok) check_loop_current->passed += counts_pass;
    else check_loop_current->failed++;
    return ok || check_loop_current->failed > 5;
  }
  if (ok) check_passed += counts_pass;
  else check_failed++;
  return ok;
}

#define CHECK_OR_REQUIRE(cond, counts_pass, ...)                      \
  do {                                                                \
    if (!check_count((cond) != 0, counts_pass)) {                     \
      printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);          \
      printf(__VA_ARGS__);                                            \
      putchar('\n');                                                  \
    }                                                                 \
  } while (0)

#define CHECK(cond, ...) CHECK_OR_REQUIRE(cond, 1, __VA_ARGS__)
#define REQUIRE(cond, ...) CHECK_OR_REQUIRE(cond, 0, __VA_ARGS__)

#define SKIP(...)                 \
  do {                            \
    check_skipped++;              \
    printf("SKIP ");              \
    printf(__VA_ARGS__);          \
    putchar('\n');                \
  } while (0)

static inline void check_loop_enter(check_loop *loop) {
  check_loop_current = loop;
}

static inline void check_loop_leave(void) {
  check_loop_current = NULL;
}

/* Counts the loop as one case and prints what it did. */
static inline void check_loop_done(const check_loop *loop, const char *what, ...) {
  va_list ap;
  check_loop_current = NULL;
  printf("INFO ");
  va_start(ap, what);
  vprintf(what, ap);
  va_end(ap);
  printf(": %ld inputs, %ld checks, %ld failed\n", loop->inputs, loop->passed + loop->failed, loop->failed);
  if (loop->failed == 0 && loop->inputs > 0) {
    check_passed++;
  } else {
    check_failed++;
    printf("FAIL ");
    va_start(ap, what);
    vprintf(what, ap);
    va_end(ap);
    printf(": %ld of %ld checks failed over %ld inputs\n", loop->failed, loop->passed + loop->failed, loop->inputs);
  }
}

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
