/*
** test_bounded.c: bounded work on hostile files (issue 24, item 5).
**
** 5a, decompression amplification: a map generated here (small on disk)
** whose 40 tile layers of 4096 x 4096 all point at one 65 KB zlib blob
** claims 2.5 GiB of cells.  levelsql_files must refuse it in under a
** second, naming the layer and the figures, with the process's peak
** memory under 200 MB (measured in a forked child: getrusage's
** ru_maxrss); a tw_tiles scan fails alike.  A smaller crafted map (8
** layers of 2048 x 2048, 128 MiB) shows levelsql_limit('decoded') both
** ways: refused under a cap of 100,000,000 bytes, read after raising it.
** Every real corpus file still passes under the default.
**
** 5c, interrupts: levelsql_files validating a large map under the cap
** (400 layers of 512 x 512, every layer decoded) is interrupted from a
** second thread after 300 ms; the statement must stop soon after (the
** delay is printed; asserted under 500 ms, aimed at 100 ms), and so is
** tw_render drawing it; and one layer of 256 MiB, inflated in steps that
** poll the interrupt; and a scan waiting for a parse-ahead thread.  Two
** decodes on the connection's own thread, each interrupted 200 ms in, must
** fail with SQLITE_INTERRUPT within 100 ms (or an eighth of the whole, for
** sanitizers), and the next query on the connection must answer in full:
** the parse of a compressed WWD level whose main block inflates to 256 MB,
** and the 256 MiB layer a tw_tiles row's first read decodes.  Two renders
** of files generated here, each interrupted 200 ms into seconds of work,
** likewise: wed_render's 4000 x 4000 PNG of a wall of 4,000 edges, and
** wz4_render of a page of 200,000 ops, wed_render's tiles of an area of
** 250 x 250 cells; and the render codecs alone fail
** with CODEC_E_INTERRUPT when their cancel says stop.  Three parses
** likewise, each interrupted 200 ms in: a Teeworlds map of 96 MiB (copied
** and hashed), a WED area of 4800 x 4800 tile cells and a werkkzeug4
** project of 1,000,000 ops; and their parse codecs alone fail with
** CODEC_E_INTERRUPT, keeping nothing, when their cancel says stop.
*/
#include <pthread.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tw/datafile.h"
#include "fileutil.h"
#include "wed/render_wed.h"
#include "wz4/render_wz4.h"
#include "sqltest.h"
#include "tw/twmap.h"
#include "wed/wed.h"
#include "wed_sample.h"
#include "wwd/wwd.h"
#include "wz4_sample.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

/* Writes a 0.6 map of `layers` plain tile layers of side x side cells,
** all naming data 0: one zeroed tile array (zlib shrinks it ~1000:1).
** Returns whether it was written. */
static int write_shared_blob_map(const char *path, int layers, int side) {
  static const int32_t version[1] = {1};
  int32_t group[7] = {1, 0, 0, 100, 100, 0, 0};
  size_t cells = (size_t)side * (size_t)side;
  unsigned char *zero = calloc(cells, 4), *out = NULL;
  size_t out_size = 0;
  datafile *df = df_new();
  codec_error err = {0};
  int ok = zero && df && df_item_add(df, TW_ITEM_VERSION, 0, version, 1) >= 0 && df_data_add(df, zero, cells * 4) == 0;
  int l;
  free(zero);
  group[6] = layers;
  ok = ok && df_item_add(df, TW_ITEM_GROUP, 0, group, 7) >= 0;
  for (l = 0; ok && l < layers; l++) {
    int32_t it[18] = {0, 2, 0, 3, side, side, 0, 255, 255, 255, 255, -1, 0, -1, 0, 0, 0, 0};
    ok = df_item_add(df, TW_ITEM_LAYER, (uint32_t)l, it, 18) >= 0;
  }
  ok = ok && df_write(df, 0, &out, &out_size, &err) && file_write_all(path, out, out_size);
  if (!ok) printf("cannot write %s: %s\n", path, err.msg);
  free(out);
  if (df) df_free(df);
  return ok;
}

/* What the child measured (sent back through a pipe). */
typedef struct measured {
  double ms;
  long maxrss_kb;
  char text[1024];
} measured;

/* Runs `sql` (first column of the first row as text) in a forked child
** with a fresh connection, and returns its time and the child's peak
** memory; the parent holds nothing big while it runs. */
static int measure_in_child_after(const char *setup, const char *sql, measured *m) {
  int fds[2];
  pid_t pid;
  memset(m, 0, sizeof *m);
  if (pipe(fds) != 0) return 0;
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    measured r;
    struct rusage ru;
    sqlite3 *db = db_open();
    double t0;
    if (db && setup) sqlite3_exec(db, setup, NULL, NULL, NULL);
    t0 = now_ms();
    memset(&r, 0, sizeof r);
    snprintf(r.text, sizeof r.text, "%s", db ? query_text(db, sql) : "(no connection)");
    r.ms = now_ms() - t0;
    getrusage(RUSAGE_SELF, &ru);
    r.maxrss_kb = ru.ru_maxrss;
    if (write(fds[1], &r, sizeof r) != (ssize_t)sizeof r) _exit(2);
    _exit(0);
  }
  close(fds[1]);
  if (pid < 0 || read(fds[0], m, sizeof *m) != (ssize_t)sizeof *m) {
    close(fds[0]);
    return 0;
  }
  close(fds[0]);
  waitpid(pid, NULL, 0);
  return 1;
}

static int measure_in_child(const char *sql, measured *m) {
  return measure_in_child_after(NULL, sql, m);
}

