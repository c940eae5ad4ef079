/*
** twmap.h: the Teeworlds / DDNet map model on top of the datafile container.
**
** Pure C, no SQLite.  tw_map_parse reads a .map file into a tw_map;
** tw_map_serialize writes it back (version-4 datafile, DDNet's writer).
** Item layouts: ../shared/seeds/teeworlds-map-format.txt and
** ../shared/formats/teeworlds-datafile.md section 7.
**
** Model choices, and why:
** - The datafile (items + blobs) stays the single source of truth.  The map
**   only indexes it: which item is the n-th image, group, layer, envelope,
**   sound.  Getters decode fields from the item's ints; setters write the
**   ints back in place (growing an item, and raising its version, only when
**   a field beyond its length is set).  So everything the model does not
**   know, including unknown item types, UUID items and extra trailing ints,
**   is written back untouched, and an unchanged map serializes exactly as
**   DDNet's map_resave writes it.
** - Tile, quad and sound-source data are decoded LAZILY: a layer's blob is
**   inflated (and 0.7 skip-compression expanded) on the first tw_tile_get /
**   tw_quad_get for that layer, never for the others.  The decoded cells
**   are the layer's only uncompressed copy: the datafile keeps just the
**   blob's compressed bytes (df_data_copy), which a write copies as they
**   are.  An edit marks the layer dirty; tw_map_serialize re-encodes only
**   dirty layers (0.7 layers are skip-compressed again, the way the 0.7
**   editor does), so untouched blobs keep their bytes.
** - Physics layers keep their extra blob (tele, speedup, front, switch,
**   tune); the cells of such a layer come from that blob, and the main
**   "data" blob (a zeroed Tile array kept for vanilla clients) is left alone.
** - Indices are the ones the game uses: the n-th item of a type (file order).
**
** Ownership: tw_map_parse returns a map the caller frees with tw_map_free
** (the map owns its datafile).  Strings returned through `const char **`
** point into the map's blobs and stay valid until that string is set again
** or the map is freed; they are NOT NUL-terminated in general, use the
** length.  tw_envelope_points hands out a malloc'd array the caller frees.
** tw_map_serialize's output is malloc'd; the caller frees it with free().
*/
#ifndef LEVELSQL_TWMAP_H
#define LEVELSQL_TWMAP_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"
#include "tw/datafile.h"

/* Map item types. */
enum tw_item_type {
  TW_ITEM_VERSION = 0,
  TW_ITEM_INFO = 1,
  TW_ITEM_IMAGE = 2,
  TW_ITEM_ENVELOPE = 3,
  TW_ITEM_GROUP = 4,
  TW_ITEM_LAYER = 5,
  TW_ITEM_ENVPOINTS = 6,
  TW_ITEM_SOUND = 7
};

typedef enum tw_style { TW_STYLE_06 = 0, TW_STYLE_07 = 1, TW_STYLE_DDNET = 2 } tw_style;

typedef enum tw_kind {
  TW_KIND_TILES = 0,
  TW_KIND_GAME,
  TW_KIND_FRONT,
  TW_KIND_TELE,
  TW_KIND_SPEEDUP,
  TW_KIND_SWITCH,
  TW_KIND_TUNE,
  TW_KIND_QUADS,
  TW_KIND_SOUNDS,
  TW_KIND_SOUNDS_DEPRECATED,
  TW_KIND_UNKNOWN /* layer type the model does not know (kept opaquely) */
} tw_kind;

/* Per-layer bookkeeping (read-only for callers). */
typedef struct tw_layer {
  size_t item;         /* datafile item position */
  long group;          /* owning group index, -1 if no group lists it */
  long index_in_group; /* position inside that group, -1 if none */
  tw_kind kind;
  int width, height;   /* tilemaps only */
  size_t count;        /* cells (w*h), quads or sound sources */
  size_t cell_size;    /* bytes per cell/quad/source in the decoded blob */
  int skip_compressed; /* tilemap version >= 4: 0.7 skip compression */
  int early_ddrace;    /* once loaded: 2010 DDRace cells (speedup 4 bytes, switch 2) */
  unsigned char *cells; /* owned; decoded blob once loaded (NULL before) */
  size_t cells_size;    /* bytes in cells (>= count*cell_size for quads/sounds) */
  int loaded;
  int dirty;
} tw_layer;

