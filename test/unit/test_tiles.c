/*
** test_tiles.c: what an area looks like (issue 26 part 2) through the
** loaded extension: wed_render(file, 'tiles=1') and tis_tiles.
**
** - Every pixel of a tiles render at scale 1 is compared with the tiles
**   decoded here with the codec (tis_decode, pages parsed by the test):
**   each cell shows its first primary tile, or, for the cells of a door
**   the WED says is closed, its secondary tile (door_tiles=open: the
**   primary tile everywhere).  On the generated samples (AR0100: a PVRZ
**   tileset and its three pages; AR0200: a palette tileset with pure green
**   discs) and on the real corpus when present: the palette tilesets of
**   bst/tis_bg2 with their areas of bst/areas, the PVRZ tilesets of
**   bst/tis_bgee with their pages and areas, laid out in folders as in the
**   repository they come from (the corpus flattens the names).
** - Known pixels read off by hand (NOTES-tis.md, gen_tis_samples.c): a
**   black page -1 tile, a transparent green disc, a closed door's planks,
**   the corpus's YS0118 tile 78 and ys0104 tile 16, found where the area
**   shows them.
** - The default scale keeps a 100 x 75-tile area within 2048 pixels, the
**   scale is rounded to whole pixels per tile, walls drawn over the tiles.
** - tis_tiles: rows, positions from the WED beside, PVRZ references, png
**   equal to the decoded tile.
** - Errors: no tileset, a page missing, a tile the tileset lacks, the
**   decoded limit, SVG with tiles, bad options; the tilesets folder option.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "check.h"
#include "common/canvas.h"
#include "fileutil.h"
#include "sqltest.h"
#include "tis/pvrz.h"
#include "tis/tis.h"
#include "wed/wed.h"

typedef struct env {
  char dir[256];
  sqlite3 *db;
} env;

/* ---- helpers --------------------------------------------------------------------- */

/* Paths the test keeps (fmt's buffers rotate). */
typedef struct path_buf {
  char s[1024];
} path_buf;

static path_buf path_of(const char *dir, const char *name) {
  path_buf p;
  if (snprintf(p.s, sizeof p.s, "%s/%s", dir, name) >= (int)sizeof p.s) p.s[0] = 0; /* no such file */
  return p;
}

/* Whether dir holds a file called name in any case; *out its path. */
static int find_nocase(const char *dir, const char *name, path_buf *out) {
  DIR *d = opendir(dir);
  struct dirent *e;
  int found = 0;
  while (d && !found && (e = readdir(d)) != NULL)
    if (strcasecmp(e->d_name, name) == 0) *out = path_of(dir, e->d_name), found = 1;
  if (d) closedir(d);
  return found;
}

/* The test's own page lookup: page files named by tis_pvrz_name in dir. */
typedef struct test_pages {
  const char *dir;
  char tileset[9];
  pvrz_page *page[TIS_MAX_PAGE + 1];
} test_pages;

static const pvrz_page *test_page(void *ctx, int32_t page, codec_error *err) {
  test_pages *p = ctx;
  char name[16];
  path_buf path;
  unsigned char *data;
  size_t n;
  if (p->page[page]) return p->page[page];
  if (!tis_pvrz_name(p->tileset, strlen(p->tileset), page, name, err)) return NULL;
  if (!find_nocase(p->dir, name, &path) || !(data = file_read_all(path.s, &n))) {
    codec_fail(err, "test: %s missing", name);
    return NULL;
  }
  if (!pvrz_parse(data, n, 0, &p->page[page], err)) p->page[page] = NULL;
  free(data);
  return p->page[page];
}

static void test_pages_free(test_pages *p) {
  int i;
  for (i = 0; i <= TIS_MAX_PAGE; i++) pvrz_free(p->page[i]);
}