static void test_amplification(const char *dir) {
  measured m;
  const char *hostile = fmt("%s/hostile.map", dir);
  REQUIRE(write_shared_blob_map(hostile, 40, 4096), "hostile map written");
  REQUIRE(measure_in_child(fmt("SELECT ok || ' ' || error FROM levelsql_files('%s')", hostile), &m), "child ran");
  printf("INFO hostile map in levelsql_files: %.1f ms, peak %ld KB: %s\n", m.ms, m.maxrss_kb, m.text);
  CHECK(strncmp(m.text, "0 ", 2) == 0 && strstr(m.text, "would decode 67,108,864 bytes") &&
            strstr(m.text, "over the file's limit of 1,073,741,824 bytes in all") && strstr(m.text, "layer 16 (tiles)"),
        "hostile map refused naming layer 16 (the one past 1 GiB) and the figures: %s", m.text);
  CHECK(m.ms < 1000, "refused in under a second (%.1f ms)", m.ms);
  CHECK(m.maxrss_kb > 0 && m.maxrss_kb < 200 * 1024, "peak memory under 200 MB (%ld KB)", m.maxrss_kb);
  REQUIRE(measure_in_child(fmt("SELECT sum(id) FROM tw_tiles('%s')", hostile), &m), "child ran");
  printf("INFO hostile map in a tw_tiles sum: %.1f ms, peak %ld KB: %s\n", m.ms, m.maxrss_kb, m.text);
  CHECK(strstr(m.text, "hostile.map: layer 16 (tiles) would decode") && m.ms < 1000 && m.maxrss_kb < 200 * 1024,
        "tw_tiles fails alike, fast and small: %s", m.text);
  /* Under a cap raised past it, the map's 671 million cells do not fit
  ** the 2^29 row keys of one file: refused as fast, naming the first
  ** layer that does not fit, never read with layers left out. */
  REQUIRE(measure_in_child_after("SELECT levelsql_limit('decoded', 1099511627776)",
                                 fmt("SELECT ok || ' ' || error FROM levelsql_files('%s')", hostile), &m), "child ran");
  printf("INFO hostile map under a raised cap in levelsql_files: %.1f ms, peak %ld KB: %s\n", m.ms, m.maxrss_kb, m.text);
  CHECK(strncmp(m.text, "0 layer 32: ", 12) == 0 && strstr(m.text, "past the 536870912 rows a rowid can name in one file") &&
            m.ms < 1000 && m.maxrss_kb < 200 * 1024,
        "over the row keys: refused at once naming layer 32: %s", m.text);
  REQUIRE(measure_in_child_after("SELECT levelsql_limit('decoded', 1099511627776)",
                                 fmt("SELECT count(*) FROM tw_tiles('%s')", hostile), &m), "child ran");
  printf("INFO hostile map under a raised cap in a tw_tiles count: %.1f ms, peak %ld KB: %s\n", m.ms, m.maxrss_kb, m.text);
  CHECK(strstr(m.text, "hostile.map: layer 32: its 16777216 rows") && m.ms < 1000 && m.maxrss_kb < 200 * 1024,
        "tw_tiles fails alike under a raised cap: %s", m.text);
}

/* The codec's sum itself: each of the 40 layers counts its 64 MiB (the
** shared blob is named, so not counted again), the part that crosses the
** limit is the 17th layer, and the arithmetic saturates. */
static void test_claim_codec(const char *dir) {
  size_t size = 0;
  unsigned char *bytes = file_read_all(fmt("%s/hostile.map", dir), &size);
  tw_map *m = NULL;
  codec_error err = {0};
  codec_claim claim;
  REQUIRE(bytes && tw_map_parse(bytes, size, &m, &err), "hostile map parses (no layer decoded): %s", err.msg);
  free(bytes);
  if (!m) return;
  CHECK(size < 200 * 1024, "the hostile map is small on disk (%zu bytes)", size);
  codec_claim_init(&claim, UINT64_MAX);
  tw_map_decoded_claim(m, &claim);
  CHECK(claim.total == 40ull * 4096 * 4096 * 4 && claim.over[0] == 0, "claims 40 x 64 MiB (%llu)",
        (unsigned long long)claim.total);
  codec_claim_init(&claim, 1ull << 30);
  tw_map_decoded_claim(m, &claim);
  CHECK(strcmp(claim.over, "layer 16 (tiles)") == 0 && claim.over_bytes == 67108864, "crossing part: '%s' %llu",
        claim.over, (unsigned long long)claim.over_bytes);
  tw_map_free(m);
  codec_claim_init(&claim, 10);
  CHECK(!codec_claim_add(&claim, UINT64_MAX - 1, "a") && !codec_claim_add(&claim, 5, "b") &&
            claim.total == UINT64_MAX && strcmp(claim.over, "a") == 0 && codec_mul_sat(1ull << 40, 1ull << 40) == UINT64_MAX,
        "sums and products saturate; the first crossing part is kept");
}

static void test_limit_option(const char *dir) {
  sqlite3 *db = db_open();
  const char *smaller = fmt("%s/smaller.map", dir);
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  REQUIRE(write_shared_blob_map(smaller, 8, 2048), "smaller map written");
  CHECK(query_int(db, "SELECT levelsql_limit('decoded')") == 1073741824, "the default cap is 1 GiB");
  CHECK(query_int(db, fmt("SELECT ok FROM levelsql_files('%s')", smaller)) == 1, "128 MiB map passes the default");
  CHECK(query_int(db, "SELECT levelsql_limit('decoded', 100000000)") == 1073741824, "setting returns the old cap");
  CHECK(strstr(query_text(db, fmt("SELECT error FROM levelsql_files('%s')", smaller)),
               "layer 5 (tiles) would decode 16,777,216 bytes (134,217,728 in all), over the file's limit of 100,000,000"),
        "refused under a lowered cap (a cached model is checked again): %s",
        query_text(db, fmt("SELECT error FROM levelsql_files('%s')", smaller)));
  exec_err(db, fmt("SELECT count(*) FROM tw_tiles('%s')", smaller), "smaller.map: layer 5 (tiles) would decode",
           "levelsql_limit('decoded', bytes)");
  CHECK(query_int(db, "SELECT levelsql_limit('decoded', 200000000)") == 100000000, "raised");
  CHECK(query_int(db, fmt("SELECT ok FROM levelsql_files('%s')", smaller)) == 1, "a raised cap lets it through");
  CHECK(query_int(db, fmt("SELECT count(*) FROM tw_tiles('%s') WHERE layer_index = 7", smaller)) == 2048 * 2048,
        "its tiles read");
  if (getenv("LEVELSQL_SAMPLES")) {
    /* every format is held to the cap: WWD, WED and wz4 by their parsed
    ** level (an uncompressed WWD, SAMPLE01), a compressed WWD by its header */
    const char *samples = getenv("LEVELSQL_SAMPLES");
    exec_ok(db, "SELECT levelsql_limit('decoded', 1000)");
    CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE NOT ok AND error LIKE "
                            "'%%over the file''s limit of 1,000 bytes in all%%'", samples)) ==
              query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s')", samples)),
          "under a cap of 1,000 bytes every sample is refused");
    CHECK(strstr(query_text(db, fmt("SELECT error FROM levelsql_files('%s/SAMPLE01.WWD')", samples)),
                 "the parsed level holds ") != NULL &&
              strstr(query_text(db, fmt("SELECT error FROM levelsql_files('%s/AR0100.WED')", samples)),
                     "the parsed level holds ") != NULL &&
              strstr(query_text(db, fmt("SELECT error FROM levelsql_files('%s/intro.wz4')", samples)),
                     "the parsed level holds ") != NULL,
          "WWD, WED and wz4 name their parsed level: %s", query_text(db, fmt("SELECT error FROM levelsql_files('%s/SAMPLE01.WWD')", samples)));
    exec_err(db, fmt("SELECT count(*) FROM wwd_objects('%s/SAMPLE01.WWD')", samples), "SAMPLE01.WWD: the parsed level holds",
             "over the file's limit of 1,000 bytes");
    /* a compressed level is refused on its header's claim, before the parse inflates it */
    CHECK(strstr(query_text(db, fmt("SELECT error FROM levelsql_files('%s/SAMPLE02.WWD')", samples)),
                 "the main block (zlib) would decode 204,690 bytes, over the file's limit of 1,000 bytes") != NULL,
          "a compressed WWD is refused before inflating: %s",
          query_text(db, fmt("SELECT error FROM levelsql_files('%s/SAMPLE02.WWD')", samples)));
    exec_ok(db, "SELECT levelsql_limit('decoded', 1073741824)");
    CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s') WHERE NOT ok", samples)) == 0,
          "back at the default every sample reads (the refusals were not cached)");
  } else {
    SKIP("LEVELSQL_SAMPLES unset: the cap on WWD, WED and wz4 samples");
  }
  exec_err(db, "SELECT levelsql_limit('decoded', 0)", "a number of bytes, 1 or more", NULL);
  exec_err(db, "SELECT levelsql_limit('cells')", "unknown limit", NULL);
  sqlite3_close(db);
}

