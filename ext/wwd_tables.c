/*
** wwd_tables.c: the WWD table family (wwd_levels, wwd_planes, wwd_objects,
** wwd_tiles, wwd_tile_properties) declared for the generic engine.
**
** Everything here is a column list plus a row iterator over a wwd_level
** (codecs/wwd.h); the engine does planning, caching and write-back.
**
** Rows of wwd_levels and wwd_planes share the raw-header getters: their
** position's `a` is -1 for the file header and the plane number for a plane
** header, so one getter per field type serves both tables.
*/
#include <stdlib.h>
#include <string.h>

#include "../codecs/bytes.h"
#include "../codecs/wwd.h"
#include "engine.h"
#include "wwd_tables.h"

/* ---- the format ------------------------------------------------------------ */

static const char *const wwd_extensions[] = {".wwd", NULL};

static void *wwd_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  wwd_level *lvl = NULL;
  return wwd_parse(data, size, &lvl, err) ? lvl : NULL;
}

static int wwd_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  return wwd_serialize((const wwd_level *)model, out, size, err);
}

static void *wwd_format_clone(const void *model) {
  return wwd_clone((const wwd_level *)model);
}

static void wwd_format_free(void *model) {
  wwd_free((wwd_level *)model);
}

/* Memory held by a level: tiles, objects, masks (headers are small). */
static size_t wwd_format_footprint(const void *model) {
  const wwd_level *lvl = model;
  size_t bytes = sizeof *lvl;
  uint32_t i, k;
  for (i = 0; i < lvl->num_planes; i++) {
    const wwd_plane *p = &lvl->planes[i];
    bytes += sizeof *p + (size_t)p->tiles_wide * p->tiles_high * 4 + (size_t)p->objects_cap * sizeof(wwd_object);
    for (k = 0; k < p->num_objects; k++) {
      int s;
      for (s = 0; s < WWD_OBJECT_NSTRINGS; s++) bytes += p->objects[k].str[s].len;
    }
  }
  for (i = 0; i < lvl->num_tile_properties; i++) bytes += sizeof(wwd_tile_property) + lvl->tile_properties[i].mask_len;
  return bytes;
}

const ls_format wwd_format = {
  "wwd", wwd_extensions, wwd_sniff, wwd_format_parse, wwd_format_serialize,
  wwd_format_clone, wwd_format_free, wwd_format_footprint,
  NULL, /* validate: the getters read the parsed model as it is; only memory can run out */
};

/* ---- shared getters and setters on raw headers ----------------------------- */

#define LEVEL(row) ((wwd_level *)(row)->model)

/* The raw header of the row: the file header (pos.a == -1) or a plane's. */
static unsigned char *row_header(const ls_row *row) {
  wwd_level *lvl = LEVEL(row);
  return row->pos.a < 0 ? lvl->header : lvl->planes[row->pos.a].header;
}

/* col->arg: byte offset; the field is an int32. */
static void get_header_i32(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  sqlite3_result_int64(ctx, u32_as_i32(le32_load(row_header(row) + col->arg)));
}

static int set_header_i32(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = ls_value_int(v, col, INT32_MIN, INT32_MAX, &x, err);
  if (rc == SQLITE_OK) le32_store(row_header(row) + col->arg, (uint32_t)(int32_t)x);
  return rc;
}

/* col->arg: byte offset; the field is a uint32 (flags). */
static void get_header_u32(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  sqlite3_result_int64(ctx, le32_load(row_header(row) + col->arg));
}

static int set_header_u32(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = ls_value_int(v, col, 0, UINT32_MAX, &x, err);
  if (rc == SQLITE_OK) le32_store(row_header(row) + col->arg, (uint32_t)x);
  return rc;
}

/* col->arg: offset of a uint32 flags field, col->arg2: the bit; 0 or 1. */
static void get_header_bit(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  sqlite3_result_int(ctx, (le32_load(row_header(row) + col->arg) & (uint32_t)col->arg2) != 0);
}

static int set_header_bit(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = ls_value_int(v, col, 0, 1, &x, err);
  if (rc == SQLITE_OK) {
    unsigned char *p = row_header(row) + col->arg;
    uint32_t flags = le32_load(p);
    le32_store(p, x ? flags | (uint32_t)col->arg2 : flags & ~(uint32_t)col->arg2);
  }
  return rc;
}

/* col->arg: offset, col->arg2: size of a NUL-terminated fixed-size string. */
static void get_header_string(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const unsigned char *s;
  size_t n = wwd_fixed_string(row_header(row) + col->arg, (size_t)col->arg2, &s);
  ls_result_text8(ctx, row->opts, s, n);
}

static int set_header_string(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *bytes = NULL;
  size_t n = 0;
  /* one byte of the field is the terminating NUL */
  int rc = ls_value_text8(v, col, row->opts, (size_t)col->arg2 - 1, &bytes, &n, err);
  if (rc == SQLITE_OK) wwd_fixed_string_set(row_header(row) + col->arg, (size_t)col->arg2, bytes, n);
  free(bytes);
  return rc;
}

/* ---- wwd_levels ------------------------------------------------------------ */

/* One row per file; its position is the file header (a = -1). */
static int level_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  (void)model;
  (void)scan;
  pos->a = -1;
  pos->b = pos->c = 0;
  return first;
}

static int64_t level_key(const void *model, const ls_pos *pos) {
  (void)model;
  (void)pos;
  return 0;
}

static int level_seek(const void *model, int64_t key, ls_pos *pos) {
  (void)model;
  pos->a = -1;
  pos->b = pos->c = 0;
  return key == 0;
}

