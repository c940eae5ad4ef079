/*
** wed_tables.c: the Infinity Engine WED V1.3 table family (wed_overlays,
** wed_doors, wed_polygons, wed_tiles, wed_wallgroups), declared for the
** generic engine over the codec in codecs/wed/wed.h: column lists, records and
** row shapes (its SQL helpers are in wed_functions.c); wed_vertices shows
** the polygons' vertices one per row.
**
** - A row's record is the codec's own struct (wed_overlay, wed_door, ...)
**   as loaded, plus what load() derives: the runs the row refers to (tile
**   lookup, door cells, vertices, polygon lookup: shown in place, 16-bit),
**   a polygon's kind and door.  store() hands the edited record to the
**   codec (wed_*_update), and INSERT and DELETE are codec calls too: the
**   rules of a WED file, and the messages that say them, are the codec's
**   (wed_edit.c), so this file only maps columns to its calls.
** - Keys: overlays, doors, wall groups and tile cells never move, so their
**   key is their position; polygons move when walls are inserted or
**   deleted, so theirs is the codec's polygon uid, and a vertex's is the
**   codec's vertex uid (see wed.h).
** - Bounding box vs. vertices: new vertices recompute the box, an edge set
**   in the same UPDATE wins, an edge set to NULL comes from the vertices
**   (wed_polygon_update, from the columns the UPDATE changes).
*/
#include "wed/wed.h"
#include "engine/engine.h"
#include "wed/wed_tables.h"

/* ---- the format ------------------------------------------------------------ */

#define AREA(row) ((wed_area *)(row)->model)

static const char *const wed_extensions[] = {".wed", NULL};

LS_CODEC_ADAPTERS(wed, wed_area, wed_parse, wed_serialize, wed_clone, wed_free, wed_footprint)
LS_CODEC_CANCEL_ADAPTER(wed, wed_area, wed_parse_cancel)

/* Text in WED files is 8-bit, in the code page the option names. */
static const ls_option *const wed_options[] = {&ls_option_encoding, NULL};

const ls_format wed_format = {
  .name = "wed", .extensions = wed_extensions, .sniff = wed_sniff, LS_CODEC_FORMAT_FIELDS(wed),
  .options = wed_options, .parse_reusing = wed_format_parse_reusing, /* polls the cancel, reuses nothing */
  /* no validate: the getters read the parsed model as it is, only memory can run out; no shed: nothing is
  ** decoded lazily; no decoded_claim: the parse decoded everything,
  ** its footprint counts (limits.c); no bytes_claim: the parse inflates nothing */
};

/* ---- shared helpers --------------------------------------------------------- */

/* The shapes' counts: the area's arrays, an overlay's size in tiles. */
LS_COUNT_OF(overlay_count, wed_area, num_overlays)
LS_COUNT_OF(door_count, wed_area, num_doors)
LS_COUNT_OF(polygon_count, wed_area, num_polygons)
LS_COUNT_OF(group_count, wed_area, num_wallgroups)
LS_INNER_COUNT_OF(overlay_width, wed_area, overlays, width)
LS_INNER_COUNT_OF(overlay_height, wed_area, overlays, height)

/* ---- wed_overlays -------------------------------------------------------------- */

LS_LOAD_ELEMENT(overlay_load, wed_area, overlays, wed_overlay)

/* Columns overlay_store looks at (placed there in overlay_columns). */
enum { OCOL_WIDTH = 1, OCOL_HEIGHT = 2 };

/* The record back to the codec, which resizes the tilemap and what
** depends on it when the UPDATE sets width or height (wed_overlay_update). */
LS_STORE_CALL(overlay_store, wed_overlay, NULL,
              wed_overlay_update(AREA(row), (uint32_t)row->pos.element, rec, changed[OCOL_WIDTH] || changed[OCOL_HEIGHT], &cerr))

/* INSERT: takes the unused (0x0) record wed_overlay_pick gives for a new
** overlay, the one `overlay` names or else the first (WED files keep their
** 5 records); the engine then sets width, height and tileset. */
typedef struct overlay_args { ls_arg overlay, width, height; } overlay_args;

