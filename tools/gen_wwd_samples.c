/*
** gen_wwd_samples.c: writes a small set of sample WWD levels, built only
** with the codec's writer (wwd_level_new, the edit functions,
** wwd_serialize), for `make samples` (tools/gen_samples.sh), the demo, the
** cookbooks and the tests.  Usage: gen_wwd_samples OUTDIR
**
** The levels imitate the shape of real ones (see ../shared/formats/wwd.md):
** Claw-like levels with Background / Action / Front planes, Claw's z values
** and wrap flags, logics such as Officer, Soldier, Rat, TreasurePowerup,
** Checkpoint, crates, and single + double tile properties; a Gruntz-like
** level (AREA image dir, one 32x32 plane, 910 single tile properties); a
** level with mask tile properties and objects on a non-main plane; a tiny
** Get Medieval-like one.  Two of them are compressed.  Object counts and
** logic mixes differ per level, so GROUP BY queries have something to show.
** Some decorations are drawn mirrored, and one level has the editing
** accidents sql/wwd_cookbook.sql looks for (an object above its plane, an
** enemy outside its patrol range).
**
** `gen_wwd_samples --fuzz OUTDIR` writes the seeds of test/fuzz/run.sh
** instead: levels of 2 to 4 KB that still hold every section kind (a
** compressed and an uncompressed Claw-like level with three planes, tiles,
** objects on two planes, two image sets on the main plane, single, double
** and mask tile properties; a Gruntz-like and a Get Medieval-like one),
** and the hostile ones of issue 24: a level whose header claims a
** decompressed size beyond the codec's cap, one whose claim is within the
** cap but more than its zlib stream holds, and a real zlib bomb (a 1 MB
** main block in 1 KB of zlib, 2.6 KB with the header).
**
** Deterministic: a fixed 64-bit LCG per level, no rand(), no clock.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bytes.h"
#include "samples.h"
#include "wwd/wwd.h"

#define DRAW_MIRROR 0x2 /* object draw flag "mirror" (wwd_flag_names('draw', 2)) */

/* A fixed linear congruential generator (Knuth's MMIX constants). */
typedef struct lcg {
  uint64_t s;
} lcg;

/* Next 31 random bits. */
static uint32_t lcg_next(lcg *g) {
  g->s = g->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(g->s >> 33);
}

/* A number in [lo, hi] (hi >= lo). */
static int32_t lcg_range(lcg *g, int32_t lo, int32_t hi) {
  return lo + (int32_t)(lcg_next(g) % (uint32_t)(hi - lo + 1));
}

/* One kind of object a level may contain, with its relative frequency. */
typedef struct logic_kind {
  const char *logic;
  const char *image_set;
  const char *animation;
  int weight;
  int kind; /* 0 decoration, 1 enemy, 2 treasure, 3 health, 4 trigger, 5 checkpoint, 6 crate, 7 elevator */
} logic_kind;

static const logic_kind claw_logics[] = {
    {"BehindAniCandy", "LEVEL_MANICAL1", "LEVEL_MANICALS_MANICAL", 30, 0},
    {"GlitterlessPowerup", "GAME_TREASURE_COINS", "", 22, 2},
    {"TreasurePowerup", "GAME_TREASURE_CHALICES_PURPLE", "", 12, 2},
    {"TreasurePowerup", "GAME_TREASURE_RINGS_RED", "", 6, 2},
    {"CrumblingPeg", "LEVEL_CRUMBLINGPEG", "", 6, 0},
    {"PowderKeg", "LEVEL_POWDERKEG", "", 5, 0},
    {"Officer", "LEVEL_OFFICER", "", 5, 1},
    {"Soldier", "LEVEL_SOLDIER", "", 5, 1},
    {"Rat", "LEVEL_RAT", "", 3, 1},
    {"HealthPowerup", "GAME_HEALTH_BREADWATER", "", 3, 3},
    {"FrontCrate", "LEVEL_CRATES", "", 3, 6},
    {"BackStackedCrates", "LEVEL_CRATES", "", 2, 6},
    {"SoundTrigger", "GAME_SOUNDICON", "LEVEL_TRIGGER_PUDDLE2", 3, 4},
    {"Elevator", "LEVEL_ELEVATORS", "", 2, 7},
    {"TogglePeg", "LEVEL_PEG", "", 2, 0},
    {"Checkpoint", "GAME_CHECKPOINTFLAG", "", 1, 5},
};

