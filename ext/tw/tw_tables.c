/*
** tw_tables.c: the Teeworlds / DDNet map table family (tw_maps, tw_groups,
** tw_layers, tw_tiles, tw_quads, tw_sound_sources, tw_images, tw_envelopes,
** tw_sounds)
** declared for the generic engine over codecs/tw/twmap.h.
**
** Each table is a column list over a record: load() fills it from the
** codec (tw_group_get, tw_tile_get, ...), the engine reads and checks the
** typed columns (an image or envelope index must exist, an envelope be of
** the column's kind: ls_index_ref), and store() hands the row to the codec
** when it changed; the format's rules (what a changed field implies, what
** an INSERT or DELETE may do) are the codec's, whose refusals name the
** column.  The hand-written columns are the computed ones: the SHA-256, a
** layer's image name, and the pixels and sound bytes as files; the layer
** of a row of a layer (grp, layer, kind) the engine reads from the model's
** layer array (LS_COL_ELEMENT_OF).  Envelope points are decoded only when
** read (ls_json_records.decode).
**
** The model the engine holds is the codec's tw_map, with its row keys
** (twmap.h, "row keys", kept right by the codec's edits and resizes): a
** tile's key is its layer's key base + y * width + x, O(1); the other
** rows' keys are the codec's (tw_row_key).  A layer whose rows would not
** fit under LS_KEY_MAX (never in a real map: only under a raised
** levelsql_limit('decoded')) fails the scans that reach it and
** levelsql_files' check, naming it (tw_map_keys_fit).
**
** Lazy decoding: the iterators only look at layer geometry; a tile's or
** quad's load() decodes the one layer of its row on first use
** (tw_layer_load inflates only that layer's blob), and grp, layer and kind
** read no record (LS_COL_NOREC).  So `WHERE grp = 1 AND layer = 0` (grp,
** layer, layer_index, x and y are pushed down; the engine applies the
** ranges on grp and layer) never touches the other layers, and a query
** that reads no cell field decodes nothing.  A damaged layer fails the
** query at the first cell value read, with the codec's message; only
** levelsql_files and scans with on_error=skip decode every layer up front
** (tw_format_validate).
**
** Writing: serialize keeps every blob nobody changed as the compressed
** bytes it was read with and compresses only the changed ones (zlib level
** 6, as DDNet), items laid out as DDNet's writer does: a one-tile edit
** costs one layer's compression, and a map DDNet wrote comes back
** byte-identical where nothing changed.  tw_resave(file) (tw_render.c)
** gives the bytes DDNet's map_resave writes, every blob recompressed.
**
** Text in maps is UTF-8: returned as stored, checked to be UTF-8 without
** NUL characters on write.  "None" indices (negative: no image, no
** envelope, no sound) read as NULL, and NULL writes -1.
*/
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "tw/twmap.h"
#include "tw/twmap_edit.h"
#include "tw/twmap_blobs.h"
#include "engine/engine.h"
#include "tw/tw_tables.h"

/* ---- the format ---------------------------------------------------------------- */

#define MAP_OF(model) ((tw_map *)(model))
#define ROW_MAP(row) MAP_OF((row)->model)

static const char *const tw_extensions[] = {".map", NULL};

/* The codec checks the container and the items; layer data waits.
** `cancel` (NULL: none) is polled while the container is read and the file
** hashed (tw_map_parse_cancel), so an interrupt stops a large map's parse;
** nothing to reuse in the scratch (blobs stay compressed until read).
** Edited, not yet re-encoded layers are cloned too (tw_map_clone), and the
** row keys as they are. */
static int tw_format_serialize_map(const tw_map *m, unsigned char **out, size_t *size, codec_error *err) {
  return tw_map_serialize((tw_map *)m, 0, out, size, err);
}
LS_CODEC_ADAPTERS(tw, tw_map, tw_map_parse, tw_format_serialize_map, tw_map_clone, tw_map_free, tw_map_footprint)
LS_CODEC_CANCEL_ADAPTER(tw, tw_map, tw_map_parse_cancel)

/* Decodes now everything the tables decode on first use (tw_map_validate):
** levelsql_files' `ok` and on_error=skip rest on it.  A layer whose rows
** would not all have keys under LS_KEY_MAX fails it, naming the layer. */
static int tw_format_validate(void *model, const codec_cancel *cancel, codec_error *err) {
  return tw_map_validate(model, LS_KEY_MAX + 1, cancel, err);
}

/* What the map claims it would decode (tw_map_decoded_claim). */
static void tw_format_decoded_claim(const void *model, codec_claim *claim) {
  tw_map_decoded_claim(model, claim);
}

/* Drops the layers and blobs the map decoded (tw_map_shed) when the cache
** needs the room; the row keys stay. */
static size_t tw_format_shed(void *model) {
  return tw_map_shed(model);
}

const ls_format tw_format = {
  .name = "tw", .extensions = tw_extensions, .sniff = tw_map_sniff, LS_CODEC_FORMAT_FIELDS(tw),
  .validate = tw_format_validate, .shed = tw_format_shed, .decoded_claim = tw_format_decoded_claim,
  .parse_reusing = tw_format_parse_reusing,
  /* no options: text in maps is UTF-8, no code page to choose; no bytes_claim: the parse inflates nothing */
};

/* ---- shared helpers -------------------------------------------------------- */

LS_COUNT_OF(count_groups, tw_map, num_groups)
LS_COUNT_OF(count_layers, tw_map, num_layers)
LS_COUNT_OF(count_images, tw_map, num_images)
LS_COUNT_OF(count_envelopes, tw_map, num_envelopes)
LS_COUNT_OF(count_sounds, tw_map, num_sounds)

/* An envelope index newly written to a column that takes one kind of
** envelope (ref->sort channels: 3 position, 4 color, 1 sound) must name an
** envelope of that kind, as DDNet's editor insists: a color envelope in
** pos_env would be dropped or misread by the game.  NULL and the index the
** row holds pass (the engine), so a file with an odd pairing stays
** editable. */
static int refuse_envelope(const void *model, int64_t index, const ls_index_ref *ref, char **why) {
  tw_envelope_info info;
  codec_error e;
  const char *want = tw_envelope_kind_name((int)ref->sort);
  if (!tw_envelope_get(model, (size_t)index, &info, &e)) return ls_codec_failed(&e, SQLITE_CONSTRAINT, why, NULL);
  if (info.channels == ref->sort) return SQLITE_OK;
  return ls_refuse(why, "envelope %d is a %s envelope (%d channels); it takes a %s envelope (%d channels), or NULL for none",
                   (int)index, info.kind.p, info.channels, want, (int)ref->sort);
}

/* What the indices refer to: a write must name an existing one (of the
** column's kind, for envelopes). */
static const ls_index_ref image_index = {count_images, "image", "map", NULL, 0};
static const ls_index_ref position_envelope = {count_envelopes, "envelope", "map", refuse_envelope, 3};
static const ls_index_ref color_envelope = {count_envelopes, "envelope", "map", refuse_envelope, 4};
static const ls_index_ref sound_envelope = {count_envelopes, "envelope", "map", refuse_envelope, 1};