/* Every real file of every format passes levelsql_files as before: none
** is refused by the cap. */
static void test_corpus(void) {
  const char *corpus = getenv("LEVELSQL_CORPUS");
  sqlite3 *db;
  if (!corpus) {
    SKIP("LEVELSQL_CORPUS unset: corpus files under the default cap");
    return;
  }
  db = db_open();
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s/*') WHERE error LIKE '%%levelsql_limit%%'", corpus)) ==
            0,
        "no corpus file is over the default cap");
  CHECK(query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s/tw') WHERE ok", corpus)) ==
            query_int(db, fmt("SELECT count(*) FROM levelsql_files('%s/tw')", corpus)),
        "every corpus map validates under the default cap");
  sqlite3_close(db);
}

/* ---- interrupts ---------------------------------------------------------- */

typedef struct interrupter {
  sqlite3 *db;
  int after_ms;
  double at_ms; /* when sqlite3_interrupt was called */
} interrupter;

static void *interrupt_later(void *p) {
  interrupter *it = p;
  struct timespec ts = {it->after_ms / 1000, (long)(it->after_ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
  it->at_ms = now_ms();
  sqlite3_interrupt(it->db);
  return NULL;
}

/* Runs sql (stepping every row) while another thread interrupts after
** after_ms; returns how long after the interrupt the statement stopped
** (-1 when it finished without being interrupted), rc its last code. */
static double interrupted_after(sqlite3 *db, const char *sql, int after_ms, int *rc) {
  interrupter it = {db, after_ms, 0};
  pthread_t th;
  sqlite3_stmt *st = NULL;
  double done;
  *rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (*rc != SQLITE_OK) return -1;
  pthread_create(&th, NULL, interrupt_later, &it);
  while ((*rc = sqlite3_step(st)) == SQLITE_ROW) {
  }
  done = now_ms();
  pthread_join(th, NULL);
  sqlite3_finalize(st);
  return *rc == SQLITE_INTERRUPT ? done - it.at_ms : -1;
}

static void test_interrupt(const char *dir) {
  sqlite3 *db = db_open();
  const char *big = fmt("%s/big.map", dir);
  double late;
  int rc;
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  REQUIRE(write_shared_blob_map(big, 400, 512), "big map written");
  exec_ok(db, "SELECT levelsql_threads(0)");
  late = interrupted_after(db, fmt("SELECT ok FROM levelsql_files('%s')", big), 300, &rc);
  printf("INFO levelsql_files stopped %.1f ms after the interrupt (rc %d)\n", late, rc);
  CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < 500, "validation stops soon after an interrupt (%.1f ms, rc %d)",
        late, rc);
  late = interrupted_after(db, fmt("SELECT length(tw_render('%s'))", big), 300, &rc);
  printf("INFO tw_render stopped %.1f ms after the interrupt (rc %d)\n", late, rc);
  CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < 500, "a render stops soon after an interrupt (%.1f ms, rc %d)",
        late, rc);
  sqlite3_close(db);
}

/* One layer of 8192 x 8192 (256 MiB, under the cap): validating it is one
** long inflate, which polls the interrupt every 4 MiB.  The statement is
** timed whole first; interrupted 20 ms in, it must stop well before it
** would have ended (under half its time, and under 500 ms after the
** interrupt). */
static void test_interrupt_inflate(const char *dir) {
  sqlite3 *db = db_open();
  const char *huge = fmt("%s/one_huge_layer.map", dir);
  double t0, whole, late;
  int rc;
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  REQUIRE(write_shared_blob_map(huge, 1, 8192), "map written");
  exec_ok(db, "SELECT levelsql_threads(0)");
  t0 = now_ms();
  CHECK(query_int(db, fmt("SELECT ok FROM levelsql_files('%s')", huge)) == 1, "the 256 MiB layer validates");
  whole = now_ms() - t0;
  exec_ok(db, "SELECT levelsql_cache_limit(0)"); /* parse and validate again */
  exec_ok(db, "SELECT levelsql_cache_limit(2147483648)");
  if (whole < 100) {
    SKIP("the whole validation took %.1f ms: too fast to interrupt inside it", whole);
    sqlite3_close(db);
    return;
  }
  late = interrupted_after(db, fmt("SELECT ok FROM levelsql_files('%s')", huge), 20, &rc);
  printf("INFO one 256 MiB layer: validated in %.1f ms; interrupted, stopped %.1f ms after (rc %d)\n", whole, late, rc);
  CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < 500 && late < whole / 2,
        "an inflate stops soon after an interrupt (%.1f ms of %.1f, rc %d)", late, whole, rc);
  sqlite3_close(db);
}