static const logic_kind gruntz_logics[] = {
    {"TileTrigger", "GAME_WAPWORLDONLY_TRIGGER", "", 30, 4},
    {"EyeCandy", "LEVEL_TREE1", "", 14, 0},
    {"TileTriggerSwitch", "GAME_WAPWORLDONLY_SWITCH", "", 10, 4},
    {"Brickz", "GAME_WAPWORLDONLY_BRICK", "", 6, 6},
    {"CoveredPowerup", "GAME_WAPWORLDONLY_TRIGGER", "", 5, 2},
    {"BehindCandy", "LEVEL_GRASS1", "", 4, 0},
    {"GruntStartingPoint", "GAME_WAPWORLDONLY_TRIGGER", "", 2, 5},
    {"RollingBall", "LEVEL_ROLLINGBALL_SOUTH", "", 2, 1},
    {"GlobalAmbientSound", "GAME_WAPWORLDONLY_VOICE", "LEVEL_AMBIENT_GOO", 1, 4},
};

static const logic_kind medieval_logics[] = {
    {"Skeleton", "LEVEL_SKELETON", "", 6, 1},
    {"Treasure", "GAME_TREASURE_GOLD", "", 8, 2},
    {"Food", "GAME_FOOD", "", 3, 3},
    {"Door", "LEVEL_DOOR", "", 2, 0},
    {"Key", "GAME_KEY", "", 2, 2},
};

/* What one sample level looks like. */
typedef struct sample_spec {
  const char *file;
  const char *name;
  int game; /* 0 claw, 1 gruntz, 2 get medieval */
  int level_no;
  int compress;
  uint32_t tiles_wide, tiles_high; /* main plane */
  int objects;                     /* on the main plane */
  int front_objects;               /* on the Front plane (non-main) */
  int singles, doubles, masks;     /* tile properties */
  uint64_t seed;
  int accidents; /* add the editing accidents the cookbook's checks find */
  int small;     /* a fuzz seed: 8-pixel tiles on every plane (8x8 masks), the Background and
                 ** Front planes as small as the main one, a second image set on the main plane */
} sample_spec;

static const sample_spec samples[] = {
    {"SAMPLE01.WWD", "Claw - Sample 1", 0, 1, 0, 160, 48, 320, 0, 48, 8, 0, 1, 0, 0},
    {"SAMPLE02.WWD", "Claw - Sample 2", 0, 2, 1, 200, 60, 450, 0, 60, 12, 0, 2, 1, 0},
    {"SAMPLE03.WWD", "Gruntz - Sample 1", 1, 1, 1, 60, 40, 260, 0, 910, 0, 0, 3, 0, 0},
    {"SAMPLE04.WWD", "Claw - Sample 3", 0, 3, 0, 120, 40, 180, 12, 40, 10, 2, 4, 0, 0},
    {"SAMPLE05.WWD", "Get Medieval - Sample 1", 2, 1, 0, 40, 30, 60, 0, 16, 0, 0, 5, 0, 0},
};

/* The fuzz seeds built from a spec (`--fuzz`); the hostile ones follow
** them (see wwd_seed). */
static const sample_spec seed_specs[] = {
    {"FUZZ_C.WWD", "Claw - fuzz seed", 0, 1, 1, 6, 5, 5, 2, 2, 2, 1, 11, 1, 1},
    {"FUZZ_U.WWD", "Claw - fuzz seed", 0, 2, 0, 6, 5, 5, 2, 2, 2, 1, 12, 1, 1},
    {"FUZZ_G.WWD", "Gruntz - fuzz seed", 1, 1, 0, 5, 4, 4, 0, 3, 0, 0, 13, 0, 1},
    {"FUZZ_M.WWD", "Get Medieval - fuzz seed", 2, 1, 1, 4, 3, 3, 0, 2, 0, 0, 14, 0, 1},
};

