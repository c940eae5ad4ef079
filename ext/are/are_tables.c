/*
** are_tables.c: the Infinity Engine AREA V1.0 table family, declared for
** the generic engine over the codec in codecs/are/are.h: are_areas (one
** row per file) and one table per section (are_actors, are_regions,
** are_spawns, are_entrances, are_containers, are_items, are_ambients,
** are_variables, are_doors, are_animations, are_notes, are_traps,
** are_tiled_objects).  Its SQL helpers are in are_functions.c.
**
** - A row's record is the codec's own struct (`r`), copied, followed by
**   the spans of its derived columns ("extras": vertex runs, resref lists,
**   the spawn weights, embedded blocks) that point into the model.  A
**   write hands the changed extras to the codec (are_vertices_set,
**   are_resrefs_set, are_block_set, are_explored_set), then copies the
**   changed plain fields into the model's record: a field nobody set
**   keeps its bytes, and a bounding box set in the same UPDATE as the
**   vertices wins over the one the codec recomputed.
** - One set of callbacks serves every section table (SECTION_CALLBACKS);
**   the codec keeps offsets, counts and the run references (first_item,
**   first_vertex, the door runs) right on every INSERT and DELETE, and
**   fills new records with what the game needs (are_record_init).
** - Keys: the codec's record uids (are_uid), which survive inserts and
**   deletes of other records in the same transaction.
** - Strrefs read as signed 32-bit numbers, so "no text" (0xFFFFFFFF) is -1.
*/
#include <string.h>

#include "are/are.h"
#include "engine/engine.h"
#include "are/are_tables.h"

/* ---- the format ------------------------------------------------------------ */

#define AREA(row) ((are_area *)(row)->model)

static const char *const are_extensions[] = {".are", NULL};

/* are_parse and are_parse_cancel in the shape LS_CODEC_ADAPTERS takes. */
static int parse_area(const unsigned char *data, size_t size, are_area **out, codec_error *err) {
  return (*out = are_parse(data, size, err)) != NULL;
}
static int parse_area_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, are_area **out,
                             codec_error *err) {
  return (*out = are_parse_cancel(data, size, cancel, err)) != NULL;
}

LS_CODEC_ADAPTERS(are, are_area, parse_area, are_serialize, are_clone, are_free, are_footprint)
LS_CODEC_CANCEL_ADAPTER(are, are_area, parse_area_cancel)

/* Names and resrefs are 8-bit text, in the code page the option names. */
static const ls_option *const are_options[] = {&ls_option_encoding, NULL};

const ls_format are_format = {
  .name = "are", .extensions = are_extensions, .sniff = are_sniff, LS_CODEC_FORMAT_FIELDS(are),
  .options = are_options, .parse_reusing = are_format_parse_reusing, /* polls the cancel, reuses nothing */
  /* no validate, shed or claims: the parse decodes everything and copies no more than the file */
};

/* ---- how a table's records map onto the model ------------------------------- */

/* A derived column: its span in the table's record and what fills it. */
typedef enum extra_kind {
  X_END = 0,
  X_RUN,      /* vertex run .run of the record, as [x,y] pairs (LS_SPAN16 into the vertex table) */
  X_RESREFS,  /* .n 8-byte slots at .field with their uint16_t count at .count: a JSON array of texts */
  X_BYTES,    /* .n bytes at .field: a JSON array of integers (int64_t in the row's arena) */
  X_BLOCK,    /* the record's embedded block (an actor's CRE, a projectile trap's effects): a BLOB */
  X_EXPLORED  /* the area's explored bitmask: a BLOB */
} extra_kind;

typedef struct are_extra {
  extra_kind kind;
  size_t span;         /* offsetof the ls_span in the table's record */
  enum are_run run;    /* X_RUN */
  size_t field, count; /* X_RESREFS, X_BYTES: offsets in the table's record */
  size_t n;            /* X_RESREFS, X_BYTES: elements */
} are_extra;

#define EXTRA_RUN(T, span_, run_) {.kind = X_RUN, .span = offsetof(T, span_), .run = run_}
#define EXTRA_RESREFS(T, span_, slots, cnt) \
  {.kind = X_RESREFS, .span = offsetof(T, span_), .field = offsetof(T, slots), .count = offsetof(T, cnt), .n = 10}
#define EXTRA_END {.kind = X_END}

/* A table: its section (ARE_NUM_SECTIONS for are_areas), its columns (a
** write walks them) and its extras (ended by X_END). */
typedef struct are_desc {
  enum are_section s;
  const ls_column *columns;
  size_t ncolumns;
  const are_extra *extras;
} are_desc;

/* The record of are_areas: the header, the song entries and the rest
** interruptions (zero when the file has none), and whether it has them. */
typedef struct area_rec {
  are_header r;
  are_songs songs;
  are_rest rest;
  int32_t has_songs, has_rest;
  ls_span explored, rest_creatures;
} area_rec;

/* The model's bytes for offset `off` of the row's record: the record of
** the section's array, or for are_areas the header, songs or rest record;
** NULL for what is not a field of the model (extras, flags, an absent
** part). */
static unsigned char *model_field(const are_desc *d, const ls_row *row, size_t off) {
  are_area *a = AREA(row);
  if (d->s != ARE_NUM_SECTIONS) {
    unsigned char *base = *(unsigned char **)are_array_ptr(a, d->s);
    size_t es = are_elem_size(d->s);
    return off < es ? base + (size_t)row->pos.element * es + off : NULL;
  }
  if (off < sizeof(are_header)) return (unsigned char *)&a->header + off;
  if (off >= offsetof(area_rec, songs) && off < offsetof(area_rec, songs) + sizeof(are_songs))
    return a->num_songs ? (unsigned char *)a->songs + (off - offsetof(area_rec, songs)) : NULL;
  if (off >= offsetof(area_rec, rest) && off < offsetof(area_rec, rest) + sizeof(are_rest))
    return a->num_rest ? (unsigned char *)a->rest + (off - offsetof(area_rec, rest)) : NULL;
  return NULL;
}

/* The extra whose span is at `off` of the record, or NULL. */
static const are_extra *extra_at(const are_desc *d, size_t off) {
  const are_extra *x;
  for (x = d->extras; x->kind != X_END; x++)
    if (x->span == off) return x;
  return NULL;
}

/* Bytes of a typed column's field in the record. */
static size_t field_size(const ls_column *col) {
  switch (col->store) {
    case LS_U8: case LS_I8: return 1;
    case LS_U16: case LS_I16: return 2;
    case LS_I64: case LS_F64: return 8;
    case LS_CHARS: return col->size;
    case LS_I32: return col->kind == LS_JSON_INTS ? col->size : 4;
    default: return 4;
  }
}

