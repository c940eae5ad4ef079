/*
** wwd_tables.c: the WWD table family (wwd_levels, wwd_planes, wwd_objects,
** wwd_tiles, wwd_tile_properties) declared for the generic engine.
**
** Everything here is a column list plus a row iterator over a wwd_level
** (codecs/wwd/wwd.h); the engine does planning, caching and write-back.
**
** The records of wwd_levels and wwd_planes hold raw headers, whose typed
** columns read and write fields at the WWD_HDR_* / WWD_PLANE_* offsets;
** what an edit implies (a resize, a new mask) is the codec's (wwd_edit.c).
*/
#include <string.h>

#include "common/bytes.h"
#include "wwd/wwd.h"
#include "engine/engine.h"
#include "wwd/wwd_tables.h"

/* ---- the format ------------------------------------------------------------ */

static const char *const wwd_extensions[] = {".wwd", NULL};

LS_CODEC_ADAPTERS(wwd, wwd_level, wwd_parse, wwd_serialize, wwd_clone, wwd_free, wwd_footprint)

/* new_cells=invisible (default), filled or a tile id: what the cells a
** plane gains take (an UPDATE of tiles_wide / tiles_high, an INSERT into
** wwd_planes).  Kept in ls_options.format[WWD_OPT_NEW_CELLS] as the cell
** value. */
#define WWD_OPT_NEW_CELLS 0

static int parse_new_cells(const char *value, ls_options *opts, char **err) {
  uint32_t cell;
  if (wwd_new_cells_parse(value, &cell)) {
    opts->format[WWD_OPT_NEW_CELLS] = cell;
    return 1;
  }
  *err = sqlite3_mprintf("option new_cells takes invisible (the default), filled or a tile id, not '%s'", value);
  return 0;
}

static const ls_option wwd_option_new_cells = {"new_cells", "new_cells=filled", "invisible", parse_new_cells};

/* Text in WWD files is 8-bit, in the code page the option names. */
static const ls_option *const wwd_options[] = {&ls_option_encoding, &wwd_option_new_cells, NULL};

/* A compressed level's header claims its inflated main block (header
** included; wwd_scratch_bytes, 0 for an uncompressed level or a claim the
** codec refuses anyway): counted before the parse inflates it. */
static void wwd_format_bytes_claim(const unsigned char *data, size_t size, codec_claim *claim) {
  codec_claim_add(claim, wwd_scratch_bytes(data, size), "the main block (zlib)");
}

/* wwd_parse_reusing with the engine's scratch: the inflated main block of
** compressed levels goes into the buffer a parse-ahead thread keeps,
** reserved first by the engine (ls_scratch_reserve: huge pages where the
** system has them) so the codec never has to grow it; the level's block
** (its tiles, object arrays and strings) comes from ls_alloc_large, huge
** pages too.  `cancel` is polled while the main block inflates. */
static void *wwd_format_parse_reusing(const unsigned char *data, size_t size, ls_scratch *scratch,
                                      const codec_cancel *cancel, codec_error *err) {
  size_t want = wwd_scratch_bytes(data, size);
  wwd_level *lvl = NULL;
  int ok;
  if (want) (void)ls_scratch_reserve(scratch, want); /* out of memory: the parse reports it */
  wwd_scratch block = {.data = scratch->data, .cap = scratch->cap, .alloc_large = ls_alloc_large, .cancel = cancel};
  ok = wwd_parse_reusing(data, size, &block, &lvl, err);
  scratch->data = block.data;
  scratch->cap = block.cap;
  return ok ? lvl : NULL;
}

const ls_format wwd_format = {
  .name = "wwd", .extensions = wwd_extensions, .sniff = wwd_sniff, LS_CODEC_FORMAT_FIELDS(wwd),
  .options = wwd_options, .parse_reusing = wwd_format_parse_reusing, .bytes_claim = wwd_format_bytes_claim,
  /* no validate: the getters read the parsed model as it is, only memory can run out; no shed: nothing is
  ** decoded lazily; no decoded_claim: the parse decoded everything, its footprint counts (limits.c) */
};

/* ---- records ----------------------------------------------------------------- */

#define LEVEL(row) ((wwd_level *)(row)->model)

/* wwd_levels: a shallow copy of the level (its raw file header, whose
** known fields sit at WWD_HDR_* offsets, its counts and checksum as read)
** and what the codec derives from it. */
typedef struct level_rec {
  wwd_level lvl;
  uint64_t num_objects;
  ls_span game; /* a static name, or NULL */
} level_rec;

/* wwd_planes: a shallow copy of the plane (its raw header, whose known
** fields sit at WWD_PLANE_* offsets, and its counts), its image set names. */
typedef struct plane_rec {
  wwd_plane p;
  ls_span image_sets; /* of ls_span */
} plane_rec;

/* wwd_objects: the int32 fields and the four strings. */
typedef struct object_rec {
  int32_t f[WWD_OBJECT_NFIELDS];
  ls_span str[WWD_OBJECT_NSTRINGS];
} object_rec;

/* wwd_tiles: the cell's value (a tile id or a special value), and what
** the tile column was given in this write (tile_written), so that store()
** can refuse a kind set in the same UPDATE that contradicts it. */
typedef struct tile_rec {
  uint32_t cell;
  uint32_t tile_written;
} tile_rec;

/* wwd_tile_properties: the property as the codec holds it (a copy), its
** mask as a span. */
typedef struct property_rec {
  wwd_tile_property tp;
  ls_span mask;
} property_rec;

/* ---- wwd_levels ------------------------------------------------------------ */

