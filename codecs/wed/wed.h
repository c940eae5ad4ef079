/*
** wed.h: the Infinity Engine WED V1.3 area codec (Baldur's Gate, Icewind
** Dale, Planescape: Torment and the Enhanced Editions).
**
** Pure C, no SQLite.  wed_parse turns the bytes of a .WED file into a
** wed_area; wed_serialize turns a wed_area back into file bytes.  The byte
** layout and the measured quirks are in ../shared/formats/wed.md.
**
** Model choices, and why:
** - The model mirrors the file's tables: each table is an array, and records
**   refer into the next table by (start, count) exactly as on disk (tilemap
**   cell -> tile lookup, door -> door cells, polygon -> vertices, wall group
**   -> polygon lookup, door -> polygon records).  So anything a file does
**   (shared runs, holes, an out-of-range lookup entry) is represented as it
**   is and written back as it is.
** - The counts the file does not store are derived on parse as wed.md says:
**   door cells = max(first+count) over doors, tile lookup = max(start+count)
**   over the overlay's cells, polygons = max(wall count, door index+count),
**   vertices = max(first+count) over polygons, wall groups = ceil(W/10) *
**   ceil(2H/15) of the base overlay, polygon lookup = max(start+count).
** - Polygons live in one array: wall polygons [0, num_walls), then the door
**   polygons.  A door refers to its open and closed records by index into
**   that array (the file stores byte offsets; index = (offset - polygon
**   offset) / 18).  Each polygon carries a `uid`, unique within one area for
**   its lifetime and never stored in the file, so a caller can find "the
**   same polygon" again after inserts and deletes (wed_polygon_find); it is
**   the natural rowid of a polygon table, since indices of later polygons
**   shift when a wall is inserted or deleted.
** - Writing: if every table still has the length it was read with and the
**   file's sections did not overlap, each table is written back at its
**   original offset over a copy of the original bytes (so an unmodified
**   area is byte-identical, gaps and trailing bytes included).  Otherwise
**   the file is laid out again in the common order (header, overlays,
**   secondary header, doors, tilemaps, door cells, tile lookups, wall
**   groups, wall polygons, door polygons, polygon lookup, vertices) with all
**   offsets fixed up.
** - Edits that change polygons (wed_polygon_set_vertices / _set_bbox /
**   _insert_wall / _delete_wall, and one vertex at a time:
**   wed_polygon_insert_vertex / _delete_vertex, wed_vertex_set) regenerate the wall groups and the polygon
**   lookup at once from the 640x480-pixel grid (see
**   wed_wallgroups_regenerate), so wed_area always shows what will be
**   written.  Polygons nobody touched keep their stored values (a stale
**   bounding box stays as it was, and the grid uses it).
**
** - Structural edits (wed_edit.c, see NOTES-wed.md): doors and door
**   polygons are inserted and deleted with their cells and references, and
**   overlays resized (0x0 = unused; records are never added or removed),
**   overlay 0 carrying the door cells and the wall group grid along.
**
** Fields a caller may assign directly (they never change a table's size):
**   wed_overlay.tileset / unique_tiles / movement_type,
**   wed_door.name / closed,
**   wed_tilecell.secondary_tile / overlay_mask / anim_speed / unknown,
**   wed_polygon.flags / height.
** Everything else goes through the functions below, which keep the tables
** consistent and leave the area unchanged when they fail.
**
** Ownership: wed_parse and wed_clone return an area the caller frees with
** wed_free.  Every array inside is owned by the area (malloc'd).  Pointers
** returned by the accessors point into the area and stay valid until the
** next edit.  wed_serialize's output is malloc'd; the caller frees it with
** free().  Input buffers are only borrowed (wed_parse copies what it keeps).
*/
#ifndef LEVELSQL_WED_H
#define LEVELSQL_WED_H

#include <stddef.h>
#include <stdint.h>

#include "common/codec_error.h"
#include "common/codec_limits.h"

