/*
** wed_tables.c: the Infinity Engine WED V1.3 table family (wed_overlays,
** wed_doors, wed_polygons, wed_tiles, wed_wallgroups), declared for the
** generic engine over the codec in codecs/wed.h (its SQL helpers are in
** wed_functions.c).  Everything here is column lists plus row
** iterators; the engine does planning, caching and the write-back.
**
** Design notes:
** - The engine's model is a small wrapper (wed_model) around the codec's
**   wed_area, because wed_polygons needs one piece of per-row state the
**   codec has no place for: an explicitly set bounding box (below).
** - Row keys: overlays, doors, wall groups and tile cells never move (no
**   INSERT/DELETE changes their number), so their key is their position.
**   Polygons move when a wall is inserted or deleted, so their key is the
**   codec's polygon uid (stable for the model's lifetime, see wed.h).
** - Bounding box vs. vertices (wed_polygons): the public column order puts
**   min_x..max_y before vertices, and the engine runs setters in column
**   order.  Setting vertices recomputes the box (wed_polygon_set_vertices);
**   an explicit box must win when both are set in one UPDATE.  So the four
**   box setters only validate and remember their values in the wrapper
**   (with the polygon's uid), and the table's check hook, which runs after
**   every setter of the row, applies the remembered fields over the box as
**   it is then (recomputed or not) with one wed_polygon_set_bbox, and forgets
**   them.  `SET vertices = ...` alone recomputes the box, `SET min_x = ...`
**   alone sets that field, both together leave the explicit field.  A
**   remembered box never outlives its row: it is tied to a uid, dropped when
**   another polygon's box is set, by every INSERT, and by clone (a failed
**   statement is rolled back by the engine to a clone).
** - JSON input (vertices, cells, tis_tiles) is read by a small strict parser
**   of arrays of integers / [x,y] pairs (parse_json_list), so every bad input
**   gets a message naming the column, the element and the limit; output is
**   JSON text with SQLite's JSON subtype, ready for json_each.
*/
#include <stdlib.h>
#include <string.h>

#include "../codecs/wed.h"
#include "engine.h"
#include "wed_tables.h"

/* ---- the format ------------------------------------------------------------ */

/* The engine's model: the codec's area plus the explicit bounding box of the
** polygon row being written (see the design notes). */
typedef struct wed_model {
  wed_area *area;
  uint32_t box_uid;  /* polygon the remembered fields belong to */
  unsigned box_set;  /* bit i: box[i] was given (0 min_x, 1 max_x, 2 min_y, 3 max_y) */
  unsigned box_auto; /* bit i: given as NULL, i.e. computed from the vertices */
  uint16_t box[4];
} wed_model;

#define AREA(row) (((wed_model *)(row)->model)->area)
#define CAREA(model) (((const wed_model *)(model))->area)

static const char *const wed_extensions[] = {".wed", NULL};

/* Parses a file into a fresh wrapper (no remembered box). */
static void *wed_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  wed_area *a = NULL;
  wed_model *m;
  if (!wed_parse(data, size, &a, err)) return NULL;
  m = calloc(1, sizeof *m);
  if (!m) {
    wed_free(a);
    codec_fail(err, "out of memory");
    return NULL;
  }
  m->area = a;
  return m;
}

/* Serializes the wrapped area (the codec checks it first). */
static int wed_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  return wed_serialize(CAREA(model), out, size, err);
}

/* Deep copy for the transaction and its savepoints; the remembered box is
** per-row scratch state and is not copied. */
static void *wed_format_clone(const void *model) {
  wed_model *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  if (!(m->area = wed_clone(CAREA(model)))) {
    free(m);
    return NULL;
  }
  return m;
}

/* Frees the wrapper and its area. */
static void wed_format_free(void *model) {
  wed_model *m = model;
  if (!m) return;
  wed_free(m->area);
  free(m);
}

/* Memory held by an area: its tables plus the copy of the original bytes
** the codec keeps for byte-identical in-place writes. */
static size_t wed_format_footprint(const void *model) {
  const wed_area *a = CAREA(model);
  size_t bytes = sizeof(wed_model) + sizeof *a + a->orig_size;
  uint32_t i;
  for (i = 0; i < a->num_overlays; i++) {
    bytes += sizeof(wed_overlay) + (size_t)a->overlays[i].num_cells * sizeof(wed_tilecell) +
             (size_t)a->overlays[i].num_lookup * 2;
  }
  bytes += (size_t)a->num_doors * sizeof(wed_door) + (size_t)a->num_door_cells * 2;
  bytes += (size_t)a->num_polygons * sizeof(wed_polygon) + (size_t)a->num_vertices * sizeof(wed_point);
  bytes += (size_t)a->num_wallgroups * sizeof(wed_wallgroup) + (size_t)a->num_poly_lookup * 2;
  return bytes;
}

const ls_format wed_format = {
  "wed", wed_extensions, wed_sniff, wed_format_parse, wed_format_serialize,
  wed_format_clone, wed_format_free, wed_format_footprint,
  NULL, /* validate: the getters read the parsed model as it is; only memory can run out */
};

/* ---- shared helpers --------------------------------------------------------- */

/* Turns a codec error into the setter's message, prefixed with the column;
** out-of-memory keeps its own result code. */
static int codec_result(const codec_error *cerr, const ls_column *col, char **err) {
  if (strstr(cerr->msg, "out of memory")) return SQLITE_NOMEM;
  *err = sqlite3_mprintf("column %s: %s", col->name, cerr->msg[0] ? cerr->msg : "the edit failed");
  return SQLITE_CONSTRAINT;
}

/* Hands a built JSON text to SQLite as the column's result, with the JSON
** subtype so json functions take it as JSON; frees the builder. */
static void result_json(sqlite3_context *ctx, sqlite3_str *s) {
  int failed = sqlite3_str_errcode(s) != SQLITE_OK;
  int n = sqlite3_str_length(s);
  char *text = sqlite3_str_finish(s);
  if (failed || !text) {
    sqlite3_free(text);
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, text, n, sqlite3_free);
  sqlite3_result_subtype(ctx, 'J');
}