static int level_load(const ls_row *row, char **err) {
  level_rec *r = row->rec;
  const char *game = wwd_game(LEVEL(row));
  (void)err;
  r->lvl = *LEVEL(row);
  r->num_objects = wwd_num_objects(LEVEL(row));
  r->game = (ls_span){.p = game, .n = game ? strlen(game) : 0};
  return SQLITE_OK;
}

/* Only the header is writable. */
static int level_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  (void)old, (void)changed, (void)err;
  memcpy(LEVEL(row)->header, ((const level_rec *)row->rec)->lvl.header, WWD_HEADER_SIZE);
  return SQLITE_OK;
}

/* enum wwd_checksum_kind, by name */
static const char *const checksum_kind_names[] = {"exact", "engine", "wapmap", "unset", "mismatch", NULL};
_Static_assert(sizeof(enum wwd_checksum_kind) == sizeof(uint32_t), "checksum_kind reads the codec's enum as LS_U32");

static const ls_column level_columns[] = {
  LS_COL_TEXT_CHARS("name", LS_TEXT8, level_rec, lvl.header[WWD_HDR_NAME], 64, 0, 0, "level name (63 bytes at most)"),
  LS_COL_TEXT_CHARS("author", LS_TEXT8, level_rec, lvl.header[WWD_HDR_AUTHOR], 64, 0, 0, "author (63 bytes)"),
  LS_COL_TEXT_CHARS("birth", LS_TEXT8, level_rec, lvl.header[WWD_HDR_BIRTH], 64, 0, 0, "creation date as the editor wrote it (63 bytes)"),
  LS_COL_TEXT_CHARS("rez_file", LS_TEXT8, level_rec, lvl.header[WWD_HDR_REZ_FILE], 256, 0, 0, "REZ archive path (255 bytes)"),
  LS_COL_TEXT_CHARS("image_dir", LS_TEXT8, level_rec, lvl.header[WWD_HDR_IMAGE_DIR], 128, 0, 0, "image directory inside the REZ (127 bytes)"),
  LS_COL_TEXT_CHARS("pal_rez", LS_TEXT8, level_rec, lvl.header[WWD_HDR_PAL_REZ], 128, 0, 0, "palette path (127 bytes)"),
  LS_COL_TEXT_CHARS("launch_app", LS_TEXT8, level_rec, lvl.header[WWD_HDR_LAUNCH_APP], 128, 0, 0, "game executable (127 bytes)"),
  LS_COL_TEXT_CHARS("image_set1", LS_TEXT8, level_rec, lvl.header[WWD_HDR_IMAGE_SET1], 128, 0, 0, "image set 1 path (127 bytes)"),
  LS_COL_TEXT_CHARS("image_set2", LS_TEXT8, level_rec, lvl.header[WWD_HDR_IMAGE_SET2], 128, 0, 0, "image set 2 path"),
  LS_COL_TEXT_CHARS("image_set3", LS_TEXT8, level_rec, lvl.header[WWD_HDR_IMAGE_SET3], 128, 0, 0, "image set 3 path"),
  LS_COL_TEXT_CHARS("image_set4", LS_TEXT8, level_rec, lvl.header[WWD_HDR_IMAGE_SET4], 128, 0, 0, "image set 4 path"),
  LS_COL_TEXT_CHARS("prefix1", LS_TEXT8, level_rec, lvl.header[WWD_HDR_PREFIX1], 32, 0, 0, "image set 1 prefix (31 bytes)"),
  LS_COL_TEXT_CHARS("prefix2", LS_TEXT8, level_rec, lvl.header[WWD_HDR_PREFIX2], 32, 0, 0, "image set 2 prefix"),
  LS_COL_TEXT_CHARS("prefix3", LS_TEXT8, level_rec, lvl.header[WWD_HDR_PREFIX3], 32, 0, 0, "image set 3 prefix"),
  LS_COL_TEXT_CHARS("prefix4", LS_TEXT8, level_rec, lvl.header[WWD_HDR_PREFIX4], 32, 0, 0, "image set 4 prefix"),
  LS_COL_INT("start_x", LS_LE32S, level_rec, lvl.header[WWD_HDR_START_X], 0, "player start x (pixels)"),
  LS_COL_INT("start_y", LS_LE32S, level_rec, lvl.header[WWD_HDR_START_Y], 0, "player start y (pixels)"),
  LS_COL_INT("flags", LS_LE32, level_rec, lvl.header[WWD_HDR_FLAGS], 0, "header flags: wwd_flag_names('level', flags)"),
  LS_COL_BIT("use_z_coords", LS_LE32, level_rec, lvl.header[WWD_HDR_FLAGS], WWD_FLAG_USE_Z_COORDS, "flag 0x1"),
  LS_COL_BIT("compressed", LS_LE32, level_rec, lvl.header[WWD_HDR_FLAGS], WWD_FLAG_COMPRESS, "flag 0x2: the main block is zlib-compressed; set to 0 or 1 to change how the file is saved"),
  LS_COL_INT("num_planes", LS_U32, level_rec, lvl.num_planes, LS_COL_RO, "number of planes"),
  LS_COL_INT("num_objects", LS_I64, level_rec, num_objects, LS_COL_RO, "objects on all planes"),
  LS_COL_INT("num_tile_properties", LS_U32, level_rec, lvl.num_tile_properties, LS_COL_RO, "number of tile properties"),
  LS_COL_INT("checksum", LS_U32, level_rec, lvl.checksum_stored, LS_COL_RO, "checksum stored in the header (as read)"),
  LS_COL_INT("checksum_computed", LS_U32, level_rec, lvl.checksum_computed, LS_COL_RO, "checksum S computed over the main block as stored"),
  LS_COL_ENUM("checksum_kind", LS_U32, level_rec, lvl.checksum_kind, 0, checksum_kind_names, LS_COL_RO, "'exact', 'engine', 'wapmap', 'unset' or 'mismatch' (levelsql writes 'exact')"),
  LS_COL_TEXT("game", LS_UTF8, level_rec, game, 0, LS_COL_RO, 0, "'claw', 'gruntz', 'getmedieval' or NULL"),
  LS_COL_INT("file_size", LS_I64, level_rec, lvl.file_size, LS_COL_RO, "size of the file as read, in bytes"),
};

