-- requires: corpus
-- Structural WED edits on the private copy of the real corpus (corpus/wed):
-- doors deleted and inserted with their polygons and cells, overlays
-- removed, resized and added, the base overlay grown and shrunk.  Each
-- edited area has an untouched twin (bst__bst__tis_bgee__..., the EE copy:
-- same structure, other secondary tiles and resref case) to compare with;
-- every write is read back in a new connection and must keep the file's
-- invariants.  Generated areas: wed_edit.sql.

ATTACH 'keep.db' AS keep;

-- ---- every area at once (rolled back): delete door 0, add a door with an
-- open and a closed polygon, grow overlay 0 by one column ------------------------
CREATE TABLE keep.files AS SELECT file, readfile(file) AS bytes FROM levelsql_files('corpus/wed');
CREATE TABLE keep.counts AS SELECT file, (SELECT count(*) FROM wed_polygons(f.file)) AS polys,
  (SELECT open_count + closed_count FROM wed_doors(f.file) WHERE door = 0) AS door0_polys,
  (SELECT count(*) FROM wed_doors(f.file)) AS doors FROM levelsql_files('corpus/wed') AS f;
BEGIN;
DELETE FROM wed_doors WHERE source = 'corpus/wed' AND door = 0;
INSERT INTO wed_doors(file, name, cells) SELECT file, 'NEWDOOR', '[0,1]' FROM wed_overlays('corpus/wed') WHERE overlay = 0;
INSERT INTO wed_polygons(file, door, kind, vertices) SELECT file, door, 'door_open', '[[10,10],[90,10],[90,70]]' FROM wed_doors('corpus/wed') WHERE name = 'NEWDOOR';
INSERT INTO wed_polygons(file, door, kind, vertices) SELECT file, door, 'door_closed', '[[700,500],[790,500],[790,570]]' FROM wed_doors('corpus/wed') WHERE name = 'NEWDOOR';
SELECT 'every area: door 0 gone with its polygons, the new door has its 2', count(*) = 98 FROM keep.counts AS k
  WHERE (SELECT count(*) FROM wed_polygons(k.file)) = k.polys - coalesce(k.door0_polys, 0) + 2
    AND (SELECT count(*) FROM wed_doors(k.file)) = max(k.doors, 1)
    AND (SELECT open_polygons || closed_polygons FROM wed_doors(k.file) WHERE name = 'NEWDOOR') = '[' || (k.polys - coalesce(k.door0_polys, 0)) || '][' || (k.polys - coalesce(k.door0_polys, 0) + 1) || ']';
SELECT 'every door polygon belongs to its door', count(*) = 0 FROM wed_polygons('corpus/wed') AS p WHERE p.kind = 'orphan';
UPDATE wed_overlays SET width = width + 1 WHERE source = 'corpus/wed' AND overlay = 0;
SELECT 'every polygon in the wall groups its box meets', count(*) = 0 FROM wed_polygons('corpus/wed') AS p JOIN wed_wallgroups('corpus/wed') AS g ON g.file = p.file
  WHERE p.vertex_count > 0 AND p.min_x <= p.max_x AND p.min_y <= p.max_y AND p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480
  AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) WHERE value = p.polygon);
SELECT 'the new door''s cells follow the width', count(*) = 98 FROM wed_doors('corpus/wed') AS d JOIN wed_overlays('corpus/wed') AS o ON o.file = d.file AND o.overlay = 0
  WHERE d.name = 'NEWDOOR' AND d.cells = '[0,1]';
ROLLBACK;
SELECT 'ROLLBACK: every file as it was', count(*) = 98 FROM keep.files AS k WHERE readfile(k.file) = k.bytes;

