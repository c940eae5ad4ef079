/*
** test_family_helpers.c: the helpers engine.h offers every table family
** ("helpers for table families"), on a toy model of their own: shape
** counts (and a count that can fail), uid keys and seeks, a DELETE through
** a codec function, a codec's result, a load of one value, copies of
** model structs written back (ls_copy_back, scalars and codec strings),
** 0/1 options, error messages, row kinds from a field and the kinds of a
** version on, and the string arrays a codec takes.
**
** Linked with the extension's objects, like test_insert_args: the engine
** calls SQLite through the loader's routine table, which an automatic
** extension of a connection opened here hands over.
*/
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/record.h"
#include "check.h"

#undef sqlite3_open
#undef sqlite3_close
#undef sqlite3_free
#undef sqlite3_auto_extension
#undef sqlite3_reset_auto_extension

/* The levelsql objects' routine table (levelsql.c, SQLITE_EXTENSION_INIT1). */
extern const sqlite3_api_routines *sqlite3_api;

/* ---- a toy codec ------------------------------------------------------------- */

/* A codec's own string: laid out as an ls_span, NULL being "". */
typedef struct toy_str {
  char *s;
  size_t len;
} toy_str;

typedef struct toy_item {
  uint32_t uid;
  int32_t value;
} toy_item;

typedef struct toy_group {
  uint32_t uid;
  uint32_t num_items;
  toy_item *items;
  int32_t weight;
  toy_str label;
  uint32_t flags;
} toy_group;

typedef struct toy_model {
  uint32_t num_groups;
  toy_group *groups;
} toy_model;

static int toy_group_find(const toy_model *m, uint32_t uid, uint32_t *group) {
  uint32_t g;
  for (g = 0; g < m->num_groups; g++) {
    if (m->groups[g].uid == uid) {
      *group = g;
      return 1;
    }
  }
  return 0;
}

static int toy_item_find(const toy_model *m, uint32_t uid, uint32_t *group, uint32_t *item) {
  uint32_t g, i;
  for (g = 0; g < m->num_groups; g++) {
    for (i = 0; i < m->groups[g].num_items; i++) {
      if (m->groups[g].items[i].uid == uid) {
        *group = g;
        *item = i;
        return 1;
      }
    }
  }
  return 0;
}

/* Removes nothing: group 1 refuses as a codec refuses, group 2 runs out of
** memory. */
static int toy_group_remove(toy_model *m, uint32_t group, codec_error *err) {
  (void)m;
  if (group == 1) return codec_fail_arg(err, "group %u is the toy's own", group);
  if (group == 2) return codec_fail_oom(err, "out of memory");
  return 1;
}

static int toy_item_remove(toy_model *m, uint32_t group, uint32_t item, codec_error *err) {
  (void)m;
  return item == 0 ? 1 : codec_fail_arg(err, "group %u item %u stays", group, item);
}

static uint32_t toy_group_size(const toy_group *g) {
  return g->num_items * 2;
}

/* Items of a group, -1 for group 2 (its count cannot be computed). */
static int64_t toy_items_or_fail(const void *model, int64_t group) {
  return group == 2 ? -1 : (int64_t)((const toy_model *)model)->groups[group].num_items;
}

/* The codec's string setter: copies (a real codec would check the text). */
static int toy_str_set(void *field, const ls_span *text, void *why) {
  toy_str *to = field;
  char *copy = malloc(text->n + 1);
  if (!copy || (text->n == 4 && !memcmp(text->p, "FAIL", 4))) {
    free(copy);
    snprintf(why, 64, "refused");
    return 0;
  }
  memcpy(copy, text->p, text->n);
  copy[text->n] = 0;
  free(to->s);
  to->s = copy;
  to->len = text->n;
  return 1;
}

/* ---- the helpers' definitions ------------------------------------------------- */

