-- Structural WED edits on the generated samples (samples/AR0100.WED: a
-- 30x20 town with a water overlay, doors DOOR0100 (open 8, closed 9) and
-- DOOR0101 (open 10, no closed polygon); samples/AR0200.WED: a 20x15 tavern,
-- doors DOOR0200 (4 / 5), DOOR0201 (6 / 7), DOOR0202 (8 / 9, 10)):
-- INSERT and DELETE of doors with their cells and polygons, door polygons
-- inserted and deleted through wed_polygons, overlays resized, added and
-- removed.  Each write is read back in a new connection, and the written
-- file must load and keep its invariants (door cells in the base overlay,
-- every door state's polygons after the walls, every polygon in the wall
-- groups its box meets).  The real areas: wed_edit_corpus.sql.

-- ---- doors -------------------------------------------------------------------

-- shared.wed: the tavern with door 2's open-state offset (bytes 242..245 of
-- the door records at 172) set to door 1's closed-state offset (220..223).
SELECT writefile('shared.wed', substr(b, 1, 242) || substr(b, 221, 4) || substr(b, 247)) FROM (SELECT readfile('samples/AR0200.WED') AS b);
-- expect rows: 1
-- orphan.wed: the tavern with door 1's closed count (bytes 214..215) 0, so
-- its polygon 7 is in no door's state, just before door 2's run.
SELECT writefile('orphan.wed', substr(b, 1, 214) || x'0000' || substr(b, 217)) FROM (SELECT readfile('samples/AR0200.WED') AS b);
-- expect rows: 1

-- A new door with cells, an open and two closed polygons (the second by
-- INSERT ... SELECT), in one transaction.
ATTACH 'keep.db' AS keep;
CREATE TABLE keep.before_polys AS SELECT polygon, kind, door, vertices FROM wed_polygons('samples/AR0200.WED');
BEGIN;
INSERT INTO wed_doors(file, name, cells) VALUES ('samples/AR0200.WED', 'DOOR0203', '[41,42]');
INSERT INTO wed_polygons(file, door, kind, vertices) VALUES ('samples/AR0200.WED', 3, 'door_open', '[[660,100],[700,100],[700,140],[660,140]]');
INSERT INTO wed_polygons(file, door, kind, vertices) VALUES ('samples/AR0200.WED', 3, 'door_closed', '[[660,100],[740,100],[740,110]]');
INSERT INTO wed_polygons(file, door, kind, vertices, flags)
SELECT file, door, 'door_closed', '[[10,500],[20,500],[20,510]]', 1 FROM wed_doors('samples/AR0200.WED') WHERE name = 'DOOR0203';
COMMIT;
.open :memory:
ATTACH 'keep.db' AS keep;
SELECT door, name, closed, cells, first_cell, cell_count, open_polygons, closed_polygons FROM wed_doors('samples/AR0200.WED') WHERE door = 3;
-- expect: 3|DOOR0203|1|[41,42]|8|2|[11]|[12,13]
SELECT group_concat(polygon || ':' || kind || ':' || door || ':' || flags || ':' || min_x || '-' || max_x, ' ') FROM wed_polygons('samples/AR0200.WED') WHERE door = 3;
-- expect: 11:door_open:3:137:660-700 12:door_closed:3:137:660-740 13:door_closed:3:1:10-20
SELECT 'the other polygons are as they were', count(*) = 11 FROM wed_polygons('samples/AR0200.WED') AS p JOIN before_polys AS b USING (polygon, kind, vertices);
SELECT 'new door polygons are in the wall groups their box meets', group_concat(grp, ',') = '1' FROM wed_wallgroups('samples/AR0200.WED') WHERE polygons LIKE '%11%';
SELECT group_concat(grp || ':' || polygons, ' ') FROM wed_wallgroups('samples/AR0200.WED');
-- expect: 0:[0,1] 1:[1,2,6,11,12] 2:[1,3,4,5,13] 3:[1,8,9,10]
SELECT ok FROM levelsql_files('samples/AR0200.WED');
-- expect: 1

