/*
** are_sample.h: a small AREA V1.0 built through the ARE codec's own edits
** (are_insert, are_vertices_set, are_item_insert), with every section kind
** present: actors (one with an embedded CRE block), a trap, an info point
** and a travel region with their outlines, a spawn point, entrances,
** containers with items and outlines, ambients, a variable, an explored
** bitmask, doors with open / closed outlines and impeded cells,
** animations, a tiled object, song entries, rest interruptions, an
** automap note and a projectile trap with its effect block.  Shared by
** test_are.c and tools/gen_are_samples.c (the samples and fuzz seeds).
*/
#ifndef LEVELSQL_ARE_SAMPLE_H
#define LEVELSQL_ARE_SAMPLE_H

#include <stdlib.h>
#include <string.h>

#include "are/are.h"

/* Copies a C string into a fixed-size field, NUL padded. */
static void are_sample_text(unsigned char *field, size_t size, const char *s) {
  size_t n = strlen(s);
  memset(field, 0, size);
  memcpy(field, s, n < size ? n : size);
}

#define ARE_SAMPLE_TEXT(f, s) are_sample_text((f), sizeof(f), (s))

/* A square outline of side `side` at (x, y). */
static void are_sample_square(are_point *p, uint16_t x, uint16_t y, uint16_t side) {
  p[0].x = x, p[0].y = y;
  p[1].x = (uint16_t)(x + side), p[1].y = y;
  p[2].x = (uint16_t)(x + side), p[2].y = (uint16_t)(y + side);
  p[3].x = x, p[3].y = (uint16_t)(y + side);
}

/* Regions, containers and items, with their vertices. */
static int are_sample_regions(are_area *a, int big, codec_error *err) {
  static const char *names[] = {"Trap Floor", "Sign", "To Town"};
  are_region r;
  are_container c;
  are_item it;
  are_point sq[4];
  uint32_t i, k, nc = big ? 4u : 2u;
  for (i = 0; i < 3; i++) {
    memset(&r, 0, sizeof r);
    ARE_SAMPLE_TEXT(r.name, names[i]);
    r.type = (uint16_t)i;
    r.cursor = i == 2 ? 30u : 22u;
    if (i == 0) r.trapped = 1, r.trap_detection_difficulty = 60, r.trap_removal_difficulty = 40;
    if (i == 0) ARE_SAMPLE_TEXT(r.script, "TRAPFLR");
    if (i == 1) r.info_text = 12345;
    if (i == 2) ARE_SAMPLE_TEXT(r.destination_area, "AR9901"), ARE_SAMPLE_TEXT(r.destination_entrance, "FromDungeon");
    r.flags = i == 2 ? 0x4u : 0x8u;
    if (!are_insert(a, ARE_REGIONS, i, &r, err)) return 0;
    are_sample_square(sq, (uint16_t)(100 + 200 * i), 300, (uint16_t)(40 + 10 * i));
    if (!are_vertices_set(a, ARE_REGIONS, i, ARE_RUN_OUTLINE, sq, 4, err)) return 0;
  }
  for (i = 0; i < nc; i++) {
    memset(&c, 0, sizeof c);
    ARE_SAMPLE_TEXT(c.name, i == 0 ? "Chest" : "Barrel");
    c.x = (uint16_t)(500 + 40 * i), c.y = 600;
    c.type = i == 0 ? 2 : 11;
    c.lock_difficulty = (uint16_t)(i == 0 ? 50 : 0);
    c.flags = i == 0 ? 1u : 0u;
    c.trap_launch_x = c.x, c.trap_launch_y = c.y;
    if (i == 0) ARE_SAMPLE_TEXT(c.key_item, "KEY01");
    if (!are_insert(a, ARE_CONTAINERS, i, &c, err)) return 0;
    are_sample_square(sq, (uint16_t)(480 + 40 * i), 580, 30);
    if (!are_vertices_set(a, ARE_CONTAINERS, i, ARE_RUN_OUTLINE, sq, 4, err)) return 0;
    for (k = 0; k < 3 - i % 3; k++) {
      memset(&it, 0, sizeof it);
      ARE_SAMPLE_TEXT(it.resref, k == 0 ? "MISC07" : k == 1 ? "POTN08" : "SW1H01");
      it.charges1 = (uint16_t)(k == 0 ? 25 + i : 1);
      it.flags = k == 2 ? 1u : 0u;
      if (!are_item_insert(a, i, k, &it, err)) return 0;
    }
  }
  return 1;
}

