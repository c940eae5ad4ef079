/*
** test_are.c: unit tests of the AREA V1.0 codec (codecs/are/are.[ch],
** are_edit.c).
**
** - Layout: every record's field table covers its record exactly once.
** - A constructed area (test/unit/are_sample.h, every section kind): it
**   writes, parses back to the same bytes, and every edit (items in and out
**   of containers, containers, regions and doors deleted, vertex runs
**   replaced) keeps the runs consistent and re-parses.
** - Hostile input: truncations at every length, counts and offsets past the
**   end or overflowing, huge counts, runs past their table, embedded
**   blocks past the end, other versions: each a clear error, no crash.
** - The real corpus ($LEVELSQL_CORPUS/are, else ../shared/corpus/are;
**   SKIPped when absent): every file parses with the counts and offsets its
**   header states, rewrites byte-identical in place, and a new layout
**   (forced) gives the same bytes too; item / container / region / door
**   edits keep it consistent.
*/
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "are_sample.h"
#include "check.h"
#include "fileutil.h"
#include "are/are.h"
#include "common/bytes.h"

/* Serializes a, or NULL (with a failed CHECK). */
static unsigned char *write_area(const are_area *a, size_t *n, const char *what) {
  unsigned char *out = NULL;
  codec_error err = {0};
  int ok = are_serialize(a, &out, n, &err);
  CHECK(ok, "%s: serialize: %s", what, err.msg);
  return ok ? out : NULL;
}

/* The invariants every model must keep: item runs of the containers are
** disjoint and inside the items, and every vertex run inside the vertices. */
static int consistent(const are_area *a, const char *what) {
  uint32_t i, j, sum = 0;
  codec_error err = {0};
  if (!are_check(a, &err)) {
    CHECK(0, "%s: are_check: %s", what, err.msg);
    return 0;
  }
  for (i = 0; i < a->num_containers; i++) {
    const are_container *c = &a->containers[i];
    sum += c->item_count;
    for (j = 0; j < a->num_containers; j++) {
      const are_container *d = &a->containers[j];
      if (i != j && c->item_count && d->item_count && c->first_item < d->first_item + d->item_count &&
          d->first_item < c->first_item + c->item_count) {
        CHECK(0, "%s: containers %u and %u share items", what, i, j);
        return 0;
      }
    }
  }
  if (sum != a->num_items) {
    CHECK(0, "%s: containers hold %u items, the table %u", what, sum, a->num_items);
    return 0;
  }
  return 1;
}

/* Writes, re-parses and writes again: the bytes must be the same. */
static are_area *roundtrip(const are_area *a, const char *what) {
  size_t n = 0, n2 = 0;
  unsigned char *out = write_area(a, &n, what), *out2;
  codec_error err = {0};
  are_area *b;
  if (!out) return NULL;
  b = are_parse(out, n, &err);
  CHECK(b != NULL, "%s: re-parse: %s", what, err.msg);
  if (b) {
    out2 = write_area(b, &n2, what);
    CHECK(out2 && n2 == n && memcmp(out, out2, n) == 0, "%s: a second write differs", what);
    free(out2);
  }
  free(out);
  return b;
}

/* An edited area: consistent, and it writes and re-parses. */
static void check_edited(const are_area *a, const char *what) {
  are_area *b;
  CHECK(consistent(a, what), "%s: consistent", what);
  b = roundtrip(a, what);
  CHECK(b != NULL, "%s: re-parsed", what);
  are_free(b);
}

/* The resref of item k of container c ("" if none). */
static const char *item_name(const are_area *a, uint32_t c, uint32_t k, char *buf) {
  const are_item *it;
  uint32_t n = are_container_items(a, c, &it);
  buf[0] = 0;
  if (k < n) {
    memcpy(buf, it[k].resref, 8);
    buf[are_text_len(it[k].resref, 8)] = 0;
  }
  return buf;
}

static void test_layout(void) {
  codec_error err = {0};
  CHECK(are_layout_selfcheck(&err), "layout: %s", err.msg);
}

