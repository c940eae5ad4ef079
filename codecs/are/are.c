/*
** are.c: the AREA V1.0 codec: record layouts, parse, check, serialize,
** clone and free.  See are.h for the model and ownership, NOTES-are.md for
** what real files do beyond IESDP; the edits are in are_edit.c.
*/
#include "are/are.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"

/* ---- record layouts ---------------------------------------------------------- */

/* A field: its byte offset and size in the record, its kind and where it
** lives in the record's struct.  U16/U32 fields of size 2n/4n are arrays of
** n little-endian values; BYTES are copied as they are. */
enum { F_U8, F_U16, F_U32, F_U64, F_BYTES };
typedef struct are_field {
  uint16_t off, size;
  uint8_t kind;
  size_t member;
} are_field;

#define FLD(T, m, o, k, n) {(o), (n), (k), offsetof(T, m)}
#define B8(T, m, o) FLD(T, m, o, F_U8, 1)
#define W(T, m, o) FLD(T, m, o, F_U16, 2)
#define D(T, m, o) FLD(T, m, o, F_U32, 4)
#define BY(T, m, o) FLD(T, m, o, F_BYTES, sizeof(((T *)0)->m))

static const are_field header_fields[] = {
    BY(are_header, wed, 0x08), D(are_header, last_saved, 0x10), D(are_header, area_flags, 0x14),
    BY(are_header, north_area, 0x18), D(are_header, north_flags, 0x20), BY(are_header, east_area, 0x24),
    D(are_header, east_flags, 0x2c), BY(are_header, south_area, 0x30), D(are_header, south_flags, 0x38),
    BY(are_header, west_area, 0x3c), D(are_header, west_flags, 0x44), W(are_header, area_type_flags, 0x48),
    W(are_header, rain_probability, 0x4a), W(are_header, snow_probability, 0x4c), W(are_header, fog_probability, 0x4e),
    W(are_header, lightning_probability, 0x50), W(are_header, wind_speed, 0x52),
    W(are_header, tiled_object_flags_offset, 0x90), W(are_header, tiled_object_flags_count, 0x92),
    BY(are_header, area_script, 0x94), BY(are_header, rest_movie_day, 0xd4), BY(are_header, rest_movie_night, 0xdc),
    BY(are_header, unused, 0xe4)};

static const are_field actor_fields[] = {
    BY(are_actor, name, 0x00), W(are_actor, x, 0x20), W(are_actor, y, 0x22), W(are_actor, dest_x, 0x24),
    W(are_actor, dest_y, 0x26), D(are_actor, flags, 0x28), W(are_actor, spawned, 0x2c),
    B8(are_actor, cre_first_letter, 0x2e), B8(are_actor, unused_2f, 0x2f), D(are_actor, animation, 0x30),
    W(are_actor, orientation, 0x34), W(are_actor, unused_36, 0x36), D(are_actor, removal_timer, 0x38),
    W(are_actor, movement_restriction, 0x3c), W(are_actor, movement_restriction_object, 0x3e),
    D(are_actor, schedule, 0x40), D(are_actor, num_times_talked_to, 0x44), BY(are_actor, dialog, 0x48),
    BY(are_actor, script_override, 0x50), BY(are_actor, script_general, 0x58), BY(are_actor, script_class, 0x60),
    BY(are_actor, script_race, 0x68), BY(are_actor, script_default, 0x70), BY(are_actor, script_specific, 0x78),
    BY(are_actor, cre_file, 0x80), D(are_actor, cre_offset, 0x88), D(are_actor, cre_size, 0x8c),
    BY(are_actor, unused, 0x90)};

static const are_field region_fields[] = {
    BY(are_region, name, 0x00), W(are_region, type, 0x20), W(are_region, box_left, 0x22), W(are_region, box_top, 0x24),
    W(are_region, box_right, 0x26), W(are_region, box_bottom, 0x28), W(are_region, vertex_count, 0x2a),
    D(are_region, first_vertex, 0x2c), D(are_region, trigger_value, 0x30), D(are_region, cursor, 0x34),
    BY(are_region, destination_area, 0x38), BY(are_region, destination_entrance, 0x40), D(are_region, flags, 0x60),
    D(are_region, info_text, 0x64), W(are_region, trap_detection_difficulty, 0x68),
    W(are_region, trap_removal_difficulty, 0x6a), W(are_region, trapped, 0x6c), W(are_region, trap_detected, 0x6e),
    W(are_region, trap_launch_x, 0x70), W(are_region, trap_launch_y, 0x72), BY(are_region, key_item, 0x74),
    BY(are_region, script, 0x7c), W(are_region, alt_use_x, 0x84), W(are_region, alt_use_y, 0x86),
    D(are_region, unknown_88, 0x88), BY(are_region, unknown_8c, 0x8c), BY(are_region, sound, 0xac),
    W(are_region, talk_x, 0xb4), W(are_region, talk_y, 0xb6), D(are_region, speaker_name, 0xb8),
    BY(are_region, dialog, 0xbc)};

static const are_field spawn_fields[] = {
    BY(are_spawn, name, 0x00), W(are_spawn, x, 0x20), W(are_spawn, y, 0x22), BY(are_spawn, creatures, 0x24),
    W(are_spawn, creature_count, 0x74), W(are_spawn, base_count, 0x76), W(are_spawn, frequency, 0x78),
    W(are_spawn, spawn_method, 0x7a), D(are_spawn, removal_timer, 0x7c), W(are_spawn, movement_restriction, 0x80),
    W(are_spawn, movement_restriction_object, 0x82), W(are_spawn, max_creatures, 0x84), W(are_spawn, enabled, 0x86),
    D(are_spawn, schedule, 0x88), W(are_spawn, probability_day, 0x8c), W(are_spawn, probability_night, 0x8e),
    D(are_spawn, spawn_frequency, 0x90), D(are_spawn, countdown, 0x94), FLD(are_spawn, weights, 0x98, F_U8, 10),
    BY(are_spawn, unused, 0xa2)};

static const are_field entrance_fields[] = {BY(are_entrance, name, 0x00), W(are_entrance, x, 0x20),
                                            W(are_entrance, y, 0x22), W(are_entrance, orientation, 0x24),
                                            BY(are_entrance, unused, 0x26)};