static const ls_table wwd_levels = {
  .name = "wwd_levels", .format = &wwd_format, .doc = "one row per WWD file: the header",
  LS_COLUMNS(level_columns),
  .shape = LS_ONE_ROW, .row_name = "header", .natural_order = "",
  .rows_per_file = 1, /* the corpus average */
  .record_size = sizeof(level_rec), .load = level_load, .store = level_store,
};

/* ---- wwd_planes ------------------------------------------------------------ */

LS_COUNT_OF(plane_count, wwd_level, num_planes)

static int plane_load(const ls_row *row, char **err) {
  const wwd_plane *p = &LEVEL(row)->planes[row->pos.element];
  plane_rec *r = row->rec;
  ls_span *sets = ls_arena_alloc(row->arena, sizeof *sets * (p->num_image_sets + 1));
  uint32_t i;
  (void)err;
  if (!sets) return SQLITE_NOMEM;
  for (i = 0; i < p->num_image_sets; i++) sets[i] = (ls_span){.p = p->image_sets[i].data, .n = p->image_sets[i].len};
  r->p = *p;
  r->image_sets = (ls_span){.p = sets, .n = p->num_image_sets};
  return SQLITE_OK;
}

/* The header and new image sets to the codec (wwd_plane_update: a new
** size first, its new cells per the new_cells option, then the image sets
** and the rest of the header). */
static int plane_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const plane_rec *r = row->rec;
  int new_sets = r->image_sets.p != ((const plane_rec *)old)->image_sets.p;
  const char *const *names = NULL;
  const size_t *lens = NULL;
  codec_error cerr = {0};
  (void)changed;
  if (new_sets && ls_spans_split(row->arena, r->image_sets, &names, &lens) != SQLITE_OK) return SQLITE_NOMEM;
  return ls_codec_check(wwd_plane_update(LEVEL(row), (uint32_t)row->pos.element, r->p.header, new_sets, names, lens, r->image_sets.n,
                                         (uint32_t)row->opts->format[WWD_OPT_NEW_CELLS], &cerr),
                        &cerr, err, NULL);
}

static const ls_json_shape image_sets_shape = {1, 0, 1u << 16, "[\"ACTION\"]", NULL};

/* tiles_wide / tiles_high: writable, a resize (plane_store). */

static const ls_column plane_columns[] = {
  LS_COL_POS("plane", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(3), "plane number, 0-based, in file order; on INSERT, where the plane goes (default: after the last)"),
  LS_COL_TEXT_CHARS("name", LS_TEXT8, plane_rec, p.header[WWD_PLANE_NAME], 64, 0, 0, "plane name (63 bytes)"),
  LS_COL_INT("flags", LS_LE32, plane_rec, p.header[WWD_PLANE_FLAGS], 0, "plane flags: wwd_flag_names('plane', flags)"),
  LS_COL_BIT("is_main", LS_LE32, plane_rec, p.header[WWD_PLANE_FLAGS], WWD_PLANE_MAIN, "flag 0x01: the plane where the action is"),
  LS_COL_BIT("no_draw", LS_LE32, plane_rec, p.header[WWD_PLANE_FLAGS], WWD_PLANE_NO_DRAW, "flag 0x02"),
  LS_COL_BIT("wrap_x", LS_LE32, plane_rec, p.header[WWD_PLANE_FLAGS], WWD_PLANE_WRAP_X, "flag 0x04: repeats horizontally"),
  LS_COL_BIT("wrap_y", LS_LE32, plane_rec, p.header[WWD_PLANE_FLAGS], WWD_PLANE_WRAP_Y, "flag 0x08: repeats vertically"),
  LS_COL_BIT("auto_tile_size", LS_LE32, plane_rec, p.header[WWD_PLANE_FLAGS], WWD_PLANE_AUTO_TILE_SIZE, "flag 0x10"),
  LS_COL_INT("width_px", LS_LE32S, plane_rec, p.header[WWD_PLANE_WIDTH_PX], LS_COL_RO, "width in pixels"),
  LS_COL_INT("height_px", LS_LE32S, plane_rec, p.header[WWD_PLANE_HEIGHT_PX], LS_COL_RO, "height in pixels"),
  LS_COL_INT("tile_width", LS_LE32S, plane_rec, p.header[WWD_PLANE_TILE_WIDTH], LS_COL_RO, "tile width in pixels; given on INSERT (default: the main plane's)"),
  LS_COL_INT("tile_height", LS_LE32S, plane_rec, p.header[WWD_PLANE_TILE_HEIGHT], LS_COL_RO, "tile height in pixels; given on INSERT (default: the main plane's)"),
  LS_COL_INT_IN("tiles_wide", LS_LE32S, plane_rec, p.header[WWD_PLANE_TILES_WIDE], 0, INT32_MAX, 0, "width in tiles; writable: resizes the plane, anchored top-left (new cells per option new_cells, default invisible; width_px follows)"),
  LS_COL_INT_IN("tiles_high", LS_LE32S, plane_rec, p.header[WWD_PLANE_TILES_HIGH], 0, INT32_MAX, 0, "height in tiles; writable: resizes the plane, anchored top-left (new cells per option new_cells; height_px follows)"),
  LS_COL_INT("movement_x_percent", LS_LE32S, plane_rec, p.header[WWD_PLANE_MOVEMENT_X], 0, "parallax: horizontal scroll speed in percent"),
  LS_COL_INT("movement_y_percent", LS_LE32S, plane_rec, p.header[WWD_PLANE_MOVEMENT_Y], 0, "parallax: vertical scroll speed in percent"),
  LS_COL_INT("fill_color", LS_LE32S, plane_rec, p.header[WWD_PLANE_FILL_COLOR], 0, "palette index of 'filled' tiles"),
  LS_COL_INT("z", LS_LE32S, plane_rec, p.header[WWD_PLANE_Z], 0, "drawing order (negative: behind)"),
  LS_COL_JSON_TEXTS("image_sets", LS_SPAN, plane_rec, image_sets, 1024, 0, &image_sets_shape, "JSON array of the plane's image set names"),
  LS_COL_INT("num_objects", LS_U32, plane_rec, p.num_objects, LS_COL_RO, "objects on this plane"),
};

