/*
** are_edit.c: edits of an AREA V1.0 model that keep its tables consistent:
** insert and delete records of every section, items of a container, and
** the vertex runs of regions, containers and doors.  See are.h.
**
** Every edit checks first and changes the area only when it will succeed
** (allocations come before the first change), so a failed edit leaves the
** area as it was.
*/
#include <stdlib.h>
#include <string.h>

#include "are/are.h"

/* The most records an edit lets a section hold: what its header count can
** say (16 or 32 bits; 1 for songs and rest), and at most 2^24 for the
** 32-bit ones so every size stays far inside 32-bit offsets. */
static uint32_t section_cap(enum are_section s) {
  switch (s) {
    case ARE_ACTORS: case ARE_REGIONS: case ARE_CONTAINERS: case ARE_ITEMS: case ARE_VERTICES: case ARE_AMBIENTS:
      return 0xFFFFu;
    case ARE_SONGS: case ARE_REST: return 1u;
    default: return 1u << 24;
  }
}

/* Whether section s keeps record uids (are_area.uids). */
static int keeps_uids(enum are_section s) {
  return s != ARE_VERTICES && s != ARE_EXPLORED;
}

/* Makes the uid list of s hold `extra` more records; made on first use,
** with every record's uid its position.  Harmless when an edit then
** fails: the uids stay what they were. */
static int uids_reserve(are_area *a, enum are_section s, uint32_t extra, codec_error *err) {
  uint32_t n = *are_count_ptr(a, s), k, *p;
  if (!keeps_uids(s)) return 1;
  p = (uint32_t *)realloc(a->uids[s], ((size_t)n + extra + 1) * sizeof *p);
  if (!p) return codec_fail_oom(err, "%s: out of memory", are_section_name(s));
  if (!a->uids[s]) {
    for (k = 0; k < n; k++) p[k] = k;
    a->next_uid[s] = n;
  }
  a->uids[s] = p;
  return 1;
}

/* Makes room for one more record of s (the count is not changed). */
static int arr_reserve(are_area *a, enum are_section s, uint32_t extra, codec_error *err) {
  void **arr = are_array_ptr(a, s);
  uint32_t n = *are_count_ptr(a, s);
  void *p;
  if (extra > section_cap(s) || n > section_cap(s) - extra)
    return codec_fail_limit(err, "%s: more than %u records", are_section_name(s), section_cap(s));
  p = realloc(*arr, ((size_t)n + extra) * are_elem_size(s));
  if (!p) return codec_fail_oom(err, "%s: out of memory", are_section_name(s));
  *arr = p;
  return uids_reserve(a, s, extra, err);
}

/* Inserts n records of s at `at` (room reserved before), each with a
** fresh uid. */
static void arr_put(are_area *a, enum are_section s, uint32_t at, const void *recs, uint32_t n) {
  unsigned char *p = (unsigned char *)*are_array_ptr(a, s);
  uint32_t *cnt = are_count_ptr(a, s), k;
  size_t es = are_elem_size(s);
  memmove(p + ((size_t)at + n) * es, p + (size_t)at * es, ((size_t)*cnt - at) * es);
  memcpy(p + (size_t)at * es, recs, (size_t)n * es);
  if (keeps_uids(s)) {
    memmove(a->uids[s] + at + n, a->uids[s] + at, ((size_t)*cnt - at) * sizeof(uint32_t));
    for (k = 0; k < n; k++) a->uids[s][at + k] = a->next_uid[s]++;
  }
  *cnt += n;
}

/* Removes records [at, at+n) of s (their uids made before: uids_reserve). */
static void arr_cut(are_area *a, enum are_section s, uint32_t at, uint32_t n) {
  unsigned char *p = (unsigned char *)*are_array_ptr(a, s);
  uint32_t *cnt = are_count_ptr(a, s);
  size_t es = are_elem_size(s);
  memmove(p + (size_t)at * es, p + ((size_t)at + n) * es, ((size_t)*cnt - at - n) * es);
  if (keeps_uids(s)) memmove(a->uids[s] + at, a->uids[s] + at + n, ((size_t)*cnt - at - n) * sizeof(uint32_t));
  *cnt -= n;
}

/* ---- vertex runs ----------------------------------------------------------------- */

