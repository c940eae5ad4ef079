/*
** tis_tables.c: the Infinity Engine tileset family (TIS V1 files, palette
** and PVRZ tilesets alike, codecs/tis/tis.h) declared for the generic
** engine: one table, tis_tiles, one row per tile, read-only.
**
** - What the file holds is shown as it is: the tile's number, and for a
**   PVRZ tileset the page and position its 64 x 64 pixels come from.
** - png decodes the tile only when the column is read: a palette tile from
**   the file, a PVRZ tile from its page, found beside the TIS by the
**   naming rule of tis_pvrz_name (YS0108 page 1 is Y010801.PVRZ, any case)
**   and kept with the model until it changes (tis_lookup.h).  "Beside" is
**   the engine's ls_find: the TIS's folder on disk, or for a tileset of a
**   game ("<key>:AR0100.TIS", README "The game as a source") the game's
**   resources, its override folder first, then its archives.  The
**   tileset's name is the file's (the resource name of a game's).
** - x and y say where the area shows the tile.  A TIS does not know its
**   area: the WED that uses it does.  So they come from the WED beside the
**   TIS named like it (AR0100.TIS: AR0100.WED, any case; all 98 corpus
**   areas name their base tileset after themselves) when its base overlay
**   (overlay 0) names the tileset: the pixel position of the first cell,
**   row by row, that shows the tile as a primary tile (any frame of an
**   animated cell), else of the first whose secondary tile it is (a closed
**   door's graphics).  NULL without such a WED, and for tiles the overlay
**   never shows.  No position is made up from the tile's number: a TIS has
**   no width, and the order of its tiles is the WED's business.  The WED
**   is the committed one (not an open transaction's copy), kept until
**   what ls_find finds for it changes, and looked for again when where it
**   looked changes (the folder; the game's key or override folder).
** Both load on the first read of a column that needs them, in the
** model's side part (tis_side): the cache counts it (footprint) and may
** drop it (shed); it is rebuilt from the disk when needed again.
**
** PVRZ pages are a format of their own, "pvrz", without tables: so
** levelsql_files lists the pages of a folder with their errors (a page
** that does not inflate, one over levelsql_limit('decoded')).
*/
#include <stdlib.h>
#include <string.h>

#include "common/canvas.h"
#include "tis/tis.h"
#include "tis/tis_lookup.h"
#include "wed/wed.h"
#include "engine/engine.h"
#include "tis/tis_tables.h"

#define NOT_PLACED UINT32_MAX

/* What the getters load from beside the file. */
typedef struct tis_side {
  char tileset[9];    /* its name without the extension (at most 8 kept) */
  size_t tileset_len; /* the name's full length (over 8: no pages, no WED) */
  tis_pages pages;    /* looked for beside the file (pages.near: its path as the row names it) */
  /* positions (placement_ready) */
  int placed;         /* cell is what wed_stamp says */
  ls_stamp wed_stamp; /* of the WED found, else of where it was looked for */
  uint32_t *cell;     /* per tile: the base-overlay cell, NOT_PLACED; NULL: no WED names the tileset */
  uint32_t width;     /* the base overlay's width in cells */
} tis_side;

typedef struct tis_model {
  tis_file *tis;
  tis_side *side; /* NULL until a getter needs it */
} tis_model;

#define MODEL(row) ((tis_model *)(row)->model)

/* ---- the model and the format --------------------------------------------------- */

static void side_free(tis_side *s) {
  if (!s) return;
  tis_pages_clear(&s->pages);
  free(s->cell);
  free(s);
}

/* Wraps a tileset (taking it) without a side part; NULL when out of memory. */
static tis_model *model_wrap(tis_file *t) {
  tis_model *m = t ? (tis_model *)calloc(1, sizeof *m) : NULL;
  if (!m) {
    tis_free(t);
    return NULL;
  }
  m->tis = t;
  return m;
}

