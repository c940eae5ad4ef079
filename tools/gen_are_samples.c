/*
** gen_are_samples.c: the Infinity Engine area (.ARE, AREA V1.0) files built
** with the ARE codec's own edits (test/unit/are_sample.h: are_insert,
** are_vertices_set, are_item_insert) and writer (are_serialize).
** Usage: gen_are_samples [--fuzz] OUTDIR
**
** `gen_are_samples OUTDIR` (tools/gen_samples.sh, `make samples`) writes no
** file yet: the samples folder is what the SQL tests, the demo and the
** hosts read, and they count its files per format; the ARE sample areas
** come with the ARE tables (issue 26), which will read them.
** `gen_are_samples --fuzz OUTDIR` writes the seeds of test/fuzz/run.sh:
** - FUZZ.ARE (about 4 KB): every section kind: two actors (one with an
**   embedded CRE block), a trap, an info point and a travel region, a
**   spawn point, two entrances, two containers with five items, ambients,
**   a variable, an explored bitmask, two doors with their four vertex runs,
**   animations, a tiled object, song entries, rest interruptions, an
**   automap note, a projectile trap with its effect block;
** - FUZZ2.ARE (about 6 KB): the same with six actors and four containers,
**   after an item, a region and a container were deleted (the layout an
**   edited file gets).
*/
#include <stdio.h>
#include <stdlib.h>

#include "../test/unit/are_sample.h"
#include "samples.h"
#include "are/are.h"

/* Reads a written area back with the codec (sample_write's check). */
static int are_reparse(const unsigned char *data, size_t size, codec_error *err) {
  are_area *a = are_parse(data, size, err);
  are_free(a);
  return a != NULL;
}

/* Fuzz seed i: the small sample, then the larger one after deletes. */
static int are_seed(size_t i, sample_file *f, codec_error *err) {
  are_area *a = are_sample_build(i == 1, err);
  int ok = a != NULL;
  f->name = i == 0 ? "FUZZ.ARE" : "FUZZ2.ARE";
  snprintf(f->what, sizeof f->what, "%s", i == 0 ? "fuzz seed, every section kind" : "fuzz seed, edited layout");
  if (ok && i == 1)
    ok = are_item_delete(a, 0, 1, err) && are_delete(a, ARE_REGIONS, 1, err) && are_delete(a, ARE_CONTAINERS, 2, err);
  ok = ok && are_serialize(a, &f->data, &f->size, err);
  are_free(a);
  return ok;
}

/* No sample files yet (see above). */
static int are_sample(size_t i, sample_file *f, codec_error *err) {
  (void)i;
  (void)f;
  return codec_fail(err, "no ARE samples");
}

int main(int argc, char **argv) {
  sample_set files = {0, are_sample};
  sample_set seeds = {2, are_seed};
  return sample_run(argc, argv, "gen_are_samples", files, seeds, are_reparse);
}