static int overlay_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const overlay_args *args = args_;
  const wed_area *a = model;
  unsigned last = a->num_overlays ? a->num_overlays - 1 : 0;
  int64_t want = ls_arg_int64(&args->overlay);
  uint32_t at = 0;
  codec_error cerr = {0};
  if (!ls_arg_given(&args->width) || !ls_arg_given(&args->height) || ls_arg_int64(&args->width) < 1 ||
      ls_arg_int64(&args->height) < 1)
    return ls_refuse(err, "INSERT into wed_overlays needs width and height (1..65535 tiles); overlay (an unused record 1..%u) is optional", last);
  if (ls_arg_given(&args->overlay) && ls_arg_type(&args->overlay) != SQLITE_INTEGER)
    return ls_refuse(err, "column overlay: it takes an overlay number (an unused record 1..%u)", last);
  if (!wed_overlay_pick(a, ls_arg_given(&args->overlay) ? &want : NULL, &at, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, NULL);
  return ls_inserted_at(pos, at, 0);
}

/* DELETE of overlay 1..: its record becomes unused (0x0, no tileset), its
** tilemap goes and no cell's mask draws it (wed_overlay_empty, whose
** messages say DELETE). */
LS_REMOVE_CALL(overlay_remove, wed_area, wed_overlay_empty, NULL)

static const ls_column overlay_columns[] = {
  LS_COL_POS("overlay", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(5), "overlay number; 0 is the base layer, whose size is the area's"),
  [OCOL_WIDTH] = LS_COL_INT("width", LS_U16, wed_overlay, width, 0, "width in 64x64-pixel tiles (0 for an unused overlay); setting width or height resizes the tilemap: cells inside stay, new ones repeat the old tilemap's tiles; 0x0 empties overlays 1..; overlay 0 renumbers the door cells and the wall groups follow"),
  [OCOL_HEIGHT] = LS_COL_INT("height", LS_U16, wed_overlay, height, 0, "height in tiles"),
  LS_COL_TEXT_CHARS("tileset", LS_TEXT8, wed_overlay, tileset, 8, LS_COL_FULL, 0, "TIS resource name (8 bytes at most)"),
  LS_COL_INT("unique_tiles", LS_U16, wed_overlay, unique_tiles, 0, "unique tile count (0..65535; ignored by GemRB)"),
  LS_COL_INT("movement_type", LS_U16, wed_overlay, movement_type, 0, "movement type (0..65535; EE: 0 default, 1 disable rendering, 2 alternate rendering)"),
  LS_COL_INT("num_cells", LS_U32, wed_overlay, num_cells, LS_COL_RO, "tilemap cells: width*height (rows of wed_tiles)"),
  LS_COL_INT("num_lookup", LS_U32, wed_overlay, num_lookup, LS_COL_RO, "entries of the overlay's tile lookup table"),
};

static const ls_insert overlay_insertion =
    LS_INSERT(overlay_insert, overlay_args, LS_ARG(overlay_args, overlay), LS_ARG(overlay_args, width), LS_ARG(overlay_args, height));

static const ls_table wed_overlays = {
  .name = "wed_overlays", .format = &wed_format, LS_COLUMNS(overlay_columns),
  .doc = "one row per overlay record of each WED file (5 in real files, unused ones 0x0); UPDATE width/height resizes, INSERT takes an unused record for a new overlay, DELETE empties overlay 1.. (the record stays, 0x0)",
  .shape = LS_ARRAY(overlay_count), .row_name = "overlay {element}", .rows_per_file = 5, /* the corpus average */
  .insert = &overlay_insertion, .remove = overlay_remove,
  .record_size = sizeof(wed_overlay), .load = overlay_load, .store = overlay_store,
};

/* ---- wed_doors ------------------------------------------------------------------ */

