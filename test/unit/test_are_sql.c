/*
** test_are_sql.c: the ARE tables read every area exactly as the IESDP
** layout says (issue 26, part 1: "a test that checks counts and fields
** against the raw bytes of every corpus area").
**
** The layout below is written from IESDP's are_v1.htm and the corrections
** of codecs/are/NOTES-are.md (the container box at 0x38..0x3e, the trap's
** triggers remaining at 0x12, the record sizes IESDP does not state), in
** this file alone: it does not use the codec's field tables, so a slip in
** either shows.  For every area of $LEVELSQL_CORPUS/are (62 real areas of
** a BG2 mod) and of $LEVELSQL_SAMPLES (AR0100.ARE and AR0200.ARE, which
** hold the sections no corpus area has: spawn points, variables, notes,
** projectile traps, tiled objects), and for every table: the row count is
** the header's count, and every column of every row is the value at its
** offset: integers, strrefs (signed), 8-bit text (read with
** encoding=latin1, so each byte is one character), enums by name, vertex
** runs and resref lists as the JSON the raw runs and slots give, embedded
** blocks byte for byte, and each item's container from the raw
** containers' item runs.  The corpus is only read.
*/
#include <dirent.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "are/are.h"
#include "check.h"
#include "common/bytes.h"
#include "fileutil.h"
#include "sqltest.h"

/* A column and where its value is in the raw record:
**  'b' byte, 'w' 16-bit, 'd' 32-bit, 's' strref (signed 32-bit) at off;
**  't' text of `n` bytes at off (up to the first NUL); 'e' a 16-bit enum
**  at off, read by name (names) when it has one; 'f' the double at off;
**  'v' a vertex run: its first index (32-bit) at off, its count (16-bit)
**  at off2, as [[x,y],...]; 'r' a resref list: `n` 8-byte slots at off,
**  the count (16-bit) at off2; 'i' `n` signed 32-bit values at off; 'B'
**  `n` bytes at off, as JSON arrays; 'x' an embedded block: its offset
**  (32-bit) at off, its size (n bytes wide) at off2, as hex; 'h' 1 when
**  the 32-bit value at off is not 0; 'c' / 'k' an item's container and
**  its place in it, from the raw containers. */
typedef struct raw_col {
  const char *name;
  char kind;
  uint16_t off, off2;
  uint8_t n;
  const char *const *names;
} raw_col;

/* A table: its position column, where the header keeps its records'
** offset and count (count_width 2 or 4 bytes; 0: the header alone, one
** row), the record size, and the columns of its parts: the record (or
** the header), then for are_areas the song entries and the rest
** interruptions (their offsets at 0xbc and 0xc0; NULL columns without). */
typedef struct raw_table {
  const char *name, *pos;
  uint16_t off_at, count_at;
  uint8_t count_width;
  uint16_t rec_size;
  const raw_col *cols[3];
} raw_table;

#define END {NULL, 0, 0, 0, 0, NULL}
#define W(nm, o) {nm, 'w', o, 0, 0, NULL}
#define DW(nm, o) {nm, 'd', o, 0, 0, NULL}
#define T8(nm, o) {nm, 't', o, 0, 8, NULL}
#define T32(nm, o) {nm, 't', o, 0, 32, NULL}

static const char *const region_types[] = {"trap", "info", "travel", NULL};
static const char *const container_types[] = {"none", "bag", "chest", "drawer", "pile", "table", "shelf", "altar",
                                              "nonvisible", "spellbook", "body", "barrel", "crate", NULL};
static const char *const note_colors[] = {"gray", "violet", "green", "orange", "red", "blue", "dark_blue", "light_gray", NULL};