static void *tis_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  tis_file *t = NULL;
  tis_model *m;
  if (!tis_parse(data, size, &t, err)) return NULL;
  if (!(m = model_wrap(t))) codec_fail_oom(err, "tis: out of memory");
  return m;
}

static int tis_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  return tis_serialize(((const tis_model *)model)->tis, out, size, err);
}

/* A copy of the tileset; the side part is not copied (it is loaded again). */
static void *tis_format_clone(const void *model) {
  tis_file *t = tis_clone(((const tis_model *)model)->tis);
  return t ? model_wrap(t) : NULL;
}

static void tis_format_free(void *model) {
  tis_model *m = model;
  if (!m) return;
  side_free(m->side);
  tis_free(m->tis);
  free(m);
}

/* The tileset, and what the side part loaded (pages, positions). */
static size_t tis_format_footprint(const void *model) {
  const tis_model *m = model;
  size_t n = sizeof *m + tis_footprint(m->tis);
  if (m->side) {
    n += sizeof *m->side + tis_pages_footprint(&m->side->pages);
    if (m->side->cell) n += (size_t)m->tis->tile_count * sizeof *m->side->cell;
  }
  return n;
}

/* Drops the side part: it is read from the disk again when needed. */
static size_t tis_format_shed(void *model) {
  tis_model *m = model;
  side_free(m->side);
  m->side = NULL;
  return tis_format_footprint(m);
}

static const char *const tis_extensions[] = {".tis", NULL};

const ls_format tis_format = {
  .name = "tis", .extensions = tis_extensions, .sniff = tis_sniff, .parse = tis_format_parse,
  .serialize = tis_format_serialize, .clone = tis_format_clone, .free_model = tis_format_free,
  .footprint = tis_format_footprint, .shed = tis_format_shed,
  /* no options; no validate: every tile the parse accepted decodes (a PVRZ tile's page is read when png is);
  ** no decoded_claim: the parse copies the tiles, its footprint counts; the pages count against the limit as
  ** they load (tis_lookup.h) */
};

/* ---- the side part ------------------------------------------------------------------ */

/* Sets up the model's side part for the file at row->file->path: its
** name as the tileset's (the resource name of a game's "<key>:<NAME>"),
** the page lookup beside it under the connection's decoded limit.
** Returns 1, or 0 with err. */
static int side_ready(tis_model *m, const ls_row *row, sqlite3_context *ctx, codec_error *err) {
  const char *path = row->file->path, *base = ls_file_name(path), *dot = strrchr(base, '.');
  tis_side *s;
  if (m->side) return 1;
  if (!(s = (tis_side *)calloc(1, sizeof *s))) return codec_fail_oom(err, "out of memory");
  s->tileset_len = dot ? (size_t)(dot - base) : strlen(base);
  memcpy(s->tileset, base, s->tileset_len > 8 ? 8 : s->tileset_len);
  if (!tis_pages_init(&s->pages, path, base, s->tileset_len, tis_decoded_limit(sqlite3_context_db_handle(ctx)),
                      err)) {
    side_free(s);
    return 0;
  }
  m->side = s;
  return 1;
}

/* Whether the 8-byte resref field names the tileset (any case). */
static int names_tileset(const unsigned char field[8], const tis_side *s) {
  size_t n = wed_resref_len(field), i;
  if (n != s->tileset_len) return 0;
  for (i = 0; i < n; i++) {
    char a = (char)field[i], b = s->tileset[i];
    if ((a >= 'a' && a <= 'z' ? a - 32 : a) != (b >= 'a' && b <= 'z' ? b - 32 : b)) return 0;
  }
  return 1;
}

