-- requires: corpus
-- The Teeworlds/DDNet tables over the real corpus (a private copy in
-- corpus/tw).  Every row is 'label|1' when the check holds.

-- Every map loads, as format 'tw'.
SELECT 'all maps load', count(*) > 0 AND sum(ok) = count(*) AND sum(format = 'tw') = count(*)
  FROM levelsql_files('corpus/tw');
SELECT 'one tw_maps row per map', (SELECT count(*) FROM tw_maps('corpus/tw')) = (SELECT count(*) FROM levelsql_files('corpus/tw'));

-- Counts agree across tables.
SELECT 'num_layers = rows of tw_layers', count(*) = 0 FROM tw_maps('corpus/tw') m
  WHERE num_layers != (SELECT count(*) FROM tw_layers(m.file));
SELECT 'num_groups = rows of tw_groups', count(*) = 0 FROM tw_maps('corpus/tw') m
  WHERE num_groups != (SELECT count(*) FROM tw_groups(m.file));
SELECT 'group num_layers add up', count(*) = 0 FROM tw_groups('corpus/tw') g
  WHERE num_layers != (SELECT count(*) FROM tw_layers(g.file) WHERE grp = g.grp);
SELECT 'num_images, num_envelopes, num_sounds', count(*) = 0 FROM tw_maps('corpus/tw') m
  WHERE num_images != (SELECT count(*) FROM tw_images(m.file))
     OR num_envelopes != (SELECT count(*) FROM tw_envelopes(m.file))
     OR num_sounds != (SELECT count(*) FROM tw_sounds(m.file));
SELECT 'num_points = points in the JSON', count(*) = 0 FROM tw_envelopes('corpus/tw')
  WHERE num_points != json_array_length(points);
SELECT 'num_quads = rows of tw_quads', count(*) = 0 FROM tw_layers('corpus/tw') l
  WHERE kind = 'quads' AND num_quads != (SELECT count(*) FROM tw_quads(l.file) WHERE layer_index = l.layer_index);

-- Rows of tw_tiles per layer = width x height, for every tilemap layer of
-- every map (layer by layer, so each scan is pushed down to one layer;
-- sum(id) makes it decode every cell).
CREATE TEMP TABLE tile_counts AS
  SELECT file, layer_index, width * height AS want,
         (SELECT count(*) + 0 * sum(id) FROM tw_tiles(l.file) t WHERE t.layer_index = l.layer_index) AS n
  FROM tw_layers('corpus/tw') l
  WHERE kind IN ('tiles', 'game', 'front', 'tele', 'speedup', 'switch', 'tune');
SELECT 'tile rows per layer = width x height', count(*) > 100 AND sum(n = want) = count(*) FROM tile_counts;
SELECT 'all tile rows are some layer''s', (SELECT sum(n) FROM tile_counts) = (SELECT count(*) FROM tw_tiles('corpus/tw'));
SELECT 'every map has one game layer', count(*) = 0 FROM tw_maps('corpus/tw') m
  WHERE (SELECT count(*) FROM tw_layers(m.file) WHERE kind = 'game') != 1;

-- Push-down: one layer, one window; rows outside never appear.
SELECT 'grp/layer push-down', (SELECT count(*) FROM tw_tiles('corpus/tw/v06_dm1.map') WHERE grp = 6 AND layer = 2)
  = (SELECT width * height FROM tw_layers('corpus/tw/v06_dm1.map') WHERE grp = 6 AND layer = 2 AND kind = 'game');
SELECT 'x/y window', count(*) = 12 AND min(x) = 4 AND max(x) = 7 AND min(y) = 10 AND max(y) = 12
  FROM tw_tiles('corpus/tw/v06_dm1.map') WHERE kind = 'game' AND x BETWEEN 4 AND 7 AND y >= 10 AND y < 13;
SELECT 'layer_index push-down', count(DISTINCT layer_index) = 1
  FROM tw_tiles('corpus/tw/ddnet_coverage.map') WHERE layer_index = 3;
SELECT 'rowid lookup', (SELECT id FROM tw_tiles('corpus/tw/v06_dm1.map') WHERE rowid =
    (SELECT rowid FROM tw_tiles('corpus/tw/v06_dm1.map') WHERE kind = 'game' AND x = 20 AND y = 9))
  IS (SELECT id FROM tw_tiles('corpus/tw/v06_dm1.map') WHERE kind = 'game' AND x = 20 AND y = 9);

