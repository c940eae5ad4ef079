/*
** gen_are_samples.c: the Infinity Engine area (.ARE, AREA V1.0) files built
** with the ARE codec's own edits (are_record_init, are_insert,
** are_vertices_set, are_item_insert) and writer (are_serialize).
** Usage: gen_are_samples [--fuzz] OUTDIR
**
** `gen_are_samples OUTDIR` (tools/gen_samples.sh, `make samples`) writes
** the areas of the two sample WED files (gen_wed_samples), for the demo,
** sql/are_cookbook.sql and the tests:
** - AR0100.ARE, the town: two actors, a trap (detection 60), an info
**   point and two travel regions (to the tavern's entrance FromTown, and
**   to AR9901, an area no sample has), two entrances, a locked and
**   trapped chest and a barrel with five items, a spawn point, two
**   ambients, two animations, three doors (DOOR0100 and DOOR0101 of the
**   WED, and DOOR0199, which the WED lacks), song entries, rest
**   interruptions and an automap note;
** - AR0200.ARE, the tavern: an innkeeper, a travel region back to the
**   town's entrance FromTavern and one to an entrance the town lacks
**   (ToCellar), its entrance, a shelf holding a potion, the WED's three
**   doors (one trapped, detection 55), an ambient, a variable, a tiled
**   object and a projectile trap with its effect block; no songs and no
**   rest interruptions.
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

/* ---- the sample areas ---------------------------------------------------- */

/* Appends a record of section s filled by are_record_init and then by
** `fill` (NULL: as it is); returns the record, or NULL with err. */
static void *add(are_area *a, enum are_section s, void (*fill)(void *rec, const void *arg), const void *arg,
                 codec_error *err) {
  are_record rec;
  uint32_t n = are_count(a, s);
  are_record_init(s, &rec);
  if (fill) fill(&rec, arg);
  if (!are_insert(a, s, n, &rec, err)) return NULL;
  return (unsigned char *)*are_array_ptr(a, s) + (size_t)n * are_elem_size(s);
}

/* The points of a rectangle [x0, x1] x [y0, y1], clockwise. */
static void rect(are_point *p, uint16_t x0, uint16_t y0, uint16_t x1, uint16_t y1) {
  p[0].x = x0, p[0].y = y0, p[1].x = x1, p[1].y = y0;
  p[2].x = x1, p[2].y = y1, p[3].x = x0, p[3].y = y1;
}

/* A region: name, type, outline rectangle, destination, detection. */
typedef struct region_spec {
  const char *name;
  uint16_t type;
  uint16_t x0, y0, x1, y1;
  const char *to_area, *to_entrance;
  uint16_t detection;
} region_spec;

static void fill_region(void *rec, const void *arg) {
  const region_spec *rs = arg;
  are_region *r = rec;
  ARE_SAMPLE_TEXT(r->name, rs->name);
  r->type = rs->type;
  r->cursor = rs->type == ARE_REGION_TRAVEL ? 28u : rs->type == ARE_REGION_INFO ? 22u : 0u;
  if (rs->to_area) ARE_SAMPLE_TEXT(r->destination_area, rs->to_area), ARE_SAMPLE_TEXT(r->destination_entrance, rs->to_entrance);
  if (rs->type == ARE_REGION_TRAVEL) r->flags = 0x4u; /* party_required */
  if (rs->type == ARE_REGION_INFO) r->info_text = 20100u;
  if (rs->detection) r->trapped = 1, r->trap_detection_difficulty = rs->detection, r->trap_removal_difficulty = 40;
  if (rs->detection) ARE_SAMPLE_TEXT(r->script, "TRAPFIRE"), r->flags = 0x8u; /* detectable */
}

/* A door: its name, the WED door it animates, its open and closed
** rectangles (the WED door's polygons), the cells it blocks, a trap. */
typedef struct door_spec {
  const char *name, *door_id;
  uint16_t open[4], closed[4];
  uint16_t cell_x, cell_y;
  uint32_t flags;
  uint16_t detection, lock;
} door_spec;

