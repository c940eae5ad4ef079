/*
** tw_functions.c: names for the tile numbers of DDNet's physics layers, so
** nobody has to remember that 9 is freeze or 192 a spawn.
**
**   tw_tile_name('game', 9)        -> 'freeze'
**   tw_tile_id('game', 'freeze')   -> 9
**   tw_tile_name('tele', 26)       -> 'telein'
**   tw_tile_name('game', 26)       -> NULL (not a game tile)
**
** The names are DDNet's enum names of src/game/mapitems.h in lower case
** without their TILE_ or ENTITY_ prefix (TILE_FREEZE 'freeze',
** ENTITY_SPAWN_RED 'spawn_red', placed at ENTITY_OFFSET + n = 191 + n), and
** which layer kind takes which number follows that file's mapitems.cpp
** (IsValidGameTile, IsValidFrontTile, IsValidTeleTile, IsValidSpeedupTile,
** IsValidSwitchTile, IsValidTuneTile), both at ddnet/ddnet commit
** 07dce75656d4d14205149523125d8a81b29fc86f.  Two choices of ours: 0 is
** 'air' in every kind (the empty cell), and the unnamed numbers between
** TILE_TIME_CHECKPOINT_FIRST and _LAST (35..59) are 'time_checkpoint_0'
** to 'time_checkpoint_24', the checkpoint number the game derives from
** them.  Names the enum has but no layer takes (TILE_CREDITS_1..8, drawn
** only on the editor's entities image) are not listed.  README, "SQL
** functions", says the same for users.
*/
#include <string.h>

#include "engine/engine.h"
#include "tw/tw_tables.h"

/* The layer kinds, as bits: which kinds take a number. */
enum { G = 1, F = 2, T = 4, S = 8, W = 16, U = 32 }; /* game front tele speedup switch tune */

typedef struct tile_name {
  unsigned char id;
  unsigned char kinds; /* G|F|...: the layer kinds where DDNet takes this id */
  const char *name;
} tile_name;

/* ENTITY_* values are placed at ENTITY_OFFSET (255 - 16 * 4 = 191) + n. */
#define ENT(n, kinds, name) {191 + (n), (kinds), name}
/* TILE_TIME_CHECKPOINT_FIRST (35) + n, n 0..24: race checkpoint n. */
#define TCP(n) {35 + (n), G | F, "time_checkpoint_" #n}