/* Keys: the codec's uids, which planes keep across inserts and deletes
** of others. */
LS_UID_KEYS(plane, wwd_level, planes, wwd_plane_find)

/* The columns plane_insert reads. */
typedef struct plane_args { ls_arg plane, tile_width, tile_height, tiles_wide, tiles_high; } plane_args;

/* INSERT: a plane at index `plane` (default: after the last), not main,
** without image sets or objects.  Its tile size (read-only afterwards) and
** its tile counts default to the main plane's (wwd_new_plane_size).  The plane is made with no cells and its header given the tile
** counts (wwd_plane_insert_unsized): plane_store, which the engine runs
** next with the INSERT's other values, sees the difference and sizes it,
** so that every new cell comes from one place (the new_cells option). */
LS_INSERT_CALL_AT(plane_insert, plane_args, args->plane.i, 0,
                  wwd_plane_insert_unsized(model, (uint32_t)args->plane.i, (uint32_t)args->tile_width.i, (uint32_t)args->tile_height.i,
                                           (uint32_t)args->tiles_wide.i, (uint32_t)args->tiles_high.i, &cerr))

/* A new plane's defaults: the main plane's tile size and tile counts. */
static int64_t like_tile_width(const void *m) { return wwd_new_plane_size(m).tile_width; }
static int64_t like_tile_height(const void *m) { return wwd_new_plane_size(m).tile_height; }
static int64_t like_tiles_wide(const void *m) { return wwd_new_plane_size(m).tiles_wide; }
static int64_t like_tiles_high(const void *m) { return wwd_new_plane_size(m).tiles_high; }

/* DELETE: the plane with its tiles and its objects; the main plane stays
** (wwd_plane_delete). */
LS_REMOVE_CALL(plane_remove, wwd_level, wwd_plane_delete, NULL)

static const ls_insert plane_insertion =
    LS_INSERT(plane_insert, plane_args, LS_ARG(plane_args, plane, LS_IS_AT(plane_count)),
              LS_ARG(plane_args, tile_width, LS_IS_INT_OR(1, 4096, like_tile_width)),
              LS_ARG(plane_args, tile_height, LS_IS_INT_OR(1, 4096, like_tile_height)),
              LS_ARG(plane_args, tiles_wide, LS_IS_INT_OR(0, INT32_MAX, like_tiles_wide)),
              LS_ARG(plane_args, tiles_high, LS_IS_INT_OR(0, INT32_MAX, like_tiles_high)));

static const ls_table wwd_planes = {
  .name = "wwd_planes", .format = &wwd_format, .doc = "one row per plane of each WWD file; INSERT adds planes, DELETE removes them with their objects (not the main plane)",
  LS_COLUMNS(plane_columns),
  .shape = LS_ARRAY(plane_count), .key = plane_key, .seek = plane_seek,
  .insert = &plane_insertion, .remove = plane_remove, .row_name = "plane {element}", .natural_order = "plane",
  .rows_per_file = 3, /* the corpus average */
  .record_size = sizeof(plane_rec), .load = plane_load, .store = plane_store,
};

/* ---- wwd_objects ----------------------------------------------------------- */

#define OBJECT(row) (&LEVEL(row)->planes[(row)->pos.element].objects[(row)->pos.index])

LS_INNER_COUNT_OF(plane_objects, wwd_level, planes, num_objects)

/* Keys: the codec's uids, which objects keep across inserts and deletes of
** others. */
LS_NESTED_UID_KEYS(object, wwd_level, planes, objects, wwd_object_find)

/* INSERT: a blank object at the end of the given plane (the main plane when
** the plane column is NULL), with a fresh id unless the id column is given
** (INSERT ... SELECT * keeps the ids it copies). */
typedef struct object_args { ls_arg plane, id; } object_args;

static int object_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const object_args *args = args_;
  wwd_level *lvl = model;
  int64_t plane = args->plane.i;
  int32_t id = ls_arg_given(&args->id) ? 0 : wwd_next_object_id(lvl);
  long idx;
  if (plane < 0) return ls_refuse(err, "the level has no main plane; give the plane column");
  idx = wwd_object_append(lvl, (uint32_t)plane);
  if (idx < 0) return SQLITE_NOMEM;
  lvl->planes[plane].objects[idx].field[WWD_OBJ_ID] = id;
  return ls_inserted_at(pos, plane, idx);
}

/* The plane an object goes to when the INSERT names none (-1: none). */
static int64_t main_plane(const void *m) { return wwd_main_plane(m); }

static const ls_insert object_insertion =
    LS_INSERT(object_insert, object_args, LS_ARG(object_args, plane, LS_IS_INDEX_OR(plane_count, main_plane)), LS_ARG(object_args, id));

static int object_remove(void *model, const ls_pos *pos, char **err) {
  (void)err;
  return wwd_object_remove(model, (uint32_t)pos->element, (uint32_t)pos->index) ? SQLITE_OK : SQLITE_INTERNAL;
}

