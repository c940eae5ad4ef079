/*
** are_names.c: names of the flag bits and the numeric enums of AREA V1.0
** (IESDP's meanings for BG2, ToB and the Enhanced Editions, in snake_case),
** both ways.  See are.h.
*/
#include <stdio.h>
#include <string.h>

#include "are/are.h"

/* One flag set: the name of bit b is bits[b] (NULL: unnamed, "bitN"). */
typedef struct flag_set {
  const char *what; /* for errors: "door flags" */
  const char *bits[32];
} flag_set;

static const flag_set flag_sets[ARE_NUM_FLAGSETS] = {
    {"area flags",
     {"save_not_allowed", "tutorial_area", "dead_magic_zone", "dream", "player1_death_does_not_end_game",
      "resting_not_allowed", "travel_not_allowed"}},
    {"area type flags",
     {"outdoor", "day_night", "weather", "city", "forest", "dungeon", "extended_night", "can_rest_indoors"}},
    {"edge flags", {"party_required", "party_enabled"}},
    {"actor flags", {"cre_not_attached", "has_seen_party", "invulnerable", "override_script_name"}},
    {"region flags",
     {"key_required", "reset_trap", "party_required", "detectable", "npc_activates", "tutorial_only",
      "anyone_activates", "no_string", "deactivated", "party_only", "alternative_point", "door_closed"}},
    {"spawn method", {"spawn_while_disabled", "one_time", "disabled"}},
    {"container flags",
     {"locked", "disable_if_no_owner", "magically_locked", "trap_resets", "remove_only", "disabled"}},
    {"item flags", {"identified", "unstealable", "stolen", "undroppable"}},
    {"ambient flags", {"enabled", "no_environmental_effects", "global", "random", "low_memory"}},
    {"variable type", {"int", "float", "script_name", "resref", "strref", "dword"}},
    {"door flags",
     {"open", "locked", "reset_trap", "trap_detectable", "broken", "cant_close", "linked", "hidden", "found",
      "dont_block_los", "remove_key", "ignore_obstacles"}},
    {"animation flags",
     {"enabled", "black_transparent", "not_self_illuminated", "partial", "synchronized", "random_start",
      "not_hidden_by_walls", "disabled_on_slow_machines", "not_cover", "play_all_frames", "use_palette", "mirrored",
      "show_in_combat", "use_wbm", "stenciled", "use_pvrz"}},
    {"tiled object flags", {"secondary_state", "see_through"}},
};

/* The enums' names, value 0 first (are.h). */
const char *const are_region_type_names[] = {"trap", "info", "travel", NULL};
const char *const are_container_type_names[] = {"none",  "bag",   "chest",     "drawer",    "pile",
                                                "table", "shelf", "altar",     "nonvisible", "spellbook",
                                                "body",  "barrel", "crate",    NULL};
const char *const are_note_color_names[] = {"gray", "violet", "green", "orange", "red", "blue", "dark_blue", "light_gray",
                                            NULL};

/* One enum: the name of value v is names[v] (up to the NULL). */
typedef struct enum_set {
  const char *what;
  const char *const *names;
} enum_set;

static const enum_set enum_sets[ARE_NUM_ENUMSETS] = {
    {"region type", are_region_type_names},
    {"container type", are_container_type_names},
    {"note color", are_note_color_names},
};

size_t are_flag_names(enum are_flagset set, uint32_t flags, char *buf, size_t size) {
  size_t len = 0;
  unsigned b;
  if (!size) return 0;
  buf[0] = 0;
  if ((unsigned)set >= ARE_NUM_FLAGSETS) return 0;
  for (b = 0; b < 32; b++) {
    char unnamed[8];
    const char *name = flag_sets[set].bits[b];
    int n;
    if (!(flags >> b & 1u)) continue;
    if (!name) {
      snprintf(unnamed, sizeof unnamed, "bit%u", b);
      name = unnamed;
    }
    n = snprintf(buf + len, size - len, "%s%s", len ? "|" : "", name);
    if (n < 0 || (size_t)n >= size - len) {
      buf[len] = 0; /* no room: stop before a cut name */
      break;
    }
    len += (size_t)n;
  }
  return len;
}

