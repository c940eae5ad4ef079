/*
** copy.h: levelsql_copy(src, dst [, overwrite]), a new level file from a
** template, for every format (copy.c).
*/
#ifndef LEVELSQL_COPY_H
#define LEVELSQL_COPY_H

#include "engine/engine.h"

/* Registers levelsql_copy on the connection; it holds a reference to the
** session it checks the source through. */
int copy_function_register(sqlite3 *db, ls_session *sess);

#endif
