/*
** wwd_tables.h: registration of the WWD table family and its SQL helpers.
*/
#ifndef LEVELSQL_WWD_TABLES_H
#define LEVELSQL_WWD_TABLES_H

#include "engine/engine.h"

extern const ls_format wwd_format;

/* wwd_levels, wwd_planes, wwd_objects, wwd_tiles, wwd_tile_properties. */
extern const ls_family wwd_family;

/* wwd_flag_names(kind, value) and wwd_flag_value(kind, names). */
int wwd_functions_register(sqlite3 *db);

/* The family's SQL functions, its render function included
** (wwd_render.c): the family's ls_family.register_functions. */
int wwd_register_functions(sqlite3 *db, ls_session *sess);

/* What levelsql_atlas shows of a level: its objects per logic, the main plane with its objects labelled (wwd_render.c). */
extern const ls_atlas_kind wwd_atlas;

#endif
