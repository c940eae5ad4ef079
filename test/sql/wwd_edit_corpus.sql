-- requires: corpus
-- Structural edits of real WWD levels (a private copy in corpus/wwd):
-- resizing, plane and tile property INSERT / DELETE, levelsql_copy.  Every
-- write is read back in a new connection and compared with an untouched
-- copy made by levelsql_copy.

-- levelsql_copy copies real levels byte for byte: same size, same stored
-- checksum (the editors' 'engine' class stays), every table equal.
SELECT count(levelsql_copy(file, replace(file, 'libwap32__', 'orig__'))) FROM wwd_levels('corpus/wwd/libwap32__*', 'on_error=skip');
-- expect: 12
SELECT 'copies keep size and checksum', count(*) = 12 FROM wwd_levels('corpus/wwd/orig__*') AS c
  JOIN wwd_levels('corpus/wwd/libwap32__*', 'on_error=skip') AS o ON replace(o.file, 'libwap32__', 'orig__') = c.file
  WHERE c.file_size = o.file_size AND c.checksum = o.checksum AND c.checksum_kind = o.checksum_kind AND c.num_objects = o.num_objects;
SELECT levelsql_copy('corpus/wwd/libwap32__RETAIL01_badsig.WWD', 'corpus/wwd/bad_copy.WWD');
-- expect error: bad signature

-- ---- resize the main plane of RETAIL01 (compressed) and its uncompressed twin
UPDATE wwd_planes SET tiles_wide = 400, tiles_high = 100 WHERE source = 'corpus/wwd/libwap32__RETAIL01.WWD' AND is_main;
UPDATE wwd_planes SET tiles_wide = 300, tiles_high = 90 WHERE source = 'corpus/wwd/libwap32__RETAIL01_nocompress.WWD' AND is_main
  AND options = 'new_cells=filled';

.open :memory:
SELECT plane, tiles_wide, tiles_high, width_px, height_px FROM wwd_planes('corpus/wwd/libwap32__RETAIL01.WWD');
-- expect: 0|24|24|1536|1536
-- expect: 1|400|100|25600|6400
-- expect: 2|24|120|1536|7680
SELECT compressed, checksum_kind, num_objects, num_tile_properties FROM wwd_levels('corpus/wwd/libwap32__RETAIL01.WWD');
-- expect: 1|exact|1479|938
SELECT 'grown: old cells in place', count(*) = 384 * 96 FROM wwd_tiles('corpus/wwd/libwap32__RETAIL01.WWD') AS n
  JOIN wwd_tiles('corpus/wwd/orig__RETAIL01.WWD') AS o ON o.plane = n.plane AND o.x = n.x AND o.y = n.y AND o.tile IS n.tile AND o.kind = n.kind
  WHERE n.plane = 1;
SELECT 'grown: new cells invisible', count(*) = 400 * 100 - 384 * 96 FROM wwd_tiles('corpus/wwd/libwap32__RETAIL01.WWD')
  WHERE plane = 1 AND (x >= 384 OR y >= 96) AND kind = 'invisible';
SELECT 'the reference object is unchanged', logic || image_set || x || ',' || y = 'RatLEVEL_RAT5377,4374' FROM wwd_objects('corpus/wwd/libwap32__RETAIL01.WWD') WHERE id = 179;
SELECT 'other planes unchanged', count(*) = 24 * 24 + 24 * 120 FROM wwd_tiles('corpus/wwd/libwap32__RETAIL01.WWD') AS n
  JOIN wwd_tiles('corpus/wwd/orig__RETAIL01.WWD') AS o ON o.plane = n.plane AND o.x = n.x AND o.y = n.y AND o.tile IS n.tile
  WHERE n.plane <> 1;
SELECT compressed, checksum_kind FROM wwd_levels('corpus/wwd/libwap32__RETAIL01_nocompress.WWD');
-- expect: 0|exact
SELECT 'shrunk and grown: kept cells in place', count(*) = 300 * 90 FROM wwd_tiles('corpus/wwd/libwap32__RETAIL01_nocompress.WWD') AS n
  JOIN wwd_tiles('corpus/wwd/orig__RETAIL01_nocompress.WWD') AS o ON o.plane = n.plane AND o.x = n.x AND o.y = n.y AND o.tile IS n.tile AND o.kind = n.kind
  WHERE n.plane = 1;
-- Back to the original size: the level is the original again.
UPDATE wwd_planes SET tiles_wide = 384, tiles_high = 96 WHERE source = 'corpus/wwd/libwap32__RETAIL01.WWD' AND is_main;

.open :memory:
SELECT 'resized back: every cell as in the original', count(*) = 24 * 24 + 384 * 96 + 24 * 120 FROM wwd_tiles('corpus/wwd/libwap32__RETAIL01.WWD') AS n
  JOIN wwd_tiles('corpus/wwd/orig__RETAIL01.WWD') AS o ON o.plane = n.plane AND o.x = n.x AND o.y = n.y AND o.tile IS n.tile AND o.kind = n.kind;

-- ---- planes of RETAIL02: delete Front, add two, the main plane stays -------
DELETE FROM wwd_planes WHERE source = 'corpus/wwd/libwap32__RETAIL02.WWD' AND name = 'Action';
-- expect error: it is the main plane
DELETE FROM wwd_planes WHERE source = 'corpus/wwd/libwap32__RETAIL02.WWD' AND name = 'Front';
INSERT INTO wwd_planes(source, plane, name, z, image_sets, tiles_wide, tiles_high, movement_x_percent, movement_y_percent)
  SELECT 'corpus/wwd/libwap32__RETAIL02.WWD', 2, 'Front2', z, image_sets, tiles_wide, tiles_high, movement_x_percent, movement_y_percent
  FROM wwd_planes('corpus/wwd/orig__RETAIL02.WWD') WHERE name = 'Front';
INSERT INTO wwd_planes(source, name, z) VALUES ('corpus/wwd/libwap32__RETAIL02.WWD', 'Extra', 9500);

.open :memory:
SELECT plane, name, tiles_wide, tiles_high, z, is_main, image_sets = (SELECT image_sets FROM wwd_planes('corpus/wwd/orig__RETAIL02.WWD') WHERE plane = 2)
  FROM wwd_planes('corpus/wwd/libwap32__RETAIL02.WWD');
-- expect: 0|Background|24|50|-999|0|0
-- expect: 1|Action|384|96|0|1|0
-- expect: 2|Front2|24|120|9000|0|1
-- expect: 3|Extra|384|96|9500|0|0
SELECT compressed, checksum_kind, num_planes, num_objects FROM wwd_levels('corpus/wwd/libwap32__RETAIL02.WWD');
-- expect: 1|exact|4|1058
SELECT 'objects unchanged', count(*) = 1058 FROM wwd_objects('corpus/wwd/libwap32__RETAIL02.WWD') AS n
  JOIN wwd_objects('corpus/wwd/orig__RETAIL02.WWD') AS o ON o.idx = n.idx AND o.id = n.id AND o.x = n.x AND o.y = n.y AND o.logic = n.logic;
SELECT 'new plane cells invisible', count(*) = 384 * 96 FROM wwd_tiles('corpus/wwd/libwap32__RETAIL02.WWD') WHERE plane = 3 AND kind = 'invisible';

-- ---- tile properties of LePortdeCoolness (masks): insert, then delete again
INSERT INTO wwd_tile_properties(file, tile, type, attribute) VALUES ('corpus/wwd/libwap32__LePortdeCoolness.wwd', NULL, 'single', 1);
INSERT INTO wwd_tile_properties(file, tile, type, width, height) VALUES ('corpus/wwd/libwap32__LePortdeCoolness.wwd', 5, 'mask', 64, 64);

.open :memory:
SELECT num_tile_properties, checksum_kind FROM wwd_levels('corpus/wwd/libwap32__LePortdeCoolness.wwd');
-- expect: 930|exact
SELECT tile, type, length(mask) FROM wwd_tile_properties('corpus/wwd/libwap32__LePortdeCoolness.wwd') WHERE tile IN (5, 929);
-- expect: 5|mask|4096
-- expect: 929|single|
DELETE FROM wwd_tile_properties WHERE source = 'corpus/wwd/libwap32__LePortdeCoolness.wwd' AND tile IN (5, 929);

.open :memory:
SELECT 'properties as in the original again', count(*) = 928 FROM wwd_tile_properties('corpus/wwd/libwap32__LePortdeCoolness.wwd') AS n
  JOIN wwd_tile_properties('corpus/wwd/orig__LePortdeCoolness.wwd') AS o ON o.tile = n.tile AND o.type = n.type AND o.width = n.width
  AND o.height = n.height AND o.attribute IS n.attribute AND o.inside_attribute IS n.inside_attribute AND o.rect_left IS n.rect_left
  AND o.rect_bottom IS n.rect_bottom AND o.mask IS n.mask;

-- ---- a plane added to Bushy keeps the 8-bit plane names as bytes -----------
INSERT INTO wwd_planes(source, name) VALUES ('corpus/wwd/libwap32__Bushy.wwd', 'Nowa płaszczyzna') ;
-- expect error: column name
INSERT INTO wwd_planes(source, name, options) VALUES ('corpus/wwd/libwap32__Bushy.wwd', 'Nowa płaszczyzna', 'encoding=cp1250');

.open :memory:
SELECT group_concat(name, '|') FROM wwd_planes('corpus/wwd/libwap32__Bushy.wwd', 'encoding=cp1250');
-- expect: Tło|Tło 2|Akcja|Nowa płaszczyzna
SELECT 'unchanged planes keep their bytes', count(*) = 3 FROM wwd_planes('corpus/wwd/libwap32__Bushy.wwd') AS n
  JOIN wwd_planes('corpus/wwd/orig__Bushy.wwd') AS o ON o.plane = n.plane AND o.name = n.name;
