-- The ARE tables on the generated samples (tools/gen_are_samples.c):
-- samples/AR0100.ARE, the town of AR0100.WED (actors Guard and Merchant,
-- regions To Tavern / Sign / Trap Floor / To Dungeon, entrances FromTavern
-- and Start, a chest and a barrel with five items, doors DOOR0100, DOOR0101
-- and DOOR0199, a spawn point, ambients, animations, songs, rest
-- interruptions and a map note) and samples/AR0200.ARE, the tavern (an
-- innkeeper, travel regions To Town and To Cellar, a shelf, three doors, a
-- variable, a tiled object and a projectile trap; no songs, no rest).
-- Every table's rows and values, the flag helpers, the enums, and the
-- errors of unreadable files.  Edits: are_edit.sql; the corpus:
-- are_corpus.sql and test/unit/test_are_sql.c.

SELECT 'both samples are ARE files', count(*) = 2 AND min(ok) = 1 FROM levelsql_files('samples') WHERE format = 'are';
SELECT 'a folder source reads only the ARE files', count(*) = 2 FROM are_areas('samples');
SELECT 'levelsql_columns documents 14 ARE tables', count(DISTINCT table_name) = 14 FROM levelsql_columns WHERE table_name LIKE 'are\_%' ESCAPE '\';
SELECT 'every ARE column has a doc', count(*) = 0 FROM levelsql_columns WHERE table_name LIKE 'are\_%' ESCAPE '\' AND (doc IS NULL OR doc = '');

-- rows per table
SELECT (SELECT count(*) FROM are_actors('samples')) || ' ' || (SELECT count(*) FROM are_regions('samples')) || ' ' ||
  (SELECT count(*) FROM are_spawns('samples')) || ' ' || (SELECT count(*) FROM are_entrances('samples')) || ' ' ||
  (SELECT count(*) FROM are_containers('samples')) || ' ' || (SELECT count(*) FROM are_items('samples')) || ' ' ||
  (SELECT count(*) FROM are_ambients('samples')) || ' ' || (SELECT count(*) FROM are_variables('samples')) || ' ' ||
  (SELECT count(*) FROM are_doors('samples')) || ' ' || (SELECT count(*) FROM are_animations('samples')) || ' ' ||
  (SELECT count(*) FROM are_notes('samples')) || ' ' || (SELECT count(*) FROM are_traps('samples')) || ' ' ||
  (SELECT count(*) FROM are_tiled_objects('samples'));
-- expect: 3 6 1 3 3 6 3 1 6 2 1 1 1

-- are_areas: the header, songs and rest
SELECT wed, area_script, north_area, area_type_flags, are_flag_names('area_type', area_type_flags), rain_probability, fog_probability, lightning_probability FROM are_areas('samples/AR0100.ARE');
-- expect: AR0100|AR0100|AR0200|11|outdoor|day_night|city|20|10|5
SELECT has_songs, day_song, night_song, battle_song, day_ambient1, day_ambient_volume, has_rest, rest_name, rest_creatures, rest_creature_count, rest_texts, rest_probability_night FROM are_areas('samples/AR0100.ARE');
-- expect: 1|3|4|2|AR0100D|90|1|Town rest|["WOLF"]|1|[0,0,0,0,0,0,0,0,0,0]|20
-- the tavern has neither: their columns read NULL
SELECT has_songs, has_rest, quote(day_song), quote(rest_name), quote(rest_creatures), quote(explored) FROM are_areas('samples/AR0200.ARE');
-- expect: 0|0|NULL|NULL|NULL|NULL
SELECT are_flag_names('area_type', area_type_flags) FROM are_areas('samples/AR0200.ARE');
-- expect: can_rest_indoors