/* The keys of the rows (twmap.h, "row keys") and removes through the
** codec (twmap_edit.h: a group goes with its layers, as the editor deletes
** them; the game layer and its group, and an image, envelope or sound in
** use, stay). */
LS_CODEC_KEYS(group, tw_map, tw_row_key, tw_row_find, TW_ROWS_GROUPS)
LS_CODEC_KEYS(layer, tw_map, tw_row_key, tw_row_find, TW_ROWS_LAYERS)
LS_CODEC_KEYS(quad, tw_map, tw_row_key, tw_row_find, TW_ROWS_QUADS)
LS_CODEC_KEYS(source, tw_map, tw_row_key, tw_row_find, TW_ROWS_SOURCES)
LS_CODEC_KEYS(image, tw_map, tw_row_key, tw_row_find, TW_ROWS_IMAGES)
LS_CODEC_KEYS(envelope, tw_map, tw_row_key, tw_row_find, TW_ROWS_ENVELOPES)
LS_CODEC_KEYS(sound, tw_map, tw_row_key, tw_row_find, TW_ROWS_SOUNDS)
LS_REMOVE_CALL(group_remove, tw_map, tw_group_delete, NULL)
LS_REMOVE_CALL(layer_remove, tw_map, tw_layer_delete, NULL)
LS_REMOVE_CALL_NESTED(quad_remove, tw_map, tw_quad_delete, NULL)
LS_REMOVE_CALL_NESTED(source_remove, tw_map, tw_source_delete, NULL)
LS_REMOVE_CALL(image_remove, tw_map, tw_image_delete, NULL)
LS_REMOVE_CALL(envelope_remove, tw_map, tw_envelope_delete, NULL)
LS_REMOVE_CALL(sound_remove, tw_map, tw_sound_delete, NULL)

/* ---- rows of layers (tw_layers, tw_tiles, tw_quads) ------------------------------ */

/* The row's layer (pos.element) as the model keeps it (LS_COL_ELEMENT_OF):
** its group and its index in it (both -1, NULL, when no group lists it),
** and its kind by name ("tiles", "game", ...: tw_kind_names). */
LS_ELEMENT_FIELD(layer_group, tw_map, layers, group, NULL);
LS_ELEMENT_FIELD(layer_in_group, tw_map, layers, index_in_group, NULL);
LS_ELEMENT_FIELD(layer_kind, tw_map, layers, kind, tw_kind_names);

/* The row kind of tw_layers and tw_tiles: the layer's tw_kind. */
static int layer_row_kind(const ls_row *row) {
  return (int)ROW_MAP(row)->layers[row->pos.element].kind;
}

/* A write to a field the layer kind lacks: NULL (what it reads) is no
** change, anything else fails. */
static int other_layer_kind(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  return ls_refuse(err, "column %s: a %s layer has no %s", col->name, tw_kind_name((tw_kind)layer_row_kind(row)),
                   col->name);
}

#define KIND(k) (1u << (k))
#define KINDS_TILEMAP ((1u << (TW_KIND_TUNE + 1)) - 1)
#define KINDS_KNOWN ((1u << TW_KIND_UNKNOWN) - 1)

/* Whether layer l has rows in a table of rows of the layer kinds `kinds`,
** tilemap, quads and sounds layers only when their rows have keys (the
** engine leaves out the layers outside the ranges on grp and layer:
** LS_COL_ELEMENT_OF; a layer no group lists has NULL grp and layer, so any
** bound on those drops it). */
static int layer_has_rows(const tw_map *m, int64_t l, const ls_scan *scan, unsigned kinds) {
  codec_error e;
  if (!(kinds & KIND(m->layers[l].kind))) return 0;
  if (tw_map_keys_fit(m, LS_KEY_MAX + 1, &e)) return 1;
  /* a scan fails with why (the engine reports scan->error), never leaves
  ** layers out silently; a seek finds no such key */
  if (scan && scan->error && !*scan->error) *scan->error = sqlite3_mprintf("%s", e.msg);
  return 0;
}

/* A shape's has() `fn` for a table of rows of layers of the kinds `kinds`
** (layer_has_rows): tw_tiles has rows for tilemaps, tw_quads for quads
** layers, tw_sound_sources for sounds layers; tw_layers a row for any
** layer. */
#define LAYERS_WITH_ROWS(fn, kinds)                                 \
  static int fn(const void *model, int64_t l, const ls_scan *scan) { \
    return layer_has_rows(model, l, scan, kinds);                   \
  }
LAYERS_WITH_ROWS(tile_layer_in_scan, KINDS_TILEMAP)
LAYERS_WITH_ROWS(quad_layer_in_scan, KIND(TW_KIND_QUADS))
LAYERS_WITH_ROWS(source_layer_in_scan, KIND(TW_KIND_SOUNDS))

/* Tiles are the cells of their layers (a GRID shape over the layers,
** width x height cells); quads and sound sources the elements of theirs (a
** NESTED shape, count of them).  A cell's key is base[layer] + y * width
** + x (see the top); a quad's or source's is the codec's (tw_row_key). */
LS_INNER_COUNT_OF(layer_cells_wide, tw_map, layers, width)
LS_INNER_COUNT_OF(layer_cells_high, tw_map, layers, height)
LS_INNER_COUNT_OF(layer_element_count, tw_map, layers, count)

static int64_t layer_key_base(const void *model, int64_t l) {
  return tw_layer_key_base(model, (size_t)l);
}

/* "group 1 layer 0 (layer_index 5)": how errors name a layer, and the
** layer of a tile, quad or source ("quad 2 of group 1 layer 0
** (layer_index 5)": ls_table.element_name). */
static char *layer_name(const void *model, int64_t l) {
  const tw_layer *L = &MAP_OF(model)->layers[l];
  if (L->group < 0) return sqlite3_mprintf("layer_index %lld (in no group)", (long long)l);
  return sqlite3_mprintf("group %ld layer %ld (layer_index %lld)", L->group, L->index_in_group, (long long)l);
}

/* ---- tw_maps ----------------------------------------------------------------- */

/* The record is the codec's tw_map_summary: the map's counts and identity,
** and its info strings as stored (tw_text, laid out as an ls_span: author,
** version, credits, license NULL when absent; settings the commands back
** to back, each with its NUL). */
static int map_load(const ls_row *row, char **err) {
  codec_error e;
  return ls_codec_loaded(tw_map_summarize(ROW_MAP(row), row->rec, &e), &e, err);
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

static const ls_json_shape settings_shape = {1, 0, TW_SETTINGS_MAX, settings_example, NULL};

static const char *const style_names[] = {"0.6", "0.7", "ddnet", NULL};

static const ls_column map_columns[] = {
  LS_COL_INT("datafile_version", LS_I64, tw_map_summary, df_version, LS_COL_RO, "datafile container version as read (3 or 4; levelsql writes 4)"),
  LS_COL_ENUM("style", LS_I32, tw_map_summary, style, 0, style_names, 0, "'0.6', '0.7' or 'ddnet': the dialect the items show; setting '0.7' or 'ddnet' converts the map (tw_map_convert: item versions, tile and pixel encodings); a map with DDNet-only data (physics or sound layers, sounds, settings, UUID items) is refused for '0.7'"),
  LS_COL_TEXT("author", LS_UTF8, tw_map_summary, info[TW_INFO_AUTHOR], 31, LS_COL_NULL, 0, "map info: author (31 bytes); NULL when absent, and setting NULL or '' removes it"),
  LS_COL_TEXT("map_version", LS_UTF8, tw_map_summary, info[TW_INFO_VERSION], 15, LS_COL_NULL, 0, "map info: version string (15 bytes); NULL when absent, and setting NULL or '' removes it"),
  LS_COL_TEXT("credits", LS_UTF8, tw_map_summary, info[TW_INFO_CREDITS], 127, LS_COL_NULL, 0, "map info: credits (127 bytes); NULL when absent, and setting NULL or '' removes it"),
  LS_COL_TEXT("license", LS_UTF8, tw_map_summary, info[TW_INFO_LICENSE], 31, LS_COL_NULL, 0, "map info: license (31 bytes); NULL when absent, and setting NULL or '' removes it"),
  LS_COL_JSON_TEXTS("settings", LS_NUL_STRINGS, tw_map_summary, info[TW_INFO_SETTINGS], TW_SETTING_MAX, LS_COL_UTF8, &settings_shape, "DDNet server settings: JSON array of command strings (255 bytes each); [] for none"),
  LS_COL_INT("num_groups", LS_I64, tw_map_summary, groups, LS_COL_RO, "number of groups"),
  LS_COL_INT("num_layers", LS_I64, tw_map_summary, layers, LS_COL_RO, "number of layers (all groups)"),
  LS_COL_INT("num_images", LS_I64, tw_map_summary, images, LS_COL_RO, "number of images"),
  LS_COL_INT("num_envelopes", LS_I64, tw_map_summary, envelopes, LS_COL_RO, "number of envelopes"),
  LS_COL_INT("num_sounds", LS_I64, tw_map_summary, sounds, LS_COL_RO, "number of sounds"),
  LS_COL_INT("file_size", LS_I64, tw_map_summary, file_size, LS_COL_RO, "size of the file as last read or written, in bytes"),
  LS_COL_INT("crc32", LS_U32, tw_map_summary, crc32, LS_COL_RO, "zlib crc32 of the file as last read or written (what 0.6 servers announce)"),
  LS_COL_COMPUTED("sha256", "TEXT", get_map_sha256, NULL, LS_COL_NOREC, "SHA-256 of the file as last read or written, hex: the map identity DDNet servers use"),
};

/* The info strings that changed ('' or [] removes one), then a new style
** converts the map (tw_map_update). */
static int map_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  int style_failed;
  codec_error e;
  (void)old;
  if (tw_map_update(ROW_MAP(row), row->rec, &style_failed, &e)) return SQLITE_OK;
  if (style_failed) return ls_codec_failed(&e, SQLITE_CONSTRAINT, err, "column style");
  return LS_STORE_FAILED(map_columns, changed, &e, err);
}

