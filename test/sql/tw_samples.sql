-- Every Teeworlds/DDNet table and column, read and written, on the maps
-- `make samples` writes (samples/ here; no corpus needed):
-- ddnet_features.map (every layer kind, sounds, clipping, every info
-- field), v07_sample.map (0.7: skip-compressed tiles, bezier points, an
-- RGB image), legacy.map (old item versions, a layer in no group, an
-- unknown layer type), and the three cookbook maps.  The refusals of bad
-- values are checked by tw_errors.sql.
-- Every row is 'label|1' when the check holds.

-- ---- tw_maps ---------------------------------------------------------------

SELECT 'maps: one row per map, every one readable', count(*) = 6 FROM tw_maps('samples');
SELECT 'maps: styles', group_concat(file || '=' || style, ' ') =
  'samples/ddnet_features.map=ddnet samples/ddrace_sample.map=ddnet samples/dm_sample.map=ddnet samples/legacy.map=ddnet samples/unfinished.map=0.6 samples/v07_sample.map=0.7'
  FROM tw_maps('samples');
SELECT 'maps: every info field', datafile_version = 4 AND author = 'levelsql sample' AND map_version = '3'
  AND credits = 'gen_tw_samples' AND license = 'CC0' AND settings = '["sv_team 1","tune gravity 0.4"]'
  FROM tw_maps('samples/ddnet_features.map');
SELECT 'maps: counts', num_groups = 3 AND num_layers = 12 AND num_images = 2 AND num_envelopes = 3 AND num_sounds = 2
  FROM tw_maps('samples/ddnet_features.map');
SELECT 'maps: no info item reads NULL, settings []', author IS NULL AND map_version IS NULL AND credits IS NULL
  AND license IS NULL AND settings = '[]' FROM tw_maps('samples/legacy.map');
SELECT 'maps: a 0.6 map has no settings', settings = '[]' AND credits IS NULL FROM tw_maps('samples/unfinished.map');
SELECT 'maps: identity', sum(m.file_size = f.size AND typeof(m.crc32) = 'integer' AND m.crc32 BETWEEN 0 AND 4294967295
  AND length(m.sha256) = 64 AND m.sha256 NOT GLOB '*[^0-9a-f]*') = 6 AND count(DISTINCT m.sha256) = 6
  FROM tw_maps('samples') AS m JOIN levelsql_files('samples') AS f USING (file);
SELECT 'maps: settings are JSON', json_type(settings) = 'array' AND json_array_length(settings) = 2
  FROM tw_maps('samples/ddnet_features.map');

-- Writes: every text field, in UTF-8 of 2, 3 and 4 bytes a character.
CREATE TEMP TABLE map_before AS SELECT sha256, crc32, file_size FROM tw_maps('samples/ddnet_features.map');
UPDATE tw_maps SET author = 'Zoë ✓ 𝄞', map_version = '3.1', credits = 'thanks to everyone', license = 'CC-BY 4.0'
  WHERE source = 'samples/ddnet_features.map';
SELECT 'maps: text fields written', author = 'Zoë ✓ 𝄞' AND map_version = '3.1' AND credits = 'thanks to everyone'
  AND license = 'CC-BY 4.0' FROM tw_maps('samples/ddnet_features.map');
SELECT 'maps: the identity follows the file', m.sha256 <> b.sha256 AND m.file_size = f.size
  FROM tw_maps('samples/ddnet_features.map') AS m, map_before AS b, levelsql_files('samples/ddnet_features.map') AS f;
UPDATE tw_maps SET author = printf('%.31c', 'a'), map_version = printf('%.15c', 'v'), credits = printf('%.127c', 'c'),
  license = printf('%.31c', 'l') WHERE source = 'samples/ddnet_features.map';
SELECT 'maps: text at its longest', length(author) = 31 AND length(map_version) = 15 AND length(credits) = 127
  AND length(license) = 31 FROM tw_maps('samples/ddnet_features.map');
UPDATE tw_maps SET credits = NULL, license = '' WHERE source = 'samples/ddnet_features.map';
SELECT 'maps: NULL and empty text remove a field', credits IS NULL AND license IS NULL AND author IS NOT NULL
  FROM tw_maps('samples/ddnet_features.map');
UPDATE tw_maps SET settings = json_array('sv_hit 1', 'quote " and back\slash', 'tab' || char(9) || 'x', 'née')
  WHERE source = 'samples/ddnet_features.map';
SELECT 'maps: settings with escapes', json_array_length(settings) = 4 AND settings ->> '$[1]' = 'quote " and back\slash'
  AND settings ->> '$[2]' = 'tab' || char(9) || 'x' AND settings ->> '$[3]' = 'née'
  FROM tw_maps('samples/ddnet_features.map');
