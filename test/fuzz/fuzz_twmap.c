/*
** fuzz_twmap.c: libFuzzer harness for the map model.
**
** For every input: tw_map_parse; a refusal must carry CODEC_E_FORMAT,
** _LIMIT or _MEMORY.  When that succeeds, decode everything the
** SQL tables show (every tile of every tilemap layer, which forces the lazy
** decoding, quads, images, envelopes and their points, sounds, info),
** edit one tile of each layer that loaded, serialize (must succeed) and
** parse the output (must succeed, with the same number of layers, and the
** edited tiles must read back).
** Blobs (twmap_blobs.c): on a fresh parse, the PNG of the first small
** embedded image is embedded into another image, a third image whose
** pixels are in another blob is made external, and sound 0 gets the input's
** tail as bytes; serialize, parse, and the embedded PNG, the external image
** and the sound bytes must read back.  Inputs that are no map but start
** like a PNG go to the PNG decoder as untrusted bytes: refused with a
** format or limit error, never a crash.
** Any inconsistency calls abort(), which libFuzzer reports as a crash.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "twmap.h"
#include "twmap_blobs.h"

/* Pixel bytes of the largest image whose PNG the harness encodes (keeps
** each run fast). */
#define FUZZ_MAX_PIXEL_BYTES 65536

/* Reports an inconsistency and aborts so libFuzzer keeps the input. */
static void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_twmap: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* Reads everything; edits tile (0,0) of every loadable tilemap layer. */
static void touch(tw_map *m) {
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
      for (y = 0; y < li.height; y++)
        for (x = 0; x < li.width; x++)
          if (!tw_tile_get(m, i, x, y, &t, &e)) fuzz_fail("tile_get on a loaded layer failed", e.msg);
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
    tw_env_point *p = NULL;
    size_t n;
    tw_envelope_get(m, i, &en, &e);
    tw_envelope_points(m, i, &p, &n, &e);
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

/* Parse -> change blobs -> serialize -> parse (see the top of the file). */
static void blob_round_trip(const uint8_t *data, size_t size) {
  tw_map *m = NULL, *m2 = NULL;
  codec_error e;
  unsigned char *png = NULL, *out = NULL, *png2 = NULL;
  size_t n = 0, on = 0, n2 = 0, k;
  long src, dst = -1, ext = -1, dst_blob = -1;
  int sound_set = 0;
  if (!tw_map_parse(data, size, &m, &e)) return;
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
    const unsigned char *d;
    size_t dn;
    if (!tw_sound_data(m2, 0, &d, &dn, &e) || dn != size - size / 2 || memcmp(d, data + size / 2, dn) != 0)
      fuzz_fail("sound bytes not read back", e.msg);
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
  blob_round_trip(data, size);
  touch(m);
  if (!tw_map_serialize(m, 0, &o, &n, &e)) fuzz_fail("serialize failed", e.msg);
  if (!tw_map_parse(o, n, &m2, &e)) fuzz_fail("re-parse failed", e.msg);
  if (m2->num_layers != m->num_layers) fuzz_fail("layer count changed", NULL);
  for (i = 0; i < m->num_layers; i++) {
    tw_tile a, b;
    size_t j;
    int shared = 0;
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