static const are_field container_fields[] = {
    BY(are_container, name, 0x00), W(are_container, x, 0x20), W(are_container, y, 0x22), W(are_container, type, 0x24),
    W(are_container, lock_difficulty, 0x26), D(are_container, flags, 0x28),
    W(are_container, trap_detection_difficulty, 0x2c), W(are_container, trap_removal_difficulty, 0x2e),
    W(are_container, trapped, 0x30), W(are_container, trap_detected, 0x32), W(are_container, trap_launch_x, 0x34),
    W(are_container, trap_launch_y, 0x36), W(are_container, box_left, 0x38), W(are_container, box_top, 0x3a),
    W(are_container, box_right, 0x3c), W(are_container, box_bottom, 0x3e), D(are_container, first_item, 0x40),
    D(are_container, item_count, 0x44), BY(are_container, trap_script, 0x48), D(are_container, first_vertex, 0x50),
    W(are_container, vertex_count, 0x54), W(are_container, trigger_range, 0x56), BY(are_container, owner, 0x58),
    BY(are_container, key_item, 0x78), D(are_container, break_difficulty, 0x80),
    D(are_container, lockpick_string, 0x84), BY(are_container, unused, 0x88)};

static const are_field item_fields[] = {BY(are_item, resref, 0x00), W(are_item, expiration_time, 0x08),
                                        W(are_item, charges1, 0x0a), W(are_item, charges2, 0x0c),
                                        W(are_item, charges3, 0x0e), D(are_item, flags, 0x10)};

static const are_field vertex_fields[] = {W(are_point, x, 0), W(are_point, y, 2)};

static const are_field ambient_fields[] = {
    BY(are_ambient, name, 0x00), W(are_ambient, x, 0x20), W(are_ambient, y, 0x22), W(are_ambient, radius, 0x24),
    W(are_ambient, height, 0x26), D(are_ambient, pitch_variance, 0x28), W(are_ambient, volume_variance, 0x2c),
    W(are_ambient, volume, 0x2e), BY(are_ambient, sounds, 0x30), W(are_ambient, sound_count, 0x80),
    W(are_ambient, unused_82, 0x82), D(are_ambient, base_time, 0x84), D(are_ambient, base_time_deviation, 0x88),
    D(are_ambient, schedule, 0x8c), D(are_ambient, flags, 0x90), BY(are_ambient, unused, 0x94)};

static const are_field variable_fields[] = {
    BY(are_variable, name, 0x00), W(are_variable, type, 0x20), W(are_variable, resource_type, 0x22),
    D(are_variable, dword_value, 0x24), D(are_variable, int_value, 0x28),
    FLD(are_variable, double_bits, 0x2c, F_U64, 8),
    BY(are_variable, script_name, 0x34)};

static const are_field explored_fields[] = {{0, 1, F_U8, 0}};

static const are_field door_fields[] = {
    BY(are_door, name, 0x00), BY(are_door, door_id, 0x20), D(are_door, flags, 0x28),
    D(are_door, open_first_vertex, 0x2c), W(are_door, open_vertex_count, 0x30), W(are_door, closed_vertex_count, 0x32),
    D(are_door, closed_first_vertex, 0x34), W(are_door, open_box_left, 0x38), W(are_door, open_box_top, 0x3a),
    W(are_door, open_box_right, 0x3c), W(are_door, open_box_bottom, 0x3e), W(are_door, closed_box_left, 0x40),
    W(are_door, closed_box_top, 0x42), W(are_door, closed_box_right, 0x44), W(are_door, closed_box_bottom, 0x46),
    D(are_door, open_first_impeded, 0x48), W(are_door, open_impeded_count, 0x4c),
    W(are_door, closed_impeded_count, 0x4e), D(are_door, closed_first_impeded, 0x50), W(are_door, hit_points, 0x54),
    W(are_door, armor_class, 0x56), BY(are_door, open_sound, 0x58), BY(are_door, close_sound, 0x60),
    D(are_door, cursor, 0x68), W(are_door, trap_detection_difficulty, 0x6c), W(are_door, trap_removal_difficulty, 0x6e),
    W(are_door, trapped, 0x70), W(are_door, trap_detected, 0x72), W(are_door, trap_launch_x, 0x74),
    W(are_door, trap_launch_y, 0x76), BY(are_door, key_item, 0x78), BY(are_door, script, 0x80),
    D(are_door, detection_difficulty, 0x88), D(are_door, lock_difficulty, 0x8c), W(are_door, toggle1_x, 0x90),
    W(are_door, toggle1_y, 0x92), W(are_door, toggle2_x, 0x94), W(are_door, toggle2_y, 0x96),
    D(are_door, lockpick_string, 0x98), BY(are_door, travel_trigger_name, 0x9c), D(are_door, dialog_speaker_name, 0xb4),
    BY(are_door, dialog, 0xb8), BY(are_door, unknown_c0, 0xc0)};

static const are_field animation_fields[] = {
    BY(are_animation, name, 0x00), W(are_animation, x, 0x20), W(are_animation, y, 0x22),
    D(are_animation, schedule, 0x24), BY(are_animation, resref, 0x28), W(are_animation, sequence, 0x30),
    W(are_animation, frame, 0x32), D(are_animation, flags, 0x34), W(are_animation, height, 0x38),
    W(are_animation, transparency, 0x3a), W(are_animation, start_frame, 0x3c), B8(are_animation, loop_chance, 0x3e),
    B8(are_animation, skip_cycles, 0x3f), BY(are_animation, palette, 0x40), W(are_animation, animation_width, 0x48),
    W(are_animation, animation_height, 0x4a)};

static const are_field tiled_fields[] = {
    BY(are_tiled, name, 0x00), BY(are_tiled, tile_id, 0x20), D(are_tiled, flags, 0x28),
    D(are_tiled, open_squares_offset, 0x2c), W(are_tiled, open_squares_count, 0x30), W(are_tiled, unknown_32, 0x32),
    W(are_tiled, closed_squares_count, 0x34), W(are_tiled, unknown_36, 0x36), D(are_tiled, closed_squares_offset, 0x38),
    BY(are_tiled, unused, 0x3c)};