LS_COUNT_OF(group_count, toy_model, num_groups)
LS_INNER_COUNT_OF(item_count, toy_model, groups, num_items)
LS_INNER_COUNT_BY(double_count, toy_model, groups, toy_group_size)
LS_FALLIBLE_INNER(item_rows, item_has, toy_items_or_fail, "group %lld: cannot count its items")
LS_UID_KEYS(group, toy_model, groups, toy_group_find)
LS_NESTED_UID_KEYS(item, toy_model, groups, items, toy_item_find)
LS_REMOVE_CALL(group_remove, toy_model, toy_group_remove, NULL)
LS_REMOVE_CALL_NESTED(item_remove, toy_model, toy_item_remove, NULL)
LS_LOAD_ELEMENT(group_load, toy_model, groups, toy_group)
LS_ROW_KIND_FIELD(group_kind, toy_group, weight, 3)
LS_FLAG_OPTION(option_loud, "loud", 1, "everything is said twice");
LS_ELEMENT_FIELD(group_weight, toy_model, groups, weight, NULL);

/* Groups with their weight as what the model says of them (a negative
** weight reads NULL), its range bounding a scan's groups. */
static const ls_column weight_columns[] = {
  LS_COL_POS("grp", LS_POS_ELEMENT, LS_COL_RANGE, "the group"),
  LS_COL_ELEMENT_OF("weight", "INTEGER", &group_weight, LS_COL_RANGE, "the group's weight"),
};
static const ls_table weighed_groups = {.name = "toy_weights", LS_COLUMNS(weight_columns), .shape = LS_ARRAY(group_count)};

/* A record that is a group's copy, after a computed field. */
typedef struct group_rec {
  double ratio;
  toy_group g;
} group_rec;

/* A load() of the whole record from one expression: the group's copy and
** a ratio computed from it. */
LS_LOAD_VALUE(group_rec_load, group_rec,
              ((group_rec){.ratio = ((const toy_model *)row->model)->groups[row->pos.element].weight / 2.0,
                           .g = ((const toy_model *)row->model)->groups[row->pos.element]}))

static const ls_column group_columns[] = {
  LS_COL_FLOAT("ratio", LS_F64, group_rec, ratio, 0, 0, "computed, outside the copy"),
  LS_COL_INT("weight", LS_I32, group_rec, g.weight, 0, "a scalar of the copy"),
  LS_COL_CODEC_STR("label", LS_UTF8, group_rec, g.label, 100, 0, 0, "a codec string of the copy"),
  LS_COL_BIT("flag", LS_U32, group_rec, g.flags, 4, "a bit of the copy"),
  LS_COL_INT("uid", LS_U32, group_rec, g.uid, LS_COL_RO, "unchanged"),
};

/* The automatic extension: hands the routine table to the engine's objects. */
static int take_api(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  (void)db, (void)err;
  sqlite3_api = api;
  return SQLITE_OK;
}

static void test_counts_and_keys(toy_model *m) {
  char *error = NULL;
  ls_scan scan = {.error = &error};
  ls_pos pos = {0};
  CHECK(group_count(m) == 3 && item_count(m, 0) == 2 && item_count(m, 1) == 1 && double_count(m, 0) == 4,
        "counts from fields and from a codec function");
  CHECK(item_rows(m, 0) == 2 && item_rows(m, 2) == 0, "a count that cannot be computed is 0 rows");
  CHECK(item_has(m, 0, &scan) && !item_has(m, 2, NULL) && !error, "has() without a scan sets no error");
  CHECK(!item_has(m, 2, &scan) && error && !strcmp(error, "group 2: cannot count its items"),
        "has() fails the scan with the message: %s", error ? error : "(none)");
  CHECK(!item_has(m, 0, &scan), "every element after the failed one has no rows");
  sqlite3_free(error);
  pos.element = 1;
  CHECK(group_key(m, &pos) == 20, "an ARRAY key is the element's uid");
  CHECK(group_seek(m, 30, &pos) && pos.element == 2 && !group_seek(m, 31, &pos) && !group_seek(m, -1, &pos) &&
            !group_seek(m, (int64_t)UINT32_MAX + 1, &pos),
        "a seek finds the uid, and only a uid that exists");
  pos = (ls_pos){.element = 0, .index = 1};
  CHECK(item_key(m, &pos) == 102, "a NESTED key is the inner element's uid");
  CHECK(item_seek(m, 201, &pos) && pos.element == 1 && pos.index == 0 && !item_seek(m, 7, &pos), "a NESTED seek");
}

