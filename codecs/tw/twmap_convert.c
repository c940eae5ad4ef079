/*
** twmap_convert.c: converting a map between the Teeworlds 0.7 and the
** DDNet dialects (tw_map_convert, see twmap.h and NOTES-tw.md).
**
** Kept apart from twmap.c because it is a structural edit: it rewrites
** item layouts (lengths and versions) and re-encodes layers and pixels,
** where twmap.c only edits values in place.
**
** What changes, and only that (everything else stays as read):
** - to 0.7: tilemap items become version 4 of 18 ints (DDNet's five extra
**   indices dropped, a 0.5 item gets an empty name) and their tiles are
**   skip-compressed; image items become version 2 with format 1 (RGBA,
**   which version-1 pixels are); an info item loses its (empty) settings
**   field.  This is what the Teeworlds 0.7 editor writes (the v07_* corpus
**   maps).  A map with anything 0.7 cannot hold is refused, naming it.
** - to ddnet: tilemap items become version 3 of 23 ints (-1 in the five
**   indices, an empty name for a 0.5 item) with raw tiles; image items
**   become version 1 (RGB pixels expanded to RGBA, the only format
**   version 1 has); envelopes of version 3 become version 2, their 22-int
**   points 6-int ones, with the tangents in DDNet's bezier item.
*/
#include <stdlib.h>
#include <string.h>

#include "tw/twmap.h"

/* Tilemap item int positions (see twmap.c). */
enum { CV_TYPE = 1, CV_VERSION = 3, CV_NAME = 15, CV_07_INTS = 18, CV_DDNET_INTS = 23 };
/* Image item int positions. */
enum { CV_IMG_VERSION = 0, CV_IMG_W = 1, CV_IMG_H = 2, CV_IMG_EXTERNAL = 3, CV_IMG_DATA = 5, CV_IMG_FORMAT = 6 };
/* Envelope item version position. */
enum { CV_ENV_VERSION = 0 };

/* An empty 3-int I32 string (each byte stored plus 128, the last forced 0). */
static const int32_t EMPTY_NAME[3] = {(int32_t)0x80808080u, (int32_t)0x80808080u, (int32_t)0x80808000u};

/* UUID of "mapitemtype-envpoints-bezier@ddnet.tw" (as in twmap.c). */
static const unsigned char CV_UUID_BEZIER[16] = {0x3a, 0xb4, 0xf8, 0x4d, 0xd9, 0xcc, 0x3c, 0x78,
                                                 0xb5, 0x85, 0x0d, 0x6c, 0xcd, 0xb2, 0xe2, 0x5c};

/* Field k of an item, or dflt. */
static int32_t cv_ival(const df_item *it, size_t k, int32_t dflt) { return k < it->num_ints ? it->ints[k] : dflt; }

/* Names the first thing a 0.7 map cannot hold (NULL if none): a layer
** kind (one word, *where its layer_index) of DDNet's physics layers or
** sound layers, or sounds, server settings, and DDNet UUID items other
** than the bezier tangents (which envelopes_to_07 folds into the points). */
static const char *ddnet_only(tw_map *m, size_t *where, codec_error *err, int *failed) {
  size_t i;
  const char *s;
  size_t n;
  *failed = 0;
  for (i = 0; i < m->num_layers; i++) {
    tw_kind k = m->layers[i].kind;
    *where = i;
    if ((k >= TW_KIND_FRONT && k <= TW_KIND_TUNE) || k == TW_KIND_SOUNDS || k == TW_KIND_SOUNDS_DEPRECATED)
      return tw_kind_name(k); /* "front", ..., "sounds" */
  }
  *where = 0;
  if (m->num_sounds) return "sounds";
  if (!tw_info_get(m, TW_INFO_SETTINGS, &s, &n, err)) {
    *failed = 1;
    return NULL;
  }
  if (n) return "server settings";
  for (i = 0; i < m->df->num_items; i++) {
    const df_item *it = &m->df->items[i];
    long bt = m->bezier_item >= 0 ? (long)m->df->items[m->bezier_item].type : -1;
    if (it->type == DF_ITEMTYPE_EX ? (long)it->id != bt : (it->type >= DF_UUID_TYPE_MIN && (long)i != m->bezier_item))
      return "DDNet UUID items (editor data such as automapper configs or group zoom)";
  }
  return NULL;
}

