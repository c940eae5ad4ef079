-- requires: corpus
-- The WED tables on the private copy of the real corpus (corpus/wed): every
-- file loads, counts agree across tables and with the JSON columns,
-- push-down gives the same rows as a plain filter, a no-op UPDATE rewrites
-- byte-identically, edits read back and keep the wall groups right.
CREATE TEMP TABLE orig AS SELECT name, data FROM fsdir('corpus/wed') WHERE name GLOB '*.[Ww][Ee][Dd]';
SELECT 'levelsql_files: 98 WED areas, all ok', count(*) = 98 AND min(ok) = 1 AND min(format = 'wed') FROM levelsql_files('corpus/wed');
SELECT 'a folder lists .WED and .wed', count(DISTINCT file) = 98 FROM wed_overlays('corpus/wed');
SELECT 'five overlays per area', count(*) = 5 * 98 FROM wed_overlays('corpus/wed');
SELECT 'tile rows = cells of the used overlays', (SELECT sum(num_cells) FROM wed_overlays('corpus/wed')) = (SELECT count(*) FROM wed_tiles('corpus/wed'));
SELECT 'num_cells = width * height', count(*) = 0 FROM wed_overlays('corpus/wed') WHERE num_cells <> width * height;
SELECT 'tis_tiles has tile_count entries', count(*) = 0 FROM wed_tiles('corpus/wed') WHERE json_array_length(tis_tiles) <> tile_count;
SELECT 'cell = y * width + x', count(*) = 0 FROM wed_tiles('corpus/wed') AS t JOIN wed_overlays('corpus/wed') AS o ON o.file = t.file AND o.overlay = t.overlay WHERE t.cell <> t.y * o.width + t.x;
SELECT 'door cells has cell_count entries', count(*) = 0 FROM wed_doors('corpus/wed') WHERE json_array_length(cells) <> cell_count;
SELECT 'door polygon lists have their counts', count(*) = 0 FROM wed_doors('corpus/wed') WHERE json_array_length(open_polygons) <> open_count OR json_array_length(closed_polygons) <> closed_count;
SELECT 'door cells inside the base overlay', count(*) = 0 FROM wed_doors('corpus/wed') AS d, json_each(d.cells) AS c JOIN wed_overlays('corpus/wed') AS o ON o.file = d.file AND o.overlay = 0 WHERE c.value >= o.num_cells;
SELECT 'door polygons = sum of door state counts', (SELECT count(*) FROM wed_polygons('corpus/wed') WHERE kind <> 'wall') = (SELECT sum(open_count + closed_count) FROM wed_doors('corpus/wed'));
SELECT 'kinds in the corpus', group_concat(DISTINCT kind) = 'wall,door_open,door_closed' FROM wed_polygons('corpus/wed');
SELECT 'door polygons name their door', count(*) = 0 FROM wed_polygons('corpus/wed') AS p LEFT JOIN wed_doors('corpus/wed') AS d ON d.file = p.file AND d.door = p.door WHERE p.kind <> 'wall' AND (d.name IS NOT p.door_name);
SELECT 'walls have no door', count(*) = 0 FROM wed_polygons('corpus/wed') WHERE kind = 'wall' AND (door IS NOT NULL OR door_name IS NOT NULL);
SELECT 'listed door polygons are that door''s', count(*) = 0 FROM wed_doors('corpus/wed') AS d, json_each(d.open_polygons) AS j JOIN wed_polygons('corpus/wed') AS p ON p.file = d.file AND p.polygon = j.value WHERE p.kind <> 'door_open' OR p.door <> d.door;
SELECT 'vertices has vertex_count pairs', count(*) = 0 FROM wed_polygons('corpus/wed') WHERE json_array_length(vertices) <> vertex_count;
SELECT 'sum(vertex_count) = json_each rows', (SELECT sum(vertex_count) FROM wed_polygons('corpus/wed')) = (SELECT count(*) FROM wed_polygons('corpus/wed') AS p, json_each(p.vertices));
SELECT 'JSON columns are valid JSON', (SELECT min(json_valid(vertices)) FROM wed_polygons('corpus/wed')) AND (SELECT min(json_valid(cells) AND json_valid(open_polygons)) FROM wed_doors('corpus/wed')) AND (SELECT min(json_valid(polygons)) FROM wed_wallgroups('corpus/wed')) AND (SELECT min(json_valid(tis_tiles)) FROM wed_tiles('corpus/wed') WHERE overlay > 0 OR x < 3);
SELECT 'stored boxes enclose the vertices', count(*) = 0 FROM wed_polygons('corpus/wed') AS p, json_each(p.vertices) AS v WHERE v.value->>0 < p.min_x OR v.value->>0 > p.max_x OR v.value->>1 < p.min_y OR v.value->>1 > p.max_y;
SELECT 'wall groups: ceil(W/10) * ceil(2H/15)', (SELECT count(*) FROM wed_wallgroups('corpus/wed')) = (SELECT sum(((width + 9) / 10) * ((2 * height + 14) / 15)) FROM wed_overlays('corpus/wed') WHERE overlay = 0);
SELECT 'wall group cells tile the grid', count(*) = 0 FROM wed_wallgroups('corpus/wed') WHERE x_px % 640 <> 0 OR y_px % 480 <> 0;
SELECT 'flag names round-trip', count(*) = 0 FROM wed_polygons('corpus/wed') WHERE wed_flag_value(wed_flag_names(flags)) <> flags;
SELECT 'shade walls by name', (SELECT count(*) FROM wed_polygons('corpus/wed') WHERE wed_flag_names(flags) LIKE '%shade_wall%') = (SELECT count(*) FROM wed_polygons('corpus/wed') WHERE flags & 1);
SELECT 'polygon push-down = plain filter', (SELECT count(*) FROM wed_polygons('corpus/wed') WHERE polygon BETWEEN 3 AND 9) = (SELECT count(*) FROM wed_polygons('corpus/wed') WHERE +polygon BETWEEN 3 AND 9);
SELECT 'x/y/overlay push-down = plain filter',
  (SELECT count(*) FROM wed_tiles('corpus/wed') WHERE x BETWEEN 3 AND 9 AND y > 40 AND overlay = 0) =
  (SELECT count(*) FROM wed_tiles('corpus/wed') WHERE +x BETWEEN 3 AND 9 AND +y > 40 AND +overlay = 0);