typedef struct tw_map {
  datafile *df; /* owned */
  size_t file_size;
  uint32_t crc32;          /* zlib crc32 of the file as read */
  unsigned char sha256[32]; /* of the file as read */
  tw_style style;
  size_t num_groups, num_layers, num_images, num_envelopes, num_sounds;
  tw_layer *layers; /* owned, num_layers */
  /* Envelope points: one item holding every point of every envelope. */
  int point_ints; /* 6, or 22 when some envelope has version >= 3 */
  /* Internal indexes (datafile item positions), owned: */
  size_t *group_items, *image_items, *env_items, *sound_items;
  long info_item;      /* -1 if none */
  long envpoints_item; /* -1 if none */
  long bezier_item;    /* DDNet envpoints-bezier UUID item, -1 if none */
  struct tw_keys *keys; /* owned: the row keys ("row keys" below) */
} tw_map;

/* A string the map holds: p[0..n), borrowed, not NUL-terminated in general;
** p NULL (n 0) when absent.  Laid out as a (pointer, length) pair, as
** callers that keep such pairs (levelsql's tables) hold them. */
typedef struct tw_text {
  const char *p;
  size_t n;
} tw_text;

/* ---- whole map ------------------------------------------------------------- */

/* Returns 1 if the buffer starts with a datafile magic (DATA / ATAD). */
int tw_map_sniff(const unsigned char *data, size_t size);

/* Parses a map.  Only the container and the item layout are checked here;
** layer data is checked when first used.  A pre-0.4 map (Teeworlds 0.3
** items 0x8001-0x8003 and no version item) is refused: its items mean
** something else.  Returns 1 and *out (free with tw_map_free), or 0 and a
** message. */
int tw_map_parse(const unsigned char *data, size_t size, tw_map **out, codec_error *err);

/* tw_map_parse polling `cancel` (NULL: never) while it reads the container
** (df_parse_cancel) and hashes the file, every few MiB: when it says stop,
** fails with CODEC_E_INTERRUPT ("interrupted") and *out stays NULL. */
int tw_map_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, tw_map **out,
                        codec_error *err);

void tw_map_free(tw_map *m);

/* A deep copy (free with tw_map_free), decoded and dirty layers included;
** NULL when memory runs out. */
tw_map *tw_map_clone(const tw_map *m);

/* Serializes: re-encodes dirty layers, then df_write(df_flags; pass
** DF_WRITE_RECOMPRESS for output identical to DDNet's map_resave). */
int tw_map_serialize(tw_map *m, int df_flags, unsigned char **out, size_t *out_size, codec_error *err);

/* Drops what the map decoded and can decode again: the cells of layers
** loaded but not edited, and the blobs inflated and unchanged (names,
** settings, sound data).  Pointers handed out into them become invalid; the
** next read decodes again.  The row keys stay.  Returns tw_map_footprint after. */
size_t tw_map_shed(tw_map *m);

/* Memory the map holds now: items, stored blobs, the blobs inflated and
** kept (names, settings, sound data, replaced blobs), the row keys and the
** cells of the layers decoded so far (it grows as tables decode more).  A decoded layer
** counts once (its cells); image pixels are inflated only while a PNG or
** a drawing is made, and not kept. */
size_t tw_map_footprint(const tw_map *m);

/* Decodes now the image and sound names and every envelope's points (what
** getters decode on first use), so a map it accepts reads without a codec
** error there; inflated blobs stay inflated.  Info strings and layer data
** are checked by tw_info_get and tw_layer_load. */
int tw_map_decode_items(tw_map *m, codec_error *err);

/* Decodes now everything the getters decode on first use: the info strings
** (a failure is named "map info (author): ..."), tw_map_decode_items, and
** the cells of every tilemap and quads layer, after checking that every row
** has a key below key_limit (tw_map_keys_fit), so that such a map fails at
** once instead of after decoding gigabytes of the layers before the first
** that does not fit.  A map it accepts reads without a codec error
** anywhere; what it decoded stays decoded, so a second call costs little.
** `cancel` (NULL: none) is polled before each layer and while a layer's
** blob inflates (every 4 MiB). */
int tw_map_validate(tw_map *m, int64_t key_limit, const codec_cancel *cancel, codec_error *err);