static const are_field songs_fields[] = {
    D(are_songs, day_song, 0x00), D(are_songs, night_song, 0x04), D(are_songs, win_song, 0x08),
    D(are_songs, battle_song, 0x0c), D(are_songs, lose_song, 0x10), D(are_songs, alt_music1, 0x14),
    D(are_songs, alt_music2, 0x18), D(are_songs, alt_music3, 0x1c), D(are_songs, alt_music4, 0x20),
    D(are_songs, alt_music5, 0x24), BY(are_songs, day_ambient1, 0x28), BY(are_songs, day_ambient2, 0x30),
    D(are_songs, day_ambient_volume, 0x38), BY(are_songs, night_ambient1, 0x3c), BY(are_songs, night_ambient2, 0x44),
    D(are_songs, night_ambient_volume, 0x4c), D(are_songs, reverb, 0x50), BY(are_songs, unused, 0x54)};

static const are_field rest_fields[] = {
    BY(are_rest, name, 0x00), FLD(are_rest, texts, 0x20, F_U32, 40), BY(are_rest, creatures, 0x48),
    W(are_rest, creature_count, 0x98), W(are_rest, difficulty, 0x9a), D(are_rest, removal_time, 0x9c),
    W(are_rest, movement_restriction, 0xa0), W(are_rest, movement_restriction_object, 0xa2),
    W(are_rest, max_creatures, 0xa4), W(are_rest, enabled, 0xa6), W(are_rest, probability_day, 0xa8),
    W(are_rest, probability_night, 0xaa), BY(are_rest, unused, 0xac)};

static const are_field note_fields[] = {W(are_note, x, 0x00), W(are_note, y, 0x02), D(are_note, text, 0x04),
                                        W(are_note, strref_location, 0x08), W(are_note, color, 0x0a),
                                        D(are_note, count_plus_10, 0x0c), BY(are_note, unused, 0x10)};

static const are_field trap_fields[] = {
    BY(are_trap, projectile, 0x00), D(are_trap, effect_offset, 0x08), W(are_trap, effect_size, 0x0c),
    W(are_trap, missile_id, 0x0e), W(are_trap, ticks, 0x10), W(are_trap, triggers_remaining, 0x12),
    W(are_trap, x, 0x14), W(are_trap, y, 0x16), W(are_trap, z, 0x18), B8(are_trap, target_type, 0x1a),
    B8(are_trap, party_member, 0x1b)};

#define NF(t) (sizeof(t) / sizeof((t)[0]))

/* Everything the generic code needs about a section: its name, record size
** on disk and in memory, field table, where the model keeps the array and
** its count, and where the header keeps its offset and count (count_width 0:
** none, the record is there when the offset is not 0). */
typedef struct sec_desc {
  const char *name, *one; /* "containers", "container" */
  size_t rec_size, elem_size;
  const are_field *fields;
  size_t nfields;
  size_t arr_member, count_member;
  uint16_t off_at, count_at;
  uint8_t count_width;
} sec_desc;

#define SEC(nm, one, rs, T, f, arr, cnt, oa, ca, cw) \
  {nm, one, rs, sizeof(T), f, NF(f), offsetof(are_area, arr), offsetof(are_area, cnt), oa, ca, cw}

static const sec_desc sections[ARE_NUM_SECTIONS] = {
    SEC("actors", "actor", ARE_ACTOR_SIZE, are_actor, actor_fields, actors, num_actors, 0x54, 0x58, 2),
    SEC("regions", "region", ARE_REGION_SIZE, are_region, region_fields, regions, num_regions, 0x5c, 0x5a, 2),
    SEC("spawn points", "spawn point", ARE_SPAWN_SIZE, are_spawn, spawn_fields, spawns, num_spawns, 0x60, 0x64, 4),
    SEC("entrances", "entrance", ARE_ENTRANCE_SIZE, are_entrance, entrance_fields, entrances, num_entrances, 0x68, 0x6c,
        4),
    SEC("containers", "container", ARE_CONTAINER_SIZE, are_container, container_fields, containers, num_containers,
        0x70, 0x74, 2),
    SEC("items", "item", ARE_ITEM_SIZE, are_item, item_fields, items, num_items, 0x78, 0x76, 2),
    SEC("vertices", "vertex", ARE_VERTEX_SIZE, are_point, vertex_fields, vertices, num_vertices, 0x7c, 0x80, 2),
    SEC("ambients", "ambient", ARE_AMBIENT_SIZE, are_ambient, ambient_fields, ambients, num_ambients, 0x84, 0x82, 2),
    SEC("variables", "variable", ARE_VARIABLE_SIZE, are_variable, variable_fields, variables, num_variables, 0x88,
        0x8c, 4),
    SEC("explored bitmask", "explored byte", 1, uint8_t, explored_fields, explored, num_explored, 0xa0, 0x9c, 4),
    SEC("doors", "door", ARE_DOOR_SIZE, are_door, door_fields, doors, num_doors, 0xa8, 0xa4, 4),
    SEC("animations", "animation", ARE_ANIMATION_SIZE, are_animation, animation_fields, animations, num_animations,
        0xb0, 0xac, 4),
    SEC("tiled objects", "tiled object", ARE_TILED_SIZE, are_tiled, tiled_fields, tiled, num_tiled, 0xb8, 0xb4, 4),
    SEC("song entries", "song entries", ARE_SONGS_SIZE, are_songs, songs_fields, songs, num_songs, 0xbc, 0, 0),
    SEC("rest interruptions", "rest interruptions", ARE_REST_SIZE, are_rest, rest_fields, rest, num_rest, 0xc0, 0, 0),
    SEC("automap notes", "automap note", ARE_NOTE_SIZE, are_note, note_fields, notes, num_notes, 0xc4, 0xc8, 4),
    SEC("projectile traps", "projectile trap", ARE_TRAP_SIZE, are_trap, trap_fields, traps, num_traps, 0xcc, 0xd0, 4),
};