/* Fills s->cell from the base overlay of area a (which names the tileset):
** per tile, the first cell showing it as a primary tile, else the first
** whose secondary tile it is.  Returns 1, or 0 when out of memory. */
static int place_tiles(tis_side *s, const wed_area *a, uint32_t tiles) {
  const wed_overlay *o = &a->overlays[0];
  uint32_t c, k, t;
  if (!(s->cell = (uint32_t *)malloc((tiles ? tiles : 1) * sizeof *s->cell))) return 0;
  for (t = 0; t < tiles; t++) s->cell[t] = NOT_PLACED;
  s->width = o->width;
  for (c = 0; c < o->num_cells; c++) {
    const wed_tilecell *cell = &o->cells[c];
    for (k = 0; k < cell->tile_count && (uint32_t)cell->tile_start + k < o->num_lookup; k++) {
      t = o->lookup[cell->tile_start + k];
      if (t < tiles && s->cell[t] == NOT_PLACED) s->cell[t] = c;
    }
  }
  for (c = 0; c < o->num_cells; c++) {
    t = o->cells[c].secondary_tile;
    if (t != WED_NO_TILE && t < tiles && s->cell[t] == NOT_PLACED) s->cell[t] = c;
  }
  return 1;
}

/* Reads the WED `name` found beside the file and places the tiles when
** its base overlay names the tileset; wed_stamp: the WED read.  Returns
** 1, or 0 with err (the WED does not read). */
static int place_from_wed(tis_side *s, sqlite3 *db, const char *name, uint32_t tiles, codec_error *err) {
  ls_found f;
  wed_area *a = NULL;
  int ok;
  if (!ls_find(db, s->pages.near, LS_FIND_BESIDE, name, s->pages.limit, &f, err))
    return codec_prefix(err, "x, y: the area beside it: ");
  if (!f.found) { /* gone since it was found: placed as without one */
    s->wed_stamp = f.stamp;
    ls_found_clear(&f);
    return 1;
  }
  ok = wed_parse(f.data, f.size, &a, err);
  if (!ok) codec_prefix(err, "x, y: the area beside it, %s: ", f.path);
  if (ok && a->num_overlays && a->overlays[0].num_cells && names_tileset(a->overlays[0].tileset, s) &&
      !place_tiles(s, a, tiles)) {
    ok = codec_fail_oom(err, "out of memory");
  }
  s->wed_stamp = f.stamp;
  ls_found_clear(&f);
  wed_free(a);
  return ok;
}

/* Makes s->cell what the files say: kept while what ls_find finds for
** the WED named like the tileset (or, when there is none, where it looked
** for it) is unchanged, else looked up and read again.  Returns 1, or 0
** with err. */
static int placement_ready(tis_model *m, sqlite3 *db, codec_error *err) {
  tis_side *s = m->side;
  char name[16];
  ls_found now;
  ls_stamp stamp;
  int found;
  if (s->tileset_len > 8) { /* no resref: no area names it */
    s->placed = 1;
    return 1;
  }
  snprintf(name, sizeof name, "%.8s.WED", s->tileset);
  if (!ls_find(db, s->pages.near, LS_FIND_BESIDE, name, 0, &now, err))
    return codec_prefix(err, "x, y: the area beside it: ");
  found = now.found;
  stamp = now.stamp;
  ls_found_clear(&now);
  if (s->placed && ls_stamp_same(&stamp, &s->wed_stamp)) return 1;
  s->placed = 0;
  free(s->cell);
  s->cell = NULL;
  s->wed_stamp = stamp;
  if (found && !place_from_wed(s, db, name, m->tis->tile_count, err)) return 0;
  s->placed = 1;
  return 1;
}

/* ---- tis_tiles ------------------------------------------------------------------------ */

static int64_t tile_count(const void *model) {
  return ((const tis_model *)model)->tis->tile_count;
}

/* x (want_y 0) or y of the tile on its area, or NULL (see above). */
static void get_position(const ls_row *row, sqlite3_context *ctx, int want_y) {
  tis_model *m = MODEL(row);
  codec_error e = {{0}, 0};
  uint32_t cell;
  if (!side_ready(m, row, ctx, &e) || !placement_ready(m, sqlite3_context_db_handle(ctx), &e)) {
    ls_result_codec_error(ctx, row, &e);
    return;
  }
  if (!m->side->cell || (cell = m->side->cell[row->pos.element]) == NOT_PLACED || !m->side->width) {
    sqlite3_result_null(ctx);
    return;
  }
  sqlite3_result_int64(ctx, want_y ? (int64_t)(cell / m->side->width) * 64 : (int64_t)(cell % m->side->width) * 64);
}

