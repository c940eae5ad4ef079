/*
** twmap_blobs.c: image pixels as PNG and sound bytes, read and written.
** See twmap_blobs.h for the model, NOTES-tw.md for the item fields.
*/
#include "tw/twmap_blobs.h"

#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "common/canvas.h"
#include "tw/datafile.h"

/* Image item fields (CMapItemImage; format only in 0.7's version 2). */
enum { IM_VERSION = 0, IM_WIDTH = 1, IM_HEIGHT = 2, IM_EXTERNAL = 3, IM_NAME = 4, IM_DATA = 5, IM_FORMAT = 6 };
/* Sound item fields (DDNet's CMapItemSound). */
enum { SN_VERSION = 0, SN_EXTERNAL = 1, SN_NAME = 2, SN_DATA = 3, SN_DATA_SIZE = 4 };

/* The item at datafile position pos when it has field k, else NULL after
** failing with a message naming `what` (an item too short for the field:
** never written by the game, so refused rather than guessed). */
static df_item *item_with_field(tw_map *m, size_t pos, size_t k, const char *what, size_t index, codec_error *err) {
  df_item *it = &m->df->items[pos];
  if (k >= it->num_ints) {
    codec_fail(err, "%s %zu: item type %u id %u has %zu ints, too short for field %zu", what, index, it->type,
               it->id, it->num_ints, k);
    return NULL;
  }
  return it;
}

/* Puts bytes[0..n) into the blob that field k of item pos names: replaced
** in place when the field names an existing blob, else a new blob whose
** index goes into the field.  The item must have field k. */
static int item_blob_put(tw_map *m, size_t pos, size_t k, const unsigned char *bytes, size_t n, const char *what,
                         size_t index, codec_error *err) {
  df_item *it = item_with_field(m, pos, k, what, index, err);
  int32_t idx;
  long added;
  if (!it) return 0;
  idx = it->ints[k];
  if (idx >= 0 && (size_t)idx < m->df->num_data) {
    if (!df_data_set(m->df, (size_t)idx, bytes, n)) return codec_fail_oom(err, "%s %zu: out of memory", what, index);
    return 1;
  }
  added = df_data_add(m->df, bytes, n);
  if (added < 0 || added > INT32_MAX) return codec_fail_oom(err, "%s %zu: out of memory", what, index);
  m->df->items[pos].ints[k] = (int32_t)added;
  return 1;
}

/* tw_image_png: the item's pixels through a canvas (which checks their
** size against width x height x channels) into libpng.  The pixels are
** inflated into a buffer freed here (df_data_copy): the map keeps them
** compressed, whatever table asked. */
int tw_image_png(tw_map *m, size_t i, unsigned char **out, size_t *out_size, codec_error *err) {
  tw_image_info im;
  unsigned char *px;
  size_t n;
  canvas c;
  int ok;
  *out = NULL;
  *out_size = 0;
  if (!tw_image_get(m, i, &im, err)) return 0;
  if (im.external || im.data_index < 0)
    return codec_fail_arg(err, "image %zu: external (no pixels in the map, the game loads mapres/%.*s.png)", i,
                          (int)im.name.n, im.name.p ? im.name.p : "");
  if (im.width <= 0 || im.height <= 0)
    return codec_fail(err, "image %zu: the item says %d x %d pixels", i, im.width, im.height);
  if (!df_data_copy(m->df, (size_t)im.data_index, &px, &n, err))
    return codec_prefix(err, "image %zu: pixels: ", i);
  ok = canvas_from_pixels(&c, im.width, im.height, im.format ? 4 : 3, px, n, err);
  free(px);
  if (!ok) return codec_prefix(err, "image %zu (%d x %d %s): ", i, im.width, im.height, im.format ? "rgba" : "rgb");
  return canvas_png_take(&c, out, out_size, err);
}

/* tw_image_embed_png: the PNG is decoded completely before the map is
** touched, so a bad PNG leaves the image as it was. */
int tw_image_embed_png(tw_map *m, size_t i, const unsigned char *png, size_t n, codec_error *err) {
  canvas c;
  df_item *it;
  size_t pos;
  int ok;
  if (i >= m->num_images) return codec_fail_arg(err, "image %zu: out of range (map has %zu images)", i, m->num_images);
  pos = m->image_items[i];
  if (!(it = item_with_field(m, pos, IM_DATA, "image", i, err))) return 0;
  if (it->ints[IM_VERSION] >= 2 && !item_with_field(m, pos, IM_FORMAT, "image", i, err)) return 0;
  if (!canvas_png_decode(png, n, &c, err)) return codec_prefix(err, "image %zu: png: ", i);
  ok = item_blob_put(m, pos, IM_DATA, c.px, (size_t)c.w * (size_t)c.h * 4, "image", i, err);
  if (ok) {
    it = &m->df->items[pos];
    it->ints[IM_WIDTH] = c.w;
    it->ints[IM_HEIGHT] = c.h;
    it->ints[IM_EXTERNAL] = 0;
    if (it->ints[IM_VERSION] >= 2) it->ints[IM_FORMAT] = 1; /* RGBA */
  }
  canvas_free(&c);
  return ok;
}

