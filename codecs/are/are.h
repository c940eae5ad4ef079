/*
** are.h: the Infinity Engine AREA V1.0 codec (.ARE files of Baldur's Gate,
** Baldur's Gate II, Icewind Dale and the Enhanced Editions).
**
** Pure C, no SQLite.  are_parse turns the bytes of an .ARE file into an
** are_area; are_serialize turns an are_area back into file bytes.  The byte
** layout is IESDP's (are_v1.htm) with the corrections measured on real files
** in NOTES-are.md (record sizes IESDP does not state, its offset slips).
**
** Model choices, and why:
** - The model mirrors the file: one array per section (actors, regions,
**   spawn points, entrances, containers, items, vertices, ambients,
**   variables, the explored bitmask, doors, animations, automap notes,
**   projectile traps, tiled objects, and the song entry and rest
**   interruption records, which a file has once or not at all), and records
**   refer into the shared tables by (first, count) exactly as on disk:
**   container -> items, region / container outline -> vertices, door open /
**   closed outline and open / closed impeded cells -> vertices.
** - Every byte of a record is a named member (unknown and unused ranges
**   too, as unknown_XX / unused arrays), so nothing is lost on a rewrite.
**   Names follow IESDP in snake_case; x and y for points.
** - Embedded data some records point at by byte offset (an actor's saved
**   CRE, a projectile trap's effect block) is copied into the record
**   (cre_data, effect_data) and written after the sections on a new
**   layout.  A tiled object's search-square offsets are kept as stored.
** - Memory: a section's count is checked against the bytes of the file
**   before its array is allocated, so a parse holds at most about twice the
**   file's size (the records and the copy of the file), whatever the
**   header claims.
** - Parsing is strict about what the edits rely on: every table lies in the
**   file, and every non-empty item and vertex run lies inside its table;
**   otherwise the error names the section, the record and its byte offset.
** - Writing: if every table still has the length it was read with and no
**   two sections overlapped, each table is written back at its original
**   offset over a copy of the original bytes (an unmodified area is
**   byte-identical, gaps and trailing bytes included).  Otherwise the file
**   is laid out again in the order real files use (NOTES-are.md) with all
**   offsets fixed up.
**
** Fields a caller may assign directly: every member of a record except the
** run references (first_item / item_count, first_vertex / vertex_count and
** the door's four runs), cre_offset / cre_size / cre_data of an actor and
** effect_offset / effect_size / effect_data of a projectile trap; every
** member of are_header.  Everything else goes through the edit functions
** below, which keep the tables consistent and leave the area unchanged when
** they fail.
**
** Ownership: are_parse and are_clone return an area the caller frees with
** are_free.  Every array inside is owned by the area (malloc'd), and so are
** an actor's cre_data and a trap's effect_data.  Pointers into the area stay
** valid until the next edit.  are_serialize's output is malloc'd; the caller
** frees it with free().  Input buffers are only borrowed (are_parse copies
** what it keeps).
*/
#ifndef LEVELSQL_ARE_H
#define LEVELSQL_ARE_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

/* On-disk sizes (IESDP, or measured on the corpus: NOTES-are.md). */
#define ARE_HEADER_SIZE 0x11Cu
#define ARE_ACTOR_SIZE 0x110u
#define ARE_REGION_SIZE 0xC4u
#define ARE_SPAWN_SIZE 0xC8u
#define ARE_ENTRANCE_SIZE 0x68u
#define ARE_CONTAINER_SIZE 0xC0u
#define ARE_ITEM_SIZE 0x14u
#define ARE_VERTEX_SIZE 4u
#define ARE_AMBIENT_SIZE 0xD4u
#define ARE_VARIABLE_SIZE 0x54u
#define ARE_DOOR_SIZE 0xC8u
#define ARE_ANIMATION_SIZE 0x4Cu
#define ARE_NOTE_SIZE 0x34u
#define ARE_TRAP_SIZE 0x1Cu
#define ARE_TILED_SIZE 0x6Cu
#define ARE_SONGS_SIZE 0x90u
#define ARE_REST_SIZE 0xE4u

