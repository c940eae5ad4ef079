/*
** wed_sample.h: the constructed WED area the SQL tests share
** (test_wed_sql, test_statement_safety), written byte by byte here, not
** with the codec's writer, so a codec bug cannot hide in both the writer
** and the reader.
*/
#ifndef LEVELSQL_WED_SAMPLE_H
#define LEVELSQL_WED_SAMPLE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "fileutil.h"

/* Writes a small WED V1.3 area in the DLTCEP section order, byte by byte: a
** 20x15 base overlay "AR9999" (2x2 wall groups; cell k shows TIS tile k),
** four unused overlays, door "DOOR01" (cells 21 and 22, secondary tiles
** 521/522, one open and one closed polygon) and three square walls: wall 0
** in group 0, wall 1 across all four groups, wall 2 in group 3.  Returns 1
** on success. */
static inline int wed_write_constructed(const char *path) {
  enum { W = 20, H = 15, NCELL = W * H, NOV = 5, NWALL = 3, NPOLY = 5, NLOOK = 8 };
  static const uint16_t squares[NPOLY][4] = {
    {100, 200, 100, 200}, {600, 700, 400, 500}, {1000, 1100, 800, 900}, {300, 350, 300, 350}, {310, 360, 300, 360}};
  static const uint16_t lookup[NLOOK] = {0, 1, 3, 4, 1, 1, 1, 2};
  static const uint16_t groups[4][2] = {{0, 4}, {4, 1}, {5, 1}, {6, 2}};
  const uint32_t ov_off = 32, sec_off = ov_off + NOV * 24, door_off = sec_off + 20, tm_off = door_off + 26;
  const uint32_t dc_off = tm_off + NCELL * 10, lk_off = dc_off + 4, wg_off = lk_off + NCELL * 2;
  const uint32_t pg_off = wg_off + 4 * 4, pl_off = pg_off + NPOLY * 18, vx_off = pl_off + NLOOK * 2;
  const size_t size = vx_off + NPOLY * 4 * 4;
  unsigned char *d = calloc(1, size);
  int i, ok;
  if (!d) return 0;
  memcpy(d, "WED V1.3", 8);
  le32_store(d + 8, NOV);
  le32_store(d + 12, 1);
  le32_store(d + 16, ov_off);
  le32_store(d + 20, sec_off);
  le32_store(d + 24, door_off);
  le32_store(d + 28, dc_off);
  le16_store(d + ov_off, W);
  le16_store(d + ov_off + 2, H);
  memcpy(d + ov_off + 4, "AR9999", 6);
  le16_store(d + ov_off + 12, NCELL);
  le32_store(d + ov_off + 16, tm_off);
  le32_store(d + ov_off + 20, lk_off);
  for (i = 1; i < NOV; i++) {
    le32_store(d + ov_off + 24 * i + 16, dc_off);
    le32_store(d + ov_off + 24 * i + 20, dc_off);
  }
  le32_store(d + sec_off, NWALL);
  le32_store(d + sec_off + 4, pg_off);
  le32_store(d + sec_off + 8, vx_off);
  le32_store(d + sec_off + 12, wg_off);
  le32_store(d + sec_off + 16, pl_off);
  memcpy(d + door_off, "DOOR01", 6);
  le16_store(d + door_off + 8, 1);
  le16_store(d + door_off + 10, 0);
  le16_store(d + door_off + 12, 2);
  le16_store(d + door_off + 14, 1);
  le16_store(d + door_off + 16, 1);
  le32_store(d + door_off + 18, pg_off + 18 * 3);
  le32_store(d + door_off + 22, pg_off + 18 * 4);
  for (i = 0; i < NCELL; i++) {
    unsigned char *c = d + tm_off + 10 * i;
    le16_store(c, (uint16_t)i);
    le16_store(c + 2, 1);
    le16_store(c + 4, i == 21 || i == 22 ? (uint16_t)(500 + i) : 0xFFFF);
    le16_store(d + lk_off + 2 * i, (uint16_t)i);
  }
  le16_store(d + dc_off, 21);
  le16_store(d + dc_off + 2, 22);
  for (i = 0; i < 4; i++) {
    le16_store(d + wg_off + 4 * i, groups[i][0]);
    le16_store(d + wg_off + 4 * i + 2, groups[i][1]);
  }
  for (i = 0; i < NPOLY; i++) {
    unsigned char *p = d + pg_off + 18 * i, *v = d + vx_off + 16 * i;
    le32_store(p, (uint32_t)(4 * i));
    le32_store(p + 4, 4);
    p[8] = i < NWALL ? 0x01 : 0x89;
    p[9] = 0xFF;
    le16_store(p + 10, squares[i][0]);
    le16_store(p + 12, squares[i][1]);
    le16_store(p + 14, squares[i][2]);
    le16_store(p + 16, squares[i][3]);
    le16_store(v, squares[i][0]);
    le16_store(v + 2, squares[i][3]);
    le16_store(v + 4, squares[i][1]);
    le16_store(v + 6, squares[i][3]);
    le16_store(v + 8, squares[i][1]);
    le16_store(v + 10, squares[i][2]);
    le16_store(v + 12, squares[i][0]);
    le16_store(v + 14, squares[i][2]);
  }
  for (i = 0; i < NLOOK; i++) le16_store(d + pl_off + 2 * i, lookup[i]);
  ok = file_write_all(path, d, size);
  free(d);
  return ok;
}

#endif
