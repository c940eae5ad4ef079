/*
** tw_tables.c: the Teeworlds / DDNet map table family (tw_maps, tw_groups,
** tw_layers, tw_tiles, tw_quads, tw_images, tw_envelopes, tw_sounds)
** declared for the generic engine over codecs/twmap.h.
**
** The model the engine holds is a small wrapper (tw_model) around the
** codec's tw_map: the map, plus the row-key base of every layer (the number
** of tile cells and quads of the layers before it), computed once because
** layer sizes never change (no table resizes layers or adds quads).  So a
** tile's key is base[layer] + y * width + x and a quad's base[layer] + quad,
** unique within each table, O(1) to compute, and stable across edits.  A
** layer whose rows would not fit under LS_KEY_MAX (never in a real map) is
** left out of the scans.
**
** Lazy decoding: the iterators only look at layer geometry (width, height,
** counts from the items); the getters decode, through the codec, the one
** layer a row belongs to on first use (tw_layer_load inflates only that
** layer's blob).  So `WHERE grp = 1 AND layer = 0` (grp, layer, layer_index,
** x and y are pushed down) never touches the other layers, and a query that
** reads no cell field (count(*), x, y) decodes nothing: that is all
** ls_scan.cols_used could buy here.  A layer whose data is damaged fails the
** query at the first cell value read, with the codec's message; only
** levelsql_files and scans with on_error=skip decode every layer up front
** (tw_format_validate), to know whether every table can read the map.
**
** Writing: serialize asks the codec for DF_WRITE_RECOMPRESS, i.e. every blob
** re-inflated and re-compressed with zlib level 6, exactly as DDNet's
** map_resave and editor do; an unchanged map therefore comes out
** byte-identical to map_resave's output whatever zlib level wrote the
** original (keeping the stored blobs would preserve the original bytes of
** maps written by map_optimize or other tools, which map_resave does not).
**
** Text in maps is UTF-8: it is returned as stored and checked to be UTF-8
** (without NUL characters) on write.  "None" indices (-1: no image, no
** envelope, no sound) read as NULL, and NULL writes -1.
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../codecs/twmap.h"
#include "engine.h"
#include "json.h"
#include "tw_tables.h"

#define NCOLS(cols) ((int)(sizeof cols / sizeof cols[0]))

/* ---- the model and the format ------------------------------------------------ */

typedef struct tw_model {
  tw_map *map;   /* owned */
  int64_t *base; /* owned, one per layer: key of its first cell or quad */
} tw_model;

#define MAP_OF(model) (((const tw_model *)(model))->map)
#define ROW_MAP(row) MAP_OF((row)->model)

/* Wraps a map (taking it) and computes the key bases; NULL on OOM (the map
** is freed). */
static tw_model *model_wrap(tw_map *m) {
  tw_model *tm = malloc(sizeof *tm);
  int64_t sum = 0;
  size_t l;
  if (!tm || !(tm->base = malloc(sizeof *tm->base * (m->num_layers ? m->num_layers : 1)))) {
    free(tm);
    tw_map_free(m);
    return NULL;
  }
  tm->map = m;
  for (l = 0; l < m->num_layers; l++) {
    tw_kind k = m->layers[l].kind;
    int64_t n = k <= TW_KIND_TUNE || k == TW_KIND_QUADS ? (int64_t)m->layers[l].count : 0;
    tm->base[l] = sum;
    sum = n > LS_KEY_MAX + 1 - sum ? LS_KEY_MAX + 1 : sum + n; /* saturates */
  }
  return tm;
}

/* Whether every row of layer l has a key within LS_KEY_MAX. */
static int layer_addressable(const tw_model *tm, size_t l) {
  return tm->base[l] + (int64_t)tm->map->layers[l].count <= LS_KEY_MAX + 1;
}

static const char *const tw_extensions[] = {".map", NULL};

/* The codec checks the container and the items; layer data waits. */
static void *tw_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  tw_map *m = NULL;
  tw_model *tm;
  if (!tw_map_parse(data, size, &m, err)) return NULL;
  if (!(tm = model_wrap(m))) codec_fail(err, "map: out of memory");
  return tm;
}

static int tw_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  return tw_map_serialize(MAP_OF(model), DF_WRITE_RECOMPRESS, out, size, err);
}

/* Edited, not yet re-encoded layers are copied too (tw_map_clone). */
static void *tw_format_clone(const void *model) {
  tw_map *m = tw_map_clone(MAP_OF(model));
  return m ? model_wrap(m) : NULL;
}

static void tw_format_free(void *model) {
  tw_model *tm = model;
  if (!tm) return;
  tw_map_free(tm->map);
  free(tm->base);
  free(tm);
}

static size_t tw_format_footprint(const void *model) {
  return sizeof(tw_model) + MAP_OF(model)->num_layers * sizeof(int64_t) + tw_map_footprint(MAP_OF(model));
}

/* Decodes now everything the tables decode on first use: info strings,
** image and sound names, envelope points, and the cells of every tilemap
** and quads layer a scan reaches (decoded parts stay decoded, so a second
** call costs little).  A map it accepts is readable by every table:
** levelsql_files' `ok` and on_error=skip rest on it. */
static int tw_format_validate(void *model, codec_error *err) {
  static const char *const info_columns[] = {"author", "map_version", "credits", "license", "settings"};
  tw_model *tm = model;
  size_t l;
  int f;
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++) {
    const char *s;
    size_t n;
    if (!tw_info_get(tm->map, (tw_info_field)f, &s, &n, err)) {
      char reason[sizeof err->msg];
      memcpy(reason, err->msg, sizeof reason);
      return codec_fail(err, "map info (%s): %s", info_columns[f], reason);
    }
  }
  if (!tw_map_decode_items(tm->map, err)) return 0;
  for (l = 0; l < tm->map->num_layers; l++) {
    tw_kind k = tm->map->layers[l].kind;
    if ((k <= TW_KIND_TUNE || k == TW_KIND_QUADS) && layer_addressable(tm, l) && !tw_layer_load(tm->map, l, err)) return 0;
  }
  return 1;
}

const ls_format tw_format = {
  "tw", tw_extensions, tw_map_sniff, tw_format_parse, tw_format_serialize,
  tw_format_clone, tw_format_free, tw_format_footprint, tw_format_validate,
};

/* ---- shared helpers -------------------------------------------------------- */

/* A codec failure in load(): the engine puts the file in front of it (and,
** on a write, the column being written). */
static int load_error(const codec_error *e, char **err) {
  *err = sqlite3_mprintf("%s", e->msg);
  return SQLITE_ERROR;
}

/* A codec failure in store(): "column x: <codec message>". */
static int store_error(const char *column, const codec_error *e, char **err) {
  *err = sqlite3_mprintf("column %s: %s", column, e->msg);
  return SQLITE_CONSTRAINT;
}

/* The same, for the first column the write changed. */
static int changed_error(const ls_column *cols, int ncols, const unsigned char *changed, const codec_error *e,
                         char **err) {
  int i = 0;
  while (i < ncols - 1 && !changed[i]) i++;
  return store_error(cols[i].name, e, err);
}
#define STORE_ERROR(cols, changed, e, err) changed_error(cols, NCOLS(cols), changed, e, err)

/* Typed columns of the records: UTF-8 text in a NUL-padded array. */
#define UTF8_CHARS(nm, S, field, kinds, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_UTF8, .store = LS_CHARS, .offset = offsetof(S, field), \
   .size = sizeof(((S *)0)->field), .applies = kinds, .doc = doc_}
/* The element count of the tables that are lists of the map's things. */
#define COUNT_OF(fn, field) static int64_t fn(const void *model) { return (int64_t)MAP_OF(model)->field; }

static int in_range(const ls_range *r, int64_t v) {
  return v >= r->lo && v <= r->hi;
}

/* Whether a pushed-down range restricts anything. */
static int range_constrained(const ls_range *r) {
  return r->lo != INT64_MIN || r->hi != INT64_MAX;
}

/* Whether layer l passes the pushed-down ranges on its group, its index in
** the group and its global index (any of them may be NULL: not a column).
** A layer no group lists has NULL grp/layer, so any bound on those drops it. */
static int layer_in_ranges(const tw_map *m, size_t l, const ls_range *grp, const ls_range *layer,
                           const ls_range *index) {
  const tw_layer *L = &m->layers[l];
  if (index && !in_range(index, (int64_t)l)) return 0;
  if (L->group < 0) return !(grp && range_constrained(grp)) && !(layer && range_constrained(layer));
  return (!grp || in_range(grp, L->group)) && (!layer || in_range(layer, L->index_in_group));
}

/* Reads an index into a list of `count` things (images, envelopes), or
** NULL / -1 for none (*out = -1).  A value equal to `current` always
** passes, so maps with odd indices can still be edited elsewhere. */
static int value_index(sqlite3_value *v, const ls_column *col, size_t count, const char *what, int current, int *out,
                       char **err) {
  int64_t x;
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    *out = -1;
    return SQLITE_OK;
  }
  if (ls_value_int(v, col, INT32_MIN, INT32_MAX, &x, err) != SQLITE_OK) return SQLITE_CONSTRAINT;
  if (x == current || x == -1 || (x >= 0 && (uint64_t)x < count)) {
    *out = (int)x;
    return SQLITE_OK;
  }
  if (count == 0) {
    *err = sqlite3_mprintf("column %s: %lld is out of range; the map has no %ss (NULL for none)", col->name,
                           (long long)x, what);
  } else {
    *err = sqlite3_mprintf("column %s: %lld is out of range; it takes a %s index from 0 to %lld (the map has %lld), "
                           "or NULL for none", col->name, (long long)x, what, (long long)count - 1, (long long)count);
  }
  return SQLITE_CONSTRAINT;
}

