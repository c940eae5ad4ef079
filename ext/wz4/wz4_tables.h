/*
** wz4_tables.h: registration of the werkkzeug4 (.wz4) table family.
*/
#ifndef LEVELSQL_WZ4_TABLES_H
#define LEVELSQL_WZ4_TABLES_H

#include "engine/engine.h"

extern const ls_format wz4_format;

/* wz4_pages, wz4_operators, wz4_links, and the "wz4" format for
** levelsql_files. */
extern const ls_family wz4_family;

/* The family's SQL functions, its render function included
** (wz4_render.c): the family's ls_family.register_functions. */
int wz4_register_functions(sqlite3 *db, ls_session *sess);

/* What levelsql_atlas shows of a project: its operators, every page's graph (wz4_render.c). */
extern const ls_atlas_kind wz4_atlas;

#endif
