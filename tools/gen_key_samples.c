/*
** gen_key_samples.c: writes a small Infinity Engine game's archives, a
** chitin.key (KEY V1) over three archives, one of each container the
** codec reads (codecs/key), built with test/unit/key_writer.h, for `make
** samples` (tools/gen_samples.sh) and the fuzz seeds of test/fuzz/run.sh.
** Usage: gen_key_samples [--fuzz] OUTDIR
**
** The game (the key names its archives as the games do, "data\X.bif"):
** - data\AREAS.bif, a BIFF V1: two 2DA tables, an IDS list, a 2DA whose
**   file index (4100) needs the locator's 14 bits, and two tilesets, TL0100
**   (one palette tile of 5120 bytes) and TL0150 (four 12-byte PVRZ tiles),
**   stored without their TIS headers;
** - data\TILES.bif, a BIFC V1.0 (blocks of 2 KB): a tileset of 64 PVRZ
**   tiles (TL0200) and a 2DA;
** - data\MISC.bif, a BIF V1.0 (one zlib stream, its name "MISC.BIF"
**   stored): an IDS list.
** Beside those, the game holds the Infinity Engine samples the other
** generators wrote into OUTDIR before it (tools/gen_samples.sh runs it
** last): every *.WED, *.ARE, *.TIS and *.PVRZ there whose name has at
** most 8 characters before the extension, the same bytes, spread over the
** three archives in turn (files at file indices from 100; a TIS as a
** tileset, without its 24-byte header, numbered after the archive's own),
** so a table reads the same rows from the game as from the loose files
** (README, "The game as a source").
** `make samples` writes them into OUTDIR/iegame/ (chitin.key beside a data/
** folder, a game's layout), out of the way of the folder sources that list
** OUTDIR itself.  With --fuzz the same files go into OUTDIR flat
** (CHITIN.KEY, AREAS.BIF, TILES.BIF, MISC.CBF; 8 KB at most), with two
** hostile BIFC seeds the codec must refuse: BOMB.BIF claims 4 KB and
** holds 1 MiB of zeros in 1 KB, HUGE.BIF claims 4 GB.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../test/unit/key_writer.h"
#include "key/biff.h"
#include "key/key.h"
#include "samples.h"

#define TILE_PAL 5120u
#define TILE_PVRZ 12u
#define BIFC_BLOCK 2048u

enum { ARC_AREAS, ARC_TILES, ARC_MISC, NUM_ARCS };

static const char tda_spawns[] = "2DA V1.0\n*\n        CREATURE  COUNT\nGOBLIN  GOBLIN01  4\nORC     ORC01     2\n";
static const char tda_music[] = "2DA V1.0\n0\n        RESREF\nAR0100  MX0100\nAR0200  MX0200\n";
static const char tda_far[] = "2DA V1.0\n*\n        VALUE\nFAR     4100\n";
static const char tda_tiles[] = "2DA V1.0\n*\n        TILESET  NIGHT\nAR0200  TL0200   0\n";
static const char ids_types[] = "IDS V1.0\n0x0001 OUTDOOR\n0x0002 DAYNIGHT\n0x0004 WEATHER\n";
static const char ids_misc[] = "IDS V1.0\n0 NONE\n1 ONE\n";

/* The tiles: a palette tile (a grey ramp, then indices), PVRZ references
** (page, x, y) of one archive or the other. */
static unsigned char pal_tile[TILE_PAL], pvrz4[4 * TILE_PVRZ], pvrz64[64 * TILE_PVRZ];

static void make_tiles(void) {
  uint32_t i;
  for (i = 0; i < 256; i++)
    memset(pal_tile + 4 * i, (int)i, 3);
  for (i = 0; i < 4096; i++)
    pal_tile[1024 + i] = (unsigned char)((i % 64 + i / 64) & 0xFF);
  for (i = 0; i < 4; i++) {
    le32_store(pvrz4 + 12 * i, 0);
    le32_store(pvrz4 + 12 * i + 4, 64 * (i % 2));
    le32_store(pvrz4 + 12 * i + 8, 64 * (i / 2));
  }
  for (i = 0; i < 64; i++) {
    le32_store(pvrz64 + 12 * i, i / 64);
    le32_store(pvrz64 + 12 * i + 4, 64 * (i % 8));
    le32_store(pvrz64 + 12 * i + 8, 64 * (i / 8));
  }
}

