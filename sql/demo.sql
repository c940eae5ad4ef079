.load build/levelsql
-- levelsql demo: `make demo` runs it; by hand, run it from the project root
-- after `make` and `make samples`, as
--   sqlite3 :memory: < sql/demo.sql
-- (the line above loads the extension from build/).  It reads the samples
-- `make samples` writes into build/samples (WWD levels, Teeworlds/DDNet
-- maps, WED and ARE areas, wz4 projects); replace that path with your own folder,
-- file or pattern.  Section 4 edits a copy it makes in build/demo.
.mode box
.print
.print '== 1. The sample files of every format, each checked by levelsql_files'
SELECT file, format, size, ok FROM levelsql_files('build/samples');

.print
.print '== 2. The WWD levels (a folder source reads only its .wwd files)'
SELECT file, name, game, num_planes AS planes, num_objects AS objects,
       compressed, checksum_kind AS checksum
FROM wwd_levels('build/samples');

.print
.print '== 3. WWD: the most common object logics over all levels'
SELECT logic, count(*) AS objects, count(DISTINCT file) AS levels,
       sum(score) AS total_score
FROM wwd_objects('build/samples')
GROUP BY logic ORDER BY objects DESC LIMIT 8;

.print
.print '== 4. WWD: a bulk UPDATE on a copy: double the health of the enemies of SAMPLE01'
.shell mkdir -p build/demo && cp build/samples/SAMPLE01.WWD build/demo/SAMPLE01-hard.WWD
SELECT logic, count(*) AS n, sum(health) AS health_before
FROM wwd_objects('build/demo/SAMPLE01-hard.WWD')
WHERE logic IN ('Officer', 'Soldier', 'Rat') GROUP BY logic;
UPDATE wwd_objects SET health = health * 2
WHERE source = 'build/demo/SAMPLE01-hard.WWD' AND logic IN ('Officer', 'Soldier', 'Rat');
SELECT logic, count(*) AS n, sum(health) AS health_after
FROM wwd_objects('build/demo/SAMPLE01-hard.WWD')
WHERE logic IN ('Officer', 'Soldier', 'Rat') GROUP BY logic;
.print 'The original is untouched:'
SELECT sum(health) AS original_health FROM wwd_objects('build/samples/SAMPLE01.WWD')
WHERE logic IN ('Officer', 'Soldier', 'Rat');

.print
.print '== 5. WWD: a join across files: treasure per level, with the level names'
SELECT l.name, count(*) AS treasures, sum(o.score) AS score,
       round(avg(o.y)) AS avg_y
FROM wwd_levels('build/samples') AS l
JOIN wwd_objects('build/samples') AS o ON o.file = l.file
WHERE o.logic LIKE '%Treasure%' OR o.logic LIKE '%Powerup%'
GROUP BY l.file ORDER BY treasures DESC;

.print
.print '== 6. WWD: tile attributes by name, per game'
SELECT l.game, wwd_flag_names('attribute', t.attribute) AS attribute, count(*) AS tiles
FROM wwd_levels('build/samples') AS l
JOIN wwd_tile_properties('build/samples') AS t ON t.file = l.file
GROUP BY l.game, t.attribute ORDER BY l.game, tiles DESC;

.print
.print '== 7. Teeworlds/DDNet: the layers of the maps, and the cookbook query "unhookable tiles per map"'
SELECT grp, layer, kind, name, width, height, image_name FROM tw_layers('build/samples/*.map');
SELECT l.file, count(*) AS unhookable
FROM tw_layers('build/samples/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind IN ('game', 'front') AND t.id = 3
GROUP BY l.file ORDER BY unhookable DESC;

.print
.print '== 8. WED and ARE: the areas, their doors, the polygons of each kind, and what the areas hold'
SELECT o.file, o.width || 'x' || o.height AS tiles, o.tileset,
       (SELECT count(*) FROM wed_doors(o.file)) AS doors,
       (SELECT count(*) FROM wed_polygons(o.file) WHERE kind = 'wall') AS walls,
       (SELECT count(*) FROM wed_overlays(o.file) WHERE overlay > 0 AND width > 0) AS water_overlays
FROM wed_overlays('build/samples') AS o WHERE o.overlay = 0;
SELECT file, door, name, closed, cells, open_polygons, closed_polygons FROM wed_doors('build/samples');
SELECT kind, wed_flag_names(flags) AS flags, count(*) AS polygons, sum(vertex_count) AS vertices
FROM wed_polygons('build/samples') GROUP BY kind, flags ORDER BY kind, polygons DESC;
-- what the areas hold (their ARE files): the doors beside their WED doors,
-- and the containers with their items
SELECT d.file, d.name, d.door_id, are_flag_names('door', d.flags) AS flags, w.cells AS wed_door_cells
FROM are_doors('build/samples') AS d JOIN are_areas('build/samples') AS a ON a.file = d.file
LEFT JOIN wed_doors('build/samples') AS w ON w.file LIKE '%/' || a.wed || '.WED' AND w.name = d.door_id;
SELECT c.file, c.name, c.type, group_concat(i.resref, ', ') AS items
FROM are_containers('build/samples') AS c
JOIN are_items('build/samples') AS i ON i.file = c.file AND i.container = c.container
GROUP BY c.file, c.container;

.print
.print '== 9. wz4: the pages of each project, and which operators load each Store by name'
SELECT file, page, name, num_ops FROM wz4_pages('build/samples');
SELECT o.file, o.page, o.op, o.name AS store,
       group_concat(p.name || '#' || l.to_op, ', ') AS loaded_by
FROM wz4_operators('build/samples') AS o
LEFT JOIN wz4_links('build/samples') AS l
  ON l.kind = 'name' AND l.file = o.file AND l.from_page = o.page AND l.from_op = o.op
LEFT JOIN wz4_pages('build/samples') AS p ON p.file = l.file AND p.page = l.page
WHERE o.class = 'Store'
GROUP BY o.file, o.page, o.op ORDER BY o.file, o.page, o.op;

.print
.print '== 10. Pictures: a preview of each format (tw_render, wwd_render, wed_render, wz4_render)'
.print 'written into build/demo; WWD and WED files hold no graphics, so those show collision and walls'
SELECT 'build/demo/tw.png' AS picture, writefile('build/demo/tw.png', tw_render('build/samples/ddrace_sample.map', 'tile=12')) AS bytes
UNION ALL
SELECT 'build/demo/wwd.png', writefile('build/demo/wwd.png', wwd_render('build/samples/SAMPLE01.WWD', 'Action', 'tile=6'))
UNION ALL
SELECT 'build/demo/wed.svg', writefile('build/demo/wed.svg', wed_render('build/samples/AR0100.WED'))
UNION ALL
SELECT 'build/demo/wz4.svg', writefile('build/demo/wz4.svg', wz4_render('build/samples/intro.wz4', 'scene'));