SELECT 'overlay push-down', (SELECT count(*) FROM wed_tiles('corpus/wed') WHERE overlay >= 1) = (SELECT count(*) FROM wed_tiles('corpus/wed') WHERE +overlay >= 1);
SELECT 'door and group push-down', (SELECT count(*) FROM wed_doors('corpus/wed') WHERE door = 1) = (SELECT count(*) FROM wed_doors('corpus/wed') WHERE +door = 1) AND (SELECT count(*) FROM wed_wallgroups('corpus/wed') WHERE grp < 4) = (SELECT count(*) FROM wed_wallgroups('corpus/wed') WHERE +grp < 4);
SELECT 'rowid lookup of a polygon',
  (SELECT vertices FROM wed_polygons('corpus/wed') WHERE rowid = (SELECT rowid FROM wed_polygons('corpus/wed') WHERE polygon = 7 AND file = 'corpus/wed/bst__bst__areas__bs0101.WED')) =
  (SELECT vertices FROM wed_polygons('corpus/wed') WHERE polygon = 7 AND file = 'corpus/wed/bst__bst__areas__bs0101.WED');
SELECT 'file alone names the source', count(*) = 1 FROM wed_doors WHERE file = 'corpus/wed/bst__bst__areas__bs0101.WED';
SELECT 'glob patterns', count(DISTINCT file) = 2 FROM wed_overlays('corpus/wed/*bs0101.[Ww][Ee][Dd]');
SELECT 'AR0100 door', name = 'DOOR0001' AND closed = 1 AND cells = '[]' AND open_polygons = '[6]' AND closed_polygons = '[7]' FROM wed_doors('corpus/wed/gemrb__demo__override__AR0100.WED');
SELECT 'AR0100 wall 0', vertices = '[[1059,858],[1182,844],[1153,737],[1155,701],[1135,698],[1116,706],[1094,769],[1078,787]]' AND min_x = 1059 AND max_y = 858 AND flags = 9 FROM wed_polygons('corpus/wed/gemrb__demo__override__AR0100.WED') WHERE polygon = 0;
SELECT 'AR0100 overlay', tileset = 'AR0100' AND width = 25 AND height = 18 FROM wed_overlays('corpus/wed/gemrb__demo__override__AR0100.WED') WHERE overlay = 0;
SELECT 'levelsql_columns documents the WED tables', count(DISTINCT table_name) = 6 FROM levelsql_columns WHERE table_name LIKE 'wed\_%' ESCAPE '\';

