/*
** tw_model.c: the accessors of a Teeworlds / DDNet model (tw_model.h),
** shared by the table declarations, the INSERT/DELETE callbacks and the
** render functions.
*/
#include "tw/tw_model.h"

/* The codec's map a model wraps. */
tw_map *tw_model_map(void *model) {
  return ((tw_model *)model)->map;
}

/* The row keys a model carries (tw_edit.h). */
tw_keys *tw_model_keys(const void *model) {
  return ((const tw_model *)model)->keys;
}
