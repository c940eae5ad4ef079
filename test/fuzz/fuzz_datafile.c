/*
** fuzz_datafile.c: libFuzzer harness for the datafile container.
**
** For every input: df_parse; a refusal must carry CODEC_E_FORMAT, _LIMIT or
** _MEMORY (never _ARG: bytes are not an argument).  When it succeeds, inflate every blob (errors
** allowed), write (must succeed), parse the output (must succeed, same item
** and blob counts apart from regenerated UUID-index items), and, when the
** file has at most one UUID type (DDNet renumbers several on every save),
** writing the re-parsed file must reproduce the same bytes.
** A file whose blobs declare more than FUZZ_MAX_DECODED_BYTES in all
** (fuzz_budget.h: run.sh's amplify_ddnet.map) is written and read back
** without inflating or recompressing them, which would take most of the
** run's time.
** Any inconsistency calls abort(), which libFuzzer reports as a crash.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tw/datafile.h"
#include "fuzz_budget.h"

/* Reports an inconsistency and aborts so libFuzzer keeps the input. */
static void fuzz_fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_datafile: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  datafile *df = NULL, *df2 = NULL;
  codec_error e;
  unsigned char *o1 = NULL, *o2 = NULL;
  size_t n1, n2, i, sz;
  uint64_t declared;
  int big;
  const unsigned char *d;
  codec_error_clear(&e);
  if (!df_parse(data, size, &df, &e)) {
    /* bytes are refused as damaged or beyond a cap, never as an argument */
    if (e.code != CODEC_E_FORMAT && e.code != CODEC_E_LIMIT && e.code != CODEC_E_MEMORY)
      fuzz_fail("parse failed with the wrong code", e.msg);
    return 0;
  }
  for (i = 0, declared = 0; i < df->num_data; i++) declared += df_data_size(df, i);
  big = declared > FUZZ_MAX_DECODED_BYTES;
  for (i = 0; i < df->num_data && !big; i++) df_data_get(df, i, &d, &sz, &e);
  if (!df_write(df, (size & 1) && !big ? DF_WRITE_RECOMPRESS : 0, &o1, &n1, &e)) fuzz_fail("write failed", e.msg);
  if (!df_parse(o1, n1, &df2, &e)) fuzz_fail("re-parse failed", e.msg);
  if (df2->num_data != df->num_data) fuzz_fail("blob count changed", NULL);
  if (df_type_count(df2, DF_ITEMTYPE_EX) <= 1) {
    if (!df_write(df2, 0, &o2, &n2, &e)) fuzz_fail("second write failed", e.msg);
    if (n1 != n2 || memcmp(o1, o2, n1) != 0) fuzz_fail("writer output is not a fixed point", NULL);
  }
  free(o1);
  free(o2);
  df_free(df);
  df_free(df2);
  return 0;
}