static const raw_col header_cols[] = {
    T8("wed", 0x08), DW("last_saved", 0x10), DW("area_flags", 0x14), T8("north_area", 0x18), DW("north_flags", 0x20),
    T8("east_area", 0x24), DW("east_flags", 0x2c), T8("south_area", 0x30), DW("south_flags", 0x38),
    T8("west_area", 0x3c), DW("west_flags", 0x44), W("area_type_flags", 0x48), W("rain_probability", 0x4a),
    W("snow_probability", 0x4c), W("fog_probability", 0x4e), W("lightning_probability", 0x50), W("wind_speed", 0x52),
    W("tiled_object_flags_offset", 0x90), W("tiled_object_flags_count", 0x92), T8("area_script", 0x94),
    T8("rest_movie_day", 0xd4), T8("rest_movie_night", 0xdc), {"explored", 'x', 0xa0, 0x9c, 4, NULL},
    {"has_songs", 'h', 0xbc, 0, 0, NULL}, {"has_rest", 'h', 0xc0, 0, 0, NULL}, END};
static const raw_col song_cols[] = {
    DW("day_song", 0x00), DW("night_song", 0x04), DW("win_song", 0x08), DW("battle_song", 0x0c), DW("lose_song", 0x10),
    DW("alt_music1", 0x14), DW("alt_music2", 0x18), DW("alt_music3", 0x1c), DW("alt_music4", 0x20),
    DW("alt_music5", 0x24), T8("day_ambient1", 0x28), T8("day_ambient2", 0x30), DW("day_ambient_volume", 0x38),
    T8("night_ambient1", 0x3c), T8("night_ambient2", 0x44), DW("night_ambient_volume", 0x4c), DW("reverb", 0x50), END};
static const raw_col rest_cols[] = {
    T32("rest_name", 0x00), {"rest_texts", 'i', 0x20, 0, 10, NULL}, {"rest_creatures", 'r', 0x48, 0x98, 10, NULL},
    W("rest_creature_count", 0x98), W("rest_difficulty", 0x9a), DW("rest_removal_time", 0x9c),
    W("rest_movement_restriction", 0xa0), W("rest_movement_restriction_object", 0xa2), W("rest_max_creatures", 0xa4),
    W("rest_enabled", 0xa6), W("rest_probability_day", 0xa8), W("rest_probability_night", 0xaa), END};
static const raw_col actor_cols[] = {
    T32("name", 0), W("x", 0x20), W("y", 0x22), W("dest_x", 0x24), W("dest_y", 0x26), DW("flags", 0x28),
    W("spawned", 0x2c), {"cre_first_letter", 'b', 0x2e, 0, 0, NULL}, DW("animation", 0x30), W("orientation", 0x34),
    DW("removal_timer", 0x38), W("movement_restriction", 0x3c), W("movement_restriction_object", 0x3e),
    DW("schedule", 0x40), DW("num_times_talked_to", 0x44), T8("dialog", 0x48), T8("script_override", 0x50),
    T8("script_general", 0x58), T8("script_class", 0x60), T8("script_race", 0x68), T8("script_default", 0x70),
    T8("script_specific", 0x78), T8("cre_file", 0x80), DW("cre_offset", 0x88), DW("cre_size", 0x8c),
    {"cre", 'x', 0x88, 0x8c, 4, NULL}, END};
static const raw_col region_cols[] = {
    T32("name", 0), {"type", 'e', 0x20, 0, 0, region_types}, W("box_left", 0x22), W("box_top", 0x24),
    W("box_right", 0x26), W("box_bottom", 0x28), W("vertex_count", 0x2a), DW("first_vertex", 0x2c),
    {"vertices", 'v', 0x2c, 0x2a, 0, NULL}, DW("trigger_value", 0x30), DW("cursor", 0x34),
    T8("destination_area", 0x38), T32("destination_entrance", 0x40), DW("flags", 0x60),
    {"info_text", 's', 0x64, 0, 0, NULL}, W("trap_detection_difficulty", 0x68), W("trap_removal_difficulty", 0x6a),
    W("trapped", 0x6c), W("trap_detected", 0x6e), W("trap_launch_x", 0x70), W("trap_launch_y", 0x72),
    T8("key_item", 0x74), T8("script", 0x7c), W("alt_use_x", 0x84), W("alt_use_y", 0x86), T8("sound", 0xac),
    W("talk_x", 0xb4), W("talk_y", 0xb6), {"speaker_name", 's', 0xb8, 0, 0, NULL}, T8("dialog", 0xbc), END};
