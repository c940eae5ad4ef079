/*
** codec_limits.h: bounded work on hostile files, for codecs (no SQLite).
**
** Two tools, both tiny:
**
** - codec_claim: what a file would decode in all (zlib-inflated blobs,
**   decoded cells), summed from the sizes its headers and items CLAIM,
**   before anything is inflated or allocated.  A caller holding a cap
**   (the engine's levelsql_limit('decoded')) refuses a file whose claims
**   pass it, so a 100 KB map whose 40 layers of 4096 x 4096 all point at
**   one small zlib blob is refused in microseconds instead of decoding
**   2.6 GB.  The sum saturates at UINT64_MAX (never wraps), and the claim
**   remembers the first part whose bytes took the total over the limit, to
**   name it in the error.
**
** - codec_cancel: a callback a long codec loop (validating every layer,
**   drawing a picture) polls between steps, so the caller can stop it:
**   the engine fills it with ls_interrupt_check (sqlite3_interrupt).  A
**   codec stopped this way fails with CODEC_E_INTERRUPT and the message
**   "interrupted".  The callback is cheap to call often (the engine's
**   looks at the clock and asks SQLite at most every 10 ms).
*/
#ifndef LEVELSQL_CODEC_LIMITS_H
#define LEVELSQL_CODEC_LIMITS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/codec_error.h"

typedef struct codec_claim {
  uint64_t limit;     /* the cap asked about (UINT64_MAX: none) */
  uint64_t total;     /* bytes claimed so far, saturating */
  char over[64];      /* the part that first took total over limit ("" while within) */
  uint64_t over_bytes; /* that part's bytes */
} codec_claim;

/* An empty claim checked against limit. */
static inline void codec_claim_init(codec_claim *c, uint64_t limit) {
  c->limit = limit;
  c->total = 0;
  c->over[0] = 0;
  c->over_bytes = 0;
}

/* Adds `bytes` for the part named by the printf-style fmt ("layer 12
** (tiles)"); the name is formatted only for the part that crosses the
** limit.  Returns 1 while the total is within the limit. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static inline int codec_claim_add(codec_claim *c, uint64_t bytes, const char *fmt, ...) {
  int was_within = c->total <= c->limit;
  c->total = bytes > UINT64_MAX - c->total ? UINT64_MAX : c->total + bytes;
  if (was_within && c->total > c->limit) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->over, sizeof c->over, fmt, ap);
    va_end(ap);
    c->over_bytes = bytes;
  }
  return c->total <= c->limit;
}

/* a * b, saturating at UINT64_MAX (claims multiply untrusted fields). */
static inline uint64_t codec_mul_sat(uint64_t a, uint64_t b) {
  return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

typedef struct codec_cancel {
  int (*cancelled)(void *ctx); /* non-zero: stop now */
  void *ctx;
} codec_cancel;

/* Whether the caller asked to stop (c or its callback NULL: never). */
static inline int codec_cancelled(const codec_cancel *c) {
  return c && c->cancelled && c->cancelled(c->ctx);
}

/* The failure a codec returns when codec_cancelled said so. */
static inline int codec_fail_interrupted(codec_error *e) {
  return codec_fail_code(e, CODEC_E_INTERRUPT, "interrupted");
}

/* How often a parse polls its cancel: once every CODEC_POLL_RECORDS
** records of a table or items of a list, and once every CODEC_POLL_BYTES
** bytes copied or hashed.  Both keep the cost of the polls unmeasurable
** and the time between two polls far under the 100 ms an interrupt may
** take, at any file size (a 1 GiB copy is 256 steps). */
#define CODEC_POLL_RECORDS 65536u
#define CODEC_POLL_BYTES ((size_t)4 << 20)

/* Whether step i (from 0) of a record loop is a polling step, one in
** CODEC_POLL_RECORDS after the first, and c said stop there. */
static inline int codec_cancelled_at(const codec_cancel *c, uint64_t i) {
  return c && i && i % CODEC_POLL_RECORDS == 0 && codec_cancelled(c);
}

/* memcpy of n bytes in CODEC_POLL_BYTES steps, polling c (NULL: never)
** between two steps, so a large copy stops when asked.  Returns 1, or 0
** when c said stop (dst then partly written: the caller frees it). */
static inline int codec_copy_cancel(void *dst, const void *src, size_t n, const codec_cancel *c) {
  size_t done = 0;
  while (done < n) {
    size_t step = n - done < CODEC_POLL_BYTES ? n - done : CODEC_POLL_BYTES;
    if (done && codec_cancelled(c)) return 0;
    memcpy((unsigned char *)dst + done, (const unsigned char *)src + done, step);
    done += step;
  }
  return 1;
}

#endif
