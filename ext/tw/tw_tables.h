/*
** tw_tables.h: registration of the Teeworlds / DDNet map table family.
*/
#ifndef LEVELSQL_TW_TABLES_H
#define LEVELSQL_TW_TABLES_H

#include "engine/engine.h"

extern const ls_format tw_format;

/* tw_maps, tw_groups, tw_layers, tw_tiles, tw_quads, tw_images,
** tw_envelopes, tw_sounds, tw_sound_sources, and the "tw" format for
** levelsql_files. */
extern const ls_family tw_family;

/* tw_tile_name(kind, id) and tw_tile_id(kind, name) (tw_functions.c). */
int tw_functions_register(sqlite3 *db);

/* The family's SQL functions, its render function included
** (tw_render.c): the family's ls_family.register_functions. */
int tw_register_functions(sqlite3 *db, ls_session *sess);

/* What levelsql_atlas shows of a map: its layers, tiles and entities, the map as the game shows it (tw_render.c). */
extern const ls_atlas_kind tw_atlas;

#endif
