/*
** are_functions.c: SQL helpers for the flag words of ARE files, so nobody
** has to remember their bits (IESDP's meanings for BG2 and the Enhanced
** Editions, names in codecs/are/are_names.c), both ways:
**
**   are_flag_names('door', 131)              -> 'open|locked|hidden'
**   are_flag_value('door', 'open|hidden')    -> 129
**
** The first argument names the flag set: 'area', 'area_type', 'edge',
** 'actor', 'region', 'spawn_method', 'container', 'item', 'ambient',
** 'variable_type', 'door', 'animation', 'tiled_object'.  A bit without a
** name reads as "bitN", and "bitN" is taken for any bit.
*/
#include "are/are.h"
#include "engine/engine.h"
#include "are/are_tables.h"

/* Fails the call with "<fn>: <codec message>". */
static void fail_with(sqlite3_context *ctx, const char *fn, const codec_error *cerr) {
  char *msg = sqlite3_mprintf("%s: %s", fn, cerr->msg);
  if (msg) sqlite3_result_error(ctx, msg, -1);
  else sqlite3_result_error_nomem(ctx);
  sqlite3_free(msg);
}

/* The flag set the first argument names: 1, or 0 after failing the call. */
static int flagset_arg(sqlite3_context *ctx, const char *fn, sqlite3_value *arg, enum are_flagset *set) {
  codec_error cerr;
  cerr.msg[0] = 0;
  if (are_flagset_find((const char *)sqlite3_value_text(arg), set, &cerr)) return 1;
  fail_with(ctx, fn, &cerr);
  return 0;
}

/* are_flag_names(set, flags): 'open|locked' for door flags 3; '' for 0,
** NULL for NULL.  The flags are a 32-bit word. */
static void flag_names_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  char buf[ARE_FLAG_NAMES_MAX];
  enum are_flagset set;
  sqlite3_int64 v;
  (void)argc;
  if (!flagset_arg(ctx, "are_flag_names", argv[0], &set) || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  v = sqlite3_value_int64(argv[1]);
  if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER || v < 0 || v > 0xFFFFFFFFLL) {
    sqlite3_result_error(ctx, "are_flag_names: flags is a flag word, an integer from 0 to 4294967295", -1);
    return;
  }
  are_flag_names(set, (uint32_t)v, buf, sizeof buf);
  sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

/* are_flag_value(set, names): the reverse ('open|hidden' -> 129); an
** integer is returned as it is. */
static void flag_value_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  enum are_flagset set;
  codec_error cerr;
  uint32_t flags = 0;
  const char *text;
  (void)argc;
  if (!flagset_arg(ctx, "are_flag_value", argv[0], &set) || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
    sqlite3_int64 v = sqlite3_value_int64(argv[1]);
    if (v < 0 || v > 0xFFFFFFFFLL) sqlite3_result_error(ctx, "are_flag_value: flags is a 32-bit word, 0 to 4294967295", -1);
    else sqlite3_result_int64(ctx, v);
    return;
  }
  if (!(text = (const char *)sqlite3_value_text(argv[1]))) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  cerr.msg[0] = 0;
  if (!are_flag_parse(set, text, &flags, &cerr)) fail_with(ctx, "are_flag_value", &cerr);
  else sqlite3_result_int64(ctx, flags);
}

int are_register_functions(sqlite3 *db, ls_session *sess) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "are_flag_names", 2, flags, NULL, flag_names_func, NULL, NULL);
  (void)sess;
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "are_flag_value", 2, flags, NULL, flag_value_func, NULL, NULL);
  return rc;
}
