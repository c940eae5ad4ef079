-- levelsql demo (make demo): run from the project root after the samples
-- were generated into build/samples by the project's own writer.
.mode box
.print
.print '== 1. The levels in build/samples'
SELECT file, name, game, num_planes AS planes, num_objects AS objects,
       compressed, checksum_kind AS checksum
FROM wwd_levels('build/samples');

.print
.print '== 2. The most common object logics over all levels'
SELECT logic, count(*) AS objects, count(DISTINCT file) AS levels,
       sum(score) AS total_score
FROM wwd_objects('build/samples')
GROUP BY logic ORDER BY objects DESC LIMIT 8;

.print
.print '== 3. A bulk UPDATE on a copy: double the health of the enemies of SAMPLE01'
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
.print '== 4. A join across files: treasure per level, with the level names'
SELECT l.name, count(*) AS treasures, sum(o.score) AS score,
       round(avg(o.y)) AS avg_y
FROM wwd_levels('build/samples') AS l
JOIN wwd_objects('build/samples') AS o ON o.file = l.file
WHERE o.logic LIKE '%Treasure%' OR o.logic LIKE '%Powerup%'
GROUP BY l.file ORDER BY treasures DESC;

.print
.print '== 5. Tile attributes by name, per game'
SELECT l.game, wwd_flag_names('attribute', t.attribute) AS attribute, count(*) AS tiles
FROM wwd_levels('build/samples') AS l
JOIN wwd_tile_properties('build/samples') AS t ON t.file = l.file
GROUP BY l.game, t.attribute ORDER BY l.game, tiles DESC;

.print
.print '== 6. Teeworlds: a generated map, its layers, and the cookbook query "unhookable tiles per map"'
SELECT grp, layer, kind, name, width, height, image_name FROM tw_layers('build/demo/*.map');
SELECT l.file, count(*) AS unhookable
FROM tw_layers('build/demo/*.map') AS l
JOIN tw_tiles AS t ON t.file = l.file AND t.layer_index = l.layer_index
WHERE l.kind IN ('game', 'front') AND t.id = 3
GROUP BY l.file ORDER BY unhookable DESC;