/* wed_doors: the door record, its cells and its states' polygons. */
typedef struct door_rec {
  wed_door d;
  ls_span cells, open_polygons, closed_polygons;
} door_rec;

enum { DCOL_CELLS = 5 }; /* the column `cells` (placed there in door_columns) */

static int door_load(const ls_row *row, char **err) {
  door_rec *r = row->rec;
  int rc;
  (void)err;
  r->d = AREA(row)->doors[row->pos.element];
  LS_SPAN_CALL(r->cells, uint16_t, wed_door_cells(AREA(row), (uint32_t)row->pos.element, &run));
  /* a state's polygons: the indices first .. first+n-1 */
  if ((rc = ls_span_run(row->arena, &r->open_polygons, r->d.open_first, r->d.open_count)) != SQLITE_OK) return rc;
  return ls_span_run(row->arena, &r->closed_polygons, r->d.closed_first, r->d.closed_count);
}

/* name and closed; new cells, which must lie in the base overlay (the
** codec rebuilds the door cell table when the run cannot be rewritten in
** place: wed_door_update). */
LS_STORE_CALL(door_store, door_rec, "column cells",
              wed_door_update(AREA(row), (uint32_t)row->pos.element, &rec->d, rec->cells.p, rec->cells.n, changed[DCOL_CELLS], &cerr))

/* The uid: a door keeps it while doors before it come and go; the seek
** finds it wherever deletes moved it. */
LS_UID_KEYS(door, wed_area, doors, wed_door_find)

/* INSERT: a new door after the last (door, when given, must be that
** number), closed = 1, no cells and no polygons yet; the engine then sets
** name, closed and cells.  Its polygons come with INSERT INTO wed_polygons
** (kind 'door_open' or 'door_closed'). */
typedef struct door_args { ls_arg door; } door_args;

LS_INSERT_CALL(door_insert, door_args, wed_door_insert_at(model, ls_arg_opt_int(&args->door, -1, &(int64_t){0}), &element, &cerr))

/* DELETE of a door with its open and closed polygons and its cells; later
** doors move down by one, the wall groups follow. */
LS_REMOVE_CALL(door_remove, wed_area, wed_door_delete, "cannot delete")

/* Names a door row in error messages: number and name. */
LS_DESCRIBE_CALL(describe_door, wed_area, wed_door_describe)

/* The limit is the base overlay's, checked by wed_door_cells_valid. */
static const ls_json_shape cells_shape = {1, 0, SIZE_MAX, "[0,1]",
                                          "a JSON array of base-overlay cell indices (y*width+x, below num_cells of overlay 0), e.g. '[0,1]'"};

static const ls_column door_columns[] = {
  LS_COL_POS("door", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(3), "door number, 0-based (shifts when doors before it are deleted)"),
  LS_COL_TEXT_CHARS("name", LS_TEXT8, door_rec, d.name, 8, LS_COL_FULL, 0, "door name, matched with the ARE file's door (8 bytes at most)"),
  LS_COL_INT("closed", LS_U16, door_rec, d.closed, 0, "base state: non-zero is closed (1 in all real files); 0..65535"),
  LS_COL_INT("first_cell", LS_U16, door_rec, d.first_cell, LS_COL_RO, "first entry in the door cell table"),
  LS_COL_INT("cell_count", LS_U16, door_rec, d.cell_count, LS_COL_RO, "number of door cells"),
  [DCOL_CELLS] = LS_COL_JSON_INTS("cells", LS_SPAN16, door_rec, cells, 0, 0, 0, &cells_shape, "JSON array of the base-overlay cells (y*width+x) the door blocks when closed; setting it rebuilds the door cell table when needed"),
  LS_COL_JSON_INTS("open_polygons", LS_SPAN, door_rec, open_polygons, 0, 0, LS_COL_RO, NULL, "JSON array of the open state's polygons (wed_polygons.polygon)"),
  LS_COL_JSON_INTS("closed_polygons", LS_SPAN, door_rec, closed_polygons, 0, 0, LS_COL_RO, NULL, "JSON array of the closed state's polygons"),
  LS_COL_INT("open_count", LS_U16, door_rec, d.open_count, LS_COL_RO, "number of open-state polygons"),
  LS_COL_INT("closed_count", LS_U16, door_rec, d.closed_count, LS_COL_RO, "number of closed-state polygons"),
};

