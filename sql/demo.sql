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
.print '== 6. Teeworlds: the layers of a generated map, and its game tiles by kind'
SELECT grp, layer, kind, name, width, height, image_name FROM tw_layers('build/demo/*.map');
SELECT CASE t.id WHEN 1 THEN 'solid' WHEN 2 THEN 'death' WHEN 3 THEN 'unhookable'
                 WHEN 192 THEN 'spawn' ELSE 'entity ' || t.id END AS game_tile,
       count(*) AS cells
FROM tw_tiles('build/demo/*.map') AS t
WHERE t.kind = 'game' AND t.id <> 0 GROUP BY t.id ORDER BY cells DESC;