/* The order a new layout writes the sections in (the corpus's usual one). */
static const enum are_section layout_order[ARE_NUM_SECTIONS] = {
    ARE_ACTORS, ARE_REGIONS,   ARE_SPAWNS,    ARE_ENTRANCES, ARE_CONTAINERS, ARE_ITEMS,
    ARE_AMBIENTS, ARE_EXPLORED, ARE_VARIABLES, ARE_DOORS,    ARE_TILED,      ARE_VERTICES,
    ARE_ANIMATIONS, ARE_SONGS, ARE_REST,      ARE_NOTES,     ARE_TRAPS};

/* Decodes one record of `n` fields from p into the struct at obj. */
static void rec_decode(const are_field *f, size_t n, const unsigned char *p, unsigned char *obj) {
  size_t i, k;
  for (i = 0; i < n; i++) {
    const unsigned char *src = p + f[i].off;
    unsigned char *dst = obj + f[i].member;
    switch (f[i].kind) {
      case F_U8: memcpy(dst, src, f[i].size); break;
      case F_BYTES: memcpy(dst, src, f[i].size); break;
      case F_U16:
        for (k = 0; k < f[i].size / 2u; k++) {
          uint16_t v = le16_load(src + 2 * k);
          memcpy(dst + 2 * k, &v, 2);
        }
        break;
      case F_U32:
        for (k = 0; k < f[i].size / 4u; k++) {
          uint32_t v = le32_load(src + 4 * k);
          memcpy(dst + 4 * k, &v, 4);
        }
        break;
      default: {
        uint64_t v = (uint64_t)le32_load(src) | ((uint64_t)le32_load(src + 4) << 32);
        memcpy(dst, &v, 8);
      }
    }
  }
}

/* Encodes the struct at obj into one record at p. */
static void rec_encode(const are_field *f, size_t n, const unsigned char *obj, unsigned char *p) {
  size_t i, k;
  for (i = 0; i < n; i++) {
    unsigned char *dst = p + f[i].off;
    const unsigned char *src = obj + f[i].member;
    switch (f[i].kind) {
      case F_U8: memcpy(dst, src, f[i].size); break;
      case F_BYTES: memcpy(dst, src, f[i].size); break;
      case F_U16:
        for (k = 0; k < f[i].size / 2u; k++) {
          uint16_t v;
          memcpy(&v, src + 2 * k, 2);
          le16_store(dst + 2 * k, v);
        }
        break;
      case F_U32:
        for (k = 0; k < f[i].size / 4u; k++) {
          uint32_t v;
          memcpy(&v, src + 4 * k, 4);
          le32_store(dst + 4 * k, v);
        }
        break;
      default: {
        uint64_t v;
        memcpy(&v, src, 8);
        le32_store(dst, (uint32_t)v);
        le32_store(dst + 4, (uint32_t)(v >> 32));
      }
    }
  }
}

/* Every byte of the record covered by exactly one field. */
static int layout_covers(const are_field *f, size_t n, size_t rec_size, size_t base) {
  unsigned char seen[ARE_HEADER_SIZE];
  size_t i, k;
  memset(seen, 0, sizeof seen);
  for (i = 0; i < n; i++)
    for (k = f[i].off; k < (size_t)f[i].off + f[i].size; k++) {
      if (k >= rec_size || seen[k]) return 0;
      seen[k] = 1;
    }
  for (k = base; k < rec_size; k++)
    if (!seen[k]) return 0;
  return 1;
}

int are_layout_selfcheck(codec_error *err) {
  size_t s;
  unsigned char hdr[ARE_HEADER_SIZE];
  /* the header's fields cover every byte but the signature and the offsets
  ** and counts of the sections, which are marked here */
  are_field all[NF(header_fields) + 2 * ARE_NUM_SECTIONS + 1];
  size_t n = 0;
  memset(hdr, 0, sizeof hdr);
  for (s = 0; s < NF(header_fields); s++) all[n++] = header_fields[s];
  all[n].off = 0, all[n].size = 8, all[n].kind = F_BYTES, all[n++].member = 0;
  for (s = 0; s < ARE_NUM_SECTIONS; s++) {
    all[n].off = sections[s].off_at, all[n].size = 4, all[n].kind = F_U32, all[n++].member = 0;
    if (sections[s].count_width)
      all[n].off = sections[s].count_at, all[n].size = sections[s].count_width, all[n].kind = F_U32,
      all[n++].member = 0;
  }
  if (!layout_covers(all, n, ARE_HEADER_SIZE, 0)) return codec_fail(err, "header: layout does not cover 284 bytes");
  for (s = 0; s < ARE_NUM_SECTIONS; s++)
    if (!layout_covers(sections[s].fields, sections[s].nfields, sections[s].rec_size, 0))
      return codec_fail(err, "%s: layout does not cover %zu bytes", sections[s].name, sections[s].rec_size);
  return 1;
}

/* ---- generic access ----------------------------------------------------------- */

static void **sec_arr(are_area *a, enum are_section s) {
  return (void **)((unsigned char *)a + sections[s].arr_member);
}
static uint32_t *sec_cnt(are_area *a, enum are_section s) {
  return (uint32_t *)((unsigned char *)a + sections[s].count_member);
}

const char *are_section_name(enum are_section s) {
  return (unsigned)s < ARE_NUM_SECTIONS ? sections[s].name : "?";
}

const char *are_section_one(enum are_section s) {
  return (unsigned)s < ARE_NUM_SECTIONS ? sections[s].one : "?";
}

size_t are_record_size(enum are_section s) {
  return (unsigned)s < ARE_NUM_SECTIONS ? sections[s].rec_size : 0;
}

size_t are_elem_size(enum are_section s) {
  return sections[s].elem_size;
}

uint32_t are_count(const are_area *a, enum are_section s) {
  if ((unsigned)s >= ARE_NUM_SECTIONS) return 0;
  return *sec_cnt((are_area *)a, s);
}

void **are_array_ptr(are_area *a, enum are_section s) {
  return sec_arr(a, s);
}

uint32_t *are_count_ptr(are_area *a, enum are_section s) {
  return sec_cnt(a, s);
}

/* ---- free / clone --------------------------------------------------------------- */

void are_free(are_area *a) {
  uint32_t i, s;
  if (!a) return;
  for (i = 0; a->actors && i < a->num_actors; i++) free(a->actors[i].cre_data);
  for (i = 0; a->traps && i < a->num_traps; i++) free(a->traps[i].effect_data);
  for (s = 0; s < ARE_NUM_SECTIONS; s++) free(*sec_arr(a, (enum are_section)s));
  for (s = 0; s < ARE_NUM_SECTIONS; s++) free(a->uids[s]);
  free(a->orig);
  free(a);
}

