.load build/levelsql
-- levelsql cookbook for Infinity Engine areas (.ARE: Baldur's Gate, Icewind
-- Dale, Planescape: Torment and the Enhanced Editions), with their WED files.
-- Run from the project root after `make` and `make samples`, as
--   sqlite3 :memory: < sql/are_cookbook.sql
-- (the line above loads the extension from build/), or paste single queries
-- into the sqlite3 shell after that .load and the .shell line below.
-- The queries read and change build/cookbook/are, a fresh copy of the sample
-- areas (AR0100.ARE and AR0100.WED, a town; AR0200.ARE and AR0200.WED, a
-- tavern) that the .shell line below makes anew on every run (by hand: the
-- same rm, mkdir and cp), so build/samples is never changed and every run
-- gives the same results.  To ask the same of your own game, replace
-- build/cookbook/are with your own folder ('override': its .are and .wed
-- files), file ('override/AR0602.ARE') or pattern ('mods/**/*.are'); the
-- edits then change those files.
.shell rm -rf build/cookbook/are && mkdir -p build/cookbook/are && cp build/samples/*.ARE build/samples/*.WED build/cookbook/are/
.mode box

-- Areas at a glance: their WED, type, weather, and what they hold.
SELECT file, wed, are_flag_names('area_type', area_type_flags) AS type, rain_probability AS rain,
       (SELECT count(*) FROM are_actors(a.file)) AS actors, (SELECT count(*) FROM are_regions(a.file)) AS regions,
       (SELECT count(*) FROM are_containers(a.file)) AS containers, (SELECT count(*) FROM are_doors(a.file)) AS doors
FROM are_areas('build/cookbook/are') AS a;

-- Each area with its WED (by the resref the ARE names): the size of the
-- area in tiles and its tileset.  An area whose WED is missing shows NULLs.
SELECT a.file, a.wed, o.width || 'x' || o.height AS tiles, o.tileset
FROM are_areas('build/cookbook/are') AS a
LEFT JOIN wed_overlays('build/cookbook/are') AS o ON o.overlay = 0 AND o.file LIKE '%/' || a.wed || '.WED';

-- ARE doors with their WED doors (by door id): the WED door's cells and
-- polygons beside the ARE door's lock and trap.  Doors whose WED has no
-- door of that name show NULLs: the game would not draw them.
SELECT d.file, d.name, d.door_id, are_flag_names('door', d.flags) AS flags, d.lock_difficulty,
       w.door AS wed_door, w.cells, w.open_polygons, w.closed_polygons
FROM are_doors('build/cookbook/are') AS d
JOIN are_areas('build/cookbook/are') AS a ON a.file = d.file
LEFT JOIN wed_doors('build/cookbook/are') AS w ON w.file LIKE '%/' || a.wed || '.WED' AND w.name = d.door_id;
-- ... and the doors of each side the other lacks.
SELECT d.file, d.name, d.door_id AS missing_wed_door
FROM are_doors('build/cookbook/are') AS d JOIN are_areas('build/cookbook/are') AS a ON a.file = d.file
WHERE NOT EXISTS (SELECT 1 FROM wed_doors('build/cookbook/are') AS w WHERE w.file LIKE '%/' || a.wed || '.WED' AND w.name = d.door_id);
SELECT w.file, w.name AS wed_door_without_are_door
FROM wed_doors('build/cookbook/are') AS w JOIN are_areas('build/cookbook/are') AS a ON w.file LIKE '%/' || a.wed || '.WED'
WHERE NOT EXISTS (SELECT 1 FROM are_doors(a.file) AS d WHERE d.door_id = w.name);

-- Containers and their items; which containers hold a given item.
SELECT c.file, c.name, c.type, i.slot, i.resref, i.charges1, are_flag_names('item', i.flags) AS flags
FROM are_containers('build/cookbook/are') AS c
JOIN are_items('build/cookbook/are') AS i ON i.file = c.file AND i.container = c.container
ORDER BY c.file, c.container, i.slot;
SELECT c.file, c.name, c.x, c.y, are_flag_names('container', c.flags) AS flags
FROM are_items('build/cookbook/are') AS i
JOIN are_containers('build/cookbook/are') AS c ON c.file = i.file AND c.container = i.container
WHERE i.resref = 'POTN08';

-- Every trap with a detection difficulty above 50: regions, containers, doors.
SELECT file, 'region' AS kind, name, trap_detection_difficulty, trap_removal_difficulty FROM are_regions('build/cookbook/are') WHERE trapped AND trap_detection_difficulty > 50
UNION ALL
SELECT file, 'container', name, trap_detection_difficulty, trap_removal_difficulty FROM are_containers('build/cookbook/are') WHERE trapped AND trap_detection_difficulty > 50
UNION ALL
SELECT file, 'door', name, trap_detection_difficulty, trap_removal_difficulty FROM are_doors('build/cookbook/are') WHERE trapped AND trap_detection_difficulty > 50;

-- Travel regions and the areas they lead to: the destination area (when
-- it is among the files) and whether it has the entrance named.
SELECT r.file, r.name, r.destination_area, r.destination_entrance, t.file AS leads_to,
       e.x AS entrance_x, e.y AS entrance_y
FROM are_regions('build/cookbook/are') AS r
LEFT JOIN are_areas('build/cookbook/are') AS t ON t.file LIKE '%/' || r.destination_area || '.ARE'
LEFT JOIN are_entrances('build/cookbook/are') AS e ON e.file = t.file AND e.name = r.destination_entrance
WHERE r.type = 'travel';
-- ... the broken ones alone: no such area among the files, or no such entrance there.
SELECT r.file, r.name, r.destination_area, r.destination_entrance
FROM are_regions('build/cookbook/are') AS r
WHERE r.type = 'travel' AND NOT EXISTS (
  SELECT 1 FROM are_areas('build/cookbook/are') AS t JOIN are_entrances('build/cookbook/are') AS e ON e.file = t.file
  WHERE t.file LIKE '%/' || r.destination_area || '.ARE' AND e.name = r.destination_entrance);

-- Who is where: actors, their creature and dialog, active all day or not.
SELECT file, name, cre_file, dialog, x, y, schedule = 16777215 AS all_day FROM are_actors('build/cookbook/are');

-- Spawn points and the creatures they spawn, one row each (json_each).
SELECT s.file, s.name, c.value AS creature, s.probability_day, s.probability_night
FROM are_spawns('build/cookbook/are') AS s, json_each(s.creatures) AS c;

-- Lock every unlocked door of an area, and raise a trap (inside BEGIN ...
-- ROLLBACK here, so the files stay as they are: use COMMIT to write them).
BEGIN;
UPDATE are_doors SET flags = flags | are_flag_value('door', 'locked'), lock_difficulty = 60
WHERE source = 'build/cookbook/are/AR0200.ARE' AND NOT flags & are_flag_value('door', 'locked');
UPDATE are_regions SET trap_detection_difficulty = 90 WHERE source = 'build/cookbook/are' AND type = 'trap';
SELECT file, name, are_flag_names('door', flags) AS flags, lock_difficulty FROM are_doors('build/cookbook/are/AR0200.ARE');
ROLLBACK;

-- Put an item into a container, add a container with an outline, move a
-- travel region; first_item of the containers after it, the vertex table
-- and every offset follow.  Deleting a container deletes its items.
BEGIN;
INSERT INTO are_items(file, container, resref, charges1) VALUES ('build/cookbook/are/AR0100.ARE', 0, 'POTN52', 1);
INSERT INTO are_containers(file, name, type, x, y, vertices)
VALUES ('build/cookbook/are/AR0100.ARE', 'Crate', 'crate', 1300, 900, '[[1280,880],[1320,880],[1320,910],[1280,910]]');
UPDATE are_regions SET vertices = '[[300,440],[420,440],[420,490],[300,490]]'
WHERE source = 'build/cookbook/are/AR0100.ARE' AND name = 'To Tavern';
SELECT container, name, first_item, item_count, vertices FROM are_containers('build/cookbook/are/AR0100.ARE');
DELETE FROM are_containers WHERE source = 'build/cookbook/are/AR0100.ARE' AND name = 'Chest';
SELECT item, container, slot, resref FROM are_items('build/cookbook/are/AR0100.ARE');
ROLLBACK;

-- An ARE door for a new WED door (DOOR0203, which sql/wed_cookbook.sql
-- adds to AR0200.WED), its outlines those of the WED door's polygons.
BEGIN;
INSERT INTO are_doors(file, name, door_id, open_vertices, closed_vertices)
SELECT 'build/cookbook/are/AR0200.ARE', 'Door0203', 'DOOR0203', '[[660,100],[700,100],[700,140],[660,140]]', '[[660,100],[740,100],[740,110],[660,110]]';
SELECT door, name, door_id, open_box_left, open_box_right, closed_vertices FROM are_doors('build/cookbook/are/AR0200.ARE');
ROLLBACK;