/* What decoding the whole map would allocate, summed into *claim from what
** its items and blob headers claim, nothing inflated: for each layer with
** data, its cells (width x height x cell size; quads or sources x their
** size) or its blob's declared size if larger, both for a 0.7
** skip-compressed layer (the blob is inflated, then expanded); then the
** declared size of every blob no layer names (info strings, names, image
** pixels, sound data).  Two layers naming one blob each count it: each
** decodes its own copy.  Parts are named "layer 12 (tiles)", "data 3". */
void tw_map_decoded_claim(const tw_map *m, codec_claim *claim);

const char *tw_style_name(tw_style s); /* "0.6", "0.7", "ddnet" */
const char *tw_kind_name(tw_kind k);   /* "tiles", "game", ..., "sounds_deprecated", "unknown" */
extern const char *const tw_kind_names[]; /* the same, indexed by tw_kind, NULL after "unknown" */
/* The kind named `name` (tw_kind_name) among tiles .. sounds, the kinds a
** layer can be added as (tw_layer_insert): 1 and *k, or 0. */
int tw_kind_by_name(const char *name, tw_kind *k);
/* The layer that is layer k of group g (tw_layer.group, index_in_group),
** or -1 when the map has none. */
long tw_layer_at(const tw_map *m, int64_t g, int64_t k);

/* ---- info (tw_maps) --------------------------------------------------------- */

typedef enum tw_info_field {
  TW_INFO_AUTHOR = 0,
  TW_INFO_VERSION = 1,
  TW_INFO_CREDITS = 2,
  TW_INFO_LICENSE = 3,
  TW_INFO_SETTINGS = 4 /* consecutive NUL-terminated strings */
} tw_info_field;

/* One info string.  *s = NULL, *len = 0 when absent (no info item, index
** -1).  For text fields the trailing NUL is not counted; for SETTINGS *s/len
** cover all strings including each NUL terminator.  Fails when the blob is
** unavailable. */
int tw_info_get(tw_map *m, tw_info_field f, const char **s, size_t *len, codec_error *err);

/* Sets one info string (s == NULL or len == 0 clears it: index -1, the old
** blob stays orphaned).  Text: s has no NUL; it is stored with one.
** SETTINGS: s must be the NUL-terminated strings back to back, e.g.
** "sv_a 1\0sv_b 2\0" (len 14).  Creates the info item if the map has none. */
int tw_info_set(tw_map *m, tw_info_field f, const char *s, size_t len, codec_error *err);

/* A map at a glance (tw_maps): its datafile version as read, how many
** groups, layers, images, envelopes and sounds it has, its size, CRC-32
** and style, and its info strings as tw_info_get gives them (info[f]).
** Fails as tw_info_get does. */
typedef struct tw_map_summary {
  int64_t df_version, groups, layers, images, envelopes, sounds, file_size;
  uint32_t crc32;
  int32_t style; /* tw_style */
  tw_text info[TW_INFO_SETTINGS + 1];
} tw_map_summary;
int tw_map_summarize(tw_map *m, tw_map_summary *out, codec_error *err);

/* A row's worth of changes to the map's info and style (tw_maps): the info
** strings in->info[f] (as tw_map_summarize gives them; an empty one removes
** one) that differ from the map's are set, an unchanged one leaving its
** blob alone; then a new in->style converts the map (tw_map_convert, below:
** after the strings, so settings cleared in the same change no longer
** block a conversion to 0.7).  The other fields are not written.  On
** failure *style_failed is 1 when the conversion failed, 0 when an info
** string did. */
int tw_map_update(tw_map *m, const tw_map_summary *in, int *style_failed, codec_error *err);

/* ---- groups ------------------------------------------------------------------ */

typedef struct tw_group_info {
  int version;
  int offset_x, offset_y, parallax_x, parallax_y;
  int start_layer, num_layers; /* read-only through tw_group_set */
  int clipping, clip_x, clip_y, clip_w, clip_h;
  char name[12]; /* NUL-terminated, at most 11 bytes */
} tw_group_info;

int tw_group_get(const tw_map *m, size_t g, tw_group_info *out, codec_error *err);
/* Writes every field but start_layer/num_layers/version.  Fields a version-1
** group item lacks are added (version raised to 2 for clipping, 3 for a
** name); unchanged values never grow the item. */
int tw_group_set(tw_map *m, size_t g, const tw_group_info *in, codec_error *err);

