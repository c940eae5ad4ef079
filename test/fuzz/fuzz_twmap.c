/*
** fuzz_twmap.c: libFuzzer harness for the map model.
**
** For every input: tw_map_parse; a refusal must carry CODEC_E_FORMAT,
** _LIMIT or _MEMORY.  When that succeeds, decode everything the
** SQL tables show (every tilemap layer, whose first 1024 tiles and last
** row are read; quads, images, envelopes and their points (written back
** as tw_envelopes writes them), sounds, info;
** the cells decoded must not exceed what tw_map_decoded_claim says),
** edit one tile of each layer that loaded, drop what was decoded
** (tw_map_shed) and do it all again (reading the first and last rows of
** tiles), resize one tilemap layer
** chosen by the input (tw_layer_resize: the game layer takes its physics
** layers along; a refusal must be CODEC_E_ARG or a damaged layer's
** CODEC_E_FORMAT), serialize (must succeed) and parse the output (must
** succeed, with the same number of layers and every layer's size, and the
** edited tiles, kept by the top-left anchored resize, must read back).
** Then, on a clone of the fresh parse, structural edits
** (twmap_edit.h) chosen by the input's bytes: groups, layers of every
** kind, quads, sound sources, envelopes, images and sounds added and
** removed; each may refuse (never with a crash), and whatever they did must
** serialize and parse again with the same counts.
** Blobs (twmap_blobs.c): on a clone of the fresh parse, the PNG of the first small
** embedded image is embedded into another image, a third image whose
** pixels are in another blob is made external, and sound 0 gets the input's
** tail as bytes; serialize, parse, and the embedded PNG, the external image
** and the sound bytes must read back.  Inputs that are no map but start
** like a PNG go to the PNG decoder as untrusted bytes: refused with a
** format or limit error, never a crash.
** Convert (twmap_convert.c): on a clone of the fresh parse, to '0.7' or 'ddnet' (the
** input's first byte); a refusal must be ARG, FORMAT, LIMIT or MEMORY; a
** conversion must serialize, parse again with that style (when the map has
** a tilemap layer) and the same layer sizes.
** A map whose layers claim more decoded bytes than FUZZ_MAX_DECODED_BYTES
** (fuzz_budget.h: a decompression bomb such as run.sh's amplify_07.map)
** is only parsed, as the engine refuses it before decoding.
** Any inconsistency calls abort(), which libFuzzer reports as a crash.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/canvas.h"
#include "fuzz_budget.h"
#include "tw/twmap.h"
#include "tw/twmap_edit.h"
#include "tw/twmap_blobs.h"

/* Pixel bytes of the largest image whose PNG the harness encodes (keeps
** each run fast). */
#define FUZZ_MAX_PIXEL_BYTES 65536

/* Reports an inconsistency and aborts so libFuzzer keeps the input. */
static void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_twmap: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* Cells of a layer read in full by touch (more: the first FUZZ_TOUCH_CELLS
** and the last row); tile_get per cell took a third of a run. */
#define FUZZ_TOUCH_CELLS 1024

/* Reads everything (the cells of every tilemap layer, see FUZZ_TOUCH_CELLS,
** when all_cells, else only their first and last rows: after tw_map_shed
** the layers are decoded again); edits tile (0,0) of every loadable
** tilemap layer. */
static void touch(tw_map *m, int all_cells) {
  codec_error e;
  size_t i, k;
  for (i = 0; i < m->num_groups; i++) {
    tw_group_info g;
    tw_group_get(m, i, &g, &e);
  }
  for (i = 0; i < m->num_layers; i++) {
    tw_layer_info li;
    if (!tw_layer_get(m, i, &li, &e)) fuzz_fail("layer_get failed", e.msg);
    if (li.kind <= TW_KIND_TUNE) {
      int x, y;
      tw_tile t;
      if (!tw_layer_load(m, i, &e)) continue;
      for (y = 0; y < li.height; y++) {
        int edge = y == 0 || y + 1 == li.height;
        size_t row = (size_t)y * (size_t)li.width;
        if (!edge && !(all_cells && row < FUZZ_TOUCH_CELLS)) continue;
        for (x = 0; x < li.width && (edge || row + (size_t)x < FUZZ_TOUCH_CELLS); x++)
          if (!tw_tile_get(m, i, x, y, &t, &e)) fuzz_fail("tile_get on a loaded layer failed", e.msg);
      }
      tw_tile_get(m, i, 0, 0, &t, &e);
      t.id = (t.id + 1) & 0xFF;
      if (!tw_tile_set(m, i, 0, 0, &t, &e)) fuzz_fail("tile_set failed", e.msg);
    } else if (li.kind == TW_KIND_QUADS) {
      tw_quad q;
      for (k = 0; k < m->layers[i].count; k++)
        if (!tw_quad_get(m, i, k, &q, &e)) break;
    }
  }
  for (i = 0; i < m->num_images; i++) {
    tw_image_info im;
    tw_image_get(m, i, &im, &e);
  }
  for (i = 0; i < m->num_envelopes; i++) {
    tw_envelope_info en;
    tw_env_point_shown *p = NULL;
    const char *field;
    size_t n;
    /* read and written back as a row of tw_envelopes is (the map's own
    ** points may be refused: times that decrease) */
    if (tw_envelope_get(m, i, &en, &e) && tw_envelope_points_shown(m, i, &p, &n, &e))
      tw_envelope_update(m, i, &en, p, n, 1, &field, &e);
    free(p);
  }
  for (i = 0; i < m->num_sounds; i++) {
    tw_sound_info s;
    tw_sound_get(m, i, &s, &e);
  }
  for (k = 0; k <= TW_INFO_SETTINGS; k++) {
    const char *s;
    size_t n;
    tw_info_get(m, (tw_info_field)k, &s, &n, &e);
  }
}

