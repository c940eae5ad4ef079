-- The WWD tables on the generated samples (samples/): counts agree across
-- tables, push-down gives the same rows as a plain filter, edits read back.
SELECT 'levels: one row per sample', count(*) = 5 FROM wwd_levels('samples');
SELECT 'num_objects agrees with wwd_objects', (SELECT sum(num_objects) FROM wwd_levels('samples')) = (SELECT count(*) FROM wwd_objects('samples'));
SELECT 'num_planes agrees with wwd_planes', (SELECT sum(num_planes) FROM wwd_levels('samples')) = (SELECT count(*) FROM wwd_planes('samples'));
SELECT 'plane num_objects agrees', (SELECT sum(num_objects) FROM wwd_planes('samples')) = (SELECT count(*) FROM wwd_objects('samples'));
SELECT 'tile rows = tiles_wide * tiles_high', (SELECT sum(tiles_wide * tiles_high) FROM wwd_planes('samples')) = (SELECT count(*) FROM wwd_tiles('samples'));
SELECT 'tile property rows', (SELECT sum(num_tile_properties) FROM wwd_levels('samples')) = (SELECT count(*) FROM wwd_tile_properties('samples'));
SELECT 'x/y/plane push-down = plain filter',
  (SELECT count(*) FROM wwd_tiles('samples') WHERE x BETWEEN 3 AND 9 AND y > 2 AND plane = 1) =
  (SELECT count(*) FROM wwd_tiles('samples') WHERE +x BETWEEN 3 AND 9 AND +y > 2 AND +plane = 1);
SELECT 'x/y push-down nonempty', count(*) > 0 FROM wwd_tiles('samples') WHERE x BETWEEN 3 AND 9 AND y > 2 AND plane = 1;
SELECT 'file push-down = plain filter',
  (SELECT count(*) FROM wwd_objects('samples') WHERE file = 'samples/SAMPLE02.WWD') =
  (SELECT count(*) FROM wwd_objects('samples') WHERE +file = 'samples/SAMPLE02.WWD');
SELECT 'plane push-down on objects', (SELECT count(*) FROM wwd_objects('samples') WHERE plane = 1) = (SELECT count(*) FROM wwd_objects('samples') WHERE +plane = 1);
SELECT 'rowid lookup',
  (SELECT logic FROM wwd_objects('samples') WHERE rowid = (SELECT rowid FROM wwd_objects('samples') WHERE idx = 7 AND file = 'samples/SAMPLE03.WWD')) =
  (SELECT logic FROM wwd_objects('samples') WHERE idx = 7 AND file = 'samples/SAMPLE03.WWD');
SELECT 'source as a hidden column', count(*) = 5 FROM wwd_levels WHERE source = 'samples';
SELECT 'file alone names the source', count(*) = 1 FROM wwd_levels WHERE file = 'samples/SAMPLE01.WWD';
SELECT 'glob patterns', count(*) = 2 FROM wwd_levels('samples/SAMPLE0[12].WWD');
SELECT 'game detection', group_concat(game) = 'claw,claw,gruntz,claw,getmedieval' FROM wwd_levels('samples');
SELECT 'written checksums are exact', count(*) = 5 FROM wwd_levels('samples') WHERE checksum_kind = 'exact' AND checksum = checksum_computed;
SELECT 'image_sets is JSON', min(json_valid(image_sets)) = 1 FROM wwd_planes('samples');
SELECT 'one main plane per level', count(*) = 5 FROM wwd_planes('samples') WHERE is_main;
SELECT 'tile kinds', count(DISTINCT kind) >= 2 FROM wwd_tiles('samples');
SELECT 'special tiles have no id', count(*) = 0 FROM wwd_tiles('samples') WHERE kind <> 'tile' AND tile IS NOT NULL;
SELECT 'mask tiles have width*height bytes', count(*) >= 1 AND min(length(mask) = width * height) = 1 FROM wwd_tile_properties('samples') WHERE type = 'mask';
SELECT 'double tiles have a rectangle', count(*) > 0 FROM wwd_tile_properties('samples') WHERE type = 'double' AND rect_right IS NOT NULL;
SELECT 'single tiles have no rectangle', count(*) = 0 FROM wwd_tile_properties('samples') WHERE type = 'single' AND rect_right IS NOT NULL;
SELECT 'objects on a non-main plane', count(*) > 0 FROM wwd_objects('samples') o JOIN wwd_planes('samples') p ON p.file = o.file AND p.plane = o.plane WHERE NOT p.is_main;

