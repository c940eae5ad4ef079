/*
** tw_model.h: the model a Teeworlds / DDNet table holds, the codec's map
** with its row keys (tw_edit.h), and the accessors the family's files
** share (tw_model.c).
**
** It sits below both tw_tables.c (which builds models and scans them) and
** tw_edit.c (which inserts and deletes rows in them), so neither has to
** include the other's header to reach the map or the keys: the include
** graph stays a DAG (tw_tables -> tw_edit -> tw_model).
*/
#ifndef LEVELSQL_TW_MODEL_H
#define LEVELSQL_TW_MODEL_H

#include "tw/twmap.h"

typedef struct tw_keys tw_keys;

typedef struct tw_model {
  tw_map *map;   /* owned */
  tw_keys *keys; /* owned: row keys (tw_edit.h), with each layer's key base */
} tw_model;

/* The codec's map inside a model of the family (for SQL functions that
** read whole maps: tw_render). */
struct tw_map *tw_model_map(void *model);
/* The keys inside a model of the family. */
tw_keys *tw_model_keys(const void *model);

#endif