static void get_x(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  get_position(row, ctx, 0);
}

static void get_y(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  get_position(row, ctx, 1);
}

/* The PVRZ reference's page, x or y (by column name); NULL for a palette tile. */
static void get_reference(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  const tis_file *t = MODEL(row)->tis;
  const tis_ref *r;
  if (t->kind != TIS_PVRZ) {
    sqlite3_result_null(ctx);
    return;
  }
  r = &t->refs[row->pos.element];
  if (strcmp(col->name, "page") == 0) sqlite3_result_int64(ctx, r->page);
  else sqlite3_result_int64(ctx, strcmp(col->name, "page_x") == 0 ? r->x : r->y);
}

/* The tile as a 64 x 64 RGBA PNG. */
static void get_png(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  tis_model *m = MODEL(row);
  unsigned char rgba[TIS_TILE_RGBA_BYTES], *png = NULL;
  canvas c = {.w = TIS_TILE_SIDE, .h = TIS_TILE_SIDE, .px = rgba, .clip_x1 = TIS_TILE_SIDE, .clip_y1 = TIS_TILE_SIDE};
  tis_decode_opts o = {.alpha = TIS_ALPHA_GREEN};
  codec_error e = {{0}, 0};
  size_t n = 0;
  int ok;
  (void)col;
  if (m->tis->kind == TIS_PVRZ) {
    if (!side_ready(m, row, ctx, &e)) goto failed;
    o.page = tis_pages_get;
    o.page_ctx = &m->side->pages;
    m->side->pages.db = sqlite3_context_db_handle(ctx); /* for this decode only */
  }
  ok = tis_decode(m->tis, (uint32_t)row->pos.element, &o, rgba, &e);
  if (m->side) m->side->pages.db = NULL;
  if (ok && canvas_png_encode(&c, &png, &n, &e)) {
    result_take(ctx, png, n, 0);
    return;
  }
failed:
  ls_result_codec_error(ctx, row, &e);
}

static const ls_column tile_columns[] = {
  LS_COL_POS("tile", LS_POS_ELEMENT, LS_COL_RANGE, "tile number, 0-based, as the WED's tile lookup names it"),
  LS_COL_COMPUTED("x", "INTEGER", get_x, NULL, LS_COL_NOREC,
                  "pixel x on the area of the first base-overlay cell showing the tile (a primary tile, else a "
                  "door's closed tile), from the WED beside the TIS named like it whose overlay 0 names the "
                  "tileset (for a game's tileset: the game's WED of that name); NULL without one, or for a tile no cell "
                  "shows"),
  LS_COL_COMPUTED("y", "INTEGER", get_y, NULL, LS_COL_NOREC, "pixel y on the area (as x)"),
  LS_COL_COMPUTED("page", "INTEGER", get_reference, NULL, LS_COL_NOREC,
                  "PVRZ tilesets: the page the tile is cut from (0..99, its file named by the tileset: YS0108 "
                  "page 1 is Y010801.PVRZ), -1 for a solid black tile; NULL for a palette tile"),
  LS_COL_COMPUTED("page_x", "INTEGER", get_reference, NULL, LS_COL_NOREC,
                  "PVRZ tilesets: pixel x of the tile's 64x64 rectangle on its page; NULL for a palette tile"),
  LS_COL_COMPUTED("page_y", "INTEGER", get_reference, NULL, LS_COL_NOREC,
                  "PVRZ tilesets: pixel y of the rectangle on its page; NULL for a palette tile"),
  LS_COL_COMPUTED("png", "BLOB", get_png, NULL, LS_COL_NOREC,
                  "the 64x64 tile as an RGBA PNG, decoded when read: palette colours (pure green 0,255,0 "
                  "transparent), or the page's DXT1/DXT5 pixels, the page read from beside the TIS (for a game's "
                  "tileset: from the game, override folder first)"),
};

