/*
** fuzz_budget.h: how much of one Teeworlds map the harnesses decode
** (fuzz_twmap, fuzz_render; fuzz_datafile compares its blobs' declared
** sizes with the same figure).
**
** A map's layers are decoded lazily, so parsing a small file is cheap
** whatever its items claim; decoding every layer is not: the hostile seed
** amplify_07.map (run.sh; 40 layers of 4096 x 4096 cells sharing one
** blob of a few hundred bytes) would have fuzz_twmap decode 2.6 GB, two
** minutes a run.  The engine refuses such a file from what its items
** claim before it decodes (issue 24 item 5); the harnesses do the same
** with a budget small enough to keep thousands of runs a second: a map
** whose layers claim more than it is parsed, then dropped.  The claim
** is cells (or quads, sound sources) times their decoded size, summed
** over every layer, saturating rather than wrapping.
*/
#ifndef LEVELSQL_FUZZ_BUDGET_H
#define LEVELSQL_FUZZ_BUDGET_H

#include <stdint.h>

#include "tw/twmap.h"

/* Bytes of decoded layers a harness decodes at most (1 MiB: 256K cells). */
#define FUZZ_MAX_DECODED_BYTES (1u << 20)

/* What decoding every layer of m would allocate, from its items' claims. */
static inline uint64_t fuzz_tw_claimed_bytes(const tw_map *m) {
  uint64_t total = 0;
  size_t l;
  for (l = 0; l < m->num_layers; l++) {
    const tw_layer *L = &m->layers[l];
    uint64_t size = (uint64_t)L->count * (uint64_t)(L->cell_size ? L->cell_size : 1);
    if (L->cell_size > 1 && size / L->cell_size != L->count) return UINT64_MAX;
    if (size > UINT64_MAX - total) return UINT64_MAX;
    total += size;
  }
  return total;
}

/* Whether m's layers claim more than the harnesses decode. */
static inline int fuzz_tw_over_budget(const tw_map *m) {
  return fuzz_tw_claimed_bytes(m) > FUZZ_MAX_DECODED_BYTES;
}

#endif