/* Stores a C string into a fixed-size header field (truncated if needed). */
static void put_str(unsigned char *field, size_t size, const char *s) {
  size_t n = strlen(s);
  if (n >= size) n = size - 1;
  wwd_fixed_string_set(field, size, (const unsigned char *)s, n);
}

/* Gives a plane one image-set name.  Returns 0 when out of memory. */
static int set_plane_image_set(wwd_plane *p, const char *name) {
  p->image_sets = (wwd_bytes *)calloc(1, sizeof(wwd_bytes));
  if (!p->image_sets) return 0;
  p->num_image_sets = 1;
  return wwd_bytes_set(&p->image_sets[0], (const unsigned char *)name, strlen(name));
}

/* Gives a plane two image-set names.  Returns 0 when out of memory. */
static int set_plane_image_sets(wwd_plane *p, const char *first, const char *second) {
  p->image_sets = (wwd_bytes *)calloc(2, sizeof(wwd_bytes));
  if (!p->image_sets) return 0;
  p->num_image_sets = 2;
  return wwd_bytes_set(&p->image_sets[0], (const unsigned char *)first, strlen(first)) &&
         wwd_bytes_set(&p->image_sets[1], (const unsigned char *)second, strlen(second));
}

/* Picks a logic by weight. */
static const logic_kind *pick(lcg *g, const logic_kind *kinds, size_t n) {
  int total = 0, r;
  size_t i;
  for (i = 0; i < n; i++) total += kinds[i].weight;
  r = lcg_range(g, 0, total - 1);
  for (i = 0; i < n; i++) {
    if (r < kinds[i].weight) return &kinds[i];
    r -= kinds[i].weight;
  }
  return &kinds[n - 1];
}