/* Fills the span of extra x for the row (its record loaded). */
static int extra_load(const are_desc *d, const ls_row *row, const are_extra *x) {
  unsigned char *rec = row->rec;
  ls_span *sp = (ls_span *)(rec + x->span);
  are_area *a = AREA(row);
  uint32_t i = (uint32_t)row->pos.element;
  size_t k, n;
  switch (x->kind) {
    case X_RUN: {
      const are_point *pts;
      sp->n = 2 * (size_t)are_vertices(a, d->s, i, x->run, &pts);
      sp->p = pts;
      return SQLITE_OK;
    }
    case X_RESREFS: {
      const unsigned char(*slots)[8] = (const unsigned char(*)[8])(rec + x->field);
      uint16_t count;
      ls_span *names;
      memcpy(&count, rec + x->count, sizeof count);
      n = count < x->n ? count : x->n;
      if (!(names = ls_arena_alloc(row->arena, sizeof *names * (n + 1)))) return SQLITE_NOMEM;
      for (k = 0; k < n; k++) names[k].p = slots[k], names[k].n = are_text_len(slots[k], 8);
      sp->p = names, sp->n = n;
      return SQLITE_OK;
    }
    case X_BYTES: {
      int64_t *v = ls_arena_alloc(row->arena, sizeof *v * x->n);
      if (!v) return SQLITE_NOMEM;
      for (k = 0; k < x->n; k++) v[k] = rec[x->field + k];
      sp->p = v, sp->n = x->n;
      return SQLITE_OK;
    }
    case X_BLOCK:
      if (d->s == ARE_ACTORS) sp->p = a->actors[i].cre_data, sp->n = a->actors[i].cre_size;
      else sp->p = a->traps[i].effect_data, sp->n = a->traps[i].effect_size;
      return SQLITE_OK;
    default:
      sp->p = a->explored, sp->n = a->num_explored;
      return SQLITE_OK;
  }
}

/* Hands the new value of extra x to the codec. */
static int extra_store(const are_desc *d, ls_row *row, const are_extra *x, codec_error *cerr) {
  const ls_span *sp = (const ls_span *)((unsigned char *)row->rec + x->span);
  are_area *a = AREA(row);
  uint32_t i = (uint32_t)row->pos.element;
  const unsigned char *texts[16];
  size_t lens[16], k;
  switch (x->kind) {
    case X_RUN: return are_vertices_set(a, d->s, i, x->run, (const are_point *)sp->p, sp->n / 2, cerr);
    case X_RESREFS:
      if (!model_field(d, row, x->field)) return 1; /* an absent rest record: refused before, NULL kept */
      for (k = 0; k < sp->n && k < 16; k++)
        texts[k] = ((const ls_span *)sp->p)[k].p, lens[k] = ((const ls_span *)sp->p)[k].n;
      return are_resrefs_set((unsigned char(*)[8])model_field(d, row, x->field), x->n,
                             (uint16_t *)model_field(d, row, x->count), texts, lens, sp->n, cerr);
    case X_BYTES:
      for (k = 0; k < x->n && k < sp->n; k++) model_field(d, row, x->field)[k] = (uint8_t)((const int64_t *)sp->p)[k];
      return 1;
    case X_BLOCK: return are_block_set(a, d->s, i, sp->p, sp->n, cerr);
    default: return are_explored_set(a, sp->p, sp->n, cerr);
  }
}

/* ---- the callbacks every table shares ----------------------------------------- */

/* Copies the model's record(s) into the row's record and fills the extras. */
static int rec_load(const are_desc *d, const ls_row *row, char **err) {
  const are_extra *x;
  int rc;
  (void)err;
  if (d->s != ARE_NUM_SECTIONS) {
    memcpy(row->rec, model_field(d, row, 0), are_elem_size(d->s));
  } else {
    const are_area *a = AREA(row);
    area_rec *r = row->rec;
    r->r = a->header;
    if ((r->has_songs = a->num_songs != 0)) r->songs = a->songs[0];
    if ((r->has_rest = a->num_rest != 0)) r->rest = a->rest[0];
  }
  for (x = d->extras; x->kind != X_END; x++)
    if ((rc = extra_load(d, row, x)) != SQLITE_OK) return rc;
  return SQLITE_OK;
}

/* The changed extras go to the codec first, then the changed fields are
** copied into the model (see the top of the file). */
static int rec_store(const are_desc *d, ls_row *row, const unsigned char *changed, char **err) {
  codec_error cerr;
  size_t c;
  cerr.msg[0] = 0;
  for (c = 0; c < d->ncolumns; c++) {
    const are_extra *x = changed[c] ? extra_at(d, d->columns[c].offset) : NULL;
    if (x && !extra_store(d, row, x, &cerr))
      return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "column %s", d->columns[c].name);
  }
  for (c = 0; c < d->ncolumns; c++) {
    const ls_column *col = &d->columns[c];
    unsigned char *to;
    if (!changed[c] || col->kind == LS_POS || extra_at(d, col->offset)) continue;
    if ((to = model_field(d, row, col->offset)) != NULL)
      memcpy(to, (const unsigned char *)row->rec + col->offset, field_size(col));
  }
  return SQLITE_OK;
}

/* INSERT's argument: the position the record takes (NULL: after the last). */
typedef struct at_args {
  ls_arg at;
} at_args;

