/*
** twmap_resize.c: resizing tilemap layers, the way DDNet's editor does
** (CLayerTiles::Resize): the cells are anchored at the top-left corner,
** cells beyond the new size are dropped, new cells are empty (all bytes
** 0), and resizing the game layer resizes every physics layer (front,
** tele, speedup, switch, tune) with it, since the game reads those at the
** game layer's size.  See twmap.h (tw_layer_resize) and NOTES-tw.md.
**
** Kept apart from twmap.c because it is a structural edit: it changes a
** layer's geometry (the item's width and height, the decoded cells, the
** layer's count) rather than one value in place.
*/
#include <stdlib.h>
#include <string.h>

#include "tw/twmap.h"

/* Tilemap item int positions this file writes or reads (the layout is
** described in twmap.c; classify_layer guarantees at least 15 ints). */
enum { RS_WIDTH = 4, RS_HEIGHT = 5, RS_DATA = 14 };

/* Largest layer in cells: the cap classify_layer applies when parsing, so
** that a resized map parses again. */
#define RS_MAX_CELLS (512u * 1024u * 1024u / 8u)

/* A physics layer: sized like the game layer by the game. */
static int is_physics(tw_kind k) { return k >= TW_KIND_FRONT && k <= TW_KIND_TUNE; }

/* Copies an old_w x old_h grid of `cell`-byte cells into a new zeroed
** new_w x new_h grid, anchored top-left.  Returns the malloc'd grid (at
** least 1 byte) or NULL when memory runs out. */
static unsigned char *regrid(const unsigned char *old, int old_w, int old_h, size_t cell, int new_w, int new_h) {
  size_t bytes = (size_t)new_w * (size_t)new_h * cell;
  unsigned char *p = (unsigned char *)calloc(bytes ? bytes : 1, 1);
  int y, keep_w = old_w < new_w ? old_w : new_w, keep_h = old_h < new_h ? old_h : new_h;
  if (!p) return NULL;
  for (y = 0; y < keep_h; y++)
    memcpy(p + (size_t)y * (size_t)new_w * cell, old + (size_t)y * (size_t)old_w * cell, (size_t)keep_w * cell);
  return p;
}

/* One layer's pending resize: its new cells, and for a physics layer the
** new main "data" blob (the zeroed Tile array vanilla clients read),
** both built before anything in the map changes. */
typedef struct rs_plan {
  size_t layer;
  unsigned char *cells;
  long main_index;           /* -1: none to resize (tiles/game, or shared and done by another) */
  unsigned char *main_bytes; /* new main blob, new_w * new_h * 4 bytes */
} rs_plan;

/* Whether blob `idx` is already planned as the main blob of an earlier
** plan (two layers naming one blob: it is resized once). */
static int main_planned(const rs_plan *plans, size_t n, long idx) {
  size_t i;
  for (i = 0; i < n; i++)
    if (plans[i].main_index == idx) return 1;
  return 0;
}

/* Builds the plan for layer l (loading its cells).  A physics layer's
** main blob must hold exactly old width x height Tiles (as every writer
** stores it); anything else is refused rather than guessed at. */
static int plan_layer(tw_map *m, size_t l, int w, int h, rs_plan *plans, size_t n, codec_error *err) {
  tw_layer *L = &m->layers[l];
  const df_item *it = &m->df->items[L->item];
  rs_plan *p = &plans[n];
  p->layer = l;
  p->cells = NULL;
  p->main_index = -1;
  p->main_bytes = NULL;
  if (!tw_layer_load(m, l, err)) return 0;
  if (!(p->cells = regrid(L->cells, L->width, L->height, L->cell_size, w, h)))
    return codec_fail_oom(err, "layer %zu: out of memory", l);
  if (is_physics(L->kind)) {
    int32_t idx = it->ints[RS_DATA];
    const unsigned char *d;
    size_t dn;
    if (idx < 0 || idx == tw_layer_data_index(m, l) || main_planned(plans, n, idx)) return 1;
    if ((size_t)idx >= m->df->num_data)
      return codec_fail(err, "item type 5 id %u (layer %zu, %s): byte offset %d: data index %d out of range", it->id,
                        l, tw_kind_name(L->kind), RS_DATA * 4, (int)idx);
    if (!df_data_get(m->df, (size_t)idx, &d, &dn, err))
      return codec_prefix(err, "item type 5 id %u (layer %zu, %s): tile data: ", it->id, l, tw_kind_name(L->kind));
    if (dn != L->count * 4)
      return codec_fail(err, "item type 5 id %u (layer %zu, %s): data %d: tile data holds %zu bytes, not %d x %d "
                             "tiles; cannot resize it", it->id, l, tw_kind_name(L->kind), (int)idx, dn, L->width,
                        L->height);
    p->main_index = idx;
    if (!(p->main_bytes = regrid(d, L->width, L->height, 4, w, h)))
      return codec_fail_oom(err, "layer %zu: out of memory", l);
  }
  return 1;
}