/* Appends one object of the given kind at a random spot of a plane of
** px_w x px_h pixels, with the fields its kind uses filled in plausibly.
** Returns 0 when out of memory. */
static int add_object(wwd_level *lvl, uint32_t plane, lcg *g, const logic_kind *k, int32_t id,
                      int32_t px_w, int32_t px_h) {
  long idx = wwd_object_append(lvl, plane);
  wwd_object *o;
  int32_t x, y, margin = px_w > 128 && px_h > 128 ? 32 : 0; /* none on a fuzz seed's small planes */
  if (idx < 0) return 0;
  o = &lvl->planes[plane].objects[idx];
  x = lcg_range(g, margin, px_w - margin);
  y = lcg_range(g, margin, px_h - margin);
  o->field[WWD_OBJ_ID] = id;
  o->field[WWD_OBJ_X] = x;
  o->field[WWD_OBJ_Y] = y;
  o->field[WWD_OBJ_I] = -1;
  switch (k->kind) {
    case 0:
      o->field[WWD_OBJ_Z] = lcg_range(g, 0, 3) * 1000;
      o->field[WWD_OBJ_DRAW_FLAGS] = id % 4 == 0 ? DRAW_MIRROR : 0; /* not from g: the rest stays as it was */
      break;
    case 1: {
      static const int32_t hp[] = {25, 20, 5, 30, 12};
      o->field[WWD_OBJ_Z] = 4000;
      o->field[WWD_OBJ_HEALTH] = hp[lcg_range(g, 0, 4)];
      o->field[WWD_OBJ_DAMAGE] = lcg_range(g, 5, 20);
      o->field[WWD_OBJ_MIN_X] = x - lcg_range(g, 20, 200);
      o->field[WWD_OBJ_MAX_X] = x + lcg_range(g, 20, 300);
      o->field[WWD_OBJ_SPEED] = lcg_range(g, 0, 3) == 0 ? -lcg_range(g, 1, 200) : 0;
      o->field[WWD_OBJ_OBJECT_TYPE] = 4; /* enemy */
      break;
    }
    case 2: {
      static const int32_t score[] = {100, 500, 1500, 2500, 5000};
      o->field[WWD_OBJ_SCORE] = score[lcg_range(g, 0, 4)];
      o->field[WWD_OBJ_OBJECT_TYPE] = 8; /* powerup */
      break;
    }
    case 3:
      o->field[WWD_OBJ_HEALTH] = lcg_range(g, 1, 4) * 5;
      o->field[WWD_OBJ_POWERUP] = 1;
      o->field[WWD_OBJ_OBJECT_TYPE] = 8;
      break;
    case 4:
      o->field[WWD_OBJ_Z] = 9000;
      o->field[WWD_OBJ_ATTACK_RECT_LEFT] = x - 30;
      o->field[WWD_OBJ_ATTACK_RECT_TOP] = y - 200;
      o->field[WWD_OBJ_ATTACK_RECT_RIGHT] = x + 30;
      o->field[WWD_OBJ_ATTACK_RECT_BOTTOM] = y + 35;
      o->field[WWD_OBJ_SMARTS] = lcg_range(g, 0, 2) == 0 ? -1 : 150;
      break;
    case 5: o->field[WWD_OBJ_SMARTS] = 1; break;
    case 6:
      o->field[WWD_OBJ_Z] = 5000;
      o->field[WWD_OBJ_POWERUP] = lcg_range(g, 0, 1) ? 33 : 0;
      o->field[WWD_OBJ_USER1] = lcg_range(g, 0, 2) ? 1 : 0;
      break;
    case 7:
      o->field[WWD_OBJ_Z] = 2000;
      o->field[WWD_OBJ_MIN_Y] = y - 200;
      o->field[WWD_OBJ_MAX_Y] = y;
      o->field[WWD_OBJ_SPEED_X] = 0;
      o->field[WWD_OBJ_SPEED_Y] = 200;
      break;
    default: break;
  }
  if (!wwd_bytes_set(&o->str[WWD_STR_LOGIC], (const unsigned char *)k->logic, strlen(k->logic)) ||
      !wwd_bytes_set(&o->str[WWD_STR_IMAGE_SET], (const unsigned char *)k->image_set, strlen(k->image_set)) ||
      !wwd_bytes_set(&o->str[WWD_STR_ANIMATION], (const unsigned char *)k->animation, strlen(k->animation)))
    return 0;
  if (k->kind == 5) {
    static const char cp[] = "Checkpoint";
    if (!wwd_bytes_set(&o->str[WWD_STR_NAME], (const unsigned char *)cp, sizeof cp - 1)) return 0;
  }
  return 1;
}

/* Fills a plane's tiles: an action plane gets solid ground rows, a few
** platforms and the filled value in the rock; a decorative plane random
** tiles from a small set with holes. */
static void fill_tiles(wwd_plane *p, lcg *g, int action) {
  uint32_t x, y;
  for (y = 0; y < p->tiles_high; y++) {
    for (x = 0; x < p->tiles_wide; x++) {
      uint32_t *t = &p->tiles[(size_t)y * p->tiles_wide + x];
      if (action) {
        if (y + 3 >= p->tiles_high) *t = y + 3 == p->tiles_high ? 1 + lcg_next(g) % 4 : WWD_TILE_FILLED;
        else if (lcg_range(g, 0, 19) == 0) *t = 5 + lcg_next(g) % 20;
        else *t = WWD_TILE_INVISIBLE;
      } else {
        *t = lcg_range(g, 0, 5) == 0 ? WWD_TILE_INVISIBLE : 100 + lcg_next(g) % 30;
      }
    }
  }
}