static const ls_table tw_maps = {
  .name = "tw_maps", .format = &tw_format, .doc = "one row per Teeworlds/DDNet map: info and identity",
  LS_COLUMNS(map_columns),
  .shape = LS_ONE_ROW, .row_name = "map info",
  .rows_per_file = 1, /* the corpus average */
  .record_size = sizeof(tw_map_summary), .load = map_load, .store = map_store,
};

/* ---- tw_groups --------------------------------------------------------------- */

static const ls_column group_columns[] = {
  LS_COL_POS("grp", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(7), "group index, 0-based, in file order"),
  LS_COL_TEXT_CHARS("name", LS_UTF8, tw_group_info, name, LS_SIZEOF(tw_group_info, name), 0, 0, "group name (11 bytes); setting it on an old group item raises its version to 3"),
  LS_COL_INT("offset_x", LS_I32, tw_group_info, offset_x, 0, "x offset"),
  LS_COL_INT("offset_y", LS_I32, tw_group_info, offset_y, 0, "y offset"),
  LS_COL_INT("parallax_x", LS_I32, tw_group_info, parallax_x, 0, "horizontal parallax in percent (100: moves with the world)"),
  LS_COL_INT("parallax_y", LS_I32, tw_group_info, parallax_y, 0, "vertical parallax in percent"),
  LS_COL_INT_IN("clipping", LS_I32, tw_group_info, clipping, 0, 1, 0, "1 when drawing is clipped to the clip rectangle"),
  LS_COL_INT("clip_x", LS_I32, tw_group_info, clip_x, 0, "clip rectangle x"),
  LS_COL_INT("clip_y", LS_I32, tw_group_info, clip_y, 0, "clip rectangle y"),
  LS_COL_INT("clip_w", LS_I32, tw_group_info, clip_w, 0, "clip rectangle width"),
  LS_COL_INT("clip_h", LS_I32, tw_group_info, clip_h, 0, "clip rectangle height"),
  LS_COL_INT("num_layers", LS_I32, tw_group_info, num_layers, LS_COL_RO, "layers in the group"),
  LS_COL_INT("start_layer", LS_I32, tw_group_info, start_layer, LS_COL_RO, "layer_index of its first layer"),
  LS_COL_INT("version", LS_I32, tw_group_info, version, LS_COL_RO, "group item version (3 in current maps)"),
};

/* The record is the codec's tw_group_info; the codec raises an old group
** item's version to hold a name or clipping. */
LS_CODEC_RECORD(group, tw_map, tw_group_info, tw_group_get, tw_group_set, group_columns)

/* INSERT into tw_groups: an empty group at grp (NULL: appended). */
typedef struct group_args {
  ls_arg grp;
} group_args;

LS_INSERT_CALL_AT(group_insert, group_args, args->grp.i, 0, tw_group_insert(model, (size_t)args->grp.i, &cerr))

static const ls_insert group_insertion = LS_INSERT(group_insert, group_args, LS_ARG(group_args, grp, LS_IS_POSITION_AT(count_groups)));

static const ls_table tw_groups = {
  .name = "tw_groups", .format = &tw_format, .doc = "one row per group of each map; INSERT adds an empty group (the editor's defaults) at grp or last, DELETE removes a group with its layers (not the game group)",
  LS_COLUMNS(group_columns),
  .shape = LS_ARRAY(count_groups), .row_name = "group {element}",
  .rows_per_file = 7, /* the corpus average */
  .record_size = sizeof(tw_group_info), .load = group_load, .store = group_store,
  LS_CODEC_KEY_FIELDS(group), .insert = &group_insertion, .remove = group_remove,
};
/* ---- tw_layers --------------------------------------------------------------- */

/* The name of the layer's image (NULL without one). */
static void get_layer_image_name(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_map *m = ROW_MAP(row);
  int image = ((const tw_layer_info *)row->rec)->image;
  tw_image_info im;
  codec_error e;
  (void)col;
  if (image < 0 || (size_t)image >= m->num_images) return;
  if (!tw_image_get(m, (size_t)image, &im, &e)) ls_result_codec_error(ctx, row, &e);
  else if (im.name.p) sqlite3_result_text(ctx, im.name.p, (int)im.name.n, SQLITE_TRANSIENT);
}

#define KINDS_SOUNDS (KIND(TW_KIND_SOUNDS) | KIND(TW_KIND_SOUNDS_DEPRECATED))
#define TW_LAYER_SIDE_MAX 65536 /* the codec also caps width x height */

