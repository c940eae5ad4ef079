/*
** render_wwd.c: the WWD collision picture of render_wwd.h.
*/
#include "wwd/render_wwd.h"

#include <string.h>

#include "common/bytes.h"

void wwd_render_defaults(wwd_render_opts *o) {
  memset(o, 0, sizeof *o);
  o->fit = 2048;
  o->objects = 1;
}

canvas_color wwd_attribute_color(int32_t attribute) {
  canvas_color c = {200, 60, 200, 255}; /* another value: magenta */
  switch (attribute) {
    case 0: c.r = c.g = c.b = c.a = 0; break;         /* clear */
    case 1: c.r = 60, c.g = 60, c.b = 60; break;      /* solid */
    case 2: c.r = 150, c.g = 100, c.b = 40; break;    /* ground: stand on it, jump through */
    case 3: c.r = 230, c.g = 200, c.b = 40; break;    /* climb */
    case 4: c.r = 220, c.g = 30, c.b = 30; break;     /* death */
    default: break;
  }
  return c;
}

/* Tile value v (a tile id or a special value) as a cell at (dx, dy), ts
** pixels a side. */
static void draw_cell(canvas *c, const wwd_level *lvl, uint32_t v, int64_t dx, int64_t dy, int ts) {
  const wwd_tile_property *tp;
  static const canvas_color filled = {200, 200, 200, 255};
  if (v == WWD_TILE_INVISIBLE) return;
  if (v == WWD_TILE_FILLED) {
    canvas_fill_rect(c, dx, dy, dx + ts, dy + ts, filled);
    return;
  }
  if (v >= lvl->num_tile_properties) return;
  tp = &lvl->tile_properties[v];
  if (tp->type == WWD_TILE_MASK && tp->mask && tp->width && tp->height &&
      (uint64_t)tp->mask_len >= (uint64_t)tp->width * tp->height) {
    int i, j;
    for (j = 0; j < ts; j++) {
      for (i = 0; i < ts; i++) {
        uint64_t mx = (uint64_t)i * tp->width / (uint64_t)ts, my = (uint64_t)j * tp->height / (uint64_t)ts;
        canvas_color col = wwd_attribute_color(tp->mask[my * tp->width + mx]);
        canvas_fill_rect(c, dx + i, dy + j, dx + i + 1, dy + j + 1, col);
      }
    }
    return;
  }
  if (tp->type == WWD_TILE_DOUBLE && tp->width && tp->height) {
    /* the rectangle's corners are inclusive pixel positions in the tile;
    ** the outside attribute fills the rest of the tile */
    int64_t x0 = (int64_t)tp->rect[0] * ts / tp->width, x1 = ((int64_t)tp->rect[2] + 1) * ts / tp->width;
    int64_t y0 = (int64_t)tp->rect[1] * ts / tp->height, y1 = ((int64_t)tp->rect[3] + 1) * ts / tp->height;
    canvas_color outside = wwd_attribute_color(tp->attribute);
    x0 = x0 < 0 ? 0 : x0 > ts ? ts : x0, x1 = x1 < x0 ? x0 : x1 > ts ? ts : x1;
    y0 = y0 < 0 ? 0 : y0 > ts ? ts : y0, y1 = y1 < y0 ? y0 : y1 > ts ? ts : y1;
    canvas_fill_rect(c, dx, dy, dx + ts, dy + y0, outside);
    canvas_fill_rect(c, dx, dy + y1, dx + ts, dy + ts, outside);
    canvas_fill_rect(c, dx, dy + y0, dx + x0, dy + y1, outside);
    canvas_fill_rect(c, dx + x1, dy + y0, dx + ts, dy + y1, outside);
    canvas_fill_rect(c, dx + x0, dy + y0, dx + x1, dy + y1, wwd_attribute_color(tp->inside_attribute));
    return;
  }
  canvas_fill_rect(c, dx, dy, dx + ts, dy + ts, wwd_attribute_color(tp->attribute));
}

int wwd_render_canvas(const wwd_level *lvl, uint32_t plane, const wwd_render_opts *o, canvas *out, codec_error *err) {
  const wwd_plane *pl;
  uint32_t tw, th, x, y, k;
  int ts;
  memset(out, 0, sizeof *out);
  if (plane >= lvl->num_planes) return codec_fail_arg(err, "no plane %u (the level has %u)", plane, lvl->num_planes);
  pl = &lvl->planes[plane];
  tw = le32_load(pl->header + WWD_PLANE_TILE_WIDTH);
  th = le32_load(pl->header + WWD_PLANE_TILE_HEIGHT);
  if (tw == 0 || tw > 65536) tw = 64;
  if (th == 0 || th > 65536) th = 64;
  if (o->tile > 0) {
    ts = o->tile;
  } else {
    uint32_t longer = pl->tiles_wide > pl->tiles_high ? pl->tiles_wide : pl->tiles_high;
    ts = longer ? (int)((uint32_t)(o->fit > 0 ? o->fit : 2048) / longer) : 1;
    if (ts < 1) ts = 1;
    if (ts > 64) ts = 64;
  }
  if (!canvas_size_ok((int64_t)pl->tiles_wide * ts, (int64_t)pl->tiles_high * ts, "the picture", err)) {
    return codec_prefix(err, "plane %u of %ux%u tiles at %d pixels a tile: ", plane, pl->tiles_wide, pl->tiles_high, ts);
  }
  if (!canvas_new(out, (int)pl->tiles_wide * ts, (int)pl->tiles_high * ts, o->background, err)) return 0;
  for (y = 0; y < pl->tiles_high; y++) {
    if (codec_cancelled(o->cancel)) {
      canvas_free(out);
      return codec_fail_interrupted(err);
    }
    for (x = 0; x < pl->tiles_wide; x++) {
      draw_cell(out, lvl, pl->tiles[(size_t)y * pl->tiles_wide + x], (int64_t)x * ts, (int64_t)y * ts, ts);
    }
  }
  if (o->objects) {
    int size = ts / 2 < 3 ? 3 : ts / 2;
    static const canvas_color frame = {0, 0, 0, 200};
    for (k = 0; k < pl->num_objects; k++) {
      const wwd_object *ob = &pl->objects[k];
      int64_t cx = (int64_t)ob->field[WWD_OBJ_X] * ts / (int64_t)tw, cy = (int64_t)ob->field[WWD_OBJ_Y] * ts / (int64_t)th;
      const wwd_bytes *logic = &ob->str[WWD_STR_LOGIC];
      canvas_color col = canvas_name_color((const char *)logic->data, logic->len, 255);
      canvas_fill_rect(out, cx - size / 2, cy - size / 2, cx - size / 2 + size, cy - size / 2 + size, col);
      canvas_frame_rect(out, cx - size / 2, cy - size / 2, cx - size / 2 + size, cy - size / 2 + size, 1, frame);
    }
  }
  return 1;
}

int wwd_render_png(const wwd_level *lvl, uint32_t plane, const wwd_render_opts *o, unsigned char **png,
                   size_t *png_size, codec_error *err) {
  canvas c;
  return wwd_render_canvas(lvl, plane, o, &c, err) && canvas_png_take(&c, png, png_size, err);
}
