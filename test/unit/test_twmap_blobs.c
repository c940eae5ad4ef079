/*
** test_twmap_blobs.c: codecs/tw/twmap_blobs.c on the generated samples
** ($LEVELSQL_SAMPLES; skipped when unset), through the codec alone:
**
** - PNGs the user gives that must be refused with a clear error and leave
**   the map as it was: not a PNG, truncated, a damaged IDAT, and headers
**   (with valid CRCs) claiming 65536 x 65536, 16385 x 1 and 4097 x 4097
**   pixels, over the caps, refused before any pixel memory is allocated;
** - a PNG embedded into an external image, an image made external, a
**   sound's bytes and name replaced: parse -> edit -> serialize -> parse
**   reads every change back, and every blob nobody changed keeps its
**   stored bytes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/canvas.h"
#include "check.h"
#include "fileutil.h"
#include "tw/twmap.h"
#include "tw/twmap_blobs.h"

/* Appends a PNG chunk (length, type, data, CRC over type and data). */
static size_t put_chunk(unsigned char *out, const char *type, const unsigned char *data, uint32_t n) {
  uLong crc = crc32(0L, (const Bytef *)type, 4);
  out[0] = (unsigned char)(n >> 24), out[1] = (unsigned char)(n >> 16), out[2] = (unsigned char)(n >> 8), out[3] = (unsigned char)n;
  memcpy(out + 4, type, 4);
  if (n) memcpy(out + 8, data, n);
  crc = crc32(crc, data, n);
  out[8 + n] = (unsigned char)(crc >> 24), out[9 + n] = (unsigned char)(crc >> 16);
  out[10 + n] = (unsigned char)(crc >> 8), out[11 + n] = (unsigned char)crc;
  return 12 + (size_t)n;
}

/* A PNG of a w x h RGBA header, a tiny IDAT and IEND: a valid start whose
** pixel data does not match (what a hostile file would claim). */
static size_t header_only_png(uint32_t w, uint32_t h, unsigned char *out) {
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  unsigned char ihdr[13] = {0}, idat[16];
  uLongf idat_n = sizeof idat;
  unsigned char zero = 0;
  size_t o = 8;
  memcpy(out, sig, 8);
  ihdr[0] = (unsigned char)(w >> 24), ihdr[1] = (unsigned char)(w >> 16), ihdr[2] = (unsigned char)(w >> 8), ihdr[3] = (unsigned char)w;
  ihdr[4] = (unsigned char)(h >> 24), ihdr[5] = (unsigned char)(h >> 16), ihdr[6] = (unsigned char)(h >> 8), ihdr[7] = (unsigned char)h;
  ihdr[8] = 8;  /* bit depth */
  ihdr[9] = 6;  /* RGBA */
  o += put_chunk(out + o, "IHDR", ihdr, 13);
  compress2(idat, &idat_n, &zero, 1, 6);
  o += put_chunk(out + o, "IDAT", idat, (uint32_t)idat_n);
  o += put_chunk(out + o, "IEND", NULL, 0);
  return o;
}

/* Serializes m (unchanged blobs kept) and parses the bytes again. */
static tw_map *round_trip(tw_map *m, unsigned char **bytes, size_t *n) {
  tw_map *again = NULL;
  codec_error e;
  *bytes = NULL;
  REQUIRE(tw_map_serialize(m, 0, bytes, n, &e), "serialize: %s", e.msg);
  if (!*bytes) return NULL;
  REQUIRE(tw_map_parse(*bytes, *n, &again, &e), "parse again: %s", e.msg);
  return again;
}

/* Bad PNGs: each refused with its error class, the map's bytes unchanged. */
static void test_bad_pngs(const unsigned char *file, size_t size) {
  static const struct {
    uint32_t w, h;
  } huge[] = {{65536, 65536}, {16385, 1}, {4097, 4097}};
  tw_map *m = NULL;
  codec_error e;
  unsigned char png[256], *good = NULL, *out = NULL;
  size_t n, gn = 0, on = 0, k;
  REQUIRE(tw_map_parse(file, size, &m, &e), "parse: %s", e.msg);
  if (!m) return;
  CHECK(!tw_image_embed_png(m, 0, (const unsigned char *)"not a png", 9, &e) && e.code == CODEC_E_FORMAT &&
            strstr(e.msg, "image 0") && strstr(e.msg, "PNG"),
        "text instead of a PNG: format error naming the image (%s)", e.msg);
  CHECK(!tw_image_embed_png(m, 0, (const unsigned char *)"", 0, &e), "an empty PNG is refused");
  for (k = 0; k < sizeof huge / sizeof huge[0]; k++) {
    n = header_only_png(huge[k].w, huge[k].h, png);
    CHECK(!tw_image_embed_png(m, 0, png, n, &e) && e.code == CODEC_E_LIMIT,
          "a PNG claiming %u x %u pixels: limit error (%s)", huge[k].w, huge[k].h, e.msg);
  }
  n = header_only_png(2, 2, png);
  CHECK(!tw_image_embed_png(m, 0, png, n, &e) && e.code == CODEC_E_FORMAT, "2 x 2 header with too little data: %s", e.msg);
  REQUIRE(tw_image_png(m, 1, &good, &gn, &e), "png of image 1: %s", e.msg);
  if (good) {
    CHECK(!tw_image_embed_png(m, 0, good, gn / 2, &e), "a truncated PNG is refused (%s)", e.msg);
    good[gn - 20] ^= 0xFF; /* inside the IDAT's end or IEND */
    good[gn / 2] ^= 0x55;
    CHECK(!tw_image_embed_png(m, 0, good, gn, &e), "a damaged PNG is refused (%s)", e.msg);
  }
  CHECK(!tw_image_embed_png(m, 99, png, n, &e) && e.code == CODEC_E_ARG, "image out of range");
  CHECK(!tw_image_png(m, 0, &out, &on, &e) && e.code == CODEC_E_ARG && strstr(e.msg, "external"),
        "an external image has no PNG (%s)", e.msg);
  REQUIRE(tw_map_serialize(m, 0, &out, &on, &e), "serialize: %s", e.msg);
  CHECK(out && on == size && memcmp(out, file, size) == 0, "refused PNGs leave the map's bytes as they were");
  free(out);
  free(good);
  tw_map_free(m);
}

