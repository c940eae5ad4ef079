/*
** game_writer.h: writes a whole Infinity Engine game folder for the tests
** and the bench (test_game.c, tools/gen_game.c): a chitin.key over
** archives in data/, each archive a BIFF V1, a BIF V1.0 or a BIFC V1.0,
** holding the resources given (built with key_writer.h).  A TIS resource
** (a file with its 24-byte TIS V1 header) is stored as the games store
** tilesets: a tileset entry, without its header.
**
** Ownership: the entries' bytes are the caller's; nothing is kept.
*/
#ifndef LEVELSQL_GAME_WRITER_H
#define LEVELSQL_GAME_WRITER_H

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "fileutil.h"
#include "key_writer.h"

/* One resource of the game. */
typedef struct gw_entry {
  char resref[9];
  uint16_t type;
  const unsigned char *data;
  size_t size;
} gw_entry;

/* How the game is laid out: per_archive resources an archive (the last
** holds the rest), archive k in containers[k % ncontainers]
** (BIFF_CONTAINER_*), BIFC blocks of block_size bytes. */
typedef struct gw_layout {
  size_t per_archive;
  const int *containers;
  size_t ncontainers;
  size_t block_size;
} gw_layout;

/* Archive k's entries [from, to) as a BIFF V1 (tilesets numbered from 1,
** files from 0), in its container; *locators gets each entry's locator
** for the key (archive index k).  NULL when out of memory. */
static inline unsigned char *gw_archive_build(const gw_entry *e, size_t from, size_t to, uint32_t k, int container,
                                              size_t block_size, uint32_t *locators, size_t *size) {
  kw_file *files = (kw_file *)calloc(to - from + 1, sizeof *files);
  kw_tileset *tiles = (kw_tileset *)calloc(to - from + 1, sizeof *tiles);
  size_t i, nf = 0, nt = 0, n = 0;
  unsigned char *biff = NULL, *out = NULL;
  char name[32];
  if (files && tiles) {
    for (i = from; i < to; i++) {
      if (e[i].type == KEY_TYPE_TIS && e[i].size >= TIS_HEADER_SIZE) {
        uint32_t count = le32_load(e[i].data + 8), tile = le32_load(e[i].data + 12);
        tiles[nt] = (kw_tileset){(uint32_t)nt + 1, count, tile, e[i].data + TIS_HEADER_SIZE};
        locators[i - from] = key_locator_make(k, (uint32_t)nt + 1, 0);
        nt++;
      } else {
        files[nf] = (kw_file){(uint32_t)nf, e[i].type, e[i].data, e[i].size};
        locators[i - from] = key_locator_make(k, 0, (uint32_t)nf);
        nf++;
      }
    }
    biff = kw_biff_build(files, nf, tiles, nt, &n);
  }
  free(files);
  free(tiles);
  if (!biff || container == BIFF_CONTAINER_BIFF) {
    *size = n;
    return biff;
  }
  snprintf(name, sizeof name, "GAME%04u.BIF", (unsigned)k);
  out = container == BIFF_CONTAINER_BIF ? kw_bif_build(biff, n, name, size) : kw_bifc_build(biff, n, block_size, size);
  free(biff);
  return out;
}

/* Writes dir/chitin.key and dir/data/GAMEnnnn.bif for the n entries.
** Returns 1, or 0 after printing why. */
static inline int gw_game_write(const char *dir, const gw_entry *e, size_t n, const gw_layout *layout) {
  size_t per = layout->per_archive ? layout->per_archive : n ? n : 1;
  size_t narch = n ? (n + per - 1) / per : 0, k, i, key_size = 0;
  kw_biff *biffs = (kw_biff *)calloc(narch + 1, sizeof *biffs);
  kw_res *res = (kw_res *)calloc(n + 1, sizeof *res);
  uint32_t *locators = (uint32_t *)calloc(n + 1, sizeof *locators);
  char (*names)[32] = (char (*)[32])calloc(narch + 1, sizeof *names), path[4096];
  unsigned char *key = NULL;
  int ok = biffs && res && locators && names;
  if (snprintf(path, sizeof path, "%.4000s/data", dir) >= (int)sizeof path) ok = 0;
  if (ok && (mkdir(dir, 0777) != 0 && errno != EEXIST)) ok = 0;
  if (ok && (mkdir(path, 0777) != 0 && errno != EEXIST)) ok = 0;
  for (k = 0; ok && k < narch; k++) {
    size_t from = k * per, to = from + per < n ? from + per : n, size = 0;
    int container = layout->containers[k % layout->ncontainers];
    unsigned char *a = gw_archive_build(e, from, to, (uint32_t)k, container, layout->block_size, locators + from, &size);
    snprintf(names[k], sizeof names[k], "data\\GAME%04u.bif", (unsigned)k);
    ok = a && snprintf(path, sizeof path, "%.4000s/data/GAME%04u.bif", dir, (unsigned)k) < (int)sizeof path &&
         file_write_all(path, a, size);
    biffs[k] = (kw_biff){names[k], (uint32_t)size, KEY_LOC_DATA};
    free(a);
  }
  for (i = 0; ok && i < n; i++) res[i] = (kw_res){e[i].resref, e[i].type, locators[i]};
  if (ok) key = kw_key_build(biffs, narch, res, n, &key_size);
  ok = ok && key && snprintf(path, sizeof path, "%.4000s/chitin.key", dir) < (int)sizeof path &&
       file_write_all(path, key, key_size);
  if (!ok) printf("gw_game_write: cannot write the game in %s: %s\n", dir, strerror(errno));
  free(key);
  free(biffs);
  free(res);
  free(locators);
  free(names);
  return ok;
}

#endif