#define TEXT(s) (const unsigned char *)(s), sizeof(s) - 1

/* The loose samples packed into the game (main reads them before the
** archives are built; read-only after). */
#define MAX_PACKED 64
#define PACKED_INDEX 100u /* file index of the first */
typedef struct packed_file {
  char resref[9];
  uint16_t type;
  unsigned char *data;
  size_t size;
} packed_file;
static packed_file packed[MAX_PACKED];
static size_t npacked;

static int compare_packed(const void *a, const void *b) {
  return strcmp(((const packed_file *)a)->resref, ((const packed_file *)b)->resref);
}

/* Whether a sample of this type is packed: a TIS only with its TIS V1
** header (24 bytes), which the archive stores it without. */
static int packed_kind(uint16_t type, const unsigned char *data, size_t size) {
  if (type == KEY_TYPE_TIS)
    return size >= TIS_HEADER_SIZE && memcmp(data, "TIS V1  ", 8) == 0 && le32_load(data + 16) == TIS_HEADER_SIZE &&
           (uint64_t)le32_load(data + 8) * le32_load(data + 12) == size - TIS_HEADER_SIZE;
  return type == KEY_TYPE_WED || type == KEY_TYPE_ARE || type == KEY_TYPE_PVRZ;
}

/* Reads OUTDIR's *.WED, *.ARE, *.TIS and *.PVRZ samples (resrefs of 1 to
** 8 characters) into packed[], in order of their names.  Returns 0 after
** printing why when one cannot be read. */
static int read_packed(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d)) != NULL && npacked < MAX_PACKED) {
    const char *dot = strrchr(e->d_name, '.');
    char path[4096];
    uint16_t type;
    size_t n = dot ? (size_t)(dot - e->d_name) : 0;
    if (!dot || !n || n > 8 || !key_type_from_ext(dot + 1, &type) ||
        (type != KEY_TYPE_WED && type != KEY_TYPE_ARE && type != KEY_TYPE_TIS && type != KEY_TYPE_PVRZ))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    memcpy(packed[npacked].resref, e->d_name, n);
    packed[npacked].resref[n] = 0;
    packed[npacked].type = type;
    if (!(packed[npacked].data = file_read_all(path, &packed[npacked].size))) {
      fprintf(stderr, "gen_key_samples: cannot read %s\n", path);
      closedir(d);
      return 0;
    }
    if (packed_kind(type, packed[npacked].data, packed[npacked].size)) npacked++;
    else free(packed[npacked].data);
  }
  if (d) closedir(d);
  qsort(packed, npacked, sizeof *packed, compare_packed);
  return 1;
}

/* The archive's own tilesets: AREAS has 2, TILES 1, MISC none. */
static uint32_t own_tilesets(int arc) {
  return arc == ARC_AREAS ? 2 : arc == ARC_TILES ? 1 : 0;
}

/* The locator of packed sample i: in archive i % NUM_ARCS, a file at
** PACKED_INDEX + i, or a TIS as the archive's next tileset. */
static uint32_t packed_locator(size_t i) {
  int arc = (int)(i % NUM_ARCS);
  uint32_t tileset = own_tilesets(arc);
  size_t j;
  if (packed[i].type != KEY_TYPE_TIS) return key_locator_make((uint32_t)arc, 0, PACKED_INDEX + (uint32_t)i);
  for (j = (size_t)arc; j <= i; j += NUM_ARCS) tileset += packed[j].type == KEY_TYPE_TIS;
  return key_locator_make((uint32_t)arc, tileset, 0);
}

