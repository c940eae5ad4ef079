-- INSERT and DELETE on the Teeworlds / DDNet tables, on the generated
-- samples (samples/ here, a private copy): new rows get the DDNet editor's
-- defaults, DDNet's layer rules hold, references follow deletes, a used
-- image, envelope or sound cannot go, row identity holds in multi-row
-- statements, and everything reads back in a new connection.  Byte
-- identity with DDNet's map_resave: test_twmap (tw_edit_resave).

-- Groups: a new one comes last with the editor's defaults.
INSERT INTO tw_groups(source) VALUES ('samples/ddnet_features.map');
SELECT grp, name, offset_x, offset_y, parallax_x, parallax_y, clipping, num_layers, start_layer, version FROM tw_groups('samples/ddnet_features.map') WHERE grp = 3;
-- expect: 3||0|0|100|100|0|0|12|3
-- In the middle: the groups after it move on, their layers stay.
INSERT INTO tw_groups(source, grp) VALUES ('samples/ddnet_features.map', 1);
SELECT group_concat(grp || ':' || coalesce(name, '') || ':' || start_layer || '+' || num_layers, ' ') FROM tw_groups('samples/ddnet_features.map');
-- expect: 0:Parallax:0+2 1::2+0 2:Game:2+7 3:Clipped:9+3 4::12+0
INSERT INTO tw_groups(source, grp) VALUES ('samples/ddnet_features.map', 9);
-- expect error: column grp
-- expect error: from 0 to 5

-- Layers: every kind, with the editor's defaults; tile layers are as large as the game layer.
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 1, 'tiles');
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 1, 'quads');
INSERT INTO tw_layers(source, grp, layer, kind) VALUES ('samples/ddnet_features.map', 1, 0, 'sounds');
INSERT INTO tw_layers(source, grp, kind, width, height, name, color_a) VALUES ('samples/ddnet_features.map', 4, 'tiles', 7, 3, 'Deco', 128);
SELECT grp, layer, layer_index, kind, name, width, height, color_r, color_g, color_b, color_a, color_env, image, num_quads, num_sources, sound, version FROM tw_layers('samples/ddnet_features.map') WHERE grp IN (1, 4);
-- expect: 1|0|2|sounds|||||||||||0||2
-- expect: 1|1|3|tiles||40|20|255|255|255|255||||||3
-- expect: 1|2|4|quads||||||||||0|||2
-- expect: 4|0|15|tiles|Deco|7|3|255|255|255|128||||||3
SELECT count(*), sum(id), sum(flags) FROM tw_tiles('samples/ddnet_features.map') WHERE grp = 1 AND layer = 1;
-- expect: 800|0|0
-- DDNet's rules.
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 2, 'game');
-- expect error: has a game layer already
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 2, 'tele');
-- expect error: has a tele layer already
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 0, 'tune');
-- expect error: goes in the game group (group 2), not group 0
INSERT INTO tw_layers(source, grp, kind, layer) VALUES ('samples/ddnet_features.map', 0, 'tiles', 5);
-- expect error: position 5 is past them
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 0, 'sounds_deprecated');
-- expect error: not a kind a layer can be added as
INSERT INTO tw_layers(source, kind) VALUES ('samples/ddnet_features.map', 'tiles');
-- expect error: needs the group
DELETE FROM tw_layers WHERE source = 'samples/ddnet_features.map' AND kind = 'game';
-- expect error: the game layer: it cannot be deleted
DELETE FROM tw_groups WHERE source = 'samples/ddnet_features.map' AND grp = 2;
-- expect error: holds the game layer
-- A physics layer goes and comes back, game-sized, named as the editor names it.
DELETE FROM tw_layers WHERE source = 'samples/ddnet_features.map' AND kind IN ('tele', 'tune');
INSERT INTO tw_layers(source, grp, kind, width) VALUES ('samples/ddnet_features.map', 2, 'tele', 41);
-- expect error: as large as the game layer (40 x 20)
INSERT INTO tw_layers(source, grp, kind) VALUES ('samples/ddnet_features.map', 2, 'tele');
SELECT group_concat(kind || ':' || name || ':' || width || 'x' || height, ' ') FROM tw_layers('samples/ddnet_features.map') WHERE grp = 2;
-- expect: game:Game:40x20 front:Front:40x20 speedup:Speedup:40x20 switch:Switch:40x20 tiles:Ground:40x20 tele:Tele:40x20
SELECT count(*), sum(number), sum(id) FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'tele';
-- expect: 800|0|0