/* Claw's Background (z -999, wraps both ways, plane 0) and Front (z 9000,
** wraps in x, plane 2) around the Action plane, with their tiles and
** image sets.  0 when out of memory. */
static int add_side_planes(wwd_level *lvl, lcg *g, uint32_t side_wide, uint32_t back_high, uint32_t front_high,
                           uint32_t side_tile) {
  if (!wwd_plane_insert(lvl, 0, side_wide, back_high, side_tile, side_tile) ||
      !wwd_plane_insert(lvl, 2, side_wide, front_high, side_tile, side_tile))
    return 0;
  put_str(lvl->planes[0].header + WWD_PLANE_NAME, 64, "Background");
  le32_store(lvl->planes[0].header + WWD_PLANE_FLAGS, WWD_PLANE_WRAP_X | WWD_PLANE_WRAP_Y);
  le32_store(lvl->planes[0].header + WWD_PLANE_Z, (uint32_t)-999);
  le32_store(lvl->planes[0].header + WWD_PLANE_MOVEMENT_X, 50);
  le32_store(lvl->planes[0].header + WWD_PLANE_MOVEMENT_Y, 50);
  le32_store(lvl->planes[0].header + WWD_PLANE_FILL_COLOR, 50);
  put_str(lvl->planes[2].header + WWD_PLANE_NAME, 64, "Front");
  le32_store(lvl->planes[2].header + WWD_PLANE_FLAGS, WWD_PLANE_WRAP_X);
  le32_store(lvl->planes[2].header + WWD_PLANE_Z, 9000);
  le32_store(lvl->planes[2].header + WWD_PLANE_MOVEMENT_X, 150);
  le32_store(lvl->planes[2].header + WWD_PLANE_MOVEMENT_Y, 125);
  le32_store(lvl->planes[2].header + WWD_PLANE_FILL_COLOR, 50);
  fill_tiles(&lvl->planes[0], g, 0);
  fill_tiles(&lvl->planes[2], g, 0);
  return set_plane_image_set(&lvl->planes[0], "BACK") && set_plane_image_set(&lvl->planes[2], "FRONT");
}

/* Header strings like the real games' (Claw, Gruntz, or the third game's
** dungeons), and the logic mix of that game in *kinds, *nkinds. */
static void set_header_strings(wwd_level *lvl, const sample_spec *s, const logic_kind **kinds, size_t *nkinds) {
  char buf[128];
  put_str(lvl->header + WWD_HDR_NAME, 64, s->name);
  put_str(lvl->header + WWD_HDR_AUTHOR, 64, "levelsql gen_samples");
  put_str(lvl->header + WWD_HDR_BIRTH, 64, "November 22, 2026");
  if (s->game == 0) {
    put_str(lvl->header + WWD_HDR_REZ_FILE, 256, "..\\CLAW.REZ");
    snprintf(buf, sizeof buf, "\\LEVEL%d\\TILES", s->level_no);
    put_str(lvl->header + WWD_HDR_IMAGE_DIR, 128, buf);
    snprintf(buf, sizeof buf, "\\LEVEL%d\\PALETTES\\MAIN.PAL", s->level_no);
    put_str(lvl->header + WWD_HDR_PAL_REZ, 128, buf);
    put_str(lvl->header + WWD_HDR_LAUNCH_APP, 128, "..\\CLAW.EXE");
    snprintf(buf, sizeof buf, "LEVEL%d\\IMAGES", s->level_no);
    put_str(lvl->header + WWD_HDR_IMAGE_SET1, 128, buf);
    put_str(lvl->header + WWD_HDR_IMAGE_SET2, 128, "GAME\\IMAGES");
    *kinds = claw_logics;
    *nkinds = sizeof claw_logics / sizeof claw_logics[0];
  } else if (s->game == 1) {
    put_str(lvl->header + WWD_HDR_REZ_FILE, 256, "C:\\GAMES\\GRUNTZ\\GRUNTZ.REZ");
    snprintf(buf, sizeof buf, "\\AREA%d\\TILEZ", s->level_no);
    put_str(lvl->header + WWD_HDR_IMAGE_DIR, 128, buf);
    put_str(lvl->header + WWD_HDR_LAUNCH_APP, 128, "C:\\GAMES\\GRUNTZ\\GRUNTZ.EXE");
    snprintf(buf, sizeof buf, "AREA%d\\IMAGEZ", s->level_no);
    put_str(lvl->header + WWD_HDR_IMAGE_SET1, 128, buf);
    put_str(lvl->header + WWD_HDR_IMAGE_SET2, 128, "GAME\\IMAGEZ");
    *kinds = gruntz_logics;
    *nkinds = sizeof gruntz_logics / sizeof gruntz_logics[0];
  } else {
    snprintf(buf, sizeof buf, "\\DUNGEON%d\\TILES", s->level_no);
    put_str(lvl->header + WWD_HDR_IMAGE_DIR, 128, buf);
    snprintf(buf, sizeof buf, "DUNGEON%d\\IMAGES", s->level_no);
    put_str(lvl->header + WWD_HDR_IMAGE_SET1, 128, buf);
    put_str(lvl->header + WWD_HDR_IMAGE_SET2, 128, "GAME\\IMAGES");
    *kinds = medieval_logics;
    *nkinds = sizeof medieval_logics / sizeof medieval_logics[0];
  }
  put_str(lvl->header + WWD_HDR_PREFIX1, 32, "LEVEL");
  put_str(lvl->header + WWD_HDR_PREFIX2, 32, "GAME");
}

