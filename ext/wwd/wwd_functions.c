/*
** wwd_functions.c: SQL helpers so nobody has to remember WWD bit masks.
**
**   wwd_flag_names('draw', 6)            -> 'mirror|invert'
**   wwd_flag_value('draw', 'mirror|invert') -> 6
**   wwd_flag_names('attribute', 1)       -> 'solid'
**
** Kinds: level, plane, add, dynamic, draw, user, object_type, hit_type
** (bit sets) and attribute (a single value).  Unknown bits come out as hex.
*/
#include <string.h>

#include "engine/engine.h"
#include "wwd/wwd_tables.h"

static const ls_flag_name level_flags[] = {{0x1, "use_z_coords"}, {0x2, "compress"}, {0, NULL}};
static const ls_flag_name plane_flags[] = {
  {0x01, "main"}, {0x02, "no_draw"}, {0x04, "wrap_x"}, {0x08, "wrap_y"}, {0x10, "auto_tile_size"}, {0, NULL}};
static const ls_flag_name add_flags[] = {
  {0x01, "difficult"}, {0x02, "eye_candy"}, {0x04, "high_detail"}, {0x08, "multiplayer"},
  {0x10, "extra_memory"}, {0x20, "fast_cpu"}, {0, NULL}};
static const ls_flag_name dynamic_flags[] = {
  {0x1, "no_hit"}, {0x2, "always_active"}, {0x4, "safe"}, {0x8, "auto_hit_damage"}, {0, NULL}};
static const ls_flag_name draw_flags[] = {{0x1, "no_draw"}, {0x2, "mirror"}, {0x4, "invert"}, {0x8, "flash"}, {0, NULL}};
static const ls_flag_name user_flags[] = {
  {0x001, "flag1"}, {0x002, "flag2"}, {0x004, "flag3"}, {0x008, "flag4"}, {0x010, "flag5"}, {0x020, "flag6"},
  {0x040, "flag7"}, {0x080, "flag8"}, {0x100, "flag9"}, {0x200, "flag10"}, {0x400, "flag11"}, {0x800, "flag12"},
  {0, NULL}};
/* user3 is 0x300 (user1|user2) in the editor, so it is matched first; 'all'
** is the special value 0xFFFFFFFF. */
static const ls_flag_name hit_types[] = {
  {0xFFFFFFFFu, "all"}, {0x300, "user3"}, {0x001, "generic"}, {0x002, "player"}, {0x004, "enemy"},
  {0x008, "powerup"}, {0x010, "shot"}, {0x020, "pshot"}, {0x040, "eshot"}, {0x080, "special"},
  {0x100, "user1"}, {0x200, "user2"}, {0x400, "user4"}, {0, NULL}};
static const ls_flag_name attributes[] = {
  {0, "clear"}, {1, "solid"}, {2, "ground"}, {3, "climb"}, {4, "death"}, {0, NULL}};

typedef struct flag_kind {
  const char *kind;
  const ls_flag_name *names;
  int single_value; /* object_type and attribute are values, not bit sets */
} flag_kind;

static const flag_kind flag_kinds[] = {
  {"level", level_flags, 0}, {"plane", plane_flags, 0}, {"add", add_flags, 0},
  {"dynamic", dynamic_flags, 0}, {"draw", draw_flags, 0}, {"user", user_flags, 0},
  {"object_type", hit_types + 1, 1}, {"hit_type", hit_types, 0}, {"attribute", attributes, 1},
  {NULL, NULL, 0}};

/* The kind named by the first argument, or NULL with an error result. */
static const flag_kind *find_kind(sqlite3_context *ctx, sqlite3_value *v) {
  const char *name = (const char *)sqlite3_value_text(v);
  const flag_kind *k;
  for (k = flag_kinds; name && k->kind; k++) {
    if (sqlite3_stricmp(k->kind, name) == 0) return k;
  }
  {
    char *msg = sqlite3_mprintf("unknown flag kind '%s'; known: level, plane, add, dynamic, draw, user, object_type, hit_type, attribute",
                                name ? name : "NULL");
    sqlite3_result_error(ctx, msg, -1);
    sqlite3_free(msg);
  }
  return NULL;
}

/* wwd_flag_names(kind, value): 'mirror|invert'; for value kinds the one
** name ('solid'), or the number as text when it has none ('user 17'). */
static void flag_names_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const flag_kind *k = find_kind(ctx, argv[0]);
  uint32_t value;
  char *text;
  (void)argc;
  if (!k || sqlite3_value_type(argv[1]) == SQLITE_NULL) return;
  value = (uint32_t)sqlite3_value_int64(argv[1]);
  if (k->single_value) {
    const ls_flag_name *n;
    for (n = k->names; n->name; n++) {
      if (n->bit == value) {
        sqlite3_result_text(ctx, n->name, -1, SQLITE_STATIC);
        return;
      }
    }
    text = sqlite3_mprintf("%s %u", strcmp(k->kind, "attribute") == 0 ? "user" : "value", (unsigned)value);
  } else {
    text = ls_flags_format(k->names, value);
  }
  if (!text) sqlite3_result_error_nomem(ctx);
  else sqlite3_result_text(ctx, text, -1, sqlite3_free);
}

/* wwd_flag_value(kind, names): the reverse; numbers are accepted too. */
static void flag_value_func(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  const flag_kind *k = find_kind(ctx, argv[0]);
  const char *text = (const char *)sqlite3_value_text(argv[1]);
  char *bad = NULL;
  uint32_t value = 0;
  (void)argc;
  if (!k || !text) return;
  if (k->single_value && strncmp(text, "user ", 5) == 0) text += 5;
  if (!ls_flags_parse(k->names, text, &value, &bad)) {
    char *msg = bad ? sqlite3_mprintf("wwd_flag_value: unknown %s flag '%s'", k->kind, bad) : NULL;
    if (msg) sqlite3_result_error(ctx, msg, -1);
    else sqlite3_result_error_nomem(ctx);
    sqlite3_free(msg);
    sqlite3_free(bad);
    return;
  }
  sqlite3_result_int64(ctx, value);
}

int wwd_functions_register(sqlite3 *db) {
  int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  int rc = sqlite3_create_function(db, "wwd_flag_names", 2, flags, NULL, flag_names_func, NULL, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_create_function(db, "wwd_flag_value", 2, flags, NULL, flag_value_func, NULL, NULL);
  return rc;
}
