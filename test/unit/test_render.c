/*
** test_render.c: the previews (codecs/common/canvas.c, codecs/render_*.c,
** ext/engine/render_functions.c).
**
** The canvas: size caps, even-odd polygons, tile blits with every
** Teeworlds flag, colour modulation, PNG out and back.  The SQL functions
** on copies of the generated samples ($LEVELSQL_SAMPLES): every PNG is
** decoded with libpng's own reader here (not the project's) and checked
** for its size and for pixel colours at known cells; every SVG goes
** through `xmllint --noout` and is checked for its elements.  A render
** inside a transaction shows what an UPDATE or INSERT of that transaction
** did, and stops showing it after ROLLBACK.  Errors: a missing file, a
** file of another format, a bad plane or page, bad options, a picture over
** the size cap.  Parallax groups as the game shows them from wherever the
** camera is: a sky fills the preview (dm_sample.map; with DDNet's images
** and the corpus, Sunny Side Up's known pixels).  With ../shared/corpus:
** every real map, level, area and project renders (one loop case per
** format).
*/
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/canvas.h"
#include "check.h"
#include "fileutil.h"
#include "sqltest.h"

/* ---- helpers ------------------------------------------------------------- */

/* A decoded picture: RGBA, w x h, malloc'd pixels. */
typedef struct picture {
  int w, h;
  unsigned char *px;
} picture;

/* Decodes PNG bytes with libpng (simplified API).  Returns 1 or 0. */
static int png_decode_test(const unsigned char *data, size_t size, picture *pic) {
  png_image img;
  memset(pic, 0, sizeof *pic);
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, data, size)) return 0;
  img.format = PNG_FORMAT_RGBA;
  pic->w = (int)img.width, pic->h = (int)img.height;
  if (!(pic->px = malloc(PNG_IMAGE_SIZE(img)))) {
    png_image_free(&img);
    return 0;
  }
  if (!png_image_finish_read(&img, NULL, pic->px, 0, NULL)) {
    free(pic->px);
    pic->px = NULL;
    return 0;
  }
  return 1;
}

static void picture_free(picture *pic) {
  free(pic->px);
  memset(pic, 0, sizeof *pic);
}

/* The first column of the first row as a blob (malloc'd copy, *n its size),
** or NULL (printed) when the query fails or returns no blob. */
static unsigned char *query_blob(sqlite3 *db, const char *sql, size_t *n) {
  sqlite3_stmt *st = NULL;
  unsigned char *out = NULL;
  *n = 0;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
    printf("prepare failed: %s: %s\n", sql, sqlite3_errmsg(db));
    return NULL;
  }
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
    int len = sqlite3_column_bytes(st, 0);
    if ((out = malloc(len ? (size_t)len : 1)) != NULL) {
      memcpy(out, sqlite3_column_blob(st, 0), (size_t)len);
      *n = (size_t)len;
    }
  } else {
    printf("no blob: %s: %s\n", sql, sqlite3_errmsg(db));
  }
  sqlite3_finalize(st);
  return out;
}

/* Runs a query returning a PNG and decodes it.  Returns 1 or 0. */
static int query_picture(sqlite3 *db, const char *sql, picture *pic) {
  size_t n;
  unsigned char *png = query_blob(db, sql, &n);
  int ok = png && png_decode_test(png, n, pic);
  free(png);
  return ok;
}

