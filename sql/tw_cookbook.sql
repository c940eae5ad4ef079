.load build/levelsql
-- levelsql cookbook for Teeworlds / DDNet maps (.map).
-- Run from the project root after `make` and `make samples`, as
--   sqlite3 :memory: < sql/tw_cookbook.sql
-- (the line above loads the extension from build/), or paste single queries
-- into the sqlite3 shell after that .load and the .shell line below.
-- The queries read and change build/cookbook/tw, a fresh copy of the maps
-- `make samples` writes into build/samples, which the .shell line below makes
-- anew on every run (by hand: the same rm, mkdir and cp), so build/samples
-- is never changed and every run gives the same results.  To ask the same of
-- your own files, replace build/cookbook/tw with your own folder ('maps': its .map files), file ('maps/ctf2.map') or
-- pattern ('maps/*.map');
-- the edits then change those files.  The tests run every query as it
-- is, twice, and check that build/samples stays as it was.
.shell rm -rf build/cookbook/tw && mkdir -p build/cookbook/tw && cp build/samples/*.map build/cookbook/tw/
.mode box

-- Check a folder: which maps do not load, and why?
SELECT file, format, ok, error FROM levelsql_files('build/cookbook/tw/*.map');

-- The maps: dialect, size, and the identity servers announce (the file's
-- crc32 and sha256; any byte changed makes another map for them).
SELECT file, style, num_layers, num_images, file_size,
       printf('%08x', crc32) AS crc, substr(sha256, 1, 16) AS sha256_start, author
FROM tw_maps('build/cookbook/tw/*.map');

-- Unhookable, freeze and death tiles per map, by name (tw_tile_id gives
-- DDNet's number for the layer's kind: 'nohook' is 3 in the game layer and
-- NULL in the front layer, which DDNet does not take it in).  Joining on
-- the layer pushes layer_index down, so only those layers are decoded.
SELECT l.file,
       sum(t.id = tw_tile_id(l.kind, 'nohook')) AS unhookable,
       sum(t.id = tw_tile_id(l.kind, 'freeze')) AS freeze,
       sum(t.id = tw_tile_id(l.kind, 'death')) AS death
FROM tw_layers('build/cookbook/tw/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind IN ('game', 'front')
GROUP BY l.file ORDER BY unhookable DESC;

-- Maps whose game (or front) layer has no spawn ('spawn', 'spawn_red',
-- 'spawn_blue': entity tiles 192 to 194): players could not enter them.
SELECT m.file FROM tw_maps('build/cookbook/tw/*.map') AS m
WHERE NOT EXISTS (
  SELECT 1 FROM tw_layers(m.file) AS l
  JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
  WHERE l.kind IN ('game', 'front') AND tw_tile_name(l.kind, t.id) IN ('spawn', 'spawn_red', 'spawn_blue'));

-- The tiles of every physics layer kind used, most used first, with
-- DDNet's names (NULL: a number DDNet does not take in that kind).
SELECT l.kind, t.id, tw_tile_name(l.kind, t.id) AS tile, count(*) AS cells, count(DISTINCT t.file) AS maps
FROM tw_layers('build/cookbook/tw/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind <> 'tiles'
GROUP BY l.kind, t.id ORDER BY cells DESC LIMIT 20;

-- Every name of a layer kind, with its number (here the tele layer's;
-- 'game', 'front', 'speedup', 'switch', 'tune' work alike).
WITH RECURSIVE n(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM n WHERE id < 255)
SELECT id, tw_tile_name('tele', id) AS tile FROM n WHERE tile IS NOT NULL;

-- A 40x18 window of each game layer as text (x and y are pushed down):
-- '#' solid, 'x' death, '%' unhookable, '~' freeze, '|' start or finish
-- line, 'S' spawn, '.' air, '?' other.
SELECT t.file, t.y, group_concat(CASE t.id WHEN 0 THEN '.' WHEN 1 THEN '#' WHEN 2 THEN 'x' WHEN 3 THEN '%'
         WHEN 9 THEN '~' WHEN 33 THEN '|' WHEN 34 THEN '|'
         WHEN 192 THEN 'S' WHEN 193 THEN 'S' WHEN 194 THEN 'S' ELSE '?' END, '') AS row
FROM tw_layers('build/cookbook/tw/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind = 'game' AND t.x BETWEEN 0 AND 39 AND t.y BETWEEN 12 AND 29
GROUP BY t.file, t.y ORDER BY t.file, t.y;

-- Teleporter numbers with entries ('teleinevil', 'teleinweapon',
-- 'teleinhook', 'telein': ids 10, 14, 15, 26) but no exit ('teleout', 27):
-- players entering them would be stuck.
SELECT t.file, t.number, count(*) AS entries
FROM tw_layers('build/cookbook/tw/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind = 'tele' AND t.id IN (10, 14, 15, 26)
  AND NOT EXISTS (SELECT 1 FROM tw_tiles(t.file) AS o
                  WHERE o.layer_index = t.layer_index AND o.id = 27 AND o.number = t.number)
GROUP BY t.file, t.number;

-- Embedded images no layer uses (they still cost download size).
SELECT i.file, i.image, i.name, i.data_size
FROM tw_images('build/cookbook/tw/*.map') AS i
WHERE NOT i.external AND NOT EXISTS (
  SELECT 1 FROM tw_layers(i.file) AS l WHERE l.image = i.image);

-- Server settings of every map, one per row.
SELECT m.file, s.value AS setting
FROM tw_maps('build/cookbook/tw/*.map') AS m, json_each(m.settings) AS s;

-- Envelope points, one per row (time in ms, values in 1/1024).
SELECT e.file, e.env, e.kind, e.name, p.key AS point,
       json_extract(p.value, '$.time') AS time, json_extract(p.value, '$.values') AS "values"
FROM tw_envelopes('build/cookbook/tw/*.map') AS e, json_each(e.points) AS p
ORDER BY e.file, e.env, p.key LIMIT 20;

-- Bulk edits go through UPDATE inside a transaction; files are written at
-- COMMIT (each as DDNet's map_resave would write it), and ROLLBACK leaves
-- them untouched.
BEGIN;
-- Rename every layer called "Layer".
UPDATE tw_layers SET name = 'Decoration'
WHERE source = 'build/cookbook/tw/*.map' AND name = 'Layer';
-- Recolour group 2: its tile layers and its quads get a reddish tint.
UPDATE tw_layers SET color_r = 255, color_g = 160, color_b = 160
WHERE source = 'build/cookbook/tw/*.map' AND grp = 2 AND kind = 'tiles';
UPDATE tw_quads SET colors = '[[255,160,160,255],[255,160,160,255],[255,160,160,255],[255,160,160,255]]'
WHERE source = 'build/cookbook/tw/*.map' AND grp = 2;
-- Make a group move with the camera at half speed.
UPDATE tw_groups SET parallax_x = 50, parallax_y = 50
WHERE source = 'build/cookbook/tw/*.map' AND name = 'Background';
-- Turn every death tile of the game layers into an unhookable one.
UPDATE tw_tiles SET id = 3
WHERE source = 'build/cookbook/tw/*.map' AND kind = 'game' AND id = 2;
-- Add a server setting.
UPDATE tw_maps SET settings = json_insert(settings, '$[#]', 'sv_team 1')
WHERE source = 'build/cookbook/tw/*.map';
-- Delete every unused envelope and image: one DELETE each, a NOT IN over
-- their users in the same map.  The indices of the envelopes and images
-- after a deleted one move down, and every layer, quad and sound source
-- pointing at them follows; deleting one that is still used fails, naming
-- the user.
DELETE FROM tw_envelopes WHERE source = 'build/cookbook/tw/*.map' AND env NOT IN (
  SELECT pos_env FROM tw_quads(tw_envelopes.file) WHERE pos_env IS NOT NULL
  UNION SELECT color_env FROM tw_quads(tw_envelopes.file) WHERE color_env IS NOT NULL
  UNION SELECT color_env FROM tw_layers(tw_envelopes.file) WHERE color_env IS NOT NULL
  UNION SELECT pos_env FROM tw_sound_sources(tw_envelopes.file) WHERE pos_env IS NOT NULL
  UNION SELECT sound_env FROM tw_sound_sources(tw_envelopes.file) WHERE sound_env IS NOT NULL);
DELETE FROM tw_images WHERE source = 'build/cookbook/tw/*.map' AND image NOT IN (
  SELECT image FROM tw_layers(tw_images.file) WHERE image IS NOT NULL);
-- Copy a design layer into the game layer, cell by cell (the two layers
-- have the same size: the editor makes new tile layers as large as the game
-- layer): here the tiles layer "Ground" of the game group, ids and flags as
-- they are.  x and y are pushed down, so each game cell finds its design
-- cell directly.
UPDATE tw_tiles AS g SET id = d.id, flags = d.flags
FROM tw_layers('build/cookbook/tw/ddnet_features.map') AS l, tw_tiles('build/cookbook/tw/ddnet_features.map') AS d
WHERE g.source = 'build/cookbook/tw/ddnet_features.map' AND g.kind = 'game'
  AND l.name = 'Ground' AND l.kind = 'tiles' AND d.layer_index = l.layer_index AND d.x = g.x AND d.y = g.y;
SELECT file, layer_index, name, color_r, color_g, color_b FROM tw_layers('build/cookbook/tw/*.map')
WHERE name = 'Decoration' OR grp = 2;
SELECT file, count(*) AS envelopes_left FROM tw_envelopes('build/cookbook/tw/*.map') GROUP BY file;
SELECT count(*) AS game_cells_like_ground FROM tw_tiles('build/cookbook/tw/ddnet_features.map') AS g
JOIN tw_tiles AS d ON d.file = g.file AND d.x = g.x AND d.y = g.y
WHERE g.kind = 'game' AND d.layer_index = (SELECT layer_index FROM tw_layers(g.file) WHERE name = 'Ground')
  AND d.id = g.id;
ROLLBACK;

-- Resize the game layer: 10 tiles wider and 4 lower, as the editor does
-- (the map stays anchored at the top-left; new cells are empty, cells cut
-- off are dropped).  The front, tele, speedup, switch and tune layers
-- follow the game layer; design layers keep their size (resize them with
-- their own UPDATE).  Then close the new right-hand edge with solid tiles.
BEGIN;
UPDATE tw_layers SET width = width + 10, height = height + 4
WHERE source = 'build/cookbook/tw/ddrace_sample.map' AND kind = 'game';
UPDATE tw_tiles SET id = tw_tile_id('game', 'solid')
WHERE source = 'build/cookbook/tw/ddrace_sample.map' AND kind = 'game'
  AND x = (SELECT width - 1 FROM tw_layers('build/cookbook/tw/ddrace_sample.map') WHERE kind = 'game');
SELECT layer_index, kind, width, height FROM tw_layers('build/cookbook/tw/ddrace_sample.map')
WHERE width IS NOT NULL;
ROLLBACK;

-- Export every embedded image as a PNG file named after it (tw_images.png
-- is the pixels as an RGBA PNG; NULL for external images).  Here the
-- PNGs go next to the samples.
SELECT file, name, writefile('build/cookbook/tw/' || name || '.png', png) AS bytes
FROM tw_images('build/cookbook/tw/*.map') WHERE png IS NOT NULL;

-- Embed every external image from a folder of PNGs named as the game looks
-- them up (mapres/NAME.png): writing png embeds the pixels, and width,
-- height, format and external follow.  Images without a file there stay
-- external.  For this demo the folder is build/cookbook/tw, given the
-- `stripes` image under the names of the samples' external images.
SELECT e.name, writefile('build/cookbook/tw/' || e.name || '.png', i.png) AS bytes
FROM (SELECT DISTINCT name FROM tw_images('build/cookbook/tw/*.map') WHERE external = 1) AS e,
     tw_images('build/cookbook/tw/ddrace_sample.map') AS i
WHERE i.name = 'stripes';
BEGIN;
UPDATE tw_images SET png = readfile('build/cookbook/tw/' || name || '.png')
WHERE source = 'build/cookbook/tw/*.map' AND external = 1
  AND readfile('build/cookbook/tw/' || name || '.png') IS NOT NULL;
SELECT file, image, name, external, width, height, data_size FROM tw_images('build/cookbook/tw/*.map');
-- (The reverse, making an image external, drops its pixels:
--  UPDATE tw_images SET external = 1 WHERE ... )
ROLLBACK;
