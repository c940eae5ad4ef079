-- requires: corpus
-- The Teeworlds/DDNet tables on single maps of the private corpus copy
-- (corpus/tw): bad values fail with the column and the limit and write
-- nothing; ROLLBACK and ROLLBACK TO a savepoint; a map with one damaged
-- layer (fixtures/corpus/damaged_layer.map: v06_dm1.map with the data of
-- tiles layer 8 cut to 5 bytes, by test/unit/fixtures.c) answers queries
-- pushed down to other layers and fails only when that layer's cells are
-- read.  What DDNet's own tools check, the corpus-wide byte checks and the
-- damaged copies are in test/unit/test_tw_sql.c.

-- Bad values: the message names the column and the limit (ddnet_coverage.map).
CREATE TEMP TABLE orig AS SELECT name, data FROM fsdir('corpus/tw');
UPDATE tw_layers SET color_r = 300 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 6;
-- expect error: column color_r
-- expect error: 0 to 255
UPDATE tw_layers SET image = 7 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 6;
-- expect error: column image
-- expect error: from 0 to 1
UPDATE tw_layers SET color_env = 0 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 6;
-- expect error: column color_env
-- expect error: no envelopes
UPDATE tw_layers SET name = 'much too long name' WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 6;
-- expect error: column name
-- expect error: 11 bytes
UPDATE tw_layers SET name = CAST(x'ff41' AS TEXT) WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 6;
-- expect error: column name
-- expect error: UTF-8
UPDATE tw_layers SET color_r = 1 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 0;
-- expect error: column color_r
-- expect error: quads layer has no
UPDATE tw_layers SET detail = 2 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 6;
-- expect error: column detail
-- expect error: 0 to 1
UPDATE tw_layers SET width = 2 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 3;
-- expect error: column width
-- expect error: a tele layer is sized like the game layer: resize the game layer (layer_index 1)
UPDATE tw_groups SET name = 'twelve bytes' WHERE source = 'corpus/tw/ddnet_coverage.map' AND grp = 0;
-- expect error: column name
-- expect error: 11 bytes
UPDATE tw_groups SET clipping = 5 WHERE source = 'corpus/tw/ddnet_coverage.map' AND grp = 0;
-- expect error: column clipping
-- expect error: 0 to 1
UPDATE tw_groups SET offset_x = 'left' WHERE source = 'corpus/tw/ddnet_coverage.map' AND grp = 0;
-- expect error: column offset_x
-- expect error: not an integer
UPDATE tw_tiles SET id = 256 WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 1 AND x = 0 AND y = 0;
-- expect error: column id
-- expect error: 0 to 255
UPDATE tw_tiles SET angle = 40000 WHERE source = 'corpus/tw/ddnet_coverage.map' AND kind = 'speedup' AND x = 0 AND y = 0;
-- expect error: column angle
-- expect error: 32767
UPDATE tw_tiles SET force = 1 WHERE source = 'corpus/tw/ddnet_coverage.map' AND kind = 'game' AND x = 0 AND y = 0;
-- expect error: column force
-- expect error: game layer has no
UPDATE tw_tiles SET id = 300 WHERE source = 'corpus/tw/ddnet_coverage.map' AND kind = 'game' AND x = 0 AND y = 0;
-- expect error: tile x 0, y 0 of group 1 layer 0
UPDATE tw_quads SET points = 'not json' WHERE source = 'corpus/tw/ddnet_coverage.map' AND quad = 0;
-- expect error: column points
-- expect error: not valid JSON
UPDATE tw_quads SET points = '[[0,0],[1,1]]' WHERE source = 'corpus/tw/ddnet_coverage.map' AND quad = 0;
-- expect error: column points
-- expect error: exactly 5
UPDATE tw_quads SET points = '[[0,0],[1,1],[2,2],[3,3],[4,"x"]]' WHERE source = 'corpus/tw/ddnet_coverage.map' AND quad = 0;
-- expect error: element [4][1]
-- expect error: integer
UPDATE tw_quads SET colors = '[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,256]]' WHERE source = 'corpus/tw/ddnet_coverage.map' AND quad = 0;
-- expect error: column colors
-- expect error: 0 to 255
UPDATE tw_quads SET pos_env = 3 WHERE source = 'corpus/tw/ddnet_coverage.map' AND quad = 0;
-- expect error: column pos_env
-- expect error: no envelopes
UPDATE tw_images SET name = '' WHERE source = 'corpus/tw/ddnet_coverage.map' AND image = 0;
-- expect error: column name
-- expect error: 1 to 127
UPDATE tw_images SET name = printf('%.200c', 'x') WHERE source = 'corpus/tw/ddnet_coverage.map' AND image = 0;
-- expect error: column name
-- expect error: 127 bytes
UPDATE tw_maps SET author = printf('%.40c', 'a') WHERE source = 'corpus/tw/ddnet_coverage.map' AND 1;
-- expect error: column author
-- expect error: 31 bytes
UPDATE tw_maps SET settings = '{"a":1}' WHERE source = 'corpus/tw/ddnet_coverage.map' AND 1;
-- expect error: column settings
-- expect error: not an array
UPDATE tw_maps SET settings = '["ok", 5]' WHERE source = 'corpus/tw/ddnet_coverage.map' AND 1;
-- expect error: column settings
-- expect error: element 1
UPDATE tw_maps SET settings = 'sv_x 1' WHERE source = 'corpus/tw/ddnet_coverage.map' AND 1;
-- expect error: column settings
-- expect error: not valid JSON
UPDATE tw_maps SET crc32 = 5 WHERE source = 'corpus/tw/ddnet_coverage.map' AND 1;
-- expect error: crc32
-- expect error: read-only
DELETE FROM tw_tiles WHERE source = 'corpus/tw/ddnet_coverage.map' AND layer_index = 1;
-- expect error: cannot be deleted
INSERT INTO tw_tiles(file, id) VALUES ('corpus/tw/ddnet_coverage.map', 1);
-- expect error: cannot be inserted
INSERT INTO tw_layers(file, name) VALUES ('corpus/tw/ddnet_coverage.map', 'x');
-- expect error: needs the group
UPDATE tw_sounds SET data_size = 5 WHERE source = 'corpus/tw/ddnet_Sunny_Side_Up.map';
-- expect error: data_size
-- expect error: read-only
-- failed statements wrote nothing
SELECT readfile('corpus/tw/ddnet_coverage.map') = data FROM orig WHERE name = 'corpus/tw/ddnet_coverage.map';
-- expect: 1

