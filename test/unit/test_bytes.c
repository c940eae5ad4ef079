/*
** test_bytes.c: unit tests of codecs/common/bytes.h, the reader and writer every
** codec uses.
**
** - size_add / size_mul at and past SIZE_MAX;
** - le16/le32 load and store, u32_as_i32 at the sign boundary;
** - byte_reader: every read at the exact end, one byte short, past a pos
**   beyond the end; the sticky failed flag; a failed read does not move;
**   br_need / br_need_n with counts whose product overflows; br_seek to
**   the end and past it; br_bytes of 0 bytes; f32 bit patterns (NaN kept);
** - byte_writer: growth, zeros, take, and an impossible reserve.
*/
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "common/bytes.h"
#include "check.h"

static void test_size_arithmetic(void) {
  size_t out = 7;
  CHECK(size_add(1, 2, &out) && out == 3, "1 + 2 = %zu", out);
  CHECK(size_add(SIZE_MAX - 1, 1, &out) && out == SIZE_MAX, "SIZE_MAX - 1 + 1");
  out = 7;
  CHECK(!size_add(SIZE_MAX, 1, &out) && out == 7, "SIZE_MAX + 1 overflows, out untouched (%zu)", out);
  CHECK(size_mul(0, SIZE_MAX, &out) && out == 0, "0 * SIZE_MAX = 0");
  CHECK(size_mul(SIZE_MAX, 1, &out) && out == SIZE_MAX, "SIZE_MAX * 1");
  out = 7;
  CHECK(!size_mul(SIZE_MAX / 2 + 1, 2, &out) && out == 7, "(SIZE_MAX/2+1) * 2 overflows, out untouched");
  CHECK(size_mul(SIZE_MAX / 3, 3, &out) && out == SIZE_MAX / 3 * 3, "SIZE_MAX/3 * 3 fits");
}

static void test_plain_loads(void) {
  unsigned char b[4];
  le32_store(b, 0x11223344u);
  CHECK(b[0] == 0x44 && b[1] == 0x33 && b[2] == 0x22 && b[3] == 0x11, "le32_store is little-endian");
  CHECK(le32_load(b) == 0x11223344u, "le32 round trip");
  le16_store(b, 0xBEEF);
  CHECK(b[0] == 0xEF && b[1] == 0xBE && le16_load(b) == 0xBEEF, "le16 round trip");
  CHECK(u32_as_i32(0x7FFFFFFFu) == INT32_MAX, "0x7FFFFFFF is INT32_MAX");
  CHECK(u32_as_i32(0x80000000u) == INT32_MIN, "0x80000000 is INT32_MIN");
  CHECK(u32_as_i32(0xFFFFFFFFu) == -1, "0xFFFFFFFF is -1");
}

static void test_reader_reads(void) {
  static const unsigned char d[] = {0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xFE, 0xFF, 0xFF, 0xFF};
  byte_reader r = br_at(d, sizeof d, 0);
  const unsigned char *p;
  CHECK(br_left(&r) == 12 && !r.failed, "a fresh reader has 12 bytes left");
  CHECK(br_u8(&r) == 0x01 && r.pos == 1, "u8");
  CHECK(br_u16le(&r) == 0x0302 && r.pos == 3, "u16le");
  CHECK(br_u32le(&r) == 0x07060504u && r.pos == 7, "u32le");
  CHECK(br_u8(&r) == 0x08, "u8 again");
  CHECK(br_i32le(&r) == -2 && r.pos == 12, "i32le of FE FF FF FF is -2");
  CHECK(br_left(&r) == 0 && !r.failed, "exactly at the end, not failed");
  CHECK(br_u8(&r) == 0 && r.failed && r.pos == 12, "a read at the end fails and does not move");

  /* one byte short of every width: the read fails, pos stays, the flag sticks */
  r = br_at(d, sizeof d, 11);
  CHECK(br_u16le(&r) == 0 && r.failed && r.pos == 11, "u16 with 1 byte left fails");
  CHECK(br_u8(&r) == 0xFF && r.pos == 12 && r.failed, "a later read that fits succeeds, failed stays set");
  r = br_at(d, sizeof d, 9);
  CHECK(br_u32le(&r) == 0 && r.failed && r.pos == 9, "u32 with 3 bytes left fails");
  r = br_at(d, sizeof d, 9);
  CHECK(br_i32le(&r) == 0 && r.failed, "i32 with 3 bytes left fails");

  /* a position beyond the end (an offset read from a file) */
  r = br_at(d, sizeof d, 1000);
  CHECK(br_left(&r) == 0 && br_need(&r, 0) && !br_need(&r, 1), "pos beyond the end: nothing left");
  CHECK(br_u8(&r) == 0 && r.failed && r.pos == 1000, "pos beyond the end: reads fail");
  r.failed = 0;
  CHECK(br_bytes(&r, 0) == NULL && r.failed, "pos beyond the end: even 0 bytes are not there");
  r = br_at(d, sizeof d, SIZE_MAX);
  CHECK(!br_need(&r, 1) && br_bytes(&r, 1) == NULL, "pos SIZE_MAX: no overflow in the check");

  /* bytes, skip, seek */
  r = br_at(d, sizeof d, 0);
  p = br_bytes(&r, 0);
  CHECK(p == d && r.pos == 0 && !r.failed, "br_bytes(0) succeeds without moving");
  p = br_bytes(&r, 12);
  CHECK(p == d && r.pos == 12, "br_bytes of everything");
  CHECK(br_bytes(&r, 1) == NULL && r.failed, "br_bytes past the end is NULL");
  r = br_at(d, sizeof d, 0);
  CHECK(br_skip(&r, 5) && r.pos == 5, "skip 5");
  CHECK(!br_skip(&r, SIZE_MAX) && r.pos == 5 && r.failed, "skip SIZE_MAX fails without overflow");
  r = br_at(d, sizeof d, 0);
  CHECK(br_seek(&r, 12) && r.pos == 12 && !r.failed, "seek to the end is allowed");
  CHECK(!br_seek(&r, 13) && r.pos == 12 && r.failed, "seek past the end fails and does not move");
  r.failed = 0;
  CHECK(br_seek(&r, 4) && br_u32le(&r) == 0x08070605u, "seek back and read");

  /* an empty reader over NULL reads nothing and touches nothing */
  r = br_at(NULL, 0, 0);
  CHECK(br_u32le(&r) == 0 && r.failed && br_bytes(&r, 0) != NULL, "NULL, 0: reads fail, 0 bytes do not");
}