/* The sections, in header order.  ARE_SONGS and ARE_REST hold 0 or 1
** record (present when the header's offset is not 0); ARE_EXPLORED is the
** bitmask, one "record" per byte. */
enum are_section {
  ARE_ACTORS,
  ARE_REGIONS,
  ARE_SPAWNS,
  ARE_ENTRANCES,
  ARE_CONTAINERS,
  ARE_ITEMS,
  ARE_VERTICES,
  ARE_AMBIENTS,
  ARE_VARIABLES,
  ARE_EXPLORED,
  ARE_DOORS,
  ARE_ANIMATIONS,
  ARE_TILED,
  ARE_SONGS,
  ARE_REST,
  ARE_NOTES,
  ARE_TRAPS,
  ARE_NUM_SECTIONS
};

/* Region types (are_region.type). */
#define ARE_REGION_TRAP 0u   /* proximity trigger */
#define ARE_REGION_INFO 1u   /* info point */
#define ARE_REGION_TRAVEL 2u /* travel region */

typedef struct are_point {
  uint16_t x, y;
} are_point;

/* The header's values (its offsets and counts live in the arrays' sizes
** and in are_offsets). */
typedef struct are_header {
  unsigned char wed[8];
  uint32_t last_saved;
  uint32_t area_flags;
  unsigned char north_area[8];
  uint32_t north_flags;
  unsigned char east_area[8];
  uint32_t east_flags;
  unsigned char south_area[8];
  uint32_t south_flags;
  unsigned char west_area[8];
  uint32_t west_flags;
  uint16_t area_type_flags;
  uint16_t rain_probability, snow_probability, fog_probability, lightning_probability;
  uint16_t wind_speed;               /* 0x52; BGEE: overlay transparency */
  uint16_t tiled_object_flags_offset; /* 0x90, kept as stored */
  uint16_t tiled_object_flags_count;  /* 0x92 */
  unsigned char area_script[8];
  unsigned char rest_movie_day[8], rest_movie_night[8];
  unsigned char unused[56];
} are_header;

typedef struct are_actor {
  unsigned char name[32];
  uint16_t x, y, dest_x, dest_y;
  uint32_t flags;
  uint16_t spawned;
  uint8_t cre_first_letter;
  uint8_t unused_2f;
  uint32_t animation;
  uint16_t orientation;
  uint16_t unused_36;
  uint32_t removal_timer;
  uint16_t movement_restriction, movement_restriction_object;
  uint32_t schedule;
  uint32_t num_times_talked_to;
  unsigned char dialog[8];
  unsigned char script_override[8], script_general[8], script_class[8];
  unsigned char script_race[8], script_default[8], script_specific[8];
  unsigned char cre_file[8];
  uint32_t cre_offset, cre_size; /* embedded CRE (saved games) */
  unsigned char unused[128];
  unsigned char *cre_data;       /* cre_size bytes, NULL when 0 */
} are_actor;

typedef struct are_region {
  unsigned char name[32];
  uint16_t type; /* ARE_REGION_* */
  uint16_t box_left, box_top, box_right, box_bottom;
  uint16_t vertex_count;
  uint32_t first_vertex;
  uint32_t trigger_value;
  uint32_t cursor;
  unsigned char destination_area[8];
  unsigned char destination_entrance[32];
  uint32_t flags;
  uint32_t info_text; /* strref */
  uint16_t trap_detection_difficulty, trap_removal_difficulty;
  uint16_t trapped, trap_detected;
  uint16_t trap_launch_x, trap_launch_y;
  unsigned char key_item[8];
  unsigned char script[8];
  uint16_t alt_use_x, alt_use_y;
  uint32_t unknown_88;
  unsigned char unknown_8c[32];
  unsigned char sound[8];          /* PST */
  uint16_t talk_x, talk_y;         /* PST */
  uint32_t speaker_name;           /* PST, strref */
  unsigned char dialog[8];         /* PST */
} are_region;

