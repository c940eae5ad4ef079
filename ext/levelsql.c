/*
** levelsql.c: the extension's entry point.
**
**   .load build/levelsql          (sqlite3 shell)
**   conn.load_extension("build/levelsql")   (Python)
**
** Creates the connection's session (file cache and transaction state, see
** session.h), registers every table family on it (its tables, then its SQL
** functions through the family's hook), and the engine-wide SQL helpers.
*/
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1

#include "engine/atlas.h"
#include "engine/columns_table.h"
#include "engine/copy.h"
#include "engine/files_table.h"
#include "engine/parse_ahead.h"
#include "engine/session.h"
#include "tis/tis_tables.h"
#include "are/are_tables.h"
#include "tw/tw_tables.h"
#include "wed/wed_tables.h"
#include "wwd/wwd_tables.h"
#include "wz4/wz4_tables.h"

#define LEVELSQL_VERSION "0.1.0"

static void version_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_text(ctx, LEVELSQL_VERSION, -1, SQLITE_STATIC);
}

/* levelsql_cache_limit([bytes]): the cache budget (bytes of parsed models
** kept between queries); with an argument, sets it and returns the old. */
static void cache_limit_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  ls_session *s = sqlite3_user_data(ctx);
  sqlite3_int64 limit = argc ? sqlite3_value_int64(argv[0]) : 0;
  if (argc && limit < 0) {
    sqlite3_result_error(ctx, "levelsql_cache_limit: the limit is a number of bytes, 0 or more", -1);
    return;
  }
  sqlite3_result_int64(ctx, (sqlite3_int64)ls_session_cache_limit(s, (size_t)limit, argc));
}

/* levelsql_threads([n]): how many threads parse files ahead of a scan
** (parse_ahead.h; default one per processor online, 0: parse on the
** connection's thread only, at most 64); with an argument, sets it and
** returns the old setting.  Results are the same either way. */
static void threads_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  ls_session *s = sqlite3_user_data(ctx);
  sqlite3_int64 n = argc ? sqlite3_value_int64(argv[0]) : 0;
  if (argc && (n < 0 || n > LS_MAX_THREADS || sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER)) {
    sqlite3_result_error(ctx, "levelsql_threads: the number of threads is an integer from 0 to 64", -1);
    return;
  }
  sqlite3_result_int(ctx, ls_session_threads(s, (int)n, argc));
}

/* levelsql_overwrite_readonly([0 or 1]): whether this connection's
** commits replace a read-only level file (no write bit; or, for a user
** other than root, one it may not write) instead of refusing it; with an
** argument, sets it and returns the old setting. */
static void overwrite_readonly_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  ls_session *s = sqlite3_user_data(ctx);
  int old = s->overwrite_readonly;
  if (argc) s->overwrite_readonly = sqlite3_value_int(argv[0]) != 0;
  sqlite3_result_int(ctx, old);
}

/* levelsql_cache_stats(): JSON with the files parsed (cache misses), cache
** parsed ahead on the pool's threads and their number, hits, files written back, the bytes and budget of the cache, the sources
** listed by scans, the files looked up on disk (a join lists and checks
** each source once per statement, not once per outer row), and each
** cached file with its size and the bytes of its model
** (ls_session_stats_json). */
static void cache_stats_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  char *json = ls_session_stats_json(sqlite3_user_data(ctx));
  (void)argc;
  (void)argv;
  if (!json) sqlite3_result_error_nomem(ctx);
  else sqlite3_result_text(ctx, json, -1, sqlite3_free);
}

static void session_destroy(void *p) {
  ls_session_release(p);
}

#ifdef _WIN32
__declspec(dllexport)
#endif
int sqlite3_levelsql_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  static const ls_family *const families[] = {&wwd_family, &tw_family,  &wed_family, &wz4_family,
                                              &tis_family, &pvrz_family, &are_family};
  /* what levelsql_atlas shows of each family's files (engine/atlas.h) */
  static const ls_atlas_kind *const atlas_kinds[] = {&wwd_atlas, &tw_atlas, &wed_atlas, &wz4_atlas, &are_atlas};
  ls_session *sess;
  char *table_err = NULL;
  size_t f;
  int rc;
  SQLITE_EXTENSION_INIT2(api);
  sess = ls_session_new(db);
  if (!sess) return SQLITE_NOMEM;
  rc = ls_register_engine_functions(db);
  if (rc == SQLITE_OK) rc = files_table_register(db, sess);
  for (f = 0; rc == SQLITE_OK && f < sizeof families / sizeof families[0]; f++) {
    rc = ls_register_family(db, sess, families[f], &table_err);
    if (rc == SQLITE_OK && families[f]->register_functions) rc = families[f]->register_functions(db, sess);
  }
  if (rc == SQLITE_OK) rc = copy_function_register(db, sess);
  if (rc == SQLITE_OK) rc = ls_atlas_register(db, sess, atlas_kinds, sizeof atlas_kinds / sizeof atlas_kinds[0]);
  if (rc == SQLITE_OK) rc = columns_table_register(db, sess);
  if (rc == SQLITE_OK) rc = ls_limit_register(db, sess);
  if (rc == SQLITE_OK) rc = ls_find_register(db, sess);
  if (rc == SQLITE_OK) {
    rc = sqlite3_create_function(db, "levelsql_version", 0, SQLITE_UTF8 | SQLITE_INNOCUOUS | SQLITE_DETERMINISTIC, NULL,
                                 version_func, NULL, NULL);
  }
  if (rc == SQLITE_OK) {
    sess->refs++;
    rc = sqlite3_create_function_v2(db, "levelsql_cache_limit", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess,
                                    cache_limit_func, NULL, NULL, session_destroy);
  }
  if (rc == SQLITE_OK) {
    sess->refs++;
    rc = sqlite3_create_function_v2(db, "levelsql_cache_stats", 0, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess,
                                    cache_stats_func, NULL, NULL, session_destroy);
  }
  if (rc == SQLITE_OK) {
    sess->refs++;
    rc = sqlite3_create_function_v2(db, "levelsql_overwrite_readonly", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess,
                                    overwrite_readonly_func, NULL, NULL, session_destroy);
  }
  if (rc == SQLITE_OK) {
    sess->refs++;
    rc = sqlite3_create_function_v2(db, "levelsql_threads", -1, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess, threads_func,
                                    NULL, NULL, session_destroy);
  }
  ls_session_release(sess); /* the modules and functions hold their own references */
  if (rc != SQLITE_OK && err) {
    *err = table_err ? sqlite3_mprintf("levelsql: cannot register %s", table_err)
                     : sqlite3_mprintf("levelsql: cannot register: %s", sqlite3_errstr(rc));
  }
  sqlite3_free(table_err);
  return rc;
}