#define WED_HEADER_SIZE 32u
#define WED_OVERLAY_SIZE 24u
#define WED_SECHDR_SIZE 20u
#define WED_DOOR_SIZE 26u
#define WED_TILECELL_SIZE 10u
#define WED_POLYGON_SIZE 18u
#define WED_WALLGROUP_SIZE 4u
#define WED_VERTEX_SIZE 4u

/* Wall group cell size in pixels (10 x 7.5 tiles of 64 px). */
#define WED_GROUP_W 640u
#define WED_GROUP_H 480u

#define WED_NO_TILE 0xFFFFu /* wed_tilecell.secondary_tile: none */

/* Polygon flag bits (names after Near Infinity / GemRB, which the data
** supports; see wed.md section 10). */
#define WED_PF_SHADE_WALL 0x01u
#define WED_PF_SEMI_TRANSPARENT 0x02u
#define WED_PF_HOVERING 0x04u
#define WED_PF_COVER_ANIMATIONS 0x08u
#define WED_PF_DOOR 0x80u

typedef struct wed_point {
  uint16_t x, y;
} wed_point;

/* One 10-byte tilemap record. */
typedef struct wed_tilecell {
  uint16_t tile_start;     /* into the overlay's lookup table */
  uint16_t tile_count;     /* frames; >1 animated */
  uint16_t secondary_tile; /* TIS tile, WED_NO_TILE for none */
  uint8_t overlay_mask;    /* bit n: draw overlay n here */
  uint8_t anim_speed;
  uint16_t unknown;        /* bytes 8-9, always 0 in real files; kept */
} wed_tilecell;

typedef struct wed_overlay {
  uint16_t width, height;      /* in 64x64 tiles; not editable */
  unsigned char tileset[8];    /* resref, NUL padded */
  uint16_t unique_tiles;
  uint16_t movement_type;
  uint32_t num_cells;          /* width*height when used, else 0 */
  wed_tilecell *cells;         /* row-major, cell = y*width + x */
  uint32_t num_lookup;
  uint16_t *lookup;            /* TIS tile numbers */
  /* Layout as read (used by in-place writes only). */
  uint32_t tilemap_offset, lookup_offset;
  uint32_t orig_num_cells, orig_num_lookup;
} wed_overlay;

typedef struct wed_door {
  unsigned char name[8];
  uint16_t closed;
  uint16_t first_cell, cell_count; /* into wed_area.door_cells */
  uint16_t open_count, closed_count;
  uint32_t open_first, closed_first; /* indices into wed_area.polygons */
  /* A zero-count state whose offset is not a polygon record position keeps
  ** its raw offset here (flag set); it is never dereferenced. */
  uint32_t open_offset_raw, closed_offset_raw;
  uint8_t open_raw, closed_raw;
  uint32_t uid; /* model-only identity, like wed_polygon.uid (never written) */
} wed_door;

typedef struct wed_polygon {
  uint32_t uid;           /* model-only identity */
  uint32_t first_vertex;  /* into wed_area.vertices */
  uint32_t vertex_count;
  uint8_t flags;          /* WED_PF_* */
  uint8_t height;
  uint16_t min_x, max_x, min_y, max_y; /* stored bounding box */
} wed_polygon;

typedef struct wed_wallgroup {
  uint16_t start, count; /* into wed_area.poly_lookup */
} wed_wallgroup;

/* Offsets of the sections as read (in-place writes reuse them). */
typedef struct wed_offsets {
  uint32_t overlays, sechdr, doors, door_cells;
  uint32_t polygons, vertices, wallgroups, poly_lookup;
} wed_offsets;

