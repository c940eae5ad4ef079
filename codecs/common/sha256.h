/*
** sha256.h: SHA-256 (FIPS 180-4), used to identify a map file the way DDNet
** does (sha256 of the whole file).  No allocation; the caller owns the
** context (a plain struct, usually on the stack).
*/
#ifndef LEVELSQL_SHA256_H
#define LEVELSQL_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct sha256_ctx {
  uint32_t h[8];
  uint64_t total; /* bytes hashed so far */
  unsigned char buf[64];
  size_t used;    /* bytes waiting in buf */
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const void *data, size_t n);
void sha256_final(sha256_ctx *c, unsigned char out[32]);

/* One-shot digest of a buffer. */
void sha256(const void *data, size_t n, unsigned char out[32]);

/* Lower-case hex of a digest into out (65 bytes incl. NUL). */
void sha256_hex(const unsigned char digest[32], char out[65]);

#endif