static int object_load(const ls_row *row, char **err) {
  const wwd_object *o = OBJECT(row);
  object_rec *r = row->rec;
  int s;
  (void)err;
  memcpy(r->f, o->field, sizeof r->f);
  for (s = 0; s < WWD_OBJECT_NSTRINGS; s++) {
    /* A string of length 0 has no bytes (data may be NULL); the file holds
    ** a length, never "no string", so it reads '' as in every format. */
    r->str[s] = (ls_span){.p = o->str[s].data ? (const void *)o->str[s].data : "", .n = o->str[s].len};
  }
  return SQLITE_OK;
}

/* The fields as they are; strings that changed are copied in. */
static int object_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  wwd_object *o = OBJECT(row);
  const object_rec *r = row->rec, *was = old;
  int s;
  (void)changed, (void)err;
  for (s = 0; s < WWD_OBJECT_NSTRINGS; s++) {
    if (r->str[s].p != was->str[s].p && !wwd_bytes_set(&o->str[s], r->str[s].p, r->str[s].n)) return SQLITE_NOMEM;
  }
  memcpy(o->field, r->f, sizeof r->f);
  return SQLITE_OK;
}

#define WWD_OBJECT_STRING_MAX 4096 /* the editors use a few dozen bytes */

#define ORECT(prefix, first, doc_)                                                           \
  LS_COL_INT(prefix "_left", LS_I32, object_rec, f[first], 0, doc_ " left"),                 \
  LS_COL_INT(prefix "_top", LS_I32, object_rec, f[first + 1], 0, doc_ " top"),               \
  LS_COL_INT(prefix "_right", LS_I32, object_rec, f[first + 2], 0, doc_ " right"),           \
  LS_COL_INT(prefix "_bottom", LS_I32, object_rec, f[first + 3], 0, doc_ " bottom")