/* Removes item `pos` from the datafile and moves every item position the
** map keeps above it down by one. */
static void drop_item(tw_map *m, size_t pos) {
  datafile *df = m->df;
  size_t i;
  free(df->items[pos].ints);
  memmove(df->items + pos, df->items + pos + 1, (df->num_items - pos - 1) * sizeof *df->items);
  df->num_items--;
#define CV_SHIFT(x) \
  do { \
    if ((x) > pos) (x)--; \
  } while (0)
  for (i = 0; i < m->num_layers; i++) CV_SHIFT(m->layers[i].item);
  for (i = 0; i < m->num_groups; i++) CV_SHIFT(m->group_items[i]);
  for (i = 0; i < m->num_images; i++) CV_SHIFT(m->image_items[i]);
  for (i = 0; i < m->num_envelopes; i++) CV_SHIFT(m->env_items[i]);
  for (i = 0; i < m->num_sounds; i++) CV_SHIFT(m->sound_items[i]);
#undef CV_SHIFT
  if (m->info_item > (long)pos) m->info_item--;
  if (m->envpoints_item > (long)pos) m->envpoints_item--;
  if (m->bezier_item > (long)pos) m->bezier_item--;
}

/* DDNet's tangents (the bezier item, 16 ints a point, parallel to the
** points item) become 0.7's 22-int points, every envelope version 3, and
** the bezier item and its UUID index item go.  A bezier item that does not
** match the points item (which DDNet ignores) is dropped with no tangents. */
static int envelopes_to_07(tw_map *m, codec_error *err) {
  const df_item *pi, *bz;
  int32_t *pts;
  size_t n, i;
  long ex;
  if (m->bezier_item < 0) return 1;
  bz = &m->df->items[m->bezier_item];
  if (m->envpoints_item >= 0 && m->point_ints == 6) {
    pi = &m->df->items[m->envpoints_item];
    n = pi->num_ints / 6;
    pts = (int32_t *)calloc(n ? n * 22 : 1, 4);
    if (!pts) return codec_fail_oom(err, "map: out of memory converting envelopes");
    for (i = 0; i < n; i++) {
      memcpy(pts + i * 22, pi->ints + i * 6, 6 * 4);
      if (bz->num_ints == n * 16) memcpy(pts + i * 22 + 6, bz->ints + i * 16, 16 * 4);
    }
    if (!df_item_set(m->df, (size_t)m->envpoints_item, pts, n * 22)) {
      free(pts);
      return codec_fail_oom(err, "map: out of memory converting envelopes");
    }
    free(pts);
    m->point_ints = 22;
    for (i = 0; i < m->num_envelopes; i++) {
      df_item *e = &m->df->items[m->env_items[i]];
      int32_t v[13] = {0};
      if (e->num_ints >= 13) {
        e->ints[CV_ENV_VERSION] = 3;
        continue;
      }
      memcpy(v, e->ints, e->num_ints * 4); /* a version-1 item lacks the sync field */
      v[CV_ENV_VERSION] = 3;
      if (!df_item_set(m->df, m->env_items[i], v, 13)) return codec_fail_oom(err, "map: out of memory converting envelopes");
    }
  }
  {
    size_t bpos = (size_t)m->bezier_item;
    ex = df_find_item(m->df, DF_ITEMTYPE_EX, m->df->items[bpos].type);
    drop_item(m, bpos);
    m->bezier_item = -1;
    if (ex >= 0) drop_item(m, (size_t)ex > bpos ? (size_t)ex - 1 : (size_t)ex);
  }
  return 1;
}

/* Rewrites tilemap item l to `ints` ints at `version`: the first 15 ints
** kept, the name kept from a version-3+ item (else empty); for DDNet's
** 23 ints the five physics indices are kept from wherever the old item had
** them (-1 where it had none), so a physics layer keeps its data. */
static int relayout_tilemap(tw_map *m, size_t l, int version, size_t ints, codec_error *err) {
  const df_item *it = &m->df->items[m->layers[l].item];
  int32_t buf[CV_DDNET_INTS];
  size_t k;
  for (k = 0; k < ints; k++) buf[k] = k < 15 ? it->ints[k] : -1;
  if (cv_ival(it, CV_VERSION, 0) >= 3 && it->num_ints >= CV_07_INTS)
    memcpy(buf + CV_NAME, it->ints + CV_NAME, sizeof EMPTY_NAME);
  else
    memcpy(buf + CV_NAME, EMPTY_NAME, sizeof EMPTY_NAME);
  if (ints == CV_DDNET_INTS) { /* where ddnet_base (twmap.c) finds them: after the name, or in 2010 right after data */
    size_t from = cv_ival(it, CV_VERSION, 0) <= 2 ? CV_NAME : CV_07_INTS;
    for (k = 0; k < 5; k++) buf[CV_07_INTS + k] = cv_ival(it, from + k, -1);
  }
  buf[CV_VERSION] = version;
  if (!df_item_set(m->df, m->layers[l].item, buf, ints))
    return codec_fail_oom(err, "layer %zu: out of memory", l);
  return 1;
}