/* ---- layers -------------------------------------------------------------------- */

typedef struct tw_layer_info {
  tw_kind kind;
  int type;     /* raw layer type: 2 tilemap, 3 quads, 9/10 sounds */
  int version;  /* tilemap/quads/sounds item version */
  int detail;   /* layer flag bit 0 */
  char name[12];
  int width, height;          /* tilemaps */
  int color[4];               /* tilemaps: r g b a */
  int color_env, color_env_offset; /* tilemaps */
  int image;       /* tilemaps and quads; -1 none */
  int num_quads;   /* quads */
  int num_sources; /* sounds */
  int sound;       /* sounds; -1 none */
} tw_layer_info;

/* Fields of layer l (global index).  Group and position: m->layers[l]. */
int tw_layer_get(const tw_map *m, size_t l, tw_layer_info *out, codec_error *err);
/* Writes name, detail, color, color_env, color_env_offset, image (those the
** layer kind has); a tilemap's new width or height resizes it first
** (tw_layer_resize, which may refuse it); other fields are ignored. */
int tw_layer_set(tw_map *m, size_t l, const tw_layer_info *in, codec_error *err);

/* Index of the blob holding layer l's cells, quads or sources (for a
** physics layer its own tele/speedup/... blob), -1 if none.  Two layers
** naming the same blob (never in real maps) each decode their own copy; on
** serialize the last dirty one in layer order wins. */
long tw_layer_data_index(const tw_map *m, size_t l);

/* Decodes layer l's blob now (idempotent).  Fails with a message naming
** the layer item and data index for a missing/unavailable/mis-sized blob. */
int tw_layer_load(tw_map *m, size_t l, codec_error *err);
/* tw_layer_load polling `cancel` (NULL: never) while the blob inflates,
** every 4 MiB: when it says stop, fails with CODEC_E_INTERRUPT and leaves
** the layer undecoded, so a later call decodes it afresh. */
int tw_layer_load_cancel(tw_map *m, size_t l, const codec_cancel *cancel, codec_error *err);

/* One cell of a tilemap layer.  Fields a kind does not have read as 0 and
** are ignored on set:
**   tiles/game/front: id, flags       tele: number, id
**   speedup: force, max_speed, id, angle   switch: number, id, flags, delay
**   tune: number, id
** Early DDRace layers (layer->early_ddrace, 2010: a speedup blob of 4
** bytes a cell, a switch blob of 2) have fewer: speedup force, id, angle;
** switch number, id.  Their other fields read 0 and must be written 0. */
typedef struct tw_tile {
  int id, flags, number, force, max_speed, angle, delay;
} tw_tile;

/* Reads cell (x, y), loading the layer on first use. */
int tw_tile_get(tw_map *m, size_t l, int x, int y, tw_tile *out, codec_error *err);
/* Writes cell (x, y); values must fit their byte (angle: int16). */
int tw_tile_set(tw_map *m, size_t l, int x, int y, const tw_tile *in, codec_error *err);

/* ---- quads ------------------------------------------------------------------------ */

typedef struct tw_quad {
  int points[5][2]; /* 4 corners then the pivot, fixed point (1/512 units... as stored) */
  int colors[4][4]; /* r g b a per corner */
  int tex[4][2];    /* texture coordinates per corner */
  int pos_env, pos_env_offset, color_env, color_env_offset;
} tw_quad;

int tw_quad_get(tw_map *m, size_t l, size_t q, tw_quad *out, codec_error *err);
int tw_quad_set(tw_map *m, size_t l, size_t q, const tw_quad *in, codec_error *err);

/* ---- images -------------------------------------------------------------------------- */

typedef struct tw_image_info {
  int version, width, height;
  int external;      /* 0 or 1 (any other value in the item reads 1) */
  int format;        /* 0 rgb, 1 rgba (version 1 images are rgba; any value but 0 reads 1) */
  tw_text name;      /* {NULL, 0} if none */
  long data_index;   /* -1 without pixels (external images) */
  int64_t data_size; /* declared uncompressed pixel bytes, -1 without pixels */
} tw_image_info;

int tw_image_get(tw_map *m, size_t i, tw_image_info *out, codec_error *err);
int tw_image_set_name(tw_map *m, size_t i, const char *name, size_t len, codec_error *err);