typedef struct wed_area {
  uint32_t num_overlays;
  wed_overlay *overlays;       /* [0] is the base layer */
  uint32_t num_doors;
  wed_door *doors;
  uint32_t num_door_cells;
  uint16_t *door_cells;        /* base-overlay cell indices */
  uint32_t num_walls;          /* polygons[0, num_walls) are walls */
  uint32_t num_polygons;       /* walls + door polygons */
  wed_polygon *polygons;
  uint32_t num_vertices;
  wed_point *vertices;
  uint32_t num_wallgroups;     /* wed_wallgroup_grid() cells, row-major */
  wed_wallgroup *wallgroups;
  uint32_t num_poly_lookup;
  uint16_t *poly_lookup;       /* polygon indices (may be out of range as read) */
  /* Layout as read, for byte-identical writes. */
  wed_offsets offsets;
  unsigned char *orig;         /* copy of the parsed file, NULL if none */
  size_t orig_size;
  int overlap;                 /* the file's sections overlapped */
  uint32_t orig_num_overlays, orig_num_doors, orig_num_door_cells, orig_num_polygons;
  uint32_t orig_num_vertices, orig_num_wallgroups, orig_num_poly_lookup;
  uint32_t next_uid;           /* uids are 0..num_polygons-1 after parse */
  uint32_t next_door_uid;      /* door uids are 0..num_doors-1 after parse */
  /* Vertex identity (model-only, like the polygon uid): vertex k of polygon
  ** p has a uid that stays while vertices and polygons around it come and
  ** go (wed_vertex_uid).  NULL until an edit changes a vertex count or the
  ** polygon order: a vertex's uid is then its row number (the vertices of
  ** the polygons before it, plus k).  Else one uid per row, polygon after
  ** polygon in polygon order (num_vertex_uids = the sum of vertex_count),
  ** and next_vertex_uid the next fresh one. */
  uint32_t *vertex_uids;
  uint32_t num_vertex_uids, next_vertex_uid;
} wed_area;

enum wed_polygon_kind {
  WED_POLY_WALL,
  WED_POLY_DOOR_OPEN,
  WED_POLY_DOOR_CLOSED,
  WED_POLY_ORPHAN /* after the walls but referenced by no door */
};

/* ---- whole files -------------------------------------------------------- */

/* Returns 1 if the buffer starts with 'WED V1.3'. */
int wed_sniff(const unsigned char *data, size_t size);

/* Parses a whole file.  Returns 1 and sets *out (caller frees with
** wed_free), or 0 with err naming the section, index and byte offset.  Other
** versions ('WED V1.4', ...) are rejected. */
int wed_parse(const unsigned char *data, size_t size, wed_area **out, codec_error *err);

/* wed_parse polling `cancel` (NULL: never) every few MiB of work: when it
** says stop, fails with CODEC_E_INTERRUPT ("interrupted"), nothing kept. */
int wed_parse_cancel(const unsigned char *data, size_t size, const codec_cancel *cancel, wed_area **out,
                     codec_error *err);

/* Serializes an area (see the model notes for in-place vs. new layout).
** Checks the model first (wed_check).  Returns 1 and a malloc'd buffer the
** caller frees, or 0 with err. */
int wed_serialize(const wed_area *a, unsigned char **out, size_t *out_size, codec_error *err);

/* Checks every (start, count) reference and size limit wed_serialize needs.
** Returns 1 if consistent, else 0 with err. */
int wed_check(const wed_area *a, codec_error *err);

/* Deep copy (NULL when memory runs out); uids and next_uid are kept. */
wed_area *wed_clone(const wed_area *a);

void wed_free(wed_area *a);

/* ---- reading helpers ---------------------------------------------------- */

/* Wall group grid of the base overlay: gx = ceil(W/10), gy = ceil(2H/15);
** group g covers x in [640*(g % gx), +640), y in [480*(g / gx), +480). */
void wed_wallgroup_grid(const wed_area *a, uint32_t *gx, uint32_t *gy);

/* The top left corner of wall group g's cell in pixels, (640*(g % gx),
** 480*(g / gx)); (0, 0) when the grid is empty. */
void wed_wallgroup_origin(const wed_area *a, uint32_t g, int64_t *x_px, int64_t *y_px);

