/*
** fuzz_are.c: libFuzzer harness for the AREA V1.0 codec (codecs/are/).
**
** Parse; a rejection must carry a message and CODEC_E_FORMAT, _LIMIT or
** _MEMORY.  An accepted area must pass are_check, rewrite byte-identically
** (unless its sections overlapped: then it is laid out again), and
** re-parse.  Then edits chosen by the input's last bytes (an item inserted
** into and deleted from a container, a container, region or door deleted,
** a vertex run replaced, an actor and an entrance inserted, a projectile
** trap's effect block replaced) are applied to a clone, and a copy of the
** first record of any section inserted; a failed edit must leave the area
** consistent, and every record's uid must still find it.  The result is
** serialized and re-parsed: the item runs of the containers must still
** hold every item once, and a second write of the re-parsed area must give
** the very same bytes.  Any inconsistency calls abort().
**
** Build and run: make build-fuzz/fuzz/fuzz_are; seeds come from
** tools/gen_are_samples --fuzz (test/fuzz/run.sh), never the repository.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "are/are.h"

/* Stops the run with a message: libFuzzer records the input. */
static void die(const char *what, const char *msg) {
  fprintf(stderr, "fuzz_are: %s: %s\n", what, msg ? msg : "");
  abort();
}

/* The sum of the containers' item counts (to compare after edits). */
static uint64_t items_held(const are_area *a) {
  uint64_t sum = 0;
  uint32_t i;
  for (i = 0; i < a->num_containers; i++) sum += a->containers[i].item_count;
  return sum;
}

/* Item edits picked by sel: the table and the containers' runs must move
** together (a success adds or removes exactly one item everywhere). */
static void item_edits(are_area *a, uint32_t sel) {
  codec_error err;
  are_item it;
  memset(&it, 0, sizeof it);
  memcpy(it.resref, "FUZZITEM", 8);
  if ((sel & 1) && a->num_containers) {
    uint32_t c = (sel >> 8) % a->num_containers, n = a->num_items;
    uint64_t held = items_held(a);
    if (are_item_insert(a, c, (sel >> 4) % (a->containers[c].item_count + 1u), &it, &err)) {
      if (a->num_items != n + 1 || items_held(a) != held + 1) die("item insert", "counts do not follow");
    } else if (a->num_items != n || items_held(a) != held) {
      die("item insert", "a failed insert changed the area");
    }
  }
  if ((sel & 2) && a->num_containers) {
    uint32_t c = (sel >> 12) % a->num_containers, n = a->num_items;
    uint64_t held = items_held(a);
    if (a->containers[c].item_count && are_item_delete(a, c, (sel >> 5) % a->containers[c].item_count, &err)) {
      if (a->num_items != n - 1 || items_held(a) != held - 1) die("item delete", "counts do not follow");
    } else if (a->num_items != n || items_held(a) != held) {
      die("item delete", "a failed delete changed the area");
    }
  }
}