/* Archive `arc` as a BIFF V1 (before compression): its own files and
** tilesets, then the packed samples that fall to it. */
static unsigned char *build_biff(int arc, size_t *size) {
  const kw_file areas[] = {{0, KEY_TYPE_2DA, TEXT(tda_spawns)},
                           {1, KEY_TYPE_2DA, TEXT(tda_music)},
                           {2, 0x03F0, TEXT(ids_types)},
                           {4100, KEY_TYPE_2DA, TEXT(tda_far)}};
  const kw_tileset areas_tiles[] = {{1, 1, TILE_PAL, pal_tile}, {2, 4, TILE_PVRZ, pvrz4}};
  const kw_file tiles[] = {{0, KEY_TYPE_2DA, TEXT(tda_tiles)}};
  const kw_tileset tiles_tiles[] = {{1, 64, TILE_PVRZ, pvrz64}};
  const kw_file misc[] = {{0, 0x03F0, TEXT(ids_misc)}};
  const kw_file *own = arc == ARC_AREAS ? areas : arc == ARC_TILES ? tiles : misc;
  const kw_tileset *own_tiles = arc == ARC_AREAS ? areas_tiles : tiles_tiles;
  size_t nown = arc == ARC_AREAS ? 4 : 1, nf = 0, nt = 0, i;
  kw_file files[4 + MAX_PACKED];
  kw_tileset tilesets[2 + MAX_PACKED];
  for (i = 0; i < nown; i++) files[nf++] = own[i];
  for (i = 0; i < own_tilesets(arc); i++) tilesets[nt++] = own_tiles[i];
  for (i = (size_t)arc; i < npacked; i += NUM_ARCS) {
    const packed_file *p = &packed[i];
    if (p->type == KEY_TYPE_TIS)
      tilesets[nt++] = (kw_tileset){key_locator_tileset(packed_locator(i)), le32_load(p->data + 8), le32_load(p->data + 12),
                                    p->data + TIS_HEADER_SIZE};
    else
      files[nf++] = (kw_file){PACKED_INDEX + (uint32_t)i, p->type, p->data, p->size};
  }
  return kw_biff_build(files, nf, tilesets, nt, size);
}

/* Archive `arc` in its container. */
static unsigned char *build_archive(int arc, size_t *size) {
  size_t n = 0;
  unsigned char *biff = build_biff(arc, &n), *out;
  if (!biff || arc == ARC_AREAS) {
    *size = n;
    return biff;
  }
  out = arc == ARC_TILES ? kw_bifc_build(biff, n, BIFC_BLOCK, size) : kw_bif_build(biff, n, "MISC.BIF", size);
  free(biff);
  return out;
}

/* The key over the three archives (their sizes as written). */
static unsigned char *build_key(size_t *size) {
  kw_biff biffs[NUM_ARCS] = {
      {"data\\AREAS.bif", 0, KEY_LOC_DATA}, {"data\\TILES.bif", 0, KEY_LOC_DATA}, {"data\\MISC.bif", 0, KEY_LOC_DATA}};
  const kw_res res[] = {
      {"SPAWNS", KEY_TYPE_2DA, key_locator_make(ARC_AREAS, 0, 0)},
      {"MUSIC", KEY_TYPE_2DA, key_locator_make(ARC_AREAS, 0, 1)},
      {"AREATYPE", 0x03F0, key_locator_make(ARC_AREAS, 0, 2)},
      {"FAR", KEY_TYPE_2DA, key_locator_make(ARC_AREAS, 0, 4100)},
      {"TL0100", KEY_TYPE_TIS, key_locator_make(ARC_AREAS, 1, 0)},
      {"TL0150", KEY_TYPE_TIS, key_locator_make(ARC_AREAS, 2, 0)},
      {"TILESETS", KEY_TYPE_2DA, key_locator_make(ARC_TILES, 0, 0)},
      {"TL0200", KEY_TYPE_TIS, key_locator_make(ARC_TILES, 1, 0)},
      {"MISC", 0x03F0, key_locator_make(ARC_MISC, 0, 0)},
  };
  kw_res all[sizeof res / sizeof res[0] + MAX_PACKED];
  size_t n = 0, i;
  int arc;
  for (arc = 0; arc < NUM_ARCS; arc++) {
    size_t bytes = 0;
    unsigned char *a = build_archive(arc, &bytes);
    if (!a) return NULL;
    free(a);
    biffs[arc].file_length = (uint32_t)bytes;
  }
  for (i = 0; i < sizeof res / sizeof res[0]; i++) all[n++] = res[i];
  for (i = 0; i < npacked; i++) all[n++] = (kw_res){packed[i].resref, packed[i].type, packed_locator(i)};
  return kw_key_build(biffs, NUM_ARCS, all, n, size);
}