-- DELETE of a door: its polygons and cells go, the later doors' polygons
-- and cells move down and keep their contents.
CREATE TABLE keep.doors_before AS SELECT name, cells FROM wed_doors('samples/AR0200.WED');
DELETE FROM wed_doors WHERE source = 'samples/AR0200.WED' AND name = 'DOOR0201';
.open :memory:
ATTACH 'keep.db' AS keep;
SELECT group_concat(door || ':' || name || ':' || first_cell || ':' || open_polygons || closed_polygons, ' ') FROM wed_doors('samples/AR0200.WED');
-- expect: 0:DOOR0200:0:[4][5] 1:DOOR0202:2:[6][7,8] 2:DOOR0203:6:[9][10,11]
SELECT 'cells kept per door', count(*) = 3 FROM wed_doors('samples/AR0200.WED') AS d JOIN doors_before AS b USING (name, cells);
SELECT 'the other doors kept their polygons', group_concat(p.polygon || '=' || b.polygon, ' ') = '4=4 5=5 6=8 7=9 8=10' FROM wed_polygons('samples/AR0200.WED') AS p JOIN before_polys AS b USING (kind, vertices) WHERE p.kind <> 'wall';
SELECT 'DOOR0201''s polygons are gone', count(*) = 0 FROM wed_polygons('samples/AR0200.WED') AS p JOIN before_polys AS b USING (vertices) WHERE b.door = 1;
SELECT count(*), sum(kind = 'wall') FROM wed_polygons('samples/AR0200.WED');
-- expect: 12|4
SELECT 'no wall group lists a polygon that is gone', count(*) = 0 FROM wed_wallgroups('samples/AR0200.WED') AS g, json_each(g.polygons) AS j WHERE j.value >= 12;

-- A multi-row DELETE finds the doors it collected, whatever moved in between.
DELETE FROM wed_doors WHERE source = 'samples/AR0200.WED' AND door IN (0, 2);
.open :memory:
SELECT group_concat(door || ':' || name || ':' || first_cell || ':' || cells || ':' || open_polygons || closed_polygons, ' ') FROM wed_doors('samples/AR0200.WED');
-- expect: 0:DOOR0202:0:[149,150,169,170]:[4][5,6]
SELECT group_concat(grp || ':' || polygons, ' ') FROM wed_wallgroups('samples/AR0200.WED');
-- expect: 0:[0,1] 1:[1,2] 2:[1,3] 3:[1,4,5,6]

-- DELETE of door polygons through wed_polygons: the state loses them.
DELETE FROM wed_polygons WHERE source = 'samples/AR0200.WED' AND kind = 'door_closed' AND polygon = 5;
.open :memory:
SELECT open_polygons, closed_polygons, open_count, closed_count FROM wed_doors('samples/AR0200.WED');
-- expect: [4]|[5]|1|1
SELECT vertices FROM wed_polygons('samples/AR0200.WED') WHERE polygon = 5;
-- expect: [[700,620],[760,620],[760,640],[700,640]]

-- An empty state (DOOR0101 of AR0100 has no closed polygon) gets its first
-- one where its offset points: after the door's open polygon.
INSERT INTO wed_polygons(file, door, kind, vertices) VALUES ('samples/AR0100.WED', 1, 'door_closed', '[[1400,600],[1500,600],[1500,650]]');
.open :memory:
SELECT open_polygons, closed_polygons FROM wed_doors('samples/AR0100.WED') WHERE door = 1;
-- expect: [10]|[11]
SELECT ok FROM levelsql_files('samples/AR0100.WED');
-- expect: 1

-- A door inserted and deleted again, rolled back, and a failed INSERT: the
-- file stays byte for byte.
CREATE TEMP TABLE orig AS SELECT readfile('samples/AR0100.WED') AS bytes;
BEGIN;
INSERT INTO wed_doors(file, name) VALUES ('samples/AR0100.WED', 'TEMP');
INSERT INTO wed_polygons(file, door, kind, vertices) VALUES ('samples/AR0100.WED', 2, 'door_open', '[[1,1],[2,2],[3,1]]');
SELECT count(*) FROM wed_doors('samples/AR0100.WED');
-- expect: 3
ROLLBACK;
INSERT INTO wed_doors(file, name, cells) VALUES ('samples/AR0100.WED', 'BAD', '[600]');
-- expect error: door 2 'BAD': column cells
-- expect error: from 0 to 599
INSERT INTO wed_polygons(file, door, kind) VALUES ('samples/AR0100.WED', 2, 'door_open');
-- expect error: column door
-- expect error: from 0 to 1
SELECT readfile('samples/AR0100.WED') = bytes FROM orig;
-- expect: 1

-- A refused DELETE names the door as the statement saw it.  shared.wed
-- (made at the start) is the tavern where door 2's open state points at
-- door 1's closed polygon (their runs overlap), so deleting door 2 would
-- change door 1: after door 0 went, the refusal still says door 2.
SELECT door, open_polygons, closed_polygons FROM wed_doors('shared.wed');
-- expect: 0|[4]|[5]
-- expect: 1|[6]|[7]
-- expect: 2|[7]|[9,10]
CREATE TEMP TABLE shared AS SELECT readfile('shared.wed') AS bytes;
DELETE FROM wed_doors WHERE source = 'shared.wed' AND door IN (0, 2);
-- expect error: door 2 'DOOR0202': cannot delete: its polygon records are shared with another door's state
SELECT readfile('shared.wed') = bytes FROM shared;
-- expect: 1
DELETE FROM wed_doors WHERE source = 'shared.wed' AND door = 1;
-- expect error: door 1 'DOOR0201': cannot delete
DELETE FROM wed_doors WHERE source = 'shared.wed' AND door = 0;
SELECT count(*) FROM wed_doors('shared.wed');
-- expect: 2

