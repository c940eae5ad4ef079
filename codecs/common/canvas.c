/*
** canvas.c: the RGBA canvas of canvas.h: blending, rectangles, lines,
** even-odd polygons, tile blits, shaded and textured triangles, and PNG
** through libpng's simplified API (png_image), which needs no setjmp and
** reports errors in a message buffer.
*/
#include "common/canvas.h"

#include <math.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

int canvas_size_ok(int64_t w, int64_t h, const char *what, codec_error *err) {
  if (w < 1 || h < 1) return codec_fail_arg(err, "%s of %lldx%lld pixels is empty", what, (long long)w, (long long)h);
  if (w > CANVAS_MAX_SIDE || h > CANVAS_MAX_SIDE || w * h > (int64_t)CANVAS_MAX_PIXELS) {
    return codec_fail_limit(err, "%s of %lldx%lld pixels is too large (at most %d a side and %u pixels in all)", what,
                            (long long)w, (long long)h, CANVAS_MAX_SIDE, CANVAS_MAX_PIXELS);
  }
  return 1;
}

int canvas_new(canvas *c, int w, int h, canvas_color fill, codec_error *err) {
  size_t n, i;
  memset(c, 0, sizeof *c);
  if (!canvas_size_ok(w, h, "a picture", err)) return 0;
  n = (size_t)w * (size_t)h;
  if (!(c->px = malloc(n * 4))) return codec_fail_oom(err, "out of memory for a %dx%d picture", w, h);
  if (fill.r == fill.g && fill.g == fill.b && fill.b == fill.a) {
    memset(c->px, fill.r, n * 4);
  } else {
    for (i = 0; i < n; i++) memcpy(c->px + 4 * i, &fill, 4);
  }
  c->w = w;
  c->h = h;
  canvas_unclip(c);
  return 1;
}

