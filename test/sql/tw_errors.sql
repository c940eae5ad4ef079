-- What every writable column of the Teeworlds tables refuses, on the maps
-- `make samples` writes (samples/ here: private copies; no corpus needed):
-- a value out of its range, text too long, not UTF-8 or with a NUL, JSON of
-- the wrong shape, an index past the map's images or envelopes, a field the
-- layer kind lacks, a read-only column, a name an old item has no room for.
-- Each statement must fail with the column and the limit (the first
-- `expect error`) and, where a second line says it, the row it names;
-- afterwards every map is byte for byte what it was.  All on one
-- connection, in this order.  (The values these columns take:
-- tw_samples.sql.)

-- The maps' bytes before the refusals.
CREATE TEMP TABLE tw_before AS SELECT column1 AS name, readfile('samples/' || column1) AS bytes
  FROM (VALUES ('ddnet_features.map'), ('v07_sample.map'), ('legacy.map'), ('unfinished.map'));
SELECT name FROM tw_before WHERE length(bytes) > 0;
-- expect: ddnet_features.map
-- expect: v07_sample.map
-- expect: legacy.map
-- expect: unfinished.map

-- ---- tw_maps ---------------------------------------------------------------
UPDATE tw_maps SET author = printf('%.32c', 'a') WHERE source = 'samples/ddnet_features.map';
-- expect error: column author: text of 32 bytes is longer than the 31 bytes the field holds
-- expect error: map info
UPDATE tw_maps SET map_version = printf('%.16c', 'v') WHERE source = 'samples/ddnet_features.map';
-- expect error: column map_version: text of 16 bytes is longer than the 15 bytes
UPDATE tw_maps SET credits = printf('%.128c', 'c') WHERE source = 'samples/ddnet_features.map';
-- expect error: column credits: text of 128 bytes is longer than the 127 bytes
UPDATE tw_maps SET license = printf('%.32c', 'l') WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: text of 32 bytes is longer than the 31 bytes
UPDATE tw_maps SET credits = x'00' WHERE source = 'samples/ddnet_features.map';
-- expect error: column credits: a blob; it takes UTF-8 text of at most 127 bytes
UPDATE tw_maps SET license = CAST(x'ff' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: the text is not valid UTF-8
-- a surrogate
UPDATE tw_maps SET license = CAST(x'eda080' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: the text is not valid UTF-8
-- overlong
UPDATE tw_maps SET license = CAST(x'c0af' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: the text is not valid UTF-8
-- > U+10FFFF
UPDATE tw_maps SET license = CAST(x'f4908080' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: the text is not valid UTF-8
-- cut short
UPDATE tw_maps SET license = CAST(x'e282' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: the text is not valid UTF-8
-- bad continuation
UPDATE tw_maps SET license = CAST(x'e228a1' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column license: the text is not valid UTF-8
UPDATE tw_maps SET author = CAST(x'610062' AS TEXT) WHERE source = 'samples/ddnet_features.map';
-- expect error: column author: the text contains a NUL character
UPDATE tw_maps SET settings = 'sv_team 1' WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: not valid JSON; it takes JSON like '["sv_hit 1"
UPDATE tw_maps SET settings = NULL WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: NULL; it takes JSON text
UPDATE tw_maps SET settings = 5 WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: a number, not text; it takes JSON text
UPDATE tw_maps SET settings = '{"a":1}' WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: the value is object, not an array
UPDATE tw_maps SET settings = '["ok", 1]' WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: element 1 is integer, not a string
UPDATE tw_maps SET settings = json_array('ok', printf('%.256c', 's')) WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: text of 256 bytes is longer than the 255 bytes the field holds (element 1)
UPDATE tw_maps SET settings = '["ok", "a\u0000b"]' WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: the text contains a NUL character (element 1)
UPDATE tw_maps SET settings = '[null]' WHERE source = 'samples/ddnet_features.map';
-- expect error: column settings: element 0 is null, not a string
UPDATE tw_maps SET num_layers = 5 WHERE source = 'samples/ddnet_features.map';
-- expect error: column num_layers of tw_maps is read-only
-- expect error: map info
UPDATE tw_maps SET style = '0.7' WHERE source = 'samples/ddnet_features.map';
-- expect error: column style: map: Teeworlds 0.7 has no front layers
UPDATE tw_maps SET sha256 = '' WHERE source = 'samples/ddnet_features.map';
-- expect error: column sha256 of tw_maps is read-only

-- ---- tw_groups -------------------------------------------------------------
UPDATE tw_groups SET clipping = 2 WHERE source = 'samples/ddnet_features.map' AND grp = 1;
-- expect error: column clipping: 2 is out of range; it takes an integer from 0 to 1
-- expect error: group 1
UPDATE tw_groups SET offset_x = 2147483648 WHERE source = 'samples/ddnet_features.map' AND grp = 1;
-- expect error: column offset_x: 2147483648 is out of range; it takes an integer from -2147483648 to 2147483647
UPDATE tw_groups SET clip_h = 'tall' WHERE source = 'samples/ddnet_features.map' AND grp = 2;
-- expect error: column clip_h: text 'tall' is not an integer
-- expect error: group 2
UPDATE tw_groups SET name = 'twelve bytes' WHERE source = 'samples/ddnet_features.map' AND grp = 1;
-- expect error: column name: text of 12 bytes is longer than the 11 bytes the field holds
UPDATE tw_groups SET name = NULL WHERE source = 'samples/ddnet_features.map' AND grp = 1;
-- expect error: column name: NULL; it takes UTF-8 text of at most 11 bytes
UPDATE tw_groups SET num_layers = 1 WHERE source = 'samples/ddnet_features.map' AND grp = 1;
-- expect error: column num_layers of tw_groups is read-only
UPDATE tw_groups SET version = 2 WHERE source = 'samples/ddnet_features.map' AND grp = 1;
-- expect error: column version of tw_groups is read-only

-- ---- tw_layers -------------------------------------------------------------
UPDATE tw_layers SET color_r = 1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 0;
-- expect error: column color_r: a quads layer has no color_r
-- expect error: group 0 layer 0 (layer_index 0)
UPDATE tw_layers SET image = 0 WHERE source = 'samples/ddnet_features.map' AND layer_index = 9;
-- expect error: column image: a sounds layer has no image
UPDATE tw_layers SET color_env_offset = 5 WHERE source = 'samples/ddnet_features.map' AND layer_index = 11;
-- expect error: column color_env_offset: a quads layer has no
UPDATE tw_layers SET color_g = 256 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column color_g: 256 is out of range; it takes an integer from 0 to 255
UPDATE tw_layers SET color_a = -1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column color_a: -1 is out of range
UPDATE tw_layers SET color_env = 3 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column color_env: 3 is out of range; it takes an envelope index from 0 to 2 (the map has 3), or NULL for none
UPDATE tw_layers SET color_env = 0 WHERE source = 'samples/unfinished.map' AND layer_index = 1;
-- expect error: column color_env: 0 is out of range; the map has no envelopes (NULL for none)
UPDATE tw_layers SET image = 0 WHERE source = 'samples/unfinished.map' AND layer_index = 1;
-- expect error: column image: 0 is out of range; the map has no images (NULL for none)
UPDATE tw_layers SET image = -2 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column image: -2 is out of range; it takes an image index from 0 to 1 (the map has 2), or NULL for none
UPDATE tw_layers SET image = 'x' WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column image: text 'x' is not an integer
UPDATE tw_layers SET color_env_offset = 1e10 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column color_env_offset: 10000000000.0 is out of range; it takes an integer from -2147483648
UPDATE tw_layers SET detail = 2 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column detail: 2 is out of range; it takes an integer from 0 to 1
UPDATE tw_layers SET name = 'twelve bytes' WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column name: text of 12 bytes is longer than the 11 bytes the field holds
UPDATE tw_layers SET name = 'Game' WHERE source = 'samples/legacy.map' AND layer_index = 0;
-- expect error: column name: item type 5 id 0 (layer 0): version-2 tilemap with DDNet fields has no room for a name
-- expect error: group 0 layer 0 (layer_index 0)
UPDATE tw_layers SET name = 'x' WHERE source = 'samples/legacy.map' AND layer_index = 5;
-- expect error: column name: a unknown layer has no name
-- expect error: layer_index 5 (in no group)
UPDATE tw_layers SET width = 10 WHERE source = 'samples/ddnet_features.map' AND layer_index = 4;
-- expect error: column width: layer 4: a tele layer is sized like the game layer
UPDATE tw_layers SET height = 0 WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column height: 0 is out of range
UPDATE tw_layers SET kind = 'game' WHERE source = 'samples/ddnet_features.map' AND layer_index = 1;
-- expect error: column kind of tw_layers is read-only
UPDATE tw_layers SET num_sources = 3 WHERE source = 'samples/ddnet_features.map' AND layer_index = 9;
-- expect error: column num_sources of tw_layers is read-only
UPDATE tw_layers SET sound = 1 WHERE source = 'samples/ddnet_features.map' AND layer_index = 9;
-- expect error: column sound of tw_layers is read-only

-- ---- tw_tiles --------------------------------------------------------------
UPDATE tw_tiles SET flags = 1 WHERE source = 'samples/ddnet_features.map' AND kind = 'tele' AND x = 8 AND y = 17;
-- expect error: column flags: a tele layer has no flags
-- expect error: tile x 8, y 17 of group 1 layer 2 (layer_index 4)
UPDATE tw_tiles SET force = 3 WHERE source = 'samples/ddnet_features.map' AND kind = 'game' AND x = 5 AND y = 7;
-- expect error: column force: a game layer has no force
UPDATE tw_tiles SET delay = 3 WHERE source = 'samples/ddnet_features.map' AND kind = 'tune' AND x = 5 AND y = 7;
-- expect error: column delay: a tune layer has no delay
UPDATE tw_tiles SET id = 256 WHERE source = 'samples/ddnet_features.map' AND kind = 'game' AND x = 5 AND y = 7;
-- expect error: column id: 256 is out of range; it takes an integer from 0 to 255
UPDATE tw_tiles SET angle = 32768 WHERE source = 'samples/ddnet_features.map' AND kind = 'speedup' AND x = 12 AND y = 18;
-- expect error: column angle: 32768 is out of range; it takes an integer from -32768 to 32767
UPDATE tw_tiles SET number = -1 WHERE source = 'samples/ddnet_features.map' AND kind = 'switch' AND x = 22 AND y = 18;
-- expect error: column number: -1 is out of range; it takes an integer from 0 to 255
UPDATE tw_tiles SET max_speed = 'fast' WHERE source = 'samples/ddnet_features.map' AND kind = 'speedup' AND x = 12 AND y = 18;
-- expect error: column max_speed: text 'fast' is not an integer
UPDATE tw_tiles SET x = 3 WHERE source = 'samples/ddnet_features.map' AND kind = 'game' AND x = 5 AND y = 7;
-- expect error: column x of tw_tiles is read-only
UPDATE tw_tiles SET kind = 'front' WHERE source = 'samples/ddnet_features.map' AND kind = 'game' AND x = 5 AND y = 7;
-- expect error: column kind of tw_tiles is read-only

-- a statement that fails part-way (192 + 100 > 255 at the spawn)
UPDATE tw_tiles SET id = id + 100 WHERE source = 'samples/ddnet_features.map' AND kind = 'game' AND id <> 0;
-- expect error: column id: 292 is out of range
UPDATE tw_tiles SET id = id + 100 WHERE source = 'samples/v07_sample.map' AND kind = 'game' AND id <> 0;
-- expect error: column id: 292 is out of range
-- expect error: tile x 20, y 11 of group 1 layer 0 (layer_index 1)

-- ---- tw_quads --------------------------------------------------------------
UPDATE tw_quads SET points = '[[0,0]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: the value has 1 elements; it takes exactly 5, e.g. '[[0,0],[32768,0]
-- expect error: quad 0 of group 0 layer 0 (layer_index 0)
UPDATE tw_quads SET points = '[[0,0' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: not valid JSON; it takes JSON like
UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0,"a"]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: element [4][1] is text, not an integer; it takes an integer from -2147483648 to 2147483647
UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: element 4 has 1 elements; it takes exactly 2
UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],5]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: element 4 is integer, not an array
UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0,1.5]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: element [4][1] is real, not an integer; it takes an integer
UPDATE tw_quads SET points = '[[0,0],[0,0],[0,0],[0,0],[0,2147483648]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: element [4][1] = 2147483648 is out of range; it takes an integer from -2147483648 to 2147483647
UPDATE tw_quads SET colors = '[[256,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column colors: element [0][0] = 256 is out of range; it takes an integer from 0 to 255
UPDATE tw_quads SET colors = '[[0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column colors: element 0 has 3 elements; it takes exactly 4
UPDATE tw_quads SET tex_coords = '{"a":1}' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column tex_coords: the value is object, not an array; e.g. '[[0,0],[1024,0],[0,1024],[1024,1024]]'
UPDATE tw_quads SET tex_coords = '[[0,0],[1024,0],[0,1024]]' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column tex_coords: the value has 3 elements; it takes exactly 4
UPDATE tw_quads SET pos_env = 7 WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column pos_env: 7 is out of range; it takes an envelope index from 0 to 2 (the map has 3), or NULL for none
UPDATE tw_quads SET color_env = -5 WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column color_env: -5 is out of range
UPDATE tw_quads SET color_env_offset = 2147483648 WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column color_env_offset: 2147483648 is out of range
UPDATE tw_quads SET pos_env_offset = 'soon' WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column pos_env_offset: text 'soon' is not an integer
UPDATE tw_quads SET points = 5 WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column points: a number, not text; it takes JSON text, e.g.
UPDATE tw_quads SET colors = NULL WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column colors: NULL; it takes JSON text, e.g.
UPDATE tw_quads SET quad = 3 WHERE source = 'samples/ddnet_features.map' AND quad = 0;
-- expect error: column quad of tw_quads is read-only

-- ---- tw_images -------------------------------------------------------------
UPDATE tw_images SET name = '' WHERE source = 'samples/ddnet_features.map' AND image = 1;
-- expect error: column name: empty text; it takes UTF-8 text of 1 to 127 bytes
-- expect error: image 1
UPDATE tw_images SET name = printf('%.128c', 'n') WHERE source = 'samples/ddnet_features.map' AND image = 1;
-- expect error: column name: text of 128 bytes is longer than the 127 bytes the field holds
UPDATE tw_images SET name = NULL WHERE source = 'samples/ddnet_features.map' AND image = 1;
-- expect error: column name: NULL; it takes UTF-8 text of 1 to 127 bytes
UPDATE tw_images SET name = CAST(x'6e00' AS TEXT) WHERE source = 'samples/ddnet_features.map' AND image = 1;
-- expect error: column name: the text contains a NUL character
UPDATE tw_images SET width = 2 WHERE source = 'samples/ddnet_features.map' AND image = 1;
-- expect error: column width of tw_images is read-only
UPDATE tw_images SET external = 0 WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: column external: embedding an image needs its pixels
-- expect error: image 0
UPDATE tw_images SET png = x'00' WHERE source = 'samples/ddnet_features.map' AND image = 0;
-- expect error: column png
-- expect error: not a PNG

-- ---- tw_envelopes ----------------------------------------------------------
UPDATE tw_envelopes SET points = '{}' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: the value is object, not an array; e.g. '[{"time":0
-- expect error: envelope 0
UPDATE tw_envelopes SET points = '[1]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 is integer, not an object
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0],"speed":1}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 has an unknown key 'speed'
UPDATE tw_envelopes SET points = '[{"time":10,"curve":1,"values":[0]},{"time":5,"curve":1,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 1 time 5 is before the previous point's 10; times must not decrease
UPDATE tw_envelopes SET points = '[{"time":0,"curve":6,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 curve = 6 is out of range; it takes an integer from 0 to 5
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 values has 0 elements; it takes 1 to 4
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[1,2,3,4,5]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 values has 5 elements; it takes 1 to 4
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":{"a":1}}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 values is object, not an array
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0.5]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 values[0] is real, not an integer; it takes an integer
UPDATE tw_envelopes SET points = '[{"curve":1,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 time is missing, not an integer; it takes an integer from 0 to 2147483647
UPDATE tw_envelopes SET points = '[{"time":-1,"curve":1,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 time = -1 is out of range; it takes an integer from 0 to 2147483647
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0],"in_dx":[1]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 in_dx: this map stores no bezier tangents (only 0.7 maps and DDNet maps with bezier points do)
UPDATE tw_envelopes SET points = '[{"time":0,"curve":5,"values":[0],"in_dx":[1,2,3,4,5]}]' WHERE source = 'samples/v07_sample.map' AND env = 0;
-- expect error: column points: point 0 in_dx has 5 elements; it takes 1 to 4
-- expect error: envelope 0
UPDATE tw_envelopes SET points = '[{"time":0,"curve":5,"values":[0],"out_dy":["a"]}]' WHERE source = 'samples/v07_sample.map' AND env = 0;
-- expect error: column points: point 0 out_dy[0] is text, not an integer; it takes an integer from -2147483648 to 2147483647
UPDATE tw_envelopes SET points = '[{"time":0,"curve":5,"values":[0],"out_dy":7}]' WHERE source = 'samples/v07_sample.map' AND env = 0;
-- expect error: column points: point 0 out_dy is integer, not an array
-- the members of a point, checked by the engine (LS_JSON_RECORDS)
UPDATE tw_envelopes SET points = '[{"time":0,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 curve is missing, not an integer; it takes an integer from 0 to 5
UPDATE tw_envelopes SET points = '[{"time":0,"curve":"1","values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 0 curve is text, not an integer; it takes an integer from 0 to 5
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0]},{"time":1,"curve":1,"values":[0,2147483648]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 1 values[1] = 2147483648 is out of range; it takes an integer from -2147483648 to 2147483647
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0]},{"time":1,"curve":1,"values":[0],"out_dx":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 1 out_dx: this map stores no bezier tangents (only 0.7 maps and DDNet maps with bezier points do)
-- the map's checks (store) come after every point's own: a bad curve in point 1 is named before point 0's tangent
UPDATE tw_envelopes SET points = '[{"time":0,"curve":1,"values":[0],"in_dy":[1]},{"time":1,"curve":9,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 1 curve = 9 is out of range; it takes an integer from 0 to 5
-- a point's time is checked before its tangents, point by point
UPDATE tw_envelopes SET points = '[{"time":5,"curve":1,"values":[0]},{"time":4,"curve":1,"values":[0],"in_dx":[1]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 1 time 4 is before the previous point's 5; times must not decrease
UPDATE tw_envelopes SET points = '[{"time":0,"curve":5,"values":[0],"in_dy":[1],"in_dx":[]}]' WHERE source = 'samples/v07_sample.map' AND env = 0;
-- expect error: column points: point 0 in_dx has 0 elements; it takes 1 to 4
UPDATE tw_envelopes SET name = 'x', points = '[{"time":1,"curve":1,"values":[0]},{"time":0,"curve":1,"values":[0]}]' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: point 1 time 0 is before the previous point's 1
SELECT 'a failed points write leaves the name alone', name FROM tw_envelopes('samples/ddnet_features.map') WHERE env = 0;
-- expect: a failed points write leaves the name alone|wobble
UPDATE tw_envelopes SET points = 'nope' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: not valid JSON; it takes JSON like '[{"time":0
UPDATE tw_envelopes SET points = x'5b5d' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column points: a blob, not text; it takes JSON text
UPDATE tw_envelopes SET name = printf('%.32c', 'e') WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column name: text of 32 bytes is longer than the 31 bytes the field holds
UPDATE tw_envelopes SET synchronized = 2 WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column synchronized: 2 is out of range; it takes an integer from 0 to 1
UPDATE tw_envelopes SET kind = 'color' WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column kind of tw_envelopes is read-only
UPDATE tw_envelopes SET num_points = 1 WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column num_points of tw_envelopes is read-only
UPDATE tw_envelopes SET channels = 4 WHERE source = 'samples/ddnet_features.map' AND env = 0;
-- expect error: column channels of tw_envelopes is read-only

-- ---- tw_sounds: name and data are writable --------------------------------
UPDATE tw_sounds SET name = '' WHERE source = 'samples/ddnet_features.map' AND sound = 0;
-- expect error: column name
-- expect error: sound 0
UPDATE tw_sounds SET data = NULL WHERE source = 'samples/ddnet_features.map' AND sound = 0;
-- expect error: column data: takes the bytes of an opus file
UPDATE tw_sounds SET data_size = 1 WHERE source = 'samples/ddnet_features.map' AND sound = 0;
-- expect error: column data_size of tw_sounds is read-only

-- No refused statement wrote anything: every map is byte for byte what it was.
SELECT readfile('samples/ddnet_features.map') = bytes FROM tw_before WHERE name = 'ddnet_features.map';
-- expect: 1
SELECT readfile('samples/v07_sample.map') = bytes FROM tw_before WHERE name = 'v07_sample.map';
-- expect: 1
SELECT readfile('samples/legacy.map') = bytes FROM tw_before WHERE name = 'legacy.map';
-- expect: 1
SELECT readfile('samples/unfinished.map') = bytes FROM tw_before WHERE name = 'unfinished.map';
-- expect: 1