static const ls_insert door_insertion = LS_INSERT(door_insert, door_args, LS_ARG(door_args, door));

static const ls_table wed_doors = {
  .name = "wed_doors", .format = &wed_format, LS_COLUMNS(door_columns),
  .doc = "one row per door of each WED file; INSERT adds a door after the last (closed 1, no polygons: add them to wed_polygons), DELETE removes one with its polygons and cells",
  .shape = LS_ARRAY(door_count), .key = door_key, .seek = door_seek, .rows_per_file = 2, /* the corpus average */
  .insert = &door_insertion, .remove = door_remove, .describe = describe_door,
  .record_size = sizeof(door_rec), .load = door_load, .store = door_store,
};

/* ---- wed_polygons ---------------------------------------------------------------- */

/* wed_polygons: the polygon record; its box as given (-1: NULL, computed
** from the vertices), its kind and door, and its vertices as x, y pairs. */
typedef struct polygon_rec {
  wed_polygon p;
  int32_t box[4]; /* min_x, max_x, min_y, max_y */
  int32_t kind;   /* enum wed_polygon_kind */
  int64_t door;   /* -1: none */
  ls_span door_name, vertices;
} polygon_rec;

/* Columns polygon_insert and polygon_store look at; the lists place them
** there by designated index, so a list that disagrees draws -Woverride-init. */
enum { PCOL_MIN_X = 6, PCOL_VERTICES = 11 };

/* The uid: a polygon keeps it while walls before it come and go; the
** seek finds it wherever inserts and deletes moved it. */
LS_UID_KEYS(polygon, wed_area, polygons, wed_polygon_find)

static int polygon_load(const ls_row *row, char **err) {
  const wed_area *a = AREA(row);
  polygon_rec *r = row->rec;
  long door = -1;
  (void)err;
  LS_SPAN_CALL(r->vertices, wed_point, 2 * (size_t)wed_polygon_vertices(a, (uint32_t)row->pos.element, &run)); /* x, y, x, y... */
  r->p = a->polygons[row->pos.element];
  wed_polygon_edges(&r->p, r->box);
  r->kind = (int32_t)wed_polygon_kind_of(a, (uint32_t)row->pos.element, &door);
  r->door = door;
  if (door >= 0) r->door_name = (ls_span){.p = a->doors[door].name, .n = wed_resref_len(a->doors[door].name)};
  return SQLITE_OK;
}

/* flags and height; new vertices (the codec recomputes the box); then the
** box edges the UPDATE sets (-1, NULL: from the vertices), each axis
** given checked for min <= max (wed_polygon_update). */
LS_STORE_CALL(polygon_store, polygon_rec, NULL,
              wed_polygon_update(AREA(row), (uint32_t)row->pos.element, &rec->p, rec->vertices.p, rec->vertices.n / 2,
                                 changed[PCOL_VERTICES], rec->box, ls_changed_bits(changed, PCOL_MIN_X, 4), &cerr))

/* INSERT: a wall after the last wall, or with kind 'door_open' or
** 'door_closed' and a door a polygon at the end of that door's state
** (wed_polygon_insert_kind); the engine then sets the given columns. */
typedef struct polygon_args { ls_arg kind, door, door_name; } polygon_args;

LS_INSERT_CALL(polygon_insert, polygon_args,
               wed_polygon_insert_kind(model, ls_arg_text(&args->kind), ls_arg_opt_int(&args->door, -1, &(int64_t){0}),
                                       ls_arg_given(&args->door_name), &element, &cerr))

/* DELETE of a polygon, wall or door polygon (its door's state loses it);
** later polygons move down, the wall groups follow. */
LS_REMOVE_CALL(polygon_remove, wed_area, wed_polygon_delete, "cannot delete")