/* Run k of the area: the regions' outlines, the containers' outlines, then
** four runs per door.  0 past the last. */
static int nth_run(are_area *a, size_t k, uint32_t **first, uint16_t **count) {
  if (k < a->num_regions) return are_run_ref(a, ARE_REGIONS, (uint32_t)k, ARE_RUN_OUTLINE, first, count);
  k -= a->num_regions;
  if (k < a->num_containers) return are_run_ref(a, ARE_CONTAINERS, (uint32_t)k, ARE_RUN_OUTLINE, first, count);
  k -= a->num_containers;
  if (k / 4 < a->num_doors)
    return are_run_ref(a, ARE_DOORS, (uint32_t)(k / 4), (enum are_run)(ARE_RUN_OPEN + k % 4), first, count);
  return 0;
}

/* Whether a non-empty run other than `self` meets [first, first+count). */
static int vertices_shared(are_area *a, uint32_t first, uint32_t count, const uint32_t *self) {
  uint32_t *f;
  uint16_t *c;
  size_t k;
  for (k = 0; nth_run(a, k, &f, &c); k++)
    if (f != self && *c && (uint64_t)*f < (uint64_t)first + count && (uint64_t)first < (uint64_t)*f + *c) return 1;
  return 0;
}

/* Removes the vertices of run `self` unless another run shares them; the
** other runs after it move down.  The run itself is emptied. */
static void vertices_drop(are_area *a, uint32_t *self, uint16_t *self_count) {
  uint32_t first = *self, count = *self_count, *f;
  uint16_t *c;
  size_t k;
  *self_count = 0;
  if (!count || vertices_shared(a, first, count, self)) return;
  arr_cut(a, ARE_VERTICES, first, count);
  for (k = 0; nth_run(a, k, &f, &c); k++) {
    if (f == self || *f > a->num_vertices + count) continue; /* a stale empty run: kept */
    if (*f >= first + count) *f -= count;
    else if (*f > first) *f = first;
  }
}

/* The vertices of run `self` if it were replaced by n points. */
static uint64_t vertices_after(are_area *a, uint32_t *self, uint16_t *self_count, size_t n) {
  uint64_t keep = a->num_vertices;
  if (*self_count && !vertices_shared(a, *self, *self_count, self)) keep -= *self_count;
  return keep + n;
}

/* Bounding box of points (all 0 for none). */
static void bbox_of(const are_point *pts, size_t n, uint16_t *l, uint16_t *t, uint16_t *r, uint16_t *b) {
  size_t i;
  *l = *t = *r = *b = 0;
  for (i = 0; i < n; i++) {
    if (i == 0 || pts[i].x < *l) *l = pts[i].x;
    if (i == 0 || pts[i].x > *r) *r = pts[i].x;
    if (i == 0 || pts[i].y < *t) *t = pts[i].y;
    if (i == 0 || pts[i].y > *b) *b = pts[i].y;
  }
}

int are_vertices_set(are_area *a, enum are_section s, uint32_t i, enum are_run run, const are_point *pts, size_t n,
                     codec_error *err) {
  uint32_t *first;
  uint16_t *count;
  if (!are_run_ref(a, s, i, run, &first, &count))
    return codec_fail_arg(err, "%s %u: no such record or vertex run", are_section_one(s), i);
  if (n && !pts) return codec_fail_arg(err, "%s %u: no points", are_section_one(s), i);
  if (n > 0xFFFFu || vertices_after(a, first, count, n) > 0xFFFFu)
    return codec_fail_limit(err, "%s %u: the vertex table would pass 65535 vertices", are_section_one(s), i);
  if (n) {
    /* pts may point into the vertex table itself, which the realloc below
    ** may move and the drop may shift: work on a copy */
    are_point *copy = (are_point *)malloc(n * sizeof *copy);
    if (!copy) return codec_fail_oom(err, "%s %u: out of memory", are_section_one(s), i);
    memcpy(copy, pts, n * sizeof *copy);
    if (!arr_reserve(a, ARE_VERTICES, (uint32_t)n, err)) {
      free(copy);
      return 0;
    }
    pts = copy;
  }
  vertices_drop(a, first, count);
  *first = a->num_vertices;
  *count = (uint16_t)n;
  if (n) arr_put(a, ARE_VERTICES, a->num_vertices, pts, (uint32_t)n);
  if (s == ARE_REGIONS) {
    are_region *r = &a->regions[i];
    bbox_of(pts, n, &r->box_left, &r->box_top, &r->box_right, &r->box_bottom);
  } else if (s == ARE_CONTAINERS) {
    are_container *c = &a->containers[i];
    bbox_of(pts, n, &c->box_left, &c->box_top, &c->box_right, &c->box_bottom);
  } else if (run == ARE_RUN_OPEN) {
    are_door *d = &a->doors[i];
    bbox_of(pts, n, &d->open_box_left, &d->open_box_top, &d->open_box_right, &d->open_box_bottom);
  } else if (run == ARE_RUN_CLOSED) {
    are_door *d = &a->doors[i];
    bbox_of(pts, n, &d->closed_box_left, &d->closed_box_top, &d->closed_box_right, &d->closed_box_bottom);
  }
  if (n) free((void *)pts);
  return 1;
}