-- a no-op UPDATE of every file (each value written back as read) leaves
-- every file alone; with rewrite=1 it re-saves each, byte-identically
UPDATE wed_overlays SET tileset = tileset WHERE source = 'corpus/wed';
SELECT 'a no-op UPDATE writes no file', json_extract(levelsql_cache_stats(), '$.writes') = 0 FROM (SELECT 1);
UPDATE wed_overlays SET tileset = tileset WHERE source = 'corpus/wed' AND options = 'rewrite=1';
SELECT 'no-op rewrite of every area', json_extract(levelsql_cache_stats(), '$.writes') >= 98 FROM (SELECT 1);
SELECT 'no-op rewrites are byte-identical', count(*) = 98 FROM orig AS o WHERE readfile(o.name) = o.data;

-- edits: move, insert, delete, door cells, tiles; then the wall groups
UPDATE wed_polygons SET vertices = (SELECT json_group_array(json_array((v.value->>0) + 100, v.value->>1)) FROM json_each(vertices) AS v)
  WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED' AND polygon = 0;
SELECT 'moved wall', min_x = (SELECT min(v.value->>0) FROM json_each(vertices) AS v) FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE polygon = 0;
SELECT 'moved by 100', (SELECT min_x FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE polygon = 0) = (SELECT min_x + 100 FROM wed_polygons('corpus/wed/bst__bst__tis_bgee__bs0101.WED') WHERE polygon = 0);
INSERT INTO wed_polygons(file, vertices, flags) VALUES ('corpus/wed/bst__bst__areas__bs0101.WED', '[[600,400],[700,420],[650,520]]', 1);
SELECT 'inserted wall after the walls', kind = 'wall' AND min_x = 600 AND max_y = 520 AND height = 255 FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE vertices = '[[600,400],[700,420],[650,520]]';
SELECT 'inserted wall in the four groups its box meets', count(*) = 4 FROM wed_wallgroups('corpus/wed/bst__bst__areas__bs0101.WED') AS g, json_each(g.polygons) AS j
  WHERE j.value = (SELECT polygon FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE vertices = '[[600,400],[700,420],[650,520]]');