static void test_sample(void) {
  codec_error err = {0};
  are_area *a = are_sample_build(0, &err), *b;
  char nm[16];
  CHECK(a != NULL, "sample build: %s", err.msg);
  if (!a) return;
  b = roundtrip(a, "sample");
  if (b) {
    uint32_t s;
    for (s = 0; s < ARE_NUM_SECTIONS; s++)
      CHECK(are_count(b, (enum are_section)s) == are_count(a, (enum are_section)s), "sample: %s count",
            are_section_name((enum are_section)s));
    CHECK(consistent(b, "sample parsed"), "sample parsed consistent");
    CHECK(b->num_actors == 2 && b->actors[1].cre_size == 32 && memcmp(b->actors[1].cre_data, "CRE V1.0", 8) == 0,
          "sample: embedded CRE");
    CHECK(b->num_traps == 1 && b->traps[0].effect_size == 24 && b->traps[0].effect_data[3] == 21 &&
              b->traps[0].triggers_remaining == 3,
          "sample: projectile trap");
    CHECK(strcmp(item_name(b, 0, 1, nm), "POTN08") == 0, "sample: item 1 of container 0 is %s", nm);
    CHECK(b->containers[0].box_left == 480 && b->containers[0].box_right == 510 && b->containers[0].box_bottom == 610,
          "sample: container box");
    CHECK(b->doors[1].closed_impeded_count == 3 && b->num_vertices == 3 * 4 + 2 * 4 + 2 * (4 + 4 + 2 + 3),
          "sample: door runs (%u vertices)", b->num_vertices);
    CHECK(are_sniff((const unsigned char *)"AREAV1.0", 8) && !are_sniff((const unsigned char *)"AREAV9.1", 8),
          "sniff");
    CHECK(are_footprint(b) > b->orig_size, "footprint");
    {
      /* a model a caller broke is refused before writing, as an argument */
      unsigned char *w = NULL;
      size_t wn = 0;
      b->containers[1].item_count = 99;
      CHECK(!are_serialize(b, &w, &wn, &err) && w == NULL && err.code == CODEC_E_ARG &&
                strstr(err.msg, "container 1: ") && strstr(err.msg, "exceed the 5 items"),
            "broken item run refused: '%s'", err.msg);
      b->containers[1].item_count = 2;
      b->num_songs = 2;
      CHECK(!are_serialize(b, &w, &wn, &err) && err.code == CODEC_E_LIMIT, "two song records refused: '%s'", err.msg);
      b->num_songs = 1;
    }
  }
  are_free(b);
  are_free(a);
}

/* Item edits on a copy of a; every step consistent and re-parsed. */
static void test_item_edits(void) {
  codec_error err = {0};
  are_area *a = are_sample_build(1, &err), *b;
  are_item it;
  char nm[16];
  uint32_t before;
  if (!a) {
    CHECK(0, "sample build: %s", err.msg);
    return;
  }
  memset(&it, 0, sizeof it);
  memcpy(it.resref, "NEWITEM", 7);
  before = a->num_items;
  CHECK(are_item_insert(a, 1, 0, &it, &err), "insert at the front of container 1: %s", err.msg);
  CHECK(are_item_insert(a, 0, a->containers[0].item_count, &it, &err), "append to container 0: %s", err.msg);
  CHECK(are_item_insert(a, 3, 1, &it, &err), "insert into the last container: %s", err.msg);
  CHECK(a->num_items == before + 3 && consistent(a, "after inserts"), "after inserts");
  CHECK(strcmp(item_name(a, 1, 0, nm), "NEWITEM") == 0 && strcmp(item_name(a, 1, 1, nm), "MISC07") == 0,
        "container 1 starts with the new item");
  CHECK(strcmp(item_name(a, 0, 3, nm), "NEWITEM") == 0 && strcmp(item_name(a, 2, 0, nm), "MISC07") == 0,
        "container 0 ends with it, container 2 unchanged");
  CHECK(are_item_delete(a, 1, 0, &err) && are_item_delete(a, 0, 3, &err), "deletes: %s", err.msg);
  CHECK(!are_item_delete(a, 0, 99, &err) && err.code == CODEC_E_ARG, "delete out of range refused");
  CHECK(!are_item_insert(a, 99, 0, &it, &err) && err.code == CODEC_E_ARG, "no such container refused");
  CHECK(consistent(a, "after deletes") && strcmp(item_name(a, 1, 0, nm), "MISC07") == 0, "after deletes");
  b = roundtrip(a, "item edits");
  CHECK(b && consistent(b, "item edits re-parsed") && b->num_items == before + 1, "item edits re-parsed");
  are_free(b);
  /* a container deleted with its items; an empty container gets items */
  before = a->num_items;
  {
    uint32_t gone = a->containers[1].item_count;
    CHECK(are_delete(a, ARE_CONTAINERS, 1, &err), "container delete: %s", err.msg);
    CHECK(a->num_items == before - gone && a->num_containers == 3 && consistent(a, "container deleted"),
          "container delete took its items");
  }
  {
    are_container c;
    memset(&c, 0, sizeof c);
    memcpy(c.name, "Empty", 5);
    CHECK(are_insert(a, ARE_CONTAINERS, 1, &c, &err), "container insert: %s", err.msg);
    CHECK(are_item_insert(a, 1, 0, &it, &err) && consistent(a, "item into new container") &&
              strcmp(item_name(a, 1, 0, nm), "NEWITEM") == 0 && strcmp(item_name(a, 2, 0, nm), "MISC07") == 0,
          "item into a new container: %s", err.msg);
  }
  b = roundtrip(a, "container edits");
  CHECK(b && consistent(b, "container edits re-parsed"), "container edits re-parsed");
  are_free(b);
  are_free(a);
}

/* Every run of every record of a, as points, into a flat list. */
static size_t all_runs(const are_area *a, are_point *buf, size_t cap, enum are_section skip_s, uint32_t skip_i) {
  size_t n = 0;
  uint32_t s, i, r;
  for (s = ARE_REGIONS; s <= ARE_DOORS; s++) {
    if (s != ARE_REGIONS && s != ARE_CONTAINERS && s != ARE_DOORS) continue;
    for (i = 0; i < are_count(a, (enum are_section)s); i++) {
      if (s == skip_s && i == skip_i) continue;
      for (r = ARE_RUN_OUTLINE; r <= ARE_RUN_CLOSED_IMPEDED; r++) {
        const are_point *p;
        uint32_t k, m = are_vertices(a, (enum are_section)s, i, (enum are_run)r, &p);
        for (k = 0; k < m && n < cap; k++) buf[n++] = p[k];
        if (n < cap) buf[n].x = 0xFFFF, buf[n++].y = (uint16_t)m; /* a separator */
      }
    }
  }
  return n;
}