typedef struct are_spawn {
  unsigned char name[32];
  uint16_t x, y;
  unsigned char creatures[10][8];
  uint16_t creature_count;
  uint16_t base_count;
  uint16_t frequency;
  uint16_t spawn_method;
  uint32_t removal_timer;
  uint16_t movement_restriction, movement_restriction_object;
  uint16_t max_creatures;
  uint16_t enabled;
  uint32_t schedule;
  uint16_t probability_day, probability_night;
  uint32_t spawn_frequency; /* BGEE */
  uint32_t countdown;       /* BGEE */
  uint8_t weights[10];      /* BGEE */
  unsigned char unused[38];
} are_spawn;

typedef struct are_entrance {
  unsigned char name[32];
  uint16_t x, y;
  uint16_t orientation;
  unsigned char unused[66];
} are_entrance;

typedef struct are_container {
  unsigned char name[32];
  uint16_t x, y;
  uint16_t type;
  uint16_t lock_difficulty;
  uint32_t flags;
  uint16_t trap_detection_difficulty, trap_removal_difficulty;
  uint16_t trapped, trap_detected;
  uint16_t trap_launch_x, trap_launch_y;
  uint16_t box_left, box_top, box_right, box_bottom; /* 0x38, 0x3a, 0x3c, 0x3e */
  uint32_t first_item, item_count;
  unsigned char trap_script[8];
  uint32_t first_vertex;
  uint16_t vertex_count;
  uint16_t trigger_range;
  unsigned char owner[32];
  unsigned char key_item[8];
  uint32_t break_difficulty;
  uint32_t lockpick_string; /* strref */
  unsigned char unused[56];
} are_container;

typedef struct are_item {
  unsigned char resref[8];
  uint16_t expiration_time;
  uint16_t charges1, charges2, charges3;
  uint32_t flags;
} are_item;

typedef struct are_ambient {
  unsigned char name[32];
  uint16_t x, y;
  uint16_t radius;
  uint16_t height;
  uint32_t pitch_variance;
  uint16_t volume_variance;
  uint16_t volume;
  unsigned char sounds[10][8];
  uint16_t sound_count;
  uint16_t unused_82;
  uint32_t base_time, base_time_deviation;
  uint32_t schedule;
  uint32_t flags;
  unsigned char unused[64];
} are_ambient;

typedef struct are_variable {
  unsigned char name[32];
  uint16_t type;
  uint16_t resource_type;
  uint32_t dword_value;
  uint32_t int_value;
  uint64_t double_bits; /* the IEEE double at 0x2c, as its bits */
  unsigned char script_name[32];
} are_variable;

typedef struct are_door {
  unsigned char name[32];
  unsigned char door_id[8]; /* the WED door's name */
  uint32_t flags;
  uint32_t open_first_vertex;
  uint16_t open_vertex_count, closed_vertex_count;
  uint32_t closed_first_vertex;
  uint16_t open_box_left, open_box_top, open_box_right, open_box_bottom;
  uint16_t closed_box_left, closed_box_top, closed_box_right, closed_box_bottom;
  uint32_t open_first_impeded;
  uint16_t open_impeded_count, closed_impeded_count;
  uint32_t closed_first_impeded;
  uint16_t hit_points, armor_class;
  unsigned char open_sound[8], close_sound[8];
  uint32_t cursor;
  uint16_t trap_detection_difficulty, trap_removal_difficulty;
  uint16_t trapped, trap_detected;
  uint16_t trap_launch_x, trap_launch_y;
  unsigned char key_item[8];
  unsigned char script[8];
  uint32_t detection_difficulty;
  uint32_t lock_difficulty;
  uint16_t toggle1_x, toggle1_y, toggle2_x, toggle2_y;
  uint32_t lockpick_string; /* strref */
  unsigned char travel_trigger_name[24];
  uint32_t dialog_speaker_name; /* strref */
  unsigned char dialog[8];
  unsigned char unknown_c0[8];
} are_door;