/* Names a polygon row in error messages: index, kind and door. */
LS_DESCRIBE_CALL(describe_polygon, wed_area, wed_polygon_describe)

static const ls_json_shape vertices_shape = {2, 0, SIZE_MAX, "[[10,20],[90,20],[50,80]]",
                                             "a JSON array of [x,y] pairs of integers from 0 to 65535 (pixel coordinates), e.g. '[[10,20],[90,20],[50,80]]'"};

static const ls_column polygon_columns[] = {
  LS_COL_POS("polygon", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(34), "index in the combined array: wall polygons first, then door polygons (shifts when walls are inserted or deleted)"),
  LS_COL_ENUM("kind", LS_I32, polygon_rec, kind, 0, wed_polygon_kind_names, LS_COL_RO, "'wall', 'door_open', 'door_closed' (or 'orphan': after the walls but in no door's range)"),
  LS_COL_INT_NULL("door", LS_I64, polygon_rec, door, 0, 0, LS_COL_RO, "door number (wed_doors.door) for door polygons, else NULL"),
  LS_COL_TEXT("door_name", LS_TEXT8, polygon_rec, door_name, 0, LS_COL_RO, 0, "that door's name, else NULL"),
  LS_COL_INT("flags", LS_U8, polygon_rec, p.flags, 0, "flag byte: wed_flag_names(flags); 0x01 shade wall, 0x04 hovering, 0x08 cover animations, 0x80 door"),
  LS_COL_INT("height", LS_U8, polygon_rec, p.height, 0, "height byte (255 in almost every real polygon)"),
  [PCOL_MIN_X] = LS_COL_INT_NULL("min_x", LS_I32, polygon_rec, box[0], 0, 65535, 0, "bounding box left (stored; setting vertices recomputes the box, an explicit min_x..max_y in the same UPDATE wins; NULL: from the vertices)"),
  LS_COL_INT_NULL("max_x", LS_I32, polygon_rec, box[1], 0, 65535, 0, "bounding box right"),
  LS_COL_INT_NULL("min_y", LS_I32, polygon_rec, box[2], 0, 65535, 0, "bounding box top"),
  LS_COL_INT_NULL("max_y", LS_I32, polygon_rec, box[3], 0, 65535, 0, "bounding box bottom (65535 in all four: no box)"),
  LS_COL_INT("vertex_count", LS_U32, polygon_rec, p.vertex_count, LS_COL_RO, "number of vertices"),
  [PCOL_VERTICES] = LS_COL_JSON_INTS("vertices", LS_SPAN16, polygon_rec, vertices, 0, 0, 0, &vertices_shape, "JSON array of [x,y] pixel pairs (json_each for one row per vertex); setting it recomputes the box and the wall groups"),
  LS_COL_INT("first_vertex", LS_U32, polygon_rec, p.first_vertex, LS_COL_RO, "index of the first vertex in the file's vertex table"),
};

static const ls_insert polygon_insertion =
    LS_INSERT(polygon_insert, polygon_args, LS_ARG(polygon_args, kind), LS_ARG(polygon_args, door), LS_ARG(polygon_args, door_name));

static const ls_table wed_polygons = {
  .name = "wed_polygons", .format = &wed_format, LS_COLUMNS(polygon_columns),
  .doc = "one row per polygon (walls, then door polygons) of each WED file; INSERT adds a wall (flags 1, height 255 unless given) or, with kind 'door_open'/'door_closed' and door, a polygon of that door state (flags 0x89 unless given); DELETE removes one; wall groups follow",
  .shape = LS_ARRAY(polygon_count), .key = polygon_key, .seek = polygon_seek, .rows_per_file = 33, /* the corpus average */
  .insert = &polygon_insertion, .remove = polygon_remove, .describe = describe_polygon,
  .record_size = sizeof(polygon_rec), .load = polygon_load, .store = polygon_store,
};

/* ---- wed_vertices ---------------------------------------------------------------- */