static void get_level_count(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wwd_level *lvl = LEVEL(row);
  int64_t n = 0;
  uint32_t i;
  switch (col->arg) {
    case 0: n = lvl->num_planes; break;
    case 1: for (i = 0; i < lvl->num_planes; i++) n += lvl->planes[i].num_objects; break;
    case 2: n = lvl->num_tile_properties; break;
  }
  sqlite3_result_int64(ctx, n);
}

static void get_level_checksum(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wwd_level *lvl = LEVEL(row);
  switch (col->arg) {
    case 0: sqlite3_result_int64(ctx, lvl->checksum_stored); break;
    case 1: sqlite3_result_int64(ctx, lvl->checksum_computed); break;
    default: sqlite3_result_text(ctx, wwd_checksum_kind_name(lvl->checksum_kind), -1, SQLITE_STATIC); break;
  }
}

static void get_level_game(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const char *game = wwd_game(LEVEL(row));
  (void)col;
  if (game) sqlite3_result_text(ctx, game, -1, SQLITE_STATIC);
}

static void get_level_file_size(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int64(ctx, (sqlite3_int64)LEVEL(row)->file_size);
}

/* Row names for error messages. */
static char *describe_header(const void *model, const ls_pos *pos) {
  (void)model;
  return pos->a < 0 ? sqlite3_mprintf("header") : sqlite3_mprintf("plane %lld", (long long)pos->a);
}

static char *describe_object(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("object %lld of plane %lld", (long long)pos->b, (long long)pos->a);
}

static char *describe_tile(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("tile x %lld, y %lld of plane %lld", (long long)pos->c, (long long)pos->b, (long long)pos->a);
}

static char *describe_property(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("tile property %lld", (long long)pos->a);
}

#define HSTR(name, off, size, doc) {name, "TEXT", get_header_string, set_header_string, off, size, 0, doc}

static const ls_column level_columns[] = {
  HSTR("name", WWD_HDR_NAME, 64, "level name (63 bytes at most)"),
  HSTR("author", WWD_HDR_AUTHOR, 64, "author (63 bytes)"),
  HSTR("birth", WWD_HDR_BIRTH, 64, "creation date as the editor wrote it (63 bytes)"),
  HSTR("rez_file", WWD_HDR_REZ_FILE, 256, "REZ archive path (255 bytes)"),
  HSTR("image_dir", WWD_HDR_IMAGE_DIR, 128, "image directory inside the REZ (127 bytes)"),
  HSTR("pal_rez", WWD_HDR_PAL_REZ, 128, "palette path (127 bytes)"),
  HSTR("launch_app", WWD_HDR_LAUNCH_APP, 128, "game executable (127 bytes)"),
  HSTR("image_set1", WWD_HDR_IMAGE_SET1, 128, "image set 1 path (127 bytes)"),
  HSTR("image_set2", WWD_HDR_IMAGE_SET2, 128, "image set 2 path"),
  HSTR("image_set3", WWD_HDR_IMAGE_SET3, 128, "image set 3 path"),
  HSTR("image_set4", WWD_HDR_IMAGE_SET4, 128, "image set 4 path"),
  HSTR("prefix1", WWD_HDR_PREFIX1, 32, "image set 1 prefix (31 bytes)"),
  HSTR("prefix2", WWD_HDR_PREFIX2, 32, "image set 2 prefix"),
  HSTR("prefix3", WWD_HDR_PREFIX3, 32, "image set 3 prefix"),
  HSTR("prefix4", WWD_HDR_PREFIX4, 32, "image set 4 prefix"),
  {"start_x", "INTEGER", get_header_i32, set_header_i32, WWD_HDR_START_X, 0, 0, "player start x (pixels)"},
  {"start_y", "INTEGER", get_header_i32, set_header_i32, WWD_HDR_START_Y, 0, 0, "player start y (pixels)"},
  {"flags", "INTEGER", get_header_u32, set_header_u32, WWD_HDR_FLAGS, 0, 0, "header flags: wwd_flag_names('level', flags)"},
  {"use_z_coords", "INTEGER", get_header_bit, set_header_bit, WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS, 0, "flag 0x1"},
  {"compressed", "INTEGER", get_header_bit, set_header_bit, WWD_HDR_FLAGS, WWD_FLAG_COMPRESS, 0, "flag 0x2: the main block is zlib-compressed; set to 0 or 1 to change how the file is saved"},
  {"num_planes", "INTEGER", get_level_count, NULL, 0, 0, 0, "number of planes"},
  {"num_objects", "INTEGER", get_level_count, NULL, 1, 0, 0, "objects on all planes"},
  {"num_tile_properties", "INTEGER", get_level_count, NULL, 2, 0, 0, "number of tile properties"},
  {"checksum", "INTEGER", get_level_checksum, NULL, 0, 0, 0, "checksum stored in the header (as read)"},
  {"checksum_computed", "INTEGER", get_level_checksum, NULL, 1, 0, 0, "checksum S computed over the main block as stored"},
  {"checksum_kind", "TEXT", get_level_checksum, NULL, 2, 0, 0, "'exact', 'engine', 'wapmap', 'unset' or 'mismatch' (levelsql writes 'exact')"},
  {"game", "TEXT", get_level_game, NULL, 0, 0, 0, "'claw', 'gruntz', 'getmedieval' or NULL"},
  {"file_size", "INTEGER", get_level_file_size, NULL, 0, 0, 0, "size of the file as read, in bytes"},
};