typedef struct are_animation {
  unsigned char name[32];
  uint16_t x, y;
  uint32_t schedule;
  unsigned char resref[8];
  uint16_t sequence, frame;
  uint32_t flags;
  uint16_t height;
  uint16_t transparency;
  uint16_t start_frame;
  uint8_t loop_chance;
  uint8_t skip_cycles;
  unsigned char palette[8];
  uint16_t animation_width, animation_height; /* BGEE */
} are_animation;

typedef struct are_note {
  uint16_t x, y;
  uint32_t text; /* strref */
  uint16_t strref_location;
  uint16_t color;
  uint32_t count_plus_10;
  unsigned char unused[36];
} are_note;

typedef struct are_trap {
  unsigned char projectile[8];
  uint32_t effect_offset;
  uint16_t effect_size;
  uint16_t missile_id;
  uint16_t ticks;
  uint16_t triggers_remaining; /* 0x12 */
  uint16_t x, y, z;
  uint8_t target_type;
  uint8_t party_member;
  unsigned char *effect_data; /* effect_size bytes, NULL when 0 */
} are_trap;

typedef struct are_tiled {
  unsigned char name[32];
  unsigned char tile_id[8];
  uint32_t flags;
  uint32_t open_squares_offset;
  uint16_t open_squares_count;
  uint16_t unknown_32;
  uint16_t closed_squares_count;
  uint16_t unknown_36;
  uint32_t closed_squares_offset;
  unsigned char unused[48];
} are_tiled;

typedef struct are_songs {
  uint32_t day_song, night_song, win_song, battle_song, lose_song;
  uint32_t alt_music1, alt_music2, alt_music3, alt_music4, alt_music5;
  unsigned char day_ambient1[8], day_ambient2[8];
  uint32_t day_ambient_volume;
  unsigned char night_ambient1[8], night_ambient2[8];
  uint32_t night_ambient_volume;
  uint32_t reverb;
  unsigned char unused[60];
} are_songs;

typedef struct are_rest {
  unsigned char name[32];
  uint32_t texts[10]; /* strrefs */
  unsigned char creatures[10][8];
  uint16_t creature_count;
  uint16_t difficulty;
  uint32_t removal_time;
  uint16_t movement_restriction, movement_restriction_object;
  uint16_t max_creatures;
  uint16_t enabled;
  uint16_t probability_day, probability_night;
  unsigned char unused[56];
} are_rest;

/* Any record of any section (a caller building a new one). */
typedef union are_record {
  are_actor actor;
  are_region region;
  are_spawn spawn;
  are_entrance entrance;
  are_container container;
  are_item item;
  are_ambient ambient;
  are_variable variable;
  are_door door;
  are_animation animation;
  are_tiled tiled;
  are_songs songs;
  are_rest rest;
  are_note note;
  are_trap trap;
} are_record;

