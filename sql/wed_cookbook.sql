-- levelsql cookbook for Infinity Engine WED areas (Baldur's Gate, Icewind
-- Dale, Planescape: Torment and the Enhanced Editions).
--
-- The queries read 'corpus/wed/*.[Ww][Ee][Dd]': every .WED / .wed file in
-- corpus/wed below the current folder (test/unit/test_wed_sql.c runs this
-- file in a folder holding a private copy of ../shared/corpus).  Where
-- there is no folder corpus/wed, each query fails with "corpus: no such
-- folder"; a pattern without matches in an existing folder is an empty
-- table.  Replace the pattern with your own folder ('override'), file or
-- pattern ('mods/**/*.wed': names match in any case).
.mode box

-- Check a folder: which files do not load, and why?
SELECT file, format, ok, error FROM levelsql_files('corpus/wed/*.[Ww][Ee][Dd]') WHERE NOT ok;

-- Areas at a glance: size in tiles, tileset, doors, walls.
SELECT o.file, o.width || 'x' || o.height AS tiles, o.tileset,
       (SELECT count(*) FROM wed_doors(o.file)) AS doors,
       (SELECT count(*) FROM wed_polygons(o.file) WHERE kind = 'wall') AS walls
FROM wed_overlays('corpus/wed/*.[Ww][Ee][Dd]') AS o
WHERE o.overlay = 0 ORDER BY o.width * o.height DESC LIMIT 10;

-- The largest polygons by area (shoelace formula over the vertices, taken
-- apart with json_each: vertex i and vertex i+1, wrapping around).
SELECT p.file, p.polygon, p.kind, p.door_name, p.vertex_count,
       abs(sum((a.value ->> 0) * (b.value ->> 1) - (b.value ->> 0) * (a.value ->> 1))) / 2 AS area_px
FROM wed_polygons('corpus/wed/*.[Ww][Ee][Dd]') AS p,
     json_each(p.vertices) AS a, json_each(p.vertices) AS b
WHERE b.key = (a.key + 1) % p.vertex_count
GROUP BY p.file, p.polygon ORDER BY area_px DESC LIMIT 10;

-- The largest polygons by bounding box.
SELECT file, polygon, kind, (max_x - min_x) * (max_y - min_y) AS box_px, vertex_count
FROM wed_polygons('corpus/wed/*.[Ww][Ee][Dd]')
WHERE vertex_count > 0 AND min_x <= max_x AND min_y <= max_y
ORDER BY box_px DESC LIMIT 10;

-- Doors with no closed-state polygons (nothing to draw when they close),
-- and doors whose closed polygons have no vertices.
SELECT file, door, name, open_polygons, closed_polygons
FROM wed_doors('corpus/wed/*.[Ww][Ee][Dd]') WHERE closed_count = 0;
SELECT d.file, d.door, d.name, p.polygon
FROM wed_doors('corpus/wed/*.[Ww][Ee][Dd]') AS d
JOIN wed_polygons('corpus/wed/*.[Ww][Ee][Dd]') AS p ON p.file = d.file AND p.door = d.door
WHERE p.kind = 'door_closed' AND p.vertex_count = 0;

-- The vertices of one polygon, one row each.
SELECT p.file, p.polygon, v.key AS vertex, v.value ->> 0 AS x, v.value ->> 1 AS y
FROM wed_polygons('corpus/wed/*AR0100.[Ww][Ee][Dd]') AS p, json_each(p.vertices) AS v
WHERE p.polygon = 0;

-- Polygon flags by name, walls and door polygons apart.
SELECT kind, wed_flag_names(flags) AS flags, count(*) AS polygons
FROM wed_polygons('corpus/wed/*.[Ww][Ee][Dd]')
GROUP BY kind, flags ORDER BY kind, polygons DESC;

-- Polygons per wall group (640x480-pixel cells): the busiest cells, and
-- which kinds of polygon they list.  (json_each tells SQLite it costs
-- nothing, so SQLite would run it once per polygon; CROSS JOIN keeps it
-- outside, and each listed polygon is read directly.)
SELECT g.file, g.grp, g.x_px, g.y_px, json_array_length(g.polygons) AS polygons,
       (SELECT group_concat(DISTINCT p.kind) FROM json_each(g.polygons) AS j
          CROSS JOIN wed_polygons(g.file) AS p ON p.polygon = j.value) AS kinds
FROM wed_wallgroups('corpus/wed/*.[Ww][Ee][Dd]') AS g
ORDER BY polygons DESC LIMIT 10;

-- The cells a door blocks, with their tiles (closed: the secondary tile).
-- (CROSS JOIN: json_each first, as above.)
SELECT d.file, d.name, t.x, t.y, t.tis_tiles, t.secondary_tile
FROM wed_doors('corpus/wed/*areas__bs0101.[Ww][Ee][Dd]') AS d, json_each(d.cells) AS c
CROSS JOIN wed_tiles(d.file) AS t ON t.overlay = 0 AND t.cell = c.value;

-- Animated cells (more than one frame) and the water overlays drawn on them.
SELECT t.file, t.overlay, t.x, t.y, t.tis_tiles, t.anim_speed
FROM wed_tiles('corpus/wed/*.[Ww][Ee][Dd]') AS t WHERE t.tile_count > 1 LIMIT 10;
SELECT file, overlay, tileset, width, height FROM wed_overlays('corpus/wed/*.[Ww][Ee][Dd]')
WHERE overlay > 0 AND width > 0;

-- Set the shade-wall flag on every wall of one area; the wall groups and
-- the file layout take care of themselves.  Inside BEGIN ... ROLLBACK here,
-- so the file stays as it is: use COMMIT to write it.
BEGIN;
UPDATE wed_polygons SET flags = flags | wed_flag_value('shade_wall')
WHERE source = 'corpus/wed/*AR0100.[Ww][Ee][Dd]' AND kind = 'wall';
SELECT file, count(*) AS shaded_walls FROM wed_polygons('corpus/wed/*AR0100.[Ww][Ee][Dd]')
WHERE kind = 'wall' AND flags & wed_flag_value('shade_wall') GROUP BY file;
ROLLBACK;

-- Move a wall, add one, delete one, change a door's cells (also inside a
-- transaction that is rolled back):
BEGIN;
UPDATE wed_polygons SET vertices =
  (SELECT json_group_array(json_array((v.value ->> 0) + 64, v.value ->> 1)) FROM json_each(vertices) AS v)
WHERE source = 'corpus/wed/*AR0100.[Ww][Ee][Dd]' AND polygon = 0;
INSERT INTO wed_polygons(file, vertices, flags)
SELECT file, '[[700,500],[800,500],[750,600]]', wed_flag_value('shade_wall')
FROM wed_overlays('corpus/wed/*AR0100.[Ww][Ee][Dd]') WHERE overlay = 0;
DELETE FROM wed_polygons WHERE source = 'corpus/wed/*AR0100.[Ww][Ee][Dd]' AND polygon = 1;
UPDATE wed_doors SET cells = '[52,53,77,78]' WHERE source = 'corpus/wed/*AR0100.[Ww][Ee][Dd]' AND door = 0;
SELECT grp, polygons FROM wed_wallgroups('corpus/wed/*AR0100.[Ww][Ee][Dd]');
ROLLBACK;