static const ls_table wwd_levels = {
  "wwd_levels", &wwd_format, "one row per WWD file: the header",
  level_columns, (int)(sizeof level_columns / sizeof level_columns[0]),
  level_next, level_key, level_seek, NULL, NULL, NULL, 0, describe_header, "",
};

/* ---- wwd_planes ------------------------------------------------------------ */

/* First plane within the pushed-down range of column 0 (plane) at or after
** `from`; returns 0 when there is none. */
static int plane_in_range(const wwd_level *lvl, const ls_range *r, int64_t from, int64_t *out) {
  return ls_range_first(r, from, lvl->num_planes, out);
}

static int plane_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(((const wwd_level *)model)->num_planes, scan, pos, first);
}

static int plane_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek(((const wwd_level *)model)->num_planes, key, pos);
}

static void get_plane_num_objects(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int64(ctx, LEVEL(row)->planes[row->pos.a].num_objects);
}

/* Image sets as a JSON array of strings. */
static void get_plane_image_sets(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wwd_plane *p = &LEVEL(row)->planes[row->pos.a];
  sqlite3_str *s = sqlite3_str_new(NULL);
  uint32_t i;
  (void)col;
  sqlite3_str_appendchar(s, 1, '[');
  for (i = 0; i < p->num_image_sets; i++) {
    size_t len = 0;
    char *utf8 = text8_decode(p->image_sets[i].data, p->image_sets[i].len, row->opts->encoding, &len);
    const char *c;
    if (!utf8) break;
    sqlite3_str_appendf(s, "%s\"", i ? "," : "");
    for (c = utf8; *c; c++) {
      if (*c == '"' || *c == '\\') sqlite3_str_appendf(s, "\\%c", *c);
      else if ((unsigned char)*c < 0x20) sqlite3_str_appendf(s, "\\u%04x", (unsigned char)*c);
      else sqlite3_str_appendchar(s, 1, *c);
    }
    sqlite3_str_appendchar(s, 1, '"');
    free(utf8);
  }
  sqlite3_str_appendchar(s, 1, ']');
  sqlite3_result_text(ctx, sqlite3_str_value(s), sqlite3_str_length(s), SQLITE_TRANSIENT);
  sqlite3_free(sqlite3_str_finish(s));
  sqlite3_result_subtype(ctx, 'J');
}

/* Sets image sets from a JSON array of strings, parsed with SQLite's own
** json_each so escapes are handled exactly as SQL users expect. */
static int set_plane_image_sets(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wwd_plane *p = &LEVEL(row)->planes[row->pos.a];
  sqlite3 *db = NULL;
  sqlite3_stmt *st = NULL;
  wwd_bytes *sets = NULL;
  uint32_t n = 0, i;
  int rc;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    *err = sqlite3_mprintf("column %s: takes a JSON array of strings, e.g. '[\"ACTION\"]'", col->name);
    return SQLITE_CONSTRAINT;
  }
  /* A private in-memory connection: setters have no handle on the user's. */
  rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db, "SELECT type, value FROM json_each(?1)", -1, &st, NULL);
  if (rc == SQLITE_OK) sqlite3_bind_value(st, 1, v);
  while (rc == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW) {
    const char *type = (const char *)sqlite3_column_text(st, 0);
    unsigned char *bytes = NULL;
    size_t len = 0;
    wwd_bytes *grown;
    if (!type || strcmp(type, "text") != 0) {
      *err = sqlite3_mprintf("column %s: element %u is not a string", col->name, (unsigned)n);
      rc = SQLITE_CONSTRAINT;
      break;
    }
    rc = ls_value_text8(sqlite3_column_value(st, 1), col, row->opts, 1024, &bytes, &len, err);
    if (rc != SQLITE_OK) break;
    if (memchr(bytes, 0, len)) {
      free(bytes);
      *err = sqlite3_mprintf("column %s: element %u contains a NUL character", col->name, (unsigned)n);
      rc = SQLITE_CONSTRAINT;
      break;
    }
    grown = realloc(sets, sizeof *sets * (n + 1));
    if (!grown) {
      free(bytes);
      rc = SQLITE_NOMEM;
      break;
    }
    sets = grown;
    sets[n].data = bytes;
    sets[n].len = (uint32_t)len;
    n++;
  }
  if (rc == SQLITE_OK && st && sqlite3_errcode(db) != SQLITE_OK && sqlite3_errcode(db) != SQLITE_DONE &&
      sqlite3_errcode(db) != SQLITE_ROW) {
    *err = sqlite3_mprintf("column %s: not a JSON array: %s", col->name, sqlite3_errmsg(db));
    rc = SQLITE_CONSTRAINT;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  if (rc != SQLITE_OK) {
    for (i = 0; i < n; i++) free(sets[i].data);
    free(sets);
    return rc;
  }
  for (i = 0; i < p->num_image_sets; i++) free(p->image_sets[i].data);
  free(p->image_sets);
  p->image_sets = sets;
  p->num_image_sets = n;
  return SQLITE_OK;
}

#define PLANE_INT(name, off, doc) {name, "INTEGER", get_header_i32, NULL, off, 0, 0, doc}
#define PLANE_BIT(name, bit, doc) {name, "INTEGER", get_header_bit, set_header_bit, WWD_PLANE_FLAGS, bit, 0, doc}