/* Objects of the main plane: first a start point (the game's checkpoint
** kind, if it has one), then the weighted mix; then the editing accidents
** real levels have (the last object pushed above the plane's top edge, an
** Officer standing right of his patrol range); then the Front plane's
** decorations.  *id numbers them.  0 when out of memory. */
static int add_sample_objects(wwd_level *lvl, const sample_spec *s, lcg *g, uint32_t main_plane,
                              const logic_kind *kinds, size_t nkinds, int32_t *id, int32_t px_w, int32_t px_h,
                              int32_t front_w, int32_t front_h) {
  int k;
  for (k = 0; k < s->objects; k++) {
    const logic_kind *kind = NULL;
    size_t j;
    if (k == 0)
      for (j = 0; j < nkinds && !kind; j++)
        if (kinds[j].kind == 5) kind = &kinds[j];
    if (!kind) kind = pick(g, kinds, nkinds);
    if (!add_object(lvl, main_plane, g, kind, (*id)++, px_w, px_h)) return 0;
  }
  if (s->accidents) {
    static const logic_kind stray = {"Officer", "LEVEL_OFFICER", "", 1, 1};
    wwd_plane *p = &lvl->planes[main_plane];
    wwd_object *o;
    if (p->num_objects) p->objects[p->num_objects - 1].field[WWD_OBJ_Y] = -48;
    if (!add_object(lvl, main_plane, g, &stray, (*id)++, px_w, px_h)) return 0;
    o = &p->objects[p->num_objects - 1];
    o->field[WWD_OBJ_X] = o->field[WWD_OBJ_MAX_X] + 96;
  }
  if (s->front_objects && lvl->num_planes > 2) {
    static const logic_kind front = {"FrontCandy", "LEVEL_ARCHESFRONT", "", 1, 0};
    for (k = 0; k < s->front_objects; k++) {
      if (!add_object(lvl, 2, g, &front, (*id)++, front_w, front_h)) return 0;
      lvl->planes[2].objects[k].field[WWD_OBJ_Z] = 9500;
    }
  }
  return 1;
}

