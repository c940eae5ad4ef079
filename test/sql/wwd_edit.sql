-- Structural edits of WWD levels on the generated samples (samples/):
-- resizing planes, INSERT and DELETE of planes and tile properties, and
-- levelsql_copy.  Each write is read back in a new connection.

-- Untouched copies to compare with after the edits.
SELECT levelsql_copy('samples/SAMPLE01.WWD', 'samples/ORIG01.WWD'), levelsql_copy('samples/SAMPLE02.WWD', 'samples/ORIG02.WWD'),
  levelsql_copy('samples/SAMPLE03.WWD', 'samples/ORIG03.WWD');
-- expect: samples/ORIG01.WWD|samples/ORIG02.WWD|samples/ORIG03.WWD

-- ---- resizing --------------------------------------------------------------
-- Grow the main plane of an uncompressed level, shrink the front plane of a
-- compressed one (new cells filled there: option new_cells).
UPDATE wwd_planes SET tiles_wide = 170, tiles_high = 50 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1;
SELECT tiles_wide, tiles_high, width_px, height_px FROM wwd_planes('samples/SAMPLE01.WWD') WHERE plane = 1;
-- expect: 170|50|10880|3200
UPDATE wwd_planes SET tiles_wide = 30, tiles_high = 10 WHERE source = 'samples/SAMPLE02.WWD' AND plane = 2 AND options = 'new_cells=filled';
UPDATE wwd_planes SET tiles_wide = 2 WHERE source = 'samples/SAMPLE02.WWD' AND plane = 0 AND options = 'new_cells=77';
UPDATE wwd_planes SET tiles_wide = 4 WHERE source = 'samples/SAMPLE02.WWD' AND plane = 0 AND options = 'new_cells=77';
-- Refusals: too many cells, negative, a bad new_cells, the pixel size.
UPDATE wwd_planes SET tiles_wide = 100000, tiles_high = 100000 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 0;
-- expect error: more than the 67108864 cells a plane may have
UPDATE wwd_planes SET tiles_high = -1 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 0;
-- expect error: column tiles_high
UPDATE wwd_planes SET tiles_high = 5 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 0 AND options = 'new_cells=lava';
-- expect error: option new_cells takes invisible (the default), filled or a tile id, not 'lava'
UPDATE wwd_planes SET tiles_wide = 40000000, tiles_high = 1 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 0;
-- expect error: the size in pixels is beyond 2147483647
UPDATE wwd_planes SET width_px = 5 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 0;
-- expect error: column width_px of wwd_planes is read-only

.open :memory:
SELECT plane, tiles_wide, tiles_high, width_px, height_px FROM wwd_planes('samples/SAMPLE01.WWD');
-- expect: 0|24|24|1536|1536
-- expect: 1|170|50|10880|3200
-- expect: 2|24|60|1536|3840
SELECT 'kept cells are where they were (anchored top-left)', count(*) = 160 * 48 FROM wwd_tiles('samples/SAMPLE01.WWD') AS n
  JOIN wwd_tiles('samples/ORIG01.WWD') AS o ON o.plane = n.plane AND o.x = n.x AND o.y = n.y AND o.tile IS n.tile AND o.kind = n.kind
  WHERE n.plane = 1;
SELECT 'new cells are invisible by default', count(*) = 170 * 50 - 160 * 48 FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE plane = 1 AND (x >= 160 OR y >= 48) AND kind = 'invisible';
SELECT 'tile rows follow', count(*) = 170 * 50 FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE plane = 1;
SELECT 'uncompressed level stays so, checksum exact', compressed = 0 AND checksum_kind = 'exact' FROM wwd_levels('samples/SAMPLE01.WWD');
SELECT 'other planes, objects and properties untouched',
  (SELECT group_concat(name || tiles_wide || 'x' || tiles_high) FROM wwd_planes('samples/SAMPLE01.WWD') WHERE plane <> 1) =
  (SELECT group_concat(name || tiles_wide || 'x' || tiles_high) FROM wwd_planes('samples/ORIG01.WWD') WHERE plane <> 1)
  AND (SELECT count(*) FROM wwd_objects('samples/SAMPLE01.WWD')) = 320
  AND (SELECT count(*) FROM wwd_tile_properties('samples/SAMPLE01.WWD')) = 56;