static const ls_column layer_columns[] = {
  LS_COL_ELEMENT_OF("grp", "INTEGER", &layer_group, LS_COL_RANGE | LS_COL_VALUES(7), "group index (NULL for a layer no group lists)"),
  LS_COL_ELEMENT_OF("layer", "INTEGER", &layer_in_group, LS_COL_RANGE | LS_COL_VALUES(8), "index of the layer in its group"),
  LS_COL_POS("layer_index", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(20), "index among all layers of the map"),
  LS_COL_ELEMENT_OF("kind", "TEXT", &layer_kind, 0, "'tiles', 'game', 'front', 'tele', 'speedup', 'switch', 'tune', 'quads', 'sounds', 'sounds_deprecated' or 'unknown'"),
  LS_COL_TEXT_CHARS("name", LS_UTF8, tw_layer_info, name, LS_SIZEOF(tw_layer_info, name), 0, KINDS_KNOWN, "layer name (11 bytes)"),
  LS_COL_KIND_INT("detail", LS_I32, tw_layer_info, detail, 0, 1, 0, KINDS_KNOWN, "1: detail layer (hidden with high detail off)"),
  LS_COL_KIND_INT("width", LS_I32, tw_layer_info, width, 1, TW_LAYER_SIDE_MAX, 0, KINDS_TILEMAP, "tilemaps: width in tiles; writing resizes the layer as the editor does (anchored top-left, new cells empty), and the game layer's physics layers with it"),
  LS_COL_KIND_INT("height", LS_I32, tw_layer_info, height, 1, TW_LAYER_SIDE_MAX, 0, KINDS_TILEMAP, "tilemaps: height in tiles; writing resizes like width"),
  LS_COL_KIND_INT("color_r", LS_I32, tw_layer_info, color[0], 0, 255, 0, KINDS_TILEMAP, "tilemaps: color red 0..255"),
  LS_COL_KIND_INT("color_g", LS_I32, tw_layer_info, color[1], 0, 255, 0, KINDS_TILEMAP, "tilemaps: color green 0..255"),
  LS_COL_KIND_INT("color_b", LS_I32, tw_layer_info, color[2], 0, 255, 0, KINDS_TILEMAP, "tilemaps: color blue 0..255"),
  LS_COL_KIND_INT("color_a", LS_I32, tw_layer_info, color[3], 0, 255, 0, KINDS_TILEMAP, "tilemaps: color alpha 0..255"),
  LS_COL_INDEX("color_env", LS_I32, tw_layer_info, color_env, &color_envelope, LS_COL_NEGNULL, KINDS_TILEMAP, "tilemaps: color envelope index, 0-based (the editor counts from 1); NULL: none"),
  LS_COL_KIND_INT("color_env_offset", LS_I32, tw_layer_info, color_env_offset, 0, 0, 0, KINDS_TILEMAP, "tilemaps: color envelope time offset (ms)"),
  LS_COL_INDEX("image", LS_I32, tw_layer_info, image, &image_index, LS_COL_NEGNULL, KINDS_TILEMAP | KIND(TW_KIND_QUADS), "tilemaps and quads: image index, 0-based (the first image is 0); NULL: none"),
  LS_COL_CUSTOM("image_name", "TEXT", get_layer_image_name, NULL, "name of that image; NULL without one"),
  LS_COL_KIND_INT("num_quads", LS_I32, tw_layer_info, num_quads, 0, 0, LS_COL_RO, KIND(TW_KIND_QUADS), "quads layers: number of quads"),
  LS_COL_KIND_INT("num_sources", LS_I32, tw_layer_info, num_sources, 0, 0, LS_COL_RO, KINDS_SOUNDS, "sounds layers: number of sound sources"),
  LS_COL_INDEX("sound", LS_I32, tw_layer_info, sound, NULL, LS_COL_RO | LS_COL_NEGNULL, KINDS_SOUNDS, "sounds layers: sound index, 0-based; NULL: none"),
  LS_COL_KIND_INT("version", LS_I32, tw_layer_info, version, 0, 0, LS_COL_RO, KINDS_KNOWN, "layer item version (tilemap 3 in DDNet, 4 in 0.7)"),
};

/* The record is the codec's tw_layer_info: its indices read NULL for any
** "none" (negative: LS_COL_NEGNULL), and an unchanged one keeps the value
** it had, such as -2.  The codec writes the fields the layer kind has; a
** new width or height resizes the layer first (tw_layer_set: the game
** layer takes its physics layers along, and the resized layers take fresh
** row keys). */
LS_CODEC_RECORD(layer, tw_map, tw_layer_info, tw_layer_get, tw_layer_set, layer_columns)

/* The columns an INSERT into tw_layers reads. */
typedef struct layer_args {
  ls_arg grp, layer, kind, width, height;
} layer_args;

/* INSERT into tw_layers: a layer of `kind` (default tiles; the codec knows
** the names) in group grp at `layer` (default last), width x height cells
** for tilemaps (0: the codec's default, the game layer's size). */
static int layer_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const layer_args *args = args_;
  size_t l = 0, at = args->layer.i == INT32_MAX ? TW_LAST : (size_t)args->layer.i;
  codec_error e;
  if (!tw_layer_insert_named(model, (size_t)args->grp.i, at, ls_arg_text(&args->kind), (int)args->width.i, (int)args->height.i, &l, &e))
    return ls_codec_failed(&e, SQLITE_CONSTRAINT, err, NULL);
  return ls_inserted_at(pos, (int64_t)l, 0);
}

static const ls_insert layer_insertion =
    LS_INSERT(layer_insert, layer_args, LS_ARG(layer_args, grp, LS_NEEDS("the group the layer goes to"), LS_IS_POSITION_OF(count_groups)),
              LS_ARG(layer_args, layer, LS_IS_POSITION(INT32_MAX, INT32_MAX)), LS_ARG(layer_args, kind),
              LS_ARG(layer_args, width, LS_IS_POSITION(INT32_MAX, 0)), LS_ARG(layer_args, height, LS_IS_POSITION(INT32_MAX, 0)));

static const ls_table tw_layers = {
  .name = "tw_layers", .format = &tw_format, .doc = "one row per layer of each map; INSERT adds a layer of any kind but sounds_deprecated to group grp at position layer (default last), with the editor's defaults and DDNet's rules; DELETE removes one (not the game layer)",
  LS_COLUMNS(layer_columns),
  .shape = LS_ARRAY(count_layers), .row_name = "{element_name}", .element_name = layer_name,
  .rows_per_file = 20, /* the corpus average */
  .record_size = sizeof(tw_layer_info), .load = layer_load, .store = layer_store,
  .row_kind = layer_row_kind, .other_kind = other_layer_kind,
  LS_CODEC_KEY_FIELDS(layer), .insert = &layer_insertion, .remove = layer_remove,
};

/* ---- tw_tiles ---------------------------------------------------------------- */

/* The first read of a row of a layer (a tile, quad or sound source)
** decodes the layer whole (tw_layer_load, up to 512 MiB), failing the
** query when its data is damaged.  The decode polls the statement's
** interrupt (row->cancel, tw_layer_load_cancel): an interrupted decode
** fails the load with SQLITE_INTERRUPT (ls_codec_failed) and leaves the
** layer undecoded, so a later query decodes it afresh. */
static int decode_layer(const ls_row *row, char **err) {
  codec_error e;
  return ls_codec_loaded(tw_layer_load_cancel(ROW_MAP(row), (size_t)row->pos.element, row->cancel, &e), &e, err);
}

/* The record is the codec's tw_tile. */
static int tile_load(const ls_row *row, char **err) {
  codec_error e;
  int rc = decode_layer(row, err);
  return rc != SQLITE_OK ? rc : ls_codec_loaded(tw_tile_get(ROW_MAP(row), (size_t)row->pos.element, (int)row->pos.x,
                                                            (int)row->pos.y, row->rec, &e), &e, err);
}