/* Copies n bytes into a new block (*dst NULL when n is 0); 0 when out of memory. */
static int dup_bytes(unsigned char **dst, const void *src, size_t n) {
  *dst = NULL;
  if (!n) return 1;
  *dst = (unsigned char *)malloc(n);
  if (!*dst) return 0;
  memcpy(*dst, src, n);
  return 1;
}

are_area *are_clone(const are_area *a) {
  are_area *c;
  uint32_t i, s;
  int ok = 1;
  if (!a) return NULL;
  c = (are_area *)malloc(sizeof *c);
  if (!c) return NULL;
  *c = *a;
  c->orig = NULL;
  for (s = 0; s < ARE_NUM_SECTIONS; s++) *sec_arr(c, (enum are_section)s) = NULL, c->uids[s] = NULL;
  for (s = 0; s < ARE_NUM_SECTIONS; s++) {
    enum are_section e = (enum are_section)s;
    size_t n = (size_t)*sec_cnt(c, e) * sections[s].elem_size;
    if (ok) ok = dup_bytes((unsigned char **)sec_arr(c, e), *sec_arr((are_area *)a, e), n);
    if (ok && a->uids[s])
      ok = dup_bytes((unsigned char **)&c->uids[s], a->uids[s], (size_t)*sec_cnt(c, e) * sizeof(uint32_t));
    if (!ok) *sec_cnt(c, e) = 0;
  }
  /* the copied actors and traps still point at a's blocks: copy those */
  for (i = 0; c->actors && i < c->num_actors; i++) {
    const unsigned char *src = c->actors[i].cre_data;
    c->actors[i].cre_data = NULL;
    if (ok) ok = dup_bytes(&c->actors[i].cre_data, src, src ? c->actors[i].cre_size : 0);
  }
  for (i = 0; c->traps && i < c->num_traps; i++) {
    const unsigned char *src = c->traps[i].effect_data;
    c->traps[i].effect_data = NULL;
    if (ok) ok = dup_bytes(&c->traps[i].effect_data, src, src ? c->traps[i].effect_size : 0);
  }
  if (ok) ok = dup_bytes(&c->orig, a->orig, a->orig ? a->orig_size : 0);
  if (!ok) {
    are_free(c);
    return NULL;
  }
  return c;
}

size_t are_footprint(const are_area *a) {
  size_t total = sizeof *a, s;
  uint32_t i;
  if (!a) return 0;
  for (s = 0; s < ARE_NUM_SECTIONS; s++) {
    total += (size_t)are_count(a, (enum are_section)s) * sections[s].elem_size;
    if (a->uids[s]) total += (size_t)are_count(a, (enum are_section)s) * sizeof(uint32_t);
  }
  for (i = 0; i < a->num_actors; i++) total += a->actors[i].cre_data ? a->actors[i].cre_size : 0;
  for (i = 0; i < a->num_traps; i++) total += a->traps[i].effect_data ? a->traps[i].effect_size : 0;
  return total + (a->orig ? a->orig_size : 0);
}

/* ---- parse ------------------------------------------------------------------------ */

int are_sniff(const unsigned char *data, size_t size) {
  return data && size >= 8 && memcmp(data, "AREAV1.0", 8) == 0;
}

/* The 4 version bytes for an error message: as text when printable,
** else as hex ("0x56 0x32 0x2E 0x01"), so a binary file cannot garble it. */
static void version_text(const unsigned char *p, char *out, size_t cap) {
  int text = 1, i;
  for (i = 0; i < 4; i++) text &= p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\'';
  if (text) snprintf(out, cap, "'%.4s'", (const char *)p);
  else snprintf(out, cap, "0x%02X 0x%02X 0x%02X 0x%02X", p[0], p[1], p[2], p[3]);
}

/* The signature, the version and the header's size. */
static int check_signature(const unsigned char *data, size_t size, codec_error *err) {
  if (!data || size < 8)
    return codec_fail(err, "header: byte offset 0: truncated, need %u bytes, %zu left", ARE_HEADER_SIZE,
                      data ? size : 0);
  if (memcmp(data, "AREA", 4) != 0)
    return codec_fail(err, "header: byte offset 0: not an ARE file (signature is not 'AREA')");
  if (memcmp(data + 4, "V1.0", 4) != 0) {
    char v[32];
    version_text(data + 4, v, sizeof v);
    if (memcmp(data + 4, "V9.1", 4) == 0)
      return codec_fail(err, "header: byte offset 4: ARE V9.1 (Icewind Dale II) is not read (only 'AREAV1.0')");
    return codec_fail(err, "header: byte offset 4: ARE version %s is not read (only 'AREAV1.0')", v);
  }
  if (size < ARE_HEADER_SIZE)
    return codec_fail(err, "header: byte offset 0: truncated, need %u bytes, %zu left", ARE_HEADER_SIZE, size);
  if (le32_load(data + 0xc4) == 0xFFFFFFFFu)
    return codec_fail(err, "header: byte offset 196: the Planescape: Torment layout (0xFFFFFFFF at 0xC4, its automap "
                           "notes at 0xC8) is not read");
  return 1;
}

/* Reads section s: its offset and count from the header, the records after
** checking that they lie in the file (before allocating). */
static int parse_section(are_area *a, const unsigned char *d, size_t size, enum are_section s,
                         const codec_cancel *cancel, codec_error *err) {
  const sec_desc *sd = &sections[s];
  uint32_t off = le32_load(d + sd->off_at), count, i;
  unsigned char *arr;
  byte_reader r;
  if (sd->count_width == 4) count = le32_load(d + sd->count_at);
  else if (sd->count_width == 2) count = le16_load(d + sd->count_at);
  else count = off != 0;
  a->offsets[s] = off;
  a->orig_counts[s] = count;
  r = br_at(d, size, off);
  if (count && !br_need_n(&r, count, sd->rec_size))
    return codec_fail(err, "%s: byte offset %u: %u records of %zu bytes run past the end of the %zu-byte file",
                      sd->name, off, count, sd->rec_size, size);
  if (!count) return 1;
  arr = (unsigned char *)calloc(count, sd->elem_size);
  if (!arr) return codec_fail_oom(err, "%s: out of memory", sd->name);
  *sec_arr(a, s) = arr;
  *sec_cnt(a, s) = count;
  for (i = 0; i < count; i++) {
    if (codec_cancelled_at(cancel, i)) return codec_fail_interrupted(err);
    rec_decode(sd->fields, sd->nfields, d + off + (size_t)i * sd->rec_size, arr + (size_t)i * sd->elem_size);
  }
  return 1;
}

