/*
** ranges.c: stepping through indices and grids within the integer ranges
** the engine pushed down (ls_scan.range), so every table skips rows outside
** them the same way.
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