/* An index result: NULL for "none" (negative). */
static void result_index(sqlite3_context *ctx, int v) {
  if (v >= 0) sqlite3_result_int(ctx, v);
}

/* A codec failure inside a getter becomes the statement's error, with the
** file in front as the engine puts it for edits ("<file>: <what>"). */
static void result_codec_error(const ls_row *row, sqlite3_context *ctx, const codec_error *e) {
  char *msg = row->file && row->file->path ? sqlite3_mprintf("%s: %s", row->file->path, e->msg) : NULL;
  sqlite3_result_error(ctx, msg ? msg : e->msg, -1);
  sqlite3_free(msg);
}

/* A codec failure inside a setter: "column x: <codec message>". */
static int setter_codec_error(const ls_column *col, const codec_error *e, char **err) {
  *err = sqlite3_mprintf("column %s: %s", col->name, e->msg);
  return SQLITE_CONSTRAINT;
}

/* Appends a JSON array of n ints. */
static void json_append_ints(sqlite3_str *out, const int *v, int n) {
  int i;
  sqlite3_str_appendchar(out, 1, '[');
  for (i = 0; i < n; i++) sqlite3_str_appendf(out, "%s%d", i ? "," : "", v[i]);
  sqlite3_str_appendchar(out, 1, ']');
}

/* ---- JSON input ------------------------------------------------------------ */

/* A JSON value being read by a setter.  It is parsed by SQLite's own JSON
** functions on a private in-memory connection (setters have no handle on
** the user's), so escapes and numbers mean exactly what they mean in SQL;
** elements are addressed by JSON path ("$[2].values[0]"). */
typedef struct jin {
  sqlite3 *db;
  sqlite3_stmt *node; /* type, value and array length at path ?2 */
  sqlite3_stmt *keys; /* keys of the object at path ?2 */
  const ls_column *col;
  const char *example;
  char **err;
} jin;

/* Closes the private connection; safe to call twice. */
static void jin_close(jin *j) {
  sqlite3_finalize(j->node);
  sqlite3_finalize(j->keys);
  sqlite3_close(j->db);
  j->node = j->keys = NULL;
  j->db = NULL;
}

/* Opens value v for reading; it must be text holding valid JSON.  Errors
** show `example`, a valid value. */
static int jin_open(jin *j, sqlite3_value *v, const ls_column *col, const char *example, char **err) {
  sqlite3_stmt *valid = NULL;
  int rc, ok = 0;
  memset(j, 0, sizeof *j);
  j->col = col;
  j->example = example;
  j->err = err;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    *err = sqlite3_mprintf("column %s: %s; it takes JSON text, e.g. '%s'", col->name,
                           sqlite3_value_type(v) == SQLITE_NULL ? "NULL" : "not text", example);
    return SQLITE_CONSTRAINT;
  }
  rc = sqlite3_open_v2(":memory:", &j->db, SQLITE_OPEN_READWRITE, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(j->db, "SELECT json_valid(?1)", -1, &valid, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_value(valid, 1, v);
    ok = sqlite3_step(valid) == SQLITE_ROW && sqlite3_column_int(valid, 0) != 0;
  }
  sqlite3_finalize(valid);
  if (rc == SQLITE_OK) {
    rc = sqlite3_prepare_v2(j->db, "SELECT json_type(?1, ?2), json_extract(?1, ?2), json_array_length(?1, ?2)", -1,
                            &j->node, NULL);
  }
  if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(j->db, "SELECT key FROM json_each(?1, ?2)", -1, &j->keys, NULL);
  if (rc != SQLITE_OK) {
    jin_close(j);
    return SQLITE_NOMEM;
  }
  if (!ok) {
    *err = sqlite3_mprintf("column %s: not valid JSON; it takes JSON like '%s'", col->name, example);
    jin_close(j);
    return SQLITE_CONSTRAINT;
  }
  sqlite3_bind_value(j->node, 1, v);
  sqlite3_bind_value(j->keys, 1, v);
  return SQLITE_OK;
}

/* Looks at path: its JSON type into type[16] ("" when absent), its integer
** value (integers) and its length (arrays). */
static int jin_node(jin *j, const char *path, char type[16], int64_t *iv, int64_t *len) {
  int rc;
  type[0] = 0;
  *iv = 0;
  *len = 0;
  sqlite3_bind_text(j->node, 2, path, -1, SQLITE_TRANSIENT);
  rc = sqlite3_step(j->node);
  if (rc == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(j->node, 0);
    if (t) {
      strncpy(type, t, 15);
      type[15] = 0;
    }
    *iv = sqlite3_column_int64(j->node, 1);
    *len = sqlite3_column_int64(j->node, 2);
    rc = SQLITE_OK;
  } else {
    *j->err = sqlite3_mprintf("column %s: cannot read the JSON: %s", j->col->name, sqlite3_errmsg(j->db));
    rc = SQLITE_CONSTRAINT;
  }
  sqlite3_reset(j->node);
  return rc;
}

/* The array at path must have nmin..nmax elements; *n gets the count.
** `what` names it in errors ("the value", "point 3 values"). */
static int jin_array(jin *j, const char *path, const char *what, int64_t nmin, int64_t nmax, int64_t *n) {
  char type[16];
  int64_t iv;
  int rc = jin_node(j, path, type, &iv, n);
  if (rc != SQLITE_OK) return rc;
  if (strcmp(type, "array") != 0) {
    *j->err = sqlite3_mprintf("column %s: %s is %s, not an array; e.g. '%s'", j->col->name, what,
                              type[0] ? type : "missing", j->example);
    return SQLITE_CONSTRAINT;
  }
  if (*n < nmin || *n > nmax) {
    if (nmin == nmax)
      *j->err = sqlite3_mprintf("column %s: %s has %lld elements; it takes exactly %lld, e.g. '%s'", j->col->name, what,
                                (long long)*n, (long long)nmin, j->example);
    else
      *j->err = sqlite3_mprintf("column %s: %s has %lld elements; it takes %lld to %lld", j->col->name, what,
                                (long long)*n, (long long)nmin, (long long)nmax);
    return SQLITE_CONSTRAINT;
  }
  return SQLITE_OK;
}

/* The integer at path, within min..max (a value equal to *keep, when keep
** is given, always passes).  `what` names it ("points[4][1]"). */
static int jin_int(jin *j, const char *path, const char *what, int64_t min, int64_t max, const int *keep, int *out) {
  char type[16];
  int64_t iv, len;
  int rc = jin_node(j, path, type, &iv, &len);
  if (rc != SQLITE_OK) return rc;
  if (strcmp(type, "integer") != 0) {
    *j->err = sqlite3_mprintf("column %s: %s is %s; it takes an integer from %lld to %lld", j->col->name, what,
                              type[0] ? type : "missing", (long long)min, (long long)max);
    return SQLITE_CONSTRAINT;
  }
  if ((iv < min || iv > max) && !(keep && iv == *keep)) {
    *j->err = sqlite3_mprintf("column %s: %s = %lld is out of range; it takes an integer from %lld to %lld",
                              j->col->name, what, (long long)iv, (long long)min, (long long)max);
    return SQLITE_CONSTRAINT;
  }
  *out = (int)iv;
  return SQLITE_OK;
}

/* The object at path may only have keys from `allowed` (NULL-terminated). */
static int jin_keys(jin *j, const char *path, const char *what, const char *const *allowed) {
  int rc, bad = 0;
  sqlite3_bind_text(j->keys, 2, path, -1, SQLITE_TRANSIENT);
  while ((rc = sqlite3_step(j->keys)) == SQLITE_ROW) {
    const char *key = (const char *)sqlite3_column_text(j->keys, 0);
    const char *const *a;
    for (a = allowed; key && *a && strcmp(*a, key) != 0; a++) {
    }
    if (!key || !*a) {
      *j->err = sqlite3_mprintf("column %s: %s has an unknown key '%s'", j->col->name, what, key ? key : "?");
      bad = 1;
      break;
    }
  }
  sqlite3_reset(j->keys);
  if (!bad && rc != SQLITE_DONE) {
    *j->err = sqlite3_mprintf("column %s: cannot read the JSON: %s", j->col->name, sqlite3_errmsg(j->db));
    bad = 1;
  }
  return bad ? SQLITE_CONSTRAINT : SQLITE_OK;
}

/* Reads a rows x cols array of integer arrays into out (row-major); each
** value within min..max unless it equals the current one (cur). */
static int jin_matrix(jin *j, int rows, int cols, int64_t min, int64_t max, const int *cur, int *out) {
  int64_t n;
  int r, c, rc = jin_array(j, "$", "the value", rows, rows, &n);
  for (r = 0; rc == SQLITE_OK && r < rows; r++) {
    char path[32], what[48];
    snprintf(path, sizeof path, "$[%d]", r);
    snprintf(what, sizeof what, "element [%d]", r);
    rc = jin_array(j, path, what, cols, cols, &n);
    for (c = 0; rc == SQLITE_OK && c < cols; c++) {
      snprintf(path, sizeof path, "$[%d][%d]", r, c);
      snprintf(what, sizeof what, "element [%d][%d]", r, c);
      rc = jin_int(j, path, what, min, max, &cur[r * cols + c], &out[r * cols + c]);
    }
  }
  return rc;
}

