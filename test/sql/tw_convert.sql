-- Converting maps with tw_maps.style (tw_map_convert) on the maps `make
-- samples` writes (samples/ here; no corpus needed): the 0.7 sample goes to
-- 'ddnet' and back, the 0.6 sample to '0.7' and 'ddnet'; DDNet maps with
-- physics layers, sounds or settings are refused for '0.7' and left as they
-- were.  A new connection reads every converted map back: style, item
-- versions, and every tile, quad, envelope point and image pixel as
-- before (kept in keep.db).  Every row is 'label|1' when the check holds.

ATTACH 'keep.db' AS keep;
CREATE TABLE keep.tiles AS SELECT file, layer_index, x, y, id, flags FROM tw_tiles('samples');
CREATE TABLE keep.quads AS SELECT * FROM tw_quads('samples');
CREATE TABLE keep.envs AS SELECT file, env, kind, name, synchronized, num_points, points, channels FROM tw_envelopes('samples');
CREATE TABLE keep.images AS SELECT file, image, name, width, height, external, png FROM tw_images('samples');
CREATE TABLE keep.sha AS SELECT file, sha256 FROM tw_maps('samples');
SELECT 'the 0.7 sample embeds an RGB image', count(*) = 1 FROM tw_images('samples/v07_sample.map') WHERE format = 'rgb' AND external = 0;

-- ---- refusals: each names what 0.7 lacks and leaves the file alone -------
UPDATE tw_maps SET style = '0.7' WHERE source = 'samples/ddnet_features.map';
-- expect error: column style: map: Teeworlds 0.7 has no front layers (layer_index 3 is one); remove it first
UPDATE tw_maps SET style = '0.7' WHERE source = 'samples/dm_sample.map';
-- expect error: Teeworlds 0.7 cannot hold server settings
UPDATE tw_maps SET style = '0.6' WHERE source = 'samples/v07_sample.map';
-- expect error: converting to '0.6' is not supported (only to '0.7' and 'ddnet')
UPDATE tw_maps SET style = '0.8' WHERE source = 'samples/v07_sample.map';
-- expect error: style
SELECT 'refusals write nothing', count(*) = 6 FROM tw_maps('samples') JOIN keep.sha USING (file, sha256);
-- clearing the settings in the same UPDATE lets the conversion through
UPDATE tw_maps SET settings = '[]', style = '0.7' WHERE source = 'samples/dm_sample.map';
-- expect ok
SELECT 'inside the statement''s connection the style is new', style = '0.7' FROM tw_maps('samples/dm_sample.map');

-- ---- conversions ---------------------------------------------------------
UPDATE tw_maps SET style = 'ddnet' WHERE source = 'samples/v07_sample.map';
UPDATE tw_maps SET style = '0.7' WHERE source = 'samples/unfinished.map';

.open :memory:
ATTACH 'keep.db' AS keep;
SELECT 'all maps still load', count(*) = 6 AND sum(ok) = 6 FROM levelsql_files('samples/*.map');
SELECT 'styles read back', group_concat(file || '=' || style, ' ') = 'samples/ddnet_features.map=ddnet '
  || 'samples/ddrace_sample.map=ddnet samples/dm_sample.map=0.7 samples/legacy.map=ddnet '
  || 'samples/unfinished.map=0.7 samples/v07_sample.map=ddnet' FROM tw_maps('samples');
SELECT 'DDNet layout: tilemaps version 3, images version 1, envelopes version 2',
  (SELECT group_concat(DISTINCT version) FROM tw_layers('samples/v07_sample.map') WHERE width IS NOT NULL) = '3'
  AND (SELECT group_concat(DISTINCT version) FROM tw_images('samples/v07_sample.map')) = '1'
  AND (SELECT group_concat(DISTINCT version) FROM tw_envelopes('samples/v07_sample.map')) = '2';
SELECT '0.7 layout: tilemaps version 4, images version 2 of format RGBA',
  (SELECT group_concat(DISTINCT version) FROM tw_layers('samples/dm_sample.map') WHERE width IS NOT NULL) = '4'
  AND (SELECT group_concat(DISTINCT version || format) FROM tw_images('samples/dm_sample.map')) = '2rgba';
SELECT 'every tile as before', count(*) = (SELECT count(*) FROM keep.tiles) AND sum(t.id = k.id AND t.flags IS k.flags) = count(*)
  FROM keep.tiles AS k JOIN tw_tiles(k.file) AS t USING (layer_index, x, y);
SELECT 'the special cells are there (not a test of zeros)', count(*) > 100 FROM keep.tiles WHERE id > 0
  AND file IN ('samples/v07_sample.map', 'samples/dm_sample.map', 'samples/unfinished.map');
SELECT 'every quad as before', count(*) = 0 FROM (SELECT * FROM keep.quads EXCEPT SELECT * FROM tw_quads('samples'));
SELECT 'every envelope and point as before (beziers included)', count(*) = 0 FROM (SELECT * FROM keep.envs
  EXCEPT SELECT file, env, kind, name, synchronized, num_points, points, channels FROM tw_envelopes('samples'));
SELECT 'the 0.7 beziers are there', count(*) > 0 FROM keep.envs WHERE file = 'samples/v07_sample.map' AND points LIKE '%in_dx%';
SELECT 'every image reads the same pixels (RGB now RGBA)', count(*) = 0 FROM (SELECT * FROM keep.images
  EXCEPT SELECT file, image, name, width, height, external, png FROM tw_images('samples'));
SELECT 'the RGB image is RGBA now', version = 1 AND format = 'rgba' AND data_size = width * height * 4
  FROM tw_images('samples/v07_sample.map') WHERE external = 0;

-- ---- and back: the DDNet-style 0.7 sample to '0.7' again -----------------
UPDATE tw_maps SET style = '0.7' WHERE source = 'samples/v07_sample.map';
.open :memory:
ATTACH 'keep.db' AS keep;
SELECT 'back to 0.7: version-3 envelopes with their beziers', style = '0.7'
  AND (SELECT group_concat(DISTINCT version) FROM tw_envelopes('samples/v07_sample.map')) = '3'
  AND (SELECT count(*) FROM (SELECT * FROM keep.envs WHERE file = 'samples/v07_sample.map'
       EXCEPT SELECT file, env, kind, name, synchronized, num_points, points, channels FROM tw_envelopes('samples/v07_sample.map'))) = 0
  FROM tw_maps('samples/v07_sample.map');
SELECT 'back to 0.7: tiles as before', count(*) = sum(t.id = k.id AND t.flags = k.flags) AND count(*) > 0
  FROM keep.tiles AS k JOIN tw_tiles('samples/v07_sample.map') AS t USING (layer_index, x, y) WHERE k.file = 'samples/v07_sample.map';