/* Doors with their four runs. */
static int are_sample_doors(are_area *a, codec_error *err) {
  are_door d;
  are_point sq[4], cells[3];
  uint32_t i;
  for (i = 0; i < 2; i++) {
    memset(&d, 0, sizeof d);
    ARE_SAMPLE_TEXT(d.name, i == 0 ? "Door01" : "Secret");
    ARE_SAMPLE_TEXT(d.door_id, i == 0 ? "DOOR9900" : "DOOR9901");
    d.flags = i == 0 ? 0x2u : 0x80u;
    d.cursor = 30;
    d.lock_difficulty = i == 0 ? 70u : 0u;
    d.detection_difficulty = i == 1 ? 40u : 0u;
    ARE_SAMPLE_TEXT(d.open_sound, "GAM_07");
    ARE_SAMPLE_TEXT(d.close_sound, "GAM_08");
    d.toggle1_x = (uint16_t)(130 + 300 * i), d.toggle1_y = 240;
    d.toggle2_x = (uint16_t)(130 + 300 * i), d.toggle2_y = 330;
    if (!are_insert(a, ARE_DOORS, i, &d, err)) return 0;
    are_sample_square(sq, (uint16_t)(120 + 300 * i), 260, 20);
    if (!are_vertices_set(a, ARE_DOORS, i, ARE_RUN_OPEN, sq, 4, err)) return 0;
    are_sample_square(sq, (uint16_t)(120 + 300 * i), 280, 60);
    if (!are_vertices_set(a, ARE_DOORS, i, ARE_RUN_CLOSED, sq, 4, err)) return 0;
    cells[0].x = (uint16_t)(8 + 20 * i), cells[0].y = 22;
    cells[1].x = (uint16_t)(9 + 20 * i), cells[1].y = 22;
    cells[2].x = (uint16_t)(10 + 20 * i), cells[2].y = 22;
    if (!are_vertices_set(a, ARE_DOORS, i, ARE_RUN_OPEN_IMPEDED, cells, 2, err)) return 0;
    if (!are_vertices_set(a, ARE_DOORS, i, ARE_RUN_CLOSED_IMPEDED, cells, 3, err)) return 0;
  }
  return 1;
}