/* Copies a block an actor or trap points at (size bytes at off) into *out. */
static int parse_block(const unsigned char *d, size_t size, uint32_t off, uint32_t n, const char *what, uint32_t i,
                       uint32_t rec_off, unsigned char **out, codec_error *err) {
  byte_reader r = br_at(d, size, off);
  *out = NULL;
  if (!n) return 1;
  if (!br_need(&r, n))
    return codec_fail(err, "%s %u: byte offset %u: its %u-byte block at byte offset %u runs past the end of the "
                           "%zu-byte file", what, i, rec_off, n, off, size);
  if (!dup_bytes(out, d + off, n)) return codec_fail_oom(err, "%s %u: out of memory", what, i);
  return 1;
}

/* A run of `count` records from `first` must lie in a table of n. */
static int run_ok(uint64_t first, uint64_t count, uint64_t n) {
  return count == 0 || first + count <= n;
}

/* The byte offset of record i of section s as read (for errors). */
static uint64_t rec_offset(const are_area *a, enum are_section s, uint32_t i) {
  return (uint64_t)a->offsets[s] + (uint64_t)i * sections[s].rec_size;
}

/* Checks one run of record i: `what` names it in the error, `code` is the
** failure's (CODEC_E_FORMAT for a file, CODEC_E_ARG for a model). */
static int check_run(const are_area *a, enum are_section s, uint32_t i, const char *what, uint64_t first,
                     uint64_t count, enum are_section target, int code, codec_error *err) {
  uint32_t n = are_count(a, target);
  if (run_ok(first, count, n)) return 1;
  return codec_fail_code(err, code, "%s %u: byte offset %llu: %s %llu+%llu exceed the %u %s", sections[s].one, i,
                         (unsigned long long)rec_offset(a, s, i), what, (unsigned long long)first,
                         (unsigned long long)count, n, sections[target].name);
}

/* The run references of the model (parse and are_check share it). */
static int check_runs(const are_area *a, int code, codec_error *err) {
  uint32_t i;
  for (i = 0; i < a->num_regions; i++)
    if (!check_run(a, ARE_REGIONS, i, "vertices", a->regions[i].first_vertex, a->regions[i].vertex_count,
                   ARE_VERTICES, code, err))
      return 0;
  for (i = 0; i < a->num_containers; i++) {
    const are_container *c = &a->containers[i];
    if (!check_run(a, ARE_CONTAINERS, i, "items", c->first_item, c->item_count, ARE_ITEMS, code, err) ||
        !check_run(a, ARE_CONTAINERS, i, "vertices", c->first_vertex, c->vertex_count, ARE_VERTICES, code, err))
      return 0;
  }
  for (i = 0; i < a->num_doors; i++) {
    const are_door *dr = &a->doors[i];
    if (!check_run(a, ARE_DOORS, i, "open vertices", dr->open_first_vertex, dr->open_vertex_count, ARE_VERTICES,
                   code, err) ||
        !check_run(a, ARE_DOORS, i, "closed vertices", dr->closed_first_vertex, dr->closed_vertex_count,
                   ARE_VERTICES, code, err) ||
        !check_run(a, ARE_DOORS, i, "open impeded cells", dr->open_first_impeded, dr->open_impeded_count,
                   ARE_VERTICES, code, err) ||
        !check_run(a, ARE_DOORS, i, "closed impeded cells", dr->closed_first_impeded, dr->closed_impeded_count,
                   ARE_VERTICES, code, err))
      return 0;
  }
  return 1;
}

/* One section or embedded block of the file as read, for the overlap test. */
typedef struct are_span {
  uint64_t off, len;
} are_span;

static int span_cmp(const void *x, const void *y) {
  const are_span *p = (const are_span *)x, *q = (const are_span *)y;
  if (p->off != q->off) return p->off < q->off ? -1 : 1;
  return p->len < q->len ? -1 : p->len > q->len;
}

/* Sets a->overlap when two non-empty sections or blocks overlap (the header
** counts as one).  Returns 0 on out of memory. */
static int detect_overlap(are_area *a) {
  size_t n = 0, i, cap = ARE_NUM_SECTIONS + 1 + (size_t)a->num_actors + a->num_traps;
  are_span *sp = (are_span *)calloc(cap, sizeof *sp);
  if (!sp) return 0;
  sp[n].off = 0, sp[n++].len = ARE_HEADER_SIZE;
  for (i = 0; i < ARE_NUM_SECTIONS; i++)
    if (a->orig_counts[i]) sp[n].off = a->offsets[i], sp[n++].len = (uint64_t)a->orig_counts[i] * sections[i].rec_size;
  for (i = 0; i < a->num_actors; i++)
    if (a->actors[i].cre_size) sp[n].off = a->actors[i].cre_offset, sp[n++].len = a->actors[i].cre_size;
  for (i = 0; i < a->num_traps; i++)
    if (a->traps[i].effect_size) sp[n].off = a->traps[i].effect_offset, sp[n++].len = a->traps[i].effect_size;
  qsort(sp, n, sizeof *sp, span_cmp);
  a->overlap = 0;
  for (i = 1; i < n; i++)
    if (sp[i].off < sp[i - 1].off + sp[i - 1].len) a->overlap = 1;
  free(sp);
  return 1;
}