SELECT 'maps: one setting per row', count(*) = 4 FROM tw_maps('samples/ddnet_features.map') AS m, json_each(m.settings);
UPDATE tw_maps SET settings = '[]' WHERE source = 'samples/ddnet_features.map';
SELECT 'maps: [] removes the settings', settings = '[]' FROM tw_maps('samples/ddnet_features.map');
UPDATE tw_maps SET settings = '["sv_team 1"]' WHERE source = 'samples/unfinished.map';
SELECT 'maps: settings added to a 0.6 info item', settings = '["sv_team 1"]' FROM tw_maps('samples/unfinished.map');
-- a map without an info item gets one
UPDATE tw_maps SET author = 'an old hand', settings = '["sv_old 1"]' WHERE source = 'samples/legacy.map';
SELECT 'maps: an info item is added', author = 'an old hand' AND settings = '["sv_old 1"]' AND map_version IS NULL
  FROM tw_maps('samples/legacy.map');
-- setting NULL where there is nothing changes nothing
CREATE TEMP TABLE dm_before AS SELECT sha256 FROM tw_maps('samples/dm_sample.map');
UPDATE tw_maps SET credits = NULL WHERE source = 'samples/dm_sample.map';
SELECT 'maps: NULL on an absent field is no change', credits IS NULL AND author = 'levelsql sample'
  AND sha256 = (SELECT sha256 FROM dm_before) FROM tw_maps('samples/dm_sample.map');
SELECT 'maps: rowid', (SELECT count(*) FROM tw_maps('samples') WHERE rowid = (SELECT rowid FROM tw_maps('samples/v07_sample.map'))) = 1;

-- ---- tw_groups -------------------------------------------------------------

SELECT 'groups: every column', group_concat(grp || ':' || name || ':' || offset_x || ',' || offset_y || ':' || parallax_x || ','
  || parallax_y || ':' || clipping || ':' || clip_x || ',' || clip_y || ',' || clip_w || ',' || clip_h || ':' || start_layer
  || '+' || num_layers || ':v' || version, ' ') =
  '0:Parallax:32,-16:50,25:0:0,0,0,0:0+2:v3 1:Game:0,0:100,100:0:0,0,0,0:2+7:v3 2:Clipped:0,0:100,100:1:0,0,1280,640:9+3:v3'
  FROM tw_groups('samples/ddnet_features.map');
SELECT 'groups: old versions', group_concat(grp || ':' || quote(name) || ':' || parallax_x || ':' || clipping || ':' || clip_x
  || ',' || clip_y || ',' || clip_w || ',' || clip_h || ':v' || version, ' ') =
  '0:'''':100:0:0,0,0,0:v1 1:'''':50:1:-100,-100,2000,1000:v2'
  FROM tw_groups('samples/legacy.map');
SELECT 'groups: grp push-down', count(*) = 1 AND min(name) = 'Game' FROM tw_groups('samples/ddnet_features.map') WHERE grp = 1;
SELECT 'groups: rowid', (SELECT name FROM tw_groups('samples/ddnet_features.map')
  WHERE rowid = (SELECT rowid FROM tw_groups('samples/ddnet_features.map') WHERE grp = 2)) = 'Clipped';
UPDATE tw_groups SET name = 'Far hills', offset_x = -64, offset_y = 48, parallax_x = 30, parallax_y = 10, clipping = 1,
  clip_x = -320, clip_y = -240, clip_w = 640, clip_h = 480 WHERE source = 'samples/ddnet_features.map' AND grp = 0;
SELECT 'groups: every field written', name = 'Far hills' AND offset_x = -64 AND offset_y = 48 AND parallax_x = 30
  AND parallax_y = 10 AND clipping = 1 AND clip_x = -320 AND clip_y = -240 AND clip_w = 640 AND clip_h = 480
  AND version = 3 AND start_layer = 0 AND num_layers = 2
  FROM tw_groups('samples/ddnet_features.map') WHERE grp = 0;
UPDATE tw_groups SET clipping = 0, name = '' WHERE source = 'samples/ddnet_features.map' AND grp = 2;
SELECT 'groups: clipping off, name emptied', clipping = 0 AND name = '' FROM tw_groups('samples/ddnet_features.map') WHERE grp = 2;
UPDATE tw_groups SET name = 'ÄÖÜäöx' WHERE source = 'samples/ddnet_features.map' AND grp = 1;
SELECT 'groups: an 11-byte UTF-8 name', name = 'ÄÖÜäöx' AND length(CAST(name AS BLOB)) = 11 FROM tw_groups('samples/ddnet_features.map') WHERE grp = 1;
-- old group items grow: clipping raises version 1 to 2, a name to 3
UPDATE tw_groups SET clip_w = 500 WHERE source = 'samples/legacy.map' AND grp = 0;
SELECT 'groups: clipping on a version-1 group raises it to 2', version = 2 AND clip_w = 500 AND name = ''
  FROM tw_groups('samples/legacy.map') WHERE grp = 0;
