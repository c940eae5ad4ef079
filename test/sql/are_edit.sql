-- Writes to the ARE tables on the generated samples (samples/AR0100.ARE,
-- the town; samples/AR0200.ARE, the tavern: see are_tables.sql): a no-op
-- rewrite byte for byte, UPDATE of fields, lists, outlines and blocks,
-- INSERT and DELETE on every section table with the counts, offsets and
-- run references kept right (a container's items go with it, the other
-- containers' first_item follows), rows that keep their identity through
-- inserts and deletes in one statement and one transaction, and every bad
-- value refused with a message naming the column.  Each write is read back
-- by a new connection, and the written file must load.
ATTACH 'keep.db' AS keep;
CREATE TABLE keep.orig AS SELECT name, data FROM fsdir('samples') WHERE name GLOB '*.ARE';

-- ---- no-op writes --------------------------------------------------------------

UPDATE are_doors SET name = name, open_vertices = open_vertices WHERE source = 'samples';
SELECT 'a no-op UPDATE writes no file', json_extract(levelsql_cache_stats(), '$.writes') = 0 FROM (SELECT 1);
UPDATE are_areas SET wed = wed WHERE source = 'samples' AND options = 'rewrite=1';
SELECT 'rewrite=1 re-saves both areas', json_extract(levelsql_cache_stats(), '$.writes') = 2 FROM (SELECT 1);
SELECT 'no-op rewrites are byte-identical', count(*) = 2 FROM keep.orig AS o WHERE readfile(o.name) = o.data;

-- ---- UPDATE ----------------------------------------------------------------------

-- fields of every kind in one statement per table; read back in a new connection
UPDATE are_areas SET wed = 'AR0101', area_type_flags = are_flag_value('area_type', 'outdoor|weather'), snow_probability = 7, day_song = 9, rest_creatures = '["WOLF","BEAR","ORC01"]', rest_texts = '[1,2,3,4,5,6,7,8,9,-1]'
  WHERE source = 'samples/AR0100.ARE';
UPDATE are_regions SET destination_entrance = 'Cellar', info_text = -1, flags = are_flag_value('region', 'party_required|tutorial_only') WHERE source = 'samples/AR0200.ARE' AND name = 'To Cellar';
UPDATE are_containers SET type = 'crate', lock_difficulty = 99, key_item = 'KEY02', lockpick_string = 12345 WHERE source = 'samples/AR0100.ARE' AND name = 'Barrel';
UPDATE are_items SET charges1 = 77, flags = are_flag_value('item', 'identified|stolen') WHERE source = 'samples/AR0100.ARE' AND resref = 'SW1H01';
UPDATE are_spawns SET creatures = '["KOBOLD"]', weights = '[5,0,0,0,0,0,0,0,0,255]' WHERE source = 'samples/AR0100.ARE';
UPDATE are_ambients SET sounds = '["AM_A","AM_B","AM_C"]', volume = 33 WHERE source = 'samples/AR0200.ARE';
UPDATE are_variables SET double_value = 2.5, script_name = 'Barkeep' WHERE source = 'samples/AR0200.ARE';
UPDATE are_notes SET color = 'red', text = 99 WHERE source = 'samples/AR0100.ARE';
UPDATE are_traps SET effect = x'0102030405', z = 12 WHERE source = 'samples/AR0200.ARE';
UPDATE are_actors SET cre = x'435245205631' WHERE source = 'samples/AR0100.ARE' AND name = 'Merchant';
UPDATE are_tiled_objects SET flags = 2, tile_id = 'TRAPDR2' WHERE source = 'samples/AR0200.ARE';
UPDATE are_animations SET flags = flags | are_flag_value('animation', 'mirrored'), transparency = 128 WHERE source = 'samples/AR0100.ARE' AND name = 'Torch';
.open :memory:
SELECT wed, are_flag_names('area_type', area_type_flags), snow_probability, day_song, night_song, rest_creatures, rest_creature_count, rest_texts FROM are_areas('samples/AR0100.ARE');
-- expect: AR0101|outdoor|weather|7|9|4|["WOLF","BEAR","ORC01"]|3|[1,2,3,4,5,6,7,8,9,-1]
SELECT destination_entrance, info_text, are_flag_names('region', flags), vertices FROM are_regions('samples/AR0200.ARE') WHERE name = 'To Cellar';
-- expect: Cellar|-1|party_required|tutorial_only|[[1000,860],[1060,860],[1060,920],[1000,920]]
SELECT type, lock_difficulty, key_item, lockpick_string, first_item, item_count FROM are_containers('samples/AR0100.ARE') WHERE name = 'Barrel';
-- expect: crate|99|KEY02|12345|3|2
SELECT charges1, are_flag_names('item', flags), container, slot FROM are_items('samples/AR0100.ARE') WHERE resref = 'SW1H01';
-- expect: 77|identified|stolen|0|2
SELECT creatures, creature_count, weights FROM are_spawns('samples/AR0100.ARE');
-- expect: ["KOBOLD"]|1|[5,0,0,0,0,0,0,0,0,255]
SELECT sounds, sound_count, volume FROM are_ambients('samples/AR0200.ARE');
-- expect: ["AM_A","AM_B","AM_C"]|3|33
SELECT double_value, script_name FROM are_variables('samples/AR0200.ARE');
-- expect: 2.5|Barkeep
SELECT color, text FROM are_notes('samples/AR0100.ARE');
-- expect: red|99
SELECT hex(effect), effect_size, z FROM are_traps('samples/AR0200.ARE');
-- expect: 0102030405|5|12
SELECT name, hex(cre), cre_size, cre_offset > 0 FROM are_actors('samples/AR0100.ARE') WHERE cre IS NOT NULL;
-- expect: Merchant|435245205631|6|1
SELECT flags, tile_id FROM are_tiled_objects('samples/AR0200.ARE');
-- expect: 2|TRAPDR2
SELECT are_flag_names('animation', flags), transparency FROM are_animations('samples/AR0100.ARE') WHERE name = 'Torch';
-- expect: enabled|mirrored|show_in_combat|128
SELECT 'both areas still load', count(*) = 2 AND min(ok) = 1 FROM levelsql_files('samples') WHERE format = 'are';

-- outlines: new vertices recompute the box, an edge given in the same UPDATE wins
UPDATE are_regions SET vertices = '[[10,20],[90,25],[50,80]]' WHERE source = 'samples/AR0100.ARE' AND region = 1;
UPDATE are_doors SET closed_vertices = '[[5,6],[70,8],[30,90]]', closed_box_left = 1, open_impeded = '[]' WHERE source = 'samples/AR0100.ARE' AND door = 1;
.open :memory:
SELECT vertices, box_left, box_top, box_right, box_bottom, vertex_count FROM are_regions('samples/AR0100.ARE') WHERE region = 1;
-- expect: [[10,20],[90,25],[50,80]]|10|20|90|80|3
SELECT closed_vertices, closed_box_left, closed_box_top, closed_box_right, closed_box_bottom, open_impeded, open_impeded_count, closed_impeded FROM are_doors('samples/AR0100.ARE') WHERE door = 1;
-- expect: [[5,6],[70,8],[30,90]]|1|6|70|90|[]|0|[[87,50],[88,50],[89,50]]
SELECT 'other outlines kept', group_concat(vertices, ';') = '[[320,440],[400,440],[400,480],[320,480]];[[1200,1140],[1300,1140],[1300,1180],[1200,1180]];[[1800,1200],[1900,1200],[1900,1270],[1800,1270]]'
  FROM are_regions('samples/AR0100.ARE') WHERE region <> 1;
SELECT 'every door keeps its runs', group_concat(open_vertices || closed_impeded, ';') = '[[330,380],[345,380],[345,440],[330,440]][[20,34],[21,34],[22,34]];[[1400,580],[1420,580],[1420,640],[1400,640]][[87,50],[88,50],[89,50]];[[1700,900],[1720,900],[1720,960],[1700,960]][[106,77],[107,77],[108,77]]'
  FROM are_doors('samples/AR0100.ARE');

-- songs and rest: the columns need their record; has_songs / has_rest add and remove it
UPDATE are_areas SET day_song = 5 WHERE source = 'samples/AR0200.ARE';
-- expect error: column day_song: the area has no song entries record; set has_songs = 1 first
UPDATE are_areas SET has_songs = 1, day_song = 5, has_rest = 1, rest_creatures = '["RAT"]' WHERE source = 'samples/AR0200.ARE';
UPDATE are_areas SET has_rest = 0 WHERE source = 'samples/AR0100.ARE';
.open :memory:
SELECT has_songs, day_song, night_song, has_rest, rest_creatures, rest_texts FROM are_areas('samples/AR0200.ARE');
-- expect: 1|5|0|1|["RAT"]|[0,0,0,0,0,0,0,0,0,0]
SELECT has_songs, has_rest, quote(rest_name) FROM are_areas('samples/AR0100.ARE');
-- expect: 1|0|NULL

-- ---- INSERT and DELETE -------------------------------------------------------------

-- items: into a container (first_item of the containers after it follows), out of one
INSERT INTO are_items(file, container, resref, charges1) VALUES ('samples/AR0100.ARE', 0, 'AMUL01', 1);
INSERT INTO are_items(file, container, slot, resref) VALUES ('samples/AR0100.ARE', 1, 0, 'RING01');
DELETE FROM are_items WHERE source = 'samples/AR0100.ARE' AND resref = 'MISC07' AND container = 0;
.open :memory:
SELECT group_concat(item || ':' || container || '.' || slot || ':' || resref, ' ') FROM are_items('samples/AR0100.ARE');
-- expect: 0:0.0:POTN08 1:0.1:SW1H01 2:0.2:AMUL01 3:1.0:RING01 4:1.1:POTN08 5:1.2:MISC07
SELECT group_concat(name || ':' || first_item || '+' || item_count, ' ') FROM are_containers('samples/AR0100.ARE');
-- expect: Chest:0+3 Barrel:3+3

-- a container: INSERT with its outline, DELETE takes its items with it
INSERT INTO are_containers(file, container, name, type, vertices) VALUES ('samples/AR0100.ARE', 1, 'Sack', 'bag', '[[1,1],[9,1],[9,9]]');
INSERT INTO are_items(file, container, resref) VALUES ('samples/AR0100.ARE', 1, 'BOOK01');
DELETE FROM are_containers WHERE source = 'samples/AR0100.ARE' AND name = 'Chest';
.open :memory:
SELECT group_concat(container || ':' || name || ':' || type || ':' || first_item || '+' || item_count || ':' || vertices, ' ') FROM are_containers('samples/AR0100.ARE');
-- expect: 0:Sack:bag:0+1:[[1,1],[9,1],[9,9]] 1:Barrel:crate:1+3:[[740,680],[780,680],[780,710],[740,710]]
SELECT group_concat(resref, ' ') FROM are_items('samples/AR0100.ARE');
-- expect: BOOK01 RING01 POTN08 MISC07

-- every other section: INSERT at a position and at the end, DELETE
INSERT INTO are_actors(file, name, cre_file, x, y) VALUES ('samples/AR0200.ARE', 'Drunk', 'DRUNK01', 500, 600);
INSERT INTO are_actors(file, actor, name) VALUES ('samples/AR0200.ARE', 0, 'Bard');
INSERT INTO are_regions(file, name, type, destination_area, vertices) VALUES ('samples/AR0200.ARE', 'Back Door', 'travel', 'AR0100', '[[1,2],[3,4],[5,6],[7,8]]');
INSERT INTO are_spawns(file, name, creatures) VALUES ('samples/AR0200.ARE', 'Rats', '["RAT","RAT"]');
INSERT INTO are_entrances(file, entrance, name, x, y) VALUES ('samples/AR0200.ARE', 0, 'FromCellar', 1030, 890);
INSERT INTO are_ambients(file, name, sounds) VALUES ('samples/AR0200.ARE', 'Fire', '["AM_FIRE"]');
INSERT INTO are_variables(file, name, int_value) VALUES ('samples/AR0200.ARE', 'FIGHTS', 2);
INSERT INTO are_doors(file, name, door_id, open_vertices, closed_vertices, closed_impeded) VALUES ('samples/AR0200.ARE', 'Cellar', 'DOOR0203', '[[1,1],[2,1],[2,2]]', '[[3,3],[4,3],[4,4]]', '[[7,7]]');
INSERT INTO are_animations(file, name, resref) VALUES ('samples/AR0200.ARE', 'Candle', 'CANDLE');
INSERT INTO are_notes(file, x, y, text) VALUES ('samples/AR0200.ARE', 10, 20, 30);
INSERT INTO are_traps(file, projectile, effect) VALUES ('samples/AR0200.ARE', 'ARROW', x'AABB');
INSERT INTO are_tiled_objects(file, name) VALUES ('samples/AR0200.ARE', 'Hatch');
.open :memory:
SELECT group_concat(actor || ':' || name || ':' || schedule || ':' || are_flag_names('actor', flags), ' ') FROM are_actors('samples/AR0200.ARE');
-- expect: 0:Bard:16777215:cre_not_attached 1:Innkeeper:16777215:cre_not_attached 2:Drunk:16777215:cre_not_attached
SELECT group_concat(name || ':' || type || ':' || info_text || ':' || vertex_count || ':' || box_right, ' ') FROM are_regions('samples/AR0200.ARE');
-- expect: To Town:travel:-1:4:160 To Cellar:travel:-1:4:1060 Back Door:travel:-1:4:7
SELECT name, creatures, creature_count, schedule FROM are_spawns('samples/AR0200.ARE');
-- expect: Rats|["RAT","RAT"]|2|16777215
SELECT group_concat(entrance || ':' || name, ' ') FROM are_entrances('samples/AR0200.ARE');
-- expect: 0:FromCellar 1:FromTown
SELECT group_concat(name || ':' || are_flag_names('ambient', flags) || ':' || schedule, ' ') FROM are_ambients('samples/AR0200.ARE');
-- expect: Chatter:enabled:16777215 Fire:enabled:16777215
SELECT group_concat(name || ':' || int_value, ' ') FROM are_variables('samples/AR0200.ARE');
-- expect: DRINKS_SERVED:12 FIGHTS:2
SELECT door, name, door_id, cursor, open_vertices, closed_vertices, open_impeded, closed_impeded, closed_box_bottom FROM are_doors('samples/AR0200.ARE') WHERE name = 'Cellar';
-- expect: 3|Cellar|DOOR0203|30|[[1,1],[2,1],[2,2]]|[[3,3],[4,3],[4,4]]|[]|[[7,7]]|4
SELECT 'the other doors keep their runs', group_concat(closed_vertices, ';') = '[[120,900],[200,900],[200,920],[120,920]];[[1150,400],[1230,400],[1230,420],[1150,420]];[[640,620],[760,620],[760,640],[640,640]]'
  FROM are_doors('samples/AR0200.ARE') WHERE door < 3;
SELECT name, are_flag_names('animation', flags), schedule FROM are_animations('samples/AR0200.ARE');
-- expect: Candle|enabled|16777215
SELECT x, y, text, color FROM are_notes('samples/AR0200.ARE');
-- expect: 10|20|30|gray
SELECT group_concat(projectile || ':' || hex(effect), ' ') FROM are_traps('samples/AR0200.ARE');
-- expect: FIREBALL:0102030405 ARROW:AABB
SELECT group_concat(name, ' ') FROM are_tiled_objects('samples/AR0200.ARE');
-- expect: Trapdoor Hatch
SELECT ok FROM levelsql_files('samples/AR0200.ARE');
-- expect: 1

DELETE FROM are_actors WHERE source = 'samples/AR0200.ARE' AND name = 'Innkeeper';
DELETE FROM are_regions WHERE source = 'samples/AR0200.ARE' AND name = 'To Cellar';
DELETE FROM are_spawns WHERE source = 'samples/AR0200.ARE';
DELETE FROM are_entrances WHERE source = 'samples/AR0200.ARE' AND name = 'FromTown';
DELETE FROM are_ambients WHERE source = 'samples/AR0200.ARE' AND name = 'Chatter';
DELETE FROM are_variables WHERE source = 'samples/AR0200.ARE' AND name = 'FIGHTS';
DELETE FROM are_doors WHERE source = 'samples/AR0200.ARE' AND door = 1;
DELETE FROM are_animations WHERE source = 'samples/AR0200.ARE';
DELETE FROM are_notes WHERE source = 'samples/AR0200.ARE';
DELETE FROM are_traps WHERE source = 'samples/AR0200.ARE' AND projectile = 'FIREBALL';
DELETE FROM are_tiled_objects WHERE source = 'samples/AR0200.ARE' AND name = 'Trapdoor';
.open :memory:
SELECT (SELECT group_concat(name, ',') FROM are_actors('samples/AR0200.ARE')) || ' ' || (SELECT group_concat(name, ',') FROM are_regions('samples/AR0200.ARE')) || ' ' ||
  (SELECT count(*) FROM are_spawns('samples/AR0200.ARE')) || ' ' || (SELECT group_concat(name, ',') FROM are_entrances('samples/AR0200.ARE')) || ' ' ||
  (SELECT group_concat(name, ',') FROM are_ambients('samples/AR0200.ARE')) || ' ' || (SELECT group_concat(name, ',') FROM are_variables('samples/AR0200.ARE')) || ' ' ||
  (SELECT group_concat(name, ',') FROM are_doors('samples/AR0200.ARE')) || ' ' || (SELECT count(*) FROM are_animations('samples/AR0200.ARE')) || ' ' ||
  (SELECT count(*) FROM are_notes('samples/AR0200.ARE')) || ' ' || (SELECT group_concat(projectile || ':' || effect_size, ',') FROM are_traps('samples/AR0200.ARE')) || ' ' ||
  (SELECT group_concat(name, ',') FROM are_tiled_objects('samples/AR0200.ARE'));
-- expect: Bard,Drunk To Town,Back Door 0 FromCellar Fire DRINKS_SERVED Door0200,Door0202,Cellar 0 0 ARROW:2 Hatch
SELECT 'the regions and doors left keep their outlines', (SELECT group_concat(vertices, ';') FROM are_regions('samples/AR0200.ARE')) = '[[100,840],[160,840],[160,960],[100,960]];[[1,2],[3,4],[5,6],[7,8]]'
  AND (SELECT group_concat(closed_vertices || closed_impeded, ';') FROM are_doors('samples/AR0200.ARE')) = '[[120,900],[200,900],[200,920],[120,920]][[8,75],[9,75],[10,75]];[[640,620],[760,620],[760,640],[640,640]][[40,52],[41,52],[42,52]];[[3,3],[4,3],[4,4]][[7,7]]';
SELECT ok FROM levelsql_files('samples/AR0200.ARE');
-- expect: 1

-- ---- row identity ---------------------------------------------------------------------

-- a multi-row DELETE finds every row it collected while the rows before them go
INSERT INTO are_animations(file, name) VALUES ('samples/AR0200.ARE', 'A0'), ('samples/AR0200.ARE', 'A1'), ('samples/AR0200.ARE', 'A2'), ('samples/AR0200.ARE', 'A3'), ('samples/AR0200.ARE', 'A4');
DELETE FROM are_animations WHERE source = 'samples/AR0200.ARE' AND animation IN (0, 2, 3);
.open :memory:
SELECT group_concat(animation || ':' || name, ' ') FROM are_animations('samples/AR0200.ARE');
-- expect: 0:A1 1:A4
-- in one transaction: rowids taken before inserts and deletes still name their rows
ATTACH 'keep.db' AS keep;
BEGIN;
CREATE TABLE keep.ids AS SELECT rowid AS id, name FROM are_animations('samples/AR0200.ARE');
INSERT INTO are_animations(file, animation, name) VALUES ('samples/AR0200.ARE', 0, 'B0');
DELETE FROM are_animations WHERE source = 'samples/AR0200.ARE' AND name = 'A1';
INSERT INTO are_animations(file, animation, name) VALUES ('samples/AR0200.ARE', 0, 'B1');
UPDATE are_animations SET height = 42 WHERE source = 'samples/AR0200.ARE' AND rowid IN (SELECT id FROM keep.ids);
SELECT group_concat(name || ':' || height, ' ') FROM are_animations('samples/AR0200.ARE');
-- expect: B1:0 B0:0 A4:42
COMMIT;
.open :memory:
SELECT group_concat(animation || ':' || name || ':' || height, ' ') FROM are_animations('samples/AR0200.ARE');
-- expect: 0:B1:0 1:B0:0 2:A4:42
-- items keep their identity too: deleting two items of one container in one statement
INSERT INTO are_items(file, container, resref) VALUES ('samples/AR0200.ARE', 0, 'X1'), ('samples/AR0200.ARE', 0, 'X2'), ('samples/AR0200.ARE', 0, 'X3');
DELETE FROM are_items WHERE source = 'samples/AR0200.ARE' AND resref IN ('POTN08', 'X2');
.open :memory:
SELECT group_concat(slot || ':' || resref, ' '), (SELECT item_count FROM are_containers('samples/AR0200.ARE')) FROM are_items('samples/AR0200.ARE');
-- expect: 0:X1 1:X3|2

-- ---- bad values ---------------------------------------------------------------------------

UPDATE are_doors SET door_id = 'DOOR01234' WHERE source = 'samples/AR0100.ARE' AND door = 0;
-- expect error: door_id
UPDATE are_spawns SET creatures = '["A","B","C","D","E","F","G","H","I","J","K"]' WHERE source = 'samples/AR0100.ARE';
-- expect error: creatures
-- expect error: up to 10 resrefs
UPDATE are_spawns SET creatures = '["TOOLONGNAME"]' WHERE source = 'samples/AR0100.ARE';
-- expect error: creatures
UPDATE are_regions SET vertices = '[[1,2],[3]]' WHERE source = 'samples/AR0100.ARE' AND region = 0;
-- expect error: column vertices
-- expect error: [x,y] pairs
UPDATE are_regions SET type = 'portal' WHERE source = 'samples/AR0100.ARE' AND region = 0;
-- expect error: column type: 'portal' is not one of its values; it takes 'trap', 'info' or 'travel'
UPDATE are_areas SET has_songs = 2 WHERE source = 'samples/AR0100.ARE';
-- expect error: column has_songs
UPDATE are_containers SET first_item = 2 WHERE source = 'samples/AR0100.ARE';
-- expect error: first_item
UPDATE are_spawns SET weights = '[1,2,3]' WHERE source = 'samples/AR0100.ARE';
-- expect error: weights
UPDATE are_entrances SET x = 70000 WHERE source = 'samples/AR0100.ARE';
-- expect error: column x
INSERT INTO are_items(file, resref) VALUES ('samples/AR0100.ARE', 'NOWHERE');
-- expect error: INSERT into are_items needs container
INSERT INTO are_items(file, container, resref) VALUES ('samples/AR0100.ARE', 9, 'NOWHERE');
-- expect error: column container
INSERT INTO are_actors(file, actor) VALUES ('samples/AR0100.ARE', 7);
-- expect error: column actor
SELECT 'nothing bad was written', count(*) = 2 AND min(ok) = 1 FROM levelsql_files('samples') WHERE format = 'are';
SELECT count(*) FROM are_items('samples/AR0100.ARE') WHERE resref = 'NOWHERE';
-- expect: 0