SELECT plane, tiles_wide, tiles_high, width_px, height_px FROM wwd_planes('samples/SAMPLE02.WWD') WHERE plane <> 1;
-- expect: 0|4|24|256|1536
-- expect: 2|30|10|1920|640
SELECT 'compressed level stays compressed, checksum exact', compressed = 1 AND checksum_kind = 'exact' FROM wwd_levels('samples/SAMPLE02.WWD');
SELECT 'shrunk plane keeps its top-left cells', count(*) = 24 * 10 FROM wwd_tiles('samples/SAMPLE02.WWD') AS n
  JOIN wwd_tiles('samples/ORIG02.WWD') AS o ON o.plane = n.plane AND o.x = n.x AND o.y = n.y AND o.tile IS n.tile AND o.kind = n.kind
  WHERE n.plane = 2;
SELECT 'new cells filled as asked', count(*) = 6 * 10 FROM wwd_tiles('samples/SAMPLE02.WWD') WHERE plane = 2 AND x >= 24 AND kind = 'filled';
SELECT group_concat(coalesce(tile, kind)) FROM wwd_tiles('samples/SAMPLE02.WWD') WHERE plane = 0 AND y = 0 AND x >= 2;
-- expect: 77,77

-- ---- planes: INSERT and DELETE -----------------------------------------------
-- A plane at the end: tile size and counts of the main plane (160 x 48 of 64 px).
INSERT INTO wwd_planes(source, name, z, movement_x_percent, image_sets) VALUES ('samples/SAMPLE04.WWD', 'Clouds', 9500, 25, '["FRONT"]');
-- A plane in front of the others, of its own size, cells filled with tile 3.
INSERT INTO wwd_planes(source, plane, name, tiles_wide, tiles_high, tile_width, tile_height, wrap_x, z, options)
  VALUES ('samples/SAMPLE04.WWD', 0, 'Sky', 8, 4, 32, 32, 1, -2000, 'new_cells=3');
SELECT plane, name, tiles_wide, tiles_high, tile_width, width_px, height_px, z, is_main, wrap_x, num_objects, image_sets FROM wwd_planes('samples/SAMPLE04.WWD');
-- expect: 0|Sky|8|4|32|256|128|-2000|0|1|0|[]
-- expect: 1|Background|24|24|64|1536|1536|-999|0|1|0|["BACK"]
-- expect: 2|Action|120|40|64|7680|2560|0|1|0|180|["ACTION"]
-- expect: 3|Front|24|60|64|1536|3840|9000|0|1|12|["FRONT"]
-- expect: 4|Clouds|120|40|64|7680|2560|9500|0|0|0|["FRONT"]
INSERT INTO wwd_planes(source, plane) VALUES ('samples/SAMPLE04.WWD', 9);
-- expect error: column plane
INSERT INTO wwd_planes(source, tile_width) VALUES ('samples/SAMPLE04.WWD', 0);
-- expect error: column tile_width
INSERT INTO wwd_planes(source, tiles_wide, tiles_high) VALUES ('samples/SAMPLE04.WWD', 70000, 70000);
-- expect error: more than the 67108864 cells
-- Objects can go onto a new plane.
INSERT INTO wwd_objects(source, plane, logic, x, y) VALUES ('samples/SAMPLE04.WWD', 4, 'BehindCandy', 10, 20);
-- The main plane stays; deleting it fails the whole statement.
DELETE FROM wwd_planes WHERE source = 'samples/SAMPLE04.WWD';
-- expect error: plane 2: it is the main plane
SELECT 'a refused DELETE deletes nothing', count(*) = 5 FROM wwd_planes('samples/SAMPLE04.WWD');