/* Deleting record `i` of s (or replacing its first run) keeps every other
** record's points. */
static void check_vertex_edit(const are_area *orig, enum are_section s, uint32_t i, int replace, const char *what) {
  static are_point before[70000], after[70000];
  codec_error err = {0};
  are_area *a = are_clone(orig);
  size_t nb, na;
  uint32_t skip = i;
  int ok;
  if (!a) return;
  nb = all_runs(a, before, 70000, s, i);
  if (replace) {
    are_point tri[3] = {{1, 2}, {30, 4}, {5, 60}};
    ok = are_vertices_set(a, s, i, s == ARE_DOORS ? ARE_RUN_OPEN : ARE_RUN_OUTLINE, tri, 3, &err);
  } else {
    ok = are_delete(a, s, i, &err);
    skip = 0xFFFFFFFFu;
  }
  CHECK(ok, "%s: %s", what, err.msg);
  /* after a delete the records after i moved down by one: compare with the
  ** list that skipped i */
  na = all_runs(a, after, 70000, replace ? s : ARE_NUM_SECTIONS, skip);
  CHECK(na == nb && memcmp(before, after, nb * sizeof *before) == 0, "%s: other records' points changed", what);
  check_edited(a, what);
  are_free(a);
}

static void test_vertex_edits(void) {
  codec_error err = {0};
  are_area *a = are_sample_build(0, &err);
  if (!a) return;
  check_vertex_edit(a, ARE_REGIONS, 0, 0, "region 0 deleted");
  check_vertex_edit(a, ARE_CONTAINERS, 1, 0, "container 1 deleted");
  check_vertex_edit(a, ARE_DOORS, 0, 0, "door 0 deleted");
  check_vertex_edit(a, ARE_REGIONS, 1, 1, "region 1 outline replaced");
  check_vertex_edit(a, ARE_DOORS, 1, 1, "door 1 open outline replaced");
  {
    are_area *c = are_clone(a);
    are_point p = {5, 5};
    CHECK(c && !are_vertices_set(c, ARE_ACTORS, 0, ARE_RUN_OUTLINE, &p, 1, &err) && err.code == CODEC_E_ARG,
          "actors have no vertices");
    CHECK(c && !are_insert(c, ARE_ITEMS, 0, &p, &err) && err.code == CODEC_E_ARG, "items go through are_item_insert");
    CHECK(c && !are_insert(c, ARE_SONGS, 0, a->songs, &err), "a second song entries record refused");
    CHECK(c && are_explored_set(c, c->explored + 10, 20, &err) && c->num_explored == 20 &&
              c->explored[0] == a->explored[10] && are_explored_set(c, NULL, 0, &err) && c->explored == NULL,
          "explored bitmask replaced from its own bytes, then emptied: %s", err.msg);
    CHECK(c && are_delete(c, ARE_ACTORS, 1, &err) && are_delete(c, ARE_TRAPS, 0, &err) &&
              are_delete(c, ARE_SONGS, 0, &err) && c->num_songs == 0,
          "actor, trap and songs deleted: %s", err.msg);
    if (c) {
      are_area *b = roundtrip(c, "deletes");
      CHECK(b && b->offsets[ARE_SONGS] == 0 && b->num_actors == 1, "songs absent after the delete");
      are_free(b);
    }
    are_free(c);
  }
  are_free(a);
}

/* Expects a parse of d[0..n) to fail with code and a message holding `want`. */
static void expect_fail(const unsigned char *d, size_t n, int code, const char *want, const char *what) {
  codec_error err = {0};
  are_area *a = are_parse(d, n, &err);
  CHECK(a == NULL && err.code == code && strstr(err.msg, want) != NULL, "%s: got '%s' (code %d)", what, err.msg,
        err.code);
  are_free(a);
}