/* A JSON array of unsigned 16-bit numbers: "[1,2,3]". */
static void result_u16_array(sqlite3_context *ctx, const uint16_t *v, uint32_t n) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  uint32_t i;
  sqlite3_str_appendchar(s, 1, '[');
  for (i = 0; i < n; i++) sqlite3_str_appendf(s, i ? ",%u" : "%u", (unsigned)v[i]);
  sqlite3_str_appendchar(s, 1, ']');
  result_json(ctx, s);
}

/* A JSON array of consecutive indices first .. first+n-1 ("[]" for none). */
static void result_index_run(sqlite3_context *ctx, uint32_t first, uint32_t n) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  uint32_t i;
  sqlite3_str_appendchar(s, 1, '[');
  for (i = 0; i < n; i++) sqlite3_str_appendf(s, i ? ",%u" : "%u", (unsigned)(first + i));
  sqlite3_str_appendchar(s, 1, ']');
  result_json(ctx, s);
}

/* Sets an 8-byte resref / door name field from text (at most 8 bytes in
** the options' code page, no NUL); an unchanged value leaves the field's
** bytes exactly as they were. */
static int set_resref(unsigned char field[8], const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *bytes = NULL;
  size_t n = 0;
  int rc = ls_value_text8(v, col, row->opts, 8, &bytes, &n, err);
  if (rc != SQLITE_OK) return rc;
  if (!wed_resref_set(field, (const char *)bytes, n)) {
    *err = sqlite3_mprintf("column %s: the text contains a NUL character; it takes up to 8 bytes without NUL", col->name);
    rc = SQLITE_CONSTRAINT;
  }
  free(bytes);
  return rc;
}

/* Reads an 8-byte resref / door name field as text (up to the first NUL). */
static void result_resref(sqlite3_context *ctx, const ls_row *row, const unsigned char field[8]) {
  ls_result_text8(ctx, row->opts, field, wed_resref_len(field));
}

/* An 8-byte name as printable ASCII for error messages (other bytes as
** '?': messages have no code page to decode with); out holds 9 bytes. */
static void name_for_message(const unsigned char field[8], char out[9]) {
  size_t i, n = wed_resref_len(field);
  for (i = 0; i < n; i++) out[i] = field[i] >= 0x20 && field[i] < 0x7f ? (char)field[i] : '?';
  out[n] = 0;
}

/* ---- JSON input --------------------------------------------------------------- */

/* Skips JSON white space. */
static const char *json_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

/* Reads a JSON number at *pp that is meant to be an integer.  Returns 0 when
** there is no number; else 1, advancing *pp, with *integral = 0 for a
** fraction or an exponent (12.0 counts as 12).  Magnitudes beyond 1e15
** saturate: they are out of every range the tables take. */
static int json_int(const char **pp, int64_t *out, int *integral) {
  const char *p = *pp;
  int neg = 0;
  int64_t v = 0;
  *integral = 1;
  if (*p == '-') {
    neg = 1;
    p++;
  }
  if (*p < '0' || *p > '9') return 0;
  while (*p >= '0' && *p <= '9') {
    if (v < 1000000000000000LL) v = v * 10 + (*p - '0');
    p++;
  }
  if (*p == '.') {
    p++;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') {
      if (*p != '0') *integral = 0;
      p++;
    }
  }
  if (*p == 'e' || *p == 'E') {
    p++;
    if (*p == '+' || *p == '-') p++;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') p++;
    *integral = 0;
  }
  *out = neg ? -v : v;
  *pp = p;
  return 1;
}

/* Parses the value of a JSON-taking column: a JSON array of integers
** (pairs == 0) or of [x, y] arrays of two integers (pairs == 1), every
** number within [lo, hi].  `takes` describes the accepted input and its
** limit for the messages.  On success *out holds the numbers (2 per pair,
** malloc'd, NULL for an empty array) and *n the number of elements. */
static int parse_json_list(sqlite3_value *v, const ls_column *col, int pairs, int64_t lo, int64_t hi,
                           const char *takes, uint16_t **out, size_t *n, char **err) {
  const char *text, *p;
  uint16_t *vals = NULL;
  size_t count = 0, cap = 0, per = pairs ? 2 : 1;
  *out = NULL;
  *n = 0;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    int t = sqlite3_value_type(v);
    *err = sqlite3_mprintf("column %s: %s is not JSON text; it takes %s", col->name,
                           t == SQLITE_NULL ? "NULL" : t == SQLITE_BLOB ? "a blob" : "a number", takes);
    return SQLITE_CONSTRAINT;
  }
  text = (const char *)sqlite3_value_text(v);
  if (!text) return SQLITE_NOMEM;
  p = json_ws(text);
  if (*p != '[') goto syntax;
  p = json_ws(p + 1);
  if (*p == ']') {
    p = json_ws(p + 1);
    if (*p) goto syntax;
    return SQLITE_OK;
  }
  for (;;) {
    int64_t x[2];
    int integral, k;
    if (count == cap) {
      size_t ncap = cap ? cap * 2 : 16;
      uint16_t *grown = realloc(vals, ncap * per * sizeof *vals);
      if (!grown) {
        free(vals);
        return SQLITE_NOMEM;
      }
      vals = grown;
      cap = ncap;
    }
    if (pairs) {
      if (*p != '[') goto not_element;
      p = json_ws(p + 1);
    }
    for (k = 0; k < (int)per; k++) {
      if (k) {
        p = json_ws(p);
        if (*p != ',') goto not_element;
        p = json_ws(p + 1);
      }
      if (!json_int(&p, &x[k], &integral) || !integral) goto not_element;
      if (x[k] < lo || x[k] > hi) {
        *err = sqlite3_mprintf("column %s: element %llu: %lld is out of range; it takes %s", col->name, (unsigned long long)count,
                               (long long)x[k], takes);
        free(vals);
        return SQLITE_CONSTRAINT;
      }
      vals[count * per + (size_t)k] = (uint16_t)x[k];
    }
    if (pairs) {
      p = json_ws(p);
      if (*p != ']') goto not_element;
      p++;
    }
    count++;
    p = json_ws(p);
    if (*p == ',') {
      p = json_ws(p + 1);
      continue;
    }
    if (*p != ']') goto syntax;
    p = json_ws(p + 1);
    if (*p) goto syntax;
    break;
  }
  *out = vals;
  *n = count;
  return SQLITE_OK;
