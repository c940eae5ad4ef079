/*
** shapes.c: how the engine steps through a table's rows: the iterators of
** the declared shapes (one row per file, an array, an array nested in an
** array, grids), within the integer ranges pushed down on the position
** columns (ls_scan.range); their keys and seeks; row names from the
** table's template; and the pieces tables with their own iterators share.
*/
#include <string.h>

#include "engine/engine.h"

int ls_range_first(const ls_range *r, int64_t from, int64_t count, int64_t *out) {
  int64_t i = from < r->lo ? r->lo : from;
  if (i < 0) i = 0;
  if (i >= count || i > r->hi) return 0;
  *out = i;
  return 1;
}

int ls_grid_step(const ls_range *rx, const ls_range *ry, int64_t width, int64_t height, int64_t *x, int64_t *y) {
  int64_t xlo = rx->lo < 0 ? 0 : rx->lo;
  int64_t xhi = rx->hi >= width ? width - 1 : rx->hi;
  int64_t ylo = ry->lo < 0 ? 0 : ry->lo;
  int64_t yhi = ry->hi >= height ? height - 1 : ry->hi;
  if (xlo > xhi) return 0;
  if (*y < ylo) {
    *y = ylo;
    *x = xlo;
  }
  if (*x < xlo) *x = xlo;
  if (*x > xhi) {
    (*y)++;
    *x = xlo;
  }
  return *y <= yhi;
}

/* ---- declared shapes ------------------------------------------------------ */

static const ls_range ls_range_all = {INT64_MIN, INT64_MAX};

/* Each slot of the position (element, index or y, x) gets the pushed-down
** range of its LS_COL_POS column, or everything when the table shows no
** such column. */
void ls_scan_bind_positions(const ls_table *t, ls_scan *scan) {
  size_t k;
  int i;
  for (k = 0; k < 3; k++) {
    scan->pos[k] = &ls_range_all;
    for (i = 0; i < t->ncolumns; i++) {
      if (t->columns[i].kind == LS_POS && t->columns[i].offset == k) scan->pos[k] = &scan->range[i];
    }
  }
  scan->element_ranges = 0;
  for (i = 0; i < t->ncolumns; i++)
    if (t->columns[i].get == ls_element_of_get && (t->columns[i].flags & LS_COL_RANGE)) scan->element_ranges = 1;
}

/* Whether element e lies within the ranges pushed down on the table's
** LS_COL_ELEMENT_OF columns (ls_scan.element_ranges): a value that reads
** NULL (negative) lies outside any bound. */
static int element_in_ranges(const ls_table *t, const void *model, const ls_scan *scan, int64_t e) {
  int i;
  for (i = 0; i < t->ncolumns; i++) {
    const ls_range *r = &scan->range[i];
    int64_t v;
    if (t->columns[i].get != ls_element_of_get || (r->lo == INT64_MIN && r->hi == INT64_MAX)) continue;
    v = ((const ls_element_of *)t->columns[i].aux)->of(model, e);
    if (v < 0 || v < r->lo || v > r->hi) return 0;
  }
  return 1;
}

static void pos_set(ls_pos *pos, int64_t element, int64_t index_or_y, int64_t x) {
  pos->element = element;
  pos->index = index_or_y;
  pos->x = x;
}

/* The first element at or after `element` within the range on its slot
** that has rows in the scan (shape.has) and lies within the ranges on
** what the model says of it (element_in_ranges); 0 when none. */
static int element_first(const ls_table *t, const void *model, const ls_scan *scan, int64_t element, int64_t count,
                         int64_t *out) {
  for (; ls_range_first(scan->pos[LS_POS_ELEMENT], element, count, &element); element++) {
    if ((!t->shape.has || t->shape.has(model, element, scan)) &&
        (!scan->element_ranges || element_in_ranges(t, model, scan, element))) {
      *out = element;
      return 1;
    }
  }
  return 0;
}

/* NESTED: the next (element, index) in the ranges, at or after it. */
static int nested_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int64_t element,
                       int64_t index) {
  const ls_range *ri = scan->pos[LS_POS_INDEX];
  int64_t outer = t->shape.count(model);
  while (element_first(t, model, scan, element, outer, &element)) {
    if (ls_range_first(ri, index, t->shape.inner(model, element), &index)) {
      pos_set(pos, element, index, 0);
      return 1;
    }
    element++;
    index = 0;
  }
  return 0;
}

/* GRID: the next cell (element, y, x) in the ranges, at or after it, row
** by row. */
static int grid_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int64_t element,
                     int64_t y, int64_t x) {
  const ls_range *ry = scan->pos[LS_POS_Y], *rx = scan->pos[LS_POS_X];
  int64_t grids = t->shape.count(model);
  while (element_first(t, model, scan, element, grids, &element)) {
    if (ls_grid_step(rx, ry, t->shape.inner(model, element), t->shape.height(model, element), &x, &y)) {
      pos_set(pos, element, y, x);
      return 1;
    }
    element++;
    y = x = INT64_MIN;
  }
  return 0;
}

/* Rows of an element: its inner count (NESTED) or its cells (GRID). */
static int64_t rows_of(const ls_table *t, const void *model, int64_t element) {
  int64_t n = t->shape.inner(model, element);
  return t->shape.kind == LS_SHAPE_GRID ? n * t->shape.height(model, element) : n;
}