/* Resizes the tilemap layer the input's last bytes choose to a size they
** choose (1 to 64 each way), the way an UPDATE of tw_layers width and
** height does.  A map whose layers did not load may refuse. */
static void resize_one(tw_map *m, const uint8_t *data, size_t size) {
  codec_error e;
  size_t l;
  int w, h;
  if (!m->num_layers || size < 3) return;
  l = data[size - 1] % m->num_layers;
  if (m->layers[l].kind > TW_KIND_TUNE) return;
  w = data[size - 2] % 64 + 1;
  h = data[size - 3] % 64 + 1;
  if (tw_layer_resize(m, l, w, h, &e)) {
    if (m->layers[l].width != w || m->layers[l].height != h) fuzz_fail("resize did not take", NULL);
    return;
  }
  if (e.code != CODEC_E_ARG && e.code != CODEC_E_FORMAT && e.code != CODEC_E_MEMORY && e.code != CODEC_E_LIMIT)
    fuzz_fail("resize failed with the wrong code", e.msg);
}

/* Converts a clone of the fresh parse to the style the first byte picks, serializes,
** parses again: same layers and sizes, and that style whenever a tilemap
** layer carries it. */
static void convert_round_trip(const tw_map *parsed, const uint8_t *data, size_t size) {
  tw_map *m = tw_map_clone(parsed), *m2 = NULL;
  codec_error e;
  unsigned char *o = NULL;
  size_t n, l;
  int tilemaps = 0;
  tw_style to = size && (data[0] & 1) ? TW_STYLE_07 : TW_STYLE_DDNET;
  if (!m) return;
  if (!tw_map_convert(m, to, &e)) {
    if (e.code != CODEC_E_ARG && e.code != CODEC_E_FORMAT && e.code != CODEC_E_MEMORY && e.code != CODEC_E_LIMIT)
      fuzz_fail("convert failed with the wrong code", e.msg);
    tw_map_free(m);
    return;
  }
  if (!tw_map_serialize(m, 0, &o, &n, &e)) fuzz_fail("serialize after convert failed", e.msg);
  if (!tw_map_parse(o, n, &m2, &e)) fuzz_fail("re-parse after convert failed", e.msg);
  if (m2->num_layers != m->num_layers) fuzz_fail("convert changed the layer count", NULL);
  for (l = 0; l < m->num_layers; l++) {
    if (m2->layers[l].width != m->layers[l].width || m2->layers[l].height != m->layers[l].height)
      fuzz_fail("convert changed a layer size", NULL);
    if (m->layers[l].kind <= TW_KIND_TUNE) tilemaps = 1;
  }
  if (tilemaps && m2->style != to) fuzz_fail("converted map reads as another style", tw_style_name(m2->style));
  free(o);
  tw_map_free(m);
  tw_map_free(m2);
}