not_element:
  free(vals);
  *err = sqlite3_mprintf("column %s: element %llu is not %s; it takes %s", col->name, (unsigned long long)count,
                         pairs ? "an [x,y] pair of integers" : "an integer", takes);
  return SQLITE_CONSTRAINT;
syntax:
  free(vals);
  *err = sqlite3_mprintf("column %s: not a JSON array (at character %d); it takes %s", col->name,
                         (int)(p - text) + 1, takes);
  return SQLITE_CONSTRAINT;
}

/* ---- wed_overlays -------------------------------------------------------------- */

#define OVERLAY(row) (&AREA(row)->overlays[(row)->pos.a])

/* Overlays in record order, limited by the range on `overlay`. */
static int overlay_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(CAREA(model)->num_overlays, scan, pos, first);
}

/* The overlay whose number is the key (overlays never move). */
static int overlay_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek(CAREA(model)->num_overlays, key, pos);
}

/* The numeric fields of an overlay; col->arg picks one. */
enum { OV_WIDTH, OV_HEIGHT, OV_UNIQUE_TILES, OV_MOVEMENT_TYPE, OV_NUM_CELLS, OV_NUM_LOOKUP };

/* width, height, unique_tiles, movement_type, num_cells, num_lookup. */
static void get_overlay_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_overlay *o = OVERLAY(row);
  int64_t v = 0;
  switch (col->arg) {
    case OV_WIDTH: v = o->width; break;
    case OV_HEIGHT: v = o->height; break;
    case OV_UNIQUE_TILES: v = o->unique_tiles; break;
    case OV_MOVEMENT_TYPE: v = o->movement_type; break;
    case OV_NUM_CELLS: v = o->num_cells; break;
    default: v = o->num_lookup; break;
  }
  sqlite3_result_int64(ctx, v);
}

/* unique_tiles and movement_type: 16-bit fields that size nothing. */
static int set_overlay_int(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = ls_value_int(v, col, 0, 65535, &x, err);
  if (rc != SQLITE_OK) return rc;
  if (col->arg == OV_UNIQUE_TILES) OVERLAY(row)->unique_tiles = (uint16_t)x;
  else OVERLAY(row)->movement_type = (uint16_t)x;
  return SQLITE_OK;
}

/* The TIS resref as text. */
static void get_overlay_tileset(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  result_resref(ctx, row, OVERLAY(row)->tileset);
}

/* A new TIS resref (8 bytes at most); the same text changes no byte. */
static int set_overlay_tileset(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  return set_resref(OVERLAY(row)->tileset, row, v, col, err);
}

static const ls_column overlay_columns[] = {
  {"overlay", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(5), "overlay number; 0 is the base layer, whose size is the area's"},
  {"width", "INTEGER", get_overlay_int, NULL, OV_WIDTH, 0, 0, "width in 64x64-pixel tiles (0 for an unused overlay)"},
  {"height", "INTEGER", get_overlay_int, NULL, OV_HEIGHT, 0, 0, "height in tiles"},
  {"tileset", "TEXT", get_overlay_tileset, set_overlay_tileset, 0, 0, 0, "TIS resource name (8 bytes at most)"},
  {"unique_tiles", "INTEGER", get_overlay_int, set_overlay_int, OV_UNIQUE_TILES, 0, 0, "unique tile count (0..65535; ignored by GemRB)"},
  {"movement_type", "INTEGER", get_overlay_int, set_overlay_int, OV_MOVEMENT_TYPE, 0, 0, "movement type (0..65535; EE: 0 default, 1 disable rendering, 2 alternate rendering)"},
  {"num_cells", "INTEGER", get_overlay_int, NULL, OV_NUM_CELLS, 0, 0, "tilemap cells: width*height (rows of wed_tiles)"},
  {"num_lookup", "INTEGER", get_overlay_int, NULL, OV_NUM_LOOKUP, 0, 0, "entries of the overlay's tile lookup table"},
};

/* Names an overlay row in error messages. */
static char *describe_overlay(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("overlay %lld", (long long)pos->a);
}

static const ls_table wed_overlays = {
  "wed_overlays", &wed_format, "one row per overlay record of each WED file (5 in real files, unused ones 0x0)",
  overlay_columns, (int)(sizeof overlay_columns / sizeof overlay_columns[0]),
  overlay_next, ls_key_pos_a, overlay_seek, NULL, NULL, NULL, 0, describe_overlay, NULL,
  5, /* rows_per_file, the corpus average */
};

/* ---- wed_doors ------------------------------------------------------------------ */

#define DOOR(row) (&AREA(row)->doors[(row)->pos.a])

/* Doors in record order, limited by the range on `door`. */
static int door_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(CAREA(model)->num_doors, scan, pos, first);
}

/* The door whose number is the key (doors never move). */
static int door_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek(CAREA(model)->num_doors, key, pos);
}

/* The door name as text. */
static void get_door_name(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  result_resref(ctx, row, DOOR(row)->name);
}

/* A new door name (8 bytes at most); the same text changes no byte. */
static int set_door_name(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  return set_resref(DOOR(row)->name, row, v, col, err);
}

/* The door's numeric fields; col->arg picks one. */
enum { DR_CLOSED, DR_FIRST_CELL, DR_CELL_COUNT, DR_OPEN_COUNT, DR_CLOSED_COUNT };

/* closed, first_cell, cell_count, open_count, closed_count. */
static void get_door_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_door *d = DOOR(row);
  int64_t v;
  switch (col->arg) {
    case DR_CLOSED: v = d->closed; break;
    case DR_FIRST_CELL: v = d->first_cell; break;
    case DR_CELL_COUNT: v = d->cell_count; break;
    case DR_OPEN_COUNT: v = d->open_count; break;
    default: v = d->closed_count; break;
  }
  sqlite3_result_int64(ctx, v);
}

/* The base state word: 16 bits that size nothing. */
static int set_door_closed(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = ls_value_int(v, col, 0, 65535, &x, err);
  if (rc == SQLITE_OK) DOOR(row)->closed = (uint16_t)x;
  return rc;
}

