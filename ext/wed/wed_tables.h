/*
** wed_tables.h: registration of the Infinity Engine WED table family and its
** SQL helpers.
*/
#ifndef LEVELSQL_WED_TABLES_H
#define LEVELSQL_WED_TABLES_H

#include "engine/engine.h"

extern const ls_format wed_format;

/* The "wed" format (levelsql_files recognises WED V1.3 files) and the
** tables wed_overlays, wed_doors, wed_polygons, wed_tiles, wed_wallgroups. */
extern const ls_family wed_family;

/* wed_flag_names(flags) and wed_flag_value(names) (wed_functions.c). */
int wed_functions_register(sqlite3 *db);

/* The family's SQL functions, its render function included
** (wed_render.c): the family's ls_family.register_functions. */
int wed_register_functions(sqlite3 *db, ls_session *sess);

/* What levelsql_atlas shows of an area: its tiles, with the actors and doors of the ARE beside it (wed_render.c). */
extern const ls_atlas_kind wed_atlas;

#endif