static void test_codec_results(toy_model *m) {
  ls_pos pos = {.element = 0};
  char *err = NULL;
  codec_error e = {{0}, 0};
  CHECK(group_remove(m, &pos, &err) == SQLITE_OK && !err, "a remove the codec does");
  pos.element = 1;
  CHECK(group_remove(m, &pos, &err) == SQLITE_CONSTRAINT && err && !strcmp(err, "group 1 is the toy's own"),
        "a remove the codec refuses: its message: %s", err ? err : "(none)");
  sqlite3_free(err);
  err = NULL;
  pos.element = 2;
  CHECK(group_remove(m, &pos, &err) == SQLITE_NOMEM && !err, "out of memory as SQLITE_NOMEM");
  pos = (ls_pos){.element = 1, .index = 3};
  CHECK(item_remove(m, &pos, &err) == SQLITE_CONSTRAINT && err && !strcmp(err, "group 1 item 3 stays"),
        "a NESTED remove passes both indices: %s", err ? err : "(none)");
  sqlite3_free(err);
  err = NULL;
  CHECK(ls_codec_check(1, &e, &err, NULL) == SQLITE_OK && !err, "ls_codec_check of a success");
  CHECK(ls_fail(&err, SQLITE_RANGE, "row %d of %s", 3, "x") == SQLITE_RANGE && err && !strcmp(err, "row 3 of x"),
        "ls_fail sets the message and returns the code");
  sqlite3_free(err);
}

static void test_copies(toy_model *m) {
  ls_row row = {.model = m, .pos = {.element = 0}};
  group_rec rec;
  unsigned char changed[5] = {1, 1, 1, 1, 0};
  char why[64] = "";
  toy_group *g = &m->groups[0];
  memset(&rec, 0, sizeof rec);
  row.rec = &rec.g;
  CHECK(group_load(&row, NULL) == SQLITE_OK && rec.g.uid == 10 && rec.g.weight == 5, "the load copies the group");
  row.rec = &rec;
  CHECK(group_rec_load(&row, NULL) == SQLITE_OK && rec.ratio == 2.5 && rec.g.uid == 10, "a load of one expression's value");
  row.rec = &rec.g;
  CHECK(group_kind(&row) == 3, "a row kind over the largest is clamped (5 to 3)");
  rec.g.weight = -2;
  CHECK(group_kind(&row) == 0, "and under 0 to 0");
  rec.ratio = 0.5;
  rec.g.weight = 9;
  rec.g.flags = 4;
  rec.g.uid = 99; /* changed[4] is 0: not copied */
  rec.g.label.s = "new";
  rec.g.label.len = 3;
  CHECK(ls_copy_back(group_columns, 5, changed, &rec, offsetof(group_rec, g), sizeof(toy_group), g, toy_str_set, why),
        "copied back");
  CHECK(g->weight == 9 && g->flags == 4 && g->uid == 10, "the changed scalars of the copy, and only those");
  CHECK(g->label.s && g->label.s != rec.g.label.s && !strcmp(g->label.s, "new"), "the string through the codec's setter");
  rec.g.label.s = "FAIL";
  rec.g.label.len = 4;
  CHECK(!ls_copy_back(group_columns, 5, changed, &rec, offsetof(group_rec, g), sizeof(toy_group), g, toy_str_set, why) &&
            !strcmp(why, "refused") && !strcmp(g->label.s, "new"),
        "a setter that refuses stops the copy, its arg says why");
}

static void test_options_and_kinds(void) {
  ls_options opts;
  char *err = NULL;
  memset(&opts, 0, sizeof opts);
  CHECK(!strcmp(option_loud.name, "loud") && !strcmp(option_loud.example, "loud=1") &&
            !strcmp(option_loud.default_value, "0"),
        "a flag option's name, example and default");
  CHECK(option_loud.parse("1", &opts, &err) && opts.format[1] == 1 && option_loud.parse("0", &opts, &err) &&
            opts.format[1] == 0,
        "1 and 0 go to the option's slot");
  CHECK(!option_loud.parse("yes", &opts, &err) && err &&
            !strcmp(err, "option loud takes 1 (everything is said twice) or 0 (the default), not 'yes'"),
        "anything else is refused: %s", err ? err : "(none)");
  sqlite3_free(err);
  CHECK(LS_KINDS_FROM(0, 3) == 7 && LS_KINDS_FROM(2, 4) == 12 && LS_KINDS_FROM(16, 17) == 1u << 16,
        "the kinds of a version and later");
}