/* ---- row positions and names ------------------------------------------------ */

static int image_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next((int64_t)MAP_OF(model)->num_images, scan, pos, first);
}
static int image_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek((int64_t)MAP_OF(model)->num_images, key, pos);
}
static int envelope_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next((int64_t)MAP_OF(model)->num_envelopes, scan, pos, first);
}
static int envelope_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek((int64_t)MAP_OF(model)->num_envelopes, key, pos);
}
static int sound_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  return ls_index_next((int64_t)MAP_OF(model)->num_sounds, scan, pos, first);
}
static int sound_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek((int64_t)MAP_OF(model)->num_sounds, key, pos);
}

/* "layer 3 (group 1, layer 0)": how errors name a layer. */
static char *layer_name(const tw_map *m, int64_t l) {
  const tw_layer *L = &m->layers[l];
  if (L->group < 0) return sqlite3_mprintf("layer_index %lld (in no group)", (long long)l);
  return sqlite3_mprintf("group %ld layer %ld (layer_index %lld)", L->group, L->index_in_group, (long long)l);
}

/* "group 1 layer 0 (layer_index 5)". */
static char *describe_layer(const void *model, const ls_pos *pos) {
  return layer_name(MAP_OF(model), pos->a);
}
/* "tile x 5, y 7 of group 1 layer 0 (layer_index 5)". */
static char *describe_tile(const void *model, const ls_pos *pos) {
  char *l = layer_name(MAP_OF(model), pos->a);
  char *s = sqlite3_mprintf("tile x %lld, y %lld of %s", (long long)pos->c, (long long)pos->b, l ? l : "?");
  sqlite3_free(l);
  return s;
}
/* "quad 2 of group 0 layer 0 (layer_index 0)". */
static char *describe_quad(const void *model, const ls_pos *pos) {
  char *l = layer_name(MAP_OF(model), pos->a);
  char *s = sqlite3_mprintf("quad %lld of %s", (long long)pos->b, l ? l : "?");
  sqlite3_free(l);
  return s;
}
/* "image 1". */
static char *describe_image(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("image %lld", (long long)pos->a);
}
/* "envelope 0". */
static char *describe_envelope(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("envelope %lld", (long long)pos->a);
}
/* "sound 0". */
static char *describe_sound(const void *model, const ls_pos *pos) {
  (void)model;
  return sqlite3_mprintf("sound %lld", (long long)pos->a);
}

/* The group of the row's layer (pos.a), NULL when no group lists it. */
static void get_layer_group(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const tw_layer *L = &ROW_MAP(row)->layers[row->pos.a];
  (void)col;
  if (L->group >= 0) sqlite3_result_int64(ctx, L->group);
}

/* The index of the row's layer inside its group, NULL when in no group. */
static void get_layer_in_group(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const tw_layer *L = &ROW_MAP(row)->layers[row->pos.a];
  (void)col;
  if (L->group >= 0) sqlite3_result_int64(ctx, L->index_in_group);
}

/* The kind of the row's layer: "tiles", "game", ... (tw_kind_name). */
static void get_layer_kind(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_text(ctx, tw_kind_name(ROW_MAP(row)->layers[row->pos.a].kind), -1, SQLITE_STATIC);
}

/* ---- tw_maps ----------------------------------------------------------------- */

/* The map's counts and identity, and its info strings as stored (author,
** version, credits, license: NULL when absent; settings: the commands
** back to back, each with its NUL). */
typedef struct map_rec {
  int64_t df_version, groups, layers, images, envelopes, sounds, file_size;
  uint32_t crc32;
  int32_t style;
  ls_span info[TW_INFO_SETTINGS + 1];
} map_rec;

static int map_load(const ls_row *row, char **err) {
  tw_map *m = ROW_MAP(row);
  map_rec *r = row->rec;
  codec_error e;
  int f;
  r->df_version = m->df->version;
  r->groups = (int64_t)m->num_groups;
  r->layers = (int64_t)m->num_layers;
  r->images = (int64_t)m->num_images;
  r->envelopes = (int64_t)m->num_envelopes;
  r->sounds = (int64_t)m->num_sounds;
  r->file_size = (int64_t)m->file_size;
  r->crc32 = m->crc32;
  r->style = (int32_t)m->style;
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++) {
    const char *s;
    size_t n;
    if (!tw_info_get(m, (tw_info_field)f, &s, &n, &e)) return load_error(&e, err);
    r->info[f].p = s;
    r->info[f].n = n;
  }
  return SQLITE_OK;
}

/* The SHA-256 of the file as read, in lower-case hex (DDNet's map
** identity). */
static void get_map_sha256(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  char hex[65];
  int i;
  (void)col;
  for (i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", ROW_MAP(row)->sha256[i]);
  sqlite3_result_text(ctx, hex, 64, SQLITE_TRANSIENT);
}

#define TW_SETTING_MAX 255 /* DDNet's editor keeps each command in 256 bytes */
#define TW_SETTINGS_MAX 100000
static const char settings_example[] = "[\"sv_hit 1\", \"tune gravity 0.5\"]";

/* The settings (server commands) as a JSON array of strings. */
static void get_settings(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const ls_span *set = &((const map_rec *)row->rec)->info[TW_INFO_SETTINGS];
  const char *s = set->p;
  size_t i = 0;
  sqlite3_str *out = sqlite3_str_new(NULL);
  (void)col;
  sqlite3_str_appendchar(out, 1, '[');
  while (s && i < set->n) {
    const char *z = memchr(s + i, 0, set->n - i);
    size_t len = z ? (size_t)(z - (s + i)) : set->n - i;
    if (i) sqlite3_str_appendchar(out, 1, ',');
    ls_json_append_string(out, s + i, len);
    i += len + 1;
  }
  sqlite3_str_appendchar(out, 1, ']');
  ls_json_result(ctx, out);
}

/* Sets the settings from a JSON array of strings (UTF-8, 255 bytes each);
** [] removes them. */
static int set_settings(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  ls_span *set = &((map_rec *)row->rec)->info[TW_INFO_SETTINGS];
  ls_json *root = NULL;
  const ls_json *item;
  char *buf = NULL;
  size_t total = 0, i = 0;
  int rc = ls_json_value(v, col, settings_example, &root, err);
  if (rc == SQLITE_OK) rc = ls_json_check_array(root, col, "the value", 0, TW_SETTINGS_MAX, settings_example, err);
  for (item = rc == SQLITE_OK ? root->child : NULL; rc == SQLITE_OK && item; item = item->next, i++) {
    char *msg = NULL;
    if (item->type != LS_JSON_STRING) {
      *err = sqlite3_mprintf("column %s: element %lld is %s, not a string", col->name, (long long)i,
                             ls_json_type_name(item));
      rc = SQLITE_CONSTRAINT;
    } else if ((rc = ls_text_utf8(item->s, item->n, col, 0, TW_SETTING_MAX, &msg)) != SQLITE_OK) {
      *err = sqlite3_mprintf("%s (element %lld)", msg ? msg : "bad setting", (long long)i);
      sqlite3_free(msg);
    }
    total += item->n + 1;
  }
  if (rc == SQLITE_OK && !(buf = ls_arena_alloc(row->arena, total + 1))) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK) {
    set->p = buf;
    set->n = total;
    for (item = root->child; item; item = item->next) {
      memcpy(buf, item->s, item->n + 1); /* with its NUL */
      buf += item->n + 1;
    }
  }
  ls_json_free(root);
  return rc;
}

static const char *const style_names[] = {"0.6", "0.7", "ddnet", NULL};

#define MINT(nm, st, field, doc_) LS_COL_INT(nm, st, map_rec, field, LS_COL_RO, doc_)
#define MTEXT(nm, f, max_bytes, doc_)                                                                    \
  {.name = nm, .type = "TEXT", .kind = LS_UTF8, .store = LS_SPAN, .offset = offsetof(map_rec, info[f]), \
   .max = max_bytes, .flags = LS_COL_NULL, .doc = doc_}

static const ls_column map_columns[] = {
  MINT("datafile_version", LS_I64, df_version, "datafile container version as read (3 or 4; levelsql writes 4)"),
  {.name = "style", .type = "TEXT", .kind = LS_ENUM, .store = LS_I32, .offset = offsetof(map_rec, style),
   .flags = LS_COL_RO, .aux = style_names, .doc = "'0.6', '0.7' or 'ddnet': the dialect the items show"},
  MTEXT("author", TW_INFO_AUTHOR, 31, "map info: author (31 bytes); NULL when absent, and setting NULL or '' removes it"),
  MTEXT("map_version", TW_INFO_VERSION, 15, "map info: version string (15 bytes)"),
  MTEXT("credits", TW_INFO_CREDITS, 127, "map info: credits (127 bytes)"),
  MTEXT("license", TW_INFO_LICENSE, 31, "map info: license (31 bytes)"),
  LS_COL_CUSTOM("settings", "TEXT", get_settings, set_settings, "DDNet server settings: JSON array of command strings (255 bytes each); [] for none"),
  MINT("num_groups", LS_I64, groups, "number of groups"),
  MINT("num_layers", LS_I64, layers, "number of layers (all groups)"),
  MINT("num_images", LS_I64, images, "number of images"),
  MINT("num_envelopes", LS_I64, envelopes, "number of envelopes"),
  MINT("num_sounds", LS_I64, sounds, "number of sounds"),
  MINT("file_size", LS_I64, file_size, "size of the file as last read or written, in bytes"),
  MINT("crc32", LS_U32, crc32, "zlib crc32 of the file as last read or written (what 0.6 servers announce)"),
  {.name = "sha256", .type = "TEXT", .kind = LS_CUSTOM, .get = get_map_sha256, .flags = LS_COL_NOREC,
   .doc = "SHA-256 of the file as last read or written, hex: the map identity DDNet servers use"},
};