.open :memory:
SELECT group_concat(name) FROM wwd_planes('samples/SAMPLE04.WWD');
-- expect: Sky,Background,Action,Front,Clouds
SELECT 'inserted cells', count(*) = 32 FROM wwd_tiles('samples/SAMPLE04.WWD') WHERE plane = 0 AND tile = 3;
SELECT 'default cells invisible', count(*) = 120 * 40 FROM wwd_tiles('samples/SAMPLE04.WWD') WHERE plane = 4 AND kind = 'invisible';
SELECT plane, logic FROM wwd_objects('samples/SAMPLE04.WWD') WHERE logic = 'BehindCandy';
-- expect: 4|BehindCandy
SELECT 'checksum exact after inserts', checksum_kind = 'exact' AND num_planes = 5 FROM wwd_levels('samples/SAMPLE04.WWD');
-- Several planes in one DELETE (rows keep their identity while others go):
-- the Front plane's 12 objects and Clouds' one go with them.
DELETE FROM wwd_planes WHERE source = 'samples/SAMPLE04.WWD' AND name IN ('Sky', 'Front', 'Clouds');
SELECT plane, name, num_objects FROM wwd_planes('samples/SAMPLE04.WWD');
-- expect: 0|Background|0
-- expect: 1|Action|180

.open :memory:
SELECT num_planes, num_objects, checksum_kind FROM wwd_levels('samples/SAMPLE04.WWD');
-- expect: 2|180|exact
SELECT 'objects of the main plane untouched', count(*) = 180 FROM wwd_objects('samples/SAMPLE04.WWD') WHERE plane = 1;
SELECT 'tile properties untouched', count(*) = 52 FROM wwd_tile_properties('samples/SAMPLE04.WWD');

-- ROLLBACK undoes plane inserts, deletes and resizes.
BEGIN;
INSERT INTO wwd_planes(source, name) VALUES ('samples/SAMPLE05.WWD', 'Temp');
UPDATE wwd_planes SET tiles_wide = 1 WHERE source = 'samples/SAMPLE05.WWD' AND plane = 0;
SELECT count(*) FROM wwd_planes('samples/SAMPLE05.WWD');
-- expect: 2
ROLLBACK;
SELECT group_concat(name || tiles_wide) FROM wwd_planes('samples/SAMPLE05.WWD');
-- expect: Action40

-- ---- tile properties: INSERT and DELETE --------------------------------------
INSERT INTO wwd_tile_properties(file, tile, type, attribute) VALUES ('samples/SAMPLE03.WWD', NULL, 'single', wwd_flag_value('attribute', 'solid'));
INSERT INTO wwd_tile_properties(file, type, attribute, inside_attribute, rect_left, rect_top, rect_right, rect_bottom)
  VALUES ('samples/SAMPLE03.WWD', 'double', 0, 2, 0, 0, 31, 15);
INSERT INTO wwd_tile_properties(file, type, width, height) VALUES ('samples/SAMPLE03.WWD', 'mask', 4, 2);
SELECT tile, type, width, height, attribute, inside_attribute, rect_bottom, length(mask) FROM wwd_tile_properties('samples/SAMPLE03.WWD') WHERE tile >= 910;
-- expect: 910|single|32|32|1|||
-- expect: 911|double|32|32|0|2|15|
-- expect: 912|mask|4|2||||8
INSERT INTO wwd_tile_properties(file, tile, type) VALUES ('samples/SAMPLE03.WWD', 914, 'single');
-- expect error: column tile
-- An insert at a tile id moves the later ones up.
INSERT INTO wwd_tile_properties(file, tile, type, attribute) VALUES ('samples/SAMPLE03.WWD', 0, 'single', 4);
SELECT count(*), sum(tile = 0 AND attribute = 4), sum(tile = 913 AND type = 'mask') FROM wwd_tile_properties('samples/SAMPLE03.WWD');
-- expect: 914|1|1

.open :memory:
SELECT num_tile_properties, checksum_kind FROM wwd_levels('samples/SAMPLE03.WWD');
-- expect: 914|exact
SELECT tile, type, length(mask) FROM wwd_tile_properties('samples/SAMPLE03.WWD') WHERE tile IN (0, 913);
-- expect: 0|single|
-- expect: 913|mask|8
-- DELETE of several properties at once; later ones move down.
DELETE FROM wwd_tile_properties WHERE source = 'samples/SAMPLE03.WWD' AND (tile = 0 OR tile >= 911);
SELECT count(*), max(tile) FROM wwd_tile_properties('samples/SAMPLE03.WWD');
-- expect: 910|909