/* Structural edits steered by the input's bytes; refusals are fine, the
** result must write and read back with the same counts. */
static void edit_structure(const tw_map *parsed, const uint8_t *data, size_t size) {
  tw_map *m = tw_map_clone(parsed), *m2 = NULL;
  codec_error e;
  unsigned char *o = NULL;
  size_t n, l, step;
  if (!m) return;
  for (step = 0; step < 12; step++) {
    unsigned pick = size ? data[(step * 7919u) % size] : step;
    size_t g = m->num_groups ? pick % m->num_groups : 0;
    switch (step) {
      case 0: tw_group_insert(m, m->num_groups ? pick % (m->num_groups + 1) : 0, &e); break;
      case 1:
        if (m->num_groups) tw_layer_insert(m, g, 0, (tw_kind)(pick % (TW_KIND_SOUNDS + 1)), 0, 0, &l, &e);
        break;
      case 2:
        if (m->num_groups && tw_layer_insert(m, m->num_groups - 1, 0, TW_KIND_QUADS, 0, 0, &l, &e)) {
          tw_quad_insert(m, l, 0, &e);
          tw_quad_insert(m, l, pick & 1, &e);
          tw_quad_delete(m, l, 0, &e);
        }
        break;
      case 3:
        if (m->num_groups && tw_layer_insert(m, m->num_groups - 1, 0, TW_KIND_SOUNDS, 0, 0, &l, &e)) {
          tw_source source;
          tw_source_insert(m, l, 0, &e);
          if (tw_source_get(m, l, 0, &source, &e)) {
            source.shape = pick & 1;
            source.height = 77;
            tw_source_set(m, l, 0, &source, &e);
          }
        }
        break;
      case 4: tw_envelope_insert(m, (pick % 3 == 0) ? 1 : (pick % 3 == 1) ? 3 : 4, &e); break;
      case 5: tw_image_insert(m, "fuzz", 4, 64, 64, &e); break;
      case 6: tw_sound_insert(m, "fuzz", 4, &e); break;
      case 7: if (m->num_layers) tw_layer_delete(m, pick % m->num_layers, &e); break;
      case 8: if (m->num_envelopes) tw_envelope_delete(m, pick % m->num_envelopes, &e); break;
      case 9: if (m->num_images) tw_image_delete(m, pick % m->num_images, &e); break;
      case 10: if (m->num_sounds) tw_sound_delete(m, pick % m->num_sounds, &e); break;
      default: if (m->num_groups) tw_group_delete(m, g, &e); break;
    }
  }
  if (!tw_map_serialize(m, 0, &o, &n, &e)) fuzz_fail("serialize after structural edits failed", e.msg);
  if (!tw_map_parse(o, n, &m2, &e)) fuzz_fail("re-parse after structural edits failed", e.msg);
  if (m2->num_layers != m->num_layers || m2->num_groups != m->num_groups || m2->num_images != m->num_images ||
      m2->num_envelopes != m->num_envelopes || m2->num_sounds != m->num_sounds)
    fuzz_fail("counts changed after structural edits", NULL);
  for (l = 0; l < m->num_layers; l++)
    if (m2->layers[l].kind != m->layers[l].kind || m2->layers[l].count != m->layers[l].count ||
        m2->layers[l].group != m->layers[l].group)
      fuzz_fail("a layer changed after structural edits", NULL);
  free(o);
  tw_map_free(m);
  tw_map_free(m2);
}

/* The first embedded image of at most FUZZ_MAX_PIXEL_BYTES whose PNG
** encodes: its index and PNG (*png malloc'd), or -1. */
static long small_png(tw_map *m, unsigned char **png, size_t *n) {
  codec_error e;
  size_t i;
  for (i = 0; i < m->num_images; i++) {
    tw_image_info im;
    if (!tw_image_get(m, i, &im, &e) || im.external || im.data_index < 0 || im.data_size > FUZZ_MAX_PIXEL_BYTES) continue;
    if (tw_image_png(m, i, png, n, &e)) return (long)i;
    if (e.code != CODEC_E_FORMAT && e.code != CODEC_E_LIMIT && e.code != CODEC_E_MEMORY)
      fuzz_fail("image_png failed with the wrong code", e.msg);
  }
  return -1;
}

/* Clone of the fresh parse -> change blobs -> serialize -> parse (see the top of the file). */
static void blob_round_trip(const tw_map *parsed, const uint8_t *data, size_t size) {
  tw_map *m = tw_map_clone(parsed), *m2 = NULL;
  codec_error e;
  unsigned char *png = NULL, *out = NULL, *png2 = NULL;
  size_t n = 0, on = 0, n2 = 0, k;
  long src, dst = -1, ext = -1, dst_blob = -1;
  int sound_set = 0;
  if (!m) return;
  src = small_png(m, &png, &n);
  if (src >= 0 && m->num_images > 1) {
    tw_image_info im;
    dst = (src + 1) % (long)m->num_images;
    if (!tw_image_embed_png(m, (size_t)dst, png, n, &e)) dst = -1; /* an item too short for the fields */
    else if (tw_image_get(m, (size_t)dst, &im, &e)) dst_blob = im.data_index;
    else dst = -1; /* a damaged name: the image does not read, before or after */
    for (k = 0; dst >= 0 && k < m->num_images; k++) {
      if ((long)k == dst || !tw_image_get(m, k, &im, &e) || im.data_index == dst_blob) continue;
      if (tw_image_make_external(m, k, &e)) ext = (long)k;
      break;
    }
  }
  if (m->num_sounds > 0 && size > 1) {
    tw_sound_info so;
    if (tw_sound_get(m, 0, &so, &e) && (dst_blob < 0 || so.data_index != dst_blob))
      sound_set = tw_sound_set_data(m, 0, data + size / 2, size - size / 2, &e);
  }
  if (!tw_map_serialize(m, 0, &out, &on, &e)) fuzz_fail("serialize after blob edits failed", e.msg);
  if (!tw_map_parse(out, on, &m2, &e)) fuzz_fail("re-parse after blob edits failed", e.msg);
  if (dst >= 0 && (!tw_image_png(m2, (size_t)dst, &png2, &n2, &e) || n2 != n || memcmp(png, png2, n) != 0))
    fuzz_fail("embedded PNG not read back", e.msg);
  if (ext >= 0) {
    tw_image_info im;
    if (!tw_image_get(m2, (size_t)ext, &im, &e) || !im.external || im.data_index >= 0)
      fuzz_fail("externalised image not read back", e.msg);
  }
  if (sound_set) {
    unsigned char *d;
    size_t dn;
    if (!tw_sound_data(m2, 0, &d, &dn, &e) || dn != size - size / 2 || memcmp(d, data + size / 2, dn) != 0)
      fuzz_fail("sound bytes not read back", e.msg);
    free(d);
  }
  free(png);
  free(png2);
  free(out);
  tw_map_free(m);
  tw_map_free(m2);
}