static const ls_table tis_tiles = {
  .name = "tis_tiles", .format = &tis_format,
  .doc = "one row per tile of each TIS tileset (palette and PVRZ tilesets); read-only",
  LS_COLUMNS(tile_columns),
  .shape = LS_ARRAY(tile_count), .row_name = "tile {element}", .natural_order = "tile",
  .rows_per_file = 179, /* the corpus average: 1,076 tiles in 6 tilesets */
};

static const ls_table *const tis_tables[] = {&tis_tiles, NULL};

const ls_family tis_family = {
  .format = &tis_format,
  .tables = tis_tables,
};

/* ---- PVRZ pages as files -------------------------------------------------------------- */

/* A page file: the parsed page, and its bytes (a page is never edited, so
** writing it gives them back as they were). */
typedef struct pvrz_model {
  pvrz_page *page;
  unsigned char *bytes;
  size_t size;
} pvrz_model;

static void pvrz_format_free(void *model) {
  pvrz_model *m = model;
  if (!m) return;
  pvrz_free(m->page);
  free(m->bytes);
  free(m);
}

static void *pvrz_format_parse(const unsigned char *data, size_t size, codec_error *err) {
  pvrz_model *m = (pvrz_model *)calloc(1, sizeof *m);
  if (!m || !(m->bytes = (unsigned char *)malloc(size ? size : 1))) {
    free(m);
    codec_fail_oom(err, "pvrz: out of memory");
    return NULL;
  }
  memcpy(m->bytes, data, size);
  m->size = size;
  if (!pvrz_parse(data, size, 0, &m->page, err)) {
    pvrz_format_free(m);
    return NULL;
  }
  return m;
}

static int pvrz_format_serialize(const void *model, unsigned char **out, size_t *size, codec_error *err) {
  const pvrz_model *m = model;
  if (!(*out = (unsigned char *)malloc(m->size ? m->size : 1))) return codec_fail_oom(err, "pvrz: out of memory");
  memcpy(*out, m->bytes, m->size);
  *size = m->size;
  return 1;
}

/* A copy: the same bytes, parsed again. */
static void *pvrz_format_clone(const void *model) {
  const pvrz_model *m = model;
  codec_error err = {{0}, 0};
  return pvrz_format_parse(m->bytes, m->size, &err);
}

static size_t pvrz_format_footprint(const void *model) {
  const pvrz_model *m = model;
  return sizeof *m + m->size + sizeof *m->page + m->page->blocks_size + m->page->meta_size;
}

/* What parsing would inflate: the size the file claims, before anything
** is inflated (levelsql_limit('decoded')). */
static void pvrz_format_bytes_claim(const unsigned char *data, size_t size, codec_claim *claim) {
  if (size >= 4) codec_claim_add(claim, (uint64_t)data[0] | (uint64_t)data[1] << 8 | (uint64_t)data[2] << 16 |
                                 (uint64_t)data[3] << 24, "the PVR texture");
}

/* No bytes say "PVRZ" (a size, then a zlib stream): the extension does. */
static int pvrz_sniff(const unsigned char *data, size_t size) {
  (void)data;
  (void)size;
  return 0;
}

static const char *const pvrz_extensions[] = {".pvrz", NULL};

const ls_format pvrz_format = {
  .name = "pvrz", .extensions = pvrz_extensions, .sniff = pvrz_sniff, .parse = pvrz_format_parse,
  .serialize = pvrz_format_serialize, .clone = pvrz_format_clone, .free_model = pvrz_format_free,
  .footprint = pvrz_format_footprint, .bytes_claim = pvrz_format_bytes_claim,
};

static const ls_table *const pvrz_tables[] = {NULL};

const ls_family pvrz_family = {
  .format = &pvrz_format,
  .tables = pvrz_tables,
};