static const raw_col spawn_cols[] = {
    T32("name", 0), W("x", 0x20), W("y", 0x22), {"creatures", 'r', 0x24, 0x74, 10, NULL}, W("creature_count", 0x74),
    W("base_count", 0x76), W("frequency", 0x78), W("spawn_method", 0x7a), DW("removal_timer", 0x7c),
    W("movement_restriction", 0x80), W("movement_restriction_object", 0x82), W("max_creatures", 0x84),
    W("enabled", 0x86), DW("schedule", 0x88), W("probability_day", 0x8c), W("probability_night", 0x8e),
    DW("spawn_frequency", 0x90), DW("countdown", 0x94), {"weights", 'B', 0x98, 0, 10, NULL}, END};
static const raw_col entrance_cols[] = {T32("name", 0), W("x", 0x20), W("y", 0x22), W("orientation", 0x24), END};
static const raw_col container_cols[] = {
    T32("name", 0), W("x", 0x20), W("y", 0x22), {"type", 'e', 0x24, 0, 0, container_types},
    W("lock_difficulty", 0x26), DW("flags", 0x28), W("trap_detection_difficulty", 0x2c),
    W("trap_removal_difficulty", 0x2e), W("trapped", 0x30), W("trap_detected", 0x32), W("trap_launch_x", 0x34),
    W("trap_launch_y", 0x36), W("box_left", 0x38), W("box_top", 0x3a), W("box_right", 0x3c), W("box_bottom", 0x3e),
    DW("first_item", 0x40), DW("item_count", 0x44), T8("trap_script", 0x48), DW("first_vertex", 0x50),
    W("vertex_count", 0x54), {"vertices", 'v', 0x50, 0x54, 0, NULL}, W("trigger_range", 0x56), T32("owner", 0x58),
    T8("key_item", 0x78), DW("break_difficulty", 0x80), {"lockpick_string", 's', 0x84, 0, 0, NULL}, END};
static const raw_col item_cols[] = {
    {"container", 'c', 0, 0, 0, NULL}, {"slot", 'k', 0, 0, 0, NULL}, T8("resref", 0), W("expiration_time", 0x08),
    W("charges1", 0x0a), W("charges2", 0x0c), W("charges3", 0x0e), DW("flags", 0x10), END};
static const raw_col ambient_cols[] = {
    T32("name", 0), W("x", 0x20), W("y", 0x22), W("radius", 0x24), W("height", 0x26), DW("pitch_variance", 0x28),
    W("volume_variance", 0x2c), W("volume", 0x2e), {"sounds", 'r', 0x30, 0x80, 10, NULL}, W("sound_count", 0x80),
    DW("base_time", 0x84), DW("base_time_deviation", 0x88), DW("schedule", 0x8c), DW("flags", 0x90), END};
static const raw_col variable_cols[] = {
    T32("name", 0), W("type", 0x20), W("resource_type", 0x22), DW("dword_value", 0x24), DW("int_value", 0x28),
    {"double_value", 'f', 0x2c, 0, 0, NULL}, T32("script_name", 0x34), END};