static void test_hostile(void) {
  codec_error err = {0};
  are_area *a = are_sample_build(0, &err), *b;
  unsigned char *out = NULL, *d;
  size_t n = 0, cut;
  check_loop loop = {0, 0, 0};
  if (!a || !are_serialize(a, &out, &n, &err)) {
    CHECK(0, "hostile: no sample: %s", err.msg);
    are_free(a);
    return;
  }
  d = (unsigned char *)malloc(n);
  /* every truncation fails cleanly, naming a section */
  check_loop_enter(&loop);
  for (cut = 0; cut < n; cut++) {
    b = are_parse(out, cut, &err);
    loop.inputs++;
    CHECK(b == NULL && err.code == CODEC_E_FORMAT && strstr(err.msg, "byte offset") != NULL,
          "truncated at %zu: '%s'", cut, err.msg);
    are_free(b);
  }
  check_loop_done(&loop, "every truncation of the %zu-byte sample", n);
#define MUT(off, val32, code, want, what)      \
  do {                                         \
    memcpy(d, out, n);                         \
    le32_store(d + (off), (val32));            \
    expect_fail(d, n, code, want, what);       \
  } while (0)
  MUT(0x64, 0xFFFFFFFFu, CODEC_E_FORMAT, "spawn points: byte offset", "huge spawn count");
  MUT(0x8c, 0x40000000u, CODEC_E_FORMAT, "variables: byte offset", "huge variable count");
  MUT(0xa4, 0x7FFFFFFFu, CODEC_E_FORMAT, "doors: byte offset", "huge door count");
  MUT(0x9c, 0xFFFFFFF0u, CODEC_E_FORMAT, "explored bitmask", "huge bitmask");
  MUT(0x54, 0xFFFFFFF0u, CODEC_E_FORMAT, "actors: byte offset 4294967280", "actor offset overflows");
  MUT(0xa8, (uint32_t)n, CODEC_E_FORMAT, "doors: byte offset", "doors at the end");
  MUT(0xbc, (uint32_t)n - 10, CODEC_E_FORMAT, "song entries", "songs past the end");
  MUT(0xc4, 0xFFFFFFFFu, CODEC_E_FORMAT, "Planescape", "PST layout");
  {
    are_area *p = are_parse(out, n, &err);
    uint32_t c0 = p ? p->offsets[ARE_CONTAINERS] : 0, r0 = p ? p->offsets[ARE_REGIONS] : 0;
    uint32_t a1 = p ? p->offsets[ARE_ACTORS] + ARE_ACTOR_SIZE : 0, t0 = p ? p->offsets[ARE_TRAPS] : 0;
    MUT(c0 + 0x44, 1000u, CODEC_E_FORMAT, "container 0: byte offset", "items run past the table");
    MUT(c0 + 0x40, 0xFFFFFFFFu, CODEC_E_FORMAT, "items 4294967295+3", "item index overflows");
    MUT(r0 + 0x2c, 0xFFFFFFFEu, CODEC_E_FORMAT, "region 0", "vertex index overflows");
    MUT(a1 + 0x88, (uint32_t)n - 4, CODEC_E_FORMAT, "actor 1", "CRE block past the end");
    MUT(a1 + 0x8c, 0xFFFFFFFFu, CODEC_E_FORMAT, "actor 1", "huge CRE block");
    memcpy(d, out, n);
    le16_store(d + t0 + 0x0c, 0xFFFF);
    expect_fail(d, n, CODEC_E_FORMAT, "projectile trap 0", "effect block past the end");
    /* an empty block may point anywhere, and the rewrite stays in place
    ** (fuzz_are found it laid out again) */
    memcpy(d, out, n);
    le16_store(d + t0 + 0x0c, 0);
    le32_store(d + t0 + 0x08, 0xFFFF0000u);
    le32_store(d + a1 - ARE_ACTOR_SIZE + 0x88, 0xFFFFFFF0u);
    {
      are_area *q = are_parse(d, n, &err);
      unsigned char *w = NULL;
      size_t wn = 0;
      CHECK(q && are_serialize(q, &w, &wn, &err) && wn == n && memcmp(w, d, n) == 0,
            "empty blocks pointing past the end: rewrite byte-identical: %s", err.msg);
      free(w);
      are_free(q);
    }
    are_free(p);
  }
  memcpy(d, out, n);
  memcpy(d + 4, "V9.1", 4);
  expect_fail(d, n, CODEC_E_FORMAT, "ARE V9.1 (Icewind Dale II) is not read", "IWD2 version");
  memcpy(d + 4, "V2.\x01", 4);
  expect_fail(d, n, CODEC_E_FORMAT, "version 0x56 0x32 0x2E 0x01", "unknown version");
  memcpy(d, "WED V1.3", 8);
  expect_fail(d, n, CODEC_E_FORMAT, "not an ARE file", "signature");
  expect_fail(NULL, 0, CODEC_E_FORMAT, "truncated", "no data");
  /* overlapping sections parse and are laid out again */
  memcpy(d, out, n);
  {
    are_area *p = are_parse(d, n, &err);
    if (p) {
      le32_store(d + 0x84, p->offsets[ARE_ACTORS]); /* ambients over the actors */
      are_free(p);
      p = are_parse(d, n, &err);
      CHECK(p && p->overlap, "overlap detected: %s", err.msg);
      if (p) {
        b = roundtrip(p, "overlap");
        CHECK(b && !b->overlap, "an overlapping file is laid out again");
        are_free(b);
      }
      are_free(p);
    }
  }
  free(d);
  free(out);
  are_free(a);
}