are_area *are_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, codec_error *err) {
  are_area *a;
  uint32_t s, i;
  if (!check_signature(data, size, err)) return NULL;
  a = (are_area *)calloc(1, sizeof *a);
  if (!a) {
    codec_fail_oom(err, "header: out of memory");
    return NULL;
  }
  rec_decode(header_fields, NF(header_fields), data, (unsigned char *)&a->header);
  for (s = 0; s < ARE_NUM_SECTIONS; s++)
    if (!parse_section(a, data, size, (enum are_section)s, cancel, err)) goto fail;
  for (i = 0; i < a->num_actors; i++)
    if (!parse_block(data, size, a->actors[i].cre_offset, a->actors[i].cre_size, "actor", i,
                     (uint32_t)rec_offset(a, ARE_ACTORS, i), &a->actors[i].cre_data, err))
      goto fail;
  for (i = 0; i < a->num_traps; i++)
    if (!parse_block(data, size, a->traps[i].effect_offset, a->traps[i].effect_size, "projectile trap", i,
                     (uint32_t)rec_offset(a, ARE_TRAPS, i), &a->traps[i].effect_data, err))
      goto fail;
  a->orig = (unsigned char *)malloc(size);
  if (!a->orig) {
    codec_fail_oom(err, "header: out of memory");
    goto fail;
  }
  a->orig_size = size;
  if (!codec_copy_cancel(a->orig, data, size, cancel)) {
    codec_fail_interrupted(err);
    goto fail;
  }
  if (!check_runs(a, CODEC_E_FORMAT, err)) goto fail;
  if (!detect_overlap(a)) {
    codec_fail_oom(err, "header: out of memory");
    goto fail;
  }
  return a;
fail:
  are_free(a);
  return NULL;
}

are_area *are_parse(const unsigned char *data, size_t size, codec_error *err) {
  return are_parse_cancel(data, size, NULL, err);
}

/* ---- check ------------------------------------------------------------------------ */

int are_check(const are_area *a, codec_error *err) {
  uint32_t s, i;
  for (s = 0; s < ARE_NUM_SECTIONS; s++) {
    uint32_t n = are_count(a, (enum are_section)s);
    uint32_t cap = sections[s].count_width == 2 ? 0xFFFFu : sections[s].count_width == 4 ? 0xFFFFFFFFu : 1u;
    if (n > cap) return codec_fail_limit(err, "%s: %u records, the header holds at most %u", sections[s].name, n, cap);
    if (n && !*sec_arr((are_area *)a, (enum are_section)s))
      return codec_fail_arg(err, "%s: missing array", sections[s].name);
  }
  for (i = 0; i < a->num_actors; i++)
    if (a->actors[i].cre_size && !a->actors[i].cre_data)
      return codec_fail_arg(err, "actor %u: a %u-byte CRE block without its bytes", i, a->actors[i].cre_size);
  for (i = 0; i < a->num_traps; i++)
    if (a->traps[i].effect_size && !a->traps[i].effect_data)
      return codec_fail_arg(err, "projectile trap %u: a %u-byte effect block without its bytes", i,
                            a->traps[i].effect_size);
  return check_runs(a, CODEC_E_ARG, err);
}

/* ---- serialize ------------------------------------------------------------------- */

/* True when every section still has the length it was read with and the
** file had no overlapping sections: each goes back to its old offset. */
static int fits_in_place(const are_area *a) {
  uint32_t s, i;
  if (!a->orig || a->overlap || a->relayout || a->orig_size < ARE_HEADER_SIZE) return 0;
  for (s = 0; s < ARE_NUM_SECTIONS; s++)
    if (are_count(a, (enum are_section)s) != a->orig_counts[s]) return 0;
  for (i = 0; i < a->num_actors; i++)
    if (a->actors[i].cre_size && (uint64_t)a->actors[i].cre_offset + a->actors[i].cre_size > a->orig_size) return 0;
  for (i = 0; i < a->num_traps; i++)
    if (a->traps[i].effect_size && (uint64_t)a->traps[i].effect_offset + a->traps[i].effect_size > a->orig_size)
      return 0;
  return 1;
}

/* Advances the layout cursor past `bytes`, refusing files past 4 GiB. */
static int place(uint64_t *cur, uint64_t bytes, uint32_t *at) {
  if (*cur > 0xFFFFFFFFu) return 0;
  *at = (uint32_t)*cur;
  *cur += bytes;
  return *cur <= 0xFFFFFFFFu;
}

/* Offsets of a new layout: the sections in layout_order, then the actors'
** CRE blocks and the traps' effect blocks (their offsets set in *out
** copies: cre[i], eff[i]).  Empty automap notes, projectile traps, songs
** and rest sections point at 0 as in real files; other empty sections at
** where they would start. */
static int new_layout(const are_area *a, uint32_t *offs, uint32_t *cre, uint32_t *eff, uint64_t *total) {
  uint64_t cur = ARE_HEADER_SIZE;
  uint32_t k, i;
  for (k = 0; k < ARE_NUM_SECTIONS; k++) {
    enum are_section s = layout_order[k];
    uint32_t n = are_count(a, s);
    if (!place(&cur, (uint64_t)n * sections[s].rec_size, &offs[s])) return 0;
    if (!n && (s == ARE_NOTES || s == ARE_TRAPS || s == ARE_SONGS || s == ARE_REST)) offs[s] = 0;
  }
  for (i = 0; i < a->num_actors; i++)
    if (!place(&cur, a->actors[i].cre_size, &cre[i])) return 0;
  for (i = 0; i < a->num_traps; i++)
    if (!place(&cur, a->traps[i].effect_size, &eff[i])) return 0;
  *total = cur;
  return 1;
}