static const ls_column tile_columns[] = {
  LS_COL_ELEMENT_OF("grp", "INTEGER", &layer_group, LS_COL_RANGE | LS_COL_VALUES(3), "group index"),
  LS_COL_ELEMENT_OF("layer", "INTEGER", &layer_in_group, LS_COL_RANGE | LS_COL_VALUES(7), "index of the layer in its group"),
  LS_COL_POS("x", LS_POS_X, LS_COL_RANGE | LS_COL_VALUES(430), "column, 0-based"),
  LS_COL_POS("y", LS_POS_Y, LS_COL_RANGE | LS_COL_VALUES(160), "row, 0-based"),
  LS_COL_KIND_INT("id", LS_I32, tw_tile, id, 0, 255, 0, 0, "tile index 0..255 (game layers: 1 solid, 2 death, 3 unhookable, 192-194 spawns...; tw_tile_name(kind, id) names it)"),
  LS_COL_KIND_INT("flags", LS_I32, tw_tile, flags, 0, 255, 0, KIND(TW_KIND_TILES) | KIND(TW_KIND_GAME) | KIND(TW_KIND_FRONT) | KIND(TW_KIND_SWITCH), "tiles, game, front, switch: 1 vflip, 2 hflip, 4 opaque, 8 rotate (NULL elsewhere)"),
  LS_COL_KIND_INT("number", LS_I32, tw_tile, number, 0, 255, 0, KIND(TW_KIND_TELE) | KIND(TW_KIND_SWITCH) | KIND(TW_KIND_TUNE), "tele, switch, tune: the number linking tiles"),
  LS_COL_KIND_INT("force", LS_I32, tw_tile, force, 0, 255, 0, KIND(TW_KIND_SPEEDUP), "speedup: force"),
  LS_COL_KIND_INT("max_speed", LS_I32, tw_tile, max_speed, 0, 255, 0, KIND(TW_KIND_SPEEDUP), "speedup: maximal speed (0: none)"),
  LS_COL_KIND_INT("angle", LS_I32, tw_tile, angle, -32768, 32767, 0, KIND(TW_KIND_SPEEDUP), "speedup: angle in degrees (-32768..32767)"),
  LS_COL_KIND_INT("delay", LS_I32, tw_tile, delay, 0, 255, 0, KIND(TW_KIND_SWITCH), "switch: delay in seconds"),
  LS_COL_POS("layer_index", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(10), "index of the layer among all layers"),
  LS_COL_ELEMENT_OF("kind", "TEXT", &layer_kind, 0, "the layer kind ('tiles', 'game', 'front', 'tele', 'speedup', 'switch', 'tune')"),
};

/* The codec marks the layer for re-encoding; an unchanged cell leaves it
** alone. */
static int tile_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  codec_error e;
  return LS_STORE_CODEC(tile_columns, row, old, sizeof(tw_tile),
                        tw_tile_set(ROW_MAP(row), (size_t)row->pos.element, (int)row->pos.x, (int)row->pos.y, row->rec, &e),
                        changed, &e, err);
}

static const ls_table tw_tiles = {
  .name = "tw_tiles", .format = &tw_format, .doc = "one row per cell of every tilemap layer of each map",
  LS_COLUMNS(tile_columns),
  .shape = {.kind = LS_SHAPE_GRID, .count = count_layers, .inner = layer_cells_wide, .height = layer_cells_high,
            .has = tile_layer_in_scan, .base = layer_key_base},
  .row_name = "tile x {x}, y {y} of {element_name}", .element_name = layer_name, .natural_order = "layer_index,y,x",
  .rows_per_file = 1300000, /* the corpus average */
  .record_size = sizeof(tw_tile), .load = tile_load, .store = tile_store,
  .row_kind = layer_row_kind, .other_kind = other_layer_kind,
};
/* ---- tw_quads ---------------------------------------------------------------- */

/* The record is the codec's tw_quad: the JSON columns read and write its
** arrays, its envelope indices read NULL for any "none" (negative). */
static int quad_load(const ls_row *row, char **err) {
  codec_error e;
  int rc = decode_layer(row, err);
  return rc != SQLITE_OK ? rc : ls_codec_loaded(tw_quad_get(ROW_MAP(row), (size_t)row->pos.element,
                                                            (size_t)row->pos.index, row->rec, &e), &e, err);
}

static const ls_json_shape points_shape = {2, 5, 5, "[[0,0],[32768,0],[0,32768],[32768,32768],[16384,16384]]", NULL};
static const ls_json_shape colors_shape = {4, 4, 4, "[[255,255,255,255],[255,255,255,255],[255,255,255,255],[255,255,255,255]]", NULL};
static const ls_json_shape tex_shape = {2, 4, 4, "[[0,0],[1024,0],[0,1024],[1024,1024]]", NULL};

static const ls_column quad_columns[] = {
  LS_COL_ELEMENT_OF("grp", "INTEGER", &layer_group, LS_COL_RANGE | LS_COL_VALUES(5), "group index"),
  LS_COL_ELEMENT_OF("layer", "INTEGER", &layer_in_group, LS_COL_RANGE | LS_COL_VALUES(5), "index of the quads layer in its group"),
  LS_COL_POS("quad", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(170), "index of the quad in its layer"),
  LS_COL_JSON_INTS("points", LS_I32, tw_quad, points, INT32_MIN, INT32_MAX, 0, &points_shape, "JSON [[x,y] x 4 corners (top-left, top-right, bottom-left, bottom-right), [x,y] pivot], fixed point: 1024 = one pixel, 32768 = one tile"),
  LS_COL_JSON_INTS("colors", LS_I32, tw_quad, colors, 0, 255, 0, &colors_shape, "JSON [[r,g,b,a] x 4 corners], 0..255"),
  LS_COL_JSON_INTS("tex_coords", LS_I32, tw_quad, tex, INT32_MIN, INT32_MAX, 0, &tex_shape, "JSON [[u,v] x 4 corners], 1024 = the whole image"),
  LS_COL_INDEX("pos_env", LS_I32, tw_quad, pos_env, &position_envelope, LS_COL_NEGNULL, 0, "position envelope index, 0-based (the editor counts from 1); NULL: none"),
  LS_COL_INT("pos_env_offset", LS_I32, tw_quad, pos_env_offset, 0, "position envelope time offset (ms)"),
  LS_COL_INDEX("color_env", LS_I32, tw_quad, color_env, &color_envelope, LS_COL_NEGNULL, 0, "color envelope index, 0-based (the editor counts from 1); NULL: none"),
  LS_COL_INT("color_env_offset", LS_I32, tw_quad, color_env_offset, 0, "color envelope time offset (ms)"),
  LS_COL_POS("layer_index", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(10), "index of the layer among all layers"),
};

/* An unchanged quad leaves the layer alone. */
static int quad_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  codec_error e;
  return LS_STORE_CODEC(quad_columns, row, old, sizeof(tw_quad),
                        tw_quad_set(ROW_MAP(row), (size_t)row->pos.element, (size_t)row->pos.index, row->rec, &e), changed,
                        &e, err);
}

/* The columns an INSERT into tw_quads or tw_sound_sources reads: the
** layer, and the element's index in it (column quad or source). */
typedef struct element_args {
  ls_arg grp, layer, index;
} element_args;

/* The layer argument of a quad or source INSERT: the layer at (grp,
** layer) in group terms, as its index among all layers (layer.i);
** SQLITE_CONSTRAINT naming it when there is none. */
static int find_layer(const void *model, const void *args, ls_arg *layer, char **err) {
  const ls_arg *grp = &((const element_args *)args)->grp;
  long at;
  if (sqlite3_value_numeric_type(grp->value) != SQLITE_INTEGER || sqlite3_value_numeric_type(layer->value) != SQLITE_INTEGER)
    return ls_refuse(err, "an INSERT here needs grp and layer (integers) to say which layer it goes to");
  if ((at = tw_layer_at(model, ls_arg_int64(grp), ls_arg_int64(layer))) < 0)
    return ls_refuse(err, "the map has no layer %lld in group %lld", (long long)ls_arg_int64(layer), (long long)ls_arg_int64(grp));
  layer->i = at;
  return SQLITE_OK;
}

/* INSERT of a quad at (grp, layer), position quad or last. */
LS_INSERT_CALL_AT(quad_insert, element_args, args->layer.i, args->index.i,
                  tw_quad_insert(model, (size_t)args->layer.i, (size_t)args->index.i, &cerr))

static const ls_insert quad_insertion =
    LS_INSERT(quad_insert, element_args, LS_ARG(element_args, grp), LS_ARG(element_args, layer, LS_CHECKED_BY(find_layer)),
              LS_ARG_NAMED("quad", element_args, index, LS_IS_POSITION_AT_IN(layer_element_count, element_args, layer)));