/* The area (is_tis 0) or tileset at path, parsed by the codec; NULL (a
** failed REQUIRE) when it does not read. */
static void *read_parsed(const char *path, int is_tis) {
  size_t n;
  unsigned char *data = file_read_all(path, &n);
  wed_area *a = NULL;
  tis_file *t = NULL;
  codec_error err = {{0}, 0};
  REQUIRE(data && (is_tis ? tis_parse(data, n, &t, &err) : wed_parse(data, n, &a, &err)), "%s reads: %s", path, err.msg);
  free(data);
  return is_tis ? (void *)t : (void *)a;
}

static wed_area *read_wed(const char *path) {
  return read_parsed(path, 0);
}

static tis_file *read_tis(const char *path) {
  return read_parsed(path, 1);
}

/* What cell c of the base overlay shows (render_wed.h's rule, written
** again): the secondary tile of a cell of a door the WED says is closed
** (unless doors_open), else the first primary tile.  0 when none. */
static int expected_tile(const wed_area *a, uint32_t c, int doors_open, uint32_t *t) {
  const wed_overlay *o = &a->overlays[0];
  uint32_t d, k;
  for (d = 0; d < a->num_doors && !doors_open; d++) {
    const wed_door *door = &a->doors[d];
    for (k = 0; door->closed && k < door->cell_count; k++) {
      if (a->door_cells[door->first_cell + k] == c && o->cells[c].secondary_tile != WED_NO_TILE) {
        *t = o->cells[c].secondary_tile;
        return 1;
      }
    }
  }
  if (!o->cells[c].tile_count || o->cells[c].tile_start >= o->num_lookup) return 0;
  *t = o->lookup[o->cells[c].tile_start];
  return 1;
}

/* Runs a query returning a PNG and decodes it into *c (canvas_free it).
** Returns 1, or 0 (printed). */
static int query_png(sqlite3 *db, const char *sql, canvas *c) {
  sqlite3_stmt *st = NULL;
  codec_error err = {{0}, 0};
  int ok = 0;
  memset(c, 0, sizeof *c);
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
      sqlite3_column_type(st, 0) == SQLITE_BLOB) {
    ok = canvas_png_decode(sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0), c, &err);
    if (!ok) printf("%s: not a PNG: %s\n", sql, err.msg);
  } else {
    printf("%s: %s\n", sql, sqlite3_errmsg(db));
  }
  sqlite3_finalize(st);
  return ok;
}

/* Whether pixel (x, y) of c is r, g, b, a. */
static int pixel_is(const canvas *c, int x, int y, int r, int g, int b, int a) {
  canvas_color p = canvas_get(c, x, y);
  return p.r == r && p.g == g && p.b == b && p.a == a;
}

/* ---- every pixel of a render ------------------------------------------------------- */

/* What check_render found. */
typedef struct render_counts {
  long cells, pixels, wrong, transparent;
} render_counts;

