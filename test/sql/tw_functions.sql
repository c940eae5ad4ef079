-- tw_tile_name(kind, id) / tw_tile_id(kind, name): DDNet's names for the
-- tile numbers of game, front, tele, speedup, switch and tune layers
-- (ext/tw/tw_functions.c; README, SQL functions).  The id lists below are
-- DDNet's IsValid*Tile rules of src/game/mapitems.cpp (ddnet/ddnet
-- 07dce75656d4), transcribed independently of the C table.

-- ---- which ids each kind names --------------------------------------------

WITH RECURSIVE n(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM n WHERE id < 255),
k(kind) AS (VALUES ('game'), ('front'), ('tele'), ('speedup'), ('switch'), ('tune'))
SELECT kind, count(*), group_concat(id, ' ') FROM (SELECT kind, id FROM k, n WHERE tw_tile_name(kind, id) IS NOT NULL ORDER BY kind, id) GROUP BY kind ORDER BY kind;
-- expect: front|122|0 2 4 5 6 9 11 12 13 16 17 18 19 20 21 22 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 64 65 66 67 71 72 73 74 75 76 88 89 90 91 96 97 98 99 104 105 106 107 112 113 128 129 144 145 190 191 192 193 194 195 196 197 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216 217 218 219 220 221 222 223 224 225 226 227 228 229 233 234 235 236 237 238 240
-- expect: game|122|0 1 2 3 4 5 6 9 11 12 13 16 17 18 19 20 21 22 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 64 65 66 67 71 72 73 74 75 76 88 89 90 91 96 97 104 105 106 107 112 113 128 129 144 145 190 191 192 193 194 195 196 197 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216 217 218 219 220 221 222 223 224 225 226 227 228 229 233 234 235 236 237 238 240
-- expect: speedup|3|0 28 29
-- expect: switch|59|0 7 9 12 13 19 20 22 23 24 25 79 95 98 99 144 145 176 177 197 198 199 200 201 202 203 204 205 206 207 208 209 210 211 212 213 214 215 216 217 218 219 220 221 222 223 224 225 226 227 228 229 233 234 235 236 237 238 240
-- expect: tele|10|0 10 14 15 26 27 29 30 31 63
-- expect: tune|4|0 68 69 70

-- ---- round trips -----------------------------------------------------------

-- every name of every kind comes back as its id, and no kind names two ids alike
WITH RECURSIVE n(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM n WHERE id < 255),
k(kind) AS (VALUES ('game'), ('front'), ('tele'), ('speedup'), ('switch'), ('tune')),
named AS (SELECT kind, id, tw_tile_name(kind, id) AS name FROM k, n WHERE tw_tile_name(kind, id) IS NOT NULL)
SELECT count(*), sum(tw_tile_id(kind, name) = id), sum(tw_tile_id(kind, upper(name)) = id), count(DISTINCT kind || ':' || name) FROM named;
-- expect: 320|320|320|320
-- the names over all kinds: lower-case snake_case, 147 of them
WITH RECURSIVE n(id) AS (SELECT 0 UNION ALL SELECT id + 1 FROM n WHERE id < 255),
k(kind) AS (VALUES ('game'), ('front'), ('tele'), ('speedup'), ('switch'), ('tune')),
names AS (SELECT DISTINCT tw_tile_name(kind, id) AS name FROM k, n WHERE tw_tile_name(kind, id) IS NOT NULL)
SELECT count(*), sum(name GLOB '[a-z]*' AND name NOT GLOB '*[^a-z0-9_]*') FROM names;
-- expect: 147|147

-- ---- the names -------------------------------------------------------------