/* Writes the info strings that changed ('' or [] removes one); an
** unchanged one leaves its blob alone. */
static int map_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const map_rec *r = row->rec, *was = old;
  int f, differs[TW_INFO_SETTINGS + 1];
  codec_error e;
  /* compare first: a write may move the blobs the old values point into */
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++) {
    differs[f] = r->info[f].n != was->info[f].n || (r->info[f].n && memcmp(r->info[f].p, was->info[f].p, r->info[f].n));
  }
  for (f = TW_INFO_AUTHOR; f <= TW_INFO_SETTINGS; f++) {
    if (differs[f] && !tw_info_set(ROW_MAP(row), (tw_info_field)f, r->info[f].n ? r->info[f].p : NULL, r->info[f].n, &e))
      return STORE_ERROR(map_columns, changed, &e, err);
  }
  return SQLITE_OK;
}

static const ls_table tw_maps = {
  .name = "tw_maps", .format = &tw_format, .doc = "one row per Teeworlds/DDNet map: info and identity",
  .columns = map_columns, .ncolumns = NCOLS(map_columns),
  .shape = {LS_SHAPE_ONE, NULL, NULL, NULL}, .row_name = "map info",
  .rows_per_file = 1, /* the corpus average */
  .record_size = sizeof(map_rec), .load = map_load, .store = map_store,
};

/* ---- tw_groups --------------------------------------------------------------- */

COUNT_OF(count_groups, num_groups)

/* The record is the codec's tw_group_info. */
static int group_load(const ls_row *row, char **err) {
  codec_error e;
  return tw_group_get(ROW_MAP(row), (size_t)row->pos.a, row->rec, &e) ? SQLITE_OK : load_error(&e, err);
}

#define GINT(nm, field, fl, doc_) LS_COL_INT(nm, LS_I32, tw_group_info, field, fl, doc_)

static const ls_column group_columns[] = {
  LS_COL_POS("grp", 0, LS_COL_RANGE | LS_COL_VALUES(7), "group index, 0-based, in file order"),
  UTF8_CHARS("name", tw_group_info, name, 0, "group name (11 bytes); setting it on an old group item raises its version to 3"),
  GINT("offset_x", offset_x, 0, "x offset"),
  GINT("offset_y", offset_y, 0, "y offset"),
  GINT("parallax_x", parallax_x, 0, "horizontal parallax in percent (100: moves with the world)"),
  GINT("parallax_y", parallax_y, 0, "vertical parallax in percent"),
  LS_COL_INT_IN("clipping", LS_I32, tw_group_info, clipping, 0, 1, 0, "1 when drawing is clipped to the clip rectangle"),
  GINT("clip_x", clip_x, 0, "clip rectangle x"),
  GINT("clip_y", clip_y, 0, "clip rectangle y"),
  GINT("clip_w", clip_w, 0, "clip rectangle width"),
  GINT("clip_h", clip_h, 0, "clip rectangle height"),
  GINT("num_layers", num_layers, LS_COL_RO, "layers in the group"),
  GINT("start_layer", start_layer, LS_COL_RO, "layer_index of its first layer"),
  GINT("version", version, LS_COL_RO, "group item version (3 in current maps)"),
};

/* The codec raises an old group item's version to hold a name or clipping. */
static int group_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  codec_error e;
  if (memcmp(row->rec, old, sizeof(tw_group_info)) == 0 || tw_group_set(ROW_MAP(row), (size_t)row->pos.a, row->rec, &e))
    return SQLITE_OK;
  return STORE_ERROR(group_columns, changed, &e, err);
}

static const ls_table tw_groups = {
  .name = "tw_groups", .format = &tw_format, .doc = "one row per group of each map",
  .columns = group_columns, .ncolumns = NCOLS(group_columns),
  .shape = {LS_SHAPE_ARRAY, count_groups, NULL, NULL}, .row_name = "group %a",
  .rows_per_file = 7, /* the corpus average */
  .record_size = sizeof(tw_group_info), .load = group_load, .store = group_store,
};
/* ---- tw_layers --------------------------------------------------------------- */

enum { LC_GRP, LC_LAYER, LC_LAYER_INDEX };

/* Layers in global order, within the ranges on layer_index, grp and layer. */
static int layer_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const tw_map *m = MAP_OF(model);
  int64_t l = first ? 0 : pos->a + 1;
  while (ls_range_first(&scan->range[LC_LAYER_INDEX], l, (int64_t)m->num_layers, &l)) {
    if (layer_in_ranges(m, (size_t)l, &scan->range[LC_GRP], &scan->range[LC_LAYER], NULL)) {
      pos->a = l;
      pos->b = pos->c = 0;
      return 1;
    }
    l++;
  }
  return 0;
}

/* A layer row's key is its global index. */
static int layer_seek(const void *model, int64_t key, ls_pos *pos) {
  return ls_index_seek((int64_t)MAP_OF(model)->num_layers, key, pos);
}

enum {
  LF_NAME, LF_DETAIL, LF_WIDTH, LF_HEIGHT, LF_COLOR, LF_COLOR_ENV, LF_COLOR_ENV_OFF, LF_IMAGE, LF_IMAGE_NAME,
  LF_NUM_QUADS, LF_NUM_SOURCES, LF_SOUND, LF_VERSION
};

/* Whether layer kind k has field f (NULL otherwise). */
static int layer_has_field(tw_kind k, int f) {
  int tilemap = k <= TW_KIND_TUNE, sounds = k == TW_KIND_SOUNDS || k == TW_KIND_SOUNDS_DEPRECATED;
  switch (f) {
    case LF_NAME: case LF_DETAIL: case LF_VERSION: return k != TW_KIND_UNKNOWN;
    case LF_WIDTH: case LF_HEIGHT: case LF_COLOR: case LF_COLOR_ENV: case LF_COLOR_ENV_OFF: return tilemap;
    case LF_IMAGE: case LF_IMAGE_NAME: return tilemap || k == TW_KIND_QUADS;
    case LF_NUM_QUADS: return k == TW_KIND_QUADS;
    case LF_NUM_SOURCES: case LF_SOUND: return sounds;
  }
  return 0;
}

/* col->arg: the field (LF_*), col->arg2: the color component. */
static void get_layer_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_map *m = ROW_MAP(row);
  tw_layer_info li;
  codec_error e;
  if (!layer_has_field(m->layers[row->pos.a].kind, col->arg)) return;
  if (!tw_layer_get(m, (size_t)row->pos.a, &li, &e)) {
    result_codec_error(row, ctx, &e);
    return;
  }
  switch (col->arg) {
    case LF_NAME: sqlite3_result_text(ctx, li.name, -1, SQLITE_TRANSIENT); break;
    case LF_DETAIL: sqlite3_result_int(ctx, li.detail); break;
    case LF_WIDTH: sqlite3_result_int(ctx, li.width); break;
    case LF_HEIGHT: sqlite3_result_int(ctx, li.height); break;
    case LF_COLOR: sqlite3_result_int(ctx, li.color[col->arg2]); break;
    case LF_COLOR_ENV: result_index(ctx, li.color_env); break;
    case LF_COLOR_ENV_OFF: sqlite3_result_int(ctx, li.color_env_offset); break;
    case LF_IMAGE: result_index(ctx, li.image); break;
    case LF_IMAGE_NAME: {
      tw_image_info im;
      if (li.image >= 0 && (size_t)li.image < m->num_images) {
        if (!tw_image_get(m, (size_t)li.image, &im, &e)) result_codec_error(row, ctx, &e);
        else if (im.name) sqlite3_result_text(ctx, im.name, (int)im.name_len, SQLITE_TRANSIENT);
      }
      break;
    }
    case LF_NUM_QUADS: sqlite3_result_int(ctx, li.num_quads); break;
    case LF_NUM_SOURCES: sqlite3_result_int(ctx, li.num_sources); break;
    case LF_SOUND: result_index(ctx, li.sound); break;
    case LF_VERSION: sqlite3_result_int(ctx, li.version); break;
  }
}