-- ---- overlays ----------------------------------------------------------------

-- The water overlay (1x1, 6 frames of WTWAVE) grown to 3x2: every new cell
-- repeats the animation; the base cells that draw it are untouched.
SELECT count(*), sum(overlay_mask & 2 = 2) FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 0 AND overlay_mask <> 0;
-- expect: 28|28
UPDATE wed_overlays SET width = 3, height = 2 WHERE source = 'samples/AR0100.WED' AND overlay = 1;
.open :memory:
SELECT overlay, width, height, tileset, num_cells, num_lookup FROM wed_overlays('samples/AR0100.WED') WHERE overlay = 1;
-- expect: 1|3|2|WTWAVE|6|36
SELECT count(DISTINCT tis_tiles), min(tis_tiles), count(DISTINCT tile_start), quote(max(secondary_tile)), max(overlay_mask) FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 1;
-- expect: 1|[0,1,2,3,4,5]|6|NULL|0
SELECT count(*) FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 0 AND overlay_mask & 2;
-- expect: 28
-- shrunk again to 1x1: the first cell keeps its tiles, the lookup shrinks
UPDATE wed_overlays SET width = 1, height = 1 WHERE source = 'samples/AR0100.WED' AND overlay = 1;
.open :memory:
SELECT width, height, num_lookup, (SELECT tis_tiles FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 1) FROM wed_overlays('samples/AR0100.WED') WHERE overlay = 1;
-- expect: 1|1|6|[0,1,2,3,4,5]

-- A new overlay takes the first unused record; the base cells then draw it.
INSERT INTO wed_overlays(file, width, height, tileset) VALUES ('samples/AR0100.WED', 2, 1, 'WTLAVA');
UPDATE wed_tiles SET overlay_mask = overlay_mask | 4 WHERE source = 'samples/AR0100.WED' AND overlay = 0 AND y = 0 AND x < 3;
UPDATE wed_tiles SET tis_tiles = '[7,8,9]' WHERE source = 'samples/AR0100.WED' AND overlay = 2 AND x = 1;
.open :memory:
SELECT overlay, width, height, tileset, num_cells, num_lookup FROM wed_overlays('samples/AR0100.WED') WHERE overlay = 2;
-- expect: 2|2|1|WTLAVA|2|4
SELECT group_concat(x || ':' || tis_tiles, ' ') FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 2;
-- expect: 0:[0] 1:[7,8,9]
SELECT count(*) FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 0 AND overlay_mask & 4;
-- expect: 3
INSERT INTO wed_overlays(file, overlay, width, height) VALUES ('samples/AR0100.WED', 2, 1, 1);
-- expect error: overlay 2 is in use (2x1)
INSERT INTO wed_overlays(file, width, height) VALUES ('samples/AR0100.WED', 0, 0);
-- expect error: needs width and height (1..65535 tiles)

-- DELETE of the water overlay: the record is emptied (files keep 5), and no
-- base cell draws it any more; the lava marks stay.
DELETE FROM wed_overlays WHERE source = 'samples/AR0100.WED' AND overlay = 1;
.open :memory:
SELECT group_concat(overlay || ':' || width || 'x' || height || ':' || tileset || ':' || num_lookup, ' ') FROM wed_overlays('samples/AR0100.WED');
-- expect: 0:30x20:AR0100:612 1:0x0::0 2:2x1:WTLAVA:4 3:0x0::0 4:0x0::0
SELECT sum(overlay_mask & 2 = 2), sum(overlay_mask & 4 = 4) FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 0;
-- expect: 0|3
SELECT count(*) FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 1;
-- expect: 0
-- a mask bit that draws an unused overlay: DELETE of the overlay clears it
UPDATE wed_tiles SET overlay_mask = 2 WHERE source = 'samples/AR0100.WED' AND overlay = 0 AND x = 5 AND y = 5;
DELETE FROM wed_overlays WHERE source = 'samples/AR0100.WED' AND overlay = 1;
SELECT overlay_mask FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 0 AND x = 5 AND y = 5;
-- expect: 0

-- ---- the base overlay: the area's size ------------------------------------------