-- regions: types by name, outlines, destinations, trap fields
SELECT group_concat(region || ':' || name || ':' || type, ' ') FROM are_regions('samples/AR0100.ARE');
-- expect: 0:To Tavern:travel 1:Sign:info 2:Trap Floor:trap 3:To Dungeon:travel
SELECT vertices, box_left, box_top, box_right, box_bottom, vertex_count, first_vertex, destination_area, destination_entrance, are_flag_names('region', flags) FROM are_regions('samples/AR0100.ARE') WHERE region = 0;
-- expect: [[320,440],[400,440],[400,480],[320,480]]|320|440|400|480|4|0|AR0200|FromTown|party_required
SELECT info_text, cursor FROM are_regions('samples/AR0100.ARE') WHERE type = 'info';
-- expect: 20100|22
SELECT name, trapped, trap_detection_difficulty, trap_removal_difficulty, script, are_flag_names('region', flags), info_text FROM are_regions('samples') WHERE type = 'trap';
-- expect: Trap Floor|1|60|40|TRAPFIRE|detectable|-1
SELECT 'vertices has vertex_count pairs', count(*) = 0 FROM are_regions('samples') WHERE json_array_length(vertices) <> vertex_count;

-- containers and their items
SELECT group_concat(container || ':' || name || ':' || type || ':' || first_item || '+' || item_count, ' ') FROM are_containers('samples/AR0100.ARE');
-- expect: 0:Chest:chest:0+3 1:Barrel:barrel:3+2
SELECT lock_difficulty, are_flag_names('container', flags), key_item, trapped, trap_detection_difficulty, lockpick_string, vertices FROM are_containers('samples/AR0100.ARE') WHERE name = 'Chest';
-- expect: 50|locked|KEY01|1|70|-1|[[460,360],[500,360],[500,390],[460,390]]
SELECT group_concat(item || ':' || container || '.' || slot || ':' || resref || ':' || charges1, ' ') FROM are_items('samples/AR0100.ARE');
-- expect: 0:0.0:MISC07:25 1:0.1:POTN08:1 2:0.2:SW1H01:0 3:1.0:POTN08:2 4:1.1:MISC07:5
SELECT 'every container lists its items', count(*) = 0 FROM are_containers('samples') AS c
  WHERE c.item_count <> (SELECT count(*) FROM are_items(c.file) AS i WHERE i.container = c.container);
SELECT 'the type enum compares by name', count(*) = 1 FROM are_containers('samples') WHERE type = 'shelf';

-- doors
SELECT group_concat(door || ':' || name || ':' || door_id, ' ') FROM are_doors('samples/AR0100.ARE');
-- expect: 0:Door0100:DOOR0100 1:Gate:DOOR0101 2:Ghost:DOOR0199
SELECT open_vertices, closed_vertices, open_impeded, closed_impeded, open_box_left, closed_box_right, lock_difficulty, toggle1_x, toggle2_y FROM are_doors('samples/AR0100.ARE') WHERE door = 0;
-- expect: [[330,380],[345,380],[345,440],[330,440]]|[[330,410],[390,410],[390,430],[330,430]]|[[20,34]]|[[20,34],[21,34],[22,34]]|330|390|30|320|430
SELECT name, are_flag_names('door', flags), trapped, trap_detection_difficulty, cursor, open_sound, lockpick_string FROM are_doors('samples/AR0200.ARE') WHERE trapped;
-- expect: Door0201|locked|1|55|30|GAM_07|0
SELECT 'door run counts', count(*) = 0 FROM are_doors('samples') WHERE json_array_length(open_vertices) <> open_vertex_count OR json_array_length(closed_vertices) <> closed_vertex_count
  OR json_array_length(open_impeded) <> open_impeded_count OR json_array_length(closed_impeded) <> closed_impeded_count;