/* The TIS tile numbers of a tilemap cell (lookup[start .. start+count)).
** Returns the count and points *tiles into the area, or 0 (and NULL) when
** overlay or cell do not exist. */
uint32_t wed_cell_tiles(const wed_area *a, uint32_t overlay, uint32_t cell, const uint16_t **tiles);

/* A door's cells (door_cells[first .. first+count)); 0 if no such door. */
uint32_t wed_door_cells(const wed_area *a, uint32_t door, const uint16_t **cells);

/* A polygon's vertices; 0 if no such polygon. */
uint32_t wed_polygon_vertices(const wed_area *a, uint32_t poly, const wed_point **pts);

/* Vertex k of polygon poly ({0, 0} if it has no vertex k). */
wed_point wed_vertex_at(const wed_area *a, uint32_t poly, uint32_t k);

/* What polygon `poly` is, and (for door kinds) which door owns it: the first
** door whose open or closed range contains it; *door = -1 otherwise. */
enum wed_polygon_kind wed_polygon_kind_of(const wed_area *a, uint32_t poly, long *door);

/* 'wall', 'door_open', 'door_closed', 'orphan'; the names indexed by
** kind, NULL-terminated. */
const char *wed_polygon_kind_name(enum wed_polygon_kind kind);
extern const char *const wed_polygon_kind_names[];

/* The polygon indices listed in wall group g; 0 if no such group. */
uint32_t wed_wallgroup_polygons(const wed_area *a, uint32_t g, const uint16_t **polys);

/* Finds a door by uid (wed_door.uid: kept while other doors come and go).
** Returns 1 and sets *door, or 0. */
int wed_door_find(const wed_area *a, uint32_t uid, uint32_t *door);

/* Finds a polygon by uid.  Returns 1 and sets *poly, or 0. */
int wed_polygon_find(const wed_area *a, uint32_t uid, uint32_t *poly);

/* The uid of vertex k of polygon poly (both must exist): unique among all
** vertex rows of the area, kept while other vertices and polygons are
** inserted and deleted (the natural rowid of a vertex table).  Below 2^32
** once any edit has numbered the vertices; before, the row number. */
uint64_t wed_vertex_uid(const wed_area *a, uint32_t poly, uint32_t k);

/* Finds a vertex by uid.  Returns 1 and sets *poly and *k, or 0. */
int wed_vertex_find(const wed_area *a, uint64_t uid, uint32_t *poly, uint32_t *k);

/* Twice the signed area of a polygon (shoelace formula, closing edge
** included): positive when the points run counter-clockwise in y-up
** axes; 0 for fewer than 3 points. */
int64_t wed_shoelace2(const wed_point *pts, size_t n);

/* Length of an 8-byte resref / door name: the bytes before the first NUL
** (8 if none). */
size_t wed_resref_len(const unsigned char field[8]);

/* Stores n bytes (no NUL inside, n <= 8) into an 8-byte field, NUL padded.
** If the field already holds exactly these bytes nothing changes, so bytes
** after the NUL survive a no-op update.  Returns 0 (field unchanged) when n
** > 8 or s contains a NUL. */
int wed_resref_set(unsigned char field[8], const char *s, size_t n);

/* ---- flag names ---------------------------------------------------------- */

/* Writes the names of the set bits, joined by '|', into buf (NUL
** terminated; "" for 0): shade_wall, semi_transparent, hovering,
** cover_animations, bit4, bit5, bit6, door.  WED_FLAG_NAMES_MAX bytes
** always suffice.  Returns the length. */
#define WED_FLAG_NAMES_MAX 96
size_t wed_flag_names(unsigned flags, char *buf, size_t bufsize);

/* Parses such a list back (names in any order, '|' separated, spaces around
** names ignored, "" = 0).  Returns 1 and sets *flags, or 0 with err naming
** the unknown word. */
int wed_flag_parse(const char *text, unsigned *flags, codec_error *err);

/* ---- edits ---------------------------------------------------------------- */