/* Tile properties: index = tile id; singles (clear/solid/ground/climb/death),
** doubles with a ground strip on top, masks of tile x tile attribute bytes
** (a slope).  0 when out of memory. */
static int add_tile_properties(wwd_level *lvl, const sample_spec *s, lcg *g, uint32_t tile) {
  uint32_t i;
  for (i = 0; i < (uint32_t)(s->singles + s->doubles + s->masks); i++) {
    uint32_t type = i < (uint32_t)s->singles ? WWD_TILE_SINGLE
                    : i < (uint32_t)(s->singles + s->doubles) ? WWD_TILE_DOUBLE
                                                               : WWD_TILE_MASK;
    long t = wwd_tile_property_append(lvl, type, tile, tile);
    wwd_tile_property *tp;
    if (t < 0) return 0;
    tp = &lvl->tile_properties[t];
    if (type == WWD_TILE_SINGLE) {
      tp->attribute = i == 0 ? 0 : lcg_range(g, 0, 9) < 5 ? 0 : lcg_range(g, 1, 4);
    } else if (type == WWD_TILE_DOUBLE) {
      tp->attribute = 0;
      tp->inside_attribute = lcg_range(g, 1, 3);
      tp->rect[0] = 0;
      tp->rect[1] = 0;
      tp->rect[2] = (int32_t)tile - 1;
      tp->rect[3] = lcg_range(g, 4, 31);
    } else {
      uint32_t y, x;
      for (y = 0; y < tp->height; y++)
        for (x = 0; x < tp->width; x++)
          tp->mask[y * tp->width + x] = (unsigned char)(y + x >= tp->width ? 1 : 0);
    }
  }
  return 1;
}

/* Builds one sample level according to its spec.  NULL when out of memory. */
static wwd_level *build(const sample_spec *s) {
  lcg g;
  wwd_level *lvl;
  uint32_t main_plane = 0, tile = s->small ? 8 : s->game == 1 ? 32 : 64;
  /* the Background and Front planes: 24 x 24 and 24 x 60 tiles of 64 pixels */
  uint32_t side_tile = s->small ? tile : 64, side_wide = s->small ? s->tiles_wide : 24;
  uint32_t back_high = s->small ? s->tiles_high : 24, front_high = s->small ? s->tiles_high : 60;
  const logic_kind *kinds;
  size_t nkinds;
  int32_t id = 1, px_w, px_h;
  g.s = s->seed * 0x9E3779B97F4A7C15ull + 12345;
  lvl = wwd_level_new(s->tiles_wide, s->tiles_high, tile, tile);
  if (!lvl) return NULL;
  if (s->game == 0) {
    if (!add_side_planes(lvl, &g, side_wide, back_high, front_high, side_tile)) goto fail;
    main_plane = 1;
  }
  fill_tiles(&lvl->planes[main_plane], &g, 1);
  le32_store(lvl->planes[main_plane].header + WWD_PLANE_FILL_COLOR, s->game == 1 ? 128 : 50);
  if (s->small ? !set_plane_image_sets(&lvl->planes[main_plane], "ACTION", "ACTION2")
              : !set_plane_image_set(&lvl->planes[main_plane], "ACTION"))
    goto fail;
  set_header_strings(lvl, s, &kinds, &nkinds);
  le32_store(lvl->header + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS | (s->compress ? WWD_FLAG_COMPRESS : 0));
  px_w = (int32_t)(s->tiles_wide * tile);
  px_h = (int32_t)(s->tiles_high * tile);
  le32_store(lvl->header + WWD_HDR_START_X, (uint32_t)lcg_range(&g, 100, 400));
  le32_store(lvl->header + WWD_HDR_START_Y, (uint32_t)(px_h - 4 * (int32_t)tile));
  if (!add_sample_objects(lvl, s, &g, main_plane, kinds, nkinds, &id, px_w, px_h, (int32_t)(side_wide * side_tile),
                          (int32_t)(front_high * side_tile)) ||
      !add_tile_properties(lvl, s, &g, tile))
    goto fail;
  return lvl;
fail:
  wwd_free(lvl);
  return NULL;
}

