/*
** sha256.c: a small, portable SHA-256 (FIPS 180-4).  See sha256.h.
*/
#include "common/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
    0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
    0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
    0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
    0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
    0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
    0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* Big-endian 32-bit word at byte offset o of the block copy m. */
#define BE32(m, o) \
  (((uint32_t)(m)[o] << 24) | ((uint32_t)(m)[(o) + 1] << 16) | ((uint32_t)(m)[(o) + 2] << 8) | (uint32_t)(m)[(o) + 3])

/* Message schedule word i (16 <= i < 64) from the 16 before it. */
#define SCHEDULE(w, i)                                                                                    \
  ((w)[(i) - 16] + (rotr((w)[(i) - 15], 7) ^ rotr((w)[(i) - 15], 18) ^ ((w)[(i) - 15] >> 3)) + (w)[(i) - 7] + \
   (rotr((w)[(i) - 2], 17) ^ rotr((w)[(i) - 2], 19) ^ ((w)[(i) - 2] >> 10)))

/* Four message words: read from the block (LOAD4) or scheduled (SCHEDULE4). */
#define LOAD4(i)                                                                             \
  w[i] = BE32(m, 4 * (i)), w[(i) + 1] = BE32(m, 4 * (i) + 4), w[(i) + 2] = BE32(m, 4 * (i) + 8), \
  w[(i) + 3] = BE32(m, 4 * (i) + 12)
#define SCHEDULE4(i) \
  w[i] = SCHEDULE(w, i), w[(i) + 1] = SCHEDULE(w, (i) + 1), w[(i) + 2] = SCHEDULE(w, (i) + 2), w[(i) + 3] = SCHEDULE(w, (i) + 3)

/* One round on the working variables named in rotated order, so a round
** moves no variables: the caller rotates the names instead. */
#define ROUND(a, b, c, d, e, f, g, h, i)                                                              \
  do {                                                                                                \
    uint32_t t1 = (h) + (rotr((e), 6) ^ rotr((e), 11) ^ rotr((e), 25)) + (((e) & (f)) ^ (~(e) & (g))) + \
                  K[i] + w[i];                                                                        \
    uint32_t t2 = (rotr((a), 2) ^ rotr((a), 13) ^ rotr((a), 22)) + (((a) & (b)) ^ ((a) & (c)) ^ ((b) & (c))); \
    (d) += t1;                                                                                        \
    (h) = t1 + t2;                                                                                    \
  } while (0)

/* Eight rounds from round i: afterwards the variables are back in place. */
#define ROUNDS8(i)                        \
  ROUND(a, b, c, d, e, f, g, h, i);       \
  ROUND(h, a, b, c, d, e, f, g, (i) + 1); \
  ROUND(g, h, a, b, c, d, e, f, (i) + 2); \
  ROUND(f, g, h, a, b, c, d, e, (i) + 3); \
  ROUND(e, f, g, h, a, b, c, d, (i) + 4); \
  ROUND(d, e, f, g, h, a, b, c, (i) + 5); \
  ROUND(c, d, e, f, g, h, a, b, (i) + 6); \
  ROUND(b, c, d, e, f, g, h, a, (i) + 7)

/* Processes one 64-byte block: the FIPS 180-4 compression function, fully
** unrolled on a copy of the block, so every index is a constant.  A
** fuzzing build checks and traces every computed index and loop test (each
** pointer step is an overflow check, each check a traced comparison):
** hashing each input was a sixth of fuzz_twmap's time. */
static void sha256_block(uint32_t hash[8], const unsigned char *p) {
  unsigned char m[64];
  uint32_t w[64], a, b, c, d, e, f, g, h;
  memcpy(m, p, sizeof m);
  LOAD4(0); LOAD4(4); LOAD4(8); LOAD4(12);
  SCHEDULE4(16); SCHEDULE4(20); SCHEDULE4(24); SCHEDULE4(28); SCHEDULE4(32); SCHEDULE4(36);
  SCHEDULE4(40); SCHEDULE4(44); SCHEDULE4(48); SCHEDULE4(52); SCHEDULE4(56); SCHEDULE4(60);
  a = hash[0]; b = hash[1]; c = hash[2]; d = hash[3];
  e = hash[4]; f = hash[5]; g = hash[6]; h = hash[7];
  ROUNDS8(0); ROUNDS8(8); ROUNDS8(16); ROUNDS8(24);
  ROUNDS8(32); ROUNDS8(40); ROUNDS8(48); ROUNDS8(56);
  hash[0] += a; hash[1] += b; hash[2] += c; hash[3] += d;
  hash[4] += e; hash[5] += f; hash[6] += g; hash[7] += h;
}

/* Sets the initial hash value. */
void sha256_init(sha256_ctx *c) {
  static const uint32_t H0[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
                                 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  memcpy(c->h, H0, sizeof H0);
  c->total = 0;
  c->used = 0;
}

/* Feeds bytes: tops up a partly filled block first, then compresses whole
** 64-byte blocks straight from the caller's bytes (no copy), and keeps the
** tail in buf. */
void sha256_update(sha256_ctx *c, const void *data, size_t n) {
  const unsigned char *p = (const unsigned char *)data;
  c->total += n;
  if (c->used) {
    size_t take = 64 - c->used;
    if (take > n) take = n;
    memcpy(c->buf + c->used, p, take);
    c->used += take;
    p += take;
    n -= take;
    if (c->used < 64) return;
    sha256_block(c->h, c->buf);
    c->used = 0;
  }
  for (; n >= 64; p += 64, n -= 64) sha256_block(c->h, p);
  memcpy(c->buf, p, n);
  c->used = n;
}

/* Pads (0x80, zeros, 64-bit big-endian bit length) in buf, compressing one
** extra block when the length does not fit behind the tail, and emits the
** digest. */
void sha256_final(sha256_ctx *c, unsigned char out[32]) {
  uint64_t bits = c->total * 8;
  int i;
  c->buf[c->used++] = 0x80;
  if (c->used > 56) {
    memset(c->buf + c->used, 0, 64 - c->used);
    sha256_block(c->h, c->buf);
    c->used = 0;
  }
  memset(c->buf + c->used, 0, 56 - c->used);
  for (i = 0; i < 8; i++) c->buf[56 + i] = (unsigned char)(bits >> (56 - 8 * i));
  sha256_block(c->h, c->buf);
  c->used = 0;
  for (i = 0; i < 8; i++) {
    out[i * 4] = (unsigned char)(c->h[i] >> 24);
    out[i * 4 + 1] = (unsigned char)(c->h[i] >> 16);
    out[i * 4 + 2] = (unsigned char)(c->h[i] >> 8);
    out[i * 4 + 3] = (unsigned char)c->h[i];
  }
}

void sha256(const void *data, size_t n, unsigned char out[32]) {
  sha256_ctx c;
  sha256_init(&c);
  sha256_update(&c, data, n);
  sha256_final(&c, out);
}

void sha256_hex(const unsigned char digest[32], char out[65]) {
  static const char hx[] = "0123456789abcdef";
  int i;
  for (i = 0; i < 32; i++) {
    out[i * 2] = hx[digest[i] >> 4];
    out[i * 2 + 1] = hx[digest[i] & 15];
  }
  out[64] = 0;
}