static const ls_column plane_columns[] = {
  {"plane", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE, "plane number, 0-based, in file order"},
  {"name", "TEXT", get_header_string, set_header_string, WWD_PLANE_NAME, 64, 0, "plane name (63 bytes)"},
  {"flags", "INTEGER", get_header_u32, set_header_u32, WWD_PLANE_FLAGS, 0, 0, "plane flags: wwd_flag_names('plane', flags)"},
  PLANE_BIT("is_main", WWD_PLANE_MAIN, "flag 0x01: the plane where the action is"),
  PLANE_BIT("no_draw", WWD_PLANE_NO_DRAW, "flag 0x02"),
  PLANE_BIT("wrap_x", WWD_PLANE_WRAP_X, "flag 0x04: repeats horizontally"),
  PLANE_BIT("wrap_y", WWD_PLANE_WRAP_Y, "flag 0x08: repeats vertically"),
  PLANE_BIT("auto_tile_size", WWD_PLANE_AUTO_TILE_SIZE, "flag 0x10"),
  PLANE_INT("width_px", WWD_PLANE_WIDTH_PX, "width in pixels"),
  PLANE_INT("height_px", WWD_PLANE_HEIGHT_PX, "height in pixels"),
  PLANE_INT("tile_width", WWD_PLANE_TILE_WIDTH, "tile width in pixels"),
  PLANE_INT("tile_height", WWD_PLANE_TILE_HEIGHT, "tile height in pixels"),
  PLANE_INT("tiles_wide", WWD_PLANE_TILES_WIDE, "width in tiles"),
  PLANE_INT("tiles_high", WWD_PLANE_TILES_HIGH, "height in tiles"),
  {"movement_x_percent", "INTEGER", get_header_i32, set_header_i32, WWD_PLANE_MOVEMENT_X, 0, 0, "parallax: horizontal scroll speed in percent"},
  {"movement_y_percent", "INTEGER", get_header_i32, set_header_i32, WWD_PLANE_MOVEMENT_Y, 0, 0, "parallax: vertical scroll speed in percent"},
  {"fill_color", "INTEGER", get_header_i32, set_header_i32, WWD_PLANE_FILL_COLOR, 0, 0, "palette index of 'filled' tiles"},
  {"z", "INTEGER", get_header_i32, set_header_i32, WWD_PLANE_Z, 0, 0, "drawing order (negative: behind)"},
  {"image_sets", "TEXT", get_plane_image_sets, set_plane_image_sets, 0, 0, 0, "JSON array of the plane's image set names"},
  {"num_objects", "INTEGER", get_plane_num_objects, NULL, 0, 0, 0, "objects on this plane"},
};

static const ls_table wwd_planes = {
  "wwd_planes", &wwd_format, "one row per plane of each WWD file",
  plane_columns, (int)(sizeof plane_columns / sizeof plane_columns[0]),
  plane_next, ls_key_pos_a, plane_seek, NULL, NULL, NULL, 0, describe_header, "plane",
};

/* ---- wwd_objects ----------------------------------------------------------- */

#define OBJECT(row) (&LEVEL(row)->planes[(row)->pos.a].objects[(row)->pos.b])

/* Objects plane by plane (planes limited by the plane range), in list order. */
static int object_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const wwd_level *lvl = model;
  int64_t p = first ? 0 : pos->a, i = first ? 0 : pos->b + 1;
  for (;;) {
    if (!plane_in_range(lvl, &scan->range[0], p, &p)) return 0;
    if (p != (first ? 0 : pos->a)) i = 0;
    if (i < (int64_t)lvl->planes[p].num_objects) {
      pos->a = p;
      pos->b = i;
      return 1;
    }
    p++;
    i = 0;
    first = 0;
    pos->a = p;
  }
}

/* The uid: objects keep it across inserts and deletes of others. */
static int64_t object_key(const void *model, const ls_pos *pos) {
  const wwd_level *lvl = model;
  return lvl->planes[pos->a].objects[pos->b].uid;
}

static int object_seek(const void *model, int64_t key, ls_pos *pos) {
  uint32_t plane, idx;
  if (key < 0 || key > UINT32_MAX || !wwd_object_find(model, (uint32_t)key, &plane, &idx)) return 0;
  pos->a = plane;
  pos->b = idx;
  pos->c = 0;
  return 1;
}

/* The id the editors give a new object: one above the largest id of the
** level (any plane), or 1 in a level without objects. */
static int32_t object_next_id(const wwd_level *lvl) {
  int64_t top = 0;
  uint32_t p, i;
  for (p = 0; p < lvl->num_planes; p++) {
    for (i = 0; i < lvl->planes[p].num_objects; i++) {
      if (lvl->planes[p].objects[i].field[WWD_OBJ_ID] > top) top = lvl->planes[p].objects[i].field[WWD_OBJ_ID];
    }
  }
  return top < INT32_MAX ? (int32_t)(top + 1) : INT32_MAX;
}

/* INSERT: a blank object at the end of the given plane (the main plane when
** the plane column is NULL), with a fresh id unless the id column is given
** (INSERT ... SELECT * keeps the ids it copies). */
static int object_insert(void *model, sqlite3_value *const *values, ls_pos *pos, char **err) {
  wwd_level *lvl = model;
  sqlite3_value *plane_value = values[0]; /* column 0 is `plane` */
  sqlite3_value *id_value = values[2];    /* column 2 is `id` */
  int64_t plane = -1;
  int32_t id = sqlite3_value_type(id_value) == SQLITE_NULL ? object_next_id(lvl) : 0;
  long idx;
  uint32_t i;
  if (sqlite3_value_type(plane_value) == SQLITE_NULL) {
    for (i = 0; i < lvl->num_planes && plane < 0; i++) {
      if (le32_load(lvl->planes[i].header + WWD_PLANE_FLAGS) & WWD_PLANE_MAIN) plane = i;
    }
    if (plane < 0) {
      *err = sqlite3_mprintf("the level has no main plane; give the plane column");
      return SQLITE_CONSTRAINT;
    }
  } else {
    static const ls_column plane_col = {"plane", "INTEGER", NULL, NULL, 0, 0, 0, NULL};
    int rc = ls_value_int(plane_value, &plane_col, 0, (int64_t)lvl->num_planes - 1, &plane, err);
    if (rc != SQLITE_OK) return rc;
  }
  idx = wwd_object_append(lvl, (uint32_t)plane);
  if (idx < 0) return SQLITE_NOMEM;
  lvl->planes[plane].objects[idx].field[WWD_OBJ_ID] = id;
  pos->a = plane;
  pos->b = idx;
  pos->c = 0;
  return SQLITE_OK;
}

