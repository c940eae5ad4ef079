/*
** record.h: the engine's side of row records (columns.c): the arena a
** cursor or a write keeps for one row.  Tables only allocate from it
** (ls_arena_alloc in engine.h); the engine creates, resets and frees it.
*/
#ifndef LEVELSQL_RECORD_H
#define LEVELSQL_RECORD_H

#include "engine.h"

/* NULL when out of memory. */
ls_arena *ls_arena_new(void);
/* Frees everything allocated since the last reset. */
void ls_arena_reset(ls_arena *arena);
void ls_arena_free(ls_arena *arena);

#endif