int ls_table_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  int64_t i;
  if (t->next) return t->next(model, scan, pos, first);
  switch (t->shape.kind) {
    case LS_SHAPE_ONE:
      pos_set(pos, 0, 0, 0);
      return first;
    case LS_SHAPE_ARRAY:
      if (!element_first(t, model, scan, first ? 0 : pos->element + 1, t->shape.count(model), &i)) return 0;
      pos_set(pos, i, 0, 0);
      return 1;
    case LS_SHAPE_NESTED:
      return first ? nested_next(t, model, scan, pos, 0, 0) : nested_next(t, model, scan, pos, pos->element, pos->index + 1);
    case LS_SHAPE_GRID:
      return first ? grid_next(t, model, scan, pos, 0, INT64_MIN, INT64_MIN)
                   : grid_next(t, model, scan, pos, pos->element, pos->y, pos->x + 1);
    default:
      return 0;
  }
}

int ls_table_run(const ls_table *t, const void *model, const ls_scan *scan, const ls_pos *pos, int64_t *last) {
  const ls_range *r;
  int64_t n, at;
  int which;
  if (t->next) return -1;
  switch (t->shape.kind) {
    case LS_SHAPE_ARRAY:
      if (t->shape.has || scan->element_ranges) return -1; /* each element is asked */
      which = LS_POS_ELEMENT, at = pos->element, n = t->shape.count(model);
      break;
    case LS_SHAPE_NESTED: which = LS_POS_INDEX, at = pos->index, n = t->shape.inner(model, pos->element); break;
    case LS_SHAPE_GRID: which = LS_POS_X, at = pos->x, n = t->shape.inner(model, pos->element); break;
    default: return -1;
  }
  r = scan->pos[which];
  *last = r->hi < n - 1 ? r->hi : n - 1;
  return *last > at ? which : -1;
}

int64_t ls_table_key(const ls_table *t, const void *model, const ls_pos *pos) {
  int64_t key = 0, i;
  if (t->key) return t->key(model, pos);
  switch (t->shape.kind) {
    case LS_SHAPE_ARRAY: return pos->element;
    case LS_SHAPE_NESTED:
    case LS_SHAPE_GRID:
      if (t->shape.base) key = t->shape.base(model, pos->element);
      for (i = 0; !t->shape.base && i < pos->element; i++) key += rows_of(t, model, i);
      return t->shape.kind == LS_SHAPE_GRID ? key + pos->y * t->shape.inner(model, pos->element) + pos->x
                                            : key + pos->index;
    default: return 0;
  }
}

int ls_table_seek(const ls_table *t, const void *model, int64_t key, ls_pos *pos) {
  int64_t i, n, rows, first = 0; /* the key of element i's first row */
  if (t->seek) return t->seek(model, key, pos);
  if (key < 0) return 0;
  switch (t->shape.kind) {
    case LS_SHAPE_ONE:
      pos_set(pos, 0, 0, 0);
      return key == 0;
    case LS_SHAPE_ARRAY:
      if (key >= t->shape.count(model) || (t->shape.has && !t->shape.has(model, key, NULL))) return 0;
      pos_set(pos, key, 0, 0);
      return 1;
    case LS_SHAPE_NESTED:
    case LS_SHAPE_GRID:
      n = t->shape.count(model);
      for (i = 0; i < n; first += rows, i++) {
        rows = t->shape.has && !t->shape.has(model, i, NULL) ? 0 : rows_of(t, model, i);
        if (t->shape.base) first = t->shape.base(model, i);
        if (key < first || key - first >= rows) continue;
        key -= first;
        if (t->shape.kind == LS_SHAPE_NESTED) {
          pos_set(pos, i, key, 0);
        } else {
          int64_t w = t->shape.inner(model, i);
          pos_set(pos, i, key / w, key % w);
        }
        return 1;
      }
      return 0;
    default:
      return 0;
  }
}

/* The slot a row-name placeholder names ("{element}", "{index}", "{y}",
** "{x}" at p); sets *len to the placeholder's length, or returns -1. */
static int placeholder_slot(const char *p, size_t *len) {
  static const struct {
    const char *text;
    int slot;
  } names[] = {{"{element}", LS_POS_ELEMENT}, {"{index}", LS_POS_INDEX}, {"{y}", LS_POS_Y}, {"{x}", LS_POS_X}};
  size_t k;
  for (k = 0; k < sizeof names / sizeof names[0]; k++) {
    *len = strlen(names[k].text);
    if (!strncmp(p, names[k].text, *len)) return names[k].slot;
  }
  return -1;
}

char *ls_table_describe(const ls_table *t, const void *model, const ls_pos *pos) {
  sqlite3_str *s;
  const char *p;
  size_t len;
  int slot;
  if (t->describe) return t->describe(model, pos);
  if (!t->row_name) return NULL;
  s = sqlite3_str_new(NULL);
  for (p = t->row_name; *p; p++) {
    if (t->element_name && !strncmp(p, "{element_name}", 14)) {
      char *name = t->element_name(model, pos->element);
      sqlite3_str_appendall(s, name ? name : "?");
      sqlite3_free(name);
      p += 13;
    } else if (*p == '{' && (slot = placeholder_slot(p, &len)) >= 0) {
      sqlite3_str_appendf(s, "%lld", (long long)ls_pos_get(pos, slot));
      p += len - 1;
    } else {
      sqlite3_str_appendchar(s, 1, *p);
    }
  }
  return sqlite3_str_finish(s);
}