/* Untrusted PNG bytes: decoded or refused as damaged / too large. */
static void png_decode(const uint8_t *data, size_t size) {
  canvas c;
  codec_error e;
  if (canvas_png_decode(data, size, &c, &e)) canvas_free(&c);
  else if (e.code != CODEC_E_FORMAT && e.code != CODEC_E_LIMIT && e.code != CODEC_E_MEMORY)
    fuzz_fail("png decode failed with the wrong code", e.msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  unsigned char *o = NULL;
  size_t n, i;
  codec_error_clear(&e);
  if (!tw_map_parse(data, size, &m, &e)) {
    /* bytes are refused as damaged or beyond a cap, never as an argument */
    if (e.code != CODEC_E_FORMAT && e.code != CODEC_E_LIMIT && e.code != CODEC_E_MEMORY)
      fuzz_fail("parse failed with the wrong code", e.msg);
    if (size >= 8 && memcmp(data, "\x89PNG", 4) == 0) png_decode(data, size);
    return 0;
  }
  if (fuzz_tw_over_budget(m)) {
    tw_map_free(m);
    return 0;
  }
  /* on clones of the fresh parse (parsing again would hash the file again) */
  blob_round_trip(m, data, size);
  edit_structure(m, data, size);
  convert_round_trip(m, data, size);
  touch(m, 1);
  {
    /* the cells decoded never exceed what the map claimed (the engine's
    ** levelsql_limit('decoded') rests on it) */
    codec_claim claim;
    uint64_t decoded = 0;
    codec_claim_init(&claim, UINT64_MAX);
    tw_map_decoded_claim(m, &claim);
    for (i = 0; i < m->num_layers; i++)
      if (m->layers[i].loaded && m->layers[i].cells) decoded += m->layers[i].cells_size;
    if (decoded > claim.total) fuzz_fail("decoded more cells than the map claimed", NULL);
  }
  /* the cache's shed hook between reads: edited layers stay, the rest is
  ** decoded again by the next touch */
  tw_map_shed(m);
  touch(m, 0);
  resize_one(m, data, size);
  if (!tw_map_serialize(m, 0, &o, &n, &e)) fuzz_fail("serialize failed", e.msg);
  if (!tw_map_parse(o, n, &m2, &e)) fuzz_fail("re-parse failed", e.msg);
  if (m2->num_layers != m->num_layers) fuzz_fail("layer count changed", NULL);
  for (i = 0; i < m->num_layers; i++) {
    tw_tile a, b;
    size_t j;
    int shared = 0;
    if (m2->layers[i].width != m->layers[i].width || m2->layers[i].height != m->layers[i].height)
      fuzz_fail("layer size not read back", NULL);
    if (!m->layers[i].loaded || m->layers[i].kind > TW_KIND_TUNE) continue;
    for (j = 0; j < m->num_layers; j++)
      if (j != i && tw_layer_data_index(m, j) == tw_layer_data_index(m, i)) shared = 1;
    if (shared) continue; /* last writer wins, see twmap.h */
    tw_tile_get(m, i, 0, 0, &a, &e);
    if (!tw_tile_get(m2, i, 0, 0, &b, &e)) fuzz_fail("edited layer does not load after writing", e.msg);
    if (memcmp(&a, &b, sizeof a) != 0) fuzz_fail("edited tile not read back", NULL);
  }
  free(o);
  tw_map_free(m);
  tw_map_free(m2);
  return 0;
}