UPDATE tw_groups SET name = 'Glass' WHERE source = 'samples/legacy.map' AND grp = 1;
SELECT 'groups: a name raises version 2 to 3', version = 3 AND name = 'Glass' AND clipping = 1 AND clip_w = 2000
  FROM tw_groups('samples/legacy.map') WHERE grp = 1;
UPDATE tw_groups SET offset_x = offset_x, name = name WHERE source = 'samples/dm_sample.map';
SELECT 'groups: a same-value write keeps every byte', (SELECT sha256 FROM tw_maps('samples/dm_sample.map')) = (SELECT sha256 FROM dm_before);

-- ---- tw_layers -------------------------------------------------------------

SELECT 'layers: every kind', group_concat(kind, ',') =
  'quads,tiles,game,front,tele,speedup,switch,tune,tiles,sounds,sounds_deprecated,quads'
  FROM tw_layers('samples/ddnet_features.map');
SELECT 'layers: position columns', group_concat(grp || '.' || layer || '=' || layer_index, ' ') =
  '0.0=0 0.1=1 1.0=2 1.1=3 1.2=4 1.3=5 1.4=6 1.5=7 1.6=8 2.0=9 2.1=10 2.2=11' FROM tw_layers('samples/ddnet_features.map');
SELECT 'layers: tilemap columns', name = 'Hills' AND detail = 1 AND width = 40 AND height = 20 AND color_r = 200 AND color_g = 220
  AND color_b = 255 AND color_a = 128 AND color_env = 1 AND color_env_offset = 100 AND image = 0 AND image_name = 'grass_main'
  AND num_quads IS NULL AND num_sources IS NULL AND sound IS NULL AND version = 3
  FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
SELECT 'layers: quads columns', name = 'Checker' AND detail = 0 AND width IS NULL AND height IS NULL AND color_r IS NULL
  AND color_env IS NULL AND color_env_offset IS NULL AND image = 1 AND image_name = 'checker' AND num_quads = 2
  AND num_sources IS NULL AND sound IS NULL AND version = 2
  FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 0;
SELECT 'layers: sounds columns', group_concat(name || ':' || num_sources || ':' || sound || ':' || version || ':'
  || quote(image) || quote(width) || quote(num_quads), ' ') = 'Ambience:2:0:2:NULLNULLNULL Old sounds:1:1:1:NULLNULLNULL'
  FROM tw_layers('samples/ddnet_features.map') WHERE kind LIKE 'sounds%';
SELECT 'layers: an empty quads layer', num_quads = 0 AND image IS NULL AND image_name IS NULL
  FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 11;
SELECT 'layers: physics layers have no image', count(*) = 6 AND max(image) IS NULL AND min(color_env) IS NULL
  FROM tw_layers('samples/ddnet_features.map') WHERE grp = 1 AND layer < 6;
SELECT 'layers: old versions', group_concat(layer_index || ':' || kind || ':' || quote(name) || ':' || quote(version), ' ') =
  '0:game:'''':2 1:tele:'''':2 2:tiles:'''':2 3:quads:'''':1 4:tiles:''Orphan'':3 5:unknown:NULL:NULL'
  FROM tw_layers('samples/legacy.map');
SELECT 'layers: in no group', group_concat(layer_index) = '4,5' FROM tw_layers('samples/legacy.map') WHERE grp IS NULL AND layer IS NULL;
SELECT 'layers: an unknown layer shows only its place and kind', kind = 'unknown' AND detail IS NULL AND width IS NULL
  AND image IS NULL AND num_quads IS NULL AND num_sources IS NULL FROM tw_layers('samples/legacy.map') WHERE layer_index = 5;
SELECT 'layers: a bound on grp leaves out layers in no group', (SELECT count(*) FROM tw_layers('samples/legacy.map') WHERE grp >= 0) = 4
  AND (SELECT count(*) FROM tw_layers('samples/legacy.map') WHERE layer <= 5) = 4
  AND (SELECT count(*) FROM tw_layers('samples/legacy.map') WHERE layer_index >= 3) = 3;