/* The door's run of the door cell table as a JSON array. */
static void get_door_cells(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const uint16_t *cells;
  uint32_t n = wed_door_cells(AREA(row), (uint32_t)row->pos.a, &cells);
  (void)col;
  result_u16_array(ctx, cells, n);
}

/* Replaces the door's cells: a JSON array of base-overlay cell indices. */
static int set_door_cells(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wed_area *a = AREA(row);
  const wed_overlay *base = a->num_overlays ? &a->overlays[0] : NULL;
  uint32_t ncells = base ? base->num_cells : 0;
  uint16_t *cells = NULL;
  size_t n = 0;
  codec_error cerr;
  char *takes;
  int rc;
  if (ncells == 0) {
    *err = sqlite3_mprintf("column %s: the area has no base overlay cells, so a door can have none", col->name);
    return SQLITE_CONSTRAINT;
  }
  takes = sqlite3_mprintf("a JSON array of base-overlay cell indices from 0 to %u (the %ux%u base overlay), e.g. '[%u,%u]'",
                          ncells - 1, (unsigned)base->width, (unsigned)base->height, 0u, ncells > 1 ? 1u : 0u);
  if (!takes) return SQLITE_NOMEM;
  rc = parse_json_list(v, col, 0, 0, (int64_t)ncells - 1, takes, &cells, &n, err);
  sqlite3_free(takes);
  if (rc != SQLITE_OK) return rc;
  cerr.msg[0] = 0;
  if (!wed_door_set_cells(a, (uint32_t)row->pos.a, cells, n, &cerr)) rc = codec_result(&cerr, col, err);
  free(cells);
  return rc;
}

/* open_polygons / closed_polygons: the state's polygon indices as a JSON
** array (col->arg: 0 open, 1 closed). */
static void get_door_polygons(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_door *d = DOOR(row);
  if (col->arg == 0) result_index_run(ctx, d->open_first, d->open_count);
  else result_index_run(ctx, d->closed_first, d->closed_count);
}

static const ls_column door_columns[] = {
  {"door", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(3), "door number, 0-based"},
  {"name", "TEXT", get_door_name, set_door_name, 0, 0, 0, "door name, matched with the ARE file's door (8 bytes at most)"},
  {"closed", "INTEGER", get_door_int, set_door_closed, DR_CLOSED, 0, 0, "base state: non-zero is closed (1 in all real files); 0..65535"},
  {"first_cell", "INTEGER", get_door_int, NULL, DR_FIRST_CELL, 0, 0, "first entry in the door cell table"},
  {"cell_count", "INTEGER", get_door_int, NULL, DR_CELL_COUNT, 0, 0, "number of door cells"},
  {"cells", "TEXT", get_door_cells, set_door_cells, 0, 0, 0, "JSON array of the base-overlay cells (y*width+x) the door blocks when closed; setting it rebuilds the door cell table when needed"},
  {"open_polygons", "TEXT", get_door_polygons, NULL, 0, 0, 0, "JSON array of the open state's polygons (wed_polygons.polygon)"},
  {"closed_polygons", "TEXT", get_door_polygons, NULL, 1, 0, 0, "JSON array of the closed state's polygons"},
  {"open_count", "INTEGER", get_door_int, NULL, DR_OPEN_COUNT, 0, 0, "number of open-state polygons"},
  {"closed_count", "INTEGER", get_door_int, NULL, DR_CLOSED_COUNT, 0, 0, "number of closed-state polygons"},
};

/* Names a door row in error messages: number and name. */
static char *describe_door(const void *model, const ls_pos *pos) {
  char name[9];
  name_for_message(CAREA(model)->doors[pos->a].name, name);
  return sqlite3_mprintf("door %lld '%s'", (long long)pos->a, name);
}

static const ls_table wed_doors = {
  "wed_doors", &wed_format, "one row per door of each WED file",
  door_columns, (int)(sizeof door_columns / sizeof door_columns[0]),
  door_next, ls_key_pos_a, door_seek, NULL, NULL, NULL, 0, describe_door, NULL,
  2, /* rows_per_file, the corpus average */
};

/* ---- wed_polygons ---------------------------------------------------------------- */

#define POLYGON(row) (&AREA(row)->polygons[(row)->pos.a])

/* Flags and height of an INSERTed wall whose values are not given: the
** usual wall (shade wall) and the height of 99.98% of real polygons. */
#define WED_NEW_WALL_FLAGS WED_PF_SHADE_WALL
#define WED_NEW_WALL_HEIGHT 0xFF

/* Polygons in array order (walls, then door polygons), limited by the
** range on `polygon`. */
static int polygon_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(CAREA(model)->num_polygons, scan, pos, first);
}

/* The uid: a polygon keeps it while walls before it come and go. */
static int64_t polygon_key(const void *model, const ls_pos *pos) {
  return CAREA(model)->polygons[pos->a].uid;
}

/* The polygon with that uid, wherever inserts and deletes moved it. */
static int polygon_seek(const void *model, int64_t key, ls_pos *pos) {
  uint32_t poly;
  if (key < 0 || key > UINT32_MAX || !wed_polygon_find(CAREA(model), (uint32_t)key, &poly)) return 0;
  pos->a = poly;
  pos->b = pos->c = 0;
  return 1;
}

/* kind, door and door_name (col->arg 0, 1, 2) from the codec's
** classification of the polygon's position. */
static void get_polygon_kind(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_area *a = AREA(row);
  long door = -1;
  enum wed_polygon_kind kind = wed_polygon_kind_of(a, (uint32_t)row->pos.a, &door);
  if (col->arg == 0) {
    sqlite3_result_text(ctx, wed_polygon_kind_name(kind), -1, SQLITE_STATIC);
  } else if (door >= 0) {
    if (col->arg == 1) sqlite3_result_int64(ctx, door);
    else result_resref(ctx, row, a->doors[door].name);
  }
}

/* The polygon's numeric fields; col->arg picks one (the four box fields
** are 0..3 in the order of wed_model.box). */
enum { PG_MIN_X, PG_MAX_X, PG_MIN_Y, PG_MAX_Y, PG_FLAGS, PG_HEIGHT, PG_VERTEX_COUNT, PG_FIRST_VERTEX };

