/*
** ranges.c: the row-stepping pieces every table shares: indices and grids
** within the integer ranges the engine pushed down (ls_scan.range), array
** tables, and getters of the position itself.
*/
#include "engine.h"

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

int ls_index_next(int64_t n, const ls_scan *scan, ls_pos *pos, int first) {
  int64_t i;
  if (!ls_range_first(&scan->range[0], first ? 0 : pos->a + 1, n, &i)) return 0;
  pos->a = i;
  pos->b = pos->c = 0;
  return 1;
}

int ls_index_seek(int64_t n, int64_t key, ls_pos *pos) {
  if (key < 0 || key >= n) return 0;
  pos->a = key;
  pos->b = pos->c = 0;
  return 1;
}

int64_t ls_key_pos_a(const void *model, const ls_pos *pos) {
  (void)model;
  return pos->a;
}

void ls_get_pos_a(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int64(ctx, row->pos.a);
}

void ls_get_pos_b(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int64(ctx, row->pos.b);
}

void ls_get_pos_c(const ls_row *row, sqlite3_context *ctx, const ls_column *col) {
  (void)col;
  sqlite3_result_int64(ctx, row->pos.c);
}
