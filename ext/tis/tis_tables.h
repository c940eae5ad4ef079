/*
** tis_tables.h: registration of the Infinity Engine tileset (TIS) table
** family: the "tis" format and the table tis_tiles, and the "pvrz" format
** of their pages.
*/
#ifndef LEVELSQL_TIS_TABLES_H
#define LEVELSQL_TIS_TABLES_H

#include "engine/engine.h"

extern const ls_format tis_format;

/* The "tis" format (levelsql_files recognises TIS V1 files, palette and
** PVRZ tilesets) and the table tis_tiles. */
extern const ls_family tis_family;

/* The "pvrz" format (the pages of PVRZ tilesets, recognised by their
** .pvrz extension), without tables: levelsql_files lists pages and their
** errors. */
extern const ls_format pvrz_format;
extern const ls_family pvrz_family;

#endif