/* One line per DDNet name, in id order; an id appears twice only where
** two names share it in disjoint kinds (22, 29). */
static const tile_name tile_names[] = {
  {0, G | F | T | S | W | U, "air"},
  {1, G, "solid"}, {2, G | F, "death"}, {3, G, "nohook"}, {4, G | F, "nolaser"},
  {5, G | F, "through_cut"}, {6, G | F, "through"}, {7, W, "jump"}, {9, G | F | W, "freeze"},
  {10, T, "teleinevil"}, {11, G | F, "unfreeze"}, {12, G | F | W, "dfreeze"}, {13, G | F | W, "dunfreeze"},
  {14, T, "teleinweapon"}, {15, T, "teleinhook"}, {16, G | F, "walljump"},
  {17, G | F, "ehook_enable"}, {18, G | F, "ehook_disable"}, {19, G | F | W, "hit_enable"}, {20, G | F | W, "hit_disable"},
  {21, G | F, "solo_enable"}, {22, G | F, "solo_disable"},
  {22, W, "switchtimedopen"}, {23, W, "switchtimedclose"}, {24, W, "switchopen"}, {25, W, "switchclose"},
  {26, T, "telein"}, {27, T, "teleout"}, {28, S, "speed_boost_old"}, {29, S, "speed_boost"},
  {29, T, "telecheck"}, {30, T, "telecheckout"}, {31, T, "telecheckin"},
  {32, G | F, "refill_jumps"}, {33, G | F, "start"}, {34, G | F, "finish"},
  TCP(0), TCP(1), TCP(2), TCP(3), TCP(4), TCP(5), TCP(6), TCP(7), TCP(8), TCP(9), TCP(10), TCP(11), TCP(12),
  TCP(13), TCP(14), TCP(15), TCP(16), TCP(17), TCP(18), TCP(19), TCP(20), TCP(21), TCP(22), TCP(23), TCP(24),
  {60, G | F, "stop"}, {61, G | F, "stops"}, {62, G | F, "stopa"}, {63, T, "telecheckinevil"},
  {64, G | F, "cp"}, {65, G | F, "cp_f"}, {66, G | F, "through_all"}, {67, G | F, "through_dir"},
  {68, U, "tune"}, {69, U, "tune_lock_enable"}, {70, U, "tune_lock_disable"},
  {71, G | F, "oldlaser"}, {72, G | F, "npc"}, {73, G | F, "ehook"}, {74, G | F, "nohit"}, {75, G | F, "nph"},
  {76, G | F, "unlock_team"}, {79, W, "add_time"},
  {88, G | F, "npc_disable"}, {89, G | F, "unlimited_jumps_disable"}, {90, G | F, "jetpack_disable"}, {91, G | F, "nph_disable"},
  {95, W, "subtract_time"}, {96, G | F, "tele_gun_enable"}, {97, G | F, "tele_gun_disable"},
  {98, F | W, "allow_tele_gun"}, {99, F | W, "allow_blue_tele_gun"},
  {104, G | F, "npc_enable"}, {105, G | F, "unlimited_jumps_enable"}, {106, G | F, "jetpack_enable"}, {107, G | F, "nph_enable"},
  {112, G | F, "tele_grenade_enable"}, {113, G | F, "tele_grenade_disable"},
  {128, G | F, "tele_laser_enable"}, {129, G | F, "tele_laser_disable"},
  {144, G | F | W, "lfreeze"}, {145, G | F | W, "lunfreeze"}, {176, W, "env_trigger"}, {177, W, "env_reset_stop"},
  {190, G | F, "entities_off_1"}, {191, G | F, "entities_off_2"},
  /* entities; the switch layer takes those from ENTITY_ARMOR_1 on */
  ENT(1, G | F, "spawn"), ENT(2, G | F, "spawn_red"), ENT(3, G | F, "spawn_blue"),
  ENT(4, G | F, "flagstand_red"), ENT(5, G | F, "flagstand_blue"),
  ENT(6, G | F | W, "armor_1"), ENT(7, G | F | W, "health_1"), ENT(8, G | F | W, "weapon_shotgun"),
  ENT(9, G | F | W, "weapon_grenade"), ENT(10, G | F | W, "powerup_ninja"), ENT(11, G | F | W, "weapon_laser"),
  ENT(12, G | F | W, "laser_fast_ccw"), ENT(13, G | F | W, "laser_normal_ccw"), ENT(14, G | F | W, "laser_slow_ccw"),
  ENT(15, G | F | W, "laser_stop"), ENT(16, G | F | W, "laser_slow_cw"), ENT(17, G | F | W, "laser_normal_cw"),
  ENT(18, G | F | W, "laser_fast_cw"), ENT(19, G | F | W, "laser_short"), ENT(20, G | F | W, "laser_medium"),
  ENT(21, G | F | W, "laser_long"), ENT(22, G | F | W, "laser_c_slow"), ENT(23, G | F | W, "laser_c_normal"),
  ENT(24, G | F | W, "laser_c_fast"), ENT(25, G | F | W, "laser_o_slow"), ENT(26, G | F | W, "laser_o_normal"),
  ENT(27, G | F | W, "laser_o_fast"), ENT(28, G | F | W, "laser_len"),
  ENT(29, G | F | W, "plasmae"), ENT(30, G | F | W, "plasmaf"), ENT(31, G | F | W, "plasma"), ENT(32, G | F | W, "plasmau"),
  ENT(33, G | F | W, "crazy_shotgun_ex"), ENT(34, G | F | W, "crazy_shotgun"),
  ENT(35, G | F | W, "armor_shotgun"), ENT(36, G | F | W, "armor_grenade"), ENT(37, G | F | W, "armor_ninja"),
  ENT(38, G | F | W, "armor_laser"),
  ENT(42, G | F | W, "dragger_weak"), ENT(43, G | F | W, "dragger_normal"), ENT(44, G | F | W, "dragger_strong"),
  ENT(45, G | F | W, "dragger_weak_nw"), ENT(46, G | F | W, "dragger_normal_nw"), ENT(47, G | F | W, "dragger_strong_nw"),
  ENT(49, G | F | W, "door"),
};
#define NUM_TILE_NAMES (sizeof tile_names / sizeof tile_names[0])

