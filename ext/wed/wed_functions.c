/*
** wed_functions.c: SQL helpers for the WED polygon flag byte, so nobody has
** to remember its bits (names after Near Infinity / GemRB, codecs/wed/wed.h),
** and for the area a polygon encloses:
**
**   wed_flag_names(141)                -> 'shade_wall|hovering|cover_animations|door'
**   wed_flag_value('shade_wall|door')  -> 129
**   wed_polygon_area('[[0,0],[10,0],[10,10]]') -> 50.0
*/
#include <stdio.h>
#include <stdlib.h>

#include "common/json.h"
#include "wed/wed.h"
#include "engine/engine.h"
#include "wed/wed_tables.h"

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

/* Fails the call with "wed_polygon_area: <what>; it takes ...". */
static void area_error(sqlite3_context *ctx, const char *what) {
  char *msg = sqlite3_mprintf("wed_polygon_area: %s; it takes a JSON array of [x,y] pairs of integers from 0 to 65535 "
                              "(wed_polygons.vertices), e.g. '[[0,0],[10,0],[10,10]]'", what);
  if (msg) sqlite3_result_error(ctx, msg, -1);
  else sqlite3_result_error_nomem(ctx);
  sqlite3_free(msg);
}

/* wed_polygon_area(vertices): the area the polygon encloses, in square
** pixels, as a REAL: the shoelace formula over the [x,y] pairs (the last
** point joined to the first), absolute, so the direction of the points
** does not matter; 0.0 for fewer than 3 points; NULL for NULL.  Parsed
** and summed in C (codecs/common/json.h, wed_shoelace2): no JSON function runs
** per vertex. */
static void polygon_area_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const char *text;
  json_node *root = NULL;
  const json_node *e;
  wed_point *pts;
  codec_error cerr;
  size_t n = 0;
  int64_t twice;
  int rc;
  (void)argc;
  if (sqlite3_value_type(argv[0]) == SQLITE_NULL) return;
  text = (const char *)sqlite3_value_text(argv[0]);
  if (!text) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  cerr.msg[0] = 0;
  rc = json_parse(text, (size_t)sqlite3_value_bytes(argv[0]), &root, &cerr);
  if (rc <= 0) {
    if (rc < 0) sqlite3_result_error_nomem(ctx);
    else area_error(ctx, "not valid JSON");
    return;
  }
  if (root->type != JSON_ARRAY) {
    json_free(root);
    area_error(ctx, "not a JSON array");
    return;
  }
  pts = malloc((root->count ? root->count : 1) * sizeof *pts);
  if (!pts) {
    json_free(root);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  for (e = root->child; e; e = e->next, n++) {
    const json_node *x = e->type == JSON_ARRAY && e->count == 2 ? e->child : NULL, *y = x ? x->next : NULL;
    if (!x || x->type != JSON_INT || y->type != JSON_INT || x->i < 0 || x->i > 65535 || y->i < 0 || y->i > 65535) {
      char what[80];
      snprintf(what, sizeof what, "element %zu is not such a pair", n);
      free(pts);
      json_free(root);
      area_error(ctx, what);
      return;
    }
    pts[n].x = (uint16_t)x->i;
    pts[n].y = (uint16_t)y->i;
  }
  twice = wed_shoelace2(pts, n);
  free(pts);
  json_free(root);
  sqlite3_result_double(ctx, (double)(twice < 0 ? -twice : twice) / 2.0);
}

int wed_functions_register(sqlite3 *db) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "wed_flag_names", 1, flags, NULL, flag_names_func, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "wed_flag_value", 1, flags, NULL, flag_value_func, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "wed_polygon_area", 1, flags, NULL, polygon_area_func, NULL, NULL);
  return rc;
}