static int64_t vertex_count_of(const void *m, int64_t poly) {
  const wed_point *pts;
  return wed_polygon_vertices(m, (uint32_t)poly, &pts);
}

/* The vertex's uid, and the vertex with that uid wherever inserts and
** deletes moved it. */
LS_KEY_CALL_NESTED(vertex_key, wed_area, wed_vertex_uid)
LS_SEEK_FIND_NESTED(vertex_seek, wed_area, wed_vertex_find)

/* A row's record is its point, at pos (polygon, vertex). */
LS_LOAD_VALUE(vertex_load, wed_point, wed_vertex_at(AREA(row), (uint32_t)row->pos.element, (uint32_t)row->pos.index))

/* A moved vertex: the codec recomputes the box and the wall groups. */
LS_STORE_CALL(vertex_store, wed_point, "cannot move the vertex",
              wed_vertex_set(AREA(row), (uint32_t)row->pos.element, (uint32_t)row->pos.index, *rec, &cerr))

static const ls_column vertex_columns[] = {
  LS_COL_POS("polygon", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(34), "the polygon (wed_polygons.polygon: walls first, then door polygons); INSERT: the polygon the vertex goes into"),
  LS_COL_POS("vertex", LS_POS_INDEX, LS_COL_RANGE | LS_COL_VALUES(14), "position in the polygon's vertex list, 0-based (shifts when vertices before it are inserted or deleted); INSERT: the position to take, default after the last"),
  LS_COL_INT("x", LS_U16, wed_point, x, 0, "x in pixels, 0..65535; setting x or y recomputes the polygon's bounding box and the wall groups"),
  LS_COL_INT("y", LS_U16, wed_point, y, 0, "y in pixels, 0..65535"),
};

/* INSERT: the point (x, y, both needed) goes into polygon `polygon` (the
** index wed_polygons shows now) before vertex `vertex` (NULL: after the
** last); the vertices from there on move up by one. */
typedef struct vertex_args { ls_arg polygon, vertex, x, y; } vertex_args;

/* The polygon argument: polygon, x and y are needed (one message for the
** three), and the area needs a polygon before the number counts. */
static int vertex_polygon(const void *model, const void *args_, ls_arg *a, char **err) {
  const vertex_args *args = args_;
  int64_t n = polygon_count(model);
  if (!ls_arg_given(a) || !ls_arg_given(&args->x) || !ls_arg_given(&args->y))
    return ls_refuse(err, "INSERT into wed_vertices needs polygon, x and y (vertex is optional: the position, default after the last)");
  if (n == 0) return ls_refuse(err, "column polygon: the area has no polygons (add one with INSERT INTO wed_polygons)");
  return ls_value_int(a->value, a->column, 0, n - 1, &a->i, err);
}

static int vertex_insert(void *model, const void *args_, ls_pos *pos, char **err) {
  const vertex_args *args = args_;
  codec_error cerr = {0};
  if (!wed_polygon_insert_vertex(model, (uint32_t)args->polygon.i, (uint32_t)args->vertex.i,
                                 (wed_point){(uint16_t)args->x.i, (uint16_t)args->y.i}, &cerr))
    return ls_codec_failed(&cerr, SQLITE_CONSTRAINT, err, "cannot insert a vertex into polygon %lld", (long long)args->polygon.i);
  return ls_inserted_at(pos, args->polygon.i, args->vertex.i);
}

/* DELETE of a vertex (of any polygon; a polygon may end up with none); the
** later vertices of its polygon move down by one. */
LS_REMOVE_CALL_NESTED(vertex_remove, wed_area, wed_polygon_delete_vertex, "cannot delete")

/* Names a vertex row in error messages: its position and its polygon as
** describe_polygon names it. */
LS_DESCRIBE_CALL_NESTED(describe_vertex, wed_area, wed_vertex_describe)