static const ls_column object_columns[] = {
  LS_COL_POS("plane", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(1), "plane number; on INSERT, the plane to add to (default: the main plane)"),
  LS_COL_POS("idx", LS_POS_INDEX, 0, "position in the plane's object list (ids are not unique)"),
  LS_COL_INT("id", LS_I32, object_rec, f[WWD_OBJ_ID], 0, "object id"),
  LS_COL_TEXT("name", LS_TEXT8, object_rec, str[WWD_STR_NAME], WWD_OBJECT_STRING_MAX, 0, 0, "name" " ('' when empty; never NULL)"),
  LS_COL_TEXT("logic", LS_TEXT8, object_rec, str[WWD_STR_LOGIC], WWD_OBJECT_STRING_MAX, 0, 0, "logic (behaviour), e.g. Officer" " ('' when empty; never NULL)"),
  LS_COL_TEXT("image_set", LS_TEXT8, object_rec, str[WWD_STR_IMAGE_SET], WWD_OBJECT_STRING_MAX, 0, 0, "image set, e.g. LEVEL_OFFICER" " ('' when empty; never NULL)"),
  LS_COL_TEXT("animation", LS_TEXT8, object_rec, str[WWD_STR_ANIMATION], WWD_OBJECT_STRING_MAX, 0, 0, "animation" " ('' when empty; never NULL)"),
  LS_COL_INT("x", LS_I32, object_rec, f[WWD_OBJ_X], 0, "x position (pixels)"),
  LS_COL_INT("y", LS_I32, object_rec, f[WWD_OBJ_Y], 0, "y position (pixels)"),
  LS_COL_INT("z", LS_I32, object_rec, f[WWD_OBJ_Z], 0, "z (drawing order)"),
  LS_COL_INT("i", LS_I32, object_rec, f[WWD_OBJ_I], 0, "image index (usually -1)"),
  LS_COL_INT("add_flags", LS_U32, object_rec, f[WWD_OBJ_ADD_FLAGS], 0, "wwd_flag_names('add', add_flags)"),
  LS_COL_INT("dynamic_flags", LS_U32, object_rec, f[WWD_OBJ_DYNAMIC_FLAGS], 0, "wwd_flag_names('dynamic', dynamic_flags)"),
  LS_COL_INT("draw_flags", LS_U32, object_rec, f[WWD_OBJ_DRAW_FLAGS], 0, "wwd_flag_names('draw', draw_flags)"),
  LS_COL_INT("user_flags", LS_U32, object_rec, f[WWD_OBJ_USER_FLAGS], 0, "wwd_flag_names('user', user_flags)"),
  LS_COL_INT("score", LS_I32, object_rec, f[WWD_OBJ_SCORE], 0, "score"),
  LS_COL_INT("points", LS_I32, object_rec, f[WWD_OBJ_POINTS], 0, "points"),
  LS_COL_INT("powerup", LS_I32, object_rec, f[WWD_OBJ_POWERUP], 0, "powerup"),
  LS_COL_INT("damage", LS_I32, object_rec, f[WWD_OBJ_DAMAGE], 0, "damage"),
  LS_COL_INT("smarts", LS_I32, object_rec, f[WWD_OBJ_SMARTS], 0, "smarts"),
  LS_COL_INT("health", LS_I32, object_rec, f[WWD_OBJ_HEALTH], 0, "health"),
  ORECT("move_rect", WWD_OBJ_MOVE_RECT_LEFT, "move rectangle"),
  ORECT("hit_rect", WWD_OBJ_HIT_RECT_LEFT, "hit rectangle"),
  ORECT("attack_rect", WWD_OBJ_ATTACK_RECT_LEFT, "attack rectangle"),
  ORECT("clip_rect", WWD_OBJ_CLIP_RECT_LEFT, "clip rectangle"),
  ORECT("user_rect1", WWD_OBJ_USER_RECT1_LEFT, "user rectangle 1"),
  ORECT("user_rect2", WWD_OBJ_USER_RECT2_LEFT, "user rectangle 2"),
  LS_COL_INT("user1", LS_I32, object_rec, f[WWD_OBJ_USER1], 0, "user value 1"),
  LS_COL_INT("user2", LS_I32, object_rec, f[WWD_OBJ_USER2], 0, "user value 2"),
  LS_COL_INT("user3", LS_I32, object_rec, f[WWD_OBJ_USER3], 0, "user value 3"),
  LS_COL_INT("user4", LS_I32, object_rec, f[WWD_OBJ_USER4], 0, "user value 4"),
  LS_COL_INT("user5", LS_I32, object_rec, f[WWD_OBJ_USER5], 0, "user value 5"),
  LS_COL_INT("user6", LS_I32, object_rec, f[WWD_OBJ_USER6], 0, "user value 6"),
  LS_COL_INT("user7", LS_I32, object_rec, f[WWD_OBJ_USER7], 0, "user value 7"),
  LS_COL_INT("user8", LS_I32, object_rec, f[WWD_OBJ_USER8], 0, "user value 8"),
  LS_COL_INT("min_x", LS_I32, object_rec, f[WWD_OBJ_MIN_X], 0, "movement range min x"),
  LS_COL_INT("min_y", LS_I32, object_rec, f[WWD_OBJ_MIN_Y], 0, "movement range min y"),
  LS_COL_INT("max_x", LS_I32, object_rec, f[WWD_OBJ_MAX_X], 0, "movement range max x"),
  LS_COL_INT("max_y", LS_I32, object_rec, f[WWD_OBJ_MAX_Y], 0, "movement range max y"),
  LS_COL_INT("speed_x", LS_I32, object_rec, f[WWD_OBJ_SPEED_X], 0, "speed x"),
  LS_COL_INT("speed_y", LS_I32, object_rec, f[WWD_OBJ_SPEED_Y], 0, "speed y"),
  LS_COL_INT("tweak_x", LS_I32, object_rec, f[WWD_OBJ_TWEAK_X], 0, "tweak x"),
  LS_COL_INT("tweak_y", LS_I32, object_rec, f[WWD_OBJ_TWEAK_Y], 0, "tweak y"),
  LS_COL_INT("counter", LS_I32, object_rec, f[WWD_OBJ_COUNTER], 0, "counter"),
  LS_COL_INT("speed", LS_I32, object_rec, f[WWD_OBJ_SPEED], 0, "speed"),
  LS_COL_INT("width", LS_I32, object_rec, f[WWD_OBJ_WIDTH], 0, "width"),
  LS_COL_INT("height", LS_I32, object_rec, f[WWD_OBJ_HEIGHT], 0, "height"),
  LS_COL_INT("direction", LS_I32, object_rec, f[WWD_OBJ_DIRECTION], 0, "direction"),
  LS_COL_INT("face_dir", LS_I32, object_rec, f[WWD_OBJ_FACE_DIR], 0, "facing direction"),
  LS_COL_INT("time_delay", LS_I32, object_rec, f[WWD_OBJ_TIME_DELAY], 0, "time delay"),
  LS_COL_INT("frame_delay", LS_I32, object_rec, f[WWD_OBJ_FRAME_DELAY], 0, "frame delay"),
  LS_COL_INT("object_type", LS_U32, object_rec, f[WWD_OBJ_OBJECT_TYPE], 0, "wwd_flag_names('object_type', object_type)"),
  LS_COL_INT("hit_type_flags", LS_U32, object_rec, f[WWD_OBJ_HIT_TYPE_FLAGS], 0, "wwd_flag_names('hit_type', hit_type_flags)"),
  LS_COL_INT("move_res_x", LS_U32, object_rec, f[WWD_OBJ_MOVE_RES_X], 0, "move resolution x"),
  LS_COL_INT("move_res_y", LS_U32, object_rec, f[WWD_OBJ_MOVE_RES_Y], 0, "move resolution y"),
};

static const ls_table wwd_objects = {
  .name = "wwd_objects", .format = &wwd_format, .doc = "one row per object of each plane of each WWD file",
  LS_COLUMNS(object_columns),
  .shape = LS_NESTED(plane_count, plane_objects), .key = object_key, .seek = object_seek,
  .insert = &object_insertion, .remove = object_remove, .row_name = "object {index} of plane {element}", .natural_order = "plane,idx",
  .rows_per_file = 1400, /* the corpus average */
  .record_size = sizeof(object_rec), .load = object_load, .store = object_store,
};

/* ---- wwd_tiles -------------------------------------------------------------- */

LS_INNER_COUNT_OF(plane_tiles_wide, wwd_level, planes, tiles_wide)
LS_INNER_COUNT_OF(plane_tiles_high, wwd_level, planes, tiles_high)

static uint32_t *tile_cell(const ls_row *row) {
  const wwd_plane *pl = &LEVEL(row)->planes[row->pos.element];
  return &pl->tiles[row->pos.y * (int64_t)pl->tiles_wide + row->pos.x];
}

/* The cell's value, for the setters and tile_store (the getters read the
** model itself: LS_COL_NOREC). */
LS_LOAD_VALUE(tile_load, tile_rec, ((tile_rec){.cell = *tile_cell(row)}))

/* Columns of wwd_tiles by index (tile_columns), for store()'s changed[]. */
enum { TILE_COL_TILE = 3, TILE_COL_KIND = 4 };