/* Writes a compressed WWD level of one side x side plane (4 bytes a
** tile, inflated by the parse). */
static int write_wwd(const char *path, unsigned side) {
  wwd_level *l = wwd_level_new(side, side, 64, 64);
  unsigned char *out = NULL;
  size_t n = 0;
  codec_error err = {0};
  int ok;
  if (!l) return 0;
  l->header[WWD_HDR_FLAGS] |= WWD_FLAG_COMPRESS;
  ok = wwd_serialize(l, &out, &n, &err) && file_write_all(path, out, n);
  if (!ok) printf("cannot write %s: %s\n", path, err.msg);
  free(out);
  wwd_free(l);
  return ok;
}

/* A scan waiting for a parse-ahead thread: a level of 1500 x 1500 tiles
** first (parsed on the connection's thread, which hands the next files
** to two threads meanwhile: long enough for them to take the jobs, or the
** connection, finding a job not started, would run it itself, beyond an
** interrupt's reach), then two levels of 5000 x 5000 tiles (100 MB
** inflated each).  Interrupted halfway through (200 ms in at most), while
** it waits for the thread parsing the second file, the scan stops within
** 200 ms and a quarter of the time it takes whole (a wait that does not poll ends with that
** file's parse, 400 to 800 ms later here). */
static void test_interrupt_wait(const char *dir) {
  sqlite3 *db = db_open();
  const char *folder = fmt("%s/wwd", dir), *sql;
  double t0, whole, late;
  int rc;
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  REQUIRE(mkdir(folder, 0700) == 0, "folder");
  REQUIRE(write_wwd(fmt("%s/a_first.wwd", folder), 1500) && write_wwd(fmt("%s/b_big.wwd", folder), 5000) &&
              write_wwd(fmt("%s/c_big.wwd", folder), 5000),
          "levels written");
  sql = fmt("SELECT count(*) FROM wwd_planes('%s')", folder);
  exec_ok(db, "SELECT levelsql_threads(2)");
  exec_ok(db, "SELECT levelsql_cache_limit(0)");
  /* every run parses the three files (no cache); the first also touches
  ** its memory for the first time, which made it several times slower
  ** than the runs after it on some machines, so the second is the one
  ** timed, and the interrupt comes halfway through such a run */
  CHECK(query_int(db, sql) == 3, "the three levels read");
  t0 = now_ms();
  CHECK(query_int(db, sql) == 3, "the three levels read again");
  whole = now_ms() - t0;
  if (whole < 40) {
    SKIP("the whole scan took %.1f ms: too fast to interrupt a wait inside it", whole);
    sqlite3_close(db);
    return;
  }
  late = interrupted_after(db, sql, whole / 2 < 200 ? (int)(whole / 2) : 200, &rc);
  printf("INFO a scan waiting for parse-ahead threads: %.1f ms whole; interrupted, stopped %.1f ms after (rc %d)\n",
         whole, late, rc);
  CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < 200 && late < whole / 4,
        "the wait for a thread stops soon after an interrupt (%.1f ms of %.1f, rc %d)", late, whole, rc);
  /* Interrupted an eighth of the way in, while the threads have most of
  ** the big levels still to parse: those parses were abandoned with the
  ** statement and stop at their next poll, so stopping the threads (which
  ** joins them) right after takes a few ms, not the rest of the parses
  ** (about 200 ms here when they ran on) */
  late = interrupted_after(db, sql, (int)(whole / 8), &rc);
  t0 = now_ms();
  exec_ok(db, "SELECT levelsql_threads(0)");
  late = now_ms() - t0;
  printf("INFO interrupted %.0f ms in (rc %d), the threads joined %.1f ms after\n", whole / 8, rc, late);
  CHECK(rc == SQLITE_INTERRUPT && late < whole / 8, "abandoned parses stop at once: the threads joined in %.1f ms (whole scan %.1f)",
        late, whole);
  sqlite3_close(db);
}

/* How late an interrupt may stop a decode of `whole_ms` and still pass:
** 100 ms, the aim, or an eighth of the whole decode where that is
** longer (a sanitizer or valgrind slows every step of it alike). */
static double allowed_lateness_ms(double whole_ms) {
  return whole_ms / 8 > 100 ? whole_ms / 8 : 100;
}

/* When to interrupt a statement that takes `whole_ms`: `after_ms` in, or a
** quarter of the way through a shorter one (a statement that ignored the
** interrupt would then end three quarters of its time later, far past
** both checks).  0 when it is too quick to be interrupted inside. */
static int interrupt_point_ms(double whole_ms, int after_ms) {
  if (whole_ms < 40) return 0;
  return whole_ms / 4 < after_ms ? (int)(whole_ms / 4) : after_ms;
}

/* Empties the connection's cache, so the next statement decodes again. */
static void cache_emptied(sqlite3 *db) {
  exec_ok(db, "SELECT levelsql_cache_limit(0)");
  exec_ok(db, "SELECT levelsql_cache_limit(2147483648)");
}

/* Times `sql` cold (the cache emptied before), then runs it again cold
** while a second thread interrupts it (interrupt_point_ms): it must fail
** with SQLITE_INTERRUPT within allowed_lateness_ms and before half its
** whole time, and then, on the same connection, answer `want` in full
** (an interrupted decode leaves nothing half done, and no error cached).
** The timed run is the second cold one: the first also touches its memory
** for the first time, which made it up to ten times slower than the runs
** after it on some machines.  `what` names the decode in messages.
** Skipped when the whole query is too quick to be interrupted inside. */
static void check_interrupted_decode(sqlite3 *db, const char *what, const char *sql, int after_ms, sqlite3_int64 want) {
  double t0, whole, late, allowed;
  int rc;
  cache_emptied(db);
  CHECK(query_int(db, sql) == want, "%s: the query answers %lld", what, (long long)want);
  cache_emptied(db);
  t0 = now_ms();
  CHECK(query_int(db, sql) == want, "%s: the query answers %lld again", what, (long long)want);
  whole = now_ms() - t0;
  cache_emptied(db); /* decode again, cold */
  if (!(after_ms = interrupt_point_ms(whole, after_ms))) {
    SKIP("%s: the whole query took %.1f ms: too fast to interrupt inside it", what, whole);
    return;
  }
  allowed = allowed_lateness_ms(whole);
  late = interrupted_after(db, sql, after_ms, &rc);
  printf("INFO %s: %.1f ms whole; interrupted %d ms in, stopped %.1f ms after (rc %d, allowed %.0f)\n", what, whole,
         after_ms, late, rc, allowed);
  CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < allowed && late < whole / 2,
        "%s stops within %.0f ms of an interrupt (%.1f ms of %.1f, rc %d)", what, allowed, late, whole, rc);
  CHECK(query_int(db, sql) == want, "%s: after the interrupt the same connection answers %lld", what, (long long)want);
}