/* Compares the tiles render of the WED at wed_path (scale 1, doors open
** or as the WED says) with the tiles of tis_path decoded here, pixel by
** pixel; the pages lie beside the TIS. */
static render_counts check_render(env *v, const char *wed_path, const char *tis_path, int doors_open) {
  render_counts k = {0, 0, 0, 0};
  wed_area *a = read_wed(wed_path);
  tis_file *t = read_tis(tis_path);
  const char *slash = strrchr(tis_path, '/'), *base = slash ? slash + 1 : tis_path;
  char dir[1024];
  test_pages pages;
  tis_decode_opts o = {TIS_ALPHA_GREEN, test_page, &pages};
  unsigned char rgba[TIS_TILE_RGBA_BYTES];
  canvas pic;
  uint32_t c, tile;
  memset(&pages, 0, sizeof pages);
  snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - tis_path) : 1, slash ? tis_path : ".");
  pages.dir = dir;
  snprintf(pages.tileset, sizeof pages.tileset, "%.*s", (int)strcspn(base, "."), base);
  if (a && t &&
      query_png(v->db, fmt("SELECT wed_render('%s', 'tiles=1, scale=1%s')", wed_path, doors_open ? ", door_tiles=open" : ""),
                &pic)) {
    const wed_overlay *base_overlay = &a->overlays[0];
    CHECK(pic.w >= base_overlay->width * 64 && pic.h >= base_overlay->height * 64, "%s: %dx%d at scale 1", wed_path,
          pic.w, pic.h);
    for (c = 0; c < base_overlay->num_cells && pic.w >= base_overlay->width * 64; c++) {
      codec_error err = {{0}, 0};
      int x, y, x0 = (int)(c % base_overlay->width) * 64, y0 = (int)(c / base_overlay->width) * 64;
      if (!expected_tile(a, c, doors_open, &tile)) continue;
      k.cells++;
      if (!tis_decode(t, tile, &o, rgba, &err)) {
        CHECK(0, "%s cell %u: tile %u: %s", tis_path, c, tile, err.msg);
        continue;
      }
      for (y = 0; y < 64; y++)
        for (x = 0; x < 64; x++) {
          const unsigned char *p = rgba + 4 * (y * 64 + x);
          int opaque = p[3] != 0;
          k.pixels++;
          k.transparent += !opaque;
          k.wrong += !pixel_is(&pic, x0 + x, y0 + y, opaque ? p[0] : 0, opaque ? p[1] : 0, opaque ? p[2] : 0, p[3]);
        }
    }
    canvas_free(&pic);
  } else {
    CHECK(0, "%s: tiles render at scale 1", wed_path);
  }
  test_pages_free(&pages);
  tis_free(t);
  if (a) wed_free(a);
  return k;
}

/* check_render with the doors as the WED says and open: every pixel right,
** and the open doors' cells differ where the area has closed doors with
** secondary tiles. */
static void check_area(env *v, const char *wed_path, const char *tis_path) {
  render_counts closed = check_render(v, wed_path, tis_path, 0), open = check_render(v, wed_path, tis_path, 1);
  printf("INFO %s: %ld cells, %ld pixels (%ld transparent) compared with the decoded tiles\n", wed_path, closed.cells,
         closed.pixels, closed.transparent);
  CHECK(closed.cells > 0 && closed.wrong == 0, "%s: every pixel is its tile's (doors as the WED says): %ld of %ld wrong",
        wed_path, closed.wrong, closed.pixels);
  CHECK(open.cells > 0 && open.wrong == 0, "%s: every pixel is its tile's (door_tiles=open): %ld of %ld wrong", wed_path,
        open.wrong, open.pixels);
}

/* The cell (x, y in cells) whose first primary tile is `tile` (-1 when none). */
static int cell_of_tile(const char *wed_path, uint32_t tile, int *x, int *y) {
  wed_area *a = read_wed(wed_path);
  uint32_t c;
  int found = 0;
  for (c = 0; a && !found && c < a->overlays[0].num_cells; c++) {
    uint32_t t;
    if (expected_tile(a, c, 1, &t) && t == tile) {
      *x = (int)(c % a->overlays[0].width), *y = (int)(c / a->overlays[0].width);
      found = 1;
    }
  }
  if (a) wed_free(a);
  return found;
}

/* ---- the samples ------------------------------------------------------------------- */