-- Quads: inserted at a position or last, with the editor's 64 x 64 white quad; deleted by identity.
INSERT INTO tw_quads(source, grp, layer) VALUES ('samples/ddnet_features.map', 1, 2);
INSERT INTO tw_quads(source, grp, layer, quad, pos_env) VALUES ('samples/ddnet_features.map', 1, 2, 0, 0);
INSERT INTO tw_quads(source, grp, layer) VALUES ('samples/ddnet_features.map', 1, 2);
SELECT quad, points, colors, tex_coords, pos_env, color_env FROM tw_quads('samples/ddnet_features.map') WHERE grp = 1;
-- expect: 0|[[-32768,-32768],[32768,-32768],[-32768,32768],[32768,32768],[0,0]]|[[255,255,255,255],[255,255,255,255],[255,255,255,255],[255,255,255,255]]|[[0,0],[1024,0],[0,1024],[1024,1024]]|0|
-- expect: 1|[[-32768,-32768],[32768,-32768],[-32768,32768],[32768,32768],[0,0]]|[[255,255,255,255],[255,255,255,255],[255,255,255,255],[255,255,255,255]]|[[0,0],[1024,0],[0,1024],[1024,1024]]||
-- expect: 2|[[-32768,-32768],[32768,-32768],[-32768,32768],[32768,32768],[0,0]]|[[255,255,255,255],[255,255,255,255],[255,255,255,255],[255,255,255,255]]|[[0,0],[1024,0],[0,1024],[1024,1024]]||
UPDATE tw_quads SET colors = '[[1,1,1,1],[2,2,2,2],[3,3,3,3],[4,4,4,4]]' WHERE source = 'samples/ddnet_features.map' AND grp = 1 AND quad = 2;
-- Two rows in one DELETE: the second is still the one the statement saw.
DELETE FROM tw_quads WHERE source = 'samples/ddnet_features.map' AND grp = 1 AND quad IN (0, 1);
SELECT quad, colors, pos_env FROM tw_quads('samples/ddnet_features.map') WHERE grp = 1;
-- expect: 0|[[1,1,1,1],[2,2,2,2],[3,3,3,3],[4,4,4,4]]|
SELECT num_quads FROM tw_layers('samples/ddnet_features.map') WHERE grp = 1 AND kind = 'quads';
-- expect: 1
INSERT INTO tw_quads(source, grp, layer) VALUES ('samples/ddnet_features.map', 1, 1);
-- expect error: is a tiles layer, not a quads layer

-- Sound sources: the editor's looping circle; a rectangle takes width and height.
SELECT source, x, y, loop, panning, time_delay, falloff, pos_env, pos_env_offset, sound_env, sound_env_offset, shape, width, height, radius FROM tw_sound_sources('samples/ddnet_features.map');
-- expect: 0|655360|327680|1|1|0|80|0|0|2|0|circle|||1500
-- expect: 1|983040|327680|0|0|1000|0||0||0|rectangle|3200|1600|
INSERT INTO tw_sound_sources(file, grp, layer, x, y) VALUES ('samples/ddnet_features.map', 1, 0, 1024, 2048);
INSERT INTO tw_sound_sources(file, grp, layer, shape, width, height) VALUES ('samples/ddnet_features.map', 1, 0, 'rectangle', 500, 300);
INSERT INTO tw_sound_sources(file, grp, layer, shape) VALUES ('samples/ddnet_features.map', 1, 0, 'rectangle');
-- expect error: a rectangle needs a width and a height
UPDATE tw_sound_sources SET radius = 5 WHERE source_path = 'samples/ddnet_features.map' AND grp = 1 AND source = 1;
-- expect error: a rectangle has a width and height, no radius
UPDATE tw_sound_sources SET shape = 'circle', radius = 700, sound_env = 2 WHERE source_path = 'samples/ddnet_features.map' AND grp = 3 AND source = 1;
SELECT grp, source, x, y, loop, falloff, sound_env, shape, width, height, radius FROM tw_sound_sources('samples/ddnet_features.map');
-- expect: 1|0|1024|2048|1|80||circle|||1500
-- expect: 1|1|0|0|1|80||rectangle|500|300|
-- expect: 3|0|655360|327680|1|80|2|circle|||1500
-- expect: 3|1|983040|327680|0|0|2|circle|||700
SELECT num_sources FROM tw_layers('samples/ddnet_features.map') WHERE grp = 1 AND kind = 'sounds';
-- expect: 2