-- Envelopes: a map that has some (v06_dm1.map).
UPDATE tw_envelopes SET points = '[{"time":0,"curve":9,"values":[0]}]' WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: point 0 curve
-- expect error: 0 to 5
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1}]' WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: point 0 values
-- expect error: missing
UPDATE tw_envelopes SET points = '[{"time":5,"curve":1,"values":[0]},{"time":4,"curve":1,"values":[0]}]' WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: point 1 time
-- expect error: must not decrease
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0],"speed":2}]' WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: unknown key 'speed'
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0,0,0,0,0]}]' WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: point 0 values
-- expect error: 1 to 4
UPDATE tw_envelopes SET points = '[{"time":0,"curve":5,"values":[0],"in_dx":[1]}]' WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: bezier
UPDATE tw_envelopes SET points = 5 WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: column points
-- expect error: JSON text
UPDATE tw_envelopes SET name = printf('%.32c', 'e') WHERE source = 'corpus/tw/v06_dm1.map' AND env = 0;
-- expect error: column name
-- expect error: 31 bytes
-- failed envelope statements wrote nothing
SELECT readfile('corpus/tw/v06_dm1.map') = data FROM orig WHERE name = 'corpus/tw/v06_dm1.map';
-- expect: 1

-- ROLLBACK and ROLLBACK TO: the clone of a map with an edited layer
-- (v06_dm2.map; orig/ keeps an untouched copy).
.shell mkdir -p orig && cp corpus/tw/v06_dm2.map orig/
BEGIN;
UPDATE tw_tiles SET id = 2 WHERE source = 'corpus/tw/v06_dm2.map' AND kind = 'game' AND x = 3 AND y = 3;
-- edit visible in the transaction
SELECT id FROM tw_tiles('corpus/tw/v06_dm2.map') WHERE kind = 'game' AND x = 3 AND y = 3;
-- expect: 2
ROLLBACK;
-- ROLLBACK wrote nothing
SELECT readfile('corpus/tw/v06_dm2.map') = readfile('orig/v06_dm2.map');
-- expect: 1
BEGIN;
UPDATE tw_tiles SET id = 2 WHERE source = 'corpus/tw/v06_dm2.map' AND kind = 'game' AND x = 3 AND y = 3;
SAVEPOINT s1;
UPDATE tw_tiles SET id = 4 WHERE source = 'corpus/tw/v06_dm2.map' AND kind = 'game' AND x = 4 AND y = 3;
UPDATE tw_layers SET name = 'Gone' WHERE source = 'corpus/tw/v06_dm2.map' AND kind = 'game';
ROLLBACK TO s1;
COMMIT;
.open :memory:
-- the edit before the savepoint is kept, the ones after it rolled back
SELECT id FROM tw_tiles('corpus/tw/v06_dm2.map') WHERE kind = 'game' AND x = 3 AND y = 3;
-- expect: 2
SELECT (SELECT id FROM tw_tiles('corpus/tw/v06_dm2.map') WHERE kind = 'game' AND x = 4 AND y = 3) = (SELECT id FROM tw_tiles('orig/v06_dm2.map') WHERE kind = 'game' AND x = 4 AND y = 3);
-- expect: 1
SELECT name <> 'Gone' FROM tw_layers('corpus/tw/v06_dm2.map') WHERE kind = 'game';
-- expect: 1