static int object_remove(void *model, const ls_pos *pos, char **err) {
  (void)err;
  return wwd_object_remove(model, (uint32_t)pos->a, (uint32_t)pos->b) ? SQLITE_OK : SQLITE_INTERNAL;
}

/* col->arg: field index (enum wwd_object_field); col->arg2: 1 when the
** field is unsigned (flags), shown as 0 .. 4294967295. */
static void get_object_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  int32_t v = OBJECT(row)->field[col->arg];
  sqlite3_result_int64(ctx, col->arg2 ? (int64_t)(uint32_t)v : (int64_t)v);
}

static int set_object_field(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc = col->arg2 ? ls_value_int(v, col, 0, UINT32_MAX, &x, err) : ls_value_int(v, col, INT32_MIN, INT32_MAX, &x, err);
  if (rc == SQLITE_OK) OBJECT(row)->field[col->arg] = col->arg2 ? u32_as_i32((uint32_t)x) : (int32_t)x;
  return rc;
}

/* col->arg: string index (enum wwd_object_string). */
static void get_object_string(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wwd_bytes *b = &OBJECT(row)->str[col->arg];
  ls_result_text8(ctx, row->opts, b->data, b->len);
}

#define WWD_OBJECT_STRING_MAX 4096 /* the editors use a few dozen bytes */

static int set_object_string(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  unsigned char *bytes = NULL;
  size_t n = 0;
  int rc = ls_value_text8(v, col, row->opts, WWD_OBJECT_STRING_MAX, &bytes, &n, err);
  if (rc == SQLITE_OK && !wwd_bytes_set(&OBJECT(row)->str[col->arg], bytes, n)) rc = SQLITE_NOMEM;
  free(bytes);
  return rc;
}

#define OSTR(name, idx, doc) {name, "TEXT", get_object_string, set_object_string, idx, 0, 0, doc}
#define OINT(name, field, doc) {name, "INTEGER", get_object_field, set_object_field, field, 0, 0, doc}
#define OFLAGS(name, field, doc) {name, "INTEGER", get_object_field, set_object_field, field, 1, 0, doc}
#define ORECT(prefix, first, doc)                                                   \
  OINT(prefix "_left", first, doc " left"), OINT(prefix "_top", first + 1, doc " top"), \
  OINT(prefix "_right", first + 2, doc " right"), OINT(prefix "_bottom", first + 3, doc " bottom")

