.load build/levelsql
-- levelsql cookbook for Infinity Engine WED areas (Baldur's Gate, Icewind
-- Dale, Planescape: Torment and the Enhanced Editions).
-- Run from the project root after `make` and `make samples`, as
--   sqlite3 :memory: < sql/wed_cookbook.sql
-- (the line above loads the extension from build/), or paste single queries
-- into the sqlite3 shell after that .load and the .shell line below.
-- The queries read and change build/cookbook/wed, a fresh copy of the areas (AR0100.WED, a town,
-- and AR0200.WED, a tavern)
-- `make samples` writes into build/samples, which the .shell line below makes
-- anew on every run (by hand: the same rm, mkdir and cp), so build/samples
-- is never changed and every run gives the same results.  To ask the same of
-- your own files, replace build/cookbook/wed with your own folder ('override': its .wed files), file
-- ('override/AR0602.WED') or pattern ('mods/**/*.wed': any depth, names in
-- any case);
-- the edits then change those files.  The tests run every query as it
-- is, and again on real areas (test_wed_sql).
.shell rm -rf build/cookbook/wed && mkdir -p build/cookbook/wed && cp build/samples/*.WED build/cookbook/wed/
.mode box

-- Check a folder: which files do not load, and why?
SELECT file, format, ok, error FROM levelsql_files('build/cookbook/wed') WHERE NOT ok;

-- Areas at a glance: size in tiles, tileset, doors, walls.
SELECT o.file, o.width || 'x' || o.height AS tiles, o.tileset,
       (SELECT count(*) FROM wed_doors(o.file)) AS doors,
       (SELECT count(*) FROM wed_polygons(o.file) WHERE kind = 'wall') AS walls
FROM wed_overlays('build/cookbook/wed') AS o
WHERE o.overlay = 0 ORDER BY o.width * o.height DESC LIMIT 10;

-- The largest polygons by area, in square pixels (wed_polygon_area: the
-- shoelace formula over the vertices, computed in C).
SELECT file, polygon, kind, door_name, vertex_count, wed_polygon_area(vertices) AS area_px
FROM wed_polygons('build/cookbook/wed') ORDER BY area_px DESC LIMIT 10;

-- The largest polygons by bounding box.
SELECT file, polygon, kind, (max_x - min_x) * (max_y - min_y) AS box_px, vertex_count
FROM wed_polygons('build/cookbook/wed')
WHERE vertex_count > 0 AND min_x <= max_x AND min_y <= max_y
ORDER BY box_px DESC LIMIT 10;

-- Doors with no closed-state polygons (nothing to draw when they close),
-- and doors whose closed polygons have no vertices.
SELECT file, door, name, open_polygons, closed_polygons
FROM wed_doors('build/cookbook/wed') WHERE closed_count = 0;
SELECT d.file, d.door, d.name, p.polygon
FROM wed_doors('build/cookbook/wed') AS d
JOIN wed_polygons('build/cookbook/wed') AS p ON p.file = d.file AND p.door = d.door
WHERE p.kind = 'door_closed' AND p.vertex_count = 0;

-- The vertices of one polygon, one row each (wed_vertices), and the
-- vertices near a point, in every area.
SELECT file, polygon, vertex, x, y FROM wed_vertices('build/cookbook/wed/AR0100.WED') WHERE polygon = 0;
SELECT file, polygon, vertex, x, y FROM wed_vertices('build/cookbook/wed')
WHERE x BETWEEN 500 AND 600 AND y BETWEEN 400 AND 500;

-- Polygon flags by name, walls and door polygons apart.
SELECT kind, wed_flag_names(flags) AS flags, count(*) AS polygons
FROM wed_polygons('build/cookbook/wed')
GROUP BY kind, flags ORDER BY kind, polygons DESC;

-- Polygons per wall group (640x480-pixel cells): the busiest cells, and
-- which kinds of polygon they list.  (json_each tells SQLite it costs
-- nothing, so SQLite would run it once per polygon; CROSS JOIN keeps it
-- outside, and each listed polygon is read directly.)
SELECT g.file, g.grp, g.x_px, g.y_px, json_array_length(g.polygons) AS polygons,
       (SELECT group_concat(DISTINCT p.kind) FROM json_each(g.polygons) AS j
          CROSS JOIN wed_polygons(g.file) AS p ON p.polygon = j.value) AS kinds
FROM wed_wallgroups('build/cookbook/wed') AS g
ORDER BY polygons DESC LIMIT 10;

-- The cells a door blocks, with their tiles (closed: the secondary tile).
-- (CROSS JOIN: json_each first, as above.)
SELECT d.file, d.name, t.x, t.y, t.tis_tiles, t.secondary_tile
FROM wed_doors('build/cookbook/wed/AR0200.WED') AS d, json_each(d.cells) AS c
CROSS JOIN wed_tiles(d.file) AS t ON t.overlay = 0 AND t.cell = c.value;

-- Animated cells (more than one frame) and the water overlays drawn on them.
SELECT t.file, t.overlay, t.x, t.y, t.tis_tiles, t.anim_speed
FROM wed_tiles('build/cookbook/wed') AS t WHERE t.tile_count > 1 LIMIT 10;
SELECT file, overlay, tileset, width, height FROM wed_overlays('build/cookbook/wed')
WHERE overlay > 0 AND width > 0;

-- Set the shade-wall flag on every wall of one area; the wall groups and
-- the file layout take care of themselves.  Inside BEGIN ... ROLLBACK here,
-- so the file stays as it is: use COMMIT to write it.
BEGIN;
UPDATE wed_polygons SET flags = flags | wed_flag_value('shade_wall')
WHERE source = 'build/cookbook/wed/AR0100.WED' AND kind = 'wall';
SELECT file, count(*) AS shaded_walls FROM wed_polygons('build/cookbook/wed/AR0100.WED')
WHERE kind = 'wall' AND flags & wed_flag_value('shade_wall') GROUP BY file;
ROLLBACK;

-- Move a wall (vertex by vertex), add one, delete one, add a vertex to
-- another and drop one of its points, change a door's cells (also inside
-- a transaction that is rolled back); boxes and wall groups follow:
BEGIN;
UPDATE wed_vertices SET x = x + 64 WHERE source = 'build/cookbook/wed/AR0100.WED' AND polygon = 0;
INSERT INTO wed_polygons(file, vertices, flags)
SELECT file, '[[700,500],[800,500],[750,600]]', wed_flag_value('shade_wall')
FROM wed_overlays('build/cookbook/wed/AR0100.WED') WHERE overlay = 0;
DELETE FROM wed_polygons WHERE source = 'build/cookbook/wed/AR0100.WED' AND polygon = 1;
INSERT INTO wed_vertices(file, polygon, vertex, x, y)
SELECT file, 1, 0, 700, 450 FROM wed_overlays('build/cookbook/wed/AR0100.WED') WHERE overlay = 0;
DELETE FROM wed_vertices WHERE source = 'build/cookbook/wed/AR0100.WED' AND polygon = 1 AND vertex = 2;
SELECT polygon, vertices, min_x, max_x, min_y, max_y FROM wed_polygons('build/cookbook/wed/AR0100.WED') WHERE polygon <= 1;
UPDATE wed_doors SET cells = '[52,53,77,78]' WHERE source = 'build/cookbook/wed/AR0100.WED' AND door = 0;
SELECT grp, polygons FROM wed_wallgroups('build/cookbook/wed/AR0100.WED');
ROLLBACK;

-- Add a door with its cells and its open and closed polygons: the door
-- goes after the last one, each polygon at the end of its door's state
-- (flags door|cover_animations|shade_wall unless given); the polygon
-- lookup and the wall groups follow.  Rolled back here: COMMIT to write.
BEGIN;
INSERT INTO wed_doors(file, name, cells) VALUES ('build/cookbook/wed/AR0200.WED', 'DOOR0203', '[41,42,61,62]');
INSERT INTO wed_polygons(file, door, kind, vertices)
SELECT file, door, 'door_open', '[[660,100],[700,100],[700,140],[660,140]]'
FROM wed_doors('build/cookbook/wed/AR0200.WED') WHERE name = 'DOOR0203';
INSERT INTO wed_polygons(file, door, kind, vertices)
SELECT file, door, 'door_closed', '[[660,100],[740,100],[740,110],[660,110]]'
FROM wed_doors('build/cookbook/wed/AR0200.WED') WHERE name = 'DOOR0203';
SELECT door, name, cells, open_polygons, closed_polygons FROM wed_doors('build/cookbook/wed/AR0200.WED');
-- ... and delete a door: its polygons and cells go with it.
DELETE FROM wed_doors WHERE source = 'build/cookbook/wed/AR0200.WED' AND name = 'DOOR0201';
SELECT grp, polygons FROM wed_wallgroups('build/cookbook/wed/AR0200.WED');
ROLLBACK;

-- Remove an overlay (here the water of AR0100): the record stays, emptied
-- (0x0, as WED files keep their 5 records), and no base cell draws it any
-- more (its bit is cleared from every overlay_mask).  Add one back: INSERT
-- takes the first unused record.
BEGIN;
DELETE FROM wed_overlays WHERE source = 'build/cookbook/wed/AR0100.WED' AND overlay = 1;
INSERT INTO wed_overlays(file, width, height, tileset) VALUES ('build/cookbook/wed/AR0100.WED', 1, 1, 'WTLAVA');
SELECT overlay, width, height, tileset, num_cells, num_lookup FROM wed_overlays('build/cookbook/wed/AR0100.WED');
ROLLBACK;

-- Resize an overlay: cells inside keep their tiles, new cells repeat the
-- old tilemap (a 1x1 water overlay grown to 3x2 animates everywhere).
-- Resizing overlay 0 resizes the area: door cells keep their (x, y), the
-- wall groups follow the new 640x480 grid; a door cell outside the new
-- size refuses the resize (take it out of wed_doors.cells first).
BEGIN;
UPDATE wed_overlays SET width = 3, height = 2 WHERE source = 'build/cookbook/wed/AR0100.WED' AND overlay = 1;
UPDATE wed_overlays SET width = 40, height = 25 WHERE source = 'build/cookbook/wed/AR0100.WED' AND overlay = 0;
SELECT overlay, width, height, num_cells, num_lookup FROM wed_overlays('build/cookbook/wed/AR0100.WED') WHERE width > 0;
SELECT door, cells FROM wed_doors('build/cookbook/wed/AR0100.WED');
SELECT count(*) AS wall_groups FROM wed_wallgroups('build/cookbook/wed/AR0100.WED');
ROLLBACK;