-- A map whose tiles layer 8 has a blob of the wrong size: levelsql_files
-- decodes everything (ok: every table can read it); the tables stay lazy
-- unless on_error=skip asks for the same check.
SELECT ok FROM levelsql_files('fixtures/corpus/damaged_layer.map');
-- expect: 0
-- levelsql_files names the damaged layer
SELECT instr(error, 'layer 8') > 0 FROM levelsql_files('fixtures/corpus/damaged_layer.map');
-- expect: 1
SELECT count(*) FROM tw_maps('fixtures/corpus/damaged_layer.map');
-- expect: 1
-- on_error=skip passes over the map levelsql_files calls not ok
SELECT count(*) FROM tw_maps('fixtures/corpus/damaged_layer.map', 'on_error=skip');
-- expect: 0
-- cells of another layer (10) read fine; grp/layer push-down avoids the
-- damaged layer
SELECT count(*) > 0 FROM tw_tiles('fixtures/corpus/damaged_layer.map') WHERE layer_index = 10 AND id >= 0;
-- expect: 1
SELECT sum(id) IS NOT NULL FROM tw_tiles('fixtures/corpus/damaged_layer.map') WHERE grp = 6 AND layer = 2;
-- expect: 1
SELECT sum(id) FROM tw_tiles('fixtures/corpus/damaged_layer.map');
-- expect error: layer 8
-- expect error: holds 5 bytes
-- count(*) decodes no cell
SELECT count(*) > 0 FROM tw_tiles('fixtures/corpus/damaged_layer.map');
-- expect: 1
UPDATE tw_tiles SET id = 1 WHERE source = 'fixtures/corpus/damaged_layer.map' AND layer_index = 8 AND x = 0 AND y = 0;
-- expect error: column id
-- expect error: holds 5 bytes
