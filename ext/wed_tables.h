/*
** wed_tables.h: registration of the Infinity Engine WED table family and its
** SQL helpers.
*/
#ifndef LEVELSQL_WED_TABLES_H
#define LEVELSQL_WED_TABLES_H

#include "engine.h"

extern const ls_format wed_format;

/* Registers the "wed" format (so levelsql_files recognises WED V1.3 files),
** the tables wed_overlays, wed_doors, wed_polygons, wed_tiles and
** wed_wallgroups, and the functions wed_flag_names(flags) and
** wed_flag_value(names). */
int wed_tables_register(sqlite3 *db, ls_session *sess);

/* The two functions alone (wed_functions.c); wed_tables_register calls it. */
int wed_functions_register(sqlite3 *db);

#endif