static const ls_insert vertex_insertion =
    LS_INSERT(vertex_insert, vertex_args, LS_ARG(vertex_args, polygon, LS_CHECKED_BY(vertex_polygon)),
              LS_ARG(vertex_args, x, LS_IS_INT(0, 65535)), LS_ARG(vertex_args, y, LS_IS_INT(0, 65535)),
              LS_ARG(vertex_args, vertex, LS_IS_AT_IN(vertex_count_of, vertex_args, polygon)));

static const ls_table wed_vertices = {
  .name = "wed_vertices", .format = &wed_format, LS_COLUMNS(vertex_columns),
  .doc = "one row per vertex of each polygon of each WED file (the vertices column of wed_polygons, one point a row); INSERT adds a vertex to a polygon, DELETE removes one; boxes and wall groups follow",
  .shape = LS_NESTED(polygon_count, vertex_count_of), .key = vertex_key, .seek = vertex_seek,
  .insert = &vertex_insertion, .remove = vertex_remove, .describe = describe_vertex, .natural_order = "polygon,vertex",
  .rows_per_file = 456, /* the corpus average */
  .record_size = sizeof(wed_point), .load = vertex_load, .store = vertex_store,
};

/* ---- wed_tiles ------------------------------------------------------------------- */

/* wed_tiles: the tilemap record, its cell number and its TIS tiles. */
typedef struct tile_rec {
  wed_tilecell c;
  uint32_t cell;
  ls_span tis_tiles;
} tile_rec;

enum { TCOL_TIS_TILES = 6 }; /* the column `tis_tiles` (placed there in tile_columns) */

static int tile_load(const ls_row *row, char **err) {
  tile_rec *r = row->rec;
  (void)err;
  r->cell = (uint32_t)(row->pos.y * (int64_t)AREA(row)->overlays[row->pos.element].width + row->pos.x);
  r->c = AREA(row)->overlays[row->pos.element].cells[r->cell];
  LS_SPAN_CALL(r->tis_tiles, uint16_t, wed_cell_tiles(AREA(row), (uint32_t)row->pos.element, r->cell, &run));
  return SQLITE_OK;
}

/* The fields that size nothing; new TIS tiles go to the codec, which
** rebuilds the lookup table when the count changes or the run is shared
** (wed_cell_update). */
LS_STORE_CALL(tile_store, tile_rec, "column tis_tiles",
              wed_cell_update(AREA(row), (uint32_t)row->pos.element, rec->cell, &rec->c, rec->tis_tiles.p, rec->tis_tiles.n,
                              changed[TCOL_TIS_TILES], &cerr))

static const ls_json_shape tis_tiles_shape = {1, 1, 65535, "[12]",
                                              "a JSON array of 1 to 65535 TIS tile numbers from 0 to 65535 (several: an animation), e.g. '[12]'"};

static const ls_column tile_columns[] = {
  LS_COL_POS("overlay", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(1), "overlay number (0: base layer)"),
  LS_COL_POS("x", LS_POS_X, LS_COL_RANGE | LS_COL_VALUES(27), "column, 0-based, in 64-pixel tiles"),
  LS_COL_POS("y", LS_POS_Y, LS_COL_RANGE | LS_COL_VALUES(21), "row, 0-based"),
  LS_COL_INT("cell", LS_U32, tile_rec, cell, LS_COL_RO, "cell number y*width+x (what wed_doors.cells lists)"),
  LS_COL_INT("tile_start", LS_U16, tile_rec, c.tile_start, LS_COL_RO, "first entry in the overlay's tile lookup table"),
  LS_COL_INT("tile_count", LS_U16, tile_rec, c.tile_count, LS_COL_RO, "number of lookup entries (more than 1: animated)"),
  [TCOL_TIS_TILES] = LS_COL_JSON_INTS("tis_tiles", LS_SPAN16, tile_rec, tis_tiles, 0, 0, 0, &tis_tiles_shape, "JSON array of the TIS tile numbers drawn (the animation frames); setting it rebuilds the lookup table when needed"),
  {.name = "secondary_tile", .type = "INTEGER", .kind = LS_INT, .store = LS_U16, .offset = offsetof(tile_rec, c.secondary_tile),
   .min = 0, .max = WED_NO_TILE - 1, .flags = LS_COL_NULL, .null_value = WED_NO_TILE,
   .doc = "TIS tile for a closed door or an overlay mark, NULL for none; 0..65534"},
  LS_COL_INT("overlay_mask", LS_U8, tile_rec, c.overlay_mask, 0, "bit n: draw overlay n in this cell; 0..255"),
  LS_COL_INT("anim_speed", LS_U8, tile_rec, c.anim_speed, 0, "animation speed (0: engine default); 0..255"),
  LS_COL_INT("unknown", LS_U16, tile_rec, c.unknown, 0, "bytes 8-9 of the record (0 in real files; GemRB: runtime door state); 0..65535"),
};