/* The cell as the setters left it.  When one UPDATE sets both tile and
** kind, the kind is applied last (column order) and would silently drop
** the tile id: `SET kind = 'filled', tile = 5` is refused instead.  They
** agree when the kind left the cell as the tile column wrote it, or when
** tile = NULL (which reads for both special kinds) meets 'filled'. */
static int tile_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const tile_rec *r = row->rec;
  (void)old;
  if (changed[TILE_COL_TILE] && changed[TILE_COL_KIND] && r->cell != r->tile_written &&
      !(r->tile_written == WWD_TILE_INVISIBLE && r->cell == WWD_TILE_FILLED)) {
    /* (kind = 'tile' with tile = NULL was refused by set_tile_kind) */
    return ls_refuse(err, "column kind: '%s' contradicts tile = %lu in the same UPDATE (an invisible or filled cell has no "
                          "tile id); set one of the two",
                     r->cell == WWD_TILE_FILLED ? "filled" : "invisible", (unsigned long)r->tile_written);
  }
  *tile_cell(row) = r->cell;
  return SQLITE_OK;
}

#define CELL(row) (((tile_rec *)(row)->rec)->cell)

/* The tile id: NULL for the special values (invisible, filled).  Reads
** the cell in the model (LS_COL_NOREC), so a scan loads no record. */
static void get_tile_id(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  uint32_t t = *tile_cell(row);
  (void)col;
  if (t != WWD_TILE_INVISIBLE && t != WWD_TILE_FILLED) sqlite3_result_int64(ctx, t);
}

/* A tile id, or NULL: no tile id, which a filled or invisible cell
** already has (it reads NULL there: writing it back changes nothing), and
** which makes a tile cell invisible. */
static int set_tile_id(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int64_t x;
  int rc;
  if (sqlite3_value_type(v) == SQLITE_NULL) {
    ((tile_rec *)row->rec)->tile_written = WWD_TILE_INVISIBLE; /* "NULL", for tile_store */
    if (CELL(row) != WWD_TILE_FILLED) CELL(row) = WWD_TILE_INVISIBLE;
    return SQLITE_OK;
  }
  rc = ls_value_int(v, col, 0, UINT32_MAX, &x, err);
  if (rc != SQLITE_OK) return rc;
  if ((uint32_t)x == WWD_TILE_INVISIBLE || (uint32_t)x == WWD_TILE_FILLED)
    return ls_refuse(err, "column tile: %lld is a special value; set kind = 'invisible' or 'filled' instead", (long long)x);
  CELL(row) = ((tile_rec *)row->rec)->tile_written = (uint32_t)x;
  return SQLITE_OK;
}

/* The cell's kind, from the model as get_tile_id. */
static void get_tile_kind(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  uint32_t t = *tile_cell(row);
  (void)col;
  /* lengths given: a scan reads this column once per cell */
  if (t == WWD_TILE_INVISIBLE) sqlite3_result_text(ctx, "invisible", 9, SQLITE_STATIC);
  else if (t == WWD_TILE_FILLED) sqlite3_result_text(ctx, "filled", 6, SQLITE_STATIC);
  else sqlite3_result_text(ctx, "tile", 4, SQLITE_STATIC);
}

static int set_tile_kind(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  const char *kind = (const char *)sqlite3_value_text(v);
  if (kind && strcmp(kind, "invisible") == 0) CELL(row) = WWD_TILE_INVISIBLE;
  else if (kind && strcmp(kind, "filled") == 0) CELL(row) = WWD_TILE_FILLED;
  else if (kind && strcmp(kind, "tile") == 0) {
    if (CELL(row) == WWD_TILE_INVISIBLE || CELL(row) == WWD_TILE_FILLED)
      return ls_refuse(err, "column kind: 'tile' needs a tile id; set the tile column instead");
  } else {
    return ls_refuse(err, "column %s: '%s' is not a tile kind; it takes 'tile', 'invisible' or 'filled'", col->name,
                     kind ? kind : "NULL");
  }
  return SQLITE_OK;
}

static const ls_column tile_columns[] = {
  LS_COL_POS("plane", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(3), "plane number"),
  LS_COL_POS("x", LS_POS_X, LS_COL_RANGE | LS_COL_VALUES(490), "column, 0-based"),
  LS_COL_POS("y", LS_POS_Y, LS_COL_RANGE | LS_COL_VALUES(155), "row, 0-based"),
  {.name = "tile", .type = "INTEGER", .kind = LS_CUSTOM, .get = get_tile_id, .set = set_tile_id, .flags = LS_COL_NOREC,
   .doc = "tile id; NULL for invisible and filled cells (setting NULL makes a tile cell invisible and leaves a filled one filled)"},
  {.name = "kind", .type = "TEXT", .kind = LS_CUSTOM, .get = get_tile_kind, .set = set_tile_kind, .flags = LS_COL_NOREC,
   .doc = "'tile', 'invisible' or 'filled'"},
};

static const ls_table wwd_tiles = {
  .name = "wwd_tiles", .format = &wwd_format, .doc = "one row per tile cell of each plane",
  LS_COLUMNS(tile_columns),
  .shape = LS_GRID(plane_count, plane_tiles_wide, plane_tiles_high), .row_name = "tile x {x}, y {y} of plane {element}",
  .natural_order = "plane,y,x", .rows_per_file = 100000, /* the corpus average */
  .record_size = sizeof(tile_rec), .load = tile_load, .store = tile_store,
};

/* ---- wwd_tile_properties ---------------------------------------------------- */

#define PROPERTY(row) (&LEVEL(row)->tile_properties[(row)->pos.element])

LS_COUNT_OF(property_count, wwd_level, num_tile_properties)

/* Keys: the codec's uids, which properties keep across inserts and
** deletes of others. */
LS_UID_KEYS(property, wwd_level, tile_properties, wwd_tile_property_find)