/* ---- envelopes ------------------------------------------------------------------------- */

typedef struct tw_envelope_info {
  int version, channels;
  tw_text kind;     /* "position", "color", "sound" or "unknown" (NUL-terminated too) */
  char name[32];    /* NUL-terminated, at most 31 bytes */
  int synchronized; /* 0 or 1 (any other value in the item reads 1) */
  int start_point, num_points;
} tw_envelope_info;

/* An envelope's kind is its channel count: the name of `channels` (1
** "sound", 3 "position", 4 "color", any other "unknown"), and the channel
** count of a kind's name (0 for NULL or another name). */
const char *tw_envelope_kind_name(int channels);
int tw_envelope_kind_channels(const char *name);

typedef struct tw_env_point {
  int time, curve;
  int values[4];
  /* in_dx[4], in_dy[4], out_dx[4], out_dy[4]: 0.7 bezier (22-int points) */
  int bezier[16];
} tw_env_point;

int tw_envelope_get(const tw_map *m, size_t e, tw_envelope_info *out, codec_error *err);
/* Writes name and synchronized (adding the field for version-1 items). */
int tw_envelope_set(tw_map *m, size_t e, const tw_envelope_info *in, codec_error *err);
/* The points of envelope e: *pts malloc'd (caller frees; NULL when n == 0). */
int tw_envelope_points(const tw_map *m, size_t e, tw_env_point **pts, size_t *n, codec_error *err);
/* Replaces the points of envelope e.  The envelope-points item is rebuilt;
** when the count changes, later envelopes' start_point move accordingly. */
int tw_envelope_set_points(tw_map *m, size_t e, const tw_env_point *pts, size_t n, codec_error *err);
/* Whether the map can store bezier tangents of points: 22-int points (0.7)
** or a DDNet bezier item parallel to the points item. */
int tw_map_has_bezier(const tw_map *m);

/* A point as a table shows and takes it: the point, how many of its values
** mean something (values_shown, 1 to 4: the envelope's channels, 1 sound,
** 3 position, 4 color; all 4 when an unused one is not 0), and per tangent
** array of bezier (in_dx, in_dy, out_dx, out_dy) 4 when shown (all four
** when any tangent is not 0) or 0, so that reading and writing back never
** loses anything.  New points say which tangent arrays were given (0:
** absent). */
typedef struct tw_env_point_shown {
  tw_env_point p;
  int values_shown;
  int tangents_shown[4];
} tw_env_point_shown;

/* The points of envelope e as shown: *pts malloc'd (caller frees; NULL
** when n == 0). */
int tw_envelope_points_shown(const tw_map *m, size_t e, tw_env_point_shown **pts, size_t *n, codec_error *err);

/* A row's worth of changes to envelope e: new points (pts_given; n may be
** 0) are checked first, times must not decrease and tangents given need a
** map that stores them (tw_map_has_bezier), so a refused change changes
** nothing; then name and synchronized (tw_envelope_set), then the points
** (tw_envelope_set_points).  On failure *field names what was refused
** ("points", "name" or "synchronized"); a point is named by its index
** ("point 3 in_dx: ..."). */
int tw_envelope_update(tw_map *m, size_t e, const tw_envelope_info *in, const tw_env_point_shown *pts, size_t n,
                       int pts_given, const char **field, codec_error *err);

/* ---- sounds ---------------------------------------------------------------------------- */

typedef struct tw_sound_info {
  int version, external;
  tw_text name;      /* {NULL, 0} if none */
  long data_index;   /* -1 without data */
  int64_t data_size; /* declared uncompressed bytes of the opus data, -1 without data */
} tw_sound_info;

int tw_sound_get(tw_map *m, size_t s, tw_sound_info *out, codec_error *err);

/* ---- resizing (twmap_resize.c) --------------------------------------------------------- */

/* Resizes tilemap layer l to width x height cells as DDNet's editor does:
** anchored at the top-left, cells beyond the new size dropped, new cells
** empty (0).  Resizing the game layer resizes every physics layer (front,
** tele, speedup, switch, tune) with it, their main "data" blobs included;
** a physics layer alone is refused while the map has a game layer (the
** game reads them at its size).  Width and height are at least 1, the
** layer at most the cells tw_map_parse accepts.  On failure the map is
** unchanged, except when memory runs out while applying. */
int tw_layer_resize(tw_map *m, size_t l, int width, int height, codec_error *err);