static void fill_door(void *rec, const void *arg) {
  const door_spec *ds = arg;
  are_door *d = rec;
  ARE_SAMPLE_TEXT(d->name, ds->name);
  ARE_SAMPLE_TEXT(d->door_id, ds->door_id);
  ARE_SAMPLE_TEXT(d->open_sound, "GAM_07");
  ARE_SAMPLE_TEXT(d->close_sound, "GAM_08");
  d->flags = ds->flags;
  d->lock_difficulty = ds->lock;
  if (ds->detection) d->trapped = 1, d->trap_detection_difficulty = ds->detection, d->trap_removal_difficulty = 50;
  d->toggle1_x = (uint16_t)(ds->closed[0] - 10), d->toggle1_y = ds->closed[1];
  d->toggle2_x = (uint16_t)(ds->closed[2] + 10), d->toggle2_y = ds->closed[3];
}

/* Adds a door with its outlines and impeded cells (three in a row). */
static int add_door(are_area *a, const door_spec *ds, codec_error *err) {
  are_point p[4], cells[3];
  uint32_t i = are_count(a, ARE_DOORS), k;
  if (!add(a, ARE_DOORS, fill_door, ds, err)) return 0;
  for (k = 0; k < 3; k++) cells[k].x = (uint16_t)(ds->cell_x + k), cells[k].y = ds->cell_y;
  rect(p, ds->open[0], ds->open[1], ds->open[2], ds->open[3]);
  if (!are_vertices_set(a, ARE_DOORS, i, ARE_RUN_OPEN, p, 4, err)) return 0;
  rect(p, ds->closed[0], ds->closed[1], ds->closed[2], ds->closed[3]);
  return are_vertices_set(a, ARE_DOORS, i, ARE_RUN_CLOSED, p, 4, err) &&
         are_vertices_set(a, ARE_DOORS, i, ARE_RUN_OPEN_IMPEDED, cells, 1, err) &&
         are_vertices_set(a, ARE_DOORS, i, ARE_RUN_CLOSED_IMPEDED, cells, 3, err);
}

/* A container with its outline and items (resref and charges each). */
typedef struct container_spec {
  const char *name;
  uint16_t type, x, y;
  uint32_t flags;
  uint16_t lock, detection;
  const char *key;
  struct {
    const char *resref;
    uint16_t charges;
  } items[4];
} container_spec;

static void fill_container(void *rec, const void *arg) {
  const container_spec *cs = arg;
  are_container *c = rec;
  ARE_SAMPLE_TEXT(c->name, cs->name);
  c->type = cs->type, c->x = cs->x, c->y = cs->y, c->flags = cs->flags, c->lock_difficulty = cs->lock;
  c->trap_launch_x = cs->x, c->trap_launch_y = cs->y;
  if (cs->key) ARE_SAMPLE_TEXT(c->key_item, cs->key);
  if (cs->detection) c->trapped = 1, c->trap_detection_difficulty = cs->detection, c->trap_removal_difficulty = 60;
}

static int add_container(are_area *a, const container_spec *cs, codec_error *err) {
  are_point p[4];
  are_item it;
  uint32_t i = are_count(a, ARE_CONTAINERS), k;
  if (!add(a, ARE_CONTAINERS, fill_container, cs, err)) return 0;
  rect(p, (uint16_t)(cs->x - 20), (uint16_t)(cs->y - 20), (uint16_t)(cs->x + 20), (uint16_t)(cs->y + 10));
  if (!are_vertices_set(a, ARE_CONTAINERS, i, ARE_RUN_OUTLINE, p, 4, err)) return 0;
  for (k = 0; k < 4 && cs->items[k].resref; k++) {
    are_record_init(ARE_ITEMS, &it);
    ARE_SAMPLE_TEXT(it.resref, cs->items[k].resref);
    it.charges1 = cs->items[k].charges;
    if (!are_item_insert(a, i, k, &it, err)) return 0;
  }
  return 1;
}

/* A record with a name and a position (actors, entrances, ambients,
** animations, spawn points: the name at 0 and x, y at 0x20 in all). */
typedef struct named_spec {
  const char *name, *resref;
  uint16_t x, y;
} named_spec;