/* Known pixels of the samples (gen_tis_samples.c): AR0100's tile 0 is
** page -1, black; AR0200's animated cells (2, 1) and (17, 1) show a disc
** of pure green, transparent; its DOOR0200 (closed) covers cells (2, 14)
** and (3, 14) with planks: pixel (1, 1) of a plank tile is grain 20 over
** (120, 72, 30), R 140 G 82 B 30; open, the cell shows stone. */
static void test_sample_pixels(env *v) {
  canvas pic;
  if (query_png(v->db, fmt("SELECT wed_render('%s/AR0100.WED', 'tiles=1, scale=1')", v->dir), &pic)) {
    CHECK(pic.w == 1920 && pic.h == 1280, "AR0100 at scale 1: 1920x1280 (%dx%d)", pic.w, pic.h);
    CHECK(pixel_is(&pic, 10, 10, 0, 0, 0, 255) && pixel_is(&pic, 63, 63, 0, 0, 0, 255), "AR0100 cell (0, 0): a black tile");
    CHECK(!pixel_is(&pic, 64 + 10, 10, 0, 0, 0, 255) && canvas_get(&pic, 64 + 10, 10).a == 255, "AR0100 cell (1, 0): a page tile");
    canvas_free(&pic);
  }
  if (query_png(v->db, fmt("SELECT wed_render('%s/AR0200.WED', 'tiles=1, scale=1')", v->dir), &pic)) {
    CHECK(pixel_is(&pic, 2 * 64 + 32, 64 + 32, 0, 0, 0, 0) && pixel_is(&pic, 17 * 64 + 32, 64 + 32, 0, 0, 0, 0),
          "AR0200: the green discs of the animated cells are transparent");
    CHECK(canvas_get(&pic, 2 * 64 + 5, 64 + 5).a == 255, "AR0200: around the disc the tile is opaque");
    CHECK(pixel_is(&pic, 2 * 64 + 1, 14 * 64 + 1, 140, 82, 30, 255) && pixel_is(&pic, 3 * 64 + 1, 14 * 64 + 1, 140, 82, 30, 255),
          "AR0200: the closed DOOR0200's cells show planks");
    canvas_free(&pic);
  }
  if (query_png(v->db, fmt("SELECT wed_render('%s/AR0200.WED', 'tiles=1, scale=1, door_tiles=open')", v->dir), &pic)) {
    CHECK(!pixel_is(&pic, 2 * 64 + 1, 14 * 64 + 1, 140, 82, 30, 255), "AR0200 with door_tiles=open: no planks at (2, 14)");
    canvas_free(&pic);
  }
}

/* Scales: the default fits 2048 (a 100 x 75-tile area at 20 pixels a tile),
** a given scale is rounded down to whole pixels per tile, walls=1 draws
** over the tiles. */
static void test_scales(env *v) {
  path_buf tavern = path_of(v->dir, "AR0200.WED");
  const char *wed = tavern.s;
  canvas pic, plain;
  if (exec_ok(v->db, "BEGIN") &&
      exec_ok(v->db, fmt("UPDATE wed_overlays SET width = 100, height = 75 WHERE file = '%s' AND overlay = 0", wed)) &&
      query_png(v->db, fmt("SELECT wed_render('%s', 'tiles=1')", wed), &pic)) {
    CHECK(pic.w == 2000 && pic.h == 1500, "a 100x75-tile area by default: 2000x1500, within 2048 (%dx%d)", pic.w, pic.h);
    canvas_free(&pic);
  }
  exec_ok(v->db, "ROLLBACK");
  if (query_png(v->db, fmt("SELECT wed_render('%s', 'tiles=1, scale=0.32')", wed), &pic)) {
    CHECK(pic.w == 20 * 20 && pic.h == 15 * 20, "scale 0.32 with tiles: 20 pixels a tile (%dx%d)", pic.w, pic.h);
    canvas_free(&pic);
  }
  if (query_png(v->db, fmt("SELECT wed_render('%s', 'tiles=1, scale=2')", wed), &pic)) {
    CHECK(pic.w == 2560 && pixel_is(&pic, 2 * 128 + 2, 14 * 128 + 2, 140, 82, 30, 255),
          "scale 2 with tiles: each tile pixel twice as wide (%dx%d)", pic.w, pic.h);
    canvas_free(&pic);
  }
  if (query_png(v->db, fmt("SELECT wed_render('%s', 'tiles=1, scale=1, walls=1')", wed), &pic) &&
      query_png(v->db, fmt("SELECT wed_render('%s', 'tiles=1, scale=1')", wed), &plain)) {
    /* the bar counter wall covers (100..600, 100..160): its fill blends over the tiles */
    canvas_color a = canvas_get(&pic, 300, 130), b = canvas_get(&plain, 300, 130);
    CHECK(memcmp(&a, &b, sizeof a) != 0 && a.a == 255, "walls=1 draws the wall over the tiles");
    CHECK(memcmp(&pic.px[0], &plain.px[0], 4) == 0, "outside the walls the tiles show as they are");
    canvas_free(&pic);
    canvas_free(&plain);
  }
}