static void test_spans_split(void) {
  ls_arena *arena = ls_arena_new();
  ls_span items[2] = {{"ab", 2}, {"", 0}};
  const char *const *ptrs = NULL;
  const size_t *lens = NULL;
  REQUIRE(arena != NULL, "an arena");
  if (!arena) return;
  CHECK(ls_spans_split(arena, (ls_span){items, 2}, &ptrs, &lens) == SQLITE_OK && ptrs[0] == items[0].p && lens[0] == 2 &&
            ptrs[1] == items[1].p && lens[1] == 0,
        "strings split into pointers and lengths");
  ls_arena_free(arena);
}

/* The groups a scan of weighed_groups gives, as a bit mask. */
static unsigned scanned_groups(toy_model *m, int64_t lo, int64_t hi) {
  ls_range ranges[2] = {{INT64_MIN, INT64_MAX}, {lo, hi}};
  ls_scan scan = {.range = ranges};
  ls_pos pos = {0};
  unsigned seen = 0;
  int more;
  ls_scan_bind_positions(&weighed_groups, &scan);
  for (more = ls_table_next(&weighed_groups, m, &scan, &pos, 1); more; more = ls_table_next(&weighed_groups, m, &scan, &pos, 0))
    seen |= 1u << pos.element;
  return seen;
}

/* LS_COL_ELEMENT_OF: the value is the model's; a range pushed down on it
** leaves out the elements outside it, a NULL (negative) value outside any
** bound, and makes the engine ask element by element (no runs). */
static void test_element_ranges(toy_model *m) {
  ls_range all[2] = {{INT64_MIN, INT64_MAX}, {INT64_MIN, INT64_MAX}};
  ls_scan scan = {.range = all};
  ls_pos pos = {0};
  int64_t last;
  int32_t was[3] = {m->groups[0].weight, m->groups[1].weight, m->groups[2].weight};
  m->groups[0].weight = 5, m->groups[1].weight = 0, m->groups[2].weight = -1;
  CHECK(group_weight.of(m, 0) == 5 && group_weight.of(m, 2) == -1, "the field of the element");
  ls_scan_bind_positions(&weighed_groups, &scan);
  CHECK(scan.element_ranges && ls_table_run(&weighed_groups, m, &scan, &pos, &last) == -1,
        "a table with such a range column is scanned element by element");
  CHECK(scanned_groups(m, INT64_MIN, INT64_MAX) == 7, "unbounded: every group, NULL included");
  CHECK(scanned_groups(m, 1, 10) == 1, "weight 1 to 10: group 0");
  CHECK(scanned_groups(m, INT64_MIN, 0) == 2, "weight at most 0: group 1, not group 2 (NULL)");
  m->groups[0].weight = was[0], m->groups[1].weight = was[1], m->groups[2].weight = was[2];
}

int main(void) {
  toy_item items0[] = {{101, 1}, {102, 2}}, items1[] = {{201, 3}};
  toy_group groups[] = {{10, 2, items0, 5, {NULL, 0}, 0}, {20, 1, items1, 0, {NULL, 0}, 0}, {30, 0, NULL, 0, {NULL, 0}, 0}};
  toy_model model = {3, groups};
  sqlite3 *db = NULL;
  sqlite3_auto_extension((void (*)(void))take_api);
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK && sqlite3_api, "a connection hands over the routine table");
  if (!sqlite3_api) return check_done();
  _Static_assert(sizeof(toy_str) == sizeof(ls_span), "toy_str as ls_span");
  test_counts_and_keys(&model);
  test_codec_results(&model);
  test_copies(&model);
  test_options_and_kinds();
  test_spans_split();
  test_element_ranges(&model);
  free(groups[0].label.s);
  sqlite3_close(db);
  sqlite3_reset_auto_extension();
  return check_done();
}
