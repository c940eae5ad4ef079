/*
** files_table.h: the levelsql_files table.
*/
#ifndef LEVELSQL_FILES_TABLE_H
#define LEVELSQL_FILES_TABLE_H

#include "engine/engine.h"

int files_table_register(sqlite3 *db, ls_session *sess);

#endif