typedef struct are_area {
  are_header header;
  uint32_t num_actors;
  are_actor *actors;
  uint32_t num_regions;
  are_region *regions;
  uint32_t num_spawns;
  are_spawn *spawns;
  uint32_t num_entrances;
  are_entrance *entrances;
  uint32_t num_containers;
  are_container *containers;
  uint32_t num_items;
  are_item *items;
  uint32_t num_vertices;
  are_point *vertices;
  uint32_t num_ambients;
  are_ambient *ambients;
  uint32_t num_variables;
  are_variable *variables;
  uint32_t num_explored; /* bytes of the bitmask */
  uint8_t *explored;
  uint32_t num_doors;
  are_door *doors;
  uint32_t num_animations;
  are_animation *animations;
  uint32_t num_tiled;
  are_tiled *tiled;
  uint32_t num_songs; /* 0 or 1 */
  are_songs *songs;
  uint32_t num_rest;  /* 0 or 1 */
  are_rest *rest;
  uint32_t num_notes;
  are_note *notes;
  uint32_t num_traps;
  are_trap *traps;
  /* Layout as read, for byte-identical writes. */
  uint32_t offsets[ARE_NUM_SECTIONS]; /* the header's offset of each section */
  uint32_t orig_counts[ARE_NUM_SECTIONS];
  unsigned char *orig; /* copy of the parsed file, NULL if none */
  size_t orig_size;
  int overlap; /* two sections (or embedded blocks) of the file overlapped */
  int relayout; /* an edit resized an embedded block: lay the file out again */
  /* Row identity (model-only, never written): record i of section s has a
  ** uid that stays while records before it come and go (are_uid).  NULL
  ** until an edit inserts or deletes a record of s: the uid is then the
  ** position.  Else one uid per record, and next_uid[s] the next fresh
  ** one.  Not kept for the vertices and the explored bitmask. */
  uint32_t *uids[ARE_NUM_SECTIONS];
  uint32_t next_uid[ARE_NUM_SECTIONS];
} are_area;

/* ---- whole files -------------------------------------------------------- */

/* 1 if the buffer starts with 'AREAV1.0'. */
int are_sniff(const unsigned char *data, size_t size);

/* Parses a whole file.  Returns the area (caller frees with are_free), or
** NULL with err naming the section, the record and the byte offset.  Other
** versions are refused by name ("ARE V9.1 (Icewind Dale II) is not read"),
** and so is the Planescape: Torment header layout (0xFFFFFFFF at 0xC4). */
are_area *are_parse(const unsigned char *data, size_t size, codec_error *err);

/* are_parse polling `cancel` (NULL: never) every CODEC_POLL_RECORDS records
** and CODEC_POLL_BYTES bytes copied: when it says stop, fails with
** CODEC_E_INTERRUPT ("interrupted"), nothing kept. */
are_area *are_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, codec_error *err);

/* Serializes (in place or a new layout, see above) after are_check.
** Returns 1 and a malloc'd buffer the caller frees, or 0 with err. */
int are_serialize(const are_area *a, unsigned char **out, size_t *out_size, codec_error *err);

/* Checks every run reference, the 0/1 count of songs and rest, embedded
** blocks and the widths of the header's counts.  1 if consistent. */
int are_check(const are_area *a, codec_error *err);

/* Deep copy (NULL when memory runs out). */
are_area *are_clone(const are_area *a);

void are_free(are_area *a);

/* Bytes of memory the area owns (arrays, embedded blocks, the copy of the
** original file), for a cache budget. */
size_t are_footprint(const are_area *a);

/* ---- reading helpers ---------------------------------------------------- */

/* The section's name as errors spell it ("actors", "containers", ...). */
const char *are_section_name(enum are_section s);

/* The on-disk record size of a section (1 for the explored bitmask). */
size_t are_record_size(enum are_section s);

/* Number of records of a section. */
uint32_t are_count(const are_area *a, enum are_section s);

/* The items of container c: returns their count and points *items at the
** first, or 0 (and NULL) when there is no such container or no item. */
uint32_t are_container_items(const are_area *a, uint32_t c, const are_item **items);

/* Which vertex run of a record (are_vertices, are_vertices_set). */
enum are_run {
  ARE_RUN_OUTLINE,        /* a region's or container's outline */
  ARE_RUN_OPEN,           /* a door's outline when open */
  ARE_RUN_CLOSED,         /* ... when closed */
  ARE_RUN_OPEN_IMPEDED,   /* a door's impeded search-map cells when open */
  ARE_RUN_CLOSED_IMPEDED  /* ... when closed */
};

/* The points of run `run` of record i of section s (ARE_REGIONS,
** ARE_CONTAINERS: ARE_RUN_OUTLINE; ARE_DOORS: the four others).  Returns the
** count and points *pts at the first, or 0 (and NULL). */
uint32_t are_vertices(const are_area *a, enum are_section s, uint32_t i, enum are_run run, const are_point **pts);