-- Envelopes, images, sounds: appended; a used one cannot go, naming its user.
INSERT INTO tw_envelopes(source, kind) VALUES ('samples/ddnet_features.map', 'color');
INSERT INTO tw_envelopes(source, kind, name, points) VALUES ('samples/ddnet_features.map', 'position', 'Spin', '[{"time":0,"curve":1,"values":[0,0,0]}]');
INSERT INTO tw_envelopes(source, env, kind) VALUES ('samples/ddnet_features.map', 0, 'color');
-- expect error: new rows are appended
INSERT INTO tw_envelopes(source) VALUES ('samples/ddnet_features.map');
-- expect error: needs the kind
SELECT env, kind, name, points FROM tw_envelopes('samples/ddnet_features.map') WHERE env >= 3;
-- expect: 3|color||[{"time":0,"curve":1,"values":[1024,1024,1024,1024]},{"time":1000,"curve":1,"values":[1024,1024,1024,1024]}]
-- expect: 4|position|Spin|[{"time":0,"curve":1,"values":[0,0,0]}]
INSERT INTO tw_images(source, name, width, height) VALUES ('samples/ddnet_features.map', 'jungle_main', 1024, 1024);
INSERT INTO tw_images(source) VALUES ('samples/ddnet_features.map');
-- expect error: needs a name
SELECT image, name, width, height, external, data_size FROM tw_images('samples/ddnet_features.map');
-- expect: 0|grass_main|1024|1024|1|
-- expect: 1|checker|8|8|0|256
-- expect: 2|jungle_main|1024|1024|1|
INSERT INTO tw_sounds(source, name) VALUES ('samples/ddnet_features.map', 'rain');
SELECT sound, name, data_size FROM tw_sounds('samples/ddnet_features.map');
-- expect: 0|wind|64
-- expect: 1|bell|
-- expect: 2|rain|
DELETE FROM tw_envelopes WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: envelope 0 is used by quad 0 of layer 0 (group 0, layer 0)
DELETE FROM tw_images WHERE source = 'samples/ddnet_features.map' AND image = 1;
-- expect error: image 1 is used by layer 0 (group 0, layer 0, quads)
DELETE FROM tw_sounds WHERE source = 'samples/ddnet_features.map' AND sound = 0;
-- expect error: sound 0 is used by layer 11 (group 3, layer 0, sounds)
-- A failed DELETE changed nothing.
SELECT count(*) FROM tw_envelopes('samples/ddnet_features.map');
-- expect: 5
-- Delete every unused envelope, image and sound (sql/tw_cookbook.sql): the users' indices follow.
SELECT group_concat(env, ',') FROM tw_envelopes('samples/ddnet_features.map');
-- expect: 0,1,2,3,4
UPDATE tw_quads SET pos_env = 4 WHERE source = 'samples/ddnet_features.map' AND grp = 1;
DELETE FROM tw_envelopes WHERE source = 'samples/ddnet_features.map' AND env NOT IN (
  SELECT pos_env FROM tw_quads(tw_envelopes.file) WHERE pos_env IS NOT NULL
  UNION SELECT color_env FROM tw_quads(tw_envelopes.file) WHERE color_env IS NOT NULL
  UNION SELECT color_env FROM tw_layers(tw_envelopes.file) WHERE color_env IS NOT NULL
  UNION SELECT pos_env FROM tw_sound_sources(tw_envelopes.file) WHERE pos_env IS NOT NULL
  UNION SELECT sound_env FROM tw_sound_sources(tw_envelopes.file) WHERE sound_env IS NOT NULL);