/* Frees what the plans hold. */
static void free_plans(rs_plan *plans, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    free(plans[i].cells);
    free(plans[i].main_bytes);
  }
  free(plans);
}

/* tw_layer_resize: plans every affected layer first (loading cells,
** checking main blobs, allocating), then applies: main blobs, then the
** cells, width, height and count of each layer.  A failure before the
** apply step leaves the map as it was. */
int tw_layer_resize(tw_map *m, size_t l, int width, int height, codec_error *err) {
  tw_layer *L;
  rs_plan *plans;
  size_t n = 0, i, cells;
  long game = -1;
  if (l >= m->num_layers) return codec_fail_arg(err, "layer %zu: out of range (map has %zu layers)", l, m->num_layers);
  L = &m->layers[l];
  if (L->kind > TW_KIND_TUNE)
    return codec_fail_arg(err, "layer %zu: a %s layer has no width and height", l, tw_kind_name(L->kind));
  if (width < 1 || height < 1 || (size_t)width * (size_t)height > RS_MAX_CELLS)
    return codec_fail_arg(err, "layer %zu: size %d x %d: width and height must be at least 1 and the layer at most "
                               "%u cells", l, width, height, RS_MAX_CELLS);
  cells = (size_t)width * (size_t)height;
  if (width == L->width && height == L->height) return 1;
  if (is_physics(L->kind)) {
    for (i = 0; i < m->num_layers && game < 0; i++)
      if (m->layers[i].kind == TW_KIND_GAME) game = (long)i;
    if (game >= 0)
      return codec_fail_arg(err, "layer %zu: a %s layer is sized like the game layer: resize the game layer "
                                 "(layer_index %ld) and it follows", l, tw_kind_name(L->kind), game);
  }
  plans = (rs_plan *)calloc(m->num_layers ? m->num_layers : 1, sizeof *plans);
  if (!plans) return codec_fail_oom(err, "layer %zu: out of memory", l);
  for (i = 0; i < m->num_layers; i++) {
    tw_kind k = m->layers[i].kind;
    if (i != l && !(L->kind == TW_KIND_GAME && is_physics(k))) continue;
    if (!plan_layer(m, i, width, height, plans, n, err)) {
      free_plans(plans, n + 1);
      return 0;
    }
    n++;
  }
  for (i = 0; i < n; i++) {
    if (plans[i].main_bytes && !df_data_set(m->df, (size_t)plans[i].main_index, plans[i].main_bytes, cells * 4)) {
      free_plans(plans, n);
      return codec_fail_oom(err, "layer %zu: out of memory", plans[i].layer);
    }
  }
  for (i = 0; i < n; i++) {
    tw_layer *P = &m->layers[plans[i].layer];
    df_item *it = &m->df->items[P->item];
    int count_changed = P->count != cells;
    free(P->cells);
    P->cells = plans[i].cells;
    plans[i].cells = NULL;
    P->cells_size = cells * P->cell_size;
    P->count = cells;
    if (count_changed) tw_keys_layer_resized(m, plans[i].layer);
    P->width = width;
    P->height = height;
    P->dirty = 1;
    it->ints[RS_WIDTH] = width;
    it->ints[RS_HEIGHT] = height;
  }
  free_plans(plans, n);
  return 1;
}