-- ---- doors of bs1000 (16 doors; twin BS1000 of tis_bgee) -------------------------
DELETE FROM wed_doors WHERE source = 'corpus/wed/bst__bst__areas__bs1000.WED' AND name IN ('DOOR 02', 'DOOR 04');
INSERT INTO wed_doors(file, name, closed, cells) VALUES ('corpus/wed/bst__bst__areas__bs1000.WED', 'DOOR 99', 1, '[100,101,180,181]');
INSERT INTO wed_polygons(file, door, kind, vertices) VALUES ('corpus/wed/bst__bst__areas__bs1000.WED', 14, 'door_open', '[[1300,100],[1400,100],[1400,200]]');
INSERT INTO wed_polygons(file, door, kind, vertices) VALUES ('corpus/wed/bst__bst__areas__bs1000.WED', 14, 'door_closed', '[[1300,100],[1450,100],[1450,120]]');
.open :memory:
ATTACH 'keep.db' AS keep;
SELECT count(*), group_concat(name, ',') FROM wed_doors('corpus/wed/bst__bst__areas__bs1000.WED') WHERE name IN ('DOOR 02', 'DOOR 04', 'DOOR 99');
-- expect: 1|DOOR 99
SELECT door, cells, open_polygons, closed_polygons FROM wed_doors('corpus/wed/bst__bst__areas__bs1000.WED') WHERE name = 'DOOR 99';
-- expect: 14|[100,101,180,181]|[109]|[110]
SELECT 'the other doors: same cells and polygons as the twin', count(*) = 14 FROM wed_doors('corpus/wed/bst__bst__areas__bs1000.WED') AS d
  JOIN wed_doors('corpus/wed/bst__bst__tis_bgee__BS1000.wed') AS t ON upper(t.name) = upper(d.name) AND t.cells = d.cells
  WHERE (SELECT group_concat(vertices) FROM wed_polygons(d.file) WHERE door = d.door) = (SELECT group_concat(vertices) FROM wed_polygons(t.file) WHERE door = t.door);
SELECT 'walls untouched', (SELECT group_concat(vertices) FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') WHERE kind = 'wall')
  = (SELECT group_concat(vertices) FROM wed_polygons('corpus/wed/bst__bst__tis_bgee__BS1000.wed') WHERE kind = 'wall');
SELECT 'door cell table compact, door after door', count(*) = 0 FROM wed_doors('corpus/wed/bst__bst__areas__bs1000.WED') AS d
  WHERE d.first_cell <> coalesce((SELECT sum(cell_count) FROM wed_doors(d.file) WHERE door < d.door), 0);
SELECT 'no orphan polygons, none missing from its groups', count(*) = 0 FROM wed_polygons('corpus/wed/bst__bst__areas__bs1000.WED') AS p
  WHERE p.kind = 'orphan' OR (p.vertex_count > 0 AND NOT EXISTS (SELECT 1 FROM wed_wallgroups(p.file) AS g, json_each(g.polygons) AS j WHERE j.value = p.polygon));
SELECT ok FROM levelsql_files('corpus/wed/bst__bst__areas__bs1000.WED');
-- expect: 1

-- ---- overlays of bs0134 (three YSWAVE overlays; twin of tis_bgee) ----------------
DELETE FROM wed_overlays WHERE source = 'corpus/wed/bst__bst__areas__bs0134.wed' AND overlay = 3;
UPDATE wed_overlays SET width = 4, height = 3 WHERE source = 'corpus/wed/bst__bst__areas__bs0134.wed' AND overlay = 1;
INSERT INTO wed_overlays(file, width, height, tileset) VALUES ('corpus/wed/bst__bst__areas__bs0134.wed', 1, 1, 'WTLAVA');
.open :memory:
SELECT group_concat(overlay || ':' || width || 'x' || height || ':' || tileset || ':' || num_lookup, ' ') FROM wed_overlays('corpus/wed/bst__bst__areas__bs0134.wed');
-- expect: 0:40x30:BS0134:1200 1:4x3:YSWAVE:72 2:1x1:YSWAVE:6 3:1x1:WTLAVA:1 4:0x0::0
SELECT 'base masks: bit 3 cleared, bits 1 and 2 as the twin''s', count(*) = 1200 FROM wed_tiles('corpus/wed/bst__bst__areas__bs0134.wed') AS a
  JOIN wed_tiles('corpus/wed/bst__bst__tis_bgee__bs0134.wed') AS t USING (overlay, x, y) WHERE a.overlay = 0 AND a.overlay_mask = t.overlay_mask & ~8 AND a.tis_tiles = t.tis_tiles;
SELECT 'the grown water overlay repeats its animation', count(*) = 12 FROM wed_tiles('corpus/wed/bst__bst__areas__bs0134.wed') AS a
  WHERE a.overlay = 1 AND a.tis_tiles = (SELECT tis_tiles FROM wed_tiles('corpus/wed/bst__bst__tis_bgee__bs0134.wed') WHERE overlay = 1);
SELECT ok FROM levelsql_files('corpus/wed/bst__bst__areas__bs0134.wed');
-- expect: 1

-- ---- the base overlay of YS0123 (23x19, 8 doors) -----------------------------------
UPDATE wed_overlays SET width = 31, height = 23 WHERE source = 'corpus/wed/bst__bst__areas__YS0123.WED' AND overlay = 0;
.open :memory:
SELECT width, height, num_cells, (SELECT count(*) FROM wed_wallgroups('corpus/wed/bst__bst__areas__YS0123.WED')) FROM wed_overlays('corpus/wed/bst__bst__areas__YS0123.WED') WHERE overlay = 0;
-- expect: 31|23|713|16
SELECT 'door cells at the same (x, y) as the twin''s', count(*) = (SELECT count(*) FROM wed_doors('corpus/wed/bst__bst__tis_bgee__ys0123.wed') AS t, json_each(t.cells))
  FROM wed_doors('corpus/wed/bst__bst__areas__YS0123.WED') AS d, json_each(d.cells) AS c
  JOIN wed_doors('corpus/wed/bst__bst__tis_bgee__ys0123.wed') AS t ON t.door = d.door, json_each(t.cells) AS tc
  WHERE c.key = tc.key AND c.value % 31 = tc.value % 23 AND c.value / 31 = tc.value / 23;
SELECT 'old tiles at their (x, y)', count(*) = 23 * 19 FROM wed_tiles('corpus/wed/bst__bst__areas__YS0123.WED') AS a
  JOIN wed_tiles('corpus/wed/bst__bst__tis_bgee__ys0123.wed') AS t USING (overlay, x, y) WHERE a.overlay = 0 AND a.tis_tiles = t.tis_tiles AND a.overlay_mask = t.overlay_mask;
SELECT 'every polygon in the wall groups its box meets', count(*) = 0 FROM wed_polygons('corpus/wed/bst__bst__areas__YS0123.WED') AS p, wed_wallgroups(p.file) AS g
  WHERE p.vertex_count > 0 AND p.min_x <= p.max_x AND p.min_y <= p.max_y AND p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480
  AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) WHERE value = p.polygon);