SELECT 'layers: grp and layer push-down', group_concat(name) = 'Tele' FROM tw_layers('samples/ddnet_features.map') WHERE grp = 1 AND layer = 2;
SELECT 'layers: 0.7 tilemaps are version 4', group_concat(version) = '4,4' FROM tw_layers('samples/v07_sample.map') WHERE width > 0;
SELECT 'layers: rowid', (SELECT name FROM tw_layers('samples/ddnet_features.map')
  WHERE rowid = (SELECT rowid FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 7)) = 'Tune';
UPDATE tw_layers SET name = 'Blue hills', detail = 0, color_r = 10, color_g = 20, color_b = 30, color_a = 40, color_env = 1,
  color_env_offset = -250, image = NULL WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
SELECT 'layers: every tilemap field written', name = 'Blue hills' AND detail = 0 AND color_r = 10 AND color_g = 20
  AND color_b = 30 AND color_a = 40 AND color_env = 1 AND color_env_offset = -250 AND image IS NULL AND image_name IS NULL
  FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
UPDATE tw_layers SET color_env = NULL, image = 1, detail = 1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
SELECT 'layers: envelope removed, image set', color_env IS NULL AND image = 1 AND image_name = 'checker' AND detail = 1
  FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
UPDATE tw_layers SET image = NULL, name = 'No image', detail = 1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 0;
SELECT 'layers: quads layer written', image IS NULL AND name = 'No image' AND detail = 1
  FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 0;
UPDATE tw_layers SET name = 'Ambient' WHERE source = 'samples/ddnet_features.map' AND layer_index = 9;
SELECT 'layers: sounds layer renamed', name = 'Ambient' FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 9;
-- NULL on a field the kind lacks is what it reads, so it is no change
UPDATE tw_layers SET color_r = NULL, color_env = NULL, image = NULL WHERE source = 'samples/ddnet_features.map' AND kind LIKE 'sounds%';
SELECT 'layers: NULL on a field the kind lacks', count(*) = 2 AND max(color_r) IS NULL FROM tw_layers('samples/ddnet_features.map') WHERE kind LIKE 'sounds%';
-- old items grow to hold a name
UPDATE tw_layers SET name = 'Ground' WHERE source = 'samples/legacy.map' AND layer_index = 2;
UPDATE tw_layers SET name = 'Glass' WHERE source = 'samples/legacy.map' AND layer_index = 3;
SELECT 'layers: names on a 0.5 tilemap and a version-1 quads layer raise their versions',
  group_concat(layer_index || ':' || name || ':' || version, ' ') = '2:Ground:3 3:Glass:2'
  FROM tw_layers('samples/legacy.map') WHERE layer_index IN (2, 3);
SELECT 'layers: their cells are kept', (SELECT count(*) FROM tw_tiles('samples/legacy.map') WHERE layer_index = 2 AND id = 1) > 0
  AND (SELECT count(*) FROM tw_quads('samples/legacy.map')) = 1;
UPDATE tw_layers SET color_a = 100 WHERE source = 'samples/legacy.map' AND layer_index = 0;
SELECT 'layers: a DDRace 2010 tilemap keeps its indices', color_a = 100 AND kind = 'game'
  AND (SELECT kind FROM tw_layers('samples/legacy.map') WHERE layer_index = 1) = 'tele'
  AND (SELECT count(*) FROM tw_tiles('samples/legacy.map') WHERE layer_index = 1 AND id = 27) = 1
  FROM tw_layers('samples/legacy.map') WHERE layer_index = 0;

-- ---- tw_tiles --------------------------------------------------------------

SELECT 'tiles: rows per layer = width x height', count(*) = 8 * 40 * 20 FROM tw_tiles('samples/ddnet_features.map');
SELECT 'tiles: speedup cells', group_concat(x || ':' || id || ':' || force || ':' || max_speed || ':' || angle, ' ') =
  '12:28:30:0:0 13:28:50:20:90 14:28:20:0:-45 15:28:80:5:180'
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'speedup' AND id <> 0;
SELECT 'tiles: speedup has no flags, number or delay', max(flags) IS NULL AND max(number) IS NULL AND max(delay) IS NULL
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'speedup';
SELECT 'tiles: switch cells', group_concat(x || ':' || id || ':' || number || ':' || flags || ':' || delay, ' ') =
  '22:24:1:0:0 23:22:2:8:5' FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'switch' AND id <> 0;