static const ls_table tw_quads = {
  .name = "tw_quads", .format = &tw_format, .doc = "one row per quad of every quads layer of each map; INSERT adds the editor's 64 x 64 white quad to (grp, layer) at position quad (default last), DELETE removes one",
  LS_COLUMNS(quad_columns),
  .shape = {.kind = LS_SHAPE_NESTED, .count = count_layers, .inner = layer_element_count, .has = quad_layer_in_scan},
  .row_name = "quad {index} of {element_name}", .element_name = layer_name,
  .rows_per_file = 260, /* the corpus average */
  .record_size = sizeof(tw_quad), .load = quad_load, .store = quad_store,
  LS_CODEC_KEY_FIELDS(quad), .insert = &quad_insertion, .remove = quad_remove,
};
/* ---- tw_sound_sources --------------------------------------------------------- */

/* The codec's tw_source (its envelope indices read NULL for any "none"),
** the shape by name and its size by shape (tw_source_sides): width and
** height for a rectangle, radius for a circle (-1, NULL, for the fields the
** other shape lacks). */
typedef struct source_rec {
  tw_source s;
  int width, height, radius;
} source_rec;

static const char *const source_shapes[] = {"rectangle", "circle", NULL};
#define SOURCE_SIZE_COLUMNS 14 /* width, height and radius, in this order: what a write gave (source_store) */

static int source_load(const ls_row *row, char **err) {
  source_rec *r = row->rec;
  codec_error e;
  int rc = decode_layer(row, err);
  if (rc != SQLITE_OK) return rc;
  if (!tw_source_get(ROW_MAP(row), (size_t)row->pos.element, (size_t)row->pos.index, &r->s, &e))
    return ls_codec_loaded(0, &e, err);
  tw_source_sides(&r->s, &r->width, &r->height, &r->radius);
  return SQLITE_OK;
}

static const ls_column source_columns[] = {
  LS_COL_ELEMENT_OF("grp", "INTEGER", &layer_group, LS_COL_RANGE | LS_COL_VALUES(5), "group index"),
  LS_COL_ELEMENT_OF("layer", "INTEGER", &layer_in_group, LS_COL_RANGE | LS_COL_VALUES(5), "index of the sounds layer in its group"),
  LS_COL_POS("source", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(10), "index of the source in its layer; INSERT: the position to take, default after the last"),
  LS_COL_INT("x", LS_I32, source_rec, s.x, 0, "position x, fixed point: 1024 = one pixel"),
  LS_COL_INT("y", LS_I32, source_rec, s.y, 0, "position y, fixed point: 1024 = one pixel"),
  LS_COL_INT_IN("loop", LS_I32, source_rec, s.loop, 0, 1, 0, "1: plays in a loop"),
  LS_COL_INT_IN("panning", LS_I32, source_rec, s.panning, 0, 1, 0, "1: panned by the listener's position"),
  LS_COL_INT_IN("time_delay", LS_I32, source_rec, s.time_delay, 0, INT32_MAX, 0, "delay before it plays, in seconds"),
  LS_COL_INT_IN("falloff", LS_I32, source_rec, s.falloff, 0, 255, 0, "falloff 0 (none) to 255 (full) towards the shape's edge"),
  LS_COL_INDEX("pos_env", LS_I32, source_rec, s.pos_env, &position_envelope, LS_COL_NEGNULL, 0, "position envelope index, 0-based (the editor counts from 1); NULL: none"),
  LS_COL_INT("pos_env_offset", LS_I32, source_rec, s.pos_env_offset, 0, "position envelope time offset (ms)"),
  LS_COL_INDEX("sound_env", LS_I32, source_rec, s.sound_env, &sound_envelope, LS_COL_NEGNULL, 0, "sound (volume) envelope index, 0-based; NULL: none"),
  LS_COL_INT("sound_env_offset", LS_I32, source_rec, s.sound_env_offset, 0, "sound envelope time offset (ms)"),
  LS_COL_ENUM("shape", LS_I32, source_rec, s.shape, 0, source_shapes, 0, "'rectangle' or 'circle': the area the sound is heard in"),
  [SOURCE_SIZE_COLUMNS] = LS_COL_INT_NULL("width", LS_I32, source_rec, width, 0, INT32_MAX, 0, "rectangles: width, fixed point (1024 = one pixel); NULL for circles"),
  LS_COL_INT_NULL("height", LS_I32, source_rec, height, 0, INT32_MAX, 0, "rectangles: height, fixed point; NULL for circles"),
  LS_COL_INT_NULL("radius", LS_I32, source_rec, radius, 0, INT32_MAX, 0, "circles: radius in pixels; NULL for rectangles"),
  LS_COL_POS("layer_index", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(10), "index of the layer among all layers"),
};

/* The size follows the shape (tw_source_size): a rectangle needs width and
** height, a circle its radius; the other shape's columns read NULL and take
** only NULL. */
static int source_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  source_rec *r = row->rec;
  int given = (int)ls_changed_bits(changed, SOURCE_SIZE_COLUMNS, 3); /* TW_GIVEN_WIDTH, _HEIGHT, _RADIUS */
  const char *field;
  codec_error e;
  if (!tw_source_size(&r->s, r->width, r->height, r->radius, given, &field, &e))
    return ls_codec_failed(&e, SQLITE_CONSTRAINT, err, "column %s", field);
  return LS_STORE_CODEC(source_columns, row, old, sizeof(tw_source),
                        tw_source_set(ROW_MAP(row), (size_t)row->pos.element, (size_t)row->pos.index, &r->s, &e), changed,
                        &e, err);
}

/* INSERT of a source at (grp, layer), position source or last. */
LS_INSERT_CALL_AT(source_insert, element_args, args->layer.i, args->index.i,
                  tw_source_insert(model, (size_t)args->layer.i, (size_t)args->index.i, &cerr))

static const ls_insert source_insertion =
    LS_INSERT(source_insert, element_args, LS_ARG(element_args, grp), LS_ARG(element_args, layer, LS_CHECKED_BY(find_layer)),
              LS_ARG_NAMED("source", element_args, index, LS_IS_POSITION_AT_IN(layer_element_count, element_args, layer)));

static const ls_table tw_sound_sources = {
  .name = "tw_sound_sources", .format = &tw_format,
  .doc = "one row per sound source of every sounds layer of each (DDNet) map; INSERT adds one with the editor's defaults (a looping circle of radius 1500), DELETE removes one",
  LS_COLUMNS(source_columns),
  .shape = {.kind = LS_SHAPE_NESTED, .count = count_layers, .inner = layer_element_count, .has = source_layer_in_scan},
  .row_name = "source {index} of {element_name}", .element_name = layer_name,
  .rows_per_file = 2,
  .record_size = sizeof(source_rec), .load = source_load, .store = source_store,
  LS_CODEC_KEY_FIELDS(source), .insert = &source_insertion, .remove = source_remove,
};
/* ---- tw_images --------------------------------------------------------------- */

/* The codec's tw_image_info (its name a tw_text, laid out as an ls_span;
** data_size -1, NULL, without pixels), and a PNG written to the row
** ({NULL, 0}: none). */
typedef struct image_rec {
  tw_image_info im;
  ls_span png;
} image_rec;

LS_CODEC_LOAD(image_load, tw_map, tw_image_info, tw_image_get)

/* png: the embedded pixels encoded as PNG when read (NULL for an external
** image), so only a query that reads the column pays for the encoding. */
static void get_image_png(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tw_map *m = ROW_MAP(row);
  tw_image_info im;
  unsigned char *png;
  size_t n;
  codec_error e;
  (void)col;
  if (!tw_image_get(m, (size_t)row->pos.element, &im, &e)) ls_result_codec_error(ctx, row, &e);
  else if (im.external || im.data_index < 0) return;
  else if (!tw_image_png(m, (size_t)row->pos.element, &png, &n, &e)) ls_result_codec_error(ctx, row, &e);
  else sqlite3_result_blob64(ctx, png, n, free);
}