/* Writes one field through tw_layer_set.  Setting NULL on a field the
** layer kind lacks (what it reads as) is accepted and changes nothing. */
static int set_layer_field(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_map *m = ROW_MAP(row);
  tw_kind k = m->layers[row->pos.a].kind;
  tw_layer_info li, before;
  codec_error e;
  int64_t x;
  int rc = SQLITE_OK;
  if (!layer_has_field(k, col->arg)) {
    if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
    *err = sqlite3_mprintf("column %s: a %s layer has no %s", col->name, tw_kind_name(k), col->name);
    return SQLITE_CONSTRAINT;
  }
  if (!tw_layer_get(m, (size_t)row->pos.a, &li, &e)) return setter_codec_error(col, &e, err);
  before = li;
  switch (col->arg) {
    case LF_NAME: {
      const char *s;
      size_t n;
      rc = ls_value_utf8(v, col, 0, sizeof li.name - 1, &s, &n, err);
      if (rc == SQLITE_OK) {
        memset(li.name, 0, sizeof li.name);
        memcpy(li.name, s, n);
      }
      break;
    }
    case LF_DETAIL:
      if ((rc = ls_value_int(v, col, 0, 1, &x, err)) == SQLITE_OK) li.detail = (int)x;
      break;
    case LF_COLOR:
      if ((rc = ls_value_int(v, col, 0, 255, &x, err)) == SQLITE_OK) li.color[col->arg2] = (int)x;
      break;
    case LF_COLOR_ENV:
      rc = value_index(v, col, m->num_envelopes, "envelope", li.color_env, &li.color_env, err);
      break;
    case LF_COLOR_ENV_OFF:
      if ((rc = ls_value_int(v, col, INT32_MIN, INT32_MAX, &x, err)) == SQLITE_OK) li.color_env_offset = (int)x;
      break;
    case LF_IMAGE:
      rc = value_index(v, col, m->num_images, "image", li.image, &li.image, err);
      break;
    default:
      *err = sqlite3_mprintf("column %s is read-only", col->name);
      rc = SQLITE_CONSTRAINT;
      break;
  }
  if (rc != SQLITE_OK || memcmp(&li, &before, sizeof li) == 0) return rc;
  if (!tw_layer_set(m, (size_t)row->pos.a, &li, &e)) return setter_codec_error(col, &e, err);
  return SQLITE_OK;
}

#define LFIELD(name, type, field, setter, doc) {name, type, get_layer_field, setter, field, 0, 0, doc}
#define LCOLOR(name, c, doc) {name, "INTEGER", get_layer_field, set_layer_field, LF_COLOR, c, 0, doc}

static const ls_column layer_columns[] = {
  {"grp", "INTEGER", get_layer_group, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(7), "group index (NULL for a layer no group lists)"},
  {"layer", "INTEGER", get_layer_in_group, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(8), "index of the layer in its group"},
  {"layer_index", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(20), "index among all layers of the map"},
  {"kind", "TEXT", get_layer_kind, NULL, 0, 0, 0, "'tiles', 'game', 'front', 'tele', 'speedup', 'switch', 'tune', 'quads', 'sounds', 'sounds_deprecated' or 'unknown'"},
  LFIELD("name", "TEXT", LF_NAME, set_layer_field, "layer name (11 bytes)"),
  LFIELD("detail", "INTEGER", LF_DETAIL, set_layer_field, "1: detail layer (hidden with high detail off)"),
  LFIELD("width", "INTEGER", LF_WIDTH, NULL, "tilemaps: width in tiles"),
  LFIELD("height", "INTEGER", LF_HEIGHT, NULL, "tilemaps: height in tiles"),
  LCOLOR("color_r", 0, "tilemaps: color red 0..255"),
  LCOLOR("color_g", 1, "tilemaps: color green 0..255"),
  LCOLOR("color_b", 2, "tilemaps: color blue 0..255"),
  LCOLOR("color_a", 3, "tilemaps: color alpha 0..255"),
  LFIELD("color_env", "INTEGER", LF_COLOR_ENV, set_layer_field, "tilemaps: color envelope index (NULL: none)"),
  LFIELD("color_env_offset", "INTEGER", LF_COLOR_ENV_OFF, set_layer_field, "tilemaps: color envelope time offset (ms)"),
  LFIELD("image", "INTEGER", LF_IMAGE, set_layer_field, "tilemaps and quads: image index (NULL: none)"),
  LFIELD("image_name", "TEXT", LF_IMAGE_NAME, NULL, "name of that image"),
  LFIELD("num_quads", "INTEGER", LF_NUM_QUADS, NULL, "quads layers: number of quads"),
  LFIELD("num_sources", "INTEGER", LF_NUM_SOURCES, NULL, "sounds layers: number of sound sources"),
  LFIELD("sound", "INTEGER", LF_SOUND, NULL, "sounds layers: sound index (NULL: none)"),
  LFIELD("version", "INTEGER", LF_VERSION, NULL, "layer item version (tilemap 3 in DDNet, 4 in 0.7)"),
};

static const ls_table tw_layers = {
  "tw_layers", &tw_format, "one row per layer of each map",
  layer_columns, (int)(sizeof layer_columns / sizeof layer_columns[0]),
  layer_next, ls_key_pos_a, layer_seek, NULL, NULL, NULL, 0, describe_layer, NULL,
  20, /* rows_per_file, the corpus average */
};

/* ---- tw_tiles ---------------------------------------------------------------- */

/* Column numbers (pushed-down ranges and getters). */
enum {
  TC_GRP, TC_LAYER, TC_X, TC_Y, TC_ID, TC_FLAGS, TC_NUMBER, TC_FORCE, TC_MAX_SPEED, TC_ANGLE, TC_DELAY,
  TC_LAYER_INDEX, TC_KIND
};

/* Cells of the tilemap layers within the ranges: layer by layer (skipping
** layers out of range without looking at their data), row by row. */
static int tile_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const tw_model *tm = model;
  const tw_map *m = tm->map;
  const ls_range *r = scan->range;
  int64_t l = first ? 0 : pos->a, y = first ? INT64_MIN : pos->b, x = first ? INT64_MIN : pos->c + 1;
  for (;;) {
    int64_t next;
    const tw_layer *L;
    if (!ls_range_first(&r[TC_LAYER_INDEX], l, (int64_t)m->num_layers, &next)) return 0;
    if (next != l) {
      l = next;
      x = y = INT64_MIN;
    }
    L = &m->layers[l];
    if (L->kind <= TW_KIND_TUNE && layer_addressable(tm, (size_t)l) &&
        layer_in_ranges(m, (size_t)l, &r[TC_GRP], &r[TC_LAYER], NULL) &&
        ls_grid_step(&r[TC_X], &r[TC_Y], L->width, L->height, &x, &y)) {
      pos->a = l;
      pos->b = y;
      pos->c = x;
      return 1;
    }
    l++;
    x = y = INT64_MIN;
  }
}

/* base[layer] + the cell's number in row-major order (see the top). */
static int64_t tile_key(const void *model, const ls_pos *pos) {
  const tw_model *tm = model;
  return tm->base[pos->a] + pos->b * (int64_t)tm->map->layers[pos->a].width + pos->c;
}

/* The layer of a key: the one whose [base, base + count) holds it, of the
** wanted family (tilemaps or quads). */
static int key_layer(const tw_model *tm, int64_t key, int quads, size_t *out) {
  size_t l;
  for (l = 0; l < tm->map->num_layers; l++) {
    const tw_layer *L = &tm->map->layers[l];
    if ((quads ? L->kind == TW_KIND_QUADS : L->kind <= TW_KIND_TUNE) && layer_addressable(tm, l) &&
        key >= tm->base[l] && key < tm->base[l] + (int64_t)L->count) {
      *out = l;
      return 1;
    }
  }
  return 0;
}

/* The cell of a key: its layer, then y and x from the cell number. */
static int tile_seek(const void *model, int64_t key, ls_pos *pos) {
  const tw_model *tm = model;
  size_t l;
  int64_t cell;
  if (!key_layer(tm, key, 0, &l)) return 0;
  cell = key - tm->base[l];
  pos->a = (int64_t)l;
  pos->b = cell / tm->map->layers[l].width;
  pos->c = cell % tm->map->layers[l].width;
  return 1;
}

/* Byte offset of a cell field in a layer kind's cell, -1 when the kind has
** no such field (the layouts of codecs/twmap.h). */
static int tile_field_offset(tw_kind k, int field) {
  switch (k) {
    case TW_KIND_TELE:
    case TW_KIND_TUNE: return field == TC_NUMBER ? 0 : field == TC_ID ? 1 : -1;
    case TW_KIND_SPEEDUP:
      return field == TC_FORCE ? 0 : field == TC_MAX_SPEED ? 1 : field == TC_ID ? 2 : field == TC_ANGLE ? 4 : -1;
    case TW_KIND_SWITCH:
      return field == TC_NUMBER ? 0 : field == TC_ID ? 1 : field == TC_FLAGS ? 2 : field == TC_DELAY ? 3 : -1;
    default: return field == TC_ID ? 0 : field == TC_FLAGS ? 1 : -1;
  }
}

/* col->arg: the field (TC_*).  Reads the decoded cell directly; the first
** read of a layer decodes it (tw_layer_load), failing the query when its
** data is damaged. */
static void get_tile_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_map *m = ROW_MAP(row);
  tw_layer *L = &m->layers[row->pos.a];
  int off = tile_field_offset(L->kind, col->arg);
  const unsigned char *c;
  codec_error e;
  if (off < 0) return;
  if (!L->loaded && !tw_layer_load(m, (size_t)row->pos.a, &e)) {
    result_codec_error(row, ctx, &e);
    return;
  }
  c = L->cells + ((size_t)row->pos.b * (size_t)L->width + (size_t)row->pos.c) * L->cell_size + off;
  if (col->arg == TC_ANGLE) sqlite3_result_int(ctx, (int16_t)(uint16_t)(c[0] | (c[1] << 8)));
  else sqlite3_result_int(ctx, c[0]);
}