static const ls_table wed_tiles = {
  .name = "wed_tiles", .format = &wed_format, LS_COLUMNS(tile_columns),
  .doc = "one row per tilemap cell of each used overlay of each WED file",
  .shape = LS_GRID(overlay_count, overlay_width, overlay_height), .row_name = "tile x {x}, y {y} of overlay {element}",
  .rows_per_file = 800, /* the corpus average */
  .record_size = sizeof(tile_rec), .load = tile_load, .store = tile_store,
};

/* ---- wed_wallgroups --------------------------------------------------------------- */

/* wed_wallgroups: the group record, its cell in pixels and its polygons. */
typedef struct group_rec {
  wed_wallgroup g;
  int64_t x_px, y_px;
  ls_span polygons;
} group_rec;

/* The group's 640x480 cell in the grid of the base overlay, and its run of
** the polygon lookup table. */
static int group_load(const ls_row *row, char **err) {
  const wed_area *a = AREA(row);
  group_rec *r = row->rec;
  (void)err;
  r->g = a->wallgroups[row->pos.element];
  wed_wallgroup_origin(a, (uint32_t)row->pos.element, &r->x_px, &r->y_px);
  LS_SPAN_CALL(r->polygons, uint16_t, wed_wallgroup_polygons(a, (uint32_t)row->pos.element, &run));
  return SQLITE_OK;
}

static const ls_column group_columns[] = {
  LS_COL_POS("grp", LS_POS_ELEMENT, LS_COL_RANGE | LS_COL_VALUES(13), "wall group number, row-major over the 640x480-pixel grid of the base overlay"),
  LS_COL_INT("x_px", LS_I64, group_rec, x_px, LS_COL_RO, "left edge of the group's cell in pixels (cell: x_px .. x_px+639)"),
  LS_COL_INT("y_px", LS_I64, group_rec, y_px, LS_COL_RO, "top edge in pixels (cell: y_px .. y_px+479)"),
  LS_COL_JSON_INTS("polygons", LS_SPAN16, group_rec, polygons, 0, 0, LS_COL_RO, NULL, "JSON array of the polygons (wed_polygons.polygon) listed for the cell; regenerated whenever polygons change"),
  LS_COL_INT("lookup_start", LS_U16, group_rec, g.start, LS_COL_RO, "first entry in the polygon lookup table"),
  LS_COL_INT("lookup_count", LS_U16, group_rec, g.count, LS_COL_RO, "number of entries"),
};

static const ls_table wed_wallgroups = {
  .name = "wed_wallgroups", .format = &wed_format, LS_COLUMNS(group_columns),
  .doc = "one row per wall group of each WED file (read-only: derived from the polygons)",
  .shape = LS_ARRAY(group_count), .row_name = "wall group {element}", .rows_per_file = 13, /* the corpus average */
  .record_size = sizeof(group_rec), .load = group_load,
};

/* ---- the family -------------------------------------------------------------------- */

static const ls_table *const wed_tables[] = {&wed_overlays, &wed_doors, &wed_polygons, &wed_vertices, &wed_tiles, &wed_wallgroups, NULL};

const ls_family wed_family = {.format = &wed_format, .tables = wed_tables, .register_functions = wed_register_functions};