void canvas_free(canvas *c) {
  free(c->px);
  memset(c, 0, sizeof *c);
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

void canvas_clip(canvas *c, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
  c->clip_x0 = (int)clamp64(x0, 0, c->w);
  c->clip_y0 = (int)clamp64(y0, 0, c->h);
  c->clip_x1 = (int)clamp64(x1, c->clip_x0, c->w);
  c->clip_y1 = (int)clamp64(y1, c->clip_y0, c->h);
}

void canvas_unclip(canvas *c) {
  canvas_clip(c, 0, 0, c->w, c->h);
}

canvas_color canvas_get(const canvas *c, int x, int y) {
  canvas_color col = {0, 0, 0, 0};
  if (x >= 0 && y >= 0 && x < c->w && y < c->h) memcpy(&col, c->px + 4 * ((size_t)y * (size_t)c->w + (size_t)x), 4);
  return col;
}

/* Source-over blending of one colour onto the pixel at p, straight alpha. */
static void blend(unsigned char *p, unsigned r, unsigned g, unsigned b, unsigned a) {
  unsigned da, oa;
  if (a == 0) return;
  if (a == 255 || p[3] == 0) {
    p[0] = (unsigned char)r, p[1] = (unsigned char)g, p[2] = (unsigned char)b, p[3] = (unsigned char)a;
    return;
  }
  da = p[3] * (255 - a) / 255; /* what shows through, 0..255 */
  oa = a + da;
  p[0] = (unsigned char)((r * a + p[0] * da + oa / 2) / oa);
  p[1] = (unsigned char)((g * a + p[1] * da + oa / 2) / oa);
  p[2] = (unsigned char)((b * a + p[2] * da + oa / 2) / oa);
  p[3] = (unsigned char)oa;
}

static unsigned char *pixel_at(const canvas *c, int x, int y) {
  return c->px + 4 * ((size_t)y * (size_t)c->w + (size_t)x);
}

/* Blends col onto (x, y) when it is inside the clip rectangle. */
static void plot(canvas *c, int64_t x, int64_t y, canvas_color col) {
  if (x < c->clip_x0 || y < c->clip_y0 || x >= c->clip_x1 || y >= c->clip_y1) return;
  blend(pixel_at(c, (int)x, (int)y), col.r, col.g, col.b, col.a);
}

void canvas_fill_rect(canvas *c, int64_t x0, int64_t y0, int64_t x1, int64_t y1, canvas_color col) {
  int x, y;
  int ax = (int)clamp64(x0, c->clip_x0, c->clip_x1), bx = (int)clamp64(x1, c->clip_x0, c->clip_x1);
  int ay = (int)clamp64(y0, c->clip_y0, c->clip_y1), by = (int)clamp64(y1, c->clip_y0, c->clip_y1);
  if (col.a == 0) return;
  for (y = ay; y < by; y++) {
    unsigned char *p = pixel_at(c, ax, y);
    for (x = ax; x < bx; x++, p += 4) blend(p, col.r, col.g, col.b, col.a);
  }
}

void canvas_frame_rect(canvas *c, int64_t x0, int64_t y0, int64_t x1, int64_t y1, int width, canvas_color col) {
  if (x1 - x0 <= 2 * (int64_t)width || y1 - y0 <= 2 * (int64_t)width) {
    canvas_fill_rect(c, x0, y0, x1, y1, col);
    return;
  }
  canvas_fill_rect(c, x0, y0, x1, y0 + width, col);
  canvas_fill_rect(c, x0, y1 - width, x1, y1, col);
  canvas_fill_rect(c, x0, y0 + width, x0 + width, y1 - width, col);
  canvas_fill_rect(c, x1 - width, y0 + width, x1, y1 - width, col);
}

/* Coordinates far outside are pulled in to where they cannot overflow an
** int64 and still lie outside the canvas in the same direction. */
static double tame(double v) {
  if (!(v == v)) return -1e9; /* NaN */
  return v < -1e9 ? -1e9 : v > 1e9 ? 1e9 : v;
}

/* Clips the segment to the rectangle [lo_x, hi_x] x [lo_y, hi_y]
** (Liang-Barsky); returns 0 when nothing of it is inside. */
static int clip_segment(double *x0, double *y0, double *x1, double *y1, double lo_x, double lo_y, double hi_x,
                        double hi_y) {
  double t0 = 0, t1 = 1, dx = *x1 - *x0, dy = *y1 - *y0;
  double p[4] = {-dx, dx, -dy, dy}, q[4] = {*x0 - lo_x, hi_x - *x0, *y0 - lo_y, hi_y - *y0};
  int i;
  for (i = 0; i < 4; i++) {
    if (p[i] == 0) {
      if (q[i] < 0) return 0;
    } else {
      double t = q[i] / p[i];
      if (p[i] < 0) {
        if (t > t1) return 0;
        if (t > t0) t0 = t;
      } else {
        if (t < t0) return 0;
        if (t < t1) t1 = t;
      }
    }
  }
  *x1 = *x0 + t1 * dx, *y1 = *y0 + t1 * dy;
  *x0 = *x0 + t0 * dx, *y0 = *y0 + t0 * dy;
  return 1;
}

void canvas_line(canvas *c, double x0, double y0, double x1, double y1, canvas_color col) {
  int64_t ax, ay, bx, by, dx, dy, sx, sy, e;
  x0 = tame(x0), y0 = tame(y0), x1 = tame(x1), y1 = tame(y1);
  /* one pixel of margin so the rounded ends still reach the border */
  if (!clip_segment(&x0, &y0, &x1, &y1, c->clip_x0 - 1, c->clip_y0 - 1, c->clip_x1, c->clip_y1)) return;
  ax = (int64_t)floor(x0), ay = (int64_t)floor(y0), bx = (int64_t)floor(x1), by = (int64_t)floor(y1);
  dx = bx > ax ? bx - ax : ax - bx, dy = by > ay ? ay - by : by - ay;
  sx = ax < bx ? 1 : -1, sy = ay < by ? 1 : -1;
  e = dx + dy;
  for (;;) {
    int64_t e2 = 2 * e;
    plot(c, ax, ay, col);
    if (ax == bx && ay == by) break;
    if (e2 >= dy) e += dy, ax += sx;
    if (e2 <= dx) e += dx, ay += sy;
  }
}

void canvas_stroke_polygon(canvas *c, const double *xy, size_t n, canvas_color col) {
  canvas_stroke_polygon_cancel(c, xy, n, col, NULL);
}

/* The outline edge by edge; a cancel poll before every CANVAS_STROKE_POLL
** edges (an edge is at most the canvas's diagonal: 23,000 pixels). */
int canvas_stroke_polygon_cancel(canvas *c, const double *xy, size_t n, canvas_color col, const codec_cancel *cancel) {
  size_t i;
  for (i = 0; i < n; i++) {
    size_t j = (i + 1) % n;
    if (i % CANVAS_STROKE_POLL == 0 && codec_cancelled(cancel)) return 0;
    canvas_line(c, xy[2 * i], xy[2 * i + 1], xy[2 * j], xy[2 * j + 1], col);
  }
  return 1;
}

static int compare_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

void canvas_fill_polygon(canvas *c, const double *xy, size_t n, canvas_color col) {
  canvas_fill_polygon_cancel(c, xy, n, col, NULL);
}

/* One scanline of the even-odd fill: the outline's crossings of the row's
** centre line y + 0.5, sorted, filled pairwise.  cross: room for n. */
static void fill_polygon_row(canvas *c, const double *xy, size_t n, int64_t y, double *cross, canvas_color col) {
  double cy = (double)y + 0.5;
  size_t i, k = 0, m;
  for (i = 0; i < n; i++) {
    size_t j = (i + 1) % n;
    double ax = tame(xy[2 * i]), ay = tame(xy[2 * i + 1]), bx = tame(xy[2 * j]), by = tame(xy[2 * j + 1]);
    /* the half-open rule counts a vertex on the scanline once */
    if ((ay <= cy && by > cy) || (by <= cy && ay > cy)) cross[k++] = ax + (cy - ay) / (by - ay) * (bx - ax);
  }
  qsort(cross, k, sizeof *cross, compare_double);
  for (m = 0; m + 1 < k; m += 2) {
    /* pixels whose centre x + 0.5 lies in [cross[m], cross[m+1]) */
    int64_t xa = (int64_t)ceil(cross[m] - 0.5), xb = (int64_t)ceil(cross[m + 1] - 0.5);
    canvas_fill_rect(c, xa, y, xb, y + 1, col);
  }
}

/* The fill row by row over the polygon's clipped height, polling cancel
** before each row (a row costs n crossings and their sort). */
int canvas_fill_polygon_cancel(canvas *c, const double *xy, size_t n, canvas_color col, const codec_cancel *cancel) {
  double *cross, lo = 1e300, hi = -1e300;
  size_t i;
  int64_t y, y0, y1;
  int whole = 1;
  if (n < 3 || col.a == 0 || c->clip_x0 >= c->clip_x1) return 1;
  for (i = 0; i < n; i++) {
    double v = tame(xy[2 * i + 1]);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  y0 = clamp64((int64_t)floor(lo), c->clip_y0, c->clip_y1);
  y1 = clamp64((int64_t)ceil(hi) + 1, c->clip_y0, c->clip_y1);
  if (y0 >= y1 || !(cross = malloc(n * sizeof *cross))) return 1;
  for (y = y0; y < y1 && whole; y++) {
    if (codec_cancelled(cancel)) whole = 0;
    else fill_polygon_row(c, xy, n, y, cross, col);
  }
  free(cross);
  return whole;
}

void canvas_blit(canvas *c, int64_t dx, int64_t dy, const canvas *src, int sx, int sy, int size, int flags,
                 canvas_color tint) {
  int64_t x0 = clamp64(dx, c->clip_x0, c->clip_x1), x1 = clamp64(dx + size, c->clip_x0, c->clip_x1);
  int64_t y0 = clamp64(dy, c->clip_y0, c->clip_y1), y1 = clamp64(dy + size, c->clip_y0, c->clip_y1);
  int64_t x, y;
  int plain = tint.r == 255 && tint.g == 255 && tint.b == 255 && tint.a == 255;
  if (size < 1 || sx < 0 || sy < 0 || sx > src->w - size || sy > src->h - size || tint.a == 0) return;
  for (y = y0; y < y1; y++) {
    unsigned char *p = pixel_at(c, (int)x0, (int)y);
    for (x = x0; x < x1; x++, p += 4) {
      int a = (int)(x - dx), b = (int)(y - dy), u, v;
      const unsigned char *s;
      if (flags & CANVAS_ROTATE) u = b, v = size - 1 - a;
      else u = a, v = b;
      if (flags & CANVAS_FLIP_X) u = size - 1 - u;
      if (flags & CANVAS_FLIP_Y) v = size - 1 - v;
      s = pixel_at(src, sx + u, sy + v);
      if (plain) blend(p, s[0], s[1], s[2], s[3]);
      else blend(p, s[0] * tint.r / 255u, s[1] * tint.g / 255u, s[2] * tint.b / 255u, s[3] * tint.a / 255u);
    }
  }
}

/* Sets the pixel at p to the average of src's pixels [xa, xb) x [ya, yb),
** weighted by their alpha (so transparent pixels lend no colour), its
** alpha the plain average: the box filter of the resampling below. */
static void average_box(const canvas *src, int xa, int xb, int ya, int yb, unsigned char *p) {
  uint64_t r = 0, g = 0, b = 0, a = 0, n = 0;
  int x, y;
  for (y = ya; y < yb; y++) {
    const unsigned char *s = pixel_at(src, xa, y);
    for (x = xa; x < xb; x++, s += 4) {
      r += (uint64_t)s[0] * s[3], g += (uint64_t)s[1] * s[3], b += (uint64_t)s[2] * s[3], a += s[3];
      n++;
    }
  }
  if (a) {
    p[0] = (unsigned char)(r / a), p[1] = (unsigned char)(g / a), p[2] = (unsigned char)(b / a);
    p[3] = (unsigned char)(a / n);
  }
}

int canvas_resample_grid(const canvas *src, int cols, int rows, int cell, canvas *out, codec_error *err) {
  int cw, ch, ox, oy, gx, gy;
  canvas_color clear = {0, 0, 0, 0};
  if (cols < 1 || rows < 1 || cell < 1 || src->w < cols || src->h < rows) {
    return codec_fail_arg(err, "cannot cut a %dx%d image into %dx%d cells", src->w, src->h, cols, rows);
  }
  if (!canvas_new(out, cols * cell, rows * cell, clear, err)) return 0;
  cw = src->w / cols, ch = src->h / rows;
  for (gy = 0; gy < rows; gy++) {
    for (gx = 0; gx < cols; gx++) {
      for (oy = 0; oy < cell; oy++) {
        /* source rows [ya, yb) of this target row: at least one */
        int ya = gy * ch + oy * ch / cell, yb = gy * ch + (oy + 1) * ch / cell;
        if (yb <= ya) yb = ya + 1;
        for (ox = 0; ox < cell; ox++) {
          int xa = gx * cw + ox * cw / cell, xb = gx * cw + (ox + 1) * cw / cell;
          if (xb <= xa) xb = xa + 1;
          average_box(src, xa, xb, ya, yb, pixel_at(out, gx * cell + ox, gy * cell + oy));
        }
      }
    }
  }
  return 1;
}

int canvas_shrink(const canvas *src, int side, canvas *out, codec_error *err) {
  canvas_color clear = {0, 0, 0, 0};
  int64_t longer = src->w > src->h ? src->w : src->h;
  int w, h, x, y;
  if (side < 1 || src->w < 1 || src->h < 1) return codec_fail_arg(err, "cannot shrink a %dx%d image to %d pixels", src->w, src->h, side);
  if (longer <= side) side = (int)longer;
  w = (int)((int64_t)src->w * side / longer), h = (int)((int64_t)src->h * side / longer);
  if (w < 1) w = 1;
  if (h < 1) h = 1;
  if (!canvas_new(out, w, h, clear, err)) return 0;
  for (y = 0; y < h; y++) {
    /* source rows [ya, yb) of this target row: at least one */
    int ya = (int)((int64_t)y * src->h / h), yb = (int)((int64_t)(y + 1) * src->h / h);
    if (yb <= ya) yb = ya + 1;
    for (x = 0; x < w; x++) {
      int xa = (int)((int64_t)x * src->w / w), xb = (int)((int64_t)(x + 1) * src->w / w);
      if (xb <= xa) xb = xa + 1;
      average_box(src, xa, xb, ya, yb, pixel_at(out, x, y));
    }
  }
  return 1;
}

/* Twice the signed area of the triangle (a, b, p). */
static double edge(double ax, double ay, double bx, double by, double px, double py) {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

static unsigned char unit_byte(double v) {
  return v <= 0 ? 0 : v >= 1 ? 255 : (unsigned char)(v * 255 + 0.5);
}

/* The texel of tex at (u, v), repeating beyond [0, 1). */
static const unsigned char *texel(const canvas *tex, double u, double v) {
  double fu = u - floor(u), fv = v - floor(v);
  int x = (int)(fu * tex->w), y = (int)(fv * tex->h);
  if (x >= tex->w) x = tex->w - 1;
  if (y >= tex->h) y = tex->h - 1;
  return pixel_at(tex, x < 0 ? 0 : x, y < 0 ? 0 : y);
}

/* The pixels of a row whose centres (py the row's) may lie inside the
** triangle (xs, ys; area its edge() of the three corners): [*xa, *xb)
** within [x0, x1).  Each edge keeps the side of a line; solved for x, with
** two pixels to spare on each side for rounding, since canvas_fill_triangle
** still tests every pixel of the span exactly: this only skips the part of
** the bounding box no pixel of the triangle is in. */
static void triangle_span(const double xs[3], const double ys[3], double area, double py, int64_t x0, int64_t x1,
                          int64_t *xa, int64_t *xb) {
  double lo = (double)x0, hi = (double)x1;
  int k;
  for (k = 0; k < 3; k++) {
    int a = (k + 1) % 3, b = (k + 2) % 3; /* the edge opposite corner k */
    /* edge(a, b, p) = c + slope * px: inside where its sign is area's */
    double slope = -(ys[b] - ys[a]), c = (xs[b] - xs[a]) * (py - ys[a]) + (ys[b] - ys[a]) * xs[a], t;
    if (area < 0) slope = -slope, c = -c;
    if (slope == 0) continue; /* (the row is on one side of it: the pixels' tests decide) */
    t = -c / slope - 0.5;     /* the pixel whose centre the line crosses */
    if (slope > 0) lo = fmax(lo, t);
    else hi = fmin(hi, t + 1);
  }
  *xa = clamp64((int64_t)floor(fmax(lo, (double)x0)) - 2, x0, x1);
  *xb = clamp64((int64_t)ceil(fmin(hi, (double)x1)) + 2, *xa, x1);
}

void canvas_fill_triangle(canvas *c, const canvas_vertex v[3], const canvas *tex) {
  double xs[3], ys[3], area, lo_x, hi_x, lo_y, hi_y;
  int64_t x0, x1, y0, y1, x, y;
  int i;
  for (i = 0; i < 3; i++) xs[i] = tame(v[i].x), ys[i] = tame(v[i].y);
  area = edge(xs[0], ys[0], xs[1], ys[1], xs[2], ys[2]);
  if (area == 0 || !(area == area)) return;
  lo_x = fmin(xs[0], fmin(xs[1], xs[2])), hi_x = fmax(xs[0], fmax(xs[1], xs[2]));
  lo_y = fmin(ys[0], fmin(ys[1], ys[2])), hi_y = fmax(ys[0], fmax(ys[1], ys[2]));
  x0 = clamp64((int64_t)floor(lo_x), c->clip_x0, c->clip_x1), x1 = clamp64((int64_t)ceil(hi_x) + 1, c->clip_x0, c->clip_x1);
  y0 = clamp64((int64_t)floor(lo_y), c->clip_y0, c->clip_y1), y1 = clamp64((int64_t)ceil(hi_y) + 1, c->clip_y0, c->clip_y1);
  if (tex && (tex->w < 1 || tex->h < 1)) tex = NULL;
  for (y = y0; y < y1; y++) {
    double py = (double)y + 0.5;
    int64_t xa, xb;
    unsigned char *p;
    triangle_span(xs, ys, area, py, x0, x1, &xa, &xb);
    p = pixel_at(c, (int)xa, (int)y);
    for (x = xa; x < xb; x++, p += 4) {
      double px = (double)x + 0.5;
      double w0 = edge(xs[1], ys[1], xs[2], ys[2], px, py) / area;
      double w1 = edge(xs[2], ys[2], xs[0], ys[0], px, py) / area;
      double w2 = 1 - w0 - w1;
      double r, g, b, a;
      if (w0 < 0 || w1 < 0 || w2 < 0) continue;
      r = w0 * v[0].r + w1 * v[1].r + w2 * v[2].r;
      g = w0 * v[0].g + w1 * v[1].g + w2 * v[2].g;
      b = w0 * v[0].b + w1 * v[1].b + w2 * v[2].b;
      a = w0 * v[0].a + w1 * v[1].a + w2 * v[2].a;
      if (tex) {
        const unsigned char *t = texel(tex, w0 * v[0].u + w1 * v[1].u + w2 * v[2].u, w0 * v[0].v + w1 * v[1].v + w2 * v[2].v);
        r *= t[0] / 255.0, g *= t[1] / 255.0, b *= t[2] / 255.0, a *= t[3] / 255.0;
      }
      blend(p, unit_byte(r), unit_byte(g), unit_byte(b), unit_byte(a));
    }
  }
}

int canvas_from_pixels(canvas *c, int w, int h, int channels, const unsigned char *px, size_t size,
                       codec_error *err) {
  canvas_color clear = {0, 0, 0, 0};
  size_t n, i;
  memset(c, 0, sizeof *c);
  if (channels != 3 && channels != 4) return codec_fail_arg(err, "pixels of %d channels", channels);
  if (!canvas_size_ok(w, h, "an image", err)) return 0;
  n = (size_t)w * (size_t)h;
  if (size != n * (size_t)channels) {
    return codec_fail(err, "%zu bytes of pixels for a %dx%d %s image, which needs %zu", size, w, h,
                      channels == 4 ? "RGBA" : "RGB", n * (size_t)channels);
  }
  if (!canvas_new(c, w, h, clear, err)) return 0;
  if (channels == 4) {
    memcpy(c->px, px, n * 4);
  } else {
    for (i = 0; i < n; i++) {
      memcpy(c->px + 4 * i, px + 3 * i, 3);
      c->px[4 * i + 3] = 255;
    }
  }
  return 1;
}

int canvas_png_encode(const canvas *c, unsigned char **out, size_t *out_size, codec_error *err) {
  png_image img;
  png_alloc_size_t n, bound;
  unsigned char *buf, *fit;
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = (png_uint_32)c->w;
  img.height = (png_uint_32)c->h;
  img.format = PNG_FORMAT_RGBA;
  img.flags = PNG_IMAGE_FLAG_FAST;
  *out = NULL;
  *out_size = 0;
  /* one pass into a buffer of the largest size libpng can write for the
  ** picture (asking for the size first compresses it twice) */
  n = bound = PNG_IMAGE_PNG_SIZE_MAX(img);
  if (!(buf = malloc(bound ? bound : 1))) return codec_fail_oom(err, "out of memory for a PNG of %zu bytes", (size_t)bound);
  if (!png_image_write_to_memory(&img, buf, &n, 0, c->px, 0, NULL)) {
    codec_fail(err, "PNG encoding failed: %s", img.message);
    png_image_free(&img);
    free(buf);
    return 0;
  }
  if ((fit = realloc(buf, n ? n : 1)) != NULL) buf = fit;
  *out = buf;
  *out_size = n;
  return 1;
}

int canvas_png_take(canvas *c, unsigned char **out, size_t *out_size, codec_error *err) {
  int ok = canvas_png_encode(c, out, out_size, err);
  canvas_free(c);
  return ok;
}

int canvas_png_decode(const unsigned char *data, size_t size, canvas *c, codec_error *err) {
  png_image img;
  canvas_color clear = {0, 0, 0, 0};
  memset(c, 0, sizeof *c);
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&img, data, size)) {
    codec_fail(err, "not a PNG libpng reads: %s", img.message);
    png_image_free(&img);
    return 0;
  }
  if (!canvas_size_ok(img.width, img.height, "a PNG image", err)) {
    png_image_free(&img);
    return 0;
  }
  img.format = PNG_FORMAT_RGBA;
  if (!canvas_new(c, (int)img.width, (int)img.height, clear, err)) {
    png_image_free(&img);
    return 0;
  }
  if (!png_image_finish_read(&img, NULL, c->px, 0, NULL)) {
    codec_fail(err, "damaged PNG: %s", img.message);
    png_image_free(&img);
    canvas_free(c);
    return 0;
  }
  return 1;
}

static int hex_digit(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

int canvas_color_parse(const char *text, canvas_color *out) {
  unsigned char v[4] = {0, 0, 0, 255};
  size_t n, i;
  if (strcmp(text, "none") == 0) {
    memset(out, 0, sizeof *out);
    return 1;
  }
  if (*text == '#') text++;
  n = strlen(text);
  if (n != 6 && n != 8) return 0;
  for (i = 0; i < n; i += 2) {
    int hi = hex_digit(text[i]), lo = hex_digit(text[i + 1]);
    if (hi < 0 || lo < 0) return 0;
    v[i / 2] = (unsigned char)(hi * 16 + lo);
  }
  out->r = v[0], out->g = v[1], out->b = v[2], out->a = v[3];
  return 1;
}

canvas_color canvas_name_color(const char *name, size_t len, unsigned char alpha) {
  uint32_t h = 2166136261u; /* FNV-1a */
  size_t i;
  double hue, f;
  unsigned char hi = 215, lo = 70, mid;
  canvas_color col;
  for (i = 0; i < len; i++) h = (h ^ (unsigned char)name[i]) * 16777619u;
  hue = (h % 360u) / 60.0;
  f = hue - floor(hue);
  col.a = alpha;
  switch ((int)hue) {
    case 0: mid = (unsigned char)(lo + f * (hi - lo)), col.r = hi, col.g = mid, col.b = lo; break;
    case 1: mid = (unsigned char)(hi - f * (hi - lo)), col.r = mid, col.g = hi, col.b = lo; break;
    case 2: mid = (unsigned char)(lo + f * (hi - lo)), col.r = lo, col.g = hi, col.b = mid; break;
    case 3: mid = (unsigned char)(hi - f * (hi - lo)), col.r = lo, col.g = mid, col.b = hi; break;
    case 4: mid = (unsigned char)(lo + f * (hi - lo)), col.r = mid, col.g = lo, col.b = hi; break;
    default: mid = (unsigned char)(hi - f * (hi - lo)), col.r = hi, col.g = lo, col.b = mid; break;
  }
  return col;
}