/* Replaces the TIS tiles of a tilemap cell (1..65535 tiles).  Written in
** place when the count is the same and no other cell shares the run; else
** the overlay's lookup table is rebuilt cell after cell. */
int wed_cell_set_tiles(wed_area *a, uint32_t overlay, uint32_t cell, const uint16_t *tiles, size_t n,
                       codec_error *err);

/* Replaces a door's cells (each must be a base-overlay cell).  In place when
** the count is the same and unshared; else the door cell table is rebuilt
** door after door. */
int wed_door_set_cells(wed_area *a, uint32_t door, const uint16_t *cells, size_t n, codec_error *err);

/* Replaces a polygon's vertices (wall or door polygon) and recomputes its
** bounding box from all of them (0xFFFF x4 for none); regenerates the wall
** groups.  Vertex uids are kept by position; vertices beyond the old count
** get fresh ones. */
int wed_polygon_set_vertices(wed_area *a, uint32_t poly, const wed_point *pts, size_t n, codec_error *err);

/* Sets a polygon's stored bounding box; regenerates the wall groups. */
int wed_polygon_set_bbox(wed_area *a, uint32_t poly, uint16_t min_x, uint16_t max_x, uint16_t min_y,
                         uint16_t max_y, codec_error *err);

/* Adds a wall polygon after the last wall (door polygons move up by one),
** with a new uid and a bounding box from its vertices; regenerates the wall
** groups.  *poly (may be NULL) gets its index. */
int wed_polygon_insert_wall(wed_area *a, uint8_t flags, uint8_t height, const wed_point *pts, size_t n,
                            uint32_t *poly, codec_error *err);

/* Removes wall polygon `poly` (door polygons cannot be removed: they belong
** to a door's state); later polygons move down; regenerates the wall groups. */
int wed_polygon_delete_wall(wed_area *a, uint32_t poly, codec_error *err);

/* Adds a polygon to door `door`'s open state (closed_state 0) or closed
** state (1), after the state's last polygon (an empty state: where its
** offset points, or after every polygon), with a new uid and a bounding box
** from its vertices; later polygons and the other doors' references move up
** by one; regenerates the wall groups.  Refused (CODEC_E_ARG) when that
** place lies inside another state's run (files whose runs overlap).  *poly
** (may be NULL) gets its index. */
int wed_polygon_insert_door(wed_area *a, uint32_t door, int closed_state, uint8_t flags, uint8_t height,
                            const wed_point *pts, size_t n, uint32_t *poly, codec_error *err);

/* Removes polygon `poly`, wall or door polygon (a door state that held it
** loses it), with its vertex run; later polygons move down; regenerates the
** wall groups. */
int wed_polygon_delete(wed_area *a, uint32_t poly, codec_error *err);

/* Per-vertex edits of polygon poly (wall or door polygon), for a table with
** one row per vertex: insert a point before vertex `at` (at = vertex_count:
** after the last), delete vertex `at`, set vertex `at`.  Each recomputes
** the polygon's bounding box from all its points and regenerates the wall
** groups, as wed_polygon_set_vertices does; the other vertices keep their
** uids and the inserted one gets a fresh uid.  Out-of-range poly or at:
** CODEC_E_ARG, area unchanged. */
int wed_polygon_insert_vertex(wed_area *a, uint32_t poly, uint32_t at, wed_point pt, codec_error *err);
int wed_polygon_delete_vertex(wed_area *a, uint32_t poly, uint32_t at, codec_error *err);
int wed_vertex_set(wed_area *a, uint32_t poly, uint32_t at, wed_point pt, codec_error *err);

/* ---- structural edits (wed_edit.c) ------------------------------------------ */

/* Appends a door: no name, closed = 1 (as in every real file), no cells,
** no polygons (its empty states point after the last polygon), a new uid.
** *door (may be NULL) gets its index. */
int wed_door_insert(wed_area *a, uint32_t *door, codec_error *err);