SELECT 'tiles: switch has no force', max(force) IS NULL AND max(angle) IS NULL AND max(max_speed) IS NULL
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'switch';
SELECT 'tiles: tune zones', group_concat(DISTINCT number) = '1,2' AND count(*) = 13 AND max(flags) IS NULL
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tune' AND id = 68;
SELECT 'tiles: teleporters', group_concat(id || '/' || number, ' ') = '27/3 27/1 26/1 10/3' AND max(flags) IS NULL
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tele' AND id <> 0;
SELECT 'tiles: front cells', count(*) = 3 AND min(id) = 9 AND max(number) IS NULL
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'front' AND id <> 0;
SELECT 'tiles: flipped and rotated tiles', group_concat(DISTINCT flags) = '1,2,8'
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tiles' AND layer_index = 8 AND y = 0;
SELECT 'tiles: game fields', max(number) IS NULL AND max(force) IS NULL AND max(delay) IS NULL AND min(flags) = 0
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'game';
SELECT 'tiles: 0.7 skip-compressed layers', count(*) = 2 * 40 * 20 AND sum(id = 193) = 1 AND sum(id = 194) = 1 AND sum(id = 192) = 1
  FROM tw_tiles('samples/v07_sample.map');
SELECT 'tiles: a layer in no group', count(*) = 30 * 15 AND max(grp) IS NULL AND max(layer) IS NULL AND sum(id = 5) = 10
  FROM tw_tiles('samples/legacy.map') WHERE layer_index = 4;
SELECT 'tiles: a bound on grp leaves out layers in no group', count(DISTINCT layer_index) = 3 FROM tw_tiles('samples/legacy.map') WHERE grp >= 0;
SELECT 'tiles: DDRace 2010 tele cells', group_concat(id || '/' || number) = '27/1,26/1'
  FROM tw_tiles('samples/legacy.map') WHERE kind = 'tele' AND id <> 0;
SELECT 'tiles: window push-down', count(*) = 6 AND min(x) = 12 AND max(x) = 14 AND min(y) = 17
  FROM tw_tiles('samples/ddnet_features.map') WHERE layer_index = 5 AND x BETWEEN 12 AND 14 AND y >= 17 AND y < 19;
UPDATE tw_tiles SET force = 99, max_speed = 12, angle = -32768 WHERE source = 'samples/ddnet_features.map' AND kind = 'speedup' AND x = 12 AND y = 18;
UPDATE tw_tiles SET angle = 32767, id = 29 WHERE source = 'samples/ddnet_features.map' AND kind = 'speedup' AND x = 13 AND y = 18;
SELECT 'tiles: speedup written', group_concat(id || ':' || force || ':' || max_speed || ':' || angle, ' ') = '28:99:12:-32768 29:50:20:32767'
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'speedup' AND x IN (12, 13) AND y = 18;
UPDATE tw_tiles SET number = 7, delay = 255, flags = 2 WHERE source = 'samples/ddnet_features.map' AND kind = 'switch' AND x = 22 AND y = 18;
SELECT 'tiles: switch written', number = 7 AND delay = 255 AND flags = 2 AND id = 24
  FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'switch' AND x = 22 AND y = 18;