-- the other sections
SELECT group_concat(actor || ':' || name || ':' || cre_file || ':' || x || ',' || y || ':' || schedule || ':' || removal_timer || ':' || are_flag_names('actor', flags) || ':' || quote(cre), ' ') FROM are_actors('samples/AR0100.ARE');
-- expect: 0:Guard:GUARD01:600,700:16777215:4294967295:cre_not_attached:NULL 1:Merchant:MERCH01:900,650:16777215:4294967295:cre_not_attached:NULL
SELECT group_concat(entrance || ':' || name || ':' || x || ',' || y || ':' || orientation, ' ') FROM are_entrances('samples');
-- expect: 0:FromTavern:360,470:4 1:Start:1000,1000:4 0:FromTown:160,880:4
SELECT name, creatures, creature_count, base_count, max_creatures, enabled, probability_day, probability_night, weights FROM are_spawns('samples');
-- expect: Spawn1|["GIBBER","XVART"]|2|2|4|1|50|100|[0,0,0,0,0,0,0,0,0,0]
SELECT group_concat(name || ':' || sounds || ':' || sound_count || ':' || are_flag_names('ambient', flags), ' ') FROM are_ambients('samples');
-- expect: Birds:["AM_BIRD1"]:1:enabled Fountain:["AM_WATR1"]:1:enabled Chatter:["AM_TAVRN"]:1:enabled
SELECT group_concat(name || ':' || resref || ':' || are_flag_names('animation', flags), ' ') FROM are_animations('samples');
-- expect: Fountain:FOUNT01:enabled|show_in_combat Torch:TORCH01:enabled|show_in_combat
SELECT name, type, are_flag_names('variable_type', type), int_value, double_value FROM are_variables('samples');
-- expect: DRINKS_SERVED|1|int|12|0.0
SELECT x, y, text, strref_location, color, count_plus_10 FROM are_notes('samples');
-- expect: 1000|850|20101|0|green|10
SELECT projectile, effect_size, length(effect), hex(substr(effect, 1, 4)), missile_id, triggers_remaining, x, y, target_type FROM are_traps('samples');
-- expect: FIREBALL|24|24|00050A0F|100|1|640|660|255
SELECT name, tile_id, flags FROM are_tiled_objects('samples');
-- expect: Trapdoor|TRAPDR|0

-- rowids: the same row has the same rowid, and a rowid finds its row
SELECT 'rowid lookup', (SELECT name FROM are_doors('samples/AR0200.ARE') WHERE rowid = (SELECT rowid FROM are_doors('samples/AR0200.ARE') WHERE door = 2)) = 'Door0202';
SELECT 'push-down on the position = plain filter', (SELECT count(*) FROM are_animations('samples') WHERE animation >= 1) = (SELECT count(*) FROM are_animations('samples') WHERE +animation >= 1);

-- are_flag_names / are_flag_value
SELECT are_flag_names('door', 131);
-- expect: open|locked|hidden
SELECT are_flag_value('door', ' hidden | open ');
-- expect: 129
SELECT are_flag_value('container', 'locked|bit31');
-- expect: 2147483649
SELECT are_flag_names('container', 64);
-- expect: bit6
SELECT are_flag_value('item', 7);
-- expect: 7
SELECT quote(are_flag_names('door', NULL));
-- expect: NULL
SELECT are_flag_names('doors', 1);
-- expect error: are_flag_names: no flag set 'doors'
-- expect error: 'door'
SELECT are_flag_value('door', 'open|ajar');
-- expect error: are_flag_value: door flags: unknown flag name 'ajar'
SELECT are_flag_names('door', -1);
-- expect error: 0 to 4294967295

-- unreadable files: the error names the file, the section and the byte offset
SELECT writefile('iwd2.are', 'AREAV9.1' || substr(b, 9)) FROM (SELECT readfile('samples/AR0200.ARE') AS b);
-- expect rows: 1
SELECT count(*) FROM are_areas('iwd2.are');
-- expect error: iwd2.are
-- expect error: ARE V9.1 (Icewind Dale II) is not read
SELECT writefile('short.are', substr(b, 1, 1000)) FROM (SELECT readfile('samples/AR0200.ARE') AS b);
-- expect rows: 1
SELECT count(*) FROM are_doors('short.are');
-- expect error: short.are
-- expect error: byte offset
SELECT ok, error LIKE '%ARE V9.1%' FROM levelsql_files('iwd2.are');
-- expect: 0|1