-- edits of planes, tiles, levels and tile properties
UPDATE wwd_planes SET image_sets = '["A","B\"q"]', movement_x_percent = 50, wrap_y = 1, name = 'Back'
  WHERE source = 'samples/SAMPLE01.WWD' AND plane = 0;
SELECT 'plane edit', image_sets = '["A","B\"q"]' AND movement_x_percent = 50 AND wrap_y = 1 AND (flags & 8) = 8 AND name = 'Back'
  FROM wwd_planes('samples/SAMPLE01.WWD') WHERE plane = 0;
UPDATE wwd_tiles SET tile = 4242 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x < 3 AND y < 2;
SELECT 'tile edit', count(*) = 6 FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE tile = 4242;
UPDATE wwd_tiles SET kind = 'filled' WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 0 AND y = 0;
SELECT 'kind edit', kind = 'filled' AND tile IS NULL FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE plane = 1 AND x = 0 AND y = 0;
UPDATE wwd_tiles SET tile = NULL WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 1 AND y = 0;
SELECT 'NULL tile is invisible', kind = 'invisible' FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE plane = 1 AND x = 1 AND y = 0;
UPDATE wwd_levels SET compressed = 1, start_x = 123, author = 'levelsql' WHERE source = 'samples/SAMPLE01.WWD';
SELECT 'compression switched on', compressed = 1 AND file_size < 145240 AND start_x = 123 AND author = 'levelsql' FROM wwd_levels('samples/SAMPLE01.WWD');
SELECT 'edits survive compression', count(*) = 4 FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE tile = 4242;
SELECT 'plane edit survives compression', name = 'Back' FROM wwd_planes('samples/SAMPLE01.WWD') WHERE plane = 0;
UPDATE wwd_levels SET compressed = 0 WHERE source = 'samples/SAMPLE02.WWD';
SELECT 'compression switched off', compressed = 0 AND file_size > 100000 FROM wwd_levels('samples/SAMPLE02.WWD');
UPDATE wwd_tile_properties SET type = 'mask', width = 2, height = 2, mask = x'00010203' WHERE source = 'samples/SAMPLE05.WWD' AND tile = 3;
SELECT 'mask edit', type = 'mask' AND hex(mask) = '00010203' AND attribute IS NULL FROM wwd_tile_properties('samples/SAMPLE05.WWD') WHERE tile = 3;
UPDATE wwd_tile_properties SET type = 'double', inside_attribute = 1, rect_right = 31, rect_bottom = 15 WHERE source = 'samples/SAMPLE05.WWD' AND tile = 4;
SELECT 'double edit', type = 'double' AND inside_attribute = 1 AND rect_right = 31 AND rect_bottom = 15 FROM wwd_tile_properties('samples/SAMPLE05.WWD') WHERE tile = 4;
UPDATE wwd_tile_properties SET type = 'single', attribute = 4 WHERE source = 'samples/SAMPLE05.WWD' AND tile = 3;
SELECT 'mask back to single', type = 'single' AND attribute = 4 AND mask IS NULL FROM wwd_tile_properties('samples/SAMPLE05.WWD') WHERE tile = 3;
-- text in another code page, through the hidden options column
UPDATE wwd_levels SET author = 'Zażółć gęślą' WHERE source = 'samples/SAMPLE05.WWD' AND options = 'encoding=cp1250';
SELECT 'cp1250 write and read', author = 'Zażółć gęślą' FROM wwd_levels('samples/SAMPLE05.WWD', 'encoding=cp1250');
SELECT 'same bytes read as cp1252', author = 'Za¿ó³æ gêœl¹' FROM wwd_levels('samples/SAMPLE05.WWD');
-- objects: insert, update, delete
INSERT INTO wwd_objects(file, plane, logic, image_set, x, y, health) VALUES ('samples/SAMPLE04.WWD', 0, 'Officer', 'LEVEL_OFFICER', 1, 2, 3);
SELECT 'insert on a non-main plane', count(*) = 1 FROM wwd_objects('samples/SAMPLE04.WWD') WHERE plane = 0 AND logic = 'Officer' AND x = 1 AND y = 2 AND health = 3;
UPDATE wwd_objects SET draw_flags = wwd_flag_value('draw', 'mirror|flash') WHERE source = 'samples/SAMPLE04.WWD' AND plane = 0 AND logic = 'Officer';
SELECT 'flags by name', wwd_flag_names('draw', draw_flags) = 'mirror|flash' FROM wwd_objects('samples/SAMPLE04.WWD') WHERE plane = 0 AND logic = 'Officer';
DELETE FROM wwd_objects WHERE source = 'samples/SAMPLE04.WWD' AND plane = 0 AND logic = 'Officer';
SELECT 'delete', count(*) = 0 FROM wwd_objects('samples/SAMPLE04.WWD') WHERE plane = 0 AND logic = 'Officer';
-- a named table over the folder
CREATE VIRTUAL TABLE temp.claw USING wwd_objects('samples', encoding=cp1252);
SELECT 'named table', count(*) = (SELECT count(*) FROM wwd_objects('samples')) FROM claw;
UPDATE claw SET score = 1 WHERE logic = 'Treasure';
SELECT 'update through a named table', min(score) = 1 AND max(score) = 1 FROM wwd_objects('samples') WHERE logic = 'Treasure';
SELECT 'levelsql_files on the samples: the .wwd files are the 5 levels', count(*) = 5 AND min(ok) = 1 AND min(format = 'wwd') FROM levelsql_files('samples') WHERE file LIKE '%.wwd';
-- rows come in file, plane, y, x order; ORDER BY / GROUP BY on that prefix is answered without a sort
SELECT 'tile order without a sort = sorted', (SELECT group_concat(file || plane || y || x || coalesce(tile, '-')) FROM (SELECT * FROM wwd_tiles('samples') ORDER BY file, plane, y, x))
  = (SELECT group_concat(file || plane || y || x || coalesce(tile, '-')) FROM (SELECT * FROM wwd_tiles('samples') ORDER BY +file, +plane, +y, +x));