/* ---- container items ---------------------------------------------------------------- */

/* The container (other than c) whose non-empty item run holds item idx
** strictly after its first (an overlap an insert or delete at idx would
** break), or -1. */
static long item_run_inside(const are_area *a, uint32_t c, uint32_t idx) {
  uint32_t d;
  for (d = 0; d < a->num_containers; d++) {
    const are_container *k = &a->containers[d];
    if (d != c && k->item_count && k->first_item < idx && (uint64_t)idx < (uint64_t)k->first_item + k->item_count)
      return (long)d;
  }
  return -1;
}

/* Moves the first item of every container but c found at or after `from`
** (up to the old item count: stale first_item values of empty containers
** stay) by delta. */
static void items_shift(are_area *a, uint32_t c, uint32_t from, uint32_t old_n, int delta) {
  uint32_t d;
  for (d = 0; d < a->num_containers; d++) {
    are_container *k = &a->containers[d];
    if (d == c || k->first_item < from || k->first_item > old_n) continue;
    k->first_item = delta > 0 ? k->first_item + (uint32_t)delta : k->first_item - (uint32_t)-delta;
  }
}

int are_item_insert(are_area *a, uint32_t c, uint32_t k, const are_item *it, codec_error *err) {
  are_item copy;
  are_container *ct;
  uint32_t first, idx, old_n = a->num_items;
  long other;
  if (c >= a->num_containers) return codec_fail_arg(err, "container %u: no such container (%u)", c, a->num_containers);
  ct = &a->containers[c];
  if (k > ct->item_count)
    return codec_fail_arg(err, "container %u: no item position %u (%u items)", c, k, ct->item_count);
  if (!it) return codec_fail_arg(err, "container %u: no item", c);
  if (ct->item_count >= 0xFFFFFFFFu) return codec_fail_limit(err, "container %u: too many items", c);
  first = ct->item_count == 0 && ct->first_item > old_n ? old_n : ct->first_item;
  idx = first + k;
  other = item_run_inside(a, c, idx);
  if (other >= 0)
    return codec_fail_arg(err, "container %u: item %u lies inside the items of container %ld (shared runs)", c, k,
                          other);
  copy = *it; /* it may point into the item table, which may move */
  if (!arr_reserve(a, ARE_ITEMS, 1, err)) return 0;
  arr_put(a, ARE_ITEMS, idx, &copy, 1);
  ct->first_item = first;
  ct->item_count++;
  items_shift(a, c, idx, old_n, 1);
  return 1;
}

int are_item_delete(are_area *a, uint32_t c, uint32_t k, codec_error *err) {
  are_container *ct;
  uint32_t idx, old_n = a->num_items;
  long other;
  if (c >= a->num_containers) return codec_fail_arg(err, "container %u: no such container (%u)", c, a->num_containers);
  ct = &a->containers[c];
  if (k >= ct->item_count) return codec_fail_arg(err, "container %u: no item %u (%u items)", c, k, ct->item_count);
  idx = ct->first_item + k;
  other = item_run_inside(a, c, idx);
  if (other < 0) other = item_run_inside(a, c, idx + 1);
  if (other >= 0)
    return codec_fail_arg(err, "container %u: item %u is shared with container %ld", c, k, other);
  if (!uids_reserve(a, ARE_ITEMS, 0, err)) return 0;
  arr_cut(a, ARE_ITEMS, idx, 1);
  ct->item_count--;
  items_shift(a, c, idx + 1, old_n, -1);
  return 1;
}

/* ---- records ------------------------------------------------------------------------- */

/* Whether s holds records are_insert / are_delete handle. */
static int plain_section(enum are_section s) {
  return (unsigned)s < ARE_NUM_SECTIONS && s != ARE_ITEMS && s != ARE_VERTICES && s != ARE_EXPLORED;
}