/* The box fields, flags, height, vertex_count and first_vertex. */
static void get_polygon_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_polygon *p = POLYGON(row);
  int64_t v;
  switch (col->arg) {
    case PG_MIN_X: v = p->min_x; break;
    case PG_MAX_X: v = p->max_x; break;
    case PG_MIN_Y: v = p->min_y; break;
    case PG_MAX_Y: v = p->max_y; break;
    case PG_FLAGS: v = p->flags; break;
    case PG_HEIGHT: v = p->height; break;
    case PG_VERTEX_COUNT: v = p->vertex_count; break;
    default: v = p->first_vertex; break;
  }
  sqlite3_result_int64(ctx, v);
}

/* flags and height: bytes that size nothing, assigned directly. */
static int set_polygon_byte(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = ls_value_int(v, col, 0, 255, &x, err);
  if (rc != SQLITE_OK) return rc;
  if (col->arg == PG_FLAGS) POLYGON(row)->flags = (uint8_t)x;
  else POLYGON(row)->height = (uint8_t)x;
  return SQLITE_OK;
}

/* min_x, max_x, min_y, max_y: validated now, applied by polygon_check
** after the row's other setters (vertices) ran, so an explicit box wins
** over the one computed from new vertices.  NULL asks for the edge computed
** from the vertices (the way to repair a stale box: an UPDATE that sets a
** column to the value it holds changes nothing). */
static int set_polygon_box(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wed_model *m = row->model;
  uint32_t uid = POLYGON(row)->uid;
  int64_t x = 0;
  int rc = sqlite3_value_type(v) == SQLITE_NULL ? SQLITE_OK : ls_value_int(v, col, 0, 65535, &x, err);
  if (rc != SQLITE_OK) return rc;
  if (m->box_set && m->box_uid != uid) m->box_set = m->box_auto = 0;
  m->box_uid = uid;
  m->box_set |= 1u << col->arg;
  if (sqlite3_value_type(v) == SQLITE_NULL) m->box_auto |= 1u << col->arg;
  else m->box_auto &= ~(1u << col->arg);
  m->box[col->arg] = (uint16_t)x;
  return SQLITE_OK;
}

/* The vertices as a JSON array of [x,y] pairs (json_each gives one row per
** vertex; value ->> 0 is x, value ->> 1 is y). */
static void get_polygon_vertices(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_point *pts;
  uint32_t n = wed_polygon_vertices(AREA(row), (uint32_t)row->pos.a, &pts), i;
  sqlite3_str *s = sqlite3_str_new(NULL);
  (void)col;
  sqlite3_str_appendchar(s, 1, '[');
  for (i = 0; i < n; i++) sqlite3_str_appendf(s, i ? ",[%u,%u]" : "[%u,%u]", (unsigned)pts[i].x, (unsigned)pts[i].y);
  sqlite3_str_appendchar(s, 1, ']');
  result_json(ctx, s);
}

#define VERTICES_TAKE "a JSON array of [x,y] pairs of pixel coordinates from 0 to 65535, e.g. '[[10,20],[90,20],[50,80]]'"

/* Replaces the vertices; the codec recomputes the box from them and
** regenerates the wall groups. */
static int set_polygon_vertices(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  uint16_t *vals = NULL;
  wed_point *pts = NULL;
  size_t n = 0, i;
  codec_error cerr;
  int rc = parse_json_list(v, col, 1, 0, 65535, VERTICES_TAKE, &vals, &n, err);
  if (rc != SQLITE_OK) return rc;
  if (n) {
    pts = malloc(n * sizeof *pts);
    if (!pts) {
      free(vals);
      return SQLITE_NOMEM;
    }
    for (i = 0; i < n; i++) {
      pts[i].x = vals[2 * i];
      pts[i].y = vals[2 * i + 1];
    }
  }
  cerr.msg[0] = 0;
  if (!wed_polygon_set_vertices(AREA(row), (uint32_t)row->pos.a, pts, n, &cerr)) rc = codec_result(&cerr, col, err);
  free(pts);
  free(vals);
  return rc;
}