static const ls_column object_columns[] = {
  {"plane", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE, "plane number; on INSERT, the plane to add to (default: the main plane)"},
  {"idx", "INTEGER", ls_get_pos_b, NULL, 0, 0, 0, "position in the plane's object list (ids are not unique)"},
  OINT("id", WWD_OBJ_ID, "object id"),
  OSTR("name", WWD_STR_NAME, "name"),
  OSTR("logic", WWD_STR_LOGIC, "logic (behaviour), e.g. Officer"),
  OSTR("image_set", WWD_STR_IMAGE_SET, "image set, e.g. LEVEL_OFFICER"),
  OSTR("animation", WWD_STR_ANIMATION, "animation"),
  OINT("x", WWD_OBJ_X, "x position (pixels)"),
  OINT("y", WWD_OBJ_Y, "y position (pixels)"),
  OINT("z", WWD_OBJ_Z, "z (drawing order)"),
  OINT("i", WWD_OBJ_I, "image index (usually -1)"),
  OFLAGS("add_flags", WWD_OBJ_ADD_FLAGS, "wwd_flag_names('add', add_flags)"),
  OFLAGS("dynamic_flags", WWD_OBJ_DYNAMIC_FLAGS, "wwd_flag_names('dynamic', dynamic_flags)"),
  OFLAGS("draw_flags", WWD_OBJ_DRAW_FLAGS, "wwd_flag_names('draw', draw_flags)"),
  OFLAGS("user_flags", WWD_OBJ_USER_FLAGS, "wwd_flag_names('user', user_flags)"),
  OINT("score", WWD_OBJ_SCORE, "score"),
  OINT("points", WWD_OBJ_POINTS, "points"),
  OINT("powerup", WWD_OBJ_POWERUP, "powerup"),
  OINT("damage", WWD_OBJ_DAMAGE, "damage"),
  OINT("smarts", WWD_OBJ_SMARTS, "smarts"),
  OINT("health", WWD_OBJ_HEALTH, "health"),
  ORECT("move_rect", WWD_OBJ_MOVE_RECT_LEFT, "move rectangle"),
  ORECT("hit_rect", WWD_OBJ_HIT_RECT_LEFT, "hit rectangle"),
  ORECT("attack_rect", WWD_OBJ_ATTACK_RECT_LEFT, "attack rectangle"),
  ORECT("clip_rect", WWD_OBJ_CLIP_RECT_LEFT, "clip rectangle"),
  ORECT("user_rect1", WWD_OBJ_USER_RECT1_LEFT, "user rectangle 1"),
  ORECT("user_rect2", WWD_OBJ_USER_RECT2_LEFT, "user rectangle 2"),
  OINT("user1", WWD_OBJ_USER1, "user value 1"),
  OINT("user2", WWD_OBJ_USER2, "user value 2"),
  OINT("user3", WWD_OBJ_USER3, "user value 3"),
  OINT("user4", WWD_OBJ_USER4, "user value 4"),
  OINT("user5", WWD_OBJ_USER5, "user value 5"),
  OINT("user6", WWD_OBJ_USER6, "user value 6"),
  OINT("user7", WWD_OBJ_USER7, "user value 7"),
  OINT("user8", WWD_OBJ_USER8, "user value 8"),
  OINT("min_x", WWD_OBJ_MIN_X, "movement range min x"),
  OINT("min_y", WWD_OBJ_MIN_Y, "movement range min y"),
  OINT("max_x", WWD_OBJ_MAX_X, "movement range max x"),
  OINT("max_y", WWD_OBJ_MAX_Y, "movement range max y"),
  OINT("speed_x", WWD_OBJ_SPEED_X, "speed x"),
  OINT("speed_y", WWD_OBJ_SPEED_Y, "speed y"),
  OINT("tweak_x", WWD_OBJ_TWEAK_X, "tweak x"),
  OINT("tweak_y", WWD_OBJ_TWEAK_Y, "tweak y"),
  OINT("counter", WWD_OBJ_COUNTER, "counter"),
  OINT("speed", WWD_OBJ_SPEED, "speed"),
  OINT("width", WWD_OBJ_WIDTH, "width"),
  OINT("height", WWD_OBJ_HEIGHT, "height"),
  OINT("direction", WWD_OBJ_DIRECTION, "direction"),
  OINT("face_dir", WWD_OBJ_FACE_DIR, "facing direction"),
  OINT("time_delay", WWD_OBJ_TIME_DELAY, "time delay"),
  OINT("frame_delay", WWD_OBJ_FRAME_DELAY, "frame delay"),
  OFLAGS("object_type", WWD_OBJ_OBJECT_TYPE, "wwd_flag_names('object_type', object_type)"),
  OFLAGS("hit_type_flags", WWD_OBJ_HIT_TYPE_FLAGS, "wwd_flag_names('hit_type', hit_type_flags)"),
  OFLAGS("move_res_x", WWD_OBJ_MOVE_RES_X, "move resolution x"),
  OFLAGS("move_res_y", WWD_OBJ_MOVE_RES_Y, "move resolution y"),
};

static const ls_table wwd_objects = {
  "wwd_objects", &wwd_format, "one row per object of each plane of each WWD file",
  object_columns, (int)(sizeof object_columns / sizeof object_columns[0]),
  object_next, object_key, object_seek, object_insert, object_remove, NULL, 0, describe_object, "plane,idx",
};

/* ---- wwd_tiles -------------------------------------------------------------- */

/* Column numbers of the pushed-down ranges. */
enum { TILE_COL_PLANE, TILE_COL_X, TILE_COL_Y };

/* The next cell (plane a, row b, column c) inside the ranges, scanning row
** by row; skips whole planes and rows outside them. */
static int tile_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const wwd_level *lvl = model;
  int64_t p = first ? 0 : pos->a, y = first ? INT64_MIN : pos->b, x = first ? INT64_MIN : pos->c + 1;
  for (;;) {
    const wwd_plane *pl;
    if (!plane_in_range(lvl, &scan->range[TILE_COL_PLANE], p, &p)) return 0;
    pl = &lvl->planes[p];
    if (ls_grid_step(&scan->range[TILE_COL_X], &scan->range[TILE_COL_Y], pl->tiles_wide, pl->tiles_high, &x, &y)) {
      pos->a = p;
      pos->b = y;
      pos->c = x;
      return 1;
    }
    p++;
    y = INT64_MIN;
    x = INT64_MIN;
  }
}

/* Key: the cell's number counting all cells of the planes before it. */
static int64_t tile_key(const void *model, const ls_pos *pos) {
  const wwd_level *lvl = model;
  int64_t key = 0, i;
  for (i = 0; i < pos->a; i++) key += (int64_t)lvl->planes[i].tiles_wide * lvl->planes[i].tiles_high;
  return key + pos->b * (int64_t)lvl->planes[pos->a].tiles_wide + pos->c;
}

static int tile_seek(const void *model, int64_t key, ls_pos *pos) {
  const wwd_level *lvl = model;
  uint32_t i;
  for (i = 0; i < lvl->num_planes && key >= 0; i++) {
    int64_t cells = (int64_t)lvl->planes[i].tiles_wide * lvl->planes[i].tiles_high;
    if (key < cells) {
      pos->a = i;
      pos->b = key / lvl->planes[i].tiles_wide;
      pos->c = key % lvl->planes[i].tiles_wide;
      return 1;
    }
    key -= cells;
  }
  return 0;
}

static uint32_t *tile_cell(const ls_row *row) {
  const wwd_plane *pl = &LEVEL(row)->planes[row->pos.a];
  return &pl->tiles[row->pos.b * (int64_t)pl->tiles_wide + row->pos.c];
}

static void get_tile_x(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int64(ctx, row->pos.c);
}

