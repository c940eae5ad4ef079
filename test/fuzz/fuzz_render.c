/*
** fuzz_render.c: libFuzzer harness for the previews (codecs/common/canvas.c,
** codecs/render_*.c) on damaged files of every format.
**
** The input is parsed by the codec whose sniff accepts it, then drawn:
** a Teeworlds map with its defaults at a small size (tile 2, entities on;
** maps whose layers claim more than FUZZ_MAX_DECODED_BYTES, fuzz_budget.h,
** are only parsed, as the engine refuses them before decoding),
** every plane of a WWD level, a WED area as SVG and as PNG, every page of
** a wz4 project as SVG; a PNG input is decoded.  A render may fail, but
** only with a message and a code; it must never crash, leak or read out
** of bounds (ASan, UBSan), and every SVG must be NUL-terminated text of
** the length it claims.  Any inconsistency calls abort().
**
** Build and run: make build-fuzz/fuzz/fuzz_render; seeds go in /tmp,
** never in the repository.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/canvas.h"
#include "fuzz_budget.h"
#include "tw/render_tw.h"
#include "wed/render_wed.h"
#include "wwd/render_wwd.h"
#include "wz4/render_wz4.h"

static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_render: %s: %s\n", what, msg ? msg : "");
  abort();
}

/* A failure must say what and carry a code. */
static void check_failure(const char *what, const codec_error *e) {
  if (e->code == CODEC_OK || !e->msg[0]) die(what, "failed without a code or a message");
}

/* The outcome of an SVG render: text of the length it claims, or a
** failure with a message; the text is freed. */
static void svg_outcome(const char *what, int ok, char *svg, size_t n, const codec_error *e) {
  if (ok && (!svg || strlen(svg) != n || strncmp(svg, "<?xml", 5) != 0)) die(what, "SVG text is not what it claims");
  if (!ok) check_failure(what, e);
  free(svg);
}

/* The outcome of a canvas render: the canvas is freed, a failure checked. */
static void canvas_outcome(const char *what, int ok, canvas *c, const codec_error *e) {
  if (ok) canvas_free(c);
  else check_failure(what, e);
}

static void fuzz_tw(const uint8_t *data, size_t size) {
  tw_map *m = NULL;
  codec_error e = {{0}, 0};
  tw_render_opts o;
  unsigned char *png = NULL;
  size_t n = 0;
  if (!tw_map_parse(data, size, &m, &e)) return;
  if (fuzz_tw_over_budget(m)) {
    tw_map_free(m);
    return;
  }
  tw_render_defaults(&o);
  o.tile = 2;
  if (tw_render_png(m, &o, &png, &n, &e)) {
    if (!png || n < 8 || memcmp(png, "\x89PNG", 4) != 0) die("tw", "not a PNG");
  } else {
    check_failure("tw", &e);
  }
  free(png);
  tw_map_free(m);
}

static void fuzz_wwd(const uint8_t *data, size_t size) {
  wwd_level *lvl = NULL;
  codec_error e = {{0}, 0};
  wwd_render_opts o;
  uint32_t p;
  if (!wwd_parse(data, size, &lvl, &e)) return;
  wwd_render_defaults(&o);
  o.tile = 2;
  for (p = 0; p < lvl->num_planes && p < 4; p++) {
    canvas c;
    codec_error pe = {{0}, 0};
    canvas_outcome("wwd", wwd_render_canvas(lvl, p, &o, &c, &pe), &c, &pe);
  }
  wwd_free(lvl);
}

static void fuzz_wed(const uint8_t *data, size_t size) {
  wed_area *a = NULL;
  codec_error e = {{0}, 0};
  wed_render_opts o;
  char *svg = NULL;
  size_t n = 0;
  canvas c;
  if (!wed_parse(data, size, &a, &e)) return;
  wed_render_defaults(&o);
  svg_outcome("wed svg", wed_render_svg(a, &o, &svg, &n, &e), svg, n, &e);
  o.fit = 256;
  canvas_outcome("wed png", wed_render_canvas(a, &o, &c, &e), &c, &e);
  wed_free(a);
}

static void fuzz_wz4(const uint8_t *data, size_t size) {
  wz4_doc *doc = NULL;
  codec_error e = {{0}, 0};
  uint32_t p;
  if (!wz4_parse(data, size, &doc, &e)) return;
  for (p = 0; p < doc->num_pages && p < 8; p++) {
    char *svg = NULL;
    size_t n = 0;
    codec_error pe = {{0}, 0};
    svg_outcome("wz4", wz4_render_svg(doc, p, NULL, &svg, &n, &pe), svg, n, &pe);
  }
  wz4_free(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (tw_map_sniff(data, size)) fuzz_tw(data, size);
  else if (wwd_sniff(data, size)) fuzz_wwd(data, size);
  else if (wed_sniff(data, size)) fuzz_wed(data, size);
  else if (wz4_sniff(data, size)) fuzz_wz4(data, size);
  else {
    canvas c;
    codec_error e = {{0}, 0};
    canvas_outcome("png", canvas_png_decode(data, size, &c, &e), &c, &e);
  }
  return 0;
}