/* Reads a written level back with the codec (sample_write's check). */
static int wwd_reparse(const unsigned char *data, size_t size, codec_error *err) {
  wwd_level *lvl = NULL;
  int ok = wwd_parse(data, size, &lvl, err);
  wwd_free(lvl);
  return ok;
}

/* The level of spec s, built and serialized into f. */
static int build_file(const sample_spec *s, sample_file *f, codec_error *err) {
  wwd_level *lvl = build(s);
  uint32_t p, objects = 0;
  int ok;
  f->name = s->file;
  if (!lvl) return codec_fail(err, "out of memory");
  for (p = 0; p < lvl->num_planes; p++) objects += lvl->planes[p].num_objects;
  ok = wwd_serialize(lvl, &f->data, &f->size, err);
  snprintf(f->what, sizeof f->what, "%s, %u planes, %u objects, %u tile properties",
           s->compress ? "compressed" : "uncompressed", lvl->num_planes, objects, lvl->num_tile_properties);
  wwd_free(lvl);
  return ok;
}

/* Sample i: samples[i] (sample_run's build function). */
static int wwd_sample(size_t i, sample_file *f, codec_error *err) {
  return build_file(&samples[i], f, err);
}

/* The zlib bomb: one 512 x 512 plane of invisible tiles, compressed, a
** 1 MB main block in about 1 KB (deflate's ratio is near its limit of
** 1032:1, which the codec's plausibility check allows; bigger, each run of
** it would take the fuzzer longer than a hundred small levels). */
static int build_bomb(sample_file *f, codec_error *err) {
  wwd_level *lvl = wwd_level_new(512, 512, 64, 64);
  int ok;
  if (!lvl) return codec_fail(err, "out of memory");
  le32_store(lvl->header + WWD_HDR_FLAGS, WWD_FLAG_USE_Z_COORDS | WWD_FLAG_COMPRESS);
  ok = wwd_serialize(lvl, &f->data, &f->size, err);
  wwd_free(lvl);
  snprintf(f->what, sizeof f->what, "hostile: a 1 MB main block in 1 KB of zlib");
  return ok;
}

/* Fuzz seed i (sample_run's build function for --fuzz): seed_specs, then
** FUZZ_CLAIM_HUGE.WWD (FUZZ_C.WWD claiming 0xFFFFFFF0 decompressed bytes:
** refused by the cap before any allocation), FUZZ_CLAIM_SHORT.WWD
** (claiming the most its stream could plausibly hold, far more than it
** does: refused after inflating), FUZZ_BOMB.WWD (build_bomb). */
static int wwd_seed(size_t i, sample_file *f, codec_error *err) {
  const size_t n = sizeof seed_specs / sizeof seed_specs[0];
  uint32_t claim;
  if (i < n) return build_file(&seed_specs[i], f, err);
  if (i == n + 2) {
    f->name = "FUZZ_BOMB.WWD";
    return build_bomb(f, err);
  }
  if (!build_file(&seed_specs[0], f, err)) return 0;
  f->name = i == n ? "FUZZ_CLAIM_HUGE.WWD" : "FUZZ_CLAIM_SHORT.WWD";
  f->check = SAMPLE_REFUSED;
  /* the stream's plausible maximum: 1032 bytes per byte plus 1 KB of slack */
  claim = i == n ? 0xFFFFFFF0u : (uint32_t)((f->size - WWD_HEADER_SIZE) * 1032u + 1024u);
  le32_store(f->data + WWD_HDR_DECOMPRESSED_SIZE, claim);
  snprintf(f->what, sizeof f->what, "hostile: claims %u decompressed bytes", (unsigned)claim);
  return 1;
}

int main(int argc, char **argv) {
  sample_set files = {sizeof samples / sizeof samples[0], wwd_sample};
  sample_set seeds = {sizeof seed_specs / sizeof seed_specs[0] + 3, wwd_seed};
  return sample_run(argc, argv, "gen_wwd_samples", files, seeds, wwd_reparse);
}