static void get_tile_id(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  uint32_t t = *tile_cell(row);
  (void)col;
  if (t != WWD_TILE_INVISIBLE && t != WWD_TILE_FILLED) sqlite3_result_int64(ctx, t);
}

/* A tile id, or NULL for an invisible cell. */
static int set_tile_id(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc;
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    *tile_cell(row) = WWD_TILE_INVISIBLE;
    return SQLITE_OK;
  }
  rc = ls_value_int(v, col, 0, UINT32_MAX, &x, err);
  if (rc != SQLITE_OK) return rc;
  if ((uint32_t)x == WWD_TILE_INVISIBLE || (uint32_t)x == WWD_TILE_FILLED) {
    *err = sqlite3_mprintf("column tile: %lld is a special value; set kind = 'invisible' or 'filled' instead", (long long)x);
    return SQLITE_CONSTRAINT;
  }
  *tile_cell(row) = (uint32_t)x;
  return SQLITE_OK;
}

static void get_tile_kind(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  uint32_t t = *tile_cell(row);
  (void)col;
  sqlite3_result_text(ctx, t == WWD_TILE_INVISIBLE ? "invisible" : t == WWD_TILE_FILLED ? "filled" : "tile", -1,
                      SQLITE_STATIC);
}

static int set_tile_kind(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const char *kind = (const char *)sqlite3_value_text(v);
  uint32_t *cell = tile_cell(row);
  if (kind && strcmp(kind, "invisible") == 0) {
    *cell = WWD_TILE_INVISIBLE;
  } else if (kind && strcmp(kind, "filled") == 0) {
    *cell = WWD_TILE_FILLED;
  } else if (kind && strcmp(kind, "tile") == 0) {
    if (*cell == WWD_TILE_INVISIBLE || *cell == WWD_TILE_FILLED) {
      *err = sqlite3_mprintf("column kind: 'tile' needs a tile id; set the tile column instead");
      return SQLITE_CONSTRAINT;
    }
  } else {
    *err = sqlite3_mprintf("column %s: '%s' is not a tile kind; it takes 'tile', 'invisible' or 'filled'", col->name,
                           kind ? kind : "NULL");
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

static const ls_column tile_columns[] = {
  {"plane", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE, "plane number"},
  {"x", "INTEGER", get_tile_x, NULL, 0, 0, LS_COL_RANGE, "column, 0-based"},
  {"y", "INTEGER", ls_get_pos_b, NULL, 0, 0, LS_COL_RANGE, "row, 0-based"},
  {"tile", "INTEGER", get_tile_id, set_tile_id, 0, 0, 0, "tile id; NULL for invisible and filled cells (setting NULL makes the cell invisible)"},
  {"kind", "TEXT", get_tile_kind, set_tile_kind, 0, 0, 0, "'tile', 'invisible' or 'filled'"},
};

static const ls_table wwd_tiles = {
  "wwd_tiles", &wwd_format, "one row per tile cell of each plane",
  tile_columns, (int)(sizeof tile_columns / sizeof tile_columns[0]),
  tile_next, tile_key, tile_seek, NULL, NULL, NULL, 0, describe_tile, "plane,y,x",
};

/* ---- wwd_tile_properties ---------------------------------------------------- */

#define PROPERTY(row) (&LEVEL(row)->tile_properties[(row)->pos.a])

static int property_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next(((const wwd_level *)model)->num_tile_properties, scan, pos, first);
}

static int property_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek(((const wwd_level *)model)->num_tile_properties, key, pos);
}

static const char *const property_type_names[] = {NULL, "single", "double", "mask"};

static void get_property_type(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  uint32_t t = PROPERTY(row)->type;
  (void)col;
  if (t >= 1 && t <= 3) sqlite3_result_text(ctx, property_type_names[t], -1, SQLITE_STATIC);
  else sqlite3_result_int64(ctx, t);
}

static int set_property_type(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const char *name = (const char *)sqlite3_value_text(v);
  uint32_t t;
  for (t = 1; t <= 3; t++) {
    if (name && strcmp(name, property_type_names[t]) == 0) break;
  }
  if (t > 3) {
    *err = sqlite3_mprintf("column %s: '%s' is not a tile type; it takes 'single', 'double' or 'mask'", col->name, name ? name : "NULL");
    return SQLITE_CONSTRAINT;
  }
  if (PROPERTY(row)->type == t) return SQLITE_OK;
  return wwd_tile_property_set_type(PROPERTY(row), t) ? SQLITE_OK : SQLITE_NOMEM;
}

/* The numeric fields; col->arg picks it, col->arg2 is the bit mask of the
** types (1 << type) the field applies to: NULL for the others. */
enum { TP_WIDTH, TP_HEIGHT, TP_ATTRIBUTE, TP_INSIDE, TP_RECT_LEFT, TP_RECT_TOP, TP_RECT_RIGHT, TP_RECT_BOTTOM };
#define ALL_TYPES ((1 << WWD_TILE_SINGLE) | (1 << WWD_TILE_DOUBLE) | (1 << WWD_TILE_MASK))
#define SINGLE_DOUBLE ((1 << WWD_TILE_SINGLE) | (1 << WWD_TILE_DOUBLE))
#define DOUBLE_ONLY (1 << WWD_TILE_DOUBLE)

static void get_property_int(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wwd_tile_property *tp = PROPERTY(row);
  if (tp->type > 3 || !(col->arg2 & (1 << tp->type))) return;
  switch (col->arg) {
    case TP_WIDTH: sqlite3_result_int64(ctx, tp->width); break;
    case TP_HEIGHT: sqlite3_result_int64(ctx, tp->height); break;
    case TP_ATTRIBUTE: sqlite3_result_int64(ctx, tp->attribute); break;
    case TP_INSIDE: sqlite3_result_int64(ctx, tp->inside_attribute); break;
    default: sqlite3_result_int64(ctx, tp->rect[col->arg - TP_RECT_LEFT]); break;
  }
}

