/*
** test_sha256.c: unit tests of codecs/sha256.c, the digest tw_maps.sha256
** shows (DDNet identifies a map by the SHA-256 of its file).
**
** - the FIPS 180-2 / NIST test vectors: "", "abc", the 448-bit and 896-bit
**   messages, and one million 'a' fed in pieces of 1 to 1000 bytes;
** - every length from 0 to 300 bytes (each padding case: tail of 55, 56,
**   63, 64 bytes...): the digest of their 301 digests, computed beforehand
**   with Python's hashlib;
** - every split of a 200-byte message into two updates, and byte by byte,
**   gives the one-shot digest.
*/
#include <string.h>

#include "check.h"
#include "common/sha256.h"

/* Hex digest of a one-shot sha256 of n bytes. */
static void hex_of(const void *data, size_t n, char out[65]) {
  unsigned char d[32];
  sha256(data, n, d);
  sha256_hex(d, out);
}

/* The standard vectors, the short ones in one call. */
static void test_vectors(void) {
  static const struct {
    const char *msg, *hex;
  } v[] = {
      {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
      {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
      {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
      {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
  };
  size_t i;
  char hex[65];
  for (i = 0; i < sizeof v / sizeof v[0]; i++) {
    hex_of(v[i].msg, strlen(v[i].msg), hex);
    CHECK(strcmp(hex, v[i].hex) == 0, "sha256 of a %zu-byte vector: %s, expected %s", strlen(v[i].msg), hex,
          v[i].hex);
  }
}

/* One million 'a', fed in pieces of growing, odd sizes (1, 2, ... bytes). */
static void test_million_a(void) {
  static unsigned char chunk[1000];
  sha256_ctx c;
  unsigned char d[32];
  char hex[65];
  size_t left = 1000000, piece = 1;
  memset(chunk, 'a', sizeof chunk);
  sha256_init(&c);
  while (left) {
    size_t n = piece < left ? piece : left;
    sha256_update(&c, chunk, n);
    left -= n;
    piece = piece % 1000 + 1;
  }
  sha256_final(&c, d);
  sha256_hex(d, hex);
  CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0,
        "sha256 of a million 'a': %s", hex);
}

/* Every length 0..300 of the bytes (i * 7 + length) & 255: the digest of
** the 301 digests one after the other, as hashlib computes it. */
static void test_every_length(void) {
  unsigned char msg[300], digests[301 * 32], d[32];
  char hex[65];
  size_t n, i;
  for (n = 0; n <= 300; n++) {
    for (i = 0; i < n; i++) msg[i] = (unsigned char)((i * 7 + n) & 0xFF);
    sha256(msg, n, digests + n * 32);
  }
  sha256(digests, sizeof digests, d);
  sha256_hex(d, hex);
  CHECK(strcmp(hex, "60d63ff40b5558727a9b786ac0be9300f7ca58fd9ddd3b2f3681b369018a87dc") == 0,
        "digest of the digests of lengths 0..300: %s", hex);
}

/* Two updates split anywhere, and one byte at a time, equal the one-shot. */
static void test_splits(void) {
  unsigned char msg[200], one[32], d[32];
  sha256_ctx c;
  size_t split, i;
  check_loop loop = {0, 0, 0};
  for (i = 0; i < sizeof msg; i++) msg[i] = (unsigned char)(i * 31 + 5);
  sha256(msg, sizeof msg, one);
  check_loop_enter(&loop);
  for (split = 0; split <= sizeof msg; split++) {
    sha256_init(&c);
    sha256_update(&c, msg, split);
    sha256_update(&c, msg + split, sizeof msg - split);
    sha256_final(&c, d);
    loop.inputs++;
    CHECK(memcmp(d, one, 32) == 0, "split at %zu differs from the one-shot digest", split);
  }
  sha256_init(&c);
  for (i = 0; i < sizeof msg; i++) sha256_update(&c, msg + i, 1);
  sha256_final(&c, d);
  loop.inputs++;
  CHECK(memcmp(d, one, 32) == 0, "byte-by-byte updates differ from the one-shot digest");
  check_loop_leave();
  check_loop_done(&loop, "sha256 split updates");
}

int main(void) {
  test_vectors();
  test_million_a();
  test_every_length();
  test_splits();
  return check_done();
}