/* Flag and enum names both ways, for every set. */
static void test_names(void) {
  codec_error err = {0};
  char buf[ARE_FLAG_NAMES_MAX];
  uint32_t set, b, v = 0, bad = 0;
  for (set = 0; set < ARE_NUM_FLAGSETS; set++) {
    for (b = 0; b < 32; b++) {
      are_flag_names((enum are_flagset)set, 1u << b, buf, sizeof buf);
      if (!are_flag_parse((enum are_flagset)set, buf, &v, &err) || v != 1u << b || strchr(buf, '|')) bad++;
    }
    CHECK(are_flag_names((enum are_flagset)set, 0xFFFFFFFFu, buf, sizeof buf) < sizeof buf - 1 &&
              are_flag_parse((enum are_flagset)set, buf, &v, &err) && v == 0xFFFFFFFFu,
          "flag set %u: every bit named and read back ('%s')", set, buf);
  }
  CHECK(bad == 0, "%u single bits do not read back", bad);
  are_flag_names(ARE_FLAGS_DOOR, 0x83u, buf, sizeof buf);
  CHECK(strcmp(buf, "open|locked|hidden") == 0, "door flags 0x83: '%s'", buf);
  CHECK(are_flag_parse(ARE_FLAGS_CONTAINER, " locked | bit31 |trap_resets ", &v, &err) && v == 0x80000009u,
        "container flags with blanks and bitN: %s", err.msg);
  CHECK(are_flag_parse(ARE_FLAGS_ITEM, "  ", &v, &err) && v == 0, "blank = no flag");
  CHECK(!are_flag_parse(ARE_FLAGS_ITEM, "identified|frobbed", &v, &err) && err.code == CODEC_E_ARG &&
            strstr(err.msg, "item flags: unknown flag name 'frobbed'") != NULL,
        "unknown flag: '%s'", err.msg);
  CHECK(!are_flag_parse(ARE_FLAGS_ITEM, "stolen||identified", &v, &err) && strstr(err.msg, "empty name"),
        "empty name: '%s'", err.msg);
  CHECK(!are_flag_parse(ARE_FLAGS_ITEM, "stolen|", &v, &err) && !are_flag_parse(ARE_FLAGS_ITEM, "bit32", &v, &err) &&
            !are_flag_parse(ARE_FLAGS_ITEM, "bit07", &v, &err),
        "a trailing '|', bit32 and bit07 refused");
  are_flag_names(ARE_FLAGS_REGION, 0xFFFu, buf, 13);
  CHECK(strcmp(buf, "key_required") == 0, "a short buffer keeps whole names: '%s'", buf);
  for (set = 0, bad = 0; set < ARE_NUM_ENUMSETS; set++)
    for (b = 0; b < 16; b++) {
      const char *nm = are_enum_name((enum are_enumset)set, b);
      if (nm && (!are_enum_value((enum are_enumset)set, nm, &v, &err) || v != b)) bad++;
    }
  CHECK(bad == 0, "%u enum names do not read back", bad);
  CHECK(strcmp(are_enum_name(ARE_ENUM_REGION_TYPE, ARE_REGION_TRAVEL), "travel") == 0 &&
            strcmp(are_enum_name(ARE_ENUM_CONTAINER_TYPE, 12), "crate") == 0 &&
            are_enum_name(ARE_ENUM_CONTAINER_TYPE, 13) == NULL && are_enum_name(ARE_ENUM_NOTE_COLOR, 99) == NULL,
        "enum names");
  CHECK(!are_enum_value(ARE_ENUM_NOTE_COLOR, "mauve", &v, &err) && err.code == CODEC_E_ARG &&
            strstr(err.msg, "note color: unknown name 'mauve'"),
        "unknown enum name: '%s'", err.msg);
}