/* Writes one cell field through the codec (which marks the layer for
** re-encoding); an unchanged value leaves the layer alone. */
static int set_tile_field(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_map *m = ROW_MAP(row);
  tw_kind k = m->layers[row->pos.a].kind;
  tw_tile t, before;
  codec_error e;
  int64_t x;
  int *field, rc;
  if (tile_field_offset(k, col->arg) < 0) {
    if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
    *err = sqlite3_mprintf("column %s: a %s layer has no %s", col->name, tw_kind_name(k), col->name);
    return SQLITE_CONSTRAINT;
  }
  rc = col->arg == TC_ANGLE ? ls_value_int(v, col, -32768, 32767, &x, err) : ls_value_int(v, col, 0, 255, &x, err);
  if (rc != SQLITE_OK) return rc;
  if (!tw_tile_get(m, (size_t)row->pos.a, (int)row->pos.c, (int)row->pos.b, &t, &e))
    return setter_codec_error(col, &e, err);
  before = t;
  switch (col->arg) {
    case TC_ID: field = &t.id; break;
    case TC_FLAGS: field = &t.flags; break;
    case TC_NUMBER: field = &t.number; break;
    case TC_FORCE: field = &t.force; break;
    case TC_MAX_SPEED: field = &t.max_speed; break;
    case TC_ANGLE: field = &t.angle; break;
    default: field = &t.delay; break;
  }
  *field = (int)x;
  if (memcmp(&t, &before, sizeof t) == 0) return SQLITE_OK;
  if (!tw_tile_set(m, (size_t)row->pos.a, (int)row->pos.c, (int)row->pos.b, &t, &e))
    return setter_codec_error(col, &e, err);
  return SQLITE_OK;
}

#define TFIELD(name, field, doc) {name, "INTEGER", get_tile_field, set_tile_field, field, 0, 0, doc}

static const ls_column tile_columns[] = {
  {"grp", "INTEGER", get_layer_group, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(3), "group index"},
  {"layer", "INTEGER", get_layer_in_group, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(7), "index of the layer in its group"},
  {"x", "INTEGER", ls_get_pos_c, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(430), "column, 0-based"},
  {"y", "INTEGER", ls_get_pos_b, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(160), "row, 0-based"},
  TFIELD("id", TC_ID, "tile index 0..255 (game layers: 1 solid, 2 death, 3 unhookable, 192-194 spawns...)"),
  TFIELD("flags", TC_FLAGS, "tiles, game, front, switch: 1 vflip, 2 hflip, 4 opaque, 8 rotate (NULL elsewhere)"),
  TFIELD("number", TC_NUMBER, "tele, switch, tune: the number linking tiles"),
  TFIELD("force", TC_FORCE, "speedup: force"),
  TFIELD("max_speed", TC_MAX_SPEED, "speedup: maximal speed (0: none)"),
  TFIELD("angle", TC_ANGLE, "speedup: angle in degrees (-32768..32767)"),
  TFIELD("delay", TC_DELAY, "switch: delay in seconds"),
  {"layer_index", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(10), "index of the layer among all layers"},
  {"kind", "TEXT", get_layer_kind, NULL, 0, 0, 0, "the layer kind ('tiles', 'game', 'front', 'tele', 'speedup', 'switch', 'tune')"},
};

static const ls_table tw_tiles = {
  "tw_tiles", &tw_format, "one row per cell of every tilemap layer of each map",
  tile_columns, (int)(sizeof tile_columns / sizeof tile_columns[0]),
  tile_next, tile_key, tile_seek, NULL, NULL, NULL, 0, describe_tile, "layer_index,y,x",
  1300000, /* rows_per_file, the corpus average */
};

/* ---- tw_quads ---------------------------------------------------------------- */

enum { QC_GRP, QC_LAYER, QC_QUAD, QC_LAYER_INDEX = 10 };

/* Quads of the quads layers within the ranges, layer by layer. */
static int quad_next(const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  const tw_model *tm = model;
  const tw_map *m = tm->map;
  const ls_range *r = scan->range;
  int64_t l = first ? 0 : pos->a, q = first ? 0 : pos->b + 1;
  for (;;) {
    int64_t next;
    const tw_layer *L;
    if (!ls_range_first(&r[QC_LAYER_INDEX], l, (int64_t)m->num_layers, &next)) return 0;
    if (next != l) {
      l = next;
      q = 0;
    }
    L = &m->layers[l];
    if (L->kind == TW_KIND_QUADS && layer_addressable(tm, (size_t)l) &&
        layer_in_ranges(m, (size_t)l, &r[QC_GRP], &r[QC_LAYER], NULL) &&
        ls_range_first(&r[QC_QUAD], q, (int64_t)L->count, &q)) {
      pos->a = l;
      pos->b = q;
      pos->c = 0;
      return 1;
    }
    l++;
    q = 0;
  }
}

/* base[layer] + the quad's index. */
static int64_t quad_key(const void *model, const ls_pos *pos) {
  return ((const tw_model *)model)->base[pos->a] + pos->b;
}

/* The quad of a key: its layer, then the index. */
static int quad_seek(const void *model, int64_t key, ls_pos *pos) {
  const tw_model *tm = model;
  size_t l;
  if (!key_layer(tm, key, 1, &l)) return 0;
  pos->a = (int64_t)l;
  pos->b = key - tm->base[l];
  pos->c = 0;
  return 1;
}

enum { QF_POINTS, QF_COLORS, QF_TEX, QF_POS_ENV, QF_POS_ENV_OFF, QF_COLOR_ENV, QF_COLOR_ENV_OFF };

/* col->arg: the field (QF_*); the three arrays come as JSON. */
static void get_quad_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_quad q;
  codec_error e;
  sqlite3_str *out;
  int i;
  if (!tw_quad_get(ROW_MAP(row), (size_t)row->pos.a, (size_t)row->pos.b, &q, &e)) {
    result_codec_error(row, ctx, &e);
    return;
  }
  switch (col->arg) {
    case QF_POINTS:
    case QF_COLORS:
    case QF_TEX:
      out = sqlite3_str_new(NULL);
      sqlite3_str_appendchar(out, 1, '[');
      for (i = 0; i < (col->arg == QF_POINTS ? 5 : 4); i++) {
        if (i) sqlite3_str_appendchar(out, 1, ',');
        if (col->arg == QF_POINTS) json_append_ints(out, q.points[i], 2);
        else if (col->arg == QF_COLORS) json_append_ints(out, q.colors[i], 4);
        else json_append_ints(out, q.tex[i], 2);
      }
      sqlite3_str_appendchar(out, 1, ']');
      ls_json_result(ctx, out);
      break;
    case QF_POS_ENV: result_index(ctx, q.pos_env); break;
    case QF_POS_ENV_OFF: sqlite3_result_int(ctx, q.pos_env_offset); break;
    case QF_COLOR_ENV: result_index(ctx, q.color_env); break;
    default: sqlite3_result_int(ctx, q.color_env_offset); break;
  }
}

/* Writes one quad field; JSON arrays must have the exact shape, colors
** stay in 0..255 (unless unchanged), envelopes must exist.  An unchanged
** quad leaves the layer alone. */
static int set_quad_field(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_map *m = ROW_MAP(row);
  tw_quad q, before;
  codec_error e;
  jin j;
  int64_t x;
  int rc = SQLITE_OK;
  if (!tw_quad_get(m, (size_t)row->pos.a, (size_t)row->pos.b, &q, &e)) return setter_codec_error(col, &e, err);
  before = q;
  switch (col->arg) {
    case QF_POINTS:
      rc = jin_open(&j, v, col, "[[0,0],[32768,0],[0,32768],[32768,32768],[16384,16384]]", err);
      if (rc == SQLITE_OK) {
        rc = jin_matrix(&j, 5, 2, INT32_MIN, INT32_MAX, &before.points[0][0], &q.points[0][0]);
        jin_close(&j);
      }
      break;
    case QF_COLORS:
      rc = jin_open(&j, v, col, "[[255,255,255,255],[255,255,255,255],[255,255,255,255],[255,255,255,255]]", err);
      if (rc == SQLITE_OK) {
        rc = jin_matrix(&j, 4, 4, 0, 255, &before.colors[0][0], &q.colors[0][0]);
        jin_close(&j);
      }
      break;
    case QF_TEX:
      rc = jin_open(&j, v, col, "[[0,0],[1024,0],[0,1024],[1024,1024]]", err);
      if (rc == SQLITE_OK) {
        rc = jin_matrix(&j, 4, 2, INT32_MIN, INT32_MAX, &before.tex[0][0], &q.tex[0][0]);
        jin_close(&j);
      }
      break;
    case QF_POS_ENV: rc = value_index(v, col, m->num_envelopes, "envelope", before.pos_env, &q.pos_env, err); break;
    case QF_COLOR_ENV:
      rc = value_index(v, col, m->num_envelopes, "envelope", before.color_env, &q.color_env, err);
      break;
    default:
      if ((rc = ls_value_int(v, col, INT32_MIN, INT32_MAX, &x, err)) == SQLITE_OK) {
        if (col->arg == QF_POS_ENV_OFF) q.pos_env_offset = (int)x;
        else q.color_env_offset = (int)x;
      }
      break;
  }
  if (rc != SQLITE_OK || memcmp(&q, &before, sizeof q) == 0) return rc;
  if (!tw_quad_set(m, (size_t)row->pos.a, (size_t)row->pos.b, &q, &e)) return setter_codec_error(col, &e, err);
  return SQLITE_OK;
}