/* After the setters of an UPDATE or INSERT: applies the remembered
** explicit box fields over the polygon's box as it now is, checking that
** each axis given has min <= max, and forgets them. */
static int polygon_check(const ls_row *row, char **err) {
  wed_model *m = row->model;
  wed_polygon *p = POLYGON(row);
  static const char *const names[4] = {"min_x", "max_x", "min_y", "max_y"};
  uint16_t box[4], from_vertices[4];
  unsigned set = m->box_set, automatic = m->box_auto, axis;
  const wed_point *pts;
  uint32_t n;
  codec_error cerr;
  m->box_set = m->box_auto = 0;
  if (!set || m->box_uid != p->uid) return SQLITE_OK;
  box[0] = p->min_x;
  box[1] = p->max_x;
  box[2] = p->min_y;
  box[3] = p->max_y;
  n = wed_polygon_vertices(AREA(row), (uint32_t)row->pos.a, &pts);
  wed_bbox_of(pts, n, &from_vertices[0], &from_vertices[1], &from_vertices[2], &from_vertices[3]);
  for (axis = 0; axis < 4; axis++) {
    if (set & (1u << axis)) box[axis] = (automatic & (1u << axis)) ? from_vertices[axis] : m->box[axis];
  }
  for (axis = 0; axis < 4; axis += 2) {
    if ((set & (3u << axis)) && box[axis] > box[axis + 1]) {
      *err = sqlite3_mprintf("column %s: %u is greater than %s %u; a bounding box needs %s <= %s", names[axis],
                             (unsigned)box[axis], names[axis + 1], (unsigned)box[axis + 1], names[axis], names[axis + 1]);
      return SQLITE_CONSTRAINT;
    }
  }
  if (box[0] == p->min_x && box[1] == p->max_x && box[2] == p->min_y && box[3] == p->max_y) return SQLITE_OK;
  cerr.msg[0] = 0;
  if (!wed_polygon_set_bbox(AREA(row), (uint32_t)row->pos.a, box[0], box[1], box[2], box[3], &cerr)) {
    if (strstr(cerr.msg, "out of memory")) return SQLITE_NOMEM;
    *err = sqlite3_mprintf("bounding box: %s", cerr.msg);
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

/* Column numbers of wed_polygons that INSERT looks at. */
enum { PCOL_POLYGON, PCOL_KIND, PCOL_DOOR, PCOL_DOOR_NAME };

/* INSERT: a new wall polygon after the last wall (door polygons move up by
** one), with no vertices yet; the engine then sets the given columns.
** Door polygons cannot be inserted: they belong to a door's state. */
static int polygon_insert(void *model, sqlite3_value *const *values, ls_pos *pos, char **err) {
  wed_model *m = model;
  const char *kind = (const char *)sqlite3_value_text(values[PCOL_KIND]);
  uint32_t poly = 0;
  codec_error cerr;
  m->box_set = m->box_auto = 0;
  if ((kind && strcmp(kind, "wall") != 0) || sqlite3_value_type(values[PCOL_DOOR]) != SQLITE_NULL ||
      sqlite3_value_type(values[PCOL_DOOR_NAME]) != SQLITE_NULL) {
    *err = sqlite3_mprintf("INSERT adds wall polygons only (kind 'wall', door NULL); door polygons belong to their door's open or closed state");
    return SQLITE_CONSTRAINT;
  }
  cerr.msg[0] = 0;
  if (!wed_polygon_insert_wall(m->area, WED_NEW_WALL_FLAGS, WED_NEW_WALL_HEIGHT, NULL, 0, &poly, &cerr)) {
    if (strstr(cerr.msg, "out of memory")) return SQLITE_NOMEM;
    *err = sqlite3_mprintf("cannot insert a wall polygon: %s", cerr.msg);
    return SQLITE_CONSTRAINT;
  }
  pos->a = poly;
  pos->b = pos->c = 0;
  return SQLITE_OK;
}

/* DELETE of a wall polygon; the wall groups follow.  Door polygons are
** refused with what they are and how to empty one instead. */
static int polygon_remove(void *model, const ls_pos *pos, char **err) {
  wed_model *m = model;
  wed_area *a = m->area;
  uint32_t poly = (uint32_t)pos->a;
  codec_error cerr;
  m->box_set = m->box_auto = 0;
  if (poly >= a->num_walls) {
    long door = -1;
    enum wed_polygon_kind kind = wed_polygon_kind_of(a, poly, &door);
    if (door >= 0) {
      *err = sqlite3_mprintf("DELETE refused: %s polygons belong to their door's %s state and cannot be deleted (only kind 'wall' can); to blank one, UPDATE ... SET vertices = '[]'",
                             wed_polygon_kind_name(kind), kind == WED_POLY_DOOR_OPEN ? "open" : "closed");
    } else {
      *err = sqlite3_mprintf("DELETE refused: only kind 'wall' can be deleted (this record lies after the %u walls, in no door's range)",
                             a->num_walls);
    }
    return SQLITE_CONSTRAINT;
  }
  cerr.msg[0] = 0;
  if (!wed_polygon_delete_wall(a, poly, &cerr)) {
    if (strstr(cerr.msg, "out of memory")) return SQLITE_NOMEM;
    *err = sqlite3_mprintf("cannot delete: %s", cerr.msg);
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

#define PINT(name, which, setter, doc) {name, "INTEGER", get_polygon_int, setter, which, 0, 0, doc}

static const ls_column polygon_columns[] = {
  {"polygon", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(34), "index in the combined array: wall polygons first, then door polygons (shifts when walls are inserted or deleted)"},
  {"kind", "TEXT", get_polygon_kind, NULL, 0, 0, 0, "'wall', 'door_open', 'door_closed' (or 'orphan': after the walls but in no door's range)"},
  {"door", "INTEGER", get_polygon_kind, NULL, 1, 0, 0, "door number (wed_doors.door) for door polygons, else NULL"},
  {"door_name", "TEXT", get_polygon_kind, NULL, 2, 0, 0, "that door's name, else NULL"},
  PINT("flags", PG_FLAGS, set_polygon_byte, "flag byte: wed_flag_names(flags); 0x01 shade wall, 0x04 hovering, 0x08 cover animations, 0x80 door"),
  PINT("height", PG_HEIGHT, set_polygon_byte, "height byte (255 in almost every real polygon)"),
  PINT("min_x", PG_MIN_X, set_polygon_box, "bounding box left (stored; setting vertices recomputes the box, an explicit min_x..max_y in the same UPDATE wins; NULL: from the vertices)"),
  PINT("max_x", PG_MAX_X, set_polygon_box, "bounding box right"),
  PINT("min_y", PG_MIN_Y, set_polygon_box, "bounding box top"),
  PINT("max_y", PG_MAX_Y, set_polygon_box, "bounding box bottom (65535 in all four: no box)"),
  PINT("vertex_count", PG_VERTEX_COUNT, NULL, "number of vertices"),
  {"vertices", "TEXT", get_polygon_vertices, set_polygon_vertices, 0, 0, 0, "JSON array of [x,y] pixel pairs (json_each for one row per vertex); setting it recomputes the box and the wall groups"},
  PINT("first_vertex", PG_FIRST_VERTEX, NULL, "index of the first vertex in the file's vertex table"),
};

/* Names a polygon row in error messages: index, kind and door. */
static char *describe_polygon(const void *model, const ls_pos *pos) {
  const wed_area *a = CAREA(model);
  long door = -1;
  enum wed_polygon_kind kind = wed_polygon_kind_of(a, (uint32_t)pos->a, &door);
  char name[9];
  if (door < 0) return sqlite3_mprintf("%s polygon %lld", wed_polygon_kind_name(kind), (long long)pos->a);
  name_for_message(a->doors[door].name, name);
  return sqlite3_mprintf("%s polygon %lld of door %ld '%s'", wed_polygon_kind_name(kind), (long long)pos->a, door, name);
}

static const ls_table wed_polygons = {
  "wed_polygons", &wed_format,
  "one row per polygon (walls, then door polygons) of each WED file; INSERT adds a wall (flags 1, height 255 unless given), DELETE removes one; wall groups follow",
  polygon_columns, (int)(sizeof polygon_columns / sizeof polygon_columns[0]),
  polygon_next, polygon_key, polygon_seek, polygon_insert, polygon_remove, polygon_check, 0, describe_polygon, NULL,
  33, /* rows_per_file, the corpus average */
};

/* ---- wed_tiles ------------------------------------------------------------------- */

/* Column numbers of the pushed-down ranges. */
enum { TILE_COL_OVERLAY, TILE_COL_X, TILE_COL_Y };

/* The next cell (overlay a, row b, column c) inside the ranges, row by row,
** over the used overlays (width*height > 0); skips whole overlays and rows
** outside them. */
static int tile_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const wed_area *a = CAREA(model);
  int64_t o = first ? 0 : pos->a, y = first ? INT64_MIN : pos->b, x = first ? INT64_MIN : pos->c + 1;
  for (;;) {
    const wed_overlay *ov;
    if (!ls_range_first(&scan->range[TILE_COL_OVERLAY], o, a->num_overlays, &o)) return 0;
    ov = &a->overlays[o];
    if (ov->num_cells != 0 &&
        ls_grid_step(&scan->range[TILE_COL_X], &scan->range[TILE_COL_Y], ov->width, ov->height, &x, &y)) {
      pos->a = o;
      pos->b = y;
      pos->c = x;
      return 1;
    }
    o++;
    y = INT64_MIN;
    x = INT64_MIN;
  }
}

/* Key: the cell's number counting every cell of the overlays before it. */
static int64_t tile_key(const void *model, const ls_pos *pos) {
  const wed_area *a = CAREA(model);
  int64_t key = 0, i;
  for (i = 0; i < pos->a; i++) key += a->overlays[i].num_cells;
  return key + pos->b * (int64_t)a->overlays[pos->a].width + pos->c;
}

/* The inverse of tile_key. */
static int tile_seek(const void *model, int64_t key, ls_pos *pos) {
  const wed_area *a = CAREA(model);
  uint32_t i;
  for (i = 0; i < a->num_overlays && key >= 0; i++) {
    int64_t cells = a->overlays[i].num_cells;
    if (key < cells) {
      pos->a = i;
      pos->b = key / a->overlays[i].width;
      pos->c = key % a->overlays[i].width;
      return 1;
    }
    key -= cells;
  }
  return 0;
}

/* The row's cell number within its overlay. */
static uint32_t tile_index(const ls_row *row) {
  return (uint32_t)(row->pos.b * (int64_t)AREA(row)->overlays[row->pos.a].width + row->pos.c);
}

#define TILECELL(row) (&AREA(row)->overlays[(row)->pos.a].cells[tile_index(row)])

/* x, y and cell (col->arg 0, 1, 2). */
static void get_tile_place(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  sqlite3_result_int64(ctx, col->arg == 0 ? row->pos.c : col->arg == 1 ? row->pos.b : (int64_t)tile_index(row));
}

/* The record's numeric fields; col->arg picks one. */
enum { TC_TILE_START, TC_TILE_COUNT, TC_SECONDARY, TC_OVERLAY_MASK, TC_ANIM_SPEED, TC_UNKNOWN };

/* The tilemap record's fields; secondary_tile is NULL for 0xFFFF. */
static void get_tile_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_tilecell *c = TILECELL(row);
  switch (col->arg) {
    case TC_TILE_START: sqlite3_result_int64(ctx, c->tile_start); break;
    case TC_TILE_COUNT: sqlite3_result_int64(ctx, c->tile_count); break;
    case TC_SECONDARY:
      if (c->secondary_tile != WED_NO_TILE) sqlite3_result_int64(ctx, c->secondary_tile);
      break;
    case TC_OVERLAY_MASK: sqlite3_result_int64(ctx, c->overlay_mask); break;
    case TC_ANIM_SPEED: sqlite3_result_int64(ctx, c->anim_speed); break;
    default: sqlite3_result_int64(ctx, c->unknown); break;
  }
}

/* secondary_tile (NULL for none), overlay_mask, anim_speed, unknown. */
static int set_tile_int(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wed_tilecell *c = TILECELL(row);
  int64_t x;
  int rc;
  switch (col->arg) {
    case TC_SECONDARY:
      if (sqlite3_value_type(v) == SQLITE_NULL) {
        c->secondary_tile = WED_NO_TILE;
        return SQLITE_OK;
      }
      if (sqlite3_value_numeric_type(v) == SQLITE_INTEGER && sqlite3_value_int64(v) == WED_NO_TILE) {
        *err = sqlite3_mprintf("column %s: 65535 is the file's mark for no tile; set NULL for none, or a TIS tile from 0 to 65534", col->name);
        return SQLITE_CONSTRAINT;
      }
      rc = ls_value_int(v, col, 0, WED_NO_TILE - 1, &x, err);
      if (rc == SQLITE_OK) c->secondary_tile = (uint16_t)x;
      return rc;
    case TC_OVERLAY_MASK:
    case TC_ANIM_SPEED:
      rc = ls_value_int(v, col, 0, 255, &x, err);
      if (rc != SQLITE_OK) return rc;
      if (col->arg == TC_OVERLAY_MASK) c->overlay_mask = (uint8_t)x;
      else c->anim_speed = (uint8_t)x;
      return SQLITE_OK;
    default:
      rc = ls_value_int(v, col, 0, 65535, &x, err);
      if (rc == SQLITE_OK) c->unknown = (uint16_t)x;
      return rc;
  }
}

/* The TIS tiles of the cell (its run of the lookup table) as JSON. */
static void get_tile_tis(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const uint16_t *tiles;
  uint32_t n = wed_cell_tiles(AREA(row), (uint32_t)row->pos.a, tile_index(row), &tiles);
  (void)col;
  result_u16_array(ctx, tiles, n);
}

#define TIS_TAKE "a JSON array of 1 to 65535 TIS tile numbers from 0 to 65535 (several: an animation), e.g. '[12]'"

/* Replaces the cell's TIS tiles; the overlay's lookup table is rebuilt
** when the count changes or the run is shared. */
static int set_tile_tis(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  uint16_t *tiles = NULL;
  size_t n = 0;
  codec_error cerr;
  int rc = parse_json_list(v, col, 0, 0, 65535, TIS_TAKE, &tiles, &n, err);
  if (rc != SQLITE_OK) return rc;
  if (n == 0 || n > 65535) {
    free(tiles);
    *err = sqlite3_mprintf("column %s: %llu tiles; it takes %s", col->name, (unsigned long long)n, TIS_TAKE);
    return SQLITE_CONSTRAINT;
  }
  cerr.msg[0] = 0;
  if (!wed_cell_set_tiles(AREA(row), (uint32_t)row->pos.a, tile_index(row), tiles, n, &cerr)) {
    rc = codec_result(&cerr, col, err);
  }
  free(tiles);
  return rc;
}

static const ls_column tile_columns[] = {
  {"overlay", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(1), "overlay number (0: base layer)"},
  {"x", "INTEGER", get_tile_place, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(27), "column, 0-based, in 64-pixel tiles"},
  {"y", "INTEGER", get_tile_place, NULL, 1, 0, LS_COL_RANGE | LS_COL_VALUES(21), "row, 0-based"},
  {"cell", "INTEGER", get_tile_place, NULL, 2, 0, 0, "cell number y*width+x (what wed_doors.cells lists)"},
  {"tile_start", "INTEGER", get_tile_int, NULL, TC_TILE_START, 0, 0, "first entry in the overlay's tile lookup table"},
  {"tile_count", "INTEGER", get_tile_int, NULL, TC_TILE_COUNT, 0, 0, "number of lookup entries (more than 1: animated)"},
  {"tis_tiles", "TEXT", get_tile_tis, set_tile_tis, 0, 0, 0, "JSON array of the TIS tile numbers drawn (the animation frames); setting it rebuilds the lookup table when needed"},
  {"secondary_tile", "INTEGER", get_tile_int, set_tile_int, TC_SECONDARY, 0, 0, "TIS tile for a closed door or an overlay mark, NULL for none; 0..65534"},
  {"overlay_mask", "INTEGER", get_tile_int, set_tile_int, TC_OVERLAY_MASK, 0, 0, "bit n: draw overlay n in this cell; 0..255"},
  {"anim_speed", "INTEGER", get_tile_int, set_tile_int, TC_ANIM_SPEED, 0, 0, "animation speed (0: engine default); 0..255"},
  {"unknown", "INTEGER", get_tile_int, set_tile_int, TC_UNKNOWN, 0, 0, "bytes 8-9 of the record (0 in real files; GemRB: runtime door state); 0..65535"},
};

/* Names a tile cell row in error messages. */
static char *describe_tile(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("tile x %lld, y %lld of overlay %lld", (long long)pos->c, (long long)pos->b, (long long)pos->a);
}

static const ls_table wed_tiles = {
  "wed_tiles", &wed_format, "one row per tilemap cell of each used overlay of each WED file",
  tile_columns, (int)(sizeof tile_columns / sizeof tile_columns[0]),
  tile_next, tile_key, tile_seek, NULL, NULL, NULL, 0, describe_tile, NULL,
  800, /* rows_per_file, the corpus average */
};

/* ---- wed_wallgroups --------------------------------------------------------------- */

/* Wall groups in grid order, limited by the range on `grp`. */
static int group_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(CAREA(model)->num_wallgroups, scan, pos, first);
}

/* The group whose number is the key (the grid never changes). */
static int group_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek(CAREA(model)->num_wallgroups, key, pos);
}