/* INSERT: a property at tile id `tile` (default: after the last; the ones
** from there on move up one tile id), 'single' with attribute 0 and the
** main plane's tile size (64 x 64 without one) until the INSERT's values
** say otherwise. */
typedef struct property_args { ls_arg tile; } property_args;

static int property_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const property_args *args = args_;
  wwd_level *lvl = model;
  uint32_t width, height;
  long idx;
  (void)err;
  wwd_main_tile_size(lvl, &width, &height);
  idx = wwd_tile_property_insert(lvl, (uint32_t)args->tile.i, WWD_TILE_SINGLE, width, height);
  return idx < 0 ? SQLITE_NOMEM : ls_inserted_at(pos, idx, 0);
}

static const ls_insert property_insertion = LS_INSERT(property_insert, property_args, LS_ARG(property_args, tile, LS_IS_AT(property_count)));

/* DELETE: the property goes; the later ones move down one tile id. */
static int property_remove(void *model, const ls_pos *pos, char **err) {
  (void)err;
  return wwd_tile_property_remove(model, (uint32_t)pos->element) ? SQLITE_OK : SQLITE_INTERNAL;
}

/* A copy of the property, its mask shown as a span. */
LS_LOAD_VALUE(property_load, property_rec,
              ((property_rec){.tp = *PROPERTY(row), .mask = {.p = PROPERTY(row)->mask, .n = PROPERTY(row)->mask_len}}))

/* The record as the codec's property (wwd_tile_property_update: the
** size, a new type, the fields, a new mask, then the check that the file
** can hold it). */
LS_STORE_CALL(property_store, property_rec, NULL,
              wwd_tile_property_update(LEVEL(row), (uint32_t)row->pos.element, &rec->tp, rec->mask.p != ((const property_rec *)old)->mask.p,
                                       rec->mask.p, rec->mask.n, &cerr))

/* The row kind is the type, 1..3 (the codec refuses others). */
LS_ROW_KIND_FIELD(property_kind, property_rec, tp.type, WWD_TILE_MASK)

static const char *const property_type_names[] = {"single", "double", "mask", NULL};
static const char *const property_kind_names[] = {"unknown", "single", "double", "mask", NULL};

#define ALL_TYPES ((1 << WWD_TILE_SINGLE) | (1 << WWD_TILE_DOUBLE) | (1 << WWD_TILE_MASK))
#define SINGLE_DOUBLE ((1 << WWD_TILE_SINGLE) | (1 << WWD_TILE_DOUBLE))
#define DOUBLE_ONLY (1 << WWD_TILE_DOUBLE)

static const ls_column property_columns[] = {
  LS_COL_POS("tile", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(875), "tile id the property belongs to (its index); on INSERT, the id it takes (default: after the last; later ones move up)"),
  LS_COL_ENUM("type", LS_U32, property_rec, tp.type, 1, property_type_names, 0, "'single', 'double' or 'mask'"),
  LS_COL_KIND_INT("width", LS_U32, property_rec, tp.width, 0, 4096, 0, ALL_TYPES, "tile width in pixels"),
  LS_COL_KIND_INT("height", LS_U32, property_rec, tp.height, 0, 4096, 0, ALL_TYPES, "tile height in pixels"),
  LS_COL_KIND_INT("attribute", LS_I32, property_rec, tp.attribute, INT32_MIN, INT32_MAX, 0, SINGLE_DOUBLE, "single: the attribute; double: the outside attribute (wwd_flag_names('attribute', n))"),
  LS_COL_KIND_INT("inside_attribute", LS_I32, property_rec, tp.inside_attribute, INT32_MIN, INT32_MAX, 0, DOUBLE_ONLY, "double: attribute inside the rectangle"),
  LS_COL_KIND_INT("rect_left", LS_I32, property_rec, tp.rect[0], INT32_MIN, INT32_MAX, 0, DOUBLE_ONLY, "double: rectangle left"),
  LS_COL_KIND_INT("rect_top", LS_I32, property_rec, tp.rect[1], INT32_MIN, INT32_MAX, 0, DOUBLE_ONLY, "double: rectangle top"),
  LS_COL_KIND_INT("rect_right", LS_I32, property_rec, tp.rect[2], INT32_MIN, INT32_MAX, 0, DOUBLE_ONLY, "double: rectangle right"),
  LS_COL_KIND_INT("rect_bottom", LS_I32, property_rec, tp.rect[3], INT32_MIN, INT32_MAX, 0, DOUBLE_ONLY, "double: rectangle bottom"),
  {.name = "mask", .type = "BLOB", .kind = LS_BLOB, .store = LS_SPAN, .offset = offsetof(property_rec, mask),
   .applies = 1 << WWD_TILE_MASK, .doc = "mask: one attribute byte per pixel, width*height bytes; NULL for other types"},
};

static const ls_table wwd_tile_properties = {
  .name = "wwd_tile_properties", .format = &wwd_format, .doc = "one row per tile property of each WWD file; INSERT and DELETE move the later tile ids",
  LS_COLUMNS(property_columns),
  .shape = LS_ARRAY(property_count), .key = property_key, .seek = property_seek,
  .insert = &property_insertion, .remove = property_remove, .row_name = "tile property {element}", .natural_order = "tile",
  .rows_per_file = 900, /* the corpus average */
  .record_size = sizeof(property_rec), .load = property_load, .store = property_store,
  .row_kind = property_kind, .kind_names = property_kind_names,
};

/* ---- the family --------------------------------------------------------- */

static const ls_table *const wwd_tables[] = {&wwd_levels, &wwd_planes, &wwd_objects, &wwd_tiles, &wwd_tile_properties, NULL};

const ls_family wwd_family = {.format = &wwd_format, .tables = wwd_tables, .register_functions = wwd_register_functions};