static void fill_actor(void *rec, const void *arg) {
  const named_spec *ns = arg;
  are_actor *r = rec;
  ARE_SAMPLE_TEXT(r->name, ns->name);
  ARE_SAMPLE_TEXT(r->cre_file, ns->resref);
  ARE_SAMPLE_TEXT(r->dialog, ns->resref);
  r->x = r->dest_x = ns->x, r->y = r->dest_y = ns->y, r->orientation = 2;
}

static void fill_entrance(void *rec, const void *arg) {
  const named_spec *ns = arg;
  are_entrance *r = rec;
  ARE_SAMPLE_TEXT(r->name, ns->name);
  r->x = ns->x, r->y = ns->y, r->orientation = 4;
}

static void fill_ambient(void *rec, const void *arg) {
  const named_spec *ns = arg;
  are_ambient *r = rec;
  ARE_SAMPLE_TEXT(r->name, ns->name);
  ARE_SAMPLE_TEXT(r->sounds[0], ns->resref);
  r->sound_count = 1, r->x = ns->x, r->y = ns->y, r->radius = 500, r->volume = 80, r->base_time = 10;
}

static void fill_animation(void *rec, const void *arg) {
  const named_spec *ns = arg;
  are_animation *r = rec;
  ARE_SAMPLE_TEXT(r->name, ns->name);
  ARE_SAMPLE_TEXT(r->resref, ns->resref);
  r->x = ns->x, r->y = ns->y, r->flags |= 0x1000u; /* show_in_combat */
}

static void fill_spawn(void *rec, const void *arg) {
  const named_spec *ns = arg;
  are_spawn *r = rec;
  ARE_SAMPLE_TEXT(r->name, ns->name);
  ARE_SAMPLE_TEXT(r->creatures[0], ns->resref);
  ARE_SAMPLE_TEXT(r->creatures[1], "XVART");
  r->creature_count = 2, r->base_count = 2, r->frequency = 60, r->max_creatures = 4, r->enabled = 1;
  r->x = ns->x, r->y = ns->y, r->probability_day = 50, r->probability_night = 100;
}

/* Adds the named records of one kind. */
static int add_named(are_area *a, enum are_section s, void (*fill)(void *, const void *), const named_spec *ns,
                     size_t n, codec_error *err) {
  size_t k;
  for (k = 0; k < n; k++)
    if (!add(a, s, fill, &ns[k], err)) return 0;
  return 1;
}

#define NSPECS(list) list, sizeof list / sizeof list[0]

