/*
** limits.c: what one file may decode in all (issue 24, item 5a).
**
** A level file is small on disk and may claim to be huge in memory: a
** Teeworlds map of 108 KB whose 40 tile layers of 4096 x 4096 all point at
** one 65 KB zlib blob decodes 2.6 GB.  So every freshly parsed model is
** checked against the connection's cap, levelsql_limit('decoded') (1 GiB
** by default), BEFORE its lazy parts are decoded: formats that decode from
** compressed blobs on demand sum what their items and headers claim
** (ls_format.decoded_claim; codec_limits.h), the others (whose parse
** decoded everything already) count the parsed model's footprint; a
** format whose parse inflates (WWD) is checked on its header's claim
** before the parse as well (ls_format.bytes_claim, in ls_parse_file).  A
** file over the cap fails to load with "<file>: layer 16 (tiles) would
** decode 67,108,864 bytes (2,684,354,560 in all), over the file's limit
** of 1,073,741,824 bytes in all ...": levelsql_files shows it as ok = 0,
** a table scan fails with it.
**
**   SELECT levelsql_limit('decoded');              -- the cap now (bytes)
**   SELECT levelsql_limit('decoded', 4294967296);  -- sets it, returns the old
**
** Setting it empties the cache of parsed files (the transaction's own
** copies stay), so every file is checked against the new cap when next
** read.  A render's picture has caps of its own (canvas.h: 16384 pixels a
** side, 16 Mi pixels in all).
*/
#include <stdio.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/session.h"

/* n with a comma between each three digits, into buf (at least 27 bytes). */
static const char *with_commas(uint64_t n, char *buf) {
  char digits[21];
  int len = snprintf(digits, sizeof digits, "%llu", (unsigned long long)n), i, o = 0;
  for (i = 0; i < len; i++) {
    if (i && (len - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = 0;
  return buf;
}

/* The refusal of a claim over its limit, into err (CODEC_E_LIMIT):
** "layer 16 (tiles) would decode 67,108,864 bytes (2,684,354,560 in all),
** over the file's limit of 1,073,741,824 bytes in all (...)", or, for a
** part that counts what is already decoded (`holds`), "the parsed level
** holds 164,444 bytes, over ...".  Plain snprintf: this runs on parse-ahead
** threads too. */
static int claim_refused(const codec_claim *claim, int holds, codec_error *err) {
  char part[32], total[32], limit[32];
  with_commas(claim->over_bytes, part);
  with_commas(claim->total, total);
  with_commas(claim->limit, limit);
  if (holds)
    snprintf(err->msg, sizeof err->msg, "%s holds %s bytes, over the file's limit of %s bytes in all %s", claim->over,
             part, limit, "(SELECT levelsql_limit('decoded', bytes) raises it)");
  else if (claim->over_bytes == claim->total)
    snprintf(err->msg, sizeof err->msg, "%s would decode %s bytes, over the file's limit of %s bytes in all %s",
             claim->over, part, limit, "(SELECT levelsql_limit('decoded', bytes) raises it)");
  else
    snprintf(err->msg, sizeof err->msg, "%s would decode %s bytes (%s%s in all), over the file's limit of %s bytes in all %s",
             claim->over, part, claim->total == UINT64_MAX ? "over " : "", total, limit,
             "(SELECT levelsql_limit('decoded', bytes) raises it)");
  err->code = CODEC_E_LIMIT;
  return 0;
}

int ls_check_decoded(const ls_format *fmt, const void *model, uint64_t limit, codec_error *err) {
  codec_claim claim;
  codec_claim_init(&claim, limit);
  if (fmt->decoded_claim) fmt->decoded_claim(model, &claim);
  else if (fmt->footprint) codec_claim_add(&claim, fmt->footprint(model), "the parsed level");
  return claim.total <= limit ? 1 : claim_refused(&claim, !fmt->decoded_claim, err);
}

int ls_check_bytes_claim(const ls_format *fmt, const unsigned char *data, size_t size, uint64_t limit,
                         codec_error *err) {
  codec_claim claim;
  if (!fmt->bytes_claim) return 1;
  codec_claim_init(&claim, limit);
  fmt->bytes_claim(data, size, &claim);
  return claim.total <= limit ? 1 : claim_refused(&claim, 0, err);
}

/* Makes every file be parsed and checked again when next read: the clean
** models cached under the old cap are dropped (ls_session_cache_limit 0,
** then back), and the errors cached with their file's stat are made stale
** (a size of -1 matches no stat).  The transaction's copies stay. */
static void forget_parses(ls_session *s) {
  int64_t i;
  ls_session_cache_limit(s, ls_session_cache_limit(s, 0, 1), 1);
  for (i = 0; i < s->nfiles; i++)
    if (s->files[i] && s->files[i]->error) s->files[i]->size = -1;
}

/* levelsql_limit(name [, value]): the connection's limit `name` (only
** 'decoded': bytes one file may decode in all); with a value (an integer,
** 1 or more), sets it, empties the cache of parsed files and returns the
** old value. */
static void limit_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  ls_session *s = sqlite3_user_data(ctx);
  const char *name = (const char *)sqlite3_value_text(argv[0]);
  uint64_t old = s->max_decoded;
  if (!name || strcmp(name, "decoded") != 0) {
    sqlite3_result_error(ctx, "levelsql_limit: unknown limit (known: 'decoded', the bytes one file may decode in all)",
                         -1);
    return;
  }
  if (argc > 1) {
    if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER || sqlite3_value_int64(argv[1]) < 1) {
      sqlite3_result_error(ctx, "levelsql_limit: the 'decoded' limit is a number of bytes, 1 or more", -1);
      return;
    }
    s->max_decoded = (uint64_t)sqlite3_value_int64(argv[1]);
    forget_parses(s);
  }
  sqlite3_result_int64(ctx, (sqlite3_int64)old);
}

static void session_unref(void *p) {
  ls_session_release(p);
}

int ls_limit_register(sqlite3 *db, ls_session *sess) {
  int rc = SQLITE_OK, nargs;
  for (nargs = 1; rc == SQLITE_OK && nargs <= 2; nargs++) {
    sess->refs++;
    rc = sqlite3_create_function_v2(db, "levelsql_limit", nargs, SQLITE_UTF8 | SQLITE_DIRECTONLY, sess, limit_func,
                                    NULL, NULL, session_unref);
  }
  return rc;
}