SELECT 'object order without a sort = sorted', (SELECT group_concat(file || plane || idx) FROM (SELECT * FROM wwd_objects('samples') ORDER BY file, plane, idx))
  = (SELECT group_concat(file || plane || idx) FROM (SELECT * FROM wwd_objects('samples') ORDER BY +file, +plane, +idx));
SELECT 'GROUP BY file, plane', (SELECT group_concat(n) FROM (SELECT count(*) AS n FROM wwd_tiles('samples') GROUP BY file, plane))
  = (SELECT group_concat(n) FROM (SELECT count(*) AS n FROM wwd_tiles('samples') GROUP BY +file, +plane ORDER BY +file, +plane));
SELECT 'single-file order', (SELECT group_concat(idx) FROM (SELECT idx FROM wwd_objects('samples') WHERE file = 'samples/SAMPLE04.WWD' ORDER BY plane, idx))
  = (SELECT group_concat(idx) FROM (SELECT idx FROM wwd_objects('samples') WHERE file = 'samples/SAMPLE04.WWD' ORDER BY +plane, +idx));
-- constraints with real values and rowids from another source
SELECT 'integral real bound', (SELECT count(*) FROM wwd_tiles('samples') WHERE x = 3.0 AND y = 2.0) = (SELECT count(*) FROM wwd_tiles('samples') WHERE x = 3 AND y = 2);
SELECT 'fractional equality is empty', count(*) = 0 FROM wwd_tiles('samples') WHERE x = 3.5;
SELECT 'a rowid outside the source is not a row of it',
  (SELECT count(*) FROM wwd_objects('samples/SAMPLE01.WWD') WHERE rowid = (SELECT rowid FROM wwd_objects('samples/SAMPLE02.WWD') LIMIT 1)) = 0;
SELECT 'a rowid inside the source is',
  (SELECT count(*) FROM wwd_objects('samples') WHERE rowid = (SELECT rowid FROM wwd_objects('samples/SAMPLE02.WWD') LIMIT 1)) = 1;
-- options taken from another table in a join reach the scan
CREATE TEMP TABLE opt(v);
INSERT INTO opt VALUES ('encoding=cp1250');
SELECT 'options from a join', l.author = 'Zażółć gęślą' FROM opt, wwd_levels('samples/SAMPLE05.WWD', opt.v) AS l;
SELECT 'options column in a join', l.author = 'Zażółć gęślą' FROM wwd_levels AS l, opt WHERE l.source = 'samples/SAMPLE05.WWD' AND l.options = opt.v;