/* The town, AR0100.ARE (see the top of the file). */
static int build_town(are_area *a, codec_error *err) {
  static const named_spec actors[] = {{"Guard", "GUARD01", 600, 700}, {"Merchant", "MERCH01", 900, 650}};
  static const named_spec entrances[] = {{"FromTavern", NULL, 360, 470}, {"Start", NULL, 1000, 1000}};
  static const named_spec ambients[] = {{"Birds", "AM_BIRD1", 500, 300}, {"Fountain", "AM_WATR1", 1000, 850}};
  static const named_spec animations[] = {{"Fountain", "FOUNT01", 1000, 850}, {"Torch", "TORCH01", 520, 300}};
  static const named_spec spawn[] = {{"Spawn1", "GIBBER", 1600, 1200}};
  static const region_spec regions[] = {
      {"To Tavern", ARE_REGION_TRAVEL, 320, 440, 400, 480, "AR0200", "FromTown", 0},
      {"Sign", ARE_REGION_INFO, 700, 800, 740, 830, NULL, NULL, 0},
      {"Trap Floor", ARE_REGION_TRAP, 1200, 1140, 1300, 1180, NULL, NULL, 60},
      {"To Dungeon", ARE_REGION_TRAVEL, 1800, 1200, 1900, 1270, "AR9901", "FromTown", 0}};
  static const container_spec containers[] = {
      {"Chest", 2, 480, 380, 1u, 50, 70, "KEY01", {{"MISC07", 25}, {"POTN08", 1}, {"SW1H01", 0}}},
      {"Barrel", 11, 760, 700, 0u, 0, 0, NULL, {{"POTN08", 2}, {"MISC07", 5}}}};
  static const door_spec doors[] = {
      {"Door0100", "DOOR0100", {330, 380, 345, 440}, {330, 410, 390, 430}, 20, 34, 0u, 0, 30},
      {"Gate", "DOOR0101", {1400, 580, 1420, 640}, {1400, 600, 1480, 620}, 87, 50, 0x1u, 0, 0},
      {"Ghost", "DOOR0199", {1700, 900, 1720, 960}, {1700, 920, 1760, 940}, 106, 77, 0u, 0, 0}};
  are_songs songs;
  are_rest rest;
  are_note note;
  size_t k;
  ARE_SAMPLE_TEXT(a->header.wed, "AR0100");
  ARE_SAMPLE_TEXT(a->header.area_script, "AR0100");
  ARE_SAMPLE_TEXT(a->header.north_area, "AR0200");
  a->header.area_type_flags = 0x0Bu; /* outdoor, day_night, city */
  a->header.rain_probability = 20, a->header.fog_probability = 10, a->header.lightning_probability = 5;
  for (k = 0; k < sizeof regions / sizeof regions[0]; k++) {
    are_point p[4];
    const region_spec *rs = &regions[k];
    rect(p, rs->x0, rs->y0, rs->x1, rs->y1);
    if (!add(a, ARE_REGIONS, fill_region, rs, err) || !are_vertices_set(a, ARE_REGIONS, (uint32_t)k, ARE_RUN_OUTLINE, p, 4, err))
      return 0;
  }
  for (k = 0; k < 2; k++)
    if (!add_container(a, &containers[k], err)) return 0;
  for (k = 0; k < 3; k++)
    if (!add_door(a, &doors[k], err)) return 0;
  if (!add_named(a, ARE_ACTORS, fill_actor, NSPECS(actors), err) ||
      !add_named(a, ARE_ENTRANCES, fill_entrance, NSPECS(entrances), err) ||
      !add_named(a, ARE_AMBIENTS, fill_ambient, NSPECS(ambients), err) ||
      !add_named(a, ARE_ANIMATIONS, fill_animation, NSPECS(animations), err) ||
      !add_named(a, ARE_SPAWNS, fill_spawn, NSPECS(spawn), err))
    return 0;
  are_record_init(ARE_SONGS, &songs);
  songs.day_song = 3, songs.night_song = 4, songs.battle_song = 2, songs.day_ambient_volume = songs.night_ambient_volume = 90;
  ARE_SAMPLE_TEXT(songs.day_ambient1, "AR0100D");
  are_record_init(ARE_REST, &rest);
  ARE_SAMPLE_TEXT(rest.name, "Town rest");
  ARE_SAMPLE_TEXT(rest.creatures[0], "WOLF");
  rest.creature_count = 1, rest.difficulty = 2, rest.max_creatures = 2, rest.enabled = 1, rest.probability_night = 20;
  are_record_init(ARE_NOTES, &note);
  note.x = 1000, note.y = 850, note.text = 20101, note.color = 2, note.count_plus_10 = 10;
  return are_insert(a, ARE_SONGS, 0, &songs, err) && are_insert(a, ARE_REST, 0, &rest, err) &&
         are_insert(a, ARE_NOTES, 0, &note, err);
}

static void fill_variable(void *rec, const void *arg) {
  are_variable *v = rec;
  (void)arg;
  ARE_SAMPLE_TEXT(v->name, "DRINKS_SERVED");
  v->type = 1, v->int_value = 12;
}

static void fill_tiled(void *rec, const void *arg) {
  are_tiled *t = rec;
  (void)arg;
  ARE_SAMPLE_TEXT(t->name, "Trapdoor");
  ARE_SAMPLE_TEXT(t->tile_id, "TRAPDR");
}

