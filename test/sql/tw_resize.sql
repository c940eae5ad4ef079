-- Resizing tilemap layers (tw_layers width, height) on the maps `make
-- samples` writes (samples/ here; no corpus needed): the game layer takes
-- its physics layers along, cells stay anchored top-left, new cells are
-- empty, the file written reads back in a new connection; refusals change
-- nothing.  Expected cells are kept in an attached database (keep.db in
-- the test's folder) so the new connection can compare with them.
-- Every row is 'label|1' when the check holds.

ATTACH 'keep.db' AS keep;
CREATE TABLE keep.cells AS SELECT layer_index, kind, x, y, id, flags, number, force, max_speed, angle, delay
  FROM tw_tiles('samples/ddnet_features.map');
CREATE TABLE keep.v07 AS SELECT x, y, id, flags FROM tw_tiles('samples/v07_sample.map') WHERE kind = 'game';
CREATE TABLE keep.legacy AS SELECT layer_index, x, y, id, number FROM tw_tiles('samples/legacy.map');
CREATE TABLE keep.sizes AS SELECT file, layer_index, width, height FROM tw_layers('samples') WHERE width IS NOT NULL;

-- ---- refusals: each leaves the file as it was ------------------------------
CREATE TEMP TABLE sha_before AS SELECT file, sha256 FROM tw_maps('samples');
UPDATE tw_layers SET width = 50 WHERE source = 'samples/ddnet_features.map' AND kind = 'tele';
-- expect error: a tele layer is sized like the game layer: resize the game layer (layer_index 2)
UPDATE tw_layers SET width = 0 WHERE source = 'samples/ddnet_features.map' AND kind = 'game';
-- expect error: column width: 0 is out of range
UPDATE tw_layers SET height = 65537 WHERE source = 'samples/ddnet_features.map' AND kind = 'game';
-- expect error: column height: 65537 is out of range
UPDATE tw_layers SET width = 10000, height = 10000 WHERE source = 'samples/ddnet_features.map' AND kind = 'game';
-- expect error: the layer at most 67108864 cells
UPDATE tw_layers SET width = 5 WHERE source = 'samples/ddnet_features.map' AND kind = 'quads';
-- expect error: a quads layer has no width
UPDATE tw_layers SET width = 5 WHERE source = 'samples/ddnet_features.map' AND kind = 'sounds';
-- expect error: a sounds layer has no width
UPDATE tw_layers SET width = NULL WHERE source = 'samples/ddnet_features.map' AND kind = 'quads';
-- expect ok
BEGIN;
UPDATE tw_layers SET width = 70 WHERE source = 'samples/dm_sample.map' AND kind = 'game';
SELECT 'inside the transaction the layer is resized', width = 70 AND height = 30
  FROM tw_layers('samples/dm_sample.map') WHERE kind = 'game';
SELECT 'and tw_tiles has its new cells', count(*) = 70 * 30 FROM tw_tiles('samples/dm_sample.map') WHERE kind = 'game';
ROLLBACK;
SELECT 'refusals and ROLLBACK write nothing', count(*) = 6 FROM tw_maps('samples') JOIN sha_before USING (file, sha256);

-- ---- the game layer of a DDNet map: physics layers follow ------------------
UPDATE tw_layers SET width = width + 5, height = height - 1 WHERE source = 'samples/ddnet_features.map' AND kind = 'game';
-- a second statement on tw_tiles in the same connection sees the new grids
SELECT 'tiles right after the resize', count(*) = 6 * 45 * 19 + 2 * 40 * 20 FROM tw_tiles('samples/ddnet_features.map');
-- a tiles layer resizes alone
UPDATE tw_layers SET width = 3, height = 2 WHERE source = 'samples/ddnet_features.map' AND layer_index = 8;
-- 0.7 (skip-compressed) and DDRace 2010 layouts
UPDATE tw_layers SET width = 33, height = 25 WHERE source = 'samples/v07_sample.map' AND kind = 'game';
UPDATE tw_layers SET width = 31, height = 9 WHERE source = 'samples/legacy.map' AND kind = 'game';

.open :memory:
ATTACH 'keep.db' AS keep;
SELECT 'all maps still load', count(*) = 6 AND sum(ok) = 6 FROM levelsql_files('samples/*.map');
SELECT 'game and physics layers 45 x 19', group_concat(kind || '=' || width || 'x' || height, ' ') =
  'tiles=40x20 game=45x19 front=45x19 tele=45x19 speedup=45x19 switch=45x19 tune=45x19 tiles=3x2'
  FROM tw_layers('samples/ddnet_features.map') WHERE width IS NOT NULL;
SELECT 'other layers keep their size', count(*) = 0 FROM keep.sizes AS k JOIN tw_layers(k.file) AS l USING (layer_index)
  WHERE k.file NOT IN ('samples/ddnet_features.map', 'samples/v07_sample.map', 'samples/legacy.map')
    AND (l.width <> k.width OR l.height <> k.height);
SELECT 'kept cells unchanged, every field', count(*) = 0 FROM tw_tiles('samples/ddnet_features.map') AS t
  JOIN keep.cells AS k USING (layer_index, x, y)
  WHERE t.layer_index IN (1, 2, 3, 4, 5, 6, 7) AND t.y < 19
    AND (t.id, t.flags, t.number, t.force, t.max_speed, t.angle, t.delay)
     IS NOT (k.id, k.flags, k.number, k.force, k.max_speed, k.angle, k.delay);
SELECT 'kept cells: every one of them', count(*) = 6 * 40 * 19 + 40 * 20 + 3 * 2 FROM tw_tiles('samples/ddnet_features.map') AS t
  JOIN keep.cells AS k USING (layer_index, x, y);
SELECT 'the special cells survive (not a test of zeros)', sum(number > 0) > 0 AND sum(force > 0) > 0 AND sum(delay > 0) > 0
  FROM tw_tiles('samples/ddnet_features.map') WHERE y < 19;
SELECT 'new cells are empty', count(*) = 6 * 5 * 19 AND sum(id + coalesce(flags, 0) + coalesce(number, 0)
  + coalesce(force, 0) + coalesce(max_speed, 0) + abs(coalesce(angle, 0)) + coalesce(delay, 0)) = 0
  FROM tw_tiles('samples/ddnet_features.map') WHERE layer_index BETWEEN 2 AND 7 AND x >= 40;
SELECT 'cut rows are gone', count(*) = 0 FROM tw_tiles('samples/ddnet_features.map') WHERE layer_index BETWEEN 2 AND 7 AND y >= 19;
SELECT 'tiles layer cut to 3 x 2', count(*) = 6 AND sum(t.id = k.id AND t.flags = k.flags) = 6
  FROM tw_tiles('samples/ddnet_features.map') AS t JOIN keep.cells AS k USING (layer_index, x, y) WHERE layer_index = 8;
SELECT '0.7 game layer 33 x 25', width = 33 AND height = 25 AND version = 4 FROM tw_layers('samples/v07_sample.map') WHERE kind = 'game';
SELECT '0.7 cells kept and new ones empty', sum(CASE WHEN k.x IS NULL THEN t.id = 0 AND t.flags = 0
  ELSE t.id = k.id AND t.flags = k.flags END) = 33 * 25
  FROM tw_tiles('samples/v07_sample.map') AS t LEFT JOIN keep.v07 AS k USING (x, y) WHERE t.kind = 'game';
SELECT 'DDRace 2010 game and tele 31 x 9', group_concat(kind || '=' || width || 'x' || height, ' ') =
  'game=31x9 tele=31x9 tiles=30x15 tiles=30x15' FROM tw_layers('samples/legacy.map') WHERE width IS NOT NULL;
SELECT 'DDRace 2010 tele numbers kept', sum(t.number IS k.number AND t.id = k.id) = 30 * 9
  FROM tw_tiles('samples/legacy.map') AS t JOIN keep.legacy AS k USING (layer_index, x, y) WHERE t.layer_index = 1;
DETACH keep;

-- One UPDATE naming the game layer and its physics layers: the game layer
-- resizes them all, and their own rows then hold the new size already.
UPDATE tw_layers SET width = width + 1 WHERE source = 'samples/ddnet_features.map'
  AND kind IN ('game', 'front', 'tele', 'speedup', 'switch', 'tune');
SELECT 'game and physics rows in one UPDATE', group_concat(kind || '=' || width, ' ') =
  'tiles=40 game=46 front=46 tele=46 speedup=46 switch=46 tune=46 tiles=3'
  FROM tw_layers('samples/ddnet_features.map') WHERE width IS NOT NULL;