/* Writes the header and every record at offs into buf (sized by the caller,
** pre-filled with the old bytes for in-place writes).  cre / eff: the
** blocks' offsets (NULL: as the records say). */
static void write_all(const are_area *a, const uint32_t *offs, const uint32_t *cre, const uint32_t *eff,
                      unsigned char *buf) {
  uint32_t s, i;
  memcpy(buf, "AREAV1.0", 8);
  rec_encode(header_fields, NF(header_fields), (const unsigned char *)&a->header, buf);
  for (s = 0; s < ARE_NUM_SECTIONS; s++) {
    const sec_desc *sd = &sections[s];
    uint32_t n = are_count(a, (enum are_section)s);
    const unsigned char *arr = (const unsigned char *)*sec_arr((are_area *)a, (enum are_section)s);
    le32_store(buf + sd->off_at, offs[s]);
    if (sd->count_width == 4) le32_store(buf + sd->count_at, n);
    else if (sd->count_width == 2) le16_store(buf + sd->count_at, (uint16_t)n);
    for (i = 0; i < n; i++)
      rec_encode(sd->fields, sd->nfields, arr + (size_t)i * sd->elem_size, buf + offs[s] + (size_t)i * sd->rec_size);
  }
  for (i = 0; i < a->num_actors; i++) {
    uint32_t at = cre ? cre[i] : a->actors[i].cre_offset;
    unsigned char *rec = buf + offs[ARE_ACTORS] + (size_t)i * ARE_ACTOR_SIZE;
    if (!a->actors[i].cre_size) continue;
    le32_store(rec + 0x88, at);
    memcpy(buf + at, a->actors[i].cre_data, a->actors[i].cre_size);
  }
  for (i = 0; i < a->num_traps; i++) {
    uint32_t at = eff ? eff[i] : a->traps[i].effect_offset;
    unsigned char *rec = buf + offs[ARE_TRAPS] + (size_t)i * ARE_TRAP_SIZE;
    if (!a->traps[i].effect_size) continue;
    le32_store(rec + 0x08, at);
    memcpy(buf + at, a->traps[i].effect_data, a->traps[i].effect_size);
  }
}

int are_serialize(const are_area *a, unsigned char **out, size_t *out_size, codec_error *err) {
  uint32_t offs[ARE_NUM_SECTIONS], *cre = NULL, *eff = NULL;
  uint64_t total;
  unsigned char *buf;
  int ok = 0;
  *out = NULL;
  *out_size = 0;
  if (!are_check(a, err)) return 0;
  if (fits_in_place(a)) {
    memcpy(offs, a->offsets, sizeof offs);
    buf = (unsigned char *)malloc(a->orig_size);
    if (!buf) return codec_fail_oom(err, "serialize: out of memory");
    memcpy(buf, a->orig, a->orig_size);
    write_all(a, offs, NULL, NULL, buf);
    *out = buf;
    *out_size = a->orig_size;
    return 1;
  }
  cre = (uint32_t *)calloc(a->num_actors + 1u, sizeof *cre);
  eff = (uint32_t *)calloc(a->num_traps + 1u, sizeof *eff);
  if (!cre || !eff) {
    codec_fail_oom(err, "serialize: out of memory");
    goto done;
  }
  if (!new_layout(a, offs, cre, eff, &total) || total > SIZE_MAX) {
    codec_fail_limit(err, "serialize: the area needs more than 4 GiB, beyond 32-bit offsets");
    goto done;
  }
  buf = (unsigned char *)calloc((size_t)total, 1);
  if (!buf) {
    codec_fail_oom(err, "serialize: out of memory");
    goto done;
  }
  write_all(a, offs, cre, eff, buf);
  *out = buf;
  *out_size = (size_t)total;
  ok = 1;
done:
  free(cre);
  free(eff);
  return ok;
}

/* ---- reading helpers ---------------------------------------------------------------- */

uint32_t are_uid(const are_area *a, enum are_section s, uint32_t i) {
  return a->uids[s] ? a->uids[s][i] : i;
}

int are_uid_find(const are_area *a, enum are_section s, uint32_t uid, uint32_t *i) {
  uint32_t n = are_count(a, s), k;
  if ((unsigned)s >= ARE_NUM_SECTIONS) return 0;
  if (!a->uids[s]) {
    *i = uid;
    return uid < n;
  }
  for (k = 0; k < n; k++)
    if (a->uids[s][k] == uid) {
      *i = k;
      return 1;
    }
  return 0;
}

int are_item_container(const are_area *a, uint32_t item, uint32_t *c, uint32_t *k) {
  uint32_t d;
  for (d = 0; d < a->num_containers; d++) {
    const are_container *ct = &a->containers[d];
    if (ct->item_count && item >= ct->first_item && (uint64_t)item < (uint64_t)ct->first_item + ct->item_count) {
      *c = d;
      *k = item - ct->first_item;
      return 1;
    }
  }
  return 0;
}

uint32_t are_container_items(const are_area *a, uint32_t c, const are_item **items) {
  const are_container *k = c < a->num_containers ? &a->containers[c] : NULL;
  uint32_t n = k && k->item_count && run_ok(k->first_item, k->item_count, a->num_items) ? k->item_count : 0;
  *items = n ? a->items + k->first_item : NULL;
  return n;
}

int are_run_ref(are_area *a, enum are_section s, uint32_t i, enum are_run run, uint32_t **first, uint16_t **count) {
  if (s == ARE_REGIONS && i < a->num_regions && run == ARE_RUN_OUTLINE) {
    *first = &a->regions[i].first_vertex, *count = &a->regions[i].vertex_count;
  } else if (s == ARE_CONTAINERS && i < a->num_containers && run == ARE_RUN_OUTLINE) {
    *first = &a->containers[i].first_vertex, *count = &a->containers[i].vertex_count;
  } else if (s == ARE_DOORS && i < a->num_doors && run != ARE_RUN_OUTLINE) {
    are_door *d = &a->doors[i];
    switch (run) {
      case ARE_RUN_OPEN: *first = &d->open_first_vertex, *count = &d->open_vertex_count; break;
      case ARE_RUN_CLOSED: *first = &d->closed_first_vertex, *count = &d->closed_vertex_count; break;
      case ARE_RUN_OPEN_IMPEDED: *first = &d->open_first_impeded, *count = &d->open_impeded_count; break;
      default: *first = &d->closed_first_impeded, *count = &d->closed_impeded_count; break;
    }
  } else {
    return 0;
  }
  return 1;
}

uint32_t are_vertices(const are_area *a, enum are_section s, uint32_t i, enum are_run run, const are_point **pts) {
  uint32_t *first;
  uint16_t *count;
  uint32_t n = 0;
  if (are_run_ref((are_area *)a, s, i, run, &first, &count) && run_ok(*first, *count, a->num_vertices)) n = *count;
  *pts = n ? a->vertices + *first : NULL;
  return n;
}

size_t are_text_len(const unsigned char *field, size_t size) {
  const unsigned char *z = (const unsigned char *)memchr(field, 0, size);
  return z ? (size_t)(z - field) : size;
}