-- back to 23x19: the same tiles and door cells as the twin again
UPDATE wed_overlays SET width = 23, height = 19 WHERE source = 'corpus/wed/bst__bst__areas__YS0123.WED' AND overlay = 0;
.open :memory:
SELECT 'shrunk back: door cells as the twin''s', (SELECT group_concat(cells, ' ') FROM wed_doors('corpus/wed/bst__bst__areas__YS0123.WED'))
  = (SELECT group_concat(cells, ' ') FROM wed_doors('corpus/wed/bst__bst__tis_bgee__ys0123.wed'));
-- (the stored groups of this area miss a few polygons their boxes meet, so
-- the regenerated ones list more: every stored reference, and those)
SELECT 'shrunk back: every wall group reference of the twin is listed', count(*) = 0 FROM wed_wallgroups('corpus/wed/bst__bst__tis_bgee__ys0123.wed') AS t, json_each(t.polygons) AS j
  WHERE NOT EXISTS (SELECT 1 FROM wed_wallgroups('corpus/wed/bst__bst__areas__YS0123.WED') AS a, json_each(a.polygons) AS k WHERE a.grp = t.grp AND k.value = j.value);
SELECT count(*) FROM wed_wallgroups('corpus/wed/bst__bst__areas__YS0123.WED');
-- expect: 9
UPDATE wed_overlays SET width = 10 WHERE source = 'corpus/wed/bst__bst__areas__YS0123.WED' AND overlay = 0;
-- expect error: overlay 0: cannot resize: door 2: its cell 217 (x 10, y 9) lies outside the new 10x19 area
-- A resize that keeps the 640x480 grid (3x3 groups for 21..30 x 16..22
-- tiles) keeps the stored wall groups as they are.
ATTACH 'keep.db' AS keep;
CREATE TABLE keep.ys AS SELECT group_concat(polygons || lookup_start || ',' || lookup_count, ' ') AS groups FROM wed_wallgroups('corpus/wed/bst__bst__tis_bgee__ys0123.wed');
UPDATE wed_overlays SET width = 25, height = 20 WHERE source = 'corpus/wed/bst__bst__tis_bgee__ys0123.wed' AND overlay = 0;
.open :memory:
ATTACH 'keep.db' AS keep;
SELECT 'same grid: the stored wall groups stay', group_concat(polygons || lookup_start || ',' || lookup_count, ' ') = (SELECT groups FROM keep.ys) FROM wed_wallgroups('corpus/wed/bst__bst__tis_bgee__ys0123.wed');
SELECT width, height FROM wed_overlays('corpus/wed/bst__bst__tis_bgee__ys0123.wed') WHERE overlay = 0;
-- expect: 25|20
SELECT ok FROM levelsql_files('corpus/wed/bst__bst__areas__YS0123.WED');
-- expect: 1
