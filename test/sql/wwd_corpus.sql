-- requires: corpus
-- The real WWD corpus (a private copy in corpus/wwd): every file parses but
-- the bad-signature one, the reference values of RETAIL01.
SELECT 'all corpus levels load but one', count(*) = 14 FROM levelsql_files('corpus/wwd') WHERE ok;
SELECT 'the bad signature is named', error LIKE '%bad signature 0x0000ADBA%' AND error LIKE '%byte offset 0%'
  FROM levelsql_files('corpus/wwd/libwap32__RETAIL01_badsig.WWD');
SELECT 'RETAIL01 checksum', checksum = 3967964812 FROM wwd_levels('corpus/wwd/libwap32__RETAIL01.WWD');
SELECT 'RETAIL01 planes', group_concat(name || ' ' || z || ' ' || wrap_x || wrap_y || is_main, ', ') = 'Background -999 110, Action 0 001, Front 9000 100'
  FROM wwd_planes('corpus/wwd/libwap32__RETAIL01.WWD');
SELECT 'RETAIL01 rat', logic = 'Rat' AND image_set = 'LEVEL_RAT' AND x = 5377 AND y = 4374 AND min_x = 5357 AND max_x = 5488
  FROM wwd_objects('corpus/wwd/libwap32__RETAIL01.WWD') WHERE id = 179;
SELECT 'RETAIL01 peg', logic = 'TogglePeg2' AND image_set = 'LEVEL_PEG' AND x = 963 AND y = 2507
  FROM wwd_objects('corpus/wwd/libwap32__RETAIL01.WWD') WHERE id = 1303;
SELECT 'RETAIL01 tile property 13', type = 'single' AND width = 64 AND height = 64
  FROM wwd_tile_properties('corpus/wwd/libwap32__RETAIL01.WWD') WHERE tile = 13;
SELECT 'compressed and uncompressed RETAIL01 agree',
  (SELECT count(*) || total(x) || total(health) FROM wwd_objects('corpus/wwd/libwap32__RETAIL01.WWD')) =
  (SELECT count(*) || total(x) || total(health) FROM wwd_objects('corpus/wwd/libwap32__RETAIL01_nocompress.WWD'));
SELECT 'Bushy plane name in cp1250', name = 'Tło' FROM wwd_planes('corpus/wwd/libwap32__Bushy.wwd', 'encoding=cp1250') WHERE plane = 0;
SELECT 'Bushy plane name in cp1252', name = 'T³o' FROM wwd_planes('corpus/wwd/libwap32__Bushy.wwd') WHERE plane = 0;
SELECT 'mask tiles of LePortdeCoolness', count(*) > 0 AND min(length(mask)) = 4096 FROM wwd_tile_properties('corpus/wwd/libwap32__LePortdeCoolness.wwd') WHERE type = 'mask';
SELECT 'games', count(DISTINCT game) >= 2 FROM wwd_levels('corpus/wwd/*[!g].*');
SELECT 'checksum classes seen', count(DISTINCT checksum_kind) >= 2 FROM wwd_levels('corpus/wwd/*[!g].*');
SELECT 'ids are not unique in BombzAway', count(*) - count(DISTINCT id) = 35 FROM wwd_objects('corpus/wwd/wap32rs__BombzAway.wwd');

-- The bad-signature level fails in every table with the offset.
SELECT * FROM wwd_levels('corpus/wwd/libwap32__RETAIL01_badsig.WWD');
-- expect error: signature
-- expect error: byte offset 0
-- A no-op rewrite (test_engine.c checks its bytes) keeps RETAIL01's
-- reference values.
UPDATE wwd_levels SET name = name WHERE source = 'corpus/wwd/libwap32__RETAIL01.WWD';
SELECT group_concat(name || ':' || z || ':' || wrap_x || wrap_y || is_main, ',') FROM wwd_planes('corpus/wwd/libwap32__RETAIL01.WWD');
-- expect: Background:-999:110,Action:0:001,Front:9000:100
SELECT logic || image_set || x || ',' || y || ',' || min_x || ',' || max_x FROM wwd_objects('corpus/wwd/libwap32__RETAIL01.WWD') WHERE id = 179;
-- expect: RatLEVEL_RAT5377,4374,5357,5488
SELECT logic || image_set || x || ',' || y FROM wwd_objects('corpus/wwd/libwap32__RETAIL01.WWD') WHERE id = 1303;
-- expect: TogglePeg2LEVEL_PEG963,2507
SELECT type || width || 'x' || height FROM wwd_tile_properties('corpus/wwd/libwap32__RETAIL01.WWD') WHERE tile = 13;
-- expect: single64x64