/* tis_tiles on the samples: rows, positions, references, png. */
static void test_tis_tiles(env *v) {
  path_buf town_tis = path_of(v->dir, "AR0100.TIS"), tavern_tis = path_of(v->dir, "AR0200.TIS");
  const char *town = town_tis.s, *tavern = tavern_tis.s;
  tis_file *t = read_tis(tavern);
  unsigned char rgba[TIS_TILE_RGBA_BYTES];
  codec_error err = {{0}, 0};
  canvas png;
  const char *text;
  CHECK(query_int(v->db, fmt("SELECT count(*) FROM tis_tiles('%s')", town)) == 618, "AR0100.TIS: 618 tiles");
  CHECK(query_int(v->db, fmt("SELECT count(*) FROM tis_tiles('%s') WHERE page IS NULL", tavern)) == 314,
        "AR0200.TIS: 314 palette tiles, no page");
  /* tile 300: slot 44 of page 1 (row 2, column 12); the cells before it hold
  ** 6 extra frames (cells 62 and 64 animated), so cell 294: (24, 9) */
  text = query_text(v->db, fmt("SELECT page || ',' || page_x || ',' || page_y || ',' || x || ',' || y FROM tis_tiles('%s') "
                               "WHERE tile = 300", town));
  CHECK(strcmp(text, "1,768,128,1536,576") == 0, "AR0100 tile 300: page 1 at (768, 128), shown at (1536, 576): %s", text);
  CHECK(query_int(v->db, fmt("SELECT page FROM tis_tiles('%s') WHERE tile = 0", town)) == -1, "AR0100 tile 0: page -1");
  if (t && tis_decode(t, 309, NULL, rgba, &err) &&
      query_png(v->db, fmt("SELECT png FROM tis_tiles('%s') WHERE tile = 309", tavern), &png)) {
    CHECK(png.w == 64 && png.h == 64 && memcmp(png.px, rgba, sizeof rgba) == 0, "AR0200 tile 309: png is the decoded tile");
    canvas_free(&png);
  }
  if (t && tis_decode(t, 23, NULL, rgba, &err) &&
      query_png(v->db, fmt("SELECT png FROM tis_tiles('%s') WHERE tile = 23", tavern), &png)) {
    CHECK(memcmp(png.px, rgba, sizeof rgba) == 0 && png.px[4 * (32 * 64 + 32) + 3] == 0,
          "AR0200 tile 23: png is the decoded tile, its green disc transparent");
    canvas_free(&png);
  }
  tis_free(t);
  t = read_tis(town);
  if (t) {
    test_pages pages;
    tis_decode_opts o = {TIS_ALPHA_GREEN, test_page, &pages};
    memset(&pages, 0, sizeof pages);
    pages.dir = v->dir;
    strcpy(pages.tileset, "AR0100");
    if (tis_decode(t, 617, &o, rgba, &err) && query_png(v->db, fmt("SELECT png FROM tis_tiles('%s') WHERE tile = 617", town), &png)) {
      CHECK(memcmp(png.px, rgba, sizeof rgba) == 0, "AR0100 tile 617 (page 2): png is the decoded tile");
      canvas_free(&png);
    }
    test_pages_free(&pages);
    tis_free(t);
  }
}