/* Removes door `door` with its polygons (both states), its door cells and
** its record; later doors move down, polygon references and the wall
** groups follow.  Refused when one of its polygon records also belongs to
** another door's state (files whose runs overlap).  All or nothing. */
int wed_door_delete(wed_area *a, uint32_t door, codec_error *err);

/* Resizes overlay `overlay` to width x height tiles, keeping every cell
** that still lies inside at its (x, y).  New cells repeat the primary
** tiles (and animation speed) of the old cell at (x mod old width, y mod old
** height), with no secondary tile and an empty overlay mask; a new overlay
** (0x0 before) starts with TIS tile 0 everywhere.  The tile lookup is
** rebuilt cell after cell.  0x0 (overlays 1.. only) makes the record unused
** and clears bit `overlay` of every cell's overlay mask.  Overlay 0 is the
** area: its door cells are renumbered to the new width (refused naming the
** door when one falls outside), and when the 640x480 grid changes the wall
** groups are regenerated.  All or nothing. */
int wed_overlay_resize(wed_area *a, uint32_t overlay, uint16_t width, uint16_t height, codec_error *err);

/* Rebuilds the wall groups and the polygon lookup from the grid: group g
** lists, ascending, every polygon (wall or door) with at least one vertex
** and a well-formed stored bounding box (min <= max) that meets g's cell,
** bounds inclusive.  This reproduces every reference stored in the 98
** corpus files.  Returns 0 (area unchanged) when a 16-bit field overflows. */
int wed_wallgroups_regenerate(wed_area *a, codec_error *err);

/* Recomputes a bounding box from points (0xFFFF x4 when n == 0). */
void wed_bbox_of(const wed_point *pts, size_t n, uint16_t *min_x, uint16_t *max_x, uint16_t *min_y,
                 uint16_t *max_y);

/* ---- edits as the wed_* tables make them (wed_edit.c) ----------------------- */

/* The rules a WED file sets for adding, changing and deleting its parts,
** as levelsql's wed_* tables (ext/wed) apply them to a row's values, so
** that the tables only map their columns to these calls.  Each takes plain
** values; on refusal the message is the one the table shows, naming the
** table's columns (which are the fields of the records here) and what to
** do instead. */

/* The overlay record a new overlay takes: *want (NULL: the first unused
** one, from 1).  Refused: overlay 0 (the base overlay, always in use), a
** record the file does not have and a used one (not 0x0); WED files keep
** their overlay records, so none is added.  *overlay gets the record. */
int wed_overlay_pick(const wed_area *a, const int64_t *want, uint32_t *overlay, codec_error *err);

/* Writes back an edited copy of overlay record `overlay`: the fields that
** size nothing (tileset, unique_tiles, movement_type) and, when `resize`
** (even to the same size: 0x0 again clears the overlay's mask bits), its
** width and height through wed_overlay_resize ("cannot resize: ..."). */
int wed_overlay_update(wed_area *a, uint32_t overlay, const wed_overlay *now, int resize, codec_error *err);

/* Empties overlay 1..: 0x0 through wed_overlay_resize ("cannot delete:
** ..."), no tileset, no tile counts; the record stays.  Overlay 0, the
** base overlay, is the area itself and is refused. */
int wed_overlay_empty(wed_area *a, uint32_t overlay, codec_error *err);

/* wed_door_insert ("cannot insert a door: ...") at the door number *at
** asks for (NULL: none asked), which must be the next one: new doors go
** after the last. */
int wed_door_insert_at(wed_area *a, const int64_t *at, uint32_t *door, codec_error *err);

/* Whether cells[0..n) may be a door's cells: the base overlay has cells,
** and each is one of them (the message names the element and the base
** overlay's size).  Checks only; wed_door_set_cells sets them. */
int wed_door_cells_valid(const wed_area *a, const uint16_t *cells, size_t n, codec_error *err);

/* Writes back an edited copy of door record `door`: the fields a caller
** assigns (name, closed) and, when `new_cells`, cells[0..n) as its cells,
** checked by wed_door_cells_valid and set by wed_door_set_cells. */
int wed_door_update(wed_area *a, uint32_t door, const wed_door *now, const uint16_t *cells, size_t n, int new_cells,
                    codec_error *err);