UPDATE tw_tiles SET number = 3 WHERE source = 'samples/ddnet_features.map' AND kind = 'tune' AND number = 2;
UPDATE tw_tiles SET number = 4, id = 26 WHERE source = 'samples/ddnet_features.map' AND kind = 'tele' AND id = 10;
UPDATE tw_tiles SET id = 1, flags = 15 WHERE source = 'samples/ddnet_features.map' AND kind = 'front' AND id = 9 AND x = 16;
SELECT 'tiles: tune, tele and front written', (SELECT count(*) FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tune' AND number = 3) = 1
  AND (SELECT group_concat(id || '/' || number) FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tele' AND x = 20) LIKE '%26/4%'
  AND (SELECT id || '/' || flags FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'front' AND x = 16 AND y = 10) = '1/15';
-- NULL on a field the kind lacks is what it reads, so it is no change
UPDATE tw_tiles SET flags = NULL, delay = NULL, force = NULL WHERE source = 'samples/ddnet_features.map' AND kind = 'tele' AND id <> 0;
SELECT 'tiles: NULL on a field the kind lacks', count(*) = 4 FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tele' AND id <> 0;
-- a 0.7 layer is skip-compressed again when written
UPDATE tw_tiles SET id = 2, flags = 4 WHERE source = 'samples/v07_sample.map' AND kind = 'game' AND y = 5 AND x BETWEEN 5 AND 34;
SELECT 'tiles: a 0.7 layer written back', count(*) = 30 AND min(id) = 2 AND max(flags) = 4
  FROM tw_tiles('samples/v07_sample.map') WHERE kind = 'game' AND y = 5 AND x BETWEEN 5 AND 34;
SELECT 'tiles: the rest of it kept', count(*) = 800 AND sum(id = 1) = 2 * 40 + 2 * 18 + 24 AND sum(id = 193) = 1
  FROM tw_tiles('samples/v07_sample.map') WHERE kind = 'game';
SELECT 'tiles: rowid', (SELECT x || ',' || y || ':' || id FROM tw_tiles('samples/ddnet_features.map')
  WHERE rowid = (SELECT rowid FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'switch' AND x = 23 AND y = 18)) = '23,18:22';

-- ---- tw_quads --------------------------------------------------------------

SELECT 'quads: every column', points = '[[0,0],[65536,0],[0,65536],[65536,65536],[32768,32768]]'
  AND colors = '[[255,255,255,255],[255,255,255,255],[255,255,255,255],[255,255,255,255]]'
  AND tex_coords = '[[0,0],[1024,0],[0,1024],[1024,1024]]' AND pos_env = 0 AND pos_env_offset = 500 AND color_env = 1
  AND color_env_offset = 250 AND grp = 0 AND layer = 0 AND quad = 0 AND layer_index = 0
  FROM tw_quads('samples/ddnet_features.map') WHERE quad = 0;
SELECT 'quads: per-corner colours, no envelopes', colors = '[[255,0,0,255],[255,0,0,255],[0,0,255,128],[0,0,255,128]]'
  AND pos_env IS NULL AND color_env IS NULL FROM tw_quads('samples/ddnet_features.map') WHERE quad = 1;
SELECT 'quads: an empty layer has no rows', count(*) = 0 FROM tw_quads('samples/ddnet_features.map') WHERE layer_index = 11;
SELECT 'quads: layer_index push-down', group_concat(layer_index || '.' || quad) = '6.0,6.1'
  FROM tw_quads('samples/ddrace_sample.map') WHERE layer_index >= 1;
SELECT 'quads: a version-1 quads layer', grp = 1 AND color_env_offset = 300 AND color_env = 0 FROM tw_quads('samples/legacy.map');
SELECT 'quads: rowid', (SELECT quad FROM tw_quads('samples/ddrace_sample.map')
  WHERE rowid = (SELECT rowid FROM tw_quads('samples/ddrace_sample.map') WHERE layer_index = 6 AND quad = 1)) = 1;
UPDATE tw_quads SET points = '[[-1024,-1024],[1024,-1024],[-1024,1024],[1024,1024],[0,0]]',
  colors = '[[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16]]', tex_coords = '[[0,0],[512,0],[0,512],[512,512]]',
  pos_env = NULL, pos_env_offset = -10, color_env = 1, color_env_offset = 20000
  WHERE source = 'samples/ddnet_features.map' AND quad = 0;
SELECT 'quads: every field written', points = '[[-1024,-1024],[1024,-1024],[-1024,1024],[1024,1024],[0,0]]'
  AND colors = '[[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16]]' AND tex_coords = '[[0,0],[512,0],[0,512],[512,512]]'
  AND pos_env IS NULL AND pos_env_offset = -10 AND color_env = 1 AND color_env_offset = 20000
  FROM tw_quads('samples/ddnet_features.map') WHERE quad = 0;
UPDATE tw_quads SET pos_env = 0, points = json_replace(points, '$[4]', json('[5,5]'))
  WHERE source = 'samples/ddnet_features.map' AND quad = 1;
SELECT 'quads: envelope set, pivot moved', pos_env = 0 AND points ->> '$[4]' = '[5,5]'
  FROM tw_quads('samples/ddnet_features.map') WHERE quad = 1;
UPDATE tw_quads SET points = points, colors = colors, tex_coords = tex_coords, pos_env = pos_env, color_env = color_env
  WHERE source = 'samples/dm_sample.map';
SELECT 'quads: a same-value write keeps every byte', (SELECT sha256 FROM tw_maps('samples/dm_sample.map')) = (SELECT sha256 FROM dm_before);

-- ---- tw_images -------------------------------------------------------------

SELECT 'images: every column', group_concat(image || ':' || name || ':' || width || 'x' || height || ':' || external || ':'
  || format || ':' || quote(data_size) || ':v' || version, ' ') =
  '0:grass_main:1024x1024:1:rgba:NULL:v2 1:dots:4x4:0:rgb:48:v2' FROM tw_images('samples/v07_sample.map');
SELECT 'images: embedded RGBA', data_size = 8 * 8 * 4 AND format = 'rgba' AND external = 0 AND version = 1
  FROM tw_images('samples/ddnet_features.map') WHERE name = 'checker';
SELECT 'images: rowid', (SELECT name FROM tw_images('samples/ddrace_sample.map')
  WHERE rowid = (SELECT rowid FROM tw_images('samples/ddrace_sample.map') WHERE image = 2)) = 'desert_main';
SELECT 'images: image push-down', group_concat(name) = 'stripes' FROM tw_images('samples/ddrace_sample.map') WHERE image = 1;
UPDATE tw_images SET name = 'grass_doodads' WHERE source = 'samples/ddnet_features.map' AND image = 0;
UPDATE tw_images SET name = 'échiquier ✓' WHERE source = 'samples/ddnet_features.map' AND image = 1;
SELECT 'images: names written', group_concat(name, '|') = 'grass_doodads|échiquier ✓' FROM tw_images('samples/ddnet_features.map');
SELECT 'images: layers show the new name', image_name = 'échiquier ✓' FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
UPDATE tw_images SET name = printf('%.127c', 'n') WHERE source = 'samples/v07_sample.map' AND image = 1;
SELECT 'images: a name at its longest', length(name) = 127 AND format = 'rgb' FROM tw_images('samples/v07_sample.map') WHERE image = 1;
UPDATE tw_images SET name = name WHERE source = 'samples/dm_sample.map';
SELECT 'images: a same-value write keeps every byte', (SELECT sha256 FROM tw_maps('samples/dm_sample.map')) = (SELECT sha256 FROM dm_before);

-- ---- tw_envelopes ----------------------------------------------------------

SELECT 'envelopes: kinds, channels, versions', group_concat(env || ':' || kind || ':' || name || ':' || channels || ':'
  || synchronized || ':' || num_points || ':v' || version, ' ') =
  '0:position:wobble:3:1:6:v2 1:color:blink:4:0:3:v2 2:sound:fade:1:0:2:v2' FROM tw_envelopes('samples/ddnet_features.map');
SELECT 'envelopes: one point of every curve', group_concat(p.value ->> '$.curve') = '0,1,2,3,4,5'
  FROM tw_envelopes('samples/ddnet_features.map') AS e, json_each(e.points) AS p WHERE e.env = 0;
SELECT 'envelopes: values per channel count', group_concat(e.env || '=' || json_array_length(p.value, '$.values')) = '0=3,1=4,2=1'
  FROM tw_envelopes('samples/ddnet_features.map') AS e, json_each(e.points) AS p WHERE p.key = 0;
SELECT 'envelopes: 0.7 bezier tangents', points ->> '$[0].out_dy' = '[50,50,50,50]' AND points ->> '$[1].in_dx' = '[-200,-200,-200,-200]'
  AND points -> '$[2].in_dx' IS NULL AND version = 3 FROM tw_envelopes('samples/v07_sample.map') WHERE env = 0;
SELECT 'envelopes: synchronized in 0.7 and version 1', (SELECT synchronized FROM tw_envelopes('samples/v07_sample.map') WHERE env = 1) = 1
  AND (SELECT synchronized || ':' || version FROM tw_envelopes('samples/legacy.map')) = '0:1';
SELECT 'envelopes: rowid', (SELECT name FROM tw_envelopes('samples/ddnet_features.map')
  WHERE rowid = (SELECT rowid FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 2)) = 'fade';
UPDATE tw_envelopes SET name = printf('%.31c', 'e'), synchronized = 0 WHERE source = 'samples/ddnet_features.map' AND env = 0;
UPDATE tw_envelopes SET name = 'Ünïcødé', synchronized = 1 WHERE source = 'samples/ddnet_features.map' AND env = 1;
SELECT 'envelopes: names and synchronized written', group_concat(length(name) || ':' || synchronized) = '31:0,7:1,4:0'
  AND (SELECT name FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 1) = 'Ünïcødé'
  FROM tw_envelopes('samples/ddnet_features.map');
UPDATE tw_envelopes SET synchronized = 1 WHERE source = 'samples/legacy.map';
SELECT 'envelopes: synchronized raises version 1 to 2', synchronized = 1 AND version = 2 AND name = 'old pulse' FROM tw_envelopes('samples/legacy.map');
-- more points in envelope 0: the later envelopes' points move, unchanged
CREATE TEMP TABLE env_before AS SELECT env, points FROM tw_envelopes('samples/ddnet_features.map');
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0,0,0]},{"time":100,"curve":2,"values":[1,2,3]},'
  || '{"time":100,"curve":3,"values":[4,5,6]},{"time":900,"curve":4,"values":[7,8,9]},{"time":1000,"curve":5,"values":[-1,-2,-3]},'
  || '{"time":2000,"curve":0,"values":[0,0,0]},{"time":3000,"curve":1,"values":[0,0,0]},{"time":4000,"curve":1,"values":[1024,0,0]}]'
  WHERE source = 'samples/ddnet_features.map' AND env = 0;
