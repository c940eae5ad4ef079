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

/* Each position (pos.a, pos.b, pos.c) gets the pushed-down range of its
** LS_COL_POS column, or everything when the table shows no such column. */
void ls_scan_bind_positions(const ls_table *t, ls_scan *scan) {
  size_t k;
  int i;
  for (k = 0; k < 3; k++) {
    scan->pos[k] = &ls_range_all;
    for (i = 0; i < t->ncolumns; i++) {
      if (t->columns[i].kind == LS_POS && t->columns[i].offset == k) scan->pos[k] = &scan->range[i];
    }
  }
}

static void pos_set(ls_pos *pos, int64_t a, int64_t b, int64_t c) {
  pos->a = a;
  pos->b = b;
  pos->c = c;
}

/* The first element at or after a within the range on pos.a that has rows
** in the scan (shape.has); 0 when none. */
static int element_first(const ls_table *t, const void *model, const ls_scan *scan, int64_t a, int64_t count,
                         int64_t *out) {
  for (; ls_range_first(scan->pos[0], a, count, &a); a++) {
    if (!t->shape.has || t->shape.has(model, a, scan)) {
      *out = a;
      return 1;
    }
  }
  return 0;
}

/* NESTED: the next (a, b) in the ranges, at or after (a, b). */
static int nested_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int64_t a, int64_t b) {
  const ls_range *rb = scan->pos[1];
  int64_t outer = t->shape.count(model);
  while (element_first(t, model, scan, a, outer, &a)) {
    if (ls_range_first(rb, b, t->shape.inner(model, a), &b)) {
      pos_set(pos, a, b, 0);
      return 1;
    }
    a++;
    b = 0;
  }
  return 0;
}

/* GRID: the next cell (a, y, x) in the ranges, at or after it, row by row. */
static int grid_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int64_t a, int64_t y,
                     int64_t x) {
  const ls_range *ry = scan->pos[1], *rx = scan->pos[2];
  int64_t grids = t->shape.count(model);
  while (element_first(t, model, scan, a, grids, &a)) {
    if (ls_grid_step(rx, ry, t->shape.inner(model, a), t->shape.height(model, a), &x, &y)) {
      pos_set(pos, a, y, x);
      return 1;
    }
    a++;
    y = x = INT64_MIN;
  }
  return 0;
}

/* Rows of element a: its inner count (NESTED) or its cells (GRID). */
static int64_t rows_of(const ls_table *t, const void *model, int64_t a) {
  int64_t n = t->shape.inner(model, a);
  return t->shape.kind == LS_SHAPE_GRID ? n * t->shape.height(model, a) : n;
}

int ls_table_next(const ls_table *t, const void *model, const ls_scan *scan, ls_pos *pos, int first) {
  int64_t i;
  if (t->next) return t->next(model, scan, pos, first);
  switch (t->shape.kind) {
    case LS_SHAPE_ONE:
      pos_set(pos, 0, 0, 0);
      return first;
    case LS_SHAPE_ARRAY:
      if (!element_first(t, model, scan, first ? 0 : pos->a + 1, t->shape.count(model), &i)) return 0;
      pos_set(pos, i, 0, 0);
      return 1;
    case LS_SHAPE_NESTED:
      return first ? nested_next(t, model, scan, pos, 0, 0) : nested_next(t, model, scan, pos, pos->a, pos->b + 1);
    case LS_SHAPE_GRID:
      return first ? grid_next(t, model, scan, pos, 0, INT64_MIN, INT64_MIN)
                   : grid_next(t, model, scan, pos, pos->a, pos->b, pos->c + 1);
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
      if (t->shape.has) return -1; /* each element is asked */
      which = 0, at = pos->a, n = t->shape.count(model);
      break;
    case LS_SHAPE_NESTED: which = 1, at = pos->b, n = t->shape.inner(model, pos->a); break;
    case LS_SHAPE_GRID: which = 2, at = pos->c, n = t->shape.inner(model, pos->a); break;
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
    case LS_SHAPE_ARRAY: return pos->a;
    case LS_SHAPE_NESTED:
    case LS_SHAPE_GRID:
      if (t->shape.base) key = t->shape.base(model, pos->a);
      for (i = 0; !t->shape.base && i < pos->a; i++) key += rows_of(t, model, i);
      return t->shape.kind == LS_SHAPE_GRID ? key + pos->b * t->shape.inner(model, pos->a) + pos->c : key + pos->b;
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

char *ls_table_describe(const ls_table *t, const void *model, const ls_pos *pos) {
  sqlite3_str *s;
  const char *p;
  if (t->describe) return t->describe(model, pos);
  if (!t->row_name) return NULL;
  s = sqlite3_str_new(NULL);
  for (p = t->row_name; *p; p++) {
    if (p[0] == '%' && (p[1] == 'a' || p[1] == 'b' || p[1] == 'c')) {
      p++;
      sqlite3_str_appendf(s, "%lld", (long long)(*p == 'a' ? pos->a : *p == 'b' ? pos->b : pos->c));
    } else {
      sqlite3_str_appendchar(s, 1, *p);
    }
  }
  return sqlite3_str_finish(s);
}