SELECT group_concat(env || ':' || kind || ':' || coalesce(name, ''), ' ') FROM tw_envelopes('samples/ddnet_features.map');
-- expect: 0:position:wobble 1:color:blink 2:sound:fade 3:position:Spin
SELECT grp, quad, pos_env FROM tw_quads('samples/ddnet_features.map') WHERE grp = 1;
-- expect: 1|0|3
DELETE FROM tw_images WHERE source = 'samples/ddnet_features.map' AND image NOT IN (SELECT image FROM tw_layers(tw_images.file) WHERE image IS NOT NULL);
SELECT group_concat(image || ':' || name, ' ') FROM tw_images('samples/ddnet_features.map');
-- expect: 0:grass_main 1:checker
SELECT group_concat(layer_index || ':' || image, ' ') FROM tw_layers('samples/ddnet_features.map') WHERE image IS NOT NULL;
-- expect: 0:1 1:0 9:0
-- Removing an image lowers the indices past it: make grass_main unused first.
UPDATE tw_layers SET image = NULL WHERE source = 'samples/ddnet_features.map' AND image = 0;
DELETE FROM tw_images WHERE source = 'samples/ddnet_features.map' AND image NOT IN (SELECT image FROM tw_layers(tw_images.file) WHERE image IS NOT NULL);
SELECT group_concat(image || ':' || name, ' ') FROM tw_images('samples/ddnet_features.map');
-- expect: 0:checker
SELECT group_concat(layer_index || ':' || image, ' ') FROM tw_layers('samples/ddnet_features.map') WHERE image IS NOT NULL;
-- expect: 0:0
DELETE FROM tw_sounds WHERE source = 'samples/ddnet_features.map' AND sound NOT IN (SELECT sound FROM tw_layers(tw_sounds.file) WHERE sound IS NOT NULL);
SELECT group_concat(sound || ':' || name, ' ') FROM tw_sounds('samples/ddnet_features.map');
-- expect: 0:wind 1:bell

-- A group goes with its layers.
DELETE FROM tw_groups WHERE source = 'samples/ddnet_features.map' AND grp = 1;
SELECT group_concat(grp || ':' || coalesce(name, '') || ':' || start_layer || '+' || num_layers, ' ') FROM tw_groups('samples/ddnet_features.map');
-- expect: 0:Parallax:0+2 1:Game:2+6 2:Clipped:8+3 3::11+1
SELECT count(*) FROM tw_layers('samples/ddnet_features.map');
-- expect: 12
SELECT num_groups, num_layers, num_images, num_envelopes, num_sounds FROM tw_maps('samples/ddnet_features.map');
-- expect: 4|12|1|4|2

-- Everything reads back from the file in a new connection.
.open :memory:
SELECT num_groups, num_layers, num_images, num_envelopes, num_sounds FROM tw_maps('samples/ddnet_features.map');
-- expect: 4|12|1|4|2
SELECT group_concat(grp || ':' || layer || ':' || kind || ':' || coalesce(name, ''), ' ') FROM tw_layers('samples/ddnet_features.map');
-- expect: 0:0:quads:Checker 0:1:tiles:Hills 1:0:game:Game 1:1:front:Front 1:2:speedup:Speedup 1:3:switch:Switch 1:4:tiles:Ground 1:5:tele:Tele 2:0:sounds:Ambience 2:1:sounds_deprecated:Old sounds 2:2:quads:Empty 3:0:tiles:Deco
SELECT grp, source, shape, radius, sound_env FROM tw_sound_sources('samples/ddnet_features.map');
-- expect: 2|0|circle|1500|2
-- expect: 2|1|circle|700|2
SELECT count(*), sum(id) FROM tw_tiles('samples/ddnet_features.map') WHERE kind = 'game';
-- expect: 800|1535
SELECT 'levelsql_files reads it', ok FROM levelsql_files('samples/ddnet_features.map');

-- Every map of the samples takes a layer of each kind it may and a quad, and reads back.
CREATE TEMP TABLE kinds(kind TEXT);
CREATE TEMP TABLE before AS SELECT file, count(*) AS n FROM tw_layers('samples') WHERE grp = 0 GROUP BY file;
INSERT INTO kinds VALUES ('tiles'), ('quads'), ('sounds');
INSERT INTO tw_layers(file, grp, kind) SELECT m.file, 0, k.kind FROM tw_maps('samples') m, kinds k;
INSERT INTO tw_quads(file, grp, layer) SELECT l.file, 0, b.n + 1 FROM tw_maps('samples') l JOIN before b ON b.file = l.file;
SELECT 'group 0 of every sample took three layers', count(*) = 6 FROM before b
  WHERE (SELECT count(*) FROM tw_layers(b.file) WHERE grp = 0) = b.n + 3;
.open :memory:
SELECT 'every sample has a new 64 x 64 quad', count(*) = 6 FROM tw_quads('samples') WHERE grp = 0 AND points = '[[-32768,-32768],[32768,-32768],[-32768,32768],[32768,32768],[0,0]]';
SELECT 'every sample has a new sounds layer last in group 0', count(*) = 6 FROM tw_layers('samples') l WHERE grp = 0 AND kind = 'sounds' AND layer = (SELECT max(layer) FROM tw_layers(l.file) WHERE grp = 0);
SELECT 'and reads whole', sum(ok) = count(*) FROM levelsql_files('samples');