/* Empties the runs of a record about to be inserted at `at` of s. */
static void empty_runs(are_area *a, enum are_section s, uint32_t at, void *rec) {
  if (s == ARE_REGIONS) {
    are_region *r = (are_region *)rec;
    r->first_vertex = a->num_vertices, r->vertex_count = 0;
  } else if (s == ARE_CONTAINERS) {
    are_container *c = (are_container *)rec, *prev = at ? &a->containers[at - 1] : NULL;
    uint64_t end = prev && prev->first_item <= a->num_items ? (uint64_t)prev->first_item + prev->item_count : 0;
    c->first_item = (uint32_t)(end <= a->num_items ? end : a->num_items);
    c->item_count = 0;
    c->first_vertex = a->num_vertices, c->vertex_count = 0;
  } else if (s == ARE_DOORS) {
    are_door *d = (are_door *)rec;
    d->open_first_vertex = d->closed_first_vertex = d->open_first_impeded = d->closed_first_impeded = a->num_vertices;
    d->open_vertex_count = d->closed_vertex_count = d->open_impeded_count = d->closed_impeded_count = 0;
  }
}

/* Copies an actor's CRE block or a trap's effect block for the new record. */
static int copy_block(enum are_section s, void *rec, codec_error *err) {
  unsigned char **data = NULL, *p;
  size_t n = 0;
  if (s == ARE_ACTORS) data = &((are_actor *)rec)->cre_data, n = ((are_actor *)rec)->cre_size;
  if (s == ARE_TRAPS) data = &((are_trap *)rec)->effect_data, n = ((are_trap *)rec)->effect_size;
  if (!data) return 1;
  if (!n) {
    *data = NULL;
    return 1;
  }
  if (!*data) return codec_fail_arg(err, "%s: a %zu-byte block without its bytes", are_section_one(s), n);
  p = (unsigned char *)malloc(n);
  if (!p) return codec_fail_oom(err, "%s: out of memory", are_section_one(s));
  memcpy(p, *data, n);
  *data = p;
  return 1;
}

int are_insert(are_area *a, enum are_section s, uint32_t at, const void *rec, codec_error *err) {
  unsigned char *copy;
  if (!plain_section(s)) return codec_fail_arg(err, "%s: no record insert here", are_section_name(s));
  if (!rec) return codec_fail_arg(err, "%s: no record", are_section_name(s));
  if (at > are_count(a, s))
    return codec_fail_arg(err, "%s: no position %u (%u records)", are_section_name(s), at, are_count(a, s));
  if (s == ARE_SONGS || s == ARE_REST) {
    if (are_count(a, s)) return codec_fail_arg(err, "%s: the area has them already", are_section_name(s));
  }
  copy = (unsigned char *)malloc(are_elem_size(s));
  if (!copy) return codec_fail_oom(err, "%s: out of memory", are_section_name(s));
  memcpy(copy, rec, are_elem_size(s));
  empty_runs(a, s, at, copy);
  if (!arr_reserve(a, s, 1, err) || !copy_block(s, copy, err)) {
    free(copy);
    return 0;
  }
  arr_put(a, s, at, copy, 1);
  free(copy);
  return 1;
}

/* Removes container c's items (refused when another container shares them). */
static int drop_items(are_area *a, uint32_t c, codec_error *err) {
  are_container *ct = &a->containers[c];
  uint32_t first = ct->first_item, n = ct->item_count, d, old_n = a->num_items;
  if (!n) return 1;
  for (d = 0; d < a->num_containers; d++) {
    const are_container *k = &a->containers[d];
    if (d != c && k->item_count && (uint64_t)k->first_item < (uint64_t)first + n &&
        (uint64_t)first < (uint64_t)k->first_item + k->item_count)
      return codec_fail_arg(err, "container %u: its items are shared with container %u", c, d);
  }
  arr_cut(a, ARE_ITEMS, first, n);
  ct->item_count = 0;
  for (d = 0; d < a->num_containers; d++) {
    are_container *k = &a->containers[d];
    if (d != c && k->first_item >= first + n && k->first_item <= old_n) k->first_item -= n;
  }
  return 1;
}

int are_delete(are_area *a, enum are_section s, uint32_t at, codec_error *err) {
  uint32_t *first;
  uint16_t *count;
  int r;
  if (!plain_section(s)) return codec_fail_arg(err, "%s: no record delete here", are_section_name(s));
  if (at >= are_count(a, s))
    return codec_fail_arg(err, "%s: no record %u (%u records)", are_section_name(s), at, are_count(a, s));
  if (!uids_reserve(a, s, 0, err) || (s == ARE_CONTAINERS && !uids_reserve(a, ARE_ITEMS, 0, err))) return 0;
  if (s == ARE_CONTAINERS && !drop_items(a, at, err)) return 0;
  for (r = ARE_RUN_OUTLINE; r <= ARE_RUN_CLOSED_IMPEDED; r++)
    if (are_run_ref(a, s, at, (enum are_run)r, &first, &count)) vertices_drop(a, first, count);
  if (s == ARE_ACTORS) free(a->actors[at].cre_data);
  if (s == ARE_TRAPS) free(a->traps[at].effect_data);
  arr_cut(a, s, at, 1);
  return 1;
}