/* png = BLOB: kept in the row for image_store, which embeds it. */
static int set_image_png(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_image_info im;
  codec_error e;
  int reads_null = tw_image_get(ROW_MAP(row), (size_t)row->pos.element, &im, &e) && (im.external || im.data_index < 0);
  return ls_stage_blob(row, v, col, "the bytes of a PNG file (a non-empty BLOB, e.g. readfile('x.png')); "
                       "set external = 1 to drop the pixels", reads_null, &((image_rec *)row->rec)->png, err);
}

#define IMAGE_EXTERNAL_COLUMN 4 /* its index: external = 1 and a png contradict */

/* The codec's rules (tw_image_update): a PNG written embeds it (width,
** height and format follow); external = 1 drops the pixels, external = 0
** needs a PNG; then a new name (an equal one leaves the blob alone). */
static int image_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const image_rec *r = row->rec;
  const char *field;
  codec_error e;
  (void)old;
  if (tw_image_update(ROW_MAP(row), (size_t)row->pos.element, r->im.external, changed[IMAGE_EXTERNAL_COLUMN], r->png.p,
                      r->png.n, r->im.name.p, r->im.name.n, &field, &e))
    return SQLITE_OK;
  return ls_codec_failed(&e, SQLITE_CONSTRAINT, err, "column %s", field);
}

#define TW_IMAGE_NAME_MAX 127 /* 128 bytes with the NUL */
static const char *const image_formats[] = {"rgb", "rgba", NULL};

static const ls_column image_columns[] = {
  LS_COL_POS("image", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(11), "image index, 0-based in file order, as layers refer to it"),
  LS_COL_TEXT_IN("name", LS_UTF8, image_rec, im.name, 1, TW_IMAGE_NAME_MAX, 0, "image name (1 to 127 bytes; external images are looked up by it in mapres/)"),
  LS_COL_INT("width", LS_I32, image_rec, im.width, LS_COL_RO, "width in pixels"),
  LS_COL_INT("height", LS_I32, image_rec, im.height, LS_COL_RO, "height in pixels"),
  [IMAGE_EXTERNAL_COLUMN] = LS_COL_INT_IN("external", LS_I32, image_rec, im.external, 0, 1, 0,
                "1: not embedded, loaded from the game's mapres by name; setting 1 drops the pixels, setting 0 needs png"),
  LS_COL_ENUM("format", LS_I32, image_rec, im.format, 0, image_formats, LS_COL_RO, "'rgba' or 'rgb' (0.7 image items only)"),
  LS_COL_INT_NULL("data_size", LS_I64, image_rec, im.data_size, 0, 0, LS_COL_RO, "bytes of embedded pixel data, uncompressed (NULL when external)"),
  LS_COL_INT("version", LS_I32, image_rec, im.version, LS_COL_RO, "image item version (1 DDNet/0.6, 2 0.7)"),
  LS_COL_COMPUTED("png", "BLOB", get_image_png, set_image_png, LS_COL_NOREC, "the embedded pixels as an RGBA PNG (NULL when external); writing a PNG embeds it, width, height and format follow"),
};

/* INSERT into tw_images: an external image (no pixels) of that name and
** size, appended. */
typedef struct image_args {
  ls_arg image, name, width, height;
} image_args;

LS_INSERT_CALL_AT(image_insert, image_args, args->image.i, 0,
                  tw_image_insert(model, args->name.text.p, args->name.text.n, (int)args->width.i, (int)args->height.i, &cerr))

static const ls_insert image_insertion =
    LS_INSERT(image_insert, image_args, LS_ARG(image_args, image, LS_IS_APPENDED(count_images)),
              LS_ARG(image_args, name, LS_IS_TEXT, LS_NEEDS("a name")), LS_ARG(image_args, width, LS_IS_POSITION(INT32_MAX, 0)),
              LS_ARG(image_args, height, LS_IS_POSITION(INT32_MAX, 0)));

static const ls_table tw_images = {
  .name = "tw_images", .format = &tw_format, .doc = "one row per image of each map; INSERT appends an external image (name, width, height), DELETE removes an unused one, lowering the image indices past it",
  LS_COLUMNS(image_columns),
  .shape = LS_ARRAY(count_images), .row_name = "image {element}",
  .rows_per_file = 11, /* the corpus average */
  .record_size = sizeof(image_rec), .load = image_load, .store = image_store,
  LS_CODEC_KEY_FIELDS(image), .insert = &image_insertion, .remove = image_remove,
};

/* ---- tw_envelopes ------------------------------------------------------------ */

/* The codec's tw_envelope_info (its kind's name a tw_text, laid out as an
** ls_span), and the points (tw_env_point_shown: each with the values and
** tangents it shows; decoded only when the column is read). */
typedef struct envelope_rec {
  tw_envelope_info en;
  ls_span points;
} envelope_rec;

LS_CODEC_LOAD(envelope_load, tw_map, tw_envelope_info, tw_envelope_get)

/* The envelope's points for the points column, decoded when it is read
** (ls_json_records.decode) with what each shows (tw_envelope_points_shown),
** copied into the row's arena. */
static int decode_envelope_points(const ls_row *row, ls_span *points, char **err) {
  tw_env_point_shown *p, *copy;
  size_t n;
  codec_error e;
  if (!tw_envelope_points_shown(ROW_MAP(row), (size_t)row->pos.element, &p, &n, &e))
    return ls_codec_failed(&e, SQLITE_ERROR, err, NULL);
  if ((copy = ls_arena_alloc(row->arena, sizeof *p * (n + 1))) != NULL && n) memcpy(copy, p, sizeof *p * n);
  free(p);
  *points = (ls_span){copy, n};
  return copy ? SQLITE_OK : SQLITE_NOMEM;
}

#define TW_ENV_POINTS_MAX 65536
#define TW_CURVE_MAX 5 /* step, linear, slow, fast, smooth, bezier */
static const char points_example[] =
  "[{\"time\":0,\"curve\":1,\"values\":[0,0,0]},{\"time\":1000,\"curve\":1,\"values\":[0,0,90]}]";

/* The members of a point object: time, curve, 1 to 4 values, and the
** optional bezier tangents (the codec checks that the map holds them). */
#define TANGENT(key, k)                                                                                  \
  {key, LS_I32, offsetof(tw_env_point_shown, p.bezier[4 * (k)]), INT32_MIN, INT32_MAX, 4,              \
   offsetof(tw_env_point_shown, tangents_shown[k]), 1}
static const ls_json_member point_members[] = {
  {"time", LS_I32, offsetof(tw_env_point_shown, p.time), 0, INT32_MAX, 0, 0, 0},
  {"curve", LS_I32, offsetof(tw_env_point_shown, p.curve), 0, TW_CURVE_MAX, 0, 0, 0},
  {"values", LS_I32, offsetof(tw_env_point_shown, p.values), INT32_MIN, INT32_MAX, 4,
   offsetof(tw_env_point_shown, values_shown), 0},
  TANGENT("in_dx", 0), TANGENT("in_dy", 1), TANGENT("out_dx", 2), TANGENT("out_dy", 3),
};
static const ls_json_records point_records = {sizeof(tw_env_point_shown), "point", TW_ENV_POINTS_MAX, points_example,
                                              point_members, LS_NELEMS(point_members), decode_envelope_points};

#define ENV_POINTS_COLUMN 5 /* its index: store() writes the points only when they changed */