SELECT tw_tile_name('game', 0), tw_tile_name('game', 1), tw_tile_name('game', 2), tw_tile_name('game', 3), tw_tile_name('game', 9);
-- expect: air|solid|death|nohook|freeze
SELECT tw_tile_name('game', 33), tw_tile_name('game', 34), tw_tile_name('game', 35), tw_tile_name('game', 59), tw_tile_name('game', 60);
-- expect: start|finish|time_checkpoint_0|time_checkpoint_24|stop
SELECT tw_tile_name('game', 192), tw_tile_name('game', 193), tw_tile_name('game', 194), tw_tile_name('game', 240);
-- expect: spawn|spawn_red|spawn_blue|door
SELECT tw_tile_name('game', 144), tw_tile_name('game', 145), tw_tile_name('game', 190), tw_tile_name('game', 219);
-- expect: lfreeze|lunfreeze|entities_off_1|laser_len
SELECT group_concat(tw_tile_name('tele', value), ' ') FROM (SELECT value FROM json_each('[10,14,15,26,27,29,30,31,63]'));
-- expect: teleinevil teleinweapon teleinhook telein teleout telecheck telecheckout telecheckin telecheckinevil
SELECT tw_tile_name('speedup', 28), tw_tile_name('speedup', 29), tw_tile_name('tune', 68), tw_tile_name('tune', 69), tw_tile_name('tune', 70);
-- expect: speed_boost_old|speed_boost|tune|tune_lock_enable|tune_lock_disable
SELECT group_concat(tw_tile_name('switch', value), ' ') FROM (SELECT value FROM json_each('[7,19,22,23,24,25,79,95,98,176,177,197,240]'));
-- expect: jump hit_enable switchtimedopen switchtimedclose switchopen switchclose add_time subtract_time allow_tele_gun env_trigger env_reset_stop armor_1 door

-- one number, two names: the kind decides
SELECT tw_tile_name('game', 22), tw_tile_name('switch', 22), tw_tile_name('tele', 29), tw_tile_name('speedup', 29);
-- expect: solo_disable|switchtimedopen|telecheck|speed_boost
SELECT tw_tile_id('game', 'solo_disable'), tw_tile_id('switch', 'switchtimedopen'), tw_tile_id('tele', 'telecheck'), tw_tile_id('speedup', 'speed_boost');
-- expect: 22|22|29|29

-- ---- ids a kind does not take: NULL ---------------------------------------

-- DDNet's front layer takes no solid or unhookable tile; the game layer no
-- tele gun allowances; the switch layer no spawns; tele layers no freeze
SELECT tw_tile_name('front', 1) IS NULL, tw_tile_name('front', 3) IS NULL, tw_tile_name('game', 98) IS NULL,
  tw_tile_name('switch', 192) IS NULL, tw_tile_name('tele', 9) IS NULL, tw_tile_name('game', 26) IS NULL;
-- expect: 1|1|1|1|1|1
-- unnamed numbers and numbers beyond a byte
SELECT tw_tile_name('game', 8) IS NULL, tw_tile_name('game', 77) IS NULL, tw_tile_name('game', 255) IS NULL,
  tw_tile_name('game', 256) IS NULL, tw_tile_name('game', -1) IS NULL, tw_tile_name('game', 9223372036854775807) IS NULL;
-- expect: 1|1|1|1|1|1
-- the credits tiles of DDNet's entities image: no layer takes them
SELECT tw_tile_name('game', 140) IS NULL, tw_tile_name('front', 159) IS NULL, tw_tile_name('switch', 143) IS NULL;
-- expect: 1|1|1
-- a name DDNet has, in a kind that does not take it
SELECT tw_tile_id('front', 'nohook') IS NULL, tw_tile_id('tele', 'freeze') IS NULL, tw_tile_id('switch', 'spawn') IS NULL,
  tw_tile_id('game', 'telein') IS NULL;
-- expect: 1|1|1|1
-- design layers ('tiles'): their ids index an image, no names
SELECT tw_tile_name('tiles', 0) IS NULL, tw_tile_name('tiles', 9) IS NULL, tw_tile_id('tiles', 'freeze') IS NULL;
-- expect: 1|1|1

-- ---- NULLs, case, types ------------------------------------------------------