/* Converts every tilemap layer: decodes its cells, switches skip
** compression, marks it dirty (tw_map_serialize re-encodes) and rewrites
** the item. */
static int convert_tilemaps(tw_map *m, tw_style to, codec_error *err) {
  size_t l;
  for (l = 0; l < m->num_layers; l++) /* every layer decodes before any changes */
    if (m->layers[l].kind <= TW_KIND_TUNE && !tw_layer_load(m, l, err)) return 0;
  for (l = 0; l < m->num_layers; l++) {
    tw_layer *L = &m->layers[l];
    if (L->kind > TW_KIND_TUNE) continue;
    if (to == TW_STYLE_07) {
      if (!relayout_tilemap(m, l, 4, CV_07_INTS, err)) return 0;
      L->skip_compressed = 1; /* only tiles and game layers reach here */
    } else {
      if (!relayout_tilemap(m, l, 3, CV_DDNET_INTS, err)) return 0;
      L->skip_compressed = 0;
    }
    L->dirty = 1;
  }
  return 1;
}

/* Image items: 0.7 adds the format (1, RGBA: version-1 pixels are RGBA);
** DDNet's version 1 has none, so embedded RGB pixels become RGBA (alpha
** 255) first. */
static int convert_images(tw_map *m, tw_style to, codec_error *err) {
  size_t i;
  for (i = 0; i < m->num_images; i++) {
    size_t pos = m->image_items[i];
    const df_item *it = &m->df->items[pos];
    int32_t buf[7];
    size_t k;
    if (it->num_ints < 6)
      return codec_fail(err, "item type 2 id %u (image %zu): item has %zu ints, an image needs 6", it->id, i,
                        it->num_ints);
    for (k = 0; k < 6; k++) buf[k] = it->ints[k];
    if (to == TW_STYLE_07) {
      if (cv_ival(it, CV_IMG_VERSION, 0) >= 2) continue;
      buf[CV_IMG_VERSION] = 2;
      buf[CV_IMG_FORMAT] = 1;
      if (!df_item_set(m->df, pos, buf, 7)) return codec_fail_oom(err, "image %zu: out of memory", i);
      continue;
    }
    if (cv_ival(it, CV_IMG_VERSION, 0) < 2) continue;
    if (!it->ints[CV_IMG_EXTERNAL] && cv_ival(it, CV_IMG_FORMAT, 1) == 0) {
      const unsigned char *px;
      unsigned char *rgba;
      size_t n, cells, p;
      int32_t w = it->ints[CV_IMG_W], h = it->ints[CV_IMG_H], d = it->ints[CV_IMG_DATA];
      if (w <= 0 || h <= 0 || d < 0 || (size_t)w > SIZE_MAX / 4 / (size_t)h)
        return codec_fail(err, "item type 2 id %u (image %zu): bad RGB image %d x %d, data %d", it->id, i, (int)w,
                          (int)h, (int)d);
      cells = (size_t)w * (size_t)h;
      if (!df_data_get(m->df, (size_t)d, &px, &n, err))
        return codec_prefix(err, "item type 2 id %u (image %zu): ", it->id, i);
      if (n != cells * 3)
        return codec_fail(err, "item type 2 id %u (image %zu): data %d: %zu bytes, an RGB %d x %d image needs %zu",
                          it->id, i, (int)d, n, (int)w, (int)h, cells * 3);
      rgba = (unsigned char *)malloc(cells * 4);
      if (!rgba) return codec_fail_oom(err, "image %zu: out of memory", i);
      for (p = 0; p < cells; p++) {
        memcpy(rgba + p * 4, px + p * 3, 3);
        rgba[p * 4 + 3] = 255;
      }
      k = (size_t)df_data_set(m->df, (size_t)d, rgba, cells * 4);
      free(rgba);
      if (!k) return codec_fail_oom(err, "image %zu: out of memory", i);
      it = &m->df->items[pos];
    }
    buf[CV_IMG_VERSION] = 1;
    if (!df_item_set(m->df, pos, buf, 6)) return codec_fail_oom(err, "image %zu: out of memory", i);
  }
  return 1;
}