static const raw_col door_cols[] = {
    T32("name", 0), T8("door_id", 0x20), DW("flags", 0x28), DW("open_first_vertex", 0x2c),
    W("open_vertex_count", 0x30), W("closed_vertex_count", 0x32), DW("closed_first_vertex", 0x34),
    W("open_box_left", 0x38), W("open_box_top", 0x3a), W("open_box_right", 0x3c), W("open_box_bottom", 0x3e),
    W("closed_box_left", 0x40), W("closed_box_top", 0x42), W("closed_box_right", 0x44), W("closed_box_bottom", 0x46),
    DW("open_first_impeded", 0x48), W("open_impeded_count", 0x4c), W("closed_impeded_count", 0x4e),
    DW("closed_first_impeded", 0x50), {"open_vertices", 'v', 0x2c, 0x30, 0, NULL},
    {"closed_vertices", 'v', 0x34, 0x32, 0, NULL}, {"open_impeded", 'v', 0x48, 0x4c, 0, NULL},
    {"closed_impeded", 'v', 0x50, 0x4e, 0, NULL}, W("hit_points", 0x54), W("armor_class", 0x56),
    T8("open_sound", 0x58), T8("close_sound", 0x60), DW("cursor", 0x68), W("trap_detection_difficulty", 0x6c),
    W("trap_removal_difficulty", 0x6e), W("trapped", 0x70), W("trap_detected", 0x72), W("trap_launch_x", 0x74),
    W("trap_launch_y", 0x76), T8("key_item", 0x78), T8("script", 0x80), DW("detection_difficulty", 0x88),
    DW("lock_difficulty", 0x8c), W("toggle1_x", 0x90), W("toggle1_y", 0x92), W("toggle2_x", 0x94),
    W("toggle2_y", 0x96), {"lockpick_string", 's', 0x98, 0, 0, NULL}, {"travel_trigger_name", 't', 0x9c, 0, 24, NULL},
    {"dialog_speaker_name", 's', 0xb4, 0, 0, NULL}, T8("dialog", 0xb8), END};
static const raw_col animation_cols[] = {
    T32("name", 0), W("x", 0x20), W("y", 0x22), DW("schedule", 0x24), T8("resref", 0x28), W("sequence", 0x30),
    W("frame", 0x32), DW("flags", 0x34), W("height", 0x38), W("transparency", 0x3a), W("start_frame", 0x3c),
    {"loop_chance", 'b', 0x3e, 0, 0, NULL}, {"skip_cycles", 'b', 0x3f, 0, 0, NULL}, T8("palette", 0x40),
    W("animation_width", 0x48), W("animation_height", 0x4a), END};
static const raw_col note_cols[] = {
    W("x", 0), W("y", 2), {"text", 's', 4, 0, 0, NULL}, W("strref_location", 8), {"color", 'e', 0x0a, 0, 0, note_colors},
    DW("count_plus_10", 0x0c), END};
static const raw_col trap_cols[] = {
    T8("projectile", 0), DW("effect_offset", 0x08), W("effect_size", 0x0c), {"effect", 'x', 0x08, 0x0c, 2, NULL},
    W("missile_id", 0x0e), W("ticks", 0x10), W("triggers_remaining", 0x12), W("x", 0x14), W("y", 0x16), W("z", 0x18),
    {"target_type", 'b', 0x1a, 0, 0, NULL}, {"party_member", 'b', 0x1b, 0, 0, NULL}, END};
static const raw_col tiled_cols[] = {
    T32("name", 0), T8("tile_id", 0x20), DW("flags", 0x28), DW("open_squares_offset", 0x2c),
    W("open_squares_count", 0x30), W("closed_squares_count", 0x34), DW("closed_squares_offset", 0x38), END};

static const raw_table raw_tables[] = {
    {"are_areas", NULL, 0, 0, 0, 0, {header_cols, song_cols, rest_cols}},
    {"are_actors", "actor", 0x54, 0x58, 2, 0x110, {actor_cols}},
    {"are_regions", "region", 0x5c, 0x5a, 2, 0xc4, {region_cols}},
    {"are_spawns", "spawn", 0x60, 0x64, 4, 0xc8, {spawn_cols}},
    {"are_entrances", "entrance", 0x68, 0x6c, 4, 0x68, {entrance_cols}},
    {"are_containers", "container", 0x70, 0x74, 2, 0xc0, {container_cols}},
    {"are_items", "item", 0x78, 0x76, 2, 0x14, {item_cols}},
    {"are_ambients", "ambient", 0x84, 0x82, 2, 0xd4, {ambient_cols}},
    {"are_variables", "variable", 0x88, 0x8c, 4, 0x54, {variable_cols}},
    {"are_doors", "door", 0xa8, 0xa4, 4, 0xc8, {door_cols}},
    {"are_animations", "animation", 0xb0, 0xac, 4, 0x4c, {animation_cols}},
    {"are_notes", "note", 0xc4, 0xc8, 4, 0x34, {note_cols}},
    {"are_traps", "trap", 0xcc, 0xd0, 4, 0x1c, {trap_cols}},
    {"are_tiled_objects", "tiled_object", 0xb8, 0xb4, 4, 0x6c, {tiled_cols}},
};
#define NTABLES (sizeof raw_tables / sizeof raw_tables[0])