static const ls_column envelope_columns[] = {
  LS_COL_POS("env", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(5), "envelope index, 0-based in file order (the editor counts from 1), as layers and quads refer to it"),
  LS_COL_TEXT("kind", LS_UTF8, envelope_rec, en.kind, 0, LS_COL_RO, 0, "'position', 'color', 'sound' (or 'unknown')"),
  LS_COL_TEXT_CHARS("name", LS_UTF8, envelope_rec, en.name, LS_SIZEOF(envelope_rec, en.name), 0, 0, "envelope name (31 bytes)"),
  LS_COL_INT_IN("synchronized", LS_I32, envelope_rec, en.synchronized, 0, 1, 0, "1: follows server time rather than the player's join time"),
  LS_COL_INT("num_points", LS_I32, envelope_rec, en.num_points, LS_COL_RO, "number of points"),
  [ENV_POINTS_COLUMN] = LS_COL_JSON_RECORDS("points", envelope_rec, points, &point_records, "JSON [{time (ms), curve (0 step, 1 linear, 2 slow, 3 fast, 4 smooth, 5 bezier), values [x, y, rotation] / [r, g, b, a] / [volume] (fixed point, 1024 = 1.0)}], with in_dx, in_dy, out_dx, out_dy (4 ints each) for bezier tangents; writing may change the number of points"),
  LS_COL_INT("channels", LS_I32, envelope_rec, en.channels, LS_COL_RO, "channels: 1 sound, 3 position, 4 color"),
  LS_COL_INT("version", LS_I32, envelope_rec, en.version, LS_COL_RO, "envelope item version"),
};

/* The codec's rules (tw_envelope_update): new points are checked before
** anything is written; name and synchronized, then the points (the points
** item is rebuilt; later envelopes' start points move when the count
** changes). */
static int envelope_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const envelope_rec *r = row->rec;
  const char *field;
  codec_error e;
  (void)old;
  if (tw_envelope_update(ROW_MAP(row), (size_t)row->pos.element, &r->en, r->points.p, r->points.n,
                         changed[ENV_POINTS_COLUMN], &field, &e))
    return SQLITE_OK;
  return ls_codec_failed(&e, SQLITE_CONSTRAINT, err, "column %s", field);
}

/* INSERT into tw_envelopes: an envelope of that kind (the codec knows the
** names) with the editor's two points, appended. */
typedef struct envelope_args {
  ls_arg env, kind;
} envelope_args;

LS_INSERT_CALL_AT(envelope_insert, envelope_args, args->env.i, 0, tw_envelope_insert_named(model, ls_arg_text(&args->kind), &cerr))

static const ls_insert envelope_insertion = LS_INSERT(envelope_insert, envelope_args, LS_ARG(envelope_args, env, LS_IS_APPENDED(count_envelopes)),
                                                      LS_ARG(envelope_args, kind));

static const ls_table tw_envelopes = {
  .name = "tw_envelopes", .format = &tw_format, .doc = "one row per envelope (animation curve) of each map; INSERT appends one of a kind (with the editor's two points unless points is given), DELETE removes an unused one, lowering the envelope indices past it",
  LS_COLUMNS(envelope_columns),
  .shape = LS_ARRAY(count_envelopes), .row_name = "envelope {element}",
  .rows_per_file = 4, /* the corpus average */
  .record_size = sizeof(envelope_rec), .load = envelope_load, .store = envelope_store,
  LS_CODEC_KEY_FIELDS(envelope), .insert = &envelope_insertion, .remove = envelope_remove,
};

/* ---- tw_sounds --------------------------------------------------------------- */

/* The codec's tw_sound_info (its name a tw_text, laid out as an ls_span;
** data_size -1, NULL, without data), and bytes written to the row ({NULL,
** 0}: none). */
typedef struct sound_rec {
  tw_sound_info so;
  ls_span data;
} sound_rec;

LS_CODEC_LOAD(sound_load, tw_map, tw_sound_info, tw_sound_get)

/* data: the embedded opus bytes, inflated only when the column is read. */
static void get_sound_data(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  unsigned char *d;
  size_t n;
  codec_error e;
  (void)col;
  if (!tw_sound_data(ROW_MAP(row), (size_t)row->pos.element, &d, &n, &e)) ls_result_codec_error(ctx, row, &e);
  else if (d) sqlite3_result_blob64(ctx, d, n, free); /* the codec's malloc'd copy: SQLite frees it */
}

/* data = BLOB: kept in the row for sound_store. */
static int set_sound_data(ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  tw_sound_info so;
  codec_error e;
  int reads_null = tw_sound_get(ROW_MAP(row), (size_t)row->pos.element, &so, &e) && so.data_index < 0;
  return ls_stage_blob(row, v, col, "the bytes of an opus file (a non-empty BLOB, e.g. readfile('x.opus'))",
                       reads_null, &((sound_rec *)row->rec)->data, err);
}

/* New bytes (the sound becomes embedded, its size follows), then a new
** name (an equal one leaves the blob alone): tw_sound_update. */
static int sound_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const sound_rec *r = row->rec;
  const char *field;
  codec_error e;
  (void)old, (void)changed;
  if (tw_sound_update(ROW_MAP(row), (size_t)row->pos.element, r->data.p, r->data.n, r->so.name.p, r->so.name.n, &field, &e))
    return SQLITE_OK;
  return ls_codec_failed(&e, SQLITE_CONSTRAINT, err, "column %s", field);
}

static const ls_column sound_columns[] = {
  LS_COL_POS("sound", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(1), "sound index, 0-based in file order, as sounds layers refer to it"),
  LS_COL_TEXT_IN("name", LS_UTF8, sound_rec, so.name, 1, TW_IMAGE_NAME_MAX, 0, "sound name (1 to 127 bytes)"),
  LS_COL_INT_NULL("data_size", LS_I64, sound_rec, so.data_size, 0, 0, LS_COL_RO, "bytes of embedded opus data"),
  LS_COL_COMPUTED("data", "BLOB", get_sound_data, set_sound_data, LS_COL_NOREC, "the embedded opus bytes (NULL when none); writing embeds new bytes, data_size follows"),
};

/* INSERT into tw_sounds: an empty sound of that name, appended. */
typedef struct sound_args {
  ls_arg sound, name;
} sound_args;

LS_INSERT_CALL_AT(sound_insert, sound_args, args->sound.i, 0, tw_sound_insert(model, args->name.text.p, args->name.text.n, &cerr))

static const ls_insert sound_insertion = LS_INSERT(sound_insert, sound_args, LS_ARG(sound_args, sound, LS_IS_APPENDED(count_sounds)),
                                                   LS_ARG(sound_args, name, LS_IS_TEXT, LS_NEEDS("a name")));

static const ls_table tw_sounds = {
  .name = "tw_sounds", .format = &tw_format, .doc = "one row per sound of each (DDNet) map; INSERT appends a sound by name (without data), DELETE removes an unused one, lowering the sound indices past it",
  LS_COLUMNS(sound_columns),
  .shape = LS_ARRAY(count_sounds), .row_name = "sound {element}",
  .rows_per_file = 1, /* the corpus average */
  .record_size = sizeof(sound_rec), .load = sound_load, .store = sound_store,
  LS_CODEC_KEY_FIELDS(sound), .insert = &sound_insertion, .remove = sound_remove,
};

/* ---- the family --------------------------------------------------------- */

static const ls_table *const tw_all_tables[] = {&tw_maps,  &tw_groups, &tw_layers,    &tw_tiles,
                                                &tw_quads, &tw_images, &tw_envelopes, &tw_sounds,
                                                &tw_sound_sources, NULL};

const ls_family tw_family = {
  .format = &tw_format,
  .tables = tw_all_tables,
  .register_functions = tw_register_functions,
};