/* The pixel at (x, y) as 0xRRGGBBAA (0 outside). */
static uint32_t pixel(const picture *pic, int x, int y) {
  const unsigned char *p;
  if (!pic->px || x < 0 || y < 0 || x >= pic->w || y >= pic->h) return 0;
  p = pic->px + 4 * ((size_t)y * (size_t)pic->w + (size_t)x);
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint32_t color_word(canvas_color c) {
  return (uint32_t)c.r << 24 | (uint32_t)c.g << 16 | (uint32_t)c.b << 8 | c.a;
}

static uint32_t canvas_word(const canvas *c, int x, int y) {
  return color_word(canvas_get(c, x, y));
}

/* Writes text to path and runs xmllint --noout on it: 1 when well formed. */
static int xml_well_formed(const char *path, const char *text, size_t n) {
  char cmd[1200];
  if (!file_write_all(path, (const unsigned char *)text, n)) return 0;
  snprintf(cmd, sizeof cmd, "xmllint --noout '%s' 2>&1", path);
  return system(cmd) == 0;
}

/* Occurrences of needle in haystack. */
static int count_of(const char *haystack, const char *needle) {
  int k = 0;
  const char *p = haystack;
  while ((p = strstr(p, needle)) != NULL) k++, p += strlen(needle);
  return k;
}

/* The first column of the first row as malloc'd text (NULL on failure). */
static char *query_string(sqlite3 *db, const char *sql, size_t *n) {
  unsigned char *b = query_blob(db, sql, n);
  unsigned char *t = b ? realloc(b, *n + 1) : NULL;
  if (!t) {
    free(b);
    return NULL;
  }
  t[*n] = 0;
  return (char *)t;
}

/* Runs a query returning SVG text and checks it with xmllint (one CHECK
** naming `what`); returns the text (malloc'd) or NULL. */
static char *query_svg(const char *dir, sqlite3 *db, const char *sql, const char *what) {
  char path[600];
  size_t n;
  char *svg;
  snprintf(path, sizeof path, "%s/check.svg", dir);
  svg = query_string(db, sql, &n);
  CHECK(svg && xml_well_formed(path, svg, n), "%s: well-formed XML", what);
  return svg;
}

/* ---- the canvas ------------------------------------------------------------ */

static void test_canvas(void) {
  canvas c, src, back;
  canvas_color clear = {0, 0, 0, 0}, red = {255, 0, 0, 255}, green = {0, 255, 0, 255}, blue = {0, 0, 255, 255},
               white = {255, 255, 255, 255};
  codec_error e = {{0}, 0};
  unsigned char *png = NULL;
  size_t n = 0;
  picture pic;
  int x, same;
  /* pentagram: even-odd leaves the centre empty, fills the points */
  double star[10];
  static const double pts[5][2] = {{50, 5}, {79, 95}, {2, 39}, {98, 39}, {21, 95}};

  CHECK(!canvas_new(&c, CANVAS_MAX_SIDE + 1, 10, clear, &e) && e.code == CODEC_E_LIMIT && strstr(e.msg, "too large"),
        "a side over the cap is refused: %s", e.msg);
  e.code = 0;
  CHECK(!canvas_new(&c, 5000, 5000, clear, &e) && e.code == CODEC_E_LIMIT, "25 M pixels are refused: %s", e.msg);
  e.code = 0;
  CHECK(!canvas_new(&c, 0, 10, clear, &e) && e.code == CODEC_E_ARG, "an empty canvas is refused: %s", e.msg);

  REQUIRE(canvas_new(&c, 100, 100, clear, &e), "canvas: %s", e.msg);
  for (x = 0; x < 5; x++) star[2 * x] = pts[x][0], star[2 * x + 1] = pts[x][1];
  canvas_fill_polygon(&c, star, 5, red);
  CHECK(canvas_word(&c, 50, 50) == 0, "even-odd: the pentagram's centre stays empty (%08x)", canvas_word(&c, 50, 50));
  CHECK(canvas_word(&c, 50, 15) == 0xff0000ffu, "even-odd: a point of the star is filled (%08x)", canvas_word(&c, 50, 15));
  CHECK(canvas_word(&c, 5, 90) == 0, "outside the star stays empty");
  /* coordinates far outside must be clipped, not crash */
  canvas_line(&c, -1e300, 5, 1e300, 5, blue);
  canvas_fill_rect(&c, INT64_MIN / 2, 0, INT64_MAX / 2, 1, green);
  CHECK(canvas_word(&c, 99, 5) == 0x0000ffffu && canvas_word(&c, 0, 0) == 0x00ff00ffu, "huge coordinates are clipped");

  /* a 2x2 tile: red green / blue white, blitted with each flag */
  REQUIRE(canvas_new(&src, 2, 2, clear, &e), "src: %s", e.msg);
  memcpy(src.px, &red, 4), memcpy(src.px + 4, &green, 4), memcpy(src.px + 8, &blue, 4), memcpy(src.px + 12, &white, 4);
  canvas_blit(&c, 10, 60, &src, 0, 0, 2, 0, white);
  CHECK(canvas_word(&c, 10, 60) == 0xff0000ffu && canvas_word(&c, 11, 61) == 0xffffffffu, "blit as is");
  canvas_blit(&c, 20, 60, &src, 0, 0, 2, CANVAS_FLIP_X, white);
  CHECK(canvas_word(&c, 20, 60) == 0x00ff00ffu && canvas_word(&c, 20, 61) == 0xffffffffu, "flip x mirrors left-right");
  canvas_blit(&c, 30, 60, &src, 0, 0, 2, CANVAS_FLIP_Y, white);
  CHECK(canvas_word(&c, 30, 60) == 0x0000ffffu && canvas_word(&c, 31, 60) == 0xffffffffu, "flip y mirrors top-bottom");
  canvas_blit(&c, 40, 60, &src, 0, 0, 2, CANVAS_ROTATE, white);
  CHECK(canvas_word(&c, 40, 60) == 0x0000ffffu && canvas_word(&c, 41, 60) == 0xff0000ffu &&
            canvas_word(&c, 41, 61) == 0x00ff00ffu,
        "rotate turns a quarter clockwise (%08x %08x %08x)", canvas_word(&c, 40, 60), canvas_word(&c, 41, 60),
        canvas_word(&c, 41, 61));
  canvas_blit(&c, 50, 60, &src, 0, 0, 2, CANVAS_ROTATE | CANVAS_FLIP_X, white);
  CHECK(canvas_word(&c, 50, 60) == 0xffffffffu, "flip x, then the rotation (%08x)", canvas_word(&c, 50, 60));
  {
    canvas_color half = {255, 128, 0, 255};
    canvas_blit(&c, 60, 60, &src, 0, 0, 2, 0, half);
    CHECK(canvas_word(&c, 61, 61) == 0xff8000ffu, "the tint multiplies (%08x)", canvas_word(&c, 61, 61));
  }

  /* PNG out, read back by libpng, and by the canvas */
  REQUIRE(canvas_png_encode(&c, &png, &n, &e), "encode: %s", e.msg);
  REQUIRE(png_decode_test(png, n, &pic), "libpng reads the PNG");
  CHECK(pic.w == 100 && pic.h == 100 && memcmp(pic.px, c.px, 100 * 100 * 4) == 0, "the PNG holds the canvas exactly");
  picture_free(&pic);
  REQUIRE(canvas_png_decode(png, n, &back, &e), "decode: %s", e.msg);
  same = back.w == 100 && back.h == 100 && memcmp(back.px, c.px, 100 * 100 * 4) == 0;
  CHECK(same, "canvas_png_decode gives the canvas back");
  canvas_free(&back);
  if (n > 40) png[40] ^= 0xff;
  e.code = 0;
  CHECK(!canvas_png_decode(png, n, &back, &e) && e.code == CODEC_E_FORMAT && e.msg[0], "a damaged PNG: %s", e.msg);
  e.code = 0;
  CHECK(!canvas_png_decode((const unsigned char *)"nope", 4, &back, &e) && e.code == CODEC_E_FORMAT,
        "not a PNG: %s", e.msg);
  free(png);
  /* resampling a 32x32 grid of 2x2 cells to 1 pixel averages the cell */
  {
    canvas grid, small;
    REQUIRE(canvas_new(&grid, 32, 32, white, &e), "grid");
    canvas_fill_rect(&grid, 0, 0, 1, 2, red); /* cell 0: half red, half white */
    REQUIRE(canvas_resample_grid(&grid, 16, 16, 1, &small, &e), "resample: %s", e.msg);
    CHECK(canvas_word(&small, 0, 0) == 0xff7f7fffu && canvas_word(&small, 1, 0) == 0xffffffffu,
          "a shrunk cell is the average of its pixels (%08x)", canvas_word(&small, 0, 0));
    canvas_free(&small);
    canvas_free(&grid);
  }
  canvas_free(&src);
  canvas_free(&c);
}

/* ---- the SQL functions --------------------------------------------------------- */

typedef struct env {
  char dir[256];
  sqlite3 *db;
} env;

static void test_tw(env *v) {
  char map[512], path[512];
  picture pic;
  long game, ground;
  snprintf(map, sizeof map, "%s/dm_sample.map", v->dir);
  snprintf(path, sizeof path, "%s", map);
  game = (long)query_int(v->db, fmt("SELECT layer_index FROM tw_layers('%s') WHERE kind = 'game'", path));
  ground = (long)query_int(v->db, fmt("SELECT layer_index FROM tw_layers('%s') WHERE name = 'Ground'", path));
  /* default size: 60x30 tiles, 2048 / 60 = 34 pixels a tile */
  if (query_picture(v->db, fmt("SELECT tw_render('%s')", path), &pic)) {
    CHECK(pic.w == 60 * 34 && pic.h == 30 * 34, "default size fits 2048: %dx%d", pic.w, pic.h);
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render of dm_sample.map");
  }
  /* the game layer alone: solid border, air inside */
  if (query_picture(v->db, fmt("SELECT tw_render('%s', 'layers=%ld, tile=4')", path, game), &pic)) {
    CHECK(pic.w == 240 && pic.h == 120, "tile=4: %dx%d", pic.w, pic.h);
    CHECK(pixel(&pic, 1, 1) == 0x464646e6u, "a solid game cell in the entity colour (%08x)", pixel(&pic, 1, 1));
    CHECK(pixel(&pic, 4 * 5 + 1, 4 * 5 + 1) == 0, "an air cell is transparent (%08x)", pixel(&pic, 21, 21));
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render of the game layer");
  }
  if (query_picture(v->db, fmt("SELECT tw_render('%s', 'layers=%ld, tile=4, entities=0, background=102030')", path, game), &pic)) {
    CHECK(pixel(&pic, 1, 1) == 0x102030ffu, "entities=0 hides the game layer; the background shows (%08x)", pixel(&pic, 1, 1));
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render with entities=0");
  }
  /* an external image with mapres=: the tiles come from the PNG there */
  {
    canvas img;
    canvas_color col = {10, 200, 30, 255};
    codec_error e = {{0}, 0};
    unsigned char *png = NULL;
    size_t n = 0;
    char mapres[400];
    snprintf(mapres, sizeof mapres, "%s/mapres", v->dir);
    REQUIRE(mkdir(mapres, 0777) == 0 && canvas_new(&img, 64, 64, col, &e) && canvas_png_take(&img, &png, &n, &e) &&
                file_write_all(fmt("%s/grass_main.png", mapres), png, n),
            "a mapres folder");
    free(png);
    if (query_picture(v->db, fmt("SELECT tw_render('%s', 'layers=%ld, tile=4, mapres=%s')", path, ground, mapres), &pic)) {
      CHECK(pixel(&pic, 1, 1) == 0x0ac81effu, "a ground tile from mapres/grass_main.png (%08x)", pixel(&pic, 1, 1));
      picture_free(&pic);
    } else {
      CHECK(0, "tw_render with mapres");
    }
    if (query_picture(v->db, fmt("SELECT tw_render('%s', 'layers=%ld, tile=4')", path, ground), &pic)) {
      CHECK(pixel(&pic, 1, 1) != 0x0ac81effu && (pixel(&pic, 1, 1) & 0xff) == 0xff,
            "without mapres the external image is one colour (%08x)", pixel(&pic, 1, 1));
      picture_free(&pic);
    } else {
      CHECK(0, "tw_render without mapres");
    }
  }
  /* an embedded image and an edit in a transaction: the 16x16 'stripes'
  ** image of ddrace_sample.map has one pixel per tile, (v, v, 0) with v =
  ** 255 when (x + y) / 4 is odd, else 40 */
  snprintf(path, sizeof path, "%s/ddrace_sample.map", v->dir);
  ground = (long)query_int(v->db, fmt("SELECT layer_index FROM tw_layers('%s') WHERE name = 'Ground'", path));
  if (exec_ok(v->db, "BEGIN") &&
      exec_ok(v->db, fmt("UPDATE tw_layers SET image = 1 WHERE source = '%s' AND layer_index = %ld", path, ground)) &&
      exec_ok(v->db, fmt("UPDATE tw_tiles SET id = 5, flags = 0 WHERE source = '%s' AND layer_index = %ld AND x = 2 AND y = 3", path, ground)) &&
      exec_ok(v->db, fmt("UPDATE tw_tiles SET id = 1, flags = 0 WHERE source = '%s' AND layer_index = %ld AND x = 3 AND y = 3", path, ground))) {
    if (query_picture(v->db, fmt("SELECT tw_render('%s', 'layers=%ld, tile=4')", path, ground), &pic)) {
      CHECK(pixel(&pic, 2 * 4 + 2, 3 * 4 + 2) == 0xffff00ffu, "tile 5 of the embedded image, set in the transaction (%08x)",
            pixel(&pic, 10, 14));
      CHECK(pixel(&pic, 3 * 4 + 2, 3 * 4 + 2) == 0x282800ffu, "tile 1 of it (%08x)", pixel(&pic, 14, 14));
      picture_free(&pic);
    } else {
      CHECK(0, "tw_render in the transaction");
    }
  }
  exec_ok(v->db, "ROLLBACK");
  if (query_picture(v->db, fmt("SELECT tw_render('%s', 'layers=%ld, tile=4')", path, ground), &pic)) {
    CHECK(pixel(&pic, 2 * 4 + 2, 3 * 4 + 2) != 0xffff00ffu, "after ROLLBACK the render shows the file again (%08x)",
          pixel(&pic, 10, 14));
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render after ROLLBACK");
  }
  /* every sample map renders with quads and every layer kind */
  {
    static const char *const maps[] = {"ddnet_features.map", "v07_sample.map", "legacy.map", "unfinished.map"};
    size_t i;
    for (i = 0; i < sizeof maps / sizeof maps[0]; i++) {
      int ok = copy_sample_into(v->dir, maps[i]) && query_picture(v->db, fmt("SELECT tw_render('%s/%s')", v->dir, maps[i]), &pic);
      CHECK(ok && pic.w > 0 && pic.h > 0, "tw_render of %s", maps[i]);
      picture_free(&pic);
    }
  }
  /* errors */
  exec_err(v->db, fmt("SELECT tw_render('%s/nothere.map')", v->dir), "tw_render: ", "nothere.map: cannot open");
  exec_err(v->db, fmt("SELECT tw_render('%s/SAMPLE01.WWD')", v->dir), "tw_render: ", "SAMPLE01.WWD");
  exec_err(v->db, "SELECT tw_render(NULL)", "tw_render: the first argument is the file's path", NULL);
  exec_err(v->db, fmt("SELECT tw_render('%s', 'tile=0')", map), "tw_render: option tile takes an integer from 1 to 64", NULL);
  exec_err(v->db, fmt("SELECT tw_render('%s', 'bogus=1')", map), "unknown option 'bogus'", "known: tile, entities");
  exec_err(v->db, fmt("SELECT tw_render('%s', 'layers=1,,x')", map), "not of the form key=value", NULL);
  exec_err(v->db, fmt("SELECT tw_render('%s', 'layers=1|a')", map), "option layers takes indices", NULL);
  exec_err(v->db, fmt("SELECT tw_render('%s', 'background=blue')", map), "option background takes a colour", NULL);
  exec_err(v->db, fmt("SELECT tw_render('%s', 'mapres=%s/nothere')", map, v->dir), "option mapres", "is not a folder");
}

/* How many pixels of the picture are not fully opaque. */
static long not_opaque(const picture *pic) {
  long n = 0;
  int x, y;
  for (y = 0; y < pic->h; y++)
    for (x = 0; x < pic->w; x++) n += (pixel(pic, x, y) & 0xFF) != 0xFF;
  return n;
}

/* Whether 0xRRGGBBAA is opaque and each channel within tol of r, g, b. */
static int color_near(uint32_t c, int r, int g, int b, int tol) {
  int cr = (int)(c >> 24), cg = (int)(c >> 16 & 0xFF), cb = (int)(c >> 8 & 0xFF);
  return (c & 0xFF) == 0xFF && abs(cr - r) <= tol && abs(cg - g) <= tol && abs(cb - b) <= tol;
}

/* Parallax groups drawn as the game shows them from wherever the camera
** is (render_tw.c, draw_group): a sky group (parallax 0) made for one
** screen fills the whole preview of a map larger than a screen.  The
** sample dm_sample.map (60 x 30 tiles, 1920 x 960 world units; its sky a
** gradient quad of 1600 x 1200 around the camera) had its left and right
** columns empty with the camera at the middle alone; with DDNet's images
** (Debian's ddnet-data) and the corpus, Sunny Side Up's yellow sky fills
** its preview and shows above the ground where the game shows it. */
static void test_tw_parallax(env *v) {
  static const char mapres[] = "/usr/share/games/ddnet/data/mapres";
  const char *corpus = check_corpus_dir();
  char sunny[512];
  struct stat st;
  picture pic;
  if (query_picture(v->db, fmt("SELECT tw_render('%s/dm_sample.map', 'groups=0, tile=4')", v->dir), &pic)) {
    /* (2, 60) is 8 world units from the left edge, mid-height: the middle of the gradient */
    CHECK(pic.w == 240 && not_opaque(&pic) == 0, "the sky group alone covers all of dm_sample's preview: %ld of %d pixels not",
          not_opaque(&pic), pic.w * pic.h);
    CHECK(color_near(pixel(&pic, 2, 60), 149, 182, 214, 3) && color_near(pixel(&pic, 237, 60), 149, 182, 214, 3),
          "at its left and right edges, mid-height, the middle of its gradient: %08x %08x", pixel(&pic, 2, 60),
          pixel(&pic, 237, 60));
    /* the middle row of screens spans pixel rows 10 to 109 (world 78 to 882): the gradient runs down
    ** each screen (lighter), and starts again (darker) at the next */
    CHECK(pixel(&pic, 2, 10) >> 24 < pixel(&pic, 2, 60) >> 24 && pixel(&pic, 2, 60) >> 24 < pixel(&pic, 2, 109) >> 24 &&
              pixel(&pic, 2, 110) >> 24 < pixel(&pic, 2, 109) >> 24,
          "the gradient runs down each screen and starts again at the next: %08x %08x %08x %08x", pixel(&pic, 2, 10),
          pixel(&pic, 2, 60), pixel(&pic, 2, 109), pixel(&pic, 2, 110));
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render of dm_sample's sky group");
  }
  if (!corpus || stat(mapres, &st) != 0) {
    SKIP("Sunny Side Up with DDNet's images: %s", !corpus ? "no real corpus" : "ddnet-data is not installed (apt-get install ddnet-data)");
    return;
  }
  snprintf(sunny, sizeof sunny, "%s/tw/ddnet_Sunny_Side_Up.map", corpus);
  if (query_picture(v->db, fmt("SELECT tw_render('%s', 'groups=1, tile=2, mapres=%s')", sunny, mapres), &pic)) {
    CHECK(pic.w == 2400 && pic.h == 400 && not_opaque(&pic) == 0,
          "Sunny Side Up's sky group (parallax 0) fills its preview: %ld of %dx%d pixels not", not_opaque(&pic), pic.w, pic.h);
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render of Sunny Side Up's sky");
  }
  if (query_picture(v->db, fmt("SELECT tw_render('%s', 'entities=0, tile=2, mapres=%s')", sunny, mapres), &pic)) {
    /* above the start (top left) and the end (right edge), and in the
    ** passage at the middle: the yellow sky (240, 190..205, 65..75), not the
    ** transparent or white of a sky drawn once around the middle */
    CHECK(color_near(pixel(&pic, 10, 10), 240, 197, 70, 12) && color_near(pixel(&pic, 2390, 10), 240, 197, 70, 12),
          "the sky above the start and the end: %08x %08x", pixel(&pic, 10, 10), pixel(&pic, 2390, 10));
    CHECK(color_near(pixel(&pic, 2390, 300), 240, 197, 70, 12), "and down the right edge: %08x", pixel(&pic, 2390, 300));
    picture_free(&pic);
  } else {
    CHECK(0, "tw_render of Sunny Side Up with DDNet's images");
  }
}

static void test_wwd(env *v) {
  char path[512];
  picture pic;
  int64_t x, y, solid;
  snprintf(path, sizeof path, "%s/SAMPLE01.WWD", v->dir);
  /* a cell whose tile has a single 'solid' property */
  solid = query_int(v->db, fmt("SELECT tile FROM wwd_tile_properties('%s') WHERE type = 'single' AND attribute = 1 LIMIT 1", path));
  x = query_int(v->db, fmt("SELECT t.x FROM wwd_tiles('%s') t WHERE t.plane = 1 AND t.tile = %lld LIMIT 1", path, (long long)solid));
  y = query_int(v->db, fmt("SELECT t.y FROM wwd_tiles('%s') t WHERE t.plane = 1 AND t.tile = %lld LIMIT 1", path, (long long)solid));
  if (query_picture(v->db, fmt("SELECT wwd_render('%s', 1)", path), &pic)) {
    CHECK(pic.w == 160 * 12 && pic.h == 48 * 12, "default size: 2048 / 160 = 12 pixels a tile: %dx%d", pic.w, pic.h);
    picture_free(&pic);
  } else {
    CHECK(0, "wwd_render");
  }
  if (query_picture(v->db, fmt("SELECT wwd_render('%s', 'action', 'tile=4, objects=0')", path), &pic)) {
    CHECK(pic.w == 640 && pic.h == 192, "tile=4, a plane by name: %dx%d", pic.w, pic.h);
    CHECK(pixel(&pic, (int)x * 4 + 1, (int)y * 4 + 1) == 0x3c3c3cffu, "a solid tile at (%lld, %lld) is dark grey (%08x)",
          (long long)x, (long long)y, pixel(&pic, (int)x * 4 + 1, (int)y * 4 + 1));
    picture_free(&pic);
  } else {
    CHECK(0, "wwd_render by plane name");
  }
  /* an edit in a transaction shows */
  if (exec_ok(v->db, "BEGIN") &&
      exec_ok(v->db, fmt("UPDATE wwd_tiles SET tile = %lld WHERE source = '%s' AND plane = 1 AND x = 0 AND y = 0", (long long)solid, path)) &&
      query_picture(v->db, fmt("SELECT wwd_render('%s', 1, 'tile=4, objects=0')", path), &pic)) {
    CHECK(pixel(&pic, 1, 1) == 0x3c3c3cffu, "the tile set in the transaction shows (%08x)", pixel(&pic, 1, 1));
    picture_free(&pic);
  }
  exec_ok(v->db, "ROLLBACK");
  exec_err(v->db, fmt("SELECT wwd_render('%s', 9)", path), "wwd_render: ", "no plane 9 (the level has 3");
  exec_err(v->db, fmt("SELECT wwd_render('%s', 'Nope')", path), "no plane named 'Nope'", NULL);
  exec_err(v->db, fmt("SELECT wwd_render('%s', 1.5)", path), "the plane is a plane number", NULL);
  exec_err(v->db, fmt("SELECT wwd_render('%s', 1, 'objects=2')", path), "option objects takes 0 or 1", NULL);
  exec_err(v->db, fmt("SELECT wwd_render('%s', 1, 'tile=64')", path), "too large", "plane 1 of 160x48 tiles");
  exec_err(v->db, fmt("SELECT wwd_render('%s/dm_sample.map', 0)", v->dir), "wwd_render: ", "dm_sample.map");
}

/* One kind of element an SVG must hold once per row a query counts (%s:
** the file). */
typedef struct svg_expect {
  const char *element;
  const char *count_sql;
} svg_expect;

/* Renders `file` with `sql` (%s: the file), checks the SVG with xmllint
** and that it holds each expected element as often as its query counts
** (one CHECK each).  Returns the SVG (malloc'd) or NULL. */
static char *check_svg_elements(env *v, const char *file, const char *sql, const svg_expect *expect, size_t n) {
  char *svg = query_svg(v->dir, v->db, fmt(sql, file), sql);
  size_t i;
  for (i = 0; i < n; i++) {
    int64_t want = query_int(v->db, fmt(expect[i].count_sql, file));
    int got = svg ? count_of(svg, expect[i].element) : -1;
    CHECK(got == want, "%s: %d of '%s', the table has %lld", sql, got, expect[i].element, (long long)want);
  }
  return svg;
}

static void test_wed(env *v) {
  static const svg_expect expect[] = {
    {"<polygon class=\"wall\"", "SELECT count(*) FROM wed_polygons('%s') WHERE kind = 'wall' AND vertex_count > 0"},
    {"<rect class=\"door-cell\"", "SELECT sum(cell_count) FROM wed_doors('%s')"},
  };
  char path[512];
  char *svg;
  size_t n;
  picture pic;
  snprintf(path, sizeof path, "%s/AR0100.WED", v->dir);
  svg = check_svg_elements(v, path, "SELECT wed_render('%s')", expect, 2);
  CHECK(svg && count_of(svg, "class=\"door-closed\"") > 0 && count_of(svg, "<title>") > 0, "closed door polygons with titles");
  CHECK(svg && strstr(svg, "width=\"1920\" height=\"1280\""), "the area's size: 30x20 tiles of 64 pixels");
  free(svg);
  /* a wall inserted in the transaction is in the picture */
  if (exec_ok(v->db, "BEGIN") &&
      exec_ok(v->db, fmt("INSERT INTO wed_polygons(file, vertices) VALUES ('%s', '[[100,100],[300,100],[300,300],[100,300]]')", path))) {
    svg = query_string(v->db, fmt("SELECT wed_render('%s', 'grid=0, doors=0')", path), &n);
    CHECK(svg && strstr(svg, "points=\"100,100 300,100 300,300 100,300\"") && !strstr(svg, "class=\"grid\""),
          "the inserted wall shows; grid=0 leaves the grid out");
    free(svg);
    if (query_picture(v->db, fmt("SELECT wed_render('%s', 'format=png, scale=0.5, grid=0, doors=0')", path), &pic)) {
      CHECK(pic.w == 960 && pic.h == 640, "PNG at scale 0.5: %dx%d", pic.w, pic.h);
      CHECK(pixel(&pic, 100, 100) != 0, "the inserted wall is drawn in the PNG (%08x)", pixel(&pic, 100, 100));
      picture_free(&pic);
    } else {
      CHECK(0, "wed_render as PNG");
    }
  }
  exec_ok(v->db, "ROLLBACK");
  exec_err(v->db, fmt("SELECT wed_render('%s', 'format=gif')", path), "option format takes svg (the default) or png", NULL);
  exec_err(v->db, fmt("SELECT wed_render('%s', 'format=png, scale=0')", path), "option scale takes a number above 0", NULL);
  exec_err(v->db, fmt("SELECT wed_render('%s/intro.wz4')", v->dir), "wed_render: ", "intro.wz4");
}

static void test_wz4(env *v) {
  static const svg_expect expect[] = {
    {"<g class=\"op", "SELECT num_ops FROM wz4_pages('%s') WHERE page = 0"},
    {"class=\"stack\"", "SELECT count(*) FROM wz4_links('%s') WHERE page = 0 AND kind = 'stack'"},
  };
  char path[512];
  char *svg;
  size_t n;
  snprintf(path, sizeof path, "%s/intro.wz4", v->dir);
  svg = check_svg_elements(v, path, "SELECT wz4_render('%s', 0)", expect, 2);
  CHECK(svg && strstr(svg, "<title>page 0: textures</title>") && strstr(svg, ">Perlin</text>"), "page and class names");
  free(svg);
  svg = query_svg(v->dir, v->db, fmt("SELECT wz4_render('%s', 'scene')", path), "a page by name");
  CHECK(svg && strstr(svg, "<title>page 2: scene</title>"), "a page by name is that page");
  free(svg);
  /* a moved operator moves in the picture (x = 12 + 20 * 36) */
  if (exec_ok(v->db, "BEGIN") &&
      exec_ok(v->db, fmt("UPDATE wz4_operators SET pos_x = 20 WHERE source = '%s' AND page = 0 AND op = 0", path))) {
    svg = query_string(v->db, fmt("SELECT wz4_render('%s', 0)", path), &n);
    CHECK(svg && strstr(svg, "<rect class=\"box\" x=\"732\" y=\"12\""), "the moved op is drawn where it went");
    free(svg);
  }
  exec_ok(v->db, "ROLLBACK");
  exec_err(v->db, fmt("SELECT wz4_render('%s', 7)", path), "wz4_render: ", "no page 7 (the project has 3)");
  exec_err(v->db, fmt("SELECT wz4_render('%s', 'nope')", path), "no page named 'nope'", NULL);
  exec_err(v->db, fmt("SELECT wz4_render('%s', NULL)", path), "the page is a page number", NULL);
}

/* ---- the corpus ---------------------------------------------------------------- */

/* Renders what each row of `list_sql` names (its first column a file, its
** second an argument; list_sql takes the corpus and `sub` for %s %s) with
** `sql_fmt` (%s the file, %s the argument), one loop case: each must give a
** PNG libpng reads (png) or well-formed SVG. */
static void corpus_loop(env *v, const char *corpus, const char *sub, const char *list_sql, const char *sql_fmt, int png) {
  sqlite3_stmt *st = NULL;
  check_loop loop = {0, 0, 0};
  check_loop_enter(&loop);
  if (sqlite3_prepare_v2(v->db, fmt(list_sql, corpus, sub), -1, &st, NULL) == SQLITE_OK) {
    while (sqlite3_step(st) == SQLITE_ROW) {
      char file[1024], arg[64];
      snprintf(file, sizeof file, "%s", (const char *)sqlite3_column_text(st, 0));
      snprintf(arg, sizeof arg, "%s", sqlite3_column_text(st, 1) ? (const char *)sqlite3_column_text(st, 1) : "");
      loop.inputs++;
      if (png) {
        picture pic;
        int ok = query_picture(v->db, fmt(sql_fmt, file, arg), &pic);
        CHECK(ok && pic.w > 0 && pic.h > 0, "%s renders", file);
        picture_free(&pic);
      } else {
        free(query_svg(v->dir, v->db, fmt(sql_fmt, file, arg), file));
      }
    }
  } else {
    CHECK(0, "list %s: %s", sub, sqlite3_errmsg(v->db));
  }
  sqlite3_finalize(st);
  check_loop_done(&loop, "render every corpus file of %s%s", sub, png ? " as PNG" : " as SVG");
}

static void test_corpus(env *v) {
  const char *corpus = check_corpus_dir();
  if (!corpus) {
    SKIP("../shared/corpus absent: the corpus renders");
    return;
  }
  corpus_loop(v, corpus, "tw", "SELECT file, '' FROM tw_maps('%s/%s')", "SELECT tw_render('%s')", 1);
  corpus_loop(v, corpus, "wwd", "SELECT file, plane FROM wwd_planes('%s/%s', 'on_error=skip') WHERE is_main",
              "SELECT wwd_render('%s', %s)", 1);
  corpus_loop(v, corpus, "wed", "SELECT file, '' FROM wed_overlays('%s/%s') WHERE overlay = 0", "SELECT wed_render('%s')", 0);
  corpus_loop(v, corpus, "wed", "SELECT file, '' FROM wed_overlays('%s/%s') WHERE overlay = 0",
              "SELECT wed_render('%s', 'format=png')", 1);
  corpus_loop(v, corpus, "wz4", "SELECT file, page FROM wz4_pages('%s/%s')", "SELECT wz4_render('%s', %s)", 0);
}

int main(void) {
  env v;
  static const char *const samples[] = {"dm_sample.map", "ddrace_sample.map", "SAMPLE01.WWD", "AR0100.WED", "intro.wz4"};
  size_t i;
  int ok = 1;
  test_canvas();
  memset(&v, 0, sizeof v);
  if (!getenv("LEVELSQL_SAMPLES")) {
    SKIP("LEVELSQL_SAMPLES unset: the SQL render tests (test/run.sh sets it)");
    return check_done();
  }
  snprintf(v.dir, sizeof v.dir, "/tmp/levelsql-render-XXXXXX");
  REQUIRE(mkdtemp(v.dir) != NULL, "mkdtemp");
  for (i = 0; i < sizeof samples / sizeof samples[0]; i++) ok = copy_sample_into(v.dir, samples[i]) && ok;
  v.db = db_open();
  REQUIRE(v.db != NULL, "open the extension");
  if (v.db && ok) {
    test_tw(&v);
    test_tw_parallax(&v);
    test_wwd(&v);
    test_wed(&v);
    test_wz4(&v);
    test_corpus(&v);
  }
  if (v.db) sqlite3_close(v.db);
  if (system(fmt("rm -rf '%s'", v.dir)) != 0) printf("note: could not remove %s\n", v.dir);
  return check_done();
}
