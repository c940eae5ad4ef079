/*
** fuzz_wwd.c: libFuzzer harness for the WWD codec and the 8-bit text
** conversion.
**
** For every input:
** - text8: decoding the bytes in each code page and encoding the result
**   must give the bytes back; when the input happens to be valid UTF-8 that
**   a code page can represent, encoding then decoding must give it back.
** - wwd: parse; a refusal must carry a message and CODEC_E_FORMAT, _LIMIT
**   or _MEMORY; when it succeeds, serialize (must succeed), parse the
**   output (must succeed), the two models must be equal (wwd_equal), and
**   serializing the re-parsed model must reproduce the same bytes (the
**   writer's output is a fixed point).
** Any inconsistency calls abort(), which libFuzzer reports as a crash.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "text8.h"
#include "wwd.h"

/* Reports an inconsistency and aborts so libFuzzer keeps the input. */
static void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_wwd: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* text8 round trips on the raw input, in every code page. */
static void fuzz_text8(const uint8_t *data, size_t size) {
  static const text8_codepage cps[] = {TEXT8_CP1252, TEXT8_CP1250, TEXT8_CP1251, TEXT8_LATIN1};
  size_t c;
  for (c = 0; c < sizeof cps / sizeof cps[0]; c++) {
    size_t ulen = 0, blen = 0;
    unsigned char *b = NULL;
    uint32_t bad = 0;
    char *u = text8_decode(data, size, cps[c], &ulen);
    if (!u) continue; /* out of memory */
    if (!text8_encode(u, ulen, cps[c], &b, &blen, &bad)) {
      if (bad != 0) fuzz_fail("text8: decoded bytes do not encode back", text8_codepage_name(cps[c]));
    } else if (blen != size || (size && memcmp(b, data, size) != 0)) {
      fuzz_fail("text8: bytes -> UTF-8 -> bytes differs", text8_codepage_name(cps[c]));
    }
    free(u);
    free(b);
    b = NULL;
    if (text8_encode((const char *)data, size, cps[c], &b, &blen, &bad)) {
      char *back = text8_decode(b, blen, cps[c], &ulen);
      if (back && (ulen != size || (size && memcmp(back, data, size) != 0)))
        fuzz_fail("text8: UTF-8 -> bytes -> UTF-8 differs", text8_codepage_name(cps[c]));
      free(back);
      free(b);
    }
  }
}

/* Parse, serialize, re-parse, compare, serialize again. */
static void fuzz_wwd(const uint8_t *data, size_t size) {
  wwd_level *lvl = NULL, *back = NULL;
  unsigned char *out = NULL, *out2 = NULL;
  size_t out_size = 0, out2_size = 0;
  codec_error err;
  char why[256];
  codec_error_clear(&err);
  if (!wwd_parse(data, size, &lvl, &err)) {
    if (lvl) fuzz_fail("parse failed but returned a level", err.msg);
    if (!err.msg[0]) fuzz_fail("parse failed without a message", NULL);
    /* bytes are refused as damaged or beyond a cap, never as an argument */
    if (err.code != CODEC_E_FORMAT && err.code != CODEC_E_LIMIT && err.code != CODEC_E_MEMORY)
      fuzz_fail("parse failed with the wrong code", err.msg);
    return;
  }
  (void)wwd_game(lvl);
  (void)wwd_checksum_kind_name(lvl->checksum_kind);
  if (size > WWD_HEADER_SIZE && le32_load(data + WWD_HDR_DECOMPRESSED_SIZE) > 256u * 1024u) {
    /* A big compressed level: parsing it is the test; re-compressing it
    ** twice per run would leave the fuzzer a few runs a second. */
    wwd_free(lvl);
    return;
  }
  if (!wwd_serialize(lvl, &out, &out_size, &err)) fuzz_fail("serialize of a parsed level failed", err.msg);
  if (!wwd_parse(out, out_size, &back, &err)) fuzz_fail("re-parse of serialized output failed", err.msg);
  why[0] = 0;
  if (!wwd_equal(lvl, back, why, sizeof why)) fuzz_fail("re-parsed model differs", why);
  if (back->checksum_kind != WWD_CHECKSUM_EXACT) fuzz_fail("written checksum is not exact", NULL);
  if (!wwd_serialize(back, &out2, &out2_size, &err)) fuzz_fail("second serialize failed", err.msg);
  if (out2_size != out_size || memcmp(out, out2, out_size) != 0) fuzz_fail("serialize is not a fixed point", NULL);
  {
    /* a clone serializes to the same bytes too */
    wwd_level *c = wwd_clone(lvl);
    if (c) {
      if (!wwd_equal(lvl, c, why, sizeof why)) fuzz_fail("clone differs", why);
      wwd_free(c);
    }
  }
  free(out);
  free(out2);
  wwd_free(back);
  wwd_free(lvl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libFuzzer entry point. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* level strings are short; converting a whole 128 KiB input four ways
  ** would make every run slow */
  fuzz_text8(data, size < 4096 ? size : 4096);
  fuzz_wwd(data, size);
  return 0;
}