/* Record uids survive inserts and deletes of other records (and clones);
** are_item_container, are_block_set, are_resrefs_set, are_record_init and
** are_flagset_find do what are.h says. */
static void test_identity(void) {
  codec_error err = {0};
  are_area *a = are_sample_build(1, &err), *c;
  are_record rec;
  uint32_t uid_last, at = 99, ct = 99, k = 99, i;
  static const unsigned char *const names[3] = {(const unsigned char *)"ORC01", (const unsigned char *)"ORC02",
                                                (const unsigned char *)"TOOLONGNAME"};
  static const size_t lens[3] = {5, 5, 11};
  if (!a) return;
  CHECK(are_uid(a, ARE_ACTORS, 3) == 3 && are_uid_find(a, ARE_ACTORS, 5, &at) && at == 5 &&
            !are_uid_find(a, ARE_ACTORS, 6, &at),
        "before any edit a uid is the position");
  uid_last = are_uid(a, ARE_ACTORS, a->num_actors - 1);
  are_record_init(ARE_ACTORS, &rec);
  CHECK(rec.actor.schedule == 0xFFFFFFu && rec.actor.removal_timer == 0xFFFFFFFFu && rec.actor.flags == 1u,
        "a new actor is always there, never removed, without a CRE");
  CHECK(are_insert(a, ARE_ACTORS, 0, &rec, &err) && are_delete(a, ARE_ACTORS, 2, &err), "insert and delete: %s",
        err.msg);
  CHECK(are_uid(a, ARE_ACTORS, 0) == 6 && are_uid_find(a, ARE_ACTORS, uid_last, &at) && at == a->num_actors - 1 &&
            !are_uid_find(a, ARE_ACTORS, 1, &at) && are_uid_find(a, ARE_ACTORS, 2, &at) && at == 2,
        "uids follow their records: the new one gets a fresh uid, the deleted one's is gone");
  c = are_clone(a);
  CHECK(c && are_uid(c, ARE_ACTORS, 0) == 6 && c->next_uid[ARE_ACTORS] == 7, "a clone keeps the uids");
  are_free(c);
  /* items: a container deleted takes its items' uids with it */
  CHECK(are_item_container(a, 3, &ct, &k) && ct == 1 && k == 0, "item 3 is the first of container 1");
  i = are_uid(a, ARE_ITEMS, 4);
  CHECK(are_delete(a, ARE_CONTAINERS, 0, &err) && are_uid_find(a, ARE_ITEMS, i, &at) && at == 1, "item uids: %s",
        err.msg);
  CHECK(!are_item_container(a, a->num_items, &ct, &k), "no container holds an item past the table");
  /* embedded blocks */
  CHECK(are_block_set(a, ARE_TRAPS, 0, (const unsigned char *)"abc", 3, &err) && a->traps[0].effect_size == 3 &&
            a->relayout,
        "a new effect block: %s", err.msg);
  CHECK(!are_block_set(a, ARE_DOORS, 0, NULL, 0, &err) && err.code == CODEC_E_ARG, "doors have no block");
  CHECK(!are_block_set(a, ARE_TRAPS, 0, (const unsigned char *)"x", 70000, &err) && err.code == CODEC_E_LIMIT,
        "an effect block past 65535 bytes");
  CHECK(are_block_set(a, ARE_ACTORS, 1, NULL, 0, &err) && a->actors[1].cre_data == NULL, "a CRE removed");
  /* resref lists */
  CHECK(are_resrefs_set(a->spawns[0].creatures, 10, &a->spawns[0].creature_count, names, lens, 2, &err) &&
            a->spawns[0].creature_count == 2 && memcmp(a->spawns[0].creatures[1], "ORC02\0\0\0", 8) == 0 &&
            a->spawns[0].creatures[2][0] == 0,
        "a resref list set: %s", err.msg);
  CHECK(!are_resrefs_set(a->spawns[0].creatures, 10, &a->spawns[0].creature_count, names, lens, 3, &err) &&
            a->spawns[0].creature_count == 2 && strstr(err.msg, "resref 2 is 11 bytes long"),
        "a long resref refused, nothing changed: %s", err.msg);
  check_edited(a, "identity edits");
  {
    enum are_flagset set;
    CHECK(are_flagset_find("area_type", &set, &err) && set == ARE_FLAGS_AREA_TYPE && are_flagset_find("tiled_object", &set, &err) &&
              set == ARE_FLAGS_TILED && !are_flagset_find("doors", &set, &err) && strstr(err.msg, "'spawn_method'"),
          "flag sets by name: %s", err.msg);
  }
  are_free(a);
}

/* A cancel callback that always says stop; counts its calls. */
static int stop_now(void *ctx) {
  ++*(int *)ctx;
  return 1;
}

/* are_parse_cancel stops a long record loop (a 200,000-byte explored
** bitmask is 200,000 records: polled at record 65,536) and keeps nothing;
** a small file finishes before the first poll. */
static void test_cancel(void) {
  codec_error err = {0};
  are_area *a = are_sample_build(0, &err), *b;
  unsigned char *out = NULL;
  size_t n = 0;
  int calls = 0;
  codec_cancel stop = {stop_now, &calls};
  if (!a) return;
  b = are_parse_cancel(NULL, 0, &stop, &err);
  CHECK(b == NULL && err.code == CODEC_E_FORMAT, "cancel: no data");
  free(a->explored);
  a->num_explored = 200000;
  a->explored = (uint8_t *)calloc(a->num_explored, 1);
  if (a->explored && are_serialize(a, &out, &n, &err)) {
    b = are_parse_cancel(out, n, &stop, &err);
    CHECK(b == NULL && err.code == CODEC_E_INTERRUPT && strcmp(err.msg, "interrupted") == 0 && calls == 1,
          "cancel: interrupted (%s, %d calls)", err.msg, calls);
    are_free(b);
    b = are_parse_cancel(out, n, NULL, &err);
    CHECK(b != NULL && b->num_explored == 200000, "no cancel: parsed: %s", err.msg);
    are_free(b);
  }
  free(out);
  are_free(a);
}

/* ---- the corpus ------------------------------------------------------------ */

/* scandir's filter: .are / .ARE files. */
static int is_are(const struct dirent *de) {
  size_t l = strlen(de->d_name);
  return l > 4 && (strcmp(de->d_name + l - 4, ".are") == 0 || strcmp(de->d_name + l - 4, ".ARE") == 0);
}