/* x_px, y_px (col->arg 0, 1): the group's 640x480 cell in the grid of the
** base overlay; lookup_start, lookup_count (2, 3): the stored run. */
static void get_group_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wed_area *a = AREA(row);
  uint32_t gx, gy;
  wed_wallgroup_grid(a, &gx, &gy);
  switch (col->arg) {
    case 0: sqlite3_result_int64(ctx, gx ? (int64_t)WED_GROUP_W * (row->pos.a % gx) : 0); break;
    case 1: sqlite3_result_int64(ctx, gx ? (int64_t)WED_GROUP_H * (row->pos.a / gx) : 0); break;
    case 2: sqlite3_result_int64(ctx, a->wallgroups[row->pos.a].start); break;
    default: sqlite3_result_int64(ctx, a->wallgroups[row->pos.a].count); break;
  }
}

/* The group's run of the polygon lookup table as a JSON array. */
static void get_group_polygons(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const uint16_t *polys;
  uint32_t n = wed_wallgroup_polygons(AREA(row), (uint32_t)row->pos.a, &polys);
  (void)col;
  result_u16_array(ctx, polys, n);
}

static const ls_column group_columns[] = {
  {"grp", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(13), "wall group number, row-major over the 640x480-pixel grid of the base overlay"},
  {"x_px", "INTEGER", get_group_int, NULL, 0, 0, 0, "left edge of the group's cell in pixels (cell: x_px .. x_px+639)"},
  {"y_px", "INTEGER", get_group_int, NULL, 1, 0, 0, "top edge in pixels (cell: y_px .. y_px+479)"},
  {"polygons", "TEXT", get_group_polygons, NULL, 0, 0, 0, "JSON array of the polygons (wed_polygons.polygon) listed for the cell; regenerated whenever polygons change"},
  {"lookup_start", "INTEGER", get_group_int, NULL, 2, 0, 0, "first entry in the polygon lookup table"},
  {"lookup_count", "INTEGER", get_group_int, NULL, 3, 0, 0, "number of entries"},
};

/* Names a wall group row in error messages. */
static char *describe_group(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("wall group %lld", (long long)pos->a);
}

static const ls_table wed_wallgroups = {
  "wed_wallgroups", &wed_format, "one row per wall group of each WED file (read-only: derived from the polygons)",
  group_columns, (int)(sizeof group_columns / sizeof group_columns[0]),
  group_next, ls_key_pos_a, group_seek, NULL, NULL, NULL, 0, describe_group, NULL,
  13, /* rows_per_file, the corpus average */
};

/* ---- registration -------------------------------------------------------------------- */

static const ls_table *const wed_tables[] = {&wed_overlays, &wed_doors, &wed_polygons, &wed_tiles, &wed_wallgroups};

/* Registers the format, the five tables and the functions (wed_functions.c). */
int wed_tables_register(sqlite3 *db, ls_session *sess) {
  size_t i;
  int rc = ls_register_format(sess, &wed_format);
  for (i = 0; rc == SQLITE_OK && i < sizeof wed_tables / sizeof wed_tables[0]; i++) {
    rc = ls_register_table(db, sess, wed_tables[i]);
  }
  return rc == SQLITE_OK ? wed_functions_register(db) : rc;
}