static void test_reader_need(void) {
  static const unsigned char d[24] = {0};
  byte_reader r = br_at(d, sizeof d, 4);
  CHECK(br_need(&r, 20) && !br_need(&r, 21), "need: 20 left of 24 at 4");
  CHECK(br_need_n(&r, 5, 4) && !br_need_n(&r, 7, 3), "need_n: 5x4 fits, 7x3 does not");
  CHECK(br_need_n(&r, 0, SIZE_MAX) && br_need_n(&r, SIZE_MAX, 0), "need_n: zero records always fit");
  CHECK(!br_need_n(&r, SIZE_MAX / 2 + 1, 2), "need_n: an overflowing product does not fit");
  CHECK(!br_need_n(&r, (SIZE_MAX / 16) + 2, 16), "need_n: another overflow");
  CHECK(!r.failed, "need does not set failed");
}

static void test_reader_f32(void) {
  unsigned char b[12];
  byte_reader r;
  float f;
  uint32_t bits;
  le32_store(b, 0x3F800000u);     /* 1.0 */
  le32_store(b + 4, 0xC0490FDBu); /* -pi */
  le32_store(b + 8, 0x7FC00001u); /* a quiet NaN with a payload */
  r = br_at(b, sizeof b, 0);
  CHECK(br_f32le(&r) == 1.0f, "f32 1.0");
  f = br_f32le(&r);
  CHECK(f < -3.14159f && f > -3.14160f, "f32 -pi");
  f = br_f32le(&r);
  memcpy(&bits, &f, 4);
  CHECK(isnan(f) && bits == 0x7FC00001u, "f32 NaN payload kept (0x%08x)", (unsigned)bits);
  CHECK(br_f32le(&r) == 0.0f && r.failed, "f32 past the end is 0 and fails");
}

static void test_writer(void) {
  byte_writer w;
  unsigned char *p;
  size_t n, i;
  int ok = 1;
  memset(&w, 0, sizeof w);
  for (i = 0; i < 1000; i++) ok &= byte_writer_u32(&w, (uint32_t)i);
  ok &= byte_writer_u16(&w, 0xABCD) & byte_writer_zeros(&w, 3) & byte_writer_bytes(&w, "xy", 2);
  ok &= byte_writer_i32(&w, -1);
  CHECK(ok && !w.failed && w.size == 4000 + 2 + 3 + 2 + 4, "writer grows to %zu bytes", w.size);
  {
    byte_reader r = br_at(w.data, w.size, 3996);
    CHECK(br_u32le(&r) == 999 && br_u16le(&r) == 0xABCD, "what was written reads back");
    CHECK(br_u8(&r) == 0 && br_u8(&r) == 0 && br_u8(&r) == 0, "zeros");
    CHECK(memcmp(br_bytes(&r, 2), "xy", 2) == 0 && br_i32le(&r) == -1 && !br_left(&r), "bytes and i32");
  }
  p = byte_writer_take(&w, &n);
  CHECK(p && n == 4011 && w.data == NULL && w.size == 0, "take hands the buffer over");
  free(p);

  memset(&w, 0, sizeof w);
  byte_writer_u32(&w, 1);
  CHECK(!byte_writer_reserve(&w, SIZE_MAX) && w.failed, "reserving SIZE_MAX more fails");
  CHECK(!byte_writer_u32(&w, 2) && w.size == 4, "after a failure, writes are no-ops");
  byte_writer_free(&w);
  CHECK(w.data == NULL && w.size == 0 && !w.failed, "free leaves an empty writer");
}

int main(void) {
  test_size_arithmetic();
  test_plain_loads();
  test_reader_reads();
  test_reader_need();
  test_reader_f32();
  test_writer();
  return check_done();
}