SELECT 'envelopes: points written', num_points = 8 AND points ->> '$[4].values' = '[-1,-2,-3]' AND points ->> '$[7].time' = 4000
  FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 0;
SELECT 'envelopes: the others unchanged', count(*) = 2 FROM tw_envelopes('samples/ddnet_features.map') AS e JOIN env_before AS b USING (env)
  WHERE e.env > 0 AND e.points = b.points;
UPDATE tw_envelopes SET points = '[]' WHERE source = 'samples/ddnet_features.map' AND env = 1;
SELECT 'envelopes: no points', num_points = 0 AND points = '[]' FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 1;
SELECT 'envelopes: the last one still unchanged', e.points = b.points
  FROM tw_envelopes('samples/ddnet_features.map') AS e JOIN env_before AS b USING (env) WHERE e.env = 2;
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[512]},{"time":10,"curve":1,"values":[256,0,0,0]}]'
  WHERE source = 'samples/ddnet_features.map' AND env = 2;
SELECT 'envelopes: sound points', points = '[{"time":0,"curve":1,"values":[512]},{"time":10,"curve":1,"values":[256]}]'
  FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 2;
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[1,2,3,4]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
SELECT 'envelopes: a value beyond the channels is kept and shown', points = '[{"time":0,"curve":1,"values":[1,2,3,4]}]'
  FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 0;