/* Errors and the tilesets option. */
static void test_errors(env *v) {
  path_buf other = path_of(v->dir, "elsewhere"), moved = path_of(v->dir, "elsewhere/AR0200.WED");
  const char *elsewhere = other.s, *wed = moved.s;
  size_t n;
  unsigned char *data;
  mkdir(elsewhere, 0777);
  data = file_read_all(fmt("%s/AR0200.WED", v->dir), &n);
  REQUIRE(data && file_write_all(wed, data, n), "AR0200.WED copied alone");
  free(data);
  exec_err(v->db, fmt("SELECT wed_render('%s', 'tiles=1')", wed), "wed_render: ", "tiles=1: no AR0200.TIS in");
  exec_err(v->db, fmt("SELECT wed_render('%s', 'tiles=1')", wed), "the tilesets option names another folder", NULL);
  CHECK(query_int(v->db, fmt("SELECT length(wed_render('%s', 'tiles=1, tilesets=%s')) > 0", wed, v->dir)) == 1,
        "tilesets=DIR finds the tileset in another folder");
  exec_err(v->db, fmt("SELECT wed_render('%s/AR0200.WED', 'tiles=1, format=svg')", v->dir), "tiles=1 draws a PNG", NULL);
  exec_err(v->db, fmt("SELECT wed_render('%s/AR0200.WED', 'tiles=1, door_tiles=ajar')", v->dir), "option door_tiles takes closed", NULL);
  exec_err(v->db, fmt("SELECT wed_render('%s/AR0200.WED', 'tiles=2')", v->dir), "option tiles takes 0 or 1", NULL);
  /* a page missing: AR0100's page 2 moved away */
  CHECK(rename(fmt("%s/A010002.PVRZ", v->dir), fmt("%s/A010002.PVRZ", elsewhere)) == 0, "page 2 moved");
  exec_err(v->db, fmt("SELECT wed_render('%s/AR0100.WED', 'tiles=1')", v->dir), "A010002.PVRZ not found in", "base overlay cell (");
  exec_err(v->db, fmt("SELECT length(png) FROM tis_tiles('%s/AR0100.TIS') WHERE tile = 600", v->dir),
           "tile 600: page 2: A010002.PVRZ not found in", NULL);
  CHECK(query_int(v->db, fmt("SELECT count(*) FROM tis_tiles('%s/AR0100.TIS') WHERE page = 2", v->dir)) > 0,
        "without page 2 the rows still read (png alone needs the page)");
  CHECK(rename(fmt("%s/A010002.PVRZ", elsewhere), fmt("%s/A010002.PVRZ", v->dir)) == 0, "page 2 back");
  CHECK(query_int(v->db, fmt("SELECT length(png) > 0 FROM tis_tiles('%s/AR0100.TIS') WHERE tile = 600", v->dir)) == 1,
        "page 2 back: the tile reads again");
  /* a tileset with fewer tiles than the area names */
  data = file_read_all(fmt("%s/AR0200.TIS", v->dir), &n);
  if (data && n > TIS_HEADER_SIZE + 100 * TIS_V1_ENTRY) {
    data[8] = 100, data[9] = 0, data[10] = 0, data[11] = 0;
    REQUIRE(file_write_all(fmt("%s/AR0200.TIS", elsewhere), data, TIS_HEADER_SIZE + 100 * TIS_V1_ENTRY), "short TIS");
    exec_err(v->db, fmt("SELECT wed_render('%s', 'tiles=1')", wed), "base overlay cell (", "tile 100: no such tile (100 tiles)");
  }
  free(data);
  /* the decoded limit: the TIS itself, the pages */
  exec_ok(v->db, "SELECT levelsql_limit('decoded', 100000)");
  exec_err(v->db, fmt("SELECT wed_render('%s/AR0200.WED', 'tiles=1')", v->dir), "AR0200.TIS: 1607704 bytes, over the limit of 100000", NULL);
  exec_err(v->db, fmt("SELECT wed_render('%s/AR0100.WED', 'tiles=1')", v->dir), "A010000.PVRZ would decode 524340 bytes",
           "levelsql_limit('decoded', bytes)");
  exec_err(v->db, fmt("SELECT length(png) FROM tis_tiles('%s/AR0100.TIS') WHERE tile = 5", v->dir), "A010000.PVRZ would decode", NULL);
  exec_ok(v->db, "SELECT levelsql_limit('decoded', 1073741824)");
  CHECK(query_int(v->db, fmt("SELECT length(wed_render('%s/AR0100.WED', 'tiles=1')) > 0", v->dir)) == 1,
        "the limit raised: the render works again");
}