/* ---- the expected values ---------------------------------------------------------- */

/* A growing string for the expected value. */
typedef struct out_buf {
  char s[16384];
  size_t n;
} out_buf;

static void put(out_buf *o, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  if (o->n < sizeof o->s) o->n += (size_t)vsnprintf(o->s + o->n, sizeof o->s - o->n, f, ap);
  va_end(ap);
  if (o->n >= sizeof o->s) o->n = sizeof o->s - 1;
}

/* Bytes up to the first NUL (at most n) as latin-1 text in UTF-8. */
static void put_text(out_buf *o, const unsigned char *p, size_t n) {
  size_t k;
  for (k = 0; k < n && p[k]; k++) {
    if (p[k] < 0x80) put(o, "%c", p[k]);
    else put(o, "%c%c", 0xC0 | (p[k] >> 6), 0x80 | (p[k] & 0x3F));
  }
}

/* The raw file of one area. */
typedef struct raw_area {
  const unsigned char *d;
  size_t size;
} raw_area;

/* The 16- or 32-bit count a header field holds. */
static uint32_t raw_count(const raw_area *a, uint16_t at, int width) {
  return width == 2 ? le16_load(a->d + at) : le32_load(a->d + at);
}

/* Finds the raw container whose item run holds item `item`: 1, *c, *k. */
static int raw_item_container(const raw_area *a, uint32_t item, uint32_t *c, uint32_t *k) {
  uint32_t off = le32_load(a->d + 0x70), n = le16_load(a->d + 0x74), i;
  for (i = 0; i < n; i++) {
    const unsigned char *r = a->d + off + (size_t)i * 0xc0;
    uint32_t first = le32_load(r + 0x40), count = le32_load(r + 0x44);
    if (count && item >= first && item - first < count) {
      *c = i, *k = item - first;
      return 1;
    }
  }
  return 0;
}

/* The value of column `c` of the record at `rec` (NULL: the part is
** absent, the value NULL), as the table shows it (text), into o. */
static void expected(const raw_area *a, const unsigned char *rec, uint32_t index, const raw_col *c, out_buf *o) {
  uint32_t k, n, cont, slot;
  o->n = 0;
  o->s[0] = 0;
  if (!rec) {
    put(o, "NULL");
    return;
  }
  switch (c->kind) {
    case 'b': put(o, "%u", rec[c->off]); break;
    case 'w': put(o, "%u", le16_load(rec + c->off)); break;
    case 'd': put(o, "%lu", (unsigned long)le32_load(rec + c->off)); break;
    case 's': put(o, "%ld", (long)(int32_t)le32_load(rec + c->off)); break;
    case 'h': put(o, "%d", le32_load(rec + c->off) != 0); break;
    case 't': put_text(o, rec + c->off, c->n); break;
    case 'e':
      n = le16_load(rec + c->off);
      for (k = 0; c->names[k] && k < n; k++) continue;
      if (c->names[k]) put(o, "%s", c->names[k]);
      else put(o, "%u", n);
      break;
    case 'v': {
      uint32_t first = le32_load(rec + c->off), vo = le32_load(a->d + 0x7c);
      n = le16_load(rec + c->off2);
      put(o, "[");
      for (k = 0; k < n; k++) {
        const unsigned char *p = a->d + vo + ((size_t)first + k) * 4;
        put(o, "%s[%u,%u]", k ? "," : "", le16_load(p), le16_load(p + 2));
      }
      put(o, "]");
      break;
    }
    case 'r':
      n = le16_load(rec + c->off2);
      put(o, "[");
      for (k = 0; k < n && k < c->n; k++) {
        put(o, "%s\"", k ? "," : "");
        put_text(o, rec + c->off + 8 * k, 8);
        put(o, "\"");
      }
      put(o, "]");
      break;
    case 'i':
    case 'B':
      put(o, "[");
      for (k = 0; k < c->n; k++) {
        if (c->kind == 'i') put(o, "%s%ld", k ? "," : "", (long)(int32_t)le32_load(rec + c->off + 4 * k));
        else put(o, "%s%u", k ? "," : "", rec[c->off + k]);
      }
      put(o, "]");
      break;
    case 'x': {
      uint32_t at = le32_load(rec + c->off);
      n = c->n == 2 ? le16_load(rec + c->off2) : le32_load(rec + c->off2);
      if (!n) put(o, "NULL");
      for (k = 0; k < n && at + (size_t)k < a->size; k++) put(o, "%02X", a->d[at + k]);
      break;
    }
    case 'c': put(o, "%s", "NULL"); if (raw_item_container(a, index, &cont, &slot)) o->n = 0, put(o, "%u", cont); break;
    case 'k': put(o, "%s", "NULL"); if (raw_item_container(a, index, &cont, &slot)) o->n = 0, put(o, "%u", slot); break;
    default: break;
  }
}