-- 0.7: tangents written, partly and wholly
UPDATE tw_envelopes SET points = json_set(points, '$[0].in_dy', json('[7]'), '$[2].out_dx', json('[1,2,3,4]'))
  WHERE source = 'samples/v07_sample.map' AND env = 0;
SELECT 'envelopes: 0.7 tangents written', points ->> '$[0].in_dy' = '[7,0,0,0]' AND points ->> '$[0].out_dy' = '[50,50,50,50]'
  AND points ->> '$[2].out_dx' = '[1,2,3,4]' AND points ->> '$[1].in_dx' = '[-200,-200,-200,-200]'
  FROM tw_envelopes('samples/v07_sample.map') WHERE env = 0;
-- tangents given as zeros are stored as zeros, and a point whose tangents are all 0 shows none
UPDATE tw_envelopes SET points = '[{"time":0,"curve":5,"values":[1,2,3,4],"out_dy":[0,0,0,0]},{"time":9,"curve":5,"values":[5,6,7,8],"in_dx":[3]}]'
  WHERE source = 'samples/v07_sample.map' AND env = 1;
SELECT 'envelopes: 0.7 tangents shown when one is not 0', points FROM tw_envelopes('samples/v07_sample.map') WHERE env = 1;
-- expect: envelopes: 0.7 tangents shown when one is not 0|[{"time":0,"curve":5,"values":[1,2,3,4]},{"time":9,"curve":5,"values":[5,6,7,8],"in_dx":[3,0,0,0],"in_dy":[0,0,0,0],"out_dx":[0,0,0,0],"out_dy":[0,0,0,0]}]
UPDATE tw_envelopes SET points = points WHERE source = 'samples/v07_sample.map';
CREATE TEMP TABLE v07_before AS SELECT sha256 FROM tw_maps('samples/v07_sample.map');
UPDATE tw_envelopes SET points = points, name = name, synchronized = synchronized WHERE source = 'samples/v07_sample.map';
SELECT 'envelopes: 0.7 points round-trip', (SELECT sha256 FROM tw_maps('samples/v07_sample.map')) = (SELECT sha256 FROM v07_before);

-- ---- tw_sounds -------------------------------------------------------------

SELECT 'sounds: every column', group_concat(sound || ':' || name || ':' || quote(data_size), ' ') = '0:wind:64 1:bell:NULL'
  FROM tw_sounds('samples/ddnet_features.map');
SELECT 'sounds: none in the other maps', count(*) = 2 FROM tw_sounds('samples');
SELECT 'sounds: sound push-down and rowid', (SELECT name FROM tw_sounds('samples/ddnet_features.map') WHERE sound = 1) = 'bell'
  AND (SELECT name FROM tw_sounds('samples/ddnet_features.map')
       WHERE rowid = (SELECT rowid FROM tw_sounds('samples/ddnet_features.map') WHERE sound = 0)) = 'wind';

-- ---- after all the edits ---------------------------------------------------

SELECT 'every edited map still reads through every table', count(*) = 6 AND min(ok) = 1 FROM levelsql_files('samples/*.map');
SELECT 'the edited maps keep their shape', group_concat(num_groups || '/' || num_layers || '/' || num_images || '/'
  || num_envelopes || '/' || num_sounds, ' ') = '3/12/2/3/2 2/6/1/1/0 2/3/2/2/0'
  FROM tw_maps('samples') WHERE file IN ('samples/ddnet_features.map', 'samples/legacy.map', 'samples/v07_sample.map');