/* ---- the corpus -------------------------------------------------------------------- */

/* Copies corpus/<sub> files whose name holds `part` into dir (a folder
** of the test's, never anywhere else: the corpus is read-only) under their
** own names (what follows the last "__"). */
static int copy_corpus(const env *v, const char *corpus, const char *sub, const char *part, const char *dir) {
  DIR *d = strncmp(dir, v->dir, strlen(v->dir)) == 0 ? opendir(fmt("%s/%s", corpus, sub)) : NULL;
  struct dirent *e;
  int copied = 0;
  REQUIRE(strncmp(dir, v->dir, strlen(v->dir)) == 0, "copies go into the test's folder only: %s", dir);
  while (d && (e = readdir(d)) != NULL) {
    const char *base = e->d_name, *q;
    unsigned char *data;
    size_t n;
    if (!strstr(e->d_name, part)) continue;
    while ((q = strstr(base, "__")) != NULL) base = q + 2;
    data = file_read_all(fmt("%s/%s/%s", corpus, sub, e->d_name), &n);
    copied += data && file_write_all(fmt("%s/%s", dir, base), data, n);
    free(data);
  }
  if (d) closedir(d);
  return copied;
}

/* Every area of dir with its tileset beside it, compared pixel by pixel. */
static int check_folder(env *v, const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  char names[64][64];
  int n = 0, i, areas = 0;
  while (d && n < 64 && (e = readdir(d)) != NULL)
    if (strlen(e->d_name) < 60 && strcasecmp(e->d_name + strcspn(e->d_name, "."), ".wed") == 0) strcpy(names[n++], e->d_name);
  if (d) closedir(d);
  for (i = 0; i < n; i++) {
    path_buf tis, wed = path_of(dir, names[i]);
    if (!find_nocase(dir, fmt("%.*s.TIS", (int)strcspn(names[i], "."), names[i]), &tis)) continue;
    areas++;
    check_area(v, wed.s, tis.s);
  }
  return areas;
}

/* Pixels of corpus tiles read off by hand (NOTES-tis.md, test_tis.c):
** the area, its tile, the pixel in the tile and its colour (opaque). */
static const struct {
  int ee; /* bst/tis_bgee (PVRZ) or bst/tis_bg2 with bst/areas (palette) */
  const char *wed;
  uint32_t tile;
  int x, y, r, g, b;
} known[] = {
  {1, "YS0118.WED", 78, 0, 0, 129, 106, 87},  /* a four-colour DXT1 block, index 2 */
  {1, "YS0118.WED", 78, 63, 63, 0, 0, 0},     /* a three-colour block, index 0 */
  {0, "YS0104.WED", 16, 0, 0, 4, 2, 4},       /* palette index 0: an opaque colour */
  {0, "YS0104.WED", 16, 17, 45, 116, 70, 36}, /* index 108 */
};