/* ---- the check ---------------------------------------------------------------------- */

/* The select list of a table's columns (blocks as hex, so they compare as text). */
static void select_list(const raw_table *t, out_buf *o) {
  int p;
  const raw_col *c;
  o->n = 0;
  for (p = 0; p < 3 && t->cols[p]; p++)
    for (c = t->cols[p]; c->name; c++) {
      if (c->kind == 'x') put(o, "%snullif(hex(%s), '')", o->n ? ", " : "", c->name);
      else put(o, "%s%s", o->n ? ", " : "", c->name);
    }
}

/* One table of one area: the count and every value; returns the rows. */
static long check_table(sqlite3 *db, const char *path, const char *name, const raw_area *a, const raw_table *t) {
  out_buf cols, want;
  sqlite3_stmt *st = NULL;
  uint32_t count = t->count_width ? raw_count(a, t->count_at, t->count_width) : 1, row = 0;
  uint32_t base = t->count_width ? le32_load(a->d + t->off_at) : 0;
  select_list(t, &cols);
  if (sqlite3_prepare_v2(db, fmt("SELECT %s FROM %s('%s', 'encoding=latin1')%s%s", cols.s, t->name, path,
                                 t->pos ? " ORDER BY " : "", t->pos ? t->pos : ""),
                         -1, &st, NULL) != SQLITE_OK) {
    CHECK(0, "%s: %s: %s", name, t->name, sqlite3_errmsg(db));
    return 0;
  }
  while (sqlite3_step(st) == SQLITE_ROW) {
    const unsigned char *parts[3];
    int p, i = 0;
    const raw_col *c;
    parts[0] = a->d + base + (size_t)row * t->rec_size;
    parts[1] = le32_load(a->d + 0xbc) ? a->d + le32_load(a->d + 0xbc) : NULL;
    parts[2] = le32_load(a->d + 0xc0) ? a->d + le32_load(a->d + 0xc0) : NULL;
    for (p = 0; p < 3 && t->cols[p]; p++)
      for (c = t->cols[p]; c->name; c++, i++) {
        const char *got = (const char *)sqlite3_column_text(st, i);
        if (c->kind == 'f' && parts[p]) {
          uint64_t bits = (uint64_t)le32_load(parts[p] + c->off) | (uint64_t)le32_load(parts[p] + c->off + 4) << 32;
          double want_d;
          memcpy(&want_d, &bits, 8);
          CHECK(sqlite3_column_double(st, i) == want_d, "%s: %s row %u: %s is %s, the bytes say %g", name, t->name,
                row, c->name, got ? got : "NULL", want_d);
          continue;
        }
        expected(a, parts[p], row, c, &want);
        CHECK(strcmp(got ? got : "NULL", want.s) == 0, "%s: %s row %u: %s is '%s', the bytes at 0x%x say '%s'", name,
              t->name, row, c->name, got ? got : "NULL", c->off, want.s);
      }
    row++;
  }
  CHECK(sqlite3_errcode(db) == SQLITE_DONE || sqlite3_errcode(db) == SQLITE_OK, "%s: %s: %s", name, t->name,
        sqlite3_errmsg(db));
  sqlite3_finalize(st);
  CHECK(row == count, "%s: %s has %u rows, the header says %u", name, t->name, row, count);
  return row;
}

