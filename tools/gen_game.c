/*
** gen_game.c: writes a generated Infinity Engine game of N areas and the
** same areas as loose files, for the bench (tools/bench.sh: a query over
** the game through its chitin.key against the same files loose).
** Usage: gen_game OUTDIR N CONTAINER FILE...
**
** The areas are the FILEs' bytes in turn (WED or ARE files, say the
** corpus's), named AR0000, AR0001, ... with the first FILE's extension:
** OUTDIR/game/chitin.key over OUTDIR/game/data/GAMEnnnn.bif archives of
** 50 areas each, every archive a CONTAINER: biff (BIFF V1), bif (BIF
** V1.0), bifc (BIFC V1.0, 64 KB blocks) or mixed (the three in turn);
** and OUTDIR/loose/AR0000.WED, ... holding the same bytes.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../test/unit/game_writer.h"

#define AREAS_PER_ARCHIVE 50
#define BLOCK_SIZE 65536

/* The container list CONTAINER names, or 0 entries. */
static size_t containers_of(const char *name, int *out) {
  if (strcmp(name, "biff") == 0) out[0] = BIFF_CONTAINER_BIFF;
  else if (strcmp(name, "bif") == 0) out[0] = BIFF_CONTAINER_BIF;
  else if (strcmp(name, "bifc") == 0) out[0] = BIFF_CONTAINER_BIFC;
  else if (strcmp(name, "mixed") == 0) {
    out[0] = BIFF_CONTAINER_BIFF;
    out[1] = BIFF_CONTAINER_BIF;
    out[2] = BIFF_CONTAINER_BIFC;
    return 3;
  } else
    return 0;
  return 1;
}

int main(int argc, char **argv) {
  int containers[3];
  size_t ncont = argc > 3 ? containers_of(argv[3], containers) : 0, n, nfiles, i;
  unsigned char **data;
  size_t *sizes;
  gw_entry *e;
  gw_layout layout;
  const char *dot;
  char path[4096];
  uint16_t type;
  int ok = 1;
  if (argc < 5 || !ncont || (n = strtoul(argv[2], NULL, 10)) == 0 || n > 10000) {
    fprintf(stderr, "usage: gen_game OUTDIR N(1..10000) biff|bif|bifc|mixed FILE...\n");
    return 2;
  }
  dot = strrchr(argv[4], '.');
  if (!dot || !key_type_from_ext(dot + 1, &type)) {
    fprintf(stderr, "gen_game: %s: not a resource type's extension\n", argv[4]);
    return 2;
  }
  nfiles = (size_t)argc - 4;
  data = calloc(nfiles, sizeof *data);
  sizes = calloc(nfiles, sizeof *sizes);
  e = calloc(n, sizeof *e);
  if (!data || !sizes || !e) return 1;
  for (i = 0; i < nfiles && ok; i++) {
    if (!(data[i] = file_read_all(argv[4 + i], &sizes[i]))) {
      fprintf(stderr, "gen_game: cannot read %s\n", argv[4 + i]);
      ok = 0;
    }
  }
  mkdir(argv[1], 0777);
  snprintf(path, sizeof path, "%s/loose", argv[1]);
  mkdir(path, 0777);
  for (i = 0; i < n && ok; i++) {
    snprintf(e[i].resref, sizeof e[i].resref, "AR%04u", (unsigned)i);
    e[i].type = type;
    e[i].data = data[i % nfiles];
    e[i].size = sizes[i % nfiles];
    snprintf(path, sizeof path, "%s/loose/%s%s", argv[1], e[i].resref, dot);
    if (!file_write_all(path, e[i].data, e[i].size)) {
      fprintf(stderr, "gen_game: cannot write %s\n", path);
      ok = 0;
    }
  }
  layout = (gw_layout){AREAS_PER_ARCHIVE, containers, ncont, BLOCK_SIZE};
  snprintf(path, sizeof path, "%s/game", argv[1]);
  if (ok) ok = gw_game_write(path, e, n, &layout);
  for (i = 0; i < nfiles; i++) free(data[i]);
  free(data);
  free(sizes);
  free(e);
  if (ok) printf("wrote %s/game (%zu areas in archives of %d) and %s/loose\n", argv[1], n, AREAS_PER_ARCHIVE, argv[1]);
  return ok ? 0 : 1;
}