static void test_corpus(env *v) {
  path_buf ee = path_of(v->dir, "bgee"), original = path_of(v->dir, "bg2");
  const char *corpus = check_corpus_dir(), *bgee = ee.s, *bg2 = original.s;
  canvas pic;
  int x = -1, y = -1;
  size_t i;
  if (!corpus) {
    SKIP("LEVELSQL_CORPUS not set: the corpus's tiles renders");
    return;
  }
  mkdir(bgee, 0777);
  mkdir(bg2, 0777);
  if (!copy_corpus(v, corpus, "tis", "__tis_bgee__", bgee) || !copy_corpus(v, corpus, "tis", "__tis_bg2__", bg2)) {
    SKIP("no TIS files in the corpus");
    return;
  }
  copy_corpus(v, corpus, "pvrz", "__tis_bgee__", bgee);
  copy_corpus(v, corpus, "wed", "__tis_bgee__", bgee);
  copy_corpus(v, corpus, "wed", "__areas__YS01", bg2); /* the BG2 tilesets' areas */
  CHECK(check_folder(v, bgee) == 3, "the 3 PVRZ tilesets' areas render");
  CHECK(check_folder(v, bg2) == 3, "the 3 palette tilesets' areas render");
  /* known pixels (NOTES-tis.md) where the areas show them */
  for (i = 0; i < sizeof known / sizeof known[0]; i++) {
    const char *dir = known[i].ee ? bgee : bg2;
    int ok = cell_of_tile(fmt("%s/%s", dir, known[i].wed), known[i].tile, &x, &y) &&
             query_png(v->db, fmt("SELECT wed_render('%s/%s', 'tiles=1, scale=1, door_tiles=open')", dir, known[i].wed), &pic);
    CHECK(ok && pixel_is(&pic, x * 64 + known[i].x, y * 64 + known[i].y, known[i].r, known[i].g, known[i].b, 255),
          "%s tile %u (cell (%d, %d)) pixel (%d, %d): %d %d %d", known[i].wed, known[i].tile, x, y, known[i].x, known[i].y,
          known[i].r, known[i].g, known[i].b);
    if (ok) canvas_free(&pic);
  }
  CHECK(query_int(v->db, fmt("SELECT count(*) FROM tis_tiles('%s') WHERE length(png) > 0", bgee)) == 840 &&
            query_int(v->db, fmt("SELECT count(*) FROM tis_tiles('%s') WHERE length(png) > 0", bg2)) == 236,
        "tis_tiles: every corpus tile's png reads (840 PVRZ, 236 palette)");
}

int main(void) {
  env v;
  static const char *const samples[] = {"AR0100.WED", "AR0100.TIS", "A010000.PVRZ", "A010001.PVRZ",
                                        "A010002.PVRZ", "AR0200.WED", "AR0200.TIS"};
  size_t i;
  int ok = 1;
  memset(&v, 0, sizeof v);
  if (!getenv("LEVELSQL_SAMPLES")) {
    SKIP("LEVELSQL_SAMPLES unset: the tiles tests (test/run.sh sets it)");
    return check_done();
  }
  snprintf(v.dir, sizeof v.dir, "/tmp/levelsql-tiles-XXXXXX");
  REQUIRE(mkdtemp(v.dir) != NULL, "mkdtemp");
  for (i = 0; i < sizeof samples / sizeof samples[0]; i++) ok = copy_sample_into(v.dir, samples[i]) && ok;
  v.db = db_open();
  REQUIRE(v.db != NULL, "open the extension");
  if (v.db && ok) {
    path_buf town = path_of(v.dir, "AR0100.WED"), town_tis = path_of(v.dir, "AR0100.TIS");
    path_buf tavern = path_of(v.dir, "AR0200.WED"), tavern_tis = path_of(v.dir, "AR0200.TIS");
    check_area(&v, town.s, town_tis.s);
    check_area(&v, tavern.s, tavern_tis.s);
    test_sample_pixels(&v);
    test_scales(&v);
    test_tis_tiles(&v);
    test_errors(&v);
    test_corpus(&v);
  }
  if (v.db) sqlite3_close(v.db);
  if (system(fmt("rm -rf '%s'", v.dir)) != 0) printf("note: could not remove %s\n", v.dir);
  return check_done();
}