/* The sections without runs. */
static int are_sample_rest(are_area *a, int big, codec_error *err) {
  unsigned char cre[32];
  unsigned char eff[24];
  are_actor ac;
  are_spawn sp;
  are_entrance en;
  are_ambient am;
  are_variable v;
  are_animation an;
  are_tiled t;
  are_songs so;
  are_rest re;
  are_note no;
  are_trap tr;
  uint32_t i, na = big ? 6u : 2u;
  for (i = 0; i < sizeof cre; i++) cre[i] = (unsigned char)("CRE V1.0"[i % 8] + i / 8);
  for (i = 0; i < sizeof eff; i++) eff[i] = (unsigned char)(i * 7);
  for (i = 0; i < na; i++) {
    memset(&ac, 0, sizeof ac);
    ARE_SAMPLE_TEXT(ac.name, i == 0 ? "Guard" : "Merchant");
    ac.x = ac.dest_x = (uint16_t)(200 + 50 * i), ac.y = ac.dest_y = 400;
    ac.orientation = (uint16_t)(i % 16);
    ac.removal_timer = 0xFFFFFFFFu;
    ac.schedule = 0xFFFFFFu;
    ARE_SAMPLE_TEXT(ac.cre_file, i == 0 ? "GUARD01" : "MERCH01");
    ARE_SAMPLE_TEXT(ac.dialog, i == 0 ? "" : "MERCH01");
    if (i == 1) ac.cre_size = sizeof cre, ac.cre_data = cre;
    if (!are_insert(a, ARE_ACTORS, i, &ac, err)) return 0;
  }
  memset(&sp, 0, sizeof sp);
  ARE_SAMPLE_TEXT(sp.name, "Spawn1");
  sp.x = 700, sp.y = 700;
  ARE_SAMPLE_TEXT(sp.creatures[0], "GIBBER");
  ARE_SAMPLE_TEXT(sp.creatures[1], "XVART");
  sp.creature_count = 2, sp.base_count = 2, sp.frequency = 60, sp.max_creatures = 4, sp.enabled = 1;
  sp.schedule = 0xFFFFFFu, sp.probability_day = sp.probability_night = 100;
  if (!are_insert(a, ARE_SPAWNS, 0, &sp, err)) return 0;
  for (i = 0; i < 2; i++) {
    memset(&en, 0, sizeof en);
    ARE_SAMPLE_TEXT(en.name, i == 0 ? "FromTown" : "FromDungeon");
    en.x = (uint16_t)(150 + 400 * i), en.y = 500, en.orientation = (uint16_t)(4 * i);
    if (!are_insert(a, ARE_ENTRANCES, i, &en, err)) return 0;
    memset(&am, 0, sizeof am);
    ARE_SAMPLE_TEXT(am.name, i == 0 ? "Birds" : "Wind");
    am.x = (uint16_t)(300 + 100 * i), am.y = 200, am.radius = 500, am.volume = 80;
    ARE_SAMPLE_TEXT(am.sounds[0], "AM_BIRD1");
    am.sound_count = 1, am.base_time = 10, am.schedule = 0xFFFFFFu, am.flags = i == 0 ? 1u : 5u;
    if (!are_insert(a, ARE_AMBIENTS, i, &am, err)) return 0;
    memset(&an, 0, sizeof an);
    ARE_SAMPLE_TEXT(an.name, i == 0 ? "Torch" : "Fountain");
    an.x = (uint16_t)(250 + 60 * i), an.y = 320, an.schedule = 0xFFFFFFu;
    ARE_SAMPLE_TEXT(an.resref, i == 0 ? "TORCH01" : "FOUNT01");
    an.flags = 1u | (i ? 0x20u : 0u), an.height = 40;
    if (!are_insert(a, ARE_ANIMATIONS, i, &an, err)) return 0;
  }
  memset(&v, 0, sizeof v);
  ARE_SAMPLE_TEXT(v.name, "QUEST_STATE");
  v.type = 1, v.int_value = 3;
  if (!are_insert(a, ARE_VARIABLES, 0, &v, err)) return 0;
  memset(&t, 0, sizeof t);
  ARE_SAMPLE_TEXT(t.name, "Bridge");
  ARE_SAMPLE_TEXT(t.tile_id, "BRIDGE");
  if (!are_insert(a, ARE_TILED, 0, &t, err)) return 0;
  memset(&so, 0, sizeof so);
  so.day_song = 3, so.night_song = 4, so.battle_song = 2;
  ARE_SAMPLE_TEXT(so.day_ambient1, "AR9900D");
  so.day_ambient_volume = so.night_ambient_volume = 90;
  if (!are_insert(a, ARE_SONGS, 0, &so, err)) return 0;
  memset(&re, 0, sizeof re);
  ARE_SAMPLE_TEXT(re.name, "Rest");
  ARE_SAMPLE_TEXT(re.creatures[0], "WOLF");
  re.creature_count = 1, re.difficulty = 2, re.max_creatures = 2, re.enabled = 1, re.probability_night = 20;
  if (!are_insert(a, ARE_REST, 0, &re, err)) return 0;
  memset(&no, 0, sizeof no);
  no.x = 640, no.y = 480, no.text = 70000, no.strref_location = 1, no.color = 2, no.count_plus_10 = 11;
  if (!are_insert(a, ARE_NOTES, 0, &no, err)) return 0;
  memset(&tr, 0, sizeof tr);
  ARE_SAMPLE_TEXT(tr.projectile, "SKULLTRP");
  tr.effect_size = sizeof eff, tr.effect_data = eff;
  tr.missile_id = 77, tr.triggers_remaining = 3, tr.x = 900, tr.y = 900, tr.target_type = 1;
  return are_insert(a, ARE_TRAPS, 0, &tr, err);
}

/* The sample area (`big`: more actors and containers, a larger bitmask).
** NULL (err set) on failure. */
static are_area *are_sample_build(int big, codec_error *err) {
  are_area *a = (are_area *)calloc(1, sizeof *a);
  uint32_t i;
  if (!a) {
    codec_fail_oom(err, "sample: out of memory");
    return NULL;
  }
  ARE_SAMPLE_TEXT(a->header.wed, big ? "AR9901" : "AR9900");
  ARE_SAMPLE_TEXT(a->header.area_script, big ? "AR9901" : "AR9900");
  ARE_SAMPLE_TEXT(a->header.north_area, "AR9902");
  a->header.north_flags = 3;
  a->header.area_type_flags = 0x07;
  a->header.rain_probability = 20, a->header.fog_probability = 10, a->header.lightning_probability = 5;
  a->num_explored = big ? 600u : 120u;
  a->explored = (uint8_t *)calloc(a->num_explored, 1);
  if (!a->explored) {
    are_free(a);
    codec_fail_oom(err, "sample: out of memory");
    return NULL;
  }
  for (i = 0; i < a->num_explored; i += 3) a->explored[i] = (uint8_t)(0x0F << (i % 5));
  if (!are_sample_regions(a, big, err) || !are_sample_doors(a, err) || !are_sample_rest(a, big, err)) {
    are_free(a);
    return NULL;
  }
  return a;
}

#endif