/* tw_layers.kind -> its bit; 'tiles' (design layers, whose ids index an
** image) is a kind without names: bit 0. */
static const struct {
  const char *kind;
  unsigned char bit;
} tile_kinds[] = {{"game", G}, {"front", F}, {"tele", T}, {"speedup", S}, {"switch", W}, {"tune", U}, {"tiles", 0}};

/* Looks up the layer kind in v (case-insensitive): 1 with its bit in
** *bit; or 0 with the result set for fn: NULL for a NULL kind, else an
** error naming the kinds. */
static int find_kind(sqlite3_context *ctx, const char *fn, sqlite3_value *v, unsigned *bit) {
  const char *kind = (const char *)sqlite3_value_text(v);
  size_t k;
  char *msg;
  if (sqlite3_value_type(v) == SQLITE_NULL) return 0;
  if (!kind) {
    sqlite3_result_error_nomem(ctx);
    return 0;
  }
  for (k = 0; k < sizeof tile_kinds / sizeof tile_kinds[0]; k++) {
    if (sqlite3_stricmp(tile_kinds[k].kind, kind) == 0) {
      *bit = tile_kinds[k].bit;
      return 1;
    }
  }
  msg = sqlite3_mprintf("%s: unknown layer kind '%s'; known: game, front, tele, speedup, switch, tune "
                        "(and tiles, whose ids have no names)", fn, kind);
  if (msg) sqlite3_result_error(ctx, msg, -1);
  else sqlite3_result_error_nomem(ctx);
  sqlite3_free(msg);
  return 0;
}

/* tw_tile_name(kind, id): DDNet's name for tile id in a layer of that kind
** ('freeze' for ('game', 9)); NULL when the kind takes no tile of that
** number (any integer outside 0..255 too), for 'tiles' layers, and for a
** NULL argument.  An id that is not an integer, or an unknown kind, is an
** error. */
static void tile_name_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  unsigned bit = 0;
  sqlite3_int64 id;
  size_t i;
  (void)argc;
  if (!find_kind(ctx, "tw_tile_name", argv[0], &bit) || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  if (sqlite3_value_numeric_type(argv[1]) != SQLITE_INTEGER) {
    sqlite3_result_error(ctx, "tw_tile_name: id is a tile index, an integer (0 to 255 have names)", -1);
    return;
  }
  id = sqlite3_value_int64(argv[1]);
  for (i = 0; i < NUM_TILE_NAMES; i++) {
    if (tile_names[i].id == id && (tile_names[i].kinds & bit)) {
      sqlite3_result_text(ctx, tile_names[i].name, -1, SQLITE_STATIC);
      return;
    }
  }
}

/* tw_tile_id(kind, name): the reverse (9 for ('game', 'freeze'); names in
** any case).  NULL when the name is DDNet's but this kind does not take it
** (('tele', 'freeze'), every name for 'tiles'), so one expression can run
** over layers of every kind; and for a NULL argument.  A name no kind
** has is an error that says where the names are listed: a typo must not
** silently match nothing. */
static void tile_id_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  unsigned bit = 0;
  const char *name;
  size_t i;
  int known = 0;
  char *msg;
  (void)argc;
  if (!find_kind(ctx, "tw_tile_id", argv[0], &bit) || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  name = (const char *)sqlite3_value_text(argv[1]);
  if (!name) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  for (i = 0; i < NUM_TILE_NAMES; i++) {
    if (sqlite3_stricmp(tile_names[i].name, name) != 0) continue;
    if (tile_names[i].kinds & bit) {
      sqlite3_result_int(ctx, tile_names[i].id);
      return;
    }
    known = 1;
  }
  if (known) return;
  msg = sqlite3_mprintf("tw_tile_id: no layer kind has a tile named '%s'; the names are DDNet's TILE_ and ENTITY_ "
                        "names (src/game/mapitems.h) in lower case without the prefix, e.g. 'freeze', 'spawn_red'; "
                        "README, SQL functions, lists them, and tw_tile_name(kind, 0..255) gives them",
                        name);
  if (msg) sqlite3_result_error(ctx, msg, -1);
  else sqlite3_result_error_nomem(ctx);
  sqlite3_free(msg);
}

/* Registers tw_tile_name and tw_tile_id on db (from levelsql.c). */
int tw_functions_register(sqlite3 *db) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "tw_tile_name", 2, flags, NULL, tile_name_func, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "tw_tile_id", 2, flags, NULL, tile_id_func, NULL, NULL);
  return rc;
}