/* The uid of record i of section s (i must exist; see are_area.uids). */
uint32_t are_uid(const are_area *a, enum are_section s, uint32_t i);

/* Finds the record of section s with that uid: 1 and *i, or 0. */
int are_uid_find(const are_area *a, enum are_section s, uint32_t uid, uint32_t *i);

/* The container whose item run holds item `item` (the first such, in
** container order) and the item's place in that run: 1, or 0 when no
** container holds it. */
int are_item_container(const are_area *a, uint32_t item, uint32_t *c, uint32_t *k);

/* Length of an 8-byte resref / 32-byte name field: the bytes before the
** first NUL (the field's size if none). */
size_t are_text_len(const unsigned char *field, size_t size);

/* Checks that every record layout table covers its record exactly once
** (for the unit test).  1 if so, else 0 with err naming the section. */
int are_layout_selfcheck(codec_error *err);

/* ---- names of flag bits and enums (are_names.c) ------------------------- */

/* The flag words with named bits (IESDP's meanings for BG2 / EE). */
enum are_flagset {
  ARE_FLAGS_AREA,      /* are_header.area_flags */
  ARE_FLAGS_AREA_TYPE, /* are_header.area_type_flags */
  ARE_FLAGS_EDGE,      /* are_header.north_flags ... west_flags */
  ARE_FLAGS_ACTOR,
  ARE_FLAGS_REGION,
  ARE_FLAGS_SPAWN_METHOD,
  ARE_FLAGS_CONTAINER,
  ARE_FLAGS_ITEM,
  ARE_FLAGS_AMBIENT,
  ARE_FLAGS_VARIABLE_TYPE,
  ARE_FLAGS_DOOR,
  ARE_FLAGS_ANIMATION,
  ARE_FLAGS_TILED,
  ARE_NUM_FLAGSETS
};

/* The numeric enums with named values. */
enum are_enumset {
  ARE_ENUM_REGION_TYPE,    /* trap, info, travel */
  ARE_ENUM_CONTAINER_TYPE, /* none, bag, chest, ... crate */
  ARE_ENUM_NOTE_COLOR,     /* gray, violet, ... light_gray */
  ARE_NUM_ENUMSETS
};

/* Writes the names of the set bits of `flags`, joined by '|', into buf
** (NUL terminated; "" for 0); a bit without a name is "bitN".  Names that
** do not fit whole are left out.  ARE_FLAG_NAMES_MAX bytes always suffice.
** Returns the length. */
#define ARE_FLAG_NAMES_MAX 512
size_t are_flag_names(enum are_flagset set, uint32_t flags, char *buf, size_t size);

/* Parses such a list back (any order, '|' separated, blanks around names
** ignored, "" = 0, "bitN" for any bit).  1 and *flags, or 0 with err
** (CODEC_E_ARG) naming the unknown word. */
int are_flag_parse(enum are_flagset set, const char *text, uint32_t *flags, codec_error *err);

/* The name of an enum value, or NULL when it has none. */
const char *are_enum_name(enum are_enumset set, uint32_t value);

/* The value of an enum name: 1 and *value, or 0 with err (CODEC_E_ARG). */
int are_enum_value(enum are_enumset set, const char *name, uint32_t *value, codec_error *err);

/* The names of each enum's values from 0 on, NULL-terminated. */
extern const char *const are_region_type_names[];
extern const char *const are_container_type_names[];
extern const char *const are_note_color_names[];

/* The flag set a short name stands for ("door", "area_type", "spawn_method",
** ...: the flag set's name without " flags", blanks as '_'): 1 and *set,
** or 0 with err listing the names. */
int are_flagset_find(const char *name, enum are_flagset *set, codec_error *err);

/* ---- generic access (shared with are_edit.c) ------------------------------ */

/* The singular name ("container"), the size of a record in memory, the
** address of the array and of the count of section s. */
const char *are_section_one(enum are_section s);
size_t are_elem_size(enum are_section s);
void **are_array_ptr(are_area *a, enum are_section s);
uint32_t *are_count_ptr(are_area *a, enum are_section s);