-- Grown from 30x20 to 35x25: cells keep their (x, y) and tiles, the door
-- cells are renumbered to the new width, the wall group grid grows from
-- 3x3 to 4x4 and lists every polygon in the cells its box meets.
ATTACH 'keep.db' AS keep;
CREATE TABLE keep.town AS SELECT x, y, tis_tiles, secondary_tile, overlay_mask FROM wed_tiles('samples/AR0100.WED') WHERE overlay = 0;
CREATE TABLE keep.town_doors AS SELECT d.door, c.value % 30 AS x, c.value / 30 AS y FROM wed_doors('samples/AR0100.WED') AS d, json_each(d.cells) AS c;
UPDATE wed_overlays SET width = 35, height = 25 WHERE source = 'samples/AR0100.WED' AND overlay = 0;
.open :memory:
ATTACH 'keep.db' AS keep;
SELECT width, height, num_cells FROM wed_overlays('samples/AR0100.WED') WHERE overlay = 0;
-- expect: 35|25|875
SELECT 'old cells kept', count(*) = 600 FROM wed_tiles('samples/AR0100.WED') AS t JOIN keep.town AS k USING (x, y, tis_tiles, overlay_mask) WHERE t.overlay = 0 AND t.secondary_tile IS k.secondary_tile;
SELECT 'new cells repeat the old tiles', count(*) = 275 FROM wed_tiles('samples/AR0100.WED') AS t JOIN keep.town AS k ON k.x = t.x % 30 AND k.y = t.y % 20
  WHERE t.overlay = 0 AND (t.x >= 30 OR t.y >= 20) AND t.tis_tiles = k.tis_tiles AND t.secondary_tile IS NULL AND t.overlay_mask = 0;
SELECT 'door cells at the same (x, y)', count(*) = (SELECT count(*) FROM keep.town_doors) FROM wed_doors('samples/AR0100.WED') AS d, json_each(d.cells) AS c
  JOIN keep.town_doors AS k ON k.door = d.door AND k.x = c.value % 35 AND k.y = c.value / 35;
SELECT count(*), max(x_px), max(y_px) FROM wed_wallgroups('samples/AR0100.WED');
-- expect: 16|1920|1440
SELECT 'every polygon in the groups its box meets', count(*) = 0 FROM wed_polygons('samples/AR0100.WED') AS p, wed_wallgroups('samples/AR0100.WED') AS g
  WHERE p.vertex_count > 0 AND p.min_x <= p.max_x AND p.min_y <= p.max_y AND p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480
  AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) WHERE value = p.polygon);
SELECT ok FROM levelsql_files('samples/AR0100.WED');
-- expect: 1

-- Shrunk below a door's cells: refused, naming the door; once the door
-- lets go of the cells outside, the shrink goes through.
CREATE TABLE keep.big AS SELECT readfile('samples/AR0100.WED') AS bytes;
UPDATE wed_overlays SET width = 10, height = 8 WHERE source = 'samples/AR0100.WED' AND overlay = 0;
-- expect error: overlay 0: cannot resize: door 1: its cell 337 (x 22, y 9)
-- expect error: lies outside the new 10x8 area; take it out of the door's cells first
SELECT readfile('samples/AR0100.WED') = bytes FROM keep.big;
-- expect: 1
BEGIN;
UPDATE wed_doors SET cells = '[0,1]' WHERE source = 'samples/AR0100.WED';
UPDATE wed_overlays SET width = 10, height = 8 WHERE source = 'samples/AR0100.WED' AND overlay = 0;
COMMIT;
.open :memory:
SELECT width, height, num_cells, (SELECT count(*) FROM wed_wallgroups('samples/AR0100.WED')), (SELECT group_concat(cells, ' ') FROM wed_doors('samples/AR0100.WED')) FROM wed_overlays('samples/AR0100.WED') WHERE overlay = 0;
-- expect: 10|8|80|2|[0,1] [0,1]
SELECT ok FROM levelsql_files('samples/AR0100.WED');
-- expect: 1

-- Orphan polygon records (in no door's state) cannot end up at the end of
-- the table, where a reader would not count them: deleting the door after
-- one is refused until the orphan goes.
SELECT group_concat(polygon || ':' || kind, ' ') FROM wed_polygons('orphan.wed') WHERE polygon >= 6;
-- expect: 6:door_open 7:orphan 8:door_open 9:door_closed 10:door_closed
DELETE FROM wed_doors WHERE source = 'orphan.wed' AND door = 2;
-- expect error: door 2 'DOOR0202': cannot delete: polygon 8: deleting it would leave 1 polygon record(s) that no door's state holds (kind 'orphan') at the end
DELETE FROM wed_polygons WHERE source = 'orphan.wed' AND kind = 'orphan';
DELETE FROM wed_doors WHERE source = 'orphan.wed' AND door = 2;
.open :memory:
SELECT count(*), group_concat(kind, ',') FROM wed_polygons('orphan.wed') WHERE polygon >= 4;
-- expect: 3|door_open,door_closed,door_open
