/*
** interrupt.c: whether the running statement was interrupted, for long
** work inside the extension (a source's expansion, a parse, a render).
**
** sqlite3_interrupt() (Python's conn.interrupt(), the shell's Ctrl-C) sets
** a flag that SQLite's own loops test; a virtual table or a function that
** works for seconds inside one callback never reaches them.  SQLite 3.41
** added sqlite3_is_interrupted(), but the extension is built against the
** routine table of 3.40 (Debian 12's), which lacks it.  What every version
** does: while a statement is running, stepping another statement of the
** connection returns SQLITE_INTERRUPT once the flag is set (SQLite clears
** it only when no statement is active).  So a check steps a prepared
** "SELECT 1": about a microsecond, and done at most once per
** LS_INTERRUPT_EVERY_NS of work, so it costs nothing measurable.
**
** Only the connection's own thread may check (never a parse-ahead worker:
** they do not touch SQLite).
*/
#include "engine/engine.h"

#include <string.h>
#include <time.h>

/* How often a check looks: 10 ms keeps a stop well inside 100 ms. */
#define LS_INTERRUPT_EVERY_NS 10000000

static int64_t monotonic_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void ls_interrupt_init(ls_interrupt *ic, sqlite3 *db) {
  memset(ic, 0, sizeof *ic);
  ic->db = db;
}

int ls_interrupt_check(ls_interrupt *ic) {
  int64_t now;
  if (ic->hit) return 1;
  if (!ic->db) return 0;
  now = monotonic_ns();
  if (now < ic->next_ns) return 0;
  ic->next_ns = now + LS_INTERRUPT_EVERY_NS;
  if (!ic->probe && sqlite3_prepare_v2(ic->db, "SELECT 1", -1, &ic->probe, NULL) != SQLITE_OK) {
    /* (preparing fails with SQLITE_INTERRUPT too when the flag is set) */
    ic->probe = NULL;
    if (sqlite3_errcode(ic->db) == SQLITE_INTERRUPT) ic->hit = 1;
    return ic->hit;
  }
  if (sqlite3_step(ic->probe) == SQLITE_INTERRUPT) ic->hit = 1;
  sqlite3_reset(ic->probe);
  return ic->hit;
}

void ls_interrupt_done(ls_interrupt *ic) {
  sqlite3_finalize(ic->probe);
  ic->probe = NULL;
}

/* The callback of ls_interrupt_cancel. */
static int interrupt_cancelled(void *ctx) {
  return ls_interrupt_check((ls_interrupt *)ctx);
}

codec_cancel ls_interrupt_cancel(ls_interrupt *ic) {
  codec_cancel c;
  c.cancelled = interrupt_cancelled;
  c.ctx = ic;
  return c;
}