/* Points *first and *count at run `run` of record i of section s; 0 when
** the record has no such run. */
int are_run_ref(are_area *a, enum are_section s, uint32_t i, enum are_run run, uint32_t **first, uint16_t **count);

/* ---- edits (are_edit.c) ------------------------------------------------- */

/* Inserts a copy of *rec (the section's record type) before record `at`
** (at = count: append) of section s.  Not for ARE_ITEMS (are_item_insert),
** ARE_VERTICES (are_vertices_set) or ARE_EXPLORED.  Runs of the new record
** start empty: regions, containers and doors get no vertices (set them with
** are_vertices_set), a container no items (its first_item is where the
** items of the containers before it end).  An actor's CRE block and a
** trap's effect block are copied.  Songs and rest: only when absent. */
int are_insert(are_area *a, enum are_section s, uint32_t at, const void *rec, codec_error *err);

/* Deletes record `at` of section s (not ARE_ITEMS, ARE_VERTICES,
** ARE_EXPLORED).  A container's items go with it, and the vertex runs of a
** region, container or door (unless another record shares them); every
** other record's first_item / first_vertex follows. */
int are_delete(are_area *a, enum are_section s, uint32_t at, codec_error *err);

/* Inserts a copy of *it as item k (0..count) of container c; the
** first_item of every other container at or after it moves up by one. */
int are_item_insert(are_area *a, uint32_t c, uint32_t k, const are_item *it, codec_error *err);

/* Deletes item k of container c; later containers' first_item follow. */
int are_item_delete(are_area *a, uint32_t c, uint32_t k, codec_error *err);

/* Fills *rec (section s's record type) as a new record the game takes
** without further edits: every field 0, except the schedules (all 24
** hours, 0xFFFFFF: a record scheduled for no hour never shows), the
** "enabled" bits of ambients and animations, an actor's removal timer
** (0xFFFFFFFF, never) and flags (cre_not_attached: no embedded CRE), a
** door's cursor (30, as 74 of the 78 corpus doors), and 0xFFFFFFFF ("no
** text") for a region's info text and a container's lockpick string, as
** real files have them (NOTES-are.md). */
void are_record_init(enum are_section s, void *rec);

/* Replaces the embedded block of record i of s (ARE_ACTORS: the CRE,
** at most 2^24 bytes; ARE_TRAPS: the effect block, at most 65535) with a
** copy of n bytes (0: none); bytes may be the block itself.  A new size
** lays the file out again on the next write. */
int are_block_set(are_area *a, enum are_section s, uint32_t i, const unsigned char *bytes, size_t n,
                  codec_error *err);

/* Sets a resref list of `nslots` 8-byte slots and its count (a spawn
** point's creatures, an ambient's sounds, the rest interruptions'
** creatures) to the n texts (texts[k], lens[k] bytes, at most 8 each):
** the count becomes n, the slots after the list are cleared.  Nothing
** changes when n > nslots or a text is longer than 8 bytes (err says). */
int are_resrefs_set(unsigned char (*slots)[8], size_t nslots, uint16_t *count, const unsigned char *const *texts,
                    const size_t *lens, size_t n, codec_error *err);

/* Replaces the explored bitmask with a copy of n bytes (0: none; at most
** 2^24).  bytes may be the area's own. */
int are_explored_set(are_area *a, const uint8_t *bytes, size_t n, codec_error *err);

/* Replaces run `run` of record i of section s with n points: the old
** points are removed (unless another record shares them) and the new ones
** appended to the vertex table; every other run's first index follows.  A
** region's or container's bounding box (a door's open or closed box for
** those runs) is recomputed from the points (left = right = top = bottom
** = 0 for none). */
int are_vertices_set(are_area *a, enum are_section s, uint32_t i, enum are_run run, const are_point *pts, size_t n,
                     codec_error *err);

#endif