/* Writes back an edited copy of tilemap cell `cell` of overlay `overlay`:
** the fields a caller assigns (secondary_tile, overlay_mask, anim_speed,
** unknown) and, when `new_tiles`, tiles[0..n) as its TIS tiles
** (wed_cell_set_tiles). */
int wed_cell_update(wed_area *a, uint32_t overlay, uint32_t cell, const wed_tilecell *now, const uint16_t *tiles, size_t n,
                    int new_tiles, codec_error *err);

/* Writes back an edited copy of polygon `poly`: the fields a caller
** assigns (flags, height); when `new_vertices`, pts[0..n) as its vertices
** (wed_polygon_set_vertices: "column vertices: ..."), which recompute the
** box; then the box edges in `set` (wed_polygon_set_edges). */
int wed_polygon_update(wed_area *a, uint32_t poly, const wed_polygon *now, const wed_point *pts, size_t n, int new_vertices,
                       const int32_t edge[4], unsigned set, codec_error *err);

/* A polygon's stored bounding box as the edges wed_polygon_set_edges
** takes: min_x, max_x, min_y, max_y. */
void wed_polygon_edges(const wed_polygon *p, int32_t edge[4]);

/* Sets the edges of polygon poly's stored bounding box (k = 0..3: min_x,
** max_x, min_y, max_y) whose bit 1 << k is in `set` to edge[k], -1 meaning
** as its vertices give it; the others keep their stored values.  An axis
** with an edge set must come out with min <= max.  When the box changes,
** wed_polygon_set_bbox ("bounding box: ...") regenerates the wall groups. */
int wed_polygon_set_edges(wed_area *a, uint32_t poly, const int32_t edge[4], unsigned set, codec_error *err);

/* Flags and height of a polygon added by wed_polygon_insert_kind, until
** the caller sets others: a wall is a shade wall; a door polygon is door,
** cover animations and shade wall (0x89, as all 370 door polygons of the
** corpus); the height is that of 99.98% of real polygons. */
#define WED_NEW_WALL_FLAGS WED_PF_SHADE_WALL
#define WED_NEW_DOOR_FLAGS (WED_PF_DOOR | WED_PF_COVER_ANIMATIONS | WED_PF_SHADE_WALL)
#define WED_NEW_POLYGON_HEIGHT 0xFF

/* Adds a polygon without vertices by kind: "wall" (or kind NULL) without a
** door, a wall after the last wall (wed_polygon_insert_wall); "door_open"
** or "door_closed" with door *door, a polygon at the end of that door's
** state (wed_polygon_insert_door).  Later polygons move up by one.  A
** door name is not taken (a door polygon's name is its door's): a caller
** given one passes door_name_given and is refused.  *poly gets the new
** polygon's index. */
int wed_polygon_insert_kind(wed_area *a, const char *kind, const int64_t *door, int door_name_given, uint32_t *poly,
                            codec_error *err);

/* A door or a polygon named for messages, into buf (NUL-terminated, cut
** at size): "door 2 'DOOR0202'", "wall polygon 3", "door_open polygon 9
** of door 1 'DOOR0201'" (a name's bytes outside printable ASCII as '?'). */
void wed_door_describe(const wed_area *a, uint32_t door, char *buf, size_t size);
void wed_polygon_describe(const wed_area *a, uint32_t poly, char *buf, size_t size);
/* "vertex 2 of wall polygon 0": vertex k of polygon poly. */
void wed_vertex_describe(const wed_area *a, uint32_t poly, uint32_t k, char *buf, size_t size);

/* ---- memory ---------------------------------------------------------------- */

/* About how many bytes of memory an area holds: its tables and the copy of
** the original file it keeps for in-place writes (for a cache budget). */
size_t wed_footprint(const wed_area *a);

#endif