/* Issue 24 item 5: a parse on the connection's own thread.  A compressed
** WWD level of one 6000 x 6000 plane (a main block of 144,000,000 bytes,
** about 800 ms of parse here) is parsed by the first row of a scan,
** without parse-ahead threads; its main block inflates in steps of 1 MiB
** that poll the interrupt. */
static void test_interrupt_wwd_parse(const char *dir) {
  sqlite3 *db = db_open();
  const char *level = fmt("%s/huge_main_block.wwd", dir);
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  REQUIRE(write_wwd(level, 6000), "level written");
  exec_ok(db, "SELECT levelsql_threads(0)");
  check_interrupted_decode(db, "the parse of a 144 MB WWD main block",
                           fmt("SELECT sum(tiles_wide) FROM wwd_planes('%s')", level), 200, 6000);
  sqlite3_close(db);
}

/* Issue 24 item 5: a Teeworlds layer decoded by a row's first read.  One
** tile layer of 8192 x 8192 cells (256 MiB; the map parses in a
** millisecond, its layer stays compressed until the first tw_tiles row is
** read), inflated in steps of 4 MiB that poll the interrupt; an
** interrupted decode leaves the layer undecoded in the cached map, and
** the next query decodes it whole. */
static void test_interrupt_layer_decode(const char *dir) {
  sqlite3 *db = db_open();
  const char *map = fmt("%s/one_layer_to_decode.map", dir);
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  REQUIRE(write_shared_blob_map(map, 1, 8192), "map written");
  exec_ok(db, "SELECT levelsql_threads(0)");
  check_interrupted_decode(db, "the decode of a 256 MiB layer for a tw_tiles row",
                           fmt("SELECT x + y + id FROM tw_tiles('%s') WHERE layer_index = 0 LIMIT 1", map), 200, 0);
  sqlite3_close(db);
}

/* Issue 24 item 5: reading a large file.  A file of 1,000 MB named .WWD
** is read whole before its parse refuses it; the read goes LS_READ_CHUNK
** bytes at a time and looks at the interrupt between them.  The file is
** sparse (no disk), read once to bring it into the page cache; then a
** read on a new connection (each keeps its own buffer) is timed whole
** (a few hundred ms: a copy of 1,000 MB), and another is interrupted a
** quarter of the way in.  Afterwards the interrupted connection reports
** the file's own error, not "interrupted". */
static double read_refused_ms(const char *sql) {
  sqlite3 *db = db_open();
  double t0;
  int rc;
  if (!db) return -1;
  exec_ok(db, "SELECT levelsql_threads(0)");
  t0 = now_ms();
  rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  t0 = now_ms() - t0;
  CHECK(rc == SQLITE_ERROR, "a 1,000 MB file of zeros is refused (rc %d)", rc);
  sqlite3_close(db);
  return t0;
}

static void test_interrupt_read(const char *dir) {
  /* In a tmpfs (/dev/shm) when there is one: reading a sparse file's holes
  ** there costs nothing, where a disk's page cache first takes 2.8 s to
  ** fill with 1,000 MB of zeros, every run of the suite. */
  char shm_dir[] = "/dev/shm/test_bounded_XXXXXX";
  const char *folder = mkdtemp(shm_dir) ? shm_dir : dir;
  const char *path = fmt("%s/sparse_1000MB.WWD", folder);
  const char *sql = fmt("SELECT count(*) FROM wwd_planes('%s')", path);
  sqlite3 *db = NULL;
  double whole, again, late = -1, allowed;
  int rc = SQLITE_OK, after_ms, attempt;
  FILE *f = fopen(path, "wb");
  REQUIRE(f && ftruncate(fileno(f), (off_t)1000 << 20) == 0, "sparse file made");
  if (f) fclose(f);
  read_refused_ms(sql); /* into the page cache */
  /* the quicker of two reads: one slowed by a busy machine would set the
  ** interrupt after a quicker read had ended (rc 1, the read's own refusal) */
  whole = read_refused_ms(sql);
  again = read_refused_ms(sql);
  if (again < whole) whole = again;
  after_ms = (int)(whole / 4);
  allowed = allowed_lateness_ms(whole);
  /* Under ASan (make asan sets LEVELSQL_SANITIZED=1) the stop costs about
  ** as long as the read before it: 180 ms after an interrupt 306 ms into a
  ** 1,227 ms read, three tries alike, where the plain build stops 4-12 ms
  ** after: the sanitizer's release of the bytes read so far, not the read
  ** loop.  There the check is only that the stop comes before half the
  ** whole (a read that ignored the interrupt ends three quarters of it
  ** later). */
  if (getenv("LEVELSQL_SANITIZED") && strcmp(getenv("LEVELSQL_SANITIZED"), "1") == 0) allowed = whole / 2;
  if (after_ms < 20) {
    SKIP("reading 1,000 MB took %.1f ms: too fast to interrupt inside it", whole);
  } else {
    /* Up to three tries, each on a new connection: one stop within the
    ** allowance shows the read polls the interrupt (a read that did not
    ** would end three quarters of the whole later every time); the
    ** retries absorb a busy machine's pause. */
    for (attempt = 1; attempt <= 3; attempt++) {
      sqlite3_close(db);
      db = db_open();
      REQUIRE(db != NULL, "connection");
      if (!db) return;
      exec_ok(db, "SELECT levelsql_threads(0)");
      late = interrupted_after(db, sql, after_ms, &rc);
      printf("INFO reading a 1,000 MB file: %.1f ms whole; try %d interrupted %d ms in, stopped %.1f ms after (rc %d)\n",
             whole, attempt, after_ms, late, rc);
      if (rc == SQLITE_INTERRUPT && late >= 0 && late < allowed && late < whole / 2) break;
    }
    CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < allowed && late < whole / 2,
          "reading a 1,000 MB file stops within %.0f ms of an interrupt (%.1f ms of %.1f, rc %d)", allowed, late,
          whole, rc);
  }
  if (!db) db = db_open();
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  CHECK(rc == SQLITE_ERROR && !strstr(sqlite3_errmsg(db), "interrupted"),
        "after the interrupt the file's own error comes back: %s", sqlite3_errmsg(db));
  unlink(path);
  if (folder != dir) rmdir(folder);
  sqlite3_close(db);
}

