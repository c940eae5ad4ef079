-- requires: corpus
-- Converting every real map (a private copy in corpus/tw) with
-- tw_maps.style: every map that is not already 0.7 is asked for '0.7'
-- (the DDNet ones are refused, naming a physics or sound layer, settings
-- or UUID items, and stay as they were; the 0.6 ones convert), then the
-- 0.7 maps to 'ddnet'.  A new connection reads every map back: style, and
-- every tile, quad, envelope and image as before.  (test_twconvert checks
-- the bytes: map_resave identity and the 0.7 round trip.)
-- Every row is 'label|1' when the check holds.

ATTACH 'keep_convert.db' AS keep;
CREATE TABLE keep.tiles AS SELECT file, layer_index, count(*) AS cells, sum(id) AS ids, sum(coalesce(flags, 0)) AS flags,
  sum(id * (x + 7 * y) % 1009) AS spread FROM tw_tiles('corpus/tw') GROUP BY file, layer_index;
CREATE TABLE keep.quads AS SELECT * FROM tw_quads('corpus/tw');
CREATE TABLE keep.envs AS SELECT file, env, kind, name, synchronized, num_points, points, channels FROM tw_envelopes('corpus/tw');
CREATE TABLE keep.images AS SELECT file, image, name, width, height, external, data_size FROM tw_images('corpus/tw');
CREATE TABLE keep.maps AS SELECT file, style, sha256 FROM tw_maps('corpus/tw');
SELECT 'the corpus has 0.6, 0.7 and DDNet maps', group_concat(style || '=' || n, ' ') = '0.6=4 0.7=5 ddnet=10'
  FROM (SELECT style, count(*) AS n FROM keep.maps GROUP BY style ORDER BY style);

-- one statement per map: a refusal fails its own statement only
UPDATE tw_maps SET style = '0.7' WHERE source = 'corpus/tw/ddnet_Gold_Mine.map';
-- expect error: Teeworlds 0.7 has no front layers (layer_index 4 is one)
UPDATE tw_maps SET style = '0.7' WHERE source = 'corpus/tw/ddnet_Sunny_Side_Up.map';
-- expect error: Teeworlds 0.7 has no sounds layers (layer_index 0 is one)
UPDATE tw_maps SET style = '0.7' WHERE source = 'corpus/tw/ddnet_theme_newyear.map';
-- expect error: Teeworlds 0.7 cannot hold server settings
UPDATE tw_maps SET style = '0.7' WHERE source = 'corpus/tw/ddnethist_winter_day_groupex.map';
-- expect error: Teeworlds 0.7 cannot hold DDNet UUID items
UPDATE tw_maps SET style = '0.7' WHERE source = 'corpus/tw' AND style = '0.6';
UPDATE tw_maps SET style = 'ddnet' WHERE source = 'corpus/tw' AND file IN (SELECT file FROM keep.maps WHERE style = '0.7');

.open :memory:
ATTACH 'keep_convert.db' AS keep;
SELECT 'every map loads', count(*) = 19 AND sum(ok) = 19 FROM levelsql_files('corpus/tw');
SELECT 'refused DDNet maps are untouched', count(*) = 10 FROM keep.maps AS k JOIN tw_maps('corpus/tw') AS m USING (file, sha256)
  WHERE k.style = 'ddnet';
SELECT '0.6 maps are 0.7 now, 0.7 maps DDNet', count(*) = 9 FROM keep.maps AS k JOIN tw_maps('corpus/tw') AS m USING (file)
  WHERE (k.style = '0.6' AND m.style = '0.7') OR (k.style = '0.7' AND m.style = 'ddnet');
SELECT 'tilemap versions: 4 in 0.7 maps, 3 in DDNet ones', count(*) > 0 AND sum(l.version = CASE m.style WHEN '0.7' THEN 4 ELSE 3 END) = count(*)
  FROM tw_maps('corpus/tw') AS m JOIN keep.maps AS k USING (file) JOIN tw_layers(m.file) AS l
  WHERE k.style <> 'ddnet' AND l.width IS NOT NULL;
SELECT 'every tile as before', count(*) = (SELECT count(*) FROM keep.tiles) FROM keep.tiles AS k JOIN
  (SELECT file, layer_index, count(*) AS cells, sum(id) AS ids, sum(coalesce(flags, 0)) AS flags,
   sum(id * (x + 7 * y) % 1009) AS spread FROM tw_tiles('corpus/tw') GROUP BY file, layer_index) USING (file, layer_index, cells, ids, flags, spread);
SELECT 'every quad as before', count(*) = 0 FROM (SELECT * FROM keep.quads EXCEPT SELECT * FROM tw_quads('corpus/tw'));
SELECT 'every envelope as before', count(*) = 0 FROM (SELECT * FROM keep.envs
  EXCEPT SELECT file, env, kind, name, synchronized, num_points, points, channels FROM tw_envelopes('corpus/tw'));
SELECT 'every image as before', count(*) = 0 FROM (SELECT * FROM keep.images
  EXCEPT SELECT file, image, name, width, height, external, data_size FROM tw_images('corpus/tw'));