/* The header's counts and offsets against the raw bytes. */
static int header_agrees(const are_area *a, const unsigned char *d) {
  static const struct {
    enum are_section s;
    uint16_t off, cnt;
    int w;
  } h[] = {{ARE_ACTORS, 0x54, 0x58, 2},     {ARE_REGIONS, 0x5c, 0x5a, 2},   {ARE_SPAWNS, 0x60, 0x64, 4},
           {ARE_ENTRANCES, 0x68, 0x6c, 4},  {ARE_CONTAINERS, 0x70, 0x74, 2}, {ARE_ITEMS, 0x78, 0x76, 2},
           {ARE_VERTICES, 0x7c, 0x80, 2},   {ARE_AMBIENTS, 0x84, 0x82, 2},  {ARE_VARIABLES, 0x88, 0x8c, 4},
           {ARE_EXPLORED, 0xa0, 0x9c, 4},   {ARE_DOORS, 0xa8, 0xa4, 4},     {ARE_ANIMATIONS, 0xb0, 0xac, 4},
           {ARE_TILED, 0xb8, 0xb4, 4},      {ARE_NOTES, 0xc4, 0xc8, 4},     {ARE_TRAPS, 0xcc, 0xd0, 4}};
  size_t k;
  for (k = 0; k < sizeof h / sizeof h[0]; k++) {
    uint32_t n = h[k].w == 2 ? le16_load(d + h[k].cnt) : le32_load(d + h[k].cnt);
    if (are_count(a, h[k].s) != n || a->offsets[h[k].s] != le32_load(d + h[k].off)) return 0;
  }
  return are_count(a, ARE_SONGS) == (le32_load(d + 0xbc) != 0) && are_count(a, ARE_REST) == (le32_load(d + 0xc0) != 0);
}

/* A few fields against the raw bytes of the records (containers' boxes at
** 0x38..0x3e and items, regions' vertex runs, doors' ids). */
static int fields_agree(const are_area *a, const unsigned char *d) {
  uint32_t i;
  for (i = 0; i < a->num_containers; i++) {
    const unsigned char *r = d + a->offsets[ARE_CONTAINERS] + (size_t)i * ARE_CONTAINER_SIZE;
    const are_container *c = &a->containers[i];
    if (c->box_left != le16_load(r + 0x38) || c->box_top != le16_load(r + 0x3a) ||
        c->box_right != le16_load(r + 0x3c) || c->box_bottom != le16_load(r + 0x3e) ||
        c->first_item != le32_load(r + 0x40) || c->item_count != le32_load(r + 0x44) ||
        c->vertex_count != le16_load(r + 0x54))
      return 0;
  }
  for (i = 0; i < a->num_regions; i++) {
    const unsigned char *r = d + a->offsets[ARE_REGIONS] + (size_t)i * ARE_REGION_SIZE;
    if (a->regions[i].vertex_count != le16_load(r + 0x2a) || a->regions[i].first_vertex != le32_load(r + 0x2c) ||
        memcmp(a->regions[i].destination_area, r + 0x38, 8) != 0)
      return 0;
  }
  for (i = 0; i < a->num_doors; i++) {
    const unsigned char *r = d + a->offsets[ARE_DOORS] + (size_t)i * ARE_DOOR_SIZE;
    if (memcmp(a->doors[i].door_id, r + 0x20, 8) != 0 || a->doors[i].closed_first_impeded != le32_load(r + 0x50))
      return 0;
  }
  return 1;
}

/* A new layout of a (forced by a clone marked overlapping) holds the same
** records, byte for byte, at the new offsets. */
static int relayout_same(const are_area *a, const unsigned char *d, long *identical) {
  are_area *c = are_clone(a), *b = NULL;
  unsigned char *out = NULL;
  size_t n = 0;
  uint32_t s;
  int ok = 0;
  codec_error err = {0};
  if (!c) return 0;
  c->overlap = 1;
  if (are_serialize(c, &out, &n, &err) && (b = are_parse(out, n, &err)) != NULL) {
    *identical += n == a->orig_size && memcmp(out, d, n) == 0;
    ok = memcmp(out + 8, d + 8, 0x54 - 8) == 0;
    for (s = 0; ok && s < ARE_NUM_SECTIONS; s++) {
      size_t bytes = (size_t)are_count(a, (enum are_section)s) * are_record_size((enum are_section)s);
      ok = are_count(b, (enum are_section)s) == are_count(a, (enum are_section)s) &&
           (!bytes || memcmp(out + b->offsets[s], d + a->offsets[s], bytes) == 0);
    }
  }
  free(out);
  are_free(b);
  are_free(c);
  return ok;
}

/* For every section with records: a copy of its first record inserted
** before it and deleted again leaves the file's bytes as they were (the
** counts come back, so the write is in place); and a region's outline set
** to its own points (aliasing the vertex table) keeps them. */
static int insert_delete_identity(const are_area *a, const unsigned char *d) {
  uint32_t s;
  int ok = 1;
  for (s = 0; ok && s < ARE_NUM_SECTIONS; s++) {
    are_area *c;
    unsigned char *out = NULL;
    size_t n = 0;
    codec_error err = {0};
    if (s == ARE_ITEMS || s == ARE_VERTICES || s == ARE_EXPLORED || !are_count(a, (enum are_section)s)) continue;
    c = are_clone(a);
    if (s == ARE_SONGS || s == ARE_REST) /* at most one: deleted, then inserted again */
      ok = c && are_delete(c, (enum are_section)s, 0, &err) && are_count(c, (enum are_section)s) == 0 &&
           are_insert(c, (enum are_section)s, 0, *are_array_ptr((are_area *)a, (enum are_section)s), &err);
    else
      ok = c && are_insert(c, (enum are_section)s, 0, *are_array_ptr(c, (enum are_section)s), &err) &&
           are_count(c, (enum are_section)s) == are_count(a, (enum are_section)s) + 1 &&
           are_delete(c, (enum are_section)s, 0, &err);
    ok = ok && are_serialize(c, &out, &n, &err) && n == a->orig_size && memcmp(out, d, n) == 0;
    if (!ok) printf("INFO %s: %s\n", are_section_name((enum are_section)s), err.msg);
    free(out);
    are_free(c);
  }
  if (ok && a->num_regions) {
    are_area *c = are_clone(a);
    const are_point *p;
    uint32_t m, k, last = a->num_regions - 1;
    codec_error err = {0};
    ok = c != NULL;
    m = ok ? are_vertices(c, ARE_REGIONS, last, ARE_RUN_OUTLINE, &p) : 0;
    ok = ok && are_vertices_set(c, ARE_REGIONS, last, ARE_RUN_OUTLINE, p, m, &err);
    for (k = 0; ok && k < m; k++) {
      const are_point *q, *o;
      are_vertices(c, ARE_REGIONS, last, ARE_RUN_OUTLINE, &q);
      are_vertices(a, ARE_REGIONS, last, ARE_RUN_OUTLINE, &o);
      ok = q[k].x == o[k].x && q[k].y == o[k].y;
    }
    are_free(c);
  }
  return ok;
}