/* INSERT: a new record (are_record_init) at the position given, the ones
** from there on moving up; the engine then sets the columns given. */
static int rec_insert(enum are_section s, void *model, const void *args_, ls_pos *pos, char **err) {
  const at_args *args = args_;
  codec_error cerr;
  are_record rec;
  are_record_init(s, &rec);
  cerr.msg[0] = 0;
  if (!are_insert(model, s, (uint32_t)args->at.i, &rec, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "cannot insert a %s", are_section_one(s));
  return ls_inserted_at(pos, args->at.i, 0);
}

/* DELETE: the codec removes the record with its vertices (and a
** container's items); the later records move down. */
static int rec_remove(enum are_section s, void *model, const ls_pos *pos, char **err) {
  codec_error cerr;
  cerr.msg[0] = 0;
  if (!are_delete(model, s, (uint32_t)pos->element, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "cannot delete");
  return SQLITE_OK;
}

/* The record of section s whose uid is the key. */
static int rec_seek(enum are_section s, const void *model, int64_t key, ls_pos *pos) {
  uint32_t i;
  if (key < 0 || key > UINT32_MAX || !are_uid_find(model, s, (uint32_t)key, &i)) return 0;
  pos->element = i;
  pos->index = pos->x = 0;
  return 1;
}

/* The callbacks of table p over section sec: p##_desc (its columns
** p##_columns and extras p##_extras), the row count, load, store, key
** and seek. */
#define SECTION_CALLBACKS(p, sec)                                                                                 \
  static const are_desc p##_desc = {sec, p##_columns, sizeof p##_columns / sizeof p##_columns[0], p##_extras};   \
  static int64_t p##_count(const void *m) { return are_count(m, sec); }                                          \
  static int p##_load(const ls_row *row, char **err) { return rec_load(&p##_desc, row, err); }                   \
  static int p##_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {                \
    (void)old;                                                                                                    \
    return rec_store(&p##_desc, row, changed, err);                                                               \
  }                                                                                                               \
  static int64_t p##_key(const void *m, const ls_pos *pos) { return are_uid(m, sec, (uint32_t)pos->element); }   \
  static int p##_seek(const void *m, int64_t key, ls_pos *pos) { return rec_seek(sec, m, key, pos); }

/* A section table named tname whose rows are "<one> <n>", with the
** callbacks above, the INSERT of rec_insert (position column `one`) and
** the DELETE of rec_remove. */
#define SECTION_TABLE(p, sec, tname, one, per_file, doc_)                                                          \
  SECTION_CALLBACKS(p, sec)                                                                                       \
  static int p##_insert(void *m, const void *args, ls_pos *pos, char **err) {                                     \
    return rec_insert(sec, m, args, pos, err);                                                                    \
  }                                                                                                               \
  static int p##_remove(void *m, const ls_pos *pos, char **err) { return rec_remove(sec, m, pos, err); }         \
  static const ls_insert p##_insertion = {                                                                        \
    .run = p##_insert, .args_size = sizeof(at_args),                                                              \
    .args = {LS_ARG_NAMED(one, at_args, at, LS_IS_AT(p##_count))}};                                               \
  static const ls_table p##_table = {                                                                             \
    .name = tname, .format = &are_format, .doc = doc_, LS_COLUMNS(p##_columns), .shape = LS_ARRAY(p##_count),    \
    .key = p##_key, .seek = p##_seek, .insert = &p##_insertion, .remove = p##_remove, .row_name = one " {element}", \
    .natural_order = one, .rows_per_file = per_file, .record_size = sizeof(p##_rec), .load = p##_load,           \
    .store = p##_store}

/* ---- column declarations ------------------------------------------------------- */

/* The store of an integer field, from its C type. */
#define STORE_OF(T, f) _Generic(((T *)0)->f, uint8_t: LS_U8, uint16_t: LS_U16, uint32_t: LS_U32, default: LS_I32)

/* A field of REC (the table's record type, defined before each list) by
** its member name in the codec's struct `r`: an integer (read-only), a
** strref (signed: -1 is "none"), an 8-bit text (resref, name), an enum. */
#define COL_INT_AT(nm, f, fl, kinds, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = STORE_OF(REC, f), .offset = offsetof(REC, f), \
   .flags = fl, .applies = kinds, .doc = doc_}
#define COL_I(f, doc_) COL_INT_AT(#f, r.f, 0, 0, doc_)
#define COL_RO(f, doc_) COL_INT_AT(#f, r.f, LS_COL_RO, 0, doc_)
#define COL_STRREF_AT(nm, f, kinds, doc_) \
  {.name = nm, .type = "INTEGER", .kind = LS_INT, .store = LS_I32, .offset = offsetof(REC, f), .applies = kinds, \
   .doc = doc_}
#define COL_S(f, doc_) COL_STRREF_AT(#f, r.f, 0, doc_)
#define COL_TEXT_AT(nm, f, kinds, doc_) LS_COL_TEXT_CHARS(nm, LS_TEXT8, REC, f, LS_SIZEOF(REC, f), LS_COL_FULL, kinds, doc_)
#define COL_T(f, doc_) COL_TEXT_AT(#f, r.f, 0, doc_)
#define COL_E(f, names, doc_) \
  {.name = #f, .type = "TEXT", .kind = LS_ENUM, .store = LS_U16, .offset = offsetof(REC, r.f), .aux = names, .doc = doc_}
/* A section table's position column (about n rows per file). */
#define COL_POS(nm, n)                                                                                        \
  LS_COL_POS(nm, LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(n),                                             \
             nm " number, 0-based (shifts when records before it are inserted or deleted); INSERT: the position " \
                "to take, default after the last")
/* JSON columns over an extra's span: [x,y] pairs, a list of resrefs. */
#define COL_POINTS(nm, f, shape, doc_) LS_COL_JSON_INTS(nm, LS_SPAN16, REC, f, 0, 0, 0, shape, doc_)
#define COL_RESREFS(nm, f, kinds, doc_) \
  {.name = nm, .type = "TEXT", .kind = LS_JSON_TEXTS, .store = LS_SPAN, .offset = offsetof(REC, f), .max = 8, \
   .applies = kinds, .aux = &resrefs_shape, .doc = doc_}
#define COL_BLOB(nm, f, maxb, doc_) \
  {.name = nm, .type = "BLOB", .kind = LS_BLOB, .store = LS_SPAN, .offset = offsetof(REC, f), .max = maxb, \
   .flags = LS_COL_NULL, .doc = doc_}

static const ls_json_shape outline_shape = {2, 0, 65535, "[[10,20],[90,20],[50,80]]",
                                            "a JSON array of [x,y] pairs of integers from 0 to 65535 (pixel coordinates), e.g. '[[10,20],[90,20],[50,80]]'"};
static const ls_json_shape cells_shape = {2, 0, 65535, "[[8,22],[9,22]]",
                                          "a JSON array of [x,y] pairs of search-map cells from 0 to 65535, e.g. '[[8,22],[9,22]]'"};
static const ls_json_shape resrefs_shape = {1, 0, 10, "[\"GIBBER\",\"XVART\"]",
                                            "a JSON array of up to 10 resrefs of at most 8 bytes, e.g. '[\"GIBBER\",\"XVART\"]'"};

#define D_SCHEDULE "hours active: bit n is hour n (0xFFFFFF: always)"

/* The trap fields regions, containers and doors share (same names), and
** the bounding box of a region's or container's outline. */
#define TRAP_COLUMNS                                                                                             \
  COL_I(trap_detection_difficulty, "trap detection difficulty (percent)"),                                      \
  COL_I(trap_removal_difficulty, "trap removal difficulty (percent)"), COL_I(trapped, "1: trapped"),            \
  COL_I(trap_detected, "1: the trap has been detected"), COL_I(trap_launch_x, "x the trap launches from"),       \
  COL_I(trap_launch_y, "y the trap launches from")
#define BOX_COLUMNS                                                                                               \
  COL_I(box_left, "bounding box left (stored; setting vertices recomputes the box, a box edge set in the same "    \
                  "UPDATE wins)"),                                                                                \
  COL_I(box_top, "bounding box top"), COL_I(box_right, "bounding box right"), COL_I(box_bottom, "bounding box bottom")

/* ---- are_areas ------------------------------------------------------------------ */

/* Row kinds: whether the file has song entries (bit 0) and rest
** interruptions (bit 1); the columns of each apply where it has them. */
enum { AREA_SONG_KINDS = (1u << 1) | (1u << 3), AREA_REST_KINDS = (1u << 2) | (1u << 3) };
static const char *const area_kinds[] = {"without songs or rest", "with songs", "with rest", "with songs and rest", NULL};

static int area_kind(const ls_row *row) {
  const area_rec *r = row->rec;
  return (r->has_songs ? 1 : 0) | (r->has_rest ? 2 : 0);
}

/* A song or rest column written where the file has no such record: NULL
** is what it reads (no change); anything else says how to add one. */
static int area_other_kind(const ls_row *row, sqlite3_value *v, const ls_column *col, char **err) {
  int songs = col->applies == AREA_SONG_KINDS;
  (void)row;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  *err = sqlite3_mprintf("column %s: the area has no %s record; set %s = 1 first (in the same UPDATE if you like)",
                         col->name, songs ? "song entries" : "rest interruptions", songs ? "has_songs" : "has_rest");
  return SQLITE_CONSTRAINT;
}

#define REC area_rec
#define COL_SONG(f, doc_) COL_INT_AT(#f, songs.f, 0, AREA_SONG_KINDS, doc_)
#define COL_SONG_T(f, doc_) COL_TEXT_AT(#f, songs.f, AREA_SONG_KINDS, doc_)
#define COL_REST(f, doc_) COL_INT_AT("rest_" #f, rest.f, 0, AREA_REST_KINDS, doc_)

static const ls_json_shape texts_shape = {1, 10, 10, "[0,0,0,0,0,0,0,0,0,0]",
                                          "a JSON array of 10 strrefs, e.g. '[10134,0,0,0,0,0,0,0,0,0]'"};

static const ls_column area_columns[] = {
  COL_T(wed, "the area's WED resref (its tiles, walls and doors: wed_* tables of <wed>.WED)"),
  COL_I(last_saved, "game time of the last save, in seconds (saved games)"),
  COL_I(area_flags, "area flags: are_flag_names('area', area_flags): save_not_allowed, tutorial_area, dead_magic_zone, dream, ..."),
  COL_T(north_area, "the area the north edge leads to (resref)"),
  COL_I(north_flags, "north edge flags: are_flag_names('edge', ...): party_required, party_enabled"),
  COL_T(east_area, "the area the east edge leads to"),
  COL_I(east_flags, "east edge flags"),
  COL_T(south_area, "the area the south edge leads to"),
  COL_I(south_flags, "south edge flags"),
  COL_T(west_area, "the area the west edge leads to"),
  COL_I(west_flags, "west edge flags"),
  COL_I(area_type_flags, "area type: are_flag_names('area_type', ...): outdoor, day_night, weather, city, forest, dungeon, extended_night, can_rest_indoors"),
  COL_I(rain_probability, "chance of rain (percent)"),
  COL_I(snow_probability, "chance of snow (percent)"),
  COL_I(fog_probability, "chance of fog (percent)"),
  COL_I(lightning_probability, "chance of lightning (percent)"),
  COL_I(wind_speed, "wind speed (BGEE: the overlay's transparency)"),
  COL_I(tiled_object_flags_offset, "the word at 0x90 (IESDP: tiled object flags offset; 0 in real files)"),
  COL_I(tiled_object_flags_count, "the word at 0x92 (tiled object flags count; 0 in real files)"),
  COL_T(area_script, "the area's script (BCS resref)"),
  COL_T(rest_movie_day, "movie played when resting by day (EE)"),
  COL_T(rest_movie_night, "movie played when resting by night (EE)"),
  COL_BLOB("explored", explored, 1 << 24, "the explored bitmask (saved games), NULL when the file has none"),
  LS_COL_INT_IN("has_songs", LS_I32, REC, has_songs, 0, 1, 0, "1 when the file has its song entries record (the song columns are NULL without it); setting 1 adds one (songs 0), 0 removes it"),
  LS_COL_INT_IN("has_rest", LS_I32, REC, has_rest, 0, 1, 0, "1 when the file has its rest interruptions record (the rest_ columns are NULL without it); setting 1 adds one, 0 removes it"),
  COL_SONG(day_song, "song by day (SONGLIST.2DA row)"),
  COL_SONG(night_song, "song by night"),
  COL_SONG(win_song, "song after a won battle"),
  COL_SONG(battle_song, "battle song"),
  COL_SONG(lose_song, "song after a lost battle"),
  COL_SONG(alt_music1, "alternative music 1"),
  COL_SONG(alt_music2, "alternative music 2"),
  COL_SONG(alt_music3, "alternative music 3"),
  COL_SONG(alt_music4, "alternative music 4"),
  COL_SONG(alt_music5, "alternative music 5"),
  COL_SONG_T(day_ambient1, "main ambient sound by day (WAV resref)"),
  COL_SONG_T(day_ambient2, "second ambient sound by day"),
  COL_SONG(day_ambient_volume, "ambient volume by day (percent)"),
  COL_SONG_T(night_ambient1, "main ambient sound by night"),
  COL_SONG_T(night_ambient2, "second ambient sound by night"),
  COL_SONG(night_ambient_volume, "ambient volume by night (percent)"),
  COL_SONG(reverb, "reverb (REVERB.IDS; EE: REVERB.2DA row)"),
  COL_TEXT_AT("rest_name", rest.name, AREA_REST_KINDS, "name of the rest interruptions record"),
  {.name = "rest_texts", .type = "TEXT", .kind = LS_JSON_INTS, .store = LS_I32, .offset = offsetof(REC, rest.texts),
   .size = LS_SIZEOF(REC, rest.texts), .applies = AREA_REST_KINDS, .aux = &texts_shape,
   .doc = "JSON array of the 10 strrefs shown when resting is interrupted (0 in most real files)"},
  COL_RESREFS("rest_creatures", rest_creatures, AREA_REST_KINDS, "JSON array of the creatures (CRE resrefs) that may interrupt resting; setting it sets rest_creature_count"),
  COL_INT_AT("rest_creature_count", rest.creature_count, LS_COL_RO, AREA_REST_KINDS, "number of rest_creatures"),
  COL_REST(difficulty, "spawn difficulty"),
  COL_REST(removal_time, "removal time of the creatures (seconds)"),
  COL_REST(movement_restriction, "movement restriction distance"),
  COL_REST(movement_restriction_object, "movement restriction distance to the object followed"),
  COL_REST(max_creatures, "most creatures spawned"),
  COL_REST(enabled, "1: interruptions enabled"),
  COL_REST(probability_day, "chance of an interruption per hour by day (percent)"),
  COL_REST(probability_night, "chance of an interruption per hour by night (percent)"),
};

static const are_extra area_extras[] = {
  {.kind = X_EXPLORED, .span = offsetof(area_rec, explored)},
  EXTRA_RESREFS(area_rec, rest_creatures, rest.creatures, rest.creature_count),
  EXTRA_END,
};
#undef REC

static const are_desc area_desc = {ARE_NUM_SECTIONS, area_columns, sizeof area_columns / sizeof area_columns[0],
                                   area_extras};

static int area_load(const ls_row *row, char **err) {
  return rec_load(&area_desc, row, err);
}

/* Adds (want) or removes the file's song entries or rest interruptions. */
static int area_part(are_area *a, enum are_section s, int want, codec_error *cerr) {
  are_record blank;
  if (want && !are_count(a, s)) {
    are_record_init(s, &blank);
    return are_insert(a, s, 0, &blank, cerr);
  }
  return want || !are_count(a, s) || are_delete(a, s, 0, cerr);
}

/* has_songs and has_rest first, so that the columns set with them land in
** the new record. */
static int area_store(ls_row *row, const void *old, const unsigned char *changed, char **err) {
  const area_rec *r = row->rec;
  codec_error cerr;
  (void)old;
  cerr.msg[0] = 0;
  if (!area_part(AREA(row), ARE_SONGS, r->has_songs, &cerr) || !area_part(AREA(row), ARE_REST, r->has_rest, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "cannot change the records of the area");
  return rec_store(&area_desc, row, changed, err);
}

static const ls_table are_areas = {
  .name = "are_areas", .format = &are_format,
  .doc = "one row per ARE file: the header, the song entries and the rest interruptions",
  LS_COLUMNS(area_columns),
  .shape = LS_ONE_ROW, .row_name = "the area",
  .rows_per_file = 1,
  .record_size = sizeof(area_rec), .load = area_load, .store = area_store,
  .row_kind = area_kind, .kind_names = area_kinds, .other_kind = area_other_kind,
};

/* ---- are_actors ------------------------------------------------------------------ */

typedef struct actor_rec {
  are_actor r;
  ls_span cre;
} actor_rec;

#define REC actor_rec
static const ls_column actor_columns[] = {
  COL_POS("actor", 2),
  COL_T(name, "actor name (32 bytes at most)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_I(dest_x, "x the actor walks to"),
  COL_I(dest_y, "y the actor walks to"),
  COL_I(flags, "flags: are_flag_names('actor', flags): cre_not_attached, has_seen_party, invulnerable, override_script_name"),
  COL_I(spawned, "1: spawned (saved games)"),
  COL_I(cre_first_letter, "first letter of the CRE resref, changed to '*' when the CRE is embedded"),
  COL_I(animation, "animation (ANIMATE.IDS)"),
  COL_I(orientation, "facing, 0..15 (0: south, clockwise)"),
  COL_I(removal_timer, "seconds until the actor is removed (0xFFFFFFFF: never)"),
  COL_I(movement_restriction, "movement restriction distance"),
  COL_I(movement_restriction_object, "movement restriction distance to the object followed"),
  COL_I(schedule, D_SCHEDULE),
  COL_I(num_times_talked_to, "times talked to (saved games)"),
  COL_T(dialog, "dialog (DLG resref) overriding the CRE's"),
  COL_T(script_override, "override script (BCS resref) overriding the CRE's"),
  COL_T(script_general, "general script"),
  COL_T(script_class, "class script"),
  COL_T(script_race, "race script"),
  COL_T(script_default, "default script"),
  COL_T(script_specific, "specific script"),
  COL_T(cre_file, "the creature (CRE resref)"),
  COL_RO(cre_offset, "offset of the embedded CRE in the file (laid out by the writer)"),
  COL_RO(cre_size, "bytes of the embedded CRE (0: none)"),
  COL_BLOB("cre", cre, 1 << 24, "the embedded CRE (saved games), NULL for none; setting it sets cre_size"),
};
static const are_extra actor_extras[] = {{.kind = X_BLOCK, .span = offsetof(actor_rec, cre)}, EXTRA_END};
#undef REC
SECTION_TABLE(actor, ARE_ACTORS, "are_actors", "actor", 1.7,
              "one row per actor of each ARE file; INSERT adds one (always active, no embedded CRE), DELETE removes one");

/* ---- are_regions ----------------------------------------------------------------- */

typedef struct region_rec {
  are_region r;
  ls_span vertices;
} region_rec;

#define REC region_rec
static const ls_column region_columns[] = {
  COL_POS("region", 3),
  COL_T(name, "region name (32 bytes at most)"),
  COL_E(type, are_region_type_names, "'trap' (proximity trigger), 'info' (info point) or 'travel' (travel region)"),
  BOX_COLUMNS,
  COL_RO(vertex_count, "number of vertices"),
  COL_RO(first_vertex, "index of the first vertex in the file's vertex table"),
  COL_POINTS("vertices", vertices, &outline_shape, "JSON array of the outline's [x,y] pixel pairs; setting it recomputes the box"),
  COL_I(trigger_value, "trigger value"),
  COL_I(cursor, "cursor shown over the region (CURSORS.BAM frame)"),
  COL_T(destination_area, "travel: the area it leads to (resref)"),
  COL_T(destination_entrance, "travel: the entrance name in that area (are_entrances.name)"),
  COL_I(flags, "flags: are_flag_names('region', flags): key_required, reset_trap, party_required, detectable, ..."),
  COL_S(info_text, "info point: the text shown (strref, -1: none)"),
  TRAP_COLUMNS,
  COL_T(key_item, "the key (ITM resref)"),
  COL_T(script, "the region's script (BCS resref)"),
  COL_I(alt_use_x, "alternative use point x (flag alternative_point)"),
  COL_I(alt_use_y, "alternative use point y"),
  COL_T(sound, "PST: sound (WAV resref)"),
  COL_I(talk_x, "PST: talk location x"),
  COL_I(talk_y, "PST: talk location y"),
  COL_S(speaker_name, "PST: speaker name (strref)"),
  COL_T(dialog, "PST: dialog (DLG resref)"),
};
static const are_extra region_extras[] = {EXTRA_RUN(region_rec, vertices, ARE_RUN_OUTLINE), EXTRA_END};
#undef REC
SECTION_TABLE(region, ARE_REGIONS, "are_regions", "region", 3,
              "one row per region (trap, info point, travel region) of each ARE file; INSERT adds one (type 'trap', no vertices yet), DELETE removes one with its vertices");

/* ---- are_spawns ------------------------------------------------------------------- */

typedef struct spawn_rec {
  are_spawn r;
  ls_span creatures, weights;
} spawn_rec;

static const ls_json_shape weights_shape = {1, 10, 10, "[0,0,0,0,0,0,0,0,0,0]",
                                            "a JSON array of 10 weights from 0 to 255, e.g. '[1,1,0,0,0,0,0,0,0,0]'"};

#define REC spawn_rec
static const ls_column spawn_columns[] = {
  COL_POS("spawn", 1),
  COL_T(name, "spawn point name (32 bytes at most)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_RESREFS("creatures", creatures, 0, "JSON array of the creatures (CRE resrefs, at most 10) it spawns; setting it sets creature_count"),
  COL_RO(creature_count, "number of creatures"),
  COL_I(base_count, "base creature count (times the party level / 2 for the number spawned)"),
  COL_I(frequency, "seconds between spawns"),
  COL_I(spawn_method, "spawn method flags: are_flag_names('spawn_method', ...): spawn_while_disabled, one_time, disabled"),
  COL_I(removal_timer, "seconds until the spawned creatures are removed"),
  COL_I(movement_restriction, "movement restriction distance"),
  COL_I(movement_restriction_object, "movement restriction distance to the object followed"),
  COL_I(max_creatures, "most creatures spawned"),
  COL_I(enabled, "1: enabled"),
  COL_I(schedule, D_SCHEDULE),
  COL_I(probability_day, "chance of spawning by day (percent)"),
  COL_I(probability_night, "chance of spawning by night (percent)"),
  COL_I(spawn_frequency, "BGEE: spawn frequency"),
  COL_I(countdown, "BGEE: countdown"),
  LS_COL_JSON_INTS("weights", LS_SPAN, REC, weights, 0, 255, 0, &weights_shape, "BGEE: JSON array of the 10 creatures' spawn weights"),
};
static const are_extra spawn_extras[] = {
  EXTRA_RESREFS(spawn_rec, creatures, r.creatures, r.creature_count),
  {.kind = X_BYTES, .span = offsetof(spawn_rec, weights), .field = offsetof(spawn_rec, r.weights), .n = 10},
  EXTRA_END,
};
#undef REC
SECTION_TABLE(spawn, ARE_SPAWNS, "are_spawns", "spawn", 1,
              "one row per spawn point of each ARE file; INSERT adds one, DELETE removes one");

/* ---- are_entrances ----------------------------------------------------------------- */

typedef struct entrance_rec {
  are_entrance r;
} entrance_rec;

#define REC entrance_rec
static const ls_column entrance_columns[] = {
  COL_POS("entrance", 2),
  COL_T(name, "entrance name (what travel regions' destination_entrance names; 32 bytes at most)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_I(orientation, "facing, 0..15 (0: south, clockwise)"),
};
static const are_extra entrance_extras[] = {EXTRA_END};
#undef REC
SECTION_TABLE(entrance, ARE_ENTRANCES, "are_entrances", "entrance", 2,
              "one row per entrance of each ARE file; INSERT adds one, DELETE removes one");

/* ---- are_containers ---------------------------------------------------------------- */

typedef struct container_rec {
  are_container r;
  ls_span vertices;
} container_rec;

#define REC container_rec
static const ls_column container_columns[] = {
  COL_POS("container", 1),
  COL_T(name, "container name (32 bytes at most)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_E(type, are_container_type_names, "'none', 'bag', 'chest', 'drawer', 'pile', 'table', 'shelf', 'altar', 'nonvisible', 'spellbook', 'body', 'barrel' or 'crate'"),
  COL_I(lock_difficulty, "lock difficulty (percent)"),
  COL_I(flags, "flags: are_flag_names('container', flags): locked, disable_if_no_owner, magically_locked, trap_resets, remove_only, disabled"),
  TRAP_COLUMNS,
  BOX_COLUMNS,
  COL_RO(first_item, "index of the first item in the file's item table (are_items.item); follows every item edit"),
  COL_RO(item_count, "number of items (rows of are_items with this container)"),
  COL_T(trap_script, "the trap's script (BCS resref)"),
  COL_RO(first_vertex, "index of the first vertex in the file's vertex table"),
  COL_RO(vertex_count, "number of vertices"),
  COL_POINTS("vertices", vertices, &outline_shape, "JSON array of the outline's [x,y] pixel pairs; setting it recomputes the box"),
  COL_I(trigger_range, "trigger range"),
  COL_T(owner, "the owner's script name (32 bytes at most)"),
  COL_T(key_item, "the key (ITM resref)"),
  COL_I(break_difficulty, "break difficulty"),
  COL_S(lockpick_string, "text shown when the lock cannot be picked (strref, -1: none)"),
};
static const are_extra container_extras[] = {EXTRA_RUN(container_rec, vertices, ARE_RUN_OUTLINE), EXTRA_END};
#undef REC
SECTION_TABLE(container, ARE_CONTAINERS, "are_containers", "container", 1.1,
              "one row per container of each ARE file; INSERT adds one (no items, no vertices yet), DELETE removes one with its items and vertices");

/* ---- are_items ------------------------------------------------------------------------ */

/* are_items: the item record and where it sits: its container (-1: none)
** and its place in that container's run. */
typedef struct item_rec {
  are_item r;
  int64_t container, slot;
} item_rec;

#define REC item_rec
static const ls_column item_columns[] = {
  LS_COL_POS("item", LS_POS_ELEMENT, LS_COL_RANGE, "index in the file's item table, 0-based (the containers' items one after another; shifts when items before it are inserted or deleted)"),
  {.name = "container", .type = "INTEGER", .kind = LS_INT, .store = LS_I64, .offset = offsetof(REC, container),
   .flags = LS_COL_RO | LS_COL_NULL, .null_value = -1,
   .doc = "the container holding it (are_containers.container; NULL: none); INSERT: the container it goes into (needed)"},
  {.name = "slot", .type = "INTEGER", .kind = LS_INT, .store = LS_I64, .offset = offsetof(REC, slot),
   .flags = LS_COL_RO | LS_COL_NULL, .null_value = -1,
   .doc = "its place in the container, 0-based; INSERT: the place to take, default after the container's last item"},
  COL_T(resref, "the item (ITM resref)"),
  COL_I(expiration_time, "expiration time (hours; 0: never)"),
  COL_I(charges1, "quantity or charges of the first ability"),
  COL_I(charges2, "charges of the second ability"),
  COL_I(charges3, "charges of the third ability"),
  COL_I(flags, "flags: are_flag_names('item', flags): identified, unstealable, stolen, undroppable"),
};
static const are_extra item_extras[] = {EXTRA_END};
#undef REC
SECTION_CALLBACKS(item, ARE_ITEMS)

/* The item record, then which container holds it. */
static int item_load_row(const ls_row *row, char **err) {
  item_rec *r = row->rec;
  uint32_t c, k;
  int rc = item_load(row, err);
  int held = are_item_container(AREA(row), (uint32_t)row->pos.element, &c, &k);
  r->container = held ? (int64_t)c : -1;
  r->slot = held ? (int64_t)k : -1;
  return rc;
}

/* INSERT: a new item (all 0) into container `container` at `slot`
** (default: after its last); every later container's first_item moves
** up by one. */
typedef struct item_args {
  ls_arg container, slot;
} item_args;

/* The container argument: needed, and the area needs a container first. */
static int item_container(const void *model, const void *args, ls_arg *a, char **err) {
  const are_area *ar = model;
  (void)args;
  if (ar->num_containers == 0 || !ls_arg_given(a))
    return ls_refuse(err, "INSERT into are_items needs container (are_containers.container: %s); slot is optional",
                     ar->num_containers ? "the container the item goes into" : "the area has none, add one first");
  return ls_value_int(a->value, a->column, 0, (int64_t)ar->num_containers - 1, &a->i, err);
}

/* The items container c holds: the slots an item can take there. */
static int64_t container_items(const void *model, int64_t c) { return ((const are_area *)model)->containers[c].item_count; }

static int item_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const item_args *args = args_;
  are_area *a = model;
  uint32_t c = (uint32_t)args->container.i, k = (uint32_t)args->slot.i;
  codec_error cerr;
  are_item it;
  are_record_init(ARE_ITEMS, &it);
  cerr.msg[0] = 0;
  if (!are_item_insert(a, c, k, &it, &cerr)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "cannot insert an item");
  return ls_inserted_at(pos, (int64_t)a->containers[c].first_item + k, 0);
}

/* DELETE of an item: its container holds one less. */
static int item_remove(void *model, const ls_pos *pos, char **err) {
  uint32_t c, k;
  codec_error cerr;
  if (!are_item_container(model, (uint32_t)pos->element, &c, &k)) {
    *err = sqlite3_mprintf("item %lld is in no container's items; DELETE takes the items of containers", (long long)pos->element);
    return SQLITE_CONSTRAINT;
  }
  cerr.msg[0] = 0;
  if (!are_item_delete(model, c, k, &cerr)) return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "cannot delete");
  return SQLITE_OK;
}

static const ls_insert item_insertion = {
  .run = item_insert, .args_size = sizeof(item_args),
  .args = {LS_ARG(item_args, container, LS_CHECKED_BY(item_container)),
           LS_ARG(item_args, slot, LS_IS_AT_IN(container_items, item_args, container))},
};

static const ls_table item_table = {
  .name = "are_items", .format = &are_format,
  .doc = "one row per item of each ARE file, with the container holding it; INSERT adds one to a container, DELETE removes one (the containers' first_item and item_count follow)",
  LS_COLUMNS(item_columns),
  .shape = LS_ARRAY(item_count), .key = item_key, .seek = item_seek, .insert = &item_insertion, .remove = item_remove,
  .row_name = "item {element}", .natural_order = "item", .rows_per_file = 1.4,
  .record_size = sizeof(item_rec), .load = item_load_row, .store = item_store,
};

/* ---- are_ambients ---------------------------------------------------------------------- */

typedef struct ambient_rec {
  are_ambient r;
  ls_span sounds;
} ambient_rec;

#define REC ambient_rec
static const ls_column ambient_columns[] = {
  COL_POS("ambient", 2),
  COL_T(name, "ambient name (32 bytes at most)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_I(radius, "radius in pixels"),
  COL_I(height, "height"),
  COL_I(pitch_variance, "pitch variance"),
  COL_I(volume_variance, "volume variance"),
  COL_I(volume, "volume (percent)"),
  COL_RESREFS("sounds", sounds, 0, "JSON array of the sounds (WAV resrefs, at most 10) played; setting it sets sound_count"),
  COL_RO(sound_count, "number of sounds"),
  COL_I(base_time, "seconds between sounds"),
  COL_I(base_time_deviation, "deviation of the time between sounds"),
  COL_I(schedule, D_SCHEDULE),
  COL_I(flags, "flags: are_flag_names('ambient', flags): enabled, no_environmental_effects, global, random, low_memory"),
};
static const are_extra ambient_extras[] = {EXTRA_RESREFS(ambient_rec, sounds, r.sounds, r.sound_count), EXTRA_END};
#undef REC
SECTION_TABLE(ambient, ARE_AMBIENTS, "are_ambients", "ambient", 2.4,
              "one row per ambient sound of each ARE file; INSERT adds one (enabled, always active), DELETE removes one");

/* ---- are_variables --------------------------------------------------------------------- */

typedef struct variable_rec {
  are_variable r;
} variable_rec;

#define REC variable_rec
static const ls_column variable_columns[] = {
  COL_POS("variable", 1),
  COL_T(name, "variable name (32 bytes at most)"),
  COL_I(type, "type: are_flag_names('variable_type', type): int, float, script_name, resref, strref, dword"),
  COL_I(resource_type, "resource type"),
  COL_I(dword_value, "dword value"),
  COL_I(int_value, "int value"),
  {.name = "double_value", .type = "REAL", .kind = LS_FLOAT, .store = LS_F64, .offset = offsetof(REC, r.double_bits),
   .doc = "double value"},
  COL_T(script_name, "script name value (32 bytes at most)"),
};
static const are_extra variable_extras[] = {EXTRA_END};
#undef REC
SECTION_TABLE(variable, ARE_VARIABLES, "are_variables", "variable", 1,
              "one row per area variable of each ARE file (saved games); INSERT adds one, DELETE removes one");

/* ---- are_doors --------------------------------------------------------------------------- */

typedef struct door_rec {
  are_door r;
  ls_span open_vertices, closed_vertices, open_impeded, closed_impeded;
} door_rec;

#define REC door_rec
static const ls_column door_columns[] = {
  COL_POS("door", 2),
  COL_T(name, "door name (32 bytes at most)"),
  COL_T(door_id, "the WED door it animates (wed_doors.name, 8 bytes at most)"),
  COL_I(flags, "flags: are_flag_names('door', flags): open, locked, reset_trap, trap_detectable, broken, cant_close, ..."),
  COL_RO(open_first_vertex, "first vertex of the open outline in the file's vertex table"),
  COL_RO(open_vertex_count, "vertices of the open outline"),
  COL_RO(closed_vertex_count, "vertices of the closed outline"),
  COL_RO(closed_first_vertex, "first vertex of the closed outline"),
  COL_I(open_box_left, "open outline's bounding box left (stored; setting open_vertices recomputes it, an edge set in the same UPDATE wins)"),
  COL_I(open_box_top, "open outline's box top"),
  COL_I(open_box_right, "open outline's box right"),
  COL_I(open_box_bottom, "open outline's box bottom"),
  COL_I(closed_box_left, "closed outline's bounding box left (setting closed_vertices recomputes it)"),
  COL_I(closed_box_top, "closed outline's box top"),
  COL_I(closed_box_right, "closed outline's box right"),
  COL_I(closed_box_bottom, "closed outline's box bottom"),
  COL_RO(open_first_impeded, "first impeded cell of the open door in the vertex table"),
  COL_RO(open_impeded_count, "impeded cells of the open door"),
  COL_RO(closed_impeded_count, "impeded cells of the closed door"),
  COL_RO(closed_first_impeded, "first impeded cell of the closed door"),
  COL_POINTS("open_vertices", open_vertices, &outline_shape, "JSON array of the open outline's [x,y] pixel pairs"),
  COL_POINTS("closed_vertices", closed_vertices, &outline_shape, "JSON array of the closed outline's [x,y] pixel pairs"),
  COL_POINTS("open_impeded", open_impeded, &cells_shape, "JSON array of the search-map cells [x,y] the open door blocks"),
  COL_POINTS("closed_impeded", closed_impeded, &cells_shape, "JSON array of the search-map cells [x,y] the closed door blocks"),
  COL_I(hit_points, "hit points"),
  COL_I(armor_class, "armor class"),
  COL_T(open_sound, "sound when opened (WAV resref)"),
  COL_T(close_sound, "sound when closed"),
  COL_I(cursor, "cursor shown over the door (CURSORS.BAM frame)"),
  TRAP_COLUMNS,
  COL_T(key_item, "the key (ITM resref)"),
  COL_T(script, "the door's script (BCS resref)"),
  COL_I(detection_difficulty, "detection difficulty of a secret door (percent)"),
  COL_I(lock_difficulty, "lock difficulty (percent)"),
  COL_I(toggle1_x, "first point the door is used from, x"),
  COL_I(toggle1_y, "first point, y"),
  COL_I(toggle2_x, "second point, x"),
  COL_I(toggle2_y, "second point, y"),
  COL_S(lockpick_string, "text shown when the lock cannot be picked (strref, -1: none)"),
  COL_T(travel_trigger_name, "the travel region it opens (are_regions.name, 24 bytes at most)"),
  COL_S(dialog_speaker_name, "the door's name as a speaker (strref)"),
  COL_T(dialog, "dialog (DLG resref)"),
};
static const are_extra door_extras[] = {
  EXTRA_RUN(door_rec, open_vertices, ARE_RUN_OPEN), EXTRA_RUN(door_rec, closed_vertices, ARE_RUN_CLOSED),
  EXTRA_RUN(door_rec, open_impeded, ARE_RUN_OPEN_IMPEDED), EXTRA_RUN(door_rec, closed_impeded, ARE_RUN_CLOSED_IMPEDED),
  EXTRA_END,
};
#undef REC
SECTION_TABLE(door, ARE_DOORS, "are_doors", "door", 1.3,
              "one row per door of each ARE file (door_id names its WED door); INSERT adds one (no outlines yet), DELETE removes one with its vertices");

/* ---- are_animations ---------------------------------------------------------------------- */

typedef struct animation_rec {
  are_animation r;
} animation_rec;

#define REC animation_rec
static const ls_column animation_columns[] = {
  COL_POS("animation", 8),
  COL_T(name, "animation name (32 bytes at most)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_I(schedule, D_SCHEDULE),
  COL_T(resref, "the animation (BAM, or WBM / PVRZ by the flags)"),
  COL_I(sequence, "BAM sequence"),
  COL_I(frame, "BAM frame"),
  COL_I(flags, "flags: are_flag_names('animation', flags): enabled, black_transparent, not_self_illuminated, partial, ..."),
  COL_I(height, "height"),
  COL_I(transparency, "transparency (0..255)"),
  COL_I(start_frame, "start frame (0: random)"),
  COL_I(loop_chance, "chance of looping (percent)"),
  COL_I(skip_cycles, "cycles skipped"),
  COL_T(palette, "palette (BMP resref)"),
  COL_I(animation_width, "BGEE: width of a WBM / PVRZ animation"),
  COL_I(animation_height, "BGEE: height"),
};
static const are_extra animation_extras[] = {EXTRA_END};
#undef REC
SECTION_TABLE(animation, ARE_ANIMATIONS, "are_animations", "animation", 7.7,
              "one row per animation of each ARE file; INSERT adds one (enabled, always shown), DELETE removes one");

/* ---- are_notes ----------------------------------------------------------------------------- */

typedef struct note_rec {
  are_note r;
} note_rec;

#define REC note_rec
static const ls_column note_columns[] = {
  COL_POS("note", 1),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_S(text, "the note's text (strref)"),
  COL_I(strref_location, "where the text is: 0 in dialog.tlk, 1 in the saved game's TOH/TOT"),
  COL_E(color, are_note_color_names, "marker colour: 'gray', 'violet', 'green', 'orange', 'red', 'blue', 'dark_blue' or 'light_gray'"),
  COL_I(count_plus_10, "the note's number + 10"),
};
static const are_extra note_extras[] = {EXTRA_END};
#undef REC
SECTION_TABLE(note, ARE_NOTES, "are_notes", "note", 1,
              "one row per automap note of each ARE file; INSERT adds one, DELETE removes one");

/* ---- are_traps --------------------------------------------------------------------------------- */

typedef struct trap_rec {
  are_trap r;
  ls_span effect;
} trap_rec;

#define REC trap_rec
static const ls_column trap_columns[] = {
  COL_POS("trap", 1),
  COL_T(projectile, "the projectile (PRO resref)"),
  COL_RO(effect_offset, "offset of the effect block in the file (laid out by the writer)"),
  COL_RO(effect_size, "bytes of the effect block"),
  COL_BLOB("effect", effect, 65535, "the effect block (EFF V2.0 records), NULL for none; setting it sets effect_size"),
  COL_I(missile_id, "missile (MISSILE.IDS)"),
  COL_I(ticks, "ticks until the next trigger check"),
  COL_I(triggers_remaining, "triggers remaining (the word at 0x12; IESDP repeats 0x10)"),
  COL_I(x, "x in pixels"),
  COL_I(y, "y in pixels"),
  COL_I(z, "z (height)"),
  COL_I(target_type, "enemy-ally targeting (EA.IDS)"),
  COL_I(party_member, "the party member who created the trap (0..5)"),
};
static const are_extra trap_extras[] = {{.kind = X_BLOCK, .span = offsetof(trap_rec, effect)}, EXTRA_END};
#undef REC
SECTION_TABLE(trap, ARE_TRAPS, "are_traps", "trap", 1,
              "one row per projectile trap of each ARE file (saved games); INSERT adds one, DELETE removes one with its effect block");

/* ---- are_tiled_objects ------------------------------------------------------------------------- */

typedef struct tiled_rec {
  are_tiled r;
} tiled_rec;

#define REC tiled_rec
static const ls_column tiled_columns[] = {
  COL_POS("tiled_object", 1),
  COL_T(name, "tiled object name (32 bytes at most)"),
  COL_T(tile_id, "its tile id"),
  COL_I(flags, "flags: are_flag_names('tiled_object', flags): secondary_state, see_through"),
  COL_I(open_squares_offset, "offset of the open search squares (kept as stored)"),
  COL_I(open_squares_count, "number of open search squares"),
  COL_I(closed_squares_count, "number of closed search squares"),
  COL_I(closed_squares_offset, "offset of the closed search squares (kept as stored)"),
};
static const are_extra tiled_extras[] = {EXTRA_END};
#undef REC
SECTION_TABLE(tiled, ARE_TILED, "are_tiled_objects", "tiled_object", 1,
              "one row per tiled object of each ARE file; INSERT adds one, DELETE removes one");

/* ---- the family ------------------------------------------------------------------------------- */

static const ls_table *const are_tables[] = {
  &are_areas, &actor_table, &region_table, &spawn_table, &entrance_table, &container_table, &item_table,
  &ambient_table, &variable_table, &door_table, &animation_table, &note_table, &trap_table, &tiled_table, NULL};

const ls_family are_family = {
  .format = &are_format,
  .tables = are_tables,
  .register_functions = are_register_functions,
};