#define QFIELD(name, type, field, doc) {name, type, get_quad_field, set_quad_field, field, 0, 0, doc}

static const ls_column quad_columns[] = {
  {"grp", "INTEGER", get_layer_group, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(5), "group index"},
  {"layer", "INTEGER", get_layer_in_group, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(5), "index of the quads layer in its group"},
  {"quad", "INTEGER", ls_get_pos_b, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(170), "index of the quad in its layer"},
  QFIELD("points", "TEXT", QF_POINTS, "JSON [[x,y] x 4 corners (top-left, top-right, bottom-left, bottom-right), [x,y] pivot], fixed point: 1024 = one pixel, 32768 = one tile"),
  QFIELD("colors", "TEXT", QF_COLORS, "JSON [[r,g,b,a] x 4 corners], 0..255"),
  QFIELD("tex_coords", "TEXT", QF_TEX, "JSON [[u,v] x 4 corners], 1024 = the whole image"),
  QFIELD("pos_env", "INTEGER", QF_POS_ENV, "position envelope index (NULL: none)"),
  QFIELD("pos_env_offset", "INTEGER", QF_POS_ENV_OFF, "position envelope time offset (ms)"),
  QFIELD("color_env", "INTEGER", QF_COLOR_ENV, "color envelope index (NULL: none)"),
  QFIELD("color_env_offset", "INTEGER", QF_COLOR_ENV_OFF, "color envelope time offset (ms)"),
  {"layer_index", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(10), "index of the layer among all layers"},
};

static const ls_table tw_quads = {
  "tw_quads", &tw_format, "one row per quad of every quads layer of each map",
  quad_columns, (int)(sizeof quad_columns / sizeof quad_columns[0]),
  quad_next, quad_key, quad_seek, NULL, NULL, NULL, 0, describe_quad, NULL,
  260, /* rows_per_file, the corpus average */
};

/* ---- tw_images --------------------------------------------------------------- */

enum { IF_NAME, IF_WIDTH, IF_HEIGHT, IF_EXTERNAL, IF_FORMAT, IF_DATA_SIZE, IF_VERSION };

/* col->arg: the field (IF_*). */
static void get_image_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_image_info im;
  codec_error e;
  if (!tw_image_get(ROW_MAP(row), (size_t)row->pos.a, &im, &e)) {
    result_codec_error(row, ctx, &e);
    return;
  }
  switch (col->arg) {
    case IF_NAME: if (im.name) sqlite3_result_text(ctx, im.name, (int)im.name_len, SQLITE_TRANSIENT); break;
    case IF_WIDTH: sqlite3_result_int(ctx, im.width); break;
    case IF_HEIGHT: sqlite3_result_int(ctx, im.height); break;
    case IF_EXTERNAL: sqlite3_result_int(ctx, im.external != 0); break;
    case IF_FORMAT: sqlite3_result_text(ctx, im.format == 0 ? "rgb" : "rgba", -1, SQLITE_STATIC); break;
    case IF_DATA_SIZE: if (im.data_index >= 0) sqlite3_result_int64(ctx, (int64_t)im.data_size); break;
    default: sqlite3_result_int(ctx, im.version); break;
  }
}

#define TW_IMAGE_NAME_MAX 127 /* 128 bytes with the NUL */

static int set_image_name(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_image_info im;
  codec_error e;
  const char *s;
  size_t n;
  int rc = ls_value_utf8(v, col, 1, TW_IMAGE_NAME_MAX, &s, &n, err);
  if (rc != SQLITE_OK) return rc;
  if (tw_image_get(ROW_MAP(row), (size_t)row->pos.a, &im, &e) && im.name && im.name_len == n &&
      memcmp(im.name, s, n) == 0)
    return SQLITE_OK;
  if (!tw_image_set_name(ROW_MAP(row), (size_t)row->pos.a, s, n, &e)) return setter_codec_error(col, &e, err);
  return SQLITE_OK;
}

#define IFIELD(name, type, field, doc) {name, type, get_image_field, NULL, field, 0, 0, doc}

static const ls_column image_columns[] = {
  {"image", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(11), "image index, as layers refer to it"},
  {"name", "TEXT", get_image_field, set_image_name, IF_NAME, 0, 0, "image name (1 to 127 bytes; external images are looked up by it in mapres/)"},
  IFIELD("width", "INTEGER", IF_WIDTH, "width in pixels"),
  IFIELD("height", "INTEGER", IF_HEIGHT, "height in pixels"),
  IFIELD("external", "INTEGER", IF_EXTERNAL, "1: not embedded, loaded from the game's mapres by name"),
  IFIELD("format", "TEXT", IF_FORMAT, "'rgba' or 'rgb' (0.7 image items only)"),
  IFIELD("data_size", "INTEGER", IF_DATA_SIZE, "bytes of embedded pixel data, uncompressed (NULL when external)"),
  IFIELD("version", "INTEGER", IF_VERSION, "image item version (1 DDNet/0.6, 2 0.7)"),
};

static const ls_table tw_images = {
  "tw_images", &tw_format, "one row per image of each map",
  image_columns, (int)(sizeof image_columns / sizeof image_columns[0]),
  image_next, ls_key_pos_a, image_seek, NULL, NULL, NULL, 0, describe_image, NULL,
  11, /* rows_per_file, the corpus average */
};

/* ---- tw_envelopes ------------------------------------------------------------ */

enum { EF_KIND, EF_NAME, EF_SYNC, EF_NUM_POINTS, EF_POINTS, EF_CHANNELS, EF_VERSION };

/* Values a point of an envelope with `channels` channels shows (1 sound, 3
** position: x, y, rotation, 4 color); all 4 when some unused one is not 0,
** so reading and writing back never loses anything. */
static int point_values_shown(int channels, const tw_env_point *p) {
  int n = channels >= 1 && channels <= 4 ? channels : 4, k;
  for (k = n; k < 4; k++)
    if (p->values[k]) return 4;
  return n;
}

/* col->arg: the field (EF_*); points as a JSON array of point objects. */
static void get_envelope_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const tw_map *m = ROW_MAP(row);
  tw_envelope_info en;
  codec_error e;
  if (!tw_envelope_get(m, (size_t)row->pos.a, &en, &e)) {
    result_codec_error(row, ctx, &e);
    return;
  }
  switch (col->arg) {
    case EF_KIND: sqlite3_result_text(ctx, en.kind, -1, SQLITE_STATIC); break;
    case EF_NAME: sqlite3_result_text(ctx, en.name, -1, SQLITE_TRANSIENT); break;
    case EF_SYNC: sqlite3_result_int(ctx, en.synchronized != 0); break;
    case EF_NUM_POINTS: sqlite3_result_int(ctx, en.num_points); break;
    case EF_CHANNELS: sqlite3_result_int(ctx, en.channels); break;
    case EF_VERSION: sqlite3_result_int(ctx, en.version); break;
    default: {
      tw_env_point *p = NULL;
      size_t n, i;
      sqlite3_str *out;
      static const char *const bz_names[4] = {"in_dx", "in_dy", "out_dx", "out_dy"};
      if (!tw_envelope_points(m, (size_t)row->pos.a, &p, &n, &e)) {
        result_codec_error(row, ctx, &e);
        return;
      }
      out = sqlite3_str_new(NULL);
      sqlite3_str_appendchar(out, 1, '[');
      for (i = 0; i < n; i++) {
        int k, any = 0;
        sqlite3_str_appendf(out, "%s{\"time\":%d,\"curve\":%d,\"values\":", i ? "," : "", p[i].time, p[i].curve);
        json_append_ints(out, p[i].values, point_values_shown(en.channels, &p[i]));
        for (k = 0; k < 16; k++) any |= p[i].bezier[k] != 0;
        for (k = 0; any && k < 4; k++) {
          sqlite3_str_appendf(out, ",\"%s\":", bz_names[k]);
          json_append_ints(out, p[i].bezier + 4 * k, 4);
        }
        sqlite3_str_appendchar(out, 1, '}');
      }
      sqlite3_str_appendchar(out, 1, ']');
      free(p);
      ls_json_result(ctx, out);
      break;
    }
  }
}

#define TW_ENV_POINTS_MAX 65536
#define TW_CURVE_MAX 5 /* step, linear, slow, fast, smooth, bezier */