/* The bit a name stands for ("bitN" for any bit), or -1. */
static int bit_of(const flag_set *fs, const char *word, size_t n) {
  unsigned b;
  for (b = 0; b < 32; b++)
    if (fs->bits[b] && strlen(fs->bits[b]) == n && strncmp(fs->bits[b], word, n) == 0) return (int)b;
  if (n >= 4 && n <= 5 && strncmp(word, "bit", 3) == 0 && word[3] >= '0' && word[3] <= '9') {
    unsigned v = (unsigned)(word[3] - '0');
    if (n == 5) {
      if (word[3] == '0' || word[4] < '0' || word[4] > '9') return -1;
      v = v * 10 + (unsigned)(word[4] - '0');
    }
    return v < 32 ? (int)v : -1;
  }
  return -1;
}

int are_flag_parse(enum are_flagset set, const char *text, uint32_t *flags, codec_error *err) {
  const flag_set *fs;
  const char *p = text ? text : "";
  uint32_t v = 0;
  if ((unsigned)set >= ARE_NUM_FLAGSETS) return codec_fail_arg(err, "flags: no such flag set");
  fs = &flag_sets[set];
  if (p[strspn(p, " \t")] == 0) { /* "" or blanks: no flag */
    *flags = 0;
    return 1;
  }
  for (;;) {
    size_t span = strcspn(p, "|"), n;
    const char *w = p + strspn(p, " \t");
    int b;
    n = w < p + span ? (size_t)(p + span - w) : 0;
    while (n && (w[n - 1] == ' ' || w[n - 1] == '\t')) n--;
    if (!n) return codec_fail_arg(err, "%s: empty name in '%.64s'", fs->what, text);
    b = bit_of(fs, w, n);
    if (b < 0) return codec_fail_arg(err, "%s: unknown flag name '%.*s'", fs->what, (int)(n > 64 ? 64 : n), w);
    v |= 1u << b;
    if (!p[span]) break;
    p += span + 1;
  }
  *flags = v;
  return 1;
}

const char *are_enum_name(enum are_enumset set, uint32_t value) {
  uint32_t v;
  if ((unsigned)set >= ARE_NUM_ENUMSETS) return NULL;
  for (v = 0; enum_sets[set].names[v]; v++)
    if (v == value) return enum_sets[set].names[v];
  return NULL;
}

int are_enum_value(enum are_enumset set, const char *name, uint32_t *value, codec_error *err) {
  uint32_t v;
  if ((unsigned)set >= ARE_NUM_ENUMSETS) return codec_fail_arg(err, "enum: no such set");
  for (v = 0; enum_sets[set].names[v] && name; v++)
    if (strcmp(enum_sets[set].names[v], name) == 0) {
      *value = v;
      return 1;
    }
  return codec_fail_arg(err, "%s: unknown name '%.64s'", enum_sets[set].what, name ? name : "");
}

/* The short name of flag set `set` into buf: its name without " flags",
** blanks as '_' ("area type flags" -> "area_type"). */
static void flagset_short(enum are_flagset set, char *buf, size_t size) {
  const char *what = flag_sets[set].what, *end = strstr(what, " flags");
  size_t n = end ? (size_t)(end - what) : strlen(what), k;
  if (n >= size) n = size - 1;
  for (k = 0; k < n; k++) buf[k] = what[k] == ' ' ? '_' : what[k];
  buf[n] = 0;
}

int are_flagset_find(const char *name, enum are_flagset *set, codec_error *err) {
  char buf[32], list[400];
  size_t len = 0;
  unsigned s;
  for (s = 0; s < ARE_NUM_FLAGSETS; s++) {
    flagset_short((enum are_flagset)s, buf, sizeof buf);
    if (name && strcmp(buf, name) == 0) {
      *set = (enum are_flagset)s;
      return 1;
    }
    len += (size_t)snprintf(list + len, sizeof list - len, "%s'%s'", s ? ", " : "", buf);
    if (len >= sizeof list) len = sizeof list - 1;
  }
  return codec_fail_arg(err, "no flag set '%.40s'; the sets are %s", name ? name : "", list);
}