/* 0.7's version-3 envelopes (22-int points with tangents) become DDNet's
** version 2 (6-int points) plus the bezier item (16 ints a point) under
** its UUID, as DDNet writes them. */
static int envelopes_to_ddnet(tw_map *m, codec_error *err) {
  const df_item *pi;
  int32_t *pts = NULL, *bez = NULL, uuid[4];
  size_t n, i, k;
  long type, pos;
  if (m->point_ints != 22) return 1;
  if (m->envpoints_item < 0) { /* version-3 envelopes without any point */
    for (i = 0; i < m->num_envelopes; i++) {
      df_item *e = &m->df->items[m->env_items[i]];
      if (cv_ival(e, CV_ENV_VERSION, 0) >= 3) e->ints[CV_ENV_VERSION] = 2;
    }
    m->point_ints = 6;
    return 1;
  }
  pi = &m->df->items[m->envpoints_item];
  n = pi->num_ints / 22;
  pts = (int32_t *)malloc((n ? n : 1) * 6 * 4);
  bez = (int32_t *)malloc((n ? n : 1) * 16 * 4);
  if (!pts || !bez) goto oom;
  for (i = 0; i < n; i++) {
    memcpy(pts + i * 6, pi->ints + i * 22, 6 * 4);
    memcpy(bez + i * 16, pi->ints + i * 22 + 6, 16 * 4);
  }
  for (i = 0; i < m->num_envelopes; i++) {
    df_item *e = &m->df->items[m->env_items[i]];
    if (cv_ival(e, CV_ENV_VERSION, 0) >= 3) e->ints[CV_ENV_VERSION] = 2;
  }
  /* a fresh internal type for the UUID (df_write renumbers them anyway) */
  for (type = 0xFFFE; type >= (long)DF_UUID_TYPE_MIN; type--)
    if (df_type_count(m->df, (uint32_t)type) == 0 && df_find_item(m->df, DF_ITEMTYPE_EX, (uint32_t)type) < 0) break;
  if (type < (long)DF_UUID_TYPE_MIN) {
    free(pts);
    free(bez);
    return codec_fail_limit(err, "map: no free item type for DDNet's bezier item");
  }
  for (k = 0; k < 4; k++)
    uuid[k] = (int32_t)(((uint32_t)CV_UUID_BEZIER[k * 4] << 24) | ((uint32_t)CV_UUID_BEZIER[k * 4 + 1] << 16) |
                        ((uint32_t)CV_UUID_BEZIER[k * 4 + 2] << 8) | (uint32_t)CV_UUID_BEZIER[k * 4 + 3]);
  if (!df_item_set(m->df, (size_t)m->envpoints_item, pts, n * 6)) goto oom;
  m->point_ints = 6;
  if (df_item_add(m->df, DF_ITEMTYPE_EX, (uint32_t)type, uuid, 4) < 0) goto oom;
  pos = df_item_add(m->df, (uint32_t)type, 0, bez, n * 16);
  if (pos < 0) goto oom;
  m->bezier_item = pos;
  free(pts);
  free(bez);
  return 1;
oom:
  free(pts);
  free(bez);
  return codec_fail_oom(err, "map: out of memory converting envelopes");
}

/* Drops the info item's settings field when it names no settings (0.7's
** info item has 5 ints). */
static int info_to_07(tw_map *m, codec_error *err) {
  const df_item *it;
  if (m->info_item < 0) return 1;
  it = &m->df->items[m->info_item];
  if (it->num_ints <= 5) return 1;
  if (!df_item_set(m->df, (size_t)m->info_item, it->ints, 5)) return codec_fail_oom(err, "map info: out of memory");
  return 1;
}

int tw_map_convert(tw_map *m, tw_style to, codec_error *err) {
  if (to == m->style) return 1;
  if (to == TW_STYLE_07) {
    size_t where;
    int failed;
    const char *what = ddnet_only(m, &where, err, &failed);
    if (failed) return 0;
    if (what && !strchr(what, ' '))
      return codec_fail_arg(err, "map: Teeworlds 0.7 has no %s layers (layer_index %zu is one); remove it first to "
                                 "convert to '0.7'", what, where);
    if (what) return codec_fail_arg(err, "map: Teeworlds 0.7 cannot hold %s; remove them first to convert to '0.7'", what);
    if (!convert_tilemaps(m, to, err) || !convert_images(m, to, err) || !info_to_07(m, err) ||
        !envelopes_to_07(m, err))
      return 0;
  } else if (to == TW_STYLE_DDNET) {
    if (!convert_tilemaps(m, to, err) || !convert_images(m, to, err) || !envelopes_to_ddnet(m, err)) return 0;
  } else {
    return codec_fail_arg(err, "map: converting to '%s' is not supported (only to '0.7' and 'ddnet')",
                          tw_style_name(to));
  }
  m->style = to;
  return 1;
}
