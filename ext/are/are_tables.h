/*
** are_tables.h: registration of the Infinity Engine ARE (AREA V1.0) table
** family and its SQL helpers.
*/
#ifndef LEVELSQL_ARE_TABLES_H
#define LEVELSQL_ARE_TABLES_H

#include "engine/engine.h"

extern const ls_format are_format;

/* The "are" format (levelsql_files recognises AREA V1.0 files) and the
** tables are_areas, are_actors, are_regions, are_spawns, are_entrances,
** are_containers, are_items, are_ambients, are_variables, are_doors,
** are_animations, are_notes, are_traps, are_tiled_objects. */
extern const ls_family are_family;

/* are_flag_names(set, flags) and are_flag_value(set, names)
** (are_functions.c): the family's ls_family.register_functions. */
int are_register_functions(sqlite3 *db, ls_session *sess);

/* What levelsql_atlas shows of an ARE without its WED: what it places (are_atlas.c). */
extern const ls_atlas_kind are_atlas;

#endif