-- Special layers show their own fields, NULL for the others.
SELECT 'speedup fields', count(*) > 0 AND sum(force IS NOT NULL AND angle IS NOT NULL AND flags IS NULL AND number IS NULL) = count(*)
  FROM tw_tiles('corpus/tw/ddnet_coverage.map') WHERE kind = 'speedup' AND id != 0;
SELECT 'tele fields', count(*) > 0 AND sum(number IS NOT NULL AND flags IS NULL AND force IS NULL AND delay IS NULL) = count(*)
  FROM tw_tiles('corpus/tw/ddnet_coverage.map') WHERE kind = 'tele' AND id != 0;
SELECT 'switch fields', count(*) > 0 AND sum(number IS NOT NULL AND delay IS NOT NULL AND flags IS NOT NULL) = count(*)
  FROM tw_tiles('corpus/tw/ddnet_coverage.map') WHERE kind = 'switch' AND id != 0;
SELECT 'game fields', sum(number IS NULL AND force IS NULL AND delay IS NULL AND flags IS NOT NULL) = count(*)
  FROM tw_tiles('corpus/tw/ddnet_coverage.map') WHERE kind = 'game';

-- Identity columns: sha256 is 64 hex digits and differs between maps.
SELECT 'sha256 hex', sum(length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*') = count(*)
  AND count(DISTINCT sha256) = count(*) FROM tw_maps('corpus/tw');
SELECT 'file_size', sum(m.file_size = f.size) = count(*) FROM tw_maps('corpus/tw') m JOIN levelsql_files('corpus/tw') f USING (file);
SELECT 'styles', (SELECT group_concat(DISTINCT style) FROM (SELECT style FROM tw_maps('corpus/tw') ORDER BY style)) = '0.6,0.7,ddnet';
SELECT 'settings is a JSON array', sum(json_valid(settings) AND json_type(settings) = 'array') = count(*) FROM tw_maps('corpus/tw');
SELECT 'layer image names', count(*) > 0 AND sum(i.name = l.image_name) = count(*)
  FROM tw_layers('corpus/tw') l JOIN tw_images('corpus/tw') i ON i.file = l.file AND i.image = l.image;
SELECT 'quads JSON shapes', sum(json_array_length(points) = 5 AND json_array_length(colors) = 4 AND json_array_length(tex_coords) = 4) = count(*)
  FROM tw_quads('corpus/tw');

-- Rewriting every field with its own value changes no byte: the file after
-- a no-op rewrite (map_resave's form) is the file after these.
UPDATE tw_maps SET author = author WHERE source = 'corpus/tw/v06_ctf2.map';
CREATE TEMP TABLE before AS SELECT sha256 FROM tw_maps('corpus/tw/v06_ctf2.map');
UPDATE tw_groups SET name = name, offset_x = offset_x, offset_y = offset_y, parallax_x = parallax_x,
  parallax_y = parallax_y, clipping = clipping, clip_x = clip_x, clip_y = clip_y, clip_w = clip_w, clip_h = clip_h
  WHERE source = 'corpus/tw/v06_ctf2.map';
UPDATE tw_layers SET name = name, detail = detail, color_r = color_r, color_g = color_g, color_b = color_b,
  color_a = color_a, color_env = color_env, color_env_offset = color_env_offset, image = image
  WHERE source = 'corpus/tw/v06_ctf2.map';
UPDATE tw_quads SET points = points, colors = colors, tex_coords = tex_coords, pos_env = pos_env,
  pos_env_offset = pos_env_offset, color_env = color_env, color_env_offset = color_env_offset
  WHERE source = 'corpus/tw/v06_ctf2.map';
UPDATE tw_envelopes SET name = name, synchronized = synchronized, points = points WHERE source = 'corpus/tw/v06_ctf2.map';
UPDATE tw_images SET name = name WHERE source = 'corpus/tw/v06_ctf2.map';
UPDATE tw_tiles SET id = id, flags = flags WHERE source = 'corpus/tw/v06_ctf2.map' AND y < 20;
UPDATE tw_maps SET author = author, map_version = map_version, credits = credits, license = license,
  settings = settings WHERE source = 'corpus/tw/v06_ctf2.map';
SELECT 'same-value rewrite keeps every byte', (SELECT sha256 FROM tw_maps('corpus/tw/v06_ctf2.map')) = (SELECT sha256 FROM before);
-- every envelope of every map survives points = points (inside a rollback)
BEGIN;
CREATE TEMP TABLE env_before AS SELECT file, env, points FROM tw_envelopes('corpus/tw');
UPDATE tw_envelopes SET points = points WHERE source = 'corpus/tw';
SELECT 'envelope points round-trip', count(*) = 0 FROM tw_envelopes('corpus/tw') e JOIN env_before b USING (file, env)
  WHERE e.points != b.points;
ROLLBACK;

-- Edits, read back after COMMIT.
UPDATE tw_tiles SET id = 3 WHERE source = 'corpus/tw/v06_dm1.map' AND kind = 'game' AND x BETWEEN 2 AND 4 AND y = 1;
SELECT 'tile edit', count(*) = 3 AND sum(id = 3) = 3 FROM tw_tiles('corpus/tw/v06_dm1.map') WHERE kind = 'game' AND x BETWEEN 2 AND 4 AND y = 1;
UPDATE tw_tiles SET force = 50, angle = -45, max_speed = 7 WHERE source = 'corpus/tw/ddnet_coverage.map' AND kind = 'speedup' AND x = 1 AND y = 1;
SELECT 'speedup edit', force = 50 AND angle = -45 AND max_speed = 7 FROM tw_tiles('corpus/tw/ddnet_coverage.map') WHERE kind = 'speedup' AND x = 1 AND y = 1;
-- a 0.7 map: the game layer is skip-compressed again when written
CREATE TEMP TABLE v07_before AS SELECT count(*) AS n, sum(id) AS ids FROM tw_tiles('corpus/tw/v07_dm1.map') WHERE kind = 'game';
UPDATE tw_tiles SET id = 1 WHERE source = 'corpus/tw/v07_dm1.map' AND kind = 'game' AND id = 0 AND x = 10 AND y BETWEEN 2 AND 40;
SELECT '0.7 tile edit', (SELECT n FROM v07_before) = count(*) AND sum(id) > (SELECT ids FROM v07_before)
  AND (SELECT style FROM tw_maps('corpus/tw/v07_dm1.map')) = '0.7'
  FROM tw_tiles('corpus/tw/v07_dm1.map') WHERE kind = 'game';
UPDATE tw_layers SET name = 'Renamed', color_g = 20 WHERE source = 'corpus/tw/v06_dm1.map' AND layer_index = 7;
SELECT 'layer edit', name = 'Renamed' AND color_g = 20 FROM tw_layers('corpus/tw/v06_dm1.map') WHERE layer_index = 7;
UPDATE tw_maps SET settings = '["sv_test 1", "tune gravity 0.3"]', author = 'Ünïcødé' WHERE source = 'corpus/tw/v06_dm1.map';
SELECT 'settings and UTF-8 author', settings = '["sv_test 1","tune gravity 0.3"]' AND author = 'Ünïcødé' FROM tw_maps('corpus/tw/v06_dm1.map');
UPDATE tw_maps SET settings = '[]', author = NULL WHERE source = 'corpus/tw/v06_dm1.map';
SELECT 'settings and author cleared', settings = '[]' AND author IS NULL FROM tw_maps('corpus/tw/v06_dm1.map');
-- rows come in file, layer_index, y, x order: GROUP BY on that prefix needs no sort
SELECT 'tw GROUP BY file, layer_index', (SELECT group_concat(n) FROM (SELECT count(*) AS n FROM tw_tiles('corpus/tw/v0*.map') GROUP BY file, layer_index))
  = (SELECT group_concat(n) FROM (SELECT count(*) AS n FROM tw_tiles('corpus/tw/v0*.map') GROUP BY +file, +layer_index ORDER BY +file, +layer_index));
SELECT 'tw tile order', (SELECT group_concat(x || ',' || y || ':' || id) FROM (SELECT * FROM tw_tiles('corpus/tw/v06_dm1.map') ORDER BY layer_index, y, x))
  = (SELECT group_concat(x || ',' || y || ':' || id) FROM (SELECT * FROM tw_tiles('corpus/tw/v06_dm1.map') ORDER BY +layer_index, +y, +x));