int tw_image_make_external(tw_map *m, size_t i, codec_error *err) {
  static const unsigned char placeholder[1] = {0};
  df_item *it;
  int32_t idx;
  if (i >= m->num_images) return codec_fail_arg(err, "image %zu: out of range (map has %zu images)", i, m->num_images);
  if (!(it = item_with_field(m, m->image_items[i], IM_DATA, "image", i, err))) return 0;
  idx = it->ints[IM_DATA];
  if (idx >= 0 && (size_t)idx < m->df->num_data && !df_data_set(m->df, (size_t)idx, placeholder, 1))
    return codec_fail_oom(err, "image %zu: out of memory", i);
  it->ints[IM_EXTERNAL] = 1;
  it->ints[IM_DATA] = -1;
  return 1;
}

/* tw_sound_data: inflated into the caller's buffer (df_data_copy), so the
** map keeps the bytes compressed; opus bytes barely compress, so caching
** them would hold a second copy of about the stored size. */
int tw_sound_data(tw_map *m, size_t s, unsigned char **data, size_t *size, codec_error *err) {
  tw_sound_info so;
  *data = NULL;
  *size = 0;
  if (!tw_sound_get(m, s, &so, err)) return 0;
  if (so.data_index < 0) return 1;
  if (!df_data_copy(m->df, (size_t)so.data_index, data, size, err)) return codec_prefix(err, "sound %zu: data: ", s);
  return 1;
}

int tw_sound_set_data(tw_map *m, size_t s, const unsigned char *data, size_t n, codec_error *err) {
  df_item *it;
  size_t pos;
  if (s >= m->num_sounds) return codec_fail_arg(err, "sound %zu: out of range (map has %zu sounds)", s, m->num_sounds);
  if (n == 0 || n > INT32_MAX) return codec_fail_arg(err, "sound %zu: data of %zu bytes (1 byte to 2 GiB)", s, n);
  pos = m->sound_items[s];
  if (!item_with_field(m, pos, SN_DATA_SIZE, "sound", s, err)) return 0;
  if (!item_blob_put(m, pos, SN_DATA, data, n, "sound", s, err)) return 0;
  it = &m->df->items[pos];
  it->ints[SN_DATA_SIZE] = (int32_t)n;
  it->ints[SN_EXTERNAL] = 0;
  return 1;
}

int tw_sound_set_name(tw_map *m, size_t s, const char *name, size_t len, codec_error *err) {
  unsigned char *buf;
  int ok;
  if (s >= m->num_sounds) return codec_fail_arg(err, "sound %zu: out of range (map has %zu sounds)", s, m->num_sounds);
  if (memchr(name, 0, len)) return codec_fail_arg(err, "sound %zu: name contains a NUL byte", s);
  if (!(buf = (unsigned char *)malloc(len + 1))) return codec_fail_oom(err, "sound %zu: out of memory", s);
  memcpy(buf, name, len);
  buf[len] = 0;
  ok = item_blob_put(m, m->sound_items[s], SN_NAME, buf, len + 1, "sound", s, err);
  free(buf);
  return ok;
}

/* ---- a row's worth of changes ---------------------------------------------------------- */

/* Whether name[0..len) differs from the name the item has (NULL: none). */
static int name_differs(const char *now, size_t now_len, const char *name, size_t len) {
  return name && !(now && now_len == len && memcmp(now, name, len) == 0);
}

/* Whether png[0..n) is exactly the PNG image i reads as: embedding it again
** would re-encode the pixels (another format or stride in the file), so it
** is no change. */
static int png_is_current(tw_map *m, size_t i, const unsigned char *png, size_t n) {
  unsigned char *cur = NULL;
  size_t cur_n = 0;
  codec_error e;
  int same = tw_image_png(m, i, &cur, &cur_n, &e) && cur_n == n && memcmp(cur, png, n) == 0;
  free(cur);
  return same;
}

int tw_image_update(tw_map *m, size_t i, int external, int external_given, const unsigned char *png, size_t png_n,
                    const char *name, size_t name_len, const char **field, codec_error *err) {
  tw_image_info im;
  int rename;
  *field = "name";
  if (!tw_image_get(m, i, &im, err)) return 0;
  rename = name_differs(im.name.p, im.name.n, name, name_len); /* before the pixels may move the blobs */
  *field = "external";
  if (png && external && external_given)
    return codec_fail_arg(err, "an image given a png is embedded; set external = 0 or leave it");
  if (!png && !external && im.external)
    return codec_fail_arg(err, "embedding an image needs its pixels: set png too, e.g. SET external = 0, png = "
                               "readfile('mapres/' || name || '.png')");
  if (png && (im.external || !png_is_current(m, i, png, png_n))) {
    *field = "png";
    if (!tw_image_embed_png(m, i, png, png_n, err)) return 0;
  }
  if (!png && external && !im.external && !tw_image_make_external(m, i, err)) return 0;
  *field = "name";
  return !rename || tw_image_set_name(m, i, name, name_len, err);
}

int tw_sound_update(tw_map *m, size_t s, const unsigned char *data, size_t n, const char *name, size_t name_len,
                    const char **field, codec_error *err) {
  tw_sound_info so;
  int rename;
  *field = "name";
  if (!tw_sound_get(m, s, &so, err)) return 0;
  rename = name_differs(so.name.p, so.name.n, name, name_len); /* before new bytes may move the blobs */
  *field = "data";
  if (data && !tw_sound_set_data(m, s, data, n, err)) return 0;
  *field = "name";
  return !rename || tw_sound_set_name(m, s, name, name_len, err);
}