/* Record and vertex edits picked by sel. */
static void record_edits(are_area *a, uint32_t sel) {
  codec_error err;
  static const enum are_section del[4] = {ARE_CONTAINERS, ARE_REGIONS, ARE_DOORS, ARE_ACTORS};
  enum are_section s = del[(sel >> 2) & 3];
  if ((sel & 16) && are_count(a, s)) {
    uint32_t n = are_count(a, s);
    if (are_delete(a, s, (sel >> 6) % n, &err)) {
      if (are_count(a, s) != n - 1) die("delete", "count did not drop by one");
    } else if (are_count(a, s) != n) {
      die("delete", "a failed delete changed the count");
    }
  }
  if ((sel & 32) && a->num_regions) {
    are_point tri[3] = {{(uint16_t)(sel >> 3), 10}, {700, (uint16_t)(sel >> 9)}, {1300, 990}};
    (void)are_vertices_set(a, ARE_REGIONS, (sel >> 10) % a->num_regions, ARE_RUN_OUTLINE, tri, 3, &err);
  }
  if ((sel & 64) && a->num_doors) {
    are_point two[2] = {{1, 2}, {3, 4}};
    (void)are_vertices_set(a, ARE_DOORS, (sel >> 11) % a->num_doors, (enum are_run)(ARE_RUN_OPEN + (sel >> 7) % 4),
                           two, 2, &err);
  }
  if (sel & 128) {
    are_actor ac;
    are_entrance en;
    memset(&ac, 0, sizeof ac);
    memset(&en, 0, sizeof en);
    memcpy(ac.name, "Fuzz", 4);
    (void)are_insert(a, ARE_ACTORS, 0, &ac, &err);
    (void)are_insert(a, ARE_ENTRANCES, a->num_entrances, &en, &err);
  }
  if (sel & 256) {
    /* a copy of the first record of any section inserted at the front */
    enum are_section t = (enum are_section)((sel >> 9) % ARE_NUM_SECTIONS);
    uint32_t n = are_count(a, t);
    if (n && t != ARE_ITEMS && t != ARE_VERTICES && t != ARE_EXPLORED) {
      if (are_insert(a, t, 0, *are_array_ptr(a, t), &err)) {
        if (are_count(a, t) != n + 1) die("insert", "count did not grow by one");
      } else if (are_count(a, t) != n) {
        die("insert", "a failed insert changed the count");
      }
    }
  }
  if ((sel & 512) && a->num_traps) {
    /* a new effect block for the first projectile trap: the file is laid out again */
    static const unsigned char effect[5] = {1, 2, 3, 4, 5};
    if (!are_block_set(a, ARE_TRAPS, 0, effect, (sel >> 10) % 6, &err)) die("block set", err.msg);
  }
  if (!are_check(a, &err)) die("check after edits", err.msg);
}

/* Every record's uid finds that record (the row keys of the tables). */
static void uids_consistent(const are_area *a) {
  uint32_t s, i, at;
  for (s = 0; s < ARE_NUM_SECTIONS; s++) {
    if (s == ARE_VERTICES || s == ARE_EXPLORED) continue;
    for (i = 0; i < are_count(a, (enum are_section)s); i++)
      if (!are_uid_find(a, (enum are_section)s, are_uid(a, (enum are_section)s, i), &at) || at != i)
        die("uids", are_section_name((enum are_section)s));
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  codec_error err;
  are_area *a, *b, *c, *cl;
  unsigned char *out = NULL, *out2 = NULL, *out3 = NULL;
  size_t os = 0, os2 = 0, os3 = 0;
  uint32_t sel;
  codec_error_clear(&err);
  a = are_parse(data, size, &err);
  if (!a) {
    if (!err.msg[0]) die("reject", "rejected without a message");
    if (err.code != CODEC_E_FORMAT && err.code != CODEC_E_LIMIT && err.code != CODEC_E_MEMORY)
      die("reject", "rejected with the wrong code");
    return 0;
  }
  if (!are_check(a, &err)) die("check after parse", err.msg);
  if (!are_serialize(a, &out, &os, &err)) die("serialize unmodified", err.msg);
  if (!a->overlap && (os != size || memcmp(out, data, size) != 0)) die("rewrite", "not byte-identical");
  b = are_parse(out, os, &err);
  if (!b) die("re-parse unmodified", err.msg);
  are_free(b);
  free(out);

  cl = are_clone(a);
  if (!cl) die("clone", "out of memory");
  sel = size >= 4 ? (uint32_t)data[size - 1] | ((uint32_t)data[size - 2] << 8) | ((uint32_t)data[size - 3] << 16)
                  : 0xFFu;
  item_edits(cl, sel);
  record_edits(cl, sel >> 1);
  uids_consistent(cl);
  if (!are_serialize(cl, &out2, &os2, &err)) die("serialize edited", err.msg);
  c = are_parse(out2, os2, &err);
  if (!c) die("re-parse edited", err.msg);
  if (c->num_items != cl->num_items || items_held(c) != items_held(cl) || c->num_vertices != cl->num_vertices)
    die("counts", "the written file does not hold the edited tables");
  if (!are_serialize(c, &out3, &os3, &err)) die("serialize re-parsed", err.msg);
  if (!c->overlap && (os3 != os2 || memcmp(out3, out2, os2) != 0)) die("stability", "second write differs");
  are_free(c);
  are_free(cl);
  are_free(a);
  free(out2);
  free(out3);
  return 0;
}
