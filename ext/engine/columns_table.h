/*
** columns_table.h: the levelsql_columns table (documentation of all tables).
*/
#ifndef LEVELSQL_COLUMNS_TABLE_H
#define LEVELSQL_COLUMNS_TABLE_H

#include "engine/engine.h"

int columns_table_register(sqlite3 *db, ls_session *sess);

#endif