/* scandir's filter: .are / .ARE files. */
static int is_are(const struct dirent *de) {
  size_t l = strlen(de->d_name);
  return l > 4 && (strcmp(de->d_name + l - 4, ".are") == 0 || strcmp(de->d_name + l - 4, ".ARE") == 0);
}

/* Every table of every area of `dir`; rows[t] adds up the rows of table t.
** Returns the number of areas, -1 when the folder cannot be listed. */
static int check_folder(sqlite3 *db, const char *dir, const char *what, long *rows) {
  struct dirent **names = NULL;
  check_loop loop = {0, 0, 0};
  int n = scandir(dir, &names, is_are, alphasort), i;
  size_t t;
  if (n < 0) return -1;
  check_loop_enter(&loop);
  for (i = 0; i < n; i++) {
    char path[4096];
    raw_area a;
    unsigned char *d;
    snprintf(path, sizeof path, "%s/%s", dir, names[i]->d_name);
    d = file_read_all(path, &a.size);
    a.d = d;
    loop.inputs++;
    REQUIRE(d != NULL && a.size >= ARE_HEADER_SIZE, "%s: unreadable", path);
    for (t = 0; d && a.size >= ARE_HEADER_SIZE && t < NTABLES; t++)
      rows[t] += check_table(db, path, names[i]->d_name, &a, &raw_tables[t]);
    free(d);
    free(names[i]);
  }
  free(names);
  check_loop_done(&loop, "%s: every table of %d areas against the raw bytes", what, n);
  return n;
}

int main(void) {
  sqlite3 *db = db_open();
  const char *corpus = check_corpus_dir(), *samples = getenv("LEVELSQL_SAMPLES");
  long rows[NTABLES] = {0}, sample_rows[NTABLES] = {0};
  char dir[4096];
  size_t t;
  int n;
  if (!db) {
    CHECK(0, "the extension loads");
    return check_done();
  }
  if (samples) {
    n = check_folder(db, samples, "samples", sample_rows);
    CHECK(n == 2, "two sample areas (%d)", n);
    for (t = 0; t < NTABLES; t++)
      CHECK(sample_rows[t] > 0, "the samples have rows in %s: the check saw every column read", raw_tables[t].name);
  } else {
    SKIP("LEVELSQL_SAMPLES unset: the sample areas");
  }
  snprintf(dir, sizeof dir, "%s/are", corpus ? corpus : "");
  if (!corpus || (n = check_folder(db, dir, "corpus", rows)) < 0) {
    SKIP("no ARE corpus ($LEVELSQL_CORPUS/are): the real areas against their bytes");
  } else {
    /* the totals NOTES-are.md gives for the 62 areas */
    CHECK(n == 62 && rows[0] == 62, "62 areas (%d)", n);
    CHECK(rows[1] == 106 && rows[2] == 184 && rows[4] == 125 && rows[5] == 69 && rows[6] == 86 && rows[7] == 151 &&
              rows[9] == 78 && rows[10] == 479,
          "corpus rows: %ld actors, %ld regions, %ld entrances, %ld containers, %ld items, %ld ambients, %ld doors, "
          "%ld animations",
          rows[1], rows[2], rows[4], rows[5], rows[6], rows[7], rows[9], rows[10]);
    CHECK(query_int(db, fmt("SELECT count(*) FROM are_regions('%s') WHERE type = 'trap'", dir)) == 36 &&
              query_int(db, fmt("SELECT count(*) FROM are_regions('%s') WHERE type = 'info'", dir)) == 21 &&
              query_int(db, fmt("SELECT count(*) FROM are_regions('%s') WHERE type = 'travel'", dir)) == 127,
          "36 traps, 21 info points, 127 travel regions");
  }
  sqlite3_close(db);
  return check_done();
}