/* Reads the points JSON into a malloc'd array (*pts, *n). */
static int read_env_points(jin *j, const tw_map *m, tw_env_point **pts, int64_t *n) {
  static const char *const keys[] = {"time", "curve", "values", "in_dx", "in_dy", "out_dx", "out_dy", NULL};
  int64_t i, len;
  int rc = jin_array(j, "$", "the value", 0, TW_ENV_POINTS_MAX, n);
  if (rc != SQLITE_OK) return rc;
  *pts = calloc((size_t)(*n ? *n : 1), sizeof **pts);
  if (!*pts) return SQLITE_NOMEM;
  for (i = 0; rc == SQLITE_OK && i < *n; i++) {
    tw_env_point *p = &(*pts)[i];
    char path[64], what[64], type[16];
    int64_t iv, k, b;
    snprintf(path, sizeof path, "$[%lld]", (long long)i);
    snprintf(what, sizeof what, "point %lld", (long long)i);
    if ((rc = jin_node(j, path, type, &iv, &len)) != SQLITE_OK) break;
    if (strcmp(type, "object") != 0) {
      *j->err = sqlite3_mprintf("column %s: %s is %s, not an object; e.g. '%s'", j->col->name, what, type, j->example);
      rc = SQLITE_CONSTRAINT;
      break;
    }
    if ((rc = jin_keys(j, path, what, keys)) != SQLITE_OK) break;
    snprintf(path, sizeof path, "$[%lld].time", (long long)i);
    snprintf(what, sizeof what, "point %lld time", (long long)i);
    if ((rc = jin_int(j, path, what, 0, INT32_MAX, NULL, &p->time)) != SQLITE_OK) break;
    if (i > 0 && p->time < p[-1].time) {
      *j->err = sqlite3_mprintf("column %s: point %lld time %d is before the previous point's %d; times must not "
                                "decrease", j->col->name, (long long)i, p->time, p[-1].time);
      rc = SQLITE_CONSTRAINT;
      break;
    }
    snprintf(path, sizeof path, "$[%lld].curve", (long long)i);
    snprintf(what, sizeof what, "point %lld curve", (long long)i);
    if ((rc = jin_int(j, path, what, 0, TW_CURVE_MAX, NULL, &p->curve)) != SQLITE_OK) break;
    snprintf(path, sizeof path, "$[%lld].values", (long long)i);
    snprintf(what, sizeof what, "point %lld values", (long long)i);
    if ((rc = jin_array(j, path, what, 1, 4, &len)) != SQLITE_OK) break;
    for (k = 0; rc == SQLITE_OK && k < len; k++) {
      snprintf(path, sizeof path, "$[%lld].values[%lld]", (long long)i, (long long)k);
      snprintf(what, sizeof what, "point %lld values[%lld]", (long long)i, (long long)k);
      rc = jin_int(j, path, what, INT32_MIN, INT32_MAX, NULL, &p->values[k]);
    }
    for (b = 0; rc == SQLITE_OK && b < 4; b++) {
      static const char *const bz[4] = {"in_dx", "in_dy", "out_dx", "out_dy"};
      snprintf(path, sizeof path, "$[%lld].%s", (long long)i, bz[b]);
      if ((rc = jin_node(j, path, type, &iv, &len)) != SQLITE_OK || !type[0]) continue;
      snprintf(what, sizeof what, "point %lld %s", (long long)i, bz[b]);
      if ((rc = jin_array(j, path, what, 1, 4, &len)) != SQLITE_OK) break;
      if (!tw_map_has_bezier(m)) {
        *j->err = sqlite3_mprintf("column %s: %s: this map stores no bezier tangents (only 0.7 maps and DDNet maps "
                                  "with bezier points do)", j->col->name, what);
        rc = SQLITE_CONSTRAINT;
        break;
      }
      for (k = 0; rc == SQLITE_OK && k < len; k++) {
        snprintf(path, sizeof path, "$[%lld].%s[%lld]", (long long)i, bz[b], (long long)k);
        snprintf(what, sizeof what, "point %lld %s[%lld]", (long long)i, bz[b], (long long)k);
        rc = jin_int(j, path, what, INT32_MIN, INT32_MAX, NULL, &p->bezier[b * 4 + k]);
      }
    }
  }
  return rc;
}

/* Writes the name (31 bytes), synchronized (0/1) or the points (the
** points item is rebuilt and later envelopes' start points move when
** the count changes). */
static int set_envelope_field(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_map *m = ROW_MAP(row);
  tw_envelope_info en, before;
  codec_error e;
  int64_t x;
  int rc = SQLITE_OK;
  if (!tw_envelope_get(m, (size_t)row->pos.a, &en, &e)) return setter_codec_error(col, &e, err);
  before = en;
  if (col->arg == EF_POINTS) {
    jin j;
    tw_env_point *pts = NULL;
    int64_t n = 0;
    rc = jin_open(&j, v, col, "[{\"time\":0,\"curve\":1,\"values\":[0,0,0]},{\"time\":1000,\"curve\":1,\"values\":[0,0,90]}]", err);
    if (rc != SQLITE_OK) return rc;
    rc = read_env_points(&j, m, &pts, &n);
    jin_close(&j);
    if (rc == SQLITE_OK && !tw_envelope_set_points(m, (size_t)row->pos.a, pts, (size_t)n, &e))
      rc = setter_codec_error(col, &e, err);
    free(pts);
    return rc;
  }
  if (col->arg == EF_NAME) {
    const char *s;
    size_t n;
    if ((rc = ls_value_utf8(v, col, 0, sizeof en.name - 1, &s, &n, err)) != SQLITE_OK) return rc;
    memset(en.name, 0, sizeof en.name);
    memcpy(en.name, s, n);
  } else {
    if ((rc = ls_value_int(v, col, 0, 1, &x, err)) != SQLITE_OK) return rc;
    en.synchronized = (int)x;
  }
  if (strcmp(en.name, before.name) == 0 && en.synchronized == before.synchronized) return SQLITE_OK;
  if (!tw_envelope_set(m, (size_t)row->pos.a, &en, &e)) return setter_codec_error(col, &e, err);
  return SQLITE_OK;
}

#define EFIELD(name, type, field, setter, doc) {name, type, get_envelope_field, setter, field, 0, 0, doc}

static const ls_column envelope_columns[] = {
  {"env", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(5), "envelope index, as layers and quads refer to it"},
  EFIELD("kind", "TEXT", EF_KIND, NULL, "'position', 'color', 'sound' (or 'unknown')"),
  EFIELD("name", "TEXT", EF_NAME, set_envelope_field, "envelope name (31 bytes)"),
  EFIELD("synchronized", "INTEGER", EF_SYNC, set_envelope_field, "1: follows server time rather than the player's join time"),
  EFIELD("num_points", "INTEGER", EF_NUM_POINTS, NULL, "number of points"),
  EFIELD("points", "TEXT", EF_POINTS, set_envelope_field, "JSON [{time (ms), curve (0 step, 1 linear, 2 slow, 3 fast, 4 smooth, 5 bezier), values [x, y, rotation] / [r, g, b, a] / [volume] (fixed point, 1024 = 1.0)}], with in_dx, in_dy, out_dx, out_dy (4 ints each) for bezier tangents; writing may change the number of points"),
  EFIELD("channels", "INTEGER", EF_CHANNELS, NULL, "channels: 1 sound, 3 position, 4 color"),
  EFIELD("version", "INTEGER", EF_VERSION, NULL, "envelope item version"),
};

static const ls_table tw_envelopes = {
  "tw_envelopes", &tw_format, "one row per envelope (animation curve) of each map",
  envelope_columns, (int)(sizeof envelope_columns / sizeof envelope_columns[0]),
  envelope_next, ls_key_pos_a, envelope_seek, NULL, NULL, NULL, 0, describe_envelope, NULL,
  4, /* rows_per_file, the corpus average */
};

/* ---- tw_sounds --------------------------------------------------------------- */

static void get_sound_field(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_sound_info s;
  codec_error e;
  if (!tw_sound_get(ROW_MAP(row), (size_t)row->pos.a, &s, &e)) {
    result_codec_error(row, ctx, &e);
    return;
  }
  if (col->arg == 0) {
    if (s.name) sqlite3_result_text(ctx, s.name, (int)s.name_len, SQLITE_TRANSIENT);
  } else if (s.data_index >= 0) {
    sqlite3_result_int64(ctx, (int64_t)s.data_size);
  }
}

static const ls_column sound_columns[] = {
  {"sound", "INTEGER", ls_get_pos_a, NULL, 0, 0, LS_COL_RANGE | LS_COL_VALUES(1), "sound index, as sounds layers refer to it"},
  {"name", "TEXT", get_sound_field, NULL, 0, 0, 0, "sound name"},
  {"data_size", "INTEGER", get_sound_field, NULL, 1, 0, 0, "bytes of embedded opus data"},
};

static const ls_table tw_sounds = {
  "tw_sounds", &tw_format, "one row per sound of each (DDNet) map",
  sound_columns, (int)(sizeof sound_columns / sizeof sound_columns[0]),
  sound_next, ls_key_pos_a, sound_seek, NULL, NULL, NULL, 0, describe_sound, NULL,
  1, /* rows_per_file, the corpus average */
};

/* ---- registration --------------------------------------------------------- */

static const ls_table *const tw_all_tables[] = {&tw_maps,  &tw_groups, &tw_layers,    &tw_tiles,
                                                &tw_quads, &tw_images, &tw_envelopes, &tw_sounds};

/* Registers the "tw" format (for levelsql_files) and every tw_* table. */
int tw_tables_register(sqlite3 *db, ls_session *sess) {
  size_t i;
  int rc = ls_register_format(sess, &tw_format);
  for (i = 0; rc == SQLITE_OK && i < sizeof tw_all_tables / sizeof tw_all_tables[0]; i++) {
    rc = ls_register_table(db, sess, tw_all_tables[i]);
  }
  return rc;
}