/* Item, container and region edits on a copy; re-parsed. */
static void corpus_edits(const are_area *a, const char *name, check_loop *loop) {
  are_area *c = are_clone(a);
  codec_error err = {0};
  are_item it;
  int ok = 1;
  if (!c) return;
  memset(&it, 0, sizeof it);
  memcpy(it.resref, "TESTITEM", 8);
  if (c->num_containers) {
    uint32_t last = c->num_containers - 1;
    ok = are_item_insert(c, 0, 0, &it, &err) && are_item_insert(c, last, c->containers[last].item_count, &it, &err);
    if (ok && c->containers[last].item_count) ok = are_item_delete(c, last, 0, &err);
    if (ok) ok = are_delete(c, ARE_CONTAINERS, 0, &err);
  }
  if (ok && c->num_regions) ok = are_delete(c, ARE_REGIONS, 0, &err);
  if (ok && c->num_doors) ok = are_delete(c, ARE_DOORS, c->num_doors - 1, &err);
  loop->inputs++;
  CHECK(ok, "%s: edits: %s", name, err.msg);
  check_edited(c, name);
  are_free(c);
}

static void test_corpus(void) {
  const char *root = check_corpus_dir();
  char dir[4096], path[8192];
  struct dirent **names = NULL;
  int nnames, i;
  long identical = 0, parsed = 0, relaid = 0;
  check_loop reads = {0, 0, 0}, edits = {0, 0, 0};
  snprintf(dir, sizeof dir, "%s/are", root ? root : "../shared/corpus");
  nnames = scandir(dir, &names, is_are, alphasort);
  if (nnames < 0) {
    SKIP("no ARE corpus (%s): ARE corpus tests", dir);
    return;
  }
  for (i = 0; i < nnames; i++) {
    size_t n = 0, os = 0;
    unsigned char *d, *out = NULL;
    are_area *a;
    codec_error err = {0};
    snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
    d = file_read_all(path, &n);
    check_loop_enter(&reads);
    reads.inputs++;
    REQUIRE(d != NULL, "%s: unreadable", names[i]->d_name);
    a = d ? are_parse(d, n, &err) : NULL;
    CHECK(a != NULL, "%s: %s", names[i]->d_name, err.msg);
    if (a) {
      parsed++;
      CHECK(header_agrees(a, d), "%s: counts or offsets differ from the header", names[i]->d_name);
      CHECK(fields_agree(a, d), "%s: fields differ from the raw bytes", names[i]->d_name);
      CHECK(are_serialize(a, &out, &os, &err), "%s: serialize: %s", names[i]->d_name, err.msg);
      if (out && os == n && memcmp(out, d, n) == 0) identical++;
      else CHECK(0, "%s: rewrite not byte-identical", names[i]->d_name);
      CHECK(relayout_same(a, d, &relaid), "%s: a new layout changes records", names[i]->d_name);
      CHECK(insert_delete_identity(a, d), "%s: insert + delete of a record is not a no-op", names[i]->d_name);
      check_loop_leave();
      check_loop_enter(&edits);
      corpus_edits(a, names[i]->d_name, &edits);
    }
    check_loop_leave();
    free(out);
    free(d);
    are_free(a);
    free(names[i]);
  }
  free(names);
  check_loop_done(&reads, "ARE corpus: %ld files parsed, %ld byte-identical, of %d (%ld laid out anew byte-identical)",
                  parsed, identical, nnames, relaid);
  check_loop_done(&edits, "ARE corpus edits");
  CHECK(nnames > 0 && identical == (long)nnames, "every corpus ARE rewrites byte-identical (%ld of %d)", identical,
        nnames);
  CHECK(relaid == (long)nnames, "a new layout reproduces every corpus ARE byte for byte (%ld of %d)", relaid, nnames);
}

int main(void) {
  test_layout();
  test_sample();
  test_item_edits();
  test_vertex_edits();
  test_hostile();
  test_cancel();
  test_names();
  test_identity();
  test_corpus();
  return check_done();
}