/* ---- renders of WED areas and werkkzeug4 pages ------------------------- */

/* On a new connection without parse-ahead threads, times `sql` (a
** render; its file parsed before, so only the render is timed), then runs
** it again while a second thread interrupts it (interrupt_point_ms): it must fail
** with SQLITE_INTERRUPT within allowed_lateness_ms and before half its
** whole time, and the connection must then answer it in full (1).
** Skipped when the render is too quick to be interrupted inside it. */
static void check_interrupted_render(const char *what, const char *sql, int after_ms) {
  sqlite3 *db = db_open();
  double t0, whole, late, allowed;
  int rc;
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  exec_ok(db, "SELECT levelsql_threads(0)");
  CHECK(query_int(db, sql) == 1, "%s: the render answers (file parsed)", what);
  t0 = now_ms();
  CHECK(query_int(db, sql) == 1, "%s: the render answers", what);
  whole = now_ms() - t0;
  if (!(after_ms = interrupt_point_ms(whole, after_ms))) {
    SKIP("%s: the whole render took %.1f ms: too fast to interrupt inside it", what, whole);
  } else {
    allowed = allowed_lateness_ms(whole);
    late = interrupted_after(db, sql, after_ms, &rc);
    printf("INFO %s: %.1f ms whole; interrupted %d ms in, stopped %.1f ms after (rc %d, allowed %.0f)\n", what,
           whole, after_ms, late, rc, allowed);
    CHECK(rc == SQLITE_INTERRUPT && late >= 0 && late < allowed && late < whole / 2,
          "%s stops within %.0f ms of an interrupt (%.1f ms of %.1f, rc %d)", what, allowed, late, whole, rc);
    CHECK(query_int(db, sql) == 1, "%s: after the interrupt the same connection answers", what);
  }
  sqlite3_close(db);
}

/* Writes the constructed WED area (wed_sample.h) with one more wall: a
** comb of `teeth` teeth, 2 area pixels apart, from the top (y 0) to
** y 3999: every scanline of its fill crosses all 2 x teeth edges. */
static int write_comb_wed(const char *path, uint32_t teeth) {
  wed_point *pts = calloc((size_t)teeth * 2 + 2, sizeof *pts);
  unsigned char *data = NULL, *out = NULL;
  size_t size = 0, out_size = 0;
  wed_area *a = NULL;
  codec_error err = {{0}, 0};
  uint32_t t;
  int ok = pts && wed_write_constructed(path) && (data = file_read_all(path, &size)) && wed_parse(data, size, &a, &err);
  for (t = 0; ok && t < teeth; t++) {
    pts[2 * t].x = (uint16_t)(2 * t), pts[2 * t].y = 0;
    pts[2 * t + 1].x = (uint16_t)(2 * t + 1), pts[2 * t + 1].y = 3999;
  }
  if (ok) {
    pts[2 * teeth].x = (uint16_t)(2 * teeth), pts[2 * teeth].y = 3999;
    pts[2 * teeth + 1].x = 0, pts[2 * teeth + 1].y = 3999;
  }
  ok = ok && wed_polygon_insert_wall(a, 1, 255, pts, (size_t)teeth * 2 + 2, NULL, &err) &&
       wed_serialize(a, &out, &out_size, &err) && file_write_all(path, out, out_size);
  if (!ok) printf("cannot write %s: %s\n", path, err.msg);
  if (a) wed_free(a);
  free(pts);
  free(data);
  free(out);
  return ok;
}

/* Issue 24 item 5: wed_render as a PNG of 4000 x 4000 pixels (scale=1) of
** an area whose comb wall has 1,999 teeth: its fill sorts 4,000 crossings
** on each of 4,000 rows (seconds), polling the interrupt per row. */
static void test_interrupt_wed_render(const char *dir) {
  const char *area = fmt("%s/comb.wed", dir);
  REQUIRE(write_comb_wed(area, 1999), "comb area written");
  check_interrupted_render("wed_render of a 4000 x 4000 PNG",
                           fmt("SELECT length(wed_render('%s', 'format=png, scale=1')) > 0", area), 200);
}

/* Issue 26: wed_render with tiles of an area of 250 x 250 cells (the
** sample AR0200 grown, its palette tileset beside it): 62,500 tiles
** decoded and shrunk to 16 pixels (seconds), polling the interrupt per
** tile. */
static void test_interrupt_tiles_render(const char *dir) {
  const char *area = fmt("%s/AR0200.WED", dir);
  sqlite3 *db;
  if (!getenv("LEVELSQL_SAMPLES")) {
    SKIP("LEVELSQL_SAMPLES unset: the interrupted tiles render");
    return;
  }
  db = db_open();
  REQUIRE(db && copy_sample_into(dir, "AR0200.WED") && copy_sample_into(dir, "AR0200.TIS") &&
              exec_ok(db, fmt("UPDATE wed_overlays SET width = 250, height = 250 WHERE file = '%s' AND overlay = 0", area)),
          "a 250 x 250-cell area beside its tileset");
  if (db) sqlite3_close(db);
  check_interrupted_render("wed_render of 62,500 tiles",
                           fmt("SELECT length(wed_render('%s', 'tiles=1, scale=0.25')) > 0", area), 200);
}