/* The tavern, AR0200.ARE (see the top of the file). */
static int build_tavern(are_area *a, codec_error *err) {
  static const named_spec actors[] = {{"Innkeeper", "INNKEEP", 350, 130}};
  static const named_spec entrances[] = {{"FromTown", NULL, 160, 880}};
  static const named_spec ambients[] = {{"Chatter", "AM_TAVRN", 400, 500}};
  static const region_spec regions[] = {
      {"To Town", ARE_REGION_TRAVEL, 100, 840, 160, 960, "AR0100", "FromTavern", 0},
      {"To Cellar", ARE_REGION_TRAVEL, 1000, 860, 1060, 920, "AR0100", "ToCellar", 0}};
  static const container_spec shelf = {"Shelf", 6, 300, 120, 0u, 0, 0, NULL, {{"POTN08", 1}}};
  static const door_spec doors[] = {
      {"Door0200", "DOOR0200", {120, 860, 140, 940}, {120, 900, 200, 920}, 8, 75, 0u, 0, 0},
      {"Door0201", "DOOR0201", {1150, 380, 1170, 440}, {1150, 400, 1230, 420}, 72, 34, 0x2u, 55, 40},
      {"Door0202", "DOOR0202", {640, 580, 660, 700}, {640, 620, 760, 640}, 40, 52, 0u, 0, 0}};
  unsigned char effect[24];
  are_trap trap;
  size_t k;
  ARE_SAMPLE_TEXT(a->header.wed, "AR0200");
  ARE_SAMPLE_TEXT(a->header.area_script, "AR0200");
  a->header.area_type_flags = 0x80u; /* can_rest_indoors */
  for (k = 0; k < sizeof regions / sizeof regions[0]; k++) {
    are_point p[4];
    rect(p, regions[k].x0, regions[k].y0, regions[k].x1, regions[k].y1);
    if (!add(a, ARE_REGIONS, fill_region, &regions[k], err) ||
        !are_vertices_set(a, ARE_REGIONS, (uint32_t)k, ARE_RUN_OUTLINE, p, 4, err))
      return 0;
  }
  if (!add_container(a, &shelf, err)) return 0;
  for (k = 0; k < 3; k++)
    if (!add_door(a, &doors[k], err)) return 0;
  if (!add_named(a, ARE_ACTORS, fill_actor, NSPECS(actors), err) ||
      !add_named(a, ARE_ENTRANCES, fill_entrance, NSPECS(entrances), err) ||
      !add_named(a, ARE_AMBIENTS, fill_ambient, NSPECS(ambients), err) ||
      !add(a, ARE_VARIABLES, fill_variable, NULL, err) || !add(a, ARE_TILED, fill_tiled, NULL, err))
    return 0;
  for (k = 0; k < sizeof effect; k++) effect[k] = (unsigned char)(k * 5);
  are_record_init(ARE_TRAPS, &trap);
  ARE_SAMPLE_TEXT(trap.projectile, "FIREBALL");
  trap.effect_size = sizeof effect, trap.effect_data = effect;
  trap.missile_id = 100, trap.triggers_remaining = 1, trap.x = 640, trap.y = 660, trap.target_type = 255;
  return are_insert(a, ARE_TRAPS, 0, &trap, err);
}

/* Sample i: the town, then the tavern. */
static int are_sample(size_t i, sample_file *f, codec_error *err) {
  are_area *a = (are_area *)calloc(1, sizeof *a);
  int ok = a != NULL;
  f->name = i == 0 ? "AR0100.ARE" : "AR0200.ARE";
  snprintf(f->what, sizeof f->what, "%s", i == 0 ? "the town of AR0100.WED" : "the tavern of AR0200.WED");
  if (!a) return codec_fail_oom(err, "out of memory");
  ok = (i == 0 ? build_town(a, err) : build_tavern(a, err)) && are_serialize(a, &f->data, &f->size, err);
  are_free(a);
  return ok;
}

int main(int argc, char **argv) {
  sample_set files = {2, are_sample};
  sample_set seeds = {2, are_seed};
  return sample_run(argc, argv, "gen_are_samples", files, seeds, are_reparse);
}