static int set_property_int(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wwd_tile_property *tp = PROPERTY(row);
  int unsigned_field = col->arg == TP_WIDTH || col->arg == TP_HEIGHT;
  int64_t x;
  int rc;
  if (tp->type > 3 || !(col->arg2 & (1 << tp->type))) {
    *err = sqlite3_mprintf("column %s: tile property %lld is '%s'; the column applies to %s tiles (set type first, in the same UPDATE if you like)",
                           col->name, (long long)row->pos.a, tp->type <= 3 && tp->type ? property_type_names[tp->type] : "unknown",
                           col->arg2 == DOUBLE_ONLY ? "double" : "single and double");
    return SQLITE_CONSTRAINT;
  }
  rc = unsigned_field ? ls_value_int(v, col, 0, 4096, &x, err) : ls_value_int(v, col, INT32_MIN, INT32_MAX, &x, err);
  if (rc != SQLITE_OK) return rc;
  switch (col->arg) {
    case TP_WIDTH: tp->width = (uint32_t)x; break;
    case TP_HEIGHT: tp->height = (uint32_t)x; break;
    case TP_ATTRIBUTE: tp->attribute = (int32_t)x; break;
    case TP_INSIDE: tp->inside_attribute = (int32_t)x; break;
    default: tp->rect[col->arg - TP_RECT_LEFT] = (int32_t)x; break;
  }
  return SQLITE_OK;
}

static void get_property_mask(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const wwd_tile_property *tp = PROPERTY(row);
  (void)col;
  if (tp->type == WWD_TILE_MASK) sqlite3_result_blob64(ctx, tp->mask, tp->mask_len, SQLITE_TRANSIENT);
}

static int set_property_mask(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  wwd_tile_property *tp = PROPERTY(row);
  if (tp->type != WWD_TILE_MASK) {
    *err = sqlite3_mprintf("column %s: tile property %lld is not a mask tile (set type = 'mask' first)", col->name, (long long)row->pos.a);
    return SQLITE_CONSTRAINT;
  }
  if (sqlite3_value_type(v) != SQLITE_BLOB) {
    *err = sqlite3_mprintf("column %s: takes a blob of width*height bytes", col->name);
    return SQLITE_CONSTRAINT;
  }
  return wwd_tile_property_set_mask(tp, sqlite3_value_blob(v), (size_t)sqlite3_value_bytes(v)) ? SQLITE_OK : SQLITE_NOMEM;
}

/* After an UPDATE: a mask must still be width*height bytes. */
static int property_check(const ls_row *row, char **err) {
  codec_error cerr;
  cerr.msg[0] = 0;
  if (wwd_tile_property_check(PROPERTY(row), (uint32_t)row->pos.a, &cerr)) return SQLITE_OK;
  *err = sqlite3_mprintf("%s", cerr.msg);
  return SQLITE_CONSTRAINT;
}

#define PINT(name, which, types, doc) {name, "INTEGER", get_property_int, set_property_int, which, types, 0, doc}

static const ls_column property_columns[] = {
  {"tile", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE, "tile id the property belongs to (its index)"},
  {"type", "TEXT", get_property_type, set_property_type, 0, 0, 0, "'single', 'double' or 'mask'"},
  PINT("width", TP_WIDTH, ALL_TYPES, "tile width in pixels"),
  PINT("height", TP_HEIGHT, ALL_TYPES, "tile height in pixels"),
  PINT("attribute", TP_ATTRIBUTE, SINGLE_DOUBLE, "single: the attribute; double: the outside attribute (wwd_flag_names('attribute', n))"),
  PINT("inside_attribute", TP_INSIDE, DOUBLE_ONLY, "double: attribute inside the rectangle"),
  PINT("rect_left", TP_RECT_LEFT, DOUBLE_ONLY, "double: rectangle left"),
  PINT("rect_top", TP_RECT_TOP, DOUBLE_ONLY, "double: rectangle top"),
  PINT("rect_right", TP_RECT_RIGHT, DOUBLE_ONLY, "double: rectangle right"),
  PINT("rect_bottom", TP_RECT_BOTTOM, DOUBLE_ONLY, "double: rectangle bottom"),
  {"mask", "BLOB", get_property_mask, set_property_mask, 0, 0, 0, "mask: one attribute byte per pixel, width*height bytes"},
};

static const ls_table wwd_tile_properties = {
  "wwd_tile_properties", &wwd_format, "one row per tile property of each WWD file",
  property_columns, (int)(sizeof property_columns / sizeof property_columns[0]),
  property_next, ls_key_pos_a, property_seek, NULL, NULL, property_check, 0, describe_property, "tile",
};

/* ---- registration --------------------------------------------------------- */

static const ls_table *const wwd_tables[] = {&wwd_levels, &wwd_planes, &wwd_objects, &wwd_tiles, &wwd_tile_properties};

int wwd_tables_register(sqlite3 *db, ls_session *sess) {
  size_t i;
  int rc = ls_register_format(sess, &wwd_format);
  for (i = 0; rc == SQLITE_OK && i < sizeof wwd_tables / sizeof wwd_tables[0]; i++) {
    rc = ls_register_table(db, sess, wwd_tables[i]);
  }
  return rc;
}