/* Writes a werkkzeug4 project (wz4_sample.h's records) of one page of
** `ops` stacked ops, 200 columns of them, each on the one above it (a
** stack edge each), every op named: "n<k>". */
static int write_big_wz4(const char *path, uint32_t ops) {
  byte_writer w = {0};
  uint32_t k;
  int ok;
  wz4_put_head(&w);
  byte_writer_u32(&w, 1);            /* pages: stacked, tree, level, flags, protect */
  byte_writer_u32(&w, ops); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0);
  byte_writer_u32(&w, 0);            /* imports */
  wz4_put_str(&w, "big");
  byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); byte_writer_u32(&w, 0); /* is_tree, scroll */
  for (k = 0; k < ops; k++) {
    char name[16];
    wz4_cop op = {(int32_t)(k % 200) * 4, (int32_t)(k / 200), 3, 1, "Blur", name, NULL, 0};
    snprintf(name, sizeof name, "n%u", k);
    wz4_put_op(&w, &op);
  }
  byte_writer_u32(&w, 0);            /* includes */
  byte_writer_u32(&w, 1);            /* page order */
  wz4_put_str(&w, "big");
  ok = file_write_all(path, w.data, w.size);
  byte_writer_free(&w);
  return ok;
}

/* Issue 24 item 5: wz4_render of a page of 200,000 ops (seconds of SVG),
** polling the interrupt every 64 ops and edges. */
static void test_interrupt_wz4_render(const char *dir) {
  const char *project = fmt("%s/big.wz4", dir);
  REQUIRE(write_big_wz4(project, 200000), "project written");
  check_interrupted_render("wz4_render of a page of 200,000 ops", fmt("SELECT length(wz4_render('%s', 0)) > 0", project),
                           200);
}

/* A cancel that counts its polls and says stop from poll `stop_at` on
** (0: never). */
typedef struct counted_cancel {
  unsigned polls, stop_at;
} counted_cancel;

static int counted_cancelled(void *p) {
  counted_cancel *cc = p;
  cc->polls++;
  return cc->stop_at && cc->polls >= cc->stop_at;
}

/* A tile of one colour, for the tiles of wed_render_canvas. */
static int grey_tile(void *ctx, uint32_t tile, unsigned char *rgba, codec_error *err) {
  (void)ctx, (void)tile, (void)err;
  memset(rgba, 128, 64 * 64 * 4);
  return 1;
}

/* The codecs alone: wed_render_svg, wed_render_canvas (with and without
** tiles) and wz4_render_svg poll their cancel (a never-stopping one is
** asked at least once per render), and fail with CODEC_E_INTERRUPT and no
** output when it says stop at its first or its fifth poll. */
static void test_render_cancel_codec(const char *dir) {
  const char *area = fmt("%s/comb_small.wed", dir), *project = fmt("%s/small.wz4", dir);
  unsigned char *data = NULL;
  size_t size = 0, n = 0;
  wed_area *a = NULL;
  wz4_doc *doc = NULL;
  codec_error err = {{0}, 0};
  unsigned stops[3] = {0, 1, 5}, k;
  REQUIRE(write_comb_wed(area, 300) && (data = file_read_all(area, &size)) && wed_parse(data, size, &a, &err),
          "comb area read: %s", err.msg);
  free(data);
  REQUIRE(write_big_wz4(project, 2000) && (data = file_read_all(project, &size)) && wz4_parse(data, size, &doc, &err),
          "project read: %s", err.msg);
  free(data);
  for (k = 0; k < 3 && a && doc; k++) {
    counted_cancel cc = {0, stops[k]};
    codec_cancel cancel = {counted_cancelled, &cc};
    wed_render_opts o;
    char *svg = NULL;
    canvas c;
    int ok;
    wed_render_defaults(&o);
    o.cancel = &cancel;
    memset(&err, 0, sizeof err);
    ok = wed_render_svg(a, &o, &svg, &n, &err);
    CHECK(stops[k] ? !ok && !svg && err.code == CODEC_E_INTERRUPT : ok && cc.polls > 0,
          "wed svg, stop at poll %u: ok %d, code %d, %u polls", stops[k], ok, err.code, cc.polls);
    free(svg);
    cc.polls = 0, memset(&err, 0, sizeof err);
    ok = wed_render_canvas(a, &o, &c, &err);
    CHECK(stops[k] ? !ok && err.code == CODEC_E_INTERRUPT : ok && cc.polls > 0,
          "wed png, stop at poll %u: ok %d, code %d, %u polls", stops[k], ok, err.code, cc.polls);
    if (ok) canvas_free(&c);
    cc.polls = 0, memset(&err, 0, sizeof err);
    o.tiles = 1, o.tile = grey_tile, o.grid = o.doors = o.walls = 0;
    ok = wed_render_canvas(a, &o, &c, &err);
    CHECK(stops[k] ? !ok && err.code == CODEC_E_INTERRUPT : ok && cc.polls >= a->overlays[0].num_cells,
          "wed tiles, stop at poll %u: ok %d, code %d, %u polls", stops[k], ok, err.code, cc.polls);
    if (ok) canvas_free(&c);
    cc.polls = 0, memset(&err, 0, sizeof err);
    ok = wz4_render_svg(doc, 0, &cancel, &svg, &n, &err);
    CHECK(stops[k] ? !ok && !svg && err.code == CODEC_E_INTERRUPT : ok && cc.polls > 0,
          "wz4 svg, stop at poll %u: ok %d, code %d, %u polls", stops[k], ok, err.code, cc.polls);
    free(svg);
  }
  if (a) wed_free(a);
  if (doc) wz4_free(doc);
}

/* ---- parses that poll the interrupt (TW, WED, wz4) ------------------------- */

/* Grows the file at `path` to `size` bytes of zeros past what it holds
** (a sparse tail: no disk used, read back as zeros). */
static int grow_sparse(const char *path, size_t size) {
  return truncate(path, (off_t)size) == 0;
}

/* Writes a 0.6 map of one 8 x 8 layer (write_shared_blob_map) whose data
** area ends in `extra` more bytes of zeros after its one blob's zlib
** stream (the header's size and data size say so): a valid map of that
** size that the parse copies and hashes whole, its blob still compressed
** until a tile is read (none is here). */
static int write_padded_map(const char *path, size_t extra) {
  size_t size = 0;
  unsigned char *data = write_shared_blob_map(path, 1, 8) ? file_read_all(path, &size) : NULL;
  int ok = data && size >= 36 && extra < 0x7fffffffu - size;
  if (ok) {
    le32_store(data + 8, le32_load(data + 8) + (uint32_t)extra);   /* size */
    le32_store(data + 32, le32_load(data + 32) + (uint32_t)extra); /* data size */
    ok = file_write_all(path, data, size) && grow_sparse(path, size + extra);
  }
  free(data);
  return ok;
}