/* A hostile BIFC: HUGE claims 4 GB; BOMB claims 4 KB and holds 1 MiB. */
static unsigned char *build_hostile(int bomb, size_t *size) {
  size_t big = (size_t)1 << 20;
  unsigned char *zeros = (unsigned char *)calloc(1, big), *out;
  if (!zeros) return NULL;
  out = kw_bifc_build(zeros, big, big, size);
  free(zeros);
  if (out && bomb) {
    le32_store(out + 8, 4096);
    le32_store(out + BIFC_HEADER_SIZE, 4096);
  } else if (out) {
    le32_store(out + 8, 0xFFFFFFF0u);
  }
  return out;
}

/* The files: sample name, seed name, what. */
static const struct {
  const char *sample, *seed, *what;
} files[] = {
    {"iegame/chitin.key", "CHITIN.KEY", "KEY V1: 3 BIFFs, 9 resources and the areas packed"},
    {"iegame/data/AREAS.bif", "AREAS.BIF", "BIFF V1: 4 files (one at file index 4100), 2 tilesets, areas"},
    {"iegame/data/TILES.bif", "TILES.BIF", "BIFC V1.0: a tileset of 64 PVRZ tiles, a 2DA and areas, 2 KB blocks"},
    {"iegame/data/MISC.bif", "MISC.CBF", "BIF V1.0: an IDS and areas"},
    {NULL, "BOMB.BIF", "hostile BIFC: claims 4 KB, holds 1 MiB of zeros"},
    {NULL, "HUGE.BIF", "hostile BIFC: claims 4 GB"},
};

static int build_file(size_t i, int fuzz, sample_file *f, codec_error *err) {
  make_tiles();
  f->name = fuzz ? files[i].seed : files[i].sample;
  snprintf(f->what, sizeof f->what, "%s", files[i].what);
  if (i == 0)
    f->data = build_key(&f->size);
  else if (i <= NUM_ARCS)
    f->data = build_archive((int)i - 1, &f->size);
  else {
    f->data = build_hostile(i == 4, &f->size);
    f->check = SAMPLE_REFUSED;
  }
  return f->data ? 1 : codec_fail_oom(err, "out of memory (or zlib failed)");
}

static int key_sample(size_t i, sample_file *f, codec_error *err) {
  return build_file(i, 0, f, err);
}

static int key_seed(size_t i, sample_file *f, codec_error *err) {
  return build_file(i, 1, f, err);
}

/* A key parses; an archive opens (at most 64 MiB inflated: the samples packed are a few MB) and every entry
** extracts. */
static int key_reparse(const unsigned char *data, size_t size, codec_error *err) {
  biff_archive *a = NULL;
  uint32_t i;
  int ok = 1;
  if (key_sniff(data, size)) {
    key_file *k = NULL;
    ok = key_parse(data, size, NULL, &k, err);
    key_free(k);
    return ok;
  }
  if (!biff_open(data, size, (size_t)64 << 20, NULL, &a, err)) return 0;
  for (i = 0; ok && i < a->num_files + a->num_tilesets; i++) {
    unsigned char *out = NULL;
    size_t n = 0;
    uint32_t loc = i < a->num_files ? a->files[i].locator : a->tilesets[i - a->num_files].locator;
    ok = biff_extract(a, loc, NULL, &out, &n, NULL, err);
    free(out);
  }
  biff_free(a);
  return ok;
}

int main(int argc, char **argv) {
  sample_set samples = {NUM_ARCS + 1, key_sample};
  sample_set seeds = {sizeof files / sizeof files[0], key_seed};
  if (argc == 2 && argv[1][0] != '-') { /* the game's folders, below OUTDIR */
    char path[4096];
    mkdir(argv[1], 0777);
    snprintf(path, sizeof path, "%s/iegame", argv[1]);
    mkdir(path, 0777);
    snprintf(path, sizeof path, "%s/iegame/data", argv[1]);
    mkdir(path, 0777);
    if (!read_packed(argv[1])) return 1;
  }
  return sample_run(argc, argv, "gen_key_samples", samples, seeds, key_reparse);
}