/* Embedding, externalising and sound writes read back after a round trip;
** blobs nobody changed keep their stored bytes. */
static void test_writes(const unsigned char *file, size_t size) {
  tw_map *m = NULL, *again;
  codec_error e;
  unsigned char *png = NULL, *bytes = NULL, *png2 = NULL;
  size_t n = 0, bn = 0, n2 = 0;
  tw_image_info im;
  tw_sound_info so;
  unsigned char *sd = NULL, *sd1 = NULL;
  size_t sdn;
  long pixel_blob;
  static const unsigned char opus[] = {'O', 'g', 'g', 'S', 1, 2, 3};
  REQUIRE(tw_map_parse(file, size, &m, &e), "parse: %s", e.msg);
  if (!m) return;
  REQUIRE(tw_image_get(m, 1, &im, &e) && !im.external, "image 1 is embedded");
  pixel_blob = im.data_index;
  REQUIRE(tw_image_png(m, 1, &png, &n, &e), "png: %s", e.msg);
  CHECK(pixel_blob >= 0 && m->df->data[pixel_blob].state == DF_DATA_STORED,
        "making the PNG leaves the pixels compressed in the map");
  CHECK(tw_image_embed_png(m, 0, png, n, &e), "embed into image 0: %s", e.msg);
  CHECK(tw_image_make_external(m, 1, &e), "image 1 external: %s", e.msg);
  CHECK(tw_sound_set_data(m, 0, opus, sizeof opus, &e) && tw_sound_set_name(m, 0, "gust", 4, &e), "sound 0: %s", e.msg);
  CHECK(tw_sound_set_data(m, 1, opus, sizeof opus, &e), "sound 1 (had no data): %s", e.msg);
  CHECK(!tw_sound_set_data(m, 0, opus, 0, &e) && e.code == CODEC_E_ARG, "empty sound data refused");
  CHECK(!tw_sound_set_name(m, 0, "a\0b", 3, &e) && e.code == CODEC_E_ARG, "a name with NUL refused");
  again = round_trip(m, &bytes, &bn);
  if (again) {
    CHECK(tw_image_get(again, 0, &im, &e) && !im.external && im.data_size == (int64_t)im.width * im.height * 4,
          "image 0 embedded, RGBA of its size");
    CHECK(tw_image_png(again, 0, &png2, &n2, &e) && n2 == n && memcmp(png, png2, n) == 0, "image 0's PNG reads back");
    CHECK(tw_image_get(again, 1, &im, &e) && im.external && im.data_index < 0 && df_data_size(again->df, (size_t)pixel_blob) == 1,
          "image 1 external, its pixel blob one byte");
    CHECK(tw_sound_get(again, 0, &so, &e) && so.name.n == 4 && memcmp(so.name.p, "gust", 4) == 0 &&
              tw_sound_data(again, 0, &sd, &sdn, &e) && sdn == sizeof opus && memcmp(sd, opus, sdn) == 0,
          "sound 0's name and bytes read back");
    CHECK(so.data_index >= 0 && again->df->data[so.data_index].state == DF_DATA_STORED,
          "reading sound 0's bytes leaves them compressed in the map");
    CHECK(tw_sound_data(again, 1, &sd1, &sdn, &e) && sdn == sizeof opus, "sound 1's new bytes read back");
    free(sd);
    free(sd1);
    {
      size_t i, kept = 0, same = 0;
      for (i = 0; i < m->df->num_data; i++) {
        if (m->df->data[i].dirty) continue;
        kept++;
        same += again->df->data[i].stored_size == m->df->data[i].stored_size &&
                memcmp(again->df->data[i].stored, m->df->data[i].stored, m->df->data[i].stored_size) == 0;
      }
      CHECK(kept > 0 && same == kept, "every unchanged blob keeps its stored bytes (%zu of %zu)", same, kept);
    }
    tw_map_free(again);
  }
  free(png);
  free(png2);
  free(bytes);
  tw_map_free(m);
}

int main(void) {
  const char *dir = getenv("LEVELSQL_SAMPLES");
  unsigned char *file;
  size_t size = 0;
  char path[4096];
  if (!dir) {
    SKIP("$LEVELSQL_SAMPLES is unset (test/run.sh sets it)");
    return check_done();
  }
  snprintf(path, sizeof path, "%s/ddnet_features.map", dir);
  file = file_read_all(path, &size);
  REQUIRE(file != NULL, "read %s/ddnet_features.map", dir);
  if (file) {
    test_bad_pngs(file, size);
    test_writes(file, size);
  }
  free(file);
  return check_done();
}