/* Writes a WED area of one overlay of side x side cells (10 bytes each,
** all zero: no tiles looked up), its wall groups (zeros) and no doors,
** polygons or vertices (their empty tables point at the tilemap): a valid
** area of some side^2 * 10 bytes whose parse reads every cell and copies
** the file. */
static int write_big_overlay_wed(const char *path, uint16_t side) {
  unsigned char head[76] = {0};
  wed_overlay ov;
  wed_area probe;
  uint32_t gx, gy, cells_end = 76u + (uint32_t)side * side * WED_TILECELL_SIZE;
  memset(&ov, 0, sizeof ov);
  memset(&probe, 0, sizeof probe);
  ov.width = ov.height = side;
  probe.overlays = &ov;
  probe.num_overlays = 1;
  wed_wallgroup_grid(&probe, &gx, &gy);
  memcpy(head, "WED V1.3", 8);
  le32_store(head + 8, 1);                                   /* overlays */
  le32_store(head + 16, 32);                                 /* overlay records */
  le32_store(head + 20, 56);                                 /* secondary header */
  le32_store(head + 24, 76), le32_store(head + 28, 76);      /* doors, door cells: none */
  le16_store(head + 32, side), le16_store(head + 34, side);  /* the overlay: width, height, */
  memcpy(head + 36, "BIG", 3);                               /* tileset, */
  le32_store(head + 48, 76), le32_store(head + 52, 76);      /* tilemap, lookup (empty) */
  le32_store(head + 60, 76), le32_store(head + 64, 76);      /* polygons, vertices: none */
  le32_store(head + 68, cells_end), le32_store(head + 72, 76); /* wall groups, polygon lookup */
  return file_write_all(path, head, sizeof head) && grow_sparse(path, (size_t)cells_end + (size_t)gx * gy * 4);
}

/* Issue 24 item 5: parses on the connection's own thread that poll the
** interrupt (every 4 MiB copied or hashed, every 65,536 records): a
** Teeworlds map of 96 MiB (one blob padded with zeros: the parse copies
** it and hashes the file), a WED area of one 4800 x 4800 overlay (230 MB
** of tile cells) and a werkkzeug4 project of 1,000,000 ops, each read by
** a scan without parse-ahead threads and interrupted 200 ms in. */
static void test_interrupt_format_parses(const char *dir) {
  sqlite3 *db = db_open();
  const char *map = fmt("%s/padded.map", dir), *area = fmt("%s/big_overlay.wed", dir);
  const char *project = fmt("%s/many_ops.wz4", dir);
  REQUIRE(db != NULL, "connection");
  if (!db) return;
  exec_ok(db, "SELECT levelsql_threads(0)");
  REQUIRE(write_padded_map(map, 96u << 20), "padded map written");
  check_interrupted_decode(db, "the parse of a 96 MiB Teeworlds map",
                           fmt("SELECT count(*) FROM tw_layers('%s')", map), 200, 1);
  unlink(map);
  REQUIRE(write_big_overlay_wed(area, 4800), "area written");
  check_interrupted_decode(db, "the parse of a WED area of 4800 x 4800 cells",
                           fmt("SELECT count(*) FROM wed_overlays('%s')", area), 200, 1);
  unlink(area);
  REQUIRE(write_big_wz4(project, 1000000), "project written");
  check_interrupted_decode(db, "the parse of a wz4 project of 1,000,000 ops",
                           fmt("SELECT count(*) FROM wz4_pages('%s')", project), 200, 1);
  unlink(project);
  sqlite3_close(db);
}

/* The codecs alone: tw_map_parse_cancel, wed_parse_cancel and
** wz4_parse_cancel on the files above, smaller, fail with CODEC_E_INTERRUPT
** and no model when their cancel says stop at its first poll, and parse
** (polling at least once) when it never does. */
static void test_parse_cancel_codec(const char *dir) {
  const char *paths[3] = {fmt("%s/padded_small.map", dir), fmt("%s/overlay_small.wed", dir),
                          fmt("%s/ops_small.wz4", dir)};
  unsigned stops[2] = {0, 1}, k, f;
  REQUIRE(write_padded_map(paths[0], 16u << 20) && write_big_overlay_wed(paths[1], 512) &&
              write_big_wz4(paths[2], 70000),
          "files written");
  for (f = 0; f < 3; f++) {
    size_t size = 0;
    unsigned char *data = file_read_all(paths[f], &size);
    REQUIRE(data != NULL, "%s read", paths[f]);
    for (k = 0; data && k < 2; k++) {
      counted_cancel cc = {0, stops[k]};
      codec_cancel cancel = {counted_cancelled, &cc};
      codec_error err = {{0}, 0};
      tw_map *map = NULL;
      wed_area *area = NULL;
      wz4_doc *doc = NULL;
      int ok = f == 0 ? tw_map_parse_cancel(data, size, &cancel, &map, &err)
               : f == 1 ? wed_parse_cancel(data, size, &cancel, &area, &err)
                        : wz4_parse_cancel(data, size, &cancel, &doc, &err);
      int made = map || area || doc;
      CHECK(stops[k] ? !ok && !made && err.code == CODEC_E_INTERRUPT && cc.polls == 1 : ok && made && cc.polls > 0,
            "%s, stop at poll %u: ok %d, code %d, %u polls (%s)", paths[f], stops[k], ok, err.code, cc.polls, err.msg);
      tw_map_free(map);
      wed_free(area);
      wz4_free(doc);
    }
    free(data);
  }
}

int main(void) {
  char dir[] = "/tmp/test_bounded_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return check_done();
  }
  test_amplification(dir);
  test_claim_codec(dir);
  test_limit_option(dir);
  test_corpus();
  test_interrupt(dir);
  test_interrupt_inflate(dir);
  test_interrupt_wait(dir);
  test_interrupt_wwd_parse(dir);
  test_interrupt_layer_decode(dir);
  test_interrupt_read(dir);
  test_render_cancel_codec(dir);
  test_interrupt_wed_render(dir);
  test_interrupt_wz4_render(dir);
  test_interrupt_tiles_render(dir);
  test_parse_cancel_codec(dir);
  test_interrupt_format_parses(dir);
  if (system(fmt("rm -rf '%s'", dir)) != 0) printf("cannot remove %s\n", dir);
  return check_done();
}
