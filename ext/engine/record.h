/*
** record.h: the engine's side of row records (columns.c): the arena a
** cursor or a write keeps for one row.  Tables only allocate from it
** (ls_arena_alloc in engine.h); the engine creates, resets and frees it.
*/
#ifndef LEVELSQL_RECORD_H
#define LEVELSQL_RECORD_H

#include "engine/engine.h"

/* NULL when out of memory. */
ls_arena *ls_arena_new(void);
/* The arena: its allocations, newest first (columns.c).  Visible here so
** the engine can tell cheaply, once per row, whether a reset has anything
** to free (ls_arena_empty). */
struct ls_arena {
  struct arena_block *head;
};

static inline int ls_arena_empty(const ls_arena *arena) {
  return !arena || !arena->head;
}

/* Frees everything allocated since the last reset. */
void ls_arena_reset(ls_arena *arena);
void ls_arena_free(ls_arena *arena);

#endif