int are_explored_set(are_area *a, const uint8_t *bytes, size_t n, codec_error *err) {
  uint8_t *copy = NULL;
  if (n && !bytes) return codec_fail_arg(err, "explored bitmask: no bytes");
  if (n > section_cap(ARE_EXPLORED))
    return codec_fail_limit(err, "explored bitmask: more than %u bytes", section_cap(ARE_EXPLORED));
  if (n) {
    copy = (uint8_t *)malloc(n);
    if (!copy) return codec_fail_oom(err, "explored bitmask: out of memory");
    memcpy(copy, bytes, n);
  }
  free(a->explored);
  a->explored = copy;
  a->num_explored = (uint32_t)n;
  return 1;
}

void are_record_init(enum are_section s, void *rec) {
  memset(rec, 0, are_elem_size(s));
  switch (s) {
    case ARE_ACTORS: {
      are_actor *r = (are_actor *)rec;
      r->flags = 1u; /* cre_not_attached */
      r->removal_timer = 0xFFFFFFFFu, r->schedule = 0xFFFFFFu;
      break;
    }
    case ARE_REGIONS: ((are_region *)rec)->info_text = 0xFFFFFFFFu; break;
    case ARE_SPAWNS: ((are_spawn *)rec)->schedule = 0xFFFFFFu; break;
    case ARE_CONTAINERS: ((are_container *)rec)->lockpick_string = 0xFFFFFFFFu; break;
    case ARE_AMBIENTS: ((are_ambient *)rec)->schedule = 0xFFFFFFu, ((are_ambient *)rec)->flags = 1u; break;
    case ARE_DOORS: ((are_door *)rec)->cursor = 30u; break;
    case ARE_ANIMATIONS: ((are_animation *)rec)->schedule = 0xFFFFFFu, ((are_animation *)rec)->flags = 1u; break;
    default: break;
  }
}

int are_block_set(are_area *a, enum are_section s, uint32_t i, const unsigned char *bytes, size_t n,
                  codec_error *err) {
  unsigned char **data, *copy = NULL;
  size_t cap, old;
  if (s == ARE_ACTORS && i < a->num_actors) {
    data = &a->actors[i].cre_data, old = a->actors[i].cre_size, cap = (size_t)1 << 24;
  } else if (s == ARE_TRAPS && i < a->num_traps) {
    data = &a->traps[i].effect_data, old = a->traps[i].effect_size, cap = 0xFFFFu;
  } else {
    return codec_fail_arg(err, "%s %u: no such record with an embedded block", are_section_one(s), i);
  }
  if (n > cap) return codec_fail_limit(err, "%s %u: a block of %zu bytes, at most %zu", are_section_one(s), i, n, cap);
  if (n && !bytes) return codec_fail_arg(err, "%s %u: no bytes", are_section_one(s), i);
  if (n) {
    copy = (unsigned char *)malloc(n);
    if (!copy) return codec_fail_oom(err, "%s %u: out of memory", are_section_one(s), i);
    memcpy(copy, bytes, n);
  }
  free(*data);
  *data = copy;
  if (s == ARE_ACTORS) a->actors[i].cre_size = (uint32_t)n;
  else a->traps[i].effect_size = (uint16_t)n;
  if (n != old) a->relayout = 1;
  return 1;
}

int are_resrefs_set(unsigned char (*slots)[8], size_t nslots, uint16_t *count, const unsigned char *const *texts,
                    const size_t *lens, size_t n, codec_error *err) {
  size_t k;
  if (n > nslots) return codec_fail_arg(err, "%zu resrefs, the record holds %zu", n, nslots);
  for (k = 0; k < n; k++)
    if (lens[k] > 8) return codec_fail_arg(err, "resref %zu is %zu bytes long, at most 8", k, lens[k]);
  memset(slots, 0, nslots * 8);
  for (k = 0; k < n; k++) memcpy(slots[k], texts[k], lens[k]);
  *count = (uint16_t)n;
  return 1;
}
