/*
** wed_functions.c: SQL helpers for the WED polygon flag byte, so nobody has
** to remember its bits (names after Near Infinity / GemRB, codecs/wed.h):
**
**   wed_flag_names(141)                -> 'shade_wall|hovering|cover_animations|door'
**   wed_flag_value('shade_wall|door')  -> 129
*/
#include "../codecs/wed.h"
#include "engine.h"
#include "wed_tables.h"

/* wed_flag_names(flags): 'shade_wall|hovering|cover_animations|door' for
** 0x8D; '' for 0, NULL for NULL.  The flags are one byte. */
static void flag_names_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  char buf[WED_FLAG_NAMES_MAX];
  sqlite3_int64 v;
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  v = sqlite3_value_int64(argv[0]);
  if (sqlite3_value_numeric_type(argv[0]) != SQLITE_INTEGER || v < 0 || v > 255) {
    sqlite3_result_error(ctx, "wed_flag_names: flags is a polygon flag byte, an integer from 0 to 255", -1);
    return;
  }
  wed_flag_names((unsigned)v, buf, sizeof buf);
  sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

/* wed_flag_value(names): the reverse ('shade_wall|door' -> 129); an
** integer 0..255 is returned as it is. */
static void flag_value_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *text;
  unsigned flags = 0;
  codec_error cerr;
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  if (sqlite3_value_type(argv[0]) == SQLITE_INTEGER) {
    sqlite3_int64 v = sqlite3_value_int64(argv[0]);
    if (v < 0 || v > 255) sqlite3_result_error(ctx, "wed_flag_value: flags is a byte, 0 to 255", -1);
    else sqlite3_result_int64(ctx, v);
    return;
  }
  text = (const char *)sqlite3_value_text(argv[0]);
  if (!text) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  cerr.msg[0] = 0;
  if (!wed_flag_parse(text, &flags, &cerr)) {
    char *msg = sqlite3_mprintf("wed_flag_value: %s", cerr.msg);
    if (msg) sqlite3_result_error(ctx, msg, -1);
    else sqlite3_result_error_nomem(ctx);
    sqlite3_free(msg);
    return;
  }
  sqlite3_result_int64(ctx, flags);
}

int wed_functions_register(sqlite3 *db) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "wed_flag_names", 1, flags, NULL, flag_names_func, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "wed_flag_value", 1, flags, NULL, flag_value_func, NULL, NULL);
  return rc;
}
