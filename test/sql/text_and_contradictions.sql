-- Text means the same in every format, and a write that contradicts itself
-- is refused instead of dropping a value silently (issue 24, item 4).

-- WWD object strings: the file holds a length, never "no string", so an
-- empty one reads '' as in every other format (it read NULL, so that
-- `animation <> 'FOO'` left out most objects).
SELECT count(*) = sum(animation IS NOT NULL) AND count(*) = sum(name IS NOT NULL) AND count(*) = sum(logic IS NOT NULL)
  AND count(*) = sum(image_set IS NOT NULL) FROM wwd_objects('samples');
-- expect: 1
SELECT count(*) > 0, count(*) = (SELECT count(*) FROM wwd_objects('samples') WHERE animation <> 'FOO') FROM wwd_objects('samples');
-- expect: 1|1
SELECT count(*) > 0 FROM wwd_objects('samples') WHERE animation = '';
-- expect: 1
-- what it read writes back; NULL is no text
UPDATE wwd_objects SET animation = animation, name = name WHERE source = 'samples/SAMPLE01.WWD' AND animation = '';
UPDATE wwd_objects SET animation = NULL WHERE source = 'samples/SAMPLE01.WWD';
-- expect error: column animation: NULL; it takes text of at most 4096 bytes
SELECT count(*) FROM wwd_objects('samples/SAMPLE01.WWD') WHERE animation IS NULL;
-- expect: 0
SELECT doc LIKE '%never NULL%' FROM levelsql_columns WHERE table_name = 'wwd_objects' AND column_name = 'animation';
-- expect: 1

-- WWD cells: kind and tile set in one UPDATE must agree (the kind, applied
-- last, used to drop the tile id).
UPDATE wwd_tiles SET kind = 'filled', tile = 5 WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 0 AND y = 0;
-- expect error: tile x 0, y 0 of plane 1: column kind: 'filled' contradicts tile = 5 in the same UPDATE
UPDATE wwd_tiles SET tile = 6, kind = 'invisible' WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 0 AND y = 0;
-- expect error: column kind: 'invisible' contradicts tile = 6
UPDATE wwd_tiles SET tile = NULL, kind = 'tile' WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 0 AND y = 0;
-- expect error: column kind: 'tile' needs a tile id
-- the pairs that agree are taken
UPDATE wwd_tiles SET tile = NULL, kind = 'filled' WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 0 AND y = 0;
SELECT coalesce(tile, 'n'), kind FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE plane = 1 AND x = 0 AND y = 0;
-- expect: n|filled
UPDATE wwd_tiles SET tile = 7, kind = 'tile' WHERE source = 'samples/SAMPLE01.WWD' AND plane = 1 AND x = 0 AND y = 0;
SELECT tile, kind FROM wwd_tiles('samples/SAMPLE01.WWD') WHERE plane = 1 AND x = 0 AND y = 0;
-- expect: 7|tile

-- Teeworlds indices: -1 is not taken for NULL (only NULL means none).
SELECT color_env FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
-- expect: 1
UPDATE tw_layers SET color_env = -1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column color_env: -1 is out of range; it takes an envelope index from 0 to 2 (the map has 3), or NULL for none
UPDATE tw_quads SET color_env = -1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 0 AND quad = 0;
-- expect error: column color_env: -1 is out of range
UPDATE tw_layers SET image = -1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column image: -1 is out of range
SELECT color_env FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
-- expect: 1
UPDATE tw_layers SET color_env = NULL WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
SELECT color_env IS NULL FROM tw_layers('samples/ddnet_features.map') WHERE layer_index = 1;
-- expect: 1

-- An envelope of the wrong kind (envelopes of ddnet_features.map: 0
-- position, 1 color, 2 sound) is refused, as DDNet's editor refuses it.
UPDATE tw_quads SET pos_env = 1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 0 AND quad = 0;
-- expect error: quad 0 of group 0 layer 0 (layer_index 0): column pos_env: envelope 1 is a color envelope (4 channels); it takes a position envelope (3 channels), or NULL for none
UPDATE tw_quads SET color_env = 0 WHERE source = 'samples/ddnet_features.map' AND layer_index = 0 AND quad = 0;
-- expect error: column color_env: envelope 0 is a position envelope (3 channels); it takes a color envelope (4 channels)
UPDATE tw_layers SET color_env = 2 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column color_env: envelope 2 is a sound envelope (1 channels); it takes a color envelope
UPDATE tw_sound_sources SET sound_env = 0 WHERE source_path = 'samples/ddnet_features.map' AND source = 0;
-- expect error: column sound_env: envelope 0 is a position envelope (3 channels); it takes a sound envelope (1 channels)
UPDATE tw_sound_sources SET pos_env = 2 WHERE source_path = 'samples/ddnet_features.map' AND source = 0;
-- expect error: column pos_env: envelope 2 is a sound envelope
INSERT INTO tw_quads(file, grp, layer, pos_env) VALUES ('samples/ddnet_features.map', 0, 0, 1);
-- expect error: column pos_env: envelope 1 is a color envelope
-- the right kinds are taken, swapped in one UPDATE too
UPDATE tw_quads SET pos_env = 0, color_env = 1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 0 AND quad = 1;
SELECT pos_env, color_env FROM tw_quads('samples/ddnet_features.map') WHERE layer_index = 0 AND quad = 1;
-- expect: 0|1
UPDATE tw_sound_sources SET sound_env = 2, pos_env = 0 WHERE source_path = 'samples/ddnet_features.map' AND source = 1;
SELECT pos_env, sound_env FROM tw_sound_sources('samples/ddnet_features.map') WHERE source = 1;
-- expect: 0|2

-- werkkzeug4 text columns refuse a blob as every format does (text of any
-- bytes is CAST(x'..' AS TEXT)).
UPDATE wz4_operators SET name = x'41' WHERE source = 'samples/intro.wz4' AND page = 0 AND op = 0;
-- expect error: column name: a blob; it takes UTF-8 text (or WTF-8 for lone surrogates: CAST(x'...' AS TEXT))
UPDATE wz4_pages SET name = x'41' WHERE source = 'samples/intro.wz4';
-- expect error: column name: a blob
UPDATE wz4_projects SET music_file = x'41' WHERE source = 'samples/intro.wz4';
-- expect error: column music_file: a blob
-- and the other formats refuse it with the same words
UPDATE tw_groups SET name = x'41' WHERE source = 'samples/ddnet_features.map';
-- expect error: column name: a blob
UPDATE wwd_objects SET logic = x'41' WHERE source = 'samples/SAMPLE01.WWD';
-- expect error: column logic: a blob
UPDATE wed_doors SET name = x'41' WHERE source = 'samples/AR0100.WED';
-- expect error: column name: a blob