DELETE FROM wed_polygons WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED' AND kind = 'wall' AND polygon IN (1, 2, 3);
SELECT 'three walls deleted', (SELECT count(*) FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE kind = 'wall') + 2 = (SELECT count(*) FROM wed_polygons('corpus/wed/bst__bst__tis_bgee__bs0101.WED') WHERE kind = 'wall');
SELECT 'door polygons kept', (SELECT group_concat(vertices, ';') FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') WHERE kind <> 'wall') = (SELECT group_concat(vertices, ';') FROM wed_polygons('corpus/wed/bst__bst__tis_bgee__bs0101.WED') WHERE kind <> 'wall');
UPDATE wed_doors SET cells = '[1716,1717,1770,1771,1772]' WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED' AND door = 0;
SELECT 'door cells', cells = '[1716,1717,1770,1771,1772]' AND cell_count = 5 FROM wed_doors('corpus/wed/bst__bst__areas__bs0101.WED') WHERE door = 0;
UPDATE wed_tiles SET tis_tiles = '[5,6,7]', anim_speed = 6 WHERE source = 'corpus/wed/bst__bst__areas__bs0101.WED' AND overlay = 0 AND x = 4 AND y = 4;
SELECT 'animated cell', tis_tiles = '[5,6,7]' AND tile_count = 3 AND anim_speed = 6 FROM wed_tiles('corpus/wed/bst__bst__areas__bs0101.WED') WHERE overlay = 0 AND x = 4 AND y = 4;
SELECT 'other cells keep their tiles', count(*) = 0 FROM wed_tiles('corpus/wed/bst__bst__areas__bs0101.WED') AS a JOIN wed_tiles('corpus/wed/bst__bst__tis_bgee__bs0101.WED') AS b
  ON a.overlay = b.overlay AND a.x = b.x AND a.y = b.y WHERE a.tis_tiles <> b.tis_tiles AND NOT (a.overlay = 0 AND a.x = 4 AND a.y = 4);
SELECT 'wall groups cover every polygon after the edits', count(*) = 0
  FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED') AS p JOIN wed_wallgroups('corpus/wed/bst__bst__areas__bs0101.WED') AS g
  ON p.max_x >= g.x_px AND p.min_x < g.x_px + 640 AND p.max_y >= g.y_px AND p.min_y < g.y_px + 480
  WHERE p.vertex_count > 0 AND NOT EXISTS (SELECT 1 FROM json_each(g.polygons) WHERE value = p.polygon);
SELECT 'wall group entries in range after the edits', count(*) = 0 FROM wed_wallgroups('corpus/wed/bst__bst__areas__bs0101.WED') AS g, json_each(g.polygons) AS j
  WHERE j.value >= (SELECT count(*) FROM wed_polygons('corpus/wed/bst__bst__areas__bs0101.WED'));
SELECT 'the edited file still loads', ok FROM levelsql_files('corpus/wed/bst__bst__areas__bs0101.WED');

-- box vs. vertices in one UPDATE: the explicit box wins
UPDATE wed_polygons SET vertices = '[[10,20],[30,40]]', max_x = 100 WHERE source = 'corpus/wed/bst__bst__areas__BS0128.WED' AND polygon = 0;
SELECT 'explicit max_x wins over the vertices', min_x = 10 AND max_x = 100 AND min_y = 20 AND max_y = 40 FROM wed_polygons('corpus/wed/bst__bst__areas__BS0128.WED') WHERE polygon = 0;
UPDATE wed_polygons SET vertices = '[[10,20],[31,40]]' WHERE source = 'corpus/wed/bst__bst__areas__BS0128.WED' AND polygon = 0;
SELECT 'vertices alone recompute the box', max_x = 31 FROM wed_polygons('corpus/wed/bst__bst__areas__BS0128.WED') WHERE polygon = 0;

-- bulk edit inside a transaction, rolled back
BEGIN;
UPDATE wed_polygons SET flags = flags | wed_flag_value('shade_wall') WHERE source = 'corpus/wed/bst__bst__areas__BS0103.WED' AND kind = 'wall';
SELECT 'shade-wall flag on every wall', count(*) = 0 FROM wed_polygons('corpus/wed/bst__bst__areas__BS0103.WED') WHERE kind = 'wall' AND NOT flags & 1;
ROLLBACK;
SELECT 'rollback leaves the file', readfile('corpus/wed/bst__bst__areas__BS0103.WED') = data FROM orig WHERE name = 'corpus/wed/bst__bst__areas__BS0103.WED';

-- a named table over the folder
CREATE VIRTUAL TABLE temp.areas USING wed_polygons('corpus/wed');
SELECT 'named table', count(*) = (SELECT count(*) FROM wed_polygons('corpus/wed')) FROM areas;
UPDATE areas SET height = 254 WHERE file = 'corpus/wed/gemrb__demo__override__AR0100.WED' AND kind = 'wall';
SELECT 'update through a named table', min(height) = 254 AND max(height) = 254 FROM wed_polygons('corpus/wed/gemrb__demo__override__AR0100.WED') WHERE kind = 'wall';