SELECT tw_tile_name(NULL, 9) IS NULL, tw_tile_name('game', NULL) IS NULL, tw_tile_id(NULL, 'freeze') IS NULL,
  tw_tile_id('game', NULL) IS NULL, tw_tile_name(NULL, NULL) IS NULL;
-- expect: 1|1|1|1|1
SELECT tw_tile_name('GAME', 9), tw_tile_id('Game', 'FREEZE'), tw_tile_id('game', 'Spawn_Red');
-- expect: freeze|9|193
-- an id in text is taken as the number it spells
SELECT tw_tile_name('game', '9'), typeof(tw_tile_id('game', 'freeze'));
-- expect: freeze|integer

-- ---- errors ---------------------------------------------------------------

SELECT tw_tile_name('quads', 1);
-- expect error: tw_tile_name: unknown layer kind 'quads'
-- expect error: known: game, front, tele, speedup, switch, tune
SELECT tw_tile_id('gmae', 'freeze');
-- expect error: tw_tile_id: unknown layer kind 'gmae'
SELECT tw_tile_name('game', 'freeze');
-- expect error: tw_tile_name: id is a tile index, an integer
SELECT tw_tile_name('game', 9.5);
-- expect error: id is a tile index
SELECT tw_tile_name('game', x'09');
-- expect error: id is a tile index
SELECT tw_tile_id('game', 'frezee');
-- expect error: tw_tile_id: no layer kind has a tile named 'frezee'
-- expect error: DDNet's TILE_ and ENTITY_ names (src/game/mapitems.h)
-- expect error: README, SQL functions
-- DDNet's enum names with their prefix are not names here
SELECT tw_tile_id('game', 'TILE_FREEZE');
-- expect error: no layer kind has a tile named 'TILE_FREEZE'
-- the unknown kind is reported before the name
SELECT tw_tile_id('quads', 'frezee');
-- expect error: unknown layer kind 'quads'

-- ---- deterministic and innocuous ------------------------------------------

-- usable in generated columns and indexes, even with trusted_schema off
PRAGMA trusted_schema = 0;
-- expect ok
CREATE TABLE cells(kind TEXT, id INTEGER, name TEXT AS (tw_tile_name(kind, id)));
-- expect ok
CREATE INDEX cells_by_id ON cells(tw_tile_id(kind, name));
-- expect ok
INSERT INTO cells(kind, id) VALUES ('game', 9), ('tele', 26), ('front', 3);
-- expect ok
SELECT kind, id, name, tw_tile_id(kind, name) FROM cells ORDER BY rowid;
-- expect: game|9|freeze|9
-- expect: tele|26|telein|26
-- expect: front|3||
PRAGMA trusted_schema = 1;
-- expect ok

-- ---- on the sample maps ----------------------------------------------------

-- the game layers' tiles by name
SELECT tw_tile_name(l.kind, t.id) AS tile, count(*)
FROM tw_layers('samples/*.map') AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind = 'game' GROUP BY tile ORDER BY count(*) DESC, tile;
-- expect: air|5144
-- expect: solid|899
-- expect: finish|40
-- expect: start|40
-- expect: nohook|32
-- expect: death|15
-- expect: freeze|8
-- expect: spawn|6
-- expect: spawn_blue|1
-- expect: spawn_red|1
-- every physics layer's cells have names (ddrace_sample.map's front layer
-- holds freeze tiles; its unhookable ceiling is in the game layer, since
-- DDNet's front layer takes no unhookable tile)
SELECT l.kind, t.id, count(*)
FROM tw_layers('samples/*.map') AS l JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind NOT IN ('tiles', 'game') AND tw_tile_name(l.kind, t.id) IS NULL GROUP BY 1, 2;
-- expect rows: 0
-- selecting by name: the same cells as by number
SELECT count(*) FROM tw_layers('samples/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE t.id = tw_tile_id(l.kind, 'telein');
-- expect: 4