/* ---- row keys (twmap_keys.c) ------------------------------------------------------------ */

/* Keys that name the rows of a map for as long as it is in memory: its
** groups, layers, images, envelopes and sounds, the quads and sound
** sources of each layer, and the cells of each tilemap layer (the layer's
** key base + y * width + x).  A key survives the structural edits of other
** rows (twmap_edit.h), so a caller finds a row again after rows before it
** came or went (levelsql's rowids).  Before a list's first edit its keys
** are the indices (or the layer's base + index); from then on it keeps
** them by index, new rows taking fresh keys past every key given so far,
** as does a layer whose cell count a resize changed (a fresh base).  Every
** parsed or cloned map has its keys. */
typedef struct tw_keys tw_keys;
typedef enum tw_rows {
  TW_ROWS_GROUPS = 0, TW_ROWS_LAYERS, TW_ROWS_IMAGES, TW_ROWS_ENVELOPES, TW_ROWS_SOUNDS,
  TW_ROWS_QUADS,  /* element: the layer, index: the quad in it */
  TW_ROWS_SOURCES /* element: the sounds layer, index: the source in it */
} tw_rows;

/* The key of a row: element `element` of a list of the map, or element
** `index` of layer `element` (quads, sources). */
int64_t tw_row_key(const tw_map *m, tw_rows rows, size_t element, size_t index);
/* The row holding key: 1 and its element and index (0 for the map's own
** lists), or 0 when no row of `rows` has it. */
int tw_row_find(const tw_map *m, tw_rows rows, int64_t key, size_t *element, size_t *index);
/* The key of layer l's first cell, quad or source (its key base). */
int64_t tw_layer_key_base(const tw_map *m, size_t l);
/* Whether the rows of every tilemap, quads and sounds layer have keys below
** limit: 1, or 0 with "layer 3: its N rows would take row keys from K on,
** past the <limit> rows a rowid can name in one file" (CODEC_E_LIMIT; never
** in a real map, whose decoded size is far below). */
int tw_map_keys_fit(const tw_map *m, int64_t limit, codec_error *err);

/* The keys' bookkeeping, for the codec's own parse and edits: new keys
** for a parsed map, a copy, free, memory held (NULL on OOM).  An edit
** reserves first (the only step that can fail: out of memory), edits, then
** records what it did: a row inserted at `at` or removed from `at` of the
** list `rows` (element: the layer of quads or sources), a layer inserted
** or removed at l, or resized. */
tw_keys *tw_keys_new(const tw_map *m);
tw_keys *tw_keys_clone(const tw_keys *k);
void tw_keys_free(tw_keys *k);
size_t tw_keys_footprint(const tw_keys *k);
int tw_keys_reserve(tw_map *m, tw_rows rows, size_t element, codec_error *err);
void tw_keys_inserted(tw_map *m, tw_rows rows, size_t element, size_t at);
void tw_keys_removed(tw_map *m, tw_rows rows, size_t element, size_t at);
int tw_keys_reserve_layer(tw_map *m, codec_error *err);
void tw_keys_layer_inserted(tw_map *m, size_t l);
void tw_keys_layer_removed(tw_map *m, size_t l);
void tw_keys_layer_resized(tw_map *m, size_t l);

/* ---- converting (twmap_convert.c) ------------------------------------------------------ */

/* Converts the map to Teeworlds 0.7's layout (to = TW_STYLE_07) or DDNet's
** (TW_STYLE_DDNET); a map already of that style is left alone, '0.6' is
** refused.  To 0.7: tilemaps version 4 (18 ints, skip-compressed tiles),
** images version 2 (format RGBA), the info item's settings field dropped;
** refused, before anything changes, when the map holds what 0.7 cannot
** (DDNet physics layers, sound layers, sounds, settings, UUID items).  To
** DDNet: tilemaps version 3 (23 ints, raw tiles), images version 1 (RGB
** pixels expanded to RGBA), version-3 envelopes version 2 with their
** tangents in DDNet's bezier item.  Tiles, quads, envelope points and
** pixels read the same afterwards.  On failure (bad layer data found
** while decoding, out of memory) the map may be partly converted: the
** caller discards it. */
int tw_map_convert(tw_map *m, tw_style to, codec_error *err);

#endif