.open :memory:
SELECT num_tile_properties FROM wwd_levels('samples/SAMPLE03.WWD');
-- expect: 910
SELECT 'the properties are the original ones again', count(*) = 910 FROM wwd_tile_properties('samples/SAMPLE03.WWD') AS n
  JOIN wwd_tile_properties('samples/ORIG03.WWD') AS o ON o.tile = n.tile AND o.type = n.type AND o.width = n.width AND o.height = n.height
  AND o.attribute IS n.attribute AND o.inside_attribute IS n.inside_attribute AND o.rect_left IS n.rect_left AND o.mask IS n.mask;

-- ---- levelsql_copy: ten variants of a level ----------------------------------
WITH RECURSIVE n(value) AS (SELECT 1 UNION ALL SELECT value + 1 FROM n WHERE value < 10)
  SELECT count(levelsql_copy('samples/SAMPLE05.WWD', printf('samples/VARIANT%02d.WWD', value))) FROM n;
-- expect: 10
UPDATE wwd_objects SET x = x + 32 * CAST(substr(file, -6, 2) AS INTEGER)
  WHERE source = 'samples/VARIANT*.WWD' AND idx = 0;
SELECT levelsql_copy('samples/SAMPLE05.WWD', 'samples/VARIANT03.WWD');
-- expect error: samples/VARIANT03.WWD: the file exists; nothing was written (pass overwrite = 1 to replace it)
SELECT levelsql_copy('samples/SAMPLE05.WWD', 'samples/SAMPLE05.WWD', 1);
-- expect error: are the same file
SELECT levelsql_copy('samples/none.WWD', 'samples/X.WWD');
-- expect error: samples/none.WWD
SELECT levelsql_copy('samples/SAMPLE05.WWD', 'no/such/folder/X.WWD');
-- expect error: no such folder
SELECT levelsql_copy('samples/SAMPLE05.WWD', NULL);
-- expect error: src and dst are paths of files
-- A source with edits this transaction has not committed is refused.
BEGIN;
UPDATE wwd_levels SET name = 'changed' WHERE source = 'samples/SAMPLE05.WWD';
SELECT levelsql_copy('samples/SAMPLE05.WWD', 'samples/X.WWD');
-- expect error: has changes not yet committed in this connection
ROLLBACK;
-- Not a level at all.
SELECT levelsql_copy('fixtures', 'samples/X.WWD');
-- expect error: fixtures

.open :memory:
SELECT 'ten variants', count(*) = 10 FROM wwd_levels('samples/VARIANT*.WWD');
SELECT group_concat(o.x - t.x) FROM wwd_objects('samples/VARIANT*.WWD') AS o
  JOIN wwd_objects('samples/SAMPLE05.WWD') AS t ON t.idx = o.idx WHERE o.idx = 0;
-- expect: 32,64,96,128,160,192,224,256,288,320
SELECT 'copies are the template otherwise', count(*) = 10 FROM wwd_levels('samples/VARIANT*.WWD') AS v, wwd_levels('samples/SAMPLE05.WWD') AS t
  WHERE v.name = t.name AND v.num_objects = t.num_objects AND v.num_tile_properties = t.num_tile_properties AND v.file_size = t.file_size;
SELECT 'no temporary files left', count(*) = 0 FROM levelsql_files('samples') WHERE file LIKE '%levelsql-%';
-- overwrite = 1 replaces a copy with the template again.
SELECT levelsql_copy('samples/SAMPLE05.WWD', 'samples/VARIANT03.WWD', 1);
-- expect: samples/VARIANT03.WWD
SELECT o.x = t.x FROM wwd_objects('samples/VARIANT03.WWD') AS o JOIN wwd_objects('samples/SAMPLE05.WWD') AS t ON t.idx = o.idx WHERE o.idx = 0;
-- expect: 1
-- Any format: a Teeworlds map.
SELECT levelsql_copy('samples/dm_sample.map', 'samples/dm_copy.map');
-- expect: samples/dm_copy.map
SELECT (SELECT count(*) FROM tw_layers('samples/dm_copy.map')) = (SELECT count(*) FROM tw_layers('samples/dm_sample.map'));
-- expect: 1
